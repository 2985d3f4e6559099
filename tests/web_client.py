"""The web API tests' client: an app on a temporary data folder, asked as a browser on this
machine asks it (``Host: 127.0.0.1``: the app refuses other host names, uno_rules.web.guard)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from starlette.routing import Route

from uno_rules.web.app import create_app
from uno_rules.web.limits import Limits

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about httpx2
    from starlette.testclient import TestClient

LOCAL = "http://127.0.0.1"


def local_client(folder: Path, limits: Limits | None = None) -> TestClient:
    """A test client of ``create_app(folder, limits)`` (enter it to start the app's parts)."""
    return TestClient(create_app(folder, limits), base_url=LOCAL)


def get_urls(c: TestClient, game: str) -> list[str]:
    """Every GET route of the app, its path parameters the game's id (and a shipped name),
    with every seat, open and step variant of the query."""
    paths = [r.path for r in c.app.routes  # type: ignore[attr-defined]
             if isinstance(r, Route) and "GET" in (r.methods or ())]
    assert "/api/games/{game}/replay" in paths and "/api/games/{game}/record" in paths
    queries = ["", "?open=1", "?open=true", "?to=0&open=1"]
    for seat in range(-1, 4):
        queries += [f"?seat={seat}", f"?seat={seat}&to=1", f"?seat={seat}&open=1"]
    urls = []
    for path in paths:
        for value in (game, "classic"):
            filled = path
            for name in ("{game}", "{name}", "{id}"):
                filled = filled.replace(name, value)
            urls += [filled + q for q in queries]
    return sorted(set(urls))


def views(data: Any) -> list[dict[str, Any]]:
    """Every object in an answer that holds a hand (a view), at any depth."""
    found = []
    if isinstance(data, dict):
        if "hand" in data or "hands" in data:
            found.append(data)
        data = list(data.values())
    if isinstance(data, list):
        for item in data:
            found += views(item)
    return found
