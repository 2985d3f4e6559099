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
# The segments a vector may have (rl/observation.py's layout: a layout may lack some)
SEGMENTS = ("hand", "side", "top", "color", "discard_size", "focus", "direction", "hand_sizes",
            "draw_pile_size", "piles", "player_state", "pile_counters", "out", "knocked_out",
            "absent", "stacked_draw", "uno_open", "decision_kind", "decider", "my_decision",
            "over", "other_side_hands", "draw_pile_back")


class Encoder:
    """Fills vectors of one layout: ``offsets`` maps each segment's name to where it starts
    (a segment the layout lacks: absent or -1); ``template`` is what every vector starts
    from (zeros and the constant segments); ``kinds`` the decision kinds in the order of
    their one-hot segment; ``mark_slots`` each player-state key's first slot within a
    seat's part."""

    def __init__(self, offsets: dict[str, int], template: bytes, players: int, faces: int,
                 colors: int, kinds: tuple[str, ...], mark_slots: tuple[int, ...],
                 mark_width: int) -> None:
        self.template, self.players, self.faces, self.colors = template, players, faces, colors
        o = self.offsets = {name: offsets.get(name, -1) for name in SEGMENTS}
        # fill's own offsets in one record: one read of it costs less than each by name
        # (in the pure build)
        self.at: tuple[int, int, int, int, int, int, int, int, int, int, int, int, int] = (
            o["hand"], o["side"], o["top"], o["color"], o["discard_size"], o["direction"],
            o["hand_sizes"], o["draw_pile_size"], o["stacked_draw"], o["uno_open"],
            o["decider"], o["my_decision"], o["over"])
        self.kind_slot: dict[str, int] = {k: o["decision_kind"] + i for i, k in enumerate(kinds)}
        self.mark_slots, self.mark_width = mark_slots, mark_width
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
                out[self.offsets["piles"] + k] = size
        if marks:
            self._marks(rel, marks, out)
        if pile_counts:
            for k, count in enumerate(pile_counts):
                out[self.offsets["pile_counters"] + k] = count if count < CAP else CAP
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
        out[self.offsets["focus"] + view.focus] = 1
        for k in range(len(tops)):
            top, color = tops[k], in_force[k]
            if top >= 0:
                out[self.offsets["top"] + k * faces + top] = 1
            if color != NO_COLOR:
                out[self.offsets["color"] + k * colors + color] = 1
            out[self.offsets["discard_size"] + k] = sizes[k]

    def _seats(self, rel: list[int], groups: tuple[tuple[int, ...], ...],
               out: bytearray) -> None:
        """The seats out, knocked out, out of the match, and owing an UNO call (open to a
        catch too), per relative seat."""
        o = self.offsets
        starts = (o["out"], o["knocked_out"], o["absent"], o["uno_open"])
        for k in range(4):
            for s in groups[k]:
                out[starts[k] + rel[s]] = 1

    def _marks(self, rel: list[int], marks: tuple[int, ...], out: bytearray) -> None:
        """Each seat's per-player state: one-hot per key, at its relative seat's part."""
        slots, width = self.mark_slots, self.mark_width
        keys = len(slots)
        for s in range(self.players):
            base = self.offsets["player_state"] + rel[s] * width
            for k in range(keys):
                out[base + slots[k] + marks[s * keys + k]] = 1

    def _backs(self, view: SeatView, out: bytearray) -> None:
        """The side turned away of the others' cards and of the draw pile's top card."""
        faces, backs = self.faces, view.backs
        # relative seat k's counts start at base + k * faces
        base = self.offsets["other_side_hands"] - faces
        order = self.order[view.seat]
        for k in range(1, self.players):
            held = backs[order[k]]
            if held is not None:
                start = base + k * faces
                for face in held:
                    out[start + face] += 1
        if view.draw_back >= 0:
            out[self.offsets["draw_pile_back"] + view.draw_back] = 1
