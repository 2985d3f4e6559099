"""The records a round's state holds besides its piles: a card being resolved (:class:`Ctx`),
a pending decision (:class:`Ask`), the steps being run (:class:`Frame`), a decision to take
up again (:class:`Resume`), cards being given (:class:`Giving`) and the stacked draw
(:class:`StackedDraw`). :class:`uno_rules.engine.state.State` copies them for a clone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, final

from .actions import Action
from .model import NO_COLOR

# The slots of a Ctx, named here so that code can list them: a class compiled with mypyc
# has no ``__slots__`` to read back.
CTX_SLOTS = ("actor", "face", "honest", "prev_color", "final", "target", "challenger",
             "loser", "drawn", "pile", "called", "call_due")
# Slots a snapshot may leave out (written only when set), with their value then.
CTX_ABSENT: Mapping[str, Any] = {"pile": 0, "called": False, "call_due": False}


class Ctx:
    """The context of one card being resolved: who played it and what was decided."""

    __slots__ = CTX_SLOTS

    def __init__(self, actor: int, face: int = -1, honest: bool = True,
                 prev_color: int = NO_COLOR, final: bool = False, pile: int = 0,
                 called: bool = False):
        self.actor = actor
        self.face = face
        self.honest = honest
        self.prev_color = prev_color
        self.final = final          # the card ended the round: only at-end steps run
        self.target = self.challenger = self.loser = -1
        self.drawn = -1             # the card the draw step drew last
        self.pile = pile            # the discard pile it was played on
        self.called = called        # its player called UNO with it
        # Its play left the call's hand size, uncalled; the call is judged once the play is
        # resolved (pile counters: after its overload, as going out is).
        self.call_due = False

    def to_json(self) -> dict[str, Any]:
        data = {k: getattr(self, k) for k in CTX_SLOTS}
        for k in CTX_ABSENT:
            if not data[k]:
                del data[k]         # the format of before, where these did not exist
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ctx:
        ctx = cls(0)
        for k in CTX_SLOTS:
            # The absent defaults are typed (a compiled Ctx refuses 0 for a bool).
            setattr(ctx, k, data.get(k, CTX_ABSENT[k]) if k in CTX_ABSENT else data[k])
        return ctx

    # Slot by slot, not with copy.copy or the default pickle: a class compiled with mypyc
    # has no __slots__ for them to read, and its __new__ runs __init__.
    def copy(self) -> Ctx:
        new = Ctx(self.actor)
        for k in CTX_SLOTS:
            setattr(new, k, getattr(self, k))
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        return (Ctx, (self.actor,), {k: getattr(self, k) for k in CTX_SLOTS})

    def __setstate__(self, data: Mapping[str, Any]) -> None:
        for k, value in data.items():
            setattr(self, k, value)


@dataclass(slots=True)
class Ask:
    """A pending decision: who decides (``seat``), about which card being resolved
    (``ctx``). Each kind is a subclass in :mod:`uno_rules.engine.decisions` that owns its options
    and how an answer resumes the round. A record is never changed once made: clones of a
    game share it."""

    # Each kind's name: a field outside __init__, repr and ==, not a ClassVar, since a
    # dataclass compiled with mypyc is handed ``kind: str`` and would make it a field anyway.
    kind: str = field(default="", init=False, repr=False, compare=False)
    seat: int | None
    ctx: Ctx | None = None

    def options(self, g: Any) -> Sequence[int]:
        """The options, as ids of the game size's action table (``tables.action_table``)."""
        raise NotImplementedError

    def answer(self, g: Any, action: Action) -> None:
        raise NotImplementedError

    def chance_weights(self) -> tuple[int, ...]:
        """A chance node's declared weights, aligned with its options (empty: all equal)."""
        return ()

    def data(self) -> Any:
        """The kind's own data, as JSON (for snapshots)."""
        return None

    @classmethod
    def data_fields(cls, data: Any) -> dict[str, Any]:
        """The fields :meth:`data` stands for (the inverse, for restoring)."""
        return {}


@dataclass(slots=True)
class Among(Ask):
    """A decision among the numbers its record lists (seats, piles): its data is that list."""

    among: tuple[int, ...] = ()

    def data(self) -> Any:
        return list(self.among)

    @classmethod
    def data_fields(cls, data: Any) -> dict[str, Any]:
        return {"among": tuple(data)}


@dataclass(slots=True)
class OneDatum(Ask):
    """A decision whose snapshot data is its record's one field of its own, the last (the
    card drawn, a yes or no), read back as the type of that field's default."""

    def data(self) -> Any:
        return getattr(self, fields(self)[-1].name)

    @classmethod
    def data_fields(cls, data: Any) -> dict[str, Any]:
        own = fields(cls)[-1]
        default: Any = own.default
        return {own.name: type(default)(data)}


class Frame:
    """Steps being run: step ``pc`` of program ``program`` comes next, for the card ``ctx``."""

    __slots__ = ("program", "pc", "ctx")

    def __init__(self, program: int, pc: int, ctx: Ctx):
        self.program = program
        self.pc = pc
        self.ctx = ctx

    # Made from its fields, not by the default pickle (see Ctx.copy).
    def __reduce__(self) -> tuple[Any, ...]:
        return (Frame, (self.program, self.pc, self.ctx))


@final
class Resume:
    """Below the steps of an out-of-turn action (a catch's penalty draw and what follows
    it): the decision ``ask`` that was pending, taken up again when they are done."""

    __slots__ = ("ask",)

    def __init__(self, ask: Ask):
        self.ask = ask

    def __reduce__(self) -> tuple[Any, ...]:
        return (Resume, (self.ask,))


class Giving:
    """Cards being chosen to give (``give_cards``): ``queue`` the givers still to choose,
    each ``[seat, count owed]`` (a number, or ``"half"`` until its first card), first in
    line first; ``aside`` the cards chosen but not yet received (``together``: every card is
    chosen before any is received), each ``[giver, to, card]``."""

    __slots__ = ("queue", "aside", "together")

    def __init__(self, queue: list[list[Any]], aside: list[list[int]], together: bool):
        self.queue = queue
        self.aside = aside
        self.together = together

    def copy(self) -> Giving:
        return Giving([q[:] for q in self.queue], [a[:] for a in self.aside], self.together)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Giving, (self.queue, self.aside, self.together))


class StackedDraw:
    """The stacked draw (``stack_draw``): ``total`` cards pending (0: none), ``value`` the
    last card stacked was worth, ``ctx`` that card (for a challenge), ``penalty`` its
    challenge penalty. Once drawn, the total is 0 and the rest stays as it was (snapshots
    have always shown it so)."""

    __slots__ = ("total", "value", "ctx", "penalty")

    def __init__(self, total: int = 0, value: int = 0, ctx: Ctx | None = None,
                 penalty: int | None = None):
        self.total = total
        self.value = value
        self.ctx = ctx
        self.penalty = penalty

    def __reduce__(self) -> tuple[Any, ...]:
        return (StackedDraw, (self.total, self.value, self.ctx, self.penalty))
