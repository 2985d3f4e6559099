"""Frozen records a validated rulebook compiles into. The engine reads only these."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

NO_COLOR = -1
# How a card matches the top card when the rulebook says nothing (`match:`): by the colour
# in force, by rank (number or symbol), and a colourless card on anything.
DEFAULT_MATCH = ("color", "rank", "wild")


class FrozenMap(dict):  # type: ignore[type-arg]
    """A read-only mapping for compiled data: unlike ``MappingProxyType`` it pickles and
    copies (as itself: nothing in it can change)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("compiled rulebook data is read-only")

    # Each a method of its own, not an alias: in a class compiled with mypyc an alias would
    # be a plain attribute and leave dict's method in force.
    def __setitem__(self, key: Any, value: Any) -> None:
        self._refuse()

    def __delitem__(self, key: Any) -> None:
        self._refuse()

    def clear(self, *args: Any, **kwargs: Any) -> Any:
        return self._refuse()

    def pop(self, *args: Any, **kwargs: Any) -> Any:
        return self._refuse()

    def popitem(self, *args: Any, **kwargs: Any) -> Any:
        return self._refuse()

    def setdefault(self, *args: Any, **kwargs: Any) -> Any:
        return self._refuse()

    def update(self, *args: Any, **kwargs: Any) -> Any:
        return self._refuse()

    def __ior__(self, other: Any) -> Any:  # type: ignore[misc]
        return self._refuse()

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (dict(self),))

    def __copy__(self) -> FrozenMap:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenMap:
        return self


def _rebuild(record: Any) -> tuple[Any, ...]:
    """How a frozen record pickles: its class called with its fields. The default way sets
    slots one by one, which a frozen dataclass compiled with mypyc refuses (and one without
    slots has no ``__dict__`` to pickle)."""
    return (type(record), tuple(getattr(record, f.name) for f in fields(record)))


@dataclass(frozen=True, slots=True)
class Face:
    """One kind of physical card: a colour (or none), a rank, optional tags."""

    id: int
    name: str          # scenario notation: "red 5", "blue skip", "wild", "red 5 pass"
    color: int         # index into Rulebook.colors, NO_COLOR for a wild
    rank: int          # index into Rulebook.ranks
    tags: tuple[str, ...]
    points: int
    number: bool       # a number card (scored at face value)
    side: int = 0      # index into Rules.sides
    second_color: int = NO_COLOR  # a second colour it matches when played as its alternative
    alternative: str = ""         # the alternative it may be played as ("": none)

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild(self)


@dataclass(frozen=True, slots=True)
class Step:
    """One primitive with its compiled arguments (nested step lists are program ids)."""

    op: str
    args: Mapping[str, Any]
    at_end: bool       # still runs when the played card ended the round
    where: str = ""    # "file:line:col" of the step, for messages
    run: Any = None    # the primitive's run function, bound when the rulebook compiles

    def __reduce__(self) -> tuple[Any, ...]:
        # The compiled-rulebook cache pickles a step by its primitive's name instead
        # (load/cache.py's _Pickler): its entries name no function.
        return _rebuild(self)


# Values per discard pile in State._pile_marks (pile counters): open, presses, hidden limit.
PILE_MARKS = 3

# What a rulebook's digest leaves out, at which value: the fields and step parameters added
# after games were saved, so that the rulebooks that don't use them keep their digests (and
# the games saved with them restore). A field by (its declaring class's name, field name),
# left out while it holds the value; a step's parameter by ("step " + primitive name,
# parameter), left out of the compiled step when not given (value None); an `if` step's
# conditions are its parameters. Anything added and not listed here changes every digest.
DIGEST_SPARSE: Mapping[tuple[str, str], Any] = {
    ("CardRule", "going_out"): "ends_round", ("CardRule", "uno_after"): False,
    ("CardRule", "alt_effect"): None, ("CardRule", "alt_if"): None,
    ("Face", "second_color"): NO_COLOR, ("Face", "alternative"): "",
    ("Rules", "match"): DEFAULT_MATCH, ("Rules", "player_state"): (),
    ("Rules", "alternatives"): (), ("Rules", "caught"): None,
    ("Settings", "uno_after_others"): False, ("Settings", "call_at"): 1,
    ("Settings", "false_call_penalty"): 0, ("Settings", "jump_in_wilds"): False,
    ("Settings", "knock_out_worst"): False, ("CardRule", "answers_draw"): False,
    ("Settings", "pending_draw_at_end"): "none",
    ("Rules", "combos"): (), ("Rules", "rank_numbers"): (), ("Rules", "open_piles"): 0,
    ("Settings", "call_name"): "UNO", ("Settings", "call_after_draw"): False,
    ("CardRule", "presses"): True, ("CardRule", "overload"): None,
    ("Rules", "pile_limits"): (), ("Rules", "overload"): None, ("Rules", "turn_begin"): None,
    ("Rules", "reshuffle_discards"): True, ("Rules", "turn_plays"): "",
    ("Rules", "turn_end"): None,
    ("step give_cards", "to"): None, ("step turn_state", "by"): None,
    **{("step if", condition): None for condition in (
        "option_is", "state", "every_state", "card_tag", "drew", "draw_pending", "holds",
        "kept_drawn", "own_turn")}}


def sparse_param(primitive: str, param: str) -> bool:
    """Whether a step's parameter is left out of the compiled step when not given
    (:data:`DIGEST_SPARSE`), not filled with its default or None."""
    return ("step " + primitive, param) in DIGEST_SPARSE


@dataclass(frozen=True, slots=True)
class Combo:
    """Several cards played at once onto one pile (rulebook key ``combos``): how many, and
    what they must be. With ``sum`` their numbers add up to the top card's number (no card
    need match it); else the first card is playable on the pile as a single card."""

    cards: int = 2                   # how many cards, laid in order (the last on top)
    sum: bool = False                # their numbers add up to the top card's number
    same: str = ""                   # "rank" | "color": every card shares the first's
    first: tuple[int, ...] = ()      # rank ids the first card must have (none: any)

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild(self)


@dataclass(frozen=True, slots=True)
class LegalIf:
    """When a card counts as legally played (else it is a bluff, or unplayable)."""

    holds_no: str      # "color": no other card of the colour in force; "match": no other playable
    count_wilds: bool  # whether a held colourless card counts as a match

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild(self)


@dataclass(frozen=True, slots=True)
class CardRule:
    """What a rank does: its effect, its first-card effect and its legality condition."""

    rank: str
    effect: int | None = None        # program id
    first_card: int | None = None    # program id; None: as if the dealer had played it
    legal_if: LegalIf | None = None
    bluff: bool = False              # may be played when not legal (and then challenged)
    stack_value: int | None = None   # the count of its `stack_draw` step, if it has one
    sheds: bool = False              # its effect may take more cards from its player's hand
    #                                  (or, with uno_after_effects, trade it for another)
    going_out: str = "ends_round"    # going out on it: ends_round | continues | not_allowed
    uno_after: bool = False          # a step of its effect settles its player's UNO
    #                                  (deal_hands): it may be played calling UNO at any size
    alt_effect: int | None = None    # program id: played as its face's alternative (None:
    #                                  it has none, or the rulebook's options rule it out)
    alt_if: Mapping[str, Any] | None = None  # the alternative's conditions (None: always)
    answers_draw: bool = False       # it may answer a pending stacked draw, adding nothing
    presses: bool = True             # with pile counters: playing it presses its pile
    overload: int | None = None      # program id: its own press overloading runs this
    #                                  instead of the rulebook's `pile_counters.overload`

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild(self)


@dataclass(frozen=True)
class Settings:
    """Plain rule settings, overridable by name (``--set hand_size=5``)."""

    hand_size: int = 7
    uno_penalty: int = 2
    draw_with_playable: bool = True
    play_drawn: str = "may"          # may | must | never
    target_score: int = 500
    scoring: str = "winner_takes"    # winner_takes | lowest_total | elimination
    next_dealer: str = "left"        # left | winner
    jump_in: bool = False            # an identical card may be played out of turn
    go_out_on: str = "any"           # any | number: what the last card may be
    knockout_points: int = 0         # round points per player knocked out
    uno_after_effects: bool = False  # UNO is due whenever a card's effect leaves one card
    uno_after_others: bool = False   # ... and for a player another's card leaves one card
    call_at: int = 1                 # the hand size the UNO call is due at (DOS: 2)
    call_after_draw: bool = False    # ... and for a player a draw leaves at call_at cards
    false_call_penalty: int = 0      # cards drawn for calling UNO not due (0: no false call)
    jump_in_wilds: bool = False      # with jump_in: an identical wild may jump in too
    knock_out_worst: bool = False    # elimination: the round's worst hand is out of the match
    call_name: str = "UNO"           # the call's name in events and sheets (DOS: "DOS")
    pending_draw_at_end: str = "none"  # none | drawn: a last answer's pending draw is drawn

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild(self)


@dataclass(frozen=True, repr=False)
class Rules:
    """A compiled rulebook: deck, card rules, programs and settings — everything the engine
    reads. :class:`uno_rules.engine.rulebook.Rulebook` adds the public entry points."""

    name: str
    title: str
    source: str                      # the name or path it was loaded from
    players_min: int
    players_max: int
    colors: tuple[str, ...]
    ranks: tuple[str, ...]
    faces: tuple[Face, ...]
    deck: tuple[int, ...]            # a face id per physical card, in canonical order
    rules: tuple[CardRule | None, ...]  # indexed by face id: rank and tag behaviour combined
    programs: tuple[tuple[Step, ...], ...]
    settings: Settings
    draw_program: int                # what drawing on one's turn does
    team_size: int = 1               # players per team; 1: everyone plays alone
    round_ends: str = "player"       # player: when one goes out; team: when a team is all out
    going_out: int | None = None     # program run for a player who goes out (round goes on)
    after_draw: int | None = None    # program run right after any draw (actor: the drawer)
    setup: int | None = None         # program run after the first card, before the first turn
    caught: int | None = None        # program run for a player caught without UNO (instead of
    #                                  drawing settings.uno_penalty cards)
    stack_mixing: bool | None = None  # None: draws can't be stacked; True: a higher may
                                      # answer a lower one; False: only an equal one
    stack_max: int | None = None     # the most a stacked total may reach (None: no cap)
    stack_any_color: bool = False    # an answer need not match the top card (by value only)
    options: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""
    house: tuple[str, ...] = ()
    overrides: Mapping[str, Any] = field(default_factory=dict)
    by_name: Mapping[str, int] = field(default_factory=dict)  # face id by notation
    # Cards with sides. A card id names a physical card by its face on every side; with one
    # side a card id is its face id. Hands and piles hold card ids; what a card is now is
    # its face on the side in play: side_faces[side][card], side_rules[side][card].
    sides: tuple[str, ...] = ("front",)
    side_colors: tuple[tuple[int, ...], ...] = ()   # colour ids of each side
    cards: tuple[tuple[int, ...], ...] = ()          # card id -> face id on each side
    side_faces: tuple[tuple[Face, ...], ...] = ()    # side -> card id -> face
    side_rules: tuple[tuple[CardRule | None, ...], ...] = ()  # side -> card id -> rule
    side_by_name: tuple[Mapping[str, int], ...] = ()  # side -> notation -> face id
    card_ids: Mapping[tuple[int, ...], int] = field(default_factory=dict)  # faces -> card
    piles: tuple[str, ...] = ()                      # declared piles (besides draw, discard)
    discard_piles: int = 1                           # discard piles; plays name one
    # Derived tables, made on first use (interned actions): not part of the rulebook's value.
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    reshuffle_piles: tuple[int, ...] = ()            # those whose cards join a reshuffle
    match: tuple[str, ...] = DEFAULT_MATCH           # how a card matches the top (tables.matches)
    combos: tuple[Combo, ...] = ()                   # several cards in one play (tables.combos)
    # The numbers each rank counts as, by rank id, when a deck group declares `numbers` (a
    # wild number: DOS's Wild # any of 1-10, its Wild DOS a 2); () when none does: a number
    # card then counts as its rank (tables.numbers_of).
    rank_numbers: tuple[tuple[int, ...], ...] = ()
    open_piles: int = 0              # discard piles turned up at the deal (0: every one)
    # Whether the cards under each discard pile's top card join a reshuffle; False leaves
    # the discard piles alone (DOS's Centre Row: its cleared piles go to a declared pile).
    reshuffle_discards: bool = True
    # Turns of several plays (`turn: {plays: each_pile}`): "" one play a turn; "each_pile"
    # the player may play again onto a pile not yet played on this turn, or end it.
    turn_plays: str = ""
    turn_end: int | None = None      # program run when a turn ends (`turn: {end: ...}`)
    # A variant that gave no title or description of its own shows its own (its name, "A
    # variant of BASE."); its digest keeps what it inherited before they were its own,
    # (title, description) here, so that the games saved with it still restore.
    digested_as: tuple[str, str] | None = None
    # Per-player state (`player_state`): each key's name, its values in order and the index
    # of the value every player starts with. Empty: none (left out of the digest then).
    player_state: tuple[tuple[str, tuple[str, ...], int], ...] = ()
    # The alternatives cards may be played as (`alternatives`), by name; with none, `side`
    # decisions never come and the action table has no `side` actions.
    alternatives: tuple[str, ...] = ()
    # Pile counters (`pile_counters`): each hidden limit's value with its weight (empty:
    # none: every pile always open, no press); the steps a press reaching the limit runs.
    pile_limits: tuple[tuple[int, int], ...] = ()
    overload: int | None = None
    turn_begin: int | None = None    # program run as each turn begins, before its decision
    color_ids: Mapping[str, int] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        ids: dict[str, int] = {}
        for i, color in enumerate(self.colors):
            ids.setdefault(color, i)  # as colors.index(): the first of a name
        object.__setattr__(self, "color_ids", FrozenMap(ids))

    def card_name(self, card: int) -> str:
        """A card's notation: its face, or every side's face for cards with sides
        (``red 5 // pink 2``)."""
        return " // ".join(self.faces[f].name for f in self.cards[card])

    def deck_faces(self) -> list[int]:
        """The face ids of every physical card of the deck, on every side."""
        return [f for card in self.deck for f in self.cards[card]]

    def player_counts(self) -> list[int]:
        """The numbers of players a game may have: with partnerships, two sides at least;
        and only as many as the deck can deal a hand to, with a card left to turn."""
        size, deck, hand = self.team_size, len(self.deck), self.settings.hand_size
        return [n for n in range(self.players_min, self.players_max + 1)
                if n % size == 0 and n >= 2 * size and n * hand + self.turned_piles() <= deck]

    def turned_piles(self) -> int:
        """The discard piles a card is turned up on at the deal (``open_piles``)."""
        return self.open_piles or self.discard_piles

    def players_text(self) -> str:
        """The player counts in words: ``2-10`` or ``4, 6, 8``."""
        counts = self.player_counts()
        if counts and counts == list(range(counts[0], counts[-1] + 1)):
            return f"{counts[0]}-{counts[-1]}"
        return ", ".join(map(str, counts)) or "no"

    def deck_counts(self) -> dict[str, int]:
        """How many copies of each face the deck holds, side by side in face order; with
        several sides a face is named ``NAME (SIDE)``."""
        counts = [0] * len(self.faces)
        for fid in self.deck_faces():
            counts[fid] += 1
        return {self.face_label(f): counts[f.id]
                for f in sorted(self.faces, key=lambda f: (f.side, f.id))}

    def face_label(self, face: Face) -> str:
        """A face's name, with its side when cards have several (``wild (dark)``)."""
        return f"{face.name} ({self.sides[face.side]})" if len(self.sides) > 1 else face.name

    # Field by field, not through __dict__: a class compiled with mypyc has none.
    def __getstate__(self) -> dict[str, Any]:
        state = {f.name: getattr(self, f.name) for f in fields(self)}
        # Derived tables are made again on first use, not shipped; the digest (a string,
        # costly to compute for a big deck) travels with the rulebook: the compiled-rulebook
        # cache stores it, so that a load from the cache doesn't pay for it again.
        digest = self.memo.get("digest")
        state["memo"] = {} if digest is None else {"digest": digest}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            # Interned as the names in code are: the first instance's attribute names become
            # the class's shared keys, and unpickled ones would make every attribute read
            # in the interpreter a string comparison (2.5 % of a round).
            object.__setattr__(self, sys.intern(name), value)

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self  # immutable: a deep copy of a game shares its rulebook

    def __copy__(self) -> Rules:
        return self

    def __repr__(self) -> str:
        return (f"<Rulebook {self.name!r} {len(self.deck)} cards "
                f"{self.players_min}-{self.players_max} players>")
