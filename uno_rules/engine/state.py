"""The state of a round and the operations on it that card effects are made of.

:class:`State` holds everything that changes during a round; it is the one construction
path for a new deal, a restored snapshot, a scenario position and a :meth:`State.clone`.
Its operations (draw, reshuffle, advance, give, ...) are what the primitives in
:mod:`uno_rules.engine.effects` compose; the interpreter loop in
:mod:`uno_rules.engine.game` sits above.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, ClassVar

from .actions import Action, Result
from .errors import IllegalAction
from .fields import (  # noqa: F401 (their old place: importers name them from here)
    ALIAS,
    LIST,
    LISTS,
    REBUILT,
    RECORD_FIELDS,
    RECORDS,
    RNG,
    SHARED,
    Field,
    _clone_plan,
    _derived,
    _plain,
    field_names,
)
from .model import NO_COLOR, CardRule, FrozenMap, Rules
from .records import Ask, Ctx, Frame, Giving, Resume, StackedDraw
from .shuffling import shuffle
from .tables import SeatActions, guarded, match_flag_tables, match_tables, plain_turns, seat_actions

# Seeds are whole numbers below this in size: any sensible seed (a SHA-256 digest fits),
# and one that a repr, a snapshot and its JSON can always write out (Python refuses to
# turn an int of over 4,300 digits into text).
SEED_LIMIT = 2**256
# State._names of a rulebook whose cards have two sides (a name isn't a card there)
NO_NAMES: Mapping[str, int] = FrozenMap()


# Every field of a State, once: __slots__, clone, pickling, snapshots and their restoring
# are driven by this list (a new field is added here, and nowhere else but where it is used).
STATE_FIELDS: tuple[Field, ...] = (
    Field("rulebook", SHARED, "rulebook"),  # written as its name, digest, house rules, settings
    _plain("players"),
    _plain("seed"),
    Field("_rng", RNG, "rng"),
    Field("_rng_shared", SHARED, why="whether a clone may hold this generator too (_own_rng)"),
    _plain("dealer"),
    Field("hands", LISTS, "hands"),
    Field("draw_pile", LIST, "draw_pile"),
    Field("discard", ALIAS, "discard"),
    Field("_out", LIST, "out"),
    _plain("color"),
    _plain("direction"),
    Field("_skips", LIST, "skips", True),
    Field("_turn_to", SHARED, "turn_to", True),
    Field("_uno_open", SHARED, "uno_open", True),
    Field("_stack", RECORDS, "stack"),
    Field("_ctx", RECORDS, "ctx"),
    Field("pending", RECORDS, "pending"),
    Field("_out_seats", LIST, "out_seats", True),
    Field("giving", RECORDS, "giving"),
    Field("stacked", RECORDS, "stack_draw"),
    _plain("eliminated", LIST),
    Field("absent", LIST, "absent"),  # written only when a seat is out of a match
    Field("_owed", LIST, "owed"),  # written only when a seat owes a call
    # The discard piles played on this turn (`turn: {plays: each_pile}`), ENDING while its
    # end steps run: written only when not empty.
    Field("_played_piles", LIST, "played_piles"),
    _plain("over"),
    Field("result", SHARED, "result"),
    _plain("turns"),
    Field("history", LIST, "history"),
    Field("log", LIST, why="the event log: a restored game logs from where it was restored"),
    Field("side", SHARED, "side"),
    Field("_piles", LISTS, "piles"),
    Field("_discards", LISTS, "discards"),
    Field("_colors", LIST, "colors"),
    Field("_focus", SHARED, "focus"),
    Field("_first_turns", SHARED, "first_turns", True),
    Field("_marks", LIST, "player_state"),  # written only when the rulebook declares some
    Field("_pile_marks", LIST, "pile_counters"),  # written only with pile counters
    Field("chance", SHARED, why="a card chooser for the time of one action (set by its caller)"),
    Field("limit_chance", SHARED, why="a pile limit chooser, as chance"),
    # offer_drawn asks about an unplayable card too (set by the RL adapters): written only
    # when set, so that a restored adapter round asks what it asked
    Field("offer_unplayable", SHARED, "offer_unplayable"),
    _derived("faces"),
    _derived("_card_rules"),
    _derived("_names"),
    _derived("_matches"),
    _derived("_guarded"),
    _derived("_acts"),
    _derived("_plain"),
    _derived("_match_flags"),
    _derived("_after_draws"),
    _derived("_combos"),
)
STATE_SLOTS = tuple(f.name for f in STATE_FIELDS)


class State:
    """Everything that changes during one round of a rulebook (the rulebook is shared)."""

    __slots__ = STATE_SLOTS
    # The fields of this class and its subclasses (a subclass with fields of its own adds
    # them: FIELDS = Base.FIELDS + (...)); DERIVED: their names of derived ones.
    FIELDS: ClassVar[tuple[Field, ...]] = STATE_FIELDS

    def __init__(self, rulebook: Rules, players: int, seed: int | None = None, *,
                 dealer: int | None = None, log: bool = True):
        counts = rulebook.memo.get("player_counts")
        if counts is None:
            counts = rulebook.memo["player_counts"] = frozenset(rulebook.player_counts())
        if players not in counts:
            raise IllegalAction(f"{rulebook.name} is for {rulebook.players_text()} players, "
                                f"not {players}")
        self.rulebook = rulebook
        self.players = players
        self.seed = seed
        self._rng = random.Random(seed)
        self._rng_shared = False
        self.dealer = players - 1 if dealer is None else dealer % players
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.draw_pile: list[int] = []   # top card last
        self.discard: list[int] = []     # top card last
        self._out: list[int] = []         # out of play (in the box)
        self._piles: list[list[int]] = [[] for _ in rulebook.piles]  # declared piles, top last
        # Several discard piles: `discard` is always `discards[focus]` (the pile being played
        # on); `color` is the colour in force on it, the others' wait in `colors` (whose
        # entry for the pile in focus is unused: NO_COLOR). See focus_on.
        self._discards: list[list[int]] = [self.discard] + [[] for _ in
                                                           range(rulebook.discard_piles - 1)]
        self._colors: list[int] = [NO_COLOR] * rulebook.discard_piles
        self._focus = 0
        self._first_turns = 0             # cards turned up by first-card rules (a bound)
        self.color = NO_COLOR
        self.direction = 1
        self._skips: list[int] = []       # the seats that lose their next turn (skip steps)
        self._turn_to: int | None = None
        self._uno_open = -1               # seat that may be caught for not calling UNO
        self._stack: list[Frame | Resume] = []  # the top frame last
        self._ctx = Ctx(self.dealer)
        self.pending: Ask | None = None
        self._out_seats: list[int] = []   # seats that went out while their team played on
        # Cards being chosen to give (give_cards); a stack, as a draw during one (a catch's
        # penalty with an after-draw give) may start another.
        self.giving: list[Giving] = []
        self.stacked = StackedDraw()
        self.eliminated: list[int] = []  # seats knocked out of the round
        self.absent: list[int] = []      # of them, the seats out of a match: never acting
        # Seats another's card left at one card, owing an UNO call of their own
        # (uno_after_others): open to a catch until they call, as uno_open's seat.
        self._owed: list[int] = []
        self._played_piles: list[int] = []
        self.over = False
        self.result: Result | None = None
        self.turns = 0
        self.history: list[Action] = []
        self.log: list[tuple[Any, ...]] | None = [] if log else None
        self.side = 0
        # Per-player state (rulebook.player_state), flat: seat s's value of key k (an index
        # into the key's values) at s * keys + k.
        self._marks: list[int] = [start for _, _, start in rulebook.player_state] * players
        # Pile counters (rulebook.pile_limits), flat: open, presses, limit per discard pile
        # (uno_rules.engine.pilecounters); empty without counters.
        self._pile_marks: list[int] = []
        # Who picks the next card taken off the draw pile. None (simulation's fast path):
        # its top card. OpenSpiel's adapter (uno_rules/rl/openspiel.py) sets a function for
        # the time of one action on this state alone, run before each card is taken: it
        # puts the card a chance node chose on top (or raises to ask for one), so the pile's
        # order is never fixed in advance. Held here, not in a module global: two games in
        # one process (threads, a search's copies) never see each other's.
        self.chance: Callable[[list[int]], None] | None = None
        # Likewise for a pile counter's hidden limit (pilecounters.new_limit): given the
        # declared weights, the index of the limit chosen. None: the seeded RNG draws it.
        self.limit_chance: Callable[[list[int]], int] | None = None
        # Whether offer_drawn asks about a drawn card that can't be played too (keep its only
        # option), so that who moves next never tells the others whether it could: set by
        # OpenSpiel's adapter, whose seats must not learn it; off for simulation.
        self.offer_unplayable = False
        self._derive()

    def clone(self) -> State:
        """An independent copy sharing only immutable parts (the rulebook, actions; the
        RNG until either game draws from it): for tree search, cheaper than
        ``copy.deepcopy``. Each field is copied as its declaration (FIELDS) says."""
        cls = type(self)
        new = cls.__new__(cls)
        plan = cls._CLONE_PLAN.get(cls)
        if plan is None:
            plan = cls._CLONE_PLAN[cls] = _clone_plan(cls.FIELDS)
        shared, lists, list_lists = plan
        for name in shared:
            setattr(new, name, getattr(self, name))
        for name in lists:
            value = getattr(self, name)
            setattr(new, name, None if value is None else value[:])
        for name in list_lists:
            setattr(new, name, [x[:] for x in getattr(self, name)])
        # The generator shared until one of the two draws (_own_rng): copying its state
        # was two thirds of a clone, and most clones (a search's, OpenSpiel's tries of an
        # action) never shuffle.
        new._rng = self._rng
        new._rng_shared = self._rng_shared = True
        new.discard = new._discards[self._focus]
        self._copy_records(new)
        return new

    def _own_rng(self) -> random.Random:
        """The generator to draw from, this game's alone: a copy in the same state first
        when a clone may share it."""
        if self._rng_shared:
            rng = random.Random.__new__(random.Random)  # not Random(): seeding costs 15 us
            rng.setstate(self._rng.getstate())
            self._rng, self._rng_shared = rng, False
        return self._rng

    # Each class's fields grouped by how a clone copies them (made once per class).
    _CLONE_PLAN: ClassVar[dict[type, tuple[tuple[str, ...], ...]]] = {}

    def _copy_records(self, new: State) -> None:
        """Copy the fields that hold card contexts, each context once (two fields holding
        one context hold one copy of it)."""
        ctxs: dict[int, Ctx] = {}

        def ctx(c: Ctx | None) -> Ctx | None:
            if c is None:
                return None
            if id(c) not in ctxs:
                ctxs[id(c)] = c.copy()
            return ctxs[id(c)]

        def pending(p: Ask | None) -> Ask | None:
            return p if p is None or p.ctx is None else replace(p, ctx=ctx(p.ctx))

        new._stack = [Frame(f.program, f.pc, ctx(f.ctx)) if isinstance(f, Frame)  # type: ignore[arg-type]
                     else Resume(pending(f.ask)) for f in self._stack]  # type: ignore[arg-type]
        new._ctx = ctx(self._ctx)  # type: ignore[assignment]
        new.pending = pending(self.pending)
        st = self.stacked
        new.stacked = StackedDraw(st.total, st.value, ctx(st.ctx), st.penalty)
        new.giving = [g.copy() for g in self.giving]

    # A blank instance for copies and pickles (not object.__new__, which a class compiled
    # with mypyc refuses; and a compiled __new__ runs __init__ unless the class has its own).
    def __new__(cls, *args: Any, **kwargs: Any) -> State:
        return super().__new__(cls)

    def __copy__(self) -> State:
        new = type(self).__new__(type(self))
        new.__setstate__(self.__getstate__())
        return new

    # Fields derived from the rulebook alone (tables shared by its games): not part of a
    # pickle, made again from the rulebook when one is restored.
    DERIVED: ClassVar[frozenset[str]] = frozenset(
        f.name for f in STATE_FIELDS if f.copy == REBUILT)

    def __getstate__(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in self.FIELDS
                if f.copy != REBUILT and hasattr(self, f.name)}

    def __setstate__(self, data: Mapping[str, Any]) -> None:
        for name, value in data.items():
            object.__setattr__(self, name, value)
        self._derive()

    def _derive(self) -> None:
        """Set the fields derived from the rulebook (its shared tables)."""
        self._acts: tuple[SeatActions, ...] = seat_actions(self.rulebook, self.players)
        self._plain: bool = plain_turns(self.rulebook)
        # read on every draw: most rulebooks have no after-draw steps, owe no call for a card
        self._after_draws: bool = self.rulebook.after_draw is not None or \
            self.rulebook.settings.call_after_draw
        self._combos: bool = bool(self.rulebook.combos)  # read every play: most have none
        self._turn_side(self.side)

    @property
    def color_name(self) -> str | None:
        """The colour in force, or None (a last wild that chose none)."""
        return None if self.color == NO_COLOR else self.rulebook.colors[self.color]

    @property
    def direction_name(self) -> str:
        return "clockwise" if self.direction == 1 else "counterclockwise"

    @property
    def top(self) -> str | None:
        """The notation of the top card of the discard pile."""
        return self.faces[self.discard[-1]].name if self.discard else None

    def hand(self, seat: object) -> list[str]:
        """Seat's hand in card notation (sorted)."""
        return sorted(self.faces[c].name for c in self.hands[self._at_table(seat)])

    def _at_table(self, seat: object) -> int:
        """``seat``, checked to be a seat of this game (-1 would read the last one's)."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat!r}: seats are 0 to {self.players - 1}")
        return seat

    # ------------------------------------------------------------------ operations
    def _turn_side(self, side: int) -> None:
        """Put ``side`` in play: every card now reads as its face on that side."""
        rules = self.rulebook
        self.side = side
        self.faces = rules.side_faces[side]
        self._card_rules = rules.side_rules[side]
        # A card is its face when cards have one side: then an action's card name is looked
        # up here (no name: every name is found in the hand, _card_named)
        self._names = rules.side_by_name[side] if len(rules.side_faces[side]) == \
            len(rules.faces) else NO_NAMES
        self._matches = match_tables(rules, side)
        self._match_flags = match_flag_tables(rules, side)
        self._guarded = guarded(rules, side)

    def _turn_over(self) -> None:
        """Turn every card over: the discard pile as a whole (its bottom card comes on top),
        the draw pile (its order reverses) and every hand; the colour in force is the new
        top card's."""
        self.draw_pile.reverse()
        self._turn_side((self.side + 1) % len(self.rulebook.sides))
        for k, pile in enumerate(self._discards):
            pile.reverse()
            color = self.faces[pile[-1]].color if pile else NO_COLOR
            if k == self._focus:
                self.color = color
            else:
                self._colors[k] = color
        self._note("turn_over", self.side)

    def _lay_out(self, hands: list[list[int]], draw_pile: list[int],
                discards: list[list[int]], colors: list[int], *, focus: int = 0,
                out: list[int] | None = None, piles: list[list[int]] | None = None) -> None:
        """Put the cards where they lie (piles top card last; ``colors``: the colour in
        force on each discard pile, ``focus``: the pile in focus) — for a position or a
        restored snapshot, on a :meth:`Game.blank` state."""
        if len(discards) != self.rulebook.discard_piles or len(colors) != len(discards):
            raise ValueError(f"{len(discards)} discard piles and {len(colors)} colours for a "
                             f"rulebook of {self.rulebook.discard_piles} discard piles")
        if not 0 <= focus < len(discards):
            raise ValueError(f"discard pile {focus} is not one of {len(discards)}")
        self.hands, self.draw_pile = hands, draw_pile
        self._discards, self._colors, self._focus = discards, colors, focus
        self.discard, self.color = discards[focus], colors[focus]
        colors[focus] = NO_COLOR  # in `color` now
        self._out = [] if out is None else out
        if piles is not None:
            if len(piles) != len(self.rulebook.piles):
                raise ValueError(f"{len(piles)} declared piles for "
                                 f"{len(self.rulebook.piles)}")
            self._piles = piles
        # Seats that hold no cards at the start are out already (their team plays on).
        self._out_seats = [s for s, h in enumerate(hands) if not h]

    def _focus_on(self, pile: int) -> None:
        """Make discard pile ``pile`` the one in focus: ``discard`` and ``color`` are its."""
        if pile != self._focus:
            colors = self._colors
            colors[self._focus], self.color, colors[pile] = self.color, colors[pile], NO_COLOR
            self._focus = pile
            self.discard = self._discards[pile]

    def _discard_piles(self) -> list[list[int]]:
        """Every discard pile (the lists themselves: ``discard`` is the one in focus)."""
        return self._discards

    def _discard_colors(self) -> list[int]:
        """The colour in force on each discard pile (a new list)."""
        return [self.color if k == self._focus else c for k, c in enumerate(self._colors)]

    def _held(self, seat: int, face: int) -> int | None:
        """A card of ``seat``'s hand showing ``face`` (a face id) on the side in play."""
        faces = self.faces
        for card in self.hands[seat]:
            if faces[card].id == face:
                return card
        return None

    def _face_named(self, name: str) -> int:
        """The face id of a notation, read on the side in play first (``KeyError`` if
        unknown)."""
        face = self.rulebook.side_by_name[self.side].get(name)
        return self.rulebook.by_name[name] if face is None else face

    def _card_named(self, seat: int, name: str) -> int:
        """The card of ``seat``'s hand that shows ``name`` (``KeyError`` if none)."""
        face = self._face_named(name)
        if len(self.faces) == len(self.rulebook.faces) and face in self.hands[seat]:
            return face  # cards with one side: a card is its face
        card = self._held(seat, face)
        if card is None:
            raise KeyError(name)
        return card

    def _card_played(self, seat: int, action: Action) -> int:
        """The card of ``seat``'s hand an offered play (or jump-in) action names."""
        card = self._names.get(action.arg)  # type: ignore[arg-type]
        if card is not None:
            return card  # cards with one side: a card is its face (offered: it is held)
        return self._card_named(seat, str(action.arg))

    def _seat(self, expr: str, ctx: Ctx) -> int:
        """Resolve a seat expression of a primitive's parameters."""
        if expr == "self":
            return ctx.actor
        if expr == "next":
            return self._advance(ctx.actor, 1)
        if expr == "prev":
            return self._advance(ctx.actor, -1)
        if expr == "partner":
            return self._partner(ctx.actor)
        if expr == "next_partner":
            return self._partner(self._advance(ctx.actor, 1))
        if expr == "target":
            return ctx.target
        if expr == "challenger":
            return ctx.challenger
        if expr == "loser":
            return ctx.loser
        if expr == "dealer":
            return self.dealer
        if expr == "first":
            return self._first()
        if expr == "left":
            return self._beside(ctx.actor, 1)
        if expr == "right":
            return self._beside(ctx.actor, -1)
        raise ValueError(f"unknown seat expression {expr!r}")  # the loader rejects these

    def _beside(self, seat: int, delta: int) -> int:
        """The nearest seat that is in (holds cards) on ``seat``'s left (``delta`` 1:
        clockwise) or right (-1), whatever the direction of play."""
        n, hands = self.players, self.hands
        for i in range(1, n):
            other = (seat + delta * i) % n
            if hands[other]:
                return other
        return (seat + delta) % n

    def _seat_set(self, expr: str, ctx: Ctx) -> list[int]:
        """Resolve a seat-set expression (words.SEAT_SETS, or one seat of words.SEATS): its
        seats in the order of play from the card's player, none knocked out."""
        if expr not in ("all", "others", "opponents"):
            seat = self._seat(expr, ctx)
            return [] if seat < 0 or seat in self.eliminated else [seat]
        actor, n = ctx.actor, self.players
        order = [(actor + self.direction * i) % n for i in range(n)]  # the player first
        return [s for s in order if s not in self.eliminated
                and (expr == "all" or s != actor)
                and (expr != "opponents" or self._team(s) != self._team(actor))]

    def _first(self) -> int:
        """The player to the dealer's left still in the round (not knocked out)."""
        n = self.players
        if not self.eliminated:  # every round but one with seats out of a match
            return (self.dealer + 1) % n
        return next(s for s in ((self.dealer + i) % n for i in range(1, n + 1))
                    if s not in self.eliminated or s == self.dealer)

    def team_of(self, seat: object) -> int:
        """The team of ``seat``: seats ``players / team_size`` apart share a team."""
        return self._team(self._at_table(seat))

    def _team(self, seat: int) -> int:  # team_of for a seat the engine itself names
        return seat % (self.players // self.rulebook.team_size)

    def _partner(self, seat: int) -> int:
        """The next member of ``seat``'s team (itself when playing alone)."""
        return (seat + self.players // self.rulebook.team_size) % self.players

    def teammates(self, seat: object) -> list[int]:
        """The seats of ``seat``'s team, sorted."""
        return self._mates(self._at_table(seat))

    def _mates(self, seat: int) -> list[int]:  # teammates for a seat the engine itself names
        step = self.players // self.rulebook.team_size
        return sorted((seat + i * step) % self.players for i in range(self.rulebook.team_size))

    def _advance(self, seat: int, steps: int) -> int:
        """The seat ``steps`` places away in the direction of play, passing players who are
        out (hold no cards)."""
        n, hands, delta = self.players, self.hands, self.direction
        if steps < 0:  # backwards
            delta, steps = -delta, -steps
        for _ in range(steps):
            seat = (seat + delta) % n
            if not hands[seat]:  # out: pass on (at most once round the table)
                for _ in range(n - 1):
                    seat = (seat + delta) % n
                    if hands[seat]:
                        break
        return seat

    def _note(self, *event: Any) -> None:
        """Log an event (a tuple; words in uno_rules.engine.events.describe_event). Events that
        come with most actions are appended in place, under ``if log is not None``, so that
        no tuple is made when logging is off."""
        if self.log is not None:
            self.log.append(event)

    def _push(self, program: int, ctx: Ctx) -> None:
        self._stack.append(Frame(program, 0, ctx))

    def _draw_cards(self, seat: int, count: int) -> list[int]:
        """Move up to ``count`` cards to ``seat``'s hand, reshuffling as needed; then queue
        the rulebook's after-draw steps."""
        pile, hand = self.draw_pile, self.hands[seat]
        if count == 1 and pile and self.chance is None:  # the usual draw: no slices made
            card = pile.pop()
            hand.append(card)
            got = [card]
        elif len(pile) >= count and self.chance is None:  # no reshuffle: at once (top last)
            got = pile[len(pile) - count:][::-1]
            del pile[len(pile) - count:]
            hand += got
        else:
            chance = self.chance
            got = []
            for _ in range(count):
                if not pile:
                    if not self._reshuffle():
                        break
                    pile = self.draw_pile
                if chance is not None:
                    chance(pile)
                card = pile.pop()
                hand.append(card)
                got.append(card)
        if got:
            if self._out_seats and seat in self._out_seats:
                self._out_seats.remove(seat)  # holding cards again: back in
            if self._after_draws:  # nothing drawn: nothing follows
                self._after_drawing(seat)
        if self.log is not None:
            self.log.append(("draw", seat, count, tuple(got)))
        return got

    def _discard_color(self, seat: int) -> None:
        """Move every card of the colour in force from ``seat``'s hand under the top card."""
        faces, color, hand = self.faces, self.color, self.hands[seat]
        gone = [c for c in hand if faces[c].color == color]
        if gone:
            self.hands[seat] = [c for c in hand if faces[c].color != color]
            self.discard[-1:-1] = gone
            self._note("discard", seat, tuple(faces[c].id for c in gone))

    def _return_played_card(self, ctx: Ctx) -> None:
        """The card being resolved goes back to its player, if it is still on top."""
        if ctx.face < 0 or not self.discard or self.discard[-1] != ctx.face:
            return  # already gone (returned, or covered): nothing to take back
        card = self.discard.pop()
        self.hands[ctx.actor].append(card)
        self.color = ctx.prev_color
        self._note("return", ctx.actor, self.faces[card].id)

    def _stack_draw(self, ctx: Ctx, count: int, penalty: int | None) -> None:
        """Add ``count`` to the pending stacked draw (drawn at once at the end of a round)."""
        stacked = self.stacked
        if ctx.final:
            total, stacked.total = stacked.total + count, 0
            self._draw_cards(self._seat("next", ctx), total)
            return
        stacked.total += count
        stacked.value = count
        stacked.ctx = ctx
        stacked.penalty = penalty

    def _answer_steers(self, rule: CardRule | None) -> bool:
        """Whether a last card answering the pending draw (``answers_draw``) runs its whole
        effect, as it steers the total (``pending_draw_at_end: drawn``)."""
        return self.stacked.total > 0 and rule is not None and rule.answers_draw and \
            self.rulebook.settings.pending_draw_at_end == "drawn"

    def _draw_left(self, actor: int) -> bool:
        """The round ends with a draw still pending after ``actor``'s last card: with
        ``pending_draw_at_end: drawn`` the seat it faces (the one that would take the next
        turn) draws it first, as a last Draw Two's victim does. True when it was drawn."""
        stacked = self.stacked
        total = stacked.total
        if self.rulebook.settings.pending_draw_at_end != "drawn":
            return False
        seat = self._turn_to if self._turn_to is not None else self._next_turn(actor)
        stacked.total, stacked.value, stacked.ctx = 0, 0, None
        self._draw_cards(seat, total)
        return True

    def _owe_calls(self, seats: list[int], actor: int) -> None:
        """With ``uno_after_others``: each of ``seats`` but ``actor`` that another's card
        just left at one card (``call_at``) owes an UNO call of its own (``S uno S``), open
        to a catch until it makes it."""
        if self.rulebook.settings.uno_after_others:
            for seat in seats:
                if seat != actor and seat not in self._owed and \
                        len(self.hands[seat]) == self.rulebook.settings.call_at:
                    self._owed.append(seat)

    def _after_drawing(self, seat: int) -> None:
        """After ``seat`` drew, in a rulebook with :meth:`_derive`'s ``_after_draws``: queue
        the rulebook's after-draw steps, and a call owed for the card drawn."""
        if self.rulebook.after_draw is not None:
            self._stack.append(Frame(self.rulebook.after_draw, 0, Ctx(seat)))
        if self.rulebook.settings.call_after_draw:
            self._owe_draw_call(seat)

    def _owe_draw_call(self, seat: int) -> None:
        """With ``call_after_draw``: ``seat``, just left at ``call_at`` cards by a draw (its
        own or another's card's), owes the call as under ``uno_after_others``."""
        if len(self.hands[seat]) == self.rulebook.settings.call_at and \
                seat not in self._owed and seat not in self.eliminated:
            self._owed.append(seat)

    def _rotate_hands(self) -> list[int]:
        """Every hand in passes to the next player in, in the direction of play: a seat that
        is out (holds no cards, or is knocked out) neither gives nor receives one. Returns
        the seats that received one."""
        hands = self.hands
        seats = [s for s in range(self.players) if hands[s] and s not in self.eliminated]
        old = [self.hands[s] for s in seats]
        for i, hand in enumerate(old):
            self.hands[seats[(i + self.direction) % len(seats)]] = hand
        self._note("rotate")
        return seats

    def _deal_hands(self, seats: list[int], start: int, keep_counts: bool) -> None:
        """Gather the hands of ``seats``, shuffle the cards and deal them out again among
        ``seats`` one at a time, clockwise from ``start``, until none is left; with
        ``keep_counts`` each seat is dealt as many cards as it held (and then passed)."""
        hands, n = self.hands, self.players
        held = [len(hands[s]) for s in range(n)]
        cards = [c for s in sorted(seats) for c in hands[s]]
        shuffle(self._own_rng(), cards)
        order = sorted(seats, key=lambda s: (s - start) % n)
        for s in seats:
            hands[s] = []
        while cards:  # one round of the table at a time, the top card (last) first
            for s in order:
                if cards and not (keep_counts and len(hands[s]) >= held[s]):
                    hands[s].append(cards.pop())
        if self._out_seats:  # a seat dealt cards is back in
            self._out_seats = [s for s in self._out_seats if not hands[s]]
        self._note("deal", start)

    def _mark_at(self, seat: int, key: str) -> int:
        """Where ``seat``'s value of the per-player state ``key`` is in ``marks``."""
        declared = self.rulebook.player_state
        for k, (name, _, _) in enumerate(declared):
            if name == key:
                return seat * len(declared) + k
        raise KeyError(key)

    def _set_mark(self, seat: int, key: str, value: int) -> None:
        """Set ``seat``'s per-player state ``key`` to its value of index ``value``."""
        self._marks[self._mark_at(seat, key)] = value
        self._note("state", seat, key, value)

    def _standing(self) -> int:
        """How many players are still in the round (not knocked out)."""
        return self.players - len(self.eliminated)

    def _next_turn(self, actor: int) -> int:
        """The seat that plays after ``actor``'s card: the next one in, passing each seat
        a skip named (a skip of a seat knocked out since is void)."""
        seat = self._advance(actor, 1)
        for skipped in self._skips:
            if seat == skipped:
                seat = self._advance(seat, 1)
        return seat

    def _knock_out(self, seat: int, to: int | None = None) -> None:
        """Take ``seat`` out of the round; its cards go under the draw pile, or onto the
        declared pile ``to`` (an index into ``Rules.piles``)."""
        if seat in self.eliminated:
            return
        if to is None:
            self.draw_pile[0:0] = self.hands[seat]
        else:
            self._piles[to].extend(self.hands[seat])
        self.hands[seat] = []
        self.eliminated.append(seat)
        self._note("knock_out", seat)

    def _deal(self) -> None:
        """Deal the hands one card at a time, starting left of the dealer."""
        n = self.players
        # From the dealer's left; a seat knocked out already (out of a match) gets nothing.
        first = self.dealer + 1
        seats = [(first + i) % n for i in range(n)]
        if self.eliminated:
            seats = [s for s in seats if s not in self.eliminated]
        pile, count = self.draw_pile, self.rulebook.settings.hand_size * len(seats)
        if count <= 0:
            return
        chance = self.chance
        if chance is None:
            dealt = pile[-count:][::-1]  # in the order dealt: the top card first
            del pile[-count:]
        else:  # each card chosen as it is dealt
            dealt = []
            for _ in range(min(count, len(pile))):
                chance(pile)
                dealt.append(pile.pop())
        for i, seat in enumerate(seats):  # the i-th player in gets every len(seats)-th card
            self.hands[seat] += dealt[i::len(seats)]

    def _turn_first_card(self, put_back: bool = False) -> None:
        """Turn the top of the draw pile onto the discard pile and queue its first-card rule."""
        if put_back:
            self.draw_pile.append(self.discard.pop())
            shuffle(self._own_rng(), self.draw_pile)
        if not self.draw_pile and not self._reshuffle():
            return  # nothing left to turn: the card below stays on top
        card = self._take_top()
        self.discard.append(card)
        self._first_turns += 1
        self.color = self.faces[card].color
        self._note("first", self.faces[card].id)
        # The card's rules act on the pile it was turned onto (a card turned again onto
        # pile 2 must not put pile 0's card back).
        self._ctx = ctx = Ctx(self.dealer, card, pile=self._focus)
        rule = self._card_rules[card]
        if rule is not None:
            program = rule.effect if rule.first_card is None else rule.first_card
            if program is not None:
                self._push(program, ctx)

    def _take_top(self) -> int:
        """The draw pile's top card, taken off (a card chance chose, with ``chance``); the
        pile holds one."""
        if self.chance is not None:
            self.chance(self.draw_pile)
        return self.draw_pile.pop()

    def _all_cards(self) -> list[int]:
        """Every card of the game wherever it is (for conservation checks)."""
        out = self.draw_pile + self._out
        for discard in self._discards:
            out += discard
        for pile in self._piles:
            out += pile
        for hand in self.hands:
            out += hand
        for giving in self.giving:
            out += [card for _, _, card in giving.aside]
        return out

    def _can_draw(self) -> bool:
        """Whether a card could be drawn now: the draw pile holds one, or a reshuffle would
        make one (a discard pile with more than its top card, a pile that joins it)."""
        return bool(self.draw_pile) or any(self._piles[i] for i in self.rulebook.reshuffle_piles) \
            or (self.rulebook.reshuffle_discards and any(len(d) > 1 for d in self._discards))

    def _reshuffle(self) -> bool:
        """A new draw pile: the discard piles but their top cards (unless
        ``reshuffle_discards`` is false), with the cards of the declared piles that join a
        reshuffle, shuffled. False when there is nothing."""
        joining = [i for i in self.rulebook.reshuffle_piles if self._piles[i]]
        # Without `reshuffle_discards` the discard piles keep their cards (none taken).
        discards = self._discards if self.rulebook.reshuffle_discards else []
        if all(len(d) <= 1 for d in discards) and not joining:
            return False
        pile: list[int] = []
        for discard in discards:  # each pile but its top card (in place: `discard` is one)
            pile += discard[:-1]
            del discard[:-1]
        for i in joining:
            pile += self._piles[i]
            self._piles[i] = []
        shuffle(self._own_rng(), pile)
        self.draw_pile = pile
        self._note("reshuffle", len(pile))
        return True

    def _round_ends_with(self, seat: int) -> bool:
        """Whether ``seat`` holding no cards ends the round."""
        if self.rulebook.round_ends == "player":
            return True
        return not any(self.hands[s] for s in self._mates(seat))

    def _receive(self, seat: int, card: int) -> None:
        """A card given to ``seat``: holding cards again, it is back in."""
        self.hands[seat].append(card)
        if seat in self._out_seats:
            self._out_seats.remove(seat)
