"""simulate --record-dir / --record-where (uno_rules.sim.recordsim): the games chosen are
recorded (played again from their seeds), their records replay, and the run's statistics
are the same with or without records, with any number of workers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from uno_rules.cli import cli
from uno_rules.play.record import read
from uno_rules.sim.recordsim import parse_where

runner = CliRunner()


def _simulate(*args: str) -> tuple[dict[str, object], str]:
    result = runner.invoke(cli, ["simulate", *args, "--json", "-q"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    stats = json.loads(out)
    stats.pop("timing")
    return stats, result.stderr


def _files(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.iterdir())}


def test_stalled_games_are_recorded_by_default(tmp_path: Path) -> None:
    args = ["classic", "--games", "12", "--players", "3", "--seed", "4", "--max-actions", "40"]
    plain, _ = _simulate(*args)
    stats, said = _simulate(*args, "--record-dir", str(tmp_path / "runs"))
    assert stats == plain  # records change nothing of the run
    files = _files(tmp_path / "runs")
    assert stats["stalled"] == len(files) > 0 and stats["stalled"] < 12
    assert f"records: {len(files)} written in {tmp_path / 'runs'}" in said
    for name in files:
        record = read(tmp_path / "runs" / name)
        match = record.replay()
        assert record.ended and match.game.stalled == "actions"
        assert len(record.steps) == 40 and record.header["seats"] == ["play_first"] * 3
        assert record.header["match"] is False


def test_without_record_where_a_run_with_nothing_stalled_records_its_longest(
        tmp_path: Path) -> None:
    """The default is stalled,longest: a run with nothing stalled still records a game."""
    args = ["classic", "--games", "8", "--players", "3", "--seed", "2", "--csv",
            str(tmp_path / "rows.csv")]
    stats, said = _simulate(*args, "--record-dir", str(tmp_path / "r"))
    assert stats["stalled"] == 0
    actions = [int(r.split(",")[4]) for r in
               (tmp_path / "rows.csv").read_text().splitlines()[1:]]
    longest = actions.index(max(actions)) + 1
    assert set(_files(tmp_path / "r")) == {f"game-{longest}.jsonl"}
    assert f"records: 1 written in {tmp_path / 'r'}: game-{longest}.jsonl" in said
    _, said = _simulate(*args, "--record-dir", str(tmp_path / "s"), "--record-where", "stalled")
    assert "nothing written" in said and not list((tmp_path / "s").iterdir())


def test_longest_and_numbered_games(tmp_path: Path) -> None:
    args = ["classic", "--games", "15", "--players", "4", "--seed", "9", "--csv",
            str(tmp_path / "rows.csv")]
    _simulate(*args, "--record-dir", str(tmp_path / "r"), "--record-where", "longest,2",
              "--record-where", "7")
    rows = (tmp_path / "rows.csv").read_text().splitlines()[1:]
    actions = [int(r.split(",")[4]) for r in rows]
    longest = actions.index(max(actions)) + 1
    assert set(_files(tmp_path / "r")) == {f"game-{n}.jsonl" for n in {longest, 2, 7}}
    for n in {longest, 2, 7}:
        record = read(tmp_path / "r" / f"game-{n}.jsonl")
        assert record.header["seed"] == int(rows[n - 1].split(",")[0])
        assert len(record.steps) == actions[n - 1]
        assert record.replay().game.over


def test_workers_write_the_same_records(tmp_path: Path) -> None:
    args = ["classic", "--games", "10", "--players", "3", "--seed", "5", "--record-where",
            "longest,1,10"]
    one, _ = _simulate(*args, "--record-dir", str(tmp_path / "one"))
    two, _ = _simulate(*args, "--record-dir", str(tmp_path / "two"), "--workers", "2")
    assert one == two
    assert _files(tmp_path / "one") == _files(tmp_path / "two")


def test_matches_with_agents(tmp_path: Path) -> None:
    args = ["classic", "--match", "--games", "3", "--players", "3", "--seed", "1",
            "--agents", "greedy,play_first,uniform", "--set", "target_score=200",
            "--record-dir", str(tmp_path), "--record-where", "longest,1"]
    stats, _ = _simulate(*args)
    files = _files(tmp_path)
    assert "match-1.jsonl" in files
    for name in files:
        record = read(tmp_path / name)
        assert record.header["match"] is True
        assert record.header["seats"] == ["greedy", "play_first", "uniform"]
        match = record.replay()
        assert match.winners and max(match.scores) >= 200
        assert record.rounds == match.rounds > 1


def test_a_match_stopped_by_its_budget_of_rounds(tmp_path: Path) -> None:
    _simulate("classic", "--match", "--games", "2", "--players", "4", "--seed", "3",
              "--max-rounds", "2", "--record-dir", str(tmp_path))
    files = _files(tmp_path)
    assert len(files) == 2
    for name, text in files.items():
        assert json.loads(text.splitlines()[-1])["end"] == {"stalled": "rounds"}
        record = read(tmp_path / name)
        assert record.rounds == 3  # two played and scored, the third dealt
        assert record.replay().scores == json.loads(text.splitlines()[-3])["scored"]["scores"]


def test_a_runaway_round_is_recorded_up_to_the_action(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from uno_rules.engine import game as game_module

    monkeypatch.setattr(game_module, "RUN_BUDGET", 2)  # an action card now "runs away"
    stats, _ = _simulate("classic", "--games", "6", "--players", "4", "--seed", "1",
                         "--record-dir", str(tmp_path), "--record-where", "stalled")
    files = _files(tmp_path)
    assert stats["stalled_reasons"] == {"runaway": len(files)} and files
    for name, text in files.items():
        assert json.loads(text.splitlines()[-1])["end"] == {"stalled": "runaway"}
        assert not read(tmp_path / name).replay().game.over


@pytest.mark.parametrize("args,message", [
    (["--record-where", "stalled"], "--record-where: only with --record-dir DIR"),
    (["--record-dir", "{tmp}", "--record-where", "21"],
     "--record-where '21': expected stalled, longest or a game's number, 1 to 20"),
    (["--record-dir", "{tmp}", "--record-where", "slowest"], "--record-where 'slowest'"),
    (["--record-dir", "{tmp}/file"], "--record-dir {tmp}/file: can't write there: "),
])
def test_bad_record_options_are_one_line(args: list[str], message: str,
                                         tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    result = runner.invoke(cli, ["simulate", "classic", "--games", "20", *args])
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines() == [result.output.strip()]
    assert message.replace("{tmp}", str(tmp_path)) in result.output


def test_parse_where() -> None:
    assert parse_where(["stalled", "longest, 3,2"], 5) == (True, True, [2, 3])
    assert parse_where(["4", "4"], 5) == (False, False, [4])
    with pytest.raises(ValueError, match="1 to 5"):
        parse_where(["0"], 5)
    with pytest.raises(ValueError):
        parse_where(["²"], 5)
