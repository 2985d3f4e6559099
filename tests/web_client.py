"""The web API tests' client: an app on a temporary data folder, asked as a browser on this
machine asks it (``Host: 127.0.0.1``: the app refuses other host names, uno_rules.web.guard)."""

from __future__ import annotations

import warnings
from pathlib import Path

from uno_rules.web.app import create_app
from uno_rules.web.limits import Limits

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about httpx2
    from starlette.testclient import TestClient

LOCAL = "http://127.0.0.1"


def local_client(folder: Path, limits: Limits | None = None) -> TestClient:
    """A test client of ``create_app(folder, limits)`` (enter it to start the app's parts)."""
    return TestClient(create_app(folder, limits), base_url=LOCAL)
