"""What every route shares: reading a JSON body within the limits, and answering errors as
``{"error": message}`` with a 4xx status (a 500 is a bug of ours, never the input's)."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from ..engine.errors import UnoRulesError, shorten, visible
from .limits import Limits
from .words import page_words


class ApiError(UnoRulesError):
    """A request the server refuses: ``status`` (4xx) and a one-line ``message``."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        message = visible(message)  # one line, whatever a request's names hold
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def limits_of(request: Request) -> Limits:
    """The server's limits (set on the app by :func:`uno_rules.web.app.create_app`)."""
    limits: Limits = request.app.state.limits
    return limits


def _depth(text: str) -> int:
    """The deepest nesting of brackets in JSON text, strings skipped (checked before parsing,
    so that a body of a million brackets costs a scan, not a recursion)."""
    deepest = depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


async def read_json(request: Request) -> dict[str, Any]:
    """The request's body as a JSON object, or an :class:`ApiError`: 413 over
    ``max_body`` bytes (counted as they arrive, whatever Content-Length says), 400 when it is
    not UTF-8 JSON, nested deeper than ``max_depth``, or not an object."""
    limits = limits_of(request)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limits.max_body:
        raise ApiError(413, f"the request is {int(declared):,} bytes: the most is "
                            f"{limits.max_body:,} (serve --max-body)")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limits.max_body:
            raise ApiError(413, f"the request is over {limits.max_body:,} bytes "
                                "(serve --max-body)")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(400, "the request's body is not UTF-8") from None
    if _depth(text) > limits.max_depth:
        raise ApiError(400, f"the request's JSON is nested more than {limits.max_depth} deep")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ApiError(400, f"the request's body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the request's body must be a JSON object")
    where = _lone_surrogate(data)
    if where is not None:
        raise ApiError(400, f"the request's JSON holds a lone surrogate (a \\ud800-\\udfff "
                            f"escape not in a pair: not text) at {where}")
    return data


def _lone_surrogate(data: Any) -> str | None:
    """Where (``$.set`` ...) a string or key of the parsed body holds a lone surrogate, which
    JSON's ``\\ud800`` allows and UTF-8 can't encode: refused here, once, or every answer that
    echoes it would fail to be written (a 500, and a job's label broke its every answer)."""
    stack: list[tuple[str, Any]] = [("$", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            if not value.isascii() and not _encodes(value):
                return path
        elif isinstance(value, dict):
            for key, item in value.items():
                if not key.isascii() and not _encodes(key):
                    return path
                stack.append((f"{path}.{shorten(visible(key), 40)}", item))
        elif isinstance(value, list):
            stack.extend((f"{path}[{k}]", item) for k, item in enumerate(value))
    return None


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def error_response(status: int, message: str, **extra: Any) -> JSONResponse:
    """Every error the API answers, in the page's words (:mod:`.words`)."""
    return JSONResponse({"error": page_words(message), **extra}, status_code=status)
