"""A run's one check (:meth:`RunSpec.check`): simulate, matches and compare refuse a run
before any round is played, naming the first thing wrong in the same order, with the same
words (a caller reads the first error)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import uno_rules
from uno_rules.play.agents import parse_agents
from uno_rules.sim.compare import check_specs, compare_specs
from uno_rules.sim.matchsim import simulate_matches_spec
from uno_rules.sim.rounds import RunSpec
from uno_rules.sim.simulate import simulate_spec

GAMES = "games=0: expected a whole number >= 1"
ROUNDS = "max_rounds=0: expected a whole number >= 1"
SEED = "seed=None: expected a whole number (the same seed, the same games)"
STEPS = "max_steps=0: expected a whole number >= 1 or None"
WORKERS = "workers=-1: expected a whole number >= 0 (0: one per core)"
POLICY = "unknown policy 'x' (one of uniform, play_first)"
AGENTS = "2 agents for 3 players"


def _faults(fixes: list[dict[str, Any]], spec: RunSpec, workers: Any) -> list[tuple[RunSpec,
                                                                                     Any]]:
    """The run with every fault, then with each fixed in turn (the last: none left)."""
    out = [(spec, workers)]
    for fix in fixes:
        fix = dict(fix)
        workers = fix.pop("workers", workers)
        spec = replace(spec, **fix)
        out.append((spec, workers))
    return out


def _first_errors(run: Any, cases: list[tuple[RunSpec, Any]]) -> list[str | None]:
    said: list[str | None] = []
    for spec, workers in cases:
        try:
            run(spec, workers)
        except (uno_rules.IllegalAction, ValueError) as exc:
            said.append(str(exc))
        else:
            said.append(None)
    return said


def _broken() -> RunSpec:
    classic = uno_rules.load_rulebook("classic")
    return RunSpec(classic, 3, None, 0, "x", None, 0, None, 0)  # type: ignore[arg-type]


FIXES: list[dict[str, Any]] = [{"games": 2}, {"max_rounds": 2}, {"seed": 1},
                               {"max_steps": None}, {"workers": 1}]
TWO = parse_agents("uniform,uniform", 2)


def test_simulate_and_matches_refuse_in_one_order() -> None:
    policy = _faults(FIXES + [{"policy": "uniform"}], _broken(), -1)
    agents = _faults(FIXES + [{"agents": None, "policy": "uniform"}],
                     replace(_broken(), agents=TWO), -1)

    def rounds(s: RunSpec, workers: Any) -> None:
        simulate_spec(s, workers=workers)

    def matches(s: RunSpec, workers: Any) -> None:
        simulate_matches_spec(s, workers=workers)
    # Without agents the policy is checked; with them, their count.
    assert _first_errors(rounds, policy) == [GAMES, SEED, SEED, STEPS, WORKERS, POLICY, None]
    assert _first_errors(rounds, agents) == [GAMES, SEED, SEED, STEPS, WORKERS, AGENTS, None]
    # A match's budget of rounds comes between the games and the seed.
    assert _first_errors(matches, agents) == [GAMES, ROUNDS, SEED, STEPS, WORKERS, AGENTS,
                                              None]


def test_compare_refuses_in_the_same_order_and_checks_each_rulebooks_players() -> None:
    """compare checks every variant's rulebook for the players (its own words), and its
    workers as it plays."""
    spec = replace(_broken(), players=11, max_rounds=None)
    fixes = [{"games": 2}, {"seed": 1}, {"max_steps": None}, {"players": 3},
             {"policy": "uniform"}]

    def run(s: RunSpec, workers: Any) -> None:
        check_specs([s, s.on(uno_rules.load_rulebook("classic"))])
    cases = _faults(fixes, spec, 1)
    assert _first_errors(run, cases) == [GAMES, SEED, STEPS,
                                         "players=11: classic is for 2-10 players",
                                         POLICY, None]
    two = replace(cases[-1][0], agents=TWO)
    with pytest.raises(ValueError, match=AGENTS):
        compare_specs([two, two], ["a", "b"])
