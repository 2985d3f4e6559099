"""``simulate --workers N``: the same statistics and records as one process, in round
order; bad values, dead workers and Ctrl-C reported in one line, no orphan processes."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import child_pids, ctrl_c_after_count, load_cases, pid_alive

import uno_rules
from uno_rules.sim.rounds import Round
from uno_rules.sim.simulate import csv_row, simulate
from uno_rules.sim.workers import chunk_size, cores, resolve_workers

RETRIGGER = Path(__file__).resolve().parent / "hostile" / "exits" / "retrigger.yaml"

# A user's agent in a file beside the run; importing it shrinks the budget one action may
# run (in every process that imports it: each worker does, to unpickle the class), so that
# some rounds run away (RunawayEffect) and are counted stalled.
AGENT = """
import uno_rules.engine.game as game

game.RUN_BUDGET = 3


class Mine:
    def __init__(self, seat, rng):
        self.rng = rng

    def choose(self, obs):
        if obs.optional:
            return None
        return obs.ids[self.rng.randrange(len(obs.ids))]


class Fails(Mine):
    def choose(self, obs):
        raise RuntimeError("no idea")


class Dies(Mine):
    def choose(self, obs):
        import os
        os._exit(7)
"""


def _run(args: list[str], cwd: Path, workers: str) -> tuple[dict[str, Any], str]:
    """``simulate ARGS --workers W --json --csv``: the JSON less its timing, and the CSV."""
    out = cwd / f"rounds-{workers}.csv"
    proc = subprocess.run([sys.executable, "-m", "uno_rules.cli", "simulate", *args, "--json",
                           "--csv", str(out), "--workers", workers], cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stderr == "", proc
    stats = json.loads(proc.stdout)
    del stats["timing"]
    return stats, out.read_text()


@pytest.mark.parametrize("args", [
    ["classic", "--games", "40", "--seed", "5"],
    ["classic", "--games", "30", "--agents", "greedy,uniform,play_first,greedy"],
    ["classic", "--games", "30", "--players", "3", "--agents", "mine:Mine,greedy,mine:Mine"],
    ["classic", "--games", "30", "--max-actions", "60"],
    [str(RETRIGGER), "--games", "3", "--players", "10", "--max-steps", "30000"],
], ids=["policy", "agents", "user-agent-runaways", "stalled-actions", "stalled-steps"])
def test_json_and_csv_are_byte_identical_at_1_2_and_3_workers(
        args: list[str], tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(AGENT)
    one, rows = _run(args, tmp_path, "1")
    if "mine:Mine" in args[4:]:
        assert one["stalled_reasons"].get("runaway", 0) >= 1, one  # the case is exercised
    if "--max-steps" in args or "--max-actions" in args:
        assert one["stalled"] >= 1, one
    assert len(rows.splitlines()) == int(args[2]) + 1
    for workers in ("2", "3"):
        many, many_rows = _run(args, tmp_path, workers)
        assert json.dumps(many, indent=2) == json.dumps(one, indent=2), workers
        assert many_rows == rows, workers


def test_the_api_gives_the_same_statistics_and_records_in_order() -> None:
    rulebook = uno_rules.load_rulebook("classic")
    seen: dict[int, list[Round]] = {1: [], 2: []}
    results = {}
    for workers in (1, 2):
        stats = simulate(rulebook, 25, 4, seed=9, workers=workers,
                         on_round=seen[workers].append).to_json()
        del stats["timing"]
        results[workers] = stats
    assert results[1] == results[2]
    assert seen[1] == seen[2] and len(seen[1]) == 25


@pytest.mark.parametrize("bad", ["2", -1, 2.0, True, None, 10**9])
def test_the_api_refuses_a_bad_worker_count(bad: object) -> None:
    with pytest.raises(ValueError, match=r"^workers="):
        simulate(uno_rules.load_rulebook("classic"), 2, 4, seed=1,
                 workers=bad)  # type: ignore[arg-type]


def test_zero_means_one_per_core_and_chunks_stay_small() -> None:
    assert resolve_workers(0) == cores() >= 1
    assert resolve_workers(1) == 1
    assert chunk_size(10, 2) == 1 and chunk_size(10**6, 2) == 50 and chunk_size(400, 2) == 25


def _cli(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "uno_rules.cli", "simulate", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(("value", "expect"), [
    ("x", "--workers 'x': expected a whole number >= 0, or auto (one per core)"),
    ("-1", "--workers '-1': expected a whole number >= 0, or auto (one per core)"),
    ("1.5", "--workers '1.5': expected a whole number >= 0, or auto (one per core)"),
    ("1e3", "--workers '1e3': expected a whole number >= 0, or auto (one per core)"),
    ("a" * 100_000, "(100,000 characters)': expected a whole number >= 0, or auto"),
    ("9" * 30, f"--workers {'9' * 30}: at most {4 * cores()} (4 per core, {cores()} cores"),
    ("9" * 100_000, f"(100,000 characters): at most {4 * cores()} (4 per core"),
])
def test_a_bad_worker_count_is_one_line_exit_1(value: str, expect: str) -> None:
    proc = _cli(["classic", "--games", "2", "--workers", value])
    assert proc.returncode == 1 and proc.stdout == "", proc
    assert len(proc.stderr.splitlines()) == 1 and expect in proc.stderr, proc.stderr


def test_auto_runs_one_per_core() -> None:
    proc = _cli(["classic", "--games", "4", "--workers", "auto", "--json"])
    assert proc.returncode == 0, proc
    assert json.loads(proc.stdout)["games"] == 4


def test_an_agent_failing_in_a_worker_is_reported_as_in_one_process(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(AGENT)
    errors = []
    for workers in ("1", "2"):
        proc = _cli(["classic", "--games", "6", "--players", "2", "--agents", "mine:Fails",
                     "--workers", workers], tmp_path)
        assert proc.returncode == 1 and len(proc.stderr.splitlines()) == 1, proc
        errors.append(proc.stderr)
    assert errors[0] == errors[1]
    assert errors[0] == ("agent 'mine:Fails' at seat 0 failed: RuntimeError: no idea\n")


def test_a_worker_that_dies_is_one_line_exit_1(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(AGENT)
    proc = _cli(["classic", "--games", "6", "--players", "2", "--agents", "mine:Dies",
                 "--workers", "2"], tmp_path)
    assert proc.returncode == 1 and proc.stdout == "", proc
    assert proc.stderr == ("a worker process died (killed, out of memory, or it could not "
                           "import an agent's class: docs/simulation.md); no statistics\n")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_ctrl_c_reports_the_rounds_finished_in_order_and_stops_the_workers(
        tmp_path: Path) -> None:
    rows = tmp_path / "rows.csv"
    args = [sys.executable, "-m", "uno_rules.cli", "simulate", "classic", "--games",
            "1000000000", "--workers", "2", "--json", "--csv", str(rows)]
    for wait in (3, 6, 15):  # until some rounds are done (a loaded machine starts slowly)
        # In a session of its own, so that SIGINT can go to the whole group, as a
        # terminal's Ctrl-C does: the workers get it too (and must stay quiet).
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True)
        time.sleep(wait)
        workers = child_pids(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 130 and err == "", (out, err)
        deadline = time.monotonic() + 10
        while any(pid_alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(pid_alive(p) for p in workers), "a worker outlived the run"
        stats = json.loads(out)
        assert stats["interrupted"] is True and stats["games_requested"] == 1000000000
        if stats["games"] == 0:
            continue
        assert len(workers) >= 2  # the workers were running (and a resource tracker)
        assert sum(stats["wins_by_seat"]) + stats["stalled"] == stats["games"]
        # The rounds reported are the first ones, in order: as one process plays them.
        whole = simulate(uno_rules.load_rulebook("classic"), stats["games"], 4, seed=0)
        assert stats["wins_by_seat"] == whole.wins_by_seat
        with rows.open(newline="") as f:
            got = list(csv.reader(f))
        assert len(got) == stats["games"] + 1
        assert got[1:] == [[str(c) for c in csv_row(r)] for r in _records(stats["games"])]
        return
    raise AssertionError("no round finished in 15 s")


def test_a_ctrl_c_between_a_rounds_count_and_its_csv_row_waits_for_the_row(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The race the test above once lost (27,075 rows against 27,074 rounds counted): a
    Ctrl-C after a round is counted, before its row is written, is held until the row is
    written (then the round is both counted and written). Delivered there every time, in
    the parent process, which counts and writes what the workers send."""
    from click.testing import CliRunner

    from uno_rules.cli import cli

    counted = ctrl_c_after_count(monkeypatch, 30)  # past the first chunks: workers busy
    rows = tmp_path / "rows.csv"
    result = CliRunner().invoke(cli, ["simulate", "classic", "--games", "400", "--workers",
                                      "2", "--json", "--csv", str(rows)])
    assert result.exit_code == 130, result.output
    stats = json.loads(result.stdout)
    assert stats["interrupted"] is True and stats["games"] == 30
    assert sum(stats["wins_by_seat"]) + stats["stalled"] == 30
    with rows.open(newline="") as f:
        got = list(csv.reader(f))
    assert got[1:] == [[str(c) for c in csv_row(r)] for r in counted]  # 30: each round's
    monkeypatch.undo()
    assert counted == _records(30)  # the first rounds, in order
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


def _records(games: int) -> list[Round]:
    records: list[Round] = []
    simulate(uno_rules.load_rulebook("classic"), games, 4, seed=0, on_round=records.append)
    return records


def test_the_hostile_cases_exit_as_declared(tmp_path: Path) -> None:
    """bench/hostile_cases/workers.py (timed there in fresh processes): each exit code."""

    from click.testing import CliRunner

    from uno_rules.cli import cli

    module = load_cases("workers")
    for name, args, code in module.cases(tmp_path):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == code, (name, result.output)
        if code == 1:
            assert len(result.output.strip().splitlines()) == 1, (name, result.output)


# ------------------------------------------------------------------ the run's spec
def _spec(**kw: Any) -> Any:
    from uno_rules.play.agents import parse_agents
    from uno_rules.sim.rounds import RunSpec

    rulebook = uno_rules.load_rulebook("classic", house=["stacking"])
    if kw.pop("agents", False):
        kw["agents"] = parse_agents("greedy,uniform,play_first", 3)
    return RunSpec(rulebook, 3, 11, **{"games": 24, **kw})


@pytest.mark.parametrize("kw", [{"max_actions": 60}, {"agents": True, "max_steps": 5000},
                                {"policy": "uniform"}], ids=["budget", "agents", "policy"])
def test_a_run_spec_round_trips_through_pickle_and_the_workers(kw: dict[str, Any]) -> None:
    """What a spec names reaches the worker processes whole: the same statistics and
    records as simulate's own arguments give in one process."""
    import pickle

    from uno_rules.sim.simulate import simulate_spec

    spec = _spec(**kw)
    again = pickle.loads(pickle.dumps(spec))
    assert again == spec and again.agents == spec.agents
    assert type(spec.agents) in (tuple, type(None))  # parse_agents' list, held as a tuple
    seen: dict[int, list[Round]] = {1: [], 2: []}
    stats = {}
    for workers in (1, 2):
        out = simulate_spec(again, workers=workers, on_round=seen[workers].append).to_json()
        del out["timing"]
        stats[workers] = out
    old = simulate(spec.rulebook, spec.games, spec.players, spec.seed, spec.max_actions,
                   spec.policy, max_steps=spec.max_steps, agents=spec.agents).to_json()
    del old["timing"]
    assert stats[1] == stats[2] == old and seen[1] == seen[2]
    if "max_actions" in kw:  # the budget crossed: some rounds used it up
        assert old["stalled_reasons"] == {"actions": old["stalled"]} and old["stalled"] > 0


def test_a_match_spec_round_trips_through_the_workers() -> None:
    from uno_rules.sim.matchsim import simulate_matches, simulate_matches_spec

    spec = _spec(agents=True, max_rounds=2, games=6)
    runs = [simulate_matches_spec(spec, workers=w).to_json() for w in (1, 2)]
    runs.append(simulate_matches(spec.rulebook, 6, 3, 11, agents=spec.agents,
                                 max_rounds=2).to_json())
    for out in runs:
        del out["timing"]
    assert runs[0] == runs[1] == runs[2]
    assert runs[0]["match"]["max_rounds"] == 2 and runs[0]["stalled_reasons"]["rounds"] > 0


def test_a_run_spec_is_frozen_and_compare_refuses_specs_that_differ() -> None:
    import dataclasses

    from uno_rules.sim.compare import compare_specs

    spec = _spec()
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.games = 3
    other = dataclasses.replace(spec, seed=12)
    with pytest.raises(ValueError, match="differ in more than their rulebook"):
        compare_specs([spec, other], ["a", "b"])
    plain = spec.on(uno_rules.load_rulebook("classic"))
    assert plain.rulebook.house == () and dataclasses.replace(plain, rulebook=spec.rulebook) \
        == spec
