"""Simulating many rounds with random legal choices (see :data:`POLICIES`)."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine.game import Game
from ..engine.outcome import Termination
from ..engine.rulebook import Rulebook
from . import stats as st
from .places import each_played

# The unit of work lives in .rounds (import it from there); these of its names are
# documented here too: random_moves and POLICIES at the old path uno_rules.simulate
# (docs/matches.md and bench/soak.py before the folders), RunSpec (docs/simulation.md).
from .rounds import POLICIES as POLICIES
from .rounds import Round, _has_challenges, play_seed, round_record
from .rounds import RunSpec as RunSpec
from .rounds import random_moves as random_moves
from .watch import Watched, play_seed_watched

if TYPE_CHECKING:
    from ..play.agents import AgentClass


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
    # Why games stalled, by Termination: STEPS / ACTIONS (the round's budget ran out),
    # RUNAWAY (one action ran over its own budget: RunawayEffect).
    stalled_reasons: dict[str, int] = field(default_factory=dict)
    requested: int | None = None  # the games asked for, when Ctrl-C stopped the run early
    # Per round played (runaways excepted, as turn_counts): actions taken, cards drawn.
    action_counts: list[int] = field(default_factory=list)
    drawn_counts: list[int] = field(default_factory=list)
    # Per decided round: the first player's side won; the best loser's cards (None: none).
    first_wins: int = 0
    runner_up: list[int | None] = field(default_factory=list)
    challenges: int | None = None  # None: the rulebook has no challenges
    challenges_won: int = 0
    agents: list[str] | None = None  # the agent of each seat, when agents played

    def count_stalled(self, reason: str) -> None:
        """One more game stalled, for ``reason``."""
        self.stalled += 1
        self.stalled_reasons[reason] = self.stalled_reasons.get(reason, 0) + 1

    def add(self, game: Game) -> Round:
        """Count one round played to its end or stalled; returns its record."""
        record = round_record(game)
        self.count(record, game.team_of)
        return record

    def count(self, r: Round, team_of: Callable[[int], int]) -> None:
        """Count one round from its record (``team_of``: the game's seat -> team); a
        record counts as the game it was made from (:func:`round_record`)."""
        if r.stalled is Termination.RUNAWAY:  # its turns are unknown: counted stalled only
            self.count_stalled(Termination.RUNAWAY)
            return
        assert r.turns is not None and r.actions is not None and r.drawn is not None
        self.turn_counts.append(r.turns)
        self.action_counts.append(r.actions)
        self.drawn_counts.append(r.drawn)
        if self.challenges is not None:
            self.challenges += r.challenges or 0
            self.challenges_won += r.challenges_won or 0
        if r.stalled is not None or r.points is None or r.first is None:
            self.count_stalled(r.stalled or Termination.ACTIONS)
            return
        winners = r.winners
        for w in winners:
            self.wins_by_seat[w] += 1
        if self.wins_by_team is not None:
            self.wins_by_team[team_of(winners[0])] += 1
            self.first_wins += team_of(r.first) == team_of(winners[0])
        else:
            self.first_wins += r.first in winners
        self.points.append(r.points)
        self.runner_up.append(r.runner_up)

    def confidence(self) -> dict[str, Any]:
        """The statistics with 95% intervals and the designer's metrics (docs/simulation.md)."""
        decided = len(self.points)
        seats = [st.rate(w, decided) for w in self.wins_by_seat]
        sides = seats
        out: dict[str, Any] = {"decided": decided, "win_rate_by_seat": seats}
        if self.wins_by_team is not None:
            sides = out["win_rate_by_team"] = [st.rate(w, decided) for w in self.wins_by_team]
        out["first_player"] = st.first_player(self.first_wins, decided, len(sides))
        out["length"] = {"turns": st.summary(self.turn_counts, with_histogram=True),
                         "actions": st.summary(self.action_counts, with_histogram=True)}
        out["points_per_round"] = st.summary(self.points)
        out["cards_drawn"] = st.summary(self.drawn_counts)
        if self.challenges is not None:
            out["challenges"] = st.rate(self.challenges_won, self.challenges) | {
                "per_round": round(self.challenges / len(self.turn_counts), 4)
                if self.turn_counts else None}
        rates = [s["rate"] for s in sides if s["rate"] is not None]
        out["metrics"] = {"balance": st.balance(rates),
                          "duration": out["length"]["turns"]["mean"],
                          "decisiveness": st.decisiveness(self.runner_up)}
        return out

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
            **self.confidence(),
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


class Counting:
    """Ctrl-C held off while a record is counted and handed on, so that an interrupted
    run's statistics and what it handed on (``--csv`` rows) are the same whole records: a
    Ctrl-C between a round's count and its row left the CSV one row short of the count (or
    between a round's wins and its count of rounds, one win too many). Entered once around
    the run, it installs a SIGINT handler that defers KeyboardInterrupt while ``with
    counting:`` is open; elsewhere it raises at once, as Python's own does. Off the main
    thread, or when the program has a handler of its own, it changes nothing."""

    def __init__(self) -> None:
        self.active = self.counting = self.pending = False
        self.before: Any = None

    def __enter__(self) -> Counting:
        if not self.active:  # the run's outer `with`
            self.active = True
            if threading.current_thread() is threading.main_thread() and \
                    signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                self.before = signal.signal(signal.SIGINT, self._interrupt)
            return self
        self.counting = True
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if self.counting:
            self.counting = False
            pending, self.pending = self.pending, False
            if pending and kind is None:  # an error on its way out says more than Ctrl-C
                raise KeyboardInterrupt
            return
        if self.before is not None:
            signal.signal(signal.SIGINT, self.before)
            self.before = None

    def _interrupt(self, signum: int, frame: Any) -> None:
        if self.counting:
            self.pending = True
            return
        raise KeyboardInterrupt


def simulate(rulebook: Rulebook, games: int, players: int, seed: int,
             max_actions: int | None = None, policy: str = "play_first", *,
             max_steps: int | None = None,
             agents: Sequence[tuple[str, AgentClass]] | None = None,
             on_round: Callable[[Round], None] | None = None,
             on_actions: Callable[[Watched], None] | None = None,
             workers: int = 1, client: Any = None) -> Stats:
    """Play ``games`` random rounds; the same arguments give the same statistics. Every
    round ends within its budget (``max_steps`` / ``max_actions``, see :func:`play_random`),
    or is counted stalled, with the reason. Ctrl-C (KeyboardInterrupt) ends the run early:
    the statistics are those of the rounds finished, ``requested`` set. With ``agents``
    (name and class per seat, :func:`uno_rules.play.agents.parse_agents`) they play instead of
    ``policy``: see :func:`uno_rules.play.agents.play_agents`. ``on_round`` is given each
    round's record as it ends (``simulate --csv`` writes them), in round order;
    ``on_actions`` each round's actions and their events (:func:`simulate_spec`).
    ``workers``: processes to play in (0: one per core; :mod:`uno_rules.sim.workers`); the
    statistics and records are the same as with 1, only faster. ``client``: a
    ``distributed.Client`` whose cluster plays instead (:mod:`uno_rules.sim.distributed`;
    ``workers`` is then unused), with the same statistics and records. The same as
    :func:`simulate_spec` with the run named in a :class:`RunSpec`."""
    spec = RunSpec(rulebook, players, seed, games, policy, agents, max_steps,
                   max_actions)
    return simulate_spec(spec, on_round=on_round, on_actions=on_actions, workers=workers,
                         client=client)


def simulate_spec(spec: RunSpec, *, on_round: Callable[[Round], None] | None = None,
                  on_actions: Callable[[Watched], None] | None = None,
                  workers: int = 1, client: Any = None) -> Stats:
    """Play the run ``spec`` names (its rounds: ``spec.games`` of them); as
    :func:`simulate`, whose arguments a :class:`RunSpec` holds (``max_rounds`` unused).
    ``on_actions`` is given each round watched (:class:`~uno_rules.sim.watch.Watched`: its
    record and each action's notation and events), in round order, before ``on_round``:
    collected where the round is played and sent back as data, the same with workers and
    on a cluster; the statistics are the same with it."""
    rulebook, games, players, seed = spec.rulebook, spec.games, spec.players, spec.seed
    policy, agents = spec.policy, spec.agents
    workers = spec.check(workers)
    stats = Stats(rulebook.name, games, players, seed, [0] * players, policy=policy,
                  house=list(rulebook.house))
    if agents is not None:
        stats.policy, stats.agents = None, [name for name, _ in agents]
    if rulebook.team_size > 1:
        stats.wins_by_team = [0] * (players // rulebook.team_size)
    if _has_challenges(rulebook):
        stats.challenges = 0
    team_of = rulebook.new_game(players, seed).team_of  # the same for every round
    play: Callable[[RunSpec, int], Any] = play_seed if on_actions is None else \
        play_seed_watched
    rounds = each_played(spec, play, workers, client)
    start = time.perf_counter()
    played = 0
    try:
        with closing(rounds), Counting() as counting:  # the pool stopped however it ends
            for record in rounds:
                with counting:  # a Ctrl-C here waits until the round is counted and handed on
                    if on_actions is not None:  # a Watched: its record, and its actions
                        on_actions(record)
                        record = record.record
                    stats.count(record, team_of)
                    played += 1
                    if on_round is not None:
                        on_round(record)
    except KeyboardInterrupt:  # the round under way is dropped; the finished ones count
        stats.requested, stats.games = games, played
        # A round interrupted inside Stats.count may have left a list one longer: trim.
        for per_round in (stats.turn_counts, stats.action_counts, stats.drawn_counts):
            del per_round[played - stats.stalled_reasons.get(Termination.RUNAWAY, 0):]
        del stats.runner_up[len(stats.points):]
    stats.seconds = time.perf_counter() - start
    return stats


CSV_COLUMNS = ("seed", "winners", "points", "turns", "actions", "cards_drawn", "challenges",
               "challenges_won", "first_player", "runner_up_cards", "stalled")


def csv_row(r: Round) -> list[object]:
    """A round's record as a ``--csv`` row (winners space-separated; blank: not known)."""
    def cell(v: object) -> object:
        return "" if v is None else v
    return [r.seed, " ".join(map(str, r.winners)), *map(cell, r[2:])]


STALLED: dict[str, str] = {Termination.STEPS: "used up the effect-step budget",
                          Termination.ACTIONS: "used up the action budget",
                          Termination.RUNAWAY: "ran away within one action"}


def report(stats: dict[str, Any], games: int) -> list[str]:
    """The text report of :meth:`Stats.to_json`'s statistics, for people."""
    t = stats["turns"]
    lines = st.describe_head(stats, games, "games")
    lines.append(f"  turns: mean {t['mean']}, p50 {t['p50']}, p95 {t['p95']}, max {t['max']}")
    lines += st.describe_outcomes(stats, "stalled", STALLED,
                                  f"{stats['decided']} decided rounds",
                                  "first player (left of the dealer)")
    length = stats["length"]
    lines.append(f"  round length: {st.describe_summary(length['turns'], 'turns')}")
    lines.append(f"                {st.describe_summary(length['actions'], 'actions')}")
    lines.append(f"  points per round: {st.describe_summary(stats['points_per_round'])}")
    lines.append(f"  cards drawn per round: {st.describe_summary(stats['cards_drawn'])}")
    c = stats.get("challenges")
    if c is not None:
        won = f", won {st.describe_rate(c)}" if c["of"] else ""
        lines.append(f"  challenges: {c['of']} made ({c['per_round']} per round){won}")
    m = stats["metrics"]
    lines.append("  balance {}, duration {} turns, decisiveness {} (docs/simulation.md)".format(
        *("n/a" if m[k] is None else m[k] for k in ("balance", "duration", "decisiveness"))))
    lines.append("  turns per round:")
    lines += ["    " + line for line in st.describe_histogram(length["turns"]["histogram"])]
    lines.append(f"  {stats['timing']['games_per_second']} games/s")
    return lines
