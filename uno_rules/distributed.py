"""Playing a simulation's rounds on a Dask cluster (``simulate --scheduler ADDRESS``; its
matches with ``--match``, ``compare``'s deals the same way).

The same chunks of consecutive round seeds as ``--workers`` (:mod:`uno_rules.workers`),
merged in round order, so the statistics, ``--json`` (less timing) and ``--csv`` are
byte-identical to one process. What crosses to the cluster: the compiled rulebook, pickled
(house rules and settings already applied: a worker reads no file), sent once and shared by
every chunk, with the players, budgets, policy and agent classes (a ``MODULE:CLASS`` agent
is pickled by name: the workers must be able to import it); then each chunk's seeds. Back
come the rounds' records. ``dask[distributed]`` is an optional extra:
``pip install 'uno-rules[dask]'`` (docs/simulation.md, "On a Dask cluster").
"""

from __future__ import annotations

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

from .simulate import play_round
from .workers import R, WorkerError, chunk_size, cores

TIMEOUT = 10.0  # seconds to reach a scheduler and find a worker there (--scheduler-timeout)
NEEDS_DASK = "--scheduler needs dask: pip install 'uno-rules[dask]'"


class SchedulerError(Exception):
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
    thread.start()
    thread.join(timeout + 1)  # dask's own timeout first, when it applies
    if thread.is_alive():
        raise SchedulerError(f"--scheduler {address}: can't connect: no Dask handshake "
                             f"within {timeout:g} s (is a Dask scheduler listening there?)")
    error = box.get("error")
    if isinstance(error, (OSError, TimeoutError)):  # not a dask scheduler, say
        why = " ".join(str(error).split()) or type(error).__name__
        raise SchedulerError(f"--scheduler {address}: can't connect: {why}")
    if error is not None:
        raise error
    return box["client"]


@contextmanager
def open_client(scheduler: str, workers: int = 0,
                timeout: float = TIMEOUT) -> Iterator[Any]:
    """A ``distributed.Client`` for ``scheduler`` (see :func:`parse_scheduler`), with at
    least one worker, closed afterwards. ``local`` starts a ``LocalCluster`` of ``workers``
    processes (0: one per core) for the run. Raises :class:`SchedulerError` when dask is
    missing, the scheduler can't be reached within ``timeout`` seconds or has no worker."""
    parse_scheduler(scheduler)
    distributed = _distributed()
    # dask's own warnings (a closing cluster's comms, its dashboard) are not the user's
    # business: our failures are one line each.
    logging.getLogger("distributed").setLevel(logging.ERROR)
    cluster = None
    try:
        if scheduler == "local":
            # The worker processes start with SIGINT ignored (inherited, and Python keeps
            # it so): a terminal's Ctrl-C reaches the whole process group, and each worker
            # would print a traceback. This process handles it and closes the cluster.
            with _sigint_ignored():
                cluster = distributed.LocalCluster(
                    n_workers=workers or cores(), threads_per_worker=1, processes=True,
                    host="127.0.0.1",  # this machine's own: nothing reachable from outside
                    dashboard_address=":0",  # any free port
                    # A worker's heartbeat can race the scheduler's close and log an ERROR
                    # with a traceback (seen on a loaded machine); what fails a run reaches
                    # the client as the task's exception or KilledWorker, not through logs.
                    silence_logs=logging.CRITICAL)
                client = distributed.Client(cluster, timeout=timeout)
        else:
            _reach(scheduler, timeout)
            client = _connect(distributed, scheduler, timeout)
        try:
            try:
                client.wait_for_workers(1, timeout=timeout)
            except (OSError, TimeoutError):
                raise SchedulerError(f"--scheduler {scheduler}: no worker joined within "
                                     f"{timeout:g} s (start one: dask worker "
                                     f"{scheduler})") from None
            yield client
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored meanwhile (a Ctrl-C then is lost: the cluster's start-up only;
    dask's own threads don't keep a blocked mask, as :mod:`uno_rules.workers` uses)."""
    if threading.current_thread() is not threading.main_thread():  # only it may
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _play(play: Callable[..., Any], args: tuple[Any, ...], seeds: list[int]) -> list[Any]:
    """One chunk, on a worker (``play`` and ``args`` as
    :func:`uno_rules.workers.parallel_rounds`)."""
    rulebook, players, *rest = args
    return [play(rulebook, players, s, *rest) for s in seeds]


def dask_rounds(client: Any, args: tuple[Any, ...], seeds: Iterator[int], games: int,
                play: Callable[..., R] = play_round  # type: ignore[assignment]
                ) -> Generator[R, None, None]:
    """The records of the rounds of ``seeds`` (``games`` of them), played on ``client``'s
    cluster, in round order: as :func:`uno_rules.workers.parallel_rounds` (its chunks, its
    Ctrl-C, its ``play``: a round, a match or a deal per seed, a module-level function the
    workers import by name), sized to the cluster's worker threads. A task's exception is
    raised here; a worker that keeps dying under a chunk (dask retries it elsewhere first)
    raises :class:`WorkerError`."""
    distributed = _distributed()
    threads = max(1, sum(client.nthreads().values()))
    size = chunk_size(games, threads)
    # Sent once (not with every chunk), and to every worker up front.
    try:
        [shared] = client.scatter([args], broadcast=True, hash=False)
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
                finished: list[R] = []
                while pending and pending[0].status == "finished":
                    finished += pending.popleft().result()
                yield from finished
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
