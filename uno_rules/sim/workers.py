"""Playing a simulation's rounds in several processes (``simulate --workers N``).

The rounds are cut into chunks of consecutive seeds (:func:`uno_rules.sim.rounds.game_seeds`,
as one process uses them); each worker process receives the run's
:class:`~uno_rules.sim.rounds.RunSpec` (its rulebook pickled) once, plays its chunks and
sends back the rounds' records, which are handed on IN ROUND ORDER: the statistics,
``--json`` (less timing) and ``--csv`` are byte-identical to one process. Workers are
started with 'spawn' (safe on every platform) and ignore SIGINT: Ctrl-C reaches the parent,
which stops them.
"""

from __future__ import annotations

import signal
from collections import deque
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from itertools import islice
from multiprocessing import get_context
from typing import Any, TypeVar

from ..engine.errors import UnoRulesError

# The run's count of processes is checked with the run (RunSpec.check); importable here as
# before.
from .rounds import PER_CORE as PER_CORE
from .rounds import cores as cores
from .rounds import play_seed
from .rounds import resolve_workers as resolve_workers

R = TypeVar("R")  # a record: a round's (Round), or a match's

# Rounds per chunk at most: small enough that Ctrl-C loses little and the workers stay
# evenly busy, large enough that sending a chunk costs little beside playing it.
MAX_CHUNK = 50


class WorkerError(UnoRulesError):
    """A worker process died (killed, out of memory, an agent calling os._exit...)."""


def chunk_size(games: int, workers: int) -> int:
    """Rounds per chunk: about 8 chunks per worker, at most :data:`MAX_CHUNK`."""
    return max(1, min(MAX_CHUNK, games // (workers * 8)))


_WORK: Any = None  # what this worker plays: a RunSpec (or compare's specs), set once
_PLAY: Callable[[Any, int], Any] = play_seed  # what plays one seed of it, in this worker


def _start(work: Any, play: Callable[[Any, int], Any] = play_seed) -> None:
    global _WORK, _PLAY
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if hasattr(signal, "pthread_sigmask"):  # blocked while starting: see _sigint_held
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _WORK, _PLAY = work, play


def _play(seeds: list[int]) -> list[Any]:
    return [_PLAY(_WORK, s) for s in seeds]


def parallel_rounds(work: Any, seeds: Iterator[int], games: int, workers: int,
                    play: Callable[[Any, int], R] = play_seed  # type: ignore[assignment]
                    ) -> Generator[R, None, None]:
    """The records of the rounds of ``seeds`` (``games`` of them), played in ``workers``
    processes, in round order. ``work``: what the run plays (a
    :class:`~uno_rules.sim.rounds.RunSpec`), pickled once per worker. A worker's exception
    is raised here; a worker that dies raises :class:`WorkerError`. Closing the iterator, or
    Ctrl-C while it waits, stops the workers; on Ctrl-C the chunks already finished in order
    are yielded first, then KeyboardInterrupt is raised again.

    ``play``: what plays one seed, ``play(work, seed)`` —
    :func:`~uno_rules.sim.rounds.play_seed`, a whole match per seed
    (:func:`uno_rules.sim.matchsim.play_match_seed`) or a deal of every variant
    (:func:`uno_rules.sim.compare.play_deal`); a module-level function, as the workers
    import it by name."""
    size = chunk_size(games, workers)
    workers = min(workers, -(-games // size))  # no idle processes
    pool = ProcessPoolExecutor(workers, mp_context=get_context("spawn"), initializer=_start,
                               initargs=(work, play))
    pending: deque[Future[list[R]]] = deque()

    def submit() -> bool:
        chunk = list(islice(seeds, size))
        if chunk:
            pending.append(pool.submit(_play, chunk))
        return bool(chunk)

    try:
        with _sigint_held():  # inherited by the workers, until their initializer runs
            for _ in range(2 * workers):  # two chunks each in flight: none waits for work
                if not submit():  # (the first `workers` submits start the processes)
                    break
        while pending:
            try:
                records = pending[0].result()
            except KeyboardInterrupt:
                finished: list[R] = []
                while pending and pending[0].done() and not pending[0].exception():
                    finished += pending.popleft().result()
                _stop(pool)
                yield from finished
                raise
            except BrokenProcessPool:
                raise WorkerError("a worker process died (killed, out of memory, or it could "
                                  "not import an agent's class: docs/simulation.md); no "
                                  "statistics") from None
            pending.popleft()
            submit()
            yield from records
    finally:
        _stop(pool)


@contextmanager
def _sigint_held() -> Iterator[None]:
    """SIGINT blocked while the workers start: a terminal's Ctrl-C reaches every process of
    the group, and a worker still starting would print a KeyboardInterrupt traceback. The
    mask is inherited across fork and exec (a handler or SIG_IGN here would lose a Ctrl-C
    meanwhile); this process receives a held one when the block ends, each worker discards
    its own (:func:`_start`)."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no masks, no process groups
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)  # as the caller had it


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool``'s workers now, mid-chunk if need be, and wait for them: no orphans."""
    # The executor can only wait for a chunk to end (an agent may never end one): its
    # processes are terminated directly (a private attribute, present since 3.2).
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # private too, since 3.9
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join()
    # The executor's manager thread closes its wake-up pipe as it ends: still running at
    # interpreter exit, it raced concurrent.futures' exit hook writing to that pipe, which
    # printed "OSError: [Errno 9] Bad file descriptor" on a loaded machine. Its processes
    # gone, it ends at once.
    if manager is not None:
        manager.join()
