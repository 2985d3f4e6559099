"""The event log in words: what :attr:`Game.events` shows of each logged tuple."""

from __future__ import annotations

from typing import Any

from .state import State

# Events worded from their seats alone: the template, formatted with the event tuple.
PLAIN = {"keep": "seat {0[1]} keeps the drawn card",
         "swap": "seat {0[1]} swaps hands with seat {0[2]}",
         "deal": "every hand is gathered, shuffled and dealt out again from seat {0[1]}",
         "rotate": "every hand passes on",
         "knock_out": "seat {0[1]} is knocked out",
         "jump_in": "seat {0[1]} jumps in",
         "out": "seat {0[1]} is out",
         "side": "seat {0[1]} plays it as {0[2]}",
         "catch": "seat {0[1]} catches seat {0[2]} without {1}",
         "target": "seat {0[1]} chooses seat {0[2]}",
         "loser": "seat {0[1]} loses the contest",
         "give": "seat {0[1]} gives a card to seat {0[2]}",
         "false_call": "seat {0[1]} calls {1} falsely",
         "reverse": "seat {0[1]} reverses the direction",
         "clear": "discard pile {0[1]} ({0[2]} cards) goes onto the {0[3]} pile",
         "turn_up": "{0[2]} is turned up on discard pile {0[1]}",
         "press": "seat {0[1]} presses discard pile {0[2]}",
         "overload": "discard pile {0[1]} overloads",
         "reset_pile": "discard pile {0[1]}'s count returns to 0"}


def describe_event(game: State, event: tuple[Any, ...]) -> str:
    """One log event in words."""
    rb = game.rulebook
    name = rb.faces.__getitem__
    kind = event[0]
    if kind in PLAIN:
        return PLAIN[kind].format(event, rb.settings.call_name)
    if kind == "play":
        on = f" on discard pile {event[3]}" if len(event) > 3 else ""
        return f"seat {event[1]} plays {name(event[2]).name}{on}"
    if kind == "draw":
        got, asked = len(event[3]), event[2]
        cards = "a card" if got == 1 else f"{got} cards"
        short = "" if got == asked else f" (of {asked}: the piles ran out)"
        return f"seat {event[1]} draws {cards}{short}"
    if kind == "first":
        return f"first card {name(event[1]).name}"
    if kind == "color":
        return f"seat {event[1]} chooses {rb.colors[event[2]]}"
    if kind == "challenge":
        return f"seat {event[1]} challenges seat {event[2]}: {'guilty' if event[3] else 'innocent'}"
    if kind == "win":
        return f"seat {event[1]} wins the round, {event[2]} points"
    if kind == "outcome":
        return f"the table's outcome: {event[1]}"
    if kind == "discard":
        return f"seat {event[1]} discards {', '.join(name(c).name for c in event[2])}"
    if kind == "uno":
        return _call(event[1], event[2], rb.settings.call_name)
    if kind == "turn_over":
        return f"every card is turned over: the {rb.sides[event[1]]} side is in play"
    if kind == "reshuffle":
        return f"the discard pile is shuffled into a new draw pile of {event[1]}"
    if kind == "return":
        return f"seat {event[1]} takes {name(event[2]).name} back"
    if kind == "state":
        values = dict((k, v) for k, v, _ in rb.player_state)[event[2]]
        return f"seat {event[1]}'s {event[2]} is {values[event[3]]}"
    return " ".join(str(x) for x in event)


def _call(seat: int, owner: int, name: str = "UNO") -> str:
    """An UNO call (``name``: the rulebook's name for it) in words: a seat's own, or for its
    partner."""
    return f"seat {seat} calls {name}" + ("" if seat == owner else f" for seat {owner}")
