"""``uno-rules play`` driven in a pseudo-terminal (pexpect), as a person at a terminal
drives it: a whole match against agents, hot-seat, save and resume, random typing; and
its arguments. The answers come from the scripted player of tests/table_driver.py run
in-process on the same seed (the table is deterministic), so the terminal must show what
that run showed."""

from __future__ import annotations

import io
import json
import os
import random
import re
import sys
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner
from table_driver import Turn, run

from uno_rules.cli import cli
from uno_rules.play.record import read

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
MATCH = ["classic", "--players", "3", "--seed", "27", "--set", "target_score=100",
         "--agents", "play_first"]
IN_PROCESS = dict(rulebook="classic", players=3, seed=27, humans=[0],
                  sets={"target_score": 100}, agents="play_first")


def _spawn(args: list[str], cwd: Path, *, env: dict[str, str] | None = None) -> pexpect.spawn:
    """The real command in a pseudo-terminal (``python -m uno_rules``: the installed
    package, compiled or not)."""
    return pexpect.spawn(sys.executable, ["-m", "uno_rules", "play", *args], cwd=str(cwd),
                         env={**os.environ, "TERM": "xterm", **(env or {})},
                         encoding="utf-8", timeout=30, dimensions=(60, 200))


def _lines(text: str) -> list[str]:
    return [ANSI.sub("", line).rstrip() for line in text.replace("\r", "").split("\n")]


def _prompt(turn: Turn) -> str:
    """What to wait for before typing the turn's answer."""
    return turn.prompt or turn.screen[-1]  # a bare Enter prompt: the line above it


def _type(child: pexpect.spawn, turns: list[Turn]) -> list[list[str]]:
    """Type each turn's answer at its prompt; returns the screen before each prompt."""
    screens = []
    for turn in turns:
        child.expect_exact(_prompt(turn))
        screens.append(_lines(child.before))
        child.sendline(turn.answer)
    return screens


def _finish(child: pexpect.spawn) -> tuple[int, str]:
    child.expect(pexpect.EOF)
    rest = child.before
    child.close()
    return child.exitstatus, rest


def _actions(text: str) -> list[str]:
    return [line["action"] for line in map(json.loads, text.splitlines()) if "action" in line]


def test_a_whole_match_against_agents_in_a_terminal(tmp_path: Path) -> None:
    """Two rounds to 100 points: a wild's colour given by name, a Wild Draw Four
    challenged, UNO called (and once forgotten: caught), an agent caught by the human."""
    _, player = run(**IN_PROCESS)  # type: ignore[arg-type]
    child = _spawn([*MATCH, "--record", "game.jsonl"], tmp_path)
    screens = _type(child, player.turns)
    status, rest = _finish(child)
    assert status == 0
    text = [line for screen in screens for line in screen] + _lines(rest)
    answers = [t.answer for t in player.turns]
    colour = next(k for k, a in enumerate(answers) if a in ("red", "yellow", "green", "blue"))
    assert f"seat 0 chooses {answers[colour]}" in screens[colour + 1]
    challenge = answers.index("challenge")
    assert any(line.startswith("seat 0 challenges seat ") for line in screens[challenge + 1])
    assert any(line.endswith("catches seat 0 without UNO") for line in text)
    catch = next(k for k, a in enumerate(answers) if a.startswith("catch "))
    assert f"seat 0 catches seat {answers[catch].split()[1]} without UNO" in \
        screens[catch + 1]
    assert any(t.prompt.startswith("press Enter to deal round 2") for t in player.turns)
    assert any(line.startswith("match won by seat") for line in _lines(rest))
    record = read(tmp_path / "game.jsonl")
    called = [s["action"] for s in record.steps if s["action"].endswith(" uno")]
    assert any(a.startswith("0 play ") for a in called)
    assert record.replay().over


def test_the_terminal_is_coloured_unless_told_not_to(tmp_path: Path) -> None:
    for args, env, coloured in (([], {}, True), (["--no-color"], {}, False),
                                ([], {"NO_COLOR": "1"}, False)):
        child = _spawn([*MATCH, *args], tmp_path, env=env)
        child.expect_exact("seat 0> ")
        shown = child.before
        child.sendline("q")
        child.expect_exact("don't save): ")
        child.sendline("")
        assert _finish(child)[0] == 0
        assert ("\x1b[3" in shown) is coloured  # a card's colour: SGR 31-37


def test_the_save_prompt_takes_no_for_an_answer_and_asks_before_replacing(
        tmp_path: Path) -> None:
    """`n` at "save the game?" saves nothing (it once saved a file named n); a name that
    exists is replaced only on a yes."""
    kept = tmp_path / "kept.txt"
    kept.write_text("mine")
    child = _spawn(MATCH, tmp_path)
    child.expect_exact("seat 0> ")
    child.sendline("q")
    child.expect_exact("don't save): ")
    child.sendline("n")
    assert _finish(child)[0] == 0 and not (tmp_path / "n").exists()
    child = _spawn(MATCH, tmp_path)
    child.expect_exact("seat 0> ")
    child.sendline("q")
    child.expect_exact("don't save): ")
    child.sendline("kept.txt")
    child.expect_exact("kept.txt exists: replace it? (y/N) ")
    child.sendline("")
    child.expect_exact("don't save): ")
    child.sendline("saved.jsonl")
    assert _finish(child)[0] == 0
    assert kept.read_text() == "mine" and read(tmp_path / "saved.jsonl").steps == []


def test_hot_seat_never_shows_a_hand_to_the_other_player(tmp_path: Path) -> None:
    """Seats 0 and 1 at one keyboard: the screen is cleared before every "pass to seat N",
    and what is printed from there to N's prompt holds none of the other's hand lines."""
    _, player = run("classic", 3, 8, [0, 1], house=["jump_in"], one_round=True)
    child = _spawn(["classic", "--house", "jump_in", "--players", "3", "--seed", "8",
                    "--humans", "0,1", "--round", "--agents", "greedy"], tmp_path)
    raw = []
    for turn in player.turns:
        child.expect_exact(_prompt(turn))
        raw.append(child.before)
        child.sendline(turn.answer)
    status, rest = _finish(child)
    assert status == 0 and "round 1 over" in rest
    passes = 0
    for k, turn in enumerate(player.turns):
        if turn.prompt.startswith("seat ") and turn.prompt.endswith("> "):
            seat = int(turn.prompt.split()[1].rstrip(">"))
            other = 1 - seat
            segment = _lines(raw[k])
            assert f"your hand (seat {seat}, " in "\n".join(segment)
            assert not turn.private[other] & set(segment), (k, turn.private[other])
        elif not turn.prompt:  # pass the keyboard: cleared first, no hand at all
            passes += 1
            assert turn.screen[-1] in ("pass to seat 0 — press Enter",
                                       "pass to seat 1 — press Enter")
            assert "\x1b[2J" in raw[k] and "your hand" not in raw[k].split("\x1b[2J")[-1]
        elif turn.prompt.startswith("out of turn"):  # the window: public, no hand
            cleared = _lines(raw[k].split("\x1b[2J")[-1])
            assert not (turn.private[0] | turn.private[1]) & set(cleared)
            assert not any(line.startswith("your hand") for line in cleared)
    assert passes >= 4 and all(t.private[0] and t.private[1] for t in player.turns)
    windows = [t for t in player.turns if t.prompt.startswith("out of turn")]
    assert windows  # jump-ins in the rules: the window after cards played


def test_save_and_resume_go_on_identically(tmp_path: Path) -> None:
    """Quit mid-round (saving with --save), resume, finish: the record is the record of
    the game played without a break."""
    whole = io.StringIO()
    _, player = run(**IN_PROCESS, record=whole)  # type: ignore[arg-type]
    stop = 25
    assert player.turns[stop].prompt == "seat 0> "
    child = _spawn([*MATCH, "--save", "saved.jsonl"], tmp_path)
    _type(child, player.turns[:stop])
    child.expect_exact("seat 0> ")
    child.sendline("q")
    status, rest = _finish(child)
    assert status == 0 and "saved in saved.jsonl" in rest
    assert not read(tmp_path / "saved.jsonl").ended
    child = _spawn(["--resume", "saved.jsonl"], tmp_path)
    screens = _type(child, player.turns[stop:])
    status, rest = _finish(child)
    assert status == 0 and "match won by seat" in rest
    # the table after resuming is the one left
    assert [line for line in screens[0] if line.startswith("your hand")] == \
        [line for line in player.turns[stop].screen if line.startswith("your hand")]
    saved = (tmp_path / "saved.jsonl").read_text()
    assert _actions(saved) == _actions(whole.getvalue())
    assert read(tmp_path / "saved.jsonl").ended


def test_random_typing_in_a_terminal_never_breaks_it(tmp_path: Path) -> None:
    """Random lines at every prompt of a hot-seat game with jump-ins: the command ends
    with 0 or 1, never a traceback."""
    rng = random.Random(18)
    words = ["", "1", "2", "3", "?", "help", "draw", "red", "wild", "uno", "catch 1", "0",
             "9" * 5000, "²", "١", "jump in red 5", "pass", "blue 7 uno", "-1", "1.5"]
    child = _spawn(["classic", "--house", "jump_in", "--players", "3", "--seed", "3",
                    "--humans", "0,2"], tmp_path)
    prompts = [r"seat \d+> ", r"press Enter", r"go on: ", r"\(q quits\) "]
    for _ in range(60):
        if child.expect([*prompts, pexpect.EOF]) == len(prompts):
            break
        line = rng.choice(words) if rng.random() < 0.7 else "".join(
            chr(rng.choice([rng.randrange(32, 127), rng.randrange(160, 0x2FFF)]))
            for _ in range(rng.randrange(1, 20)))
        child.sendline(line.replace("q", "k"))
    else:
        child.sendline("q")
        child.expect_exact("don't save): ")
        child.sendline("")
    status, rest = _finish(child)
    assert status in (0, 1) and "Traceback" not in rest


def test_arguments() -> None:
    runner = CliRunner()
    bad = runner.invoke(cli, ["play", "classic", "--players", "3", "--human", "5"])
    assert bad.exit_code == 1 and "seats are 0 to 2" in bad.output
    bad = runner.invoke(cli, ["play", "classic", "--players", "3", "--humans", "0,x"])
    assert bad.exit_code == 1 and "expected seat numbers" in bad.output
    long = runner.invoke(cli, ["play", "classic", "--humans", "9" * 5000])  # bench/hostile
    assert long.exit_code == 1 and "expected seat numbers" in long.output and \
        len(long.output) < 200
    odd = runner.invoke(cli, ["play", "teams", "--players", "5"])
    assert odd.exit_code == 1 and "4, 6, 8" in odd.output
    agent = runner.invoke(cli, ["play", "classic", "--agents", "nobody"])
    assert agent.exit_code == 1 and "unknown agent 'nobody'" in agent.output
    none = runner.invoke(cli, ["play"])
    assert none.exit_code == 1 and "missing RULEBOOK" in none.output


def test_a_seed_is_shown_when_none_is_given() -> None:
    result = CliRunner().invoke(cli, ["play", "classic", "--players", "2", "--round",
                                      "--humans", "none"])
    assert result.exit_code == 0 and "round 1 over" in result.output
    seed = int(re.search(r"Seed (\d+)\.", result.output).group(1))  # type: ignore[union-attr]
    again = CliRunner().invoke(cli, ["play", "classic", "--players", "2", "--round",
                                     "--humans", "none", "--seed", str(seed)])
    assert again.output == result.output


def test_resume_refuses_what_it_cannot_go_on_with(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(cli, ["play", "--resume", str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 1 and len(missing.output.splitlines()) == 1
    huge = tmp_path / "huge.jsonl"  # as bench/hostile_cases/session.py: refused unread
    with huge.open("wb") as f:
        f.truncate(1 << 30)
    big = runner.invoke(cli, ["play", "--resume", str(huge)])
    assert big.exit_code == 1 and "too large for a record" in big.output
    saved = tmp_path / "saved.jsonl"
    quit_ = runner.invoke(cli, ["play", *MATCH, "--save", str(saved)], input="1\n1\nq\n")
    assert quit_.exit_code == 0 and saved.exists()
    again = runner.invoke(cli, ["play", "--resume", str(saved), "--seed", "3"])
    assert again.exit_code == 1 and "drop --seed" in again.output
    lines = saved.read_text().splitlines()
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join([lines[0], lines[1].replace('"seed": ', '"seed": 1'),
                                   *lines[2:]]) + "\n")
    bad = runner.invoke(cli, ["play", "--resume", str(tampered)])
    assert bad.exit_code == 1 and len(bad.output.splitlines()) == 1, bad.output
    finished = tmp_path / "over.jsonl"
    done = runner.invoke(cli, ["play", "classic", "--players", "2", "--round", "--humans",
                               "none", "--seed", "1", "--record", str(finished)])
    assert done.exit_code == 0
    over = runner.invoke(cli, ["play", "--resume", str(finished)])
    assert over.exit_code == 1 and "that game is over" in over.output


def test_quit_asks_where_to_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, ["play", *MATCH], input="q\nmine.jsonl\n")
    assert result.exit_code == 0 and "saved in mine.jsonl" in result.output
    assert Path("mine.jsonl").exists()
    skipped = runner.invoke(cli, ["play", *MATCH], input="q\n\n")
    assert skipped.exit_code == 0 and "saved" not in skipped.output
    nowhere = runner.invoke(cli, ["play", *MATCH], input="q\nno/such/dir/x.jsonl\n")
    assert nowhere.exit_code == 1 and "no/such/dir" in nowhere.output



def test_an_agents_multi_line_error_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """cheats:Raises fails with "no idea\\nwhat to do": said on one line, the newline
    escaped (it was printed as two lines)."""
    monkeypatch.chdir(Path(__file__).parent / "hostile" / "agents")
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".")])
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    result = CliRunner().invoke(cli, ["play", "classic", "--players", "2", "--round",
                                      "--humans", "none", "--seed", "1",
                                      "--agents", "cheats:Raises"])
    assert result.exit_code == 1, result.output
    said = result.output.splitlines()[-1]
    assert said == r"agent 'cheats:Raises' at seat 0 failed: ValueError: no idea\nwhat to do"
    assert not any(line.startswith("what to do") for line in result.output.splitlines())


def test_the_rulebooks_title_is_shown_escaped() -> None:
    path = Path(__file__).parent / "hostile" / "records" / "line_breaks.yaml"
    result = CliRunner().invoke(cli, ["play", str(path), "--players", "2", "--round",
                                      "--humans", "none", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Line\\rbreaks\\n# forged heading\\t: 2 players, one round")
    assert not [c for c in result.output if not c.isprintable() and c != "\n"]
