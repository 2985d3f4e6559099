"""Hostile input on the authoring paths (issue 14): overlays that undo each other by the
thousand, one overlay repeated thousands of times, a folder that links to itself. Each ends
with one line and exit 1; tests/test_cli.py checks the messages (EXPECT)."""

from __future__ import annotations

from pathlib import Path

RULES = 1000  # card rules per overlay, 7 values each: reading them is most of the time
REPEATS = 10_000  # times one overlay is named in a `house:` list


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    for name, effect in (("first", "skip"), ("second", "reverse")):
        (tmp / f"{name}.yaml").write_text(f"name: {name}\ncards:\n" + "".join(
            f"  r{i}: {{optional: true, effect: [{effect}]}}\n" for i in range(RULES)))
    (tmp / "repeats.yaml").write_text("name: repeats\nextends: classic\nhouse: ["
                                      + ", ".join(["stacking"] * REPEATS) + "]\n")
    folder = tmp / "looped"
    deep = folder.joinpath(*["d"] * 100)
    deep.mkdir(parents=True)
    (deep / "up").symlink_to(folder)  # a loop: not followed
    (deep / "broken.yaml").write_text("name: broken\nsettings: [\n")
    (folder / "ok.yaml").write_text("name: ok\nextends: classic\n")
    return [
        ("1,000 rules undone by an overlay", ["deck", "classic", "--house",
                                              str(tmp / "first.yaml"), "--house",
                                              str(tmp / "second.yaml")], 1),
        ("an overlay in house: 10,000 times", ["validate", str(tmp / "repeats.yaml")], 1),
        ("--house given 2,000 times", ["deck", "classic", *["--house", "jump_in"] * 2000], 1),
        ("validate a folder linked to itself", ["validate", str(folder)], 1),
    ]


# The last line each case prints begins with this (after the temporary folder's path).
EXPECT = {
    "1,000 rules undone by an overlay": "second.yaml:3:24: house rule '{tmp}/second.yaml' "
                                        "changes cards.r0.effect, which house rule "
                                        "'{tmp}/first.yaml' set",
    "an overlay in house: 10,000 times": "repeats.yaml:3:8: house rule 'stacking' is given "
                                         "twice",
    "--house given 2,000 times": "--house jump_in: house rule 'jump_in' is given twice",
    "validate a folder linked to itself": "broken.yaml:3:1: YAML syntax error",
}
