"""The end of a round, for every front end (docs/table.md, "The end of a round"): every
hand revealed card by card with its points, who won, and the scores as the match scores
them (:func:`uno_rules.play.match.score_round`, for one round too), so the terminal and the
page say the same. Built only once the round is over: hands are never shown before."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.game import Game
from ..play.match import Match, score_round
from .screen import BOLD, Style, card_text, wrap


@dataclass(frozen=True)
class RoundEnd:
    """A finished round: ``hands`` (per seat, each card's name and points, sorted),
    ``winners`` and ``points`` (the round's), ``scores`` (the match after it; one round:
    scored as a match's first round would be), ``match_winners`` (empty while a match goes
    on, and for one round) and ``one_round``."""

    game: Game
    round: int
    winners: tuple[int, ...]
    points: int
    hands: list[list[tuple[str, int]]]
    scores: list[int]
    match_winners: tuple[int, ...]
    one_round: bool

    def total(self, seat: int) -> int:
        """The points left in ``seat``'s hand."""
        return sum(p for _, p in self.hands[seat])


def round_end(match: Match, one_round: bool) -> RoundEnd:
    """The match's current round, just over and not yet scored into the match (raises
    IllegalAction for a round not over or stalled, as scoring does)."""
    game = match.game
    scored = score_round(match.rulebook, game, match.scores, match.out, match.dealer)
    assert game.result is not None  # score_round refuses a round without one
    faces = game.faces
    hands = [sorted((faces[c].name, faces[c].points) for c in game.hands[s])
             for s in range(game.players)]
    return RoundEnd(game, match.rounds, tuple(game.result.winners), game.result.points,
                    hands, scored.scores, () if one_round else scored.winners, one_round)


def seats_text(seats: tuple[int, ...]) -> str:
    return "seat " + ", ".join(map(str, seats)) if len(seats) == 1 else \
        "seats " + ", ".join(map(str, seats))


def headline(end: RoundEnd) -> str:
    """``round 2 over: seat 1 wins 60 points``."""
    verb = "wins" if len(end.winners) == 1 else "win"
    return f"round {end.round} over: {seats_text(end.winners)} {verb} {end.points} points"


def match_text(end: RoundEnd) -> str | None:
    """``seat 1 wins the match`` once it is won, else None."""
    if not end.match_winners:
        return None
    verb = "wins" if len(end.match_winners) == 1 else "win"
    return f"{seats_text(end.match_winners)} {verb} the match"


def summary_lines(end: RoundEnd, style: Style) -> list[str]:
    """The round's end in lines: the headline, each hand with its points (one round: the
    scores too; a match's come from :func:`~.screen.scores_lines` once it is scored)."""
    game = end.game
    lines = [style.paint(headline(end), BOLD)]
    for seat, hand in enumerate(end.hands):
        mark = " (winner)" if seat in end.winners else ""
        cards = [f"{card_text(game, name, style)} ({points})" for name, points in hand]
        head = f"  seat {seat}{mark}: {end.total(seat)} points"
        lines += wrap(cards, head + (": " if cards else " (no cards)"), " " * 6)
    if end.one_round:
        lines += wrap([f"seat {s}: {v}" for s, v in enumerate(end.scores)],
                      "scores (one round, as a match would count it): ", " " * 8, sep="   ")
    return lines
