"""Loading rulebooks: YAML with positions → JSON Schema → semantic checks → frozen records.

Every problem found is collected and reported together as ``FILE:LINE:COL: message (at
$.path)``; :func:`load_rulebook` raises :class:`RulebookError` carrying all of them. The
checks are in :mod:`uno_rules.load.checks` (the deck's in :mod:`uno_rules.load.deckchecks`),
the compiling in :mod:`uno_rules.load.compiler`.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Container, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..engine.errors import Problem, shorten, shorten_values, show, value_shortener
from ..engine.rulebook import Rulebook
from .checks import RULEBOOK_VALIDATOR, semantic
from .compiler import compile_rulebook
from .problems import (
    dedupe,
    did_you_mean,
    report,
    schema_problem,
    schema_problems,
    strict_validator,
    suggestion_budget,
)
from .resources import allowed, find, house_names, shipped_names, within
from .schema import rulebook_schema
from .yamlpos import Located, PathKey, json_path, load_file, load_value, one_load

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


def outside(key: str, ref: str, more: int = 0) -> str:
    """Why a file named inside another (by ``key``; ``more`` others too) is refused; nothing
    of it is read."""
    others = f" and {more:,} more" if more else ""
    return (f"{key} {ref!r}{others}: outside this file's folder, so not read (a file may name "
            "shipped rulebooks and overlays, and files under its own folder; --root DIR or "
            "root=DIR trusts a folder)")


def _real(path: Path) -> tuple[Path | None, str]:
    """The resolved path of an existing file (None if there is none), or why the path can't
    be used at all: a NUL byte, a name too long, a symlink loop are the input's problems,
    reported where the path is named, never raised."""
    try:
        os.stat(path)
        return path.resolve(), ""
    except (FileNotFoundError, NotADirectoryError):
        return None, ""
    except ValueError:
        return None, "the path contains a NUL byte"
    except RuntimeError:  # pathlib's word for a symlink loop (Python < 3.13)
        return None, "a symlink loop"
    except OSError as exc:
        return None, "a symlink loop" if exc.errno == errno.ELOOP else \
            (exc.strerror or str(exc)).lower()


def _irregular(real: Path | None) -> str:
    """Why an existing path can't be read as a rulebook file ("" if it can, or if there is
    none): said where it is named, not at the path's own first line."""
    if real is None or real.is_file():
        return ""
    return "a folder, not a rulebook file" if real.is_dir() else "not a regular file"


def overlay_hint(name: str, how: str = "--house {} on a rulebook") -> str:
    """Why a shipped overlay's name is no rulebook, and how to use it, ``how`` with the
    name in it; "" for any other name."""
    if name not in house_names():
        return ""
    return f"; {name!r} is a house-rule overlay: use {how.format(name)}"


def _ref(text: str) -> str:
    """A reference quoted in a message, cut short if absurdly long."""
    return repr(text) if len(text) <= 80 else f"{text[:60]!r}... ({len(text)} characters)"


def read(path: Path, problems: list[Problem], chain: tuple[Path, ...] = ()) -> Located | None:
    """Read a rulebook file with everything it extends and the overlays it includes, merged
    in that order (so the file's own keys win), with positions. ``chain`` holds the files
    that led here (through `extends` or `house:`), to refuse a cycle."""
    located, found = load_file(path)
    problems.extend(found)
    if located is None:
        return None
    data = located.data
    if not isinstance(data, dict):
        problems.append(located.problem((), "a rulebook must be a mapping of keys"))
        return None
    layer = Located({}, {}, located.file)
    here = (*chain, _real(path)[0] or path)
    base_ref = data.get("extends")
    if isinstance(base_ref, str):  # another type: the schema reports it
        base_path = resolve(base_ref, path.parent)
        real, why = _real(base_path)
        if not why and not allowed(base_path, path.parent):
            problems.append(located.problem(("extends",), outside("extends", base_ref), True))
            return None
        why = why or _irregular(real)  # a folder, a device: said here, not at its 1:1
        if why:
            problems.append(located.problem(("extends",), f"can't read {_ref(base_ref)}: {why}"))
            return None
        if real in here:
            cycle = " -> ".join(p.name for p in (*here, real))
            problems.append(located.problem(("extends",), f"extends cycle: {cycle}"))
            return None
        if len(here) >= MAX_EXTENDS:
            problems.append(located.problem(("extends",), f"a chain of more than "
                                            f"{MAX_EXTENDS} rulebooks extending each other"))
            return None
        if real is None:
            problems.append(located.problem(("extends",), f"can't find rulebook {_ref(base_ref)} "
                                            f"to extend{did_you_mean(base_ref, shipped_names())}"
                                            f"{overlay_hint(base_ref, 'house: [{}]')}"))
            return None
        base = read(base_path, problems, here)
        if base is None:
            return None
        layer = base
    names = data.get("house")
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        ok = within(path.parent)
        refused = [i for i, n in enumerate(names) if not ok(find(n, path.parent, overlay=True))]
        if refused:  # one problem, however many entries
            problems.append(located.problem(("house", refused[0]), outside(
                "house", names[refused[0]], len(refused) - 1)))
        skip = set(refused)
        names = [n for i, n in enumerate(names) if i not in skip]
        apply_house(layer, names, problems, located.pos(("house",)), path.parent, here)
    elif names is not None:  # the schema reports the wrong type
        layer.data["house"] = names
    own = {k: v for k, v in data.items() if k not in ("extends", "house")}
    heading = {**layer.heading, **{k: own[k] for k in HEADING if k in own}}
    if isinstance(base_ref, str):  # a variant presents itself, not as what it extends
        own = {**_variant_heading(own, layer.data), **own}
    positions = dict(layer.positions)
    positions.update(located.positions)
    merged = Located(_merge(layer.data, own), positions, located.file)
    merged.house, merged.conflicts, merged.heading = layer.house, layer.conflicts, heading
    # the file's own keys win over its overlays': what it sets is no overlay's any more
    own_leaves = list(_leaves(own, ()))
    exact, below = set(own_leaves), _below(own_leaves)
    merged.set_by = {p: name for p, name in layer.set_by.items()
                     if not _overlapping(p, exact, below)}
    return merged


HEADING = ("title", "description")


def _variant_heading(own: Mapping[str, Any], base: Mapping[str, Any]) -> dict[str, Any]:
    """A variant's `title` and `description` when it gives none (inherited, its rules sheet
    would present it as its base): its own name, and "A variant of BASE_TITLE."."""
    name, title = own.get("name"), base.get("title", base.get("name"))
    out = {"title": name} if isinstance(name, str) else {}
    return {**out, "description": f"A variant of {title}."} if isinstance(title, str) else out


def _leaves(data: Any, path: PathKey) -> Iterator[PathKey]:
    """The paths of the values a merge of ``data`` sets (mappings merge key by key; any
    other value, ``null`` included, replaces what was there)."""
    if isinstance(data, dict):  # an empty one changes nothing
        for key, value in data.items():
            yield from _leaves(value, path + (key,))
    else:
        yield path


def _below(paths: Iterable[PathKey]) -> dict[PathKey, list[PathKey]]:
    """Each path that holds others (a proper prefix) with the paths inside it."""
    out: dict[PathKey, list[PathKey]] = {}
    for path in paths:
        _index(out, path)
    return out


def _index(below: dict[PathKey, list[PathKey]], path: PathKey) -> None:
    """Add ``path`` to the index :func:`_below` makes, under each path that holds it."""
    for i in range(len(path)):
        below.setdefault(path[:i], []).append(path)


def _overlapping(path: PathKey, exact: Container[PathKey],
                 below: Mapping[PathKey, list[PathKey]]) -> list[PathKey]:
    """The paths among ``exact`` (indexed by ``below``) that are ``path``, hold it or are
    inside it: linear in the depth, not in the number of paths."""
    return [path[:i] for i in range(len(path) + 1) if path[:i] in exact] + \
        list(below.get(path, ()))


def _at(data: Any, path: PathKey) -> Any:
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return _MISSING
        data = data[key]
    return data


_MISSING = object()


def apply_overrides(located: Located, overrides: Mapping[str, Any], problems: list[Problem],
                    origin: str = "--set") -> None:
    """Override settings or options by name (``{"hand_size": 5}``), in place. A string
    value is read as YAML (``"5"`` is 5); problems with it point at ``--set NAME=VALUE``."""
    data = located.data
    settings_schema = rulebook_schema()["properties"]["settings"]["properties"]
    for key, value in overrides.items():
        # echoed short: not a 5,000-character value three times on one line
        text = shorten(value) if isinstance(value, str) else show(value)
        where = (f"{origin} {shorten(key)}={text}", 0, 0)
        if isinstance(value, str):
            try:
                value = load_value(value) if value.strip() else value
            except ValueError as exc:
                problems.append(Problem(*where, shorten_values(str(exc), [value])))
                continue
        if type(value) is int and value.bit_length() > 256:  # no message could show it
            problems.append(Problem(*where, "a whole number too large for any setting"))
            continue
        if key in settings_schema:
            section = "settings"
        elif key in (data.get("options") or {}):
            section = "options"
        else:
            known = list(settings_schema) + list(data.get("options") or {})
            problems.append(Problem(*where, f"unknown setting {shorten(repr(key))}"
                                    f"{did_you_mean(key, known)}"))
            continue
        data.setdefault(section, {})
        data[section] = dict(data[section] or {})
        data[section][key] = value
        located.positions[(section, key)] = where




# ------------------------------------------------------------------ entry points
def is_overlay(path: str | Path) -> bool:
    """Whether a file is a house-rule overlay rather than a rulebook. A rulebook extends
    another, or has its own deck in its own colours or for its own players (what a
    rulebook must have); anything else, a `deck:` adding a card included, is an overlay."""
    located, _ = load_file(resolve(path))
    if located is None or not isinstance(located.data, dict):
        return False
    data = located.data
    return "extends" not in data and not ("deck" in data and any(
        key in data for key in ("colors", "sides", "players")))


def is_scenario_file(path: str | Path) -> bool | None:
    """Whether a file is a scenario file (docs/scenarios.md: a `scenarios` list, or one
    scenario's `steps` or `state` at top level, and the `rulebook` they test: keys no
    rulebook has) or a rulebook or overlay (False). None: no telling (not YAML, or not a
    mapping), so whichever command reads it says why. `validate` and `scenario` decide by
    this which files of a folder are theirs."""
    located, _ = load_file(path)
    if located is None or not isinstance(located.data, dict):
        return None
    return any(key in located.data for key in ("scenarios", "steps", "state", "rulebook"))


OVERLAY_OWN = ("name", "title", "description", "conflicts")  # an overlay's, not merged


def overlay_summary(name: str) -> str:
    """The one-line description of a shipped overlay (its title if it has none)."""
    located, _ = load_file(find(name, overlay=True))
    data = located.data if located is not None and isinstance(located.data, dict) else {}
    return str(data.get("description") or data.get("title") or name)


def apply_house(located: Located, names: Iterable[str], problems: list[Problem],
                origin: tuple[str, int, int] = ("--house", 0, 0),
                relative_to: Path | None = None, chain: tuple[Path, ...] = ()) -> list[str]:
    """Merge house-rule overlays (shipped names or paths) over the rulebook, in order.
    Returns the names of every overlay now applied (the rulebook's own ones first). An
    overlay that would change a value an earlier overlay set is refused (the earlier change
    would be lost silently); one that sets the same value is not. ``chain``: the files that
    include these overlays (an overlay may not include itself)."""
    given = _Given()
    below = _below(located.set_by)
    for name in names:
        where = origin if origin[1] > 0 else (f"{origin[0]} {name}", 0, 0)
        path = _overlay_path(located, name, where, given, problems, relative_to, chain)
        if path is None:
            continue
        overlay = read(path, problems, chain)
        if overlay is None:
            continue
        problem = _refused(located, overlay, name, where) or \
            _merge_overlay(located, overlay, name, below)
        if problem is not None:
            problems.append(problem)
    return located.house


@dataclass
class _Given:
    """The overlays named in one apply_house call so far."""
    files: dict[Path, str] = field(default_factory=dict)  # each file by its first name
    spelled: set[str] = field(default_factory=set)  # the names in `files`
    repeated: set[str] = field(default_factory=set)  # reported once, however often repeated


def _overlay_path(located: Located, name: str, where: tuple[str, int, int], given: _Given,
                  problems: list[Problem], relative_to: Path | None,
                  chain: tuple[Path, ...]) -> Path | None:
    """The file of the overlay ``name``; None (a problem reported, unless a repeat of a
    name already reported) when it can't be applied."""
    if name in given.spelled:  # the same spelling again: no need to look it up
        if name not in given.repeated:
            problems.append(Problem(*where, f"house rule {name!r} is given twice"))
        given.repeated.add(name)
        return None
    path = find(name, relative_to, overlay=True)
    real, why = _real(path)
    why = why or (_irregular(real) if path.suffix in (".yaml", ".yml") else "")
    problem = _unreadable(name, path, real, why, chain)
    if problem is None and real is not None:
        first = given.files.get(real)
        if first is not None:  # another name of the same file
            problem = f"house rule {name!r} is given twice (as {first!r})"
        else:
            given.files[real] = name
            given.spelled.add(name)
            if name in located.house:
                problem = (f"house rule {name!r} is already part of "
                           f"{located.data.get('name', 'the rulebook')}")
    if problem is not None:
        problems.append(Problem(*where, problem))
        return None
    return path


def _unreadable(name: str, path: Path, real: Path | None, why: str,
                chain: tuple[Path, ...]) -> str | None:
    """Why the overlay at ``path`` can't be read (None: it can)."""
    if why:
        return f"can't read house rule {_ref(name)}: {why}"
    if real is not None and real in chain:
        cycle = " -> ".join(p.name for p in (*chain[chain.index(real):], real))
        return f"house rule {name!r} includes itself: {cycle}"
    if len(chain) >= MAX_EXTENDS:
        return f"a chain of more than {MAX_EXTENDS} rulebooks and overlays including each other"
    if real is None or path.suffix not in (".yaml", ".yml"):
        return (f"unknown house rule {_ref(name)}{did_you_mean(name, house_names())} "
                f"(shipped: {', '.join(house_names())})")
    return None


def _refused(located: Located, overlay: Located, name: str,
             where: tuple[str, int, int]) -> Problem | None:
    """Why ``overlay`` is no house rule, or can't be combined with those applied."""
    keys = overlay.positions  # what it (or what it extends) writes, as is_overlay reads
    if ("extends",) in keys or (("deck",) in keys and any(
            (k,) in keys for k in ("colors", "sides", "players"))):
        return Problem(*where, f"{_ref(name)} is a whole rulebook, not a house rule (it "
                       "extends one, or has a deck with its own colours or players): name it "
                       "in `extends:`, or keep in it only what it changes")
    clash = [other for other in located.house if other in overlay.data.get("conflicts", [])
             or name in located.conflicts.get(other, [])]
    if clash:
        return Problem(*where, f"house rule {name!r} can't be combined "
                       f"with {', '.join(map(repr, clash))}")
    return None


def _merge_overlay(located: Located, overlay: Located, name: str,
                   below: dict[PathKey, list[PathKey]]) -> Problem | None:
    """Merge ``overlay`` into ``located``, unless it would undo what an earlier overlay set
    (the problem then)."""
    data = {k: v for k, v in overlay.data.items() if k not in OVERLAY_OWN}
    merged = _merge(located.data, data)
    leaves = list(_leaves(data, ()))
    lost = [(p, q) for p in leaves for q in _overlapping(p, located.set_by, below)
            if _at(merged, q) != _at(located.data, q)]
    if lost:
        p, q = lost[0]
        file, line, col = located.pos(q)
        return overlay.problem(p, f"house rule {name!r} changes {json_path(q)[2:]}, which "
                               f"house rule {located.set_by[q]!r} set ({file}:{line}:{col}): "
                               "one would undo the other; combine them in one overlay",
                               at_key=True)
    located.data = merged
    located.positions.update({k: v for k, v in overlay.positions.items()
                              if k and k[k[0] == "#key"] not in OVERLAY_OWN})
    for p in leaves:
        if p not in located.set_by:
            _index(below, p)
        located.set_by[p] = name
    located.house.append(name)
    located.conflicts[name] = list(overlay.data.get("conflicts", []))
    return None


def check(name_or_path: str | Path, overrides: Mapping[str, Any] | None = None,
          house: Iterable[str] = ()) -> tuple[Rulebook | None, list[Problem]]:
    """Load a rulebook, returning it (or None) and every problem found."""
    # The rulebook, what it extends and its overlays share one budget of bytes and values
    # read, and of names compared for suggestions.
    with one_load(), suggestion_budget():
        try:
            rulebook, problems = _check(name_or_path, overrides, house)
        except (OSError, RecursionError) as exc:  # the input's doing (a path, a depth)
            why = "nested too deeply" if isinstance(exc, RecursionError) else \
                (exc.strerror or str(exc)).lower()
            rulebook, problems = None, [Problem(str(name_or_path), 1, 1, f"can't load: {why}")]
    return rulebook, report(problems)


def _check(name_or_path: str | Path, overrides: Mapping[str, Any] | None,
           house: Iterable[str]) -> tuple[Rulebook | None, list[Problem]]:
    path = resolve(name_or_path)
    problems: list[Problem] = []
    real, why = _real(path)
    if why:
        return None, [Problem(str(name_or_path), 1, 1, f"can't read file: {why}")]
    if real is None:
        hint = did_you_mean(str(name_or_path), shipped_names())
        return None, [Problem(str(name_or_path), 1, 1, f"no such rulebook or file{hint} "
                              f"(shipped: {', '.join(shipped_names())})"
                              f"{overlay_hint(str(name_or_path))}")]
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
        given = [v for v in (overrides or {}).values() if isinstance(v, str)]
        cut = value_shortener(given)  # once: a message each for 30,000 values
        return None, dedupe([replace(p, message=cut(p.message))
                             if p.line <= 0 and given else p for p in problems])
    source = str(name_or_path)
    return compile_rulebook(located, source, applied, overrides or {}), []



__all__ = ["check", "resolve", "shipped_names", "house_names",
           "json_path", "did_you_mean", "schema_problem", "schema_problems", "strict_validator"]
