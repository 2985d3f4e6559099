"""A Gymnasium single-agent environment: one seat learns, the others are built-in agents
(``pip install 'uno-rules[rl]'``).

``UnoEnv(rulebook="classic", players=2, opponents="greedy", seat=0, ...)`` runs the
PettingZoo environment (:mod:`uno_rules.rl.pettingzoo`: the same turns, out-of-turn windows,
contests, rewards, truncation and seeding) and plays every other seat with an agent of
:mod:`uno_rules.play.agents` (a name, ``MODULE:CLASS``, or an agent class; or one per seat, the
learner's entry ignored), each seeded from the round's seed as ``play_agents`` seeds them.
The learner observes ``Observer.array(game, seat)`` (``observation_space``: a Box) with its
mask in ``info["action_mask"]`` (NumPy ``int8`` over ``rulebook.action_table(players)``, or
with ``shared_actions=True`` over the seat-free space every seat shares,
:class:`uno_rules.rl.spaces.SharedActions`) and from ``action_masks()`` (the same as
``bool``, as sb3-contrib's MaskablePPO asks); ``reward`` is PettingZoo's (``win``,
``points`` or ``zero_sum``); ``step`` returns when it is the learner's turn again or the
round is over. Importing the module registers it:
``gymnasium.make("uno_rules/Uno-v0", rulebook=NAME, players=3)``.

An action outside the mask (``illegal="penalize"``, the default, so that Gymnasium's
``check_env`` and unmasked samplers run): the episode ends there, terminated, with
``illegal_reward`` (-1) and ``info["illegal"] = True``; the game is unchanged.
``illegal="raise"`` raises :class:`~uno_rules.IllegalAction` instead.

``auto_forced=True``: every seat's forced actions (exactly one legal action), the learner's
and the opponents', are taken without asking (PettingZoo's ``auto_forced``: what it shows
and what it does not); ``step`` returns only at a real choice or the end.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

try:
    import gymnasium
    import numpy
except ImportError:  # the optional extra is missing: say how to get it
    raise ImportError("uno_rules.rl.gymnasium needs Gymnasium: pip install 'uno-rules[rl]'") \
        from None

from ..engine.errors import IllegalAction, shorten
from ..engine.rulebook import Rulebook
from ..play.agents import Agent, AgentClass, AgentError, load_agent, observation, seat_rng
from ..play.driver import OnAction
from .pettingzoo import MAX_STEPS, RENDER_MODES, raw_env

Opponents = str | AgentClass | Sequence[str | AgentClass]


class UnoEnv(gymnasium.Env[Any, int]):
    """One seat of a round against built-in agents (see the module doc). ``on_action``: the
    driver's hook, given every action taken in the round, the opponents' too (as
    :func:`uno_rules.rl.pettingzoo.env`'s)."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}  # fps: checkers ask for one

    def __init__(self, rulebook: str | Path | Rulebook = "classic", players: int = 2,
                 opponents: Opponents = "greedy", seat: int = 0, house: Iterable[str] = (),
                 settings: Mapping[str, Any] | None = None, max_steps: int = MAX_STEPS,
                 reward: str = "win", illegal: str = "penalize",
                 illegal_reward: float = -1.0, render_mode: str | None = None,
                 on_action: OnAction | None = None, shared_actions: bool = False,
                 auto_forced: bool = False):
        self.aec = raw_env(rulebook, players, house, settings, max_steps,
                           render_mode=None, reward=reward, on_action=on_action,
                           shared_actions=shared_actions, auto_forced=auto_forced)
        if type(seat) is not int or not 0 <= seat < players:
            raise ValueError(f"seat={seat!r}: expected a seat 0-{players - 1}")
        if illegal not in ("penalize", "raise"):
            raise ValueError(f"illegal={illegal!r}: expected 'penalize' or 'raise'")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode={render_mode!r}: expected None, 'human' or 'ansi'")
        self.seat, self.players, self.rulebook = seat, players, self.aec.rulebook
        self.illegal, self.illegal_reward, self.render_mode = illegal, illegal_reward, render_mode
        one = isinstance(opponents, str) or not isinstance(opponents, Iterable)
        names: list[Any] = [opponents] * players if one else list(cast(Iterable[Any], opponents))
        if not all(isinstance(n, str) or callable(n) for s, n in enumerate(names) if s != seat):
            raise ValueError(f"opponents={shorten(repr(opponents))}: expected an agent's name "
                             "or class, or one per seat")
        if len(names) != players:
            raise ValueError(f"opponents: {len(names)} for {players} players (give one for "
                             f"all, or one per seat)")
        self._classes: list[AgentClass | None] = [
            None if s == seat else load_agent(n) if isinstance(n, str) else n
            for s, n in enumerate(names)]
        # Each seat's `keep` offered alone: an unplayable drawn card (the round asks about
        # every one, Game.offer_unplayable), kept for an opponent without asking it
        keeps = {a.seat: (i,) for i, a in enumerate(self.aec.table) if a.kind == "keep"}
        self._keeps: tuple[tuple[int, ...], ...] = tuple(keeps.get(s, ()) for s in range(players))
        self._agent = self.aec.possible_agents[seat]
        space = self.aec.observation_space(self._agent)
        assert isinstance(space, gymnasium.spaces.Dict)
        self.observation_space = space["observation"]
        self.action_space = self.aec.action_space(self._agent)
        self._agents: list[Agent | None] = []
        self._seen = [0] * players
        self._done = False

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)  # no seed: the next deal of its RNG (a random one at first)
        game = self.aec.game
        assert game is not None and game.seed is not None
        self._agents = [None if cls is None else cls(s, seat_rng(game.seed, s))
                        for s, cls in enumerate(self._classes)]
        self._seen = [0] * self.players
        self._done = False
        reward = self._play_others()
        return self._observe({"reward": reward} if reward else {})

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if self._done:  # stepping a finished episode: nothing happens
            obs, info = self._observe({})
            return obs, 0.0, True, False, info
        try:
            aec.step(action)
        except IllegalAction:
            if self.illegal == "raise":
                raise
            self._done = True
            obs, info = self._observe({"illegal": True})
            return obs, float(self.illegal_reward), True, False, info
        reward = float(aec._cumulative_rewards.get(self._agent, 0))
        aec._cumulative_rewards[self._agent] = 0
        reward += self._play_others()
        obs, info = self._observe({})
        terminated = aec.terminations[self._agent]
        truncated = aec.truncations[self._agent]
        self._done = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> Any:
        """The learner's mask now as a NumPy ``bool`` array of ``action_space.n`` (what
        sb3-contrib's MaskablePPO asks an env for): ``info["action_mask"]`` as booleans;
        all False once the episode is over."""
        if self._done or self.aec.game is None:
            return numpy.zeros(self.aec.size, dtype=bool)
        return self.aec.observe(self._agent)["action_mask"].astype(bool)

    def render(self) -> str | None:
        """The learner's view in words (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None or self.aec.game is None:
            return None
        from .pettingzoo import describe

        text = describe(self.aec.game, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ------------------------------------------------------------------ internals
    def _observe(self, info: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        observation, info["action_mask"] = self.aec._arrays(self.seat)
        return observation, info

    def _play_others(self) -> float:
        """Let the built-in agents act until the learner's turn or the end of the round;
        the learner's reward gathered meanwhile. A seat a window asks with nothing to play
        (the learner too: only its own cards decide that) passes unasked, as
        ``play_agents`` skips it: no agent's generator is drawn from; and an opponent asked
        about a drawn card it can't play keeps it unasked (``play_agents``' rounds make no
        such decision), so it is shown what ``play_agents`` shows it, decision for
        decision."""
        aec, me = self.aec, self._agent
        game = aec.game
        assert game is not None
        rewards, terminations, truncations = aec._cumulative_rewards, aec.terminations, \
            aec.truncations
        reward = 0.0
        while aec.agents and not (terminations[me] or truncations[me]):
            seat = aec._queue[0]
            ids = aec._ids or aec._legal()  # the env's own, made once per state
            pending = game.pending
            mine = pending is not None and pending.seat == seat
            pass_id = None if mine else aec._pass[seat]
            if ids == (pass_id,):
                taken: int | None = pass_id
            elif aec.agent_selection == me:
                break
            elif mine and ids == self._keeps[seat]:
                taken = ids[0]
            else:
                offered = ids if mine else tuple(i for i in ids if i != pass_id)
                choice = self._ask(seat, offered, pending.kind if mine and pending else None)
                taken = pass_id if choice is None else choice
            assert taken is not None  # only a seat out of turn may pass (_ask checks)
            aec._apply(aec.agent_selection, seat, taken)  # a legal table id: _ask checks it
            reward += float(rewards.get(me, 0))
            rewards[me] = 0
        if aec.agents and (terminations.get(me) or truncations.get(me)):
            self._done = True
        return reward

    def _ask(self, seat: int, ids: tuple[int, ...], kind: str | None) -> int | None:
        """Seat ``seat``'s agent chooses among ``ids`` (``kind`` None: out of turn, it may
        pass), shown what ``play_agents`` shows it; :class:`AgentError` if it chooses what it
        may not."""
        game = self.aec.game
        assert game is not None
        # play_agents' own observation: the public record since the seat's last turn and a
        # determinizer (the lookahead agent's rollouts resample the round from it)
        obs = observation(game, seat, ids, kind, self._seen[seat], self.rulebook, self.aec.table)
        self._seen[seat] = len(game.history)
        agent = self._agents[seat]
        assert agent is not None
        choice = agent.choose(obs)
        if (choice is None and kind is None) or (type(choice) is int and choice in ids):
            return choice
        raise AgentError(f"the agent at seat {seat} chose {choice!r}: not one of its "
                         f"options {list(ids)}")


#: ``gymnasium.make(ENV_ID, rulebook=..., players=..., ...)`` makes a :class:`UnoEnv`
#: (registered when this module is imported).
ENV_ID = "uno_rules/Uno-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point=f"{__name__}:UnoEnv")
