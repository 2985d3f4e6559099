"""Tables derived from a compiled rulebook once, so that a decision costs lookups, not
rebuilding: the numbered actions of a game size (:func:`action_table`) and each seat's
action ids in it, and which cards match a given top card.

They are cached in :attr:`Rules.memo` (made on first use, shared by every game of the
rulebook) and are not part of the rulebook's value.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from .actions import Action
from .model import NO_COLOR, Combo, Face, Rules
from .notation import COMBO

BARE = ("draw", "keep", "challenge", "accept")
# the ways of `match:` (matches)
MATCH_WAYS = ("color", "rank", "number", "wild", "any", "on_uncolored")


def calls_uno(hand_size: int, sheds: bool, after_effects: bool, call_at: int = 1,
              false_calls: bool = False, judged: bool = False) -> bool:
    """Whether a play from a hand of ``hand_size`` cards is offered with UNO called too: on
    the card that leaves ``call_at`` cards (the next-to-last card), and with
    ``uno_after_effects`` on any card that may leave that many (``sheds``: its effect may
    shed more); with ``false_calls`` (a false call's penalty) on any card but the last; and
    on a card whose effect settles its player's UNO (``judged``: CardRule.uno_after, at any
    size it may leave one). The one place this rule lives."""
    due = call_at + 1
    return hand_size == due or (after_effects and hand_size > due and sheds) or \
        (false_calls and hand_size > 1) or judged


def offers_draw(playable: list[int], draw_with_playable: bool) -> bool:
    """Whether a turn offers ``draw``: when nothing is playable, or always with
    ``draw_with_playable``. The one place this rule lives."""
    return not playable or draw_with_playable


def action_names(rules: Rules) -> list[str]:
    """The card names actions use, in face order, each once (a name on two sides once)."""
    return list(dict.fromkeys(f.name for f in rules.faces))


def side_names(rules: Rules) -> tuple[str, ...]:
    """The answers of a ``side`` decision: ``normal``, then each alternative (none without)."""
    return ("normal", *rules.alternatives) if rules.alternatives else ()


def action_table(rules: Rules, players: int) -> tuple[Action, ...]:
    """Every action any seat of a ``players``-seat game can take, the index its id (see
    docs/actions.md). Made from the rulebook's own orders only (faces, colours, piles), so
    the same rulebook gives the same table in every run and version; seat by seat, then the
    contest's ``loser``. Per seat, ``N`` card names, ``P`` discard piles, ``C`` colours:
    ``play`` (name x UNO not called/called x pile, ``2NP``), ``draw``, ``keep``,
    ``challenge``, ``accept``, ``color`` (``C``), ``target``, ``catch``, ``uno`` (one per
    seat each), ``give`` and ``jump_in`` (one per name each). The objects are interned:
    every option the engine offers is one of them."""
    key = ("action_table", players)
    got: tuple[Action, ...] | None = rules.memo.get(key)
    if got is None:
        names, seats = action_names(rules), range(players)
        actions: list[Action] = []
        for s in seats:
            actions += [Action(s, "play", n, uno, pile) for n in names for uno in (False, True)
                        for pile in range(rules.discard_piles)]
            actions += [Action(s, k) for k in BARE]
            actions += [Action(s, "color", c) for c in rules.colors]
            actions += [Action(s, kind, t) for kind in ("target", "catch", "uno") for t in seats]
            actions += [Action(s, kind, n) for kind in ("give", "jump_in") for n in names]
        actions += [Action(None, "loser", t) for t in seats]
        actions += [Action(s, "pass") for s in seats]  # appended: every earlier id stays
        # Appended too, and only with alternatives: a `side` per alternative and `normal`.
        actions += [Action(s, "side", name) for s in seats for name in side_names(rules)]
        # A rulebook with table outcomes: one per value its `random` steps declare (none in
        # a rulebook without, whose table stays as it was).
        actions += [Action(None, "outcome", v) for v in outcome_values(rules)]
        actions += [Action(s, "play", COMBO.join(names), uno, pile) for s in seats
                    for names in combo_names(rules) for uno in (False, True)
                    for pile in range(rules.discard_piles)]  # none without `combos`
        # With pile counters: a `press` per seat and discard pile (none without).
        actions += [Action(s, "press", p) for s in seats for p in press_piles(rules)]
        # Turns of several plays: each seat's `end` of its turn, last (none without).
        actions += [Action(s, "end") for s in seats if rules.turn_plays]
        got = rules.memo[key] = tuple(actions)
    return got


def press_piles(rules: Rules) -> range:
    """The answers of a ``press`` decision: every discard pile, with pile counters (else
    none)."""
    return range(rules.discard_piles if rules.pile_limits else 0)


def outcome_values(rules: Rules) -> tuple[str, ...]:
    """Every value a table outcome of the rulebook may take (its ``random`` steps' declared
    values, in program order, each once)."""
    got: tuple[str, ...] | None = rules.memo.get("outcome_values")
    if got is None:
        values: dict[str, None] = {}
        for program in rules.programs:
            for step in program:
                if step.op == "random":
                    values.update(dict.fromkeys(step.args["values"]))
        got = rules.memo["outcome_values"] = tuple(values)
    return got


class SeatActions:
    """The ids of one seat's actions in :func:`action_table` (``table``). ``play[pile *
    faces + face]`` and ``play_uno[...]`` are the plays of a face onto a discard pile
    (without and with UNO called), ``both[...]`` the two as offered together;
    ``give``/``jump_in`` by face; ``target``/``catch``/``uno``/``loser`` by seat; ``colors``
    by colour; ``pass_`` the seat's ``pass``; ``outcome`` a table outcome's id by its value.
    ``uno_by_hand`` (:func:`uno_by_hand`) and ``turn_none``/``turn_tail`` are the short turn
    path's rules as tables."""

    __slots__ = ("table", "play", "play_uno", "both", "draw", "turn_none", "turn_tail", "keep",
                 "challenge", "accept", "colors", "target", "catch", "uno", "give", "jump_in",
                 "loser", "pass_", "uno_by_hand", "uno_any", "side", "outcome", "combo",
                 "press", "end")

    def __init__(self, rules: Rules, seat: int, players: int):
        self.table = action_table(rules, players)
        names = action_names(rules)
        name_at = {name: i for i, name in enumerate(names)}
        by_face = [name_at[f.name] for f in rules.faces]
        piles, n = rules.discard_piles, players
        start = seat * (2 * len(names) * piles + len(BARE) + len(rules.colors) + 3 * n
                        + 2 * len(names))
        self.play = [start + (by_face[f.id] * 2) * piles + pile
                     for pile in range(piles) for f in rules.faces]
        self.play_uno = [i + piles for i in self.play]
        self.both = [(uno, plain) for uno, plain in zip(self.play_uno, self.play, strict=True)]
        at = start + 2 * len(names) * piles
        self.draw, self.keep, self.challenge, self.accept = range(at, at + len(BARE))
        # calls_uno by hand size for a card whose effect doesn't matter (the short turn path,
        # where there is no uno_after_effects): a hand holds the whole deck at most.
        self.uno_by_hand = uno_by_hand(rules)
        # By hand size, whether some card's play may be offered with UNO called (else
        # Legality._play_ids offers each card without): calls_uno for a card that may shed
        # more, and at every size when a card of the deck settles its player's UNO after
        # its effect (CardRule.uno_after: looked at card by card).
        judged = any(r is not None and r.uno_after for r in rules.rules)
        self.uno_any = tuple(judged or due for due in uno_by_hand(rules, True))
        # A turn's options after its plays, by :func:`offers_draw`: with nothing playable,
        # and with something playable.
        self.turn_none = (self.draw,) if offers_draw([], rules.settings.draw_with_playable) \
            else ()
        self.turn_tail = (self.draw,) if offers_draw([0], rules.settings.draw_with_playable) \
            else ()
        at += len(BARE)
        self.colors = tuple(range(at, at + len(rules.colors)))
        at += len(rules.colors)
        self.target, self.catch, self.uno = (tuple(range(at + k * n, at + (k + 1) * n))
                                             for k in range(3))
        at += 3 * n
        self.give = tuple(at + i for i in by_face)
        self.jump_in = tuple(at + len(names) + i for i in by_face)
        sides, combos = side_names(rules), combo_names(rules)
        values = outcome_values(rules)
        # the losers, the passes, the sides, any table outcomes, the combos, the presses, then
        # each seat's `end` of a turn of several plays
        presses = len(press_piles(rules))
        ends = n if rules.turn_plays else 0
        loser = len(self.table) - 2 * n - n * len(sides) - len(values) \
            - n * 2 * len(combos) * piles - n * presses - ends
        self.loser = tuple(range(loser, loser + n))
        self.pass_ = loser + n + seat
        at = loser + 2 * n + seat * len(sides)
        self.side = {name: at + i for i, name in enumerate(sides)}  # by answer
        first = loser + 2 * n + n * len(sides)
        self.outcome = {v: first + i for i, v in enumerate(values)}
        # A combo play's id by its names, UNO called or not and pile.
        at = first + len(values) + seat * 2 * len(combos) * piles
        self.combo = {(COMBO.join(names), uno, pile): at + (k * 2 + u) * piles + pile
                      for k, names in enumerate(combos) for u, uno in enumerate((False, True))
                      for pile in range(piles)}
        at = first + len(values) + n * 2 * len(combos) * piles + seat * presses
        self.press = tuple(range(at, at + presses))  # by pile
        # The seat's `end` of a turn of several plays (-1 without them).
        self.end = len(self.table) - n + seat if ends else -1


def numbers_of(rules: Rules, rank: int, number: bool = True) -> tuple[int, ...]:
    """The numbers a card of ``rank`` counts as (``number``: whether it is a number card;
    -1: no card): its deck group's ``numbers`` (Rules.rank_numbers), else a number card's
    own number; () for none."""
    if rank < 0:
        return ()
    if rules.rank_numbers:
        return rules.rank_numbers[rank]
    name = rules.ranks[rank]
    return (int(name),) if number and name.isdigit() else ()


def sums_to(choices: Sequence[tuple[int, ...]], targets: tuple[int, ...]) -> bool:
    """Whether one number from each of ``choices`` can add up to one of ``targets`` (a
    wild number counting as whichever suits)."""
    totals = {0}
    for numbers in choices:
        totals = {t + n for t in totals for n in numbers}
    return not totals.isdisjoint(targets)


def combo_fits(combo: Combo, faces: Sequence[Face], rules: Rules) -> bool:
    """Whether ``faces`` (in play order) are a ``combo`` whatever the pile: the first's rank,
    the rank or colour they share, and (``sum``) number cards only. The pile's own test
    (the sum, or the first card's match) is :meth:`Legality.combo_ids`'."""
    first = faces[0]
    if combo.first and first.rank not in combo.first:
        return False
    if combo.same == "rank" and any(f.rank != first.rank for f in faces):
        return False
    if combo.same == "color" and any(f.color != first.color or f.color == NO_COLOR
                                     for f in faces):
        return False
    return not combo.sum or all(numbers_of(rules, f.rank, f.number) for f in faces)


def combo_names(rules: Rules) -> tuple[tuple[str, ...], ...]:
    """Every sequence of card names some combo of the rulebook allows on some pile (the
    combo plays of the action table, bounded by the combos' own rules: a sum no number of
    the deck reaches is left out); none without ``combos``."""
    got: tuple[tuple[str, ...], ...] | None = rules.memo.get("combo_names")
    if got is None:
        found: dict[tuple[str, ...], None] = {}
        values = tuple({n for f in rules.faces for n in numbers_of(rules, f.rank, f.number)})
        by_name = {f.name: f for f in rules.faces}
        names = list(by_name)
        for combo in rules.combos:
            for seq in product(names, repeat=combo.cards):
                faces = [by_name[n] for n in seq]
                if combo_fits(combo, faces, rules) and (not combo.sum or sums_to(
                        [numbers_of(rules, f.rank, f.number) for f in faces], values)):
                    found[seq] = None
        got = rules.memo["combo_names"] = tuple(found)
    return got


def combo_set(rules: Rules) -> frozenset[tuple[str, ...]]:
    """:func:`combo_names` as a set (a hand's candidate sequences are looked up in it)."""
    got: frozenset[tuple[str, ...]] | None = rules.memo.get("combo_set")
    if got is None:
        got = rules.memo["combo_set"] = frozenset(combo_names(rules))
    return got


def uno_by_hand(rules: Rules, sheds: bool = False) -> tuple[bool, ...]:
    """:func:`calls_uno` for every hand size up to the deck's, of a card that sheds nothing
    (``sheds``: of one that may shed more)."""
    key = ("uno_by_hand", sheds)
    got: tuple[bool, ...] | None = rules.memo.get(key)
    if got is None:
        s = rules.settings
        got = rules.memo[key] = tuple(calls_uno(n, sheds, s.uno_after_effects, s.call_at,
                                                s.false_call_penalty > 0)
                                      for n in range(len(rules.deck) + 1))
    return got


def seat_actions(rules: Rules, players: int) -> tuple[SeatActions, ...]:
    """The action ids of every seat of a ``players``-seat game."""
    key = ("seat_actions", players)
    got: tuple[SeatActions, ...] | None = rules.memo.get(key)
    if got is None:
        got = rules.memo[key] = tuple(SeatActions(rules, seat, players)
                                      for seat in range(players))
    return got


def match_tables(rules: Rules, side: int) -> dict[int, frozenset[int]]:
    """The cards (ids) that match a top card on ``side``, by :func:`match_key`: filled in
    by :func:`matching` as keys come up."""
    tables: dict[int, frozenset[int]] = rules.memo.setdefault(("match", side), {})
    return tables


def match_flag_tables(rules: Rules, side: int) -> dict[int, bytes]:
    """:func:`match_tables` as one byte per card (1: it matches), by the same keys: a lookup
    per held card for the short turn path (filled by ``Legality.matching_flags``)."""
    tables: dict[int, bytes] = rules.memo.setdefault(("match_flags", side), {})
    return tables


def match_key(color: int, rank: int) -> int:
    """One int for a colour in force and a top card's rank (-1: none)."""
    return (color << 32) + rank  # unique for any rank below 2**32


def matching(tables: dict[int, frozenset[int]], faces: tuple[Face, ...], color: int,
             rank: int, match: tuple[str, ...],
             numbers: tuple[tuple[int, ...], ...] = ()) -> frozenset[int]:
    """The cards whose face (``faces``: card id -> face on the side in play) matches the
    colour in force ``color`` and the top card's ``rank`` by one of the rulebook's ways
    ``match`` (:func:`matches`); legality conditions come on top. Remembered in ``tables``."""
    found = frozenset(card for card, f in enumerate(faces)
                      if matches(f, color, rank, match, numbers))
    tables[match_key(color, rank)] = found
    return found


def matches(face: Face, color: int, rank: int, match: tuple[str, ...],
            numbers: tuple[tuple[int, ...], ...] = ()) -> bool:
    """Whether ``face`` may go on a top card of ``rank`` (-1: none) under the colour in
    force ``color``, by one of the ways in ``match`` (the rulebook's `match:`; ``numbers``:
    its wild numbers, Rules.rank_numbers): ``color``
    (it has that colour), ``rank`` (the same rank), ``number`` (a number card of the same
    rank), ``wild`` (it has no colour), ``any`` (every card), ``on_uncolored`` (every card,
    when no colour is in force: a wild top that names none). The one place this rule lives:
    the match tables are built from it."""
    for way in match:
        if way == "any" or (way == "wild" and face.color == NO_COLOR) or \
                (way == "on_uncolored" and color == NO_COLOR) or \
                (way == "color" and face.color == color != NO_COLOR) or \
                (way == "rank" and face.rank == rank) or \
                (way == "number" and _same_number(face, rank, numbers)):
            return True
    return False


def second_matching(rules: Rules, side: int, color: int) -> frozenset[int]:
    """The cards (ids) on ``side`` whose second colour is ``color``: played as their
    alternative, they match it (:func:`matching`'s rule for a card's other colour)."""
    tables: dict[int, frozenset[int]] = rules.memo.setdefault(("second", side), {})
    got = tables.get(color)
    if got is None:
        got = tables[color] = frozenset(card for card, f in enumerate(rules.side_faces[side])
                                        if f.second_color == color != NO_COLOR)
    return got


def _same_number(face: Face, rank: int, numbers: tuple[tuple[int, ...], ...]) -> bool:
    """The ``number`` way: a number card of the top card's number; with wild numbers
    (``numbers``: Rules.rank_numbers) a card counting as a number the top card counts as."""
    if not numbers:
        return face.number and face.rank == rank
    return rank >= 0 and not set(numbers[face.rank]).isdisjoint(numbers[rank])


def guarded(rules: Rules, side: int) -> frozenset[int]:
    """The cards (ids) on ``side`` that are played only when their ``legal_if`` holds (no
    bluffing): playability checks them one by one."""
    key = ("guarded", side)
    got: frozenset[int] | None = rules.memo.get(key)
    if got is None:
        got = rules.memo[key] = frozenset(
            card for card, rule in enumerate(rules.side_rules[side])
            if rule is not None and rule.legal_if is not None and not rule.bluff)
    return got


def plain_turns(rules: Rules) -> bool:
    """Whether a turn's plays are simply the held cards that match the top card: one side,
    one discard pile, no card played only when its ``legal_if`` holds, any card may go
    out (no ``go_out_on: number``, no card's ``going_out: not_allowed``), UNO called on the
    next-to-last card only. Turns then take a shorter path."""
    got: bool | None = rules.memo.get("plain_turns")
    if got is None:
        got = rules.memo["plain_turns"] = (
            len(rules.sides) == 1 and rules.discard_piles == 1 and not guarded(rules, 0)
            and not rules.alternatives
            and rules.settings.go_out_on == "any" and not rules.settings.uno_after_effects
            and not rules.combos
            and all(r is None or (r.going_out == "ends_round" and not r.uno_after)
                    for r in rules.rules))
    return got


def play_extras(rules: Rules) -> bool:
    """Whether a card played may do more than leave the hand and act: pile counters, a
    card played as its alternative, a false UNO call's penalty, a card that does not end
    the round when it goes out. Most rulebooks have none: the play then skips their checks."""
    got: bool | None = rules.memo.get("play_extras")
    if got is None:
        got = rules.memo["play_extras"] = bool(
            rules.pile_limits or rules.settings.false_call_penalty
            or any(r is not None and (r.alt_effect is not None or r.going_out == "continues")
                   for r in rules.rules))
    return got
