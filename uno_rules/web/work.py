"""A request's work, bounded in time and stopped with the server.

Routes run their work off the event loop, in the thread pool; a thread can't be killed, so
the work stops itself: the agents of a game on the page (the one piece of work without a
size known in advance: their moves between two answers) check before each choice, through
:func:`checked`, whether the request has run over ``Limits.request_seconds`` or the server
is stopping, and if so raise :class:`Stopped`. The request then answers 503 and keeps
nothing of the work (a game goes back to where its last answer left it). Each decision is
itself bounded (``Lookahead.WORK``), so a stop comes within a decision.

The bounds travel with the request as a context variable: the thread pool runs each call
in a copy of the request's context. ``serve`` sets the stop flag as soon as Ctrl-C arrives,
so work in flight, and a body still arriving, end before uvicorn's grace period; a request
that uvicorn cancels all the same is answered here in one line, quietly.
"""

from __future__ import annotations

import asyncio
import threading
import time
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .guard import send_error

if TYPE_CHECKING:
    import random

    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from ..play.agents import Agent, AgentClass, Observation


class Stopped(BaseException):
    """A request's work stopped midway: out of time, or the server stopping. Not an
    ``Exception``, so that no handler on the way (an agent's failure, the engine's) takes
    it for something else; answered 503 by :class:`Bounded`."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Bounds:
    """When the running request's work must stop."""

    deadline: float                # time.monotonic()
    seconds: float
    stopping: threading.Event      # set when the server stops


BOUNDS: ContextVar[Bounds | None] = ContextVar("uno_rules_web_bounds", default=None)
STOPPING = "the server is stopping: the request was not finished, nothing of it is kept"
STOP_POLL = 0.1  # seconds between looks at the stop flag while a body arrives


def check() -> None:
    """Raise :class:`Stopped` if the running request's work must stop (nothing outside a
    request)."""
    bounds = BOUNDS.get()
    if bounds is None:
        return
    if bounds.stopping.is_set():
        raise Stopped(STOPPING)
    if time.monotonic() > bounds.deadline:
        raise Stopped(f"the request's work ran over {bounds.seconds:g} s (serve "
                      "--max-seconds) and was stopped: nothing of it is kept")


class _Checked:
    """An agent that checks the request's bounds before each choice."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    def choose(self, obs: Observation) -> int | None:
        check()
        return self.agent.choose(obs)


def checked(cls: AgentClass) -> AgentClass:
    """``cls``, its agents checking the request's bounds before each choice."""
    def make(seat: int, rng: random.Random) -> Agent:
        return _Checked(cls(seat, rng))
    return make


class Bounded:
    """ASGI middleware: each HTTP request's :class:`Bounds`; its :class:`Stopped` work
    answered 503; once the server stops, a body still arriving ends (503) and a request
    that uvicorn cancels after its grace period is answered 503 instead of a traceback."""

    def __init__(self, app: ASGIApp, seconds: float, stopping: threading.Event) -> None:
        self.app, self.seconds, self.stopping = app, seconds, stopping

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = True
            await send(message)

        async def receiving() -> Message:
            # A body still arriving when the server stops: the request ends now, rather
            # than be cancelled by uvicorn when its grace period runs out (logged).
            waiting = asyncio.ensure_future(receive())
            try:
                while not (await asyncio.wait({waiting}, timeout=STOP_POLL))[0]:
                    if self.stopping.is_set():
                        raise Stopped(STOPPING)
                return waiting.result()
            finally:
                waiting.cancel()  # (done: nothing) cancelled, or stopped: no waiter left
        token = BOUNDS.set(Bounds(time.monotonic() + self.seconds, self.seconds,
                                  self.stopping))
        try:
            await self.app(scope, receiving, sending)
        except Stopped as exc:
            if not started:
                await send_error(send, 503, exc.message)
        except asyncio.CancelledError:
            if not self.stopping.is_set():
                raise
            if not started:
                await send_error(send, 503, STOPPING)
        finally:
            BOUNDS.reset(token)
