"""Every scenario file under tests/scenarios/ passes; the runner reports failures honestly."""

from __future__ import annotations

from pathlib import Path

import pytest

from uno_rules.errors import ScenarioError
from uno_rules.scenario import run_file

HERE = Path(__file__).resolve().parent
FILES = sorted((HERE / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(HERE / "scenarios")))
def test_scenario_file(path: Path) -> None:
    outcomes = run_file(path)
    assert outcomes, "a scenario file with no scenario"
    failed = [str(o) for o in outcomes if not o.passed]
    assert not failed, "\n".join(failed)


def test_there_are_classic_scenarios() -> None:
    assert len([p for p in FILES if p.parent.name == "classic"]) >= 6


def test_a_wrong_expectation_fails_naming_the_step(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("rulebook: classic\nplayers: 2\nname: wrong\nstate:\n"
                 "  hands: [[red 1, red 2], [blue 1]]\n  discard: [red 3]\n"
                 "steps:\n  - {seat: 0, play: red 1}\n  - expect: {turn: 0}\n")
    [outcome] = run_file(f)
    assert not outcome.passed
    assert outcome.message.startswith("step 2: expected turn 0, got 1")


def test_a_step_for_the_wrong_seat_fails_naming_what_was_pending(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("rulebook: classic\nplayers: 2\nname: wrong seat\nstate:\n"
                 "  hands: [[red 1, red 2], [blue 1]]\n  discard: [red 3]\n"
                 "steps:\n  - {seat: 1, draw: true}\n")
    [outcome] = run_file(f)
    assert not outcome.passed
    assert "pending: seat 0 to turn" in outcome.message


def test_a_reject_of_a_legal_action_fails(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("rulebook: classic\nplayers: 2\nname: r\nstate:\n"
                 "  hands: [[red 1, red 2], [blue 1]]\n  discard: [red 3]\n"
                 "steps:\n  - reject: {seat: 0, play: red 1}\n")
    [outcome] = run_file(f)
    assert not outcome.passed and "was taken" in outcome.message


@pytest.mark.parametrize("text, where, message", [
    ("rulebook: classic\nplayers: 2\nname: x\nsteps:\n  - {seat: 0, plya: red 1}\n",
     ":5:15:", "unknown step key 'plya'; did you mean 'play'?"),
    ("rulebook: classic\nplayers: two\nname: x\n", ":2:10:", "expected integer"),
    ("rulebook: classic\nplayers: 2\nname: x\nstate:\n  hands: [[red 1], [purple 9]]\n",
     ":5:3:", "unknown card 'purple 9'"),
    ("rulebook: classik\nplayers: 2\nname: x\n", ":1:1:", "did you mean 'classic'"),
    ("rulebook: classic\nplayers: 2\nname: x\nstate:\n  hands: [[wild, wild, wild, wild, "
     "wild], []]\n", ":5:3:", "more copies of 'wild' than the deck has"),
    ("rulebook: classic\nplayers: 2\nname: x\nsteps: [{expect: {trun: 1}}]\n", ":4:19:",
     "unknown key 'trun'; did you mean 'turn'?"),
    ("rulebook: classic\nplayers: [2\n", ":3:1:", "YAML syntax error"),
])
def test_malformed_files_are_located(tmp_path: Path, text: str, where: str, message: str) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(text)
    with pytest.raises(ScenarioError) as info:
        run_file(f)
    line = str(info.value).splitlines()[0]
    assert line.startswith(str(f) + where), line
    assert message in line
