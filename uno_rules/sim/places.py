"""Where a run's rounds (or matches) are played: in this process, in worker processes
(:mod:`.workers`) or on a Dask cluster (:mod:`.distributed`); each hands them on in round
order, the same records from each."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, TypeVar

from .rounds import RunSpec

R = TypeVar("R")  # what ``play`` returns per seed: a round's record, a match's, a watched one


def each_played(spec: RunSpec, play: Callable[[RunSpec, int], R], workers: int = 1,
                client: Any = None) -> Generator[R, None, None]:
    """``play(spec, seed)`` for each seed of the run, in round order: on ``client``'s Dask
    cluster when given, else in ``workers`` processes (1: here)."""
    if client is not None:
        from .distributed import dask_rounds

        return dask_rounds(client, spec, spec.seeds(), spec.games, play=play)
    if workers == 1:
        return (play(spec, s) for s in spec.seeds())
    from .workers import parallel_rounds

    return parallel_rounds(spec, spec.seeds(), spec.games, workers, play=play)
