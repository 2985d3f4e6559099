"""Players: the :class:`Agent` protocol, what an agent is shown (:class:`Observation`), the
built-in agents (:data:`AGENTS`) and the loop that seats them (:func:`play_agents`).

An agent is made per seat and per round, with its own seeded RNG, and decides from an
:class:`Observation`: its seat's view, its options and the public actions since it last
decided. It is never handed the game: what it receives holds no reference to the game or
to another seat's hand (tests/test_agents.py walks it). That is a contract, not a sandbox:
code running in the same process can always find objects through ``gc`` or the call stack.
"""

from __future__ import annotations

import importlib
import os
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..engine.actions import Action
from ..engine.errors import UnoRulesError
from ..engine.game import Game
from ..engine.model import NO_COLOR, Face, FrozenMap, Rules
from ..engine.notation import COMBO
from ..engine.rulebook import Rulebook
from ..engine.tables import action_table
from ..engine.view import SeatView, seen_actions, view_dict
from . import driver
from .driver import OnAction


@dataclass(frozen=True, slots=True)
class CardInfo:
    """What anyone knows about a card name: its colour (None: colourless, a wild), rank,
    points and whether it is a number card."""

    name: str
    color: str | None
    rank: str
    points: int
    number: bool


@dataclass(frozen=True)
class Observation:
    """Everything a seat is shown when it may act (plain, immutable data: no game inside).

    ``kind`` is the pending decision's kind when the seat must answer it, None when it is
    only offered out-of-turn actions (a catch, an UNO call for a partner, a jump-in); then
    ``optional`` is True and the agent may pass (return None). ``ids`` are the options as
    numbers of ``table`` (``rulebook.action_table(players)``), ``options`` the same as
    :class:`Action` objects. ``events`` are the actions taken since this seat's previous
    observation (all of them since the deal, the first time), as everyone saw them: the card
    of another seat's ``give`` is hidden (its ``arg`` None), and another seat's ``keep`` is
    left out (:func:`seen_events`: it would tell that the card it drew could be played).

    ``seat_view`` is the seat's record of what it may know (``game.seat_view(seat)``);
    :attr:`view`, ``game.view(seat)``'s dict, is made from it when first read."""

    seat: int
    players: int
    seat_view: SeatView               # game.seat_view(seat): frozen, this seat's alone
    kind: str | None
    optional: bool
    ids: tuple[int, ...]
    options: tuple[Action, ...]
    events: tuple[Action, ...]
    cards: Mapping[str, CardInfo]     # every card name of the rulebook
    colors: tuple[str, ...]
    deck: Mapping[str, int]           # copies of each card name in the deck
    table: tuple[Action, ...]
    # determinize(rng) -> a new Game: the live round resampled from this seat's information
    # (game.resample(seat, rng)): the other seats' hands and the draw pile re-dealt, for
    # searching agents (lookahead). None where no game is at hand.
    determinize: Callable[[random.Random], Game] | None = None
    # The rulebook, naming the record's cards and colours in `view` (public, as `cards` is).
    rulebook: Rules | None = field(default=None, repr=False, compare=False)
    _view: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)

    def __init__(self, seat: int, players: int, seat_view: SeatView, kind: str | None,
                 optional: bool, ids: tuple[int, ...], options: tuple[Action, ...],
                 events: tuple[Action, ...], cards: Mapping[str, CardInfo],
                 colors: tuple[str, ...], deck: Mapping[str, int], table: tuple[Action, ...],
                 determinize: Callable[[random.Random], Game] | None = None,
                 rulebook: Rules | None = None) -> None:
        # The fields written straight into the instance's dict: a frozen dataclass's own
        # __init__ sets each through object.__setattr__, ~3x the cost, and one is made per
        # agent decision (Gymnasium's opponents: a fifth of an episode). Same signature.
        d = self.__dict__
        d["seat"] = seat
        d["players"] = players
        d["seat_view"] = seat_view
        d["kind"] = kind
        d["optional"] = optional
        d["ids"] = ids
        d["options"] = options
        d["events"] = events
        d["cards"] = cards
        d["colors"] = colors
        d["deck"] = deck
        d["table"] = table
        d["determinize"] = determinize
        d["rulebook"] = rulebook
        d["_view"] = None

    @property
    def view(self) -> dict[str, Any]:
        """``game.view(seat)``'s dict, made from :attr:`seat_view` on first reading (an agent
        that never reads it doesn't pay for it): the same dict each time, this seat's own."""
        got = self._view
        if got is None:
            if self.rulebook is None:
                raise ValueError("an observation made without its rulebook has no view dict")
            got = view_dict(self.seat_view, self.rulebook, self.table)
            object.__setattr__(self, "_view", got)  # a cache: the record stays as made
        return got


@runtime_checkable
class Agent(Protocol):
    """A player. Made as ``AgentClass(seat, rng)`` for each seat of each round (``rng``:
    a ``random.Random`` of its own, seeded from the round's seed and the seat).
    :meth:`choose` returns one of ``obs.ids``, or None to pass when ``obs.optional``."""

    def choose(self, obs: Observation) -> int | None: ...


AgentClass = Callable[[int, random.Random], Agent]


class AgentError(UnoRulesError):
    """An agent failed: its class couldn't be found or made, or it chose what it may not."""


# ------------------------------------------------------------------ built-in agents
class Uniform:
    """Every option equally likely (passing too, out of turn)."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, obs: Observation) -> int | None:
        ids = obs.ids
        pick = self.rng.randrange(len(ids) + obs.optional)
        return ids[pick] if pick < len(ids) else None


class PlayFirst(Uniform):
    """A random playable card whenever it holds one, else as :class:`Uniform`."""

    def choose(self, obs: Observation) -> int | None:
        plays = [i for i, a in zip(obs.ids, obs.options, strict=True) if a.kind == "play"]
        return plays[self.rng.randrange(len(plays))] if plays else super().choose(obs)


def played(obs: Observation, arg: object) -> Any:
    """The card a play leaves on top, as ``obs.cards`` has it: a combo's last
    (``red 3 + blue 4``: several cards in one play)."""
    return obs.cards[str(arg).rsplit(COMBO, 1)[-1]]


def shed_points(obs: Observation, arg: object) -> int:
    """The points of every card a play sheds (one card, or each of a combo's)."""
    return sum(obs.cards[name].points for name in str(arg).split(COMBO))


class Greedy:
    """Sheds high points first, keeps colourless cards (wilds) for when nothing else plays,
    names the colour it holds most, targets the seat with the fewest cards, always calls
    UNO, catches and jumps in, and challenges when a bluff is likely (see
    :meth:`bluff_likely`). Decides only from its observations."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng
        self.color: str | None = None     # the colour in force, followed through the events
        self.before: str | None = None    # the colour in force before the last play
        self.player: int | None = None    # who made the last play

    def follow(self, obs: Observation) -> None:
        """Follow the colour in force through the public events (a play of a coloured card
        sets it, a colour choice sets it)."""
        for a in obs.events:
            if a.kind in ("play", "jump_in"):
                self.before, self.player = self.color, a.seat
                color = played(obs, a.arg).color
                if color is not None:
                    self.color = color
            elif a.kind == "color":
                self.color = str(a.arg)
        if obs.view["color"] is not None and obs.kind != "challenge":
            self.color = obs.view["color"]  # resynchronise (effects change it unannounced)

    def choose(self, obs: Observation) -> int | None:
        self.follow(obs)
        pairs = list(zip(obs.ids, obs.options, strict=True))
        for i, a in pairs:  # a catch or a call for a partner costs nothing: always
            if a.kind in ("catch", "uno"):
                return i
        if obs.optional:
            return pairs[0][0]  # a jump-in sheds a card out of turn
        kind = obs.kind
        if kind == "challenge":
            want = "challenge" if self.bluff_likely(obs) else "accept"
            return next((i for i, a in pairs if a.kind == want), pairs[0][0])
        hand = [obs.cards[name] for name in obs.view["hand"]]
        held = {c: sum(card.color == c for card in hand) for c in obs.colors}
        plays = [(i, a) for i, a in pairs if a.kind in ("play", "jump_in")]
        if plays:
            def rank(pair: tuple[int, Action]) -> tuple[bool, int, int, bool]:
                card = played(obs, pair[1].arg)
                return (card.color is None, -shed_points(obs, pair[1].arg),
                        -held.get(card.color, 0) if card.color else 0, not pair[1].uno)
            return min(plays, key=rank)[0]
        colors = [(i, a) for i, a in pairs if a.kind == "color"]
        if colors:
            return max(colors, key=lambda p: held.get(str(p[1].arg), 0))[0]
        targets = [(i, a) for i, a in pairs if a.kind == "target"]
        if targets:
            sizes = obs.view["hand_sizes"]
            return min(targets, key=lambda p: sizes[int(p[1].arg)])[0]  # type: ignore[arg-type]
        gives = [(i, a) for i, a in pairs if a.kind == "give"]
        if gives:  # away with the costliest card it can least use: coloured, high points
            return min(gives, key=lambda p: (obs.cards[str(p[1].arg)].color is None,
                                             -obs.cards[str(p[1].arg)].points))[0]
        return pairs[0][0]

    def bluff_likely(self, obs: Observation) -> bool:
        """Whether the player of the card being challenged likely held the colour that was
        in force before it: the chance that ``h`` cards (its hand now) hold at least one of
        that colour, ``1 - (1 - f) ** h``, where ``f`` is that colour's share of the cards
        this seat can't see, is over 40% (a failed challenge costs 2 more cards, a good one
        saves all of them)."""
        before, player = self.before, self.player
        if before is None or player is None or player == self.seat:
            return False
        mine = [obs.cards[name] for name in obs.view["hand"]]
        total = sum(obs.deck.values()) - len(mine)
        of_color = sum(n for name, n in obs.deck.items() if obs.cards[name].color == before) \
            - sum(card.color == before for card in mine)
        if total <= 0 or of_color <= 0:
            return False
        share = of_color / total
        size: int = obs.view["hand_sizes"][player]
        return 1 - (1 - share) ** size > 0.4


class Lookahead(Greedy):
    """Greedy, checked by determinized rollouts, with its opponents modelled as greedy.

    For each of its options (a play that may call UNO always does), ``ROLLOUTS`` times: a
    game resampled from its own seat's information (``obs.determinize``: the hidden cards
    re-dealt, never the real ones), mended to fit what the others' actions showed if they
    play as greedy does (:meth:`follow`: a seat that drew held nothing it could play; one
    that played a wild held no coloured card that would play; one that played a coloured
    card held no playable one of more points; cards drawn since may be anything: the
    excess banned cards of a hand are swapped for allowed ones from the draw pile), takes
    the option and is played out by every seat with greedy's rule (:meth:`_rollout`). The
    same deals and rollout seeds serve every option (common random numbers), so each deal
    compares two options on the same cards. It leaves greedy's choice only for an option
    that wins clearly more of those paired rollouts (a sign test on the rollouts where the
    two differ: ``(better - worse) / sqrt(better + worse) > Z``). Out-of-turn actions,
    single options and observations without ``determinize`` are decided as
    :class:`Greedy` does. Cost per decision: ``ROLLOUTS`` resamples and ``ROLLOUTS x
    options`` rollouts, within a budget of ``WORK`` (:meth:`_budget`): counted, never
    timed, so a seed plays the same game on every machine."""

    ROLLOUTS = 32
    # A decision's work, in cards handled: a resample or a clone costs the deck's cards, a
    # rollout's action 1 + the cards in the acting hand (what finding its options reads).
    # Shipped rulebooks never reach it; hands of thousands of cards would take minutes.
    WORK = 3_000_000
    Z = 1.5        # the sign test's bar for leaving greedy's choice
    HORIZON = 400  # actions a rollout may take (an unfinished one counts half)
    BANS = 6       # the most recent bans kept per seat

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self.top: str | None = None        # the rank on top, followed through the events
        self.sizes: list[int] | None = None
        # What another seat's hand can't hold (if it plays as greedy does): per seat, lists
        # [colour, rank, wilds too, cards it may hold anyway (drawn since), and only
        # coloured cards of more points than this].
        self.bans: dict[int, list[list[Any]]] = {}
        # the seat of the last event's draw, and the ban it made
        self.drew: tuple[int, list[Any]] | None = None
        self._color_of: list[int] = []

    def follow(self, obs: Observation) -> None:
        """Greedy's colour, and what the others' draws and plays showed of their hands
        (:attr:`bans`): exact against greedy players (tests/test_agents.py checks it on
        their real hands), only a guess against others."""
        color, top, bans = self.color, self.top, self.bans
        plays = [0] * obs.players
        new: list[tuple[int, list[Any]]] = []
        for a in obs.events:
            s, kind = a.seat, a.kind
            drew = self.drew[1] if self.drew is not None and self.drew[0] == s else None
            self.drew = None
            if s is None or kind not in ("play", "jump_in", "color", "draw"):
                continue
            if kind == "draw" and s != self.seat:
                for ban in bans.get(s, []) + [b for who, b in new if who == s]:
                    ban[3] += 1
                # nothing it held could be played (the card drawn either can't, or is
                # played now and gone)
                new.append((s, [color, top, True, 0, -1]))
                self.drew = (s, new[-1][1])
            elif kind == "color":
                color = str(a.arg)
            elif kind in ("play", "jump_in"):
                card = played(obs, a.arg)
                plays[s] += 1
                if s != self.seat:
                    for ban in bans.get(s, []) + [b for who, b in new if who == s]:
                        if ban is drew:
                            continue  # the card just drawn: not among those banned
                        if self._breaks(card, ban):  # a card drawn since, or not greedy
                            ban[3] -= 1
                    if kind == "play" and drew is None:  # its pick among what it held:
                        # a wild when no coloured card would play, else the most points
                        new.append((s, [color, top, False, 0,
                                        -1 if card.color is None else card.points]))
                if card.color is not None:
                    color = card.color
                top = card.rank
        sizes = self._keep(obs, new, plays)
        shown = obs.view.get("top")
        if isinstance(shown, str) and shown in obs.cards:  # resynchronise, as the colour is
            top = obs.cards[shown].rank
        self.top, self.sizes = top, sizes
        super().follow(obs)

    def _keep(self, obs: Observation, new: list[tuple[int, list[Any]]],
              plays: list[int]) -> list[int]:
        """:meth:`follow`'s bans kept: widened by the cards drawn unseen, ``new`` ones added,
        those that no longer fit a hand's size dropped; returns the hand sizes now."""
        bans = self.bans
        sizes = list(obs.view["hand_sizes"])
        if self.sizes is not None:  # cards drawn unseen (penalties) may be anything
            for s, seat_bans in bans.items():
                drawn = sizes[s] - self.sizes[s] + plays[s] - \
                    sum(a.kind == "draw" and a.seat == s for a in obs.events)
                for ban in seat_bans:
                    ban[3] += max(drawn, 0)
        for who, ban in new:
            bans.setdefault(who, []).append(ban)
        for s in list(bans):
            bans[s] = [b for b in bans[s] if 0 <= b[3] < sizes[s]][-self.BANS:]
            if not bans[s]:
                del bans[s]
        return sizes

    @staticmethod
    def _breaks(card: CardInfo, ban: list[Any]) -> bool:
        """Whether ``card`` is one a ban says its hand held none of."""
        if card.color is None:
            return bool(ban[2])
        return bool((card.color == ban[0] or card.rank == ban[1]) and card.points > ban[4])

    def choose(self, obs: Observation) -> int | None:
        fallback = super().choose(obs)  # also follows the events for later decisions
        determinize = obs.determinize
        if obs.optional or determinize is None or len(obs.ids) < 2 or \
                any(a.kind in ("catch", "uno") for a in obs.options):
            return fallback
        mine = [(i, a) for i, a in zip(obs.ids, obs.options, strict=True)
                if a.seat == self.seat and a.kind != "jump_in"]
        # Always call UNO (rollouts make no catches, so they can't tell the two apart).
        called = {a._replace(uno=False) for _, a in mine if a.uno}
        options = [i for i, a in mine if a not in called]
        if len(options) < 2 or fallback not in options:
            return fallback
        exact = obs.kind == "challenge"
        rollouts, allowance = self._budget(sum(obs.deck.values()), len(options), exact)
        if rollouts < 3:  # too few for the sign test to leave greedy's choice
            return fallback
        results = [[0.0] * rollouts for _ in options]
        for r in range(rollouts):
            deal = self._deal(determinize, exact)
            seed = self.rng.getrandbits(32)
            for k, option in enumerate(options):
                game = deal.clone()
                game.step(option)
                results[k][r] = self._rollout(game, obs.table, random.Random(seed),
                                              allowance)
        mine_k = options.index(fallback)
        best, best_z = fallback, self.Z
        for k, option in enumerate(options):
            pairs = list(zip(results[k], results[mine_k], strict=True))
            better = sum(x > y for x, y in pairs)
            worse = sum(x < y for x, y in pairs)
            if better > worse and (better - worse) / (better + worse) ** 0.5 > best_z:
                best, best_z = option, (better - worse) / (better + worse) ** 0.5
        return best

    def _deal(self, determinize: Callable[[random.Random], Game], exact: bool) -> Game:
        """A determinization fitting the bans: each hand holding more banned cards than it
        may swaps the excess for allowed cards of the draw pile (``exact``: resampled
        again instead, up to 32 times, where a challenge depends on the hand as dealt).
        Not with several sides: a swap could show backs the seat never saw."""
        for _ in range(32 if exact else 1):
            game = determinize(self.rng)
            rb = game.rulebook
            if len(rb.sides) > 1:
                return game
            faces, pile = game.faces, game.draw_pile
            fits = True
            for s, seat_bans in self.bans.items():
                hand = game.hands[s]
                rules = [(rb.colors.index(b[0]) if b[0] in rb.colors else -2,
                          rb.ranks.index(b[1]) if b[1] in rb.ranks else -2, b[2], b[3], b[4])
                         for b in seat_bans]
                for rule in rules:
                    bad = [i for i, c in enumerate(hand) if _banned(faces[c], rule)]
                    excess = len(bad) - rule[3]
                    if excess <= 0:
                        continue
                    fits = False
                    if exact:
                        break
                    ok = [j for j, c in enumerate(pile)
                          if not any(_banned(faces[c], other) for other in rules)]
                    self.rng.shuffle(bad)
                    for i in bad[:excess]:
                        if not ok:
                            break
                        j = ok.pop(self.rng.randrange(len(ok)))
                        hand[i], pile[j] = pile[j], hand[i]
            if fits or not exact:
                return game
        return game

    def _budget(self, cards: int, options: int, exact: bool) -> tuple[int, int]:
        """The rollouts per option and each rollout's work (see ``WORK``) for a decision
        among ``options`` in a game of ``cards``: ``ROLLOUTS`` unless their deals and clones
        would take over half the work (``exact``: up to 32 resamples a deal)."""
        deal = cards * ((32 if exact else 1) + options)
        rollouts = min(self.ROLLOUTS, self.WORK // 2 // max(deal, 1))
        if rollouts <= 0:
            return 0, 0
        return rollouts, (self.WORK - rollouts * deal) // (rollouts * options)

    def _rollout(self, game: Game, table: tuple[Action, ...], rng: random.Random,
                 work: int | None = None) -> float:
        """Play ``game`` on with greedy's rule for every seat (the play with most points,
        coloured before wild, then of the colour held most, UNO called; the colour held
        most; a challenge when the card's player holds 2 cards or more; else the first
        option) for at most ``HORIZON`` actions and ``work`` (:attr:`WORK`'s units): 1 if
        this seat's side wins, 0 if it loses, 0.5 unfinished."""
        keys = self._keys(game, table)
        faces, hands, history = game.faces, game.hands, game.history
        ncolors = len(game.rulebook.colors)
        left, spent, most = game.steps_left, 0, self.WORK if work is None else work
        for _ in range(self.HORIZON):
            if game.over:
                break
            ids = game.legal_ids()
            actor = table[ids[0]].seat
            spent += 1 + len(hands[actor if actor is not None else 0])
            if spent + left - game.steps_left > most:  # the effect steps run count too
                break
            if len(ids) > 1:
                top = max(keys[i] for i in ids)
                pick = [i for i in ids if keys[i] == top]
                if len(pick) > 1 and top > 0:  # plays alike: the colour held most
                    seat = table[pick[0]].seat
                    held = [0] * (ncolors + 1)
                    for c in hands[seat if seat is not None else 0]:
                        held[faces[c].color] += 1
                    pick.sort(key=lambda i: -held[self._color_of[i]])
                elif top == -1:  # a colour to name
                    seat = table[pick[0]].seat
                    held = [0] * (ncolors + 1)
                    for c in hands[seat if seat is not None else 0]:
                        held[faces[c].color] += 1
                    pick.sort(key=lambda i: -held[self._color_of[i]])
                elif top == -2:  # challenge or accept
                    player = next((a.seat for a in reversed(history) if a.kind == "play"),
                                  None)
                    size = len(hands[player]) if player is not None else 0
                    want = "challenge" if size >= 2 else "accept"
                    pick = [i for i in ids if table[i].kind == want] or pick
                game.step(pick[0])
            else:
                game.step(ids[0])
        result = game.result
        if result is None:
            return 0.5
        return 1.0 if self.seat in result.winners else 0.0

    def _keys(self, game: Game, table: tuple[Action, ...]) -> list[int]:
        """The rollout's rule as a key per action id (highest taken): a play scores
        1 + its points (+10,000 coloured, +1 UNO called... ordered as greedy); -1 a colour,
        -2 a challenge or its acceptance, -3 anything else. Made once per table."""
        memo = self.__dict__.get("_key_memo")
        if memo is not None and memo[0] is table:
            return memo[1]  # type: ignore[no-any-return]
        rb = game.rulebook
        faces = {f.name: f for f in rb.faces}
        keys, colors = [], []
        for a in table:
            face = faces.get(str(a.arg)) if a.kind == "play" else None
            if face is not None:
                keys.append(1 + 2 * (100_000 * (face.color != NO_COLOR) + face.points)
                            + a.uno)
                colors.append(face.color)
            elif a.kind == "color":
                keys.append(-1)
                colors.append(rb.colors.index(str(a.arg)) if str(a.arg) in rb.colors
                              else NO_COLOR)
            else:
                keys.append(-2 if a.kind in ("challenge", "accept") else -3)
                colors.append(NO_COLOR)
        self._key_memo = (table, keys)
        self._color_of = colors
        return keys


def _banned(face: Face, rule: tuple[int, int, bool, int, int]) -> bool:
    """Whether a card is one a ban (colour index, rank index, wilds too, cards drawn since,
    points floor) rules out."""
    if face.color == NO_COLOR:
        return rule[2]
    return (face.color == rule[0] or face.rank == rule[1]) and face.points > rule[4]


# Levels named for people (docs/play.md): each is one of the agents, under a second name.
LEVELS: dict[str, str] = {"easy": "uniform", "normal": "greedy", "hard": "lookahead"}
BY_NAME: dict[str, AgentClass] = {"uniform": Uniform, "play_first": PlayFirst,
                                  "greedy": Greedy, "lookahead": Lookahead}
AGENTS: dict[str, AgentClass] = {**BY_NAME, **{level: BY_NAME[name]
                                               for level, name in LEVELS.items()}}


# ------------------------------------------------------------------ naming agents
def load_agent(name: str) -> AgentClass:
    """A built-in agent by name, or ``module:Class`` imported from ``sys.path`` or, after
    it, the current directory. Raises :class:`AgentError` in one line when it can't."""
    if name in AGENTS:
        return AGENTS[name]
    if ":" not in name:
        raise AgentError(f"unknown agent {name!r}: one of {', '.join(AGENTS)}, or "
                         f"MODULE:CLASS")
    module_name, _, class_name = name.partition(":")
    if not module_name or not class_name:
        raise AgentError(f"agent {name!r}: expected MODULE:CLASS")
    if os.getcwd() not in sys.path and "" not in sys.path:
        # A module beside the user, and the helpers it imports; last, so that a file there
        # named like a standard module (random.py) shadows nothing, here or in the workers
        # (which get this sys.path and import the class by name).
        sys.path.append(os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except (Exception, SystemExit) as exc:  # anything its import raises: one line
        detail = str(exc).splitlines()[0] if str(exc) else ""
        raise AgentError(f"agent {name!r}: can't import {module_name!r}: "
                         f"{type(exc).__name__}{': ' + detail if detail else ''}") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise AgentError(f"agent {name!r}: module {module_name!r} has no {class_name!r}")
    if not isinstance(cls, type) or not callable(getattr(cls, "choose", None)):
        raise AgentError(f"agent {name!r}: {class_name!r} is not an agent (a class with a "
                         f"choose(observation) method)")
    return cls


def parse_agents(text: str, players: int) -> list[tuple[str, AgentClass]]:
    """``--agents``: one name for every seat, or one per seat, comma-separated."""
    names = [n.strip() for n in text.split(",")]
    empty = next((k for k, n in enumerate(names) if not n), None)
    if empty is not None:
        raise AgentError(f"--agents: name {empty + 1} of {len(names)} is empty")
    if len(names) == 1:
        names *= players
    elif len(names) != players:
        raise AgentError(f"--agents: {len(names)} names for {players} players (give one "
                         f"per seat, or one for all)")
    classes: dict[str, AgentClass] = {}
    for n in names:
        if n not in classes:
            classes[n] = load_agent(n)
    return [(n, classes[n]) for n in names]


# ------------------------------------------------------------------ the loop
def _public(rulebook: Rulebook) -> tuple[Mapping[str, CardInfo], Mapping[str, int]]:
    """The card names' public facts and the deck's copies of each, made once a rulebook."""
    key = "agents.public"
    memo = rulebook.memo.get(key)
    if memo is None:
        cards: dict[str, CardInfo] = {}
        for f in rulebook.faces:
            cards.setdefault(f.name, CardInfo(
                f.name, None if f.color == NO_COLOR else rulebook.colors[f.color],
                rulebook.ranks[f.rank], f.points, f.number))
        deck: dict[str, int] = {}
        for face in rulebook.deck_faces():
            name = rulebook.faces[face].name
            deck[name] = deck.get(name, 0) + 1
        memo = rulebook.memo[key] = (FrozenMap(cards), FrozenMap(deck))
    return memo


def seat_rng(seed: int, seat: int) -> random.Random:
    """A seat's own RNG in the round dealt with ``seed``."""
    return random.Random(seed * 64 + seat)


def play_agents(rulebook: Rulebook, players: int, seed: int,
                agents: Sequence[tuple[str, AgentClass]], max_actions: int | None = None,
                *, max_steps: int | None = None, on_action: OnAction | None = None) -> Game:
    """Play one round with an agent per seat; returns the game (over, or stalled).

    At each decision, the seats offered out-of-turn actions are asked first, in seat order
    from the one after the deciding seat (each may pass); then the deciding seat chooses
    among its options and its own out-of-turn actions. A contest settled at the table (no
    seat) is drawn with the round's own RNG. Raises :class:`AgentError` when an agent
    fails or chooses what it may not."""
    game = rulebook.new_game(players, seed, log=True, max_steps=max_steps,
                             max_actions=max_actions)
    return play_agents_on(rulebook, game, agents, on_action)


def observation(game: Game, seat: int, ids: tuple[int, ...], kind: str | None, since: int,
                rulebook: Rulebook | None = None,
                table: tuple[Action, ...] | None = None) -> Observation:
    """What ``seat`` is shown when offered ``ids`` (its options of a decision of ``kind``,
    or out-of-turn actions when ``kind`` is None): its view, the public actions from
    ``history[since:]`` (another seat's given card hidden) and a ``determinize`` that
    resamples the live round from its information."""
    rb = game.rulebook if rulebook is None else rulebook
    assert isinstance(rb, Rulebook)
    if table is None:
        table = action_table(rb, game.players)
    cards, deck = _public(rb)
    return Observation(seat, game.players, game.seat_view(seat), kind, kind is None, ids,
                       tuple([table[i] for i in ids]), seen_events(game.history, since, seat),
                       cards, rb.colors, deck, table, _determinizer(game, seat), rb)


def seen_events(history: Sequence[Action], since: int, seat: int) -> tuple[Action, ...]:
    """The actions of ``history[since:]`` as ``seat`` saw them (``seen``), less
    another seat's ``keep``: a round records one only when the drawn card could be played
    (unless it asks about every drawn card, ``Game.offer_unplayable``, as the RL adapters'
    rounds do), so it would tell whether it could; what the drawer does next (a play of the
    card, or the next seat's turn) says anyway that it was kept."""
    return tuple(seen_actions([a for a in history[since:] if a.kind != "keep" or a.seat == seat],
                              seat))


def _determinizer(game: Game, seat: int) -> Callable[[random.Random], Game]:
    """``Observation.determinize``: ``game.resample(seat, rng)`` of the live round, a new
    game each call, never the live one. The game sits in the function's closure: code in
    the same process can reach it (the module docstring's caveat), the protocol uses only
    what resample returns."""
    resample = game.resample
    return lambda rng: resample(seat, rng)


def make_agent(name: str, cls: AgentClass, seat: int, seed: int) -> Agent:
    """Agent ``cls`` (named ``name``) at ``seat`` in the round dealt with ``seed``, with its
    own RNG (:func:`seat_rng`). Raises :class:`AgentError` when it can't be made."""
    try:
        return cls(seat, seat_rng(seed, seat))
    except (Exception, SystemExit) as exc:  # the user's code: reported, not a bug
        raise AgentError(f"agent {name!r} at seat {seat}: can't be made: "
                         f"{type(exc).__name__}: {exc}") from None


def round_rng(seed: int) -> random.Random:
    """The round's own RNG, for what no agent chooses in the round dealt with ``seed``: a
    contest settled at the table, and the moves of random players (simulate.play_on)."""
    return random.Random(seed ^ 0x5EED)


def choice_of(agent: Agent, name: str, obs: Observation) -> int | None:
    """``agent``'s choice (named ``name``) for ``obs``, checked: one of ``obs.ids``, or None
    (a pass) where it may pass. Raises :class:`AgentError` when it fails or chooses what it
    may not."""
    seat, ids = obs.seat, obs.ids
    try:
        choice = agent.choose(obs)
    except (Exception, SystemExit) as exc:  # the user's code: reported, not a bug
        raise AgentError(f"agent {name!r} at seat {seat} failed: {type(exc).__name__}: "
                         f"{exc}") from None
    if (choice is None and obs.optional) or (type(choice) is int and choice in ids):
        return choice
    raise AgentError(f"agent {name!r} at seat {seat} chose {choice!r}: not one of its "
                     f"options {list(ids)}")


def play_agents_on(rulebook: Rulebook, game: Game,
                   agents: Sequence[tuple[str, AgentClass]],
                   on_action: OnAction | None = None) -> Game:
    """Play ``game``, a round of ``rulebook`` dealt with a seed, to its end with an agent
    per seat, as :func:`play_agents` does (a match deals its rounds itself).
    ``on_action``: see :mod:`uno_rules.play.driver`."""
    return driver.drive(game, agents_chooser(rulebook, game, agents), None, on_action)


def agents_chooser(rulebook: Rulebook, game: Game,
                   agents: Sequence[tuple[str, AgentClass]]) -> Callable[[Game], int]:
    """Who chooses in ``game`` played by ``agents`` (one per seat, made here): the seats
    offered out-of-turn actions first, in window order (each may pass), then the deciding
    seat, or at a chance node the round's own RNG. A seat a window asks with nothing to
    play (``game.asked_seats()``) is skipped: its only answer is its pass, and asking it
    would draw from its agent's generator (the fast path ``simulate`` plays)."""
    players, seed = game.players, game.seed
    if seed is None:  # the agents' RNGs are seeded from the round's
        raise ValueError("a round dealt without a seed")
    table = action_table(rulebook, players)
    made = [make_agent(name, cls, seat, seed) for seat, (name, cls) in enumerate(agents)]
    table_rng = round_rng(seed)
    seen = [0] * players
    history = game.history

    def ask(seat: int, ids: tuple[int, ...], kind: str | None) -> int | None:
        obs = observation(game, seat, ids, kind, seen[seat], rulebook, table)
        seen[seat] = len(history)
        return choice_of(made[seat], agents[seat][0], obs)

    def choose(game: Game) -> int:
        ids = game.legal_ids()
        decider = table[ids[0]].seat
        extra = game.out_of_turn_ids()
        if extra:
            for s in driver.window_seats(decider, players):
                mine = tuple(i for i in extra if table[i].seat == s)
                if mine:
                    choice = ask(s, mine, None)
                    if choice is not None:
                        return choice
        if decider is None:
            return driver.settle(ids, table_rng, driver.chance_weights(game))
        mine = ids + tuple(i for i in extra if table[i].seat == decider)
        pending = game.pending
        choice = ask(decider, mine, pending.kind if pending is not None else "turn")
        assert choice is not None  # a deciding seat may not pass (choice_of checks)
        return choice
    return choose
