"""Mutated rulebooks and scenario files get located problems, never another exception."""

from __future__ import annotations

import os
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uno_rules.errors import ScenarioError
from uno_rules.loader import check
from uno_rules.scenario import run_file

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "rulebooks" / f"{n}.yaml" for n in ("classic", "teams", "no_mercy")]
SCENARIOS = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))[:12]
TOKENS = ["", "-", "null", "7", "-3", "true", "[]", "{}", "'$x'", "next", "skip", "red",
          "{draw: {who: self}}", "[skip, reverse]", "extends: classic", "x: [", "\t", "ü"]


def FUZZ(examples: int) -> settings:  # noqa: N802 - used as a decorator
    """Hypothesis settings; FUZZ_EXAMPLES=N runs a longer fuzz by hand."""
    return settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", examples)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


def mutate(text: str, rng: random.Random, n: int) -> str:
    lines = text.splitlines()
    for _ in range(n):
        if not lines:
            break
        i = rng.randrange(len(lines))
        op = rng.randrange(5)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 2 and ":" in lines[i]:
            key, _, _ = lines[i].partition(":")
            lines[i] = f"{key}: {rng.choice(TOKENS)}"
        elif op == 3:
            words = lines[i].split(" ")
            words[rng.randrange(len(words))] = rng.choice(TOKENS)
            lines[i] = " ".join(words)
        else:
            lines[i] = "  " + lines[i]
    return "\n".join(lines) + "\n"


@FUZZ(150)
@given(st.sampled_from(SOURCES), st.integers(0, 2**32), st.integers(1, 4))
def test_mutated_rulebooks_never_crash(tmp_path_factory, source: Path, seed: int, n: int) -> None:
    path = tmp_path_factory.mktemp("fuzz") / source.name
    path.write_text(mutate(source.read_text(), random.Random(seed), n))
    rulebook, problems = check(path)
    assert (rulebook is None) == bool(problems)
    for p in problems:
        assert p.line >= 1 and p.col >= 1 and p.message and "\n" not in p.message
    if rulebook is not None and rulebook.player_counts():
        game = rulebook.new_game(rulebook.player_counts()[0], seed=seed)
        assert game.decision is not None or game.over


@FUZZ(100)
@given(st.sampled_from(SCENARIOS), st.integers(0, 2**32), st.integers(1, 3))
def test_mutated_scenarios_never_crash(tmp_path_factory, source: Path, seed: int, n: int) -> None:
    path = tmp_path_factory.mktemp("fuzz") / source.name
    path.write_text(mutate(source.read_text(), random.Random(seed), n))
    try:
        outcomes = run_file(path)
    except ScenarioError as exc:
        assert exc.problems and all(p.line >= 1 for p in exc.problems)
        return
    assert all(o.passed or o.message.startswith("step ") for o in outcomes)
