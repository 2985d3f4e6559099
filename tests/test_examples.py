"""The README's, docs/scenarios.md's and examples/' code runs as shown."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_embed_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(ROOT / "examples" / "embed.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert re.search(r"Result\(winners=\(\d,\), points=\d+\)", out)


def test_readme_python_blocks_run(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102 - our own documentation
    assert "Result(winners=" in capsys.readouterr().out


SCENARIO_DOC = ROOT / "docs" / "scenarios.md"


def _scenario_blocks() -> list[str]:
    """The YAML blocks of docs/scenarios.md that are whole scenario files."""
    blocks = re.findall(r"```yaml\n(.*?)```", SCENARIO_DOC.read_text(), re.S)
    return [b for b in blocks if "rulebook:" in b and ("scenarios:" in b or "steps:" in b)]


def test_scenario_doc_examples_pass(tmp_path: Path) -> None:
    from uno_rules.authoring.scenario import run_file

    blocks = _scenario_blocks()
    assert len(blocks) >= 5
    # the rulebook a block names as a file is examples/'s
    (tmp_path / "two_piles.yaml").write_text((ROOT / "examples" / "two_piles.yaml").read_text())
    for i, block in enumerate(blocks):
        path = tmp_path / f"block{i}.yaml"
        path.write_text(block)
        outcomes = run_file(path)
        assert outcomes and all(o.passed for o in outcomes), (block, [str(o) for o in outcomes])


def test_scenario_doc_failure_sample_is_real(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The FAIL line docs/scenarios.md shows is what the runner prints for the change it
    describes (its first worked example without `uno: false`)."""
    from uno_rules.authoring.scenario import run_file

    [block] = [b for b in _scenario_blocks() if "a forgotten UNO is caught" in b]
    monkeypatch.chdir(tmp_path)
    Path("my_scenarios.yaml").write_text(block.replace(", uno: false", ""))
    [outcome] = run_file("my_scenarios.yaml")
    assert not outcome.passed
    assert f"\n{outcome}\n" in SCENARIO_DOC.read_text()


def test_scenario_doc_python_blocks_run(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```python\n(.*?)```", SCENARIO_DOC.read_text(), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/scenarios.md", "exec"), {})  # noqa: S102 - our own docs
    out = capsys.readouterr().out
    assert "PASS " in out and "FAIL" not in out


def test_scenarios_tour_example_passes() -> None:
    from uno_rules.authoring.scenario import run_file

    outcomes = run_file(ROOT / "examples" / "scenarios_tour.yaml")
    assert len(outcomes) >= 5 and all(o.passed for o in outcomes), [str(o) for o in outcomes]


def test_two_discard_piles_example() -> None:
    """examples/two_piles.yaml: several discard piles are a rulebook setting, not code."""
    import random

    import uno_rules
    from uno_rules.authoring.scenario import run_file
    from uno_rules.sim.simulate import random_moves

    outcomes = run_file(ROOT / "examples" / "two_piles_scenarios.yaml")
    assert outcomes and all(o.passed for o in outcomes), [str(o) for o in outcomes]
    rulebook = uno_rules.load_rulebook(ROOT / "examples" / "two_piles.yaml")
    piles_played = set()
    for seed in range(20):
        game = rulebook.new_game(4, seed)
        assert len(game._discard_piles()) == 2 and all(game._discard_piles())
        while not game.over and len(game.history) < 2000:
            options = game.decision.options  # type: ignore[union-attr]
            game.apply(random.Random(seed + len(game.history)).choice(options))
            piles_played |= {a.pile for a in options if a.kind == "play"}
            assert sorted(game._all_cards()) == sorted(rulebook.deck)
        restored = rulebook.restore(game.snapshot())
        assert restored.snapshot() == game.snapshot()
    assert piles_played == {0, 1}
    game = rulebook.new_game(3, 1)
    random_moves(game, random.Random(1), 30)
    twin = game.clone()
    random_moves(game, random.Random(2), 300)
    random_moves(twin, random.Random(2), 300)
    assert twin.snapshot() == game.snapshot()


def test_train_policy_example_learns(capsys: pytest.CaptureFixture[str]) -> None:
    """The reduced run of examples/train_policy.py (the full one: docs/embedding.md): a
    policy that learned nothing plays as uniform random does (untrained, its ties are drawn
    at random, on the same rounds), so winning clearly more than uniform is learning."""
    module = runpy.run_path(str(ROOT / "examples" / "train_policy.py"))
    module["main"](["--episodes", "300", "--eval", "300", "--seed", "1"])
    out = capsys.readouterr().out
    line = r": won (\d+)/300 = [\d.]+% \(95% interval ([\d.]+)%-([\d.]+)%\)"
    trained = re.search("trained policy" + line, out)
    uniform = re.search("uniform random" + line, out)
    assert trained and uniform, out
    assert "trained on 300 rounds" in out and "fair share 50.0%" in out
    # Its interval lies wholly above uniform's (about 60% against 6% in this run).
    assert float(trained[2]) > float(uniform[3]), out


def test_train_policy_example_refuses_in_one_line() -> None:
    module = runpy.run_path(str(ROOT / "examples" / "train_policy.py"))
    with pytest.raises(SystemExit, match="teams is for 4, 6, 8 players; this example plays 2"):
        module["main"](["--rulebook", "teams", "--house", "none"])
    with pytest.raises(SystemExit, match=r"^train_policy: .*stacking\.yaml:\d+:\d+: "):
        module["main"](["--rulebook", "flip"])  # Flip has no draw two to stack
