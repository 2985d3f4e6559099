"""(to be written: see /work/wt/CONTRACTS19.md)"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.routing import BaseRoute

routes: list[BaseRoute] = []


def start(app: Starlette) -> None:
    """Nothing to start."""


def stop(app: Starlette) -> None:
    """Nothing to stop."""
