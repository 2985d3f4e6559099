"""The editor's part of the API (docs/web.md, "The JSON API"): the shipped rulebooks and
their text, ``new``'s template, and for the editor's text its problems (as ``validate``),
deck, rules sheet (``explain``) and what it changes (``diff``), the sheets rendered to HTML
with raw HTML off (the user's text is never echoed as markup)."""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..engine.rulebook import Rulebook
from ..load.resources import house_dir, house_names, rulebooks_dir, schema_file, shipped_names
from .http import ApiError, limits_of, read_json
from .source import invalid, load_source, require_rulebook, shipped_rulebook_name

# CommonMark with tables, raw HTML off (escaped), links to javascript: refused.
_MARKDOWN = MarkdownIt("js-default")


def to_html(markdown: str) -> str:
    """A rules sheet in HTML; any markup in it (from a rulebook's names) shown as text."""
    html: str = _MARKDOWN.render(markdown)
    return html


@cache  # the shipped files don't change while the server runs
def _catalogue() -> dict[str, Any]:
    from ..load.entry import load_rulebook
    from ..load.loader import overlay_summary

    books = [load_rulebook(n) for n in shipped_names()]
    return {"rulebooks": [{"name": rb.name, "title": rb.title,
                           "players": [rb.players_min, rb.players_max], "cards": len(rb.deck)}
                          for rb in books],
            "house": [{"name": n, "summary": overlay_summary(n)} for n in house_names()]}


async def rulebooks(request: Request) -> Response:
    """``GET /api/rulebooks``: the shipped rulebooks and house rules."""
    return JSONResponse(await run_in_threadpool(_catalogue))


async def rulebook_text(request: Request) -> Response:
    """``GET /api/rulebooks/{name}``: a shipped rulebook's or house rule's YAML."""
    name = request.path_params["name"]
    if name in shipped_names():
        path = rulebooks_dir() / f"{name}.yaml"
    elif name in house_names():
        path = house_dir() / f"{name}.yaml"
    else:
        raise ApiError(404, f"no shipped rulebook or house rule {name[:80]!r} (see "
                            "/api/rulebooks)")
    return JSONResponse({"name": name, "text": path.read_text(encoding="utf-8")})


@lru_cache(maxsize=64)  # by name too: bounded, whatever names are asked for
def _template(name: str, base: str) -> str:
    from ..authoring.variants import starter

    text = starter(name, base, Path(rulebooks_dir()))
    # Its first line points an editor at the schema file by a path on this server: not
    # for a page (which gets the schema from /api/schema).
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.startswith("# yaml-language-server:"))


async def template(request: Request) -> Response:
    """``GET /api/template?base=classic&name=my_rules``: ``uno-rules new``'s starter."""
    base = shipped_rulebook_name(request.query_params.get("base", "classic"), "base")
    name = request.query_params.get("name", "my_rules")
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,63}", name):
        raise ApiError(400, f"name {name[:80]!r}: a rulebook name is lower case letters, "
                            "digits and underscores (at most 64)")
    return JSONResponse({"text": await run_in_threadpool(_template, name, base)})


@cache
def _schema() -> Any:
    return json.loads(schema_file("rulebook").read_text(encoding="utf-8"))


async def schema(request: Request) -> Response:
    """``GET /api/schema``: the rulebook JSON Schema (``uno-rules schema``), for completion."""
    return JSONResponse(_schema())


def summary(rb: Rulebook) -> str:
    """One line as ``validate`` says it: title, cards, players."""
    return f"{rb.title}: {len(rb.deck)} cards, {rb.players_text()} players"


async def validate(request: Request) -> Response:
    """``POST /api/validate``: the source's problems, summary and deck."""
    body = await read_json(request)
    loaded = await run_in_threadpool(load_source, body, limits_of(request))
    rb = loaded.rulebook
    return JSONResponse({
        "ok": rb is not None, "problems": loaded.problems, "overlay": loaded.overlay,
        "summary": None if rb is None else summary(rb),
        "deck": None if rb is None else {"total": len(rb.deck), "cards": rb.deck_counts()}})


def _explain(body: dict[str, Any], request: Request) -> dict[str, str]:
    from ..authoring.explain import explain as sheet

    markdown = sheet(require_rulebook(body, limits_of(request)))
    return {"markdown": markdown, "html": to_html(markdown)}


async def explain(request: Request) -> Response:
    """``POST /api/explain``: the source's rules sheet."""
    body = await read_json(request)
    return JSONResponse(await run_in_threadpool(_explain, body, request))


def _diff(body: dict[str, Any], request: Request) -> dict[str, str]:
    from ..authoring.variants import diff as changes
    from ..load.entry import load_rulebook

    base = shipped_rulebook_name(
        "classic" if body.get("base") is None else body["base"], "base")
    loaded = load_source(body, limits_of(request))
    if loaded.rulebook is None:
        raise invalid(loaded.problems)
    markdown = changes(load_rulebook(base), loaded.rulebook)
    return {"markdown": markdown, "html": to_html(markdown)}


async def diff(request: Request) -> Response:
    """``POST /api/diff``: what the source changes against ``base``."""
    body = await read_json(request)
    return JSONResponse(await run_in_threadpool(_diff, body, request))


routes: list[BaseRoute] = [
    Route("/api/rulebooks", rulebooks, methods=["GET"]),
    Route("/api/rulebooks/{name}", rulebook_text, methods=["GET"]),
    Route("/api/template", template, methods=["GET"]),
    Route("/api/schema", schema, methods=["GET"]),
    Route("/api/validate", validate, methods=["POST"]),
    Route("/api/explain", explain, methods=["POST"]),
    Route("/api/diff", diff, methods=["POST"]),
]


def start(app: Starlette) -> None:
    """Nothing to start."""


def stop(app: Starlette) -> None:
    """Nothing to stop."""
