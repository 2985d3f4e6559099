"""The Gymnasium single-agent environment (uno_rules.rl.gymnasium): Gymnasium's env_checker,
masked random episodes to the end for every shipped rulebook against built-in agents,
seeding, illegal actions (penalized or raised) and the arguments."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy
import pytest
from gymnasium.utils.env_checker import check_env

import uno_rules
from uno_rules import IllegalAction
from uno_rules.engine.game import Game
from uno_rules.load.resources import shipped_names
from uno_rules.play.agents import AgentError, load_agent, observation, play_agents, seat_rng
from uno_rules.rl.gymnasium import UnoEnv


def episode(e: UnoEnv, seed: int, rng: random.Random) -> tuple[list[int], float, bool, bool]:
    """One episode with a masked uniform learner: its actions, total reward, how it ended."""
    obs, info = e.reset(seed=seed)
    actions, total = [], 0.0
    while True:
        assert e.observation_space.contains(obs)
        legal = numpy.flatnonzero(info["action_mask"])
        assert len(legal) > 0  # step returns on the learner's turn or at the end
        action = int(legal[rng.randrange(len(legal))])
        actions.append(action)
        obs, reward, terminated, truncated, info = e.step(action)
        total += reward
        if terminated or truncated:
            return actions, total, terminated, truncated


@pytest.mark.parametrize("players", [2, 4])
def test_gymnasium_env_checker_passes(players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(UnoEnv("classic", players, opponents="greedy", seat=1))
    # Only the note that render modes can't be tried without a registered spec.
    assert [str(w.message) for w in caught if "render modes" not in str(w.message)] == []


@pytest.mark.parametrize("name", shipped_names())
def test_masked_random_episodes_end_with_a_win_or_a_loss(name: str) -> None:
    players = uno_rules.load_rulebook(name).player_counts()[0]
    e = UnoEnv(name, players, opponents="play_first", max_steps=50_000)
    outcomes = set()
    for seed in range(3):
        _actions, total, terminated, truncated = episode(e, seed, random.Random(seed))
        game = e.aec.game
        assert game is not None and game.over
        if terminated:
            assert game.result is not None
            assert total == (1 if e.seat in game.result.winners else -1)
            outcomes.add(total)
        else:
            assert truncated and game.stalled is not None and total == 0
    assert outcomes  # at least one round ended with a result


def test_the_same_seed_plays_the_same_episode() -> None:
    runs = [episode(UnoEnv("classic", 3, opponents="greedy", house=["jump_in"]), seed,
                    random.Random(2)) for seed in (11, 11, 12)]
    assert runs[0] == runs[1]
    assert runs[0][0] != runs[2][0]


def test_the_learner_sits_where_asked_and_opponents_may_differ_by_seat() -> None:
    e = UnoEnv("classic", 3, opponents=["uniform", "greedy", "play_first"], seat=2)
    _obs, info = e.reset(seed=4)
    game = e.aec.game
    assert game is not None
    assert list(numpy.flatnonzero(info["action_mask"])) == sorted(game.legal_ids(2))
    assert game.decision is not None and game.decision.seat == 2


def test_an_illegal_action_is_penalized_or_raised_and_changes_nothing() -> None:
    e = UnoEnv("classic", 2)
    _obs, info = e.reset(seed=5)
    game = e.aec.game
    assert game is not None
    before = game.snapshot()
    illegal = int(numpy.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, terminated, truncated, info = e.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    assert game.snapshot() == before
    strict = UnoEnv("classic", 2, illegal="raise")
    strict.reset(seed=5)
    with pytest.raises(IllegalAction, match="not in its mask"):
        strict.step(illegal)


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="seat"):
        UnoEnv("classic", 2, seat=2)
    with pytest.raises(ValueError, match="opponents"):
        UnoEnv("classic", 3, opponents=["greedy", "greedy"])
    with pytest.raises(AgentError, match="unknown agent"):
        UnoEnv("classic", 2, opponents="nobody")
    with pytest.raises(ValueError, match="illegal"):
        UnoEnv("classic", 2, illegal="ignore")
    for opponents in (5, [5, 5], ["greedy", None]):  # a TypeError, or a crash at reset
        with pytest.raises(ValueError, match="^opponents=.*: expected an agent's name or "
                                             "class, or one per seat$"):
            UnoEnv("classic", 2, opponents=opponents)  # type: ignore[arg-type]
    UnoEnv("classic", 2, opponents=[None, "greedy"]).reset(seed=1)  # the learner's: ignored


def test_render_ansi_is_the_learners_view() -> None:
    e = UnoEnv("classic", 2, seat=1, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and text.startswith("seat 1: hand")


def test_gymnasium_make_finds_the_registered_env() -> None:
    import gymnasium

    from uno_rules.rl.gymnasium import ENV_ID

    made = gymnasium.make(ENV_ID, rulebook="flip", players=3, opponents="uniform")
    assert isinstance(made.unwrapped, UnoEnv) and made.unwrapped.players == 3
    _obs, info = made.reset(seed=0)
    assert info["action_mask"].any()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(made.unwrapped)
    assert [str(w.message) for w in caught] == []


class Cheat:
    """An opponent that names an action it was not offered."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        pass

    def choose(self, obs: object) -> int:
        return -5


def test_an_opponent_choosing_what_it_may_not_is_an_agent_error() -> None:
    e = UnoEnv("classic", 2, opponents=Cheat, seat=1)
    with pytest.raises(AgentError, match="seat 0 chose -5"):
        e.reset(seed=0)


def agent_episode(e: UnoEnv, seed: int, name: str) -> Game:
    """An episode whose learner is the built-in agent ``name``, shown what ``play_agents``
    shows it (its ``pass`` taken when it lets a window go); the round played."""
    _obs, info = e.reset(seed=seed)
    game = e.aec.game
    assert game is not None and game.seed is not None
    agent = load_agent(name)(e.seat, seat_rng(game.seed, e.seat))
    seen, done = 0, False
    while not done:
        ids = tuple(table_ids(e, int(i)) for i in numpy.flatnonzero(info["action_mask"]))
        pending = game.pending
        mine = pending is not None and pending.seat == e.seat
        pass_id = None if mine else e.aec._pass[e.seat]
        offered = tuple(i for i in ids if i != pass_id)
        if mine and [e.aec.table[i].kind for i in offered] == ["keep"]:
            taken: int | None = offered[0]  # an unplayable drawn card: play_agents never asks
        else:
            obs = observation(game, e.seat, offered, pending.kind if mine and pending else None,
                              seen)
            seen = len(game.history)
            choice = agent.choose(obs)
            taken = pass_id if choice is None else choice
        assert taken is not None
        _o, _r, terminated, truncated, info = e.step(e.aec.env_id(e.seat, taken))
        done = terminated or truncated
    return game


def moves(game: Game) -> list[str]:
    """The round's actions but its keeps."""
    return [str(a) for a in game.history if a.kind != "keep"]


def table_ids(e: UnoEnv, i: int) -> int:
    """Id ``i`` of ``e``'s action space as the learner's id in the rulebook's table."""
    shared = e.aec.shared
    return i if shared is None else shared.table_id[e.seat][i]


def test_opponents_are_asked_what_play_agents_asks_them() -> None:
    """Uniform opponents draw from their generators exactly as in play_agents: an
    unplayable drawn card (asked about in the env's round, keep its only option) is kept
    for them unasked, so the rounds are the same but those keeps. (Not under jump_in: the
    env's rounds open a window at that decision too, where play_agents' have none.)"""
    rulebook = uno_rules.load_rulebook("classic")
    uniform = ("uniform", load_agent("uniform"))
    agents = [("greedy", load_agent("greedy")), uniform, uniform]  # greedy: ids in any order
    env = UnoEnv(rulebook, 3, opponents="uniform", max_steps=400)
    for seed in range(3):
        game = agent_episode(env, seed, "greedy")
        assert game.seed is not None and "keep" in [a.kind for a in game.history]
        played = play_agents(rulebook, 3, game.seed, agents, max_actions=game.max_actions)
        assert moves(game)[:300] == moves(played)[:300]


def test_lookahead_opponents_determinize_as_the_lookahead_agent_does() -> None:
    rulebook = uno_rules.load_rulebook("classic")
    agents = [("greedy", load_agent("greedy")), ("lookahead", load_agent("lookahead"))]
    ahead = UnoEnv("classic", 2, opponents="lookahead")
    greedy = UnoEnv("classic", 2, opponents="greedy")
    differ = 0
    for seed in range(4):
        game = agent_episode(ahead, seed, "greedy")
        assert game.seed is not None
        # the same round played by play_agents: the same choices, action for action (less
        # the keeps: the env's round asks about an unplayable drawn card too, keep its only
        # option; play_agents' rounds don't, as simulate's)
        played = play_agents(rulebook, 2, game.seed, agents)
        assert moves(game) == moves(played)
        other = agent_episode(greedy, seed, "greedy")
        differ += moves(other) != moves(game)
    assert differ  # lookahead is not greedy under another name


@pytest.mark.parametrize("shared", [False, True])
def test_action_masks_is_the_mask_as_maskable_ppo_takes_it(shared: bool) -> None:
    e = UnoEnv("classic", 3, opponents="greedy", seat=1, house=["jump_in"],
               shared_actions=shared)
    assert isinstance(e.action_space, gymnasium.spaces.Discrete)
    for seed in range(3):
        _obs, info = e.reset(seed=seed)
        rng = random.Random(seed)
        done = False
        while not done:
            masks = e.action_masks()
            # sb3-contrib's contract: a 1-D bool array, one entry per action of the space
            assert isinstance(masks, numpy.ndarray) and masks.dtype == numpy.bool_
            assert masks.shape == (e.action_space.n,)
            assert (masks == info["action_mask"].astype(bool)).all() and masks.any()
            legal = numpy.flatnonzero(masks)
            _o, _r, terminated, truncated, info = e.step(int(legal[rng.randrange(len(legal))]))
            done = terminated or truncated
        assert not e.action_masks().any()  # over: nothing to do


def test_shared_actions_play_the_same_rounds_as_table_ids() -> None:
    e = UnoEnv("classic", 4, opponents="greedy", house=["jump_in"], shared_actions=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(e)
    assert [str(w.message) for w in caught if "render modes" not in str(w.message)] == []
    assert e.aec.shared is not None and e.action_space.n == len(e.aec.shared)
    plain = UnoEnv("classic", 4, opponents="greedy", house=["jump_in"])
    for seed in range(3):
        shared_game = agent_episode(e, seed, "greedy")
        assert agent_episode(plain, seed, "greedy").history == shared_game.history


def test_whether_the_learners_drawn_card_was_playable_is_not_in_an_opponents_view() -> None:
    """Two worlds the opponent can't tell apart: the learner's drawn card playable or not.
    The learner is asked about it either way (keep the only option of the unplayable one),
    and the opponent's observation is the same in both."""
    from test_agents import Recorder
    from test_pettingzoo import top_drawn

    seen = []
    for playable in (True, False):
        opponents: list[Recorder] = []

        def make(seat: int, rng: random.Random, made: list[Recorder] = opponents) -> Recorder:
            made.append(Recorder(seat, rng))
            return made[-1]
        e = UnoEnv("classic", 2, opponents=make, seat=0)
        e.reset(seed=4)  # (the learner starts at this seed)
        game = e.aec.game
        assert game is not None and not opponents[0].seen
        top_drawn(game, 0, playable)
        asked = []  # what the learner is asked after each of its steps
        for kind in ("draw", "keep"):
            e.step(next(i for i, a in enumerate(e.aec.table) if a.seat == 0 and a.kind == kind))
            asked.append(game.decision.kind)
        obs = opponents[0].seen[0]
        seen.append((asked, obs.events, obs.seat_view, obs.kind, obs.ids))
    assert seen[0] == seen[1]
