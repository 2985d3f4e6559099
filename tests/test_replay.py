"""The ``uno-rules replay`` command (uno_rules.table.replay): a record shown step by step as
one seat saw it (no other seat's hand), every hand with --open, stopping at --to."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner
from test_record import _rechain

import uno_rules
from uno_rules.cli import cli
from uno_rules.cli.replay import STEP_PROMPT
from uno_rules.play.match import Match
from uno_rules.play.record import Recorder, read
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


def _seated(path: Path, seats: list[str], players: int = 3) -> Path:
    """A round of classic recorded with these seat names (a record's own text)."""
    match = Match(uno_rules.load_rulebook("classic"), players, 5)
    rng = random.Random(5)
    with path.open("w") as out:
        recorder = Recorder(out, match, seats, one_round=True)
        for _ in range(12):
            action = rng.choice(match.game.legal_actions())
            match.game.apply(action)
            recorder.step(action)
    return path


def test_a_records_text_reaches_the_terminal_escaped(tmp_path: Path) -> None:
    """Seat names holding BEL, a newline and an escape sequence: shown as escapes, never
    acted on; the output's only control characters are its own line ends."""
    path = _seated(tmp_path / "forged.jsonl", ["bell\x07", "x\nstep 99: 0 play wild",
                                               "\x1b[2Jclear"])
    for args in ([], ["--open"], ["--seat", "1"]):
        out = _run(str(path), *args)
        assert not [c for c in out if not c.isprintable() and c != "\n"], args
        assert "seats: 0: bell\\x07, 1: x\\nstep 99: 0 play wild, 2: \\x1b[2Jclear" in out
        assert "\nstep 99" not in out


def test_a_record_naming_fewer_seats_than_it_plays_is_refused(tmp_path: Path) -> None:
    path = _seated(tmp_path / "short.jsonl", ["human", "greedy", "greedy"])
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["seats"] = ["human", "greedy"]  # 2 names for 3 players, the chain made again
    path.write_text("\n".join(_rechain([json.dumps(header), *lines[1:]])) + "\n")
    result = runner.invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1, result.output
    assert result.output == f"{path}:1: 2 seat names for 3 players: a record names every " \
                            "seat, or none\n"


def test_a_terminal_steps_by_default_and_a_pipe_gets_everything(recorded: Path) -> None:
    """``replay`` waits for Enter after each step on a terminal (q stops it), unless
    ``--no-step``; piped, it prints the whole record at once, ``--step`` or not."""
    steps = len(read(recorded).steps)
    for extra in ((), ("--step",)):
        piped = _run(str(recorded), *extra)
        assert STEP_PROMPT.strip() not in piped and f"\nstep {steps}: " in piped
    child = pexpect.spawn(sys.executable, ["-m", "uno_rules", "replay", str(recorded)],
                          encoding="utf-8", timeout=60, dimensions=(50, 200))
    child.expect_exact(STEP_PROMPT)  # the deal, then a wait
    assert "\nstep 1: " not in child.before.replace("\r", "")
    child.sendline("")
    child.expect_exact(STEP_PROMPT)
    assert "step 1: " in child.before and "step 2: " not in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "step 2: " not in child.before
    whole = pexpect.spawn(sys.executable, ["-m", "uno_rules", "replay", "--no-step",
                                           str(recorded)], encoding="utf-8", timeout=60)
    whole.expect(pexpect.EOF)
    whole.close()
    assert whole.exitstatus == 0 and STEP_PROMPT.strip() not in whole.before
    assert f"step {steps}: " in whole.before
