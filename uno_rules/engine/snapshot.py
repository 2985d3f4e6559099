"""Snapshots: the whole state as JSON-able data, and back.

A snapshot is read back only after every field has been checked against one declaration,
:data:`FIELDS` (what each value may be: type, range, length), then against the other fields
(what the engine could have reached and can continue from), and finally written out again:
the state restored must give back the very snapshot it came from. Every refusal is a
:class:`SnapshotError` naming the field.
"""

from __future__ import annotations

import hashlib
import reprlib
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any, TypeVar

from .actions import Action, Result
from .consistency import inconsistency
from .decisions import DATA, KINDS, Runner, ask_from_json
from .errors import NotationError, SnapshotError
from .fields import Field
from .model import DIGEST_SPARSE, NO_COLOR, Rules
from .notation import parse_whole_card
from .outcome import BUDGETS
from .records import CTX_SLOTS, Ctx, Frame, Giving, Resume, StackedDraw
from .state import SEED_LIMIT, STATE_FIELDS, State

S = TypeVar("S", bound=Runner)

FORMAT = 2  # 2: the rulebook's digest is recorded (a snapshot of format 1 has none)
MAX_TEXT = 200  # the longest string a snapshot field holds (a card or an action's notation)


def digest(rules: Rules) -> str:
    """A digest of everything the engine reads of a compiled rulebook (not where it was
    loaded from): two rulebooks with the same digest play alike."""
    memo = rules.memo.get("digest")
    if memo is None:
        kind, items = _canonical(rules)
        if rules.digested_as is not None:  # a variant's heading, digested as it was
            was = dict(zip(("title", "description"), rules.digested_as, strict=True))
            items = tuple((k, was.get(k, v)) for k, v in items)
        text = repr((kind, items)).encode()
        memo = rules.memo["digest"] = "sha256:" + hashlib.sha256(text).hexdigest()[:32]
    return str(memo)


# places, derived tables, and what the digest reads instead of a variant's own heading
_NOT_CONTENT = {"source", "memo", "color_ids", "where", "run", "digested_as"}


def _sparse(record: Any, name: str, value: Any) -> bool:
    """Whether field ``name`` of ``record`` holds its value of before it existed
    (model.DIGEST_SPARSE, by the class declaring it): then the digest leaves it out."""
    for cls in type(record).__mro__:
        key = (cls.__name__, name)
        if key in DIGEST_SPARSE:
            return bool(DIGEST_SPARSE[key] == value)
    return False


def _canonical(value: Any) -> Any:
    """``value`` as nested tuples of plain values, the same in every process."""
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple((f.name, _canonical(getattr(value, f.name)))
                                            for f in fields(value) if f.name not in _NOT_CONTENT
                                            and not _sparse(value, f.name,
                                                            getattr(value, f.name))))
    if isinstance(value, Mapping):
        return tuple(sorted((repr(k), _canonical(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(map(repr, value)))
    if isinstance(value, (list, tuple)):
        return tuple(map(_canonical, value))
    return value


def _declared(game: State) -> dict[str, Any]:
    """The fields a snapshot holds only for the rulebooks that declare them."""
    rb = game.rulebook
    return {**({"player_state": player_state_json(game)} if rb.player_state else {}),
            # open, presses, limit per discard pile: the referee's view (limits hidden)
            **({"pile_counters": list(game._pile_marks)} if rb.pile_limits else {})}


def _when_any(game: State) -> dict[str, Any]:
    """The seat lists a snapshot holds only when not empty (as before they existed)."""
    return {key: value[:] for key, value in (("absent", game.absent), ("owed", game._owed),
                                             ("played_piles", game._played_piles)) if value}


def snapshot(game: Runner) -> dict[str, Any]:
    """The state of ``game`` as JSON-able data (cards in notation, RNG state included)."""
    rb = game.rulebook
    names = [rb.card_name(c) for c in range(len(rb.cards))]
    ctxs: list[Any] = []

    def ctx_index(ctx: Any) -> int | None:
        if ctx is None:
            return None
        for i, c in enumerate(ctxs):
            if c is ctx:
                return i
        ctxs.append(ctx)
        return len(ctxs) - 1

    def pending_json(pending: Any) -> dict[str, Any] | None:
        if pending is None:
            return None
        return {"kind": pending.kind, "seat": pending.seat, "ctx": ctx_index(pending.ctx),
                "data": pending.data()}

    # A frame that resumes a pending decision is written [-1, 0, that decision].
    frames = [[f.program, f.pc, ctx_index(f.ctx)] if isinstance(f, Frame)
              else [-1, 0, pending_json(f.ask)] for f in game._stack]
    pending = pending_json(game.pending)
    current = ctx_index(game._ctx)
    st = game.stacked
    stacked = ctx_index(st.ctx)  # every ctx is indexed before "ctxs" is written
    version, internal, gauss = game._rng.getstate()
    stopped = game._stop_record()
    written = {
        "rulebook": rb.name,
        "digest": digest(rb),
        "source": str(rb.source),
        "house": list(rb.house),
        "set": dict(rb.overrides),
        **({"side": rb.sides[game.side]} if len(rb.sides) > 1 else {}),
        "hands": [[names[c] for c in h] for h in game.hands],
        "draw_pile": [names[c] for c in game.draw_pile],
        "discard": [names[c] for c in game.discard],
        **({"discards": [[names[c] for c in pile] for pile in game._discards],
            "colors": game._discard_colors(), "focus": game._focus}
           if rb.discard_piles > 1 else {}),
        "out": [names[c] for c in game._out],
        **({"piles": {name: [names[c] for c in pile]
                      for name, pile in zip(rb.piles, game._piles, strict=True)}}
           if rb.piles else {}),
        **_declared(game),
        "result": None if game.result is None else [list(game.result.winners), game.result.points],
        **({} if stopped is None else {"stalled": stopped}),
        **({"offer_unplayable": True} if game.offer_unplayable else {}),
        "stack_draw": [st.total, st.value, stacked, st.penalty],
        "giving": [{"queue": [list(q) for q in g.queue],
                    "aside": [[a, t, names[c]] for a, t, c in g.aside],
                    "together": g.together} for g in game.giving],
        "stack": frames,
        "ctxs": [c.to_json() for c in ctxs],
        "ctx": current,
        "pending": pending,
        "history": [str(a) for a in game.history],
        "rng": [version, list(internal), gauss],
        **_when_any(game),
    }
    for f in PLAIN:  # the fields a snapshot holds as they are
        value = getattr(game, f.name)
        written[f.snapshot] = value[:] if type(value) is list else value
    return {"format": FORMAT, **{key: written[key] for key in ORDER if key in written}}


# ------------------------------------------------------------------ the fields, declared once
class Env:
    """What the checks of one snapshot's fields learn as they go: the players, the side in
    play, how many card contexts there are."""

    def __init__(self, rulebook: Rules):
        self.rb = rulebook
        self.n = 0
        self.side = 0
        self.ctxs = 0
        self.cards: dict[str, int] = {}  # card notation read -> card id


Check = Callable[[Any, Env, str], Any]  # checks one value (at a field path), returns it read
Say = Callable[[Env], str]


def _show(value: Any) -> str:
    if type(value) is int and value.bit_length() > 256:  # repr refuses over 4,300 digits
        return f"a whole number of {value.bit_length():,} bits"
    text = reprlib.repr(value)  # bounded in depth and length, whatever it was given
    return text if len(text) <= 60 else text[:57] + "..."


def _refuse(at: str, what: str, value: Any, shown: str | None = None) -> SnapshotError:
    return SnapshotError(f"snapshot field {at!r}: expected {what}, got "
                         f"{_show(value) if shown is None else shown}")


def _int(what: Say, lo: Callable[[Env], int | None] = lambda e: 0,
         hi: Callable[[Env], int | None] = lambda e: None) -> Check:
    def check(value: Any, env: Env, at: str) -> int:
        low, high = lo(env), hi(env)
        if type(value) is not int or (low is not None and value < low) or \
                (high is not None and value > high):
            raise _refuse(at, what(env), value)  # bool is not int: type(True) is bool
        return value
    return check


def _bool(value: Any, env: Env, at: str) -> bool:
    if type(value) is not bool:
        raise _refuse(at, "true or false", value)
    return value


def _text(value: Any, env: Env, at: str) -> str:
    if type(value) is not str or len(value) > MAX_TEXT:
        raise _refuse(at, f"a string of at most {MAX_TEXT} characters", value)
    return value


def _path(value: Any, env: Env, at: str) -> str:
    if type(value) is not str or len(value) > 4096:
        raise _refuse(at, "a name or path", value)
    return value


def _nullable(check: Check) -> Check:
    def nullable(value: Any, env: Env, at: str) -> Any:
        return None if value is None else check(value, env, at)
    return nullable


def _one_of(values: Callable[[Env], list[Any]]) -> Check:
    def one_of(value: Any, env: Env, at: str) -> Any:
        allowed = values(env)
        if not any(type(value) is type(a) and value == a for a in allowed):
            raise _refuse(at, f"one of {', '.join(map(repr, allowed))}", value)
        return value
    return one_of


def _list(item: Check, length: Callable[[Env], int] | None = None, *, distinct: bool = False,
          least: int = 0) -> Check:
    def items(value: Any, env: Env, at: str) -> list[Any]:
        if type(value) is not list:
            raise _refuse(at, "a list", value)
        want = None if length is None else length(env)
        if want is not None and len(value) != want:
            raise _refuse(at, f"a list of {want}", value, f"{len(value)} items")
        if len(value) < least:
            raise _refuse(at, f"a list of at least {least}", value, f"{len(value)} items")
        out = [item(v, env, f"{at}[{i}]") for i, v in enumerate(value)]
        if distinct and len(set(out)) != len(out):
            raise _refuse(at, "no item twice", value)
        return out
    return items


def _row(*items: Check) -> Check:
    def row(value: Any, env: Env, at: str) -> list[Any]:
        if type(value) is not list or len(value) != len(items):
            raise _refuse(at, f"a list of {len(items)}", value)
        return [check(v, env, f"{at}[{i}]")
                for i, (check, v) in enumerate(zip(items, value, strict=True))]
    return row


def _queue_entry(value: Any, env: Env, at: str) -> list[Any]:
    """A giver still to choose: ``[seat, count or "half"]`` (to its partner) or with its
    recipient, ``[seat, count, seat]``."""
    def owed(v: Any, e: Env, a: str) -> Any:
        return v if v == "half" else COUNT(v, e, a)
    row = _row(SEAT, owed, SEAT) if type(value) is list and len(value) == 3 else \
        _row(SEAT, owed)
    entry: list[Any] = row(value, env, at)
    return entry


def _record(required: Mapping[str, Check], optional: Mapping[str, Check] | None = None) -> Check:
    optional = optional or {}

    def record(value: Any, env: Env, at: str) -> dict[str, Any]:
        if type(value) is not dict:
            raise _refuse(at, "a mapping", value)
        for key in value:
            if key not in required and key not in optional:
                raise SnapshotError(f"snapshot field {at!r}: unknown key {_show(key)}")
        out = {}
        for key, check in {**required, **optional}.items():
            if key in value:
                out[key] = check(value[key], env, f"{at}.{key}")
            elif key in required:
                raise SnapshotError(f"snapshot field {at}.{key} is missing")
        return out
    return record


def _card(value: Any, env: Env, at: str) -> int:
    card = env.cards.get(value) if type(value) is str else None
    if card is None:
        text = _text(value, env, at)
        try:
            card = env.cards[text] = parse_whole_card(env.rb, text)
        except NotationError as exc:
            raise SnapshotError(f"snapshot field {at!r}: {exc}") from None
    return card


def _scalars(value: Any, env: Env, at: str) -> dict[str, Any]:
    if type(value) is not dict or not all(
            type(k) is str and (v is None or type(v) in (str, int, float, bool))
            for k, v in value.items()):
        raise _refuse(at, "a mapping of setting names to plain values", value)
    return value


def _players(value: Any, env: Env, at: str) -> int:
    counts = env.rb.player_counts()
    if type(value) is not int or value not in counts:
        raise _refuse(at, f"a number of players for {env.rb.name} "
                      f"({env.rb.players_text()})", value)
    env.n = value
    return value


def _side(value: Any, env: Env, at: str) -> str:
    side = _one_of(lambda e: list(e.rb.sides))(value, env, at)
    env.side = env.rb.sides.index(side)
    return str(side)


def _colors(side_only: bool) -> Check:
    def color(value: Any, env: Env, at: str) -> int:
        rb = env.rb
        ids = rb.side_colors[env.side] if side_only else range(len(rb.colors))
        if type(value) is not int or (value != NO_COLOR and value not in ids):
            where = f"the {rb.sides[env.side]} side's" if side_only else "the rulebook's"
            raise _refuse(at, f"a colour id of {where} colours or {NO_COLOR} (none)", value)
        return value
    return color


SEAT = _int(lambda e: f"a seat 0-{e.n - 1}", hi=lambda e: e.n - 1)
SEAT_OR_NONE = _int(lambda e: f"a seat 0-{e.n - 1} or -1 (none)", lambda e: -1,
                    lambda e: e.n - 1)
COUNT = _int(lambda e: "a whole number >= 0")
CARD_ID = _int(lambda e: f"a card id 0-{len(e.rb.cards) - 1} or -1 (none)", lambda e: -1,
               lambda e: len(e.rb.cards) - 1)
PROGRAM = _int(lambda e: f"a program id 0-{len(e.rb.programs) - 1}",
               hi=lambda e: len(e.rb.programs) - 1)
CTX_INDEX = _int(lambda e: f"an index into ctxs 0-{e.ctxs - 1}", hi=lambda e: e.ctxs - 1)
COLOR = _colors(side_only=True)
CARDS = _list(_card)
SEATS = _list(SEAT, distinct=True)

# A card being resolved (a Ctx): its slots, each with what it may hold. `pile`, `called` and
# `call_due` are written only when set (the format of before they existed).
CTX_FIELDS: Mapping[str, Check] = {
    "actor": SEAT, "face": CARD_ID, "honest": _bool, "prev_color": _colors(side_only=False),
    "final": _bool, "target": SEAT_OR_NONE, "challenger": SEAT_OR_NONE, "loser": SEAT_OR_NONE,
    "drawn": CARD_ID}
CTX_OPTIONAL: Mapping[str, Check] = {
    "pile": _int(lambda e: f"a discard pile 0-{e.rb.discard_piles - 1}",
                 hi=lambda e: e.rb.discard_piles - 1),
    "called": _bool, "call_due": _bool}
assert set(CTX_FIELDS) | set(CTX_OPTIONAL) == set(CTX_SLOTS), "a Ctx slot undeclared"


def _ctxs(value: Any, env: Env, at: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = _list(_record(CTX_FIELDS, CTX_OPTIONAL))(value, env, at)
    env.ctxs = len(out)
    return out


# The words decisions.DATA describes a kind's snapshot data in (Ask.data), each what it may
# be on its own.
DATA_ATOMS: Mapping[str, Check] = {
    "card": CARD_ID, "seat": SEAT, "program": PROGRAM, "program_or_none": _nullable(PROGRAM),
    "seats": _list(SEAT, distinct=True, least=1),
    "seat_pair": _list(SEAT, lambda e: 2, distinct=True), "flag": _bool,
    # a table outcome's values, each [value, weight, program]
    "outcomes": _list(_row(_text, COUNT, PROGRAM), least=1),
    # the discard piles a `press` decision may press
    "piles": _list(_int(lambda e: f"a discard pile 0-{e.rb.discard_piles - 1}",
                        hi=lambda e: e.rb.discard_piles - 1), distinct=True, least=1)}
_NO_DATA = _one_of(lambda e: [None])


def _data_check(shape: str | tuple[str, ...] | None) -> Check:
    if shape is None:
        return _NO_DATA
    if isinstance(shape, str):
        return DATA_ATOMS[shape]
    return _row(*(DATA_ATOMS[word] for word in shape))


def pending_data(kind: str) -> Check:
    """The check of a ``kind`` decision's snapshot data, from its shape in decisions.DATA (a
    kind registered after import is checked too)."""
    return _data_check(DATA.get(kind))


def _pending(value: Any, env: Env, at: str) -> dict[str, Any]:
    out: dict[str, Any] = _record({"kind": _one_of(lambda e: list(KINDS)),
                                   "seat": _nullable(SEAT),  # None: a chance node (contest)
                                   "ctx": _nullable(CTX_INDEX), "data": lambda v, e, a: v}
                                  )(value, env, at)
    out["data"] = pending_data(out["kind"])(out["data"], env, f"{at}.data")
    return out


def _frame(value: Any, env: Env, at: str) -> list[Any]:
    """An effect frame: [program id, step, ctx index], or [-1, 0, a decision it resumes]."""
    pid, pc, held = _row(_int(lambda e: f"-1 or a program id 0-{len(e.rb.programs) - 1}",
                              lambda e: -1, lambda e: len(e.rb.programs) - 1),
                         COUNT, lambda v, e, a: v)(value, env, at)
    if pid < 0:
        if pc != 0 or held is None:
            raise _refuse(at, "[-1, 0, the decision it resumes]", value)
        return [pid, pc, _pending(held, env, f"{at}[2]")]
    if pc > len(env.rb.programs[pid]):
        raise _refuse(f"{at}[1]", f"a step 0-{len(env.rb.programs[pid])} of program {pid}", pc)
    return [pid, pc, CTX_INDEX(held, env, f"{at}[2]")]


def _float(value: Any, env: Env, at: str) -> float:
    if type(value) is not float:
        raise _refuse(at, "a float", value)
    return value


def _words(value: Any, env: Env, at: str) -> list[int]:
    """The Mersenne Twister's 624 words and its position (``random.getstate()[1]``)."""
    if type(value) is not list or len(value) != 625 or not all(
            type(w) is int and 0 <= w < 2**32 for w in value) or value[-1] > 624:
        raise _refuse(at, "624 numbers 0-4294967295 and a position 0-624", value,
                      f"{len(value)} items" if type(value) is list else None)
    return value


RNG = _row(_one_of(lambda e: [3]), _words, _nullable(_float))


def _action(value: Any, env: Env, at: str) -> Action:
    text = _text(value, env, at)
    try:
        return Action.parse(text)
    except (NotationError, ValueError) as exc:
        raise SnapshotError(f"snapshot field {at!r}: {exc}") from None


def _several_sides(rb: Rules) -> bool:
    return len(rb.sides) > 1


def _several_discards(rb: Rules) -> bool:
    return rb.discard_piles > 1


def _declared_piles(rb: Rules) -> bool:
    return bool(rb.piles)


def _always(rb: Rules) -> bool:
    return True


def _piles(value: Any, env: Env, at: str) -> Any:
    return _record({name: CARDS for name in env.rb.piles})(value, env, at)


def _declared_state(rb: Rules) -> bool:
    return bool(rb.player_state)


def _pile_counters(rb: Rules) -> bool:
    return bool(rb.pile_limits)


def _player_state(value: Any, env: Env, at: str) -> Any:
    """Each declared key: one of its values per seat."""
    return _record({name: _list(_values(values), lambda e: e.n)
                    for name, values, _ in env.rb.player_state})(value, env, at)


def _values(values: tuple[str, ...]) -> Check:
    """One of ``values``."""
    return _one_of(lambda e: list(values))


def player_state_json(game: State) -> dict[str, list[str]]:
    """The per-player state by key, a value's name per seat (snapshots, scenarios, views)."""
    declared = game.rulebook.player_state
    n = len(declared)
    return {name: [values[game._marks[s * n + k]] for s in range(game.players)]
            for k, (name, values, _) in enumerate(declared)}


def marks_from_json(rb: Rules, value: Mapping[str, list[str]]) -> list[int]:
    """:func:`player_state_json`'s inverse: the flat ``State._marks``."""
    declared = rb.player_state
    players = len(next(iter(value.values()))) if value else 0
    return [values.index(value[name][s]) for s in range(players)
            for name, values, _ in declared]


# Every field of a snapshot, in the order they are checked (each may rely on those before
# it: the players, the side, the ctxs), with what it may hold and when it is present.
FIELDS: tuple[tuple[str, Check, Callable[[Rules], bool]], ...] = (
    ("rulebook", _text, _always),
    ("source", _path, _always),
    ("house", _list(_path), _always),
    ("set", _scalars, _always),
    ("digest", _text, _always),
    ("players", _players, _always),
    ("seed", _nullable(_int(lambda e: "a whole number with abs(seed) < 2**256, or null",
                            lambda e: 1 - SEED_LIMIT, lambda e: SEED_LIMIT - 1)), _always),
    ("dealer", SEAT, _always),
    ("side", _side, _several_sides),
    ("hands", _list(CARDS, lambda e: e.n), _always),
    ("draw_pile", CARDS, _always),
    ("discard", CARDS, _always),
    ("discards", _list(CARDS, lambda e: e.rb.discard_piles), _several_discards),
    ("colors", _list(COLOR, lambda e: e.rb.discard_piles), _several_discards),
    ("focus", _int(lambda e: f"a discard pile 0-{e.rb.discard_piles - 1}",
                   hi=lambda e: e.rb.discard_piles - 1), _several_discards),
    ("out", CARDS, _always),
    ("piles", _piles, _declared_piles),
    ("player_state", _player_state, _declared_state),
    ("pile_counters", _list(COUNT, lambda e: 3 * e.rb.discard_piles), _pile_counters),
    ("color", COLOR, _always),
    ("direction", _one_of(lambda e: [1, -1]), _always),
    ("skips", _list(SEAT), _always),
    ("turn_to", _nullable(SEAT), _always),
    ("uno_open", SEAT_OR_NONE, _always),
    ("turns", COUNT, _always),
    ("first_turns", COUNT, _always),
    ("over", _bool, _always),
    ("result", _nullable(_row(_list(SEAT, distinct=True, least=1), COUNT)), _always),
    # optional: written only for a round stopped by its budget (Game.stalled), which has no
    # result; the budget's size too, so that it says why as it did (Game.stalled_reason)
    ("stalled", _record({"budget": _one_of(lambda e: [b.value for b in BUDGETS]),
                         "limit": _int(lambda e: "a whole number >= 1", lambda e: 1)}), _always),
    ("out_seats", SEATS, _always),
    ("eliminated", SEATS, _always),
    ("absent", SEATS, _always),  # optional: written only when not empty (OPTIONAL)
    ("owed", SEATS, _always),  # optional, as absent
    ("played_piles", _list(_int(lambda e: f"a discard pile 0-{e.rb.discard_piles - 1}, or -1",
                                lo=lambda e: -1, hi=lambda e: e.rb.discard_piles - 1)),
     _always),  # optional, as absent
    ("offer_unplayable", _bool, _always),  # optional: written only when true
    ("ctxs", _ctxs, _always),
    ("stack_draw", _row(COUNT, COUNT, _nullable(CTX_INDEX), _nullable(COUNT)), _always),
    ("giving", _list(_record({
        "queue": _list(_queue_entry),
        "aside": _list(_row(SEAT, SEAT, _card)), "together": _bool})), _always),
    ("stack", _list(_frame), _always),
    ("ctx", CTX_INDEX, _always),
    ("pending", _nullable(_pending), _always),
    ("history", _list(_action), _always),
    ("rng", RNG, _always),
)


# The snapshot fields that tell the rulebook or hold the card contexts, not a State field.
NOT_STATE = ("source", "house", "set", "digest", "ctxs")
# The snapshot fields a Game's own fields are written under (game.GAME_FIELDS, checked there).
GAME_ONLY = ("stalled",)
# may be left out: then this
OPTIONAL: dict[str, Callable[[], Any]] = {"absent": list, "owed": list, "played_piles": list,
                                          "stalled": lambda: None,
                                          "offer_unplayable": lambda: False}
PLAIN = tuple(f for f in STATE_FIELDS if f.plain)
# The order a snapshot is written in (the order of before State's field list, kept so that
# printed snapshots read as before); FIELDS is the order they are checked in.
ORDER = ("rulebook", "digest", "source", "house", "set", "players", "seed", "dealer", "side",
         "hands", "draw_pile", "discard", "discards", "colors", "focus", "out", "piles",
         "player_state", "pile_counters", "color", "direction", "skips", "turn_to", "uno_open",
         "turns", "first_turns", "over", "result", "stalled", "out_seats", "eliminated",
         "absent", "owed", "played_piles", "offer_unplayable", "stack_draw", "giving", "stack",
         "ctxs", "ctx", "pending", "history", "rng")


def state_field_problems(declared: tuple[Field, ...] = STATE_FIELDS,
                         elsewhere: tuple[str, ...] = GAME_ONLY) -> list[str]:
    """How State's declared fields (state.STATE_FIELDS, or a subclass's FIELDS) and the
    snapshot's (FIELDS) fail to match: each field is written under a snapshot field or
    marked not written, with why; each snapshot field is one of theirs, one of NOT_STATE or
    one of ``elsewhere`` (a subclass's). (Checked at import: State's here, Game's there.)"""
    keys = [key for key, _, _ in FIELDS]
    mine = [f.snapshot for f in declared if f.snapshot]
    return ([f"State.{f.name}: not in snapshots, and not marked why"
             for f in declared if not f.snapshot and not f.why] +
            [f"State.{f.name}: snapshot field {f.snapshot!r} is not declared in FIELDS"
             for f in declared if f.snapshot and f.snapshot not in keys] +
            [f"snapshot field {key!r}: no State field is written there"
             for key in keys if key not in mine and key not in NOT_STATE + elsewhere] +
            [f"snapshot field {key!r}: not in the order written" for key in keys
             if key not in ORDER] +
            [f"snapshot field {key!r}: written by two State fields"
             for key in set(mine) if mine.count(key) > 1])


assert not state_field_problems(), state_field_problems()


# ------------------------------------------------------------------ restoring
def restore(blank: Callable[[int, int | None, int], S], rulebook: Rules,
            data: Mapping[str, Any]) -> S:
    """Rebuild a game from :func:`snapshot` output into ``blank(players, seed, dealer)``, a
    state with nothing dealt. Raises :class:`SnapshotError` naming the field unless the
    snapshot is one the engine could have written for this rulebook (the same rules, house
    rules and settings) at a point it can continue from."""
    if not isinstance(data, Mapping):
        raise SnapshotError(f"a snapshot is a mapping, not {type(data).__name__}")
    try:
        return _restore(blank, rulebook, data)
    except RecursionError:
        raise SnapshotError("malformed snapshot: nested too deeply") from None


def rules_of(data: Mapping[str, Any]) -> tuple[str, list[str], dict[str, Any]]:
    """The rulebook a snapshot says it was made under: its source (or name), house rules
    and settings, each checked as :data:`FIELDS` declares (for :func:`uno_rules.restore`,
    which trusts them)."""
    if not isinstance(data, Mapping):
        raise SnapshotError(f"a snapshot is a mapping, not {type(data).__name__}")
    _format(data)
    checks = {key: check for key, check, _ in FIELDS}
    env = Env(None)  # type: ignore[arg-type]  # these fields don't depend on the rulebook
    got = {}
    for key in ("rulebook", "source", "house", "set"):
        if key not in data:
            raise SnapshotError(f"snapshot field {key!r} is missing")
        got[key] = checks[key](data[key], env, key)
    return got["source"] or got["rulebook"], got["house"], got["set"]


def _format(data: Mapping[str, Any]) -> None:
    if data.get("format") != FORMAT or type(data.get("format")) is not int:
        raise SnapshotError(f"snapshot field 'format': unsupported snapshot format "
                            f"{_show(data.get('format'))} (this version reads format {FORMAT})")


def _seatless_contests(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """``data`` with a pending contest written before contests were chance nodes (its seat
    the card's player, who is its first contestant) written as now: no seat."""
    def old(p: Any) -> bool:
        return type(p) is dict and p.get("kind") == "contest" and type(p.get("seat")) is int \
            and type(p.get("data")) is list and p["data"][:1] == [p["seat"]]

    stack = data.get("stack")
    held = [f for f in stack if type(f) is list and len(f) == 3 and f[0] == -1 and old(f[2])] \
        if type(stack) is list else []
    if not old(data.get("pending")) and not held:
        return data
    new = dict(data)
    if old(data["pending"]):
        new["pending"] = {**data["pending"], "seat": None}
    if held:
        new["stack"] = [[f[0], f[1], {**f[2], "seat": None}] if any(f is h for h in held) else f
                        for f in data["stack"]]
    return new


def _restore(blank: Callable[[int, int | None, int], S], rulebook: Rules,
             data: Mapping[str, Any]) -> S:
    _format(data)
    data = _seatless_contests(data)
    env = Env(rulebook)
    declared = {key for key, _, present in FIELDS if present(rulebook)} | {"format"}
    for key in data:
        if key not in declared:
            raise SnapshotError(f"snapshot field {_show(key)}: not a field of a snapshot "
                                f"of {rulebook.name}")
    v: dict[str, Any] = {}
    for key, check, present in FIELDS:
        if present(rulebook):
            if key not in data and key not in OPTIONAL:
                raise SnapshotError(f"snapshot field {key!r} is missing")
            v[key] = check(data[key], env, key) if key in data else OPTIONAL[key]()
        if key == "digest":
            _same_rules(rulebook, v)
    game = _build(blank, rulebook, v)
    problem = inconsistency(game, v)
    if problem:
        raise SnapshotError(f"snapshot field {problem[0]!r}: {problem[1]}")
    again = snapshot(game)  # the state restored must be the one the snapshot describes
    for key, value in again.items():  # (but the rules may come from another place)
        if key != "source" and value != data[key]:
            raise SnapshotError(f"snapshot field {key!r}: not what the engine writes for the "
                                f"state the snapshot describes (an item unused, repeated or "
                                f"out of place)")
    return game


def _same_rules(rulebook: Rules, v: Mapping[str, Any]) -> None:
    """Refuse a snapshot made under another rulebook, house rules or settings."""
    if v["rulebook"] != rulebook.name:
        raise SnapshotError(f"snapshot field 'rulebook': the snapshot is of rulebook "
                            f"{v['rulebook']!r}, not {rulebook.name!r}")
    differ = [f"house rules {v['house']} (this rulebook: {list(rulebook.house)})"
              if v["house"] != list(rulebook.house) else "",
              f"settings {v['set']} (this rulebook: {dict(rulebook.overrides)})"
              if v["set"] != dict(rulebook.overrides) else ""]
    if any(differ):
        raise SnapshotError(f"snapshot fields 'house'/'set': the snapshot was made under "
                            f"{' and '.join(d for d in differ if d)}: load the rulebook "
                            "with those (uno_rules.restore does)")
    if v["digest"] != digest(rulebook):
        raise SnapshotError(f"snapshot field 'digest': the snapshot was made under other rules "
                            f"than this {rulebook.name!r} (the same name, house rules and "
                            "settings, but another file or version of it)")


def _build(blank: Callable[[int, int | None, int], S], rb: Rules, v: Mapping[str, Any]) -> S:
    """The state the checked fields describe."""
    game = blank(v["players"], v["seed"], v["dealer"])
    if len(rb.sides) > 1:
        game._turn_side(rb.sides.index(v["side"]))
    if rb.discard_piles > 1:
        discards, colors, focus = v["discards"], v["colors"], v["focus"]
        discards[focus] = v["discard"]
    else:
        discards, colors, focus = [v["discard"]], [v["color"]], 0
    piles = [v["piles"][name] for name in rb.piles] if rb.piles else None
    game._lay_out(v["hands"], v["draw_pile"], discards, colors, focus=focus, out=v["out"],
                 piles=piles)
    if rb.player_state:
        game._marks = marks_from_json(rb, v["player_state"])
    if rb.pile_limits:
        game._pile_marks = list(v["pile_counters"])
    for f in PLAIN:  # (players, seed and dealer made the blank state already)
        setattr(game, f.name, v[f.snapshot])
    if v["result"] is not None:
        game.result = Result(tuple(v["result"][0]), v["result"][1])
    if v["stalled"] is not None:
        game._stop(v["stalled"]["budget"], v["stalled"]["limit"])
    game.offer_unplayable = v["offer_unplayable"]
    ctxs = [Ctx.from_json(c) for c in v["ctxs"]]

    def pending(p: Any) -> Any:
        return None if p is None else ask_from_json(
            p["kind"], p["seat"], None if p["ctx"] is None else ctxs[p["ctx"]], p["data"])

    game._stack = [Resume(pending(f[2])) if f[0] < 0 else Frame(f[0], f[1], ctxs[f[2]])
                  for f in v["stack"]]
    game._ctx = ctxs[v["ctx"]]
    game.pending = pending(v["pending"])
    total, value, sctx, penalty = v["stack_draw"]
    game.stacked = StackedDraw(total, value, None if sctx is None else ctxs[sctx], penalty)
    game.giving = [Giving(g["queue"], g["aside"], g["together"]) for g in v["giving"]]
    game.history = v["history"]
    game.absent = v["absent"]
    game._owed = v["owed"]
    game._played_piles = v["played_piles"]
    version, internal, gauss = v["rng"]
    try:
        game._rng.setstate((version, tuple(internal), gauss))
    except (ValueError, TypeError, OverflowError) as exc:
        raise SnapshotError(f"snapshot field 'rng': not a random generator's state ({exc})"
                            ) from None
    return game
