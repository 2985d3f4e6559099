""""Continue from here" through the API (uno_rules/web/branch.py, docs/web.md): a new game
with an ended game's seats and seed, played to a step of its record, then live; the move
list the replay gives; what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_web_games import answer, client, create, finish, pick

from uno_rules.play.record import read_text
from uno_rules.web import branch
from uno_rules.web.http import ApiError


def steps(folder: Path, game: str) -> list[str]:
    """A game's record as kept on disk (the API gives it once the game is over)."""
    text = (folder / "games" / f"{game}.jsonl").read_text(encoding="utf-8")
    return [str(s["action"]) for s in read_text(text, "record").steps]


def test_continue_from_a_step_plays_the_record_to_it_then_goes_on(tmp_path: Path) -> None:
    c = client(tmp_path)
    body = {"rulebook": "classic", "players": 3, "humans": [0], "seed": 8, "round": True,
            "agents": "normal"}
    over = finish(c, create(c, **body))
    old = steps(tmp_path, over["game"])
    moves = c.get(f"/api/games/{over['game']}/replay?to=3&open=1").json()["moves"]
    assert moves == old and len(old) > 20  # the move list: every step, in notation
    for to in (0, 5, len(old) // 2, len(old)):
        made = c.post(f"/api/games/{over['game']}/branch", json={"to": to})
        assert made.status_code == 201, made.text
        state = made.json()
        assert state["game"] != over["game"] and state["seats"] == over["seats"]
        new = steps(tmp_path, state["game"])
        assert new[:to] == old[:to]  # the position is the old game's at that step
        if state["status"] == "playing":
            at = c.get(f"/api/games/{over['game']}/replay?to={len(new)}&seat=0").json()
            assert state["view"]["hand"] == at["view"]["hand"]
            # an ordinary game: restored from its answers, and played on by them
            again = client(tmp_path).get(f"/api/games/{state['game']}").json()
            assert again == state
            answer(c, state, pick(state))
    # in the middle: the new game's next move is the player's own, and may differ
    mid = c.post(f"/api/games/{over['game']}/branch", json={"to": len(old) // 2}).json()
    assert mid["status"] == "playing" and mid["prompt"]["seat"] == 0


def test_branching_is_refused_while_playing_and_out_of_range(tmp_path: Path) -> None:
    c = client(tmp_path)
    playing = create(c, rulebook="classic", players=2, humans=[0], seed=3, round=True)
    got = c.post(f"/api/games/{playing['game']}/branch", json={"to": 0})
    assert got.status_code == 409 and "once it is over" in got.json()["error"]
    over = finish(c, playing)
    total = len(steps(tmp_path, over["game"]))
    for to, code in ((total + 1, 400), (-1, 400), ("3", 400), (None, 400)):
        got = c.post(f"/api/games/{over['game']}/branch", json={"to": to})
        assert got.status_code == code, (to, got.text)
    assert c.post("/api/games/000000000000/branch", json={"to": 0}).status_code == 404


def test_hot_seat_and_a_match_continue_through_windows_and_round_ends(
        tmp_path: Path) -> None:
    c = client(tmp_path)
    for body in ({"humans": [0, 1], "round": True}, {"humans": [1], "round": False,
                                                     "set": {"target_score": 60}}):
        over = finish(c, create(c, rulebook="classic", players=3, seed=5, **body))
        old = steps(tmp_path, over["game"])
        for to in (len(old) // 3, len(old) - 1):
            made = c.post(f"/api/games/{over['game']}/branch", json={"to": to})
            assert made.status_code == 201, made.text
            assert steps(tmp_path, made.json()["game"])[:to] == old[:to]


def test_a_branch_that_fails_to_reach_its_step_leaves_no_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = client(tmp_path)
    over = finish(c, create(c, rulebook="classic", players=2, humans=[0], seed=3, round=True))
    before = {g["game"] for g in c.get("/api/games").json()["games"]}

    def diverges(live: object, script: object) -> None:
        raise ApiError(422, "the record's next step is not an option")
    monkeypatch.setattr(branch, "follow", diverges)
    got = c.post(f"/api/games/{over['game']}/branch", json={"to": 4})
    assert got.status_code == 422 and "not an option" in got.json()["error"]
    assert {g["game"] for g in c.get("/api/games").json()["games"]} == before
    assert {p.name.split(".")[0] for p in (tmp_path / "games").iterdir()} <= before
