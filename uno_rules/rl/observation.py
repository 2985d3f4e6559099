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
from collections.abc import Callable
from typing import Any, NamedTuple

from ..engine.decisions import KINDS
from ..engine.encode import CAP, Encoder
from ..engine.game import Game
from ..engine.rulebook import Rulebook
from ..engine.view import SeatView, seat_view

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

        def add(name: str, length: int, high: int, meaning: str, when: object = True) -> None:
            """The next segment, if ``when`` (a layout without it never writes there)."""
            if when:
                offset = segments[-1].offset + segments[-1].length if segments else 0
                segments.append(Segment(name, offset, length, 0, high, meaning))

        add("hand", faces, most, "the observer's cards counted by face (rulebook.faces order; "
            "by the face on the side in play)")
        add("side", len(rulebook.sides), 1, "one-hot: the side in play (rulebook.sides)", sided)
        add("top", piles * faces, 1, "one-hot per discard pile: its top card's face (none: all 0)")
        # A deck without colours has no colour in force, ever: no segment (never written).
        add("color", piles * len(rulebook.colors), 1, "one-hot per discard pile: the colour in "
            "force (rulebook.colors; none: all 0)", rulebook.colors)
        add("discard_size", piles, pile_high, "cards in each discard pile")
        add("focus", piles, 1, "one-hot: the discard pile in play", piles > 1)
        add("direction", 1, 1, "1: clockwise (seat numbers rising), 0: counterclockwise")
        add("hand_sizes", n, pile_high, "cards held, per relative seat (0: the observer)")
        add("draw_pile_size", 1, pile_high, "cards in the draw pile")
        add("piles", len(rulebook.piles), pile_high,
            "cards in each declared pile (rulebook.piles)", rulebook.piles)
        declared = rulebook.player_state
        add("player_state", n * sum(len(v) for _, v, _ in declared), 1,
            "per relative seat, for each key of rulebook.player_state: one-hot, its value (the "
            "key's values in order)", declared)
        add("pile_counters", 2 * piles, pile_high, "per discard pile: 1 when open, then its "
            "press count (capped; its hidden limit is never shown)", rulebook.pile_limits)
        # each key's first slot within a seat's part
        mark_slots = tuple(sum(len(v) for _, v, _ in declared[:k]) for k in range(len(declared)))
        partnerships = n // rulebook.team_size
        add("team", n, partnerships - 1, "per relative seat, its team counted from the "
            "observer's (0: the observer's team)", rulebook.team_size > 1)
        add("out", n, 1, "per relative seat: went out, its team playing on")
        add("knocked_out", n, 1, "per relative seat: out of the round")
        add("absent", n, 1, "per relative seat: out of the match (never dealt in; knocked out "
            "too)")
        add("stacked_draw", 1, CAP, "the pending stacked draw's total (capped at 255)")
        add("uno_open", n, 1, "one-hot per relative seat: open to an UNO catch (none: all 0)")
        add("decision_kind", len(DECISION_KINDS), 1, "one-hot: the pending decision's kind (" +
            ", ".join(DECISION_KINDS) + "; round over: all 0)")
        add("decider", n, 1, "one-hot per relative seat: whose decision it is (a seatless one "
            "or none: all 0)")
        add("my_decision", 1, 1, "1: the pending decision is the observer's")
        add("over", 1, 1, "1: the round is over")
        add("other_side_hands", (n - 1) * faces, most, "per other relative seat (1, 2, ...): "
            "its cards counted by the face on the side turned away (rulebook.faces order)", sided)
        add("draw_pile_back", faces, 1,
            "one-hot: the face turned away of the draw pile's top card", sided)
        self.spaces: tuple[Segment, ...] = tuple(segments)
        self.size: int = segments[-1].offset + segments[-1].length
        self._names = {s.name: s for s in segments}

        # What every observation starts from: zeros, and the (constant) partnerships.
        template = bytearray(self.size)
        if rulebook.team_size > 1:
            team = self._names["team"].offset
            for k in range(n):
                template[team + k] = k % partnerships  # seats that far apart are partners
        width = self._names["player_state"].length // n if declared else 0
        self._encoder_args = ({s.name: s.offset for s in segments}, bytes(template), n, faces,
                              len(rulebook.colors), DECISION_KINDS, mark_slots, width)
        # No count reaches CAP but the stacked draw's unless the deck does (hands and piles
        # hold the deck's cards): then the vector is made from a capped copy of the view.
        self._capped = deck > CAP
        self._set_encoder()

    def _set_encoder(self) -> None:
        """The (compiled) filler of this layout, and the one call that makes a vector."""
        self._encoder = Encoder(*self._encoder_args)
        self._vector: Callable[[SeatView], bytearray] = \
            self._capped_vector if self._capped else self._encoder.fill

    def _capped_vector(self, view: SeatView) -> bytearray:
        return self._encoder.fill(_capped(view))

    def __getstate__(self) -> dict[str, Any]:
        # The encoder is made again from its arguments (a compiled class may not pickle).
        return {k: v for k, v in self.__dict__.items() if k not in ("_encoder", "_vector")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._set_encoder()

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
        return frombuffer(self._vector(seat_view(game, seat, None)), uint8)

    def encode_view(self, view: SeatView) -> list[int]:
        """:meth:`encode` of the seat and game ``view`` is of (:meth:`Game.seat_view
        <uno_rules.engine.game.Game.seat_view>`, a game of this observer's rulebook and player
        count): the vector is made from that record alone."""
        if type(view) is not SeatView or view.players != self.players:
            raise ValueError(f"not a view of a game for {self.players} players: {view!r}")
        return list(self._vector(view))

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
        return self._vector(seat_view(game, seat, None))


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
