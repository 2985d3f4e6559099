"""The effect primitives: the one table every card behaviour is composed from.

Each primitive has a name, a description, its parameters (JSON Schema, used to build the
rulebook schema), a ``run`` function and its phrase (``say``: the step in plain English, for
the rules sheet). The schema, the docs, the loader and the sheet all read :data:`PRIMITIVES`:
a new primitive is one entry here. The ``if`` primitive's conditions are a table of their own
(:mod:`uno_rules.engine.conditions`).

Choices feed later steps: ``choose_color`` provides the colour, ``choose_player`` the
``target``, ``contest`` the ``loser``. When a card ends the round only the steps marked
``at_end`` run (draws, discards, contests), and a choice is asked only if such a later step
reads what it provides (RULES.md, going out).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .conditions import CONDITIONS, Condition, all_hold
from .decisions import (
    Challenge,
    Color,
    Contest,
    Drawn,
    ForcedPlay,
    Outcome,
    Target,
    run_put_out,
)
from .hands import (
    _deal_hands,
    _give_cards,
    _rotate_hands,
    _say_deal_hands,
    _say_give_cards,
    _swap_hands,
)
from .model import NO_COLOR, Step
from .pilecounters import (
    OPEN_SCHEMA,
    PILE_SCHEMA,
    run_open_piles,
    run_press,
    run_reset_pile,
    say_open_piles,
    say_press,
    say_reset_pile,
)
from .playerstate import KEY_SCHEMA, _set_state, _turn_state, say_set_state, say_turn_state
from .rows import (
    _clear_piles,
    _each_pile,
    _refill_piles,
    say_each_pile,
)
from .words import NOTHING, SEAT_SCHEMA, SEAT_SET_SCHEMA, Say, Sub, cards, verb, who
from .words import SEATS as SEATS  # its old place (docs and tests import it from here)

if TYPE_CHECKING:
    from .legal import Legality as Game
    from .records import Ctx

STEPS_REF = {"$ref": "#/$defs/steps"}
COUNT_SCHEMA = {"description": "How many cards (or a `$option` reference).",
                "anyOf": [{"type": "integer", "minimum": 0}, {"type": "string", "pattern": r"^\$"}]}
# Weights over values (a count of cards, say): `{0: 50, 1: 15}`, or a `$option` holding one.
WEIGHTS_SCHEMA = {"description": "Each value's weight: `{VALUE: WEIGHT, ...}` (whole numbers >= "
                                 "0, not all 0), or a `$option` holding such a mapping.",
                  "anyOf": [{"type": "object", "minProperties": 1,
                             "additionalProperties": {"type": "integer", "minimum": 0}},
                            {"type": "string", "pattern": r"^\$"}]}
# A count drawn at the table from declared weights: `{weights: {0: 50, 1: 15, 2: 12}}`.
DRAWN_COUNT_SCHEMA = {
    "description": "How many cards: a number, a `$option` reference, or `{weights: {COUNT: "
                   "WEIGHT, ...}}` (or `{weights: $option}`): a table outcome, each count as "
                   "likely as its weight (a count of weight 0 never comes; a single count "
                   "left asks nothing).",
    "anyOf": [*COUNT_SCHEMA["anyOf"],
              {"type": "object", "additionalProperties": False, "required": ["weights"],
               "properties": {"weights": WEIGHTS_SCHEMA}}]}
BRANCH_NAME = r"^[a-z][a-z0-9_]*$"
RANDOM_SCHEMA = {
    "type": "object", "minProperties": 1, "propertyNames": {"pattern": BRANCH_NAME},
    "description": "Branches by a name of your choice, each with its `weight` and its "
                   "steps: one is drawn at the table (a table outcome named by the branch).",
    "additionalProperties": {
        "type": "object", "additionalProperties": False, "required": ["weight"],
        "properties": {"weight": {"description": "How likely (a whole number >= 0; 0 never "
                                                 "comes) or a `$option` reference.",
                                  "anyOf": [{"type": "integer", "minimum": 0},
                                            {"type": "string", "pattern": r"^\$"}]},
                       "then": {**STEPS_REF}}}}
READ_BY_SEAT = {"target": "target", "loser": "loser", "challenger": "challenger"}


@dataclass(frozen=True)
class Primitive:
    """A documented building block of card effects."""

    name: str
    doc: str
    run: Callable[[Game, Ctx, Step], None]
    say: Say                      # the step in words (explain.py makes the sentences)
    params: dict[str, Any] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    bare: bool = False            # may be written as a bare string, without parameters
    at_end: bool = False          # still runs when the card ended the round
    reads: tuple[str, ...] = ()   # what it uses of earlier choices: color, target, loser
    provides: str | None = None   # what it decides for later steps
    programs: tuple[str, ...] = ()  # parameters that hold nested step lists
    main: str | None = None       # the parameter a bare value stands for (`turn_to: dealer`)
    defaults: dict[str, Any] = field(default_factory=dict)  # filled in when compiled
    # It settles its player's UNO itself (its player may end with any number of cards): a
    # card with such a step may be played calling UNO at any hand size (CardRule.uno_after).
    judges_uno: bool = False
    schema: dict[str, Any] | None = None  # its own parameters' schema (None: from params)


def step_reads(step: Step | Any, prim: Primitive) -> set[str]:
    """What a step reads: its primitive's fixed reads plus seats named in its parameters."""
    out = set(prim.reads)
    args = step.args if isinstance(step, Step) else step
    for value in args.values():
        if isinstance(value, str) and value in READ_BY_SEAT:
            out.add(READ_BY_SEAT[value])
    return out


def bound_step(op: str, args: Mapping[str, Any], at_end: bool, where: str) -> Step:
    """A compiled step made again with its primitive's run function (how a :class:`Step`
    unpickles: the pickle names the primitive, never the function)."""
    return Step(op, args, at_end, where, PRIMITIVES[op].run)


# ----------------------------------------------------------------------- run functions
def _drawer(game: Game, ctx: Ctx, step: Step) -> int:
    """The seat a draw step's ``who`` names, or -1 for nobody: a player never chosen, or the
    player of a card that ended the round (it has gone out: its own card makes it draw
    nothing, RULES.md §1 and §3)."""
    seat = game._seat(step.args["who"], ctx)
    # Its hand is empty: under `each` the actor is each seat in turn, and the others draw.
    return -1 if ctx.final and seat == ctx.actor and not game.hands[seat] else seat


def _draw(game: Game, ctx: Ctx, step: Step) -> None:
    seat = _drawer(game, ctx, step)
    if seat < 0:
        return  # a player never chosen: nobody draws
    got = game._draw_cards(seat, step.args["count"])
    if got:
        ctx.drawn = got[-1]


def _draw_until_color(game: Game, ctx: Ctx, step: Step) -> None:
    seat = _drawer(game, ctx, step)
    faces = game.faces
    while seat >= 0:
        got = game._draw_cards(seat, 1)
        if not got or faces[got[0]].color == game.color:
            return


def _discard_color(game: Game, ctx: Ctx, step: Step) -> None:
    seat = game._seat(step.args["who"], ctx)
    if seat >= 0:
        game._discard_color(seat)


def _skip(game: Game, ctx: Ctx, step: Step) -> None:
    # The skip names its seat now: the next player still to be skipped. If that player is
    # knocked out before the turn passes, the skip is void (it does not pass on).
    game._skips.append(game._advance(ctx.actor, len(game._skips) + 1))


def _reverse(game: Game, ctx: Ctx, step: Step) -> None:
    game.direction = -game.direction
    if game.log is not None:  # no event tuple made when nobody logs
        game.log.append(("reverse", ctx.actor))


def _turn_to(game: Game, ctx: Ctx, step: Step) -> None:
    seat = game._seat(step.args["who"], ctx)
    if seat >= 0:
        game._turn_to = seat


def _choose_color(game: Game, ctx: Ctx, step: Step) -> None:
    seat = game._seat(step.args["who"], ctx)
    if seat >= 0:
        game.pending = Color(seat, ctx)


def _choose_player(game: Game, ctx: Ctx, step: Step) -> None:
    seat = game._seat(step.args["who"], ctx)
    among = step.args["among"]
    team = game.team_of
    hands = game.hands
    # A seat that is out (no cards: gone out, knocked out, out of the match) is never chosen.
    seats = [s for s in range(game.players) if s != seat and hands[s]
             and s not in game.eliminated and (among != "opponents" or team(s) != team(seat))]
    if seats and seat >= 0:
        game.pending = Target(seat, ctx, tuple(seats))


def _contest(game: Game, ctx: Ctx, step: Step) -> None:
    other = game._seat(step.args["with"], ctx)
    if other >= 0:
        game.pending = Contest(None, ctx, (ctx.actor, other))  # no seat: a chance node


def _challenge(game: Game, ctx: Ctx, step: Step) -> None:
    guilty, innocent, accepted = step.args["guilty"], step.args["innocent"], step.args["accepted"]
    rule = game._card_rules[ctx.face] if ctx.face >= 0 else None
    if ctx.final or rule is None or not rule.bluff:
        # A card that ended the round, or that can't be played illegally, isn't challenged.
        game._push(accepted, ctx)
        return
    seat = game._seat(step.args["who"], ctx)
    if seat < 0:  # nobody to challenge it
        game._push(accepted, ctx)
        return
    ctx.challenger = seat
    game.pending = Challenge(seat, ctx, guilty, innocent, accepted)


def _return_card(game: Game, ctx: Ctx, step: Step) -> None:
    game._return_played_card(ctx)


def _if(game: Game, ctx: Ctx, step: Step) -> None:
    args = step.args  # those decided at load time were compiled away
    branch = args["then"] if all_hold(game, ctx, args) else args["else"]
    if branch is not None:
        game._push(branch, ctx)


def _random(game: Game, ctx: Ctx, step: Step) -> None:
    args = step.args
    game.pending = Outcome(None, ctx, args["values"], args["weights"], args["then"])


def _repeat(game: Game, ctx: Ctx, step: Step) -> None:
    args = step.args
    body, times = args["then"], args["times"]
    if times is not None:  # a fixed number of passes, pushed at once (run in order)
        for _ in range(times):
            game._push(body, ctx)
        return
    # Until `until` holds after a pass; never while nothing is left to draw (both piles
    # exhausted), before the first pass too.
    if not game._can_draw() or (not args["first"] and all_hold(game, ctx, args["until"])):
        return
    ctx.drawn = -1  # what this pass draws
    game._push(args["again"], ctx)  # this check again, after the pass
    game._push(body, ctx)


def _each(game: Game, ctx: Ctx, step: Step) -> None:
    seats = game._seat_set(step.args["seats"], ctx)
    for seat in reversed(seats):  # pushed last runs first: the order of play
        each = ctx.copy()
        each.actor = seat
        game._push(step.args["then"], each)


def _turn_over(game: Game, ctx: Ctx, step: Step) -> None:
    game._turn_over()
    if game.color == NO_COLOR and game.discard:  # a wild came on top: its colour is chosen
        game.pending = Color(ctx.actor, ctx)


def _turn_again(game: Game, ctx: Ctx, step: Step) -> None:
    put_back = step.args["put_back"]
    if (put_back and not game.draw_pile) or game._first_turns > len(game.rulebook.deck):
        return  # no other card can come up (or every one did): this one stays on top
    game._turn_first_card(put_back=put_back)


def _partner_plays(game: Game, ctx: Ctx, step: Step) -> None:
    partner = game._seat(step.args["who"], ctx)
    if partner < 0:  # a player never chosen: nobody must play
        if step.args["else"] is not None:
            game._push(step.args["else"], ctx)
        return
    cards = game._forced_cards(partner) if partner != ctx.actor else []
    if cards:
        game.pending = ForcedPlay(partner, ctx, ctx.actor, step.args["else"])
    else:
        game._turn_to = game._advance(partner, 1)
        if step.args["else"] is not None:
            game._push(step.args["else"], ctx)


def _offer_drawn(game: Game, ctx: Ctx, step: Step) -> None:
    card, seat = ctx.drawn, ctx.actor
    if card < 0 or card not in game.hands[seat] or \
            game.rulebook.settings.play_drawn == "never" or \
            not (game.offer_unplayable or game._can_play(seat, card)):
        return
    game.pending = Drawn(seat, ctx, card)


def _draw_until_playable(game: Game, ctx: Ctx, step: Step) -> None:
    seat = game._seat(step.args["who"], ctx)
    while seat >= 0:
        got = game._draw_cards(seat, 1)
        if not got:
            return
        ctx.drawn = got[0]
        if game._can_play(seat, got[0]):
            return


def _stack_draw(game: Game, ctx: Ctx, step: Step) -> None:
    game._stack_draw(ctx, step.args["count"], step.args["challenge_penalty"])


def _knock_out(game: Game, ctx: Ctx, step: Step) -> None:
    to, seat = step.args["to"], game._seat(step.args["who"], ctx)
    if seat >= 0:
        game._knock_out(seat, None if to is None else game.rulebook.piles.index(to))


# ----------------------------------------------------------------------- phrases
# Each step in plain English (a: its parameters, defaults filled in; sub: a nested step list in
# words). The sheet adds what depends on the rulebook's settings (uno_rules/authoring/explain.py).
def _say_draw(a: dict[str, Any], sub: Sub) -> str:
    return f"{verb(a['who'], 'draw')} {cards(a['count'])}"


def _say_draw_until_color(a: dict[str, Any], sub: Sub) -> str:
    return f"{verb(a['who'], 'draw')} until a card of the colour in force comes (wilds don't " \
        "count), keeping them all"


def _say_discard_color(a: dict[str, Any], sub: Sub) -> str:
    return f"{verb(a['who'], 'discard')} every card of the colour in force, under the top card"


def _say_choose_player(a: dict[str, Any], sub: Sub) -> str:
    return "you choose another player" + (" of the other team" if a["among"] == "opponents"
                                          else "")


def _say_challenge(a: dict[str, Any], sub: Sub) -> str:
    return f"{who(a['who'])} may challenge it: if it was played illegally, {sub(a['guilty'])}; " \
        f"if not, {sub(a['innocent'])}; unchallenged, {sub(a['accepted'])}"


def _say_if(a: dict[str, Any], sub: Sub) -> str:
    conds = [c.say(a[c.name]) for c in CONDITIONS.values()
             if c.say is not None and a.get(c.name) is not None]
    then = sub(a["then"])
    if not conds:  # an option decided at load time: just its branch
        return "" if then == NOTHING else then
    text = f"{' and '.join(conds)}: {then}"
    if a["else"] is not None:
        text += f"; otherwise {sub(a['else'])}"
    return text


def _weights_text(values: Any, weights: Any) -> str:
    total = sum(weights)
    return ", ".join(f"{v}: {w} in {total}" for v, w in zip(values, weights, strict=True))


def _say_random(a: dict[str, Any], sub: Sub) -> str:
    if a["count_of"] is not None:  # a count given as weights
        return f"{verb(a['count_of'], 'draw')} a number of cards decided at the table " \
            f"({_weights_text(a['values'], a['weights'])})"
    total = sum(a["weights"])
    return "at the table one of these comes, each as likely as its weight: " + "; ".join(
        f"{v} ({w} in {total}): {sub(p)}"
        for v, w, p in zip(a["values"], a["weights"], a["then"], strict=True))


def _say_repeat(a: dict[str, Any], sub: Sub) -> str:
    if a["times"] is not None:
        return f"{a['times']} times: {sub(a['then'])}"
    conds = " and ".join(c.say(a["until"][c.name]) for c in CONDITIONS.values()
                         if c.say is not None and a["until"].get(c.name) is not None)
    return f"again and again, {sub(a['then'])}, until after a pass {conds} (or nothing is " \
        "left to draw)"


def _say_each(a: dict[str, Any], sub: Sub) -> str:
    seats = a["seats"]
    return {"others": "each other player in turn", "all": "you, then each other player in turn",
            "opponents": "each player not of your team in turn"}.get(seats, who(seats)) \
        + ' (as "you"): ' + sub(a["then"])


def _say_turn_again(a: dict[str, Any], sub: Sub) -> str:
    return ("it goes back into the draw pile, which is shuffled, and " if a["put_back"]
            else "it is ignored and ") + "another card is turned over"


def _say_partner_plays(a: dict[str, Any], sub: Sub) -> str:
    return f"{who(a['who'])} must play a card of the chosen colour (not a wild), which has " \
        "its normal effect, and play goes on from there; if it can't, " \
        f"{sub(a['else'])} and play goes on after it"


def _say_stack_draw(a: dict[str, Any], sub: Sub) -> str:
    text = f"the next player must draw {cards(a['count'])} plus any total already pending, " \
        "unless it answers with a stacking draw card"
    if a["challenge_penalty"] is not None:
        text += "; it may instead challenge this card: if it was played illegally, you draw " \
            "the total and the challenger plays on; if not, the challenger draws the total " \
            f"and {a['challenge_penalty']} more"
    return text


def _say_knock_out(a: dict[str, Any], sub: Sub) -> str:
    text = verb(a["who"], "are").replace("ares", "is") + " knocked out of the round"
    if a["to"]:
        text += f", {'your' if a['who'] == 'self' else 'their'} cards set aside on the " \
            f"{a['to']} pile"
    return text


SEATS_OR_ALL = {"description": "A seat, a list of seats (each gives in turn), or `all` (every "
                               "player, in seat order from the dealer's left).",
                "anyOf": [SEAT_SCHEMA, {"const": "all"},
                          {"type": "array", "items": SEAT_SCHEMA, "minItems": 1}]}


def _if_primitive() -> Primitive:
    """The ``if`` primitive, its parameters and description made from :data:`CONDITIONS`."""
    return Primitive(
        "if", "Runs `then` when every condition given holds, else `else`. Conditions: "
        + ", ".join(f"`{c.name}` ({c.doc})" for c in CONDITIONS.values()) + ".", _if, _say_if,
        {**{c.name: c.schema for c in CONDITIONS.values()}, "then": STEPS_REF, "else": STEPS_REF},
        at_end=True, programs=("then", "else"))


def _repeat_primitive() -> Primitive:
    """The ``repeat`` primitive, its ``until`` conditions made from :data:`CONDITIONS`."""
    until = {"type": "object", "additionalProperties": False, "minProperties": 1,
             "description": "Conditions, as `if`'s (those decided in play), checked after "
                            "each pass.",
             "properties": {c.name: c.schema for c in CONDITIONS.values() if c.holds}}
    return Primitive(
        "repeat", "Runs `then` again and again: `times` times, or until the `until` "
        "conditions (those of `if`) all hold after a pass, stopping too when both piles are "
        "exhausted (nothing left to draw); give one of `times` and `until`. `repeat: {until: "
        "{drew: true}, then: [{draw: {who: next, count: 1}}]}`: the next player draws until "
        "a draw gives it a card. E.g. a card launcher hit until a hit gives a card, or a "
        "number of hits; a \"draw until you draw something\" house rule.",
        _repeat, _say_repeat,
        {"then": {**STEPS_REF, "description": "The steps of one pass."},
         "times": {**COUNT_SCHEMA, "description": "How many passes (or a `$option` "
                                                  "reference)."},
         "until": until}, ("then",), at_end=True, programs=("then",))


def register_condition(cond: Condition) -> None:
    """Add (or replace) an ``if`` condition: the ``if`` and ``repeat`` primitives are made
    again with it."""
    CONDITIONS[cond.name] = cond
    PRIMITIVES["if"] = _if_primitive()
    PRIMITIVES["repeat"] = _repeat_primitive()


PRIMITIVES: dict[str, Primitive] = {p.name: p for p in [
    Primitive("draw", "`who` draws `count` cards from the draw pile (reshuffling the discard "
              "pile, all but its top card, when it runs out; what can't be drawn is forgiven). "
              "The player of a card that ended the round draws nothing: it has gone out.",
              _draw, _say_draw, {"who": SEAT_SCHEMA, "count": DRAWN_COUNT_SCHEMA},
              ("who", "count"), at_end=True),
    Primitive("draw_until_color", "`who` draws one card at a time until it draws a card of the "
              "colour in force (wilds don't count) and keeps them all; it stops if both piles "
              "run out. As `draw`, never the player of a card that ended the round.",
              _draw_until_color, _say_draw_until_color, {"who": SEAT_SCHEMA}, ("who",), at_end=True,
              reads=("color",), main="who"),
    Primitive("discard_color", "`who` discards every card of the colour in force from its "
              "hand, under the top card (which stays on top).", _discard_color,
              _say_discard_color, {"who": SEAT_SCHEMA}, ("who",), at_end=True, reads=("color",),
              main="who"),
    Primitive("skip", "The next player loses its turn (several skips add up: the player "
              "after it, and so on). A skipped player knocked out before the turn passes "
              "makes its skip void.", _skip,
              lambda a, sub: "the next player loses its turn", bare=True),
    Primitive("reverse", "The direction of play reverses.", _reverse,
              lambda a, sub: "the direction of play reverses", bare=True),
    Primitive("turn_to", "The next turn goes to `who` instead of the next player.", _turn_to,
              lambda a, sub: f"the next turn goes to {who(a['who'])}", {"who": SEAT_SCHEMA},
              ("who",), main="who"),
    Primitive("choose_color", "`who` (default `self`) chooses the colour in force (any colour, "
              "the same one too).", _choose_color,
              lambda a, sub: f"{verb(a['who'], 'choose')} the colour", {"who": SEAT_SCHEMA},
              bare=True, main="who",
              provides="color",
              defaults={"who": "self"}),
    Primitive("choose_player", "`who` (default `self`) chooses another player, the card's "
              "`target`: among `others` (default) or `opponents` (not of its team); a player "
              "that is out (holds no cards, or is knocked out) is never chosen.",
              _choose_player, _say_choose_player, {"who": SEAT_SCHEMA, "among": {
                  "enum": ["others", "opponents"], "description": "Who may be chosen."}},
              bare=True, provides="target",
              defaults={"who": "self", "among": "others"}),
    Primitive("contest", "The card's player and `with` (default `target`) hold a contest "
              "decided at the table (asked as `loser S`; drawn at random in simulation); the "
              "loser is `loser` for later steps.", _contest,
              lambda a, sub: f"you and {who(a['with'])} hold a contest, decided at the table",
              {"with": SEAT_SCHEMA}, bare=True,
              at_end=True, provides="loser", main="with",
              defaults={"with": "target"}),
    Primitive("challenge", "`who` may challenge the card. Challenged: `guilty` runs if the card "
              "was not legally played (see the card's `legal_if`), else `innocent`; not "
              "challenged (or the card ended the round): `accepted`.", _challenge, _say_challenge,
              {"who": SEAT_SCHEMA, "guilty": STEPS_REF, "innocent": STEPS_REF,
               "accepted": STEPS_REF}, ("who", "guilty", "innocent", "accepted"), at_end=True,
              programs=("guilty", "innocent", "accepted")),
    Primitive("return_card", "The card goes back to its player's hand and the colour in force "
              "reverts to what it was before the card (if the card is no longer on top, "
              "nothing happens).", _return_card,
              lambda a, sub: "the card goes back to your hand and the colour reverts", bare=True),
    _if_primitive(),
    Primitive("each", "Runs `then` once for each seat of `seats`, in the order of play, "
              "with that seat as `self`: a set of seats (see Seats: `others`: every other "
              "player; `all`: the player first, then every other; `opponents`: every player "
              "not of its team), or one seat. Players knocked out are left out. "
              "`each: {seats: others, then: [{draw: {who: self, count: 1}}]}`: everyone else "
              "draws a card.", _each, _say_each,
              {"seats": {**SEAT_SET_SCHEMA, "description": "Whose turn it is to run `then`: "
                         + str(SEAT_SET_SCHEMA["description"])},
               "then": STEPS_REF}, ("seats", "then"), at_end=True, programs=("then",)),
    Primitive("deal_hands", "The hands of `seats` (default `all`: every hand, the player's "
              "own included) are gathered, shuffled and dealt out again among those seats one "
              "card at a time, clockwise from `from` (default `left`: the player's left, "
              "whatever the direction), until none is left: sizes differ by at most one, the "
              "first seats dealt get the extra cards; with `keep_counts: true` each seat gets "
              "back as many cards as it held. The card's player owes UNO only if the deal "
              "leaves it one card (it may call UNO with the card at any hand size); another "
              "seat left with one card owes nothing. A seat left with no card has gone out. "
              "Rulebooks: a wild that deals every hand anew, a "
              "'shuffle the table' house rule, a trade of hands for everyone.",
              _deal_hands, _say_deal_hands,
              {"seats": SEAT_SET_SCHEMA, "from": SEAT_SCHEMA,
               "keep_counts": {"description": "Each seat gets back as many cards as it held "
                                              "(or a `$option` reference).",
                               "anyOf": [{"type": "boolean"},
                                         {"type": "string", "pattern": r"^\$"}]}},
              bare=True, judges_uno=True,
              defaults={"seats": "all", "from": "left", "keep_counts": False}),
    Primitive("turn_over", "Every card is turned over (a rulebook with `sides`): the discard pile "
              "as a whole, so its bottom card's other side comes on top, then the draw pile "
              "(its order reverses), then every hand; play goes on with the next side. The "
              "new top card's action is not done; its colour is in force, and if it has none "
              "the player chooses one.", _turn_over,
              lambda a, sub: "every card is turned over (discard pile, draw pile, hands) and "
              "play goes on with the other side; a wild on top: you choose the colour",
              bare=True, provides="color"),
    Primitive("turn_again", "First card only: turn another card from the draw pile on top and "
              "apply its first-card rules; with `put_back: true` this card first goes back into "
              "the draw pile, which is shuffled. When no other card can come up (or every card "
              "of the deck has), the card stays on top.", _turn_again, _say_turn_again,
              {"put_back": {"type": "boolean", "description": "Put this card back and shuffle."}},
              bare=True, main="put_back",
              defaults={"put_back": False}),
    Primitive("give_cards", "Each giver in `from` chooses `count` cards (a number, or `half`: "
              "half its hand rounded down) and gives them to its partner, or to `to`: a seat "
              "or a set of seats seen from the giver (`self` is the giver; `target` the card's "
              "chosen player; `others`: `count` cards to each other player in turn), never "
              "itself. `together`: all choose before any card is received. `all_or_none`: "
              "nothing happens unless every giver holds a card. Rulebooks: partners' passes, a "
              "gift to a chosen player (`to: target`), a 'pass one card to everyone' house "
              "rule (`to: others`).",
              _give_cards, _say_give_cards,
              {"from": SEATS_OR_ALL, "to": SEAT_SET_SCHEMA,
               "count": {"description": "Cards each giver gives: a number or `half`.",
                         "anyOf": [{"type": "integer", "minimum": 1}, {"const": "half"}]},
               "together": {"type": "boolean", "description": "Chosen before any is received."},
               "all_or_none": {"type": "boolean", "description": "Only if all givers hold "
                                                                 "cards."}},
              ("from",),
              defaults={"count": 1, "together": False, "all_or_none": False}),
    Primitive("partner_plays", "The turn goes to `who` (default `partner`), which must play a "
              "card of the colour in force (a wild does not count); the card has its normal "
              "effect and play goes on from that seat. If it can't, `else` runs and the next "
              "turn is the seat after it.", _partner_plays, _say_partner_plays,
              {"who": SEAT_SCHEMA, "else": STEPS_REF}, bare=True, reads=("color",),
              programs=("else",),
              defaults={"who": "partner"}),
    Primitive("offer_drawn", "Turn rules: the card just drawn may be played at once if it is "
              "playable (see the `play_drawn` setting).", _offer_drawn,
              lambda a, sub: "if the drawn card can be played, it may be played at once",
              bare=True),
    Primitive("draw_until_playable", "`who` (default `self`) draws one card at a time until "
              "it draws a card it could play (or both piles run out).", _draw_until_playable,
              lambda a, sub: f"{verb(a['who'], 'draw')} until a playable card comes",
              {"who": SEAT_SCHEMA}, bare=True, main="who",
              defaults={"who": "self"}),
    Primitive("stack_draw", "Adds `count` to the pending draw and passes it on: the next "
              "player may answer with a stacking card (see `stacking`) or draw the whole total "
              "and lose its turn. With `challenge_penalty`, the card may be challenged by the "
              "player facing it: guilty, its player draws the total and the challenger plays "
              "on; innocent, the challenger draws the total plus the penalty and loses its "
              "turn. At the end of a round the next player draws the total at once.",
              _stack_draw, _say_stack_draw, {"count": COUNT_SCHEMA, "challenge_penalty": {
                  "type": "integer", "minimum": 0,
                  "description": "Extra cards for a failed challenge."}},
              ("count",), at_end=True, main="count"),
    Primitive("swap_hands", "The player swaps hands with `with` (default `target`).",
              _swap_hands, lambda a, sub: f"you swap hands with {who(a['with'])}",
              {"with": SEAT_SCHEMA}, bare=True, reads=("target",), main="with",
              defaults={"with": "target"}),
    Primitive("rotate_hands", "Every hand passes to the next player in the direction of play; "
              "a player that is out (holds no cards, or is knocked out) is passed over.",
              _rotate_hands,
              lambda a, sub: "every hand passes to the next player in the direction of play",
              bare=True),
    Primitive("knock_out", "`who` (default `self`) is knocked out of the round: its cards go "
              "onto the pile `to` (one the rulebook declares in `piles`), or else "
              "under the draw pile and it takes no more part; the last player standing wins.",
              _knock_out, _say_knock_out, {"who": SEAT_SCHEMA, "to": {
                  "type": "string", "description": "A pile declared in `piles`."}},
              bare=True, at_end=True, main="who",
              defaults={"who": "self"}),
    # Discard piles that open, close and are counted (uno_rules.engine.rows).
    Primitive("clear_piles", "Every discard pile holding more than `larger_than` cards "
              "(default 1) goes whole onto the pile `to` (one the rulebook declares in "
              "`piles`) and is closed: no card goes on it until one is turned up there "
              "(`refill_piles`). Rulebooks: a row of piles at the end of a turn, a house "
              "rule clearing tall piles of a several-pile game.", _clear_piles,
              lambda a, sub: f"every discard pile of more than {cards(a['larger_than'])} "
              f"goes onto the {a['to']} pile, and is closed",
              {"larger_than": {"type": "integer", "minimum": 0,
                               "description": "Piles of more cards go."},
               "to": {"type": "string", "description": "A pile declared in `piles`."}},
              ("to",), at_end=True, defaults={"larger_than": 1}),
    Primitive("refill_piles", "Cards are turned up from the draw pile (reshuffled as "
              "needed), one onto each closed discard pile in pile order, until `to` piles "
              "hold cards (or no pile is closed, or no card is left); the colour in force on "
              "each is its card's, and no first-card rule runs. Rulebooks: a row of piles "
              "refilled to two, a several-pile game whose piles are cleared.", _refill_piles,
              lambda a, sub: "cards are turned up from the draw pile onto closed discard "
              f"piles until {a['to']} are open", {"to": {"type": "integer", "minimum": 1,
                                        "description": "How many piles should hold cards."}},
              ("to",), at_end=True, main="to"),
    Primitive("each_pile", "Runs `then` once for each discard pile holding exactly `cards` "
              "cards (and with `same_color`, whose cards share a colour, a colourless card "
              "joining any), in pile order, with that pile as the card's pile (a step acting "
              "on the pile in force acts on it). Counted before any of them runs. Rulebooks: "
              "bonuses for a pile of two, or three, of one colour; a "
              "house rule rewarding tall piles.", _each_pile, say_each_pile,
              {"cards": {"type": "integer", "minimum": 1, "description": "The pile's size."},
               "same_color": {"type": "boolean", "description": "Its cards share a colour."},
               "then": STEPS_REF}, ("cards", "then"), at_end=True, programs=("then",),
              defaults={"same_color": False}),
    Primitive("put_out", "`who` (default `self`) puts a card of its choice from its hand "
              "face up on the first closed discard pile, opening it (a `put_out` decision; "
              "nothing when its hand is empty or no pile is closed). The card is not played: "
              "its effect does not run, but a call (UNO, or the rulebook's `call_name`) falls due "
              "as after a play. "
              "With `play: true` it may instead play onto a discard pile not yet played on "
              "this turn, the turn going on as after any play, while a card put out ends the "
              "turn (`turn: {draw: [draw, {put_out: {play: true}}]}`). E.g. a row of piles that "
              "grows (after a draw, match or put a card out; a bonus card per match of "
              "colour), a house rule \"if you can't play, start a new pile\".", run_put_out,
              lambda a, sub: f"{verb(a['who'], 'put')} a card from the hand on a closed "
              "discard pile" + (", or play one" if a["play"] else ""),
              {"who": SEAT_SCHEMA, "play": {"type": "boolean", "description":
                                            "A play onto a pile is offered too."}},
              bare=True, main="who", at_end=True, defaults={"who": "self", "play": False}),
    # Open piles and pile counters (uno_rules.engine.pilecounters). Used by UNO Triple Play
    # (its unit) and a "hot potato" house rule (tests/rulebooks/positive/hot_potato.yaml).
    Primitive("open_piles", "Open the discard piles `piles` and close the others: a card "
              "goes only on an open pile. `piles: any` is a table outcome: one of the "
              "non-empty sets of piles, each as likely (a scenario's `{outcome: [0, 2]}`). "
              "Without `pile_counters` it does nothing (every pile open). E.g. piles opened "
              "by chance each turn (`turn: {begin: [open_piles: any]}`), a hot-potato house "
              "rule.",
              run_open_piles, say_open_piles, {"piles": OPEN_SCHEMA}, ("piles",),
              at_end=True, main="piles"),
    Primitive("press", "Press the discard pile `pile` (default the card's own): its count "
              "goes up one; reaching its hidden limit it overloads (the count back to 0 with "
              "a new limit, and `pile_counters.overload` runs for the player). Each play is "
              "already one press; this is a press of its own (e.g. a press to end a turn; a "
              "hot-potato pile pressed by a penalty).", run_press, say_press,
              {"pile": PILE_SCHEMA}, bare=True, at_end=True, main="pile",
              defaults={"pile": "this"}),
    Primitive("reset_pile", "The discard pile `pile`'s count (default the card's own) "
              "returns to 0 with a new hidden limit (e.g. a wild that clears a pile; a "
              "hot-potato house rule's cooling card).", run_reset_pile, say_reset_pile,
              {"pile": PILE_SCHEMA}, bare=True, at_end=True, main="pile",
              defaults={"pile": "this"}),
    # Per-player state (uno_rules.engine.playerstate).
    Primitive("set_state", "`who` (default `self`) sets its per-player state `key` (declared "
              "in `player_state`) to the value `to`. E.g. a power each player holds, or a "
              "once-per-round joker house rule.", _set_state, say_set_state,
              {"who": SEAT_SCHEMA, "key": KEY_SCHEMA,
               "to": {"type": ["string", "integer"], "description": "One of the key's values."}},
              ("key", "to"), at_end=True, defaults={"who": "self"}),
    Primitive("turn_state", "`who` (default `self`) turns its per-player state `key` to the "
              "key's next value (or `by` values on, back if negative), in the declared order, "
              "round from the last to the first (a flag toggles, a counter counts round). E.g. "
              "a power turned over by a symbol or a wild, or tallies counted up, then down as "
              "each is paid.",
              _turn_state, say_turn_state,
              {"who": SEAT_SCHEMA, "key": KEY_SCHEMA,
               "by": {"type": "integer", "description": "Values to move on (default 1; "
                      "negative: back), round the declared order."}}, ("key",), at_end=True,
              defaults={"who": "self"}),
    # Used by: UNO Attack (its launcher: a count given as weights, `draw: {count: {weights:
    # ...}}`, compiled into a `random` step) and a jackpot-lever house rule (one of several
    # effects at random); docs/rules.md names them.
    Primitive("random", "A table outcome: one of the named branches is drawn at the table, "
              "each as likely as its `weight` (a weight of 0 never comes), and its `then` steps "
              "run. `random: {jackpot: {weight: 1, then: [...]}, nothing: {weight: 9}}`. "
              "Settled like a contest: a scenario gives `{outcome: NAME}`; simulation, agents' "
              "rounds and the tables draw it from the game's seeded RNG; a program running the "
              "game draws it by `decision.chance`. A single branch left (the others of weight "
              "0) runs without asking. A `draw` whose `count` is `{weights: ...}` is one of "
              "these over counts. E.g. a card launcher that fires a random number of cards, "
              "or a jackpot-lever house rule (`tests/rulebooks/positive/jackpot.yaml`).",
              _random, _say_random,
              {"BRANCH": {"description": "A branch (any name): `{weight: N, then: [steps]}`."}},
              at_end=True, schema=RANDOM_SCHEMA),
    # Used by: UNO Attack (hit until a hit gives a card; its UNO penalty, a number of hits
    # set by an option) and a "draw until you draw something" house rule.
    _repeat_primitive(),
]}
