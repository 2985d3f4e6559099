"""Shared fixtures, and how long the random tests run.

``python -m pytest`` is the quick run (README.md gives its time); it still plays 200+ random
rounds with invariants checked after every action.

``UNO_LONG=1 python -m pytest`` (or ``python -m pytest --long``) is the long run: ten times
the hypothesis examples of the property tests (2,000 random rounds), five times the fuzz
examples, ten times the action-space games, 1,000 simulated UNO Teams games at each of
4, 6 and 8 players, and 1,000 rounds of each later edition (RULES.md §8-13) at each player
count it allows (tests/test_simulate.py). ``FUZZ_EXAMPLES=N`` still sets the fuzz examples by hand.

With ``CI`` set, hypothesis replays a fixed set of examples (profile "ci"), in either run.

The run is spread over the machine's cores with pytest-xdist (``-n auto --dist loadfile`` in
pyproject.toml: a file's tests run in one worker, in order, so a module's fixtures start once);
``-p no:xdist`` or ``-n 0`` runs it in one process. Each worker imports this file, so each
has its own compiled-rulebook cache: a fresh folder (cold at the start, warm as the run goes
on), never the user's; ``UNO_RULES_CACHE=off`` runs everything without a cache.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import settings

import uno_rules

ROOT = Path(__file__).resolve().parent.parent


def load_cases(name: str) -> ModuleType:
    """bench/hostile_cases/NAME.py (the cases bench/hostile.py times in fresh processes), as a
    module: the tests assert their messages and exit codes (``from conftest import
    load_cases``; a file, not a package, so it loads with PYTHONSAFEPATH too)."""
    spec = importlib.util.spec_from_file_location(
        f"{name}_cases", ROOT / "bench" / "hostile_cases" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

# Tests stop the commands they start with Ctrl-C (SIGINT). A run started where SIGINT is
# ignored (a background job of a script: a shell without job control) would pass that on to
# every process it starts, and those would then run on for ever: put the default back.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@contextmanager
def reaped(proc: subprocess.Popen[Any]) -> Iterator[subprocess.Popen[Any]]:
    """``proc``, killed (its whole session when it leads one) if it still runs when the
    block ends: a test that fails midway leaves no process behind."""
    try:
        yield proc
    finally:
        if proc.poll() is None:
            try:
                if os.getsid(proc.pid) == proc.pid:
                    os.killpg(proc.pid, signal.SIGKILL)
                else:
                    proc.kill()
            except ProcessLookupError:  # ended meanwhile
                pass
            proc.wait()


def child_pids(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc): the tests that stop workers
    check none is left behind."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # gone meanwhile
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` runs (Linux /proc; a zombie has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def ctrl_c_after_count(monkeypatch: pytest.MonkeyPatch, rounds: int) -> list[Any]:
    """Deliver a Ctrl-C (SIGINT, to this process's main thread) right after the
    ``rounds``-th round is counted (``Stats.count``, in the process that counts: a run's
    workers only play), before the run hands it on (``on_round``: a ``--csv`` row): where
    the race between counting and writing fell now and then. Returns the rounds counted."""
    from uno_rules.sim import simulate as sim

    count, counted = sim.Stats.count, []

    def then_ctrl_c(self: sim.Stats, r: sim.Round, team_of: Any) -> None:
        count(self, r, team_of)
        counted.append(r)
        if len(counted) == rounds:
            signal.raise_signal(signal.SIGINT)
    monkeypatch.setattr(sim.Stats, "count", then_ctrl_c)
    return counted


# CI replays a fixed set of examples (reproducible runs); local runs explore new ones. With no
# example database, what a test replays is its own seed alone: the same in every xdist worker
# and in any order, never an example another run (or worker) saved.
settings.register_profile("ci", derandomize=True, print_blob=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


# Set before any test loads a rulebook; the children the tests start inherit it.
_CACHE = None if os.environ.get("UNO_RULES_CACHE", "").lower() == "off" else \
    tempfile.mkdtemp(prefix="uno-rules-cache-")
if _CACHE is not None:
    os.environ["UNO_RULES_CACHE"] = _CACHE


def pytest_unconfigure(config: pytest.Config) -> None:
    if _CACHE is not None:
        shutil.rmtree(_CACHE, ignore_errors=True)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long", action="store_true",
                     help="the long run of the random tests (the same as UNO_LONG=1)")


def pytest_configure(config: pytest.Config) -> None:
    # The test modules read UNO_LONG when they are imported, which is after this.
    if config.getoption("long"):
        os.environ["UNO_LONG"] = "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A report's captured output with any lone surrogate escaped: an xdist worker sends its
    reports to the controller as UTF-8, which can't carry one, and the whole run would stop
    with an internal error (tests/test_web_http.py logs a bug whose message holds one)."""
    outcome = yield
    report = outcome.get_result()
    report.sections = [(title, text.encode("utf-8", "backslashreplace").decode("utf-8"))
                       for title, text in report.sections]


def pytest_report_header(config: pytest.Config) -> str:
    long = os.environ.get("UNO_LONG", "") not in ("", "0")
    return "uno-rules: long run (UNO_LONG)" if long else "uno-rules: quick run (--long for more)"


@pytest.fixture(scope="session")
def classic() -> uno_rules.Rulebook:
    return uno_rules.load_rulebook("classic")
