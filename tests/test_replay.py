"""The ``uno-rules replay`` command (uno_rules.table.replay): a record shown step by step as
one seat saw it (no other seat's hand), every hand with --open, stopping at --to."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import uno_rules
from uno_rules.cli import cli
from uno_rules.match import Match
from uno_rules.record import Recorder, read
from uno_rules.table.replay import action_seen

runner = CliRunner()


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One round of classic at 3 seats, seat 2 the human."""
    rb = uno_rules.load_rulebook("classic")
    path = tmp_path_factory.mktemp("replay") / "round.jsonl"
    match = Match(rb, 3, 12)
    rng = random.Random(4)
    with path.open("w") as out:
        recorder = Recorder(out, match, ["greedy", "greedy", "human"], one_round=True)
        while not match.game.over:
            action = rng.choice(match.game.legal_actions())
            match.game.apply(action)
            recorder.step(action)
        recorder.end()
    return path


def _hands(path: Path, seat: int, to: int | None = None) -> list[str]:
    """Seat ``seat``'s hand after the deal and after each step, as a hand line lists it."""
    hands: list[str] = []
    record = read(path)
    record.replay(to=to, on_line=lambda m, line: hands.append(
        ", ".join(m.game.view(seat)["hand"])))
    return [h for h in hands if h.count(",") >= 2]  # three cards or more: never by chance


def _run(*args: str) -> str:
    result = runner.invoke(cli, ["replay", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_seat_sees_its_own_hand_and_never_another(recorded: Path) -> None:
    out = _run(str(recorded), "--seat", "0")
    assert "as seat 0 saw it" in out
    own = _hands(recorded, 0)
    assert own and all(f"your hand (seat 0): {h}" in out for h in own)
    for other in (1, 2):
        hands = _hands(recorded, other)
        assert hands
        assert not any(h in out for h in hands), f"seat {other}'s hand shown to seat 0"
    assert "seat 1's hand" not in out


def test_open_shows_every_hand(recorded: Path) -> None:
    out = _run(str(recorded), "--open")
    assert "every hand is shown (--open)" in out
    for seat in range(3):
        hands = _hands(recorded, seat)
        assert hands and all(f"seat {seat}'s hand: {h}" in out for h in hands)


def test_the_default_seat_is_the_first_human(recorded: Path) -> None:
    out = _run(str(recorded), "--to", "2")
    assert "as seat 2 saw it" in out and "your hand (seat 2)" in out
    assert "seat 0's hand" not in out and "your hand (seat 0)" not in out


def test_to_stops_after_that_step(recorded: Path) -> None:
    out = _run(str(recorded), "--to", "5")
    assert "\nstep 5: " in out and "\nstep 6: " not in out
    assert "round over" not in out
    out = _run(str(recorded), "--to", "0")
    assert "first card" in out and "\nstep 1: " not in out
    whole = _run(str(recorded))
    steps = len(read(recorded).steps)
    assert f"\nstep {steps}: " in whole and "round over: seat(s)" in whole


def test_a_seat_out_of_range_is_one_line(recorded: Path) -> None:
    result = runner.invoke(cli, ["replay", str(recorded), "--seat", "3"])
    assert result.exit_code == 1
    assert result.output.strip() == "--seat 3: seats are 0 to 2"


def test_a_given_card_is_hidden_from_the_other_seats() -> None:
    line = {"step": 4, "action": "1 give red 5", "events": []}
    assert action_seen(line, 0) == "1 give a card"
    assert action_seen(line, 1) == "1 give red 5"
    assert action_seen(line, None) == "1 give red 5"
    assert action_seen({"action": "1 play red 5"}, 0) == "1 play red 5"
