"""The games API of the web playground (uno_rules/web/games.py, view.py): play against
agents through the JSON API, reload, restart, eviction, hot-seat, hidden information,
replays, and hostile bodies (always a 4xx, never a 500 or a hang)."""

from __future__ import annotations

import json
import signal
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about httpx2
    from starlette.testclient import TestClient

from test_record import _rechain
from web_client import get_urls, local_client, views

from uno_rules.play.record import read, read_text
from uno_rules.web.limits import Limits

HOSTILE = Path(__file__).parent / "hostile"
ROUND = {"rulebook": "classic", "players": 2, "humans": [0], "seed": 1, "round": True}


def client(folder: Path, limits: Limits | None = None) -> TestClient:
    return local_client(folder, limits)


def pick(state: dict[str, Any]) -> str:
    """An answer: a colour when asked, else a wild, else any card played, else the first
    option (or Enter when the prompt lets the chance go)."""
    prompt = state["prompt"]
    options = prompt["options"]
    colours = [o for o in options if o["kind"] == "color"]
    wilds = [o for o in options if o["kind"] == "play" and o["card"]["colour"] is None]
    plays = [o for o in options if o["kind"] == "play"]
    if prompt["kind"] != "choose" or prompt["can_pass"]:
        return ""
    chosen = (colours or wilds or plays or options)[0]
    return str(chosen["index"])


def answer(c: TestClient, state: dict[str, Any], text: str) -> dict[str, Any]:
    r = c.post(f"/api/games/{state['game']}/answer",
               json={"version": state["version"], "answer": text})
    assert r.status_code == 200, r.text
    got: dict[str, Any] = r.json()
    assert got["version"] == state["version"] + 1
    return got


def create(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    state: dict[str, Any] = r.json()
    return state


def finish(c: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    """The game played to its end."""
    while state["prompt"] is not None:
        state = answer(c, state, pick(state))
    return state


def test_a_round_against_an_agent_to_its_end_with_a_wild_colour(tmp_path: Path) -> None:
    c = client(tmp_path)
    state = create(c, **ROUND)
    assert state["status"] == "playing" and state["seats"] == ["human", "greedy"]
    assert state["view"]["seat"] == 0 and len(state["view"]["hand"]) == 7
    kinds = set()
    while state["prompt"] is not None:
        assert state["prompt"]["seat"] == 0
        kinds |= {o["kind"] for o in state["prompt"]["options"]}
        state = answer(c, state, pick(state))
    assert "color" in kinds  # a wild was played and its colour chosen
    assert state["status"] == "over"
    assert state["result"]["winners"] and state["result"]["text"].startswith("round 1 over")
    assert any("plays wild" in line for line in state["log"])
    assert any(line.startswith("seat 0 chooses") for line in state["log"]), state["log"]
    # the record is the game's, and replay reads it
    text = c.get(f"/api/games/{state['game']}/record").text
    record = read_text(text)
    assert record.ended and len(record.steps) >= state["version"]
    assert read(tmp_path / "games" / f"{state['game']}.jsonl").replay().game.over


def test_an_attack_round_draws_its_table_outcomes_and_draws_its_cards(tmp_path: Path) -> None:
    """UNO Attack on the page: a hit's count is a table outcome, drawn at the table (never
    a human's prompt); its cards (no-colour wilds of unknown ranks too) come as cards."""
    c = client(tmp_path)
    state = create(c, **{**ROUND, "rulebook": "attack"})
    seen = set()
    while state["prompt"] is not None:
        assert all(o["kind"] != "outcome" for o in state["prompt"]["options"])
        seen |= {o["card"]["rank"] for o in state["prompt"]["options"] if o["card"]}
        state = answer(c, state, pick(state))
    assert state["status"] == "over"
    assert any(line.startswith("the table's outcome: ") for line in state["log"])
    assert seen and all(isinstance(rank, str) for rank in seen)
    record = read(tmp_path / "games" / f"{state['game']}.jsonl")
    assert any(step["action"].startswith("outcome ") for step in record.steps)
    assert record.replay().game.over


def test_a_stale_version_is_a_409_with_the_state(tmp_path: Path) -> None:
    c = client(tmp_path)
    state = create(c, **ROUND)
    moved = answer(c, state, pick(state))
    r = c.post(f"/api/games/{state['game']}/answer",
               json={"version": state["version"], "answer": pick(state)})
    assert r.status_code == 409 and "another tab" in r.json()["error"]
    assert r.json()["state"] == moved


def test_another_seats_hand_is_never_in_the_state(tmp_path: Path) -> None:
    c = client(tmp_path)
    state = create(c, rulebook="classic", players=3, humans=[0], seed=4, round=True)
    store = c.app.state.games  # type: ignore[attr-defined]
    for _ in range(12):
        if state["prompt"] is None:
            break
        game = store.live[state["game"]].match.game
        own = sorted(card["name"] for card in state["view"]["hand"])
        assert own == sorted(n.replace("_", " ") for n in game.view(0)["hand"])
        text = json.dumps(state)
        assert '"hands"' not in text
        for line in state["log"]:  # others' draws never name the cards
            if line.startswith(("seat 1 draws", "seat 2 draws")):
                assert ":" not in line, line
        state = answer(c, state, pick(state))


def test_reload_restart_and_eviction_go_on_as_an_unbroken_game(tmp_path: Path) -> None:
    body = {"rulebook": "classic", "players": 3, "humans": [0], "seed": 11,
            "agents": "greedy,uniform,lookahead", "set": {"target_score": 150}}
    unbroken = client(tmp_path / "a")
    a = create(unbroken, **body)
    b_dir = tmp_path / "b"
    b = create(client(b_dir), **body)
    answers = 0
    c = client(b_dir)
    while a["prompt"] is not None:
        assert b["prompt"] is not None
        if answers % 7 == 0 or b["prompt"]["kind"] == "next_round":
            c = client(b_dir)  # a new server on the same folder: the game comes back
            got = c.get(f"/api/games/{b['game']}")
            assert got.status_code == 200 and got.json() == b  # restart = the same state
        assert c.get(f"/api/games/{b['game']}").json() == b  # reload: just GET
        reply = pick(a)
        a, b = answer(unbroken, a, reply), answer(c, b, reply)
        assert {**a, "game": ""} == {**b, "game": ""}
        answers += 1
    assert a["status"] == "over" and a["round"] > 1 and answers > 10
    records = [(tmp_path / d / "games" / f"{s['game']}.jsonl").read_text()
               for d, s in (("a", a), ("b", b))]
    assert records[0] == records[1]


def test_games_over_the_memory_limit_come_back_from_disk(tmp_path: Path) -> None:
    c = client(tmp_path, Limits(max_live_games=1))
    first = create(c, **ROUND)
    first = answer(c, first, pick(first))
    second = create(c, **{**ROUND, "seed": 2})
    store = c.app.state.games  # type: ignore[attr-defined]
    assert list(store.live) == [second["game"]]
    assert c.get(f"/api/games/{first['game']}").json() == first
    assert list(store.live) == [first["game"]]
    answer(c, first, pick(first))
    assert c.get(f"/api/games/{second['game']}").json() == second


def test_hot_seat_passes_the_keyboard_and_shows_one_hand(tmp_path: Path) -> None:
    c = client(tmp_path)
    state = create(c, rulebook="classic", players=3, humans=[0, 2], seed=3, round=True)
    seen = {"pass_to": 0, "choose": 0}
    for _ in range(40):
        prompt = state["prompt"]
        if prompt is None:
            break
        seen[prompt["kind"]] = seen.get(prompt["kind"], 0) + 1
        if prompt["kind"] == "choose":
            assert state["view"]["seat"] == prompt["seat"]
            assert len(state["view"]["hand"]) == state["view"]["seats"][prompt["seat"]]["cards"]
        else:  # pass_to, window, next round: nobody's hand
            assert state["view"]["seat"] is None and state["view"]["hand"] == []
        if prompt["kind"] == "pass_to":
            passed_to = prompt["seat"]
            state = answer(c, state, "")
            assert state["prompt"]["seat"] in (passed_to, None)
        else:
            state = answer(c, state, pick(state))
    assert seen["pass_to"] >= 2 and seen["choose"] >= 2


def test_the_game_list_and_the_replay_viewer(tmp_path: Path) -> None:
    c = client(tmp_path)
    state = create(c, **ROUND)
    for _ in range(3):
        state = answer(c, state, pick(state))
    games = c.get("/api/games").json()["games"]
    assert [g["game"] for g in games] == [state["game"]]
    assert games[0]["humans"] == [0] and games[0]["status"] == "playing"
    got = c.get(f"/api/games/{state['game']}/replay?to=1&seat=0").json()
    assert got["step"] == 1 and got["view"]["seat"] == 0 and got["action"]
    assert c.get(f"/api/games/{state['game']}/replay?to=1&seat=1").status_code == 403
    state = finish(c, state)
    got = c.get(f"/api/games/{state['game']}/replay?to=1&seat=1").json()
    assert got["step"] == 1 and got["view"]["seat"] == 1 and got["action"]
    text = c.get(f"/api/games/{state['game']}/record").text
    posted = c.post("/api/replay", json={"record": text, "to": 0, "open": True})
    assert posted.status_code == 200, posted.text
    assert posted.json()["step"] == 0 and len(posted.json()["view"]["hands"]) == 2
    bad = text.replace("draws", "drwas", 1)
    r = c.post("/api/replay", json={"record": bad})
    assert r.status_code == 422 and "check doesn't match" in r.json()["error"]


def test_null_is_the_default(tmp_path: Path) -> None:
    state = create(client(tmp_path), rulebook="classic", players=None, humans=None,
                   agents=None, seed=None, round=None, house=None, set=None)
    assert state["players"] == 4 and state["seats"] == ["human"] + ["greedy"] * 3
    assert not state["one_round"]
    # an overlay's base: null is classic (it was loaded as a rulebook named None: a 422)
    c = client(tmp_path)
    overlay = create(c, text="settings: {hand_size: 5}\n", base=None, **{**ROUND,
                                                                       "rulebook": None})
    assert overlay["rulebook"] == "classic" and len(overlay["view"]["hand"]) == 5
    c.app.state.games.live.clear()  # and it comes back from its files so
    assert c.get(f"/api/games/{overlay['game']}").json() == overlay


@pytest.mark.parametrize(("body", "status", "words"), [
    ({**ROUND, "agents": "os:system"}, 400, "unknown agent 'os:system'"),
    ({**ROUND, "agents": "tests.hostile.agents.cheats:Cheat"}, 400, "unknown agent"),
    ({**ROUND, "agents": "greedy,greedy,greedy"}, 400, "3 names for 2 players"),
    ({**ROUND, "players": 11}, 400, "players"),
    ({**ROUND, "players": 1}, 400, "players"),
    ({**ROUND, "players": True}, 400, "players"),
    ({**ROUND, "players": "4"}, 400, "players"),
    ({**ROUND, "humans": [2]}, 400, "seats are 0 to 1"),
    ({**ROUND, "humans": [0, 0]}, 400, "humans"),
    ({**ROUND, "humans": "0"}, 400, "humans"),
    ({**ROUND, "seed": -1}, 400, "seed"),
    ({**ROUND, "seed": 2 ** 80}, 400, "seed"),
    ({**ROUND, "seed": 1.5}, 400, "seed"),
    ({**ROUND, "round": "yes"}, 400, "round"),
    ({**ROUND, "rulebook": "/etc/passwd"}, 400, "no such shipped rulebook"),
    ({**ROUND, "rulebook": "../rulebooks/classic"}, 400, "no such shipped rulebook"),
    ({**ROUND, "house": ["/etc/passwd"]}, 400, "no such shipped house rule"),
    ({**ROUND, "set": {"no_such_setting": "1"}}, 422, "problem"),
    ({"players": 2}, 400, "give"),
    ({**ROUND, "text": "name: x"}, 400, "give"),
])
def test_hostile_create_bodies_are_refused(tmp_path: Path, body: dict[str, Any], status: int,
                                           words: str) -> None:
    r = client(tmp_path).post("/api/games", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert not list((tmp_path / "games").glob("*.json*"))  # nothing kept
    assert "tests.hostile.agents.cheats" not in sys.modules  # never imported


def test_hostile_answers_are_refused(tmp_path: Path) -> None:
    c = client(tmp_path)
    state = create(c, **ROUND)
    url = f"/api/games/{state['game']}/answer"
    v = state["version"]
    for body, status, words in [
            ({"version": v, "answer": "x" * 10_000}, 400, "at most"),
            ({"version": v, "answer": 3}, 400, "string"),
            ({"version": str(v), "answer": "1"}, 400, "version"),
            ({"version": v, "answer": "q"}, 400, "never quit"),
            ({"version": v, "answer": "1\n2"}, 400, "one line"),
            ({"version": v, "answer": "purple 99"}, 400, ""),
            ({"version": v, "answer": "?"}, 400, "")]:
        r = c.post(url, json=body)
        assert r.status_code == status, (body, r.text)
        assert words in r.json()["error"]
    assert c.post(url, content=b"[" * 100_000).status_code == 400
    lone = c.post(url, content=b'{"version": 0, "answer": "\\udcff"}')  # a lone surrogate
    assert lone.status_code == 400, lone.text
    assert c.get(f"/api/games/{state['game']}").json() == state  # nothing moved
    for bad in ("../../etc", "0" * 12, "x"):
        assert c.get(f"/api/games/{bad}").status_code == 404
    assert c.post("/api/games/000000000000/answer",
                  json={"version": 0, "answer": ""}).status_code == 404


def test_a_round_that_never_ends_stalls_within_its_budget(tmp_path: Path) -> None:
    text = (HOSTILE / "exits" / "fat_hands.yaml").read_text()
    c = client(tmp_path, Limits(play_actions=300))
    state = create(c, text=text, players=2, humans=[], seed=1, round=True)
    assert state["status"] == "stalled" and state["prompt"] is None
    assert "300" in state["reason"] and "action" in state["reason"]
    again = client(tmp_path).get(f"/api/games/{state['game']}")
    assert again.json() == state  # its rulebook (the editor's text) loads after a restart
    record = tmp_path / "games" / f"{state['game']}.jsonl"
    assert read(record).replay().game.stalled == "actions"  # uno-rules replay reads it


def test_a_restored_games_refused_rulebook_file_is_its_own_422(tmp_path: Path) -> None:
    """The refusal the rulebook's lookup answers (an ApiError: a ValueError, as every
    UnoRulesError) is not taken for a broken restore file on its way out."""
    text = (HOSTILE / "exits" / "fat_hands.yaml").read_text()
    state = create(client(tmp_path, Limits(play_actions=300)), text=text, players=2,
                   humans=[], seed=1, round=True)
    editor = tmp_path / "games" / state["game"] / "editor.yaml"
    editor.unlink()
    editor.mkdir()  # not a regular file
    r = client(tmp_path).get(f"/api/games/{state['game']}")
    assert r.status_code == 422, r.text
    assert r.json()["error"] == (f"game {state['game']}: its editor.yaml is not a regular "
                                 "file in its own folder")


def test_work_over_its_time_or_at_a_stop_is_a_503_keeping_nothing(tmp_path: Path) -> None:
    """The agents check the request's bounds (uno_rules.web.work) before each choice: a
    request over ``request_seconds`` (0 here: at the first choice), or still at work when
    the server stops, answers 503 and keeps nothing: no game made, or the game back where
    its last answer left it, going on from there (also after a restart)."""
    text = (HOSTILE / "exits" / "fat_hands.yaml").read_text()
    r = client(tmp_path, Limits(request_seconds=0)).post("/api/games", json={
        "text": text, "players": 2, "humans": [], "agents": "lookahead", "seed": 1,
        "round": True})
    assert r.status_code == 503, r.text
    assert r.json()["error"] == ("the request's work ran over 0 s (serve --max-seconds) and "
                                 "was stopped: nothing of it is kept")
    assert not list((tmp_path / "games").iterdir())
    c = client(tmp_path)
    state = create(c, **{**ROUND, "agents": "lookahead"})
    stopping = c.app.state.stopping
    while True:  # an answer after which the agent moves
        stopping.set()  # as serve does at Ctrl-C
        r = c.post(f"/api/games/{state['game']}/answer",
                   json={"version": state["version"], "answer": pick(state)})
        stopping.clear()
        if r.status_code != 200:
            break
        state = r.json()  # (a colour to choose: the human's turn again)
    assert r.status_code == 503 and "the server is stopping" in r.json()["error"], r.text
    assert c.get(f"/api/games/{state['game']}").json() == state
    after = answer(c, state, pick(state))
    assert client(tmp_path).get(f"/api/games/{state['game']}").json() == after


def test_a_broken_rulebook_text_is_a_422_with_its_problems(tmp_path: Path) -> None:
    r = client(tmp_path).post("/api/games", json={"text": "name: x\nextends: classic\n"
                                                          "settings: {hand_size: -3}\n"})
    assert r.status_code == 422
    problems = r.json()["problems"]
    assert problems and problems[0]["file"] == "editor" and problems[0]["line"] == 3
    assert str(tmp_path) not in r.text
    r = client(tmp_path).post("/api/games", json={"text": "extends: /etc/passwd\nname: x\n"})
    assert r.status_code == 422 and str(tmp_path) not in r.text


def test_a_tampered_game_is_refused_and_the_others_go_on(tmp_path: Path) -> None:
    c = client(tmp_path)
    good, bad, gone = create(c, **ROUND), create(c, **{**ROUND, "seed": 2}), create(c, **ROUND)
    folder = tmp_path / "games"
    path = folder / f"{bad['game']}.jsonl"
    path.write_text(path.read_text().replace('"players": 2', '"players": 3', 1))
    (folder / f"{gone['game']}.jsonl").unlink()
    c = client(tmp_path)  # the server starts all the same
    r = c.get(f"/api/games/{bad['game']}")
    assert r.status_code == 422 and f"{bad['game']}.jsonl:" in r.json()["error"]
    assert c.get(f"/api/games/{gone['game']}").status_code == 410
    answer(c, c.get(f"/api/games/{good['game']}").json(), pick(good))
    meta = folder / f"{good['game']}.json"
    data = json.loads(meta.read_text())
    data["answers"].insert(0, "2")
    meta.write_text(json.dumps(data))
    r = client(tmp_path).get(f"/api/games/{good['game']}")
    assert r.status_code == 422, r.text
    assert {g["status"] for g in c.get("/api/games").json()["games"]} == {"playing"}


def test_a_runaway_effect_stops_the_game_or_refuses_the_deal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An action whose effects run away (the engine's budget for one action, made tiny
    here) stops the game, "stalled" with the reason, recorded so; a deal that runs away is
    a 422. Either way a restart gives the same answer."""
    from uno_rules.engine import game as game_module

    c = client(tmp_path)
    seen = set()
    for budget, seed in [(b, s) for b in (2, 0) for s in range(100)]:
        monkeypatch.setattr(game_module, "RUN_BUDGET", budget)
        if ("game" if budget else "deal") in seen:
            continue
        kept = len(list((tmp_path / "games").glob("*")))
        r = c.post("/api/games", json={"rulebook": "classic", "players": 4, "humans": [],
                                       "seed": seed, "round": True})
        if r.status_code == 422:
            error = r.json()["error"]
            assert "can't be dealt: classic:" in error and "loops" in error, error
            assert len(list((tmp_path / "games").glob("*"))) == kept  # nothing kept
            seen.add("deal")
            continue
        state = r.json()
        assert r.status_code == 201, r.text
        if state["status"] == "over":  # no action of this round ran away
            continue
        assert state["status"] == "stalled", r.text
        assert state["reason"].startswith("an effect runs away: classic:")
        assert client(tmp_path).get(f"/api/games/{state['game']}").json() == state
        record = read(tmp_path / "games" / f"{state['game']}.jsonl")
        assert record.lines[-1][1]["end"] == {"stalled": "runaway"}
        seen.add("game")
    assert seen == {"deal", "game"}


def test_hot_seat_windows_for_jump_ins(tmp_path: Path) -> None:
    c = client(tmp_path)
    state = create(c, rulebook="classic", house=["jump_in"], players=3, humans=[0, 2],
                   seed=5, round=True)
    windows = 0
    for _ in range(60):
        prompt = state["prompt"]
        if prompt is None:
            break
        if prompt["kind"] == "window" and prompt["seat"] is None:
            windows += 1
            assert state["view"]["seat"] is None and state["view"]["hand"] == []
            assert {o["index"] for o in prompt["options"]} <= {0, 2}
            assert prompt["options"] and prompt["can_pass"]
            r = c.post(f"/api/games/{state['game']}/answer",
                       json={"version": state["version"], "answer": "1"})
            assert r.status_code == 400 and "a seat number" in r.json()["error"]
        state = answer(c, state, pick(state))
    assert windows >= 2


def test_two_answers_to_one_version_one_wins(tmp_path: Path) -> None:
    import threading

    c = client(tmp_path)
    state = create(c, **ROUND)
    codes: list[int] = []

    def send() -> None:
        codes.append(c.post(f"/api/games/{state['game']}/answer",
                            json={"version": state["version"],
                                  "answer": pick(state)}).status_code)
    threads = [threading.Thread(target=send) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200, 409, 409, 409]
    assert c.get(f"/api/games/{state['game']}").json()["version"] == state["version"] + 1


def test_a_two_sided_deck_shows_the_backs_others_see(tmp_path: Path) -> None:
    c = client(tmp_path)
    state = create(c, rulebook="flip", players=3, humans=[0], seed=2, round=True)
    view = state["view"]
    assert view["side"] and view["draw_top_back"] is not None
    assert all(card["other"] is None for card in view["hand"])  # your own backs: unseen
    rows = view["seats"]
    assert "backs" in rows[0] and rows[0]["backs"] == []
    assert len(rows[1]["backs"]) == rows[1]["cards"] and rows[1]["backs"][0]["name"]


def test_a_house_rule_text_plays_over_its_base_and_comes_back(tmp_path: Path) -> None:
    overlay = "settings:\n  hand_size: 3\n"
    c = client(tmp_path)
    state = create(c, text=overlay, base="classic", players=2, seed=3, round=True)
    assert len(state["view"]["hand"]) in (3, 4)  # dealt 3 (one drawn if the agent began)
    state = answer(c, state, pick(state))
    assert client(tmp_path).get(f"/api/games/{state['game']}").json() == state
    record = read(tmp_path / "games" / f"{state['game']}.jsonl")
    assert record.header["rulebook"] == "classic" and len(record.header["house"]) == 1
    assert record.replay().players == 2  # its overlay is found beside the record
    # sent as text, a record naming a file is refused unread (never a path on the server)
    text = c.get(f"/api/games/{finish(c, state)['game']}/record").text
    r = c.post("/api/replay", json={"record": text})
    assert r.status_code == 422 and "not a shipped one" in r.json()["error"]
    assert c.get(f"/api/games/{state['game']}/replay").status_code == 200


def test_hostile_replay_requests_are_refused(tmp_path: Path) -> None:
    c = client(tmp_path)
    state = finish(c, create(c, **ROUND))
    url = f"/api/games/{state['game']}/replay"
    for query, words in [("?seat=9", "seats are 0 to 1"), ("?to=x", "whole numbers"),
                         ("?to=" + "9" * 40, "whole numbers"), ("?to=-1", "step")]:
        r = c.get(url + query)
        assert r.status_code == 400 and words in r.json()["error"], (query, r.text)
    text = c.get(f"/api/games/{state['game']}/record").text
    for body, status in [({"record": 5}, 400), ({"record": "{}"}, 422),
                         ({"record": "not json\n"}, 422), ({"record": text, "seat": -1}, 400),
                         ({"record": text, "open": "yes"}, 400)]:
        r = c.post("/api/replay", json=body)
        assert r.status_code == status, (body, r.text)
    foreign = text.replace('"source": "classic"', '"source": "/etc/passwd"')
    r = c.post("/api/replay", json={"record": foreign})
    assert r.status_code == 422  # its chain is broken before its path is looked at


def test_a_record_naming_fewer_seats_than_it_plays_is_a_422(tmp_path: Path) -> None:
    """It used to crash the answer (500): the view looked up a seat's name not there."""
    c = client(tmp_path)
    state = finish(c, create(c, **ROUND))
    lines = c.get(f"/api/games/{state['game']}/record").text.splitlines()
    header = json.loads(lines[0])
    header["seats"] = header["seats"][:1]  # 1 name for 2 players, the chain made again
    r = c.post("/api/replay", json={"record": "\n".join(_rechain([json.dumps(header),
                                                                   *lines[1:]])) + "\n"})
    assert r.status_code == 422, r.text
    assert r.json()["error"] == "record:1: 1 seat names for 2 players: a record names every " \
                                "seat, or none"


def test_any_line_typed_is_a_200_or_a_400(tmp_path: Path) -> None:
    c = client(tmp_path)
    state = create(c, rulebook="classic", house=["jump_in"], players=3, humans=[0, 1],
                   seed=8, round=True)
    lines = ["", " ", "0", "-1", "99999999", "1e5", "red", "wild blue", "catch 9", "uno",
             "\x00", "\U0001F0A1", "play", "draw draw", "pass", "2", "1", "keep", "seat 1",
             "challenge", "?", "help", "+4", "r5 uno", "jump in red 5", "1" * 199]
    codes = set()
    for k in range(150):
        if state["prompt"] is None:
            break
        r = c.post(f"/api/games/{state['game']}/answer",
                   json={"version": state["version"], "answer": lines[k % len(lines)]})
        assert r.status_code in (200, 400), r.text
        codes.add(r.status_code)
        if r.status_code == 200:
            state = r.json()
        else:
            state = answer(c, state, pick(state))
    assert codes == {200, 400}


def test_a_killed_server_loses_nothing(tmp_path: Path) -> None:
    """The real server (uno-rules serve), killed outright mid-game: started again on the
    same folder, the game is where it was and goes on."""
    pytest.importorskip("uvicorn")
    import urllib.request

    from test_web_command import serving

    def call(url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as got:
            out: dict[str, Any] = json.load(got)
            return out

    data = str(tmp_path / "data")
    with serving("--port", "0", "--data-dir", data) as (process, url, _):
        state = call(url + "api/games", {**ROUND, "seed": 4})
        game = f"{url}api/games/{state['game']}"
        state = call(game + "/answer", {"version": 0, "answer": pick(state)})
        process.kill()  # no shutdown: what was answered is on disk already
        process.wait()
    with serving("--port", "0", "--data-dir", data) as (process, url, _):
        game = f"{url}api/games/{state['game']}"
        assert call(game) == state
        after = call(game + "/answer", {"version": state["version"], "answer": pick(state)})
        assert after["version"] == state["version"] + 1
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0


def test_an_answer_not_kept_when_the_server_stopped_is_undone(tmp_path: Path) -> None:
    """Stopped after an answer's moves were recorded but before its restore file was
    written (that answer never got its reply): the game comes back where the last answer
    kept left it, its record cut back to match, and goes on as an unbroken game."""
    c = client(tmp_path)
    state = create(c, **{**ROUND, "players": 3, "seed": 6})
    meta = tmp_path / "games" / f"{state['game']}.json"
    record = tmp_path / "games" / f"{state['game']}.jsonl"
    kept, kept_record = meta.read_text(), record.read_text()
    lost = answer(c, state, pick(state))
    assert len(record.read_text()) > len(kept_record)
    meta.write_text(kept)  # as if the server died before writing it
    c = client(tmp_path)
    assert c.get(f"/api/games/{state['game']}").json() == state
    assert record.read_text() == kept_record
    assert answer(c, state, pick(state)) == lost


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) |
                    st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.fixed_dictionaries({}, optional={
    "rulebook": st.sampled_from(["classic", "flip", "teams", "nope"]) | JSON,
    "players": JSON, "humans": JSON, "agents": st.sampled_from(["greedy", "uniform,greedy"]) |
    JSON, "seed": JSON, "round": JSON, "house": JSON, "set": JSON, "base": JSON}))
def test_any_create_body_is_a_game_or_a_4xx(tmp_path: Path, body: dict[str, Any]) -> None:
    r = client(tmp_path).post("/api/games", json=body)
    assert r.status_code in (201, 400, 422), r.text
    if r.status_code == 201:
        assert r.json()["status"] in ("playing", "over", "stalled")


# ------------------------------------------------------------------ hidden information
SEED = 4_503_599_627_370_449  # sixteen digits: in no answer by chance


@pytest.mark.parametrize("humans", [[0], [0, 2]], ids=["one human", "hot-seat"])
def test_no_endpoint_shows_a_game_in_play_beyond_the_seat_at_the_screen(
        tmp_path: Path, humans: list[int]) -> None:
    """A game in its middle: no GET endpoint, asked any seat or open variant, answers another
    seat's hand, the seed or the record; once the game is over, the record and the open
    replay come."""
    with client(tmp_path) as c:  # every part of the app started: the jobs' routes too
        hidden_then_shown(c, tmp_path, humans)


def hidden_then_shown(c: TestClient, tmp_path: Path, humans: list[int]) -> None:
    state = create(c, rulebook="classic", players=3, humans=humans, seed=SEED, round=True)
    for k in range(40):  # to the middle, at a seat's choice (hot-seat: its hand shows)
        if k >= 6 and state["prompt"]["kind"] == "choose":
            break
        state = answer(c, state, pick(state))
    assert state["prompt"] is not None, "the game must still be played"
    record = (tmp_path / "games" / f"{state['game']}.jsonl").read_text()
    seen = state["view"]["seat"]  # the Play tab's seat now: the only hand that may show
    assert seen is not None or humans != [0]
    shown = 0
    for url in get_urls(c, state["game"]):
        r = c.get(url)
        assert r.status_code < 500, (url, r.text)
        text = r.text
        assert str(SEED) not in text and record.splitlines()[0] not in text, url
        assert '"check"' not in text, url  # no line of the record
        data = r.json() if "json" in r.headers.get("content-type", "") else None
        for found in views(data):
            assert "hands" not in found, url
            assert found["seat"] == seen or (found["seat"] is None and not found["hand"]), url
            shown += bool(found["hand"])
        mine = f"/api/games/{state['game']}/"
        if url.startswith(mine + "record") or url.startswith(mine + "replay") and "open" in url:
            assert r.status_code == 403, url  # refused, not just empty
    assert shown > 0  # the checks saw hands: the seat's own, in the state and its replay
    assert c.get(f"/api/games/{state['game']}").json() == state  # nothing moved
    state = finish(c, state)
    got = c.get(f"/api/games/{state['game']}/record")
    assert got.status_code == 200 and read_text(got.text).header["seed"] == SEED
    opened = c.get(f"/api/games/{state['game']}/replay?open=1&to=0")
    assert opened.status_code == 200 and len(opened.json()["view"]["hands"]) == 3
    assert c.get(f"/api/games/{state['game']}/replay?seat=1").json()["view"]["seat"] == 1


def test_a_deck_without_colours_plays_to_its_end_its_cards_drawn_colourless(
        tmp_path: Path) -> None:
    """All Wild on the page: no colour is ever asked or shown, every card is drawn as a card
    with a rank and no colour (the page's wild look)."""
    c = client(tmp_path)
    state = create(c, rulebook="all_wild", players=3, humans=[0], seed=2, round=True)
    seen = 0
    while state["prompt"] is not None:
        assert all(o["kind"] != "color" for o in state["prompt"]["options"])
        for card in state["view"]["hand"] + [state["view"]["top"]]:
            assert card["colour"] is None and card["css"] is None and card["rank"], card
            seen += 1
        state = answer(c, state, pick(state))
    assert seen and state["view"]["top"]["colour"] is None


def test_several_piles_each_shown_and_played_on_by_its_number(tmp_path: Path) -> None:
    """Triple Play on the page: every pile's top card (as a card), open or closed and its
    press count, never a hidden limit; each play and press option names its pile, a play
    on pile 2 lands on pile 2, a press names the pile it presses."""
    c = client(tmp_path)
    state = create(c, rulebook="triple_play", players=3, humans=[0], seed=4, round=True)
    landed = pressed = turns = 0
    while state["prompt"] is not None:
        piles = state["view"]["piles"]
        assert [p["pile"] for p in piles] == [0, 1, 2]
        assert all(p["top"]["name"] and isinstance(p["open"], bool)
                   and isinstance(p["presses"], int) and p["cards"] >= 1 for p in piles)
        assert "limit" not in json.dumps(state["view"])
        options = state["prompt"]["options"]
        plays = [o for o in options if o["kind"] == "play"]
        assert all(isinstance(o["pile"], int) and piles[o["pile"]]["open"] for o in plays)
        presses = [o for o in options if o["kind"] == "press"]
        assert all(o["text"] == f"press pile {o['pile']}" and piles[o["pile"]]["open"]
                   for o in presses)
        on_two = [o for o in plays if o["pile"] == 2 and " + " not in o["card"]["name"]]
        draw = [o for o in options if o["kind"] == "draw"]
        turns += 1
        chosen = presses[-1] if presses else on_two[0] if on_two else \
            draw[0] if draw and turns % 2 else None
        if chosen is None:
            state = answer(c, state, pick(state))
            continue
        state = answer(c, state, str(chosen["index"]))
        if chosen["kind"] == "press":
            pressed += f"seat 0 presses discard pile {chosen['pile']}" in "\n".join(state["log"])
        elif chosen["kind"] == "play":
            landed += f"seat 0 plays {chosen['card']['name']} on discard pile 2" in state["log"]
    assert state["status"] == "over" and landed and pressed
    classic = create(c, **ROUND)
    assert classic["view"]["piles"] is None
    assert all(o["pile"] is None for o in classic["prompt"]["options"])


@pytest.mark.parametrize("rulebook, seed", [("dos", 0), ("triple_play", 3)])
def test_each_play_lists_its_cards_from_the_seat_s_own_hand(
        tmp_path: Path, rulebook: str, seed: int) -> None:
    """A combo's option lists its cards in order (the page's clicks pick them), each one the
    seat holds (as many as it holds); other options list none."""
    state = create(client(tmp_path), rulebook=rulebook, players=2, humans=[0], seed=seed,
                   round=True)
    hand = [c["name"] for c in state["view"]["hand"]]
    options = state["prompt"]["options"]
    combos = [o for o in options if o["cards"] and len(o["cards"]) > 1]
    assert combos  # this deal has some
    for o in options:
        if o["kind"] != "play":
            assert o["cards"] is None
            continue
        names = [c["name"] for c in o["cards"]]
        assert " + ".join(names) == o["card"]["name"] and f"play {o['card']['name']}" in o["text"]
        assert all(names.count(n) <= hand.count(n) for n in names)
        assert o["cards"][-1] == next(c for c in state["view"]["hand"] if c["name"] == names[-1])
