"""The checks of the JSON text ``UnoRulesState.serialize()`` writes (uno_rules/rl/openspiel.py):
each field's type, range and agreement with OpenSpiel's history, so that
``deserialize_state`` reads nothing it didn't check (``spec``: the ``UnoRulesGame``)."""

from __future__ import annotations

import json
from typing import Any

from ..engine.errors import SnapshotError
from .cardchance import DEAL

FORMAT = "uno_rules.rl.openspiel state 4"  # the first field of state.serialize()'s JSON


def short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def checked_fields(text: Any) -> dict[str, Any]:
    """The serialized state's JSON object, its fields all there and none other."""
    if not isinstance(text, str):
        raise SnapshotError(f"serialized state: expected text, not {type(text).__name__}")
    try:
        fields = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, nested absurdly deep, a huge number
        raise SnapshotError("serialized state: not the JSON state.serialize() writes "
                            "(pyspiel.serialize_game_and_state's format is not read "
                            "here)") from None
    if type(fields) is not dict or fields.get("format") != FORMAT:
        raise SnapshotError(f"serialized state: format: expected {FORMAT!r}")
    if sorted(fields) != ["cards", "format", "history", "memory", "passed", "pending",
                          "round"]:
        raise SnapshotError(f"serialized state: expected the fields cards, format, history, "
                            f"memory, passed, pending and round, not "
                            f"{short(sorted(fields))}")
    return fields


def checked_pending(fields: dict[str, Any], spec: Any,
             history: list[tuple[int, int]]) -> tuple[tuple[int, int] | None, list[int]]:
    """The action waiting for cards (``[seat, action]``, DEAL's ``[-1, -1]`` before the
    deal) and the cards chosen for it: the last action of the history and the card outcomes
    after it."""
    pending, cards, size = fields["pending"], fields["cards"], len(spec.table)
    tail = len(history)
    while tail and history[tail - 1][0] == -1 and history[tail - 1][1] >= size \
            and not spec.deals:
        tail -= 1
    chosen = [a - size for _, a in history[tail:]]
    if pending is None:
        if cards != [] or (not spec.deals and not history):  # mid-deal: _restored says
            raise SnapshotError(f"serialized state: pending: none, yet chance is choosing "
                                f"cards {short(cards)}")
        return None, []
    p, a = history[tail - 1] if tail else (-1, DEAL)
    last = [p, a if a == DEAL else spec.table_id(p, a)]  # a shared id as the table's
    if spec.deals or pending != last or cards != chosen:
        raise SnapshotError(f"serialized state: pending: {short(pending)} with cards "
                            f"{short(cards)} is not the history's last action and its cards")
    return (last[0], last[1]), cards


def checked_history(history: Any, spec: Any) -> list[tuple[int, int]]:
    """OpenSpiel's history, checked: the deal (chance, one of the deal outcomes), then
    actions of the table by a seat or chance."""
    if type(history) is not list:
        raise SnapshotError(f"serialized state: history: {short(history)} is not a list")
    longest = spec.max_chance_nodes_in_history() + spec.max_actions * spec.players
    if len(history) > longest:
        raise SnapshotError(f"serialized state: history: {len(history)} actions, more than "
                            f"this game's {longest}")
    out = []
    for i, item in enumerate(history):
        if not (type(item) is list and len(item) == 2 and all(type(x) is int for x in item)
                and _valid_item(spec, i, item[0], item[1])):
            raise SnapshotError(f"serialized state: history[{i}]: {short(item)} is not "
                                "[player, action] of this game")
        out.append((item[0], item[1]))
    return out


def _valid_item(spec: Any, i: int, player: int, action: int) -> bool:
    """Whether ``[player, action]`` can be the history's ``i``-th item: the deal's seed
    first (``deals``), a card chance chose (``deals: 0``), or a table action of a seat or
    chance."""
    size = len(spec.table)
    if spec.deals and i == 0:
        return player == -1 and size <= action < size + spec.deals
    if player == -1 and not spec.deals and size <= action < size + spec.faces + spec.limits:
        return True
    return -1 <= player < spec.players and 0 <= action < size \
        and spec.table_id(player, action) >= 0


def checked_passed(passed: Any, spec: Any, history: list[tuple[int, int]]) -> list[int]:
    """The seats that passed in the window open now: distinct seats, exactly the history's
    trailing passes (after its last other action), in order. A history cut short or a list
    edited would otherwise be replayed into another state (another seat to move)."""
    if not (type(passed) is list and all(type(s) is int for s in passed)
            and len(set(passed)) == len(passed) < spec.players
            and all(0 <= s < spec.players for s in passed)):
        raise SnapshotError(f"serialized state: passed: {short(passed)} is not a list "
                            f"of distinct seats of {spec.players}")
    trailing = _passes(spec, history)[1]
    if passed != trailing:
        raise SnapshotError(f"serialized state: passed: {short(passed)} is not the "
                            f"history's trailing passes {short(trailing)}")
    return passed


def _passes(spec: Any, history: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """The seats of the history's passes and of its trailing ones, each in order."""
    seats = [p if p >= 0 and spec.table[spec.table_id(p, a)].kind == "pass" else -1
             for p, a in history]
    tail = len(seats)
    while tail and seats[tail - 1] >= 0:
        tail -= 1
    return [s for s in seats if s >= 0], seats[tail:]


def checked_memory_passes(memory: Any, spec: Any, history: list[tuple[int, int]],
                          taken: int) -> None:
    """The memory's passes are the history's, in order, the open window's after the round's
    last action (``taken``: how many the round holds)."""
    mine = [e for e in memory.items() if len(e) == 2]
    every, trailing = _passes(spec, history)
    if [e[1] for e in mine] != every or \
            any(e[0] != taken for e in mine[len(mine) - len(trailing):]):
        raise SnapshotError("serialized state: memory: its passes are not the history's "
                            f"{short(every)}")
