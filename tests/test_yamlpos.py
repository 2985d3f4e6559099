"""Reading YAML with positions: every value located, hostile documents refused cleanly."""

from __future__ import annotations

from uno_rules.yamlpos import MAX_NODES, load_text


def test_positions_of_values_and_keys() -> None:
    located, problems = load_text("a: 1\nb:\n  - x\n  - {c: 2}\n", "f.yaml")
    assert problems == [] and located is not None
    assert located.data == {"a": 1, "b": ["x", {"c": 2}]}
    assert located.pos(("b", 1, "c")) == ("f.yaml", 4, 9)
    assert located.key_pos(("b", 1, "c")) == ("f.yaml", 4, 6)
    assert located.pos(("b", 7, "zz")) == ("f.yaml", 3, 3)  # deepest known ancestor: b


def test_duplicate_keys_and_complex_keys_are_problems() -> None:
    _, problems = load_text("a: 1\na: 2\n? [x]\n: 3\n", "f.yaml")
    assert [(p.line, p.message) for p in problems] == [
        (2, "duplicate key 'a'"), (3, "mapping keys must be plain scalars")]


def test_recursive_alias_is_refused() -> None:
    _, problems = load_text("a: &x [1, *x]\n", "f.yaml")
    assert [p.message for p in problems] == ["an alias refers to a value that contains it"]


def test_alias_bombs_are_cut_off() -> None:
    text = "a: &a [1,1,1,1,1,1,1,1,1,1]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 10)}]\n"
        for i in range(6))
    _, problems = load_text(text, "f.yaml")
    assert len(problems) == 1 and f"more than {MAX_NODES:,} values" in problems[0].message


def test_plain_aliases_still_work() -> None:
    located, problems = load_text("a: &x [1, 2]\nb: *x\n", "f.yaml")
    assert problems == [] and located.data == {"a": [1, 2], "b": [1, 2]}


def test_syntax_errors_and_empty_files() -> None:
    _, problems = load_text("a: [1,\n", "f.yaml")
    assert problems[0].line == 2 and problems[0].message.startswith("YAML syntax error")
    _, problems = load_text("", "f.yaml")
    assert problems[0].message == "the file is empty"
