"""uno_rules.web.guard: requests for another host name (DNS rebinding) and cross-site
requests that would change something are refused before any route runs."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [web] extra is not installed")

from web_client import (  # noqa: E402
    LOCAL,
    TestClient,  # noqa: E402
    local_client,
)

from uno_rules.web.app import create_app  # noqa: E402
from uno_rules.web.guard import allowed_hosts, host_name  # noqa: E402

VALIDATE = {"text": "settings: {hand_size: 5}\n", "base": "classic"}


def one_line(response: object, status: int) -> str:
    assert response.status_code == status, response.text  # type: ignore[attr-defined]
    message = response.json()["error"]  # type: ignore[attr-defined]
    assert isinstance(message, str) and "\n" not in message
    return message


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8000", "localhost:1",
                                  "LOCALHOST", "[::1]:8000", "[::1]"])
def test_this_machines_names_are_answered(tmp_path: Path, host: str) -> None:
    with local_client(tmp_path) as client:
        assert client.get("/api/rulebooks", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("host", ["rebound.example", "rebound.example:8000", "",
                                  "127.0.0.1.rebound.example", "localhost.", "[::2]:80",
                                  "127.0.0.2", "x" * 5000, "[::1]evil.example", "[::1",
                                  "127.0.0.1:80@evil.example", "localhost:"
                                  "evil.example"])
def test_another_host_name_is_refused(tmp_path: Path, host: str) -> None:
    with local_client(tmp_path) as client:
        for response in (client.get("/api/rulebooks", headers={"Host": host}),
                         client.post("/api/validate", json=VALIDATE, headers={"Host": host}),
                         client.get("/static/index.html", headers={"Host": host})):
            message = one_line(response, 400)
            assert "is for host" in message and len(message) < 300


@pytest.mark.parametrize("headers", [{"Origin": "http://evil.example"},
                                     {"Origin": "http://127.0.0.1:9"},  # another port
                                     {"Origin": "null"},
                                     {"Sec-Fetch-Site": "cross-site"}])
def test_a_cross_site_change_is_refused(tmp_path: Path, headers: dict[str, str]) -> None:
    with local_client(tmp_path) as client:
        for response in (client.post("/api/validate", json=VALIDATE, headers=headers),
                         client.post("/api/games", json={"rulebook": "classic"},
                                     headers=headers),
                         client.delete("/api/jobs/1", headers=headers)):
            assert "another site" in one_line(response, 403)
        assert not (tmp_path / "games").exists() or not any((tmp_path / "games").iterdir())
        # reading is left to the browser's same-origin policy: no CORS header is ever sent
        answer = client.get("/api/rulebooks", headers=headers)
        assert answer.status_code == 200
        assert not any(k.lower().startswith("access-control") for k in answer.headers)


def test_the_page_itself_may_change_things(tmp_path: Path) -> None:
    with local_client(tmp_path) as client:
        same = {"Origin": LOCAL, "Sec-Fetch-Site": "same-origin"}
        assert client.post("/api/validate", json=VALIDATE, headers=same).status_code == 200
        # programs that are no browser's page send neither header
        assert client.post("/api/validate", json=VALIDATE).status_code == 200


def test_any_host_when_asked(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path, hosts=None), base_url="http://lan.example") as c:
        assert c.post("/api/validate", json=VALIDATE).status_code == 200
        answer = c.post("/api/validate", json=VALIDATE, headers={"Origin": "http://x.example"})
        assert "another site" in one_line(answer, 403)  # origins are still checked


def test_allowed_hosts() -> None:
    assert allowed_hosts("0.0.0.0") is None and allowed_hosts("::") is None
    assert allowed_hosts("127.0.0.1") == {"127.0.0.1", "localhost", "::1"}
    assert allowed_hosts("192.168.1.5") == {"127.0.0.1", "localhost", "::1", "192.168.1.5"}
    assert allowed_hosts("Box.LAN") == {"127.0.0.1", "localhost", "::1", "box.lan"}


@pytest.mark.parametrize(("value", "name"), [("127.0.0.1:80", "127.0.0.1"), ("[::1]:8", "::1"),
                                             ("LocalHost", "localhost"), ("::1", "::1"),
                                             ("[::1]:", "::1"), ("", ""),
                                             # malformed: no name matches them
                                             ("[::1", None), ("[::1]evil.example", None),
                                             ("[::1]:80x", None), ("127.0.0.1:x", None),
                                             ("localhost:８０", None)])
def test_host_name(value: str, name: str | None) -> None:
    assert host_name(value) == name
