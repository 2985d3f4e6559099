"""Loading rulebooks: YAML with positions → JSON Schema → semantic checks → frozen records.

Every problem found is collected and reported together as ``FILE:LINE:COL: message (at
$.path)``; :func:`load_rulebook` raises :class:`RulebookError` carrying all of them. The
checks are in :mod:`uno_rules.checks`, the compiling in :mod:`uno_rules.compiler`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .checks import RULEBOOK_VALIDATOR, semantic
from .compiler import compile_rulebook
from .errors import Problem, RulebookError, SnapshotError
from .game import Game
from .problems import dedupe, did_you_mean, schema_problem, schema_problems, strict_validator
from .resources import find, house_names, shipped_names
from .rulebook import Rulebook
from .schema import rulebook_schema
from .snapshot import rules_of
from .yamlpos import MAX_BYTES, Located, json_path, load_file, load_value

resolve = find  # the historical name, kept for callers
MAX_EXTENDS = 32  # rulebooks in one `extends` chain


def _merge(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            if value is None and key not in ("then", "else"):
                out.pop(key, None)
            else:
                out[key] = _merge(base.get(key), value) if key in base else value
        return out
    return over


def read(path: Path, problems: list[Problem], chain: tuple[Path, ...] = ()) -> Located | None:
    """Read a rulebook file with everything it extends and the overlays it includes, merged
    in that order (so the file's own keys win), with positions."""
    located, found = load_file(path)
    problems.extend(found)
    if located is None:
        return None
    data = located.data
    if not isinstance(data, dict):
        problems.append(located.problem((), "a rulebook must be a mapping of keys"))
        return None
    layer = Located({}, {}, located.file)
    base_ref = data.get("extends")
    if isinstance(base_ref, str):  # another type: the schema reports it
        base_path = resolve(base_ref, path.parent)
        here = (*chain, path.resolve())
        if base_path.resolve() in here:
            cycle = " -> ".join(p.name for p in (*here, base_path.resolve()))
            problems.append(located.problem(("extends",), f"extends cycle: {cycle}"))
            return None
        if len(here) >= MAX_EXTENDS:
            problems.append(located.problem(("extends",), f"a chain of more than "
                                            f"{MAX_EXTENDS} rulebooks extending each other"))
            return None
        if not base_path.exists():
            problems.append(located.problem(("extends",), f"can't find rulebook {base_ref!r} "
                                            f"to extend{did_you_mean(base_ref, shipped_names())}"))
            return None
        base = read(base_path, problems, here)
        if base is None:
            return None
        layer = base
    names = data.get("house")
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        apply_house(layer, names, problems, located.pos(("house",)), path.parent)
    elif names is not None:  # the schema reports the wrong type
        layer.data["house"] = names
    own = {k: v for k, v in data.items() if k not in ("extends", "house")}
    positions = dict(layer.positions)
    positions.update(located.positions)
    merged = Located(_merge(layer.data, own), positions, located.file)
    merged.house, merged.conflicts = layer.house, layer.conflicts
    return merged


def apply_overrides(located: Located, overrides: Mapping[str, Any], problems: list[Problem],
                    origin: str = "--set") -> None:
    """Override settings or options by name (``{"hand_size": 5}``), in place. A string
    value is read as YAML (``"5"`` is 5); problems with it point at ``--set NAME=VALUE``."""
    data = located.data
    settings_schema = rulebook_schema()["properties"]["settings"]["properties"]
    for key, value in overrides.items():
        where = (f"{origin} {key}={value}", 0, 0)
        if isinstance(value, str):
            try:
                value = load_value(value) if value.strip() else value
            except ValueError as exc:
                problems.append(Problem(*where, str(exc)))
                continue
        if key in settings_schema:
            section = "settings"
        elif key in (data.get("options") or {}):
            section = "options"
        else:
            known = list(settings_schema) + list(data.get("options") or {})
            problems.append(Problem(*where, f"unknown setting {key!r}"
                                    f"{did_you_mean(key, known)}"))
            continue
        data.setdefault(section, {})
        data[section] = dict(data[section] or {})
        data[section][key] = value
        located.positions[(section, key)] = where




# ------------------------------------------------------------------ entry points
def is_overlay(path: str | Path) -> bool:
    """Whether a file is a house-rule overlay (a mapping with neither `extends` nor `deck`)."""
    located, _ = load_file(resolve(path))
    return located is not None and isinstance(located.data, dict) and \
        "extends" not in located.data and "deck" not in located.data


OVERLAY_OWN = ("name", "title", "description", "conflicts")  # an overlay's, not merged


def overlay_summary(name: str) -> str:
    """The one-line description of a shipped overlay (its title if it has none)."""
    located, _ = load_file(find(name, overlay=True))
    data = located.data if located is not None and isinstance(located.data, dict) else {}
    return str(data.get("description") or data.get("title") or name)


def apply_house(located: Located, names: Iterable[str], problems: list[Problem],
                origin: tuple[str, int, int] = ("--house", 0, 0),
                relative_to: Path | None = None) -> list[str]:
    """Merge house-rule overlays (shipped names or paths) over the rulebook, in order.
    Returns the names of every overlay now applied (the rulebook's own ones first)."""
    applied, conflicts = located.house, located.conflicts
    for name in names:
        where = origin if origin[1] > 0 else (f"{origin[0]} {name}", 0, 0)
        path = find(name, relative_to, overlay=True)
        if not path.exists() or path.suffix not in (".yaml", ".yml"):
            problems.append(Problem(*where, f"unknown house rule {name!r}"
                                    f"{did_you_mean(name, house_names())} (shipped: "
                                    f"{', '.join(house_names())})"))
            continue
        if name in applied:
            problems.append(Problem(*where, f"house rule {name!r} is already part of "
                                    f"{located.data.get('name', 'the rulebook')}"))
            continue
        overlay = read(path, problems)
        if overlay is None:
            continue
        clash = [other for other in applied if other in overlay.data.get("conflicts", [])
                 or name in conflicts.get(other, [])]
        if clash:
            problems.append(Problem(*where, f"house rule {name!r} can't be combined "
                                    f"with {', '.join(map(repr, clash))}"))
            continue
        data = {k: v for k, v in overlay.data.items() if k not in OVERLAY_OWN}
        located.data = _merge(located.data, data)
        located.positions.update({k: v for k, v in overlay.positions.items()
                                  if k and k[k[0] == "#key"] not in OVERLAY_OWN})
        applied.append(name)
        conflicts[name] = list(overlay.data.get("conflicts", []))
    return applied


def check(name_or_path: str | Path, overrides: Mapping[str, Any] | None = None,
          house: Iterable[str] = ()) -> tuple[Rulebook | None, list[Problem]]:
    """Load a rulebook, returning it (or None) and every problem found."""
    path = resolve(name_or_path)
    problems: list[Problem] = []
    if not path.exists():
        hint = did_you_mean(str(name_or_path), shipped_names())
        return None, [Problem(str(name_or_path), 1, 1, f"no such rulebook or file{hint} "
                              f"(shipped: {', '.join(shipped_names())})")]
    located = read(path, problems)
    if located is None or problems:
        return None, problems
    applied = tuple(apply_house(located, tuple(house), problems))
    if problems:
        return None, problems
    if overrides:
        apply_overrides(located, overrides, problems)
    problems.extend(schema_problems(located, RULEBOOK_VALIDATOR))
    problems.extend(semantic(located, "hand_size" in (overrides or {}), not problems))
    if problems:
        return None, dedupe(problems)
    source = str(name_or_path)
    return compile_rulebook(located, source, applied, overrides or {}), []



def load_rulebook(name_or_path: str | Path, *, house: Iterable[str] = (),
                  settings: Mapping[str, Any] | None = None,
                  max_bytes: int | None = None) -> Rulebook:
    """Load, validate and compile a rulebook by shipped name or path.

    ``house`` names house-rule overlays (``rulebooks/house/NAME.yaml``, or paths) merged over
    it in order; ``settings`` overrides settings or options by name. Raises
    :class:`RulebookError` with every problem found. ``max_bytes`` changes the largest file
    read (rulebook, extended rulebooks and overlays alike; default 1 MiB).
    """
    token = None if max_bytes is None else MAX_BYTES.set(max_bytes)
    try:
        rulebook, problems = check(name_or_path, settings, house)
    finally:
        if token is not None:
            MAX_BYTES.reset(token)
    if rulebook is None:
        raise RulebookError(problems)
    return rulebook


def restore(snapshot: Mapping[str, Any]) -> Game:
    """Continue a game from :meth:`Game.snapshot` output, loading its rulebook as it was
    (the same source, house rules and settings): it trusts the snapshot's rules, where
    :meth:`Rulebook.restore` refuses other rules than its own. Raises :class:`SnapshotError`."""
    source, house, settings = rules_of(snapshot)  # each checked: a SnapshotError naming it
    try:
        rulebook = load_rulebook(source, house=house, settings=settings)
    except RulebookError as exc:
        raise SnapshotError(f"can't load the snapshot's rulebook: {exc}") from None
    except (OSError, ValueError, RecursionError) as exc:  # a path the system can't open
        raise SnapshotError(f"can't load the snapshot's rulebook {source!r}: "
                            f"{type(exc).__name__}") from None
    return rulebook.restore(snapshot)


__all__ = ["load_rulebook", "restore", "check", "resolve", "shipped_names", "house_names",
           "json_path", "did_you_mean", "schema_problem", "schema_problems", "strict_validator"]

