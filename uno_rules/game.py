"""The generic interpreter: a decision-based state machine running any compiled rulebook.

A :class:`Game` is one round. It always waits for exactly one :class:`Decision` (until the
round is over); :meth:`Game.apply` takes one of its options, or an out-of-turn action such
as a UNO catch. Card effects run as programs of primitives (see :mod:`uno_rules.effects`)
on an explicit frame stack, so a game can stop in the middle of an effect to ask a question
and can be snapshotted there.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .actions import Action, Decision, Result, shape_problem
from .effects import PRIMITIVES
from .errors import IllegalAction
from .legal import Legality
from .model import NO_COLOR, Rulebook

_RUN = {name: p.run for name, p in PRIMITIVES.items()}


class Ctx:
    """The context of one card being resolved: who played it and what was decided."""

    __slots__ = ("actor", "face", "honest", "prev_color", "final", "target", "challenger",
                 "loser", "drawn")

    def __init__(self, actor: int, face: int = -1, honest: bool = True,
                 prev_color: int = NO_COLOR, final: bool = False):
        self.actor = actor
        self.face = face
        self.honest = honest
        self.prev_color = prev_color
        self.final = final          # the card ended the round: only at-end steps run
        self.target = -1
        self.challenger = -1
        self.loser = -1
        self.drawn = -1             # the card the draw step drew last

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ctx:
        ctx = cls(0)
        for k in cls.__slots__:
            setattr(ctx, k, data[k])
        return ctx


class Game(Legality):
    """One round of a rulebook. Create it with :meth:`Rulebook.new_game`."""

    def __init__(self, rulebook: Rulebook, players: int, seed: int | None = None, *,
                 dealer: int | None = None, log: bool = True, _deal: bool = True):
        if players not in rulebook.player_counts():
            raise IllegalAction(f"{rulebook.name} is for {rulebook.players_text()} players, "
                                f"not {players}")
        self.rulebook = rulebook
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.dealer = players - 1 if dealer is None else dealer % players
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.draw_pile: list[int] = []   # top card last
        self.discard: list[int] = []     # top card last
        self.out: list[int] = []         # out of play (in the box)
        self.color = NO_COLOR
        self.direction = 1
        self.skips = 0
        self.turn_to: int | None = None
        self.uno_open = -1               # seat that may be caught for not calling UNO
        self.stack: list[list[Any]] = []  # frames: [program id, pc, ctx]
        self.ctx = Ctx(self.dealer)
        self.pending: tuple[str, int | None, Ctx | None, Any] | None = None
        self.out_seats: list[int] = []   # seats that went out while their team played on
        # Cards being chosen to give (give_cards); a stack, as a draw during one (a catch's
        # penalty with an after-draw give) may start another.
        self.giving: list[dict[str, Any]] = []
        self.stack_total = 0             # a pending stacked draw (stack_draw)
        self.stack_value = 0             # the value of the last card stacked
        self.stack_ctx: Ctx | None = None  # that card, for a challenge
        self.stack_penalty: int | None = None
        self.eliminated: list[int] = []  # seats knocked out of the round
        self.over = False
        self.result: Result | None = None
        self.turns = 0
        self.history: list[Action] = []
        self.log: list[tuple[Any, ...]] | None = [] if log else None
        self._decision: Decision | None = None
        if _deal:
            deck = list(rulebook.deck)
            self.rng.shuffle(deck)
            self.draw_pile = deck
            self.deal()
            self.start()

    # ----------------------------------------------------------------- public API
    @property
    def decision(self) -> Decision | None:
        """The pending decision, or None when the round is over."""
        if self._decision is None and self.pending is not None:
            kind, seat, _ctx, _data = self.pending
            self._decision = Decision(seat, kind, tuple(self._options()))
        return self._decision

    def legal_actions(self) -> list[Action]:
        """Every action allowed now: the decision's options plus out-of-turn actions."""
        if self.over:
            return []
        return list(self.decision.options) + self.out_of_turn_actions()  # type: ignore[union-attr]

    def apply(self, action: Action | str) -> None:
        """Take one action. Raises :class:`IllegalAction` and changes nothing if not allowed."""
        if isinstance(action, str):
            action = Action.parse(action)
        shape = shape_problem(action)
        if shape is not None:
            raise IllegalAction(f"malformed action: {shape}")
        if self.over:
            raise IllegalAction(f"{action}: the round is over")
        decision = self.decision
        assert decision is not None
        if action not in decision.options:  # options are canonical already: skip the parse
            action = self._canonical(action)
        if action.kind == "jump_in":
            if action not in self.out_of_turn_actions():
                raise IllegalAction(f"{action}: only the exact card on top may jump in, while "
                                    f"a turn is pending, by another seat")
            self.uno_open = -1
            self.pending = None
            self.stack.clear()
            self.turns += 1
            self.note("jump_in", action.seat)
            self._play(action.seat, self.rulebook.by_name[action.arg], True)  # type: ignore
        elif action.kind in ("catch", "uno"):
            if action not in self.out_of_turn_actions():
                raise IllegalAction(f"{action}: nobody is open to a catch or an UNO call now"
                                    if self.uno_open < 0 else f"{action}: only seat "
                                    f"{self.uno_open} can be caught, by an opponent, or called "
                                    f"for, by a partner")
            if action.kind == "uno":
                self.uno_open = -1
                self.note("uno", action.seat, action.arg)
            else:
                self._catch(action.seat, action.arg)  # type: ignore[arg-type]
        else:
            if action not in decision.options:
                raise IllegalAction(self._why_illegal(action, decision))
            if self.uno_open >= 0 and (action.seat != self.uno_open or decision.kind == "turn"):
                self.uno_open = -1
            self._answer(action)
        self.history.append(action)
        self._decision = None

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own hand, the others' hand sizes, the table."""
        names = self.rulebook.faces
        decision = self.decision
        return {
            "seat": seat,
            "hand": sorted(names[c].name for c in self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "top": names[self.discard[-1]].name if self.discard else None,
            "color": self.color_name,
            "direction": self.direction_name,
            "draw_pile_size": len(self.draw_pile),
            "discard_size": len(self.discard),
            "decision": None if decision is None else {
                "seat": decision.seat, "kind": decision.kind,
                "options": [str(a) for a in decision.options] if decision.seat == seat else None},
            "over": self.over,
            "result": None if self.result is None else self.result._asdict(),
        }

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
        return self.rulebook.faces[self.discard[-1]].name if self.discard else None

    def hand(self, seat: int) -> list[str]:
        """Seat's hand in card notation (sorted)."""
        return sorted(self.rulebook.faces[c].name for c in self.hands[seat])

    @property
    def events(self) -> list[str]:
        """The event log in words."""
        from .snapshot import describe_event

        return [describe_event(self, e) for e in self.log or []]

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-able data; :meth:`restore` continues identically."""
        from .snapshot import snapshot

        return snapshot(self)

    @classmethod
    def restore(cls, rulebook: Rulebook, data: Mapping[str, Any]) -> Game:
        """Rebuild a game from :meth:`snapshot` output."""
        from .snapshot import restore

        return restore(cls, rulebook, data)

    def __repr__(self) -> str:
        d = self.decision
        state = "over" if self.over else f"seat {d.seat} to {d.kind}" if d else "?"
        return f"<Game {self.rulebook.name} players={self.players} seed={self.seed} {state}>"

    # ------------------------------------------------------ used by the primitives
    def seat(self, expr: str, ctx: Ctx) -> int:
        """Resolve a seat expression of a primitive's parameters."""
        if expr == "self":
            return ctx.actor
        if expr == "next":
            return self.advance(ctx.actor, 1)
        if expr == "prev":
            return self.advance(ctx.actor, -1)
        if expr == "partner":
            return self.partner(ctx.actor)
        if expr == "next_partner":
            return self.partner(self.advance(ctx.actor, 1))
        if expr == "target":
            return ctx.target
        if expr == "challenger":
            return ctx.challenger
        if expr == "loser":
            return ctx.loser
        if expr == "dealer":
            return self.dealer
        if expr == "first":
            return (self.dealer + 1) % self.players
        raise ValueError(f"unknown seat expression {expr!r}")  # the loader rejects these

    def team_of(self, seat: int) -> int:
        """The team of ``seat``: seats ``players / team_size`` apart share a team."""
        return seat % (self.players // self.rulebook.team_size)

    def partner(self, seat: int) -> int:
        """The next member of ``seat``'s team (itself when playing alone)."""
        return (seat + self.players // self.rulebook.team_size) % self.players

    def teammates(self, seat: int) -> list[int]:
        step = self.players // self.rulebook.team_size
        return sorted((seat + i * step) % self.players for i in range(self.rulebook.team_size))

    def advance(self, seat: int, steps: int) -> int:
        """The seat ``steps`` places away in the direction of play, passing players who are
        out (hold no cards)."""
        n, hands = self.players, self.hands
        delta = self.direction if steps >= 0 else -self.direction
        for _ in range(abs(steps)):
            for _ in range(n):
                seat = (seat + delta) % n
                if hands[seat]:
                    break
        return seat

    def note(self, *event: Any) -> None:
        if self.log is not None:
            self.log.append(event)

    def push(self, program: int, ctx: Ctx) -> None:
        self.stack.append([program, 0, ctx])

    def ask(self, kind: str, seat: int | None, ctx: Ctx | None, data: Any = None) -> None:
        self.pending = (kind, seat, ctx, data)

    def draw_cards(self, seat: int, count: int) -> list[int]:
        """Move up to ``count`` cards to ``seat``'s hand, reshuffling as needed; then queue
        the rulebook's after-draw steps."""
        got: list[int] = []
        pile, hand = self.draw_pile, self.hands[seat]
        for _ in range(count):
            if not pile:
                if not self._reshuffle():
                    break
                pile = self.draw_pile
            card = pile.pop()
            hand.append(card)
            got.append(card)
        if got and seat in self.out_seats:
            self.out_seats.remove(seat)  # holding cards again: back in
        self.note("draw", seat, count, tuple(got))
        if self.rulebook.after_draw is not None and count:
            self.push(self.rulebook.after_draw, Ctx(seat))
        return got

    def discard_color(self, seat: int) -> None:
        """Move every card of the colour in force from ``seat``'s hand under the top card."""
        faces, color, hand = self.rulebook.faces, self.color, self.hands[seat]
        gone = [c for c in hand if faces[c].color == color]
        if gone:
            self.hands[seat] = [c for c in hand if faces[c].color != color]
            self.discard[-1:-1] = gone
            self.note("discard", seat, tuple(gone))

    def return_played_card(self, ctx: Ctx) -> None:
        card = self.discard.pop()
        self.hands[ctx.actor].append(card)
        self.color = ctx.prev_color
        self.note("return", ctx.actor, card)

    def stack_draw(self, ctx: Ctx, count: int, penalty: int | None) -> None:
        """Add ``count`` to the pending stacked draw (drawn at once at the end of a round)."""
        if ctx.final:
            total, self.stack_total = self.stack_total + count, 0
            self.draw_cards(self.seat("next", ctx), total)
            return
        self.stack_total += count
        self.stack_value = count
        self.stack_ctx = ctx
        self.stack_penalty = penalty

    def rotate_hands(self) -> None:
        """Every hand passes to the next player in the direction of play."""
        seats = [s for s in range(self.players) if s not in self.eliminated]
        old = [self.hands[s] for s in seats]
        for i, hand in enumerate(old):
            self.hands[seats[(i + self.direction) % len(seats)]] = hand
        self.note("rotate")

    def knock_out(self, seat: int) -> None:
        """Take ``seat`` out of the round; its cards go under the draw pile."""
        if seat in self.eliminated:
            return
        self.draw_pile[0:0] = self.hands[seat]
        self.hands[seat] = []
        self.eliminated.append(seat)
        self.note("knock_out", seat)

    def start_giving(self, givers: list[int], count: int | str, together: bool,
                     ctx: Ctx) -> None:
        """Ask each giver in turn for ``count`` cards for its partner."""
        self.giving.append({"queue": [[g, count] for g in givers], "aside": [],
                            "together": together})
        self._next_give(ctx)

    def offer_drawn(self, ctx: Ctx) -> None:
        """Offer the card just drawn for play, if it is still held and playable."""
        card, seat = ctx.drawn, ctx.actor
        if card < 0 or card not in self.hands[seat] or self.rulebook.settings.play_drawn == \
                "never" or not self.playable(seat, [card]):
            return
        self.ask("drawn", seat, ctx, card)

    def deal(self) -> None:
        """Deal the hands one card at a time, starting left of the dealer."""
        first = (self.dealer + 1) % self.players
        pile = self.draw_pile
        for _ in range(self.rulebook.settings.hand_size):
            for i in range(self.players):
                self.hands[(first + i) % self.players].append(pile.pop())

    def start(self) -> None:
        """After the deal: turn the first card, run the setup steps, start the first turn."""
        if self.rulebook.setup is not None:
            self.push(self.rulebook.setup, Ctx(self.dealer))
        self.turn_first_card()
        self._run()

    def turn_first_card(self, put_back: bool = False) -> None:
        """Turn the top of the draw pile onto the discard pile and queue its first-card rule."""
        if put_back:
            self.draw_pile.append(self.discard.pop())
            self.rng.shuffle(self.draw_pile)
        if not self.draw_pile and not self._reshuffle():
            return  # nothing left to turn: the card below stays on top
        card = self.draw_pile.pop()
        self.discard.append(card)
        self.color = self.rulebook.faces[card].color
        self.note("first", card)
        self.ctx = ctx = Ctx(self.dealer, card)
        rule = self.rulebook.rules[card]
        if rule is not None:
            program = rule.effect if rule.first_card is None else rule.first_card
            if program is not None:
                self.push(program, ctx)

    def all_cards(self) -> list[int]:
        """Every card of the game wherever it is (for conservation checks)."""
        out = self.draw_pile + self.discard + self.out
        for hand in self.hands:
            out += hand
        for giving in self.giving:
            out += [card for _, _, card in giving["aside"]]
        return out

    # ------------------------------------------------------------------ internals
    def _reshuffle(self) -> bool:
        if len(self.discard) <= 1:
            return False
        top = self.discard.pop()
        pile = self.discard
        self.rng.shuffle(pile)
        self.draw_pile = pile
        self.discard = [top]
        self.note("reshuffle", len(pile))
        return True

    def _run(self) -> None:
        """Run effect frames until a decision is needed or the effect is done."""
        stack, programs = self.stack, self.rulebook.programs
        while stack:
            frame = stack[-1]
            if frame[0] < 0:  # an out-of-turn action's steps are done: resume what was pending
                stack.pop()
                self.pending = frame[2]
                return
            program = programs[frame[0]]
            pc = frame[1]
            if pc >= len(program):
                stack.pop()
                continue
            frame[1] = pc + 1
            step = program[pc]
            ctx = frame[2]
            if ctx.final and not step.at_end:
                continue
            _RUN[step.op](self, ctx, step)
            if self.pending is not None:
                return
        self._resolved()

    def _resolved(self) -> None:
        """The current card is fully resolved: players go out, the round ends, or the next
        turn starts."""
        ctx, hands = self.ctx, self.hands
        if self.out_seats:
            self.out_seats = [s for s in self.out_seats if not hands[s]]
        if self.eliminated:
            standing = [s for s in range(self.players) if s not in self.eliminated]
            if len({self.team_of(s) for s in standing}) <= 1:
                self._end_round(standing[0])  # the last one standing
                return
        for i in range(self.players):
            seat = (ctx.actor + i) % self.players
            if hands[seat] or seat in self.out_seats or seat in self.eliminated:
                continue
            if self._round_ends_with(seat):
                self._end_round(seat)
                return
            self.out_seats.append(seat)
            self.note("out", seat)
            if self.rulebook.going_out is not None:
                self.push(self.rulebook.going_out, Ctx(seat))
                self._run()
                return
        nxt = self.turn_to if self.turn_to is not None else self.advance(ctx.actor, 1 + self.skips)
        self.skips = 0
        self.turn_to = None
        self.pending = ("turn", nxt, None, None)

    def _round_ends_with(self, seat: int) -> bool:
        """Whether ``seat`` holding no cards ends the round."""
        if self.rulebook.round_ends == "player":
            return True
        return not any(self.hands[s] for s in self.teammates(seat))

    def _end_round(self, winner: int) -> None:
        faces = self.rulebook.faces
        team = self.teammates(winner)
        points = sum(faces[c].points for s, h in enumerate(self.hands) if s not in team
                     for c in h) + self.rulebook.settings.knockout_points * len(self.eliminated)
        self.over = True
        self.pending = None
        self.uno_open = -1
        self.stack.clear()
        self.result = Result(tuple(team), points)
        self.note("win", winner, points)

    def _face_stack(self, seat: int, challenge: bool) -> None:
        """Draw the stacked total, or challenge the last card stacked."""
        total, last, penalty = self.stack_total, self.stack_ctx, self.stack_penalty
        self.stack_total, self.stack_value, self.stack_ctx = 0, 0, None
        self.ctx = Ctx(seat)
        if not challenge:
            self.draw_cards(seat, total)
        elif last is not None and not last.honest:
            self.note("challenge", seat, last.actor, True)
            self.draw_cards(last.actor, total)
            self.turn_to = seat  # the challenger plays on
        else:
            self.note("challenge", seat, -1 if last is None else last.actor, False)
            self.draw_cards(seat, total + (penalty or 0))
        self._run()

    def _answer(self, action: Action) -> None:
        kind, seat, ctx, data = self.pending  # type: ignore[misc]
        self.pending = None
        k = action.kind
        if kind == "turn":
            self.turns += 1
        if k == "play":
            self._play(seat, self.rulebook.by_name[action.arg], action.uno)  # type: ignore[index]
            return
        if kind == "turn" and self.stack_total and k in ("draw", "challenge"):
            self._face_stack(seat, k == "challenge")
            return
        if k == "draw":
            self.ctx = ctx = Ctx(seat)
            self.push(self.rulebook.draw_program, ctx)
        elif k == "keep":
            self.note("keep", seat)
        elif k == "color":
            self.color = self.rulebook.colors.index(action.arg)  # type: ignore[arg-type]
            self.note("color", seat, self.color)
        elif k in ("challenge", "accept"):
            guilty, innocent, accepted = data
            if k == "accept":
                self.push(accepted, ctx)
            else:
                self.note("challenge", seat, ctx.actor, not ctx.honest)
                self.push(innocent if ctx.honest else guilty, ctx)
        elif k == "target":
            ctx.target = action.arg
            self.note("target", seat, action.arg)
        elif k == "loser":
            ctx.loser = action.arg
            self.note("loser", action.arg)
        elif k == "give":
            self._give(seat, self.rulebook.by_name[action.arg], ctx)  # type: ignore[index]
            if self.pending is not None:
                return
        self._run()

    def _give(self, seat: int, card: int, ctx: Ctx) -> None:
        giving = self.giving[-1]
        self.hands[seat].remove(card)
        to = self.partner(seat)
        if giving["together"]:
            giving["aside"].append([seat, to, card])
        else:
            self._receive(to, card)
        self.note("give", seat, to, card)
        giving["queue"][0][1] -= 1
        self._next_give(ctx)

    def _next_give(self, ctx: Ctx) -> None:
        giving = self.giving[-1]
        queue, hands = giving["queue"], self.hands
        while queue:
            giver, count = queue[0]
            if count == "half":
                count = queue[0][1] = len(hands[giver]) // 2
            if count > 0 and hands[giver]:
                self.ask("give", giver, ctx)
                return
            queue.pop(0)
        for _, to, card in giving["aside"]:
            self._receive(to, card)
        self.giving.pop()

    def _receive(self, seat: int, card: int) -> None:
        """A card given to ``seat``: holding cards again, it is back in."""
        self.hands[seat].append(card)
        if seat in self.out_seats:
            self.out_seats.remove(seat)

    def _play(self, seat: int, card: int, uno: bool) -> None:
        rb = self.rulebook
        face = rb.faces[card]
        rule = rb.rules[card]
        honest = True
        if rule is not None and rule.legal_if is not None:
            honest = self._legal(seat, card, rule.legal_if)
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(card)
        if seat in self.out_seats:
            self.out_seats.remove(seat)
        prev, self.color = self.color, face.color
        self.note("play", seat, card)
        if len(hand) == 1 and not uno:
            self.uno_open = seat
        final = not hand and self._round_ends_with(seat)
        self.ctx = ctx = Ctx(seat, card, honest, prev, final)
        if rule is not None and rule.effect is not None:
            self.push(rule.effect, ctx)
        self._run()

    def _catch(self, seat: int, target: int) -> None:
        self.uno_open = -1
        self.note("catch", seat, target)
        saved, depth = self.pending, len(self.stack)
        self.pending = None
        self.draw_cards(target, self.rulebook.settings.uno_penalty)
        if len(self.stack) > depth:  # after-draw steps to run first, then resume
            self.stack.insert(depth, [-1, 0, saved])
            self._run()
        else:
            self.pending = saved
