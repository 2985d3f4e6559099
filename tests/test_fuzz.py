"""Mutated rulebooks and scenario files get located problems, never another exception."""

from __future__ import annotations

import copy
import os
import random
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uno_rules.authoring.scenario import run_file
from uno_rules.engine.errors import ScenarioError
from uno_rules.load.loader import check

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "rulebooks" / f"{n}.yaml" for n in ("classic", "teams", "no_mercy")]
SCENARIOS = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))[:12]
TOKENS = ["", "-", "null", "7", "-3", "true", "[]", "{}", "'$x'", "next", "skip", "red",
          "{draw: {who: self}}", "[skip, reverse]", "extends: classic", "x: [", "\t", "ü"]


def FUZZ(examples: int) -> settings:  # noqa: N802 - used as a decorator
    """Hypothesis settings: ``examples``, five times as many in the long run (UNO_LONG=1, see
    conftest.py); FUZZ_EXAMPLES=N sets the number by hand."""
    if os.environ.get("UNO_LONG", "") not in ("", "0"):
        examples *= 5
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


VALUES = [None, -1, 0, 3, 1000, True, "", "next", "self", "target", "loser", "$nope",
          "skip", "red", "half", "all", [], {}, ["skip"], [{"draw": {"who": "next"}}],
          {"who": "next", "count": 2}, [0, 1], {"min": 5, "max": 2}, ["red", "red"]]


def mutate_data(data: object, rng: random.Random, n: int) -> object:
    """Replace, delete or retype values at random places of parsed YAML."""
    for _ in range(n):
        node, parent, key = data, None, None
        for _depth in range(rng.randrange(1, 7)):
            if isinstance(node, dict) and node:
                k = rng.choice(list(node))
            elif isinstance(node, list) and node:
                k = rng.randrange(len(node))
            else:
                break
            parent, key = node, k
            if not isinstance(node[k], (dict, list)) or rng.random() < 0.3:
                break
            node = node[k]
        if parent is None:
            continue
        if isinstance(parent, dict) and rng.random() < 0.2:
            del parent[key]
        elif isinstance(parent, dict) and rng.random() < 0.1:
            parent[rng.choice(["draw", "skip", "colors", "who", "cards", "extra"])] = \
                copy.deepcopy(rng.choice(VALUES))
        else:
            parent[key] = copy.deepcopy(rng.choice(VALUES))
    return data


def mutated_copy(tmp_path_factory, source: Path, seed: int, n: int, structural: bool) -> Path:
    """A mutated copy of ``source`` (text edits, or edits of the parsed data)."""
    path = tmp_path_factory.mktemp("fuzz") / source.name
    rng, text = random.Random(seed), source.read_text()
    path.write_text(yaml.safe_dump(mutate_data(yaml.safe_load(text), rng, n), sort_keys=False)
                    if structural else mutate(text, rng, n))
    return path


@FUZZ(300)
@given(st.sampled_from(SOURCES), st.integers(0, 2**32), st.integers(1, 4), st.booleans())
def test_mutated_rulebooks_never_crash(tmp_path_factory, source: Path, seed: int, n: int,
                                       structural: bool) -> None:
    path = mutated_copy(tmp_path_factory, source, seed, n, structural)
    rulebook, problems = check(path)
    assert (rulebook is None) == bool(problems)
    for p in problems:
        assert p.line >= 1 and p.col >= 1 and p.message and "\n" not in p.message
    if rulebook is not None and rulebook.player_counts():
        game = rulebook.new_game(rulebook.player_counts()[-1], seed=seed)
        rng = random.Random(seed)
        for _ in range(300):  # a playable rulebook plays
            if game.over:
                break
            actions = game.legal_actions()
            assert actions
            game.apply(actions[rng.randrange(len(actions))])


ARGS = [None, -1, 0, 1, 3, 99, "red 5", "RED 5", "wild", "purple 9", "blue", "", " ", 2.5,
        "red 5 pass", "half", ["red 5"]]
KINDS = ["play", "draw", "keep", "color", "challenge", "accept", "target", "loser", "catch",
         "uno", "give", "jump_in", "pass", "fly", ""]


@FUZZ(60)
@given(st.sampled_from(["classic", "teams", "ted_lasso", "no_mercy"]), st.integers(0, 2**32),
       st.lists(st.tuples(st.sampled_from([None, -1, 0, 1, 2, 3, 7]), st.sampled_from(KINDS),
                          st.sampled_from(ARGS), st.booleans()), min_size=1, max_size=12))
def test_arbitrary_actions_are_refused_cleanly(name: str, seed: int, attempts: list) -> None:
    import json

    from uno_rules import Action, IllegalAction, NotationError, load_rulebook

    rb = load_rulebook(name)
    game = rb.new_game(rb.player_counts()[0], seed=seed)
    rng = random.Random(seed)
    for seat, kind, arg, uno in attempts:
        before = json.dumps(game.snapshot())
        action = Action(seat, kind, arg, uno)
        # legal now: the referee's actions and each seat's (its pass, which changes nothing)
        legal = game.legal_actions() + [rb.action_table(game.players)[i]
                                         for s in range(game.players) for i in game.legal_ids(s)]
        if action in legal:
            continue
        attempts_ = [action]
        try:  # its text form may name a legal action (an empty argument prints as nothing)
            if Action.parse(str(action)) not in legal:
                attempts_.append(str(action))
        except NotationError:
            attempts_.append(str(action))
        for attempt in attempts_:
            try:
                game.apply(attempt)
            except (IllegalAction, NotationError):
                pass
            else:
                raise AssertionError(f"{attempt!r} was taken")
            assert json.dumps(game.snapshot()) == before
        if not game.over:
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])


@FUZZ(200)
@given(st.sampled_from(SCENARIOS), st.integers(0, 2**32), st.integers(1, 3), st.booleans())
def test_mutated_scenarios_never_crash(tmp_path_factory, source: Path, seed: int, n: int,
                                       structural: bool) -> None:
    path = mutated_copy(tmp_path_factory, source, seed, n, structural)
    try:
        outcomes = run_file(path)
    except ScenarioError as exc:
        assert exc.problems and all(p.line >= 1 and "\n" not in p.message
                                    for p in exc.problems)
        return
    assert all(o.passed or o.message.startswith("step ") for o in outcomes)
