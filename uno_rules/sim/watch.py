"""Watching a run's actions: each round is played with the driver's ``on_action`` hook
collecting, where the round is played (this process, a worker process, a Dask worker), the
actions and their events as plain data, sent back with the round's record — a hook can't
cross processes as a callable, its data can. :func:`watch_rounds` yields them in round
order, the same in one process, with workers and on a cluster."""

from __future__ import annotations

import json
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..engine.actions import Action
from ..engine.rulebook import Rulebook
from ..play.driver import Events
from .places import each_played
from .rounds import Round, RunSpec, play_round

if TYPE_CHECKING:
    from ..play.agents import AgentClass

Seen = tuple[tuple[str, Events], ...]  # each action's notation and the events it logged


class Watched(NamedTuple):
    """One round's record and what it did, action by action."""

    record: Round
    actions: Seen


def play_watched(rulebook: Rulebook, players: int, seed: int, max_actions: int | None,
                 policy: str, max_steps: int | None,
                 agents: Sequence[tuple[str, AgentClass]] | None) -> Watched:
    """:func:`~uno_rules.sim.rounds.play_round`, with its actions and their events
    collected."""
    seen: list[tuple[str, Events]] = []

    def on_action(action: Action, events: Events) -> None:
        seen.append((str(action), events))

    record = play_round(rulebook, players, seed, max_actions, policy, max_steps, agents,
                        on_action)
    return Watched(record, tuple(seen))


def play_seed_watched(spec: RunSpec, seed: int) -> Watched:
    """One round of the run ``spec`` watched (:func:`play_watched`): what a worker plays per
    seed (a module-level function: the workers import it by name)."""
    return play_watched(spec.rulebook, spec.players, seed, spec.max_actions, spec.policy,
                        spec.max_steps, spec.agents)


def watch_rounds(rulebook: Rulebook, games: int, players: int, seed: int,
                 max_actions: int | None = None, policy: str = "play_first", *,
                 max_steps: int | None = None,
                 agents: Sequence[tuple[str, AgentClass]] | None = None,
                 workers: int = 1, client: Any = None) -> Generator[Watched, None, None]:
    """The rounds a :func:`~uno_rules.sim.simulate.simulate` run with these arguments plays
    (the same records), each with its actions, in round order; ``workers`` processes or
    ``client``'s Dask cluster play them as simulate's do."""
    spec = RunSpec(rulebook, players, seed, games, policy, agents, max_steps, max_actions)
    yield from each_played(spec, play_seed_watched, workers, client)


def actions_json(actions: Seen) -> list[dict[str, object]]:
    """Each action's notation and events, as ``simulate --actions`` writes them."""
    return [{"action": action, "events": events} for action, events in actions]


def actions_line(number: int, watched: Watched) -> str:
    """Round ``number`` (from 1) of a run as one JSON line (``simulate --actions``): its
    seed and each action's notation and events (tuples as arrays)."""
    return json.dumps({"round": number, "seed": watched.record.seed,
                       "actions": actions_json(watched.actions)}, separators=(",", ":"))
