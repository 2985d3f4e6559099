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
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .engine.actions import Action
from .engine.game import Game
from .engine.model import NO_COLOR, FrozenMap
from .engine.rulebook import Rulebook
from .engine.tables import action_table


@dataclass(frozen=True, slots=True)
class CardInfo:
    """What anyone knows about a card name: its colour (None: colourless, a wild), rank,
    points and whether it is a number card."""

    name: str
    color: str | None
    rank: str
    points: int
    number: bool


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything a seat is shown when it may act (plain, immutable data: no game inside).

    ``kind`` is the pending decision's kind when the seat must answer it, None when it is
    only offered out-of-turn actions (a catch, an UNO call for a partner, a jump-in); then
    ``optional`` is True and the agent may pass (return None). ``ids`` are the options as
    numbers of ``table`` (``rulebook.action_table(players)``), ``options`` the same as
    :class:`Action` objects. ``events`` are the actions taken since this seat's previous
    observation (all of them since the deal, the first time), as everyone saw them: the card
    of another seat's ``give`` is hidden (its ``arg`` None)."""

    seat: int
    players: int
    view: Mapping[str, Any]           # game.view(seat): a fresh copy, this seat's alone
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


@runtime_checkable
class Agent(Protocol):
    """A player. Made as ``AgentClass(seat, rng)`` for each seat of each round (``rng``:
    a ``random.Random`` of its own, seeded from the round's seed and the seat).
    :meth:`choose` returns one of ``obs.ids``, or None to pass when ``obs.optional``."""

    def choose(self, obs: Observation) -> int | None: ...


AgentClass = Callable[[int, random.Random], Agent]


class AgentError(Exception):
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
                color = obs.cards[str(a.arg)].color
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
                card = obs.cards[str(pair[1].arg)]
                return (card.color is None, -card.points,
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
    """Greedy, checked by determinized rollouts. For each of its options (a play that may
    call UNO always does: rollouts make no catches), ``ROLLOUTS`` times: a game resampled
    from its own seat's information (``obs.determinize``: the hidden cards re-dealt, never
    the real ones) takes the option and is played out by every seat with a cheap policy (a
    play before anything else, UNO called, coloured before wild, high points first; the
    colour held most; at most ``HORIZON`` actions, an unfinished rollout counting half).
    The same deals and rollout seeds serve every option (common random numbers). It takes
    the option with the most wins when that beats greedy's choice by ``MARGIN`` wins or
    more, else greedy's choice. Out-of-turn actions, single options and observations
    without ``determinize`` are decided as :class:`Greedy` does. Cost per decision:
    ``ROLLOUTS`` resamples and ``ROLLOUTS x options`` rollouts."""

    ROLLOUTS = 32
    MARGIN = 3.0   # wins (of ROLLOUTS) another option needs over greedy's choice
    HORIZON = 400

    def choose(self, obs: Observation) -> int | None:
        fallback = super().choose(obs)  # also follows the colour for later decisions
        determinize = obs.determinize
        if obs.optional or determinize is None or len(obs.ids) < 2 or \
                any(a.kind in ("catch", "uno") for a in obs.options):
            return fallback
        mine = [(i, a) for i, a in zip(obs.ids, obs.options, strict=True)
                if a.seat == self.seat and a.kind != "jump_in"]
        # Always call UNO (rollouts make no catches, so they can't tell the two apart).
        called = {a._replace(uno=False) for _, a in mine if a.uno}
        options = [i for i, a in mine if a not in called]
        if len(options) < 2:
            return fallback
        scores = [0.0] * len(options)
        for _ in range(self.ROLLOUTS):
            deal = determinize(self.rng)
            seed = self.rng.getrandbits(32)
            for k, option in enumerate(options):
                game = deal.clone()
                game.step(option)
                scores[k] += self._rollout(game, obs.table, random.Random(seed))
        best = max(range(len(options)), key=lambda k: (scores[k], -k))
        if fallback in options and scores[best] - scores[options.index(fallback)] < self.MARGIN:
            return fallback  # greedy's choice unless the rollouts clearly prefer another
        return options[best]

    def _rollout(self, game: Game, table: tuple[Action, ...], rng: random.Random) -> float:
        """Play ``game`` on with the cheap policy: 1 if this seat's side wins, else 0."""
        rank = self._ranks(game, table)
        for _ in range(self.HORIZON):
            if game.over:
                break
            ids = game.legal_ids()
            if len(ids) == 1:
                game.step(ids[0])
                continue
            first = table[ids[0]]
            if first.kind == "color" and first.seat is not None:  # the colour held most
                held = [0] * len(game.rulebook.colors)
                faces = game.faces
                for c in game.hands[first.seat]:
                    if faces[c].color != NO_COLOR:
                        held[faces[c].color] += 1
                names = game.rulebook.colors
                most = max(held[names.index(str(table[i].arg))] for i in ids)
                pick = [i for i in ids if held[names.index(str(table[i].arg))] == most]
                game.step(pick[rng.randrange(len(pick))])
                continue
            best = max(rank[i] for i in ids)
            pick = [i for i in ids if rank[i] == best]
            game.step(pick[rng.randrange(len(pick))])
        result = game.result
        if result is None:
            return 0.5
        return 1.0 if self.seat in result.winners else 0.0

    def _ranks(self, game: Game, table: tuple[Action, ...]) -> list[float]:
        """The rollout policy as a score per action id (highest taken, ties at random):
        play before anything else, with UNO called, coloured before wild, high points
        first; the rest alike. Made once per table."""
        memo = self.__dict__.get("_rank_memo")
        if memo is not None and memo[0] is table:
            return memo[1]  # type: ignore[no-any-return]
        rb = game.rulebook
        points = {f.name: (f.color != NO_COLOR, f.points) for f in rb.faces}
        ranks = []
        for a in table:
            if a.kind == "play":
                colored, pts = points.get(str(a.arg), (True, 0))
                ranks.append(1000.0 + 500 * a.uno + 100 * colored + pts)
            else:
                ranks.append(0.0)
        self._rank_memo = (table, ranks)
        return ranks


AGENTS: dict[str, AgentClass] = {"uniform": Uniform, "play_first": PlayFirst,
                                 "greedy": Greedy, "lookahead": Lookahead}


# ------------------------------------------------------------------ naming agents
def load_agent(name: str) -> AgentClass:
    """A built-in agent by name, or ``module:Class`` imported from the current directory
    or ``sys.path``. Raises :class:`AgentError` in one line when it can't."""
    if name in AGENTS:
        return AGENTS[name]
    if ":" not in name:
        raise AgentError(f"unknown agent {name!r}: one of {', '.join(AGENTS)}, or "
                         f"MODULE:CLASS")
    module_name, _, class_name = name.partition(":")
    if not module_name or not class_name:
        raise AgentError(f"agent {name!r}: expected MODULE:CLASS")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())  # a module beside the user, as `python -m` finds it
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
                *, max_steps: int | None = None) -> Game:
    """Play one round with an agent per seat; returns the game (over, or stalled).

    At each decision, the seats offered out-of-turn actions are asked first, in seat order
    from the one after the deciding seat (each may pass); then the deciding seat chooses
    among its options and its own out-of-turn actions. A contest settled at the table (no
    seat) is drawn with the round's own RNG. Raises :class:`AgentError` when an agent
    fails or chooses what it may not."""
    game = rulebook.new_game(players, seed, log=True, max_steps=max_steps,
                             max_actions=max_actions)
    return play_agents_on(rulebook, game, agents)


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
    events = tuple(a._replace(arg=None) if a.kind == "give" and a.seat != seat else a
                   for a in game.history[since:])
    return Observation(seat, game.players, game.view(seat), kind, kind is None, ids,
                       tuple(table[i] for i in ids), events, cards, rb.colors, deck, table,
                       _determinizer(game, seat))


def _determinizer(game: Game, seat: int) -> Callable[[random.Random], Game]:
    """``Observation.determinize``: ``game.resample(seat, rng)`` of the live round, a new
    game each call, never the live one. The game sits in the function's closure: code in
    the same process can reach it (the module docstring's caveat), the protocol uses only
    what resample returns."""
    resample = game.resample
    return lambda rng: resample(seat, rng)


def play_agents_on(rulebook: Rulebook, game: Game,
                   agents: Sequence[tuple[str, AgentClass]]) -> Game:
    """Play ``game``, a round of ``rulebook`` dealt with a seed, to its end with an agent
    per seat, as :func:`play_agents` does (a match deals its rounds itself)."""
    players, seed = game.players, game.seed
    if seed is None:  # the agents' RNGs are seeded from the round's
        raise ValueError("a round dealt without a seed")
    table = action_table(rulebook, players)
    cards, deck = _public(rulebook)
    made: list[Agent] = []
    for seat, (name, cls) in enumerate(agents):
        try:
            made.append(cls(seat, seat_rng(seed, seat)))
        except (Exception, SystemExit) as exc:  # the user's code: reported, not a bug
            raise AgentError(f"agent {name!r} at seat {seat}: can't be made: "
                             f"{type(exc).__name__}: {exc}") from None
    table_rng = random.Random(seed ^ 0x5EED)
    seen = [0] * players
    history = game.history

    def ask(seat: int, ids: tuple[int, ...], kind: str | None) -> int | None:
        obs = observation(game, seat, ids, kind, seen[seat], rulebook, table)
        seen[seat] = len(history)
        name = agents[seat][0]
        try:
            choice = made[seat].choose(obs)
        except (Exception, SystemExit) as exc:  # the user's code: reported, not a bug
            raise AgentError(f"agent {name!r} at seat {seat} failed: {type(exc).__name__}: "
                             f"{exc}") from None
        if (choice is None and kind is None) or (type(choice) is int and choice in ids):
            return choice
        raise AgentError(f"agent {name!r} at seat {seat} chose {choice!r}: not one of its "
                         f"options {list(ids)}")

    while not game.over:
        ids = game.legal_ids()
        decider = table[ids[0]].seat
        extra = game.out_of_turn_ids()
        if extra:
            took = False
            start = -1 if decider is None else decider
            for k in range(1, players + 1):
                s = (start + k) % players
                mine = tuple(i for i in extra if table[i].seat == s)
                if s != decider and mine:
                    choice = ask(s, mine, None)
                    if choice is not None:
                        game.step(choice)
                        took = True
                        break
            if took:
                continue
        if decider is None:
            game.step(ids[table_rng.randrange(len(ids))])
            continue
        mine = ids + tuple(i for i in extra if table[i].seat == decider)
        pending = game.pending
        choice = ask(decider, mine, pending.kind if pending is not None else "turn")
        game.step(choice)
    return game
