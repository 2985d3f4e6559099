"""Observations: what one seat sees of a round, as a fixed-length vector of small integers.

An :class:`Observer` is made for one rulebook and player count; its :meth:`~Observer.encode`
(a list of ints) and :meth:`~Observer.array` (a NumPy ``uint8`` array) are made from the
seat's one record of what it may know, ``game.seat_view(seat)``
(:class:`~uno_rules.engine.view.SeatView`; :meth:`~Observer.encode_view` takes the record
itself), never from ``view()``'s strings: they show nothing the record doesn't.
The layout is described by :attr:`Observer.spaces` (named segments whose concatenation is
the vector) and promised by :attr:`Observer.VERSION`: any change to it bumps the version.

Seats are relative to the observer: position ``k`` of a per-seat segment is seat
``(seat + k) % players``, in seat-number order whatever the direction of play (which has a
segment of its own), so position 0 is always the observer itself.

Every value is a whole number from 0 to 255 (``uint8``: exact, compact and cheap to build;
``array(...).astype(numpy.float32)`` for a network). A count that could exceed its bound
(a stacked draw, a pile of a deck of over 255 cards) is capped at 255: the segment's
``high`` says so.
"""

from __future__ import annotations

import hashlib
from operator import itemgetter
from typing import Any, NamedTuple

from ..engine.decisions import KINDS
from ..engine.game import Game
from ..engine.model import NO_COLOR
from ..engine.rulebook import Rulebook
from ..engine.view import SeatView, seat_view

CAP = 255  # the largest value a uint8 holds: counts above it are capped
# The decision kinds, in the order of their one-hot segment: the engine's registered kinds.
DECISION_KINDS: tuple[str, ...] = tuple(KINDS)
# The segments a rulebook may add that version 1's layout didn't know, in order: a new one
# changes the layout's digest (and so its version) as a new decision kind does.
SEGMENTS_SINCE_V1: tuple[str, ...] = ("player_state", "pile_counters")


def layout_digest(kinds: tuple[str, ...], segments: tuple[str, ...] = ()) -> str:
    """What the layout takes from the engine's registries (the decision kinds, in order, and
    the segments added since version 1) as a short digest: another kind or segment, or
    another order, gives another digest."""
    text = "decision_kind:" + ",".join(kinds)
    if segments:
        text += ";segments:" + ",".join(segments)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# Each layout's digest and its version. A new decision kind changes the digest, and this
# module refuses to load until the new layout is given the next version here: the layout
# never changes silently under a trained policy.
# Version 2: the `side` decision kind (a card's side or alternative) and the `player_state`
# segment (a rulebook's per-player state). Version 3: the `outcome` decision kind (a table
# outcome). Version 4: the `press` decision kind and the `pile_counters` segment (a
# rulebook's pile counters: open piles and press counts, never the hidden limits). Version 5:
# the `again` decision kind (play again or end a turn of several plays). Version 6: the
# `put_out` decision kind (a card put out on a closed pile).
VERSIONS: dict[str, int] = {"d37c960a8403b2c1": 1, "44e111f18fe051a5": 2,
                            "0721141b695f6afa": 3, "0092935b99ebf2fc": 4, "7608f0e22d0006c0": 5,
                            "7b8c2847368b9613": 6}


def layout_version(kinds: tuple[str, ...], segments: tuple[str, ...] = ()) -> int:
    """The version of the layout made with ``kinds`` and ``segments`` (RuntimeError: a
    layout not versioned)."""
    digest = layout_digest(kinds, segments)
    if digest not in VERSIONS:
        raise RuntimeError(f"the observation layout changed (decision kinds {', '.join(kinds)}"
                           f"; segments since version 1: {', '.join(segments) or 'none'}; "
                           f"digest {digest}): give it version {max(VERSIONS.values()) + 1} "
                           "in VERSIONS, uno_rules/rl/observation.py")
    return VERSIONS[digest]


class Segment(NamedTuple):
    """One named part of the vector: ``vector[offset:offset + length]``, each value from
    ``low`` to ``high``; ``meaning`` says what it holds, in words."""

    name: str
    offset: int
    length: int
    low: int
    high: int
    meaning: str


class Observer:
    """The observation encoding of ``rulebook`` for ``players`` seats (see the module doc).

    ``encode(game, seat)`` and ``array(game, seat)`` give the same values; a game of another
    rulebook or player count, or a seat that is not one of the game's, raises ValueError.
    """

    #: The layout's version: a change to what any position means bumps it (a new decision
    #: kind does: see VERSIONS).
    VERSION: int = layout_version(DECISION_KINDS, SEGMENTS_SINCE_V1)

    def __init__(self, rulebook: Rulebook, players: int):
        counts = rulebook.player_counts()
        if type(players) is not int or players not in counts:
            raise ValueError(f"{rulebook.name} is for {rulebook.players_text()} players, "
                             f"not {players!r}")
        self.rulebook, self.players = rulebook, players
        self._accepted: list[Rulebook] = [rulebook]  # equal rulebooks seen (kept alive)
        n, faces, deck = players, len(rulebook.faces), len(rulebook.deck)
        copies = [0] * faces
        for f in rulebook.deck_faces():
            copies[f] += 1
        most = min(max(copies), CAP)
        pile_high = min(deck, CAP)
        sided = len(rulebook.sides) > 1
        piles = rulebook.discard_piles
        segments: list[Segment] = []

        def add(name: str, length: int, high: int, meaning: str) -> int:
            offset = segments[-1].offset + segments[-1].length if segments else 0
            segments.append(Segment(name, offset, length, 0, high, meaning))
            return offset

        add("hand", faces, most,
                         "the observer's cards counted by face (rulebook.faces order; by the "
                         "face on the side in play)")
        self._side = add("side", len(rulebook.sides), 1,
                         "one-hot: the side in play (rulebook.sides)") if sided else -1
        self._top = add("top", piles * faces, 1,
                        "one-hot per discard pile: its top card's face (none: all 0)")
        # A deck without colours has no colour in force, ever: no segment (never written).
        self._color = add("color", piles * len(rulebook.colors), 1,
                          "one-hot per discard pile: the colour in force (rulebook.colors; "
                          "none: all 0)") if rulebook.colors else -1
        self._discard_size = add("discard_size", piles, pile_high,
                                 "cards in each discard pile")
        self._focus = add("focus", piles, 1,
                          "one-hot: the discard pile in play") if piles > 1 else -1
        self._direction = add("direction", 1, 1, "1: clockwise (seat numbers rising), "
                                                  "0: counterclockwise")
        self._sizes = add("hand_sizes", n, pile_high,
                          "cards held, per relative seat (0: the observer)")
        self._draw = add("draw_pile_size", 1, pile_high, "cards in the draw pile")
        self._piles = add("piles", len(rulebook.piles), pile_high,
                          "cards in each declared pile (rulebook.piles)") \
            if rulebook.piles else -1
        declared = rulebook.player_state
        self._marks = add("player_state", n * sum(len(v) for _, v, _ in declared), 1,
                          "per relative seat, for each key of rulebook.player_state: one-hot, "
                          "its value (the key's values in order)") if declared else -1
        self._counts = add("pile_counters", 2 * piles, pile_high,
                           "per discard pile: 1 when open, then its press count (capped; "
                           "its hidden limit is never shown)") if rulebook.pile_limits else -1
        # each key's first slot within a seat's part, and a seat's part's length
        self._mark_slots = tuple(sum(len(v) for _, v, _ in declared[:k])
                                 for k in range(len(declared)))
        partnerships = n // rulebook.team_size
        if rulebook.team_size > 1:
            add("team", n, partnerships - 1, "per relative seat, its team counted from the "
                                      "observer's (0: the observer's team)")
        self._out = add("out", n, 1, "per relative seat: went out, its team playing on")
        self._knocked = add("knocked_out", n, 1, "per relative seat: out of the round")
        self._absent = add("absent", n, 1, "per relative seat: out of the match (never "
                                           "dealt in; knocked out too)")
        self._stacked = add("stacked_draw", 1, CAP,
                            "the pending stacked draw's total (capped at 255)")
        self._uno = add("uno_open", n, 1,
                        "one-hot per relative seat: open to an UNO catch (none: all 0)")
        self._kind = add("decision_kind", len(DECISION_KINDS), 1,
                         "one-hot: the pending decision's kind (" +
                         ", ".join(DECISION_KINDS) + "; round over: all 0)")
        self._decider = add("decider", n, 1, "one-hot per relative seat: whose decision "
                                             "it is (a seatless one or none: all 0)")
        self._mine = add("my_decision", 1, 1, "1: the pending decision is the observer's")
        self._over = add("over", 1, 1, "1: the round is over")
        if sided:
            self._backs = add("other_side_hands", (n - 1) * faces, most,
                              "per other relative seat (1, 2, ...): its cards counted by the "
                              "face on the side turned away (rulebook.faces order)")
            self._back_top = add("draw_pile_back", faces, 1,
                                 "one-hot: the face turned away of the draw pile's top card")
        self.spaces: tuple[Segment, ...] = tuple(segments)
        self.size: int = segments[-1].offset + segments[-1].length
        self._names = {s.name: s for s in segments}

        # Index tables, so that a call only looks up and counts (it runs every env step):
        # each seat's relative order and relative seats, a kind's slot.
        self._order = tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n))
        self._rel = tuple(tuple((s - seat) % n for s in range(n)) for seat in range(n))
        # per seat, a per-seat tuple in relative order (players >= 2: itemgetter gives a tuple)
        self._rotate = tuple(itemgetter(*order) for order in self._order)
        self._kind_slot = {kind: self._kind + i for i, kind in enumerate(DECISION_KINDS)}
        self._at = (self._side, self._top, self._color, self._discard_size, self._direction,
                    self._sizes, self._sizes + n, self._draw, self._stacked, self._uno,
                    self._decider, self._mine, self._over)
        # What every observation starts from: zeros, and the (constant) partnerships.
        template = bytearray(self.size)
        if rulebook.team_size > 1:
            team = self._names["team"].offset
            for k in range(n):
                template[team + k] = k % partnerships  # seats that far apart are partners
        self._template = bytes(template)
        # No count reaches CAP but the stacked draw's unless the deck does (hands and piles
        # hold the deck's cards): then the vector is made from a capped copy of the view.
        self._capped = deck > CAP

    def segment(self, name: str) -> Segment:
        """The segment called ``name`` (KeyError if this layout has none)."""
        return self._names[name]

    def table(self) -> str:
        """The layout as a plain-text table: offset, length, range, name and meaning."""
        lines = [f"{'offset':>6} {'length':>6} {'range':>7}  {'name':<16} meaning"]
        for s in self.spaces:
            lines.append(f"{s.offset:>6} {s.length:>6} {f'{s.low}-{s.high}':>7}  "
                         f"{s.name:<16} {s.meaning}")
        return "\n".join(lines)

    def encode(self, game: Game, seat: int) -> list[int]:
        """What ``seat`` sees of ``game``, as a list of ``size`` ints (see :attr:`spaces`)."""
        return list(self._fill(game, seat))

    def array(self, game: Game, seat: int) -> Any:
        """:meth:`encode` as a 1-D NumPy ``uint8`` array of ``size`` (NumPy:
        ``pip install 'uno-rules[rl]'``)."""
        # The bytes become the array's own memory: no copy, no per-value conversion.
        if _NUMPY is None:
            _load_numpy()
        frombuffer, uint8 = _NUMPY  # type: ignore[misc]
        if game.rulebook is not self.rulebook or game.players != self.players or \
                type(seat) is not int or not 0 <= seat < self.players:
            self._check(game, seat)
        # _fill's record and vector, a call less (this runs every env step)
        return frombuffer(self._from_view(seat_view(game, seat, None)), uint8)

    def encode_view(self, view: SeatView) -> list[int]:
        """:meth:`encode` of the seat and game ``view`` is of (:meth:`Game.seat_view
        <uno_rules.engine.game.Game.seat_view>`, a game of this observer's rulebook and player
        count): the vector is made from that record alone."""
        if type(view) is not SeatView or view.players != self.players:
            raise ValueError(f"not a view of a game for {self.players} players: {view!r}")
        return list(self._from_view(view))

    def _check(self, game: Game, seat: object) -> None:
        rulebook = game.rulebook
        if game.players != self.players or \
                not any(r is rulebook for r in self._accepted):  # by identity: == is slow
            if game.players == self.players and rulebook == self.rulebook:
                self._accepted.append(rulebook)  # equal, loaded again: the same layout
            else:
                raise ValueError(f"a game of {rulebook.name} for {game.players} players "
                                 f"given to the observer of {self.rulebook.name} for "
                                 f"{self.players}")
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat!r}: seats are 0 to {self.players - 1}")

    def _fill(self, game: Game, seat: int) -> bytearray:
        if game.rulebook is not self.rulebook or game.players != self.players or \
                type(seat) is not int or not 0 <= seat < self.players:
            self._check(game, seat)
        # The seat's view without its options (the vector doesn't hold them): the record
        # Game.seat_view gives, made without looking the options up.
        return self._from_view(seat_view(game, seat, None))

    def _from_view(self, view: SeatView) -> bytearray:
        """The vector of ``view``, as bytes. It runs every env step: the record and the
        offsets are unpacked at once (fields and attributes by name cost more), and sizes,
        bounded by the deck, are copied without a cap unless the deck exceeds it."""
        if self._capped:
            view = _capped(view)
        (seat, _, side, hand, hand_sizes, tops, colors, discard_sizes, _, direction,
         draw_pile_size, pile_sizes, stacked, uno, out_seats, knocked, absent, kind, decider,
         _, over, _, backs, draw_back, owed, marks, pile_counts) = view
        (at_side, at_top, at_color, at_discard, at_direction, at_sizes, end_sizes, at_draw,
         at_stacked, at_uno, at_decider, at_mine, at_over) = self._at
        out = bytearray(self._template)
        for face in hand:  # the hand's counts come first: a face id is its position
            out[face] += 1
        if at_side >= 0:
            out[at_side + side] = 1
        if len(tops) == 1:  # the common layout, inline
            if tops[0] >= 0:
                out[at_top + tops[0]] = 1
            if colors[0] != NO_COLOR:
                out[at_color + colors[0]] = 1
            out[at_discard] = discard_sizes[0]
        else:
            self._fill_discards(view, out)
        if direction == 1:
            out[at_direction] = 1
        out[at_sizes:end_sizes] = self._rotate[seat](hand_sizes)
        out[at_draw] = draw_pile_size
        if pile_sizes:
            out[self._piles:self._piles + len(pile_sizes)] = pile_sizes
        rel = self._rel[seat]
        if marks:
            self._fill_marks(rel, marks, out)
        if pile_counts:
            for k, v in enumerate(pile_counts):
                out[self._counts + k] = v if v < CAP else CAP
        if out_seats or knocked or absent or owed:  # seldom: one test for them all
            self._fill_seats(rel, (out_seats, knocked, absent, owed), out)
        if stacked:
            out[at_stacked] = stacked if stacked < CAP else CAP
        if uno >= 0:
            out[at_uno + rel[uno]] = 1
        if kind is not None:
            out[self._kind_slot[kind]] = 1
            if decider is not None:
                out[at_decider + rel[decider]] = 1
                if decider == seat:
                    out[at_mine] = 1
        if over:
            out[at_over] = 1
        if backs:
            self._fill_backs(view, out)
        return out

    def _fill_seats(self, rel: tuple[int, ...], seats: tuple[tuple[int, ...], ...],
                    out: bytearray) -> None:
        """The seats out, knocked out, out of the match, and owing an UNO (open to a catch
        too, uno_after_others), per relative seat."""
        for start, group in zip((self._out, self._knocked, self._absent, self._uno), seats,
                                strict=True):
            for s in group:
                out[start + rel[s]] = 1

    def _fill_discards(self, view: SeatView, out: bytearray) -> None:
        """The focus and each pile's top card, color and size, when there are several."""
        faces, colors = len(self.rulebook.faces), len(self.rulebook.colors)
        out[self._focus + view.focus] = 1
        for k, (top, color, size) in enumerate(zip(view.tops, view.colors, view.discard_sizes,
                                                   strict=True)):
            if top >= 0:
                out[self._top + k * faces + top] = 1
            if color != NO_COLOR:
                out[self._color + k * colors + color] = 1
            out[self._discard_size + k] = size

    def _fill_marks(self, rel: tuple[int, ...], marks: tuple[int, ...],
                    out: bytearray) -> None:
        """Each seat's per-player state: one-hot per key, at its relative seat's part."""
        slots, keys = self._mark_slots, len(self._mark_slots)
        width = self._names["player_state"].length // self.players
        for s in range(self.players):
            base = self._marks + rel[s] * width
            for k in range(keys):
                out[base + slots[k] + marks[s * keys + k]] = 1

    def _fill_backs(self, view: SeatView, out: bytearray) -> None:
        """The side turned away of the others' cards and of the draw pile's top card."""
        faces, backs = len(self.rulebook.faces), view.backs
        base = self._backs - faces  # relative seat k's counts start at base + k * faces
        order = self._order[view.seat]
        for k in range(1, self.players):
            start = base + k * faces
            for face in backs[order[k]] or ():
                out[start + face] += 1
        if view.draw_back >= 0:
            out[self._back_top + view.draw_back] = 1


def _capped(view: SeatView) -> SeatView:
    """``view`` with its counts cut to CAP: the sizes, and a face's copies in a hand beyond
    CAP left out (only a deck of over CAP cards has such counts)."""
    def sizes(values: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(min(v, CAP) for v in values)

    def cut(faces: tuple[int, ...]) -> tuple[int, ...]:
        held: dict[int, int] = {}
        kept = []
        for face in faces:
            held[face] = held.get(face, 0) + 1
            if held[face] <= CAP:
                kept.append(face)
        return tuple(kept)

    return view._replace(hand=cut(view.hand), hand_sizes=sizes(view.hand_sizes),
                         discard_sizes=sizes(view.discard_sizes),
                         draw_pile_size=min(view.draw_pile_size, CAP),
                         pile_sizes=sizes(view.pile_sizes),
                         backs=tuple(None if faces is None else cut(faces)
                                     for faces in view.backs))


def _load_numpy() -> None:
    """Import NumPy (the ``rl`` extra's) on first use, keeping ``numpy.frombuffer`` and the
    ``uint8`` dtype: an import statement and a ``dtype=`` keyword per call cost more than
    the rest of :meth:`Observer.array`'s NumPy part."""
    global _NUMPY
    try:
        import numpy
    except ImportError:
        raise ImportError("Observer.array needs NumPy: pip install 'uno-rules[rl]'") from None
    _NUMPY = (numpy.frombuffer, numpy.dtype(numpy.uint8))


_NUMPY: tuple[Any, Any] | None = None


__all__ = ["CAP", "DECISION_KINDS", "VERSIONS", "Observer", "Segment", "layout_digest",
           "layout_version"]
