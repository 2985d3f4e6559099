"""One seat's view: what a seat may know of a round, as one frozen record (:class:`SeatView`),
and the one rule that hides another seat's given card (:func:`hides`).

The forms of a seat's view derive from these: ``Game.view``'s dict (:func:`view_dict`), the
agents' :class:`~uno_rules.play.agents.Observation`, the RL observer's vectors
(:mod:`uno_rules.rl.observation`, every env step: the record is made in one call, its
fields as tuples of ints), OpenSpiel's strings, the table's screens and replays.
A card is named by its face id (``rulebook.faces``) on the side where the seat sees it: the
engine's card numbers would tell both sides of a card, and one of them is hidden.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from .actions import Action, Result
from .model import NO_COLOR, Rules
from .pilecounters import public_counts
from .state import State


class SeatView(NamedTuple):
    """What ``seat`` may know now (plain, immutable data: no game inside). Per-seat tuples
    are in seat-number order; a pile's top is a face id, -1 when the pile is empty."""

    seat: int
    players: int
    side: int                         # the side in play (rulebook.sides; 0 with one side)
    hand: tuple[int, ...]             # its cards' faces on the side in play, in hand order
    hand_sizes: tuple[int, ...]
    tops: tuple[int, ...]             # per discard pile
    colors: tuple[int, ...]           # per discard pile: the colour in force or NO_COLOR
    discard_sizes: tuple[int, ...]
    focus: int                        # the discard pile in play
    direction: int                    # 1 clockwise, -1 counterclockwise
    draw_pile_size: int
    pile_sizes: tuple[int, ...]       # the declared piles (rulebook.piles)
    stacked_draw: int                 # the pending stacked draw's total
    uno_open: int                     # the seat open to an UNO catch, -1 none
    out: tuple[int, ...]              # went out, their team playing on (sorted)
    knocked_out: tuple[int, ...]      # out of the round (sorted)
    absent: tuple[int, ...]           # out of the match (sorted)
    kind: str | None                  # the pending decision's kind, None when none is
    decider: int | None               # its seat, None for a chance node (a contest)
    options: tuple[int, ...] | None   # its option ids (rulebook.action_table(players)) when
    #                                   the seat's own or a chance node's, else None
    over: bool
    result: Result | None
    backs: tuple[tuple[int, ...] | None, ...]  # two sides: the others' cards turned away
    draw_back: int                    # two sides: the draw pile top's face turned away
    owed: tuple[int, ...] = ()        # left at one card by another's card: UNO owed, open
    #                                   to a catch until called (uno_after_others)
    marks: tuple[int, ...] = ()       # per-player state, public (State._marks: seat by seat,
    #                                   each key's value index; rulebook.player_state)
    pile_counts: tuple[int, ...] = ()  # pile counters, public: open (1/0) and presses per
    #                                   discard pile (never the hidden limits)


def hides(kind: str, actor: int | None, seat: int | None) -> bool:
    """The give-hiding rule, the one place it is written: ``seat`` (None: every hand open)
    doesn't see the card of an action or event of ``kind`` by ``actor`` when it is another
    seat's ``give`` (the receiver finds it in its hand; cards given together are chosen
    before any is received)."""
    return seat is not None and kind == "give" and actor != seat


def seen(action: Action, seat: int | None) -> Action:
    """``action`` as ``seat`` saw it: a hidden given card's ``arg`` None."""
    return action._replace(arg=None) if hides(action.kind, action.seat, seat) else action


def seen_actions(history: Iterable[Action], seat: int | None) -> list[Action]:
    """The actions of ``history`` as ``seat`` saw them (:func:`seen`)."""
    return [action._replace(arg=None) if hides(action.kind, action.seat, seat) else action
            for action in history]


def seat_view(game: State, seat: int, options: tuple[int, ...] | None) -> SeatView:
    """``seat``'s view of ``game`` (a seat of it), with the pending decision's ``options``
    when it may see them (``Game.seat_view`` says when)."""
    # Comprehensions over typed lists (native loops when compiled), face ids from a table.
    rules, side = game.rulebook, game.side
    face_ids = rules.memo.get("face_ids")  # a call less than _face_ids(rules), once made
    if face_ids is None:
        face_ids = _face_ids(rules)
    face = face_ids[side]
    hands, discards, draw = game.hands, game._discards, game.draw_pile
    backs: tuple[tuple[int, ...] | None, ...] = ()
    draw_back = -1
    sides = len(rules.sides)
    if sides > 1:  # the side turned away from the table: seen by everyone else
        back = face_ids[(side + 1) % sides]
        backs = tuple([None if s == seat else tuple([back[c] for c in h])
                       for s, h in enumerate(hands)])
        if draw:
            draw_back = back[draw[-1]]
    if len(discards) == 1:  # the common table: one pile, its colour the one in force
        pile = discards[0]
        tops: tuple[int, ...] = (face[pile[-1]] if pile else -1,)
        colors: tuple[int, ...] = (game.color,)
        sizes: tuple[int, ...] = (len(pile),)
    else:
        tops = tuple([face[p[-1]] if p else -1 for p in discards])
        colors = tuple(game._discard_colors())
        sizes = tuple(map(len, discards))
    piles = game._piles
    out, knocked, absent = game._out_seats, game.eliminated, game.absent
    pending = game.pending
    kind: str | None = None
    decider: int | None = None
    if pending is not None:
        kind, decider = pending.kind, pending.seat
    # tuple.__new__: without the named tuple's Python-level __new__ (its 22 arguments)
    return tuple.__new__(SeatView, (
        seat, game.players, side, tuple([face[c] for c in hands[seat]]),
        tuple([len(h) for h in hands]), tops, colors, sizes, game._focus, game.direction, len(draw),
        tuple(map(len, piles)) if piles else (), game.stacked.total,
        game._uno_open, tuple(sorted(out)) if out else (),
        tuple(sorted(knocked)) if knocked else (), tuple(sorted(absent)) if absent else (),
        kind, decider, options, game.over, game.result, backs, draw_back,
        tuple(game._owed) if game._owed else (),
        tuple(game._marks) if game._marks else (),
        public_counts(game._pile_marks) if game._pile_marks else ()))


def _face_ids(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Per side, each card's face id there (cached in the rulebook's memo, as its tables
    are: a string key, its hash kept)."""
    got: tuple[tuple[int, ...], ...] | None = rules.memo.get("face_ids")
    if got is None:
        got = rules.memo["face_ids"] = tuple(tuple(f.id for f in side)
                                             for side in rules.side_faces)
    return got


def view_dict(view: SeatView, rules: Rules, table: Sequence[Action]) -> dict[str, Any]:
    """``view`` as ``Game.view``'s JSON-able dict (docs/api.md): card and colour names;
    ``table``: ``rulebook.action_table(players)``, the options' actions."""
    faces, colors = rules.faces, rules.colors
    sides = rules.sides
    seat, options = view.seat, view.options
    color = view.colors[view.focus]
    other = None
    if len(sides) > 1:
        other = {"side": sides[(view.side + 1) % len(sides)],
                 "hands": [None if h is None else sorted(faces[f].name for f in h)
                           for h in view.backs],
                 "draw_pile_top": faces[view.draw_back].name if view.draw_back >= 0 else None}
    return {
        "seat": seat,
        **({} if other is None else {"side": sides[view.side]}),
        "hand": sorted(faces[f].name for f in view.hand),
        "hand_sizes": list(view.hand_sizes),
        "top": _name(rules, view.tops[view.focus]),
        "color": None if color == NO_COLOR else colors[color],
        "direction": "clockwise" if view.direction == 1 else "counterclockwise",
        "draw_pile_size": view.draw_pile_size,
        "discard_size": view.discard_sizes[view.focus],
        **({"discards": [{"top": _name(rules, t), "color": None if c == NO_COLOR else colors[c],
                          "size": n}
                         for t, c, n in zip(view.tops, view.colors, view.discard_sizes,
                                            strict=True)]}
           if rules.discard_piles > 1 else {}),
        **({"open_piles": [p for p, f in enumerate(view.pile_counts[::2]) if f],
            "presses": list(view.pile_counts[1::2])}
           if view.pile_counts else {}),
        **({"piles": dict(zip(rules.piles, view.pile_sizes, strict=True))}
           if rules.piles else {}),
        "stacked_draw": view.stacked_draw,  # cards a stacked draw makes the next draw
        "uno_open": None if view.uno_open < 0 else view.uno_open,  # may be caught now
        **({"owed": list(view.owed)} if view.owed else {}),  # may be caught too, or call
        **({"player_state": _player_state(view, rules)} if rules.player_state else {}),
        **({"team_by_seat": [s % (view.players // rules.team_size)
                             for s in range(view.players)]}
           if rules.team_size > 1 else {}),
        "out": list(view.out),
        "knocked_out": list(view.knocked_out),
        "absent": list(view.absent),
        "decision": None if view.kind is None else {
            "seat": view.decider, "kind": view.kind,
            "options": None if options is None else [str(table[i]) for i in options]},
        "over": view.over,
        "result": None if view.result is None else view.result._asdict(),
        **({} if other is None else {"other_side": other}),
    }


def _player_state(view: SeatView, rules: Rules) -> dict[str, list[str]]:
    """Each per-player state key's value's name, seat by seat."""
    n = len(rules.player_state)
    return {name: [values[view.marks[s * n + k]] for s in range(view.players)]
            for k, (name, values, _) in enumerate(rules.player_state)}


def _name(rules: Rules, face: int) -> str | None:
    return rules.faces[face].name if face >= 0 else None


__all__ = ["SeatView", "hides", "seat_view", "seen", "seen_actions", "view_dict"]
