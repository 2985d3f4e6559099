"""Playing a simulation's rounds on a Dask cluster (``simulate --scheduler ADDRESS``; its
matches with ``--match``, ``compare``'s deals the same way).

The same chunks of consecutive round seeds as ``--workers`` (:mod:`uno_rules.sim.workers`),
merged in round order, so the statistics, ``--json`` (less timing) and ``--csv`` are
byte-identical to one process. What crosses to the cluster: the run's
:class:`~uno_rules.sim.rounds.RunSpec`, pickled (its compiled rulebook with house rules and
settings already applied: a worker reads no file), sent once and shared by every chunk, with
the players, budgets, policy and agent classes (a ``MODULE:CLASS`` agent is pickled by name:
the workers must be able to import it); then each chunk's seeds. Back
come the rounds' records. ``dask[distributed]`` is an optional extra:
``pip install 'uno-rules[dask]'`` (docs/simulation.md, "On a Dask cluster").
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import re
import signal
import socket
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from itertools import islice
from typing import Any
from urllib.parse import urlsplit

from ..engine.errors import UnoRulesError
from .rounds import play_seed
from .workers import R, WorkerError, chunk_size, cores

TIMEOUT = 10.0  # seconds to reach a scheduler and find a worker there (--scheduler-timeout)
NEEDS_DASK = "--scheduler needs dask: pip install 'uno-rules[dask]'"
# The clients of open_client whose start-up a Ctrl-C interrupted, for their first run to
# stop at once (by id: open_client forgets its client as it closes it).
_INTERRUPTED: set[int] = set()


class SchedulerError(UnoRulesError):
    """A scheduler that can't be used: malformed, unreachable, no workers, dask missing."""


def parse_scheduler(text: str) -> str:
    """``local`` or ``tcp://HOST:PORT`` as given, checked; else :class:`SchedulerError`."""
    if text == "local":
        return text
    problem = None
    try:
        url = urlsplit(text)
        host = url.hostname
    except ValueError:  # an unbalanced [ of an IPv6 address
        url, host = None, None
    try:
        port = None if url is None else url.port
    except ValueError:  # not a number, or past 65535
        port = None
    if url is None or url.scheme != "tcp" or not host:
        problem = "expected local or tcp://HOST:PORT"
    elif port is None or port == 0:
        problem = "expected a port from 1 to 65535 (tcp://HOST:PORT; dask's default is 8786)"
    elif url.path or url.query or url.fragment or url.username or url.password:
        problem = "expected tcp://HOST:PORT and nothing more"
    if problem:
        raise SchedulerError(f"--scheduler {text!r}: {problem}")
    return text


def _distributed() -> Any:
    try:  # imported by name: the package is an optional extra, typed Any here
        return importlib.import_module("distributed")
    except ImportError:
        raise SchedulerError(NEEDS_DASK) from None


def _reach(address: str, timeout: float) -> None:
    """Fail fast with the reason (refused, unknown host): dask's own connect retries until
    its timeout and then says only that it timed out."""
    url = urlsplit(address)
    assert url.hostname is not None and url.port is not None  # parse_scheduler checked
    try:
        socket.create_connection((url.hostname, url.port), timeout=timeout).close()
    except TimeoutError:
        raise SchedulerError(f"--scheduler {address}: can't connect: no answer within "
                             f"{timeout:g} s") from None
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
        raise SchedulerError(f"--scheduler {address}: can't connect: {why}") from None
    except MemoryError:  # Python's name for errno ENOMEM (a sandbox may answer it)
        raise SchedulerError(f"--scheduler {address}: can't connect: Cannot allocate "
                             "memory") from None


def _connect(distributed: Any, address: str, timeout: float) -> Any:
    """A client of the scheduler at ``address``, within ``timeout`` seconds. Made in a
    thread of its own: dask bounds the connection by ``timeout`` but not the wait for the
    scheduler's handshake (a server that accepts and says nothing would hang the run)."""
    box: dict[str, Any] = {}

    def connect() -> None:
        try:
            box["client"] = distributed.Client(address, timeout=timeout)
        except Exception as exc:  # noqa: BLE001 - handed to the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=connect, name="uno-rules connect", daemon=True)
    # dask logs what it can't read of a peer's handshake with a traceback ("Failed to
    # deserialize", CRITICAL): the failure is said below, in one line.
    log = logging.getLogger("distributed")
    level = log.level
    log.setLevel(logging.CRITICAL + 1)
    try:
        thread.start()
        thread.join(timeout + 1)  # dask's own timeout first, when it applies
    finally:
        log.setLevel(level)
    if thread.is_alive():
        raise SchedulerError(f"--scheduler {address}: can't connect: no Dask handshake "
                             f"within {timeout:g} s (is a Dask scheduler listening there?)")
    error = box.get("error")
    if isinstance(error, (OSError, TimeoutError)):  # not a dask scheduler, say
        why = " ".join(str(error).split()) or type(error).__name__
        raise SchedulerError(f"--scheduler {address}: can't connect: {why}")
    if error is not None:
        # Whatever else the handshake raised, the peer sent it: a service that speaks first
        # has its first bytes read as a frame's length (8 bytes of 0xff: numpy refuses the
        # buffer, ValueError or MemoryError), or as frames msgpack can't read. Only a
        # scheduler can make dask's handshake, and it made none.
        raise SchedulerError(f"--scheduler {address}: not a Dask scheduler (what it sent "
                             "is not Dask's handshake)")
    return box["client"]


@contextmanager
def open_client(scheduler: str, workers: int = 0,
                timeout: float = TIMEOUT) -> Iterator[Any]:
    """A ``distributed.Client`` for ``scheduler`` (see :func:`parse_scheduler`), with at
    least one worker, closed afterwards. ``local`` starts a ``LocalCluster`` of ``workers``
    processes (0: one per core) for the run; a Ctrl-C while it starts is held until it is
    up, then stops the first run on the client (:func:`dask_rounds`) before its first round,
    as a Ctrl-C does at any moment of a run (or, with no run, is raised when the block
    ends). Raises :class:`SchedulerError` when dask is missing, the scheduler can't be
    reached within ``timeout`` seconds or has no worker."""
    parse_scheduler(scheduler)
    distributed = _distributed()
    # dask's own warnings (a closing cluster's comms, its dashboard) are not the user's
    # business: our failures are one line each.
    logging.getLogger("distributed").setLevel(logging.ERROR)
    cluster = client = None
    interrupted = False
    try:
        if scheduler == "local":
            with _sigint_held() as held:
                cluster = distributed.LocalCluster(
                    n_workers=workers or cores(), threads_per_worker=1, processes=True,
                    host="127.0.0.1",  # this machine's own: nothing reachable from outside
                    dashboard_address=":0",  # any free port
                    # A worker's heartbeat can race the scheduler's close and log an ERROR
                    # with a traceback (seen on a loaded machine); what fails a run reaches
                    # the client as the task's exception or KilledWorker, not through logs.
                    silence_logs=logging.CRITICAL)
                client = distributed.Client(cluster, timeout=timeout)
                _wait_for_workers(client, scheduler, timeout)
            if held:
                _INTERRUPTED.add(id(client))
        else:
            _reach(scheduler, timeout)
            client = _connect(distributed, scheduler, timeout)
            _wait_for_workers(client, scheduler, timeout)
        yield client
        interrupted = id(client) in _INTERRUPTED  # no run took it
    finally:
        try:
            if client is not None:
                _INTERRUPTED.discard(id(client))
                client.close()
        finally:
            if cluster is not None:
                cluster.close()
    if interrupted:
        raise KeyboardInterrupt


def _wait_for_workers(client: Any, scheduler: str, timeout: float) -> None:
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (OSError, TimeoutError):
        raise SchedulerError(f"--scheduler {scheduler}: no worker joined within "
                             f"{timeout:g} s (start one: dask worker {scheduler})") from None


@contextmanager
def _sigint_held() -> Iterator[list[bool]]:
    """SIGINT held meanwhile (a local cluster's start-up): blocked in this thread and so in
    the threads and processes dask starts meanwhile, which inherit the mask and keep it (a
    terminal's Ctrl-C reaches the whole process group: the workers stay quiet, this process
    closes them); and, in the main thread with Python's own handler, a Ctrl-C that reaches
    this process meanwhile (held until the block ends, or caught by a thread started before
    it: numpy's, say) is noted in the list yielded (``[True]``), for the caller to raise
    where it counts the run's rounds."""
    held: list[bool] = []
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no masks, no process groups
        yield held
        return
    from multiprocessing import resource_tracker

    # multiprocessing starts its resource tracker (at the first worker process, in dask's
    # event loop thread) with signals blocked, then UNblocks SIGINT in that thread: the
    # threads it starts next, and so the worker processes, would not inherit the block.
    # Started here first, it is not started again.
    resource_tracker.ensure_running()
    handler = None
    if threading.current_thread() is threading.main_thread() and \
            signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        handler = signal.signal(signal.SIGINT, lambda signum, frame: held.append(True))
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield held
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)  # one held reaches the handler
        if handler is not None:
            signal.signal(signal.SIGINT, handler)


def _play(play: Callable[[Any, int], Any], work: Any, seeds: list[int]) -> list[Any]:
    """One chunk, on a worker (``play`` and ``work`` as
    :func:`uno_rules.sim.workers.parallel_rounds`)."""
    return [play(work, s) for s in seeds]


def dask_rounds(client: Any, work: Any, seeds: Iterator[int], games: int,
                play: Callable[[Any, int], R] = play_seed  # type: ignore[assignment]
                ) -> Generator[R, None, None]:
    """The records of the rounds of ``seeds`` (``games`` of them), played on ``client``'s
    cluster, in round order: as :func:`uno_rules.sim.workers.parallel_rounds` (its ``work``,
    a :class:`~uno_rules.sim.rounds.RunSpec` sent once; its chunks, its Ctrl-C, its
    ``play``: a round, a match or a deal per seed, a module-level function the workers
    import by name), sized to the cluster's worker threads. A task's exception is raised
    here; a worker that keeps dying under a chunk (dask retries it elsewhere first) raises
    :class:`WorkerError`."""
    if id(client) in _INTERRUPTED:  # a Ctrl-C while its cluster started (open_client)
        _INTERRUPTED.discard(id(client))
        raise KeyboardInterrupt
    distributed = _distributed()
    threads = max(1, sum(client.nthreads().values()))
    size = chunk_size(games, threads)
    # Sent once (not with every chunk), and to every worker up front.
    try:
        [shared] = client.scatter([work], broadcast=True, hash=False)
    except Exception as exc:  # a worker unpickles it at once: an agent's module, say
        _raise_import_failure(exc)
        raise
    pending: deque[Any] = deque()

    def submit() -> bool:
        chunk = list(islice(seeds, size))
        if chunk:
            pending.append(client.submit(_play, play, shared, chunk, pure=False))
        return bool(chunk)

    try:
        for _ in range(2 * threads):  # two chunks per thread in flight: none waits for work
            if not submit():
                break
        while pending:
            try:
                records = pending[0].result()
            except KeyboardInterrupt:
                yield from _finished(pending)
                raise
            except distributed.KilledWorker:
                raise WorkerError("a Dask worker died playing a chunk, on every worker "
                                  "tried (killed, out of memory, an agent ending its "
                                  "process); no statistics") from None
            except Exception as exc:
                _raise_import_failure(exc)
                raise
            pending.popleft()
            submit()
            yield from records
    finally:
        client.cancel(list(pending) + [shared])


def _finished(pending: deque[Any]) -> list[Any]:
    """After a Ctrl-C: the records of the chunks at the head of ``pending`` that are finished
    (taken off it), up to the first that is not, or that can't be fetched. The Ctrl-C
    cancelled the fetch under way, and with it the fetch a later one may share (dask
    batches them): dask's ``sync`` then returns an unbound result (UnboundLocalError: its
    ``except Exception`` misses asyncio's CancelledError), and every later fetch on the
    client does the same. What can't be fetched is not counted; the run stops all the same."""
    records: list[Any] = []
    while pending and pending[0].status == "finished":
        try:
            records += pending[0].result()
        except (Exception, asyncio.CancelledError):
            break
        pending.popleft()
    return records


def _raise_import_failure(exc: Exception) -> None:
    """:class:`WorkerError` when ``exc`` says a worker could not import what the run
    needs (unpickling an agent's class or the rulebook there: dask hands it back as an
    ImportError, or as a plain Exception carrying its repr); else nothing."""
    missing = str(exc) if isinstance(exc, ImportError) else None
    found = re.fullmatch(r"(?:ModuleNotFoundError|ImportError)\(([\x22\x27])(.*)\1\)",
                         str(exc), re.S)
    if type(exc) is Exception and found:
        missing = found.group(2)
    if missing is not None:
        raise WorkerError(f"a Dask worker could not import what the run needs ({missing}): "
                          f"every worker needs the same uno-rules and the agents' modules "
                          f"(docs/simulation.md); no statistics") from None
