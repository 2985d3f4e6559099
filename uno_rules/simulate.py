"""Simulating many rounds with random legal choices (see :data:`POLICIES`)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .engine.errors import IllegalAction, RunawayEffect
from .engine.game import GAME_ACTIONS, Game, check_arguments, refuse_argument
from .engine.rulebook import Rulebook
from .engine.tables import action_table

if TYPE_CHECKING:
    from .agents import AgentClass

MAX_ACTIONS = GAME_ACTIONS  # the historical name: a game that reaches it is stalled


@dataclass
class Stats:
    """Aggregated results of a simulation run."""

    rulebook: str
    games: int
    players: int
    seed: int
    wins_by_seat: list[int]
    turn_counts: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    stalled: int = 0
    seconds: float = 0.0
    policy: str | None = "play_first"  # None when agents played
    house: list[str] = field(default_factory=list)
    wins_by_team: list[int] | None = None
    # Why games stalled: "steps" / "actions" (the round's budget ran out), "runaway" (one
    # action ran over its own budget: RunawayEffect).
    stalled_reasons: dict[str, int] = field(default_factory=dict)
    requested: int | None = None  # the games asked for, when Ctrl-C stopped the run early
    agents: list[str] | None = None  # the agent of each seat, when agents played

    def count_stalled(self, reason: str) -> None:
        """One more game stalled, for ``reason``."""
        self.stalled += 1
        self.stalled_reasons[reason] = self.stalled_reasons.get(reason, 0) + 1

    def to_json(self) -> dict[str, Any]:
        turns = sorted(self.turn_counts) or [0]

        def pct(p: float) -> int:
            return turns[min(len(turns) - 1, int(p * len(turns)))]

        out: dict[str, Any] = {
            "rulebook": self.rulebook,
            "house": self.house,
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "policy": self.policy,
            # Only with agents, so that a run with a policy prints what it always has.
            **({"agents": self.agents} if self.agents is not None else {}),
            "wins_by_seat": self.wins_by_seat,
        }
        if self.wins_by_team is not None:
            out["wins_by_team"] = self.wins_by_team
        return out | {
            "turns": {"mean": round(sum(turns) / len(turns), 3), "p50": pct(0.5),
                      "p95": pct(0.95), "max": turns[-1]},
            "points": {"mean": _mean(self.points)},
            "stalled": self.stalled,
            # Only when there is something to say, so that a run without stalls or
            # interruption prints what it always has.
            **({"stalled_reasons": dict(sorted(self.stalled_reasons.items()))}
               if self.stalled_reasons else {}),
            **({"interrupted": True, "games_requested": self.requested}
               if self.requested is not None else {}),
            "timing": {"seconds": round(self.seconds, 3),
                       "games_per_second": round(self.games / self.seconds, 1)
                       if self.seconds else None},
        }


def _mean(values: list[int]) -> float | int:
    total, count = sum(values), max(1, len(values))
    try:
        return round(total / count, 3)
    except OverflowError:  # card points beyond a float: the integer part, exactly
        return total // count


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


# A policy returns an action id for :meth:`Game.step` (the integer lane), picking by index
# among the options in the order of the object API's, so the same index is the same action.
POLICIES: dict[str, Callable[[Game, random.Random], int]] = {
    "uniform": _uniform,        # every legal action equally likely (catches included)
    "play_first": _play_first,  # a random playable card when there is one, else uniform
}


def random_moves(game: Game, rng: random.Random, max_actions: int = MAX_ACTIONS,
                 policy: str = "play_first") -> None:
    """Apply up to ``max_actions`` random legal actions chosen by ``policy``."""
    choose = POLICIES.get(policy)
    if choose is None:  # was a bare KeyError
        raise ValueError(f"unknown policy {policy!r} (one of {', '.join(POLICIES)})")
    for _ in range(max_actions):
        if game.over:
            return
        game.step(choose(game, rng))


def _need_seed(seed: object) -> None:
    if seed is None:
        raise IllegalAction("seed=None: expected a whole number (the same seed, the same "
                            "games)")


def play_random(rulebook: Rulebook, players: int, seed: int, max_actions: int | None = None,
                policy: str = "play_first", *, max_steps: int | None = None) -> Game:
    """Play one round with random legal actions; returns the game, over (``result`` set) or
    stalled (``stalled`` names the budget that ran out: ``max_steps`` effect steps or
    ``max_actions`` actions, default the game's; a runaway effect raises RunawayEffect)."""
    _need_seed(seed)  # None would deal at random, and can't seed the moves
    game = rulebook.new_game(players, seed, log=False, max_steps=max_steps,
                             max_actions=max_actions)
    random_moves(game, random.Random(seed ^ 0x5EED), game.max_actions, policy)
    return game


def simulate(rulebook: Rulebook, games: int, players: int, seed: int,
             max_actions: int | None = None, policy: str = "play_first", *,
             max_steps: int | None = None,
             agents: Sequence[tuple[str, AgentClass]] | None = None) -> Stats:
    """Play ``games`` random rounds; the same arguments give the same statistics. Every
    round ends within its budget (``max_steps`` / ``max_actions``, see :func:`play_random`),
    or is counted stalled, with the reason. Ctrl-C (KeyboardInterrupt) ends the run early:
    the statistics are those of the rounds finished, ``requested`` set. With ``agents``
    (name and class per seat, :func:`uno_rules.agents.parse_agents`) they play instead of
    ``policy``: see :func:`uno_rules.agents.play_agents`."""
    if type(games) is not int or games < 1:
        raise refuse_argument("games", games, "a whole number >= 1")
    _need_seed(seed)
    check_arguments(rulebook, players, seed, max_steps=max_steps, max_actions=max_actions)
    stats = Stats(rulebook.name, games, players, seed, [0] * players, policy=policy,
                  house=list(rulebook.house))
    if agents is not None:
        from .agents import play_agents

        if len(agents) != players:
            raise ValueError(f"{len(agents)} agents for {players} players")
        stats.policy, stats.agents = None, [name for name, _ in agents]

    def play(game_seed: int) -> Game:
        if agents is None:
            return play_random(rulebook, players, game_seed, max_actions, policy,
                               max_steps=max_steps)
        return play_agents(rulebook, players, game_seed, agents, max_actions,
                           max_steps=max_steps)

    if rulebook.team_size > 1:
        stats.wins_by_team = [0] * (players // rulebook.team_size)
    start = time.perf_counter()
    played = 0
    try:
        for game_seed in game_seeds(seed, games):
            try:
                game = play(game_seed)
            except RunawayEffect:  # its turns are unknown: counted stalled only
                stats.count_stalled("runaway")
                played += 1
                continue
            stats.turn_counts.append(game.turns)
            if game.over and game.result is not None:
                for w in game.result.winners:
                    stats.wins_by_seat[w] += 1
                if stats.wins_by_team is not None:
                    stats.wins_by_team[game.team_of(game.result.winners[0])] += 1
                stats.points.append(game.result.points)
            else:
                stats.count_stalled(game.stalled or "actions")
            played += 1
    except KeyboardInterrupt:  # the round under way is dropped; the finished ones count
        stats.requested, stats.games = games, played
        del stats.turn_counts[played:]
    stats.seconds = time.perf_counter() - start
    return stats
