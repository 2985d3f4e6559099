"""The benchmark's hard-coded floor engine (bench/floor.py) must offer the same decisions as
the classic rulebook, or its figure would not be the floor of the same work."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import uno_rules

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from floor import FloorGame, Tables  # noqa: E402


@pytest.mark.parametrize("players", [2, 4, 7])
def test_floor_offers_the_same_decisions_as_classic(players: int) -> None:
    rulebook = uno_rules.load_rulebook("classic")
    tables = Tables(rulebook, players)
    compared = 0
    for seed in range(60):
        ours = rulebook.new_game(players, seed)
        turned = [event for event in ours.log or [] if event[0] == "first"]
        if len(turned) != 1 or not rulebook.faces[ours.discard[0]].number:
            continue  # the floor has no first-card rules
        floor = FloorGame(tables, players, seed)
        rng = random.Random(seed)
        while not ours.over:
            assert floor.decision == ours.decision
            options = ours.decision.options  # type: ignore[union-attr]
            plays = [a for a in options if a.kind == "play"] or options
            action = plays[rng.randrange(len(plays))]
            ours.apply(action)
            floor.apply(action)
        assert floor.over
        assert floor.turns == ours.turns
        assert floor.points == ours.result.points  # type: ignore[union-attr]
        compared += 1
    assert compared >= 20


def test_bench_runs_its_workers_and_both_loops_play_the_same_rounds() -> None:
    """bench.py's coordinator and worker protocol, pure build only (the compiled one needs a
    compiler): both of our loops are timed and report the same turns (the same rounds)."""
    import subprocess

    bench = Path(__file__).resolve().parent.parent / "bench" / "bench.py"
    done = subprocess.run([sys.executable, str(bench), "--pure-only", "--games", "3",
                           "--reps", "2", "--players", "2"],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = {" ".join(line.split()[1:4]): line.split() for line in done.stdout.splitlines()
            if line.strip().startswith("2 pure")}
    assert set(rows) == {"pure object loop", "pure integer lane"}, done.stdout
    assert rows["pure object loop"][6] == rows["pure integer lane"][6]  # turns per round
    assert "pure      clone: game.clone()" in done.stdout


def test_the_bytecode_count_is_deterministic_and_names_the_engine() -> None:
    """bench/bytecodes.py's measure (bench/README.md) is a count, not a timing: the same
    seeded rounds run the same bytecodes every time, most of them in the engine (none in the
    compiled build's). Each count
    in a fresh interpreter, as the bench runs it (in this process, what earlier tests left
    in the rulebook's memoised tables would be counted once)."""
    import subprocess

    script = Path(__file__).resolve().parent.parent / "bench" / "bytecodes.py"

    def run() -> str:
        done = subprocess.run([sys.executable, str(script), "--games", "2", "--top", "400"],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return done.stdout
    first, again = run(), run()
    assert first == again
    head, *rows = first.splitlines()
    per_turn = float(head.split(", ")[1].split()[0])
    engine = sum(float(r.split()[0]) for r in rows if r.split()[1].startswith("engine/"))
    assert " 0 turns" not in head, first
    if uno_rules.COMPILED:  # the compiled engine runs no bytecodes: the count is ours only
        assert engine == 0, first
    else:
        assert engine > per_turn / 2, first


@pytest.mark.skipif(uno_rules.COMPILED, reason="compiled functions have no code objects")
def test_the_functions_run_on_every_action_make_no_closure_cells() -> None:
    """A comprehension or a nested function that reads a local makes its enclosing function
    allocate a cell for that local on every call, taken or not (about 1 % of a pure-Python
    round, issue 29): the functions each action runs keep such code in methods of their own
    (or write it as a loop)."""
    from uno_rules.engine.decisions import Drawn, Turn
    from uno_rules.engine.game import Game
    from uno_rules.engine.legal import Legality
    from uno_rules.engine.state import State

    hot = [Game.step, Game.legal_ids, Game._take, Game._run, Game._resolved, Game._play_card,
           Turn.options, Turn.answer, Drawn.options, Drawn.answer, Legality._play_ids,
           Legality._matching_top, Legality._can_play, State.__init__, State._card_played,
           State._draw_cards, State._advance, State._seat, State._next_turn]
    cells = {f.__qualname__: f.__code__.co_cellvars for f in hot if f.__code__.co_cellvars}
    assert cells == {}


RLCARD_UNO = Path(__file__).resolve().parent.parent / "bench" / "rlcard_uno.yaml"


def test_the_rlcard_like_rulebook_validates_and_plays_rlcards_rules() -> None:
    """bench/rlcard_uno.yaml (bench/rl_env.py's like-rules lane) validates from the command
    line and plays as its comments say: draw only with nothing playable, a playable drawn
    card played, no Wild Draw Four challenge, a Reverse at two players handing the turn
    over, no UNO penalty."""
    import subprocess

    done = subprocess.run([sys.executable, "-m", "uno_rules", "validate", str(RLCARD_UNO)],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok "), done.stdout
    rulebook = uno_rules.load_rulebook(RLCARD_UNO)
    assert rulebook.settings.uno_penalty == 0
    rng, reversed_ = random.Random(3), 0
    for seed in range(40):
        game = rulebook.new_game(2, seed)
        while not game.over:
            decision = game.decision
            assert decision is not None
            kinds = {a.kind for a in decision.options}
            assert not kinds & {"challenge", "accept"}
            assert "draw" not in kinds or "play" not in kinds
            assert decision.kind != "drawn" or "keep" not in kinds or "play" not in kinds
            action = decision.options[rng.randrange(len(decision.options))]
            top = len(game.discard)
            game.apply(action)
            if action.kind == "play" and len(game.discard) > top and not game.over and \
                    game.faces[game.discard[-1]].name.endswith(" reverse") and \
                    game.decision is not None and game.decision.kind == "turn":
                assert game.decision.seat != action.seat  # no skip at two players
                reversed_ += 1
    assert reversed_ >= 20
    for seed in range(400):  # a Draw Two turned up: the first player draws two and plays
        game = rulebook.new_game(2, seed)
        if len(game.discard) == 1 and game.faces[game.discard[0]].name.endswith(" draw_two"):
            first = game.decision.seat  # type: ignore[union-attr]
            assert len(game.hands[first]) == 9 and len(game.hands[1 - first]) == 7
            break
    else:
        raise AssertionError("no Draw Two turned up first in 400 deals")


def test_rl_env_counts_the_steps_of_whole_episodes_on_both_lanes() -> None:
    """bench/rl_env.py's adapter runners (RLCard left out: not a test dependency) play whole
    random episodes of each lane and return the env steps taken, so per step is derived."""
    import rl_env

    for book, settings in rl_env.LANES.values():
        for adapter in ("pettingzoo", "gymnasium"):
            run = rl_env.episodes(adapter, rulebook=book, settings=settings)
            assert run is not None
            assert 3 * 20 < run(3) < 3 * 1000
    for adapter in ("pettingzoo", "gymnasium"):  # auto_forced: forced steps counted as taken
        run = rl_env.episodes(adapter, rulebook=rl_env.RLCARD_UNO, settings={},
                              auto_forced=True)
        assert run is not None
        assert 3 * 20 < run(3) < 3 * 1000
