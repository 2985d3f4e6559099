"""What every route shares (uno_rules.web.http): the JSON body read within its limits, and
refused at once when it can't be echoed back (a lone surrogate), so no answer is a 500."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the [web] extra is not installed")

from web_client import LOCAL, TestClient  # noqa: E402

from uno_rules.web.app import create_app  # noqa: E402

LONE = ("\ud800", "a\udfffb", "\udc00\ud800")  # no pair: JSON's \ud800 escapes alone


def bodies(game: str, record: str) -> dict[str, dict[str, Any]]:
    """A valid body of every POST endpoint (each string in it is then made a surrogate)."""
    source = {"text": "settings: {hand_size: 5}\n", "base": "classic", "house": ["stacking"],
              "set": {"hand_size": "6"}}
    return {
        "/api/validate": source,
        "/api/explain": {"rulebook": "classic", "house": ["stacking"], "set": {"x": "1"}},
        "/api/diff": source,
        "/api/simulate": {"rulebook": "classic", "games": 2, "agents": "greedy",
                          "policy": "uniform"},
        "/api/compare": {"games": 2, "variants": [{"rulebook": "classic", "label": "A"},
                                                  {"text": "settings: {hand_size: 5}\n",
                                                   "label": "B"}]},
        "/api/games": {"rulebook": "classic", "players": 2, "humans": [0], "seed": 1,
                       "agents": ["greedy", "greedy"], "round": True},
        f"/api/games/{game}/answer": {"version": 0, "answer": "draw"},
        "/api/replay": {"record": record},
    }


def mutants(body: Any) -> Iterator[Any]:
    """``body`` with one string (a value or a key) replaced by each lone surrogate."""
    if isinstance(body, str):
        yield from LONE
    elif isinstance(body, list):
        for k, item in enumerate(body):
            for bad in mutants(item):
                yield [*body[:k], bad, *body[k + 1:]]
    elif isinstance(body, dict):
        for key, item in body.items():
            for bad in mutants(item):
                yield {**body, key: bad}
            for lone in LONE:
                yield {**{k: v for k, v in body.items() if k != key}, key + lone: item}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path)
    with TestClient(app, base_url=LOCAL, raise_server_exceptions=False) as c:
        yield c


def test_a_lone_surrogate_anywhere_is_a_400_never_a_500(client: TestClient) -> None:
    job = client.post("/api/compare", json=bodies("", "")["/api/compare"])
    assert job.status_code == 202, job.text
    game = client.post("/api/games", json=bodies("", "")["/api/games"]).json()["game"]
    record = client.get(f"/api/games/{game}/record").text
    tried = 0
    for path, body in bodies(game, record).items():
        for bad in mutants(body):
            # json.dumps writes a lone surrogate as the escape \udXXX, as a page may send it
            answer = client.post(path, content=json.dumps(bad).encode())
            assert answer.status_code == 400, (path, bad, answer.text)
            message = answer.json()["error"]
            assert "lone surrogate" in message and "\n" not in message, message
            tried += 1
    assert tried > 100
    # the jobs and the game are as they were: every answer can still be written
    deadline = time.monotonic() + 120
    while (state := client.get(f"/api/jobs/{job.json()['job']}")).json()["state"] == \
            "running" and time.monotonic() < deadline:
        assert state.status_code == 200
        time.sleep(0.1)
    assert state.status_code == 200 and state.json()["state"] == "done", state.text
    assert client.get(f"/api/games/{game}").json()["version"] == 0


def test_a_surrogate_pair_is_text(client: TestClient) -> None:
    """A character beyond the BMP written as JSON's pair of escapes is not refused."""
    answer = client.post("/api/validate", content=b'{"rulebook": "classic", "set": '
                                                  b'{"hand_size": "\\ud83c\\udccf"}}')
    assert answer.status_code == 200, answer.text
    assert "\U0001f0cf" in answer.json()["problems"][0]["message"]


def test_where_the_surrogate_is_is_said(client: TestClient) -> None:
    answer = client.post("/api/compare", content=b'{"variants": [{"rulebook": "classic"}, '
                                                 b'{"rulebook": "classic", '
                                                 b'"label": "B\\ud800"}]}')
    assert answer.status_code == 400
    assert answer.json()["error"].endswith("at $.variants[1].label")


def test_a_bug_whose_message_holds_a_surrogate_is_still_one_line(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 500 (a bug of ours) is written even when its message can't be encoded as is."""
    from uno_rules.web import edit

    def broken(rb: object) -> str:
        raise ValueError("a bug at \ud800")
    monkeypatch.setattr(edit, "summary", broken)
    answer = client.post("/api/validate", json={"rulebook": "classic"})
    assert answer.status_code == 500
    assert answer.json() == {"error": "internal error (a bug): ValueError: a bug at \\ud800"}
