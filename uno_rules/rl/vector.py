"""Gymnasium vector environments over :class:`uno_rules.rl.gymnasium.UnoEnv`
(``pip install 'uno-rules[rl]'``).

``make_vec(rulebook="classic", num_envs=4, mode="sync", autoreset="same_step", **kwargs)``
runs ``num_envs`` copies of ``UnoEnv(rulebook, **kwargs)`` side by side, in this process
(``SyncVectorEnv``) or one process each (``AsyncVectorEnv``), with Gymnasium's auto-reset:
a finished round is followed by a fresh one in the same sub-env. Each sub-env's mask is in
``infos["action_mask"]`` (one row per sub-env) and ``envs.call("action_masks")`` (a tuple
of ``bool`` arrays). Seeding is Gymnasium's: ``reset(seed=N)`` seeds sub-env ``i`` with
``N + i`` and each auto-reset deals that sub-env's next round from its own RNG, so the same
seed and the same actions give the same trajectories. ``autoreset="same_step"`` (the
default here) returns the new round's first observation and mask in the step that ended
the last one (its final observation in ``infos["final_obs"]``), so every mask offers an
action; ``"next_step"`` is Gymnasium's default (the step after the end resets and ignores
its action). ``gymnasium.make_vec("uno_rules/Uno-v0", num_envs=4, rulebook=...)`` works too
(synchronous, Gymnasium's ``next_step``). ``auto_forced=True`` (an ``UnoEnv`` argument) is
passed on to each sub-env: forced actions are taken unasked there.

There is no PettingZoo parallel environment: see :data:`NOT_PARALLEL`.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv, VectorEnv

from .gymnasium import UnoEnv

MODES = ("sync", "async")
AUTORESETS = {"same_step": AutoresetMode.SAME_STEP, "next_step": AutoresetMode.NEXT_STEP}

#: Why PettingZoo's ``aec_to_parallel`` refuses the AEC environment (its metadata says
#: ``is_parallelizable: False``), and why no parallel wrapper is offered.
NOT_PARALLEL = (
    "UNO is turn-based: every action changes the round at once, and who acts next depends "
    "on it (a skip, a reverse, a draw, an out-of-turn window that opens only after that "
    "change), so no cycle exists in which every live seat acts on the same state; a "
    "parallel step would have to fix all seats' actions before the first is taken.")


def make_vec(rulebook: str | Path = "classic", num_envs: int = 4, mode: str = "sync",
             autoreset: str = "same_step", **kwargs: Any) -> VectorEnv[Any, Any, Any]:
    """``num_envs`` :class:`~uno_rules.rl.gymnasium.UnoEnv` (``rulebook`` and ``kwargs``:
    its arguments) as one Gymnasium vector environment (see the module doc). ``mode``
    ``"async"`` runs each in its own process: ``kwargs`` must then pickle (an agent's name
    rather than a lambda)."""
    if type(num_envs) is not int or num_envs < 1:
        raise ValueError(f"num_envs={num_envs!r}: expected a whole number >= 1")
    if mode not in MODES:
        raise ValueError(f"mode={mode!r}: expected 'sync' or 'async'")
    if autoreset not in AUTORESETS:
        raise ValueError(f"autoreset={autoreset!r}: expected 'same_step' or 'next_step'")
    UnoEnv(rulebook, **kwargs).close()  # a wrong argument fails here, not in a worker
    make = functools.partial(UnoEnv, rulebook, **kwargs)
    fns = [make] * num_envs
    if mode == "async":
        return AsyncVectorEnv(fns, autoreset_mode=AUTORESETS[autoreset])
    return SyncVectorEnv(fns, autoreset_mode=AUTORESETS[autoreset])

