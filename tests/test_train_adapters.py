"""The training examples that learn through the adapters themselves:
examples/train_pettingzoo.py and examples/train_openspiel.py (run here, reduced) and
examples/train_maskable_ppo.py (needs sb3-contrib and PyTorch, not installed here: only its
refusal is checked)."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")  # the rl extra; the shared environment has it
pytest.importorskip("pyspiel")

from uno_rules.sim.stats import wilson  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LINE = r": won (\d+)/(\d+) = "


@pytest.mark.parametrize(("script", "extra", "episodes", "games", "trained_line"), [
    ("train_pettingzoo.py", [], 200, 300, "against uniform random: trained on 200 rounds"),
    # OpenSpiel's rl_environment, its RandomAgent the opponent; the observation tensor: the
    # information state's costs about three times as much a step.
    ("train_openspiel.py", ["--observation"], 150, 200,
     "shared_actions=True), against RandomAgent: trained on 150 rounds")])
def test_example_learns_beyond_random(script: str, extra: list[str], episodes: int,
                                      games: int, trained_line: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Seeded, so deterministic: the trained policy's Wilson 95% lower bound lies above a
    uniformly random agent's win rate measured on the same rounds against the same opponent
    (an untrained policy, its ties drawn at random, plays as that random agent does)."""
    module = runpy.run_path(str(EXAMPLES / script))
    module["main"](["--episodes", str(episodes), "--eval", str(games), "--seed", "1", *extra])
    out = capsys.readouterr().out
    trained = re.search("trained policy" + LINE, out)
    uniform = re.search("uniform random" + LINE, out)
    assert trained and uniform, out
    assert trained_line in out
    assert wilson(int(trained[1]), games)[0] > int(uniform[1]) / games, out
    assert "interval is above uniform random's" in out


def test_openspiel_example_learns_from_information_states(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Its default, the perfect-recall information_state_tensor, in a few rounds: the agent
    learns (its weights move) and the report is printed."""
    import pyspiel

    module = runpy.run_path(str(EXAMPLES / "train_openspiel.py"))
    policy = module["main"](["--episodes", "4", "--eval", "4"])
    out = capsys.readouterr().out
    assert "trained on 4 rounds" in out and "uniform random: won " in out, out
    game = pyspiel.load_game("uno_rules", {"shared_actions": True})
    assert policy.weights.shape == (game.num_distinct_actions(),
                                    game.information_state_tensor_size() + 1)
    assert policy.weights.any()


def test_pettingzoo_example_refuses_in_one_line() -> None:
    module = runpy.run_path(str(EXAMPLES / "train_pettingzoo.py"))
    with pytest.raises(SystemExit, match=r"^train_pettingzoo: .*stacking\.yaml:\d+:\d+: "):
        module["main"](["--rulebook", "flip", "--house", "stacking"])


def test_maskable_ppo_example_says_what_it_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)  # as if not installed
    module = runpy.run_path(str(EXAMPLES / "train_maskable_ppo.py"))
    with pytest.raises(SystemExit, match="^train_maskable_ppo: needs sb3-contrib"):
        module["main"]([])



def test_openspiel_example_refuses_in_one_line() -> None:
    module = runpy.run_path(str(EXAMPLES / "train_openspiel.py"))
    with pytest.raises(SystemExit, match=r"^train_openspiel: .*stacking\.yaml:\d+:\d+: "):
        module["main"](["--rulebook", "flip", "--house", "stacking"])
    with pytest.raises(SystemExit, match=r"^train_openspiel: .*unknown setting 'nope'$"):
        module["main"](["--settings", "nope:1"])
