"""The one game loop: a round driven to its end (or a budget of actions) by whoever
chooses — a policy function, agents, a scripted list of actions (scenarios, records) — with
chance nodes and the order of out-of-turn windows written once, and an ``on_action`` hook.

The hook is given each action taken (an :class:`Action`, a named tuple) and the events it
logged (the game's log tuples: ints, strings, tuples): plain data, holding no game, so a
worker process or a Dask worker can collect it and send it back with the round's record
(:func:`uno_rules.sim.watch.play_watched`), where a callable could not travel.

Who chooses is a function of the live game returning an action id of
``action_table(rulebook, players)`` (:data:`Choose`); a runaway effect raises
:class:`~uno_rules.engine.errors.RunawayEffect` out of the loop, for the caller to record
or report. The RL adapters are stepped by their callers: they take one action at a time
through :func:`take`, the loop's own step. Not through it: an agent's own search
(lookahead's rollouts step resampled copies, never the round played)."""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, TypeVar

from ..engine.actions import Action
from ..engine.game import Game
from ..engine.tables import action_table

Events = tuple[tuple[Any, ...], ...]  # an action's log events, as the game logs them
OnAction = Callable[[Action, Events], None]
Choose = Callable[[Game], int]  # who chooses: the id of the action to take now
Q = TypeVar("Q")  # a question asked (a table's prompt)
R = TypeVar("R")  # its reply
X = TypeVar("X")  # an action, as the asker gives it


def take(game: Game, action: int | Action, on_action: OnAction | None = None,
         seat: int | None = None) -> None:
    """Take one action (an id of the action table, or an :class:`Action`), as ``seat``
    when given (the engine then checks it is that seat's); ``on_action`` is then given it
    (as an Action) with the events it logged (none without a log)."""
    if on_action is None:
        if type(action) is int:
            game.step(action, seat)
        else:
            game.apply(action, seat)
        return
    log = game.log
    seen = len(log) if log is not None else 0
    if isinstance(action, Action):
        game.apply(action, seat)
    else:
        game.step(action, seat)
        action = action_table(game.rulebook, game.players)[action]
    on_action(action, tuple(log[seen:]) if log is not None else ())


def drive(game: Game, choose: Choose, budget: int | None = None,
          on_action: OnAction | None = None) -> Game:
    """Play ``game`` until it is over (an end, or a stall at its own budgets), or until
    ``budget`` more actions are taken, each chosen by ``choose``; returns the game."""
    # Unwatched, each action is the game's own step: the simulation's hot path, the same
    # loop with the hook's bookkeeping left out.
    act: Callable[[int], None] = game.step if on_action is None else \
        (lambda action: take(game, action, on_action))
    if budget is None:
        while not game.over:
            act(choose(game))
    else:
        for _ in range(budget):
            if game.over:
                break
            act(choose(game))
    return game


def drive_asking(game: Game, choose: Callable[[Game], Generator[Q, R, X]],
                 act: Callable[[Game, X], None]) -> Generator[Q, R, Game]:
    """:func:`drive`, for who chooses by asking (a human at a table): ``choose`` is a
    generator yielding its questions and returning the action, ``act`` takes it (as
    :func:`take` does, the table checking or recording it too); a generator itself,
    yielding the questions, returning the game once it is over."""
    while not game.over:
        act(game, (yield from choose(game)))
    return game


def script(game: Game, actions: Iterable[int | Action],
           on_action: OnAction | None = None) -> None:
    """Take ``actions`` in order (a scenario's step, a record's lines): each is taken
    whether or not the round is over, so an action after its end is refused as the
    engine refuses it. ``actions`` may be a generator reading the game as it goes."""
    for action in actions:
        take(game, action, on_action)


def is_chance(game: Game) -> bool:
    """Whether the decision now is a chance node: a contest settled at the table, which no
    seat decides."""
    pending = game.pending
    return pending is not None and pending.seat is None


def chance(game: Game, rng: random.Random) -> int:
    """A chance node drawn with ``rng`` where no seat is asked: every outcome equally
    likely (``decision.chance``), and an out-of-turn action open then (a catch) as likely
    as any one outcome: one draw over both. A table outcome with declared weights: an
    out-of-turn action open then as likely as the outcome as a whole, which is drawn by
    its weights."""
    ids = game.legal_ids()
    extra = game.out_of_turn_ids()
    weights = chance_weights(game)
    if weights:
        k = rng.randrange(len(extra) + 1) if extra else len(extra)
        return weighted(ids, weights, rng) if k == len(extra) else extra[k]
    k = rng.randrange(len(ids) + len(extra))
    return ids[k] if k < len(ids) else extra[k - len(ids)]


def chance_weights(game: Game) -> tuple[int, ...]:
    """The declared weights of the table outcome pending (empty: none, or a contest's equal
    chances)."""
    decision = game.decision
    return () if decision is None else decision.weights


def weighted(ids: tuple[int, ...], weights: tuple[int, ...], rng: random.Random) -> int:
    """One of ``ids`` drawn with ``rng``, each as likely as its whole-number weight."""
    k = rng.randrange(sum(weights))
    for i, w in zip(ids, weights, strict=True):
        if k < w:
            return i
        k -= w
    raise AssertionError("weights sum below the number drawn")


def settle(ids: tuple[int, ...], rng: random.Random,
           weights: tuple[int, ...] = ()) -> int:
    """A chance node drawn with ``rng`` after every seat let its out-of-turn window pass
    (where seats are asked first): one of the outcomes ``ids``, equally likely, or by
    ``weights`` (a table outcome's) when given."""
    if weights:
        return weighted(ids, weights, rng)
    return ids[rng.randrange(len(ids))]


def window_seats(decider: int | None, players: int) -> Iterator[int]:
    """The seats offered an out-of-turn window before ``decider`` decides (None: a chance
    node), in the order they are asked: from the one after the decider, round the table."""
    start = -1 if decider is None else decider
    for k in range(1, players + 1):
        s = (start + k) % players
        if s != decider:
            yield s
