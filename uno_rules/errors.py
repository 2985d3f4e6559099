"""The error hierarchy. Every error is also a ``ValueError`` with its context in the message."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast


def visible(text: str) -> str:
    """``text`` with what a terminal would act on or break a line at (a newline, an escape
    sequence: a file or scenario name can hold any) written as Python escapes: one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def shorten(text: str, width: int = 80) -> str:
    """A value echoed in a message, cut short if absurdly long (not a 5,000-character one)."""
    return text if len(text) <= width else f"{text[:60]}... ({len(text):,} characters)"


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
