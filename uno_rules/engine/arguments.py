"""The checks of a new game's arguments (``Rulebook.new_game``, ``Game``): the first wrong
one is refused with an :class:`IllegalAction` naming it, before anything is dealt."""

from __future__ import annotations

from typing import Any

from .errors import IllegalAction, show
from .model import Rules
from .state import SEED_LIMIT


def refuse_argument(name: str, value: Any, expected: str) -> IllegalAction:
    """The error for argument ``name`` given as ``value`` (shown short) where ``expected``."""
    got = "" if type(value) is int else f", got {type(value).__name__}"  # an int's the range
    return IllegalAction(f"{name}={show(value)}: expected {expected}{got}")


def check_arguments(rulebook: Rules, players: Any, seed: Any, *, dealer: Any = None,
                    log: Any = True, max_steps: Any = None, max_actions: Any = None,
                    out: Any = None) -> None:
    """Raise :class:`IllegalAction` naming the first argument of a new game that is wrong:
    ``players`` an int the rulebook allows (not a bool), ``seed`` None or an int with
    ``abs(seed) < SEED_LIMIT``, ``dealer`` None or an int, ``log`` a bool, ``max_steps`` /
    ``max_actions`` None or an int >= 1, ``out``: see :func:`check_out`. Checked up front,
    not found out midway."""
    if type(players) is not int:  # type(True) is bool: a bool is no number of players
        raise refuse_argument("players", players, f"a whole number of players "
                              f"({rulebook.name} is for {rulebook.players_text()})")
    if seed is not None and (type(seed) is not int or abs(seed) >= SEED_LIMIT):
        if type(seed) is int:
            raise IllegalAction(f"seed={show(seed)}: too large, expected a whole number "
                                "with abs(seed) < 2**256, or None")
        raise refuse_argument("seed", seed, "a whole number or None")
    if dealer is not None and type(dealer) is not int:
        raise refuse_argument("dealer", dealer, "a seat (int) or None")
    if type(log) is not bool:
        raise refuse_argument("log", log, "True or False")
    for name, value in (("max_steps", max_steps), ("max_actions", max_actions)):
        if value is not None and (type(value) is not int or value < 1):
            raise refuse_argument(name, value, "a whole number >= 1 or None")
    if out:
        check_out(rulebook, players, out, dealer)


def check_out(rulebook: Rules, players: int, out: Any, dealer: Any) -> None:
    """Raise :class:`IllegalAction` unless ``out`` (seats out of the match, not dealt in) is
    a list or tuple of distinct seats, not the dealer, leaving two players in, in a rulebook
    without partnerships (partners give to and draw for each other: a seat out would come back)."""
    if not isinstance(out, (list, tuple)) or \
            any(type(s) is not int or not 0 <= s < players for s in out) or \
            len(set(out)) != len(out):
        raise IllegalAction(f"out={show(out)}: expected a list of distinct seats "
                            f"0-{players - 1}")
    seat = players - 1 if dealer is None else dealer % players
    if seat in out:
        raise IllegalAction(f"out={show(out)}: the dealer, seat {seat}, is out of the match")
    if rulebook.team_size > 1:
        raise IllegalAction(f"out={show(out)}: {rulebook.name} plays in partnerships, whose seats "
                            "are never out of a match")
    if players - len(out) < 2:
        raise IllegalAction(f"out={show(out)}: fewer than two players left in")
