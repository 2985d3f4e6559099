"""The two builds: ``uno_rules.COMPILED`` says which one runs, ``uno-rules --version`` shows
it, and the build backend asks for mypy only when ``UNO_RULES_COMPILE=1`` asks for the
compiled engine.

CI runs this suite twice: against the pure build, and against the compiled wheel with
``UNO_RULES_EXPECT_COMPILED=1``, so a compiled run that quietly imported the pure source
tree fails here."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from importlib.machinery import ExtensionFileLoader
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import load_cases

import uno_rules
from uno_rules.cli import cli

ROOT = Path(__file__).resolve().parent.parent
# The modules the compiled build compiles: setup.py takes every engine module but __init__,
# errors, outcome and position, which stay Python.
COMPILED_MODULES = sorted(p.stem for p in (ROOT / "uno_rules" / "engine").glob("*.py")
                          if p.stem not in ("__init__", "errors", "outcome", "position"))


def test_compiled_says_which_build_runs() -> None:
    expected = os.environ.get("UNO_RULES_EXPECT_COMPILED") == "1"
    assert uno_rules.COMPILED is expected, uno_rules.engine.game.__file__


@pytest.mark.parametrize("name", COMPILED_MODULES)
def test_every_engine_module_is_built_the_same_way(name: str) -> None:
    module = importlib.import_module(f"uno_rules.engine.{name}")
    assert isinstance(module.__loader__, ExtensionFileLoader) is uno_rules.COMPILED, \
        module.__file__


def test_the_engine_has_modules_to_compile() -> None:
    assert {"game", "state", "rulebook", "actions"} <= set(COMPILED_MODULES)
    assert "errors" not in COMPILED_MODULES


def test_version_names_the_build() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    build = "compiled with mypyc" if uno_rules.COMPILED else "pure Python"
    assert result.output == f"uno-rules {uno_rules.__version__} ({build})\n"


def _backend() -> Any:
    spec = importlib.util.spec_from_file_location("uno_build", ROOT / "_build" / "uno_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("compile_", [False, True])
def test_the_backend_asks_for_mypy_only_to_compile(compile_: bool,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _backend()
    monkeypatch.chdir(ROOT)  # setuptools runs ./setup.py to list its own requirements
    monkeypatch.delenv("UNO_RULES_COMPILE", raising=False)
    if compile_:
        monkeypatch.setenv("UNO_RULES_COMPILE", "1")
    # setup.py must not import mypyc while the requirements are listed (it isn't installed
    # yet on a fresh machine): a None entry makes that import fail.
    monkeypatch.setitem(sys.modules, "mypyc", None)
    monkeypatch.setitem(sys.modules, "mypyc.build", None)
    requires = backend.get_requires_for_build_wheel()
    assert ("mypy>=1.8" in requires) is compile_, requires
    assert "UNO_RULES_LISTING_REQUIRES" not in os.environ
    if compile_:  # compiled in place, the .so files would shadow the source tree
        with pytest.raises(SystemExit, match="builds a wheel, not an editable install"):
            backend.get_requires_for_build_editable()
    else:
        editable = backend.get_requires_for_build_editable()
        assert "mypy>=1.8" not in editable


HOSTILE = sorted((ROOT / "tests" / "hostile" / "compiled").glob("*.yaml"))


@pytest.mark.parametrize("path", HOSTILE, ids=lambda p: p.stem)
def test_a_wrong_typed_scenario_value_is_a_one_line_problem(path: Path) -> None:
    """The same message in both builds (bench/hostile_cases/compiled.py measures them)."""
    expected = path.read_text(encoding="utf-8").splitlines()[0].removeprefix("# expect: ")
    result = CliRunner().invoke(cli, ["scenario", str(path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith(f": {expected}"), result.output


def test_the_hostile_cases_are_the_files() -> None:
    module = load_cases("compiled")
    cases = module.cases(ROOT)
    assert len(HOSTILE) == 4
    assert [args for _, args, _ in cases] == [["scenario", str(p)] for p in HOSTILE] + \
        [["--version"]]
    assert [code for *_, code in cases] == [2] * len(HOSTILE) + [0]
