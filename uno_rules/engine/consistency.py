"""Whether a restored state (``snapshot.restore``) is one the engine can reach and go on
from: its cards the deck's, the seats out of play idle, every decision pending well formed,
the result of a round over the one its hands give. Each check returns the field at fault and
why, the first found."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .decisions import FACTS, WORDS
from .model import Rules
from .outcome import Termination
from .records import Resume
from .state import State

Problem = tuple[str, str] | None  # the field at fault and why; None: no problem


def inconsistency(game: State, v: Mapping[str, Any]) -> Problem:
    """The field that makes a restored state one the engine can't reach or continue from,
    and why (None when it is consistent)."""
    for check in (_deck_problem, _seats_problem, _frames_problem):
        problem = check(game, v)
        if problem:
            return problem
    if v["stalled"] is not None:
        return _stall_problem(game, v["stalled"])
    if game.over:
        return _result_problem(game)
    return _live_problem(game)


def _stall_problem(game: State, stalled: Mapping[str, Any]) -> Problem:
    """What is wrong with a round stopped by its budget (as ``Game._stall`` leaves it)."""
    if not game.over or game.result is not None:
        return "stalled", "a round stopped by its budget is over, with no result"
    actions, limit = len(game.history), stalled["limit"]
    if stalled["budget"] == Termination.ACTIONS and actions < limit:
        return "stalled", f"stopped by its budget of {limit} actions after {actions}"
    return _idle_problem(game, giving=False)  # a give under way stays as it was


def _idle_problem(game: State, *, giving: bool = True) -> Problem:
    """A decision or effect still pending in a round that is over (``giving``: or a give)."""
    if game.pending is not None or game._stack or (giving and game.giving) or \
            game._uno_open != -1 or game._owed:
        return "pending", "a decision or effect pending in a round that is over"
    return None


def _deck_problem(game: State, v: Mapping[str, Any]) -> Problem:
    """The cards of the state are not the deck's."""
    rb = game.rulebook
    faces = sorted(f for card in game._all_cards() for f in rb.cards[card])
    if faces != sorted(rb.deck_faces()):
        return "hands", ("its cards are not the deck's: a card is missing, repeated or "
                         f"foreign ({_card_difference(rb, game._all_cards())})")
    return None


def _seats_problem(game: State, v: Mapping[str, Any]) -> Problem:
    """Seats out or knocked out that still play a part, and a stacked draw without stacking."""
    hands = game.hands
    for key, seats in (("eliminated", game.eliminated), ("out_seats", game._out_seats)):
        for seat in seats:
            if hands[seat]:
                return key, f"seat {seat} holds cards"
    if game._turn_to is not None and not hands[game._turn_to]:
        return "turn_to", f"the next turn goes to seat {game._turn_to}, who holds no cards"
    if game._uno_open in game.eliminated:
        return "uno_open", f"seat {game._uno_open} may be caught without UNO, yet is knocked out"
    if set(game._owed) & set(game.eliminated) or len(set(game._owed)) != len(game._owed):
        return "owed", f"seats {game._owed} owe an UNO call: repeated, or knocked out"
    if not set(game.absent) <= set(game.eliminated):
        return "absent", "a seat out of the match, yet not knocked out of the round"
    if set(game.eliminated) & set(game._out_seats):
        return "out_seats", "a seat both out and knocked out"
    if game.rulebook.stack_mixing is None and v["stack_draw"] != [0, 0, None, None]:
        return "stack_draw", f"a stacked draw {v['stack_draw']} in rules without stacking"
    return None


def _frames_problem(game: State, v: Mapping[str, Any]) -> Problem:
    """A give of a seat to itself, or a decision to resume that is wrong."""
    for i, giving in enumerate(game.giving):
        for j, (giver, to, _) in enumerate(giving.aside):
            if to == giver:
                return f"giving[{i}].aside[{j}]", f"seat {giver} gives to itself"
    for j, frame in enumerate(game._stack):
        if isinstance(frame, Resume):
            problem = _ask_problem(game, frame.ask, f"stack[{j}][2]")
            if problem:
                return problem
    return None


def _live_problem(game: State) -> Problem:
    """What is wrong with a round that goes on."""
    hands = game.hands
    if game.result is not None:
        return "result", "a result while the round goes on (over is false)"
    if game.pending is None:
        return "pending", "no decision while the round goes on (over is false)"
    in_play = {game.team_of(s) for s in range(game.players) if s not in game.eliminated}
    if len(in_play) < 2 or not any(hands):
        return "hands", "the round goes on with nobody left to play against"
    problem = _ask_problem(game, game.pending, "pending")
    if problem:
        return problem
    if game.pending.kind == "turn":
        problem = _turn_problem(game)
        if problem:
            return problem
    try:
        options = game.pending.options(game)
    except (LookupError, ValueError, TypeError, AttributeError, AssertionError):
        options = []
    if not options:
        return "pending", f"a {game.pending.kind} decision with no option"
    return None


def _turn_problem(game: State) -> Problem:
    """What is wrong with a turn pending: effects or a turn still to settle, a seat out."""
    if game._stack:
        return "stack", "effect steps still to run at the start of a turn"
    if game._turn_to is not None or game._skips:
        return "turn_to" if game._skips == [] else "skips", \
            "a turn pending, yet the turn after the last card is still to be settled"
    for seat in range(game.players):
        if seat not in game.eliminated and not game.hands[seat] and game._round_ends_with(seat):
            return "hands", f"seat {seat} has gone out, yet the round goes on"
    return None


def _card_difference(rb: Rules, cards: list[int]) -> str:
    from collections import Counter

    have, deck = Counter(cards), Counter(rb.deck)
    for card in sorted(set(have) | set(deck)):
        if have[card] != deck[card]:
            return f"{rb.card_name(card)!r} {have[card]} times, the deck has {deck[card]}"
    return "faces of another side"


def _ask_problem(game: State, ask: Any, at: str) -> Problem:
    """What is wrong with a decision pending (or waiting in a frame to be resumed), by the
    facts of its kind (decisions.FACTS)."""
    seat, ctx, kind = ask.seat, ask.ctx, ask.kind
    facts = FACTS[kind]
    if (seat is None) == facts.seated:
        return f"{at}.seat", (f"a {kind} decision with no seat" if facts.seated else
                              f"a {kind} has no seat: it is settled at the table")
    if seat in game.eliminated:
        return f"{at}.seat", f"seat {seat} is knocked out, yet decides"
    if (ctx is not None) != facts.about_card:
        return f"{at}.ctx", (f"a {kind} decision about no card" if facts.about_card else
                             f"a {kind} decision is about no card")
    if facts.holds_cards and not game.hands[seat]:
        return f"{at}.seat", f"seat {seat} holds no cards, yet is asked {WORDS[kind].waiting}"
    problem = None if facts.check is None else facts.check(game, ask)
    return None if problem is None else (f"{at}.{problem[0]}", problem[1])


def _result_problem(game: State) -> Problem:
    """What is wrong with the result of a round that is over."""
    result, hands = game.result, game.hands
    if result is None:
        return "result", "a round over with no result (nor stopped by its budget: stalled)"
    problem = _idle_problem(game)
    if problem:
        return problem
    winners = list(result.winners)
    if winners != game.teammates(winners[0]):
        return "result", f"winners {winners} are not a team of the rulebook"
    standing = {game.team_of(s) for s in range(game.players) if s not in game.eliminated}
    went_out = any(not hands[s] and game._round_ends_with(s) for s in winners)
    if not went_out and standing - {game.team_of(winners[0])}:
        return "result", f"winners {winners} neither went out nor are the last standing"
    points = sum(game.faces[c].points for s, h in enumerate(hands) if s not in winners
                 for c in h) + game.rulebook.settings.knockout_points * \
        sum(s not in winners and s not in game.absent for s in game.eliminated)
    if result.points != points:
        return "result", f"{result.points} points, where the hands left count {points}"
    return None
