"""The modules' old paths (uno_rules._moved): every module that moved into a layer folder
still imports at its old path, as the very module at its new one, in a fresh interpreter
too; and the old module files are gone, so nothing can import a stale copy."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import uno_rules
from uno_rules._moved import MOVED

PACKAGE = Path(uno_rules.__file__).parent


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_is_the_moved_module(old: str) -> None:
    module = importlib.import_module(old)
    assert module is importlib.import_module(MOVED[old])
    assert sys.modules[old] is module and module.__name__ == MOVED[old]
    assert module.__spec__ is not None and module.__spec__.name == MOVED[old]
    assert module.__spec__.parent == module.__package__  # its relative imports: its own
    parent, _, name = old.rpartition(".")
    assert getattr(importlib.import_module(parent), name) is module  # uno_rules.simulate
    stale = PACKAGE.joinpath(*old.split(".")[1:]).with_suffix(".py")
    assert not stale.exists(), stale


def test_old_paths_in_a_fresh_interpreter() -> None:
    """`from uno_rules.simulate import simulate` as first import, and a patch through the old
    path seen at the new one."""
    code = ("from uno_rules.simulate import simulate\n"
            "import uno_rules.agents as old, uno_rules.play.agents as new\n"
            "old.MARK = 1\n"
            "from uno_rules.sim import simulate as module\n"
            "assert simulate is module.simulate and new.MARK == 1\n"
            "from uno_rules.authoring import diff, starter\n"
            "from uno_rules.authoring.variants import diff as d2\n"
            "assert diff is d2\n"
            "from uno_rules.cli import cli, main\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stdout == "ok\n", out.stderr


def test_a_name_that_never_existed_is_still_an_import_error() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("uno_rules.no_such_module")
    with pytest.raises(AttributeError):
        uno_rules.authoring.no_such_name  # type: ignore[attr-defined]  # noqa: B018


def test_the_run_names_documented_at_simulates_paths_are_the_rounds_ones() -> None:
    """The unit of work moved to sim/rounds.py; the names the docs gave at simulate's paths
    (old: ``from uno_rules.simulate import random_moves``, docs/matches.md and bench/soak.py
    before the folders; docs/simulation.md: RunSpec) are still there, the very objects."""
    import uno_rules.sim.rounds as rounds

    for path in ("uno_rules.simulate", "uno_rules.sim.simulate"):
        module = importlib.import_module(path)
        for name in ("random_moves", "POLICIES", "RunSpec"):
            assert getattr(module, name) is getattr(rounds, name), (path, name)
