"""Card notation against a rulebook: ``red 5``, ``blue skip``, ``wild``, ``red 5 pass``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import NotationError

if TYPE_CHECKING:
    from .model import Rules


def normalize(text: str) -> str:
    """Lower-case, single-spaced form of a card name."""
    return " ".join(str(text).lower().split())


def parse_card(rulebook: Rules, text: str) -> int:
    """The face id named by ``text`` in ``rulebook``; raises :class:`NotationError`."""
    index = rulebook.by_name
    key = normalize(text)
    fid = index.get(key)
    if fid is None:
        import difflib

        close = difflib.get_close_matches(key, list(index), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise NotationError(f"unknown card {text!r} in rulebook {rulebook.name!r}{hint}")
    return fid

