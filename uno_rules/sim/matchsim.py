"""Simulating whole matches (``simulate --match``): each match's rounds played by random
legal choices or agents and scored by :class:`uno_rules.play.match.Match`; statistics per match
with 95% intervals (docs/simulation.md, "Matches")."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ..engine.actions import Action
from ..engine.errors import RunawayEffect
from ..engine.game import Game
from ..engine.outcome import Termination
from ..engine.rulebook import Rulebook
from ..play.driver import Events, OnAction
from ..play.match import Match
from . import stats as st
from .places import each_played
from .rounds import RunSpec, play_on
from .simulate import STALLED, Counting
from .watch import Seen, actions_json

if TYPE_CHECKING:
    from ..play.agents import AgentClass

# Each match's budget of rounds: a match still undecided after this many is stalled
# ("rounds"). A classic match to 500 takes about 11 rounds at 4 players (docs/simulation.md),
# so this cuts only a match that can't end (a target far out of reach), within seconds.
MAX_ROUNDS = 1000


class MatchRecord(NamedTuple):
    """One match's record (a row of ``simulate --match --csv``). Seats are match seats;
    ``stalled`` names why the match has no winner (then ``lead_changes``/``led_from`` are
    None): a round's budget (``steps``, ``actions``, ``runaway``) or the match's
    (``rounds``)."""

    seed: int
    winners: tuple[int, ...]
    rounds: int            # rounds dealt (a stalled round included)
    scores: tuple[int, ...]  # the final (or last) score of each seat
    first: int             # the first player of the first round (left of the first dealer)
    lead_changes: int | None
    led_from: int | None   # the round from which the winner was among the leaders to the end
    stalled: Termination | None


def _round_seats(match: Match, game: Game) -> tuple[list[int], list[int]]:
    """The match seat of each of the current round's seats (seats keep their numbers for
    the whole match), and the match seats playing the round (those out of it are idle)."""
    return list(range(game.players)), match.seats


def play_match(rulebook: Rulebook, players: int, seed: int, max_actions: int | None,
               policy: str, max_steps: int | None,
               agents: Sequence[tuple[str, AgentClass]] | None,
               max_rounds: int = MAX_ROUNDS, *,
               on_round: Callable[[Match], None] | None = None,
               on_action: OnAction | None = None) -> MatchRecord:
    """Play one match dealt from ``seed`` (random moves by ``policy``, or ``agents`` per
    match seat playing every round) to its end, or until a round stalls or ``max_rounds``
    rounds are played; returns its record (a runaway effect is recorded, not raised).
    ``on_round(match)`` is called after each round is played, before it is scored
    (``simulate --record-dir`` keeps each round's actions); ``on_action``: see
    :mod:`uno_rules.play.driver` (every round's)."""
    match = Match(rulebook, players, seed, max_steps=max_steps, max_actions=max_actions)
    first = (match.dealer + 1) % players
    highest = rulebook.settings.scoring == "winner_takes"
    leaders: list[frozenset[int]] = []  # after each round: the seats ahead

    def stalled(reason: Termination, rounds: int) -> MatchRecord:
        return MatchRecord(seed, (), rounds, tuple(match.scores), first, None, None, reason)

    while True:
        game = match.game
        seats, playing = _round_seats(match, game)
        try:
            play_on(rulebook, game, policy, None if agents is None else
                    [agents[s] for s in seats], on_action)
        except RunawayEffect:
            return stalled(Termination.RUNAWAY, len(leaders) + 1)
        finally:
            if on_round is not None:
                on_round(match)
        if not game.over or game.result is None:
            return stalled(game.stalled or Termination.ACTIONS, len(leaders) + 1)
        match.next_round()
        scores = match.scores
        best = (max if highest else min)(scores[s] for s in playing)
        leaders.append(frozenset(s for s in playing if scores[s] == best))
        if match.over:
            break
        if len(leaders) >= max_rounds:
            return stalled(Termination.ROUNDS, len(leaders))
    won = frozenset(match.winners)
    led_from = len(leaders)
    while led_from > 1 and leaders[led_from - 2] & won:
        led_from -= 1
    changes = sum(a != b for a, b in zip(leaders, leaders[1:], strict=False))
    return MatchRecord(seed, tuple(match.winners), len(leaders), tuple(match.scores), first,
                       changes, led_from, None)


def play_match_seed(spec: RunSpec, seed: int) -> MatchRecord:
    """One match of the run ``spec``, dealt from ``seed`` (:func:`play_match`, each match's
    budget ``spec.max_rounds``): what a worker plays per seed."""
    return play_match(spec.rulebook, spec.players, seed, spec.max_actions, spec.policy,
                      spec.max_steps, spec.agents,
                      MAX_ROUNDS if spec.max_rounds is None else spec.max_rounds)


class WatchedMatch(NamedTuple):
    """One match's record and what each of its rounds did: the round's seed and its actions
    (as :class:`uno_rules.sim.watch.Watched` holds a round's)."""

    record: MatchRecord
    rounds: tuple[tuple[int | None, Seen], ...]


def play_match_seed_watched(spec: RunSpec, seed: int) -> WatchedMatch:
    """One match of the run ``spec`` (:func:`play_match_seed`), with each round's actions
    and their events collected where it is played (a worker sends them back as data)."""
    rounds: list[tuple[int | None, Seen]] = []
    seen: list[tuple[str, Events]] = []

    def on_action(action: Action, events: Events) -> None:
        seen.append((str(action), events))

    def on_round(match: Match) -> None:
        rounds.append((match.game.seed, tuple(seen)))
        seen.clear()
    record = play_match(spec.rulebook, spec.players, seed, spec.max_actions, spec.policy,
                        spec.max_steps, spec.agents,
                        MAX_ROUNDS if spec.max_rounds is None else spec.max_rounds,
                        on_round=on_round, on_action=on_action)
    return WatchedMatch(record, tuple(rounds))


def match_actions_line(number: int, watched: WatchedMatch) -> str:
    """Match ``number`` (from 1) as one JSON line (``simulate --match --actions``): its
    seed and each round's seed and actions (:func:`uno_rules.sim.watch.actions_line`)."""
    return json.dumps({"match": number, "seed": watched.record.seed,
                       "rounds": [{"seed": seed, "actions": actions_json(actions)}
                                  for seed, actions in watched.rounds]},
                      separators=(",", ":"))


@dataclass
class MatchStats:
    """The records of a ``simulate --match`` run and what it was asked."""

    rulebook: Rulebook
    games: int              # matches played
    players: int
    seed: int
    max_rounds: int
    policy: str | None = "play_first"  # None when agents played
    agents: list[str] | None = None
    records: list[MatchRecord] = field(default_factory=list)
    requested: int | None = None  # the matches asked for, when Ctrl-C stopped the run early
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The statistics (docs/simulation.md, "Matches": every key)."""
        rb, n = self.rulebook, self.players
        settings = rb.settings
        highest = settings.scoring == "winner_takes"
        partnered = rb.team_size > 1
        team_of = rb.new_game(n, self.seed).team_of  # the same in every round and match
        sides = n // rb.team_size if partnered else n
        side: Callable[[int], int] = team_of if partnered else (lambda s: s)
        wins_by_seat, wins_by_side = [0] * n, [0] * sides
        reasons: dict[str, int] = {}
        rounds, winner, runner_up, others, changes = [], [], [], [], []
        decisive: list[float] = []
        first_wins = tied = 0
        for r in self.records:
            if r.stalled is not None or r.lead_changes is None or r.led_from is None:
                why = r.stalled or Termination.ROUNDS
                reasons[why] = reasons.get(why, 0) + 1
                continue
            for w in r.winners:
                wins_by_seat[w] += 1
            won = {side(w) for w in r.winners}
            for t in won:
                wins_by_side[t] += 1
            tied += len(won) > 1
            first_wins += side(r.first) in won
            rounds.append(r.rounds)
            winner.append(r.scores[r.winners[0]])
            losers = [r.scores[s] for s in range(n) if s not in r.winners]
            if losers:
                runner_up.append(max(losers) if highest else min(losers))
                others.append(round(sum(losers) / len(losers)))
            changes.append(r.lead_changes)
            decisive.append(1 - (r.led_from - 1) / r.rounds)
        decided = len(rounds)
        seat_rates = [st.rate(w, decided) for w in wins_by_seat]
        side_rates = [st.rate(w, decided) for w in wins_by_side] if partnered else seat_rates
        out: dict[str, Any] = {
            "rulebook": rb.name, "house": list(rb.house),
            "match": {"scoring": settings.scoring, "target_score": settings.target_score,
                      "knock_out_worst": settings.knock_out_worst,
                      "next_dealer": settings.next_dealer, "max_rounds": self.max_rounds},
            "games": self.games, "players": n, "seed": self.seed, "policy": self.policy,
            **({"agents": self.agents} if self.agents is not None else {}),
            "wins_by_seat": wins_by_seat,
            **({"wins_by_team": wins_by_side} if partnered else {}),
            "stalled": sum(reasons.values()),
            **({"stalled_reasons": dict(sorted(reasons.items()))} if reasons else {}),
            **({"interrupted": True, "games_requested": self.requested}
               if self.requested is not None else {}),
            "decided": decided, "tied": tied,
            "win_rate_by_seat": seat_rates,
            **({"win_rate_by_team": side_rates} if partnered else {}),
            "first_player": st.first_player(first_wins, decided, sides),
            "rounds_per_match": st.summary(rounds, with_histogram=True),
            "final_scores": {"winner": st.summary(winner), "runner_up": st.summary(runner_up),
                             "others": st.summary(others)},
            "lead_changes": st.summary(changes),
        }
        rates = [s["rate"] for s in side_rates if s["rate"] is not None]
        out["metrics"] = {
            "balance": st.balance(rates),
            "duration": out["rounds_per_match"]["mean"],
            "decisiveness": round(sum(decisive) / len(decisive), 4) if decisive else None,
            "lead_changes": out["lead_changes"]["mean"],
        }
        played = sum(r.rounds for r in self.records)
        out["timing"] = {"seconds": round(self.seconds, 3),
                         "matches_per_second": round(self.games / self.seconds, 2)
                         if self.seconds else None,
                         "rounds_per_second": round(played / self.seconds, 1)
                         if self.seconds else None}
        return out


def simulate_matches(rulebook: Rulebook, games: int, players: int, seed: int,
                     max_actions: int | None = None, policy: str = "play_first", *,
                     max_steps: int | None = None,
                     agents: Sequence[tuple[str, AgentClass]] | None = None,
                     max_rounds: int = MAX_ROUNDS,
                     on_match: Callable[[MatchRecord], None] | None = None,
                     on_actions: Callable[[WatchedMatch], None] | None = None,
                     workers: int = 1, client: Any = None) -> MatchStats:
    """Play ``games`` matches, match *i* from the *i*-th seed :func:`game_seeds` derives
    from ``seed`` (as rounds are); the same arguments give the same statistics, with any
    number of ``workers``. ``max_steps`` / ``max_actions`` are each round's budget,
    ``max_rounds`` each match's; a match that runs out of one is stalled. Ctrl-C ends the
    run early: the statistics are those of the matches finished, ``requested`` set.
    ``on_match`` is given each match's record as it ends, in match order (``on_actions``
    its rounds' actions: :func:`simulate_matches_spec`). ``client``: a
    ``distributed.Client`` whose cluster plays instead (:mod:`uno_rules.sim.distributed`).
    The same as :func:`simulate_matches_spec` with the run named in a :class:`RunSpec`."""
    spec = RunSpec(rulebook, players, seed, games, policy, agents, max_steps,
                   max_actions, max_rounds)
    return simulate_matches_spec(spec, on_match=on_match, on_actions=on_actions,
                                 workers=workers, client=client)


def simulate_matches_spec(spec: RunSpec, *,
                          on_match: Callable[[MatchRecord], None] | None = None,
                          on_actions: Callable[[WatchedMatch], None] | None = None,
                          workers: int = 1, client: Any = None) -> MatchStats:
    """Play the matches of the run ``spec`` names (``spec.games`` of them, each within
    ``spec.max_rounds`` rounds, None: :data:`MAX_ROUNDS`); as :func:`simulate_matches`.
    ``on_actions`` is given each match watched (:class:`WatchedMatch`), in match order,
    before ``on_match``, collected where it is played (as
    :func:`uno_rules.sim.simulate.simulate_spec`'s); the statistics are the same with it."""
    rulebook, games, players, seed = spec.rulebook, spec.games, spec.players, spec.seed
    policy, agents = spec.policy, spec.agents
    max_rounds = MAX_ROUNDS if spec.max_rounds is None else spec.max_rounds
    workers = spec.check(workers, matches=True)
    stats = MatchStats(rulebook, games, players, seed, max_rounds, policy=policy)
    if agents is not None:
        stats.policy, stats.agents = None, [name for name, _ in agents]
    play: Callable[[RunSpec, int], Any] = play_match_seed if on_actions is None else \
        play_match_seed_watched
    matches = each_played(spec, play, workers, client)
    start = time.perf_counter()
    try:
        with closing(matches), Counting() as counting:  # the pool stopped however it ends
            for record in matches:
                with counting:  # a Ctrl-C here waits until the match is counted and handed on
                    if on_actions is not None:  # a WatchedMatch: its record, its actions
                        on_actions(record)
                        record = record.record
                    stats.records.append(record)
                    if on_match is not None:
                        on_match(record)
    except KeyboardInterrupt:  # the match under way is dropped; the finished ones count
        stats.requested, stats.games = games, len(stats.records)
    stats.seconds = time.perf_counter() - start
    return stats


CSV_COLUMNS = ("seed", "winners", "rounds", "scores", "first_player", "lead_changes",
               "led_from", "stalled")


def csv_row(r: MatchRecord) -> list[object]:
    """A match's record as a ``--csv`` row (winners and scores space-separated, scores in
    seat order; blank: not known)."""
    def cell(v: object) -> object:
        return "" if v is None else v
    return [r.seed, " ".join(map(str, r.winners)), r.rounds, " ".join(map(str, r.scores)),
            r.first, cell(r.lead_changes), cell(r.led_from), cell(r.stalled)]


MATCH_STALLED = STALLED | {Termination.ROUNDS: "used up the match's budget of rounds"}


def report(stats: dict[str, Any], games: int) -> list[str]:
    """The text report of :meth:`MatchStats.to_json`'s statistics, for people."""
    m = stats["match"]
    worst = " or with the round's worst hand" if m["knock_out_worst"] else ""
    how = {"winner_takes": "the round winner scores", "lowest_total": "lowest total wins",
           "elimination": f"out at the target{worst}, last one standing wins"}.get(
               m["scoring"], m["scoring"])
    lines = st.describe_head(stats, games, "matches", f" to {m['target_score']} ({how}; next "
                             f"dealer: {m['next_dealer']})", "match wins")
    tied = f", {stats['tied']} shared" if stats["tied"] else ""
    lines += st.describe_outcomes(stats, "stalled matches", MATCH_STALLED,
                                  f"{stats['decided']} decided matches{tied}",
                                  "first seat (left of the first dealer)", "match win rate")
    lines.append("  rounds per match: "
                 + st.describe_summary(stats["rounds_per_match"], "rounds"))
    s = stats["final_scores"]
    lines.append(f"  final score, winner: {st.describe_summary(s['winner'], 'points')}")
    lines.append(f"               runner-up: {st.describe_summary(s['runner_up'], 'points')}")
    lines.append("               others (mean per match): "
                 + st.describe_summary(s["others"], "points"))
    lines.append(f"  lead changes per match: {st.describe_summary(stats['lead_changes'])}")
    mt = stats["metrics"]
    lines.append("  balance {}, duration {} rounds, decisiveness {} (docs/simulation.md)"
                 .format(*("n/a" if mt[k] is None else mt[k]
                           for k in ("balance", "duration", "decisiveness"))))
    lines.append("  rounds per match:")
    lines += ["    " + line
              for line in st.describe_histogram(stats["rounds_per_match"]["histogram"])]
    t = stats["timing"]
    lines.append(f"  {t['matches_per_second']} matches/s, {t['rounds_per_second']} rounds/s")
    return lines
