"""A record (:mod:`uno_rules.play.record`) as text, as one seat saw it or with every hand
open: the header, each step's action and the end (the ``replay`` command,
:mod:`uno_rules.cli.replay`, prints them; the web page's replay shows them too)."""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action
from ..engine.errors import NotationError, visible
from ..engine.view import hides
from ..play.record import Record


def seat_of(record: Record) -> int:
    """The seat shown by default: the first human one, else seat 0."""
    seats = record.header["seats"]
    return seats.index("human") if "human" in seats else 0


def action_seen(line: dict[str, Any], seat: int | None) -> str:
    """A step's action as ``seat`` saw it (None: every seat's view, open): a card another
    seat gave away is hidden (uno_rules.engine.view.hides)."""
    try:
        action = Action.parse(line["action"])  # shown as this version writes it
    except NotationError:
        return visible(str(line["action"]))
    if hides(action.kind, action.seat, seat):
        return f"{action.seat} give a card"
    return visible(str(action))


def header_lines(record: Record) -> list[str]:
    """What the record is: rulebook, house rules, settings, players, who sat where (the
    file's text escaped: a seat named with a newline or an escape sequence forges nothing)."""
    h = record.header
    house = "".join(f" + {x}" for x in h["house"])
    sets = "".join(f" --set {k}={v}" for k, v in h["set"].items())
    kind = "a match" if h["match"] else "one round"
    seats = ", ".join(f"{s}: {name}" for s, name in enumerate(h["seats"]))
    return [visible(text) for text in
            [f"{h['rulebook']}{house}{sets}: {kind}, {h['players']} players, seed {h['seed']} "
             f"(recorded by uno-rules {h['engine']})"] + ([f"seats: {seats}"] if seats else [])]


def end_text(end: dict[str, Any]) -> str:
    if "quit" in end:
        return "stopped: a player quit (the record may be resumed)"
    if "stalled" in end:
        return f"stopped: stalled ({visible(end['stalled'])})"
    who = ", ".join(map(str, end["winners"]))
    if "points" in end:
        return f"round over: seat(s) {who} win {end['points']} points"
    return f"match over: seat(s) {who} win; scores {end['scores']}"
