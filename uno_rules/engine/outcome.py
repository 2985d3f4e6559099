"""How a round (or a match) ended: :class:`Termination`, and :class:`Outcome`, the record
:attr:`Game.outcome <uno_rules.engine.game.Game.outcome>` gives (python-chess's
``Termination`` and ``Outcome`` are the model).

A pure Python module, as errors.py: an Enum is no class the compiled build makes native,
and nothing here is hot (a round ends once)."""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple


class Termination(str, Enum):
    """Why a round or a match stopped. A ``str``: each member is the very word records,
    ``--csv`` rows and ``--json`` reports have always written (``"steps"``), equal to it,
    hashed as it, and printed, formatted and repr'd as it, so that every output stays
    byte-identical and a word read back from a file compares equal."""

    OVER = "over"         # played to its end: someone went out (the one end with a result)
    STEPS = "steps"       # the round's budget of effect steps ran out
    ACTIONS = "actions"   # the round's budget of actions ran out
    RUNAWAY = "runaway"   # one card's effect ran away within one action (RunawayEffect)
    ROUNDS = "rounds"     # a match's budget of rounds ran out

    # Enum's own str/format/repr would write "Termination.STEPS": the plain word instead.
    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, spec: str) -> str:
        return str.__format__(self, spec)

    def __repr__(self) -> str:
        return str.__repr__(self)

    def __hash__(self) -> int:  # as the word's: a dict keyed by words finds a member
        return str.__hash__(self)

    @property
    def stalled(self) -> bool:
        """Stopped before its end, without a result."""
        return self is not Termination.OVER


# The budgets a round itself runs out of (Game.stalled); RUNAWAY and ROUNDS are told by
# whoever plays the round (a runaway raises, a match counts rounds).
BUDGETS = (Termination.STEPS, Termination.ACTIONS)


class Outcome(NamedTuple):
    """How a round ended: its :class:`Termination`, the winning seat(s) and the points they
    score (``()`` and None unless ``termination`` is ``OVER``)."""

    termination: Termination
    winners: tuple[int, ...] = ()
    points: int | None = None
