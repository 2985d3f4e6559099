"""Perfect recall for OpenSpiel's information states (uno_rules/rl/openspiel.py): a round's
memory, what each seat saw happen to its own hand and what every seat saw played.

:class:`Memory` is appended to after each action the round takes (the deal included) and
each pass of an out-of-turn window: for an action, the cards each seat's hand gained (drawn,
dealt, received; in the order they came) and lost (played, given, discarded), per seat, and
the cards the discard piles gained (played, turned up: public); for a pass, who passed.
A seat's information state is its view, the public history with the passes where they fell,
and its own hand's changes: two rounds that differ only in the cards a seat drew (or their
order across actions) give it different information states.

:class:`RecallTensor` encodes it at a fixed size, declared up front: the observation, then
counts per card id of the cards played (public), of the cards the seat's hand gained and of
those it lost since the deal, then the last :data:`PUBLIC_ACTIONS` public actions (passes
included), most recent first, one-hot over the action table plus one slot per seat for an
action whose argument the seat didn't see (a card given between others). Older public
actions drop out of that window; only the counts remember them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import Any

from ..engine.actions import Action
from ..engine.errors import SnapshotError
from ..engine.game import Game
from ..engine.view import seen_actions

PUBLIC_ACTIONS = 16  # the public actions the information-state tensor holds one by one

Hands = tuple[tuple[int, ...], ...]
Change = tuple[int, tuple[int, ...], tuple[int, ...]]  # a seat, the cards gained, lost
# A pass: (actions taken, the seat); an action: (actions taken, changes, cards played)
Entry = tuple[int, int] | tuple[int, tuple[Change, ...], tuple[int, ...]]


def _diff(old: tuple[int, ...], new: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The cards ``new`` holds that ``old`` didn't (in ``new``'s order), and those it lost
    (sorted)."""
    n = len(old)
    if len(new) >= n and new[:n] == old:  # the usual cases first: cards added at the end,
        return new[n:], ()
    if len(new) == n - 1:  # or one card taken out
        i = next((i for i in range(len(new)) if new[i] != old[i]), len(new))
        if new[i:] == old[i + 1:]:
            return (), (old[i],)
    left = Counter(old)
    gained = []
    for card in new:
        if left[card] > 0:
            left[card] -= 1
        else:
            gained.append(card)
    return tuple(gained), tuple(sorted(left.elements()))


def _tip(game: Game | None) -> tuple[Hands, tuple[int, ...]]:
    if game is None:
        return (), ()
    return tuple(map(tuple, game.hands)), tuple(chain.from_iterable(game._discards))


class Memory:
    """A round's memory (see the module's docstring). Clones share the entries, an
    append-only list, each knowing its own length: a clone appending where another
    already did copies its part first. ``tip``: the hands and discard piles after the last
    action remembered (what the next one is compared with)."""

    __slots__ = ("entries", "length", "hands", "discards")

    def __init__(self, entries: list[Entry] | None = None, game: Game | None = None) -> None:
        self.entries: list[Entry] = entries if entries is not None else []
        self.length = len(self.entries)
        self.hands, self.discards = _tip(game)

    def __deepcopy__(self, memo: dict[int, Any]) -> Memory:
        new = Memory.__new__(Memory)
        new.entries, new.length = self.entries, self.length
        new.hands, new.discards = self.hands, self.discards
        return new

    def __getstate__(self) -> dict[str, Any]:
        return {"entries": self.items(), "hands": self.hands, "discards": self.discards}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.entries, self.length = list(state["entries"]), len(state["entries"])
        self.hands, self.discards = state["hands"], state["discards"]

    def items(self) -> list[Entry]:
        return self.entries[:self.length]

    def _add(self, entry: Entry) -> None:
        if len(self.entries) != self.length:  # another copy appended here: ours apart
            self.entries = self.entries[:self.length]
        self.entries.append(entry)
        self.length += 1

    def passed(self, game: Game, seat: int) -> None:
        self._add((len(game.history), seat))

    def acted(self, game: Game) -> None:
        """The round took an action (or was dealt): what changed, against the tip."""
        hands, discards = _tip(game)
        old = self.hands or tuple(() for _ in hands)
        changes = tuple((s, *_diff(o, h)) for s, (o, h) in enumerate(zip(old, hands, strict=True))
                        if o != h)
        played = _diff(self.discards, discards)[0] if discards != self.discards else ()
        self._add((len(game.history), changes, played))
        self.hands, self.discards = hands, discards

    def kept_for(self, seat: int, game: Game) -> Memory:
        """The memory of a resampled round (:meth:`Game.resample` for ``seat``): the other
        seats' own changes dropped (they were the original world's cards; none invented:
        docs/embedding.md, "Observations", says why), the tip the new round's."""
        entries: list[Entry] = [e if len(e) == 2 else
                                (e[0], tuple(c for c in e[1] if c[0] == seat), e[2])
                                for e in self.items()]
        return Memory(entries, game)

    def to_json(self) -> list[Any]:
        return [list(e) if len(e) == 2 else
                [e[0], [[s, list(g), list(lo)] for s, g, lo in e[1]], list(e[2])]
                for e in self.items()]


def memory_from_json(data: Any, game: Game | None, faces: int, players: int) -> Memory:
    """A :class:`Memory` from :meth:`Memory.to_json`'s list, checked (types, seats, card
    ids, action counts never falling and never past the round's), the tip ``game``'s."""
    if type(data) is not list:
        raise SnapshotError(f"serialized state: memory: expected a list, not {type(data).__name__}")
    taken = 0 if game is None else len(game.history)
    entries: list[Entry] = []
    last = 0
    for i, item in enumerate(data):
        entry = _entry(item, faces, players)
        if entry is None or not last <= entry[0] <= taken:
            raise SnapshotError(f"serialized state: memory[{i}]: not a pass [ACTIONS, SEAT] "
                                "or an action [ACTIONS, CHANGES, PLAYED] of this round")
        last = entry[0]
        entries.append(entry)
    return Memory(entries, game)


def _cards(value: Any, faces: int) -> tuple[int, ...] | None:
    if type(value) is not list or not all(type(c) is int and 0 <= c < faces for c in value):
        return None
    return tuple(value)


def _entry(item: Any, faces: int, players: int) -> Entry | None:
    """One checked entry, or None."""
    if type(item) is not list or not item or type(item[0]) is not int:
        return None
    if len(item) == 2:
        seat = item[1]
        return (item[0], seat) if type(seat) is int and 0 <= seat < players else None
    if len(item) != 3 or type(item[1]) is not list:
        return None
    changes = []
    for change in item[1]:
        if not (type(change) is list and len(change) == 3 and type(change[0]) is int
                and 0 <= change[0] < players):
            return None
        gained, lost = _cards(change[1], faces), _cards(change[2], faces)
        if gained is None or lost is None:
            return None
        changes.append((change[0], gained, lost))
    played = _cards(item[2], faces)
    return None if played is None else (item[0], tuple(changes), played)


def public_history(game: Game, seat: int, memory: Memory | None = None) -> list[str]:
    """The actions taken, as ``seat`` saw them: a card given between others is hidden, and
    another seat's ``keep`` left out (outside OpenSpiel's rounds a drawn card is asked
    about only when it is playable: the others would learn that);
    with ``memory``, each pass where it fell."""
    return [str(a) for a in _public(game, seat, memory)]


def _public(game: Game, seat: int, memory: Memory | None) -> list[Action]:
    passes: dict[int, list[int]] = {}
    if memory is not None:
        for e in memory.items():
            if len(e) == 2:
                passes.setdefault(e[0], []).append(e[1])
    out: list[Action] = []
    for i, a in enumerate(seen_actions(game.history, seat)):
        out += [Action(s, "pass") for s in passes.get(i, ())]
        if a.kind != "keep" or a.seat == seat:
            out.append(a)
    return out + [Action(s, "pass") for s in passes.get(len(game.history), ())]


def private_history(game: Game, seat: int, memory: Memory) -> list[str]:
    """``seat``'s own hand's changes, each ``ACTIONS: +CARDS -CARDS`` (the round's
    actions taken by then; either part left out when empty)."""
    name = game.rulebook.card_name
    out = []
    for e in memory.items():
        if len(e) == 2:
            continue
        for s, gained, lost in e[1]:
            if s == seat:
                out.append(f"{e[0]}:" + "".join(f" {sign}{', '.join(map(name, cards))}"
                                                for sign, cards in (("+", gained), ("-", lost))
                                                if cards))
    return out


def counts(memory: Memory, seat: int, faces: int) -> tuple[list[int], list[int], list[int]]:
    """Per card id: the cards played (public, the first card too), those ``seat``'s hand
    gained and lost since the deal (the dealt hand is in the observation)."""
    played, gained, lost = [0] * faces, [0] * faces, [0] * faces
    for e in memory.items():
        if len(e) == 2:
            continue
        for c in e[2]:
            played[c] += 1
        if e[0] == 0:  # the deal (and its first card's rules): no action taken yet
            continue
        for s, g, lo in e[1]:
            if s == seat:
                for c in g:
                    gained[c] += 1
                for c in lo:
                    lost[c] += 1
    return played, gained, lost


class RecallTensor:
    """The information-state tensor's extra parts after the observation (module
    docstring): their names and lengths, and :meth:`fill`."""

    def __init__(self, table: Sequence[Action], faces: int, players: int) -> None:
        self.ids = {a: i for i, a in enumerate(table)}
        self.faces, self.players = faces, players
        self.slot = len(table) + players  # one public action: a table id or a hidden one's seat
        self.parts = (("played", faces), ("gained", faces), ("lost", faces),
                      ("public_actions", PUBLIC_ACTIONS * self.slot))
        self.size = 3 * faces + PUBLIC_ACTIONS * self.slot

    def played(self, memory: Memory) -> list[int]:
        """The counts per card id of the cards played this round (public)."""
        return counts(memory, -1, self.faces)[0]

    def fill(self, out: Any, game: Game, seat: int, memory: Memory) -> None:
        """Write the parts into ``out`` (a zeroed float array of :attr:`size`)."""
        faces = self.faces
        for k, part in enumerate(counts(memory, seat, faces)):
            out[k * faces:(k + 1) * faces] = part
        base, n = 3 * faces, len(self.ids)
        recent = _public(game, seat, memory)[::-1][:PUBLIC_ACTIONS]
        for k, action in enumerate(recent):
            i = self.ids.get(action)
            if i is None:  # its argument unseen: the seat's hidden-action slot
                i = n + (action.seat or 0)
            out[base + k * self.slot + i] = 1.0


__all__ = ["PUBLIC_ACTIONS", "Memory", "RecallTensor", "memory_from_json", "private_history",
           "public_history"]
