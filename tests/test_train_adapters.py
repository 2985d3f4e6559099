"""The training examples that learn through the adapters themselves:
examples/train_pettingzoo.py (run here, reduced) and examples/train_maskable_ppo.py (needs
sb3-contrib and PyTorch, not installed here: only its refusal is checked)."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")  # the rl extra; the shared environment has it

from uno_rules.sim.stats import wilson  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LINE = r": won (\d+)/(\d+) = "


def test_pettingzoo_example_learns_beyond_random(capsys: pytest.CaptureFixture[str]) -> None:
    """Seeded, so deterministic: the trained policy's Wilson 95% lower bound lies above a
    uniformly random agent's win rate measured on the same rounds against the same opponent
    (an untrained policy, its ties drawn at random, plays as that random agent does)."""
    module = runpy.run_path(str(EXAMPLES / "train_pettingzoo.py"))
    module["main"](["--episodes", "200", "--eval", "300", "--seed", "1"])
    out = capsys.readouterr().out
    trained = re.search("trained policy" + LINE, out)
    uniform = re.search("uniform random" + LINE, out)
    assert trained and uniform, out
    assert "trained on 200 rounds" in out
    assert wilson(int(trained[1]), 300)[0] > int(uniform[1]) / 300, out
    assert "interval is above uniform random's" in out


def test_pettingzoo_example_refuses_in_one_line() -> None:
    module = runpy.run_path(str(EXAMPLES / "train_pettingzoo.py"))
    with pytest.raises(SystemExit, match=r"^train_pettingzoo: .*stacking\.yaml:\d+:\d+: "):
        module["main"](["--rulebook", "flip", "--house", "stacking"])


def test_maskable_ppo_example_says_what_it_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)  # as if not installed
    module = runpy.run_path(str(EXAMPLES / "train_maskable_ppo.py"))
    with pytest.raises(SystemExit, match="^train_maskable_ppo: needs sb3-contrib"):
        module["main"]([])
