"""How a round's state declares its fields (:data:`uno_rules.engine.state.STATE_FIELDS`):
each field's name, how a clone copies it, and the snapshot field it is written under."""

from __future__ import annotations

from typing import NamedTuple


def field_names(cls: type) -> tuple[str, ...]:
    """The attributes of a slotted class, inherited ones too: its classes' ``__slots__``, or
    when compiled with mypyc (which leaves no ``__slots__``) its ``__mypyc_attrs__``."""
    names: tuple[str, ...] | None = getattr(cls, "__mypyc_attrs__", None)
    if names is None:
        names = tuple(name for c in cls.__mro__ for name in getattr(c, "__slots__", ()))
    return names


# How a clone copies a field (Field.copy).
SHARED = "shared"    # immutable (or never changed in place): the clone shares it
LIST = "list"        # a list of immutable items: a shallow copy
LISTS = "lists"      # a list of lists: each copied
RNG = "rng"          # the random generator: a new one in the same state
RECORDS = "records"  # holds card contexts (Ctx) or records: copied by State._copy_records
ALIAS = "alias"      # another field's item (discard is discards[focus]): pointed at again
REBUILT = "rebuilt"  # made from the rulebook by derive(): shared, never pickled or written

NOT_WRITTEN = ""     # Field.snapshot of a field no snapshot holds (Field.why says why)


class Field(NamedTuple):
    """One field of a State: its name, how a clone copies it, and the snapshot field it is
    written under (checked and read back there: uno_rules.engine.snapshot.FIELDS), or
    NOT_WRITTEN and why. ``plain``: the snapshot holds the value itself (numbers, lists of
    numbers), so writing and reading it needs no code of its own."""

    name: str
    copy: str
    snapshot: str = NOT_WRITTEN
    plain: bool = False
    why: str = ""


def _plain(name: str, copy: str = SHARED) -> Field:
    return Field(name, copy, name, True)


def _derived(name: str) -> Field:
    return Field(name, REBUILT, why="made from the rulebook (derive)")


# The fields State._copy_records copies (kept in step with it by an assert there).
RECORD_FIELDS = ("_stack", "_ctx", "pending", "giving", "stacked")


def _clone_plan(fields: tuple[Field, ...]) -> tuple[tuple[str, ...], ...]:
    """The names of ``fields`` a clone shares, copies as lists, copies as lists of lists."""
    kinds = {f.copy for f in fields}
    assert kinds <= {SHARED, LIST, LISTS, RNG, RECORDS, ALIAS, REBUILT}, kinds
    assert {f.name for f in fields if f.copy == RECORDS} == set(RECORD_FIELDS), \
        "a record field State._copy_records does not copy"
    return tuple(tuple(f.name for f in fields if f.copy in want)
                 for want in ((SHARED, REBUILT), (LIST,), (LISTS,)))
