"""Friends across browsers (uno_rules/web/friends.py, seats.py): a game with a link per
human seat, each seeing only its own hand, answering only its own prompts, its moves
streamed to the others; a wrong token sees nothing; the host hands seats to agents."""

from __future__ import annotations

import json
import threading
import urllib.request
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about httpx2
    from starlette.testclient import TestClient

from test_web_games import pick
from web_client import get_urls, local_client, views

GAME = {"rulebook": "classic", "players": 3, "humans": [0, 2], "seed": 7, "round": True,
        "friends": True}
HEADER = "X-Seat-Token"


def made(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/games", json={**GAME, **body})
    assert r.status_code == 201, r.text
    got: dict[str, Any] = r.json()
    return got


def seen(c: TestClient, game: str, token: str | None) -> dict[str, Any]:
    r = c.get(f"/api/games/{game}", headers={} if token is None else {HEADER: token})
    assert r.status_code == 200, r.text
    got: dict[str, Any] = r.json()
    return got


def send(c: TestClient, state: dict[str, Any], token: str | None, text: str) -> Any:
    return c.post(f"/api/games/{state['game']}/answer",
                  headers={} if token is None else {HEADER: token},
                  json={"version": state["version"], "answer": text})


def play_as_asked(c: TestClient, made_state: dict[str, Any], moves: int) -> dict[str, Any]:
    """``moves`` answers, each sent by the seat asked (with its own link)."""
    tokens, game = made_state["links"]["seats"], made_state["game"]
    state = seen(c, game, None)
    for _ in range(moves):
        asked = state["prompt"]
        if asked is None:
            break
        seat = asked["seat"] if asked["seat"] is not None else int(next(iter(tokens)))
        mine = seen(c, game, tokens[str(seat)])
        r = send(c, mine, tokens[str(seat)], pick(mine))
        assert r.status_code == 200, r.text
        state = seen(c, game, None)
    return state


def test_each_seat_sees_its_own_hand_and_a_spectator_none(tmp_path: Path) -> None:
    c = local_client(tmp_path)
    first = made(c)
    links = first["links"]
    assert set(links["seats"]) == {"0", "2"} and links["host"] not in links["seats"].values()
    assert len({links["host"], *links["seats"].values()}) == 3
    game = first["game"]
    state = play_as_asked(c, first, 5)
    hands = {}
    for seat in (0, 2):
        mine = seen(c, game, links["seats"][str(seat)])
        assert mine["view"]["seat"] == seat and mine["friends"]["you"] == seat
        assert len(mine["view"]["hand"]) == mine["view"]["seats"][seat]["cards"] > 0
        hands[seat] = mine["view"]["hand"]
        prompt = mine["prompt"]
        if prompt["kind"] == "wait":  # another's question: no options of it
            assert prompt["options"] == [] and prompt["seat"] != seat
    assert hands[0] != hands[2]
    public = seen(c, game, None)
    assert public["view"]["seat"] is None and public["view"]["hand"] == []
    assert public["prompt"]["kind"] == "wait" and public["prompt"]["options"] == []
    assert public["friends"]["you"] is None and "links" not in public
    assert state["version"] == public["version"]


def test_no_link_and_a_wrong_one_see_nothing_private_and_act_on_nothing(
        tmp_path: Path) -> None:
    with local_client(tmp_path) as c:  # every part of the app started: the jobs' routes too
        hidden(c)


def hidden(c: TestClient) -> None:
    first = made(c)
    game, links = first["game"], first["links"]
    state = play_as_asked(c, first, 3)
    tokens = [links["host"], *links["seats"].values()]
    for url in get_urls(c, game):
        if "/events" in url:
            continue  # a stream: asked below
        for headers in ({}, {HEADER: "x" + links["seats"]["0"]}):
            r = c.get(url, headers=headers)
            assert r.status_code < 500, (url, r.text)
            assert not any(t in r.text for t in tokens), url
            for found in views(r.json() if "json" in r.headers["content-type"] else None):
                assert found["seat"] is None and not found["hand"], url
            if headers and url.startswith(f"/api/games/{game}"):
                assert r.status_code == 403 and set(r.json()) == {"error"}, url
    for token in (None, "wrong", links["host"]):
        r = send(c, state, token, pick(state) or "1")
        assert r.status_code == 403 and '"hand"' not in r.text, r.text
    asked = state["prompt"]["seat"]
    other = links["seats"]["2" if asked == 0 else "0"]
    r = send(c, seen(c, game, other), other, "1")
    assert r.status_code == 403 and '"hand"' not in r.text, r.text
    r = c.get(f"/api/games/{game}/events", headers={HEADER: "wrong"})
    assert r.status_code == 403
    assert seen(c, game, None) == state  # nothing moved
    for path, body in (("again", {}), ("seats", {"seat": 0, "agent": "greedy"})):
        r = c.post(f"/api/games/{game}/{path}", json=body,
                   headers={HEADER: links["seats"]["0"]})
        assert r.status_code == 403, r.text


def test_a_reload_or_a_restart_rejoins_the_same_seat_and_hand(tmp_path: Path) -> None:
    c = local_client(tmp_path)
    first = made(c)
    play_as_asked(c, first, 4)
    token = first["links"]["seats"]["2"]
    before = seen(c, first["game"], token)
    again = local_client(tmp_path)  # a new server on the same folder: from the answers
    assert seen(again, first["game"], token) == before
    assert before["view"]["seat"] == 2


def test_the_host_gives_a_seat_to_an_agent_and_takes_it_back(tmp_path: Path) -> None:
    c = local_client(tmp_path)
    first = made(c, players=2, humans=[0, 1], seed=3)
    game, links = first["game"], first["links"]
    host = {HEADER: links["host"]}
    r = c.post(f"/api/games/{game}/seats", json={"seat": 1, "agent": "greedy"}, headers=host)
    assert r.status_code == 200, r.text
    assert r.json()["friends"]["auto"] == {"1": "greedy"}
    me = links["seats"]["0"]
    state = seen(c, game, me)
    moves = 0
    while state["prompt"] is not None and moves < 300:  # seat 1 is the agent's now
        assert state["prompt"]["kind"] != "wait" or state["prompt"]["seat"] is None, state
        r = send(c, state, me, pick(state))
        assert r.status_code == 200, r.text
        state, moves = r.json(), moves + 1
        if moves == 5:
            restored = local_client(tmp_path)  # the agent's answers are kept with the game
            assert seen(restored, game, me) == state
    assert state["status"] == "over" and any(
        line.startswith("seat 1 plays") for line in state["log"]), state["log"]
    r = c.post(f"/api/games/{game}/again", headers=host)  # the host's: new links
    assert r.status_code == 201, r.text
    new = r.json()["links"]
    assert r.json()["game"] != game and set(new["seats"]) == {"0", "1"}
    assert not set(new["seats"].values()) & set(links["seats"].values())
    r = c.get(f"/api/games/{r.json()['game']}", headers={HEADER: links["seats"]["0"]})
    assert r.status_code == 403  # the old game's link is no seat of the new one
    second = made(c, players=2, humans=[0, 1], seed=3)
    host = {HEADER: second["links"]["host"]}
    for agent in ("greedy", None):
        r = c.post(f"/api/games/{second['game']}/seats", json={"seat": 1, "agent": agent},
                   headers=host)
        assert r.status_code == 200, r.text
    assert r.json()["friends"]["auto"] == {}
    for bad in ({"seat": 5, "agent": "greedy"}, {"seat": 1, "agent": "nope"}):
        r = c.post(f"/api/games/{second['game']}/seats", json=bad, headers=host)
        assert r.status_code == 400, r.text


def test_a_move_by_one_seat_arrives_on_the_others_stream(tmp_path: Path) -> None:
    """The real server: seat 2's event stream gets the state after seat 0's move."""
    pytest.importorskip("uvicorn")
    from test_web_command import serving

    def call(url: str, body: dict[str, Any] | None, token: str | None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, headers={
            "Content-Type": "application/json", **({} if token is None else {HEADER: token})})
        with urllib.request.urlopen(request, timeout=60) as got:
            return json.load(got)

    with serving("--port", "0", "--data-dir", str(tmp_path / "data")) as (_, url, _):
        first = call(url + "api/games", {**GAME, "players": 2, "humans": [0, 1], "seed": 2},
                     None)
        tokens, game = first["links"]["seats"], f"{url}api/games/{first['game']}"
        state = call(game, None, None)
        asked = state["prompt"]["seat"]
        watcher = tokens[str(1 - asked)]
        stream = urllib.request.urlopen(f"{game}/events?token={watcher}", timeout=60)
        events: list[dict[str, Any]] = []

        def read() -> None:
            for raw in stream:
                line = raw.decode().strip()
                if line.startswith("data: "):
                    events.append(json.loads(line[6:]))
                    if len(events) == 2:
                        return
        reader = threading.Thread(target=read)
        reader.start()
        mine = call(game, None, tokens[str(asked)])
        moved = call(game + "/answer", {"version": mine["version"], "answer": pick(mine)},
                     tokens[str(asked)])
        reader.join(timeout=30)
        stream.close()
    assert len(events) == 2, events
    assert events[0]["version"] == state["version"]
    assert events[1]["version"] == moved["version"] > state["version"]
    assert events[1]["view"]["seat"] == 1 - asked and events[1]["view"]["hand"]
    assert events[1]["view"]["hand"] != moved["view"]["hand"]
