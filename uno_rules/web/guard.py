"""What keeps other web sites out of a playground served on this machine.

A server on 127.0.0.1 is reachable from every page the user's browser opens. Two ways in
are closed here, before any route runs:

* **DNS rebinding**: a site whose name is made to resolve to 127.0.0.1 becomes, to the
  browser, the same origin as the playground, and its scripts could read games and start
  simulations. Its requests carry its own name in ``Host``: only the names this server is
  reached by are accepted (``127.0.0.1``, ``localhost``, ``[::1]``, and the ``--host``
  given; any name when it listens on every interface, where no list can be known).
* **Cross-site requests**: a page elsewhere may still *send* a request (a form, a
  ``fetch`` without reading the answer). A request that changes anything (not GET, HEAD or
  OPTIONS) is refused when the browser says it comes from another origin (``Origin``
  naming another host, ``Origin: null``, or ``Sec-Fetch-Site: cross-site``). Programs
  that send no such header (curl, scripts) are not browsers' pages and pass.

Refusals are answered like every API error: ``{"error": message}``, 400 for a host and 403
for an origin.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ..engine.errors import shorten, visible

if TYPE_CHECKING:  # the serve command imports this module without the web extra
    from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK = ("127.0.0.1", "localhost", "::1")
EVERY_INTERFACE = ("0.0.0.0", "::", "")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def allowed_hosts(host: str) -> frozenset[str] | None:
    """The names a server listening on ``host`` accepts in ``Host``: the loopback names and
    ``host`` itself; ``None`` (any name) when it listens on every interface."""
    if host in EVERY_INTERFACE:
        return None
    return frozenset(name.lower() for name in (*LOOPBACK, host.strip("[]")))


def host_name(value: str) -> str | None:
    """The host part of a ``Host`` header or an origin's authority (``[::1]:8000`` ->
    ``::1``), lower case; None when it is malformed (``[::1]evil.example``, ``[::1``, a port
    that is not a number), which no name matches."""
    value = value.strip().lower()
    if value.startswith("["):  # an IPv6 address, bracketed: then nothing but a port
        name, closed, rest = value[1:].partition("]")
        return name if closed and PORT.fullmatch(rest) else None
    if value.count(":") == 1:
        name, _, port = value.partition(":")
        return name if PORT.fullmatch(":" + port) else None
    return value  # no port (several colons: an IPv6 address left bare)


PORT = re.compile(r"(:[0-9]*)?")  # what may follow the host in Host (RFC 3986's port)


class Guard:
    """ASGI middleware refusing requests for another host name, and cross-origin requests
    that would change something (the module's docstring says why)."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] | None) -> None:
        self.app = app
        self.hosts = None if hosts is None else frozenset(h.lower() for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            problem = self.problem(scope)
            if problem is not None:
                await send_error(send, *problem)
                return
        await self.app(scope, receive, send)

    def problem(self, scope: Scope) -> tuple[int, str] | None:
        """The status and message refusing this request, or None to let it through."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", ())}
        host = headers.get("host", "")
        if self.hosts is not None and host_name(host) not in self.hosts:
            return 400, (f"refused: the request is for host {shorten(host, 60)!r}, which "
                         "this server is not (it answers "
                         f"{', '.join(sorted(self.hosts))}: serve --host)")
        if scope.get("method", "GET") in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin) if origin != "null" else None
            if parts is None or parts.netloc.lower() != host.strip().lower():
                return 403, (f"refused: a page of another site ({shorten(origin, 60)}) may "
                             "not change anything here")
        if headers.get("sec-fetch-site") == "cross-site":
            return 403, "refused: a page of another site may not change anything here"
        return None


async def send_error(send: Send, status: int, message: str) -> None:
    """Answer ``{"error": message}`` with ``status``, before any route (or instead of it)."""
    body = json.dumps({"error": visible(message)}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
