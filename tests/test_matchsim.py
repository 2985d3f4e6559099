"""``simulate --match``: whole matches scored by Match, their statistics with intervals, one
CSV row per match, the same output with workers, and stalled matches (a round's budget or
the match's)."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import load_cases, reaped

import uno_rules
from uno_rules.cli import cli
from uno_rules.load.resources import shipped_names
from uno_rules.play.match import Match
from uno_rules.sim.matchsim import (
    CSV_COLUMNS,
    MATCH_STALLED,
    MAX_ROUNDS,
    MatchRecord,
    csv_row,
    play_match,
    simulate_matches,
)
from uno_rules.sim.simulate import random_moves

HOSTILE = Path(__file__).resolve().parent / "hostile" / "exits"


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["simulate", *args])
    return result.exit_code, result.output


def _json(*args: str) -> dict[str, Any]:
    code, out = _cli(*args, "--match", "--json")
    assert code == 0, out
    data: dict[str, Any] = json.loads(out)
    return data


def _summaries(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [data["rounds_per_match"], data["lead_changes"], *data["final_scores"].values()]


def test_classic_match_json_keys_and_intervals() -> None:
    data = _json("classic", "--players", "4", "--games", "40", "--seed", "3")
    for key in ("rulebook", "house", "match", "games", "players", "seed", "policy",
                "wins_by_seat", "stalled", "decided", "tied", "win_rate_by_seat",
                "first_player", "rounds_per_match", "final_scores", "lead_changes",
                "metrics", "timing"):
        assert key in data, key
    assert data["match"] == {"scoring": "winner_takes", "target_score": 500,
                             "knock_out_worst": False, "next_dealer": "left",
                             "max_rounds": MAX_ROUNDS}
    assert set(data["final_scores"]) == {"winner", "runner_up", "others"}
    assert set(data["metrics"]) == {"balance", "duration", "decisiveness", "lead_changes"}
    assert "histogram" in data["rounds_per_match"]
    # Match wins add up to the matches decided: classic's matches have one winner each.
    assert data["games"] == 40 and data["stalled"] == 0 and data["tied"] == 0
    assert sum(data["wins_by_seat"]) == data["decided"] == data["games"] - data["stalled"]
    for r in [*data["win_rate_by_seat"], data["first_player"]]:
        assert r["of"] == 40 and r["low"] <= r["rate"] <= r["high"]
    for s in _summaries(data):
        assert s["n"] == 40 and s["low"] <= s["mean"] <= s["high"] <= s["max"]
    # A classic match to 500 takes several rounds; its winner scored at least the target.
    assert 3 < data["rounds_per_match"]["mean"] < 30
    assert data["final_scores"]["winner"]["mean"] >= 500
    assert data["final_scores"]["runner_up"]["max"] < 500
    assert 0 < data["metrics"]["decisiveness"] <= 1


def test_knock_out_worst_is_reported_in_json_and_text() -> None:
    """The house rule `knock_out_worst` decides matches: the report says it is played, in
    the JSON's `match` and in the text's head line (and not when it is off)."""
    args = ("classic", "--house", "knock_out_worst", "--players", "3", "--games", "3")
    data = _json(*args)
    assert data["match"]["scoring"] == "elimination" and data["match"]["knock_out_worst"]
    code, text = _cli(*args, "--match")
    assert code == 0, text
    assert "out at the target or with the round's worst hand, last one standing" in text
    code, text = _cli("classic", "--set", "scoring=elimination", "--players", "3",
                      "--games", "3", "--match")
    assert code == 0 and "(out at the target, last one standing" in text, text


def test_team_match_wins_by_team() -> None:
    data = _json("teams", "--players", "4", "--games", "6", "--seed", "1")
    assert sum(data["wins_by_team"]) == data["decided"] == 6 - data["stalled"]
    # Partners win together: each seat's wins are its team's.
    assert data["wins_by_seat"] == [data["wins_by_team"][s % 2] for s in range(4)]
    for r in data["win_rate_by_team"]:
        assert r["low"] <= r["rate"] <= r["high"]
    assert data["first_player"]["fair"] == 0.5


def test_same_seed_same_output_and_another_seed_differs() -> None:
    args = ("classic", "--players", "3", "--games", "8", "--seed", "5")
    a, b = _json(*args), _json(*args)
    c = _json("classic", "--players", "3", "--games", "8", "--seed", "6")
    two = _json(*args, "--workers", "2")
    for d in (a, b, c, two):
        del d["timing"]
    assert a == b == two
    assert a != c
    code, text = _cli(*args, "--match")
    assert code == 0 and "match win rate, 95% interval, of 8 decided matches" in text
    assert "rounds per match:" in text and "lead changes per match:" in text


def test_two_workers_give_the_same_statistics_and_records() -> None:
    rb = uno_rules.load_rulebook("classic")
    runs = []
    for workers in (1, 2):
        rows: list[MatchRecord] = []
        stats = simulate_matches(rb, 12, 3, 9, workers=workers, on_match=rows.append)
        out = stats.to_json()
        del out["timing"]
        runs.append((json.dumps(out), rows))
    assert runs[0] == runs[1]
    assert len(runs[0][1]) == 12


def _target_reached_or_outlived(rb: uno_rules.Rulebook, r: MatchRecord) -> None:
    """The winner of a decided match reached the target, or outlived the others."""
    s, target = rb.settings, rb.settings.target_score
    assert r.winners and r.stalled is None
    won = [r.scores[w] for w in r.winners]
    lost = [r.scores[x] for x in range(len(r.scores)) if x not in r.winners]
    if s.scoring == "winner_takes":
        assert min(won) >= target
        assert all(v < target for v in lost)
    elif s.scoring == "lowest_total":
        assert max(r.scores) >= target
        assert max(won) == min(won) <= min(lost, default=target)
    else:  # elimination: the winners are still in (or all went out in the last round,
        # and they have the fewest points); a loser went out, or has more points than they
        assert max(won) < target or all(v >= target for v in r.scores)
        assert all(v >= target or v >= min(won) for v in lost)
    assert 1 <= r.led_from <= r.rounds if r.led_from is not None else False
    assert r.lead_changes is not None and 0 <= r.lead_changes < r.rounds


@pytest.mark.parametrize("name", shipped_names())
def test_every_shipped_rulebook_plays_matches(name: str, tmp_path: Path) -> None:
    rb = uno_rules.load_rulebook(name)
    players = 4 if 4 in rb.player_counts() else min(rb.player_counts())
    out = tmp_path / "matches.csv"
    code, text = _cli(name, "--match", "--players", str(players), "--games", "3",
                      "--seed", "2", "--json", "--csv", str(out))
    assert code == 0, text
    data = json.loads(text)
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 3 and list(rows[0]) == list(CSV_COLUMNS)
    assert data["stalled"] == sum(1 for row in rows if row["stalled"])
    for row in rows:
        if row["stalled"]:
            continue
        record = MatchRecord(int(row["seed"]), tuple(map(int, row["winners"].split())),
                             int(row["rounds"]), tuple(map(int, row["scores"].split())),
                             int(row["first_player"]), int(row["lead_changes"]),
                             int(row["led_from"]), None)
        _target_reached_or_outlived(rb, record)
        assert len(record.scores) == players


@pytest.mark.parametrize(("scoring", "agents"), [("lowest_total", None),
                                                 ("elimination", None),
                                                 ("elimination", "greedy,uniform,uniform")])
def test_other_scoring_methods(scoring: str, agents: str | None) -> None:
    rb = uno_rules.load_rulebook("classic", settings={"scoring": scoring,
                                                      "target_score": 150})
    seated = None
    if agents is not None:
        from uno_rules.play.agents import parse_agents

        seated = parse_agents(agents, 3)
    stats = simulate_matches(rb, 6, 3, 4, agents=seated)
    assert len(stats.records) == 6
    for r in stats.records:
        _target_reached_or_outlived(rb, r)
    out = stats.to_json()
    assert out["match"]["scoring"] == scoring
    assert sum(out["wins_by_seat"]) == out["decided"] + sum(
        len(r.winners) - 1 for r in stats.records)  # a tie counts for each seat in it
    if agents is not None:
        assert out["agents"] == ["greedy", "uniform", "uniform"] and out["policy"] is None


def test_record_is_the_match_replayed() -> None:
    """The record's scores, rounds, lead changes and the round the winner's lead began
    are those of the same match played through Match directly, round by round."""
    rb = uno_rules.load_rulebook("classic", settings={"target_score": 300})
    for seed in (1, 2, 3):
        record = play_match(rb, 3, seed, None, "play_first", None, None)
        match, leaders = Match(rb, 3, seed), []
        while True:
            game = match.game
            random_moves(game, random.Random(game.seed ^ 0x5EED), game.max_actions,
                         "play_first")
            match.next_round()
            top = max(match.scores)
            leaders.append({s for s in range(3) if match.scores[s] == top})
            if match.over:
                break
        assert record.scores == tuple(match.scores) and record.rounds == match.rounds
        assert record.winners == match.winners and record.stalled is None
        changes = sum(1 for k in range(1, len(leaders)) if leaders[k] != leaders[k - 1])
        assert record.lead_changes == changes
        kept = [k for k in range(len(leaders))
                if all(set(match.winners) & later for later in leaders[k:])]
        assert record.led_from == kept[0] + 1


def test_target_of_one_is_one_round() -> None:
    data = _json("classic", "--players", "2", "--games", "5", "--set", "target_score=1")
    assert data["rounds_per_match"]["max"] == 1 and data["lead_changes"]["max"] == 0
    assert data["metrics"]["decisiveness"] == 1.0 and data["decided"] == 5


def test_a_match_out_of_reach_is_cut_by_the_round_budget() -> None:
    data = _json("classic", "--players", "2", "--games", "2", "--set",
                 "target_score=1000000000", "--max-rounds", "7")
    assert data["stalled"] == 2 and data["stalled_reasons"] == {"rounds": 2}
    assert data["decided"] == 0 and data["match"]["max_rounds"] == 7
    assert data["win_rate_by_seat"][0]["rate"] is None
    rb = uno_rules.load_rulebook("classic", settings={"target_score": 10**9})
    record = play_match(rb, 2, 1, None, "play_first", None, None, max_rounds=7)
    assert record.rounds == 7 and record.stalled == "rounds" and sum(record.scores) > 0


def test_a_stalled_round_stalls_its_match() -> None:
    data = _json("classic", "--players", "4", "--games", "3", "--max-actions", "1")
    assert data["stalled_reasons"] == {"actions": 3} and data["decided"] == 0
    data = _json(str(HOSTILE / "retrigger.yaml"), "--players", "10", "--games", "1",
                 "--max-steps", "30000")
    assert data["stalled_reasons"] == {"steps": 1}
    code, text = _cli("classic", "--match", "--games", "2", "--max-actions", "1")
    assert code == 0 and "stalled matches: 2 (2 used up the action budget)" in text


def test_csv_one_row_per_match(tmp_path: Path) -> None:
    out = tmp_path / "m.csv"
    code, text = _cli("classic", "--match", "--players", "3", "--games", "4", "--seed", "1",
                      "--csv", str(out))
    assert code == 0, text
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert rows[0] == list(CSV_COLUMNS) and len(rows) == 5
    rb = uno_rules.load_rulebook("classic")
    buffer = io.StringIO()
    csv.writer(buffer).writerows(
        [csv_row(r) for r in simulate_matches(rb, 4, 3, 1).records])
    assert rows[1:] == list(csv.reader(io.StringIO(buffer.getvalue())))


def test_ctrl_c_keeps_the_matches_finished() -> None:
    rb = uno_rules.load_rulebook("classic")
    seen: list[MatchRecord] = []

    def stop(r: MatchRecord) -> None:
        seen.append(r)
        if len(seen) == 2:
            raise KeyboardInterrupt

    stats = simulate_matches(rb, 5, 2, 1, on_match=stop)
    out = stats.to_json()
    assert out["interrupted"] is True and out["games_requested"] == 5
    assert out["games"] == 2 == out["decided"] + out["stalled"]


def test_a_ctrl_c_between_a_matchs_count_and_its_row_waits_for_the_row() -> None:
    """A Ctrl-C after a match is counted, before its ``--csv`` row is written (inside
    ``on_match``, here at its start), is held until the row is written."""
    import signal

    rows: list[MatchRecord] = []

    def row(r: MatchRecord) -> None:
        if len(rows) == 2:  # the third match counted, its row not written yet
            signal.raise_signal(signal.SIGINT)
        rows.append(r)

    stats = simulate_matches(uno_rules.load_rulebook("classic"), 5, 2, 1, on_match=row)
    assert stats.requested == 5 and stats.games == 3
    assert rows == stats.records and len(rows) == 3
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


def test_bad_arguments() -> None:
    code, out = _cli("classic", "--max-rounds", "3")
    assert code == 1 and "--max-rounds: only with --match" in out
    code, out = _cli("classic", "--match", "--max-rounds", "0")
    assert code == 1 and "--max-rounds" in out
    code, out = _cli("classic", "--match", "--players", "11")
    assert code == 1 and "--players 11" in out
    rb = uno_rules.load_rulebook("classic")
    with pytest.raises(uno_rules.IllegalAction, match="max_rounds"):
        simulate_matches(rb, 1, 2, 1, max_rounds=0)
    code, out = _cli("--help")
    assert code == 0 and "with --match, matches" in out.replace("\n", " ")
    assert f"default {MAX_ROUNDS}" in " ".join(out.split())


def _hostile_cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    cases: list[tuple[str, list[str], int]] = load_cases("simmatch").cases(tmp)
    return cases


# What each case of bench/hostile_cases/simmatch.py must give (bench/hostile.py times them).
HOSTILE_OUTCOMES = {
    "match: every round stalls": {"actions": 50},
    "match: rounds that never end": {"steps": 1},
    "match: target 1": {},
    "match: target 10**9, 1,000 rounds": {"rounds": 1},
    "match: elimination to 10**9": {"rounds": 1},
    "match: --max-rounds 0": "Invalid value for '--max-rounds': 0 is not in the range x>=1",
    "match: --max-rounds 10**23": {},
    "match: --max-rounds, 5,000 digits": "Invalid value for '--max-rounds'",
    "--max-rounds without --match": "--max-rounds: only with --match",
    "match: --games 10**23": "Invalid value for '--games'",
}


def test_hostile_cases(tmp_path: Path) -> None:
    cases = _hostile_cases(tmp_path)
    assert [name for name, _, _ in cases] == list(HOSTILE_OUTCOMES)
    for name, args, code in cases:
        result = CliRunner().invoke(cli, args)
        want = HOSTILE_OUTCOMES[name]
        assert result.exit_code == code, (name, result.output)
        if isinstance(want, str):
            lines = result.output.strip().splitlines()
            assert len(lines) == 1 and want in lines[0], (name, lines)
        elif "--json" in args:
            assert json.loads(result.output).get("stalled_reasons", {}) == want, name
        else:
            reason = next(iter(want))
            assert f"stalled matches: 1 (1 {MATCH_STALLED[reason]})" in result.output, name


def test_docs_name_every_key() -> None:
    """docs/simulation.md's match section names every key of the --match JSON and every
    CSV column."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "simulation.md").read_text()
    section = text[text.index("## Matches: `simulate --match`"):text.index("## Many cores")]
    data = _json("classic", "--players", "2", "--games", "2")
    keys = set(data) | set(data["match"]) | set(data["final_scores"]) | set(data["metrics"]) \
        | set(data["timing"]) | set(CSV_COLUMNS)
    missing = [k for k in sorted(keys) if f"`{k}`" not in section and f"{k}," not in section
               and f" {k}}}" not in section and f"{{{k}," not in section]
    assert not missing, missing


def test_ctrl_c_in_simulate_match_prints_the_matches_finished_and_exits_130() -> None:
    import signal
    import subprocess
    import sys
    import time

    args = [sys.executable, "-m", "uno_rules.cli", "simulate", "classic", "--match",
            "--games", "1000000000", "--json"]
    for wait in (2, 5, 15):  # until some matches are done (a loaded machine starts slowly)
        with reaped(subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)) as proc:
            time.sleep(wait)
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=120)
        assert proc.returncode == 130 and err == "", (out, err)
        stats = json.loads(out)
        assert stats["interrupted"] is True and stats["games_requested"] == 1000000000
        if stats["games"] > 0:
            assert stats["decided"] + stats["stalled"] == stats["games"]
            assert stats["rounds_per_match"]["n"] == stats["decided"]
            return
    raise AssertionError("no match finished in 15 s")
