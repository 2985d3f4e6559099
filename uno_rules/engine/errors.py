"""The error hierarchy. Every error is also a ``ValueError`` with its context in the message."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast


def visible(text: str) -> str:
    """``text`` with what a terminal would act on or break a line at (a newline, an escape
    sequence: a file or scenario name can hold any) written as Python escapes: one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def shorten(text: str, width: int = 80) -> str:
    """A value echoed in a message, cut short if absurdly long (not a 5,000-character one)."""
    return text if len(text) <= width else f"{text[:60]}... ({len(text):,} characters)"


def show(value: Any) -> str:
    """``value``'s repr for a message: short, and never the repr Python refuses of an int
    of over 4,300 digits."""
    if type(value) is int and value.bit_length() > 256:
        return f"(a whole number of {value.bit_length():,} bits)"
    return shorten(repr(value))


def shorten_values(text: str, values: Iterable[str] = (), width: int = 80) -> str:
    """``text`` with every one of ``values`` (the user's, echoed in it: any case) and any
    other run of over ``width`` characters without a space cut short by :func:`shorten`, so
    that a 5,000-character card name doesn't make a 15 KB message line."""
    return value_shortener(values, width)(text)


def value_shortener(values: Iterable[str] = (), width: int = 80) -> Callable[[str], str]:
    """:func:`shorten_values` for ``values``, made once for many messages: each message
    costs its own length, not the number of values (30,000 ``--set`` values and a message
    for each were quadratic)."""
    # The long values (and their lower case), indexed by their first KEY characters in
    # lower case: a message looks up the keys of its windows, not every value.
    key = min(_KEY, width + 1)
    index: dict[str, list[tuple[str, str]]] = {}
    for v in {v for v in values if len(v) > width}:
        index.setdefault(_lower(v[:key]), []).append((v, _lower(v)))

    def cut(text: str) -> str:
        if index:
            lowered = _lower(text)
            keys = {lowered[i:i + key] for i in range(len(text) - key + 1)} & index.keys()
            found = {v for k in keys for v, low in index[k] if low in lowered}
            for value in sorted(found, key=len, reverse=True):
                text = re.sub(re.escape(value), lambda m: shorten(m.group(), width), text,
                              flags=re.IGNORECASE)
        return re.sub(rf"\S{{{width + 1},}}", lambda m: _cut_run(m.group(), width), text)
    return cut


_KEY = 16  # characters of a value's index key (at most: a narrower width, fewer)


def _lower(text: str) -> str:
    """``text`` in lower case, character for character (a letter whose lower case is
    longer, such as 'İ', kept): windows of a message and of a value line up."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _cut_run(run: str, width: int) -> str:
    # A file path (an installed package's rulebook is often over 80 characters) is kept
    # whole up to PATH_WIDTH: the message must still say which file.
    if len(run) <= PATH_WIDTH and ("/" in run or "\\" in run):
        return run
    return shorten(run, width)


PATH_WIDTH = 1024  # longer than any path this machine's files are likely to have


@dataclass(frozen=True)
class Problem:
    """One located problem in an input file, or (``line`` 0) in a command-line argument
    such as ``--set hand_size=x``, named by ``file``."""

    file: str
    line: int
    col: int
    message: str
    path: str = "$"

    def __str__(self) -> str:
        file, message = visible(self.file), visible(self.message)
        if self.line <= 0:
            return f"{file}: {message}" + ("" if self.path == "$" else f" (at {self.path})")
        return f"{file}:{self.line}:{self.col}: {message} (at {self.path})"


class UnoRulesError(ValueError):
    """Base class of every error this package raises on purpose."""


class ProblemsError(UnoRulesError):
    """Input that failed validation; carries every problem found, not only the first."""

    def __init__(self, problems: list[Problem] | Problem | str):
        items: list[Problem | str] = ([problems] if isinstance(problems, (Problem, str))
                                      else list(problems))
        # A plain message is kept as it is (it prints as itself); every caller in the package
        # passes Problems, which is what readers of ``problems`` get.
        self.problems = cast("list[Problem]", items)
        super().__init__("\n".join(str(p) for p in self.problems))


class RulebookError(ProblemsError):
    """A rulebook (or an overlay or setting applied to it) is invalid."""


class ScenarioError(ProblemsError):
    """A scenario file is malformed."""


class SnapshotError(UnoRulesError):
    """A snapshot can't be restored."""


class IllegalAction(UnoRulesError):
    """An action that is not allowed now; the game is left exactly as it was. Also a game
    (or match, or simulation) that can't be started with the arguments given."""


class RunawayEffect(UnoRulesError):
    """A card's effect ran far longer than any real card can: the rulebook loops. The
    round is left where it stopped (it can't go on)."""


class NotationError(UnoRulesError):
    """A card or action string that can't be parsed."""
