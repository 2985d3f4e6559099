"""Where a request's rulebook comes from (docs/web.md, "Sources"): the editor's text, or a
shipped name, with shipped house rules and ``set`` overrides — never a path on the server.

The text is loaded by the real loader exactly as ``uno-rules validate`` loads a file: it is
written to a fresh private folder as ``editor.yaml`` (so ``extends: classic`` works and any
other file it names is refused by the loader's own rules), and every problem's file name is
shown as ``editor``. A text that is a house-rule overlay is applied to ``base`` after
``house``, as ``validate --on BASE --house ...`` does."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..engine.errors import Problem, shorten
from ..engine.rulebook import Rulebook
from ..load.loader import check, is_overlay, overlay_hint
from ..load.resources import house_dir, house_names, rulebooks_dir, shipped_names
from ..play.agents import AGENTS, AgentClass, AgentError, parse_agents
from .http import ApiError
from .limits import Limits
from .words import page_words

EDITOR = "editor"  # the editor's text, as problems name it
SOURCE_KEYS = ("text", "rulebook", "base", "house", "set")


@dataclass(frozen=True)
class Loaded:
    """A source loaded: the rulebook (None when it has problems), its problems as JSON
    objects, whether the text was a house-rule overlay, and the text itself."""

    rulebook: Rulebook | None
    problems: list[dict[str, Any]]
    overlay: bool
    text: str | None


def shipped_rulebook_name(value: object, key: str) -> str:
    """``value`` if it names a shipped rulebook, else a 400 saying which names are."""
    if not isinstance(value, str):
        raise ApiError(400, f"{key}: expected a shipped rulebook's name (a string)")
    if value not in shipped_names():
        hint = overlay_hint(value, 'a house rule: give it in "house"') if \
            value in house_names() else ""
        raise ApiError(400, f"{key} {shorten(repr(value), 80)}: no such shipped rulebook "
                            f"(one of {', '.join(shipped_names())}){hint}")
    return value


def house_list(value: object) -> list[str]:
    """``house``: a list of shipped house-rule names (never paths)."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise ApiError(400, "house: expected a list of house-rule names (strings)")
    for name in value:
        if name not in house_names():
            raise ApiError(400, f"house {shorten(repr(name), 80)}: no such shipped house rule "
                                f"(one of {', '.join(house_names())})")
    return list(value)


def set_values(value: object) -> dict[str, str]:
    """``set``: ``{name: value}`` as ``--set NAME=VALUE`` options give them (names and
    values stripped; numbers and booleans written as YAML reads them back)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ApiError(400, 'set: expected an object {"name": value, ...}')
    out: dict[str, str] = {}
    for key, item in value.items():
        name = key.strip()
        if not name:
            raise ApiError(400, "set: a setting's name is empty")
        if isinstance(item, bool):
            text = "true" if item else "false"
        elif isinstance(item, (int, float, str)):
            text = str(item).strip()
        else:
            raise ApiError(400, f"set {shorten(name, 80)}: expected a string, a number or "
                                "true/false")
        out[name] = text
    return out


def _shown(text: str, folder: Path | None) -> str:
    """A file name or message with the server's paths replaced: the editor's file by
    ``editor``, a shipped file by its name."""
    for f in () if folder is None else {str(folder), os.path.realpath(folder)}:
        text = text.replace(os.path.join(f, "editor.yaml"), EDITOR).replace(f, EDITOR)
    for d in (house_dir(), rulebooks_dir()):  # the overlays' folder is inside: first
        for f in {str(d), os.path.realpath(d)}:
            text = re.sub(re.escape(f + os.sep) + r"([a-z][a-z0-9_]*)\.yaml", r"\1", text)
    return text


def hidden(rulebook: Rulebook, folder: Path | None) -> Rulebook:
    """The rulebook with no path of the server in it: where it was loaded from (the
    editor's file: ``editor``), the overlays applied, and each step's place (a runaway
    effect's message shows it)."""
    programs = tuple(tuple(replace(step, where=_shown(step.where, folder)) for step in program)
                     for program in rulebook.programs)
    return replace(rulebook, source=_shown(rulebook.source, folder),
                   house=tuple(_shown(h, folder) for h in rulebook.house),
                   programs=programs, memo={})


def problem_json(problem: Problem, folder: Path | None) -> dict[str, Any]:
    """A problem as the API gives it: ``{line, column, message, path, file}``."""
    return {"line": problem.line, "column": problem.col,
            "message": page_words(_shown(problem.message, folder)), "path": problem.path,
            "file": page_words(_shown(problem.file, folder))}


def load_source(body: Mapping[str, Any], limits: Limits) -> Loaded:
    """Load the source a request body names (``text`` or ``rulebook``, with ``base``,
    ``house``, ``set``); a bad value of one of those keys is a 400, the rulebook's own
    problems are in the answer."""
    text, name = body.get("text"), body.get("rulebook")
    if text is not None and name is not None:
        raise ApiError(400, 'give "text" or "rulebook", not both')
    if text is None and name is None:
        raise ApiError(400, 'give "text" (a rulebook or house rule) or "rulebook" (a '
                            'shipped name)')
    base = shipped_rulebook_name(
        "classic" if body.get("base") is None else body["base"], "base")
    house = house_list(body.get("house"))
    overrides = set_values(body.get("set"))
    if text is None:
        rulebook, found = check(shipped_rulebook_name(name, "rulebook"), overrides, house)
        return Loaded(None if rulebook is None else hidden(rulebook, None),
                      [problem_json(p, None) for p in found], False, None)
    if not isinstance(text, str):
        raise ApiError(400, "text: expected the rulebook's YAML text (a string)")
    if len(text.encode("utf-8", "surrogatepass")) > limits.max_body:
        raise ApiError(413, f"text: over {limits.max_body:,} bytes")
    # A private folder of its own: nothing else in it for the text to name, and another
    # request's text is never seen.
    with tempfile.TemporaryDirectory(prefix="uno-rules-web-") as tmp:
        folder = Path(tmp)
        path = folder / "editor.yaml"
        try:
            path.write_text(text, encoding="utf-8")
        except UnicodeEncodeError:  # a lone surrogate (JSON allows \ud800)
            raise ApiError(400, "text: not valid Unicode (a lone surrogate)") from None
        overlay = is_overlay(path)
        if overlay:
            rulebook, found = check(base, overrides, house=[*house, str(path)])
        else:
            rulebook, found = check(path, overrides, house)
        return Loaded(None if rulebook is None else hidden(rulebook, folder),
                      [problem_json(p, folder) for p in found], overlay, text)


def require_rulebook(body: Mapping[str, Any], limits: Limits) -> Rulebook:
    """The source's rulebook, or a 422 carrying its problems."""
    loaded = load_source(body, limits)
    if loaded.rulebook is None:
        raise invalid(loaded.problems)
    return loaded.rulebook


def invalid(problems: list[dict[str, Any]]) -> ApiError:
    """The 422 of a rulebook with ``problems``: the first one in the message."""
    first: dict[str, Any] = problems[0] if problems else {
        "file": EDITOR, "line": 0, "column": 0, "message": "invalid"}
    where = str(first["file"]) + (f":{first['line']}:{first['column']}"
                                  if first["line"] > 0 else "")
    count = len(problems)
    return ApiError(422, f"the rulebook has {count} problem{'s' * (count != 1)}: "
                         f"{where}: {first['message']}", problems=problems)


def builtin_agents(value: object, players: int) -> list[tuple[str, AgentClass]] | None:
    """``agents``: one built-in agent's name for every seat, or one per seat (a list or a
    comma-separated string); None when absent. Only the built-in ones: ``MODULE:CLASS``
    would import code on the server at a web page's request."""
    if value is None:
        return None
    if isinstance(value, list) and all(isinstance(n, str) for n in value):
        value = ",".join(value)
    if not isinstance(value, str):
        raise ApiError(400, "agents: expected a name or a list of names (" +
                       ", ".join(AGENTS) + ")")
    for n in value.split(","):
        if n.strip() and n.strip() not in AGENTS:
            raise ApiError(400, f"agents: unknown agent {shorten(repr(n.strip()), 80)} (one "
                                f"of {', '.join(AGENTS)}; the server runs no other code)")
    try:
        return parse_agents(value, players)
    except AgentError as exc:
        raise ApiError(400, str(exc).removeprefix("--")) from None
