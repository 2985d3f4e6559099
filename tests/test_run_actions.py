"""A run's actions as data: ``simulate_spec(on_actions=)`` hands each round's actions and
events (collected where the round is played) to the caller in round order, the same in one
process, in worker processes and on a Dask cluster, and the run's results are the same with
it; ``simulate --actions FILE`` writes them as JSON lines."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_distributed import cluster  # noqa: F401  (the fixture: a two-worker cluster)

import uno_rules
from uno_rules.cli import cli
from uno_rules.play.agents import parse_agents
from uno_rules.play.match import Match
from uno_rules.sim.rounds import Round, RunSpec
from uno_rules.sim.simulate import simulate_spec
from uno_rules.sim.watch import Watched, watch_rounds

CLASSIC = uno_rules.load_rulebook("classic")
TED = uno_rules.load_rulebook("ted_lasso")  # out-of-turn windows and contests


def _watched(spec: RunSpec, **kw: Any) -> tuple[dict[str, Any], list[Watched], list[Round]]:
    """The run's statistics (less timing), its watched rounds and its records."""
    seen: list[Watched] = []
    records: list[Round] = []
    out = simulate_spec(spec, on_actions=seen.append, on_round=records.append, **kw).to_json()
    del out["timing"]
    return out, seen, records


def _plain(spec: RunSpec) -> dict[str, Any]:
    out = simulate_spec(spec).to_json()
    del out["timing"]
    return out


@pytest.mark.parametrize("spec", [
    RunSpec(CLASSIC, 4, 3, 8),
    RunSpec(TED, 3, 5, 6, agents=parse_agents("greedy,uniform,play_first", 3)),
    RunSpec(CLASSIC, 3, 7, 5, "uniform", max_actions=40)], ids=["policy", "agents", "stalls"])
def test_a_runs_actions_reach_the_caller_in_round_order_and_change_nothing(
        spec: RunSpec) -> None:
    stats, seen, records = _watched(spec)
    assert stats == _plain(spec)
    assert [w.record for w in seen] == records and len(seen) == spec.games
    assert seen == list(watch_rounds(spec.rulebook, spec.games, spec.players, spec.seed,
                                     spec.max_actions, spec.policy, agents=spec.agents))
    assert all(len(w.actions) == w.record.actions and w.actions for w in seen)
    assert all(type(a) is str and type(e) is tuple for w in seen for a, e in w.actions)
    assert _watched(spec, workers=2) == (stats, seen, records)  # as data, from the workers


def test_a_runs_actions_are_the_same_on_a_dask_cluster(cluster: str) -> None:  # noqa: F811
    from distributed import Client

    spec = RunSpec(TED, 3, 5, 6)
    here = _watched(spec)
    with Client(cluster) as client:
        assert _watched(spec, client=client) == here


def _simulate(tmp_path: Path, *extra: str) -> tuple[Any, dict[str, Any]]:
    result = CliRunner().invoke(cli, ["simulate", "ted_lasso", "--games", "12", "--players",
                                      "3", "--seed", "4", "--json", "-q", *extra])
    stats = json.loads(result.stdout) if result.exit_code == 0 else {}
    stats.pop("timing", None)
    return result, stats


def test_simulate_writes_each_rounds_actions_as_a_json_line(tmp_path: Path) -> None:
    plain, stats = _simulate(tmp_path, "--csv", str(tmp_path / "plain.csv"))
    assert plain.exit_code == 0
    lines = tmp_path / "actions.jsonl"
    watched, again = _simulate(tmp_path, "--actions", str(lines), "--csv",
                               str(tmp_path / "rows.csv"))
    assert watched.exit_code == 0 and again == stats  # the results unchanged
    assert (tmp_path / "rows.csv").read_text() == (tmp_path / "plain.csv").read_text()
    rounds = [json.loads(line) for line in lines.read_text().splitlines()]
    with (tmp_path / "rows.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["round"] for r in rounds] == list(range(1, 13))
    assert [str(r["seed"]) for r in rounds] == [row["seed"] for row in rows]
    assert [str(len(r["actions"])) for r in rounds] == [row["actions"] for row in rows]
    spec = RunSpec(TED, 3, 4, 12)
    assert [[(a["action"], a["events"]) for a in r["actions"]] for r in rounds] == \
        [[(a, json.loads(json.dumps(e))) for a, e in w.actions] for w in
         watch_rounds(TED, 12, 3, 4)]
    assert spec.games == len(rounds)
    workers = tmp_path / "workers.jsonl"
    assert _simulate(tmp_path, "--actions", str(workers), "--workers", "2")[0].exit_code == 0
    assert workers.read_bytes() == lines.read_bytes()


@pytest.mark.parametrize(("args", "said"), [
    (["--actions", "{tmp}/no/such/folder.jsonl"],
     "--actions {tmp}/no/such/folder.jsonl: can't write it: No such file or directory"),
    (["--actions", "{tmp}/no/m.jsonl", "--match"],
     "--actions {tmp}/no/m.jsonl: can't write it: No such file or directory")])
def test_an_actions_file_that_cant_be_written_is_one_line(tmp_path: Path, args: list[str],
                                                          said: str) -> None:
    result, _ = _simulate(tmp_path, *(a.format(tmp=tmp_path) for a in args))
    assert result.exit_code == 1
    assert result.output.strip() == said.format(tmp=tmp_path)


def test_the_docs_line_is_what_the_command_writes(tmp_path: Path) -> None:
    """docs/simulation.md's example line begins as the command's first line does."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "simulation.md").read_text()
    shown = next(line for line in text.splitlines() if line.startswith('{"round":1'))
    lines = tmp_path / "actions.jsonl"
    result = CliRunner().invoke(cli, ["simulate", "classic", "--games", "10", "--players",
                                      "4", "--seed", "1", "-q", "--actions", str(lines)])
    assert result.exit_code == 0
    assert lines.read_text().startswith(shown.removesuffix("...]}"))


def _replayed(rb: uno_rules.Rulebook, players: int, watched: Any) -> list[int]:
    """A watched match's rounds replayed from their actions into a match dealt from its
    seed (each round's seed checked): the final scores."""
    match = Match(rb, players, watched.record.seed)
    for k, (seed, actions) in enumerate(watched.rounds):
        assert match.game.seed == seed
        for action, events in actions:
            logged = len(match.game.log or ())
            match.game.apply(action)
            assert tuple((match.game.log or [])[logged:]) == events
        if k + 1 < len(watched.rounds) or not match.game.over:
            assert match.game.over
            match.next_round()
    if match.game.over and match.game.result is not None:
        match.next_round()
    return list(match.scores)


def test_a_match_runs_actions_are_each_rounds_and_change_nothing(tmp_path: Path) -> None:
    from uno_rules.sim.matchsim import simulate_matches_spec

    spec = RunSpec(TED, 3, 2, 4, max_rounds=3)
    seen: list[Any] = []
    stats = simulate_matches_spec(spec, on_actions=seen.append).to_json()
    plain = simulate_matches_spec(spec).to_json()
    for out in (stats, plain):
        del out["timing"]
    assert stats == plain and len(seen) == 4
    for watched in seen:
        assert len(watched.rounds) == watched.record.rounds
        assert _replayed(TED, 3, watched) == list(watched.record.scores)
    again: list[Any] = []
    simulate_matches_spec(spec, on_actions=again.append, workers=2)
    assert again == seen
    lines = tmp_path / "matches.jsonl"
    result, _ = _simulate(tmp_path, "--match", "--games", "4", "--seed", "2", "--max-rounds",
                          "3", "--actions", str(lines))
    assert result.exit_code == 0
    written = [json.loads(line) for line in lines.read_text().splitlines()]
    assert [(m["match"], m["seed"]) for m in written] == \
        [(k + 1, w.record.seed) for k, w in enumerate(seen)]
    assert [[(r["seed"], [a["action"] for a in r["actions"]]) for r in m["rounds"]]
            for m in written] == [[(s, [a for a, _ in acts]) for s, acts in w.rounds]
                                  for w in seen]


def test_a_ctrl_c_keeps_the_lines_of_the_rounds_counted(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    """A round's line is written with its count, or neither (as its --csv row)."""
    from conftest import ctrl_c_after_count

    counted = ctrl_c_after_count(monkeypatch, 7)
    lines = tmp_path / "actions.jsonl"
    result = CliRunner().invoke(cli, ["simulate", "classic", "--games", "40", "--json",
                                      "--actions", str(lines)])
    assert result.exit_code == 130 and json.loads(result.stdout)["games"] == 7
    assert [json.loads(line)["seed"] for line in lines.read_text().splitlines()] == \
        [r.seed for r in counted]
