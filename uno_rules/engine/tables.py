"""Tables derived from a compiled rulebook once, so that a decision costs lookups, not
rebuilding: the actions each seat can be offered (interned: an option is the same object
every time), and which cards match a given top card.

They are cached in :attr:`Rules.memo` (made on first use, shared by every game of the
rulebook) and are not part of the rulebook's value.
"""

from __future__ import annotations

from .actions import Action
from .model import NO_COLOR, Face, Rules


class SeatActions:
    """The interned actions of one seat. ``play[pile * faces + face]`` and ``play_uno[...]``
    are the plays of a face onto a discard pile (without and with UNO called)."""

    __slots__ = ("play", "play_uno", "draw", "only_draw", "keep", "challenge", "accept",
                 "colors")

    def __init__(self, rules: Rules, seat: int):
        self.play: list[Action] = []
        self.play_uno: list[Action] = []
        for pile in range(rules.discard_piles):
            for face in rules.faces:
                plain = Action(seat, "play", face.name, False, pile)
                called = Action(seat, "play", face.name, True, pile)
                self.play.append(plain)
                self.play_uno.append(called)
        self.draw = Action(seat, "draw")
        self.only_draw = (self.draw,)
        self.keep = Action(seat, "keep")
        self.challenge = Action(seat, "challenge")
        self.accept = Action(seat, "accept")
        self.colors = tuple(Action(seat, "color", name) for name in rules.colors)


def seat_actions(rules: Rules, players: int) -> tuple[SeatActions, ...]:
    """The interned actions of every seat of a ``players``-seat game."""
    key = ("seat_actions", players)
    got: tuple[SeatActions, ...] | None = rules.memo.get(key)
    if got is None:
        longest = rules.memo.get(("seat_actions", rules.players_max))
        if longest is not None:  # the same objects whatever the number of players
            got = longest[:players]
        else:
            got = tuple(SeatActions(rules, seat) for seat in range(players))
        rules.memo[key] = got
    return got


def match_tables(rules: Rules, side: int) -> dict[int, frozenset[int]]:
    """The cards (ids) that match a top card on ``side``, by :func:`match_key`: filled in
    by :func:`matching` as keys come up."""
    tables: dict[int, frozenset[int]] = rules.memo.setdefault(("match", side), {})
    return tables


def match_key(color: int, rank: int) -> int:
    """One int for a colour in force and a top card's rank (-1: none)."""
    return (color << 32) + rank  # unique for any rank below 2**32


def matching(tables: dict[int, frozenset[int]], faces: tuple[Face, ...], color: int,
             rank: int) -> frozenset[int]:
    """The cards whose face (``faces``: card id -> face on the side in play) matches
    ``color`` or ``rank``, or is colourless; legality conditions come on top. Remembered in
    ``tables``."""
    found = frozenset(card for card, f in enumerate(faces)
                      if f.color == NO_COLOR or f.color == color or f.rank == rank)
    tables[match_key(color, rank)] = found
    return found


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
    out, UNO called on the next-to-last card only. Turns then take a shorter path."""
    got: bool | None = rules.memo.get("plain_turns")
    if got is None:
        got = rules.memo["plain_turns"] = (
            len(rules.sides) == 1 and rules.discard_piles == 1 and not guarded(rules, 0)
            and rules.settings.go_out_on == "any" and not rules.settings.uno_after_effects)
    return got
