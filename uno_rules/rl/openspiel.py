"""An OpenSpiel game of any rulebook: ``import uno_rules.rl.openspiel`` registers ``"uno_rules"``
with ``pyspiel`` (the ``rl`` extra: ``pip install 'uno-rules[rl]'``), so that
``pyspiel.load_game("uno_rules", {"rulebook": "classic", "players": 3})`` loads it and
OpenSpiel's algorithms (MCTS, random simulation, ...) run on it. docs/embedding.md, section
"OpenSpiel", says what each part means; in short:

* Parameters: ``rulebook`` (a shipped name), ``house`` (house-rule names, comma-separated),
  ``settings`` (any rulebook setting or option, ``NAME:VALUE`` pairs separated by ``;``:
  ``"draw_with_playable:false;hand_size:5"``, each checked as ``--set`` checks it),
  ``players``, ``seed`` and ``deals`` (the chance model: below; at most
  :data:`MAX_DEALS`), ``max_actions`` (each round's action budget: a round that uses it up
  is over with no winner).
* Player actions are the ids of ``rulebook.action_table(players)``
  (``num_distinct_actions`` is its length); with ``shared_actions`` (a bool) the ids of the
  seat-free space every seat shares (:class:`uno_rules.rl.spaces.SharedActions`), chance's
  outcomes unchanged. OpenSpiel's model has one player to move; an
  out-of-turn window (an UNO catch, an UNO call for a partner, a jump-in) becomes extra
  turns, in ``play_agents``' order: each seat the window asks (``game.asked_seats()``,
  decided by public information: under ``jump_in`` every seat that could hold the card,
  so who moves never tells a hand), from the one after the decider, moves in turn, taking
  one of its out-of-turn actions or its ``S pass`` (its only action when it holds
  nothing to play); when all have passed
  the decider moves (its options and its own out-of-turn actions). A taken out-of-turn
  action changes the round, and the window starts again.
* Chance (``deals: 0``, the default): every card taken off the draw pile (each card dealt,
  the first card, each card drawn) is a chance node over the faces it may be (outcome
  ``len(table) + face``), each weighted by its count in the pile, whose order is never
  fixed: an action that draws waits at a chance node per card (the engine's
  ``State.chance`` hook stops it, and it is taken again from its start with one more card
  chosen); a pile counter's hidden limit likewise (outcome ``len(table) + faces + k``, the
  ``k``-th of ``pile_limits``, its declared weight; no information state shows it).
  ``deals: N``: the older seeded model, the first node choosing one of ``N``
  seeds ``seed`` .. (outcome ``len(table) + k``), which fix every card. A contest or a
  table outcome (``decision.chance``) is a chance node over its actions' table ids.
* ``resample_from_infostate(player, sampler)`` (IS-MCTS): the round replaced by
  ``game.resample(player, rng)``, the OpenSpiel history kept, the other seats' private
  memories dropped (docs/embedding.md).
* Observations: the observation tensor is :class:`uno_rules.rl.observation.Observer`'s
  encoding of what the seat sees and the counts of the cards played; the information state
  has perfect recall (:mod:`uno_rules.rl.recall`): the view, every public action and pass
  (another seat's ``keep`` left out), the seat's own hand's changes, and a tensor of them
  at a declared size; the observation string is the view. A round's drawn card is asked
  about whether or not it can be played (``Game.offer_unplayable``: ``keep`` the only
  option of an unplayable one), so nobody else learns which.
* Serialization: ``state.serialize()`` / ``game.deserialize_state(text)`` (from Python) are
  JSON checked field by field, nothing unpickled; OpenSpiel's own
  ``serialize_game_and_state`` pickles a state's attributes, and reading that runs
  ``pickle.loads`` (docs/embedding.md: only for text you wrote).
* Parts in their own modules: :mod:`.cardchance` (the card chooser), :mod:`.observer`
  (strings and tensors), :mod:`.recall` (perfect recall), :mod:`.serialized` (the checks).
* Returns, zero-sum: each winner (a team wins together) ``+1``, each other seat
  ``-w / (n - w)`` (``w`` winners of ``n`` seats): ``+1/-1`` at two players; all ``0`` for
  a round stopped by its budget.
"""

from __future__ import annotations

import base64
import json
import pickle
import random
from collections import Counter
from typing import Any

try:
    import numpy  # noqa: F401  (the observer's tensors: checked with OpenSpiel here)
    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
except ImportError as exc:  # the optional extra is missing: say which
    raise ImportError(f"uno_rules.rl.openspiel needs OpenSpiel and NumPy ({exc.name} is "
                      "missing): pip install 'uno-rules[rl]'") from None

from ..engine.errors import IllegalAction, SnapshotError
from ..engine.game import Game
from ..engine.rulebook import Rulebook
from ..play import driver
from ..play.driver import OnAction
from .cardchance import DEAL, NeedCard, run_action
from .observer import StateObserver
from .recall import Memory, memory_from_json, public_history
from .serialized import (
    FORMAT,
    checked_fields,
    checked_history,
    checked_memory_passes,
    checked_passed,
    checked_pending,
)
from .spaces import SharedActions, shared_actions

SHORT_NAME = "uno_rules"
DEFAULTS: dict[str, Any] = {"rulebook": "classic", "house": "", "settings": "", "players": 2,
                            "seed": 0, "deals": 0, "max_actions": 2000,
                            "shared_actions": False}
MAX_PLAYERS = 10  # the most any shipped rulebook seats (OpenSpiel wants a fixed bound)
MAX_DEALS = 65_536  # the deal node lists its outcomes: a few MB at most

_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="UNO (uno-rules: any rulebook and house rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS)

Settings = tuple[tuple[str, str], ...]  # (name, value) pairs, as the parameter lists them
Step = tuple[int, int, list[int]]  # an action, the seat that took it (-1: chance), its cards
REPLAY = 16  # the most actions replayed to undo one: then a new copy to replay from
_RULEBOOKS: dict[tuple[str, tuple[str, ...], Settings], Rulebook] = {}


def _rulebook(name: str, house: tuple[str, ...], settings: Settings = ()) -> Rulebook:
    """A shipped rulebook with house rules and settings, loaded once per process (a setting
    that doesn't fit it: ValueError, one line)."""
    key = (name, house, settings)
    if key not in _RULEBOOKS:
        from ..engine.errors import RulebookError
        from ..load.entry import load_rulebook

        try:
            _RULEBOOKS[key] = load_rulebook(name, house=list(house), settings=dict(settings))
        except RulebookError as exc:
            if not str(exc).startswith("--set "):  # not about a setting: as it is
                raise
            raise ValueError("uno_rules game parameter settings: "
                             + str(exc).removeprefix("--set ")) from None
    return _RULEBOOKS[key]


def parse_settings(text: str) -> Settings:
    """The ``settings`` game parameter, ``NAME:VALUE`` pairs separated by ``;`` (a colon, not
    ``=``, so that the game's string, ``uno_rules(settings=hand_size:5)``, reads back), as
    (name, value) pairs; a malformed one raises ValueError. Values are read as ``--set``
    reads them."""
    out: dict[str, str] = {}
    for item in text.split(";"):
        if not item.strip():
            continue
        name, colon, value = item.partition(":")
        if not colon or not name.strip() or not value.strip():
            raise ValueError(f"uno_rules game parameter settings={text!r}: {item.strip()!r} "
                             "is not NAME:VALUE (pairs separated by ';')")
        out[name.strip()] = value.strip()
    return tuple(out.items())


class _Round:
    """The uno-rules round a state holds. OpenSpiel clones a Python state with
    ``copy.deepcopy`` of its attributes and (in its own format, C++'s) serializes it by
    pickling them: this wrapper makes the first :meth:`Game.clone` (tens of µs, not a deep
    copy's hundreds) and the second the round's snapshot (restored, every field checked).
    ``shared``: the game's shared action space (``shared_actions``), here so that a state
    reads it without asking OpenSpiel for its game."""

    __slots__ = ("game", "house", "settings", "shared", "backup", "since")

    def __init__(self, game: Game, house: tuple[str, ...], settings: Settings,
                 shared: SharedActions | None, backup: Game | None = None,
                 since: list[Step] | None = None) -> None:
        self.game, self.house, self.settings, self.shared = game, house, settings, shared
        game.offer_unplayable = True  # who moves after a draw tells nobody its card
        # Card chance: an earlier copy of the round, never changed (clones share it; when
        # it is the round itself, an action is tried on a copy), and the actions taken
        # since: an action stopped to ask for a card is undone by replaying them on a copy
        # of it (cheaper than a copy before every action).
        self.backup, self.since = backup, since or []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Round:
        return _Round(self.game.clone(), self.house, self.settings, self.shared,
                      self.backup, list(self.since))

    def take(self, action: int, by: int, cards: list[int], hook: OnAction | None,
             draws: bool = False) -> list[int] | None:
        """Take ``action`` (card chance), ``cards`` the cards it takes: None, or, when it
        takes one more, the cards to choose it from, the round as it was before it.
        ``draws``: the action is expected to take a card (it did before), so the round as
        it is becomes the backup and the action is tried on a copy: no replay."""
        if draws or self.backup is None or len(self.since) >= REPLAY:
            self.backup, self.since = self.game, []
        if self.game is self.backup:  # never changed: the action tried on a copy
            game = self.game.clone()
            try:
                run_action(game, action, by, cards, hook)
            except NeedCard as need:
                return need.pile
            self.game = game
        else:
            try:
                run_action(self.game, action, by, cards, hook)
            except NeedCard as need:
                self.game = self.backup.clone()
                for step in self.since:
                    run_action(self.game, *step, None)
                # the round as it was is the backup now: trying again replays nothing
                self.backup, self.since = self.game, []
                return need.pile
        self.since.append((action, by, cards))
        return None

    def __getstate__(self) -> dict[str, Any]:
        return {"rulebook": self.game.rulebook.name, "house": list(self.house),
                "settings": [list(p) for p in self.settings], "shared": bool(self.shared),
                "snapshot": json.dumps(self.game.snapshot()),
                "max_actions": self.game.max_actions}  # a snapshot doesn't hold the budget

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.house = tuple(state["house"])
        self.settings = tuple((str(k), str(v)) for k, v in state.get("settings", ()))
        rulebook = _rulebook(state["rulebook"], self.house, self.settings)
        self.game = Game.restore(rulebook, json.loads(state["snapshot"]))
        self.game.max_actions = int(state.get("max_actions", self.game.max_actions))
        self.game.offer_unplayable = True
        self.shared = shared_actions(rulebook, self.game.players) if state.get("shared") \
            else None
        self.backup, self.since = None, []


class _Hook:
    """A state's ``on_action``, held so that it stays with that state: a clone (a search's
    copy, ``copy.deepcopy``) and a pickled state (OpenSpiel's own serialization) have
    none, so the hook sees the actions of the game it was given to, and no callable is
    pickled. ``game``: the state's :class:`UnoRulesGame`, shared by clones (a deep copy
    would load it again; ``get_game()`` crosses into C++ each time), looked up again after
    a pickle."""

    __slots__ = ("call", "game")

    def __init__(self, call: OnAction | None = None, game: UnoRulesGame | None = None) -> None:
        self.call, self.game = call, game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Hook:
        return _Hook(None, self.game)

    def __reduce__(self) -> tuple[type[_Hook], tuple[()]]:
        return _Hook, ()


class UnoRulesGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game: one round of a rulebook (see the module's docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        house = tuple(h.strip() for h in str(params["house"]).split(",") if h.strip())
        self.settings = parse_settings(str(params["settings"]))
        self.rulebook = _rulebook(str(params["rulebook"]), house, self.settings)
        self.house = house
        self.players = int(params["players"])
        self.rulebook.action_table(self.players)  # refuses a count the rulebook can't play
        if self.players > MAX_PLAYERS:
            raise ValueError(f"players={self.players}: OpenSpiel's uno_rules seats at most "
                             f"{MAX_PLAYERS}")
        self.seed, self.deals = int(params["seed"]), int(params["deals"])
        self.max_actions = int(params["max_actions"])
        if not 0 <= self.deals <= MAX_DEALS or self.max_actions < 1:
            raise ValueError(f"deals={self.deals}, max_actions={self.max_actions}: expected "
                             f"deals 0-{MAX_DEALS} (0: every card a chance outcome; else the "
                             "deal's seeds, listed at its node) and max_actions >= 1")
        self.table = self.rulebook.action_table(self.players)
        self.faces = max(self.rulebook.deck) + 1  # a card outcome: len(table) + its face
        # a pile counter's hidden limit: len(table) + faces + its index in pile_limits
        self.limits = len(self.rulebook.pile_limits)
        self.dealt = min(len(self.rulebook.deck),  # the cards the deal takes
                         self.rulebook.settings.hand_size * self.players)
        # shared_actions: a seat's actions are ids of the seat-free space (SharedActions)
        self.shared = shared_actions(self.rulebook, self.players) \
            if params["shared_actions"] else None
        self.size = len(self.table) if self.shared is None else len(self.shared)
        # The table ids seen to take a card (learnt as rounds are played): such an action
        # is tried on a copy of the round, not undone by a replay (only speed depends on it).
        self.drawing: set[int] = set()
        team = self.rulebook.team_size
        info = pyspiel.GameInfo(
            num_distinct_actions=self.size,
            max_chance_outcomes=len(self.table) + max(self.deals, self.faces + self.limits),
            num_players=self.players,
            min_utility=-team / (self.players - team),  # the most winners, a loser's share
            max_utility=1.0,
            utility_sum=0.0,
            # a round's actions, each after a window of at most one pass per other seat
            max_game_length=self.max_actions * self.players)
        super().__init__(_TYPE, info, params)

    def table_id(self, player: int, action: int) -> int:
        """``player``'s ``action`` (chance's too) as an id of the rulebook's table: with
        ``shared_actions`` a seat's shared id translated; -1 if it is no id of its space."""
        shared = self.shared
        if shared is None or player < 0:
            return action if 0 <= action < len(self.table) else -1
        return shared.table_id[player][action] if 0 <= action < len(shared) else -1

    def new_initial_state(self, on_action: OnAction | None = None) -> UnoRulesState:
        """The state before the deal: a chance node over the first card dealt (or over
        ``deals`` seeds). ``on_action``:
        the driver's hook (:mod:`uno_rules.play.driver`), given every action the round
        takes from this state on (contests and out-of-turn actions included; the deal and a
        seat's pass are OpenSpiel's, not the round's), with its events; its clones and
        restored copies have none."""
        state = UnoRulesState(self)
        state._hook = _Hook(on_action, self)
        if not self.deals:  # the deal's cards, one chance node each
            state._pending, state._pile = DEAL, sorted(self.rulebook.deck)
            state._player = None
        return state

    def blank(self, log: bool) -> Game:
        """The round before the deal, its draw pile the deck in order (chance picks each
        card dealt)."""
        game = Game.blank(self.rulebook, self.players, self.seed, log=log,
                          max_actions=self.max_actions)
        game.draw_pile = sorted(self.rulebook.deck)
        return game

    def max_chance_nodes_in_history(self) -> int:
        if self.deals:
            return self.max_actions + 1  # the deal, then contests (actions of the round)
        # every card dealt, then per action at most a contest and a pile's worth of draws
        return (self.max_actions + 1) * (len(self.rulebook.deck) + 1)

    def deserialize_state(self, text: Any) -> UnoRulesState:
        """The state ``state.serialize()`` wrote, every field checked (JSON: nothing in it
        is unpickled or called); anything else raises :class:`SnapshotError` naming the
        field. (``pyspiel.deserialize_game_and_state`` is OpenSpiel's own format: a pickle.)"""
        fields = checked_fields(text)
        history = checked_history(fields["history"], self)
        pending, cards = checked_pending(fields, self, history)
        round_ = _restored(fields["round"], self, history, pending)
        passed = checked_passed(fields["passed"], self, history)
        if round_ is None and passed:
            raise SnapshotError("serialized state: passed: no window before the deal")
        # OpenSpiel's own deserialization sets the C++ side (history, move number) from
        # this checked text; the Python side it would unpickle is empty here.
        state = pyspiel.Game.deserialize_state(self, "history=" + ",".join(
            f"{p}:{a}" for p, a in history) + f"\nmove_number={len(history)}\n__dict__="
            + _NO_ATTRIBUTES)
        assert isinstance(state, UnoRulesState)
        state._round, state._passed = round_, list(passed)
        state._memory = memory_from_json(fields["memory"], None if round_ is None
                                         else round_.game, self.faces, self.players)
        checked_memory_passes(state._memory, self, history,
                              0 if round_ is None else len(round_.game.history))
        state._pending, state._cards, state._pile = None, [], []  # as new_initial_state's
        state._player = None
        if pending is not None:  # chance is choosing cards: which from, tried again
            out = _attempt(self, round_, pending[1], pending[0], cards, None)
            if isinstance(out, Game):
                raise SnapshotError("serialized state: cards: the pending action takes no "
                                    "more cards")
            state._by, state._pending, state._cards, state._pile = *pending, cards, out
        return state

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> StateObserver:
        """The observer OpenSpiel asks for observation and information-state strings and
        tensors."""
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return StateObserver(self, perfect_recall, params)


class UnoRulesState(pyspiel.State):  # type: ignore[misc]
    """A state of the round: before the deal (a chance node), at a seat's decision, at a
    contest (a chance node), or over."""

    def __init__(self, game: UnoRulesGame) -> None:
        super().__init__(game)
        self._round: _Round | None = None  # None: not dealt yet
        self._passed: list[int] = []  # seats that passed in this out-of-turn window
        self._memory = Memory()  # perfect recall: each action's hand changes, each pass
        self._hook = _Hook(None, game)  # the caller's on_action (new_initial_state)
        self._player: int | None = None  # current_player() once asked, until a change
        # Card chance (deals=0): the action waiting for the cards it takes (DEAL: the deal),
        # the seat that took it (-1: chance), the cards chance chose for it so far, and the
        # cards the next one is chosen from (the draw pile then, sorted).
        self._pending: int | None = None
        self._by = -1
        self._cards: list[int] = []
        self._pile: list[int] = []

    @property
    def uno_game(self) -> Game | None:
        """The uno-rules round (None before the deal): the referee's view of the state."""
        return None if self._round is None else self._round.game

    @property
    def memory(self) -> Memory:
        """The round's memory (perfect recall: :mod:`uno_rules.rl.recall`)."""
        return self._memory

    @property
    def passed(self) -> tuple[int, ...]:
        """The seats that passed, in order, in the out-of-turn window open now."""
        return tuple(self._passed)

    @property
    def chosen(self) -> tuple[int, ...] | None:
        """The faces chance chose so far for the action waiting for cards (the deal
        included), None when none waits (``deals: 0``)."""
        return None if self._pending is None else tuple(self._cards)

    def _spec(self) -> UnoRulesGame:
        spec = self._hook.game
        if spec is None:  # a state OpenSpiel unpickled: its game looked up once
            spec = self.get_game()
            assert isinstance(spec, UnoRulesGame)
            self._hook.game = spec
        return spec

    def current_player(self) -> int:
        """Who moves: a seat the out-of-turn window asks that hasn't passed in it (from the
        seat after the decider, in seat order; ``game.asked_seats()``, public, so a seat
        with nothing to play is asked too and may only pass), else the decider, or
        chance. Kept until the state changes: OpenSpiel asks several times a step."""
        player = self._player
        if player is None:
            player = self._player = self._who()
        return player

    def _who(self) -> int:
        game = self.uno_game
        if game is None or self._pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if game.over:
            return int(pyspiel.PlayerId.TERMINAL)
        pending = game.pending  # the record: cheaper than game.decision (no options made)
        assert pending is not None
        decider = pending.seat
        asked = game.asked_seats()
        if asked:
            for seat in driver.window_seats(decider, game.players):
                if seat in asked and seat not in self._passed:
                    return seat
        return int(pyspiel.PlayerId.CHANCE) if decider is None else decider

    def _legal_actions(self, player: int) -> list[int]:
        """What ``player`` may do as table ids, ascending, when it is to move: the decider
        its options and its own out-of-turn actions, a seat in a window its out-of-turn
        actions and its pass; nothing otherwise."""
        if self._pending is not None:
            return [a for a, _ in self.chance_outcomes()] if player < 0 else []
        game = self.uno_game
        if game is None or game.over or self.current_player() != player:
            return []
        assert self._round is not None
        shared = self._round.shared
        ids = game.legal_ids(player)
        if shared is None:
            return sorted(ids)
        return sorted(shared.shared_id[player][i] for i in ids)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card's faces by their share of the pile, the deal's seeds, or a
        contest's outcomes with ``decision.chance``."""
        if self._pending is not None:
            size, n = len(self._spec().table), len(self._pile)
            return [(size + face, k / n) for face, k in sorted(Counter(self._pile).items())]
        game = self.uno_game
        if game is None:
            spec = self._spec()
            size, deals = len(spec.table), spec.deals
            return [(size + k, 1 / deals) for k in range(deals)]
        decision = game.decision
        assert decision is not None and decision.chance is not None
        return sorted(zip(game.legal_ids(), decision.chance, strict=True))

    def _apply_action(self, action: int) -> None:
        try:
            self._apply(action)
        finally:
            self._player = None  # the state changed (or not, if refused): asked again

    def _apply(self, action: int) -> None:
        if self._pending is not None:
            self._choose(int(action))
            return
        game = self.uno_game
        if game is None:
            spec = self._spec()
            k = int(action) - len(spec.table)
            if not 0 <= k < spec.deals:
                raise IllegalAction(f"deal outcome {action}: not one of the {spec.deals} "
                                    "deals")
            # A hook is given each action's events: the round keeps its log only then.
            log = self._hook.call is not None
            self._round = _Round(spec.rulebook.new_game(spec.players, spec.seed + k, log=log,
                                                        max_actions=spec.max_actions),
                                 spec.house, spec.settings, spec.shared)
            self._memory.acted(self._round.game)
            return
        spec, player = self._spec(), self.current_player()
        table, given = spec.table, int(action)
        # Only what legal_actions() lists: the game checks its own actions (as the seat to
        # move, so not another's in a window); a pass is this adapter's, checked here.
        action = spec.table_id(player, given)  # -2 would read the table from its end
        if action < 0:
            raise IllegalAction(f"action {given}: not in the action "
                                f"{'table' if spec.shared is None else 'space'} (0 to "
                                f"{(len(table) if player < 0 else spec.size) - 1})")
        if table[action].kind == "pass":  # changes nothing in the round
            if player < 0 or action not in game.legal_ids(player):
                raise IllegalAction(f"action {given} ({table[action]}): not a legal action "
                                    f"of {'chance' if player < 0 else f'seat {player}'} now")
            self._passed.append(player)
            self._memory.passed(game, player)
            return
        if spec.deals:  # the seeded round draws its own cards
            driver.take(game, action, self._hook.call, None if player < 0 else player)
            self._memory.acted(game)
        else:
            assert self._round is not None
            pile = self._round.take(action, player, [], self._hook.call,
                                    action in spec.drawing)
            if pile is not None:  # chance chooses its cards first
                spec.drawing.add(action)
                self._pending, self._by, self._cards, self._pile = action, player, [], pile
            else:
                self._memory.acted(self._round.game)
        self._passed = []  # the round moved on: a new window

    def _choose(self, action: int) -> None:
        """Chance chose the next card of the action waiting for cards."""
        spec = self._spec()
        face = action - len(spec.table)
        if face not in self._pile:
            raise IllegalAction(f"chance outcome {action}: not a card of the draw pile now")
        assert self._pending is not None
        if self._pending == DEAL and len(self._cards) + 1 < spec.dealt:
            self._cards.append(face)  # not the last card dealt: nothing is taken yet
            self._pile.remove(face)
            return
        self._settle(self._pending, self._by, [*self._cards, face])

    def _settle(self, action: int, by: int, cards: list[int]) -> None:
        """Take ``action`` (or deal), ``cards`` the ones it takes off the draw pile, in
        order: done, or, when it takes one more, the state waits for chance to choose it."""
        if action != DEAL:
            assert self._round is not None
            pile = self._round.take(action, by, cards, self._hook.call)
        else:
            out = _attempt(self._spec(), None, DEAL, -1, cards, self._hook.call)
            if isinstance(out, Game):
                spec = self._spec()
                self._round = _Round(out, spec.house, spec.settings, spec.shared)
            pile = None if isinstance(out, Game) else out
        if pile is None:
            self._pending, self._cards, self._pile = None, [], []
            assert self._round is not None
            self._memory.acted(self._round.game)
        else:
            self._pending, self._by, self._cards, self._pile = action, by, cards, pile

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Any) -> UnoRulesState:
        """A state ``player_id`` can't tell from this one: the round resampled with
        :meth:`Game.resample` (the cards it can't see re-dealt, a fresh generator for the
        future draws), seeded from ``probability_sampler()`` (a uniform [0, 1) draw, as
        OpenSpiel's IS-MCTS passes). The OpenSpiel history is kept as it is, the deal's
        outcome included, although that seed would deal other cards: the resampled round is
        one world consistent with the player's information, not one of the ``deals`` worlds.
        Another seat's pending drawn card is dealt again like any hidden card, playable or
        not (the round asks about either: ``offer_unplayable``); the other seats' own
        memories are dropped (:meth:`Memory.kept_for`; docs/embedding.md says why).
        """
        new = self.clone()
        assert isinstance(new, UnoRulesState)
        # Before the deal nothing is known; while chance chooses cards, nobody decides.
        if self._round is not None and self._pending is None:
            seed = int(float(probability_sampler()) * 2**53)
            new._round = _Round(self._round.game.resample(player_id, random.Random(seed)),
                                self._round.house, self._round.settings, self._round.shared)
            new._memory = self._memory.kept_for(player_id, new._round.game)
            new._player = None
        return new

    def serialize(self) -> str:
        """The state as JSON text for :meth:`UnoRulesGame.deserialize_state`: OpenSpiel's
        history, the window's passes and the round's snapshot (OpenSpiel's C++ side, as
        ``pyspiel.serialize_game_and_state``, still writes its own format: a pickle)."""
        game = self.uno_game
        pending = None if self._pending is None else [self._by, self._pending]
        return json.dumps({
            "format": FORMAT, "history": [[h.player, h.action] for h in self.full_history()],
            "passed": self._passed, "round": None if game is None else game.snapshot(),
            "pending": pending, "cards": self._cards, "memory": self._memory.to_json()},
            separators=(",", ":"))

    def _action_to_string(self, player: int, action: int) -> str:
        spec = self._spec()
        at = spec.table_id(player, action)
        if at >= 0:
            return str(spec.table[at])
        code = action - len(spec.table)
        if not spec.deals and code >= spec.faces:
            return f"limit {spec.rulebook.pile_limits[code - spec.faces][0]}"
        if not spec.deals:
            return f"card {spec.rulebook.card_name(code)}"
        return f"deal {spec.seed + action - len(spec.table)}"

    def is_terminal(self) -> bool:
        game = self.uno_game
        return game is not None and game.over

    def returns(self) -> list[float]:
        """Zero-sum: a winner +1, another seat ``-w / (n - w)``; all 0 until the end, and
        for a round stopped by its budget (no result)."""
        game = self.uno_game
        n = self._spec().players
        if game is None or not game.over or game.result is None:
            return [0.0] * n
        winners = set(game.result.winners)
        loss = -len(winners) / (n - len(winners))
        return [1.0 if s in winners else loss for s in range(n)]

    def __str__(self) -> str:
        """The whole state (every hand: the referee's view), for debugging."""
        game = self.uno_game
        if game is None:
            return "not dealt"
        decision = game.decision
        hands = " | ".join(f"{s}: {', '.join(game.hand(s))}" for s in range(game.players))
        what = "over" if decision is None else \
            f"{'table' if decision.seat is None else decision.seat} to {decision.kind}"
        return f"top {game.top} ({game.color_name}), {game.direction_name}; {hands}; {what}"


def _attempt(spec: UnoRulesGame, round_: _Round | None, action: int, by: int,
             cards: list[int], hook: OnAction | None) -> Game | list[int]:
    """``action`` by ``by`` (DEAL: the deal) on a copy of the round, the cards it takes off
    the draw pile ``cards``: the copy, or the pile to choose one more from. An action is
    run again from its start for each card (the engine can't pause inside an effect)."""
    if action == DEAL:
        game = spec.blank(hook is not None)
    else:
        assert round_ is not None
        game = round_.game.clone()
    try:
        run_action(game, action, by, cards, hook)
    except NeedCard as need:
        return need.pile
    return game


# OpenSpiel's serialized Python attributes (a base64 pickle) of a state that sets none.
_NO_ATTRIBUTES = base64.b64encode(pickle.dumps({})).decode()


def _restored(snapshot: Any, spec: UnoRulesGame, history: list[tuple[int, int]],
              pending: tuple[int, int] | None) -> _Round | None:
    """The round from its snapshot (checked by :meth:`Game.restore`), which must be dealt
    exactly when the history holds the deal and have taken its other actions but passes
    (and the one waiting for cards)."""
    dealt = bool(history) and (pending is None or pending[1] != DEAL)
    if snapshot is None:
        if dealt:
            raise SnapshotError("serialized state: round: none, yet the history holds a deal")
        return None
    if type(snapshot) is not dict or not history:
        raise SnapshotError("serialized state: round: expected a snapshot after the deal")
    try:
        game = Game.restore(spec.rulebook, snapshot)
    except SnapshotError as exc:
        raise SnapshotError(f"serialized state: round: {exc}") from None
    game.max_actions = spec.max_actions  # the game's budget: a snapshot doesn't hold it
    if not dealt:
        raise SnapshotError("serialized state: round: a snapshot before the deal is done")
    size = len(spec.table)
    # Every action but the passes (this adapter's) and chance's cards is the round's.
    taken = sum(not (p == -1 and a >= size) and spec.table[spec.table_id(p, a)].kind != "pass"
                for p, a in history[1 if spec.deals else 0:]) - (pending is not None)
    if game.players != spec.players or len(game.history) != taken:
        raise SnapshotError(f"serialized state: round: {game.players} players and "
                            f"{len(game.history)} actions, not the history's {spec.players} "
                            f"and {taken}")
    return _Round(game, spec.house, spec.settings, spec.shared)


pyspiel.register_game(_TYPE, UnoRulesGame)

__all__ = ["SHORT_NAME", "UnoRulesGame", "UnoRulesState", "public_history"]
