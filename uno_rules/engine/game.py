"""The generic interpreter: a decision-based state machine running any compiled rulebook.

A :class:`Game` is one round. It always waits for exactly one :class:`Decision` (until the
round is over); :meth:`Game.apply` takes one of its options, or an out-of-turn action such
as a UNO catch. Card effects run as programs of primitives (see :mod:`uno_rules.engine.effects`)
on an explicit frame stack, so a game can stop in the middle of an effect to ask a question
and can be snapshotted there.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

from .actions import Action, Decision, Result, shape_problem
from .arguments import check_arguments, refuse_argument
from .arguments import check_out as check_out  # its old place
from .decisions import Runner, Side, Turn, turn_goes_on
from .determinize import resample
from .errors import IllegalAction, RunawayEffect
from .events import describe_event
from .fields import REBUILT, SHARED, Field
from .model import CardRule, Rules
from .outcome import Outcome, Termination
from .pilecounters import press, start_counters
from .records import Ctx, Frame, Resume
from .shuffling import shuffle
from .snapshot import restore, snapshot, state_field_problems
from .state import STATE_FIELDS
from .tables import play_extras
from .view import SeatView, seat_view, view_dict

RUN_BUDGET = 100_000  # steps one action may run; real cards run a few dozen at most
# The round's budget, on top of the per-action one, so that any valid rulebook's round ends
# within a second or so, even one whose cards keep each other going (thousands of steps per
# action, or rounds that never end): the round stops, ``stalled`` naming the budget that ran
# out. A round of a shipped rulebook under `play_first` uses a few thousand at most; under
# `uniform` a few run longer than the action budget (README, "Python API").
GAME_STEPS = 100_000  # effect steps in one round (a step costs a few microseconds at most)
GAME_ACTIONS = 20_000  # actions in one round (tens of microseconds each at most)


BUDGET = "the round's budgets: a restored game starts afresh"
# Game's fields on top of State's (see state.STATE_FIELDS).
GAME_FIELDS = (Field("_decision", REBUILT, why="the pending decision, made when asked"),
               Field("_ids", REBUILT, why="the pending decision's option ids, made when asked"),
               Field("_table", REBUILT, why="the rulebook's action table"),
               Field("_turns", REBUILT, why="the rulebook's turn records"),
               Field("_extras", REBUILT, why="whether the rulebook's plays have extras"),
               Field("_long_turns", REBUILT, why="whether its turns may go on after a card"),
               Field("_call_at", REBUILT, why="the rulebook's `call_at`, read every play"),
               Field("_uno_after", REBUILT, why="its `uno_after_effects`, read every card"),
               Field("_piled", REBUILT, why="whether it has several discard piles"),
               Field("steps_left", SHARED, why=BUDGET), Field("max_steps", SHARED, why=BUDGET),
               Field("max_actions", SHARED, why=BUDGET),
               # written only when set, with its budget's size (Game._stop_record)
               Field("stalled", SHARED, "stalled"))
GAME_SLOTS = tuple(f.name for f in GAME_FIELDS)
assert not state_field_problems(STATE_FIELDS + GAME_FIELDS, ()), \
    state_field_problems(STATE_FIELDS + GAME_FIELDS, ())


class Game(Runner):
    """One round of a rulebook. Create it with :meth:`Rulebook.new_game`."""

    __slots__ = GAME_SLOTS
    FIELDS = Runner.FIELDS + GAME_FIELDS

    # The arguments are typed Any, as Rulebook.new_game's: check_arguments refuses a wrong one
    # by name (a compiled build would otherwise raise its own TypeError first).
    def __init__(self, rulebook: Rules, players: Any, seed: Any = None, *, dealer: Any = None,
                 log: Any = True, max_steps: Any = None, max_actions: Any = None,
                 out: Any = None, _deal: bool = True):
        check_arguments(rulebook, players, seed, dealer=dealer, log=log, max_steps=max_steps,
                        max_actions=max_actions, out=out)
        super().__init__(rulebook, players, seed, dealer=dealer, log=log)
        # Declared int (checked above): the interpreter's budget arithmetic is then native
        # in the compiled build, not generic number calls.
        self.max_steps: int = GAME_STEPS if max_steps is None else max_steps
        self.steps_left: int = self.max_steps  # what the round may still run
        self.max_actions: int = GAME_ACTIONS if max_actions is None else max_actions
        # The budget that ran out (Termination.STEPS or .ACTIONS), if the round stopped
        # before its end.
        self.stalled: Termination | None = None
        if out:  # seats out of the match: knocked out before the deal, dealt nothing
            self.eliminated, self.absent = sorted(out), sorted(out)
        if _deal:
            deck = list(rulebook.deck)
            shuffle(self._own_rng(), deck)
            self.draw_pile = deck
            self._deal()
            self._start()

    DERIVED = frozenset(f.name for f in FIELDS if f.copy == REBUILT)

    def _derive(self) -> None:
        super()._derive()
        self._decision: Decision | None = None
        self._ids: tuple[int, ...] | None = None  # the pending decision's option ids
        self._table: tuple[Action, ...] = self._acts[0].table
        turns = self.rulebook.memo.get(("turns", self.players))
        if turns is None:  # records never change: every game of the rulebook shares them
            turns = self.rulebook.memo["turns", self.players] = tuple(
                Turn(s) for s in range(self.players))
        self._turns: tuple[Turn, ...] = turns
        # Rulebook features read every play, looked up once: most rulebooks skip their checks.
        rb = self.rulebook
        self._extras: bool = play_extras(rb)
        self._long_turns: bool = bool(rb.turn_plays) or rb.turn_end is not None
        self._call_at: int = rb.settings.call_at
        # an UNO call judged once the card is resolved: after its effects, or (pile
        # counters) after its pile's press (Ctx.call_due)
        self._uno_after: bool = rb.settings.uno_after_effects or bool(rb.pile_limits)
        self._piled: bool = rb.discard_piles > 1

    @classmethod
    def blank(cls, rulebook: Rules, players: int, seed: int | None = None, *,
              dealer: int | None = None, log: bool = True, max_steps: int | None = None,
              max_actions: int | None = None) -> Game:
        """A game with nothing dealt yet, for restoring a snapshot or setting a position."""
        return cls(rulebook, players, seed, dealer=dealer, log=log, max_steps=max_steps,
                   max_actions=max_actions, _deal=False)

    def clone(self) -> Game:
        """An independent copy of the round, cheap enough for tree search."""
        new = super().clone()
        assert isinstance(new, Game)
        return new

    def resample(self, seat: object, rng: random.Random) -> Game:
        """A new independent round consistent with everything ``seat`` has seen, the cards
        it can't see re-dealt at random from ``rng``, with a fresh generator for the future;
        this game is unchanged (see :mod:`uno_rules.engine.determinize` for what is kept)."""
        new = resample(self, seat, rng)
        assert isinstance(new, Game)
        return new

    # ----------------------------------------------------------------- public API
    @property
    def decision(self) -> Decision | None:
        """The pending decision, or None when the round is over."""
        decision = self._decision
        if decision is None:
            pending = self.pending
            if pending is not None:  # a named tuple made without its Python-level __new__
                ids = pending.options(self)
                # the table's objects at the ids (itemgetter: a third of map's cost here)
                table = self._table
                options = itemgetter(*ids)(table) if len(ids) > 1 else \
                    (table[ids[0]],) if ids else ()
                decision = self._decision = tuple.__new__(Decision, (
                    pending.seat, pending.kind, options,
                    () if pending.seat is not None else pending.chance_weights()))
        return decision

    def legal_actions(self) -> list[Action]:
        """Every action allowed now: the decision's options plus out-of-turn actions."""
        if self.over:
            return []
        return list(self.decision.options) + self.out_of_turn_actions()  # type: ignore[union-attr]

    def legal_ids(self, seat: object = None) -> tuple[int, ...]:
        """The integer lane's options: ids of ``rulebook.action_table(players)``. With
        ``seat`` None, the pending decision's options in the order of
        ``decision.options`` (a contest's too); with a seat, what that seat may do now: the
        decision's options if it is that seat's, then its out-of-turn actions (catches, UNO
        calls for a partner, jump-ins) in the order of :meth:`out_of_turn_actions`, and, when
        the decision is not its own and it has some or an out-of-turn window asks it
        (:meth:`asked_seats`: decided by public information, so a seat with nothing to play
        is asked too), last its ``pass`` (letting them go, which changes nothing). Empty
        when the round is over."""
        pending = self.pending
        if pending is None:
            return ()
        ids = self._ids
        if ids is None:
            ids = self._ids = tuple(pending.options(self))
        if seat is None:
            return ids
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat!r}: seats are 0 to {self.players - 1}")
        extra_ids = self.out_of_turn_ids()
        if not extra_ids:  # no out-of-turn action (most states): the decider has its decision
            if pending.seat == seat:  # ... and a seat asked with nothing to play, its pass
                return ids
            return (self._acts[seat].pass_,) if seat in self.asked_seats() else ()
        extra = self._seat_ids(extra_ids, seat)
        if pending.seat == seat:
            return ids + extra
        if extra or seat in self.asked_seats():
            return extra + (self._acts[seat].pass_,)
        return ()

    def _seat_ids(self, ids: Sequence[int], seat: int) -> tuple[int, ...]:
        """The ids of ``ids`` that are ``seat``'s actions (apart from :meth:`legal_ids`,
        whose every call would otherwise make this comprehension's closure)."""
        table = self._table
        return tuple(i for i in ids if table[i].seat == seat)

    def decision_for(self, seat: object) -> Decision | None:
        """The pending decision as ``seat`` may see it: whole when it is ``seat``'s own or a
        chance node (a contest: its outcomes are public); another seat's with its seat and
        kind but no options (they would name that seat's cards). None when the round is
        over. A seat that isn't at the table raises ``ValueError``."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat!r}: seats are 0 to {self.players - 1}")
        decision = self.decision
        if decision is None or decision.seat == seat or decision.seat is None:
            return decision
        return decision._replace(options=())

    def step(self, action_id: object, seat: object = None) -> None:
        """Take the action numbered ``action_id`` (an int) in
        ``rulebook.action_table(players)``: one of :meth:`legal_ids` (any seat's). Raises
        :class:`IllegalAction` and changes nothing for an id that is not legal now, not an
        int, or out of the table. ``seat``: acting as that seat, as :meth:`apply`'s."""
        # Typed `object`, not `int`: compiled with mypyc, an `int` parameter turns True into
        # 1 (a bool taken as an action) and a float into a TypeError before this check.
        ids = self._ids
        if ids is None and self.pending is not None:
            ids = self._ids = tuple(self.pending.options(self))
        if ids and type(action_id) is int and action_id in ids and seat is None:
            self._take(self._table[action_id])
            return
        if type(action_id) is not int:
            raise refuse_argument("action_id", action_id,
                                  "an action id (int) of rulebook.action_table(players)")
        table = self._table
        if not 0 <= action_id < len(table):
            raise IllegalAction(f"action id {action_id}: out of range (a game of "
                                f"{self.players} players numbers 0 to {len(table) - 1})")
        try:
            if seat is not None:  # the checked path: the action must be the seat's own
                self._as_seat(table[action_id], seat)
                if ids and action_id in ids:
                    self._take(table[action_id])
                    return
            self.apply(table[action_id])  # not an option: an out-of-turn action, or refused
        except IllegalAction as exc:
            raise IllegalAction(f"action id {action_id}: {exc}") from None

    def apply(self, action: object, seat: object = None) -> None:
        """Take one action (an :class:`Action` or its notation). Raises
        :class:`IllegalAction` and changes nothing if not allowed (or not an action at all).

        Without ``seat`` this is the referee's API: any seat's action is taken, and a refusal
        may say what a hand holds (``red 5 is not in seat 2's hand``). With ``seat`` (acting
        as that seat, as a player's program should), an action in another seat's name is
        refused before anything else is looked at, so no refusal names a card ``seat``
        can't see (its own hand's may be named)."""
        if seat is not None:
            action = self._as_seat(action, seat)
        decision = self._decision
        if decision is not None and type(action) is Action:
            options = decision.options
            try:
                action = options[options.index(action)]  # the interned option itself
            except ValueError:
                pass
            else:  # one of the options the engine made: already valid, canonical and legal
                self._take(action)
                return
        if seat is None:  # with a seat, _as_seat has read it already
            action = _read(action)
        assert isinstance(action, Action)
        if self.over:
            raise IllegalAction(f"{action}: the round is over")
        if action.kind == "pass":  # letting out-of-turn actions go: nothing changes at all
            self._check_pass(action)
            return
        decision = self.decision
        assert decision is not None
        if action not in decision.options:  # options are canonical already: skip the parse
            action = self._canonical(action)
        if action.kind == "jump_in":
            if action not in self.out_of_turn_actions():
                raise IllegalAction(self._why_no_jump_in(action))
            self._uno_open = -1
            self._owed = []
            self.pending = None
            self._stack.clear()
            self.turns += 1
            self._note("jump_in", action.seat)
            self._play_card(action.seat, self._card_named(action.seat,  # type: ignore[arg-type]
                                                        str(action.arg)), True)
        elif action.kind in ("catch", "uno"):
            if action not in self.out_of_turn_actions():
                raise IllegalAction(self._why_no_call(action))
            if action.kind == "uno":
                self._called(action.arg)  # type: ignore[arg-type]
                self._note("uno", action.seat, action.arg)
            else:
                self._catch(action.seat, action.arg)  # type: ignore[arg-type]
        else:
            if action not in decision.options:
                raise IllegalAction(self._why_illegal(action, decision))
            self._take(decision.options[decision.options.index(action)])
            return
        self._taken(action)

    def _as_seat(self, action: object, seat: object) -> Action:
        """``action`` (an Action or its notation) read and checked to be ``seat``'s own,
        before any legality is looked at: the acting-seat check of :meth:`apply`."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise refuse_argument("seat", seat, f"a seat 0-{self.players - 1}, or None")
        action = _read(action)
        if action.seat != seat:
            raise IllegalAction(f"{action}: not an action of seat {seat}, acting as seat {seat}")
        return action

    def _why_no_call(self, action: Action) -> str:
        """Why a catch or an UNO call that is not allowed now is refused."""
        late = ([self._uno_open] if self._uno_open >= 0 else []) + self._owed
        if not late:
            return f"{action}: nobody is open to a catch or an UNO call now"
        seats = " or ".join(map(str, late))
        return f"{action}: only seat {seats} can be caught, by an opponent, or called for, " \
               "by a partner" + (" (or by itself, left at one card by another's card)"
                                 if self._owed else "")

    def _why_no_jump_in(self, action: Action) -> str:
        """Why a jump-in that is not allowed now is refused."""
        if self.rulebook.settings.jump_in:
            for s, card in self._jump_in_cards():
                if s == action.seat and self.faces[card].name == action.arg and \
                        self._may_not_go_out(s, card):
                    return f"{action}: {self._why_not_last(card)}"
        return f"{action}: only the exact card on top may jump in, while a turn is pending, " \
               "by another seat"

    def _check_pass(self, action: Action) -> None:
        """Refuse ``S pass`` unless seat S has out-of-turn actions now or a window asks it,
        and the pending decision is not its own (:meth:`legal_ids` offers it exactly then)."""
        seat = action.seat
        assert seat is not None  # a well-formed pass names its seat
        if not 0 <= seat < self.players:
            raise IllegalAction(f"{action}: no seat {seat} at the table")
        if self._acts[seat].pass_ not in self.legal_ids(seat):
            pending = self.pending
            why = "it is its own decision" if pending is not None and pending.seat == seat \
                else "it has no out-of-turn action now"
            raise IllegalAction(f"{action}: seat {seat} can't pass: {why}")

    def _take(self, action: Action) -> None:
        """Answer the pending decision with ``action``, one of its options (the interned
        object): the one way :meth:`apply` and :meth:`step` take an answer."""
        pending = self.pending  # not None: there is a decision to answer
        # The next seat's decision closes the chance to catch; a chance node (a contest
        # settled at the table, seat None) is no seat's action and leaves it open.
        if self._uno_open >= 0 and pending.seat is not None and (  # type: ignore[union-attr]
                action.seat != self._uno_open or pending.kind == "turn"):  # type: ignore[union-attr]
            self._uno_open = -1
        if self._owed and pending.seat is not None:  # type: ignore[union-attr]
            self._close_owed(action, pending.kind)  # type: ignore[union-attr]
        self.pending = None
        pending.answer(self, action)  # type: ignore[union-attr]
        history = self.history  # self._taken(action), inlined: this runs every action
        history.append(action)
        self._decision = self._ids = None
        if len(history) >= self.max_actions and not self.over:
            self._stall(Termination.ACTIONS)

    def _close_owed(self, action: Action, kind: str) -> None:
        """The window of a call owed after another's card closes as :meth:`_take`'s for
        ``uno_open``: at a seat's answer to a decision of ``kind`` (a method of its own: its
        comprehension's closure would cost every action)."""
        self._owed = [s for s in self._owed if action.seat == s and kind != "turn"]

    def _taken(self, action: Action) -> None:
        """After any action: record it, forget the options, stop at the action budget."""
        history = self.history
        history.append(action)
        self._decision = self._ids = None
        if len(history) >= self.max_actions and not self.over:
            self._stall(Termination.ACTIONS)

    def view(self, seat: object) -> dict[str, Any]:
        """What ``seat`` may see: its own hand, the others' hand sizes, the table (the
        stacked draw's total, who is open to an UNO catch, each seat's side, seats out,
        knocked out and out of the match), and the decision, with its options only when it
        is ``seat``'s (or a chance node's, settled at the table): :meth:`seat_view` in
        names (:func:`uno_rules.engine.view.view_dict`)."""
        return view_dict(self.seat_view(seat), self.rulebook, self._table)

    def seat_view(self, seat: object) -> SeatView:
        """What ``seat`` may know now, as one frozen record (:mod:`uno_rules.engine.view`)."""
        seat = self._at_table(seat)  # -1 showed the last seat's hand, True seat 1's
        return seat_view(self, seat, self._options_for(seat))

    def _options_for(self, seat: int) -> tuple[int, ...] | None:
        """The pending decision's option ids (:meth:`legal_ids`) when ``seat`` may see them:
        its own decision's, or a chance node's (a contest's outcomes are public)."""
        pending = self.pending
        if pending is None or (pending.seat != seat and pending.seat is not None):
            return None
        ids = self._ids
        if ids is None:
            ids = self._ids = tuple(pending.options(self))
        return ids

    @property
    def events(self) -> list[str]:
        """The event log in words."""
        return [describe_event(self, e) for e in self.log or []]

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-able data; :meth:`restore` continues identically."""
        return snapshot(self)

    @classmethod
    def restore(cls, rulebook: Rules, data: Mapping[str, Any]) -> Game:
        """Rebuild a game from :meth:`snapshot` output."""
        return restore(lambda players, seed, dealer: cls.blank(rulebook, players, seed,
                                                               dealer=dealer), rulebook, data)

    def __repr__(self) -> str:
        d = self.decision
        state = "over" if self.over else "?" if d is None else \
            f"the table to settle a {d.kind}" if d.seat is None else f"seat {d.seat} to {d.kind}"
        # No seed: with it the public history replays every hand and the draw order.
        return f"<Game {self.rulebook.name} players={self.players} {state}>"

    # ------------------------------------------------------ used by the primitives
    def _start(self) -> None:
        """After the deal: turn the first card, run the setup steps, start the first turn."""
        if self.rulebook.pile_limits:
            start_counters(self)
        if self.rulebook.setup is not None:
            self._push(self.rulebook.setup, Ctx(self.dealer))
        for pile in reversed(range(self.rulebook.turned_piles())):  # pile 0's rules run first
            self._focus_on(pile)
            self._turn_first_card()
        self._run()

    # ------------------------------------------------------------------ internals
    def _run(self) -> None:
        """Run effect frames until a decision is needed or the effect is done."""
        stack, programs = self._stack, self.rulebook.programs
        # This action's budget, or what is left of the round's when that is less.
        left = self.steps_left
        start = budget = RUN_BUDGET if left > RUN_BUDGET else left
        while stack:
            budget -= 1
            if budget < 0:
                if start < RUN_BUDGET:  # the round's budget ran out, not the action's
                    self.steps_left = left - start
                    self._stall(Termination.STEPS)
                    return
                self._runaway(stack[-1])
            frame = stack[-1]
            if type(frame) is Resume:  # an out-of-turn action's steps are done
                stack.pop()
                self.pending = frame.ask
                self.steps_left = left - start + budget
                return
            pc, ctx = frame.pc, frame.ctx
            program = programs[frame.program]
            size = len(program)
            if pc >= size:
                stack.pop()
                continue
            step = program[pc]
            if pc + 1 == size:
                stack.pop()  # its last step: the frame is done (what the step pushes runs next)
            else:
                frame.pc = pc + 1
            if ctx.final and not step.at_end:
                continue
            if self._piled and ctx.pile != self._focus:  # act on the card's own pile
                self._focus_on(ctx.pile)
            step.run(self, ctx, step)
            if self.pending is not None:
                self.steps_left = left - start + budget
                return
        self.steps_left = left - start + budget
        self._resolved()

    def _runaway(self, frame: Frame | Resume) -> None:
        step = self.rulebook.programs[frame.program][max(frame.pc - 1, 0)] \
            if isinstance(frame, Frame) else None
        ctx = frame.ctx if isinstance(frame, Frame) else None
        card = self.rulebook.card_name(ctx.face) if ctx is not None and ctx.face >= 0 \
            else "the rules"
        self.over = True  # it can't go on: refuse every later action
        raise RunawayEffect(f"{step.where if step else '?'}: the effect of {card} ran more "
                            f"than {RUN_BUDGET} steps without asking anything "
                            f"(`{step.op if step else '?'}` loops); the round is stopped")

    def _stall(self, budget: Termination) -> None:
        """The round used up its budget of ``budget``: it stops here, over, without a result
        (like a runaway effect, it can't go on)."""
        self.over = True
        self.pending = None
        self._uno_open = -1
        self._owed = []
        self._stack.clear()
        self._decision = self._ids = None
        self.stalled = budget

    @property
    def steps(self) -> int:
        """The effect steps the round has run (since it was dealt or restored)."""
        return self.max_steps - self.steps_left

    def stalled_reason(self) -> str | None:
        """Why the round stopped before its end, in words (None if it didn't)."""
        stop = self._stop_record()
        if stop is None:
            return None
        what = "effect steps" if stop["budget"] == Termination.STEPS else "actions"
        return f"the round's budget of {stop['limit']} {what} ran out"

    def _stop_record(self) -> dict[str, Any] | None:
        """The budget that stopped the round and its size (``{"budget": "steps", "limit":
        100000}``), for its snapshot; None unless it stalled."""
        stalled = self.stalled
        if stalled is None:
            return None
        steps = stalled is Termination.STEPS
        return {"budget": stalled.value, "limit": self.max_steps if steps else self.max_actions}

    def _stop(self, budget: str, limit: int) -> None:
        """Stop a restored round as its snapshot says ``budget`` of ``limit`` did (the
        budget that size again, so that :meth:`stalled_reason` reads as it did)."""
        self.stalled = Termination(budget)
        if self.stalled is Termination.STEPS:
            self.max_steps = self.steps_left = limit
        else:
            self.max_actions = limit

    @property
    def outcome(self) -> Outcome | None:
        """How the round ended (None while it goes on): played out (``OVER``, with its
        winners and points), stalled (the budget that ran out), or ``RUNAWAY`` (over with
        neither: a card's effect ran away)."""
        if not self.over:
            return None
        result = self.result
        if result is not None:
            return Outcome(Termination.OVER, result.winners, result.points)
        return Outcome(self.stalled or Termination.RUNAWAY)

    def _resolved(self) -> None:
        """The current card is fully resolved: players go out, the round ends, or the next
        turn starts."""
        ctx, hands = self._ctx, self.hands
        if self._long_turns and turn_goes_on(self):
            return  # the turn's player plays again, or its turn's end steps run
        if (self._out_seats or self.eliminated or not all(hands)) and self._someone_out():
            return
        actor = ctx.actor
        if self._uno_after and ctx.face >= 0 and not ctx.called and \
                len(hands[actor]) == self._call_at and \
                (ctx.call_due or self.rulebook.settings.uno_after_effects):
            self._uno_open = actor  # its own card left it one card, UNO uncalled
        nxt = self._turn_to
        if nxt is None:
            if self._skips:
                nxt = self._next_turn(actor)
                self._skips = []
            else:  # advance(actor, 1) inlined: the next turn after most cards
                n, step = self.players, self.direction
                nxt = (actor + step) % n
                while not hands[nxt] and nxt != actor:
                    nxt = (nxt + step) % n
        else:
            self._turn_to = None
            if self._skips:
                self._skips = []
        if self.rulebook.turn_begin is None:
            self.pending = self._turns[nxt]
        else:
            self._begin_turn(nxt)

    def _begin_turn(self, seat: int) -> None:
        """Run the rulebook's ``turn.begin`` steps for ``seat`` (its player as ``self``),
        then ask its turn."""
        begin = self.rulebook.turn_begin
        if begin is None:
            self.pending = self._turns[seat]
            return
        self._stack.append(Resume(self._turns[seat]))
        self._push(begin, Ctx(seat))
        self._run()

    def _someone_out(self) -> bool:
        """Players who went out or were knocked out: end the round, or mark them out (and
        run the going-out steps). True when that took over from the next turn."""
        ctx, hands = self._ctx, self.hands
        if self._out_seats:
            self._out_seats = [s for s in self._out_seats if not hands[s]]
        if self.eliminated:
            standing = [s for s in range(self.players) if s not in self.eliminated]
            if len({self._team(s) for s in standing}) <= 1:
                # The last one standing; if the last ones fell together, the last to fall.
                self._end_round(standing[0] if standing else self.eliminated[-1])
                return True
        for i in range(self.players):
            seat = (ctx.actor + i) % self.players
            if hands[seat] or seat in self._out_seats or seat in self.eliminated:
                continue
            if self._round_ends_with(seat):
                if self.stacked.total and self._draw_left(ctx.actor):
                    self._run()  # the draw's own steps; then the round ends
                else:
                    self._end_round(seat)
                return True
            self._out_seats.append(seat)
            self._note("out", seat)
            if self.rulebook.going_out is not None:
                self._push(self.rulebook.going_out, Ctx(seat))
                self._run()
                return True
        return False

    def _end_round(self, winner: int) -> None:
        faces = self.faces
        team = self._mates(winner)
        points = sum(faces[c].points for s, h in enumerate(self.hands) if s not in team
                     for c in h) + self.rulebook.settings.knockout_points * \
            sum(s not in team and s not in self.absent for s in self.eliminated)
        self.over = True
        self.pending = None
        self._uno_open = -1
        self._owed = []
        self._stack.clear()
        self.result = Result(tuple(team), points)
        self._note("win", winner, points)

    def _face_stack(self, seat: int, challenge: bool) -> None:
        """Draw the stacked total, or challenge the last card stacked."""
        stacked = self.stacked
        total, last, penalty = stacked.total, stacked.ctx, stacked.penalty
        stacked.total, stacked.value, stacked.ctx = 0, 0, None
        self._ctx = Ctx(seat)
        if not challenge:
            self._draw_cards(seat, total)
        elif last is not None and not last.honest:
            self._note("challenge", seat, last.actor, True)
            self._draw_cards(last.actor, total)
            self._turn_to = seat  # the challenger plays on
        else:
            self._note("challenge", seat, -1 if last is None else last.actor, False)
            self._draw_cards(seat, total + (penalty or 0))
        self._run()

    def _play_card(self, seat: int, card: int, uno: bool, pile: int = 0) -> None:
        if self._piled and pile != self._focus:
            self._focus_on(pile)
        face = self.faces[card]
        rule = self._card_rules[card]
        hand = self.hands[seat]
        sides = 0  # how it may be played, judged before it leaves the hand: as itself
        if rule is None:
            honest = True
        else:
            honest = rule.legal_if is None or self._legal(seat, card, rule.legal_if)
            if rule.alt_effect is not None:
                sides = self._sides(seat, card)
        hand.remove(card)
        self.discard.append(card)
        if self._out_seats and seat in self._out_seats:
            self._out_seats.remove(seat)
        prev, self.color = self.color, face.color
        if self.log is not None:  # events name faces, as seen then
            self.log.append(("play", seat, face.id) if not pile else
                            ("play", seat, face.id, pile))
        if len(hand) == self._call_at and not uno and not self._pile_marks:
            self._uno_open = seat  # (with pile counters: once the play is resolved)
        if self._extras:  # pile counters, card sides, false calls, going on: rare
            got = self._play_extras(Ctx(seat, card, honest, prev, False, pile, uno), rule, sides)
            if got is None:  # an overload or the card's side took over
                return
            ctx = got
        else:
            self._ctx = ctx = Ctx(seat, card, honest, prev, not hand and self._round_ends_with(
                seat) and not self._answer_steers(rule), pile, uno)
        if rule is not None and rule.effect is not None:
            self._stack.append(Frame(rule.effect, 0, ctx))
            self._run()
        elif not self._stack:
            self._resolved()
        else:
            self._run()

    def _play_extras(self, ctx: Ctx, rule: CardRule | None, sides: int) -> Ctx | None:
        """A card just played (``ctx``, not yet ``final``) in a rulebook with :func:`play_extras`:
        a false UNO call, its pile's press, going out unless it ``continues``. Its context
        for the card to act, or None when an overload or the choice of its side took over."""
        seat, pile, hand = ctx.actor, ctx.pile, self.hands[ctx.actor]
        if ctx.called and hand and self.rulebook.settings.false_call_penalty:
            self._false_call(seat, len(hand), rule)
        # With pile counters an uncalled call is judged once the play is resolved, on the
        # hand its overload left (as going out is): an overload's draw owes none, and can't
        # be caught while it is pending.
        ctx.call_due = not ctx.called and len(hand) == self._call_at and bool(self._pile_marks)
        # With pile counters the play presses its pile; going out is judged after an
        # overload (whose draws may refill the hand).
        overloaded = bool(self._pile_marks) and (rule is None or rule.presses) and \
            press(self, pile)
        ctx.final = not hand and not overloaded and \
            (rule is None or rule.going_out != "continues") and self._round_ends_with(seat) \
            and not self._answer_steers(rule)
        self._ctx = ctx
        if overloaded:  # the overload's steps run before the card acts
            self._overload(rule, ctx)
            return None
        if sides:  # the player chooses how it is played: its `side` answer runs that
            self.pending = Side(seat, ctx, sides == 2)
            return None
        return ctx

    def _play_cards(self, seat: int, names: list[str], uno: bool, pile: int) -> None:
        """A combo: the cards named laid on ``pile`` in order without their effects, the
        last played as a single card would be (its effect, UNO, going out)."""
        if pile != self._focus:
            self._focus_on(pile)
        hand = self.hands[seat]
        for name in names[:-1]:
            card = self._card_named(seat, name)
            hand.remove(card)
            self.discard.append(card)
            if self.log is not None:
                fid = self.faces[card].id
                self.log.append(("play", seat, fid) if not pile else ("play", seat, fid, pile))
        self._play_card(seat, self._card_named(seat, names[-1]), uno, pile)

    def _overload(self, rule: CardRule | None, ctx: Ctx) -> None:
        """A play's press overloaded: the card's own overload steps (else the rulebook's),
        then its effect."""
        if rule is not None and rule.effect is not None:
            self._stack.append(Frame(rule.effect, 0, ctx))
        steps = self.rulebook.overload if rule is None or rule.overload is None \
            else rule.overload
        if steps is not None:
            self._stack.append(Frame(steps, 0, ctx))
        self._run()

    def _false_call(self, seat: int, left: int, rule: CardRule | None) -> None:
        """UNO called on a card that leaves ``left`` cards: not due (a card that may shed
        more under ``uno_after_effects`` is called in advance), its player draws the
        false call's penalty."""
        s = self.rulebook.settings
        if left != s.call_at and not (s.uno_after_effects and rule is not None and rule.sheds):
            self._note("false_call", seat)
            self._draw_cards(seat, s.false_call_penalty)

    def _called(self, seat: int) -> None:
        """``seat``'s UNO is called (or caught): it is no longer open to a catch."""
        if seat == self._uno_open:
            self._uno_open = -1
        elif seat in self._owed:
            self._owed.remove(seat)

    def _catch(self, seat: int, target: int) -> None:
        self._called(target)
        self._note("catch", seat, target)
        saved, depth = self.pending, len(self._stack)
        self.pending = None
        caught = self.rulebook.caught
        if caught is None:
            self._draw_cards(target, self.rulebook.settings.uno_penalty)
        else:  # the rulebook's steps for it, the caught player as `self`
            self._push(caught, Ctx(target))
        if len(self._stack) > depth:  # after-draw steps to run first, then resume
            assert saved is not None  # a catch is taken while a decision is pending
            self._stack.insert(depth, Resume(saved))
            self._run()
        else:
            self.pending = saved


def _read(action: object) -> Action:
    """``action`` (an Action or its notation) as a well-formed Action, or IllegalAction."""
    if isinstance(action, str):
        action = Action.parse(action)
    shape = shape_problem(action)
    if shape is not None or not isinstance(action, Action):
        raise IllegalAction(f"malformed action: {shape}")
    return action
