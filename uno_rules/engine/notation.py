"""Card notation against a rulebook: ``red 5``, ``blue skip``, ``wild``, ``red 5 pass``;
and a card's token in an action's notation: its name, quoted where the bare words would read
back as something else (``1 play "blue uno"``: the card ``blue uno``, UNO not called)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .errors import NotationError

if TYPE_CHECKING:
    from .model import Rules


def normalize(text: str) -> str:
    """Lower-case, single-spaced form of a card name."""
    return " ".join(str(text).lower().split())


COMBO = " + "  # between the cards of one play of several (``play red 3 + blue 2``)
QUOTE = '"'  # opens a quoted card token (a JSON string): never part of a card's name
_STRING = json.JSONDecoder()


def card_token(name: str, play: bool) -> str:
    """``name`` as an action's notation writes it: bare when its words read back as that
    name, else quoted as a JSON string (ASCII). A play's name is misread bare when it ends
    in the word ``uno`` or in ``on N`` (read as calling UNO, as a pile); any name whose
    spacing the words don't keep (two spaces, a trailing one), or holding a quote."""
    words = name.split()
    bare = bool(words) and name == " ".join(words) and QUOTE not in name and not (
        play and (len(words) > 1 and words[-1] == "uno"
                  or len(words) > 2 and words[-2] == "on" and words[-1].isdigit()))
    return name if bare else json.dumps(name)


def tokens(text: str) -> list[str]:
    """The words of an action's notation, lower-cased, a quoted card (see
    :func:`card_token`) kept whole and as written, quotes included: one token that is
    never a keyword or a number (:func:`unquote` reads it)."""
    out: list[str] = []
    at = 0
    while (start := text.find(QUOTE, at)) >= 0:
        out += text[at:start].lower().split()
        try:
            at = _STRING.raw_decode(text, start)[1]
        except ValueError:
            raise NotationError(f"can't read action {text!r}: a quoted card needs its closing "
                                "quote") from None
        out.append(text[start:at])
    return out + text[at:].lower().split()


def unquote(token: str) -> str:
    """The card a quoted token (from :func:`tokens`) names."""
    value: str = _STRING.decode(token)
    return value


SIDES = "//"  # between the faces of a card with sides: ``red 5 // pink 2``


def parse_card(rulebook: Rules, text: str, side: int | None = None) -> int:
    """The face id named by ``text`` in ``rulebook`` (read on ``side`` first, when a name is
    printed on several sides); raises :class:`NotationError`."""
    index = rulebook.by_name
    # The name as written first: a quoted card keeps its spacing (``red a  b``).
    fid = _named(rulebook, str(text), side)
    key = normalize(text)
    if fid is None:
        fid = _named(rulebook, key, side)
    if fid is None:
        import difflib

        close = difflib.get_close_matches(key, list(index), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise NotationError(f"unknown card {text!r} in rulebook {rulebook.name!r}{hint}")
    return fid


def _named(rulebook: Rules, key: str, side: int | None) -> int | None:
    """The face id named exactly ``key`` (on ``side`` first), or None."""
    fid = None if side is None else rulebook.side_by_name[side].get(key)
    return rulebook.by_name.get(key) if fid is None else fid


def parse_sides(rulebook: Rules, text: str) -> list[int | None]:
    """The faces a card notation names, one per side (None where it names none): ``red 5
    // pink 2`` names both sides of a two-sided card, ``red 5`` only its own side."""
    parts = str(text).split(SIDES)
    sides: list[int | None] = [None] * len(rulebook.sides)
    if len(parts) > 1 and len(parts) != len(rulebook.sides):
        raise NotationError(f"can't read card {text!r}: {len(parts)} faces for "
                            f"{len(rulebook.sides)} side(s)")
    for i, part in enumerate(parts):
        fid = parse_card(rulebook, part, i if len(parts) > 1 else None)
        side = rulebook.faces[fid].side
        if len(parts) > 1 and side != i:
            raise NotationError(f"can't read card {text!r}: {part.strip()!r} is not a face of "
                                f"side {rulebook.sides[i]!r}")
        sides[side] = fid
    return sides


def parse_whole_card(rulebook: Rules, text: str) -> int:
    """The card id of a notation naming every side (one face for cards with one side)."""
    faces = parse_sides(rulebook, text)
    if None in faces:
        raise NotationError(f"can't read card {text!r}: name every side "
                            f"({' // '.join(rulebook.sides)})")
    return rulebook.card_ids[tuple(faces)]  # type: ignore[arg-type]

