"""Wrong-typed values at the engine's edge (issue 15, item 4): in the compiled build as in
the pure one they get our one-line message, never mypyc's TypeError (an exit 3). Scenario
files from tests/hostile/compiled/ (where tests/test_build.py asserts the messages: exit 2),
and ``--version``, which names the build."""

from __future__ import annotations

from pathlib import Path

FILES = Path(__file__).resolve().parent.parent.parent / "tests" / "hostile" / "compiled"


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    found = [(f"scenario: {path.stem}", ["scenario", str(path)], 2)
             for path in sorted(FILES.glob("*.yaml"))]
    return [*found, ("--version names the build", ["--version"], 0)]
