"""Reading YAML with positions: every value located, hostile documents refused cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import load_cases

from uno_rules.cli import cli
from uno_rules.load import yamlpos
from uno_rules.load.loader import check
from uno_rules.load.yamlpos import MAX_BYTES, MAX_NODES, load_file, load_text, one_load

LIMITS = load_cases("limits")
runner = CliRunner()
HOSTILE = Path(__file__).resolve().parent / "hostile" / "limits"


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
        (2, "duplicate key 'a' (first at 1:1): give each key once"),
        (3, "mapping keys must be plain scalars")]


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


# ------------------------------------------------------------------ limits before the cost
def test_hostile_shapes_end_with_their_line(tmp_path: Path) -> None:
    """Every case of bench/hostile_cases/limits.py (1 MB shapes, duplicate keys, mixed
    ranks, a chain of big files, tags, sexagesimal numbers, control characters): its exit
    code and its line (the bench measures their time and memory)."""
    for name, args, code, expected in LIMITS.hostile_files(tmp_path):
        result = runner.invoke(cli, args)
        assert result.exit_code == code, (name, result.output[-300:])
        assert expected in result.output, (name, result.output[-300:])
        assert len(result.output.splitlines()) <= 2, (name, result.output[-300:])


def test_reading_stops_at_the_limit_where_it_is_reached() -> None:
    text = "a: [" + "1, " * 30_000 + "1]\n"
    located, problems = load_text(text, "f.yaml")
    assert located is None
    assert [str(p) for p in problems] == [
        f"f.yaml:1:{5 + 3 * (MAX_NODES - 3)}: more than 20,000 values (at $)"]  # 20,001st


def test_many_duplicate_keys_are_one_line_with_their_count() -> None:
    _, problems = load_text("a: 1\n" * 9_998, "f.yaml")
    assert [str(p) for p in problems] == [
        "f.yaml:2:1: 9,997 duplicate keys, the first at 2:1 ('a') (at $.a)"]
    _, problems = load_text("a: !x 1\nb: !y 2\nc: [a, a]\nc: 1\n", "f.yaml")
    assert [str(p) for p in problems] == [
        "f.yaml:1:4: 2 YAML tags, the first at 1:4 ('!x') (at $.a)",
        "f.yaml:4:1: duplicate key 'c' (first at 3:1): give each key once (at $.c)"]


@pytest.mark.parametrize("text, where, tag", [
    ("a: !!str x\n", 4, "tag:yaml.org,2002:str"),
    ("a: !!int 5\n", 4, "tag:yaml.org,2002:int"),
    ("a: ! x\n", 4, "!"),
    ("a: !!map {b: 1}\n", 4, "tag:yaml.org,2002:map"),
    ("a: !!seq [1]\n", 4, "tag:yaml.org,2002:seq"),
    ("!!str a: 1\n", 1, "tag:yaml.org,2002:str"),
])
def test_every_tag_written_out_is_refused(text: str, where: int, tag: str) -> None:
    _, problems = load_text(text, "f.yaml")
    assert [(p.line, p.col, p.message) for p in problems] == [
        (1, where, f"unsupported YAML tag {tag!r}")]


def test_a_tag_directive_is_refused() -> None:
    _, problems = load_text("%TAG !e! tag:example.com,2000:\n---\na: 1\n", "f.yaml")
    assert [str(p) for p in problems] == ["f.yaml:1:1: YAML %TAG directives are not "
                                          "supported (at $)"]
    located, problems = load_text("%YAML 1.1\n---\na: 1\n", "f.yaml")  # not a tag
    assert problems == [] and located is not None and located.data == {"a": 1}


def test_base_60_numbers_are_strings() -> None:
    located, problems = load_text("a: 190:20:30\nb: 1:30.5\nc: 12\nd: 0x1f\ne: 1.5\nf: =\n",
                                  "f.yaml")
    assert problems == [] and located is not None
    assert located.data == {"a": "190:20:30", "b": "1:30.5", "c": 12, "d": 31, "e": 1.5,
                            "f": "="}


@pytest.mark.parametrize("text, line, col, message", [
    ("a: 1\nb: 2\nc: x\x00y\n", 3, 5, "control character U+0000 is not allowed in YAML"),
    ("a: 1\r\nb: \x1b\n", 2, 4, "control character U+001B is not allowed in YAML"),
    ("\x7f", 1, 1, "control character U+007F is not allowed in YAML"),
    ("a: 'é\uffff'\n", 1, 6, "character U+FFFF is not allowed in YAML"),
    ("a:\n  - \ud800\n", 2, 5, "character U+D800 is not allowed in YAML"),
])
def test_characters_yaml_forbids_are_located(text: str, line: int, col: int,
                                              message: str) -> None:
    _, problems = load_text(text, "f.yaml")
    assert [str(p) for p in problems] == [f"f.yaml:{line}:{col}: {message} (at $)"]


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("text, col, message", [
    ('a: "x\\e[2J"\n', 4, "control character U+001B is not allowed in YAML, even as an escape"),
    ('a: "\\0"\n', 4, "control character U+0000 is not allowed in YAML, even as an escape"),
    ('a: ["\\x07"]\n', 5, "control character U+0007 is not allowed in YAML, even as an "
     "escape"),
    ('"\\u009b": 1\n', 1, "control character U+009B is not allowed in YAML, even as an "
     "escape"),
    ('a: "\\uFFFF"\n', 4, "character U+FFFF is not allowed in YAML, even as an escape"),
])
def test_escapes_may_not_write_what_the_file_may_not_hold(
        text: str, col: int, message: str, fast: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A double-quoted escape made the characters the file check refuses (terminal escapes
    in a title or a scenario name reached the terminal as they were)."""
    if not fast:
        monkeypatch.setattr(yamlpos, "_FAST", None)
    _, problems = load_text(text, "f.yaml")
    assert [f"{p.line}:{p.col}: {p.message}" for p in problems] == [f"1:{col}: {message}"]


def test_many_escaped_control_characters_are_one_line_with_their_count() -> None:
    """bench/hostile_cases/audit.py times 15,000 of them."""
    from uno_rules.load.problems import report

    _, problems = load_text("a: [" + ", ".join(['"\\e"'] * 15_000) + "]\n", "f.yaml")
    assert [str(p) for p in report(problems)] == [
        "f.yaml:1:5: 15,000 escaped control characters, the first at 1:5 (at $.a[0])"]


def test_escapes_of_printable_characters_still_read() -> None:
    located, problems = load_text('a: "tab\\there \\u00e9 \\U0001F600\\nnext"\n', "f.yaml")
    assert problems == [] and located is not None
    assert located.data == {"a": "tab\there \u00e9 \U0001F600\nnext"}


def test_escaped_control_characters_in_hostile_files(tmp_path: Path) -> None:
    """tests/hostile/audit/: a rulebook title and a scenario name written with escapes."""
    path = HOSTILE.parent / "audit" / "escaped_control.yaml"
    expected = path.read_text(encoding="utf-8").splitlines()[0].removeprefix("# expect: ")
    result = runner.invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1 and result.output == f"{path}:{expected} (at $.title)\n"
    scenario = HOSTILE.parent / "audit" / "escaped_scenario_name.yaml"
    result = runner.invoke(cli, ["scenario", str(scenario)])
    assert result.exit_code == 2 and result.output == (
        f"{scenario}:4:11: control character U+001B is not allowed in YAML, even as an "
        "escape (at $.scenarios[0].name)\n"), result.output


def test_deep_nesting_is_refused_where_it_starts() -> None:
    _, problems = load_text("a: " + "[" * 70 + "]" * 70 + "\n", "f.yaml")
    assert [str(p) for p in problems] == ["f.yaml:1:67: nested more than 64 levels deep "
                                          "(at $)"]
    # Beyond 1,000 levels libyaml stops first; the problem is still where level 65 opens.
    _, problems = load_text("a: " + "[" * 5000 + "]" * 5000 + "\n", "f.yaml")
    assert [str(p) for p in problems] == ["f.yaml:1:68: nested more than 64 levels deep "
                                          "(at $)"]


def test_one_load_shares_one_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlpos, "MAX_NODES", 10)
    one, two = tmp_path / "one.yaml", tmp_path / "two.yaml"
    one.write_text("[1, 2, 3, 4, 5]\n")   # 6 values
    two.write_text("[1, 2, 3, 4, 5]\n")
    assert load_file(one)[1] == [] and load_file(two)[1] == []  # each alone: its own budget
    with one_load():
        assert load_file(one)[1] == []
        located, problems = load_file(two)
    assert located is None and [str(p) for p in problems] == [
        f"{two}:1:11: more than 10 values, counting the 6 of the files read before it for "
        "this rulebook (at $)"]
    assert load_file(two)[1] == []  # the cut is not remembered for another load


def test_one_load_reads_at_most_max_bytes_in_all(tmp_path: Path) -> None:
    one, two = tmp_path / "one.yaml", tmp_path / "two.yaml"
    one.write_text("a: " + "x" * 60 + "\n")
    two.write_text("b: " + "x" * 60 + "\n")
    token = MAX_BYTES.set(100)
    try:
        with one_load():
            assert load_file(one)[1] == []
            _, problems = load_file(two)
    finally:
        MAX_BYTES.reset(token)
    assert [str(p) for p in problems] == [
        f"{two}:1:1: can't read file: 64 bytes, and the files read before it for this "
        "rulebook have 64: more than the limit of 100 in all (--max-bytes to allow more) "
        "(at $)"]


def test_an_extends_chain_counts_as_one_load(tmp_path: Path) -> None:
    for i in range(4):
        base = "classic" if i == 0 else f"c{i - 1}.yaml"
        items = "".join(f"  k{j}: 1\n" for j in range(3_000))
        (tmp_path / f"c{i}.yaml").write_text(f"name: c{i}\nextends: {base}\nx{i}:\n{items}")
    assert "more than 20,000 values, counting" in " ".join(
        str(p) for p in check(tmp_path / "c3.yaml")[1])
    assert "unknown key 'x0'" in " ".join(str(p) for p in check(tmp_path / "c0.yaml")[1])


def test_the_pure_python_reader_keeps_the_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without libyaml, PyYAML's own reader gives the same data, positions and limits."""
    text = (Path(__file__).parent.parent / "rulebooks" / "no_mercy.yaml").read_text()
    text += 'x: éé\ny: [üü, x, "ß", {c: 😀, d: 1}]\n'   # columns count characters
    fast = yamlpos._parse(text, "f.yaml", MAX_NODES)
    monkeypatch.setattr(yamlpos, "_FAST", None)
    slow = yamlpos._parse(text, "f.yaml", MAX_NODES)
    assert fast[0] is not None and slow[0] is not None
    assert (fast[0].data, fast[0].positions, fast[1:]) == (slow[0].data, slow[0].positions,
                                                           slow[1:])
    _, problems = load_text("a: [" + "1, " * 30_000 + "1]\n", "f.yaml")
    assert [p.message for p in problems] == ["more than 20,000 values"]
    _, problems = load_text("a: " + "[" * 5000 + "]" * 5000 + "\n", "f.yaml")
    assert [p.message for p in problems] == ["nested more than 64 levels deep"]


def test_syntax_errors_keep_pure_python_wording_in_small_files() -> None:
    _, problems = load_text("a: [1,\n", "f.yaml")
    assert problems[0].message == ("YAML syntax error: while parsing a flow node expected "
                                   "the node content, but found '<stream end>'")
    if yamlpos._FAST is not None:  # a big file: libyaml's words, not read twice
        _, problems = load_text("a: 1\n" + "#\n" * yamlpos.REWORD + "b: [1,\n", "f.yaml")
        assert problems[0].message == ("YAML syntax error: while parsing a flow node did "
                                       "not find expected node content")


@pytest.mark.parametrize("path", sorted(HOSTILE.glob("*.yaml")), ids=lambda p: p.stem)
def test_small_hostile_files_get_one_located_line(path: Path) -> None:
    """tests/hostile/limits/: each file names its one expected line on its first line."""
    expected = path.read_text(encoding="utf-8").splitlines()[0].removeprefix("# expect: ")
    result = runner.invoke(cli, ["validate", str(path)])
    lines = result.output.splitlines()
    assert result.exit_code == 1 and len(lines) == 1, lines
    assert lines[0].startswith(f"{path}:{expected} (at "), lines
