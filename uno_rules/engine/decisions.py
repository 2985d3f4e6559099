"""The decisions a round can wait for: one typed record per kind, owning its options (ids of
the game size's :func:`~uno_rules.engine.tables.action_table`) and how an answer resumes the
round.

A record is what :attr:`State.pending` holds; :attr:`Game.decision` shows it to players as a
public :class:`~uno_rules.engine.actions.Decision`. The records sit below the interpreter and reach
it only through the :class:`Runner` base class it implements, so the import graph has no
circle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from importlib.machinery import EXTENSION_SUFFIXES
from itertools import chain
from operator import itemgetter
from typing import Any

from .actions import Action
from .legal import Legality
from .notation import COMBO
from .pilecounters import Press
from .records import Among, Ask, Ctx, Frame, Giving, OneDatum
from .rows import set_pile_color
from .state import State
from .tables import offers_draw


class Runner(Legality):
    """The state and legality, plus what an answer needs of the interpreter
    (:class:`uno_rules.engine.game.Game` implements it)."""

    __slots__ = ()

    def _play_card(self, seat: int, card: int, uno: bool, pile: int = 0) -> None:
        """Play ``card`` from ``seat``'s hand onto discard pile ``pile`` and resolve it."""
        raise NotImplementedError

    def _face_stack(self, seat: int, challenge: bool) -> None:
        """Draw the stacked total, or challenge the last card stacked."""
        raise NotImplementedError

    def _play_cards(self, seat: int, names: list[str], uno: bool, pile: int) -> None:
        """Play the cards ``names`` from ``seat``'s hand at once (a combo) onto ``pile``."""
        raise NotImplementedError

    def _run(self) -> None:
        """Run effect frames until a decision is needed or the effect is done."""
        raise NotImplementedError

    def _stop_record(self) -> dict[str, Any] | None:
        """The budget that stopped the round and its size (``{"budget": "steps", "limit":
        100000}``), for its snapshot; None unless it stalled."""
        raise NotImplementedError

    def _stop(self, budget: str, limit: int) -> None:
        """Stop a restored round as its snapshot says ``budget`` of ``limit`` did."""
        raise NotImplementedError


# Above this many cards a hand's playable cards come from the match set's intersection with
# it (one C call) rather than a flag per card (a 9,000-card hand took 5 s a round that way).
# Compiled, the flags win up to there; interpreted, the C call wins at any size (a flag loop
# made the pure build's round 2.5 % slower).
BIG_HAND = 32 if __file__.endswith(tuple(EXTENSION_SUFFIXES)) else 0


def play(g: Runner, seat: int, action: Action) -> None:
    """``seat`` plays what ``action`` names: one card, or several at once (a combo)."""
    if g.rulebook.combos and COMBO in str(action.arg):
        g._play_cards(seat, str(action.arg).split(COMBO), action.uno, action.pile)
        return
    g._play_card(seat, g._card_played(seat, action), action.uno, action.pile)


@dataclass(slots=True)
class Turn(Ask):
    """The record of a ``turn`` decision (what it is: ``WORDS["turn"].what``)."""

    kind: str = field(default="turn", init=False, repr=False, compare=False)

    def options(self, g: Legality) -> Sequence[int]:
        seat = self.seat
        assert seat is not None
        hand = g.hands[seat]
        if g.stacked.total:
            return g._stack_ids(seat, g._playable(seat, hand))
        if g._plain:  # Legality.playable with nothing to check: the matching cards held
            # A flag looked up per held card, not match.intersection(hand): compiled, it
            # costs a fraction of the method call and its set; copies of a card are one
            # choice (sorted, each kept once).
            acts = g._acts[seat]
            size = len(hand)
            if size > BIG_HAND:  # the set's intersection, in C, beats a loop here
                playable = sorted(g._matching_top().intersection(hand))
            else:
                flags = g._matching_flags()
                playable = []  # a loop, not a comprehension: no closure made on every call
                for c in hand:
                    if flags[c]:
                        playable.append(c)
                if len(playable) > 1:
                    playable.sort()
                    distinct = [playable[0]]
                    for c in playable:
                        if c != distinct[-1]:
                            distinct.append(c)
                    playable = distinct
            if not playable:
                return acts.turn_none
            # play_ids with one pile, one side, no uno_after_effects (so calls_uno on the
            # hand size alone, looked up): a lookup per card
            if acts.uno_by_hand[size]:
                return (*chain.from_iterable(map(acts.both.__getitem__, playable)),
                        *acts.turn_tail)
            play = acts.play
            if len(playable) > 1:
                plays: tuple[int, ...] = itemgetter(*playable)(play)
                return plays + acts.turn_tail
            return (play[playable[0]], *acts.turn_tail)
        if g.rulebook.discard_piles > 1:
            opts, playable = g._pile_plays(seat, hand)
        else:
            playable = g._playable(seat, hand)
            opts = g._play_ids(seat, playable, len(hand), g._focus)
        if g.rulebook.combos:  # several cards at once
            opts += g._combo_ids(seat)
        if offers_draw(playable, g.rulebook.settings.draw_with_playable):
            opts.append(g._acts[seat].draw)
        return opts

    def answer(self, g: Runner, action: Action) -> None:
        seat = self.seat
        assert seat is not None
        g.turns += 1
        if action.kind == "play":
            if g._combos:  # a play may lay several cards
                play(g, seat, action)
            else:  # play(), its one card: a call less on the commonest action
                g._play_card(seat, g._card_played(seat, action), action.uno, action.pile)
            return
        if g.stacked.total:  # draw the stacked total, or challenge the last card stacked
            g._face_stack(seat, action.kind == "challenge")
            return
        g._ctx = ctx = Ctx(seat)
        g._stack.append(Frame(g.rulebook.draw_program, 0, ctx))
        g._run()


@dataclass(slots=True)
class Drawn(OneDatum):
    """The record of a ``drawn`` decision (what it is: ``WORDS["drawn"].what``)."""

    kind: str = field(default="drawn", init=False, repr=False, compare=False)
    card: int = -1

    def options(self, g: Legality) -> list[int]:
        seat = self.seat
        assert seat is not None
        if g.offer_unplayable and not g._can_play(seat, self.card):
            opts = []  # asked all the same (State.offer_unplayable): it may only keep it
        elif g.rulebook.discard_piles > 1:
            opts = g._pile_plays(seat, [self.card])[0]
        else:
            opts = g._play_ids(seat, [self.card], len(g.hands[seat]), g._focus)
        if g.rulebook.settings.play_drawn != "must" or not opts:
            opts.append(g._acts[seat].keep)
        return opts

    def answer(self, g: Runner, action: Action) -> None:
        assert self.seat is not None
        if action.kind == "play":
            g._play_card(self.seat, self.card, action.uno, action.pile)
            return
        if g.log is not None:  # no event tuple made when nobody logs
            g.log.append(("keep", self.seat))
        g._run()


@dataclass(slots=True)
class Color(Ask):
    """The record of a ``color`` decision (what it is: ``WORDS["color"].what``)."""

    kind: str = field(default="color", init=False, repr=False, compare=False)

    def options(self, g: Legality) -> list[int]:
        assert self.seat is not None
        colors = g._acts[self.seat].colors
        return [colors[c] for c in g.rulebook.side_colors[g.side]]

    def answer(self, g: Runner, action: Action) -> None:
        if self.ctx is not None and self.ctx.pile != g._focus:
            g._focus_on(self.ctx.pile)
        g.color = g.rulebook.color_ids[action.arg]  # type: ignore[index]
        if g.log is not None:
            g.log.append(("color", self.seat, g.color))
        g._run()


@dataclass(slots=True)
class Challenge(Ask):
    """The record of a ``challenge`` decision (what it is: ``WORDS["challenge"].what``)."""

    kind: str = field(default="challenge", init=False, repr=False, compare=False)
    guilty: int = -1       # program ids
    innocent: int = -1
    accepted: int = -1

    def options(self, g: Legality) -> list[int]:
        assert self.seat is not None
        acts = g._acts[self.seat]
        return [acts.challenge, acts.accept]

    def answer(self, g: Runner, action: Action) -> None:
        ctx = self.ctx
        assert ctx is not None
        if action.kind == "accept":
            g._push(self.accepted, ctx)
        else:
            if g.log is not None:
                g.log.append(("challenge", self.seat, ctx.actor, not ctx.honest))
            g._push(self.innocent if ctx.honest else self.guilty, ctx)
        g._run()

    def data(self) -> Any:
        return [self.guilty, self.innocent, self.accepted]

    @classmethod
    def data_fields(cls, data: Any) -> dict[str, Any]:
        guilty, innocent, accepted = data
        return {"guilty": guilty, "innocent": innocent, "accepted": accepted}


@dataclass(slots=True)
class Target(Among):
    """The record of a ``target`` decision (what it is: ``WORDS["target"].what``): the seats
    it chooses among."""

    kind: str = field(default="target", init=False, repr=False, compare=False)

    def options(self, g: Legality) -> list[int]:
        assert self.seat is not None
        target = g._acts[self.seat].target
        return [target[t] for t in self.among]

    def answer(self, g: Runner, action: Action) -> None:
        assert self.ctx is not None
        self.ctx.target = int(action.arg)  # type: ignore[arg-type]
        g._note("target", self.seat, action.arg)
        g._run()


@dataclass(slots=True)
class Contest(Target):
    """The record of a ``contest`` decision (what it is: ``WORDS["contest"].what``)."""

    kind: str = field(default="contest", init=False, repr=False, compare=False)

    def options(self, g: Legality) -> list[int]:
        loser = g._acts[0].loser  # settled at the table: no seat's own
        return [loser[s] for s in self.among]

    def answer(self, g: Runner, action: Action) -> None:
        assert self.ctx is not None
        self.ctx.loser = int(action.arg)  # type: ignore[arg-type]
        g._note("loser", action.arg)
        g._run()


@dataclass(slots=True)
class Outcome(Ask):
    """The record of an ``outcome`` decision (what it is: ``WORDS["outcome"].what``): a
    ``random`` step's values with their weights (none 0) and each value's program."""

    kind: str = field(default="outcome", init=False, repr=False, compare=False)
    values: tuple[str, ...] = ()
    weights: tuple[int, ...] = ()
    then: tuple[int, ...] = ()

    def options(self, g: Legality) -> list[int]:
        ids = g._acts[0].outcome  # settled at the table: no seat's own
        return [ids[v] for v in self.values]

    def chance_weights(self) -> tuple[int, ...]:
        return self.weights

    def answer(self, g: Runner, action: Action) -> None:
        assert self.ctx is not None
        value = str(action.arg)
        g._note("outcome", value)
        g._push(self.then[self.values.index(value)], self.ctx)
        g._run()

    def data(self) -> Any:
        return [[v, w, p] for v, w, p in zip(self.values, self.weights, self.then, strict=True)]

    @classmethod
    def data_fields(cls, data: Any) -> dict[str, Any]:
        return {"values": tuple(str(v) for v, _, _ in data),
                "weights": tuple(int(w) for _, w, _ in data),
                "then": tuple(int(p) for _, _, p in data)}


@dataclass(slots=True)
class Give(Ask):
    """The record of a ``give`` decision (what it is: ``WORDS["give"].what``)."""

    kind: str = field(default="give", init=False, repr=False, compare=False)

    def options(self, g: Legality) -> list[int]:
        assert self.seat is not None
        faces, give = g.faces, g._acts[self.seat].give
        return [give[faces[c].id] for c in g._distinct(g.hands[self.seat])]

    def answer(self, g: Runner, action: Action) -> None:
        assert self.seat is not None and self.ctx is not None
        give_card(g, self.seat, g._card_named(self.seat, str(action.arg)), self.ctx)
        if g.pending is None:
            g._run()


@dataclass(slots=True)
class ForcedPlay(Ask):
    """The record of a ``forced_play`` decision (what it is: ``WORDS["forced_play"].what``)."""

    kind: str = field(default="forced_play", init=False, repr=False, compare=False)
    player: int = -1            # who played the card that forces it
    otherwise: int | None = None  # the `else` program (kept for snapshots)

    def options(self, g: Legality) -> list[int]:
        seat = self.seat
        assert seat is not None
        return g._play_ids(seat, g._forced_cards(seat), len(g.hands[seat]), g._focus)

    def answer(self, g: Runner, action: Action) -> None:
        assert self.seat is not None
        g._play_card(self.seat, g._card_played(self.seat, action), action.uno, action.pile)

    def data(self) -> Any:
        return [self.player, self.otherwise]

    @classmethod
    def data_fields(cls, data: Any) -> dict[str, Any]:
        player, otherwise = data
        return {"player": player, "otherwise": otherwise}


@dataclass(slots=True)
class Side(OneDatum):
    """The record of a ``side`` decision (what it is: ``WORDS["side"].what``)."""

    kind: str = field(default="side", init=False, repr=False, compare=False)
    normal: bool = True  # the card may be played as itself too (it matched so)

    def options(self, g: Legality) -> list[int]:
        assert self.seat is not None and self.ctx is not None
        side = g._acts[self.seat].side
        alt = side[g.faces[self.ctx.face].alternative]
        return [side["normal"], alt] if self.normal else [alt]

    def answer(self, g: Runner, action: Action) -> None:
        ctx = self.ctx
        assert ctx is not None
        rule = g._card_rules[ctx.face]
        assert rule is not None
        program = rule.effect if action.arg == "normal" else rule.alt_effect
        g._note("side", self.seat, action.arg)
        if program is not None:
            g._push(program, ctx)
        g._run()


# A turn's end is under way (`turn: {end: ...}` steps running): State._played_piles' last.
ENDING = -1


@dataclass(slots=True)
class Again(Ask):
    """The record of an ``again`` decision (what it is: ``WORDS["again"].what``): after a
    play in a turn of several plays, play onto a pile not yet played on, or end the turn."""

    kind: str = field(default="again", init=False, repr=False, compare=False)

    def options(self, g: Legality) -> list[int]:
        seat = self.seat
        assert seat is not None
        return again_plays(g, seat) + [g._acts[seat].end]

    def answer(self, g: Runner, action: Action) -> None:
        seat = self.seat
        assert seat is not None
        if action.kind == "play":
            play(g, seat, action)
            return
        end_turn(g, seat)


def again_plays(g: Legality, seat: int) -> list[int]:
    """``seat``'s plays (ids) onto the discard piles not yet played on this turn."""
    opts = g._pile_plays(seat, g.hands[seat])[0]
    if g.rulebook.combos:
        opts += g._combo_ids(seat)
    acts, played = g._acts[seat], g._played_piles
    return [i for i in opts if acts.table[i].pile not in played]


def closed_pile(g: Legality) -> int:
    """The first closed discard pile (holding no card), where a card put out goes; -1 if
    every pile holds cards."""
    for k, pile in enumerate(g._discards):
        if not pile:
            return k
    return -1


@dataclass(slots=True)
class PutOut(OneDatum):
    """The record of a ``put_out`` decision (what it is: ``WORDS["put_out"].what``): a card
    of the hand goes face up on the first closed discard pile, opening it (a `put_out`
    step); with ``play``, a play onto a pile not yet played on this turn instead."""

    kind: str = field(default="put_out", init=False, repr=False, compare=False)
    play: bool = False

    def options(self, g: Legality) -> list[int]:
        seat = self.seat
        assert seat is not None
        hand, pile = g.hands[seat], closed_pile(g)
        opts = [] if pile < 0 else g._play_ids(seat, g._distinct(hand), len(hand), pile)
        return again_plays(g, seat) + opts if self.play else opts

    def answer(self, g: Runner, action: Action) -> None:
        seat = self.seat
        assert seat is not None
        if g._discards[action.pile]:  # a play onto a pile holding cards: as in a turn
            play(g, seat, action)
            return
        put_card_out(g, seat, g._card_played(seat, action), action.pile, action.uno)
        g._run()


def put_card_out(g: Legality, seat: int, card: int, pile: int, uno: bool) -> None:
    """``seat`` puts ``card`` from its hand face up on the closed pile ``pile``: no play
    (its card's effect does not run), but its UNO call is due as after a play."""
    hand = g.hands[seat]
    hand.remove(card)
    g._discards[pile].append(card)
    set_pile_color(g, pile, g.faces[card].color)
    fid = g.faces[card].id
    g._note(*(("play", seat, fid) if not pile else ("play", seat, fid, pile)))
    if not uno and len(hand) == g.rulebook.settings.call_at:
        g._uno_open = seat


def run_put_out(g: Legality, ctx: Ctx, step: Any) -> None:
    """The ``put_out`` step: its seat is asked for a card to put out (a ``put_out``
    decision), when it holds one and a pile is closed (or, with ``play``, it may play)."""
    seat = g._seat(step.args["who"], ctx)
    if seat >= 0 and g.hands[seat]:
        ask = PutOut(seat, ctx, step.args["play"])
        if ask.options(g):
            g.pending = ask


def end_turn(g: Runner, seat: int) -> None:
    """``seat``'s turn of several plays ends: its `turn: {end: ...}` steps run, then
    (State._played_piles holding ENDING) the round goes on as after any turn."""
    g._played_piles = [ENDING]
    g._ctx = ctx = Ctx(seat)
    if g.rulebook.turn_end is not None:
        g._push(g.rulebook.turn_end, ctx)
    g._run()


def turn_goes_on(g: Runner) -> bool:
    """After a card or a draw is resolved, in a rulebook with turns of several plays or
    end-of-turn steps: the turn's player may play again (an ``again`` decision), or its turn
    ends. True when that took over; False when the turn is over (or the round just began)
    and the round goes on as usual."""
    played, ctx = g._played_piles, g._ctx
    if played and played[-1] == ENDING:
        g._played_piles = []
        return False
    if g.turns == 0:  # the first card's effects: no turn yet
        return False
    seat = ctx.actor
    if ctx.face >= 0 and g.rulebook.turn_plays:
        played.append(ctx.pile)
        # a card put out on a closed pile (its only card) ends the turn
        if g.hands[seat] and len(g._discards[ctx.pile]) > 1:
            again = Again(seat, ctx)  # about the card just played
            if len(again.options(g)) > 1:  # a play besides `end`
                g.pending = again
                return True
    end_turn(g, seat)
    return True


# Each kind's name is its `kind` field's default (a slots dataclass has no class attribute).
KINDS: dict[str, type[Ask]] = {str(f.default): cls for cls in (
    Turn, Drawn, Color, Challenge, Target, Contest, Give, ForcedPlay, Side, Outcome, Press,
    Again, PutOut)
    for f in fields(cls) if f.name == "kind"}


@dataclass(frozen=True)
class KindWords:
    """A decision kind in words, for the terminal and the web tables."""

    waiting: str  # what a seat is marked as waiting for: "to choose a colour"
    prompt: str   # what the seat is asked, in full: "choose a colour"
    brief: str    # the terminal session's question: "choose a colour"
    what: str     # what the decision is, for docs/decisions.md: "Choose the colour in force."


# The one table of each kind's words (a test holds it to KINDS).
WORDS: dict[str, KindWords] = {
    "turn": KindWords(
        "to play", "your turn: play a card or draw", "your turn",
        "A player's turn: play a card, draw, or answer a stacked draw."),
    "drawn": KindWords(
        "to play or keep the card drawn", "play the card you drew, or keep it",
        "you drew a card: play it or keep it",
        "The card just drawn may be played at once (or kept)."),
    "color": KindWords(
        "to choose a colour", "choose a colour", "choose a colour",
        "Choose the colour in force."),
    "challenge": KindWords(
        "to challenge or accept", "challenge the card played, or accept it",
        "challenge or accept",
        "Challenge the card just played, or accept it; each answer runs its branch."),
    "target": KindWords(
        "to choose a seat", "choose a seat", "choose a player",
        "Choose another player: the card's `target`."),
    "contest": KindWords(
        "a contest", "settle the contest", "contest",
        "A contest decided at the table: which of two players lost (`seats`: the card's "
        "player, then the other). No seat decides (`seat` None): it is a chance node, each "
        "outcome equally likely (`Decision.chance`), drawn by whoever runs the game."),
    "give": KindWords(
        "to give a card", "give a card (to your partner, or the player the card names)",
        "choose a card to give",
        "Choose a card to give to one's partner, or to the recipient `give_cards` names."),
    "forced_play": KindWords(
        "to play the colour", "play a card of the colour in force", "play the card",
        "A partner must play a card of the colour in force."),
    "side": KindWords(
        "to choose a side", "choose how the card you played is played: normal or its "
        "alternative", "normal or alternative",
        "Choose how the card just played is played: `normal`, or its alternative (a side "
        "decision: e.g. a card's second, conditional half), when the alternative's "
        "conditions hold."),
    "outcome": KindWords(
        "a table outcome", "settle the outcome", "outcome",
        "A table outcome: one of the values a rulebook's `random` step (or a count given as "
        "weights) declares, each as likely as its weight (`Decision.weights`, "
        "`Decision.chance`). No seat decides (`seat` None): a chance node, drawn by whoever "
        "runs the game."),
    "press": KindWords(
        "to press a pile", "press an open discard pile of your choice", "press a pile",
        "Choose an open discard pile to press (`press: chosen`, pile counters): its count "
        "goes up one and may overload (e.g. a press that ends a turn)."),
    "again": KindWords(
        "to play again or end the turn", "play again onto a pile not played on this turn, "
        "or end your turn", "play again or end",
        "In a turn of several plays (`turn: {plays: each_pile}`): play again onto a "
        "discard pile not yet played on this turn, or `end` the turn."),
    "put_out": KindWords(
        "to put a card out", "put a card from your hand face up on a closed pile (or, "
        "if offered, play onto a pile)", "put a card out",
        "Choose a card of one's hand to put face up on the first closed discard pile, "
        "opening it (a `put_out` step: e.g. bonus cards; after a draw, with `play`, a play "
        "onto a pile not played on this turn is offered too, and a card put out ends the "
        "turn)."),
}


# What each kind's snapshot data (Ask.data) may be, in words of snapshot.py's DATA_ATOMS: one
# word, or a row of them (a list of fixed length); a kind missing here carries no data (None).
# Declared here, beside the record, so a new kind needs no edit in snapshot.py.
DATA: dict[str, str | tuple[str, ...]] = {
    "drawn": "card", "challenge": ("program", "program", "program"),
    "target": "seats", "contest": "seat_pair", "forced_play": ("seat", "program_or_none"),
    "side": "flag", "outcome": "outcomes", "press": "piles", "put_out": "flag"}


Problem = tuple[str, str] | None  # a field at fault (under the record) and why; None: none


@dataclass(frozen=True)
class KindFacts:
    """What a pending decision of a kind is when the engine made it: the consistency check
    of a restored state (engine/consistency.py) holds a record to these."""

    seated: bool = True        # a seat decides (False: settled at the table, no seat)
    about_card: bool = True    # about the card being resolved (its ctx); a turn is about none
    holds_cards: bool = False  # its seat holds cards (it plays or gives one of them)
    # What is wrong with the record's own data in the state ``g``: ("data" or "seat", why)
    check: Callable[[State, Any], Problem] | None = None


def _steps(g: State, op: str) -> list[Any]:
    """The arguments of every step ``op`` of the rulebook's programs."""
    return [step.args for program in g.rulebook.programs for step in program if step.op == op]


def _drawn_problem(g: State, ask: Any) -> Problem:
    ctx = ask.ctx
    if ask.seat != ctx.actor or ask.card != ctx.drawn or ask.card not in g.hands[ask.seat]:
        return "data", "the drawn card offered is not the one its player drew and holds"
    return None


def _challenge_problem(g: State, ask: Any) -> Problem:
    if (ask.guilty, ask.innocent, ask.accepted) not in {
            (s["guilty"], s["innocent"], s["accepted"])
            for s in _steps(g, "challenge")} or ask.seat != ask.ctx.challenger:
        return "data", "a challenge whose outcomes are not those of a challenge step"
    return None


def _target_problem(g: State, ask: Any) -> Problem:
    if ask.seat in ask.among or any(s in g.eliminated for s in ask.among):
        return "data", "a choice among seats that can't be chosen"
    return None


def _contest_problem(g: State, ask: Any) -> Problem:
    if ask.among[0] != ask.ctx.actor:
        return "data", "a contest not between the card's player and another"
    return None


def _forced_play_problem(g: State, ask: Any) -> Problem:
    if ask.player != ask.ctx.actor or ask.otherwise not in {
            s["else"] for s in _steps(g, "partner_plays")}:
        return "data", "a forced play no partner_plays step asks for"
    return None


def _give_problem(g: State, ask: Any) -> Problem:
    if not (g.giving and g.giving[-1].queue and g.giving[-1].queue[0][0] == ask.seat):
        return "seat", f"seat {ask.seat} gives a card nobody asked it for"
    return None


def _outcome_problem(g: State, ask: Any) -> Problem:
    if (ask.values, ask.weights, ask.then) not in {
            (s["values"], s["weights"], s["then"]) for s in _steps(g, "random")}:
        return "data", "a table outcome no random step declares"
    return None


# Each kind's facts (a test holds the table to KINDS, and the consistency check to it).
def _again_problem(g: State, ask: Any) -> Problem:
    played = g._played_piles
    if not g.rulebook.turn_plays or not played or -1 in played or \
            len(set(played)) != len(played) or ask.seat != ask.ctx.actor:
        return "seat", "an again decision, yet no turn of several plays under way"
    return None


FACTS: dict[str, KindFacts] = {
    "turn": KindFacts(about_card=False, holds_cards=True),
    "drawn": KindFacts(holds_cards=True, check=_drawn_problem),
    "color": KindFacts(),
    "challenge": KindFacts(check=_challenge_problem),
    "target": KindFacts(check=_target_problem),
    "contest": KindFacts(seated=False, check=_contest_problem),
    "give": KindFacts(holds_cards=True, check=_give_problem),
    "forced_play": KindFacts(holds_cards=True, check=_forced_play_problem),
    "side": KindFacts(),
    "outcome": KindFacts(seated=False, check=_outcome_problem),
    "press": KindFacts(),
    "again": KindFacts(check=_again_problem),
    "put_out": KindFacts(holds_cards=True),
}


def register_kind(cls: type[Ask], words: KindWords,
                  data: str | tuple[str, ...] | None = None,
                  facts: KindFacts | None = None) -> None:
    """Add a decision kind at run time (a plug-in's, or a test's toy): its record, its words,
    the shape of its snapshot data and its facts (None: a seat decides, about a card, nothing
    more checked). Modules that copy KINDS at import (the RL layout) keep theirs."""
    kind = next(str(f.default) for f in fields(cls) if f.name == "kind")
    KINDS[kind] = cls
    WORDS[kind] = words
    FACTS[kind] = KindFacts() if facts is None else facts
    if data is not None:
        DATA[kind] = data


def ask_from_json(kind: str, seat: int | None, ctx: Ctx | None, data: Any) -> Ask:
    """Rebuild a record from its snapshot form (``KeyError``/``ValueError`` if malformed)."""
    cls = KINDS[kind]
    return cls(seat, ctx, **cls.data_fields(data))


def start_giving(g: Legality, givers: list[int], count: int | str, together: bool,
                 ctx: Ctx, to: list[list[int]] | None = None) -> None:
    """Ask each giver in turn for ``count`` cards for its partner, or with ``to`` (one list
    per giver) for each of its recipients in turn: a queue entry ``[giver, count]`` gives to
    the partner (as before recipients were named), ``[giver, count, recipient]`` to one."""
    queue: list[list[Any]] = [[giver, count] for giver in givers] if to is None else \
        [[giver, count, r] for giver, rs in zip(givers, to, strict=True) for r in rs]
    g.giving.append(Giving(queue, [], together))
    next_give(g, ctx)


def give_card(g: Legality, seat: int, card: int, ctx: Ctx) -> None:
    """``seat`` gives ``card`` to its partner or the recipient its queue entry names (or
    sets it aside until all have chosen)."""
    giving = g.giving[-1]
    g.hands[seat].remove(card)
    entry = giving.queue[0]
    to = int(entry[2]) if len(entry) > 2 else g._partner(seat)
    if giving.together:
        giving.aside.append([seat, to, card])
    else:
        g._receive(to, card)
    g._note("give", seat, to, card)
    giving.queue[0][1] -= 1
    next_give(g, ctx)


def next_give(g: Legality, ctx: Ctx) -> None:
    """Ask the next giver that still owes a card, or hand the cards set aside over."""
    giving = g.giving[-1]
    queue, hands = giving.queue, g.hands
    while queue:
        giver, count = queue[0][0], queue[0][1]
        if count == "half":
            count = queue[0][1] = len(hands[giver]) // 2
        if count > 0 and hands[giver]:
            g.pending = Give(giver, ctx)
            return
        queue.pop(0)
    for _, to, card in giving.aside:
        g._receive(to, card)
    g.giving.pop()


__all__ = ["DATA", "FACTS", "KINDS", "WORDS", "Challenge", "Color", "Contest", "Drawn",
           "ForcedPlay", "Give", "KindFacts", "KindWords", "Outcome", "Press", "PutOut", "Runner",
           "Side", "Target", "Turn", "ask_from_json", "give_card", "register_kind", "start_giving"]
