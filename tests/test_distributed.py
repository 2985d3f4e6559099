"""``simulate/compare --scheduler``: on a Dask cluster (a ``distributed.LocalCluster`` these
tests start; the ``[dask]`` extra, which CI installs), the same ``--json`` (less timing) and
``--csv`` as one process; every scheduler that can't be used is one line, exit 1."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import child_pids, ctrl_c_after_count, load_cases, pid_alive

import uno_rules
from uno_rules.sim.distributed import SchedulerError, parse_scheduler
from uno_rules.sim.rounds import Round
from uno_rules.sim.simulate import simulate
from uno_rules.sim.workers import chunk_size

HAS_DASK = importlib.util.find_spec("distributed") is not None
needs_dask = pytest.mark.skipif(not HAS_DASK, reason="the [dask] extra is not installed")
ROOT = Path(__file__).resolve().parent.parent
RETRIGGER = ROOT / "tests" / "hostile" / "exits" / "retrigger.yaml"

# A user's agent, importable only where its folder is on sys.path.
AGENT = """
class Mine:
    def __init__(self, seat, rng):
        self.rng = rng

    def choose(self, obs):
        if obs.optional:
            return None
        return obs.ids[self.rng.randrange(len(obs.ids))]
"""


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The address of a two-worker cluster inside this process (threads, over TCP, so
    that the command's own process reaches it as it would a remote one)."""
    if not HAS_DASK:
        pytest.skip("the [dask] extra is not installed")
    import logging

    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                      host="127.0.0.1", dashboard_address=":0",
                      silence_logs=logging.ERROR) as local:
        yield local.scheduler_address


def _cli(args: list[str], cwd: Path | None = None,
         timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "uno_rules.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def _run(args: list[str], cwd: Path, extra: list[str], name: str) -> tuple[str, str]:
    """``simulate ARGS --json --csv EXTRA``: the JSON less its timing, and the CSV."""
    out = cwd / f"rounds-{name}.csv"
    proc = _cli(["simulate", *args, "--json", "--csv", str(out), *extra], cwd)
    assert proc.returncode == 0 and proc.stderr == "", proc
    stats = json.loads(proc.stdout)
    del stats["timing"]
    return json.dumps(stats, indent=2), out.read_text()


@needs_dask
@pytest.mark.parametrize("args", [
    ["classic", "--games", "60", "--seed", "5"],
    ["classic", "--games", "30", "--agents", "greedy,uniform,play_first,greedy"],
    ["no_mercy", "--games", "20", "--players", "3", "--seed", "2"],
    ["classic", "--games", "30", "--max-actions", "60"],
    [str(RETRIGGER), "--games", "3", "--players", "10", "--max-steps", "30000"],
    ["classic", "--games", "6", "--seed", "3", "--match"],
    ["no_mercy", "--games", "4", "--players", "3", "--match", "--agents", "greedy"],
], ids=["policy", "agents", "no_mercy", "stalled-actions", "stalled-steps", "match",
        "match-no_mercy"])
def test_json_and_csv_on_a_cluster_are_byte_identical_to_one_process(
        cluster: str, args: list[str], tmp_path: Path) -> None:
    one, rows = _run(args, tmp_path, ["--workers", "1"], "one")
    if "--max-steps" in args or "--max-actions" in args:
        assert json.loads(one)["stalled"] >= 1, one  # the case is exercised
    assert len(rows.splitlines()) == int(args[2]) + 1
    many, many_rows = _run(args, tmp_path, ["--scheduler", cluster], "dask")
    assert many == one
    assert many_rows == rows


@needs_dask
def test_a_local_cluster_of_two_processes_gives_the_same_json(tmp_path: Path) -> None:
    args = ["classic", "--games", "40", "--seed", "11", "--agents", "mine:Mine"]
    (tmp_path / "mine.py").write_text(AGENT)  # the workers start here, as the command does
    one, rows = _run(args, tmp_path, [], "one")
    many, many_rows = _run(args, tmp_path, ["--scheduler", "local", "--workers", "2"], "local")
    assert many == one and many_rows == rows


@needs_dask
def test_compare_on_a_cluster_is_the_same_as_in_one_process(cluster: str) -> None:
    args = ["compare", "classic", "classic", "--house", "stacking", "--games", "40",
            "--json"]
    results = []
    for extra in ([], ["--scheduler", cluster], ["--workers", "2"]):
        proc = _cli(args + extra)
        assert proc.returncode == 0 and proc.stderr == "", proc
        result = json.loads(proc.stdout)
        del result["timing"]
        results.append(result)
    assert results[0]["round_seeds"]["same"] is True
    assert results[1] == results[0] and results[2] == results[0]


@needs_dask
def test_the_api_takes_a_client_and_gives_the_same_records(cluster: str) -> None:
    from distributed import Client

    rulebook = uno_rules.load_rulebook("classic")
    seen: dict[str, list[Round]] = {"one": [], "dask": []}
    stats = {}
    with Client(cluster) as client:
        for name, kw in (("one", {}), ("dask", {"client": client})):
            out = simulate(rulebook, 25, 4, seed=9, on_round=seen[name].append,
                           **kw).to_json()  # type: ignore[arg-type]
            del out["timing"]
            stats[name] = out
    assert stats["one"] == stats["dask"]
    assert seen["one"] == seen["dask"] and len(seen["one"]) == 25


@needs_dask
def test_a_run_spec_crosses_to_the_cluster_whole(cluster: str) -> None:
    """A RunSpec (agents, budgets, a house rule; a match's budget of rounds; compare's one
    per variant) plays on the cluster what it plays in one process."""
    from distributed import Client

    from uno_rules.play.agents import parse_agents
    from uno_rules.sim.compare import compare_specs
    from uno_rules.sim.matchsim import simulate_matches_spec
    from uno_rules.sim.rounds import RunSpec
    from uno_rules.sim.simulate import simulate_spec

    stacked = uno_rules.load_rulebook("classic", house=["stacking"])
    spec = RunSpec(stacked, 3, 4, 20, agents=parse_agents("greedy,uniform,greedy", 3),
                   max_actions=80, max_rounds=2)
    variants = [spec.on(uno_rules.load_rulebook("classic")), spec]

    def runs(**kw: Any) -> list[dict[str, Any]]:
        out = [simulate_spec(spec, **kw).to_json(),
               simulate_matches_spec(RunSpec(stacked, 3, 4, 4, max_rounds=2), **kw).to_json(),
               compare_specs(variants, ["a", "b"], **kw)]
        for result in out:
            del result["timing"]
        return out

    with Client(cluster) as client:
        assert runs(client=client) == runs()


@needs_dask
def test_a_ctrl_c_between_a_rounds_count_and_its_row_waits_for_the_row(
        cluster: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C after a round is counted, before it is handed on (a ``--csv`` row), is
    held until it is handed on: the rounds counted are the rounds written, the first ones
    in order (tests/test_workers.py: the same with --workers)."""
    from distributed import Client

    counted = ctrl_c_after_count(monkeypatch, 30)
    rows: list[Round] = []
    rulebook = uno_rules.load_rulebook("classic")
    with Client(cluster) as client:
        stats = simulate(rulebook, 400, 4, seed=0, client=client, on_round=rows.append)
    assert stats.requested == 400 and stats.games == 30
    assert rows == counted and sum(stats.wins_by_seat) + stats.stalled == 30
    monkeypatch.undo()
    whole: list[Round] = []
    simulate(rulebook, 30, 4, seed=0, on_round=whole.append)
    assert rows == whole


@needs_dask
def test_an_agent_the_workers_cannot_import_is_one_line(cluster: str, tmp_path: Path) -> None:
    # The command imports mine.py from its folder; the cluster's workers (in this process)
    # have no such module: as on a remote machine without it.
    (tmp_path / "mine.py").write_text(AGENT)
    proc = _cli(["simulate", "classic", "--games", "10", "--agents", "mine:Mine",
                 "--scheduler", cluster], tmp_path)
    assert proc.returncode == 1 and proc.stdout == "", proc
    assert proc.stderr == ("a Dask worker could not import what the run needs (No module "
                           "named 'mine'): every worker needs the same uno-rules and the "
                           "agents' modules (docs/simulation.md); no statistics\n")


@needs_dask
def test_an_agent_failing_on_a_worker_is_reported_as_in_one_process(
        cluster: str, tmp_path: Path) -> None:
    (tmp_path / "failing.py").write_text(AGENT + "\n\nclass Fails(Mine):\n"
                                         "    def choose(self, obs):\n"
                                         "        raise RuntimeError('no idea')\n")
    sys.path.insert(0, str(tmp_path))  # importable on this process's workers
    try:
        errors = []
        for extra in ([], ["--scheduler", cluster]):
            proc = _cli(["simulate", "classic", "--games", "6", "--players", "2", "--agents",
                         "failing:Fails", *extra], tmp_path)
            assert proc.returncode == 1 and proc.stdout == "", proc
            errors.append(proc.stderr)
    finally:
        sys.path.remove(str(tmp_path))
    assert errors[0] == errors[1] == ("agent 'failing:Fails' at seat 0 failed: RuntimeError: "
                                      "no idea\n")


# ------------------------------------------------------------------ the errors
def _one_line(proc: subprocess.CompletedProcess[str], expect: str) -> None:
    assert proc.returncode == 1 and proc.stdout == "", proc
    assert proc.stderr == expect + "\n", proc.stderr


@pytest.mark.parametrize(("value", "problem"), [
    ("foo", "expected local or tcp://HOST:PORT"),
    ("Local", "expected local or tcp://HOST:PORT"),
    ("127.0.0.1:8786", "expected local or tcp://HOST:PORT"),
    ("http://127.0.0.1:8786", "expected local or tcp://HOST:PORT"),
    ("tcp://:8786", "expected local or tcp://HOST:PORT"),
    ("tcp://127.0.0.1", "expected a port from 1 to 65535 (tcp://HOST:PORT; dask's default "
                        "is 8786)"),
    ("tcp://127.0.0.1:0", "expected a port from 1 to 65535 (tcp://HOST:PORT; dask's default "
                          "is 8786)"),
    ("tcp://127.0.0.1:99999", "expected a port from 1 to 65535 (tcp://HOST:PORT; dask's "
                              "default is 8786)"),
    ("tcp://127.0.0.1:port", "expected a port from 1 to 65535 (tcp://HOST:PORT; dask's "
                             "default is 8786)"),
    ("tcp://[::1:8786", "expected local or tcp://HOST:PORT"),
    ("tcp://127.0.0.1:8786/x", "expected tcp://HOST:PORT and nothing more"),
])
def test_a_malformed_scheduler_is_one_line_before_anything_runs(value: str,
                                                                problem: str) -> None:
    with pytest.raises(SchedulerError) as caught:
        parse_scheduler(value)
    assert str(caught.value) == f"--scheduler {value!r}: {problem}"
    for command in (["simulate", "classic"], ["compare", "classic", "classic"]):
        _one_line(_cli([*command, "--games", "2", "--scheduler", value]),
                  f"--scheduler {value!r}: {problem}")


def test_a_100000_character_scheduler_is_cut_short() -> None:
    proc = _cli(["simulate", "classic", "--scheduler", "tcp://" + "h" * 100_000])
    assert proc.returncode == 1 and len(proc.stderr.splitlines()) == 1, proc
    assert len(proc.stderr) < 400 and "100,006 characters" in proc.stderr, proc.stderr


def test_workers_with_a_remote_scheduler_is_refused() -> None:
    _one_line(_cli(["simulate", "classic", "--workers", "2", "--scheduler",
                    "tcp://127.0.0.1:8786"]),
              "--workers 2: not with --scheduler tcp://127.0.0.1:8786 (the cluster's workers "
              "play: start more with dask worker tcp://127.0.0.1:8786)")


def test_without_dask_the_scheduler_asks_for_the_extra() -> None:
    # dask hidden from this one process: as where the extra is not installed.
    code = ("import sys; sys.modules['distributed'] = None; from uno_rules.cli import main; "
            "main(sys.argv[1:])")
    for scheduler in ("local", "tcp://127.0.0.1:8786"):
        proc = subprocess.run([sys.executable, "-c", code, "simulate", "classic", "--games",
                               "2", "--scheduler", scheduler], capture_output=True, text=True,
                              timeout=120)
        _one_line(proc, "--scheduler needs dask: pip install 'uno-rules[dask]'")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port  # nothing listens there now


@needs_dask
def test_an_unreachable_scheduler_names_the_address_and_the_reason() -> None:
    port = _closed_port()
    _one_line(_cli(["simulate", "classic", "--scheduler", f"tcp://127.0.0.1:{port}"]),
              f"--scheduler tcp://127.0.0.1:{port}: can't connect: Connection refused")
    _one_line(_cli(["compare", "classic", "classic", "--scheduler", "tcp://nowhere.invalid:1"]),
              "--scheduler tcp://nowhere.invalid:1: can't connect: Name or service not known")


@needs_dask
def test_a_silent_server_fails_within_the_timeout() -> None:
    """A server that accepts and never answers: the run ends after about
    --scheduler-timeout (dask 2023.1 times out the handshake itself, later releases wait
    for it without a bound, and our own deadline ends the wait: either line)."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(5)
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        proc = _cli(["simulate", "classic", "--scheduler", address, "--scheduler-timeout",
                     "1"], timeout=60)
    assert proc.returncode == 1 and proc.stdout == "", proc
    assert proc.stderr in (
        f"--scheduler {address}: can't connect: no Dask handshake within 1 s (is a Dask "
        f"scheduler listening there?)\n",
        f"--scheduler {address}: can't connect: Timed out during handshake while connecting "
        f"to {address} after 1 s\n"), proc.stderr


@needs_dask
@pytest.mark.parametrize("first", [
    b"\xff" * 8,  # a frame of 16 EiB: numpy refuses it (ValueError, or MemoryError)
    struct.pack("<Q", int(2.8 * 2**60)),  # 2.8 EiB: MemoryError (was exit 3)
    struct.pack("<Q", 16) + bytes(16),  # a frame, but no message in it: dask logged a traceback
    b"SSH-2.0-OpenSSH_9.2p1\r\n",
], ids=["0xff", "2.8 EiB", "empty frames", "ssh"])
def test_a_service_that_speaks_first_is_not_a_dask_scheduler(first: bytes) -> None:
    address = load_cases("dask").speaking_first(first)
    _one_line(_cli(["simulate", "classic", "--scheduler", address, "--scheduler-timeout",
                    "5"], timeout=60),
              f"--scheduler {address}: not a Dask scheduler (what it sent is not Dask's "
              "handshake)")


@needs_dask
def test_a_scheduler_without_workers_is_one_line() -> None:
    import logging

    from distributed import LocalCluster

    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address=":0", silence_logs=logging.ERROR) as empty:
        address = empty.scheduler_address
        _one_line(_cli(["simulate", "classic", "--scheduler", address, "--scheduler-timeout",
                        "1"], timeout=60),
                  f"--scheduler {address}: no worker joined within 1 s (start one: dask "
                  f"worker {address})")


def test_the_timeout_must_be_positive() -> None:
    proc = _cli(["simulate", "classic", "--scheduler", "local", "--scheduler-timeout", "0"])
    assert proc.returncode == 1 and len(proc.stderr.splitlines()) == 1, proc
    assert "--scheduler-timeout" in proc.stderr and "0<x<=3600" in proc.stderr, proc.stderr


def test_the_hostile_cases_exit_as_declared(tmp_path: Path) -> None:
    """bench/hostile_cases/dask.py (timed there in fresh processes): each exit code, and
    each a one-line message."""
    cases: list[tuple[str, list[str], int]] = load_cases("dask").cases(tmp_path)
    assert cases
    for name, args, code in cases:
        proc = _cli(args, timeout=60)
        assert proc.returncode == code, (name, proc)
        if code == 1:
            assert len(proc.stderr.splitlines()) == 1 and proc.stdout == "", (name, proc)


@needs_dask
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_ctrl_c_on_a_local_cluster_reports_the_rounds_finished_and_stops_it() -> None:
    args = [sys.executable, "-m", "uno_rules.cli", "simulate", "classic", "--games",
            "1000000000", "--scheduler", "local", "--workers", "2", "--json"]
    for wait in (8, 15, 30):  # until some rounds are done (a loaded machine starts slowly)
        # A session of its own, so that SIGINT goes to the whole group as a terminal's
        # Ctrl-C does: the cluster's worker processes get it too, and must stay quiet.
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True)
        time.sleep(wait)
        children = child_pids(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 130 and err == "", (out, err)
        _all_end(children)
        stats = json.loads(out)
        assert stats["interrupted"] is True
        if stats["games"] == 0:
            continue
        assert len(children) >= 2  # the cluster's worker processes were running
        # The rounds reported are the first ones, in order: as one process plays them.
        whole = simulate(uno_rules.load_rulebook("classic"), stats["games"], 4, seed=0)
        assert stats["wins_by_seat"] == whole.wins_by_seat
        assert stats["turns"] == whole.to_json()["turns"]
        return
    raise AssertionError("no round finished in 30 s")


def _all_end(children: list[int]) -> None:
    deadline = time.monotonic() + 10
    while any(pid_alive(p) for p in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(pid_alive(p) for p in children), "a worker outlived the run"


def _cluster_worker_started(pid: int) -> bool:
    """Whether a worker process of the LocalCluster that ``pid`` starts runs (multiprocessing
    spawned it; the resource tracker is started otherwise)."""
    for child in child_pids(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                return True
        except OSError:  # gone meanwhile
            pass
    return False


@needs_dask
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_ctrl_c_while_the_local_cluster_starts_stops_the_run_before_its_first_round() -> None:
    """SIGINT was ignored while the cluster started: a Ctrl-C then was lost and the run
    went on (for ever, here). Sent as a worker process starts (the cluster is up only when
    its workers are), it stops the run once the cluster is up, with no round."""
    args = [sys.executable, "-m", "uno_rules.cli", "simulate", "classic", "--games",
            "1000000000", "--scheduler", "local", "--workers", "2", "--json"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # SIGINT to the group, as a terminal's
    try:
        deadline = time.monotonic() + 120
        while not _cluster_worker_started(proc.pid):
            assert proc.poll() is None and time.monotonic() < deadline, proc.poll()
            time.sleep(0.01)
        children = child_pids(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)  # a generous bound: lost, it never ends
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130 and err == "", (out, err)
    stats = json.loads(out)
    assert stats["interrupted"] is True and stats["games"] == 0, stats
    _all_end(children)


def _waits(thread: threading.Thread) -> bool:
    """Whether ``thread`` is blocked in a wait of threading's (a lock's, an event's)."""
    frame = sys._current_frames().get(thread.ident or 0)
    return frame is not None and frame.f_code.co_name == "wait" and \
        frame.f_code.co_filename == threading.__file__


@needs_dask
def test_ctrl_c_cancelling_a_fetch_that_later_ones_share_reports_the_rounds_counted(
        cluster: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C cancels the fetch of the chunk under way and, with it, the task dask
    batches later fetches into (Client._gather_future) if that one has not begun: every
    later fetch then gets an unbound result from dask's sync (UnboundLocalError). Seen once
    in several runs on a loaded machine; here that task waits before its first line, and the
    Ctrl-C reaches the main thread meanwhile. The rounds counted are reported."""
    from distributed import Client

    gather = Client._gather_remote
    main = threading.main_thread()
    fetches: list[int] = []

    async def late(self: Any, *args: Any, **kw: Any) -> Any:
        fetches.append(len(fetches))
        if len(fetches) == 3:  # the third chunk's: two are counted
            while not _waits(main):  # where a Ctrl-C finds it: waiting for this fetch
                await asyncio.sleep(0.01)
            assert main.ident is not None
            signal.pthread_kill(main.ident, signal.SIGINT)
            await asyncio.sleep(120)  # the Ctrl-C cancels it here
        return await gather(self, *args, **kw)

    monkeypatch.setattr(Client, "_gather_remote", late)
    rulebook = uno_rules.load_rulebook("classic")
    with Client(cluster) as client:
        stats = simulate(rulebook, 400, 4, seed=0, client=client).to_json()
    assert stats["interrupted"] is True and stats["games"] == 2 * chunk_size(400, 2), stats
    whole = simulate(rulebook, stats["games"], 4, seed=0)
    assert stats["wins_by_seat"] == whole.wins_by_seat
    assert stats["turns"] == whole.to_json()["turns"]


class _Future:
    def __init__(self, error: BaseException) -> None:
        self.error, self.status = error, "error"

    def result(self) -> Any:
        raise self.error


class _Client:
    """Just enough of a ``distributed.Client`` for :func:`dask_rounds`, its chunks failing
    with ``error`` (or its scatter, with ``at_scatter``)."""

    def __init__(self, error: BaseException, at_scatter: bool = False) -> None:
        self.error, self.at_scatter, self.cancelled = error, at_scatter, 0

    def nthreads(self) -> dict[str, int]:
        return {"tcp://a": 1, "tcp://b": 1}

    def scatter(self, data: list[Any], **kw: Any) -> list[Any]:
        if self.at_scatter:
            raise self.error
        return ["shared"]

    def submit(self, *args: Any, **kw: Any) -> _Future:
        return _Future(self.error)

    def cancel(self, futures: list[Any]) -> None:
        self.cancelled += len(futures)


def _records_of(client: _Client) -> list[Round]:
    from uno_rules.sim.distributed import dask_rounds
    from uno_rules.sim.rounds import game_seeds

    return list(dask_rounds(client, (), game_seeds(1, 40), 40))


@needs_dask
def test_a_worker_dying_under_every_try_is_a_worker_error() -> None:
    from distributed import KilledWorker

    from uno_rules.sim.workers import WorkerError

    client = _Client(KilledWorker("chunk", "tcp://b", 3))
    with pytest.raises(WorkerError, match=r"^a Dask worker died playing a chunk, on every "
                                          r"worker tried \(killed, out of memory"):
        _records_of(client)
    assert client.cancelled == 4 + 1  # the chunks in flight and the shared arguments


@needs_dask
@pytest.mark.parametrize("error", [
    ModuleNotFoundError("No module named 'mine'"),
    Exception("ModuleNotFoundError(\"No module named 'mine'\")"),  # as dask hands it back
    Exception("ImportError('cannot import name X')"),
], ids=["as-is", "repr-in-exception", "import-error"])
@pytest.mark.parametrize("at_scatter", [True, False], ids=["scatter", "chunk"])
def test_an_import_failure_on_a_worker_is_a_worker_error(error: Exception,
                                                         at_scatter: bool) -> None:
    from uno_rules.sim.workers import WorkerError

    with pytest.raises(WorkerError, match=r"^a Dask worker could not import what the run "
                                          r"needs \((No module named 'mine'|cannot import "
                                          r"name X)\): every worker needs"):
        _records_of(_Client(error, at_scatter))


@needs_dask
def test_any_other_exception_from_a_worker_is_raised_as_it_is() -> None:
    error = Exception("ValueError('a bug')")
    with pytest.raises(Exception) as caught:
        _records_of(_Client(error))
    assert caught.value is error
