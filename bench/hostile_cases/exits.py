"""Exit codes that mean what they say, and rounds that end (issue 14, parts 4 and 5): user
errors that used to be reported as bugs (exit 3) and rulebooks whose rounds never end.
Files are copied from tests/hostile/exits/ (where tests/test_cli.py asserts the messages)
or made here."""

from __future__ import annotations

import shutil
from pathlib import Path

FILES = Path(__file__).resolve().parent.parent.parent / "tests" / "hostile" / "exits"
LONG = "a" * 300  # longer than any file system allows a name


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    for path in FILES.glob("*.yaml"):
        shutil.copy(path, tmp / path.name)
    loop = tmp / "loop.yaml"
    loop.symlink_to("loop.yaml")  # a symlink to itself
    (tmp / "extends_loop.yaml").write_text("name: x\nextends: loop.yaml\n")
    folder = tmp / "scenarios"  # one good, one failing, one malformed scenario file
    folder.mkdir()
    (folder / "good.yaml").write_text("rulebook: classic\nplayers: 2\nsteps: []\n")
    (folder / "failing.yaml").write_text("rulebook: classic\nplayers: 2\n"
                                         "steps: [{expect: {turn: 1}}]\n")
    shutil.copy(tmp / "scenario_long_name.yaml", folder / "malformed.yaml")

    def at(name: str) -> str:
        return str(tmp / name)

    return [
        ("overlay includes itself", ["deck", "classic", "--house", at("overlay_self.yaml")], 1),
        ("overlays include each other", ["validate", at("overlay_cycle_a.yaml")], 1),
        ("extends a symlink loop", ["validate", at("extends_loop.yaml")], 1),
        ("extends a path with NUL", ["validate", at("extends_nul.yaml")], 1),
        ("extends a 300-char name", ["validate", at("extends_long.yaml")], 1),
        ("house: a 300-char name", ["validate", at("house_long.yaml")], 1),
        ("house: a path with NUL", ["validate", at("house_nul.yaml")], 1),
        ("RULEBOOK of 300 chars", ["explain", LONG], 1),
        ("--house of 300 chars", ["deck", "classic", "--house", LONG + ".yaml"], 1),
        ("new NAME of 300 chars", ["new", LONG, "-o", at(LONG + ".yaml")], 1),
        ("new -o /proc/x.yaml", ["new", "x", "-o", "/proc/x.yaml"], 1),
        ("--max-bytes 10**30", ["--max-bytes", "1" + "0" * 30, "validate", "classic"], 0),
        ("scenario: rulebook cycle", ["scenario", at("scenario_cycle.yaml")], 2),
        ("scenario: 300-char rulebook", ["scenario", at("scenario_long_name.yaml")], 2),
        ("scenario DIR, one malformed", ["scenario", str(folder)], 2),
        ("points of 10**400", ["simulate", at("points_huge.yaml"), "--games", "20"], 0),
        ("re-triggering cards, 3 games", ["simulate", at("retrigger.yaml"), "--games", "3",
                                          "--players", "10"], 0),
        ("9,000-card hands, 1 game", ["simulate", at("fat_hands.yaml"), "--games", "1",
                                      "--players", "2"], 0),
    ]
