""""Continue from here" in a record sent to the page (POST /api/replay/branch,
uno_rules/web/branch.py, docs/web.md): the record checked and replayed to its step, a new
game dealt as it was with the user at the seat chosen, its agents playing the record's
steps; a record that doesn't replay, or isn't this server's game, or is too large, refused
in one line, leaving no game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_record import _rechain
from test_web_branch import steps
from test_web_games import answer, client, create, finish, pick

from uno_rules.cli import cli
from uno_rules.engine.actions import Action
from uno_rules.engine.tables import action_table
from uno_rules.load.entry import load_rulebook
from uno_rules.play import driver
from uno_rules.play.agents import Observation, observation
from uno_rules.play.record import read_text
from uno_rules.web import branch
from uno_rules.web.http import ApiError
from uno_rules.web.limits import Limits

BODY = {"rulebook": "classic", "players": 3, "humans": [0], "seed": 8, "round": True,
        "agents": "normal"}


def a_record(folder: Path, **body: Any) -> str:
    """The record of a game played to its end on another server (its own data folder)."""
    c = client(folder)
    over = finish(c, create(c, **{**BODY, **body}))
    text: str = c.get(f"/api/games/{over['game']}/record").text
    return text


def games(c: Any) -> set[str]:
    return {g["game"] for g in c.get("/api/games").json()["games"]}


def test_a_record_continues_from_a_step_at_the_seat_chosen(tmp_path: Path) -> None:
    text = a_record(tmp_path / "elsewhere")
    c = client(tmp_path / "here")
    old = [json.loads(line)["action"] for line in text.splitlines() if '"step"' in line]
    for to, seat in ((0, None), (7, None), (len(old) // 2, 2), (len(old) - 1, 1)):
        got = c.post("/api/replay/branch", json={"record": text, "to": to, "seat": seat})
        assert got.status_code == 201, got.text
        state = got.json()
        me = 0 if seat is None else seat  # the record's seat: its human's
        assert [s == "human" for s in state["seats"]] == [s == me for s in range(3)]
        new = steps(tmp_path / "here", state["game"])
        assert new[:to] == old[:to]  # the record's position at that step
        at = c.post("/api/replay", json={"record": text, "to": len(new), "seat": me}).json()
        if state["status"] == "playing":
            assert state["view"]["hand"] == at["view"]["hand"]
            again = client(tmp_path / "here").get(f"/api/games/{state['game']}").json()
            assert again == state  # kept: restored from its files as it stands
            if state["prompt"]["seat"] == me:
                answer(c, state, pick(state))


def test_a_record_that_does_not_replay_is_refused_in_one_line(tmp_path: Path) -> None:
    text = a_record(tmp_path / "elsewhere")
    c = client(tmp_path / "here")
    lines = text.splitlines()
    header = json.loads(lines[0])
    step = next(i for i, line in enumerate(lines) if '"step": 3' in line)
    forged = [*lines[:step], lines[step].replace(json.loads(lines[step])["action"],
                                                 "0 draw"), *lines[step + 1:]]
    deal = json.loads(lines[1])
    reseeded = [lines[0], json.dumps({**deal, "seed": deal["seed"] + 1}), *lines[2:]]
    edited = [*lines[:step], lines[step].replace('"step": 3', '"step": 3 '), *lines[step + 1:]]
    named = [json.dumps({**header, "source": "/etc/passwd"}), *lines[1:]]
    cases = [("\n".join(_rechain(forged)), 422, "replay differs"),
             ("\n".join(_rechain(reseeded)), 422, "record:2: replay differs"),
             ("\n".join(edited).replace('"check": "', '"check": "0', 1), 422, "changed"),
             ("\n".join(_rechain(named)), 422, "not a shipped one"),
             ("not a record", 422, "record:1"),
             (None, 400, "record")]
    for record, status, words in cases:
        got = c.post("/api/replay/branch", json={"record": record, "to": 5})
        assert got.status_code == status, (words, got.text)
        error = got.json()["error"]
        assert words in error and "\n" not in error and "Traceback" not in error
    for to, seat in ((-1, None), (10 ** 6, None), ("3", None), (2, 3), (2, "0")):
        got = c.post("/api/replay/branch", json={"record": text, "to": to, "seat": seat})
        assert got.status_code == 400, (to, seat, got.text)
    assert games(c) == set()  # nothing half made is kept


def test_a_game_that_is_not_the_records_is_refused_where_it_differs(tmp_path: Path) -> None:
    one, other = (read_text(a_record(tmp_path / str(seed), seed=seed)) for seed in (8, 9))
    branch.check_same(one, one, len(one.steps))  # the record's own game: taken
    for made in (other, read_text("\n".join(a_record(tmp_path / "8").splitlines()[:12]))):
        with pytest.raises(ApiError) as refused:
            branch.check_same(one, made, 20)
        assert refused.value.status == 422 and refused.value.message.startswith("record:")


def test_a_record_over_the_body_limit_is_a_413(tmp_path: Path) -> None:
    text = a_record(tmp_path / "elsewhere")
    c = client(tmp_path / "here", Limits(max_body=len(text) // 2))
    got = c.post("/api/replay/branch", json={"record": text, "to": 1})
    assert got.status_code == 413 and "\n" not in got.json()["error"]
    assert games(c) == set()


def test_a_game_continued_from_a_record_branches_again(tmp_path: Path) -> None:
    text = a_record(tmp_path / "elsewhere")
    c = client(tmp_path / "here")
    state = c.post("/api/replay/branch", json={"record": text, "to": 9, "seat": 1}).json()
    over = finish(c, state)
    mine = steps(tmp_path / "here", over["game"])
    for to in (4, 12):
        got = c.post(f"/api/games/{over['game']}/branch", json={"to": to})
        assert got.status_code == 201, got.text
        assert steps(tmp_path / "here", got.json()["game"])[:to] == mine[:to]


def first_moves(n: int) -> list[str]:
    """The first ``n`` steps of a classic round (3 players, seed 4), each seat taking its
    first option."""
    rb = load_rulebook("classic")
    game, table = rb.new_game(3, 4, log=True), action_table(rb, 3)
    for _ in range(n):
        driver.take(game, table[game.legal_ids()[0]])
    return [str(a) for a in game.history]


def test_a_scripted_agent_is_shown_every_event_of_the_script_once_it_plays() -> None:
    rb = load_rulebook("classic")
    game, table = rb.new_game(3, 4, log=True), action_table(rb, 3)
    shown: list[tuple[Action, tuple[Action, ...]]] = []

    class Watching:  # takes its first option, as the script did
        def choose(self, obs: Observation) -> int | None:
            shown.append((table[obs.ids[0]], obs.events))
            return obs.ids[0]
    script = first_moves(20)
    agent = branch.Scripted(Watching(), script[:12], lambda: len(game.history))
    seen = 0
    while len(game.history) < 20:
        ids = game.legal_ids()
        if table[ids[0]].seat == 1:  # the scripted seat: the script's steps, then its own
            obs = observation(game, 1, ids, "turn", seen, rb, table)
            seen = len(game.history)
            choice = agent.choose(obs)
            assert choice is not None
            driver.take(game, table[choice])
        else:
            driver.take(game, table[ids[0]])
    assert [str(a) for a in game.history] == script  # the script played as written
    first, events = shown[0]
    assert len(shown) < len(script) // 3 + 1 and first.seat == 1
    # every step since the deal, not only those since the script's last one for seat 1
    assert [str(e) for e in events] == script[:len(events)] and len(events) > 12


def test_a_simulated_round_continues_dealt_from_its_own_seed(tmp_path: Path) -> None:
    made = CliRunner().invoke(cli, ["simulate", "classic", "--games", "3", "--players", "3",
                                    "--seed", "2", "--agents", "greedy,normal,uniform",
                                    "--record-dir", str(tmp_path / "rec"), "-q"])
    assert made.exit_code == 0, made.output
    text = next((tmp_path / "rec").glob("*.jsonl")).read_text(encoding="utf-8")
    assert json.loads(text.splitlines()[0])["seed"] > 2 ** 53  # not a seed the page keeps
    c = client(tmp_path / "here")
    old = [json.loads(line)["action"] for line in text.splitlines() if '"step"' in line]
    to = next(n for n in range(10, len(old)) if old[n][0] == "2")  # seat 2's turn next
    got = c.post("/api/replay/branch", json={"record": text, "to": to, "seat": 2})
    assert got.status_code == 201, got.text
    state = got.json()
    assert state["seats"] == ["greedy", "normal", "human"] and state["prompt"]["seat"] == 2
    assert steps(tmp_path / "here", state["game"]) == old[:to]
    at = c.post("/api/replay", json={"record": text, "to": to, "seat": 2}).json()
    assert state["view"]["hand"] == at["view"]["hand"]
    again = client(tmp_path / "here").get(f"/api/games/{state['game']}").json()
    assert again == state
    over = finish(c, answer(c, state, pick(state)))  # and once over, continued again
    mine = steps(tmp_path / "here", over["game"])
    got = c.post(f"/api/games/{over['game']}/branch", json={"to": to + 2})
    assert got.status_code == 201, got.text
    assert steps(tmp_path / "here", got.json()["game"])[:to + 2] == mine[:to + 2]


def test_the_tables_contests_come_out_as_recorded(tmp_path: Path) -> None:
    # attack's launcher is settled at the table: a simulation's random moves drew from
    # the round's RNG in between, so only the record says how each came out
    made = CliRunner().invoke(cli, ["simulate", "attack", "--games", "3", "--players", "3",
                                    "--seed", "3", "--record-dir", str(tmp_path / "rec"),
                                    "--record-where", "1,3", "-q"])
    assert made.exit_code == 0, made.output
    c = client(tmp_path / "here")
    for path in sorted((tmp_path / "rec").glob("*.jsonl")):
        text = path.read_text(encoding="utf-8")
        old = [json.loads(line)["action"] for line in text.splitlines() if '"step"' in line]
        got = c.post("/api/replay/branch", json={"record": text, "to": len(old) - 1})
        assert got.status_code == 201, got.text
        state = got.json()
        assert steps(tmp_path / "here", state["game"]) == old[:-1]
        assert client(tmp_path / "here").get(f"/api/games/{state['game']}").json() == state


def test_a_match_record_continues_past_its_first_round(tmp_path: Path) -> None:
    text = a_record(tmp_path / "elsewhere", humans=[1], round=False,
                    set={"target_score": 250})
    lines = [json.loads(line) for line in text.splitlines()]
    assert sum("round" in line for line in lines) > 1  # more than one round was dealt
    old = [line["action"] for line in lines if "step" in line]
    later = next(i for i, line in enumerate(lines) if line.get("round") == 2)
    to = next(line["step"] for line in lines[later:] if "step" in line) + 3
    c = client(tmp_path / "here")
    got = c.post("/api/replay/branch", json={"record": text, "to": to, "seat": 0})
    assert got.status_code == 201, got.text
    state = got.json()
    assert steps(tmp_path / "here", state["game"])[:to] == old[:to]
    assert client(tmp_path / "here").get(f"/api/games/{state['game']}").json() == state


def test_a_restore_file_whose_script_is_changed_is_a_422(tmp_path: Path) -> None:
    text = a_record(tmp_path / "elsewhere")
    c = client(tmp_path / "here")
    state = c.post("/api/replay/branch", json={"record": text, "to": 20, "seat": 0}).json()
    path = tmp_path / "here" / "games" / f"{state['game']}.json"
    meta = json.loads(path.read_text(encoding="utf-8"))
    k = next(i for i, step in enumerate(meta["script"]) if step.startswith("1 "))
    meta["script"][k] = "1 play nothing"  # no option of seat 1's
    path.write_text(json.dumps(meta), encoding="utf-8")
    got = client(tmp_path / "here").get(f"/api/games/{state['game']}")
    assert got.status_code == 422 and "script does not play" in got.json()["error"]
