"""Card notation against a rulebook: ``red 5``, ``blue skip``, ``wild``, ``red 5 pass``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import NotationError

if TYPE_CHECKING:
    from .model import Rules


def normalize(text: str) -> str:
    """Lower-case, single-spaced form of a card name."""
    return " ".join(str(text).lower().split())


SIDES = "//"  # between the faces of a card with sides: ``red 5 // pink 2``


def parse_card(rulebook: Rules, text: str, side: int | None = None) -> int:
    """The face id named by ``text`` in ``rulebook`` (read on ``side`` first, when a name is
    printed on several sides); raises :class:`NotationError`."""
    index = rulebook.by_name
    key = normalize(text)
    fid = None if side is None else rulebook.side_by_name[side].get(key)
    if fid is None:
        fid = index.get(key)
    if fid is None:
        import difflib

        close = difflib.get_close_matches(key, list(index), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise NotationError(f"unknown card {text!r} in rulebook {rulebook.name!r}{hint}")
    return fid


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

