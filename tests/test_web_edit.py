"""The editor's API (uno_rules.web.edit): rulebooks, template, validate, explain, diff,
and hostile bodies answered with a 4xx and one line, never a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the [web] extra is not installed")


from web_client import TestClient, local_client  # noqa: E402

from uno_rules.authoring.variants import starter  # noqa: E402
from uno_rules.load.entry import load_rulebook  # noqa: E402
from uno_rules.load.resources import house_names, shipped_names  # noqa: E402
from uno_rules.web.limits import Limits  # noqa: E402


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with local_client(tmp_path) as c:
        yield c


def one_line_error(response: object, status: int) -> str:
    assert response.status_code == status, response.text  # type: ignore[attr-defined]
    message = response.json()["error"]  # type: ignore[attr-defined]
    assert isinstance(message, str) and message and "\n" not in message
    return message


def test_rulebooks(client: TestClient) -> None:
    data = client.get("/api/rulebooks").json()
    assert [r["name"] for r in data["rulebooks"]] == shipped_names()
    classic = next(r for r in data["rulebooks"] if r["name"] == "classic")
    assert classic == {"name": "classic", "title": load_rulebook("classic").title,
                       "players": [2, 10], "cards": 108}
    assert [h["name"] for h in data["house"]] == house_names()
    assert all(h["summary"] for h in data["house"])


def test_rulebook_text(client: TestClient) -> None:
    answer = client.get("/api/rulebooks/classic").json()
    assert answer["name"] == "classic" and "name: classic" in answer["text"]
    overlay = client.get(f"/api/rulebooks/{house_names()[0]}").json()
    assert overlay["text"]
    assert "no shipped rulebook" in one_line_error(client.get("/api/rulebooks/nope"), 404)
    for bad in ("..%2Fcli.py", "%2Fetc%2Fpasswd", "house%2Fstacking", "..%2F..%2Fsetup"):
        one_line_error(client.get(f"/api/rulebooks/{bad}"), 404)


def test_template(client: TestClient, tmp_path: Path) -> None:
    text = client.get("/api/template?base=no_mercy").json()["text"]
    assert text == "".join(starter("my_rules", "no_mercy", tmp_path)
                           .splitlines(keepends=True)[1:])  # no schema path of the server
    assert "/" not in text.split("\n")[0]
    valid = client.post("/api/validate", json={"text": text}).json()
    assert valid["ok"], valid
    assert "no such shipped rulebook" in one_line_error(
        client.get("/api/template?base=../x"), 400)
    assert "a rulebook name" in one_line_error(client.get("/api/template?name=A/b"), 400)


def test_schema(client: TestClient) -> None:
    assert "settings" in client.get("/api/schema").json()["properties"]


def test_validate_ok_with_deck_and_summary(client: TestClient) -> None:
    answer = client.post("/api/validate", json={"rulebook": "classic"}).json()
    rb = load_rulebook("classic")
    assert answer == {"ok": True, "problems": [], "overlay": False,
                      "summary": f"{rb.title}: 108 cards, 2-10 players",
                      "deck": {"total": 108, "cards": rb.deck_counts()}}


def test_validate_locates_problems(client: TestClient) -> None:
    text = "extends: classic\nname: mine\nsettings:\n  hand_sise: 5\n"
    answer = client.post("/api/validate", json={"text": text}).json()
    assert answer["ok"] is False and answer["summary"] is None and answer["deck"] is None
    assert answer["problems"] == [{"line": 4, "column": 3, "file": "editor",
                                   "path": "$.settings.hand_sise",
                                   "message": "unknown key 'hand_sise'; did you mean "
                                              "'hand_size'?"}]


def test_validate_an_overlay(client: TestClient) -> None:
    answer = client.post("/api/validate", json={"text": "settings: {hand_size: 5}\n",
                                                "base": "no_mercy"}).json()
    assert answer["ok"] and answer["overlay"]
    assert answer["deck"]["total"] == len(load_rulebook("no_mercy").deck)


def test_explain_renders_without_markup(client: TestClient) -> None:
    text = ("extends: classic\nname: mine\ntitle: \"<script>alert(1)</script> "
            "[x](javascript:alert(1))\"\n")
    answer = client.post("/api/explain", json={"text": text}).json()
    assert "<script>" in answer["markdown"]
    assert "<script>" not in answer["html"] and "&lt;script&gt;" in answer["html"]
    assert 'href="javascript' not in answer["html"]
    assert "<table>" in answer["html"]  # the deck table


def test_explain_follows_the_text(client: TestClient) -> None:
    five = client.post("/api/explain", json={"text": "extends: classic\nname: m\n"
                                             "settings: {hand_size: 5}\n"}).json()
    seven = client.post("/api/explain", json={"rulebook": "classic"}).json()
    assert five["markdown"] != seven["markdown"]
    assert "5 cards" in five["markdown"] and "7 cards" in seven["markdown"]


def test_explain_invalid_is_422(client: TestClient) -> None:
    response = client.post("/api/explain", json={"text": "extends: classic\nsettings: x\n"})
    assert one_line_error(response, 422).startswith("the rulebook has 1 problem: editor:2:")
    assert response.json()["problems"][0]["line"] == 2


def test_diff(client: TestClient) -> None:
    answer = client.post("/api/diff", json={"text": "settings: {hand_size: 5}\n"}).json()
    assert "changed **hand_size**: 7 → 5" in answer["markdown"]
    assert "<strong>hand_size</strong>" in answer["html"]
    same = client.post("/api/diff", json={"rulebook": "classic"}).json()
    assert "No differences" in same["markdown"]
    other = client.post("/api/diff", json={"rulebook": "no_mercy", "base": "classic"}).json()
    assert "classic → no_mercy" in other["markdown"]
    assert "no such shipped rulebook" in one_line_error(
        client.post("/api/diff", json={"rulebook": "classic", "base": "/etc/passwd"}), 400)


POSTS = ("/api/validate", "/api/explain", "/api/diff")


@pytest.mark.parametrize("path", POSTS)
def test_hostile_bodies(path: str, tmp_path: Path) -> None:
    with local_client(tmp_path, Limits(max_body=4096)) as client:
        def post(content: bytes) -> object:
            return client.post(path, content=content,
                               headers={"content-type": "application/json"})
        assert "bytes" in one_line_error(post(b" " * 5000), 413)
        assert "nested more than" in one_line_error(post(b"[" * 1000), 400)
        assert "not JSON" in one_line_error(post(b"{text: 1}"), 400)
        assert "not UTF-8" in one_line_error(post(b'{"text": "\xff"}'), 400)
        assert "JSON object" in one_line_error(post(b'["classic"]'), 400)
        for body, message in (({"text": 5}, "text: expected"),
                              ({"text": None}, 'give "text"'),
                              ({"rulebook": ["classic"]}, "rulebook: expected"),
                              ({"rulebook": "classic", "house": "stacking"}, "house:"),
                              ({"rulebook": "classic", "set": "hand_size=5"}, "set:"),
                              ({"rulebook": "classic", "set": {"a": {"b": 1}}}, "set a"),
                              ({"rulebook": "classic", "base": 10**30}, "base:")):
            assert message in one_line_error(post(json.dumps(body).encode()), 400)


def test_hostile_rulebook_texts(client: TestClient) -> None:
    bomb = (Path(__file__).parent / "hostile" / "web" / "aliases.yaml").read_text()
    nested = "a: " + "[" * ((1 << 20) - 16)
    for text, message in ((nested, "nested more than 64 levels deep"),
                          (bomb, "more than 20,000 values")):
        answer = client.post("/api/validate", json={"text": text})
        assert answer.status_code == 200
        assert any(message in p["message"] for p in answer.json()["problems"])
        assert message in one_line_error(client.post("/api/explain", json={"text": text}),
                                         422)
    # over the largest body (1 MiB): refused before it is read as JSON
    assert "bytes" in one_line_error(client.post("/api/validate",
                                                 json={"text": "#" * (1 << 20)}), 413)


def test_unknown_keys_are_ignored(client: TestClient) -> None:
    answer = client.post("/api/validate", json={"rulebook": "classic", "colour": "red"})
    assert answer.status_code == 200 and answer.json()["ok"]


# ------------------------------------------------------------------ any body at all
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**40, 10**40),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
                    st.sampled_from(["classic", "flip", "stacking", "../classic", "/etc/passwd",
                                     "extends: classic\n", "settings: {hand_size: 5}\n",
                                     "extends: classic\nhouse: [stacking]\n", "a: *b\n"]))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
SOURCE = st.dictionaries(st.sampled_from(["rulebook", "text", "base", "house", "set"]), JSON,
                         max_size=4)


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(POSTS), body=SOURCE)
def test_any_body_is_an_answer_or_a_4xx(client: TestClient, path: str,
                                        body: dict[str, object]) -> None:
    answer = client.post(path, json=body)
    assert answer.status_code in (200, 400, 413, 422), (body, answer.text)
    if answer.status_code != 200:
        one_line_error(answer, answer.status_code)


def test_json_infinity_and_nan(client: TestClient) -> None:
    """Python's JSON reader takes Infinity and NaN: a 4xx or a problem, never echoed back as
    a number (which the JSON writer would refuse: a 500)."""
    for content in (b'{"rulebook": Infinity}', b'{"rulebook": "classic", "base": NaN}',
                    b'{"rulebook": "classic", "house": [-Infinity]}'):
        one_line_error(client.post("/api/validate", content=content), 400)
    answer = client.post("/api/validate", content=b'{"rulebook": "classic", "set": '
                                                  b'{"hand_size": Infinity}}')
    assert answer.status_code == 200 and answer.json()["problems"][0]["line"] == 0


def test_thousands_of_set_names_cost_linear_work(client: TestClient,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """30,000 unknown ``set`` names (450 KB) are 30,000 problems, each message cut against
    the values given: that work grows with the names (it grew with their square: minutes
    for 30,000), counted by the ``len`` calls of uno_rules.engine.errors, not by a clock."""
    from uno_rules.engine import errors

    def work(names: int) -> int:
        calls = 0

        def counted(value: Any) -> int:
            nonlocal calls
            calls += 1
            return len(value)
        monkeypatch.setattr(errors, "len", counted, raising=False)
        sets = {f"setting_{i:06d}": "1" for i in range(names)}
        answer = client.post("/api/validate", json={"rulebook": "classic", "set": sets})
        monkeypatch.delattr(errors, "len")
        assert answer.status_code == 200 and not answer.json()["ok"]
        problems = answer.json()["problems"]
        assert problems[0]["message"] == "unknown setting 'setting_000000'"
        assert f"{names - 100:,} more problems" in problems[-1]["message"]
        return calls
    assert work(6_000) < 6 * work(1_500)  # 4 times the names: about 4 times the work
    work(30_000)
