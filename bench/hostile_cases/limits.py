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
    inputs: dict[str, tuple[str, str]] = {
        "1 MB flow list of 1s": (
            _fill(HEAD + "extra: [", "1,", SIZE, "1]\n"), "4:"),
        "1 MB flow list of {}": (
            _fill(HEAD + "extra: [", "{{}},", SIZE, "{}]\n"), "4:"),
        "900 KB of distinct keys": (
            _fill(HEAD + "extra:\n", "  key{i}: 1\n", 900_000), ":"),
        "900 KB of anchors": (
            _fill(HEAD + "extra:\n", "  - &a{i} x\n", 900_000), ":"),
        "900 KB of aliases": (
            _fill(HEAD + "a: &a x\nextra:\n", "  - *a\n", 900_000), ":"),
        "840 KB of one duplicated key": (
            _fill("name: x\n", "a: 1\n", 840_000), ":"),
        "1 MB block list": (
            _fill(HEAD + "extra:\n", "- 1\n", SIZE), ":"),
        "1 MB comment": (
            HEAD + "# " + "x" * SIZE + "\n", ""),
        "1 MB plain scalar": (
            HEAD + "title: " + "x" * SIZE + "\n", ""),
        "1 MB quoted scalar": (
            HEAD + 'title: "' + "x " * (SIZE // 2) + '"\n', ""),
        "1 MB of blank lines": (
            HEAD + "\n" * SIZE + "title: x\n", ""),
        "1 MB key": (
            HEAD + "x" * SIZE + ": 1\n", ""),
        "100 KB of mixed ranks": (_mixed_ranks(100_000), ""),
        "20 KB of mixed ranks": (_mixed_ranks(20_000), ""),
        "!!str tag": (HEAD + "title: !!str x\n", ""),
        "%TAG directive": ("%TAG !e! tag:example.com,2000:\n---\n" + HEAD, ""),
        "sexagesimal target_score": (HEAD + "settings: {target_score: 190:20:30}\n", ""),
        "NUL byte": (HEAD + "title: a\x00b\n", ""),
        "control character": (HEAD + "title: a\x07b\n", ""),
        "U+FFFF": (HEAD + "title: a\uffffb\n", ""),
    }
    out = []
    for i, (name, (text, _)) in enumerate(inputs.items()):
        path = tmp / f"limits{i}.yaml"
        path.write_text(text, encoding="utf-8")
        out.append((name, ["validate", str(path)], 1, ""))
    # An extends chain of four files of 240 KB each: together over the budget of one load.
    for i in range(4):
        base = "classic" if i == 0 else f"chain{i - 1}.yaml"
        text = _fill(f"name: c{i}\nextends: {base}\nextra{i}:\n", "  k{i}: 1\n", 240_000)
        (tmp / f"chain{i}.yaml").write_text(text, encoding="utf-8")
    out.append(("extends chain of 4 x 240 KB", ["validate", str(tmp / "chain3.yaml")], 1, ""))
    return out


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    return [(name, args, code) for name, args, code, _ in hostile_files(tmp)]
