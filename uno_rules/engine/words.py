"""Plain English for the rules sheet, shared by the primitives' and conditions' phrases.

Each primitive (:data:`uno_rules.engine.effects.PRIMITIVES`) and ``if`` condition
(:data:`uno_rules.engine.conditions.CONDITIONS`) carries its own phrase built with these
helpers; :mod:`uno_rules.authoring.explain` puts the phrases into sentences.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# A program (an id of rulebook.programs, or None) in words: how a phrase says a nested step list.
Sub = Callable[[int | None], str]
# A step's phrase: its parameters (every one present, defaults filled in) -> words.
Say = Callable[[dict[str, Any], Sub], str]

NOTHING = "nothing happens"

# The seats a step may name, relative to the card's player (docs/primitives.md lists them).
SEATS = {
    "self": "the player who played the card",
    "next": "the next player in the direction of play that is in (after any reverse "
            "already done)",
    "prev": "the previous player in the direction of play that is in",
    "left": "the player to the player's left (clockwise, whatever the direction of play) "
            "that is in",
    "right": "the player to the player's right (counterclockwise, whatever the direction "
             "of play) that is in",
    "partner": "the player's partner (the next member of its team)",
    "next_partner": "the next player's partner, even if it is out",
    "dealer": "the dealer",
    "first": "the player to the dealer's left",
    "target": "the player chosen by the card's `choose_player` step (it must come earlier "
              "in the card's steps; if there was nobody to choose, a step naming `target` "
              "does nothing)",
    "challenger": "the player who answered the card's `challenge` step (in its `guilty` and "
                  "`innocent` branches)",
    "loser": "the loser of the card's `contest` step (which must come earlier)",
}
SEAT_SCHEMA = {"enum": sorted(SEATS), "description": "A seat, relative to the card's player: "
               + "; ".join(f"`{k}`: {v}" for k, v in SEATS.items())}

# Sets of seats a step acting per seat may name (besides any one seat of SEATS), relative to
# the card's player, in the order of play from it; a seat knocked out is never in one
# (docs/primitives.md lists them with SEATS). One table, one resolver (State._seat_set).
SEAT_SETS = {
    "all": "everyone still in the round: the player first, then every other in the order "
           "of play",
    "others": "every other player still in the round, in the order of play",
    "opponents": "every player still in the round not of the player's team, in the order of "
                 "play",
}
SEAT_SET_SCHEMA = {"enum": sorted(SEAT_SETS) + sorted(SEATS),
                   "description": "A set of seats: " + "; ".join(
                       f"`{k}`: {v}" for k, v in SEAT_SETS.items())
                   + "; or any one seat (`next`, `target`, ...)."}

WHO = {"self": "you", "next": "the next player", "prev": "the previous player",
       "left": "the player to your left", "right": "the player to your right",
       "all": "everyone", "others": "every other player",
       "opponents": "every player not of your team",
       "partner": "your partner", "next_partner": "the next player's partner",
       "dealer": "the dealer", "first": "the player to the dealer's left",
       "target": "the chosen player", "challenger": "the challenger", "loser": "the loser"}


def who(seat: str) -> str:
    """A seat in words (``next`` -> ``the next player``)."""
    return WHO.get(seat, seat)


def verb(seat: str, word: str) -> str:
    """``you draw`` / ``the next player draws``."""
    if seat == "self":
        return f"you {word}"
    ends = word.split(" ", 1)
    head = ends[0] + ("es" if ends[0].endswith(("sh", "ch", "s")) else "s")
    return " ".join([who(seat), head, *ends[1:]])


def cards(n: Any) -> str:
    """``1 card`` / ``2 cards``."""
    return f"{n} card" + ("" if n == 1 else "s")
