"""A match: rounds of one rulebook until the target score, as the rulebook's settings say
(docs/matches.md)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.arguments import check_arguments
from ..engine.errors import IllegalAction, SnapshotError, show
from ..engine.game import Game
from ..engine.model import Rules
from ..engine.rulebook import Rulebook

FORMAT = 1  # the match snapshot's format
IDENTITY = ("rulebook", "digest", "source", "house", "set")  # as Game.snapshot writes them


@dataclass(frozen=True)
class Scored:
    """A match after one round is scored into it."""

    scores: list[int]
    out: list[int]            # every seat out of the match so far, in seat order
    winners: tuple[int, ...]  # the match's winners: empty while it goes on
    dealer: int               # who deals the next round


def score_round(rulebook: Rules, game: Game, scores: Sequence[int], out: Sequence[int],
                dealer: int) -> Scored:
    """Score the finished round ``game`` into a match standing at ``scores`` (one per seat)
    with the seats ``out`` out of it and ``dealer`` having dealt the round."""
    settings, result, n = rulebook.settings, game.result, game.players
    if result is None:
        raise IllegalAction(f"the current round stalled: {game.stalled_reason()}; it has "
                            "no score" if game.stalled else "the current round is not over")
    scores, out, target = list(scores), sorted(out), settings.target_score
    winners: tuple[int, ...] = ()
    if settings.scoring == "winner_takes":  # partners each show the team's score
        for s in result.winners:
            scores[s] += result.points
        if scores[result.winners[0]] >= target:
            winners = tuple(result.winners)
    else:  # every seat still in adds the points left in its own hand
        for s in range(n):
            if s not in out:
                scores[s] += sum(game.faces[c].points for c in game.hands[s])
        if settings.scoring == "lowest_total":
            if max(scores) >= target:
                winners = _lowest(scores, range(n))
        else:
            fell = [s for s in range(n) if s not in out and scores[s] >= target]
            if settings.knock_out_worst:
                fell = sorted(set(fell).union(worst_hands(game, out)))
            out = sorted(out + fell)
            standing = [s for s in range(n) if s not in out]
            if len(standing) <= 1:  # the last one standing
                winners = tuple(standing) or _lowest(scores, fell)
    return Scored(scores, out, winners, _next_dealer(rulebook, n, dealer,
                                                     result.winners[0], out))


def worst_hands(game: Game, out: Sequence[int]) -> list[int]:
    """The seats in the match (not ``out``) left holding the most points, not the round's
    winners (``knock_out_worst``: they are out of the match; a tie puts each out)."""
    held = {s: sum(game.faces[c].points for c in game.hands[s]) for s in range(game.players)
            if s not in out and game.result is not None and s not in game.result.winners}
    most = max(held.values(), default=None)
    return [s for s, points in held.items() if points == most]


def check_scoring(rulebook: Rules) -> None:
    """Refuse elimination scoring in a rulebook with partnerships (a seat out of a match would come
    back in: partners give to and draw for each other)."""
    if rulebook.settings.scoring == "elimination" and rulebook.team_size > 1:
        raise IllegalAction(f"{rulebook.name} plays in partnerships: elimination scoring is for "
                            "players on their own (winner_takes or lowest_total)")


def _lowest(scores: Sequence[int], seats: Any) -> tuple[int, ...]:
    seats = list(seats)
    low = min(scores[s] for s in seats)
    return tuple(s for s in seats if scores[s] == low)  # a tie: every tied seat wins


def _next_dealer(rulebook: Rules, players: int, dealer: int, winner: int,
                 out: Sequence[int]) -> int:
    """The round winner when the rulebook says so, else the next seat to the dealer's left
    still in the match."""
    if rulebook.settings.next_dealer == "winner" and winner not in out:
        return winner
    d = dealer
    for _ in range(players):
        d = (d + 1) % players
        if d not in out:
            break
    return d


class Match:
    """Rounds until the target score. One seeded RNG seeds every round's game.

    Scoring (``settings.scoring``): ``winner_takes`` (the round winner, or its team, scores
    the round's points; first to ``target_score``), ``lowest_total`` (every seat adds the
    points left in its own hand; when one reaches the target, the lowest total wins) and
    ``elimination`` (as lowest_total, but a seat reaching the target is out of the match;
    the last one standing wins). The next dealer (``settings.next_dealer``) is the seat to
    the dealer's left still in the match, or the round winner.

    Seats keep their numbers for the whole match: a seat out of the match (``out``) is in
    every later round with an empty hand, dealt nothing, never acting. A round that stalls
    (its budget ran out) has no score: the match stops there, ``over`` with no winners and
    ``stalled`` saying why, and :meth:`next_round` refuses to go on.
    """

    def __init__(self, rulebook: Rulebook, players: int, seed: int | None = None, *,
                 max_steps: int | None = None, max_actions: int | None = None):
        # Checked before they're used to set up the match. The budgets are each round's.
        check_arguments(rulebook, players, seed, max_steps=max_steps, max_actions=max_actions)
        check_scoring(rulebook)
        self.budgets = {"max_steps": max_steps, "max_actions": max_actions}
        self.rulebook = rulebook
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.scores = [0] * players
        self.out: list[int] = []            # seats out of the match, in seat order
        self.dealer = players - 1           # who dealt the current round
        self.rounds = 0
        self.winners: tuple[int, ...] = ()
        self.game = self._deal()

    @property
    def seats(self) -> list[int]:
        """The seats still in the match."""
        return [s for s in range(self.players) if s not in self.out]

    @property
    def stalled(self) -> str | None:
        """Why the current round stopped before its end (the match stops with it), or None."""
        return self.game.stalled_reason()

    @property
    def over(self) -> bool:
        """Won, or stopped by a stalled round (then with no winners)."""
        return bool(self.winners) or self.game.stalled is not None

    def _deal(self) -> Game:
        self.rounds += 1
        return self.rulebook.new_game(self.players, self.rng.getrandbits(63),
                                      dealer=self.dealer, out=self.out, **self.budgets)

    def next_round(self) -> Game | None:
        """Score the finished round; deal the next one, or return None if the match is won.
        Raises :class:`IllegalAction` for a round not over, or stalled."""
        if self.winners:
            raise IllegalAction("the match is over")
        scored = score_round(self.rulebook, self.game, self.scores, self.out, self.dealer)
        self.scores, self.out, self.winners = scored.scores, scored.out, scored.winners
        if self.winners:
            return None
        self.dealer = scored.dealer
        self.game = self._deal()
        return self.game

    # ---------------------------------------------------------------- snapshots
    def snapshot(self) -> dict[str, Any]:
        """The match as JSON-able data; :meth:`restore` plays on identically."""
        game = self.game.snapshot()
        version, internal, gauss = self.rng.getstate()
        return {"match": FORMAT, **{k: game[k] for k in IDENTITY if k in game},
                "players": self.players, "seed": self.seed, "scores": list(self.scores),
                "out": list(self.out), "dealer": self.dealer, "rounds": self.rounds,
                "winners": list(self.winners), "rng": [version, list(internal), gauss],
                "budgets": dict(self.budgets), "game": game}

    @classmethod
    def restore(cls, rulebook: Rulebook, data: Mapping[str, Any]) -> Match:
        """Rebuild a match from :meth:`snapshot` output. Raises :class:`SnapshotError`
        naming the field for a snapshot of other rules, or one with a wrong or inconsistent
        field."""
        return _restore(cls, rulebook, data)


def _bad(key: str, why: str) -> SnapshotError:
    return SnapshotError(f"match snapshot field {key!r}: {why}")


def _seat_list(data: Mapping[str, Any], key: str, players: int) -> list[int]:
    value = data[key]
    if not isinstance(value, list) or any(type(s) is not int or not 0 <= s < players
                                          for s in value):
        raise _bad(key, f"expected a list of seats 0-{players - 1}")
    if value != sorted(set(value)):
        raise _bad(key, "expected distinct seats in seat order")
    return value


def _restore(cls: type[Match], rulebook: Rulebook, data: Mapping[str, Any]) -> Match:
    game = _restored_round(rulebook, data)
    players = data["players"]
    if players != game.players or type(players) is not int:
        raise _bad("players", f"{players!r}, the round has {game.players}")
    seed = data["seed"]
    try:
        check_arguments(rulebook, players, seed)
    except IllegalAction as exc:
        raise _bad("seed", str(exc)) from None
    scores = data["scores"]
    if not isinstance(scores, list) or len(scores) != players or \
            any(type(s) is not int or s < 0 for s in scores):
        raise _bad("scores", f"expected {players} whole numbers >= 0")
    out, winners = _seat_list(data, "out", players), _seat_list(data, "winners", players)
    _check_seats(rulebook, game, data, out)
    budgets = _restored_budgets(rulebook, data, players, seed)
    if winners and (not game.over or game.result is None):
        raise _bad("winners", "a match won while its last round goes on")
    match = cls.__new__(cls)
    match.rulebook, match.players, match.seed = rulebook, players, seed
    match.scores, match.out, match.dealer = list(scores), list(out), data["dealer"]
    match.rounds, match.winners, match.game = data["rounds"], tuple(winners), game
    match.budgets = budgets
    match.rng = random.Random()
    try:
        version, internal, gauss = data["rng"]
        match.rng.setstate((version, tuple(internal), gauss))
    except (ValueError, TypeError, OverflowError) as exc:
        raise _bad("rng", f"not a random generator's state ({exc})") from None
    return match


_KEYS = ("match", "players", "seed", "scores", "out", "dealer", "rounds", "winners",
         "rng", "game", "budgets")


def _restored_round(rulebook: Rulebook, data: Mapping[str, Any]) -> Game:
    """The round of a match snapshot, once its keys, format and rules are checked."""
    if not isinstance(data, Mapping):
        raise SnapshotError(f"a match snapshot is a mapping, not {type(data).__name__}")
    keys = _KEYS
    missing = [k for k in keys if k not in data and k != "budgets"]  # budgets: optional
    if missing:
        raise _bad(missing[0], "missing")
    extra = [k for k in data if k not in keys and k not in IDENTITY]
    if extra:
        raise _bad(str(extra[0]), "unknown")
    if data["match"] != FORMAT:
        raise _bad("match", f"format {data['match']!r}, expected {FORMAT}")
    game_data = data["game"]
    if not isinstance(game_data, Mapping):
        raise _bad("game", "expected a round's snapshot (a mapping)")
    for key in IDENTITY:  # the match's rules are its round's: the game checks them
        if data.get(key) != game_data.get(key):
            raise _bad(key, f"{data.get(key)!r} differs from the round's {game_data.get(key)!r}")
    try:
        return rulebook.restore(game_data)
    except SnapshotError as exc:
        raise _bad("game", str(exc)) from None


def _check_seats(rulebook: Rulebook, game: Game, data: Mapping[str, Any],
                 out: list[int]) -> None:
    """The dealer and the seats out are the round's; the rounds played a count."""
    dealer, rounds = data["dealer"], data["rounds"]
    if type(dealer) is not int or dealer != game.dealer or dealer in out:
        raise _bad("dealer", f"{dealer!r}: expected the round's dealer, {game.dealer}, "
                   "a seat in the match")
    if out != game.absent or (out and rulebook.settings.scoring != "elimination"):
        raise _bad("out", f"{out}: not the round's seats out of the match, {game.absent}, "
                   f"or seats out under {rulebook.settings.scoring} scoring")
    if type(rounds) is not int or rounds < 1:
        raise _bad("rounds", f"{rounds!r}: expected a whole number >= 1")


def _restored_budgets(rulebook: Rulebook, data: Mapping[str, Any], players: int,
                      seed: Any) -> dict[str, Any]:
    """The match's budgets (each None or a number)."""
    budgets = data.get("budgets", {})
    if not isinstance(budgets, Mapping) or set(budgets) - {"max_steps", "max_actions"}:
        raise _bad("budgets", "expected max_steps and max_actions (each null or a number)")
    try:
        check_arguments(rulebook, players, seed, **budgets)
    except IllegalAction as exc:
        raise _bad("budgets", str(exc)) from None
    return {"max_steps": budgets.get("max_steps"), "max_actions": budgets.get("max_actions")}


@dataclass(frozen=True)
class Standing:
    """A match as it stands before a round (a scenario's ``match:`` block)."""

    scores: list[int]
    out: list[int]
    dealer: int

    @classmethod
    def fresh(cls, players: int) -> Standing:
        return cls([0] * players, [], players - 1)

    def problems(self, rulebook: Rules, players: int) -> list[tuple[tuple[Any, ...], str]]:
        """What makes this standing one no match of ``rulebook`` could be in before a round
        at ``players``: (the key path under ``match``, why)."""
        s = rulebook.settings
        found: list[tuple[tuple[Any, ...], str]] = []
        if len(self.scores) != players:
            found.append((("scores",), f"{len(self.scores)} scores for {players} players"))
        seen: set[int] = set()
        for i, seat in enumerate(self.out):
            if seat >= players:
                found.append((("out", i), f"no seat {show(seat)}: seats are 0-{players - 1}"))
            elif seat in seen:
                found.append((("out", i), f"seat {seat} is given twice"))
            seen.add(seat)
        if self.dealer >= players:
            found.append((("dealer",), f"no seat {show(self.dealer)}: seats are "
                                       f"0-{players - 1}"))
        elif self.dealer in self.out:
            found.append((("dealer",), f"seat {self.dealer} is out of the match: it deals no "
                                       "more"))
        if found:
            return found
        if s.scoring == "elimination" and rulebook.team_size > 1:
            return [((), f"{rulebook.name} plays in partnerships: elimination scoring is for "
                         "players on their own (winner_takes or lowest_total)")]
        if self.out and s.scoring != "elimination":
            return [(("out",), f"seats are out of a match only under elimination scoring "
                               f"(this rulebook scores {s.scoring})")]
        if players - len(self.out) < 2:
            return [(("out",), "the match is over: fewer than two players left in")]
        for seat, score in enumerate(self.scores):
            if s.scoring == "elimination" and (seat in self.out) != (score >= s.target_score) \
                    and not (s.knock_out_worst and seat in self.out):
                return [(("scores", seat), f"seat {seat} has {show(score)}: under elimination a "
                         f"seat is out of the match (`out`) "
                         f"{'when' if s.knock_out_worst else 'exactly when'} it has reached "
                         f"the target, {s.target_score}")]
            if s.scoring != "elimination" and score >= s.target_score:
                return [(("scores", seat), f"seat {seat} has {show(score)}, at or above the "
                         f"target {s.target_score}: the match is over already")]
        return []

    def expected(self, rulebook: Rules, game: Game, key: str, want: Any) -> tuple[bool, Any]:
        """A scenario's match key ``key`` (scores, match_over, match_winner, next_dealer,
        match_out) after ``game`` (this round): whether it is checked, and its value. Before
        the round ends, the match as it stands."""
        if game.over and game.result is None:
            raise IllegalAction(f"the round stalled ({game.stalled_reason()}): it has no "
                                f"score, so no `{key}`")
        scored = score_round(rulebook, game, self.scores, self.out, self.dealer) \
            if game.over else Scored(list(self.scores), list(self.out), (), -1)
        if key == "scores":
            return True, scored.scores
        if key == "match_over":
            return True, bool(scored.winners)
        if key == "match_out":
            return True, scored.out
        if key == "next_dealer":  # checked only while the match goes on
            return not scored.winners, scored.dealer if game.over else None
        winners = list(scored.winners)
        return True, (winners if isinstance(want, list) or len(winners) > 1 else
                      winners[0] if winners else None)
