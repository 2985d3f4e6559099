"""What the audit of issue 14 found on the merged code: escapes that write control
characters, names in a folder that hold a newline or a terminal escape, a scenario file of
thousands of costly rounds, a starter rulebook from an invalid base. Files are copied from
tests/hostile/audit/ (where tests/test_yamlpos.py and tests/test_cli.py assert the
messages) or made here."""

from __future__ import annotations

import shutil
from pathlib import Path

FILES = Path(__file__).resolve().parent.parent.parent / "tests" / "hostile" / "audit"


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    for path in FILES.glob("*.yaml"):
        shutil.copy(path, tmp / path.name)
    folder = tmp / "downloaded"
    folder.mkdir()
    (folder / "bad\x1b[2J\nx.yaml").write_text("name: x\nextends: nope\n")
    (folder / "many.yaml").write_text("name: x\nextends: classic\ntitle: ["
                                      + ", ".join(['"\\e"'] * 15_000) + "]\n")
    shutil.copy(FILES.parent / "exits" / "retrigger.yaml", tmp / "retrigger.yaml")
    many = tmp / "many_rounds.yaml"  # 2,800 costly rounds: the file's budget stops them
    many.write_text("rulebook: retrigger.yaml\nplayers: 10\nscenarios:\n" + "".join(
        f"  - {{name: s{i}, seed: {i}, steps: []}}\n" for i in range(2800)))
    base = tmp / "base.yaml"
    base.write_text("name: base\nextends: classic\nsettings: {hand_size: many}\n")
    return [
        ("a title of escaped control characters",
         ["validate", str(tmp / "escaped_control.yaml")], 1),
        ("a scenario name with an escape",
         ["scenario", str(tmp / "escaped_scenario_name.yaml")], 2),
        ("file names with a newline and escapes, 15,000 escapes",
         ["validate", str(folder)], 1),
        ("2,800 re-triggering rounds in a file", ["scenario", str(many)], 1),
        ("new --from an invalid base", ["new", "mine", "--from", str(base), "-o",
                                        str(tmp / "mine.yaml")], 1),
    ]
