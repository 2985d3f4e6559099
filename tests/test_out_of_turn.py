"""Out-of-turn windows that reveal nothing (issue 31), the adapters' side: a window asks
every seat that could act out of turn by public information (``Game.asked_seats``,
tests/test_windows.py), so who moves never depends on hidden cards: OpenSpiel's
resampling keeps who moves, PettingZoo asks every such seat, Gymnasium passes for a
learner with nothing to play; OpenSpiel's IS-MCTS plays whole rounds of every shipped
rulebook and house rule, and OpenSpiel's random_sim_test, PettingZoo's api_test/seed_test
and Gymnasium's check_env pass for each."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

import uno_rules
from uno_rules import Action
from uno_rules.engine.model import NO_COLOR
from uno_rules.load.resources import house_names, shipped_names

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from test_openspiel_chance import _chance, bot_plays  # noqa: E402  (chance by its weights)

import uno_rules.rl.openspiel  # noqa: E402,F401  (registers "uno_rules")


@pytest.mark.parametrize("deals", [0, 16])
def test_openspiel_resampling_never_changes_who_moves(deals: int) -> None:
    """Under jump_in, resampling from any seat's information state keeps the player to move,
    and the resampling seat's information state and legal actions."""
    game = pyspiel.load_game("uno_rules", {"rulebook": "classic", "house": "jump_in",
                                           "players": 4, "deals": deals,
                                           "max_actions": 120})
    rng = random.Random(5)
    windows = 0
    sampler = pyspiel.UniformProbabilitySampler(0., 1.)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                _chance(state, rng)
                continue
            player = state.current_player()
            windows += player != state.uno_game.decision.seat
            for seat in range(4):
                world = state.resample_from_infostate(seat, sampler)
                assert world.current_player() == player
                assert world.information_state_string(seat) == \
                    state.information_state_string(seat)
                if seat == player:
                    assert world.legal_actions() == state.legal_actions()
            state.apply_action(rng.choice(state.legal_actions()))
    assert windows > 100


class _Zero:  # an evaluator of OpenSpiel's MCTS: every leaf worth 0 (fast, seeded nothing)
    def evaluate(self, state: Any) -> Any:
        return np.zeros(state.get_game().num_players())

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1 / len(legal)) for a in legal]


def _players(rulebook: str, house: tuple[str, ...], wanted: int) -> int:
    counts = uno_rules.load_rulebook(rulebook, house=list(house)).player_counts()
    return wanted if wanted in counts else counts[0]


# Every shipped rulebook under jump_in (the windows), and classic with each house rule.
CASES = [(name, ("jump_in",)) for name in shipped_names()] + \
    [("classic", (house,)) for house in house_names()]


@pytest.mark.parametrize(("rulebook", "house"), CASES)
def test_openspiels_ismcts_plays_a_whole_round(rulebook: str, house: tuple[str, ...]) -> None:
    """ISMCTSBot asserts that each resampled root has the root's player and information
    state; here it chooses every seat's moves to the round's end (or its action budget)."""
    from open_spiel.python.algorithms import ismcts

    players = _players(rulebook, house, 3)
    game = pyspiel.load_game("uno_rules", {"rulebook": rulebook, "house": ",".join(house),
                                           "players": players, "max_actions": 120})
    bot = ismcts.ISMCTSBot(game, _Zero(), uct_c=2.0, max_simulations=3,
                           random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    moves = bot_plays(bot, state, random.Random(3))
    assert state.is_terminal() and moves > 10 and abs(sum(state.returns())) < 1e-9


@pytest.mark.parametrize(("rulebook", "house"), CASES)
def test_the_libraries_own_checks_pass(rulebook: str, house: tuple[str, ...]) -> None:
    """OpenSpiel's random_sim_test (with serialization), PettingZoo's api_test and
    seed_test, Gymnasium's check_env, for each rulebook and house rule."""
    pytest.importorskip("pettingzoo")
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test

    from uno_rules.rl.gymnasium import UnoEnv
    from uno_rules.rl.pettingzoo import env

    players = _players(rulebook, house, 3)
    game = pyspiel.load_game("uno_rules", {"rulebook": rulebook, "house": ",".join(house),
                                           "players": players, "max_actions": 100})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's usual Dict-observation warnings
        api_test(env(rulebook, players, house=house), num_cycles=30)
        seed_test(lambda: env(rulebook, players, house=house), num_cycles=30)
        check_env(UnoEnv(rulebook, players, opponents="greedy", seat=1, house=list(house)))


def test_pettingzoo_asks_every_seat_that_could_jump_in() -> None:
    """Agents that always pass when they may: each window selects, in seat order from the
    one after the decider, exactly the other seats with cards (public), holding the card
    on top or not, before the decider acts."""
    from uno_rules.play import driver
    from uno_rules.rl.pettingzoo import env

    aec = env("classic", 4, house=("jump_in",), max_steps=600)
    aec.reset(seed=3)
    selected: list[int] = []
    windows = 0
    for agent in aec.agent_iter():
        _obs, _r, term, trunc, _info = aec.last()
        if term or trunc:
            aec.step(None)
            continue
        seat, game = aec.possible_agents.index(agent), aec.game
        pending = game.pending
        if pending.seat != seat:
            selected.append(seat)
            aec.step(aec.table.index(Action(seat, "pass")))
            continue
        top = game.faces[game.discard[-1]]
        if pending.kind in ("turn", "drawn") and top.color != NO_COLOR:
            sizes = game.view(seat)["hand_sizes"]
            assert selected == [s for s in driver.window_seats(seat, 4) if sizes[s]]
            windows += 1
        selected = []
        legal = [i for i, m in enumerate(aec.observe(agent)["action_mask"]) if m]
        aec.step(legal[0])
    assert windows > 20


def test_gymnasium_passes_for_a_seat_with_nothing_to_play() -> None:
    """The single learner sees only its own turns: a window asking it with nothing to play
    passes for it (no step of its own), while its jump-ins are still offered."""
    from uno_rules.rl.gymnasium import UnoEnv

    e = UnoEnv("classic", 3, opponents="greedy", seat=1, house=["jump_in"])
    rng = random.Random(2)
    table, jumps = e.aec.table, 0
    for seed in range(6):
        _obs, info = e.reset(seed=seed)
        done = False
        while not done:
            legal = [int(i) for i in np.flatnonzero(info["action_mask"])]
            kinds = {table[i].kind for i in legal}
            assert kinds != {"pass"}
            jumps += "jump_in" in kinds
            _obs, _r, term, trunc, info = e.step(rng.choice(legal))
            done = term or trunc
    assert jumps > 0
