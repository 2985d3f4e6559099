"""Simulating many rounds with uniformly random legal choices."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from .game import Game
from .model import Rulebook

MAX_ACTIONS = 20_000  # safety limit per game; a game that reaches it is reported as stalled


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

    def to_json(self) -> dict[str, Any]:
        turns = sorted(self.turn_counts) or [0]

        def pct(p: float) -> int:
            return turns[min(len(turns) - 1, int(p * len(turns)))]

        return {
            "rulebook": self.rulebook,
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "wins_by_seat": self.wins_by_seat,
            "turns": {"mean": round(sum(turns) / len(turns), 3), "p50": pct(0.5),
                      "p95": pct(0.95), "max": turns[-1]},
            "points": {"mean": round(sum(self.points) / max(1, len(self.points)), 3)},
            "stalled": self.stalled,
            "timing": {"seconds": round(self.seconds, 3),
                       "games_per_second": round(self.games / self.seconds, 1)
                       if self.seconds else None},
        }


def game_seeds(seed: int, games: int) -> list[int]:
    """The per-game seeds a run with master ``seed`` uses (deterministic)."""
    master = random.Random(seed)
    return [master.getrandbits(63) for _ in range(games)]


def random_moves(game: Game, rng: random.Random, max_actions: int = MAX_ACTIONS) -> None:
    """Apply up to ``max_actions`` uniformly random legal actions (catches included)."""
    for _ in range(max_actions):
        if game.over:
            return
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])


def play_random(rulebook: Rulebook, players: int, seed: int,
                max_actions: int = MAX_ACTIONS) -> Game:
    """Play one round with uniformly random legal actions; returns the game (over or stalled)."""
    game = rulebook.new_game(players, seed, log=False)
    random_moves(game, random.Random(seed ^ 0x5EED), max_actions)
    return game


def simulate(rulebook: Rulebook, games: int, players: int, seed: int,
             max_actions: int = MAX_ACTIONS) -> Stats:
    """Play ``games`` random rounds; the same arguments give the same statistics."""
    stats = Stats(rulebook.name, games, players, seed, [0] * players)
    start = time.perf_counter()
    for game_seed in game_seeds(seed, games):
        game = play_random(rulebook, players, game_seed, max_actions)
        stats.turn_counts.append(game.turns)
        if game.over and game.result is not None:
            for w in game.result.winners:
                stats.wins_by_seat[w] += 1
            stats.points.append(game.result.points)
        else:
            stats.stalled += 1
    stats.seconds = time.perf_counter() - start
    return stats
