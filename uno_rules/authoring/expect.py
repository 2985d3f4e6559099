"""A scenario's ``expect`` keys: one registry entry per key, holding its JSON schema and
how it reads the game (SCENARIOS.md, docs/scenarios.md).

The scenario schema's ``expect`` properties are :func:`expect_schema` (the runner validates
with it; ``schemas/scenario.schema.json`` is kept equal by a test), so a new key is one
entry here and its line in docs/scenarios.md.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.game import Game
from ..engine.notation import SIDES, normalize, parse_card, parse_whole_card
from ..engine.pilecounters import public
from ..engine.snapshot import player_state_json
from ..play.match import Standing

# A key's reading: (the wanted value as compared, the game's value), or None when the key
# is not checked in this game.
Reading = tuple[Any, Any] | None
Read = Callable[[Game, Any, "Standing | None"], Reading]

CARD: dict[str, Any] = {"$ref": "#/$defs/card"}
INTS: dict[str, Any] = {"type": "array", "items": {"type": "integer"}}
SEATS: dict[str, Any] = {"anyOf": [{"type": "integer"}, INTS, {"type": "null"}]}
NAME_OR_NULL: dict[str, Any] = {"type": ["string", "null"]}


@dataclass(frozen=True)
class Expect:
    """One ``expect`` key: its value's schema and how the game's value is read."""
    schema: dict[str, Any]
    read: Read


def _turn(game: Game, want: Any, standing: Standing | None) -> Reading:
    decision = game.decision
    got: Any = None if decision is None else decision.seat
    if decision is not None and got is None and game.pending is not None and \
            game.pending.ctx is not None:  # a contest: the seat that played the card
        got = game.pending.ctx.actor
    return want, got


def _hands(game: Game, want: Any, standing: Standing | None) -> Reading:
    want = [None if w is None else sorted(card_as(game, c) for c in w) for w in want]
    return want, [None if w is None or s >= game.players else hand_as(game, game.hands[s], w)
                  for s, w in enumerate(want)]


def _top(game: Game, want: Any, standing: Standing | None) -> Reading:
    if game.discard and SIDES in str(want):
        return card_as(game, want), game.rulebook.card_name(game.discard[-1])
    return normalize(want), game.top


def _tops(game: Game, want: Any, standing: Standing | None) -> Reading:
    rb = game.rulebook
    return ([None if w is None else card_as(game, w) for w in want],
            [rb.faces[game.faces[p[-1]].id].name if p else None for p in game._discard_piles()])


def _colors(game: Game, want: Any, standing: Standing | None) -> Reading:
    return ([None if w is None else str(w).lower() for w in want],
            [None if c < 0 else game.rulebook.colors[c] for c in game._discard_colors()])


def _winner(game: Game, want: Any, standing: Standing | None) -> Reading:
    winners = list(game.result.winners) if game.result else None
    return want, (winners if isinstance(want, list) or winners is None or len(winners) > 1
                  else winners[0])


def _points(game: Game, want: Any, standing: Standing | None) -> Reading:
    if standing is not None and game.rulebook.settings.scoring != "winner_takes":
        return None  # every seat adds its own leftover points: the round's aren't used
    return want, game.result.points if game.result else None


def _match(key: str) -> Read:
    """A match key, read from the match as it stands (a round of a match: a fresh one
    without a `match:` block)."""
    def read(game: Game, want: Any, standing: Standing | None) -> Reading:
        checked, got = (standing or Standing.fresh(game.players)).expected(
            game.rulebook, game, key, want)
        return (want, got) if checked else None
    return read


def _player_state(game: Game, want: Any, standing: Standing | None) -> Reading:
    got = player_state_json(game)
    want = {k: [None if w is None else str(w) for w in v] for k, v in want.items()}
    return want, {k: [None if w is None else g for w, g in zip(v, got.get(k, []),
                                                               strict=False)]
                  for k, v in want.items()}


def _plain(value: Callable[[Game], Any]) -> Read:
    """A key whose wanted value is compared as written."""
    return lambda game, want, standing: (want, value(game))


def _described(schema: dict[str, Any], text: str) -> dict[str, Any]:
    return {**schema, "description": text}


EXPECTS: dict[str, Expect] = {
    "turn": Expect({"type": ["integer", "null"]}, _turn),
    "decision": Expect(NAME_OR_NULL, _plain(
        lambda game: None if game.decision is None else game.decision.kind)),
    "hand_sizes": Expect(INTS, _plain(lambda game: [len(h) for h in game.hands])),
    "hands": Expect({"type": "array", "items": {"anyOf": [
        {"type": "null"}, {"type": "array", "items": CARD}]}}, _hands),
    "top": Expect(CARD, _top),
    "color": Expect(NAME_OR_NULL, lambda game, want, standing: (
        None if want is None else str(want).lower(), game.color_name)),
    "direction": Expect({"enum": ["clockwise", "counterclockwise"]},
                        _plain(lambda game: game.direction_name)),
    "draw_pile_size": Expect({"type": "integer"}, _plain(lambda game: len(game.draw_pile))),
    "over": Expect({"type": "boolean"}, _plain(lambda game: game.over)),
    "winner": Expect(SEATS, _winner),
    "points": Expect({"type": "integer"}, _points),
    "side": Expect({"type": "string", "description": "Cards with sides: the side in play."},
                   _plain(lambda game: game.rulebook.sides[game.side])),
    "tops": Expect({"type": "array", "items": {"anyOf": [CARD, {"type": "null"}]},
                    "description": "Several discard piles: the top card of each."}, _tops),
    "colors": Expect({"type": "array", "items": NAME_OR_NULL,
                      "description": "Several discard piles: the colour in force on each."},
                     _colors),
    "player_state": Expect({"type": "object", "additionalProperties": {
        "type": "array", "items": {"type": ["string", "integer", "null"]}},
        "description": "Per-player state: each key given, its value per seat (null: not "
                       "checked)."}, _player_state),
    "open_piles": Expect({"type": "array", "items": {"type": "integer"}, "description":
                          "Pile counters: the open discard piles, in order."},
                         _plain(lambda game: list(public(game)[0]))),
    "presses": Expect({"type": "array", "items": {"type": "integer"}, "description":
                       "Pile counters: each discard pile's press count."},
                      _plain(lambda game: list(public(game)[1]))),
    "scores": Expect(_described(INTS, "The match scores after the round, one per seat."),
                     _match("scores")),
    "match_over": Expect({"type": "boolean", "description": "Whether the match has ended."},
                         _match("match_over")),
    "match_winner": Expect(_described(SEATS, "The seat that won the match (a list of seats "
                                             "for a team or a tie)."), _match("match_winner")),
    "next_dealer": Expect({"type": "integer", "description": "Who deals the next round "
                           "(checked only while the match goes on)."}, _match("next_dealer")),
    "match_out": Expect(_described(INTS, "Every seat out of the match so far, in seat order."),
                        _match("match_out")),
}


def expect_schema() -> dict[str, Any]:
    """The schema's ``expect`` properties, one per registered key (fresh copies)."""
    return {key: copy.deepcopy(entry.schema) for key, entry in EXPECTS.items()}


def with_expect_keys(scenario_schema: Mapping[str, Any]) -> dict[str, Any]:
    """``scenario_schema`` with its ``expect`` properties taken from the registry."""
    out = copy.deepcopy(dict(scenario_schema))
    out["$defs"]["step"]["properties"]["expect"]["properties"] = expect_schema()
    return out


def mismatches(game: Game, expect: Mapping[str, Any],
               standing: Standing | None = None) -> dict[str, tuple[Any, Any]]:
    """Every key of ``expect`` that doesn't hold: key -> (wanted, got). A key not in the
    registry raises KeyError (the schema lets only registered keys through)."""
    actual: dict[str, tuple[Any, Any]] = {}
    for key, want in expect.items():
        reading = EXPECTS[key].read(game, want, standing)
        if reading is not None and reading[1] != reading[0]:
            actual[key] = reading
    return actual


def card_as(game: Game, text: str) -> str:
    """A card of an expectation in canonical notation: every side when written with every
    side, else its face on the side in play."""
    rb = game.rulebook
    if SIDES in str(text):
        return rb.card_name(parse_whole_card(rb, text))
    return rb.faces[parse_card(rb, text, game.side)].name


def hand_as(game: Game, cards: list[int], want: list[str]) -> list[str]:
    """A hand in the notation of its expectation ``want`` (canonical, sorted): each card
    matched by a card written with every side is shown with every side, the others by their
    face in play."""
    rb = game.rulebook
    left = list(cards)
    shown = []
    for whole in (w for w in want if SIDES in w):
        match = next((c for c in left if rb.card_name(c) == whole), None)
        if match is not None:
            left.remove(match)
            shown.append(whole)
    return sorted(shown + [game.faces[c].name for c in left])
