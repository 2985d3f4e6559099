"""A web game as the page sees it (docs/web.md, "Playing"): the state JSON of one game —
the prompt, the table as the prompted seat sees it, the log in words, the scores.

Everything comes from the terminal table's own functions (:mod:`uno_rules.table.screen`:
card faces, colours, events in words, option texts) and ``game.view(seat)``: what a seat
may see at the terminal is what the page gets, and nothing else — never another seat's
hand, nor a card another seat drew or was given."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.actions import KINDS_WITH_PILE, Action
from ..engine.game import Game
from ..engine.model import NO_COLOR
from ..engine.notation import COMBO
from ..play.match import Match
from ..table.screen import (
    PLAIN,
    colour_code,
    event_lines,
    face_of,
    label,
    option_text,
    prompt_text,
)
from ..table.session import HUMAN, Prompt
from ..table.summary import RoundEnd, headline, match_text

# The page's colour for each terminal colour (the SGR code screen.colour_code gives a
# rulebook's colour): one palette for both front ends.
CSS: Mapping[str, str] = {
    "31": "#d62828", "33": "#e9b200", "32": "#2a9d4b", "34": "#1f5fbf", "95": "#e05fb0",
    "36": "#17a2a8", "38;5;208": "#f77f00", "35": "#8e44ad", "97": "#f4f4f4",
    "90": "#333333", "37": "#9a9a9a", "38;5;130": "#8d5524", "38;5;178": "#d4a017",
    "92": "#7cc242", "38;5;18": "#1b2a6b", "91": "#ff5c5c", "93": "#ffd23f",
    "94": "#4f8ff7", "96": "#5ad1d6"}
LOG_LINES = 200  # the last events of the round shown (a stalled round has thousands)
CARD_KINDS = ("play", "jump_in", "give")


def card(game: Game, name: str | None, side: int | None = None, *,
         other: str | None = None) -> dict[str, Any] | None:
    """A card as the page draws it: name, colour, rank, css colour, points, and (a
    two-sided deck) the ``other`` face's card when the seat may see it."""
    if name is None:
        return None
    face = face_of(game, name, side)
    rb = game.rulebook
    colour = None if face is None or face.color == NO_COLOR else rb.colors[face.color]
    code = colour_code(game, colour)
    return {"name": label(name), "colour": colour,
            "rank": None if face is None else label(rb.ranks[face.rank]),
            "css": None if code is None else CSS.get(code),
            "points": None if face is None else face.points,
            "other": None if other is None else card(game, other, _other_side(game))}


def _other_side(game: Game) -> int:
    return (game.side + 1) % len(game.rulebook.sides)


def option(game: Game, index: int, action: Action) -> dict[str, Any]:
    """One option of a prompt: its number (what to answer), its words, the card played
    and ``cards``, each card it plays in order (several: a combo, the page's clicks pick
    them one by one; all from the seat's own hand), the discard pile it goes to or presses
    (several piles: the page plays on a click), whether it calls UNO (a card's click
    answers its plain play's number, and ``N uno`` with the UNO button down:
    table.answers.with_call, as the terminal's ``red 5 uno``)."""
    arg = None if action.arg is None else str(action.arg)
    several = game.rulebook.discard_piles > 1
    return {"index": index, "text": option_text(action, game, PLAIN), "kind": action.kind,
            "card": card(game, arg) if action.kind in CARD_KINDS else None,
            "cards": cards_of(game, action.kind, arg),
            "colour": arg if action.kind == "color" else None, "uno": action.uno,
            "pile": None if not several else action.arg if action.kind in KINDS_WITH_PILE
            else action.pile if action.kind in CARD_KINDS else None}


def cards_of(game: Game, kind: str, arg: str | None) -> list[dict[str, Any] | None] | None:
    """The cards a play (or gift) names, in order: one, or a combo's several."""
    if kind not in CARD_KINDS or arg is None:
        return None
    return [card(game, name) for name in arg.split(COMBO)]


def prompt_json(game: Game, prompt: Prompt, humans: Sequence[int],
                rounds: int) -> dict[str, Any]:
    """What the page asks, and what it may answer (docs/web.md)."""
    seat, kind = prompt.seat, prompt.kind
    options: list[dict[str, Any]] = []
    if kind == "choose":
        assert seat is not None
        text = prompt_text(game, seat)
        options = [option(game, i, a) for i, a in enumerate(prompt.options, 1)]
    elif kind == "pass_to":
        text = f"pass to seat {seat}: only seat {seat} looks now"
    elif kind == "window" and seat is None:
        text = (f"out of turn (catch {game.rulebook.settings.call_name}, jump in)? "
                "your seat number, or go on")
        decision = game.decision
        acting = None if decision is None else decision.seat
        options = [{"index": h, "text": f"seat {h}", "kind": "seat", "card": None, "cards": None,
                    "colour": None, "uno": False} for h in humans if h != acting]
    elif kind == "window":
        text = f"seat {seat}: nothing to do out of turn now"
    else:
        text = f"deal round {rounds}"
    return {"kind": kind, "seat": seat, "text": text, "options": options,
            "can_pass": prompt.can_pass or kind != "choose"}


def viewer(prompt: Prompt | None, humans: Sequence[int]) -> int | None:
    """Whose table the page shows: one human's always; hot-seat, only the seat prompted
    to choose (none while the keyboard is passed, at a window or between rounds)."""
    if len(humans) == 1:
        return humans[0]
    if prompt is not None and prompt.kind == "choose" and len(humans) > 1:
        return prompt.seat
    return None


def table(match: Match, seat: int | None, seats: Sequence[str]) -> dict[str, Any]:
    """The table as ``seat`` sees it (None: what anyone at the table sees: no hand)."""
    game = match.game
    view = game.view(0 if seat is None else seat)
    decision = game.decision
    sided = "side" in view
    backs: list[list[str] | None] = []
    if sided:
        backs = list(view["other_side"]["hands"])
        if seat is None:  # seat 0's backs, as seat 1 sees them
            backs[0] = game.view(1)["other_side"]["hands"][0]
    team = view.get("team_by_seat")
    out = set(view["out"]) | set(view["knocked_out"]) | set(view["absent"])
    rows = []
    for s, size in enumerate(view["hand_sizes"]):
        row: dict[str, Any] = {
            "seat": s, "cards": size, "team": None if team is None else team[s],
            "out": s in out, "uno_open": view["uno_open"] == s or s in view.get("owed", ()),
            "who": seats[s],
            "score": match.scores[s]}
        if "player_state" in view:  # per-player state: each key's value, as "power green"
            row["state"] = [f"{k} {v[s]}" for k, v in view["player_state"].items()]
        if sided:
            row["backs"] = [card(game, b, _other_side(game)) for b in backs[s] or ()]
        rows.append(row)
    tops = view.get("discards")
    return {"seat": seat,
            "piles": None if tops is None else piles(game, view),
            "hand": [] if seat is None else [card(game, n) for n in view["hand"]],
            "top": card(game, view["top"] if tops is None else tops[0]["top"]),
            "colour": view["color"] if tops is None else tops[0]["color"],
            "direction": 1 if view["direction"] == "clockwise" else -1,
            "draw_pile": view["draw_pile_size"], "discard_pile": view["discard_size"],
            "to_act": None if decision is None else decision.seat,
            "stacked": view["stacked_draw"], "side": view.get("side"),
            "draw_top_back": card(game, view["other_side"]["draw_pile_top"],
                                  _other_side(game)) if sided else None,
            "seats": rows}


def piles(game: Game, view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every discard pile as the table shows it: its top card, colour in force and size;
    with pile counters open or closed and its public press count (a limit is never shown;
    ``open`` and ``presses`` are None without counters)."""
    counted = "presses" in view
    return [{"pile": k, "top": card(game, p["top"]), "colour": p["color"], "cards": p["size"],
             "open": k in view["open_piles"] if counted else None,
             "presses": view["presses"][k] if counted else None}
            for k, p in enumerate(view["discards"])]


def log_lines(game: Game, seat: int | None) -> list[str]:
    """The round's events in words as ``seat`` may see them (the last LOG_LINES)."""
    return event_lines(game, 0, seat, PLAIN)[-LOG_LINES:]


def round_end(end: RoundEnd) -> dict[str, Any]:
    """The round just over, every hand shown (docs/web.md, "The end of a round")."""
    game = end.game
    hands = []
    for s, held in enumerate(end.hands):
        cards = []
        for name, points in held:
            c = card(game, name)
            assert c is not None
            cards.append({**c, "points": points})
        hands.append({"seat": s, "cards": cards, "points": end.total(s),
                      "winner": s in end.winners})
    return {"round": end.round, "winners": list(end.winners), "points": end.points,
            "hands": hands, "scores": list(end.scores),
            "match_winners": list(end.match_winners), "one_round": end.one_round,
            "text": headline(end), "match_text": match_text(end)}


def state(game_id: str, version: int, meta: Mapping[str, Any], match: Match,
          prompt: Prompt | None, status: str, reason: str | None,
          ended: RoundEnd | None = None) -> dict[str, Any]:
    """The state JSON of a game (docs/web.md); ``ended``: the round just over (its hands
    shown only then)."""
    game = match.game
    seats = list(meta["seats"])
    humans = [s for s, k in enumerate(seats) if k == HUMAN]
    seat = viewer(prompt, humans)
    one_round = bool(meta["one_round"])
    result = None
    if status == "over" and ended is not None:
        text = match_text(ended)
        winners = list(ended.match_winners or ended.winners)
        result = {"winners": winners, "points": ended.points,
                  "text": headline(ended) + ("" if text is None else f"; {text}")}
    return {"game": game_id, "version": version, "title": meta["title"],
            "rulebook": meta["rulebook_name"], "players": match.players, "seats": seats,
            "round": match.rounds, "one_round": one_round, "status": status,
            "reason": reason, "call": match.rulebook.settings.call_name,
            "prompt": None if prompt is None else prompt_json(game, prompt, humans,
                                                              match.rounds),
            # between rounds the next one is dealt: the log is still the round just over's
            "view": table(match, seat, seats),
            "log": log_lines(game if ended is None else ended.game, seat),
            "scores": list(match.scores if ended is None or not one_round else ended.scores),
            "round_end": None if ended is None else round_end(ended),
            "target": None if one_round else match.rulebook.settings.target_score,
            "result": result}
