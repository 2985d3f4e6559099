"""A PettingZoo AEC environment for any rulebook (``pip install 'uno-rules[rl]'``).

``env(rulebook="classic", players=2, house=(), settings=None, ...)`` plays one round per
episode. Agents are ``"player_0"`` ... (seat numbers); each observes ``{"observation":
Observer.array(game, seat)`` (:mod:`uno_rules.rl.observation`: uint8, bounded by its segments)
``, "action_mask": an int8 mask over rulebook.action_table(players)}`` and acts with an id
of that table (``Discrete(len(table))``). With ``shared_actions=True`` every seat acts in one
space instead, the seat-free actions of :class:`uno_rules.rl.spaces.SharedActions` (a seat
an action names counted from the actor): the same id means the same move whoever acts.

Who acts (``agent_selection``):

* the seat whose decision is pending;
* before it, an **out-of-turn window**: after every change of the game, each other seat
  the window asks (``game.asked_seats()``: one that may catch an uncalled UNO or call UNO
  for a partner, and under ``jump_in`` every seat that could hold the card on top, decided
  by public information so that who acts never tells what a hand holds) gets one turn, in
  seat order from the seat after the decider (the order the built-in agents' loop uses,
  :func:`uno_rules.play.agents.play_agents`). Its mask holds its out-of-turn actions and its
  ``pass`` (letting them go changes nothing; a seat holding nothing to play has only the
  pass, which looks like any other). Taking one changes the game and a
  new window opens; when every such seat has passed, the decider acts (its own out-of-turn
  actions, such as a catch, are in its mask beside its options);
* after a draw that ``offer_drawn`` would ask about, the drawer is asked whether or not
  the card can be played (``Game.offer_unplayable``; ``keep`` the only option of one that
  can't), as OpenSpiel's rounds are: who acts next, the others' observations and the
  events an ``on_action`` hook sees are the same either way, so they tell nobody whether
  the card was playable (at a table nobody can tell);
* a chance node (a contest: who loses a showdown; ``decision.seat`` None) is never an
  agent's turn: the environment draws its outcome with its own RNG by ``decision.chance``.

Forced actions (``auto_forced=True``; off by default): an acting seat with exactly one
legal action (a window's seat with only its ``pass``, a drawer's forced ``keep`` or forced
play of its drawn card, a decider's only option) is not shown its turn: the env takes that
action for it and goes on to the next real choice, as many RL envs skip forced moves. It is
taken as if chosen: a step counted (``max_steps``), the ``on_action`` hook told, the same
round and rewards. The rule is uniform, whatever makes the action forced, so it hides what
the rules hide when the forced cases look alike (a forced keep and a forced play under
``play_drawn: must`` both vanish). Where one case has two options and the other one, who
is asked shows which: under ``play_drawn: may`` a playable drawn card is still asked
(play or keep) while an unplayable one is kept unasked; under ``jump_in`` a seat holding
nothing to jump in with is passed unasked; under ``draw_with_playable: false`` a seat with
one playable card plays it unasked. Turn it on only where that does not matter.

Episode end: ``terminations`` all True when the round is over; ``truncations`` all True
after ``max_steps`` agent steps (passes count) or when the engine stops a round that ran
out of its own budget (``game.stalled``). Rewards come only at the end of a round:
``reward="win"`` (default) gives +1 to each winner (a team's partners all win) and -1 to
every other seat; ``reward="points"`` gives each winner the round's points
(``game.result.points``) and each other seat minus that; ``reward="zero_sum"`` gives each
winner +1 and each other seat ``-w / (n - w)`` (``w`` winners of ``n`` seats: the rewards sum
to 0, as OpenSpiel's returns). A truncated round gives 0. A seat
knocked out of the round or gone out while its team plays on has no decisions left (only
out-of-turn actions the engine still offers it, such as a catch, select it); it stays an
agent, terminated with the others at the end.

Seeding: ``reset(seed=N)`` seeds the environment's RNG, which deals every round (one game
seed drawn per reset) and draws contests: the same seed gives the same episodes; ``reset()``
without a seed goes on with the RNG (a fresh random one before any seed). An action that
is not in the mask raises :class:`~uno_rules.IllegalAction` and changes nothing.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

try:
    import numpy
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
except ImportError as exc:  # the optional extra is missing: say which, and how to get it
    raise ImportError(f"uno_rules.rl.pettingzoo needs PettingZoo, Gymnasium and NumPy ({exc.name} "
                      "is missing): pip install 'uno-rules[rl]'") from None

from ..engine.errors import IllegalAction
from ..engine.game import Game
from ..engine.rulebook import Rulebook
from ..engine.view import seat_view
from ..play import driver
from ..play.driver import OnAction
from . import spaces as spaces_
from .observation import Observer

# The mask's dtype, made once: numpy.frombuffer(b, dtype) takes it positionally at about half
# the cost of the dtype= keyword with numpy.int8 (it runs every env step).
_INT8 = numpy.dtype(numpy.int8)
_UINT8 = numpy.dtype(numpy.uint8)
_frombuffer = numpy.frombuffer

MAX_STEPS = 10_000  # agent steps before truncation (the engine stops a round at 20,000 actions)
REWARDS = ("win", "points", "zero_sum")
RENDER_MODES = ("human", "ansi")


def load(rulebook: str | Path | Rulebook, house: Iterable[str] = (),
         settings: Mapping[str, Any] | None = None) -> Rulebook:
    """``rulebook`` as a Rulebook: a loaded one as it is, a shipped name or a path loaded
    with ``house`` overlays and ``settings`` as :func:`uno_rules.load_rulebook` applies them
    (what ``--house`` and ``--set`` do on the command line)."""
    if isinstance(rulebook, Rulebook):
        if tuple(house) or settings:
            raise ValueError("house rules and settings apply to a rulebook as it is loaded: "
                             "pass its name (or load_rulebook(name, house=..., settings=...))")
        return rulebook
    from ..load.entry import load_rulebook

    return load_rulebook(rulebook, house=house, settings=settings)


def bounds(observer: Observer) -> tuple[Any, Any]:
    """The lowest and highest value of each position of ``observer``'s vectors (its
    segments' ``low``/``high``): the observation Box's bounds."""
    low = numpy.zeros(observer.size, dtype=numpy.uint8)
    high = numpy.zeros(observer.size, dtype=numpy.uint8)
    for segment in observer.spaces:
        low[segment.offset:segment.offset + segment.length] = segment.low
        high[segment.offset:segment.offset + segment.length] = segment.high
    return low, high


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """The AEC environment (see the module doc); :func:`env` makes one."""

    metadata = {"name": "uno_rules_v0", "render_modes": list(RENDER_MODES),
                "is_parallelizable": False}

    def __init__(self, rulebook: str | Path | Rulebook = "classic", players: int = 2,
                 house: Iterable[str] = (), settings: Mapping[str, Any] | None = None,
                 max_steps: int = MAX_STEPS, render_mode: str | None = None,
                 reward: str = "win", on_action: OnAction | None = None,
                 shared_actions: bool = False, auto_forced: bool = False):
        super().__init__()
        self.on_action, self.auto_forced = on_action, auto_forced
        if isinstance(house, (str, Path)):  # one overlay given alone
            house = [str(house)]
        self.rulebook = load(rulebook, house, settings)
        self.table = self.rulebook.action_table(players)  # refuses a count it can't play
        self.players = players
        if type(max_steps) is not int or max_steps < 1:
            raise ValueError(f"max_steps={max_steps!r}: expected a whole number >= 1")
        if reward not in REWARDS:
            raise ValueError(f"reward={reward!r}: expected one of {', '.join(REWARDS)}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode={render_mode!r}: expected None, 'human' or 'ansi'")
        self.max_steps, self.reward_kind, self.render_mode = max_steps, reward, render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.observer = Observer(self.rulebook, players)
        self._vector = self.observer._vector  # a seat's view as bytes (see _arrays)
        # shared: every seat acts in one space (spaces.SharedActions), translated per seat
        self.shared = spaces_.shared_actions(self.rulebook, players) if shared_actions \
            else None
        size = self.size = len(self.table) if self.shared is None else len(self.shared)
        self._zeros = bytes(size)
        obs_space = spaces.Dict({
            "observation": spaces.Box(*bounds(self.observer), dtype=numpy.uint8),
            "action_mask": spaces.Box(0, 1, (size,), numpy.int8)})
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        # Each seat's `pass` id: letting a window go is the env's own business (no game call)
        passes = {a.seat: i for i, a in enumerate(self.table) if a.kind == "pass"}
        self._pass = tuple(passes[s] for s in range(players))
        self._rng = random.Random()
        self.game: Game | None = None
        self._queue: list[int] = []  # the seats still to act in this window, decider last
        self._ids: tuple[int, ...] | None = None  # the acting seat's legal ids, when made
        self._steps = 0
        self.agent_selection: str = self.possible_agents[0]  # set again by reset()

    # ------------------------------------------------------------------ PettingZoo API
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = self.possible_agents[:]
        self.rewards: dict[str, float] = {a: 0 for a in self.agents}
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        # A hook is given each action's events: the round keeps its log only then.
        self.game = game = self.rulebook.new_game(self.players, self._rng.getrandbits(63),
                                                  log=self.on_action is not None)
        game.offer_unplayable = True  # who acts after a draw tells nobody its card (see above)
        self._advance()
        if self.auto_forced:
            self._forced()

    def observe(self, agent: str) -> dict[str, Any]:
        observation, mask = self._arrays(self._seat[agent])
        return {"observation": observation, "action_mask": mask}

    def _arrays(self, seat: int) -> tuple[Any, Any]:
        """``seat``'s observation and action mask, each a new array (it runs every step)."""
        game = self.game
        assert game is not None, "reset() first"
        mask = bytearray(self._zeros)  # set in Python, then the array's own memory: no copy
        queue = self._queue
        if queue and queue[0] == seat:  # only the seat to act has actions
            ids = self._ids  # made once per state (by _advance when no window is open)
            if ids is None:
                ids = self._legal()
            if self.shared is None:
                for i in ids:
                    mask[i] = 1
            else:
                shared = self.shared.shared_id[seat]
                for i in ids:
                    mask[shared[i]] = 1
        # Observer.array's vector without its checks: the env's game is always one of the
        # observer's rulebook and player count, and the seat one of its own
        return _frombuffer(self._vector(seat_view(game, seat, None)), _UINT8), \
            _frombuffer(mask, _INT8)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        queue = self._queue  # emptied by _end: only then can the agent be done
        if not queue and (self.terminations[agent] or self.truncations[agent]):
            self._was_dead_step(action)
            return
        seat = queue[0]
        try:
            action_id = operator.index(action)  # numpy integers too
        except TypeError:
            raise IllegalAction(f"{agent}: action {action!r} is not an action id "
                                f"(an int of 0-{self.size - 1})") from None
        ids = self._ids
        if ids is None:
            ids = self._legal()
        if self.shared is not None:
            action_id = self._from_shared(agent, seat, action_id, ids)
        elif action_id not in ids:
            raise IllegalAction(f"{agent}: action {action_id} is not in its mask (legal: "
                                f"{list(ids)})")
        self._apply(agent, seat, action_id)
        if self.render_mode == "human":
            self.render()

    def _apply(self, agent: str, seat: int, action_id: int) -> None:
        """The acting ``agent`` (at ``seat``) takes its legal table id ``action_id``, then
        (``auto_forced``) every forced action after it."""
        self._take(agent, seat, action_id)
        if self.auto_forced:
            self._forced()

    def _forced(self) -> None:
        """Take each acting seat's only legal action while there is one (``auto_forced``):
        as if its agent took it (a step counted, the hook told), its turn never shown."""
        queue = self._queue
        while queue:  # emptied by _end
            ids = self._ids or self._legal()
            if len(ids) != 1:
                return
            seat = queue[0]
            self._take(self.possible_agents[seat], seat, ids[0])
            queue = self._queue  # _advance makes a new one

    def _take(self, agent: str, seat: int, action_id: int) -> None:
        """``_apply`` without the forced actions after it."""
        self._cumulative_rewards[agent] = 0
        self._steps += 1
        if action_id == self._pass[seat]:
            queue = self._queue
            queue.pop(0)  # the seat lets its out-of-turn window go: nothing changes
            self._ids = None
            self.agent_selection = self.possible_agents[queue[0]]
            if self._steps >= self.max_steps:
                self._end(truncated=True)
            return
        game = self.game
        assert game is not None
        driver.take(game, action_id, self.on_action)
        self._advance()

    def render(self) -> str | None:
        """The acting seat's view in words (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None or self.game is None:
            return None
        seat = self._queue[0] if self._queue else 0
        text = describe(self.game, seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ internals
    def _advance(self) -> None:
        """After the game changed: draw contests, end the episode, or open the next window."""
        game = self.game
        assert game is not None
        pending = game.pending
        if pending is None or pending.seat is None or game.over:  # seldom: a contest, the end
            if self._settled(game):
                return
            pending = game.pending
            assert pending is not None
        if self._steps >= self.max_steps:
            self._end(truncated=True)
            return
        decider = pending.seat
        assert decider is not None
        asked = game.asked_seats()  # public: a seat with nothing to play is asked too
        if asked:
            queue = [s for s in driver.window_seats(decider, self.players) if s in asked]
            queue.append(decider)
            self._ids = None
        else:  # no window: the decider's legal ids are its decision's (Game.legal_ids)
            queue = [decider]
            self._ids = game.legal_ids()
        self._queue = queue
        self.agent_selection = self.possible_agents[queue[0]]

    def _settled(self, game: Game) -> bool:
        """Draw the contests now due (chance nodes: no agent's turn, the env's RNG draws
        their outcomes); True when the round is over, the episode then ended."""
        while not game.over:
            pending = game.pending
            if pending is not None and pending.seat is not None:
                return False
            chance = game.decision.chance  # type: ignore[union-attr]
            assert chance is not None
            pick = self._rng.choices(range(len(chance)), chance)[0]
            # ids in the order of decision.options
            driver.take(game, game.legal_ids()[pick], self.on_action)
        self._end(truncated=game.stalled is not None)  # stopped at its own budget: truncated
        return True

    def env_id(self, seat: int, table_id: int) -> int:
        """The id ``seat`` takes table action ``table_id`` with in this env's action space
        (itself, or its shared id with ``shared_actions``)."""
        return table_id if self.shared is None else self.shared.shared_id[seat][table_id]

    def _from_shared(self, agent: str, seat: int, given: int, ids: tuple[int, ...]) -> int:
        """Shared id ``given`` as ``seat``'s legal id of the rulebook's table (``ids``), or
        :class:`IllegalAction`."""
        assert self.shared is not None
        action_id = self.shared.table_id[seat][given] if 0 <= given < self.size else -1
        if action_id not in ids:
            raise IllegalAction(f"{agent}: action {given} is not in its mask (legal: "
                                f"{sorted(self.env_id(seat, i) for i in ids)})")
        return action_id

    def _legal(self) -> tuple[int, ...]:
        """The acting seat's legal ids (its mask), made once per state."""
        ids = self._ids
        if ids is None:
            game = self.game
            assert game is not None
            ids = self._ids = game.legal_ids(self._queue[0])
        return ids

    def _end(self, truncated: bool) -> None:
        """The episode is over: every agent terminated (the round's rewards) or truncated."""
        game = self.game
        assert game is not None
        if not truncated and game.result is not None:
            result = game.result
            gain, loss = rewards(self.reward_kind, result.points, len(result.winners),
                                 self.players)
            for seat, agent in enumerate(self.possible_agents):
                if agent in self.rewards:
                    self.rewards[agent] = gain if seat in result.winners else loss
            # Rewards come only here: the one step whose rewards are accumulated (before
            # it, every reward is 0; after it, each agent's step(None) clears them).
            self._accumulate_rewards()
        done = self.truncations if truncated else self.terminations
        for agent in self.agents:
            done[agent] = True
        self._queue = []


def rewards(kind: str, points: int, winners: int, players: int) -> tuple[float, float]:
    """A winner's and another seat's reward at the end of a round (see the module doc)."""
    if kind == "zero_sum":  # OpenSpiel's returns: the losers share the winners' gains
        return 1, -winners / (players - winners)
    gain = 1 if kind == "win" else points
    return gain, -gain


def describe(game: Game, seat: int) -> str:
    """``game.view(seat)`` in words: what ``render`` shows."""
    v = game.view(seat)
    lines = [f"seat {seat}: hand {', '.join(v['hand']) or '(none)'}",
             f"top {v['top']} ({v['color'] or 'no colour'}), {v['direction']}, "
             f"draw pile {v['draw_pile_size']}",
             "cards held: " + ", ".join(f"seat {s} {n}" for s, n in
                                        enumerate(v["hand_sizes"]))]
    if v["stacked_draw"]:
        lines.append(f"stacked draw: {v['stacked_draw']}")
    if v["uno_open"] is not None:
        lines.append(f"seat {v['uno_open']} is open to an UNO catch")
    for s in v.get("owed", ()):
        lines.append(f"seat {s} owes an UNO call: open to a catch")
    d = v["decision"]
    if v["over"]:
        r = v["result"]
        lines.append("round over" + (f": seats {r['winners']} win {r['points']} points"
                                     if r else " (stopped)"))
    elif d is not None:
        lines.append(f"seat {d['seat']} to {d['kind']}" +
                     (": " + ", ".join(d["options"]) if d["options"] else ""))
    return "\n".join(lines)


def env(rulebook: str | Path | Rulebook = "classic", players: int = 2,
        house: Iterable[str] = (), settings: Mapping[str, Any] | None = None,
        max_steps: int = MAX_STEPS, render_mode: str | None = None,
        reward: str = "win", on_action: OnAction | None = None,
        shared_actions: bool = False, auto_forced: bool = False) -> raw_env:
    """A PettingZoo AEC environment for ``rulebook`` (a shipped name, a path, or a loaded
    :class:`~uno_rules.Rulebook`) with ``house`` overlays and ``settings`` (see the module
    doc). Unwrapped: it checks its own actions (an action outside the mask raises
    :class:`~uno_rules.IllegalAction`), so PettingZoo's checking wrappers add only cost.
    ``on_action``: the driver's hook (:mod:`uno_rules.play.driver`), given every action
    taken in the round (contests and out-of-turn actions included; a seat letting its
    window pass takes none) with its events. ``auto_forced``: see the module doc."""
    return raw_env(rulebook, players, house, settings, max_steps, render_mode, reward,
                   on_action, shared_actions, auto_forced)
