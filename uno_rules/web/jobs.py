"""Simulations and comparisons in the background (docs/web.md, "The JSON API"): each job
runs in a process of its own (spawned: nothing of the server's state is inherited), reports
its progress through a pipe and its result — exactly what ``simulate --json`` /
``compare --json`` print — at the end. Cancelling stops the process at once. The arguments
are checked before the process starts, by the same checks as the command line's (a bad one:
400, an invalid rulebook: 422, too many jobs running: 429); a rulebook whose rounds never
end only gives stalled rounds, within each round's budget."""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import pickle
import secrets
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from multiprocessing import resource_tracker
from multiprocessing.process import BaseProcess
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..engine.errors import IllegalAction, shorten
from ..engine.rulebook import Rulebook
from ..sim.rounds import RunSpec
from .http import ApiError, limits_of, read_json
from .limits import Limits
from .source import SOURCE_KEYS, builtin_agents, require_rulebook, set_values

POLICIES = ("play_first", "uniform")
MAX_VARIANTS = 6
PROGRESS_EVERY = 0.1  # seconds between progress messages from a job's process


# ------------------------------------------------------------------ the arguments
def _given(body: Mapping[str, Any], key: str, default: Any) -> Any:
    """``body[key]``; absent or null: ``default`` (a page sends null for an empty field)."""
    value = body.get(key)
    return default if value is None else value


def _whole(body: Mapping[str, Any], key: str, default: int | None, low: int,
           high: int | None, why: str = "") -> int | None:
    """``body[key]`` as a whole number in ``low..high`` (a 400 otherwise); absent or null:
    ``default``."""
    value = _given(body, key, default)
    if value is None:
        return None
    if type(value) is not int:
        raise ApiError(400, f"{key}: expected a whole number, got {shorten(repr(value), 40)}")
    if value < low or (high is not None and value > high):
        shown = f"{value:,}" if value.bit_length() < 64 else "a number that large"
        most = "" if high is None else f"; the most is {high:,}{why}"
        raise ApiError(400, f"{key} {shown}: expected at least {low:,}{most}")
    return value


@dataclass(frozen=True)
class Run:
    """What a job plays: the checked arguments (picklable, for the job's process): a
    :class:`~uno_rules.sim.rounds.RunSpec` per source (its rulebook loaded and checked
    here, sent to the job's process with it: that process reads no file)."""

    kind: str                      # "simulate" or "compare"
    sources: tuple[dict[str, Any], ...]
    labels: tuple[str, ...]
    specs: tuple[RunSpec, ...]     # one per source, alike but for the rulebook
    match: bool
    limits: Limits

    @property
    def games(self) -> int:
        """The rounds (matches) each source plays."""
        return self.specs[0].games

    @property
    def total(self) -> int:
        """The rounds (matches) the job plays: what its progress counts to."""
        return self.games * len(self.sources)


def _source(body: Mapping[str, Any]) -> dict[str, Any]:
    return {k: body[k] for k in SOURCE_KEYS if k in body}


def _label(body: Mapping[str, Any], rb: Rulebook, k: int) -> str:
    label = body.get("label")
    if label is None:
        return rb.name + "".join(f"+{h}" for h in rb.house) if "text" not in body else \
            f"{rb.name} (editor {k + 1})"
    if not isinstance(label, str) or not label.strip() or len(label) > 80:
        raise ApiError(400, f"variant {k + 1}: label: expected a name of 1-80 characters")
    return label.strip()


def parse_run(kind: str, body: Mapping[str, Any], limits: Limits) -> tuple[Run,
                                                                            list[Rulebook]]:
    """A request's run, every argument checked (400), every rulebook loaded (422)."""
    if kind == "compare":
        variants = body.get("variants")
        if not isinstance(variants, list) or not all(isinstance(v, dict) for v in variants):
            raise ApiError(400, "variants: expected a list of sources ({\"rulebook\": ...} "
                                "or {\"text\": ...})")
        if not 2 <= len(variants) <= MAX_VARIANTS:
            raise ApiError(400, f"variants: {len(variants)} given; compare takes 2 to "
                                f"{MAX_VARIANTS}")
        bodies: list[Mapping[str, Any]] = variants
    else:
        bodies = [body]
    games = _whole(body, "games", 1000, 1, limits.max_games // len(bodies),
                   f" (serve --max-games {limits.max_games:,}"
                   + (f" rounds, shared by {len(bodies)} variants)" if len(bodies) > 1
                      else ")"))
    players = _whole(body, "players", 4, 2, limits.max_players)
    seed = _given(body, "seed", 0)
    if type(seed) is not int:
        raise ApiError(400, f"seed: expected a whole number, got {shorten(repr(seed), 40)}")
    policy = _given(body, "policy", "play_first")
    if policy not in POLICIES:
        raise ApiError(400, f"policy {shorten(repr(policy), 40)}: one of "
                            f"{', '.join(POLICIES)}")
    match = _given(body, "match", False)
    if type(match) is not bool or (match and kind == "compare"):
        raise ApiError(400, "match: expected true or false" if kind == "simulate" else
                       "match: compare plays rounds, not matches")
    max_rounds = _whole(body, "max_rounds", None, 1, None)
    if max_rounds is not None and not match:
        raise ApiError(400, "max_rounds: only with \"match\": true (a match's budget of "
                            "rounds)")
    max_steps = _whole(body, "max_steps", None, 1, limits.max_steps)
    max_actions = _whole(body, "max_actions", None, 1, limits.max_actions)
    assert games is not None and players is not None
    agents = builtin_agents(body.get("agents"), players)
    rulebooks = [require_rulebook(_source(b), limits) for b in bodies]
    labels = tuple(_label(b, rb, k) for k, (b, rb) in enumerate(zip(bodies, rulebooks,
                                                                     strict=True)))
    spec = RunSpec(rulebooks[0], players, seed, games, policy, agents, max_steps,
                   max_actions, max_rounds)
    specs = tuple(spec.on(rb) for rb in rulebooks)
    from ..sim.compare import check_specs

    try:  # the checks compare and simulate make before playing
        check_specs(specs)
    except (IllegalAction, ValueError) as exc:
        raise ApiError(400, shorten(" ".join(str(exc).split()), 300)) from None
    run = Run(kind, tuple(_source(b) for b in bodies), labels, specs, match, limits)
    return run, rulebooks


# ------------------------------------------------------------------ the job's process
def finite(value: Any) -> Any:
    """``value`` with every float that JSON can't hold (inf, nan) as None."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def play(run: Run, tick: Callable[[], None]) -> dict[str, Any]:
    """The run's result, as ``simulate --json`` / ``compare --json`` print it; ``tick`` is
    called after each round (match)."""
    if run.kind == "compare":
        from ..sim.compare import compare_specs

        result = compare_specs(run.specs, run.labels, on_round=tick)
        for entry, source in zip(result["variants"], run.sources, strict=True):
            entry["settings"] = set_values(source.get("set"))
        return result
    if run.match:
        from ..sim.matchsim import simulate_matches_spec

        stats: Any = simulate_matches_spec(run.specs[0], on_match=lambda r: tick())
    else:
        from ..sim.simulate import simulate_spec

        stats = simulate_spec(run.specs[0], on_round=lambda r: tick())
    out: dict[str, Any] = stats.to_json()
    return out


def _child(run: Run, messages: Any) -> None:
    """A job's process: play, send progress and the result (to ``messages``, the write end
    of a pipe)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server decides when a job stops (and
    # it started with SIGINT blocked: _without_ctrl_c)
    try:
        done, last = 0, 0.0

        def tick() -> None:
            nonlocal done, last
            done += 1
            now = time.monotonic()
            if now - last >= PROGRESS_EVERY:
                last = now
                messages.send(("progress", done))
        result = finite(play(run, tick))
        messages.send(("progress", done))
        messages.send(("result", result))
    except Exception as exc:  # noqa: BLE001 - a bug of ours: one line, the job failed
        messages.send(("error", f"internal error (a bug): {type(exc).__name__}: "
                                f"{shorten(' '.join(str(exc).split()), 300)}"))


# ------------------------------------------------------------------ the jobs
@dataclass
class Job:
    """One simulation or comparison, its process and what it has said."""

    id: str
    run: Run
    process: BaseProcess
    messages: Any
    state: str = "running"
    done: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def to_json(self) -> dict[str, Any]:
        with self.lock:
            # done and total count rounds (matches) over every variant: a compare of
            # 1,000 deals under 2 variants plays 2,000; games and variants say which.
            return {"job": self.id, "kind": self.run.kind, "state": self.state,
                    "done": self.done, "total": self.run.total, "games": self.run.games,
                    "variants": len(self.run.sources),
                    "unit": "matches" if self.run.match else "rounds",
                    "result": self.result, "error": self.error}

    def listen(self, finished: Callable[[Job], None]) -> None:
        """Read the process's messages until its result, its error or its end (a thread)."""
        while self.state == "running":
            try:
                if not self.messages.poll(0.2):
                    continue
                kind, value = self.messages.recv()
            except (OSError, EOFError, ValueError, pickle.UnpicklingError):
                # its end of the pipe closed before a result: it ended (or was cancelled)
                if self.state == "running":  # (cancel reaps its process)
                    self.process.join(5)
                self._end("failed", error="the job's process ended without a result "
                                          f"(exit code {self.process.exitcode})")
                break
            if kind == "progress":
                with self.lock:
                    self.done = max(self.done, value)
            elif kind == "result":
                self._end("done", result=value)
                break
            else:
                self._end("failed", error=value)
                break
        if self.state != "cancelled":  # (cancel reaps its process)
            self.process.join(5)
        self.messages.close()  # its pipe's descriptor: a finished job keeps none
        finished(self)

    def _end(self, state: str, result: dict[str, Any] | None = None,
             error: str | None = None) -> None:
        with self.lock:
            if self.state == "running":  # a cancel said first
                self.state, self.result, self.error = state, result, error
                if state == "done":
                    self.done = self.run.total if result is not None and not \
                        result.get("interrupted") else self.done

    def cancel(self) -> None:
        """Stop the process at once (SIGTERM, then SIGKILL)."""
        with self.lock:
            if self.state != "running":
                return
            self.state = "cancelled"
        stop_process(self.process)


@contextlib.contextmanager
def _without_ctrl_c() -> Iterator[None]:
    """SIGINT blocked in this thread while a job's process starts: the process inherits the
    mask and never takes a Ctrl-C at the terminal (the server decides when a job stops);
    ignoring it in the process itself came too late for one still starting up (a
    KeyboardInterrupt traceback from its imports)."""
    # Started first, the one thing start() spawns that unblocks SIGINT when it is done.
    resource_tracker.ensure_running()
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def stop_process(process: BaseProcess) -> None:
    """End a job's process now and reap it."""
    if process.is_alive():
        process.terminate()
        process.join(1)
    if process.is_alive():
        process.kill()
    # No time limit: a killed process always ends, and the answer says it has (a limit of
    # 5 s ran out on a machine loaded enough, and the job's process was still there).
    process.join()


class Jobs:
    """The server's jobs: running ones (at most ``max_jobs``) and the last finished ones
    (at most ``max_finished_jobs``)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.lock = threading.Lock()
        self.context = multiprocessing.get_context("spawn")

    def running(self) -> int:
        return sum(j.state == "running" for j in self.jobs.values())

    def start(self, run: Run) -> Job:
        with self.lock:
            if self.running() >= self.limits.max_jobs:
                raise ApiError(429, f"{self.limits.max_jobs} jobs are running already (the "
                                    "most at once: serve --max-jobs); wait for one or "
                                    "cancel one")
            # A pipe, not a queue: a queue's semaphores outlive a server stopped by a signal
            # ("leaked semaphore objects"); one writer, one reader need none.
            reader, writer = self.context.Pipe(duplex=False)
            process = self.context.Process(target=_child, args=(run, writer), daemon=True,
                                           name="uno-rules-job")
            job = Job(secrets.token_hex(8), run, process, reader)
            try:
                with _without_ctrl_c():
                    process.start()
            except OSError as exc:  # no more processes or memory: the machine's state
                reader.close()
                raise ApiError(503, f"can't start the job's process: "
                                    f"{(exc.strerror or str(exc)).lower()}") from None
            finally:
                writer.close()  # the child's now: its end closing is the job's end
            self.jobs[job.id] = job
        threading.Thread(target=job.listen, args=(self._finished,), daemon=True,
                         name=f"uno-rules-job-{job.id}").start()
        return job

    def _finished(self, job: Job) -> None:
        with self.lock:
            ended = [j for j in self.jobs.values() if j.state != "running"]
            for old in ended[:max(0, len(ended) - self.limits.max_finished_jobs)]:
                del self.jobs[old.id]

    def get(self, job_id: str) -> Job:
        job = self.jobs.get(job_id)
        if job is None:
            raise ApiError(404, f"no job {shorten(repr(job_id), 40)} (finished jobs are "
                                f"kept: the last {self.limits.max_finished_jobs})")
        return job

    def stop_all(self) -> None:
        for job in list(self.jobs.values()):
            job.cancel()
            # one that ended on its own may still be exiting (its listener waits only 5 s
            # for it): reaped too, so no job's process outlives the server
            stop_process(job.process)


def _jobs(request: Request) -> Jobs:
    jobs: Jobs = request.app.state.jobs
    return jobs


async def _start(request: Request, kind: str) -> Response:
    body = await read_json(request)
    limits = limits_of(request)
    jobs = _jobs(request)

    def begin() -> Job:
        run, _ = parse_run(kind, body, limits)
        return jobs.start(run)
    job = await run_in_threadpool(begin)
    return JSONResponse({"job": job.id}, status_code=202)


async def simulate(request: Request) -> Response:
    """``POST /api/simulate``: a simulation's job."""
    return await _start(request, "simulate")


async def compare(request: Request) -> Response:
    """``POST /api/compare``: a comparison's job."""
    return await _start(request, "compare")


async def job(request: Request) -> Response:
    """``GET /api/jobs/{id}``: a job's state, progress and result."""
    return JSONResponse(_jobs(request).get(request.path_params["id"]).to_json())


async def cancel(request: Request) -> Response:
    """``DELETE /api/jobs/{id}``: stop a job at once."""
    found = _jobs(request).get(request.path_params["id"])
    await run_in_threadpool(found.cancel)
    return JSONResponse(found.to_json())


routes: list[BaseRoute] = [
    Route("/api/simulate", simulate, methods=["POST"]),
    Route("/api/compare", compare, methods=["POST"]),
    Route("/api/jobs/{id}", job, methods=["GET"]),
    Route("/api/jobs/{id}", cancel, methods=["DELETE"]),
]


def start(app: Starlette) -> None:
    """The server's record of jobs."""
    app.state.jobs = Jobs(app.state.limits)


def stop(app: Starlette) -> None:
    """Stop every job still running (their processes end with the server)."""
    jobs: Jobs | None = getattr(app.state, "jobs", None)
    if jobs is not None:
        jobs.stop_all()
