"""A run's unit of work: one round dealt from its seed and played to its end by a random
policy (:data:`POLICIES`) or by agents, and its record (:class:`Round`); what a run plays,
named and checked once (:class:`RunSpec`, :meth:`RunSpec.check`, the count of worker
processes included: :func:`resolve_workers`). One process, the worker processes
(:mod:`.workers`) and a Dask cluster (:mod:`.distributed`) all play :func:`play_seed`;
:mod:`.simulate` counts what it returns."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple

from ..engine.arguments import check_arguments, refuse_argument
from ..engine.errors import IllegalAction, RunawayEffect
from ..engine.game import GAME_ACTIONS, Game
from ..engine.outcome import Termination
from ..engine.rulebook import Rulebook
from ..engine.tables import action_table
from ..play import driver
from ..play.driver import OnAction

if TYPE_CHECKING:
    from ..play.agents import AgentClass

MAX_ACTIONS = GAME_ACTIONS  # the historical name: a game that reaches it is stalled
PER_CORE = 4  # processes per core at most: more only share the same cores


class Round(NamedTuple):
    """One round's record (a row of ``simulate --csv``); ``stalled`` names the budget that
    ran out (then no winners, no points)."""

    seed: int | None
    winners: tuple[int, ...]
    points: int | None
    turns: int | None
    actions: int | None
    drawn: int | None
    challenges: int | None
    challenges_won: int | None
    first: int | None
    runner_up: int | None  # the fewest cards a losing seat held at the end
    stalled: Termination | None


def round_record(game: Game) -> Round:
    """The record of one round played to its end or stalled (what :meth:`Stats.count`
    counts: a worker process sends these back, not the game)."""
    turns, actions = game.turns, len(game.history)
    drawn = made = won = 0
    for event in game.log or ():
        if event[0] == "draw":
            drawn += len(event[3])
        elif event[0] == "challenge":
            made += 1
            won += event[3] is True  # the card was played illegally: challenger wins
    first = (game.dealer + 1) % game.players
    result = game.result
    if not game.over or result is None:
        return Round(game.seed, (), None, turns, actions, drawn, made, won, first, None,
                     game.stalled or Termination.ACTIONS)
    winners = result.winners
    side = {game.team_of(w) for w in winners}
    left = [len(game.hands[s]) for s in range(game.players)
            if game.team_of(s) not in side and s not in game.eliminated]
    best = min(left) if left else None
    return Round(game.seed, tuple(winners), result.points, turns, actions, drawn, made, won,
                 first, best, None)


def runaway_record(seed: int) -> Round:
    """The record of a round whose action ran away (RunawayEffect): only its seed known."""
    return Round(seed, (), None, None, None, None, None, None, None, None,
                 Termination.RUNAWAY)


def game_seeds(seed: int, games: int) -> Iterator[int]:
    """The per-game seeds a run with master ``seed`` uses (deterministic), one at a time."""
    master = random.Random(seed)
    for _ in range(games):
        yield master.getrandbits(63)


def _uniform(game: Game, rng: random.Random) -> int:
    ids = game.legal_ids() + tuple(game.out_of_turn_ids())  # the order of legal_actions()
    return ids[rng.randrange(len(ids))]


def _play_first(game: Game, rng: random.Random) -> int:
    table = action_table(game.rulebook, game.players)  # the rulebook's, made once
    plays = [i for i in game.legal_ids() if table[i].kind == "play"]
    return plays[rng.randrange(len(plays))] if plays else _uniform(game, rng)


_chance = driver.chance  # a contest: drawn with the moves' RNG (the historical name)


# A policy returns an action id for :meth:`Game.step` (the integer lane), picking by index
# among the options in the order of the object API's, so the same index is the same action.
POLICIES: dict[str, Callable[[Game, random.Random], int]] = {
    "uniform": _uniform,        # every legal action equally likely (catches included)
    "play_first": _play_first,  # a random playable card when there is one, else uniform
}


def random_moves(game: Game, rng: random.Random, max_actions: int = MAX_ACTIONS,
                 policy: str = "play_first", on_action: OnAction | None = None) -> None:
    """Apply up to ``max_actions`` random legal actions chosen by ``policy``; a chance node
    (a contest) is drawn with ``rng`` instead (:func:`_chance`). ``on_action``: see
    :mod:`uno_rules.play.driver`."""
    pick = POLICIES.get(policy)
    if pick is None:  # was a bare KeyError
        raise ValueError(f"unknown policy {policy!r} (one of {', '.join(POLICIES)})")
    driver.drive(game, policy_chooser(pick, rng), max_actions, on_action)


def policy_chooser(pick: Callable[[Game, random.Random], int],
                   rng: random.Random) -> Callable[[Game], int]:
    """Who chooses in a random round: the policy ``pick``, or at a chance node (a contest:
    no seat) the draw of :func:`uno_rules.play.driver.chance`, both with ``rng``."""
    is_chance, chance = driver.is_chance, driver.chance

    def choose(game: Game) -> int:
        return chance(game, rng) if is_chance(game) else pick(game, rng)
    return choose


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))  # honours taskset / container limits
    except (AttributeError, OSError):  # not on every platform
        return os.cpu_count() or 1


def resolve_workers(workers: object) -> int:
    """``workers`` as a count of processes: a whole number >= 1, or 0 for one per core."""
    if type(workers) is not int or workers < 0:
        raise ValueError(f"workers={workers!r}: expected a whole number >= 0 "
                         "(0: one per core)")
    limit = PER_CORE * cores()
    if workers > limit:  # each is a Python process: thousands would exhaust the machine
        raise ValueError(f"workers={workers}: at most {limit} ({PER_CORE} per core, "
                         f"{cores()} cores here)")
    return workers or cores()


def _need_seed(seed: object) -> None:
    if seed is None:
        raise IllegalAction("seed=None: expected a whole number (the same seed, the same "
                            "games)")


def play_random(rulebook: Rulebook, players: int, seed: int, max_actions: int | None = None,
                policy: str = "play_first", *, max_steps: int | None = None,
                log: bool = False, on_action: OnAction | None = None) -> Game:
    """Play one round with random legal actions; returns the game, over (``result`` set) or
    stalled (``stalled`` names the budget that ran out: ``max_steps`` effect steps or
    ``max_actions`` actions, default the game's; a runaway effect raises RunawayEffect).
    ``log``: keep the event log (``game.events``), for statistics of draws and challenges.
    ``on_action``: see :mod:`uno_rules.play.driver` (the events need ``log``)."""
    _need_seed(seed)  # None would deal at random, and can't seed the moves
    game = rulebook.new_game(players, seed, log=log, max_steps=max_steps,
                             max_actions=max_actions)
    play_on(rulebook, game, policy, None, on_action)
    return game


def play_on(rulebook: Rulebook, game: Game, policy: str,
            agents: Sequence[tuple[str, AgentClass]] | None,
            on_action: OnAction | None = None) -> None:
    """Play ``game``, a round dealt with a seed, to its end as a run plays its rounds:
    random moves by ``policy`` from an RNG seeded from the round's seed, or ``agents``
    (:func:`uno_rules.play.agents.play_agents_on`). A runaway effect raises RunawayEffect.
    ``on_action``: see :mod:`uno_rules.play.driver`."""
    from ..play.agents import play_agents_on, round_rng

    if agents is None:
        random_moves(game, round_rng(game.seed or 0), game.max_actions, policy, on_action)
    else:
        play_agents_on(rulebook, game, agents, on_action)


def _has_challenges(rulebook: Rulebook) -> bool:
    """Whether a card may be challenged: one that may be played illegally (``bluff``) and
    a ``challenge`` step or a stacked draw with a challenge penalty (the primitives that
    ask for one)."""
    rules = [r for side in (rulebook.side_rules or (rulebook.rules,)) for r in side]
    if not any(r is not None and r.bluff for r in rules):
        return False
    return any(step.op == "challenge" or (step.op == "stack_draw" and step.args.get(
        "challenge_penalty") is not None) for program in rulebook.programs for step in program)


def play_round(rulebook: Rulebook, players: int, seed: int, max_actions: int | None,
               policy: str, max_steps: int | None,
               agents: Sequence[tuple[str, AgentClass]] | None,
               on_action: OnAction | None = None) -> Round:
    """Play one round of a run (random moves by ``policy``, or ``agents``) and return its
    record; a runaway effect is recorded, not raised. ``on_action``: see
    :mod:`uno_rules.play.driver` (:func:`uno_rules.sim.watch.play_watched` collects it)."""
    try:
        if agents is None:
            # The log counts cards drawn and challenges (its cost is within the noise of
            # a run: docs/simulation.md).
            game = play_random(rulebook, players, seed, max_actions, policy,
                               max_steps=max_steps, log=True, on_action=on_action)
        else:
            from ..play.agents import play_agents

            game = play_agents(rulebook, players, seed, agents, max_actions,
                               max_steps=max_steps, on_action=on_action)
    except RunawayEffect:
        return runaway_record(seed)
    return round_record(game)


@dataclass(frozen=True)
class RunSpec:
    """What a run plays, named once (it was an unnamed 6-item tuple): the compiled rulebook
    (its house rules and settings applied: a worker reads no file), the players and who plays
    them (random moves by ``policy``, or ``agents``: a name and a class per seat), each
    round's budgets (``max_steps`` / ``max_actions``, None: the game's), each match's
    (``max_rounds``, None: :data:`uno_rules.sim.matchsim.MAX_ROUNDS`; matches only), the
    master ``seed`` and how many ``games``. Picklable: sent once to each worker process or
    Dask worker (an agent class by name: the workers import it). The command line parses
    into it; :func:`uno_rules.sim.simulate.simulate_spec` and its kin take it."""

    rulebook: Rulebook
    players: int
    seed: int
    games: int = 1
    policy: str = "play_first"
    agents: Sequence[tuple[str, AgentClass]] | None = None
    max_steps: int | None = None
    max_actions: int | None = None
    max_rounds: int | None = None

    def __post_init__(self) -> None:
        if self.agents is not None and not isinstance(self.agents, tuple):
            # a tuple (parse_agents gives a list): a frozen spec holds nothing mutable
            object.__setattr__(self, "agents", tuple(self.agents))

    def check(self, workers: object = 1, *, matches: bool = False,
              variants: Sequence[Rulebook] | None = None) -> int:
        """Refuse the run before any round is played, naming the first thing wrong, in
        this order: ``games``; with ``matches``, ``max_rounds``; the seed; each round's
        arguments (:func:`~uno_rules.engine.arguments.check_arguments`) for this rulebook, or
        for each of ``variants`` (a comparison's rulebooks, each also for ``players``);
        ``workers`` (:func:`resolve_workers`: returned as a count of processes); the
        policy; the number of agents. The one check of simulate, matches and compare."""
        if type(self.games) is not int or self.games < 1:
            raise refuse_argument("games", self.games, "a whole number >= 1")
        rounds = self.max_rounds
        if matches and rounds is not None and (type(rounds) is not int or rounds < 1):
            raise refuse_argument("max_rounds", rounds, "a whole number >= 1")
        _need_seed(self.seed)
        for rb in (self.rulebook,) if variants is None else variants:
            check_arguments(rb, self.players, self.seed, max_steps=self.max_steps,
                            max_actions=self.max_actions)
            if variants is not None and self.players not in rb.player_counts():
                raise IllegalAction(f"players={self.players}: {rb.name} is for "
                                    f"{rb.players_text()} players")
        count = resolve_workers(workers)
        if self.agents is None and self.policy not in POLICIES:  # here, not in each worker
            raise ValueError(f"unknown policy {self.policy!r} (one of {', '.join(POLICIES)})")
        if self.agents is not None and len(self.agents) != self.players:
            raise ValueError(f"{len(self.agents)} agents for {self.players} players")
        return count

    def seeds(self) -> Iterator[int]:
        """The per-game seeds of the run (:func:`game_seeds`)."""
        return game_seeds(self.seed, self.games)

    def on(self, rulebook: Rulebook) -> RunSpec:
        """The same run on another rulebook (a variant of ``compare``)."""
        return replace(self, rulebook=rulebook)


def play_seed(spec: RunSpec, seed: int) -> Round:
    """One round of the run ``spec``, dealt from ``seed`` (:func:`play_round`): what a worker
    plays per seed."""
    return play_round(spec.rulebook, spec.players, seed, spec.max_actions, spec.policy,
                      spec.max_steps, spec.agents)
