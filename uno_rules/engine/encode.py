"""A seat's view as a vector of small ints: the filling of the RL observer's layout
(:class:`uno_rules.rl.observation.Observer` makes the layout and says what each position
means). It lives in the engine so that the fast build compiles it with the engine: it
runs at every env step, and in Python it cost more than the engine's own step.

The vector is made from the :class:`~uno_rules.engine.view.SeatView` alone, so it can show
nothing the record doesn't.
"""

from __future__ import annotations

from .model import NO_COLOR
from .view import SeatView

CAP = 255  # the largest value a position holds: counts above it are capped


class Encoder:
    """Fills vectors of one layout: ``offsets`` maps each segment's name to where it starts
    (a segment the layout lacks: absent or -1); ``template`` is what every vector starts
    from (zeros and the constant segments); ``kinds`` the decision kinds in the order of
    their one-hot segment; ``mark_slots`` each player-state key's first slot within a
    seat's part."""

    def __init__(self, offsets: dict[str, int], template: bytes, players: int, faces: int,
                 colors: int, kinds: tuple[str, ...], mark_slots: tuple[int, ...],
                 mark_width: int) -> None:
        def at(name: str) -> int:
            return offsets.get(name, -1)

        self.template = template
        self.players, self.faces, self.colors = players, faces, colors
        self.hand_at, self.side_at, self.top_at = at("hand"), at("side"), at("top")
        self.color_at, self.discard_at, self.focus_at = at("color"), at("discard_size"), \
            at("focus")
        self.direction_at, self.sizes_at, self.draw_at = at("direction"), at("hand_sizes"), \
            at("draw_pile_size")
        self.piles_at, self.marks_at, self.counts_at = at("piles"), at("player_state"), \
            at("pile_counters")
        self.out_at, self.knocked_at, self.absent_at = at("out"), at("knocked_out"), \
            at("absent")
        self.stacked_at, self.uno_at, self.decider_at = at("stacked_draw"), at("uno_open"), \
            at("decider")
        self.mine_at, self.over_at, self.backs_at = at("my_decision"), at("over"), \
            at("other_side_hands")
        self.back_top_at = at("draw_pile_back")
        kind_at = at("decision_kind")
        self.kind_slot: dict[str, int] = {k: kind_at + i for i, k in enumerate(kinds)}
        self.mark_slots, self.mark_width = mark_slots, mark_width
        # fill's offsets in one record: one read of it costs less than each by name (pure)
        self.at: tuple[int, int, int, int, int, int, int, int, int, int, int, int, int] = (
            self.hand_at, self.side_at, self.top_at, self.color_at, self.discard_at,
            self.direction_at, self.sizes_at, self.draw_at, self.stacked_at, self.uno_at,
            self.decider_at, self.mine_at, self.over_at)
        # per seat: the seat at each relative position, and each seat's relative position
        self.order: list[list[int]] = [[(s + k) % players for k in range(players)]
                                       for s in range(players)]
        self.rel: list[list[int]] = [[(t - s) % players for t in range(players)]
                                     for s in range(players)]

    def fill(self, view: SeatView) -> bytearray:
        """The vector of ``view`` (a seat's view of a game of this layout), as bytes; every
        count within CAP (the observer caps a view whose deck exceeds it)."""
        # Unpacked at once, the common cases inline: in the pure build this runs every env
        # step, and fields by name and calls cost more there.
        (seat, _, side, hand, hand_sizes, tops, colors, discard_sizes, _, direction,
         draw_pile_size, pile_sizes, stacked, uno, out_seats, knocked, absent, kind, decider,
         _, over, _, backs, _, owed, marks, pile_counts) = view
        (hand_at, side_at, top_at, color_at, discard_at, direction_at, at, draw_at,
         stacked_at, uno_at, decider_at, mine_at, over_at) = self.at
        out = bytearray(self.template)
        for face in hand:  # a face id is its position in the hand's segment
            out[hand_at + face] += 1
        if side_at >= 0:
            out[side_at + side] = 1
        if len(tops) == 1:  # the common table, inline
            if tops[0] >= 0:
                out[top_at + tops[0]] = 1
            if colors[0] != NO_COLOR:
                out[color_at + colors[0]] = 1
            out[discard_at] = discard_sizes[0]
        else:
            self._discards(view, out)
        if direction == 1:
            out[direction_at] = 1
        order, rel = self.order[seat], self.rel[seat]
        for s in order:  # the hand sizes from the observer's on
            out[at] = hand_sizes[s]
            at += 1
        out[draw_at] = draw_pile_size
        if pile_sizes:
            for k, size in enumerate(pile_sizes):
                out[self.piles_at + k] = size
        if marks:
            self._marks(rel, marks, out)
        if pile_counts:
            for k, count in enumerate(pile_counts):
                out[self.counts_at + k] = count if count < CAP else CAP
        if out_seats or knocked or absent or owed:  # seldom: one test for them all
            self._seats(rel, (out_seats, knocked, absent, owed), out)
        if stacked:
            out[stacked_at] = stacked if stacked < CAP else CAP
        if uno >= 0:
            out[uno_at + rel[uno]] = 1
        if kind is not None:
            out[self.kind_slot[kind]] = 1
            if decider is not None:
                out[decider_at + rel[decider]] = 1
                if decider == seat:
                    out[mine_at] = 1
        if over:
            out[over_at] = 1
        if backs:
            self._backs(view, out)
        return out

    def _discards(self, view: SeatView, out: bytearray) -> None:
        """The pile in play and each pile's top card, colour in force and size, when there
        are several."""
        faces, colors = self.faces, self.colors
        tops, in_force, sizes = view.tops, view.colors, view.discard_sizes
        out[self.focus_at + view.focus] = 1
        for k in range(len(tops)):
            top, color = tops[k], in_force[k]
            if top >= 0:
                out[self.top_at + k * faces + top] = 1
            if color != NO_COLOR:
                out[self.color_at + k * colors + color] = 1
            out[self.discard_at + k] = sizes[k]

    def _seats(self, rel: list[int], groups: tuple[tuple[int, ...], ...],
               out: bytearray) -> None:
        """The seats out, knocked out, out of the match, and owing an UNO call (open to a
        catch too), per relative seat."""
        starts = (self.out_at, self.knocked_at, self.absent_at, self.uno_at)
        for k in range(4):
            for s in groups[k]:
                out[starts[k] + rel[s]] = 1

    def _marks(self, rel: list[int], marks: tuple[int, ...], out: bytearray) -> None:
        """Each seat's per-player state: one-hot per key, at its relative seat's part."""
        slots, width = self.mark_slots, self.mark_width
        keys = len(slots)
        for s in range(self.players):
            base = self.marks_at + rel[s] * width
            for k in range(keys):
                out[base + slots[k] + marks[s * keys + k]] = 1

    def _backs(self, view: SeatView, out: bytearray) -> None:
        """The side turned away of the others' cards and of the draw pile's top card."""
        faces, backs = self.faces, view.backs
        base = self.backs_at - faces  # relative seat k's counts start at base + k * faces
        order = self.order[view.seat]
        for k in range(1, self.players):
            held = backs[order[k]]
            if held is not None:
                start = base + k * faces
                for face in held:
                    out[start + face] += 1
        if view.draw_back >= 0:
            out[self.back_top_at + view.draw_back] = 1
