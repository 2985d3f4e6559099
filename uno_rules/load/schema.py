"""The rulebook JSON Schema, built from the primitive table so that both always agree.

``schemas/rulebook.schema.json`` is this schema written out (a test keeps them equal);
``uno-rules schema`` prints it.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ..engine.conditions import CONDITIONS
from ..engine.effects import PRIMITIVES, WEIGHTS_SCHEMA
from ..engine.model import Settings
from ..engine.tables import MATCH_WAYS

SCHEMA_ID = "https://uno-rules.example/schemas/rulebook.schema.json"
# Caps the checks enforce (uno_rules/load/deckchecks.py), stated in the descriptions below: what a
# game's tables grow with. An edition has 4 colours, under 25 ranks and 110 different cards.
MAX_COLORS = 32        # colours of one side
MAX_RANKS = 200        # ranks of a rulebook
MAX_FACES = 1_000      # different cards (colour, rank and tags) of one side
MAX_PAIRINGS = 5_000   # with sides: the faces of one side times those of each other side
REF = {"type": "string", "pattern": r"^\$[A-Za-z_][A-Za-z0-9_]*$",
       "description": "A reference to an option of this rulebook: `$name`."}


def _or_ref(schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": schema.get("description", ""), "anyOf": [schema, REF]}


def _settings() -> dict[str, Any]:
    props: dict[str, dict[str, Any]] = {
        "hand_size": {"type": "integer", "minimum": 1, "maximum": 30,
                      "description": "Cards dealt to each player (default 7)."},
        "uno_penalty": {"type": "integer", "minimum": 0,
                        "description": "Cards drawn when caught not calling UNO (default 2)."},
        "draw_with_playable": {"type": "boolean", "description":
                               "A player may draw even while holding a playable card "
                               "(default true)."},
        "play_drawn": {"enum": ["may", "must", "never"], "description":
                       "Whether a playable card drawn on one's turn may, must or may not be "
                       "played at once (default may)."},
        "target_score": {"type": "integer", "minimum": 1,
                         "description": "Points that end a match (default 500)."},
        "scoring": {"enum": ["winner_takes", "lowest_total", "elimination"], "description":
                    "winner_takes: the round winner scores the others' cards, first to the "
                    "target wins; lowest_total: each player adds its own leftover points, and "
                    "when one reaches the target the lowest total wins; elimination: each "
                    "player adds its own leftover points, a player reaching the target is "
                    "out of the match, the last one standing wins (default winner_takes)."},
        "next_dealer": {"enum": ["left", "winner"], "description":
                        "Who deals the next round: the player to the dealer's left, or the "
                        "round winner (default left)."},
        "jump_in": {"type": "boolean", "description":
                    "A player holding the exact card on top (same colour and rank, not a "
                    "wild) may play it out of turn while a turn (or a drawn-card choice) is "
                    "pending (default false)."},
        "jump_in_wilds": {"type": "boolean", "description":
                          "With `jump_in`: an identical wild (same rank: a Wild on a Wild, "
                          "a Wild Draw Four on one) may jump in too, its player choosing a "
                          "colour as for any wild; otherwise wilds never jump in (default "
                          "false). House rule `jump_in`'s option; a jump-in edition's "
                          "rulebook may set it."},
        "knock_out_worst": {"type": "boolean", "description":
                            "With `scoring: elimination`: at the end of each round the "
                            "player (or the tied players) left holding the most points is "
                            "out of the match as well as any reaching the target; the last "
                            "one standing wins (default false). House rule "
                            "`knock_out_worst` ('last one standing'); a knock-out "
                            "tournament's rulebook."},
        "pending_draw_at_end": {"enum": ["none", "drawn"], "description":
                                "A last card that answers a pending stacked draw adding "
                                "nothing to it (`answers_draw`: house rules `deflect`, "
                                "`pass_on`): `none`, the round ends and nobody draws the "
                                "total (default none); `drawn`, the card's whole effect "
                                "runs (it still steers the total), then the player it "
                                "sends the total to draws it before the round is scored, "
                                "as a last Draw Two's draw counts."},
        "go_out_on": {"enum": ["any", "number"], "description":
                      "What a player may go out on: any card (default), or a number card only."},
        "knockout_points": {"type": "integer", "minimum": 0, "description":
                            "Round points the winner scores per player knocked out "
                            "(default 0)."},
        "uno_after_effects": {"type": "boolean", "description":
                              "UNO is due whenever a player's own card leaves it one card, "
                              "its effect included (a card that discards more or trades "
                              "hands): such a card "
                              "may be played calling UNO, and one that leaves one card "
                              "uncalled can be caught; otherwise only the next-to-last card "
                              "played counts (default false)."},
        "uno_after_others": {"type": "boolean", "description":
                             "UNO is due too from a player another player's card leaves "
                             "at one card (a hand swapped or passed on): it makes the call "
                             "itself, out of turn (`S uno S`), and until it does it can be "
                             "caught, as one that didn't call on its own card; otherwise "
                             "such a player owes nothing (default false). A wild that swaps "
                             "hands with a chosen player; a 7-0 house rule whose receivers "
                             "must call."},
        "call_after_draw": {"type": "boolean", "description":
                            "The call is due too from a player a draw leaves at `call_at` "
                            "cards (its own draw or one another's card makes it take): it "
                            "calls itself, as under `uno_after_others`, and until it does it "
                            "can be caught; otherwise a draw owes nothing (default false). "
                            "E.g. a hand of two owing its call however it got there; a house rule "
                            "'call UNO whenever you hold one card'."},
        "call_at": {"type": "integer", "minimum": 1, "maximum": 30, "description":
                    "The hand size the call is due at: UNO is called on the card that "
                    "leaves this many: 1, the next-to-last card, or e.g. 2 for a call on "
                    "the card before it (default 1). "
                    "`uno_after_effects`, `uno_after_others` and catches count the same "
                    "size."},
        "false_call_penalty": {"type": "integer", "minimum": 0, "description":
                               "Cards drawn for a false call: UNO called on a card that "
                               "leaves other than `call_at` cards (e.g. a house rule "
                               "punishing an early call). 0: no call "
                               "can be false, UNO is offered only where it is due (default "
                               "0)."},
        "call_name": {"type": "string", "pattern": "^[A-Za-z][A-Za-z !'-]{0,19}$",
                      "description": "The call's name, as events and the sheet say it "
                                     "(default UNO): e.g. the name of the game, or a "
                                     "house rule's own word."},
    }
    defaults = Settings()
    return {"type": "object", "additionalProperties": False,
            "description": "Plain rule settings; each can be overridden by name.",
            "properties": {k: {**_or_ref(v), "default": getattr(defaults, k)}
                           for k, v in props.items()}}


def _step() -> dict[str, Any]:
    props: dict[str, Any] = {}
    for p in PRIMITIVES.values():
        params = {"type": "object", "additionalProperties": False, "description": p.doc,
                  "properties": p.params} if p.schema is None else \
            {**p.schema, "description": p.doc}
        if p.required:
            params["required"] = list(p.required)
        branches = [params]
        if p.main:
            branches.append(p.params[p.main])
        if p.bare:
            branches.append({"type": "null"})
        props[p.name] = {"description": p.doc, "anyOf": branches} if len(branches) > 1 else params
    bare = sorted(p.name for p in PRIMITIVES.values() if p.bare)
    return {
        "description": "One primitive: a bare name (" + ", ".join(bare) + ") or a mapping "
                       "with one key, the primitive's name, holding its parameters.",
        "anyOf": [
            {"type": "string", "enum": bare},
            {"type": "object", "minProperties": 1, "maxProperties": 1,
             "additionalProperties": False, "properties": props},
        ],
    }


def _named(description: str, properties: dict[str, Any],
           required: list[str] | None = None) -> dict[str, Any]:
    """A mapping of entries by a name of the author's choice, each with these keys."""
    entry: dict[str, Any] = {"type": "object", "additionalProperties": False,
                             "properties": properties}
    if required:
        entry["required"] = required
    return {"type": "object", "description": description,
            "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"}, "additionalProperties": entry}


@lru_cache(maxsize=1)
def rulebook_schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of a rulebook file."""
    name = {"type": "string", "pattern": "^[a-z0-9][a-z0-9_ -]*$"}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "uno-rules rulebook",
        "description": "One edition or variant of UNO: its deck, what each card does, the "
                       "turn rules and the scoring. See README.md for a tour.",
        "type": "object",
        "additionalProperties": False,
        "required": ["name", "players", "deck"],
        "properties": {
            "name": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$",
                     "description": "Short identifier (lower case, digits, underscores)."},
            "title": {"type": "string", "description": "Human-readable title (not "
                      "inherited: a rulebook that extends another and gives none is titled "
                      "by its `name`)."},
            "description": {"type": "string", "description": "Notes: sources, assumptions "
                            "(not inherited: one that extends another and gives none is "
                            "\"A variant of BASE'S TITLE.\")."},
            "extends": {"type": "string", "description":
                        "A shipped rulebook's name or a path relative to this file, under its "
                        "folder. This file's keys are merged over it: mappings merge key by key, "
                        "anything else replaces, and `null` removes a key."},
            "house": {"type": "array", "items": {"type": "string"},
                      "description": "House-rule overlays this rulebook includes (names in "
                                     "rulebooks/house/, or paths under this file's folder)."},
            "conflicts": {"type": "array", "items": {"type": "string"}, "description":
                          "For an overlay: the overlays it can't be combined with."},
            "players": {"type": "object", "additionalProperties": False,
                        "description": "Allowed player counts.",
                        "properties": {
                            "min": {"type": "integer", "minimum": 2, "description": "Fewest."},
                            "max": {"type": "integer", "minimum": 2, "maximum": 20,
                                    "description": "Most."}}},
            "colors": {"type": "array",
                       "items": {"type": "string", "pattern": "^[a-z][a-z_]*$"},
                       "description": "The suit colours, in order, each once (cards with "
                                      "one side; with `sides`, each side gives its own); at "
                                      f"most {MAX_COLORS}. `[]`: a deck with no colours at "
                                      "all (every card a wild): no colour is ever chosen or "
                                      "in force."},
            "match": {"type": "array", "minItems": 1, "items": {"enum": list(MATCH_WAYS)},
                      "description": "How a card matches the top card, by any of these ways "
                                     "(default `[color, rank, wild]`): `color` (it has the "
                                     "colour in force), `rank` (the top card's number or "
                                     "symbol), `number` (a number card of the top card's "
                                     "number: symbols then match by colour only), `wild` "
                                     "(a card with no colour plays on anything), `any` "
                                     "(every card plays on every card), `on_uncolored` "
                                     "(every card plays on a top with no colour in force: "
                                     "e.g. wilds that name no colour). Legality "
                                     "conditions (`legal_if`, `go_out_on`) come on top. "
                                     "An edition of wilds only plays `[any]`; a numbers-only "
                                     "edition or a match-by-number house rule "
                                     "`[number, wild]`."},
            "combos": {"type": "array", "maxItems": 8, "description":
                       "Several cards in one play onto one pile (`play red 3 + blue 2`), "
                       "laid in order, the last on top (its effect is the play's; the others "
                       "are laid without theirs): each entry a kind of play allowed besides "
                       "single cards. Two numbers summing to the top's (`{sum: true}`), an "
                       "action card with one more of its colour on top (`{first: [skip], "
                       "same: color}`), a pairs house rule (`{same: rank}`).",
                       "items": {"type": "object", "additionalProperties": False,
                                 "properties": {
                                     "cards": {"type": "integer", "minimum": 2, "maximum": 3,
                                               "description": "How many cards (default 2)."},
                                     "sum": {"type": "boolean", "description":
                                             "Number cards whose numbers add up to the top "
                                             "card's number (then none need match it); "
                                             "else the first card must be playable on the "
                                             "pile (default false)."},
                                     "same": {"enum": ["rank", "color"], "description":
                                              "Every card has the first card's rank, or its "
                                              "colour."},
                                     "first": {"type": "array", "minItems": 1,
                                               "items": {"anyOf": [name, {"type": "integer",
                                                                          "minimum": 0}]},
                                               "description": "The ranks the first card may "
                                                              "have (default any)."}}}},
            "sides": {"type": "object", "minProperties": 2, "description":
                      "Cards with several sides (a light and a dark side, say): each side by a "
                      "name of your choice, with its colours. Play starts on the first side; "
                      "deck groups say which side they print (`side:`), and a `turn_over` step "
                      "turns every card over.",
                      "additionalProperties": {
                          "type": "object", "additionalProperties": False,
                          "required": ["colors"],
                          "properties": {"colors": {
                              "type": "array", "minItems": 1,
                              "items": {"type": "string", "pattern": "^[a-z][a-z_]*$"},
                              "description": "This side's suit colours, in order, "
                                             f"each once; at most {MAX_COLORS}. The faces "
                                             "of the sides pair in at most "
                                             f"{MAX_PAIRINGS:,} ways (the different cards "
                                             "of one side times those of each other)."}}}},
            "discard_piles": {"type": "integer", "minimum": 1, "maximum": 8, "description":
                              "How many discard piles (default 1). With more, a card turned "
                              "up starts each, each has its own colour in force, and a play "
                              "names the pile it goes on (`play red 5 on 1`)."},
            "open_piles": {"type": "integer", "minimum": 1, "maximum": 8, "description":
                           "How many of the discard piles a card is turned up on at the deal "
                           "(default: every one); the others start closed: no card goes on "
                           "a closed pile until one is turned up there (`refill_piles`). "
                           "E.g. a row of piles that starts with two cards and grows."},
            "reshuffle_discards": {"type": "boolean", "description":
                                   "Whether the cards under each discard pile's top card "
                                   "join the new draw pile when it runs out (default true). "
                                   "false: the discard piles are left alone and only the "
                                   "declared piles with `reshuffle: true` rebuild it (e.g. a "
                                   "row whose cleared piles go to a declared pile; "
                                   "a house rule where nothing is reshuffled and drawing "
                                   "stops when the draw pile is empty)."},
            "piles": {"type": "object", "description":
                      "Piles besides the draw pile and the discard pile, by a name of your "
                      "choice (a set-aside pile, say); primitives put cards there (`knock_out: "
                      "{to: NAME}`).",
                      "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
                      "additionalProperties": {
                          "type": "object", "additionalProperties": False,
                          "properties": {
                              "reshuffle": {"type": "boolean", "description":
                                            "Its cards join the discard pile's when the draw "
                                            "pile runs out and is rebuilt (default false)."},
                              "description": {"type": "string",
                                              "description": "What the pile is for."}}}},
            "pile_counters": {
                "type": "object", "additionalProperties": False, "required": ["limit"],
                "description": "Each discard pile's press count (public) and hidden limit: "
                               "each play on a pile is one press (a card's `presses: false` "
                               "none); the press reaching the limit overloads it (the count "
                               "back to 0 with a new limit, then `overload` runs for the "
                               "presser, before the card acts). `open_piles` steps open and "
                               "close piles (e.g. a unit of piles that overload; a hot-potato "
                               "house rule).",
                "properties": {
                    "limit": {"type": "object", "additionalProperties": False,
                              "required": ["weights"], "description":
                              "The hidden limit, drawn with the game's seeded RNG when a "
                              "pile starts and after each overload or `reset_pile`.",
                              "properties": {"weights": WEIGHTS_SCHEMA}},
                    "overload": {"$ref": "#/$defs/steps", "description":
                                 "Steps for the presser (`self`) when a press overloads its "
                                 "pile (the card's own `overload` instead, for its play)."},
                    "enabled": _or_ref({"type": "boolean", "description":
                                   "false: no counters (every pile always open, no press, "
                                   "no overload): an option's switch (default true)."})}},
            "player_state": _named(
                "State each player carries through the round (a Power Card, a joker, a "
                "counter), by a key of your choice: its values in order and the one everyone "
                "starts with. `set_state` and `turn_state` steps change it, the `if` "
                "conditions `state` and `every_state` read it; views, observations, snapshots "
                "and records show it.", {
                    "values": {"type": "array", "minItems": 2,
                               "items": {"type": ["string", "integer"]},
                               "description": "Its values, in order (a flag: two; a "
                                              "counter: 0, 1, 2, ...); each once."},
                    "start": {"type": ["string", "integer"], "description":
                              "Every player's value at the deal (default: the first)."},
                    "description": {"type": "string", "description": "What it stands for."}},
                required=["values"]),
            "alternatives": _named(
                "Another way to play some cards (a card's other side, a second effect), by a "
                "name of your choice; deck groups say which cards have it (`alternative:`). "
                "Playing one, the player chooses `normal` or the alternative (a `side` "
                "decision), when the alternative's `if` holds; played so, the card does the "
                "alternative's `effect`, then its own `alternatives` entry (else its "
                "`effect`).", {
                    "if": {"$ref": "#/$defs/conditions"},
                    "effect": {"$ref": "#/$defs/steps", "description":
                               "What playing a card so does first (its price, say)."},
                    "description": {"type": "string", "description": "What it is."}}),
            "pairing": {"type": "object", "additionalProperties": False, "description":
                        "Which faces print on the same card: the k-th card of each side, "
                        "in deck order (groups in order, then ranks, then colours).",
                        "properties": {"shift": {"type": "integer", "minimum": 0,
                                                 "description": "Turn the other sides' "
                                                 "order by this many cards first."}}},
            "settings": _settings(),
            "options": {"type": "object", "description":
                        "Named values this rulebook's cards refer to as `$name`; each can be "
                        "overridden like a setting (the rules' *(option)* choices).",
                        "additionalProperties": {"type": ["string", "integer", "boolean",
                                                          "object"]}},
            "deck": {"type": "object", "minProperties": 1, "description":
                     "Groups of cards, by a name of your choice (so a rulebook that extends "
                     "this one can change or remove a group).",
                     "additionalProperties": {"anyOf": [{"$ref": "#/$defs/deck_group"},
                                                        {"type": "null"}]}},
            "team": {"type": "object", "additionalProperties": False, "required": ["size"],
                     "description": "Players play in partnerships: seats `players / size` "
                                    "apart are partners (with pairs, partners sit across).",
                      "properties": {"size": {"type": "integer", "minimum": 1,
                                              "description": "Players per team."}}},
            "going_out": {"type": "object", "additionalProperties": False,
                          "description": "What happens when a player's hand empties.",
                          "properties": {
                              "round_ends": {"enum": ["player", "team"], "description":
                                             "player (default): the round ends as soon as "
                                             "one player goes out; team: when every member "
                                             "of a team is out."},
                              "then": {"$ref": "#/$defs/steps", "description":
                                       "Steps for a player who went out while the round "
                                       "goes on (it is `self`), after its card's effect."}}},
            "stacking": {"type": "object", "additionalProperties": False,
                         "description": "Draw penalties (`stack_draw`) may be answered with "
                                        "another stacking card instead of drawing.",
                         "properties": {"mixing": _or_ref({"type": "boolean", "description":
                                                           "A higher draw may answer a lower "
                                                           "one (else only an equal one)."}),
                                        "any_color": _or_ref({"type": "boolean",
                                                              "description":
                                                              "An answer need not match the "
                                                              "top card or the colour in "
                                                              "force: any stacking card of a "
                                                              "value allowed may answer (else "
                                                              "it must also be playable as "
                                                              "usual)."}),
                                        "max": _or_ref({"type": "integer", "minimum": 1,
                                                        "description":
                                                        "The most a stacked total may reach: "
                                                        "an answer that would take it past "
                                                        "this is not allowed (default: no "
                                                        "cap)."})}},
            "after_draw": {"$ref": "#/$defs/steps", "description":
                           "Steps run right after any draw, before anything else (the drawer "
                           "is `self`)."},
            "setup": {"$ref": "#/$defs/steps", "description":
                      "Steps run after the first card, before the first turn (the dealer is "
                      "`self`)."},
            "caught": {"$ref": "#/$defs/steps", "description":
                       "Steps for a player caught without calling UNO (it is `self`), instead "
                       "of drawing `uno_penalty` cards (e.g. a card launcher fired "
                       "twice)."},
            "turn": {"type": "object", "additionalProperties": False,
                     "description": "The turn rules.",
                     "properties": {"draw": {"$ref": "#/$defs/steps", "description":
                                             "What drawing instead of playing does (default: "
                                             "draw 1, then `offer_drawn`)."},
                                    "begin": {"$ref": "#/$defs/steps", "description":
                                              "Steps run as each turn begins, before its "
                                              "player's decision (it is `self`; a skipped "
                                              "player's turn has none): e.g. "
                                              "`open_piles: any`, piles opened by chance."},
                                    "plays": {"enum": ["each_pile"], "description":
                                              "`each_pile`: after a play the player may play "
                                              "again, onto a discard pile not yet played on "
                                              "this turn, or `end` the turn (an `again` "
                                              "decision); a turn with no such play left ends "
                                              "by itself. Needs several discard piles. E.g. "
                                              "matching row cards, each once a turn; "
                                              "a house rule of a several-pile game letting a "
                                              "player feed every pile."},
                                    "end": {"$ref": "#/$defs/steps", "description":
                                            "Steps run when a turn ends (its player is "
                                            "`self`), after its plays or draw and before "
                                            "anyone out leaves the round or the next turn "
                                            "starts: a player whose hand emptied goes out "
                                            "only after them. E.g. clearing and refilling "
                                            "a row of piles, bonus cards; a "
                                            "house rule where every turn ends drawing back "
                                            "up to a hand size."}}},
            "cards": {"type": "object", "description":
                      "What each rank or tag does, by rank or tag name. A card with a tag "
                      "does its rank's effect, then its tag's. Ranks without an entry do "
                      "nothing when played (number cards).",
                      "additionalProperties": {"anyOf": [{"$ref": "#/$defs/card"},
                                                         {"type": "null"}]}},
        },
        "$defs": {
            "deck_group": {
                "type": "object", "additionalProperties": False, "required": ["ranks", "copies"],
                "description": "Cards of the listed ranks, in the listed colours.",
                "properties": {
                    "ranks": {"type": "array", "minItems": 1,
                              "items": {"anyOf": [name, {"type": "integer", "minimum": 0}]},
                              "description": "Rank names: numbers (`5`) or symbols "
                                             "(`skip`), each once (`5` and `'5'` are one "
                                             f"rank). A rulebook has at most {MAX_RANKS} "
                                             f"ranks and {MAX_FACES:,} different cards (a "
                                             "colour, rank and tags) a side."},
                    "side": {"type": "string", "description": "With `sides`: the side "
                             "these faces are printed on (default: the first)."},
                    "colors": {"description": "`all`, or a list of colours. Omitted: the cards "
                                              "have no colour (wild) and are always playable.",
                               "anyOf": [{"const": "all"},
                                         {"type": "array", "items": {"type": "string"},
                                          "minItems": 1}]},
                    "copies": _or_ref({"type": "integer", "minimum": 0, "maximum": 1000,
                                       "description":
                                       "Copies of each rank in each colour (or in all, for "
                                       "colourless cards)."}),
                    "points": _or_ref({"description": "Score value: an integer, or `face` "
                                                      "for the number on the card (or a "
                                                      "`$option` reference: e.g. wild "
                                                      "points set by an option).",
                                       "anyOf": [{"type": "integer", "minimum": 0},
                                                 {"const": "face"}]}),
                    "tags": {"type": "array", "items": name, "description":
                             "Extra symbols printed on these cards; they become part of the "
                             "name (`red 5 pass`)."},
                    "alternative": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$",
                                    "description": "These cards may be played as the named "
                                    "alternative (declared in `alternatives`): the player "
                                    "chooses `normal` or it when playing one (e.g. a card's "
                                    "second, conditional half)."},
                    "second_colors": {"type": "object", "minProperties": 1,
                                      "additionalProperties": {"type": "string"},
                                      "description": "A second colour printed on these "
                                      "cards, by their colour (`{red: yellow}`): played as "
                                      "their alternative, they also match it (the colour in "
                                      "force stays their own)."},
                    "numbers": {"type": "array", "minItems": 1,
                                "items": {"type": "integer", "minimum": 0, "maximum": 99},
                                "description": "The numbers these cards count as, whichever "
                                               "suits the play (a wild number): by the "
                                               "`number` way of `match` and in a combo's "
                                               "`sum`. E.g. a wild number (`[1, 2, ..., 10]`) "
                                               "or a wild two (`[2]`); a blank card of a house "
                                               "rule counting as any number. A number card "
                                               "counts as its own number."},
                },
            },
            "card": {
                "type": "object", "additionalProperties": False,
                "description": "The behaviour of one rank.",
                "properties": {
                    "effect": {"$ref": "#/$defs/steps", "description": "What playing it does."},
                    "first_card": {"$ref": "#/$defs/steps", "description":
                                   "What happens when it is the first card turned up; "
                                   "omitted, its effect runs as if the dealer had played it."},
                    "legal_if": {
                        "type": "object", "additionalProperties": False,
                        "required": ["holds_no"],
                        "description": "When playing it is legal: judged on the player's hand "
                                       "before it leaves, against the colour in force.",
                        "properties": {
                            "holds_no": _or_ref({"enum": ["color", "match"], "description":
                                                 "color: no other card of the colour in "
                                                 "force; match: no other card that "
                                                 "matches the pile by the rulebook's "
                                                 "`match:` ways."}),
                            "count_wilds": _or_ref({"type": "boolean", "description":
                                                    "Whether a held wild counts as a match."}),
                        }},
                    "optional": {"type": "boolean", "description":
                                 "Skip this rule when the deck has no card of this rank or "
                                 "tag (for overlays meant for several rulebooks); otherwise "
                                 "that is an error."},
                    "bluff": _or_ref({"type": "boolean", "description":
                                      "It may be played when not legal (a bluff), and its "
                                      "effect must let it be challenged (a `challenge` step, "
                                      "or a `stack_draw` with `challenge_penalty`); false: "
                                      "only when legal, never challenged. A card with a "
                                      "challenge says which."}),
                    "going_out": _or_ref({"enum": ["ends_round", "continues",
                                                   "not_allowed"], "description":
                                          "Going out on it (as its player's last card): "
                                          "ends_round (the default: the round ends, only its "
                                          "draws and discards happen); continues (the round "
                                          "goes on: its whole effect runs, and a seat it "
                                          "leaves with no card has gone out); not_allowed (it "
                                          "can't be played as a last card)."}),
                    "alternatives": {"type": "object", "description":
                                     "What it does when played as an alternative (declared "
                                     "in `alternatives`), by the alternative's name: after "
                                     "the alternative's own steps, instead of `effect`.",
                                     "additionalProperties": {"$ref": "#/$defs/steps"}},
                    "answers_draw": _or_ref({"type": "boolean", "description":
                                             "It may also answer a pending stacked draw "
                                             "(with `stacking`), as a stacking card does, "
                                             "though it adds nothing to it: the total "
                                             "stays pending for whoever's turn comes next "
                                             "(its effect says whose: `turn_to`, "
                                             "`reverse`; `if: {draw_pending: ...}` tells "
                                             "the two plays apart). A Reverse deflecting a "
                                             "Draw Two back (house rule `deflect`), a Skip "
                                             "passing it on (`pass_on`)."}),
                    "presses": _or_ref({"type": "boolean", "description":
                                        "With `pile_counters`: whether playing it presses "
                                        "its pile (default true)."}),
                    "overload": {"$ref": "#/$defs/steps", "description":
                                 "With `pile_counters`: what its own press overloading does, "
                                 "instead of `pile_counters.overload` (its player `self`)."},
                },
            },
            "steps": {"type": "array", "items": {"$ref": "#/$defs/step"},
                      "description": "Primitives, run in order."},
            "step": _step(),
            "conditions": {"type": "object", "additionalProperties": False, "minProperties": 1,
                           "description": "Conditions, as an `if` step's (all must hold).",
                           "properties": {c.name: c.schema for c in CONDITIONS.values()}},
        },
    }


def schema_json() -> str:
    """The schema as the text of ``schemas/rulebook.schema.json``."""
    return json.dumps(rulebook_schema(), indent=2) + "\n"
