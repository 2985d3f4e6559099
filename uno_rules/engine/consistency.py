"""Whether a restored state (``snapshot.restore``) is one the engine can reach and go on
from: its cards the deck's, the seats out of play idle, every decision pending well formed,
the result of a round over the one its hands give. Each check returns the field at fault and
why, the first found."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .model import Rules
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
    if game.over:
        return _result_problem(game)
    return _live_problem(game)


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
    for key, seats in (("eliminated", game.eliminated), ("out_seats", game.out_seats)):
        for seat in seats:
            if hands[seat]:
                return key, f"seat {seat} holds cards"
    if game.turn_to is not None and not hands[game.turn_to]:
        return "turn_to", f"the next turn goes to seat {game.turn_to}, who holds no cards"
    if game.uno_open in game.eliminated:
        return "uno_open", f"seat {game.uno_open} may be caught without UNO, yet is knocked out"
    if set(game.owed) & set(game.eliminated) or len(set(game.owed)) != len(game.owed):
        return "owed", f"seats {game.owed} owe an UNO call: repeated, or knocked out"
    if not set(game.absent) <= set(game.eliminated):
        return "absent", "a seat out of the match, yet not knocked out of the round"
    if set(game.eliminated) & set(game.out_seats):
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
    for j, frame in enumerate(game.stack):
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
    if game.stack:
        return "stack", "effect steps still to run at the start of a turn"
    if game.turn_to is not None or game.skips:
        return "turn_to" if game.skips == [] else "skips", \
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


def _steps(rb: Rules, op: str) -> list[Any]:
    return [step.args for program in rb.programs for step in program if step.op == op]


def _ask_problem(game: State, ask: Any, at: str) -> Problem:
    """What is wrong with a decision pending (or waiting in a frame to be resumed)."""
    seat, ctx, kind = ask.seat, ask.ctx, ask.kind
    table = kind in ("contest", "outcome")  # a chance node: settled at the table
    if (seat is None) != table:
        return f"{at}.seat", (f"a {kind} has no seat: it is settled at the table"
                              if table else f"a {kind} decision with no seat")
    if seat in game.eliminated:
        return f"{at}.seat", f"seat {seat} is knocked out, yet decides"
    if kind == "turn":
        if ctx is not None:
            return f"{at}.ctx", "a turn is about no card"
        if not game.hands[seat]:
            return f"{at}.seat", f"seat {seat} holds no cards, yet has a turn"
        return None
    if ctx is None:
        return f"{at}.ctx", f"a {kind} decision about no card"
    if kind in ("give", "forced_play", "drawn") and not game.hands[seat]:
        return f"{at}.seat", f"seat {seat} holds no cards, yet must {kind.replace('_', ' ')}"
    check = _ASK_CHECKS.get(kind)
    return None if check is None else check(game, ask, at)


def _drawn_problem(game: State, ask: Any, at: str) -> Problem:
    ctx = ask.ctx
    if ask.seat != ctx.actor or ask.card != ctx.drawn or ask.card not in game.hands[ask.seat]:
        return f"{at}.data", "the drawn card offered is not the one its player drew and holds"
    return None


def _challenge_problem(game: State, ask: Any, at: str) -> Problem:
    if (ask.guilty, ask.innocent, ask.accepted) not in {
            (s["guilty"], s["innocent"], s["accepted"])
            for s in _steps(game.rulebook, "challenge")} or ask.seat != ask.ctx.challenger:
        return f"{at}.data", "a challenge whose outcomes are not those of a challenge step"
    return None


def _target_problem(game: State, ask: Any, at: str) -> Problem:
    if ask.seat in ask.seats or any(s in game.eliminated for s in ask.seats):
        return f"{at}.data", "a choice among seats that can't be chosen"
    return None


def _contest_problem(game: State, ask: Any, at: str) -> Problem:
    if ask.seats[0] != ask.ctx.actor:
        return f"{at}.data", "a contest not between the card's player and another"
    return None


def _forced_play_problem(game: State, ask: Any, at: str) -> Problem:
    if ask.player != ask.ctx.actor or ask.otherwise not in {
            s["else"] for s in _steps(game.rulebook, "partner_plays")}:
        return f"{at}.data", "a forced play no partner_plays step asks for"
    return None


def _give_problem(game: State, ask: Any, at: str) -> Problem:
    if not (game.giving and game.giving[-1].queue and game.giving[-1].queue[0][0] == ask.seat):
        return f"{at}.seat", f"seat {ask.seat} gives a card nobody asked it for"
    return None


def _outcome_problem(game: State, ask: Any, at: str) -> Problem:
    if (ask.values, ask.weights, ask.then) not in {
            (s["values"], s["weights"], s["then"]) for s in _steps(game.rulebook, "random")}:
        return f"{at}.data", "a table outcome no random step declares"
    return None


# What is checked of a decision's own data, by kind (the other kinds have none to check).
def _again_problem(game: State, ask: Any, at: str) -> Problem:
    played = game.played_piles
    if not game.rulebook.turn_plays or not played or -1 in played or \
            len(set(played)) != len(played) or ask.seat != ask.ctx.actor:
        return f"{at}.seat", "an again decision, yet no turn of several plays under way"
    return None


_ASK_CHECKS: dict[str, Callable[[State, Any, str], Problem]] = {
    "drawn": _drawn_problem, "challenge": _challenge_problem, "target": _target_problem,
    "contest": _contest_problem, "forced_play": _forced_play_problem, "give": _give_problem,
    "outcome": _outcome_problem, "again": _again_problem}


def _result_problem(game: State) -> Problem:
    """What is wrong with the result of a round that is over."""
    result, hands = game.result, game.hands
    if result is None:
        return "result", "a round over with no result"
    if game.pending is not None or game.stack or game.giving or game.uno_open != -1 or \
            game.owed:
        return "pending", "a decision or effect pending in a round that is over"
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
