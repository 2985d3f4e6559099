"""Observations: what one seat sees of a round, as a fixed-length vector of small integers.

An :class:`Observer` is made for one rulebook and player count; its :meth:`~Observer.encode`
(a list of ints) and :meth:`~Observer.array` (a NumPy ``uint8`` array) read the game's
state directly, never ``view()``'s strings, and show only what ``game.view(seat)`` shows.
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
from typing import Any, NamedTuple

from ..engine.decisions import KINDS
from ..engine.game import Game
from ..engine.model import NO_COLOR
from ..engine.rulebook import Rulebook

CAP = 255  # the largest value a uint8 holds: counts above it are capped
# The decision kinds, in the order of their one-hot segment: the engine's registered kinds.
DECISION_KINDS: tuple[str, ...] = tuple(KINDS)
# The segments a rulebook may add that version 1's layout didn't know, in order: a new one
# changes the layout's digest (and so its version) as a new decision kind does.
SEGMENTS_SINCE_V1: tuple[str, ...] = ("player_state",)


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
# outcome). Version 4: the `again` decision kind (play again or end a turn of several plays).
VERSIONS: dict[str, int] = {"d37c960a8403b2c1": 1, "44e111f18fe051a5": 2,
                            "0721141b695f6afa": 3, "d80ba1d08a13b9e7": 4}


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

        self._hand = add("hand", faces, most,
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
        # a card's hand position on each side, each seat's relative order, a kind's slot.
        self._card_slot = tuple(tuple(f.id for f in side) for side in rulebook.side_faces)
        self._back_of = tuple(rulebook.side_faces[(s + 1) % len(rulebook.sides)]
                              for s in range(len(rulebook.sides)))
        self._order = tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n))
        self._rel = tuple(tuple((s - seat) % n for s in range(n)) for seat in range(n))
        self._kind_slot = {kind: self._kind + i for i, kind in enumerate(DECISION_KINDS)}
        # What every observation starts from: zeros, and the (constant) partnerships.
        template = bytearray(self.size)
        if rulebook.team_size > 1:
            team = self._names["team"].offset
            for k in range(n):
                template[team + k] = k % partnerships  # seats that far apart are partners
        self._template = bytes(template)

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
        try:
            import numpy
        except ImportError:
            raise ImportError("Observer.array needs NumPy: pip install "
                              "'uno-rules[rl]'") from None
        # The bytes become the array's own memory: no copy, no per-value conversion.
        return numpy.frombuffer(self._fill(game, seat), dtype=numpy.uint8)

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
        out = bytearray(self._template)
        side, hands = game.side, game.hands
        slot = self._card_slot[side]
        hand = self._hand
        for card in hands[seat]:
            i = hand + slot[card]
            if out[i] < CAP:  # a face's copies: few, but a deck may hold 256 of one
                out[i] += 1
        if self._side >= 0:
            out[self._side + side] = 1
        discards = game.discards
        if len(discards) == 1:  # the common layout, inline: this runs every env step
            discard = discards[0]
            if discard:
                out[self._top + slot[discard[-1]]] = 1
            if game.color != NO_COLOR:
                out[self._color + game.color] = 1
            size = len(discard)
            out[self._discard_size] = size if size < CAP else CAP
        else:
            self._fill_discards(game, slot, out)
        if game.direction == 1:
            out[self._direction] = 1
        sizes = self._sizes
        for k, s in enumerate(self._order[seat]):
            size = len(hands[s])
            out[sizes + k] = size if size < CAP else CAP
        size = len(game.draw_pile)
        out[self._draw] = size if size < CAP else CAP
        rel = self._rel[seat]
        if self._piles >= 0 or self._marks >= 0:
            self._fill_declared(game, rel, out)
        self._fill_seats(game, rel, out)
        total = game.stacked.total
        if total:
            out[self._stacked] = total if total < CAP else CAP
        pending = game.pending
        if pending is not None:
            out[self._kind_slot[pending.kind]] = 1
            decider = pending.seat
            if decider is not None:
                out[self._decider + rel[decider]] = 1
                if decider == seat:
                    out[self._mine] = 1
        if game.over:
            out[self._over] = 1
        if self._side >= 0:
            self._fill_backs(game, seat, out)
        return out

    def _fill_seats(self, game: Game, rel: tuple[int, ...], out: bytearray) -> None:
        """The seats out, knocked out, out of the match, and open to an UNO catch."""
        for s in game.out_seats:
            out[self._out + rel[s]] = 1
        for s in game.eliminated:
            out[self._knocked + rel[s]] = 1
        for s in game.absent:
            out[self._absent + rel[s]] = 1
        if game.uno_open >= 0:
            out[self._uno + rel[game.uno_open]] = 1
        for s in game.owed:  # open to a catch too (uno_after_others)
            out[self._uno + rel[s]] = 1

    def _fill_discards(self, game: Game, slot: tuple[int, ...], out: bytearray) -> None:
        """The focus and each pile's top card, color and size, when there are several."""
        faces, colors = len(self.rulebook.faces), len(self.rulebook.colors)
        focus = game.focus
        out[self._focus + focus] = 1
        for k, discard in enumerate(game.discards):
            if discard:
                out[self._top + k * faces + slot[discard[-1]]] = 1
            color = game.color if k == focus else game.colors[k]
            if color != NO_COLOR:
                out[self._color + k * colors + color] = 1
            size = len(discard)
            out[self._discard_size + k] = size if size < CAP else CAP

    def _fill_declared(self, game: Game, rel: tuple[int, ...], out: bytearray) -> None:
        """What a rulebook declares: its piles' sizes, and each seat's per-player state
        (one-hot per key, at its relative seat's part)."""
        for k, pile in enumerate(game.piles):
            size = len(pile)
            out[self._piles + k] = size if size < CAP else CAP
        if self._marks < 0:
            return
        slots, keys = self._mark_slots, len(self._mark_slots)
        width = self._names["player_state"].length // self.players
        marks = game.marks
        for s in range(self.players):
            base = self._marks + rel[s] * width
            for k in range(keys):
                out[base + slots[k] + marks[s * keys + k]] = 1

    def _fill_backs(self, game: Game, seat: int, out: bytearray) -> None:
        """The side turned away of the others' cards and of the draw pile's top card."""
        back = self._back_of[game.side]
        faces, hands = len(self.rulebook.faces), game.hands
        base = self._backs - faces  # relative seat k's counts start at base + k * faces
        order = self._order[seat]
        for k in range(1, self.players):
            start = base + k * faces
            for card in hands[order[k]]:
                i = start + back[card].id
                if out[i] < CAP:
                    out[i] += 1
        pile = game.draw_pile
        if pile:
            out[self._back_top + back[pile[-1]].id] = 1


__all__ = ["CAP", "DECISION_KINDS", "VERSIONS", "Observer", "Segment", "layout_digest",
           "layout_version"]
