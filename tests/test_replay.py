"""The ``uno-rules replay`` command (uno_rules.table.replay): a record shown step by step as
one seat saw it (no other seat's hand), every hand with --open, stopping at --to."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import uno_rules
from uno_rules.cli import cli
from uno_rules.match import Match
from uno_rules.record import Recorder, read
from uno_rules.table.replay import action_seen
from uno_rules.table.screen import label

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


def _private(path: Path, seat: int, to: int) -> tuple[set[str], set[str]]:
    """Number cards held by other seats to step ``to`` that ``seat`` never held and nobody
    played (so only a leak could show them to it), and the cards it held."""
    others: set[str] = set()
    mine: set[str] = set()
    public: set[str] = set()

    def look(match: Match, line: dict[str, object]) -> None:
        game = match.game
        for s in range(game.players):
            names = {label(n) for n in game.view(s)["hand"]}
            (mine if s == seat else others).update(names)
        for event in game.log or ():
            if event[0] in ("play", "first"):
                public.add(label(game.rulebook.faces[event[-1] if event[0] == "first"
                                                     else event[2]].name))

    read(path).replay(to=to, on_line=look)
    number = re.compile(r"^[a-z]+ \d$")
    return {n for n in others - mine - public if number.match(n)}, mine


def _run(*args: str) -> str:
    result = runner.invoke(cli, ["replay", *args])
    assert result.exit_code == 0, result.output
    return result.output


def _shown(name: str, out: str) -> bool:
    return re.search(rf"(?<![\w]){name}(?![\w])", out) is not None


def test_a_seat_sees_its_own_hand_and_never_another(recorded: Path) -> None:
    out = _run(str(recorded), "--seat", "0", "--to", "8")
    assert "as seat 0 saw it" in out and "your hand (seat 0, 7 cards):" in out
    private, mine = _private(recorded, 0, 8)
    assert private, "the test needs cards only other seats held"
    assert not [n for n in private if _shown(n, out)], "another seat's card shown to seat 0"
    assert all(_shown(n, out) for n in mine)


def test_open_shows_every_hand(recorded: Path) -> None:
    out = _run(str(recorded), "--open", "--to", "8")
    assert "every hand is shown (--open)" in out and "your hand" not in out
    private, _ = _private(recorded, 0, 8)
    assert private and all(_shown(n, out) for n in private)


def test_the_default_seat_is_the_first_human(recorded: Path) -> None:
    out = _run(str(recorded), "--to", "2")
    assert "as seat 2 saw it" in out and "your hand (seat 2, " in out
    assert "your hand (seat 0" not in out and "seat 2 (you)" in out


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
