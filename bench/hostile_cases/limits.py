"""Hostile YAML shapes within the 1 MiB limit (issue 14, "limits enforced before the cost"):
big flow lists, many keys, anchors, duplicate keys, mixed ranks, a chain of big files;
and the smaller YAML items: explicit tags, sexagesimal numbers, control characters.

``hostile_files(tmp)`` writes each input and gives (name, CLI arguments, exit code, the
expected line's text); tests/test_yamlpos.py asserts those lines, bench/hostile.py the time
and memory of ``cases(tmp)``.
"""

from __future__ import annotations

from pathlib import Path

SIZE = 1_000_000  # bytes of the big inputs: just under the 1 MiB file limit
HEAD = "name: x\nextends: classic\n"


def _fill(prefix: str, item: str, size: int, suffix: str = "") -> str:
    """``prefix`` plus copies of ``item`` (``{i}`` numbered) up to ``size`` characters."""
    parts, length, i = [prefix], len(prefix) + len(suffix), 0
    while length < size:
        part = item.format(i=i)
        parts.append(part)
        length += len(part)
        i += 1
    return "".join(parts) + suffix


def _mixed_ranks(size: int) -> str:
    """A deck group whose ranks mix numbers and names, all distinct."""
    ranks = _fill("", "{i}, r{i}, ", size - 60)
    return HEAD + "deck:\n  many: {ranks: [" + ranks + "0x], copies: 1}\n"


def hostile_files(tmp: Path) -> list[tuple[str, list[str], int, str]]:
    """Each input written under ``tmp``: (name, CLI arguments, exit code, text its output
    must hold)."""
    limit = "more than 20,000 values"
    inputs: dict[str, tuple[str, str]] = {
        "1 MB flow list of 1s": (
            _fill(HEAD + "extra: [", "1,", SIZE, "1]\n"), f":3:39995: {limit} (at $)"),
        "1 MB flow list of {}": (
            _fill(HEAD + "extra: [", "{{}},", SIZE, "{}]\n"), f":3:59988: {limit} (at $)"),
        "900 KB of distinct keys": (
            _fill(HEAD + "extra:\n", "  key{i}: 1\n", 900_000), f":10000:12: {limit}"),
        "900 KB of anchors": (
            _fill(HEAD + "extra:\n", "  - &a{i} x\n", 900_000), f":19997:5: {limit}"),
        "900 KB of aliases": (
            _fill(HEAD + "a: &a x\nextra:\n", "  - *a\n", 900_000), f":19996:5: {limit}"),
        "840 KB of one duplicated key": (
            _fill("name: x\n", "a: 1\n", 840_000), f":10000:4: {limit}"),
        "1 MB block list": (
            _fill(HEAD + "extra:\n", "- 1\n", SIZE), f":19997:3: {limit}"),
        "1 MB comment": (HEAD + "# " + "x" * SIZE + "\n", "ok "),
        "1 MB plain scalar": (HEAD + "title: " + "x" * SIZE + "\n", "ok "),
        "1 MB quoted scalar": (HEAD + 'title: "' + "x " * (SIZE // 2) + '"\n', "ok "),
        "1 MB quoted lines": (HEAD + 'title: "' + "x\n" * (SIZE // 2) + '"\n', "ok "),
        "1 MB of blank lines": (HEAD + "\n" * SIZE + "title: x\n", "ok "),
        "1 MB key": (HEAD + "x" * SIZE + ": 1\n", ":3:1000001: YAML syntax error"),
        "100 KB of mixed ranks": (
            _mixed_ranks(100_000), ":4:3: the deck has 15,724 ranks, more than 200"),
        "20 KB of mixed ranks": (
            _mixed_ranks(20_000), ":4:3: the deck has 3,416 ranks, more than 200"),
        "a rank listed 4,000 times": (
            HEAD + "deck:\n  g: {ranks: [" + "1, " * 4000 + "1], copies: 1}\n",
            ":4:18: 4,000 problems like this, the first at 4:18: rank '1' is listed twice "
            "(first at 4:15)"),
        "15,000 colours": (
            HEAD + "colors: [" + ", ".join(f"c{i:05}".replace("0", "z").replace("1", "y")
                                           .replace("2", "x").replace("3", "w")
                                           .replace("4", "v").replace("5", "u")
                                           .replace("6", "t").replace("7", "s")
                                           .replace("8", "r").replace("9", "q")
                                           for i in range(15_000)) + "]\n",
            ":3:9: 15,000 colours, more than 32"),
        "15,000 misspelt steps": (
            HEAD + "cards:\n  skip:\n    effect: [" + "skipp, " * 15_000 + "skip]\n",
            ":5:14: 1,000 problems like this, the first at 5:14: unknown primitive 'skipp'"),
        "15,000 steps": (
            HEAD + "cards:\n  skip:\n    effect: [" + "skip, " * 15_000 + "skip]\n", "ok "),
        "10,000 choose_player steps": (
            HEAD + "cards:\n  skip:\n    effect: [" + "choose_player, " * 10_000 + "skip]\n",
            "ok "),
        "!!str tag": (HEAD + "title: !!str x\n",
                      ":3:8: unsupported YAML tag 'tag:yaml.org,2002:str'"),
        "%TAG directive": ("%TAG !e! tag:example.com,2000:\n---\n" + HEAD,
                           ":1:1: YAML %TAG directives are not supported"),
        "sexagesimal target_score": (
            HEAD + "settings: {target_score: 190:20:30}\n",
            ":3:26: expected integer or a $option reference, got string '190:20:30'"),
        "NUL byte": (HEAD + "title: a\x00b\n", ":3:9: control character U+0000 is not "
                                                "allowed in YAML"),
        "control character": (HEAD + "title: a\x07b\n", ":3:9: control character U+0007 "
                                                         "is not allowed in YAML"),
        "U+FFFF": (HEAD + "title: a\uffffb\n", ":3:9: character U+FFFF is not allowed in "
                                                "YAML"),
    }
    out = []
    for i, (name, (text, expected)) in enumerate(inputs.items()):
        path = tmp / f"limits{i}.yaml"
        path.write_text(text, encoding="utf-8")
        out.append((name, ["validate", str(path)], 0 if expected == "ok " else 1, expected))
    scenario = tmp / "scenario.yaml"   # a scenario file's problems are counted too
    scenario.write_text("rulebook: classic\nplayers: 2\nscenarios:\n  - name: x\n    steps: ["
                        + "{expct: {turn: 0}}, " * 3000 + "{expect: {turn: 0}}]\n")
    out.append(("3,000 misspelt scenario steps", ["scenario", str(scenario)], 2,
                ":5:14: 3,000 problems like this, the first at 5:14: unknown step key 'expct'"))
    # An extends chain of four files of 240 KB, each 10,000 values: under the limit one by
    # one, over it together (the budget is one load's).
    for i in range(4):
        base = "classic" if i == 0 else f"chain{i - 1}.yaml"
        text = _fill(f"name: c{i}\nextends: {base}\nextra{i}:\n",
                     "  key_{i:05}_long_enough_to_fill_the_line: 1\n", 240_000)
        (tmp / f"chain{i}.yaml").write_text(text, encoding="utf-8")
    out.append(("extends chain of 4 x 240 KB", ["validate", str(tmp / "chain3.yaml")], 1,
                "chain2.yaml:4543:3: more than 20,000 values, counting the 10,915 of the files "
                "read before it for this rulebook"))
    return out


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    return [(name, args, code) for name, args, code, _ in hostile_files(tmp)]
