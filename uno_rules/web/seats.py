"""The routes of friends across browsers (:mod:`.friends`): each seat's stream of events
(server-sent events: the game as that seat sees it, sent again whenever it changes) and the
host's hand-over of a seat to an agent."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from . import friends
from .games import GameStore, Live, store_of, token_of
from .http import ApiError, read_json
from .work import BOUNDS, Bounds

POLL = 0.2          # seconds between looks at the game (a move shows within a second)
KEEP_ALIVE = 15.0   # seconds between comments on a quiet stream (proxies close idle ones)


def _friends_game(live: Live) -> None:
    if friends.of(live.meta) is None:
        raise ApiError(400, "this game is played at one screen: it has no seat links "
                            "(start one with friends)")


async def _state(request: Request, store: GameStore, game_id: str,
                 token: str | None) -> dict[str, Any]:
    """The game as the token's seat sees it, worked out within a request's time bound of
    its own (a stream lasts longer than one request may work)."""
    stopping = request.app.state.stopping
    seconds = store.limits.request_seconds
    BOUNDS.set(Bounds(time.monotonic() + seconds, seconds, stopping))

    def work(live: Live) -> dict[str, Any]:
        _friends_game(live)
        return friends.state(live, token)
    got: dict[str, Any] = await run_in_threadpool(store.with_game, game_id, work)
    return got


async def events(request: Request) -> Response:
    """``text/event-stream``: the seat's state now, then again after every change."""
    store, game_id, token = store_of(request), request.path_params["game"], token_of(request)
    first = await _state(request, store, game_id, token)  # a 4xx before the stream starts
    stopping = request.app.state.stopping

    async def stream() -> AsyncIterator[str]:
        seen = store.saves.get(game_id, 0)
        yield f"data: {json.dumps(first)}\n\n"
        quiet = time.monotonic()
        while not stopping.is_set():
            await asyncio.sleep(POLL)
            saves = store.saves.get(game_id, 0)
            if saves != seen:
                seen = saves
                yield f"data: {json.dumps(await _state(request, store, game_id, token))}\n\n"
                quiet = time.monotonic()
            elif time.monotonic() - quiet > KEEP_ALIVE:
                yield ": still here\n\n"
                quiet = time.monotonic()
    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store"})


async def hand_over(request: Request) -> Response:
    """The host gives a seat to an agent (``{"seat": 1, "agent": "greedy"}``) or takes it
    back (``"agent": null``): the seat's link then sees the game and answers nothing."""
    body = await read_json(request)
    store, token = store_of(request), token_of(request)

    def work(live: Live) -> dict[str, Any]:
        _friends_game(live)
        if friends.who(live.meta, token) != friends.HOST:
            raise ApiError(403, "only the game's host may give a seat to an agent")
        friends.hand_over(live, body.get("seat"), body.get("agent"))
        store.save(live)
        return friends.state(live, token)
    return JSONResponse(await run_in_threadpool(store.with_game,
                                                request.path_params["game"], work))


routes: list[BaseRoute] = [
    Route("/api/games/{game}/events", events, methods=["GET"]),
    Route("/api/games/{game}/seats", hand_over, methods=["POST"]),
]


def start(app: Starlette) -> None:
    """Nothing to start: the games are the store's."""


def stop(app: Starlette) -> None:
    """Each stream ends at the server's stop flag."""
