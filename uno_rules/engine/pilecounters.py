"""Open and closed discard piles, and per-pile counters with hidden limits.

A rulebook with several discard piles may open only some of them (``open_piles``: a card
goes only on an open pile) and, with ``pile_counters``, give each pile a press count
(public) and a limit (hidden from every seat: drawn from the declared weights with the
game's seeded RNG when the pile starts and after each overload or clear). Each play on a
pile is one press (a card with ``presses: false`` is none); ``press`` presses as a step. The
press that brings the count to the limit overloads: the count returns to 0 with a new limit
and the rulebook's ``pile_counters.overload`` steps (or the card's own ``overload``) run for
the presser, before the card acts. Used by UNO Triple Play (its unit) and a "hot potato"
house rule (a pile that bursts after a random number of plays).

The values live in :attr:`State._pile_marks`, three per discard pile: open (1/0), presses,
limit (clones and snapshots carry them; views show the first two only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .model import PILE_MARKS
from .records import Among

if TYPE_CHECKING:
    from .actions import Action
    from .model import Step
    from .records import Ctx
    from .state import State as Game

WIDTH = PILE_MARKS  # open, presses, limit


def start_counters(game: Game) -> None:
    """Every pile open with no press and a fresh hidden limit (a rulebook with counters)."""
    piles = game.rulebook.discard_piles
    game._pile_marks = [0] * (WIDTH * piles)
    for pile in range(piles):
        game._pile_marks[WIDTH * pile] = 1
        new_limit(game, pile)


def new_limit(game: Game, pile: int) -> None:
    """Pile ``pile``'s count back to 0 and a new hidden limit, drawn by the declared weights."""
    rb = game.rulebook
    values = [v for v, _ in rb.pile_limits]
    weights = [w for _, w in rb.pile_limits]
    game._pile_marks[WIDTH * pile + 1] = 0
    pick = game.limit_chance  # OpenSpiel's chance node, or the seeded RNG
    game._pile_marks[WIDTH * pile + 2] = game._own_rng().choices(values, weights)[0] \
        if pick is None else values[pick(weights)]


def is_open(game: Game, pile: int) -> bool:
    """Whether a card may go on discard pile ``pile`` (every pile without counters)."""
    marks = game._pile_marks
    return not marks or marks[WIDTH * pile] == 1


def press(game: Game, pile: int) -> bool:
    """One press on ``pile``: True when it overloads (its count then starts again)."""
    marks = game._pile_marks
    at = WIDTH * pile + 1
    marks[at] += 1
    if marks[at] < marks[at + 1]:
        return False
    game._note("overload", pile)
    new_limit(game, pile)
    return True


def open_only(game: Game, piles: Sequence[int]) -> None:
    """Open exactly ``piles`` (the others close)."""
    marks = game._pile_marks
    for pile in range(game.rulebook.discard_piles):
        marks[WIDTH * pile] = 1 if pile in piles else 0


def public(game: Game) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What every seat sees: the open piles and each pile's press count."""
    marks = game._pile_marks
    piles = range(len(marks) // WIDTH)
    return (tuple(p for p in piles if marks[WIDTH * p]),
            tuple(marks[WIDTH * p + 1] for p in piles))


def public_counts(marks: Sequence[int]) -> tuple[int, ...]:
    """Each pile's open flag and press count, flat: its hidden limit (every third value)
    left out (views, observations)."""
    return tuple([v for i, v in enumerate(marks) if i % WIDTH != WIDTH - 1])


def set_public(game: Game, open_piles: Sequence[int] | None, presses: Sequence[int] | None,
               limits: Sequence[int] | None) -> None:
    """A described position's open piles, counts and limits (each None: as dealt)."""
    if open_piles is not None:
        open_only(game, open_piles)
    for key, values in ((1, presses), (2, limits)):
        for pile, value in enumerate(values or ()):
            game._pile_marks[WIDTH * pile + key] = int(value)


def set_name(piles: Sequence[int]) -> str:
    """A set of piles as a table outcome's value: ``0+2`` (a scenario's ``[0, 2]``)."""
    return "+".join(str(p) for p in sorted(piles))


def nonempty_sets(piles: int) -> list[list[int]]:
    """Every non-empty set of the piles ``0..piles-1``, by size, then in order."""
    sets = [[p for p in range(piles) if mask >> p & 1] for mask in range(1, 1 << piles)]
    return sorted(sets, key=lambda s: (len(s), s))


@dataclass(slots=True)
class Press(Among):
    """The record of a ``press`` decision (what it is: ``WORDS["press"].what``): the open
    discard piles its seat may press (pile counters), the ones it chooses among."""

    kind: str = field(default="press", init=False, repr=False, compare=False)

    def options(self, g: Game) -> list[int]:
        assert self.seat is not None
        press = g._acts[self.seat].press
        return [press[p] for p in self.among]

    def answer(self, g: Any, action: Action) -> None:  # a Runner (decisions.py)
        assert self.ctx is not None
        g._note("press", self.seat, action.arg)
        press_on(g, int(action.arg), self.ctx)  # type: ignore[arg-type]
        g._run()


# ----------------------------------------------------------------------- run functions
def run_open_piles(game: Game, ctx: Ctx, step: Step) -> None:
    if game._pile_marks:
        open_only(game, step.args["piles"])


def press_on(game: Game, pile: int, ctx: Ctx) -> None:
    """A press of its own (not a play's): an overload runs the rulebook's overload steps."""
    if game._pile_marks and press(game, pile):
        overload = game.rulebook.overload
        if overload is not None:
            game._push(overload, ctx)


def run_press(game: Game, ctx: Ctx, step: Step) -> None:
    pile = step.args["pile"]
    if not game._pile_marks:
        return
    if pile == "chosen":  # its player chooses an open pile (a `press` decision)
        piles = public(game)[0]
        if piles:
            game.pending = Press(ctx.actor, ctx, piles)
        return
    press_on(game, ctx.pile if pile == "this" else int(pile), ctx)


def run_reset_pile(game: Game, ctx: Ctx, step: Step) -> None:
    pile = ctx.pile if step.args["pile"] == "this" else int(step.args["pile"])
    if game._pile_marks:
        game._note("reset_pile", pile)
        new_limit(game, pile)


def _pile_words(pile: Any) -> str:
    return "its pile" if pile == "this" else f"pile {pile}"


def say_open_piles(a: dict[str, Any], sub: Any) -> str:
    piles = a["piles"]
    if piles == "any":
        return "one of the non-empty sets of discard piles is opened, each as likely, the " \
            "others closed"
    if len(piles) == 1:
        return f"only discard pile {piles[0]} is open"
    return f"discard piles {', '.join(map(str, piles))} are open, the others closed"


def say_press(a: dict[str, Any], sub: Any) -> str:
    which = "an open pile of your choice" if a["pile"] == "chosen" else _pile_words(a["pile"])
    return f"you press {which} (its count goes up one; at its limit it " \
        "overloads)"


def say_reset_pile(a: dict[str, Any], sub: Any) -> str:
    return f"{_pile_words(a['pile'])}'s count returns to 0, with a new hidden limit"


PILE_SCHEMA = {"description": "A discard pile: `this` (the card's own, the default), its "
                              "number, or (for `press`) `chosen`: its player chooses an open "
                              "one (a `press` decision).",
               "anyOf": [{"enum": ["this", "chosen"]}, {"type": "integer", "minimum": 0}]}
OPEN_SCHEMA = {"description": "The open piles: a list of pile numbers, or `any` (a table "
                              "outcome: one of the non-empty sets of piles, each as likely; "
                              "its value is the set written `0+2`, a scenario's `[0, 2]`).",
               "anyOf": [{"const": "any"},
                         {"type": "array", "minItems": 1,
                          "items": {"type": "integer", "minimum": 0}}]}
