"""uno-rules compare: common random numbers, paired differences, the report and bad variants."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import child_pids, pid_alive, reaped

import uno_rules
from uno_rules.cli import cli
from uno_rules.sim import compare as cmp
from uno_rules.sim.rounds import game_seeds
from uno_rules.sim.simulate import simulate

HOSTILE = Path(__file__).resolve().parent / "hostile" / "compare"


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def as_json(*args: str) -> dict[str, Any]:
    result = run("compare", *args, "--json")
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


# ------------------------------------------------------------------ variants
def never_file(word: str) -> bool:
    return False


def test_house_after_a_variant_applies_to_it_alone() -> None:
    vs = cmp.parse_variants(["classic", "classic", "--house", "stacking"], never_file)
    assert [(v.ref, v.house) for v in vs] == [("classic", []), ("classic", ["stacking"])]
    assert vs[1].label == "classic + stacking"


def test_plus_and_options_combine_in_order() -> None:
    vs = cmp.parse_variants(["classic", "--set", "hand_size=5", "classic+stacking",
                             "--house=seven_zero", "--set=uno_penalty=4"], never_file)
    assert vs[0].settings == {"hand_size": "5"} and vs[0].house == []
    assert vs[1].house == ["stacking", "seven_zero"]
    assert vs[1].settings == {"uno_penalty": "4"}
    assert vs[1].label == "classic + stacking + seven_zero (uno_penalty=4)"


def test_an_existing_file_is_taken_whole() -> None:
    vs = cmp.parse_variants(["a+b.yaml", "classic"], lambda w: w == "a+b.yaml")
    assert vs[0].ref == "a+b.yaml" and vs[0].house == []


@pytest.mark.parametrize(("args", "message"), [
    (["classic"], "1 variant: compare needs at least two"),
    (["--house", "stacking", "classic", "classic"], "--house stacking: comes before any "
     "variant"),
    (["classic", "classic+"], "variant 'classic+': an empty name"),
    (["classic", "+stacking"], "variant '+stacking': an empty name"),
    (["classic", "classic", "--set", "hand_size"], "--set 'hand_size': expected NAME=VALUE"),
    (["classic", "classic", "--house"], "--house: expected a value after it"),
    (["classic", "classic", "--frob"], "--frob: not an option of compare"),
    (["classic"] * 27, "more than 26 variants"),
])
def test_bad_variants_are_one_line_exit_1(args: list[str], message: str) -> None:
    result = run("compare", *args, "--games", "2")
    assert result.exit_code == 1, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_a_variant_that_does_not_load_names_its_position() -> None:
    result = run("compare", "classic", "nope", "--games", "2")
    assert result.exit_code == 1
    assert result.stderr.startswith("variant 2 (nope): ") and "no such rulebook" in \
        result.stderr
    result = run("compare", "classic", "classic", "--set", "hand_size=lots", "--games", "2")
    assert result.exit_code == 1 and result.stderr.startswith("variant 2 (classic (hand_"), \
        result.stderr
    result = run("compare", "classic", "teams", "--players", "3", "--games", "2")
    assert result.exit_code == 1 and "variant 2 (teams) is for" in result.stderr


def test_a_variant_name_of_100000_characters_is_cut_short() -> None:
    result = run("compare", "classic", "c" * 100_000, "--games", "2")
    assert result.exit_code == 1 and len(result.stderr) < 600
    assert "(100,000 characters)" in result.stderr


def test_a_variant_file_from_the_hostile_folder() -> None:
    # A file whose name holds a '+': the file, not classic-like 'draw' + house 'three'.
    result = run("--root", str(HOSTILE), "compare", "classic", str(HOSTILE / "draw+three.yaml"),
                 "--games", "30", "--players", "2", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["variants"][1]["rulebook"] == "draw_three"


# ------------------------------------------------------------------ common random numbers
def test_every_variant_plays_the_same_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, list[int]] = {}
    real = cmp.play_round

    def spy(rulebook: Any, players: int, seed: int, *args: Any) -> Any:
        seen.setdefault(" + ".join([rulebook.name, *rulebook.house]), []).append(seed)
        return real(rulebook, players, seed, *args)

    monkeypatch.setattr(cmp, "play_round", spy)
    out = as_json("classic", "classic", "--house", "stacking", "--games", "25", "--seed", "7")
    expected = list(game_seeds(7, 25))
    assert seen == {"classic": expected, "classic + stacking": expected}
    assert out["round_seeds"] == {"first": expected[0], "same": True}
    # Stacking changes no card: the same seed turns up the same first card and, when that
    # card does nothing (a number: a Draw Two turned up may be stacked on), deals the same
    # hands.
    plain = uno_rules.load_rulebook("classic")
    stacked = uno_rules.load_rulebook("classic", house=["stacking"])
    same_hands = 0
    for s in expected:
        a, b = plain.new_game(4, s), stacked.new_game(4, s)
        assert a.view(0)["top"] == b.view(0)["top"]
        if a.view(0)["top"].split()[-1].isdigit():
            hands = [a.view(k)["hand"] for k in range(4)]
            assert hands == [b.view(k)["hand"] for k in range(4)]
            same_hands += 1
    assert same_hands >= 10


def test_the_same_agents_sit_at_every_variant() -> None:
    out = as_json("classic", "classic", "--agents", "greedy,uniform", "--players", "2",
                  "--games", "20")
    assert out["agents"] == ["greedy", "uniform"] and out["policy"] is None
    for m in out["metrics"].values():  # the same players on the same rules: no difference
        assert all(d["mean"] in (0, None) for d in m["diff"])


# ------------------------------------------------------------------ paired differences
def test_a_rulebook_against_itself_differs_by_exactly_zero() -> None:
    out = as_json("classic", "classic", "--games", "60", "--seed", "3")
    for key, m in out["metrics"].items():
        assert m["values"][0] == m["values"][1], key
        (d,) = m["diff"]
        assert (d["mean"], d["low"], d["high"], d["significant"]) == (0, 0, 0, False), key
        assert d["n"] > 0
    text = run("compare", "classic", "classic", "--games", "60", "--seed", "3").stdout
    verdicts = [line for line in text.splitlines() if "→" in line]
    assert len(verdicts) == len(out["metrics"])
    assert all(line.endswith(", not significant)") for line in verdicts)


def test_stacking_lengthens_rounds_as_simulate_says() -> None:
    games, seed = 300, 0
    out = as_json("classic", "classic+stacking", "--games", str(games), "--seed", str(seed))
    plain = simulate(uno_rules.load_rulebook("classic"), games, 4, seed)
    stacked = simulate(uno_rules.load_rulebook("classic", house=["stacking"]), games, 4, seed)
    direct = (sum(stacked.turn_counts) - sum(plain.turn_counts)) / games
    d = out["metrics"]["turns"]["diff"][0]
    assert direct > 0 and d["mean"] > 0
    assert d["mean"] == pytest.approx(direct, abs=1e-4)  # every round has its turns
    assert d["low"] < d["mean"] < d["high"]
    turns = out["metrics"]["turns"]["values"]
    assert turns[0]["mean"] == plain.confidence()["length"]["turns"]["mean"]
    assert turns[1]["mean"] == stacked.confidence()["length"]["turns"]["mean"]
    first = out["metrics"]["first_player_win"]["values"]
    assert first[0]["count"] == plain.first_wins and first[1]["count"] == stacked.first_wins


def test_paired_is_significant_only_when_the_interval_excludes_zero() -> None:
    assert cmp.paired([1, 2, 3, 4], [2, 3, 4, 6])["significant"] is True
    mixed = cmp.paired([1, 2, 3, 4], [2, 1, 4, 3])
    assert mixed["mean"] == 0 and mixed["low"] < 0 < mixed["high"]
    assert mixed["significant"] is False
    # Rounds without a value on either side are left out of the pairs.
    assert cmp.paired([1, None, 3], [2, 5, None])["n"] == 1


# ------------------------------------------------------------------ the report
def test_json_keys() -> None:
    out = as_json("classic", "classic", "--house", "stacking", "--games", "20",
                  "--players", "3")
    assert set(out) == {"games", "players", "seed", "policy", "variants", "round_seeds",
                        "metrics", "timing"}
    assert out["variants"][1] == {"label": "classic + stacking", "rulebook": "classic",
                                  "house": ["stacking"], "decided": 20, "stalled": 0,
                                  "settings": {}}
    assert set(out["metrics"]) == {"first_player_win", "turns", "actions", "points",
                                   "cards_drawn", "stalled", "seat_0_win", "seat_1_win",
                                   "seat_2_win"}
    rate = out["metrics"]["seat_1_win"]
    assert set(rate["values"][0]) == {"count", "of", "rate", "low", "high"}
    assert set(rate["diff"][0]) == {"variant", "n", "mean", "low", "high", "significant"}
    assert rate["diff"][0]["variant"] == 1
    assert set(out["metrics"]["turns"]["values"][1]) == {"n", "mean", "low", "high"}


def test_the_verdict_reads_like_a_sentence() -> None:
    result = run("compare", "classic", "classic", "--house", "stacking", "--games", "40",
                 "--players", "2", "--seed", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[1] == "  A: classic (40 decided, 0 stalled)"
    turns = next(line for line in lines if line.startswith("  round length: ")
                 and line.endswith("significant)") and " turns (" in line)
    assert "(difference " in turns and "→" in turns


def test_three_variants_make_a_table_against_the_first() -> None:
    result = run("compare", "classic", "classic+stacking", "classic+seven_zero", "--games",
                 "20", "--players", "2")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.lstrip().startswith("metric"))
    assert "classic + stacking" in header and "classic + seven_zero" in header
    row = next(line for line in lines if line.lstrip().startswith("round length (turns)"))
    assert row.count("±") == 5  # three values, two differences
    out = as_json("classic", "classic+stacking", "classic+seven_zero", "--games", "20",
                  "--players", "2")
    assert [d["variant"] for d in out["metrics"]["turns"]["diff"]] == [1, 2]


def test_the_docs_example_is_what_compare_prints() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "simulation.md").read_text()
    block = text.split("uno-rules compare classic classic --house stacking --games 2000 "
                       "--players 4 --seed 1\n```\n\n```\n", 1)[1].split("```", 1)[0]
    shown = [line for line in block.splitlines() if line.strip() != "..."]
    result = run("compare", "classic", "classic", "--house", "stacking", "--games", "2000",
                 "--players", "4", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:len(shown)] == shown


def test_ctrl_c_before_a_whole_deal_stops_with_130_and_no_report(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = cmp.play_round
    calls = [0]

    def interrupted(*args: Any) -> Any:
        calls[0] += 1
        if calls[0] == 2:  # the second variant of the first deal
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(cmp, "play_round", interrupted)
    result = run("compare", "classic", "classic", "--games", "3")
    assert result.exit_code == 130 and result.stdout == ""
    assert result.stderr.strip() == "interrupted"


def test_ctrl_c_keeps_the_deals_every_variant_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    real = cmp.play_round
    calls = [0]

    def interrupted(*args: Any) -> Any:
        calls[0] += 1
        if calls[0] == 2 * 5 + 2:  # deal 6, variant B: five whole deals done
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(cmp, "play_round", interrupted)
    result = run("compare", "classic", "classic", "--house", "stacking", "--games", "40",
                 "--json")
    assert result.exit_code == 130, result.output
    out = json.loads(result.stdout)
    assert out["interrupted"] is True and out["games"] == 5 and out["games_requested"] == 40
    assert [v["decided"] + v["stalled"] for v in out["variants"]] == [5, 5]
    assert all(d["n"] == 5 for d in out["metrics"]["turns"]["diff"])
    # The five deals give what a run of five gives.
    calls[0] = -10**9
    five = json.loads(run("compare", "classic", "classic", "--house", "stacking", "--games",
                          "5", "--json").stdout)
    assert out["metrics"] == five["metrics"]
    calls[0] = 0
    text = run("compare", "classic", "classic", "--house", "stacking", "--games", "40")
    assert text.exit_code == 130
    assert "same 5 of 40 deals (interrupted; 4 players," in text.stdout.splitlines()[0]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("where", [["--workers", "2"], ["--scheduler", "local", "--workers", "2"]],
                         ids=["workers", "dask"])
def test_ctrl_c_elsewhere_keeps_whole_deals_as_one_process(where: list[str]) -> None:
    if where[0] == "--scheduler":
        pytest.importorskip("distributed", reason="the [dask] extra is not installed")
    variants = ["classic", "classic", "--house", "stacking"]
    args = [sys.executable, "-m", "uno_rules.cli", "compare", *variants, "--games",
            "1000000000", *where, "--json"]
    for wait in (3, 6, 15):  # until some deals are done (a loaded machine starts slowly)
        # In a session of its own, so that SIGINT goes to the whole group as a terminal's
        # Ctrl-C does: the workers get it too (and must stay quiet).
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True)
        with reaped(proc):
            time.sleep(wait)
            children = child_pids(proc.pid)
            os.killpg(proc.pid, signal.SIGINT)
            out, err = proc.communicate(timeout=120)
        assert proc.returncode == 130, (out, err)
        deadline = time.monotonic() + 10
        while any(pid_alive(p) for p in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(pid_alive(p) for p in children), "a worker outlived the run"
        if not out:  # not one deal finished: as one process, only "interrupted"
            assert err == "interrupted\n", err
            continue
        assert err == "", err
        got = json.loads(out)
        deals = got["games"]
        assert got["interrupted"] is True and got["games_requested"] == 1000000000
        assert 0 < deals < 1000000000
        assert [v["decided"] + v["stalled"] for v in got["variants"]] == [deals, deals]
        assert all(d["n"] == deals for d in got["metrics"]["turns"]["diff"])
        # Exactly what one process reports for those deals (the same seed), less timing.
        alone = as_json(*variants, "--games", str(deals))
        for report in (got, alone):
            del report["timing"]
        del got["interrupted"], got["games_requested"]
        assert got == alone
        return
    raise AssertionError("no deal finished in 15 s")
