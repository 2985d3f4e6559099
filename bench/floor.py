"""A hard-coded classic round with the decisions of uno-rules' classic, written for speed:
what the fastest engine could reach with the bench's loop (see bench/README.md, "Floor").

It is a measuring stick, not an engine: classic's cards are written into the code here (the
one place in the project where they are; nothing under ``uno_rules/`` may do this). It offers
the same decisions as ``uno_rules.load_rulebook("classic")`` in the same order — the distinct
playable cards in face order (with the UNO variant on the next-to-last card) then ``draw``;
the drawn card if it is playable, then ``keep``; a colour after a wild; challenge or accept
after a Wild Draw Four — as the same interned ``Action`` and ``Decision`` values, so the
bench's loop is the same for both. It leaves out what costs time and that the loop never
sees: the event log, UNO catches, first-card rules (a first wild or action card counts as a
number), several discard piles, cards with sides, and any check of an action that was not
offered. So it is faster than any faithful engine could be: an upper bound.
"""

from __future__ import annotations

import random

from uno_rules.engine.actions import Action, Decision
from uno_rules.engine.model import NO_COLOR, Rules

NUMBER, SKIP, REVERSE, DRAW_TWO, WILD, WILD_DRAW_FOUR = range(6)
KINDS = {"skip": SKIP, "reverse": REVERSE, "draw_two": DRAW_TWO, "wild": WILD,
         "wild_draw_four": WILD_DRAW_FOUR}
TURN, DRAWN, COLOR, CHALLENGE = range(4)


class Tables:
    """What the floor engine precomputes from the classic rulebook (its deck and names)."""

    def __init__(self, rules: Rules, players: int):
        self.rules = rules
        faces = rules.faces
        self.color = [f.color for f in faces]
        self.rank = [f.rank for f in faces]
        self.kind = [KINDS.get(rules.ranks[f.rank], NUMBER) for f in faces]
        self.points = [f.points for f in faces]
        self.play = [[Action(s, "play", f.name) for f in faces] for s in range(players)]
        self.play_uno = [[Action(s, "play", f.name, True) for f in faces]
                         for s in range(players)]
        self.draw = [Action(s, "draw") for s in range(players)]
        self.keep = [Action(s, "keep") for s in range(players)]
        self.colors = [tuple(Action(s, "color", c) for c in rules.colors)
                       for s in range(players)]
        self.challenge = [(Action(s, "challenge"), Action(s, "accept")) for s in range(players)]
        self.matches: dict[int, frozenset[int]] = {}

    def matching(self, color: int, rank: int) -> frozenset[int]:
        key = color * 4096 + rank
        found = self.matches.get(key)
        if found is None:
            found = self.matches[key] = frozenset(
                c for c in range(len(self.color))
                if self.color[c] == NO_COLOR or self.color[c] == color or self.rank[c] == rank)
        return found


class FloorGame:
    """One classic round, hard-coded. ``decision``, ``apply``, ``over``, ``turns`` as a
    :class:`uno_rules.engine.game.Game`."""

    __slots__ = ("t", "n", "rng", "hands", "pile", "discard", "color", "direction", "seat",
                 "phase", "drawn", "player", "before", "over", "turns", "history", "uno_open",
                 "points", "_decision")

    def __init__(self, tables: Tables, players: int, seed: int):
        self.t, self.n = tables, players
        self.rng = random.Random(seed)
        deck = list(tables.rules.deck)
        self.rng.shuffle(deck)
        count = 7 * players
        dealt = deck[-count:][::-1]
        del deck[-count:]
        first = 0  # the dealer is the last seat
        self.hands = [dealt[(i - first) % players::players] for i in range(players)]
        top = deck.pop()
        self.pile, self.discard = deck, [top]
        self.color = tables.color[top]
        self.direction, self.seat, self.phase = 1, first, TURN
        self.drawn = self.player = self.before = -1
        self.over, self.turns, self.uno_open, self.points = False, 0, -1, 0
        self.history: list[Action] = []
        self._decision: Decision | None = None

    @property
    def decision(self) -> Decision:
        d = self._decision
        if d is not None:
            return d
        t, s = self.t, self.seat
        hand = self.hands[s]
        if self.phase == TURN:
            cards = sorted(t.matching(self.color, t.rank[self.discard[-1]]).intersection(hand))
            if not cards:
                opts: tuple[Action, ...] = (t.draw[s],)
            elif len(hand) == 2:
                both: list[Action] = []
                for c in cards:
                    both += (t.play_uno[s][c], t.play[s][c])
                both.append(t.draw[s])
                opts = tuple(both)
            else:
                opts = (*map(t.play[s].__getitem__, cards), t.draw[s])
            kind = "turn"
        elif self.phase == DRAWN:
            c = self.drawn
            opts = (t.play_uno[s][c], t.play[s][c], t.keep[s]) if len(hand) == 2 else \
                (t.play[s][c], t.keep[s])
            kind = "drawn"
        elif self.phase == COLOR:
            opts, kind = t.colors[s], "color"
        else:
            opts, kind = t.challenge[s], "challenge"
        d = self._decision = tuple.__new__(Decision, (s, kind, opts, ()))
        return d

    def apply(self, action: Action) -> None:
        options = self._decision.options  # type: ignore[union-attr]
        action = options[options.index(action)]  # ValueError: not offered
        self._decision = None
        self.history.append(action)
        t, s, kind = self.t, self.seat, action.kind
        if kind == "play":
            if self.phase == TURN:
                self.turns += 1
            card = t.rules.by_name[action.arg]  # type: ignore[index]
            self._play(s, card, action.uno)
        elif kind == "draw":
            self.turns += 1
            got = self._draw(s, 1)
            top = self.discard[-1]
            if got and got[0] in t.matching(self.color, t.rank[top]):
                self.drawn, self.phase = got[0], DRAWN
            else:
                self._next(s, 1)
        elif kind == "keep":
            self._next(s, 1)
        elif kind == "color":
            self.color = t.rules.color_ids[action.arg]  # type: ignore[index]
            if t.kind[self.discard[-1]] == WILD_DRAW_FOUR:
                self.player, self.phase = s, CHALLENGE
                self.seat = (s + self.direction) % self.n
            else:
                self._next(s, 1)
        elif kind == "accept":
            self._draw(s, 4)
            self._next(s, 1)
        else:  # challenge: guilty if the player held a card of the colour it replaced
            if self._guilty():
                self._draw(self.player, 4)
                self.phase = TURN
            else:
                self._draw(s, 6)
                self._next(s, 1)

    def _guilty(self) -> bool:
        colors, before = self.t.color, self.before
        return any(colors[c] == before for c in self.hands[self.player])

    def _play(self, s: int, card: int, uno: bool) -> None:
        t, hand = self.t, self.hands[s]
        hand.remove(card)
        self.discard.append(card)
        self.before, self.color = self.color, t.color[card]
        if len(hand) == 1 and not uno:
            self.uno_open = s
        if not hand:  # a last draw card still makes the next player draw (at_end steps)
            extra = {DRAW_TWO: 2, WILD_DRAW_FOUR: 4}.get(t.kind[card], 0)
            if extra:
                self._draw((s + self.direction) % self.n, extra)
            self.over = True
            self.points = sum(t.points[c] for h in self.hands for c in h)
            return
        kind = t.kind[card]
        if kind == NUMBER:
            self._next(s, 1)
        elif kind == SKIP:
            self._next(s, 2)
        elif kind == REVERSE:
            self.direction = -self.direction
            self._next(s, 2 if self.n == 2 else 1)
        elif kind == DRAW_TWO:
            self._draw((s + self.direction) % self.n, 2)
            self._next(s, 2)
        else:
            self.phase = COLOR

    def _next(self, s: int, steps: int) -> None:
        self.seat, self.phase = (s + steps * self.direction) % self.n, TURN

    def _draw(self, s: int, count: int) -> list[int]:
        pile, hand, got = self.pile, self.hands[s], []
        for _ in range(count):
            if not pile:
                rest = self.discard[:-1]
                if not rest:
                    break
                self.rng.shuffle(rest)
                self.pile = pile = rest
                del self.discard[:-1]
            card = pile.pop()
            hand.append(card)
            got.append(card)
        return got
