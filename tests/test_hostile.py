"""Hostile input: every bad file, value or rulebook gets a one-line problem (exit 1) or a
typed error, never a hang, a crash or an internal error. The files are in tests/hostile/
(each names its expected problem on its first line); others are made here. Their time and
memory are measured by bench/hostile.py, which CI runs."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import uno_rules
from uno_rules.cli import cli
from uno_rules.engine import game as game_module
from uno_rules.load.loader import check, is_scenario_file
from uno_rules.sim.simulate import random_moves

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
    # named inside a file, the link leads outside its folder: refused before any look at it
    assert "extends 'zero.yaml': outside this file's folder" in _one_line(["validate", str(base)])
    assert "not a regular file" in _one_line(["--root", "/", "validate", str(base)])


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
    position = uno_rules.engine.position.Position(hands=[["red draw_two", "red 1"], ["blue 1"]],
                                           discard=["red 5"], draw_pile=["green 1"] * 0)
    game = uno_rules.engine.position.game_from_position(rulebook, 2, position)
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
    ("{seat: 0, give: 5}", "expected a list, got integer 5"),
    ("{seat: 0, give: null}", "expected a list, got null"),
    ("{seat: 0, play: [red, 5]}", "expected string, got integer 5"),  # a list: several cards
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


# ------------------------------------------------------------------ snapshots
def _snapshot(house: tuple[str, ...] = ()) -> dict:
    rulebook = uno_rules.load_rulebook("classic", house=house)
    game = rulebook.new_game(4, 3)
    random_moves(game, random.Random(3), 12)
    return json.loads(json.dumps(game.snapshot()))


def _bad(snapshot: dict, match: str) -> None:
    rulebook = uno_rules.load_rulebook("classic")
    with pytest.raises(uno_rules.SnapshotError, match=match):
        rulebook.restore(snapshot)
    with pytest.raises(uno_rules.SnapshotError, match=match):
        uno_rules.restore(snapshot)


def test_a_sound_snapshot_restores() -> None:
    snapshot = _snapshot()
    game = uno_rules.restore(snapshot)
    assert game.snapshot() == snapshot


def test_snapshots_with_cards_removed_repeated_or_invented() -> None:
    removed = _snapshot()
    removed["hands"][0].pop()
    _bad(removed, "a card is missing, repeated or foreign")
    repeated = _snapshot()
    repeated["hands"][0].append(repeated["hands"][0][0])
    _bad(repeated, "a card is missing, repeated or foreign")
    invented = _snapshot()
    invented["hands"][1] += ["wild"] * 8     # 12 wilds in a deck of 4
    _bad(invented, "a card is missing, repeated or foreign")
    unknown = _snapshot()
    unknown["hands"][1].append("purple 5")
    _bad(unknown, "unknown card 'purple 5'")


@pytest.mark.parametrize(("change", "match"), [
    (lambda s: s.update(players=5), "field 'hands': expected a list of 5, got 4 items"),
    (lambda s: s["pending"].update(seat=9), "field 'pending.seat': expected a seat 0-3, got 9"),
    (lambda s: s.update(direction="cw"), "field 'direction': expected one of 1, -1, got 'cw'"),
    (lambda s: s.update(skips=[10**18]), "field 'skips\\[0\\]': expected a seat 0-3"),
    (lambda s: s.update(color=7), "field 'color': expected a colour id .*, got 7"),
    (lambda s: s.update(players=11), "field 'players': expected a number of players for classic "
     "\\(2-10\\), got 11"),
    (lambda s: s.update(pending=None), "field 'pending': no decision while the round goes on"),
    (lambda s: s.update(stack=[[999, 0, 0]]), "field 'stack\\[0\\]\\[0\\]': "
     "expected -1 or a program id 0-13, got 999"),
    (lambda s: s.update(rng=[3, [1, 2], None]), "field 'rng\\[1\\]': "
     "expected 624 numbers .*, got 2 items"),
    (lambda s: s.pop("hands"), "field 'hands' is missing"),
])
def test_inconsistent_snapshots_are_refused(change, match: str) -> None:
    snapshot = _snapshot()
    change(snapshot)
    _bad(snapshot, match)


@pytest.mark.parametrize("value", [None, [1, 2], "snapshot", 5])
def test_a_snapshot_that_is_not_a_mapping(value: object) -> None:
    with pytest.raises(uno_rules.SnapshotError, match="a snapshot is a mapping"):
        uno_rules.load_rulebook("classic").restore(value)  # type: ignore[arg-type]
    with pytest.raises(uno_rules.SnapshotError, match="a snapshot is a mapping"):
        uno_rules.restore(value)  # type: ignore[arg-type]


def test_a_root_that_is_not_a_path() -> None:
    with pytest.raises(uno_rules.SnapshotError, match="^root=5: expected a folder's path "
                                                      "\\(str or Path\\), got int$"):
        uno_rules.restore(_snapshot(), root=5)  # type: ignore[arg-type]


def test_house_rules_and_settings_are_restored_not_dropped() -> None:
    snapshot = _snapshot(("stacking",))
    with pytest.raises(uno_rules.SnapshotError, match="made under house rules \\['stacking'\\]"):
        uno_rules.load_rulebook("classic").restore(snapshot)
    game = uno_rules.restore(snapshot)
    assert game.rulebook.house == ("stacking",) and game.snapshot() == snapshot
    with_set = uno_rules.load_rulebook("classic", settings={"hand_size": "5"}).new_game(3, 1)
    restored = uno_rules.restore(with_set.snapshot())
    assert restored.rulebook.settings.hand_size == 5


def test_devices_behind_every_way_a_file_enters(tmp_path: Path) -> None:
    """A rulebook path, `extends`, an overlay (`--house` and `house:`), a scenario's
    `rulebook:` - each reads only regular files."""
    device = tmp_path / "zero.yaml"
    device.symlink_to("/dev/zero")
    assert "not a regular file" in _one_line(["deck", "classic", "--house", str(device)])
    housed = tmp_path / "housed.yaml"
    housed.write_text(f"name: housed\nextends: classic\nhouse: [{device.name}]\n")
    # named inside a file, the link leads outside the file's folder: refused unread; where
    # that is allowed (--root /), the device is still not read
    assert "outside this file's folder" in _one_line(["validate", str(housed)])
    assert "not a regular file" in _one_line(["--root", "/", "validate", str(housed)])
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"rulebook: {device}\nplayers: 2\nsteps: []\n")
    result = runner.invoke(cli, ["scenario", str(scenario)])
    assert result.exit_code == 2 and "outside this file's folder" in result.output
    result = runner.invoke(cli, ["--root", "/", "scenario", str(scenario)])
    assert result.exit_code == 2 and "not a regular file" in result.output


def test_expectations_longer_than_the_table_fail_rather_than_crash(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("rulebook: classic\nplayers: 2\nscenarios:\n"
                    "  - {name: hands, steps: [{expect: {hands: [[red 1], [red 2], [red 3]]}}]}\n"
                    "  - {name: sizes, steps: [{expect: {hand_sizes: [7, 7, 7]}}]}\n")
    result = runner.invoke(cli, ["scenario", str(path)])
    assert result.exit_code == 1 and "0 passed, 2 failed" in result.output
    assert "Traceback" not in result.output and "internal error" not in result.output


NOMERCY = sorted((HERE / "hostile" / "nomercy").glob("*.yaml"))


@pytest.mark.parametrize("path", NOMERCY, ids=lambda p: p.stem)
def test_hostile_stacking_by_value(path: Path) -> None:
    """tests/hostile/nomercy/ (bench/hostile_cases/nomercy.py times them): a bad
    `stacking.any_color` is one located line, exit 1; a billion stacked by value ends."""
    expected = _expected(path)
    assert expected is not None
    if expected.startswith("(loads"):
        rulebook = uno_rules.load_rulebook(path)
        assert rulebook.stack_any_color is True
        huge = 0
        for seed in range(5):
            game = rulebook.new_game(6, seed)
            random_moves(game, random.Random(seed))
            assert game.over and game.result is not None
            huge += any(e[0] == "draw" and e[2] >= 10**9 for e in game.log or ())
        assert huge  # the billion was stacked and drawn, as far as the piles went
        return
    assert _one_line(["validate", str(path)]) == f"{path}:{expected}"


# ------------------------------------------------------------------ every file, every folder
EVERY_FILE = sorted(p for p in (HERE / "hostile").rglob("*.y*ml") if p.is_file())


@pytest.mark.parametrize("path", EVERY_FILE, ids=lambda p: str(p.relative_to(HERE / "hostile")))
def test_no_hostile_file_is_taken_for_a_bug(path: Path) -> None:
    """Every input under tests/hostile/, subfolders included, given to the command that reads
    it (scenario files to `scenario`, the rest to `validate`): exit 0, 1 or 2, each output line
    a problem or a result, never exit 3 or a traceback."""
    command = "scenario" if is_scenario_file(path) else "validate"
    result = runner.invoke(cli, [command, str(path)])
    assert result.exit_code in (0, 1, 2), (path, result.exit_code, result.output)
    assert "internal error" not in result.output and "Traceback" not in result.output
    if result.exit_code == 1 and command == "validate":  # problems, each on its own line
        assert all(re.match(r"\S.*: ", line) for line in result.output.strip().splitlines()), \
            result.output


# ------------------------------------------------------------------ command-line arguments
X = "x" * 5000


def _record(tmp_path: Path) -> str:
    path = tmp_path / "round.jsonl"
    result = runner.invoke(cli, ["play", "classic", "--round", "--humans", "none", "--seed", "1",
                                 "--record", str(path)])
    assert result.exit_code == 0, result.output
    return str(path)


@pytest.mark.parametrize(("args", "expect"), [
    # a NUL byte in a path (click.Path's own check raised ValueError: exit 3)
    (["scenario", "a\0b"], "'a\\x00b': the path contains a NUL byte"),
    (["--root", "a\0b", "validate", "classic"], "'a\\x00b': the path contains a NUL byte"),
    (["simulate", "classic", "--games", "1", "--csv", "a\0b"], "the path contains a NUL byte"),
    (["new", "xx", "-o", "a\0b.yaml"], "the path contains a NUL byte"),
    (["play", "classic", "--round", "--humans", "none", "--record", "a\0b"],
     "a\\x00b: the path contains a NUL byte"),
    # NaN passes click's FloatRange (every comparison is false)
    (["simulate", "classic", "--games", "1", "--scheduler", "tcp://127.0.0.1:1",
      "--scheduler-timeout", "nan"], "'nan' is not a number"),
    # a newline in a path echoed: written \n, on the one line
    (["simulate", "classic", "--games", "1", "--plot", "a\nb"], "--plot a\\nb: expected"),
    (["simulate", "classic", "--games", "1", "--record-dir", "/proc/a\nb"],
     "--record-dir /proc/a\\nb: can't write there"),
    (["compare", "classic", "a\nb", "--games", "1"], "variant 2 (a\\nb): "),
    (["compare", "classic", "classic+a\nb", "--games", "1"], "variant 2 (classic + a\\nb): "),
    # an argument of thousands of characters, echoed cut short
    (["deck", "classic", "--set", X], "--set '" + "x" * 60 + "... (5,000 characters)': "
     "expected NAME=VALUE"),
    (["explain", X], "can't read file: file name too long"),
    (["simulate", "classic", "--seed", X], "Invalid value for '--seed'"),
    (["new", "9" * 5000], "a rulebook name is lower case letters"),
    (["play", "classic", "--round", "--human", X], "Invalid value for '--human'"),
    (["play", "--resume", X, "--seed", "1"], "the game's rulebook, seats and seed come from"),
    ([X], "No such command"),
], ids=lambda x: " ".join(map(str, x))[:50] if isinstance(x, list) else None)
def test_hostile_arguments_are_one_short_line_exit_1(args: list[str], expect: str) -> None:
    line = _one_line(args)
    assert expect in line and "internal error" not in line, line
    assert len(line) < 400, len(line)


def test_hostile_paths_named_in_messages(tmp_path: Path) -> None:
    """A path with a newline, a NUL byte or thousands of characters, where a command writes
    or reads: one line, exit 1."""
    folder = tmp_path / "empty\nfolder"
    folder.mkdir()
    assert f"no rulebook files (*.yaml) in {tmp_path}/empty\\nfolder" in _one_line(
        ["validate", str(folder)])
    result = runner.invoke(cli, ["scenario", str(folder)])
    assert result.exit_code == 1 and result.output.strip().count("\n") == 0, result.output
    existing = tmp_path / "a\nb.yaml"
    existing.write_text("x")
    assert _one_line(["new", "xx", "-o", str(existing)]).endswith(
        "a\\nb.yaml: already exists; not overwritten")
    base = tmp_path / "base\n.yaml"
    base.write_text("name: base\nextends: classic\n")
    (tmp_path / "sub").mkdir()
    assert "--from " + str(tmp_path) + "/base\\n.yaml: outside the folder" in _one_line(
        ["new", "xx", "--from", str(base), "-o", str(tmp_path / "sub" / "xx.yaml")])
    record = _record(tmp_path)
    line = _one_line(["replay", record, "--seat", "9" * 3000])
    assert line.startswith("--seat 99999") and len(line) < 400, line
    moved = tmp_path / "done\n.jsonl"
    Path(record).rename(moved)
    assert "done\\n.jsonl: that game is over" in _one_line(["play", "--resume", str(moved)])
    assert "the game's rulebook" in _one_line(["play", "--resume", str(moved), "--players", "3"])


def test_validate_an_empty_path_is_not_the_current_folder(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.yaml").write_text("name: [\n")
    line = _one_line(["validate", ""])
    assert "broken.yaml" not in line and "an empty path" in line, line


def test_save_to_a_path_with_a_nul_byte_is_one_line(tmp_path: Path) -> None:
    result = runner.invoke(cli, ["play", "classic", "--round", "--seed", "1", "--save", "a\0b"],
                           input="q\n")
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines()[-1].endswith(  # after the prompt
        "> error: a\\x00b: the path contains a NUL byte"), result.output


def test_problems_echoing_a_long_argument_are_cut_short() -> None:
    result = runner.invoke(cli, ["validate", "classic", "--house", X])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and len(lines[0]) < 400 and "file name too long" in lines[0], lines


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_save_never_replaces_what_is_not_a_file(tmp_path: Path, kind: str) -> None:
    """q with --save: a FIFO (or a device, as root) is not replaced by the saved game, and
    a target that can't be replaced leaves no temporary file behind."""
    target = tmp_path / "target"
    os.mkfifo(target) if kind == "fifo" else target.mkdir()
    result = runner.invoke(cli, ["play", "classic", "--round", "--seed", "1", "--save",
                                 str(target)], input="q\n")
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines()[-1].endswith(
        f"> error: {target}: not a regular file; the game is not saved there"), result.output
    assert (target.is_fifo() if kind == "fifo" else target.is_dir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["target"]


def test_save_into_a_missing_folder_names_the_target(tmp_path: Path) -> None:
    target = tmp_path / "no" / "game.jsonl"
    result = runner.invoke(cli, ["play", "classic", "--round", "--seed", "1", "--save",
                                 str(target)], input="q\n")
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines()[-1].endswith(
        f"> error: {target}: can't save there: No such file or directory"), result.output
