"""Hostile input: every bad file, value or rulebook gets a one-line problem (exit 1) or a
typed error, never a hang, a crash or an internal error. The files are in tests/hostile/
(each names its expected problem on its first line); others are made here. Their time and
memory are measured by bench/hostile.py, which CI runs."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import uno_rules
from uno_rules import game as game_module
from uno_rules.cli import cli
from uno_rules.loader import check

HERE = Path(__file__).resolve().parent
FILES = sorted((HERE / "hostile").glob("*.yaml"))
runner = CliRunner()


def _expected(path: Path) -> str | None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = re.match(r"# expect: (.*)", first)
    return match.group(1) if match else None


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_hostile_rulebook_files(path: Path) -> None:
    expected = _expected(path)
    rulebook, problems = check(path)
    if expected is None:  # loads, and deals without looping
        assert rulebook is not None, problems
        game = rulebook.new_game(4, 1)
        assert game.decision is not None
    else:
        assert rulebook is None
        assert any(str(p).startswith(f"{path}:{expected}") for p in problems), problems


def _one_line(args: list[str]) -> str:
    result = runner.invoke(cli, args)
    assert result.exit_code == 1, (args, result.output)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_are_not_read(path: str) -> None:
    if not os.path.exists(path):
        pytest.skip(f"{path} does not exist on this system")
    assert "can't read file: not a regular file" in _one_line(["validate", path])


def test_a_fifo_is_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert "not a regular file" in _one_line(["validate", str(fifo)])
    result = runner.invoke(cli, ["scenario", str(fifo)])  # a scenario file: malformed, 2
    assert result.exit_code == 2 and "not a regular file" in result.output


def test_a_symlink_to_a_device_is_not_read(tmp_path: Path) -> None:
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    base = tmp_path / "base.yaml"
    base.write_text("name: x\nextends: zero.yaml\n")
    assert "not a regular file" in _one_line(["validate", str(link)])
    assert "not a regular file" in _one_line(["validate", str(base)])


def test_a_file_over_the_limit_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("name: big\n# " + "x" * 2_000_000 + "\n")
    line = _one_line(["validate", str(big)])
    assert "more than the limit of 1048576" in line and "--max-bytes" in line
    allowed = runner.invoke(cli, ["--max-bytes", "3000000", "validate", str(big)])
    assert "more than the limit" not in allowed.output
    with pytest.raises(uno_rules.RulebookError, match="more than the limit of 1000"):
        uno_rules.load_rulebook(HERE.parent / "uno_rules" / "rulebooks" / "classic.yaml",
                                max_bytes=1000)


@pytest.mark.parametrize(("data", "message"), [
    ("name: x\n".encode("utf-16"), "not UTF-8 text (byte 0xff at offset 0)"),
    (b"name: \xe9t\xe9\n", "not UTF-8 text (byte 0xe9 at offset 6)"),
])
def test_text_that_is_not_utf8(tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "enc.yaml"
    path.write_bytes(data)
    assert message in _one_line(["validate", str(path)])


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("name: deep\nextends: classic\ndescription: " + "[" * 500 + "]" * 500
                    + "\n")
    assert "nested more than 64 levels deep" in _one_line(["validate", str(path)])
    flow = tmp_path / "deeper.yaml"
    flow.write_text("a: " + "[" * 5000 + "]" * 5000 + "\n")
    assert "nested more than 64 levels deep" in _one_line(["validate", str(flow)])


def test_a_runaway_effect_is_stopped_with_a_typed_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """No shipped primitive can loop (the loader refuses draws in after_draw; first-card
    rules stop once every card has come up); the bound is tested by lowering it."""
    rulebook = uno_rules.load_rulebook("classic")
    position = uno_rules.position.Position(hands=[["red draw_two", "red 1"], ["blue 1"]],
                                           discard=["red 5"], draw_pile=["green 1"] * 0)
    game = uno_rules.position.game_from_position(rulebook, 2, position)
    monkeypatch.setattr(game_module, "RUN_BUDGET", 1)
    with pytest.raises(uno_rules.RunawayEffect, match="the effect of red draw_two ran more "
                                                      "than 1 steps"):
        game.apply("0 play red draw_two")
    assert game.over  # stopped: no later action is taken
    with pytest.raises(uno_rules.IllegalAction):
        game.apply("1 draw")


def test_a_number_too_long_to_read(tmp_path: Path) -> None:
    path = tmp_path / "long.yaml"
    path.write_text("name: long\nextends: classic\nsettings:\n  hand_size: " + "9" * 5000 + "\n")
    assert f"{path}:4:14: a number with 5000 digits is too long" in _one_line(
        ["validate", str(path)])


def test_a_long_extends_chain(tmp_path: Path) -> None:
    for i in range(200):
        base = "classic" if i == 0 else f"c{i - 1}.yaml"
        (tmp_path / f"c{i}.yaml").write_text(f"name: c{i}\nextends: {base}\n")
    assert "a chain of more than 32 rulebooks extending each other" in _one_line(
        ["validate", str(tmp_path / "c199.yaml")])
    assert runner.invoke(cli, ["validate", str(tmp_path / "c20.yaml")]).exit_code == 0


@pytest.mark.parametrize(("step", "message"), [
    ("{seat: 0, give: 5}", "expected array, got integer 5"),
    ("{seat: 0, give: null}", "expected array, got null"),
    ("{seat: 0, play: [red, 5]}", "expected string, got list"),
    ("{seat: zero, draw: true}", "expected integer, got string 'zero'"),
])
def test_scenario_step_values_of_the_wrong_type(tmp_path: Path, step: str,
                                                message: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(f"rulebook: classic\nplayers: 2\nsteps: [{step}]\n")
    result = runner.invoke(cli, ["scenario", str(path)])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}:3:") and message in lines[0], lines
