"""A game at the table: a whole match (or one round) with humans at some seats and agents
at the others, through two callables (``ask`` reads a line, ``say`` prints one) so tests
and other front ends can drive it without a terminal.

Agents are made per round and asked in the order :func:`agents.play_agents_on` asks them
(out-of-turn chances first, seat by seat from the one after the deciding seat, then the
deciding seat); a chance node (a contest) is drawn with the round's table RNG as there, so a
table of agents only plays what ``simulate`` plays.

Several humans share one keyboard (hot-seat): before a human sees its hand the screen is
cleared and "pass to seat N — press Enter" shown. Their out-of-turn chances come in a
window at the keyboard ("type your seat number, or Enter to go on") opened when a human
may catch (public) and after every card played when the rules let humans jump in (whether
one can is private: the window opens either way).

Resuming replays the saved record through this same loop (the humans' answers taken from
the record), so the agents are back in the state they were in and the game goes on as it
would have.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Optional, TextIO, TypeVar

from ..engine.actions import Action
from ..engine.decisions import WORDS
from ..engine.errors import NotationError, UnoRulesError
from ..engine.game import Game
from ..engine.outcome import Termination
from ..engine.tables import action_table
from ..play import driver
from ..play.agents import AgentClass, choice_of, make_agent, observation, round_rng
from ..play.driver import OnAction
from ..play.match import Match
from .answers import Blank, Chosen, Help, Hint, Quit, interpret
from .screen import Style, brief_lines, event_lines, option_lines, scores_lines, table_lines
from .summary import RoundEnd, round_end, summary_lines

HUMAN = "human"
PUBLIC = ("catch", "uno")  # out-of-turn kinds anyone can see coming (jump-ins are private)
PROMPTS = {kind: words.brief for kind, words in WORDS.items()}
LOOK = ("look", "table")  # typed at a question: the whole table again


class Quitting(Exception):
    """A human typed q (``save``: offer to save), or the input ran out."""

    def __init__(self, save: bool) -> None:
        super().__init__("quit")
        self.save = save


class Diverged(UnoRulesError):
    """A resumed record is not what this table plays (one line: the step and both actions)."""


@dataclass
class Prompt:
    """What the table asks and waits for (:meth:`Session.play` yields it and is sent the
    line typed): ``kind`` ``"choose"`` (``seat`` picks one of ``options``; with
    ``can_pass`` an empty line lets the chance go), ``"pass_to"`` (hot-seat: hand the
    keyboard to ``seat``), ``"window"`` (hot-seat: a human may act out of turn — its seat
    number, or Enter; with ``seat`` set: that seat had nothing to do, Enter goes on) or
    ``"next_round"`` (Enter deals it). ``text`` is the terminal's prompt; ``hint``: why the
    last line was not taken (the same question asked again)."""

    kind: str
    seat: int | None
    text: str
    options: list[Action] = field(default_factory=list)
    can_pass: bool = False
    hint: str | None = None


T = TypeVar("T")
Asking = Generator[Prompt, Optional[str], T]  # a step of play that may stop to ask  # noqa: UP045


@dataclass
class Outcome:
    """How a session ended: ``"over"`` (the match or round played out), ``"stalled"`` (a
    round's budget ran out) or ``"quit"``."""

    how: str


class Tee:
    """A text stream writing to several (the record file, the save buffer)."""

    def __init__(self, *streams: TextIO) -> None:
        self.streams = streams

    def write(self, text: str) -> int:
        for s in self.streams:
            s.write(text)
        return len(text)

    def flush(self) -> None:
        for s in self.streams:
            s.flush()


class Session:
    """One match (``one_round``: its first round only) at one table.

    ``seats``: ``"human"`` or an agent name per seat; ``agents``: the agent classes by
    name. ``clear`` blanks the screen (hot-seat). ``recorder`` (a ``record.Recorder``)
    gets every action; ``script``: the actions of a saved record to play through first
    (silently) before the table goes live; ``recorded``: the rounds the record has begun.
    ``on_action``: the driver's hook (:mod:`uno_rules.play.driver`), given every action
    taken at the table (replayed ones, contests and out-of-turn actions included)."""

    def __init__(self, match: Match, seats: Sequence[str], agents: dict[str, AgentClass],
                 ask: Callable[[str], str | None], say: Callable[[str], None], *,
                 one_round: bool = False, style: Style | None = None,
                 clear: Callable[[], None] | None = None, recorder: object = None,
                 script: Sequence[str] = (), recorded: int = 1,
                 on_action: OnAction | None = None) -> None:
        self.match, self.seats, self.agents = match, list(seats), agents
        self.on_action = on_action
        self.live_ask, self.live_say = ask, say
        self.one_round = one_round
        self.style = style if style is not None else Style(False)
        self.clear = clear if clear is not None else (lambda: say("-" * 40))
        self.recorder = recorder
        self.humans = [s for s, k in enumerate(self.seats) if k == HUMAN]
        self.hot_seat = len(self.humans) > 1
        self.script: deque[str] = deque(script)
        self.recorded = recorded         # the rounds the record has begun (its round lines)
        self.facing: int | None = None   # the human looking at the screen (hot-seat)
        self.windowed = -1               # the history length a window was last opened at
        # called with the match once a resumed record's script has run: returns the
        # recorder that goes on with the record
        self.on_live: Callable[[Match], object] | None = None
        self.ended: RoundEnd | None = None  # the round just over, until the next is dealt
        # the outcome of a contest settled at the table, when the caller sets it (a record's
        # outcome, its steps played again): an index of the options, or None (the RNG's)
        self.chance: Callable[[Sequence[Action]], int | None] | None = None

    # -------------------------------------------------------------- I/O
    @property
    def replaying(self) -> bool:
        return bool(self.script)

    def say(self, line: str) -> None:
        if not self.replaying:
            self.live_say(line)

    def ask(self, prompt: Prompt) -> Asking[str]:
        """Stop at ``prompt`` until a line is sent (None: the input ran out)."""
        reply = yield prompt
        if reply is None:
            raise Quitting(save=False)
        return reply

    def face(self, seat: int | None) -> Asking[None]:
        """Hot-seat: make sure only ``seat`` (None: everyone) looks at the screen."""
        if not self.hot_seat or self.facing == seat or self.replaying:
            return
        self.clear()
        self.facing = seat
        if seat is not None:
            self.say(f"pass to seat {seat} — press Enter")
            reply = yield from self.ask(Prompt("pass_to", seat, ""))
            if reply.strip().lower() in ("q", "quit", "exit"):
                raise Quitting(save=True)
            self.clear()

    # -------------------------------------------------------------- the match
    def run(self) -> Outcome:
        """Play to the end of the match (or round), or until a human quits, asking
        ``ask``."""
        steps = self.play()
        try:
            prompt = next(steps)
            while True:
                prompt = steps.send(self.live_ask(prompt.text))
        except StopIteration as stop:
            outcome: Outcome = stop.value
            return outcome

    def play(self) -> Asking[Outcome]:
        """:meth:`run` one prompt at a time: yields each :class:`Prompt` and is sent the
        line typed (None: the input ran out); returns the :class:`Outcome`."""
        if not self.script:
            self.go_live()
        try:
            while True:
                game = yield from self.play_round()
                yield from self.face(None)
                self.show_events(None)
                if game.result is None:
                    self.say(f"round stopped: {game.stalled_reason()}")
                    self.end("stalled")
                    return Outcome("stalled")
                self.ended = round_end(self.match, self.one_round)
                for line in summary_lines(self.ended, self.style):
                    self.say(line)
                if self.one_round:
                    self.end(Termination.OVER)
                    return Outcome("over")
                self.match.next_round()
                if self.recorder is not None and (self.match.over or
                                                  self.match.rounds > self.recorded):
                    self.recorder.round()  # type: ignore[attr-defined]
                self.recorded = max(self.recorded, self.match.rounds)
                for line in scores_lines(self.match, self.style):
                    self.say(line)
                if self.match.over:  # the scores say who won
                    self.end(Termination.OVER)
                    return Outcome("over")
                if not self.replaying:
                    reply = yield from self.ask(Prompt(
                        "next_round", None,
                        f"press Enter to deal round {self.match.rounds} (q quits) "))
                    if reply.strip().lower() in ("q", "quit", "exit"):
                        raise Quitting(save=True)
                self.ended = None
        except Quitting as q:
            self.script.clear()
            return Outcome("quit" if q.save else "eof")

    def go_live(self) -> None:
        if self.on_live is not None:
            self.recorder, self.on_live = self.on_live(self.match), None

    def end(self, how: str) -> None:
        if self.recorder is not None:
            self.recorder.end(how)  # type: ignore[attr-defined]

    # -------------------------------------------------------------- a round
    def play_round(self) -> Asking[Game]:
        """Play the match's current round to its end (or a stall); returns it."""
        game = self.match.game
        seed = game.seed
        assert seed is not None  # a match deals its rounds with seeds
        players = game.players
        self.table = action_table(game.rulebook, players)
        made = {s: make_agent(kind, self.agents[kind], s, seed)
                for s, kind in enumerate(self.seats) if kind != HUMAN}
        self.made, self.seen = made, [0] * players
        self.looked = [False] * players  # whether each human saw the whole table this round
        self.notes: dict[int, list[str]] = {}  # lines the table adds, by events before them
        self.card_by: int | None = None  # who played the last card since a turn began
        self.shown = [0] * players       # each human's last event seen
        self.public = 0                  # the last event shown to everyone
        self.table_rng = round_rng(seed)
        return (yield from driver.drive_asking(game, self.next_action, self.take))

    def next_action(self, game: Game) -> Asking[Action]:
        """Who chooses at this table: the out-of-turn window first, then the deciding
        seat (an agent, or a human asked), or at a contest the round's own RNG."""
        table = self.table
        ids = game.legal_ids()
        decider = table[ids[0]].seat
        extra = game.out_of_turn_ids()
        # hot-seat with jump-ins: the window opens whether or not a human can jump in
        if extra or self.hot_seat and self.can_jump():
            taken = yield from self.out_of_turn(game, decider, extra)
            if taken is not None:
                return taken
        if decider is None:
            forced = None if self.chance is None else self.chance([table[i] for i in ids])
            if forced is not None:
                return table[ids[forced]]
            return table[driver.settle(ids, self.table_rng, driver.chance_weights(game))]
        mine = ids + tuple(i for i in extra if table[i].seat == decider)
        if decider in self.made:
            pending = game.pending
            choice = self.agent(game, decider, mine,
                                pending.kind if pending is not None else "turn")
            assert choice is not None
            return table[choice]
        action = yield from self.human(game, decider, [table[i] for i in mine], len(ids))
        assert action is not None
        return action

    def out_of_turn(self, game: Game, decider: int | None,
                    extra: Sequence[int]) -> Asking[Action | None]:
        """Offer the out-of-turn actions, seat by seat from the one after the decider;
        the one taken, if any."""
        table, players = self.table, game.players
        window = False  # several humans: one window for them all, at the first one's place
        for s in driver.window_seats(decider, players):
            mine = tuple(i for i in extra if table[i].seat == s)
            if s in self.made:
                if mine:
                    choice = self.agent(game, s, mine, None)
                    if choice is not None:
                        return table[choice]
            elif self.hot_seat:
                if not window:
                    window = True
                    action = yield from self.window(game, decider, extra)
                    if action is not None:
                        return action
            elif mine:
                action = yield from self.human(game, s, [table[i] for i in mine], 0)
                if action is not None:
                    return action
        return None

    def window(self, game: Game, decider: int | None,
               extra: Sequence[int]) -> Asking[Action | None]:
        """Hot-seat: the out-of-turn window at the shared keyboard, when a human may catch
        or, if the rules let humans jump in, after a card is played (opened whether one can
        or not: that is private)."""
        table = self.table
        offered = [table[i] for i in extra if table[i].seat in self.humans
                   and table[i].seat != decider]
        public = [a for a in offered if a.kind in PUBLIC]
        last = game.history[-1] if game.history else None
        played = last is not None and last.kind in ("play", "jump_in") and self.can_jump()
        if not public and not played:
            return None
        if self.windowed == len(game.history):
            return None
        self.windowed = len(game.history)
        if self.replaying:  # the record says whether a human took something here
            action = self.scripted()
            return action if action in offered else None
        yield from self.face(None)
        self.show_events(None)
        if public:
            caught = sorted({a.arg for a in public if a.kind == "catch"}, key=str)
            if caught:
                self.say(f"seat(s) {', '.join(map(str, caught))} didn't call "
                         f"{game.rulebook.settings.call_name}: "
                         "anyone may catch")
        seat = yield from self.window_seat(decider)
        if seat is None:
            return None
        mine = [a for a in offered if a.seat == seat]
        if not mine:
            yield from self.face(seat)
            self.say(f"seat {seat}: nothing to do out of turn now")
            yield from self.ask(Prompt("window", seat, "press Enter ", can_pass=True))
            yield from self.face(None)
            return None
        action = yield from self.human(game, seat, mine, 0)
        yield from self.face(None)
        return action

    def window_seat(self, decider: int | None) -> Asking[int | None]:
        """Ask which human seat acts in the window (not ``decider``): None on Enter."""
        hint = None
        while True:
            reply = (yield from self.ask(Prompt(
                "window", None, f"out of turn (catch {self.match.game.rulebook.settings.call_name}"
                ", jump in)? type your seat number, "
                "or press Enter to go on: ", can_pass=True, hint=hint))).strip().lower()
            if not reply:
                return None
            if reply in ("q", "quit", "exit"):
                raise Quitting(save=True)
            if reply.isascii() and reply.isdigit() and len(reply) <= 3 and \
                    int(reply) in self.humans and int(reply) != decider:
                return int(reply)
            others = [s for s in self.humans if s != decider]
            hint = f"a seat number: {', '.join(map(str, others))}; or Enter"
            self.say(hint)

    def can_jump(self) -> bool:
        """Whether the rules let a human seat jump in (private: who can, and when)."""
        jump = getattr(self, "_jump", None)
        if jump is None:
            jump = self._jump = any(a.kind == "jump_in" and a.seat in self.humans
                                    for a in self.table)
        return jump

    # -------------------------------------------------------------- seats
    def agent(self, game: Game, seat: int, ids: tuple[int, ...], kind: str | None) -> int | None:
        """Ask the agent at ``seat`` (as play_agents_on asks it)."""
        obs = observation(game, seat, ids, kind, self.seen[seat], game.rulebook,  # type: ignore[arg-type]
                          self.table)
        self.seen[seat] = len(game.history)
        return choice_of(self.made[seat], self.seats[seat], obs)

    def human(self, game: Game, seat: int, options: list[Action],
              own: int) -> Asking[Action | None]:
        """Ask the human at ``seat`` to choose among ``options`` (the first ``own`` its
        decision's; the rest out-of-turn, and then Enter passes)."""
        if self.replaying:
            action = self.scripted()
            if action in options:
                return action  # taken (and checked off the script) by take()
            if own:
                raise Diverged(f"the record's next action, {action}, is not one of seat "
                               f"{seat}'s options")
            return None
        yield from self.face(seat)
        self.say("")
        self.show_events(seat)
        self.show_table(game, seat, self.looked[seat])
        self.show_question(game, seat, options, own)
        hint = None
        while True:
            reply = yield from self.ask(Prompt("choose", seat, f"seat {seat}> ", options,
                                               not own, hint))
            if reply.strip().lower() in LOOK:
                hint = None
                self.show_table(game, seat, False)
                self.show_question(game, seat, options, own)
                continue
            answer = interpret(reply, options, game, seat)
            if isinstance(answer, Chosen):
                return answer.action
            if isinstance(answer, Quit):
                raise Quitting(save=True)
            if isinstance(answer, Blank):
                if not own:
                    return None
                hint = "type an option's number (? lists what you may type, q quits)"
                self.say(hint)
            elif isinstance(answer, Help):
                lines = [*answer.lines, f"  {' or '.join(LOOK)}: the whole table again"]
                hint = " ".join(" ".join(line.split()) for line in lines)
                for line in lines:
                    self.say(line)
            elif isinstance(answer, Hint):
                hint = answer.text
                self.say(answer.text)

    def show_table(self, game: Game, seat: int, brief: bool) -> None:
        """The table as ``seat`` sees it: whole (the round's first question, ``look``) or
        ``brief`` (a few lines: the events said what changed)."""
        if brief:
            lines = brief_lines(game, seat, self.style)
        elif self.one_round:
            lines = ["one round (not a match)", *table_lines(game, seat, self.style)]
        else:
            lines = table_lines(game, seat, self.style, match=self.match)
        self.looked[seat] = True
        for line in lines:
            self.say(line)

    def show_question(self, game: Game, seat: int, options: list[Action], own: int) -> None:
        """What ``seat`` is asked, and its options."""
        decision = game.decision
        assert decision is not None
        if own:
            self.say(f"seat {seat}, {PROMPTS.get(decision.kind, decision.kind)}:")
        else:
            who = "the table" if decision.seat is None else f"seat {decision.seat}"
            self.say(f"{who} to act; seat {seat}, press Enter to let it, or act out of turn:")
        for line in option_lines(options, game, self.style):
            self.say(line)

    def show_events(self, seat: int | None) -> None:
        """The events since ``seat`` (None: everyone) last looked."""
        game = self.match.game
        if seat is not None:
            since = max(self.shown[seat], self.public)
        else:  # one human: it has seen the events up to its last prompt
            since = max([self.public] + [self.shown[h] for h in self.humans
                                         if not self.hot_seat])
        for line in event_lines(game, since, seat, self.style, notes=self.notes)[-40:]:
            self.say(line)
        if seat is None:
            self.public = len(game.events)
        else:
            self.shown[seat] = len(game.events)

    # -------------------------------------------------------------- actions
    def scripted(self) -> Action | None:
        try:
            return Action.parse(self.script[0])
        except NotationError:
            raise Diverged(f"the record's action {self.script[0]!r} is not an action") \
                from None

    def take(self, game: Game, action: Action) -> None:
        """Take ``action``: checked against the record while replaying one, else recorded."""
        if self.replaying:
            recorded = self.script.popleft()
            if recorded != str(action):
                raise Diverged(f"the record has {recorded!r} where this table plays "
                               f"{str(action)!r}")
            driver.take(game, action, self.on_action)
            self.note_skips(game, action)
            if not self.script:
                self.go_live()
            return
        driver.take(game, action, self.on_action)
        self.note_skips(game, action)
        if self.recorder is not None:
            self.recorder.step(action)  # type: ignore[attr-defined]

    def note_skips(self, game: Game, action: Action) -> None:
        """Say who a card skipped (``seat 2 is skipped``): when a turn begins after a card,
        the seats in play between the card's player and the new turn's seat, going the
        way play goes now. Worked out here, from the seats: the log has no such event."""
        if action.kind in ("play", "jump_in"):
            self.card_by = action.seat
        decision = game.decision
        played = self.card_by
        if played is None or decision is None or decision.kind != "turn" or \
                decision.seat is None:
            return
        self.card_by = None
        hands, n, step = game.hands, game.players, game.direction
        skipped, s = [], played
        for _ in range(n):
            s = (s + step) % n
            if s == decision.seat:
                break
            if hands[s]:
                skipped.append(s)
        if skipped:
            self.notes.setdefault(len(game.log or []), []).extend(
                f"seat {k} is skipped" for k in skipped)
