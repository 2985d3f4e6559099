"""The PettingZoo AEC environment (uno_rules.rl.pettingzoo): PettingZoo's own API and seed tests
for every shipped rulebook at its smallest and a larger player count, with and without the
jump_in house rule; rounds played to the end by masked random agents; rewards, truncation,
seeding, refusals and rendering."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings

import numpy
import pytest
from pettingzoo.test import api_test, seed_test

import uno_rules
from uno_rules import IllegalAction
from uno_rules.engine.view import seen_actions
from uno_rules.load.resources import shipped_names
from uno_rules.rl.pettingzoo import env, raw_env

# PettingZoo's checks warn about any Dict observation with an action mask, its own classic
# environments' too: these two and no other warning are expected.
EXPECTED = ("Observation is not a NumPy array",
            "Observation space for each agent probably should be")


def counts(name: str) -> list[int]:
    """The smallest player count of a shipped rulebook and a larger one."""
    allowed = uno_rules.load_rulebook(name).player_counts()
    return [allowed[0], allowed[min(2, len(allowed) - 1)]]


CASES = [(name, players, house) for name in shipped_names() for players in counts(name)
         for house in ((), ("jump_in",))]


def unexpected(caught: list[warnings.WarningMessage]) -> list[str]:
    return sorted({str(w.message) for w in caught if not str(w.message).startswith(EXPECTED)})


@pytest.mark.parametrize(("name", "players", "house"), CASES)
def test_pettingzoo_api_and_seed_tests_pass(name: str, players: int,
                                            house: tuple[str, ...]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(name, players, house=house), num_cycles=60)
        seed_test(lambda: env(name, players, house=house), num_cycles=60)
    assert unexpected(caught) == []


def play(e: raw_env, seed: int, rng: random.Random) -> list[tuple[str, int]]:
    """A round through the AEC loop with masked uniform agents; the (agent, action) taken."""
    e.reset(seed=seed)
    taken = []
    for agent in e.agent_iter():
        obs, _reward, term, trunc, _info = e.last()
        if term or trunc:
            e.step(None)
            continue
        assert e.observation_space(agent).contains(obs)
        legal = numpy.flatnonzero(obs["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        taken.append((agent, action))
        e.step(action)
    return taken


@pytest.mark.parametrize("name", shipped_names())
def test_a_masked_random_round_ends_with_the_winners_rewarded(name: str) -> None:
    players = counts(name)[0]
    e = env(name, players, max_steps=50_000)  # random Teams rounds take thousands of steps
    rewards: dict[str, float] = {}
    ended = 0
    for seed in range(3):
        e.reset(seed=seed)
        rng = random.Random(seed)
        endings = set()
        for agent in e.agent_iter():
            obs, reward, term, trunc, _info = e.last()
            if term or trunc:
                rewards[agent] = reward
                endings.add((term, trunc))
                e.step(None)
                continue
            legal = numpy.flatnonzero(obs["action_mask"])
            assert len(legal) > 0  # the agent selected always has something to do
            # play_first's policy over the mask: uniform Teams rounds can outlast the budget
            plays = [int(i) for i in legal if e.table[i].kind == "play"] or list(legal)
            e.step(int(plays[rng.randrange(len(plays))]))
        assert e.agents == []
        game = e.game
        assert game is not None
        if game.over and game.stalled is None:  # +1 to the winners, -1 to the rest
            assert game.result is not None and endings == {(True, False)}
            assert rewards == {f"player_{s}": 1 if s in game.result.winners else -1
                               for s in range(players)}
            ended += 1
        else:  # the engine stopped the round (its budget): truncated
            assert endings == {(False, True)} and set(rewards.values()) == {0}
    assert ended >= 1


def test_the_same_seed_plays_the_same_episodes_and_another_seed_others() -> None:
    runs = [play(env("classic", 3, house=("jump_in",)), seed, random.Random(7))
            for seed in (5, 5, 6)]
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]
    e = env("flip", 2)  # reset() with no seed goes on with the seeded RNG: the same sequence
    first = [play(e, 9, random.Random(1))] + [play_unseeded(e) for _ in range(2)]
    again = [play(e, 9, random.Random(1))] + [play_unseeded(e) for _ in range(2)]
    assert first == again


def play_unseeded(e: raw_env) -> list[int]:
    e.reset()
    game = e.game
    assert game is not None
    return [len(h) for h in game.hands] + [game.discard[-1]]


def test_observations_are_arrays_in_their_spaces_and_only_the_actor_has_actions() -> None:
    e = env("classic", 4)
    e.reset(seed=1)
    actor = e.agent_selection
    for agent in e.agents:
        obs = e.observe(agent)
        assert obs["observation"].dtype == numpy.uint8
        assert obs["action_mask"].dtype == numpy.int8
        assert e.observation_space(agent).contains(obs)
        assert obs["action_mask"].any() == (agent == actor)
    game = e.game
    assert game is not None
    mask = e.observe(actor)["action_mask"]
    seat = int(actor.split("_")[1])
    assert list(numpy.flatnonzero(mask)) == sorted(game.legal_ids(seat))


@pytest.mark.parametrize(("rulebook", "players", "house"),
                         [("classic", 2, ()), ("classic", 4, ("jump_in",)), ("flip", 3, ())])
def test_every_step_the_mask_is_the_actors_legal_ids_and_the_observation_its_encoding(
        rulebook: str, players: int, house: tuple[str, ...]) -> None:
    """The legal ids the env keeps per state (made in one call when no window is open) and
    the observation it builds are what the game and the observer give at that state."""
    e = env(rulebook, players, house=house)
    rng = random.Random(3)
    steps = 0
    for seed in range(3):
        e.reset(seed=seed)
        for agent in e.agent_iter(max_iter=400):
            obs, _reward, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            game, seat = e.game, int(agent.split("_")[1])
            assert game is not None
            legal = [int(i) for i in numpy.flatnonzero(obs["action_mask"])]
            assert legal == sorted(game.legal_ids(seat))
            assert list(obs["observation"]) == e.observer.encode(game, seat)
            e.step(legal[rng.randrange(len(legal))])
            steps += 1
    assert steps > 300


def test_each_observation_is_new_arrays_of_its_own() -> None:
    """A learner may keep and change what it was handed: no buffer is shared between calls,
    seats or steps."""
    e = env("classic", 2)
    e.reset(seed=2)
    actor = e.agent_selection
    first, other = e.observe(actor), e.observe("player_1" if actor == "player_0" else
                                               "player_0")
    kept = {k: v.copy() for k, v in first.items()}
    again = e.observe(actor)
    for key in ("observation", "action_mask"):
        assert first[key].flags.writeable and again[key] is not first[key]
        first[key][:] = 7
        other[key][:] = 7
        assert (again[key] == kept[key]).all() and (e.observe(actor)[key] == kept[key]).all()
    legal = numpy.flatnonzero(kept["action_mask"])
    e.step(int(legal[0]))
    assert (first["observation"] == 7).all()  # a step leaves arrays handed out as they are


def test_an_action_outside_the_mask_is_refused_and_changes_nothing() -> None:
    e = env("classic", 2)
    e.reset(seed=3)
    game = e.game
    assert game is not None
    before = game.snapshot()
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(numpy.flatnonzero(mask == 0)[0])
    for bad in (illegal, len(mask), -1, "3", 1.5):
        with pytest.raises(IllegalAction):
            e.step(bad)
    assert game.snapshot() == before
    e.step(numpy.int64(numpy.flatnonzero(mask)[0]))  # a NumPy integer is an id too
    assert len(game.history) == 1


def test_max_steps_truncates_every_agent() -> None:
    e = env("classic", 3, max_steps=4)
    e.reset(seed=0)
    for _ in range(4):
        assert not any(e.truncations.values())
        e.step(int(numpy.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert e.rewards == dict.fromkeys(e.agents, 0)
    while e.agents:  # each leaves with step(None)
        e.step(None)


def test_a_round_the_engine_stalls_is_truncated() -> None:
    e = env("classic", 2, settings=None)
    e.reset(seed=0)
    game = e.game
    assert game is not None
    game.max_actions = len(game.history) + 1  # the round's action budget: one more action
    e.step(int(numpy.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert game.stalled == "actions"
    assert all(e.truncations.values())


def test_points_rewards_give_the_rounds_points() -> None:
    e = env("classic", 2, reward="points")
    rng = random.Random(0)
    play(e, 4, rng)
    game = e.game
    assert game is not None and game.result is not None
    assert game.result.points > 0  # the loser held cards


def test_rulebook_arguments_house_rules_and_settings() -> None:
    rulebook = uno_rules.load_rulebook("classic", house=["stacking"])
    assert env(rulebook, 2).rulebook is rulebook
    assert env("classic", 2, house=["stacking"]).rulebook.house == rulebook.house
    e = env("classic", 2, settings={"hand_size": 5})
    e.reset(seed=0)
    assert e.game is not None and len(e.game.hands[1]) == 5
    with pytest.raises(ValueError, match="as it is loaded"):
        env(rulebook, 2, house=["jump_in"])
    with pytest.raises(IllegalAction, match="not 2"):
        env("teams", 2)
    with pytest.raises(ValueError, match="max_steps"):
        env("classic", 2, max_steps=0)
    with pytest.raises(ValueError, match="reward"):
        env("classic", 2, reward="score")
    with pytest.raises(uno_rules.RulebookError):
        env("no_such_rulebook", 2)


def test_render_ansi_shows_the_acting_seats_view_in_words(
        capsys: pytest.CaptureFixture[str]) -> None:
    e = env("classic", 2, render_mode="ansi")
    e.reset(seed=2)
    game = e.game
    assert game is not None
    seat = int(e.agent_selection.split("_")[1])
    text = e.render()
    assert isinstance(text, str)
    assert f"seat {seat}: hand" in text and "to turn" in text
    assert ", ".join(game.view(seat)["hand"]) in text
    human = env("classic", 2, render_mode="human")
    human.reset(seed=2)
    assert human.render() is None
    assert capsys.readouterr().out.strip() == text


def test_out_of_turn_windows_come_before_the_decider_in_seat_order_and_pass_changes_nothing(
        ) -> None:
    e = env("classic", 4, house=("jump_in",))
    table = e.table
    windows = passes = 0
    for seed in range(10):
        e.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(300):  # the first 300 steps of each round
            if any(e.terminations.values()) or any(e.truncations.values()):
                break
            game = e.game
            assert game is not None
            decider = game.decision.seat  # type: ignore[union-attr]
            seat = int(e.agent_selection.split("_")[1])
            legal = [int(i) for i in numpy.flatnonzero(e.observe(e.agent_selection)
                                                       ["action_mask"])]
            if seat != decider:  # a window: its own out-of-turn actions and its pass
                windows += 1
                assert table[legal[-1]] == uno_rules.Action(seat, "pass")
                assert all(table[i].seat == seat for i in legal)
                expected = [s for s in ((decider + k) % 4 for k in range(1, 4))
                            if game.legal_ids(s)]
                assert e._queue == expected[expected.index(seat):] + [decider]
                if rng.random() < 0.5:
                    before = game.snapshot()
                    e.step(legal[-1])
                    passes += 1
                    assert game.snapshot() == before
                    continue
            else:
                assert uno_rules.Action(seat, "pass") not in [table[i] for i in legal]
            e.step(legal[rng.randrange(len(legal))])
    assert windows > 100 and passes > 50, (windows, passes)


@pytest.mark.parametrize(("module", "missing"), [("uno_rules.rl.pettingzoo", "pettingzoo"),
                                                 ("uno_rules.rl.gymnasium", "gymnasium")])
def test_without_the_rl_extra_the_import_says_what_to_install(module: str,
                                                              missing: str) -> None:
    code = (f"import sys; sys.modules[{missing!r}] = None\n"
            f"try:\n    import {module}\nexcept ImportError as e:\n    print(e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "pip install 'uno-rules[rl]'" in out and missing in out.lower()


def test_contests_are_drawn_by_the_env_never_an_agents_turn() -> None:
    e = env("ted_lasso", 3)
    contests = 0
    for seed in range(12):
        e.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in e.agent_iter():
            obs, _reward, term, trunc, _info = e.last()
            game = e.game
            assert game is not None
            if term or trunc:
                e.step(None)
                continue
            assert game.decision is not None and game.decision.seat is not None
            legal = numpy.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
        assert e.game is not None
        contests += sum(a.kind == "loser" for a in e.game.history)
    assert contests > 0  # Ted Lasso's showdowns came up, and were drawn


@pytest.mark.parametrize(("name", "players"), [("classic", 2), ("classic", 4), ("teams", 4)])
def test_zero_sum_rewards_sum_to_zero_every_round(name: str, players: int) -> None:
    e = env(name, players, reward="zero_sum", max_steps=50_000)
    for seed in range(4):
        rewards: dict[str, float] = {}
        e.reset(seed=seed)
        rng = random.Random(seed)
        for agent in e.agent_iter():
            obs, reward, term, trunc, _info = e.last()
            if term or trunc:
                rewards[agent] = reward
                e.step(None)
                continue
            legal = numpy.flatnonzero(obs["action_mask"])
            plays = [int(i) for i in legal if e.table[i].kind == "play"] or list(legal)
            e.step(int(plays[rng.randrange(len(plays))]))
        game = e.game
        assert game is not None and game.result is not None
        winners = game.result.winners
        loss = -len(winners) / (players - len(winners))
        assert rewards == {f"player_{s}": 1 if s in winners else pytest.approx(loss)
                           for s in range(players)}
        assert sum(rewards.values()) == pytest.approx(0)


@pytest.mark.parametrize("players", [2, 4])
def test_shared_actions_give_every_seat_the_same_ids(players: int) -> None:
    plain = env("classic", players, house=("jump_in",))
    shared = env("classic", players, house=("jump_in",), shared_actions=True)
    assert shared.shared is not None
    space = shared.shared
    assert len(plain.table) == {2: 464, 4: 952}[players]  # the default is unchanged
    assert shared.action_space("player_1").n == len(space) < len(plain.table) / (players - 1)
    assert {str(a) for a in space.table} >= {"draw", "pass", "catch 1", "play red 5"}
    for seed in range(3):  # the same round: the plain mask mapped is the shared mask
        plain.reset(seed=seed)
        shared.reset(seed=seed)
        rng = random.Random(seed)
        for agent in plain.agent_iter():
            obs, _r, term, trunc, _i = plain.last()
            assert shared.agent_selection == agent
            got = shared.last()[0]["action_mask"]
            if term or trunc:
                plain.step(None)
                shared.step(None)
                continue
            seat = int(agent.split("_")[1])
            legal = [int(i) for i in numpy.flatnonzero(obs["action_mask"])]
            ids = [space.shared_id[seat][i] for i in legal]
            assert sorted(ids) == list(numpy.flatnonzero(got))
            for i, k in zip(legal, ids, strict=True):  # the same move, the actor's own seat
                action, free = plain.table[i], space.table[k]
                assert (action.seat, action.kind) == (seat, free.kind)
                assert space.table_id[seat][k] == i
            pick = rng.randrange(len(legal))
            plain.step(legal[pick])
            shared.step(ids[pick])
        assert plain.game is not None and shared.game is not None
        assert plain.game.history == shared.game.history


def test_a_shared_id_outside_the_mask_is_refused() -> None:
    e = env("classic", 2, shared_actions=True)
    e.reset(seed=1)
    mask = e.last()[0]["action_mask"]
    assert e.game is not None
    before = e.game.snapshot()
    for bad in (-1, len(mask), int(numpy.flatnonzero(mask == 0)[0])):
        with pytest.raises(IllegalAction, match="not in its mask"):
            e.step(bad)
    assert e.game.snapshot() == before


def test_shared_actions_pass_the_api_and_seed_tests() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env("classic", 3, house=("jump_in",), shared_actions=True), num_cycles=60)
        seed_test(lambda: env("classic", 3, house=("jump_in",), shared_actions=True),
                  num_cycles=60)
    assert unexpected(caught) == []


def top_drawn(game: uno_rules.Game, seat: int, playable: bool) -> int:
    """Put a card of the draw pile that ``seat`` could play (or not) on top: the next drawn.
    Its face id."""
    pile = game.draw_pile
    i = next(i for i, c in enumerate(pile) if game._can_play(seat, c) == playable)
    pile[i], pile[-1] = pile[-1], pile[i]
    return pile[-1]


def test_whether_anothers_drawn_card_was_playable_is_not_in_its_view() -> None:
    """Two worlds the other seat can't tell apart: the drawer's card playable or not. The
    drawer is asked about it either way (keep the only option of the unplayable one), so
    who acts, the other seat's observations and the public record are the same."""
    traces = []
    for playable in (True, False):
        e = env("classic", 2)
        e.reset(seed=4)
        game = e.game
        assert game is not None
        drawer = e._seat[e.agent_selection]
        other = 1 - drawer
        card = top_drawn(game, drawer, playable)
        trace = []
        for kind in ("draw", "keep"):
            e.step(next(i for i, a in enumerate(e.table) if a.seat == drawer and a.kind == kind))
            seen = [str(a) for a in seen_actions(game.history, other)]
            trace.append((e.agent_selection,
                          e.observe(f"player_{other}")["observation"].tobytes(), seen))
        assert card in game.hands[drawer] and trace[0][0] == f"player_{drawer}"
        traces.append(trace)
    assert traces[0] == traces[1]
