"""The web playground's application: the page (``static/``, package data) and the JSON API
under ``/api/`` (docs/web.md). Each part of the API lives in its own module — ``edit``
(validate, explain, diff, deck), ``jobs`` (simulate and compare in the background),
``games`` (play, replay), ``seats`` (friends' seat links: event streams, hand-overs) — and
gives its routes and, if it holds anything, what to start and stop with the server."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..engine.errors import visible
from . import edit, games, jobs, seats
from .guard import LOOPBACK, Guard
from .http import ApiError, error_response
from .limits import Limits
from .work import Bounded

PARTS = (edit, jobs, games, seats)
log = logging.getLogger("uno_rules.web")


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.message, **exc.extra)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return error_response(exc.status_code, str(exc.detail))


async def _bug(request: Request, exc: Exception) -> Response:
    # Our own bug: logged with its traceback, answered in one line (never the input's fault).
    log.exception("internal error on %s %s", request.method, request.url.path)
    message = visible(" ".join(str(exc).split())[:300])  # (a lone surrogate: escaped)
    return JSONResponse({"error": f"internal error (a bug): {type(exc).__name__}: {message}"},
                        status_code=500)


async def _index(request: Request) -> Response:
    return RedirectResponse("/static/index.html")


def create_app(data_dir: str | Path, limits: Limits | None = None,
               hosts: Iterable[str] | None = LOOPBACK) -> Starlette:
    """The application, keeping games (and anything else written) under ``data_dir``, and
    answering requests for the host names ``hosts`` only (``None``: any; see
    :mod:`uno_rules.web.guard`)."""
    data = Path(data_dir)
    data.mkdir(parents=True, exist_ok=True)
    limits = limits if limits is not None else Limits()
    stopping = threading.Event()  # set as the server stops: work in flight ends (work.py)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for part in PARTS:
            part.start(app)
        try:
            yield
        finally:
            stopping.set()
            for part in reversed(PARTS):
                part.stop(app)

    routes = [Route("/", _index),
              Mount("/static", StaticFiles(packages=[("uno_rules.web", "static")]),
                    name="static")]
    for part in PARTS:
        routes.extend(part.routes)
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(Guard, hosts=hosts),
                                Middleware(Bounded, seconds=limits.request_seconds,
                                           stopping=stopping)],
                    exception_handlers={ApiError: _api_error, HTTPException: _http_error,
                                        Exception: _bug})
    app.state.limits = limits
    app.state.data_dir = data
    app.state.stopping = stopping
    return app
