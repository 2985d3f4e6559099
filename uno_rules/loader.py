"""Loading rulebooks: YAML with positions → JSON Schema → semantic checks → frozen records.

Every problem found is collected and reported together as ``FILE:LINE:COL: message (at
$.path)``; :func:`load_rulebook` raises :class:`RulebookError` carrying all of them.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema

from .effects import PRIMITIVES, step_reads
from .errors import Problem, RulebookError, SnapshotError
from .game import Game
from .model import NO_COLOR, CardRule, Face, FrozenMap, LegalIf, Settings, Step
from .resources import find, house_names, shipped_names
from .rulebook import Rulebook
from .schema import rulebook_schema
from .yamlpos import MAX_BYTES, Located, PathKey, json_path, load_file, load_value


def strict_validator(schema: Mapping[str, Any]) -> jsonschema.protocols.Validator:
    """A validator whose ``integer`` is a true integer: ``2.0`` is refused, not truncated."""
    checker = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool))
    cls = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=checker)
    return cls(schema)


_VALIDATOR = strict_validator(rulebook_schema())
resolve = find  # the historical name, kept for callers


def did_you_mean(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(str(word), choices, n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


# ------------------------------------------------------------------ reading + extends
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


MAX_EXTENDS = 32  # rulebooks in one `extends` chain
MAX_DECK = 10_000  # cards in a deck (the largest edition has 168)


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


# ------------------------------------------------------------------ schema errors
def schema_problems(located: Located, validator: jsonschema.protocols.Validator
                    ) -> list[Problem]:
    """Every schema violation in ``located``, as located one-line problems."""
    problems: list[Problem] = []
    errors = sorted(validator.iter_errors(located.data),
                    key=lambda e: [str(x) for x in e.absolute_path])
    for error in errors:
        problems.extend(schema_problem(located, error))
    return _dedupe(problems)


def schema_problem(located: Located, error: jsonschema.ValidationError) -> list[Problem]:
    """One schema violation as located one-line problems."""
    path: PathKey = tuple(error.absolute_path)
    if error.validator in ("anyOf", "oneOf") and error.context:
        return _best_branch(located, error)
    if error.validator == "additionalProperties":
        allowed = list(error.schema.get("properties", {}))
        out = []
        for key in re.findall(r"'([^']*)'", error.message.split("(")[-1]):
            if key in error.instance:
                what = "unknown primitive" if set(allowed) == set(PRIMITIVES) else "unknown key"
                out.append(located.problem(path + (key,), f"{what} '{key}'"
                                           f"{did_you_mean(key, allowed)}", at_key=True))
        return out
    if error.validator == "required":
        return [located.problem(path, error.message.replace("is a required property",
                                                            "is required but missing"))]
    if error.validator == "enum":
        hint = did_you_mean(str(error.instance), [str(x) for x in error.validator_value])
        return [located.problem(path, f"{error.instance!r} is not one of "
                                      f"{', '.join(map(str, error.validator_value))}{hint}")]
    if error.validator == "type":
        want = error.validator_value
        want = " or ".join(want) if isinstance(want, list) else want
        return [located.problem(path, f"expected {want}, got "
                                      f"{_type_name(error.instance)} {error.instance!r}")]
    return [located.problem(path, error.message)]


def _type_name(value: Any) -> str:
    return {bool: "boolean", int: "integer", float: "number", str: "string", list: "list",
            dict: "mapping", type(None): "null"}.get(type(value), type(value).__name__)


def _best_branch(located: Located, error: jsonschema.ValidationError) -> list[Problem]:
    """For anyOf failures, report the branch that fits the value's type best."""
    inst = error.instance
    by_branch: dict[int, list[jsonschema.ValidationError]] = {}
    for sub in error.context or []:
        by_branch.setdefault(sub.schema_path[0] if sub.schema_path else 0, []).append(sub)
    path: PathKey = tuple(error.absolute_path)
    names = [n for b in error.validator_value for n in b.get("enum", [])]
    if isinstance(inst, str) and names and not inst.startswith("$"):
        prims = set(names) <= set(PRIMITIVES)
        every = list(PRIMITIVES) if prims else names
        what = "unknown primitive" if prims else "invalid value"
        valid = "" if prims else f"; expected one of {', '.join(map(str, names))}"
        return [located.problem(path, f"{what} {inst!r}{did_you_mean(inst, every)}{valid}")]
    best: list[jsonschema.ValidationError] | None = None
    for subs in by_branch.values():
        if any((s.validator in ("type", "const") and len(s.absolute_path) == len(path))
               or (s.validator == "pattern" and str(s.validator_value).startswith("^\\$"))
               for s in subs):
            continue  # wrong type for this branch: not the branch the author meant
        if best is None or len(subs) < len(best):
            best = subs
    if best is None:
        kinds = sorted({str(s.validator_value) for s in error.context or []
                        if s.validator == "type" and s.validator_value != "null"
                        and "pattern" not in s.schema})
        if any(str(b.get("pattern", "")).startswith("^\\$") for b in error.validator_value):
            kinds.append("a $option reference")
        consts = [repr(b["const"]) for b in error.validator_value if "const" in b]
        want = " or ".join(kinds + consts) or "a valid value"
        return [located.problem(path, f"expected {want}, got {_type_name(inst)} {inst!r}")]
    out: list[Problem] = []
    for sub in best:
        out.extend(schema_problem(located, sub))
    return out


# ------------------------------------------------------------------ semantic checks
def _walk_refs(value: Any, path: PathKey):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk_refs(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk_refs(v, path + (i,))
    elif isinstance(value, str) and value.startswith("$"):
        yield path, value[1:]


SECTIONS = ("settings", "deck", "cards", "going_out", "after_draw", "setup", "turn",
            "stacking")  # the parts of a rulebook where `$option` references may stand


def _semantic(located: Located, hand_overridden: bool = False,
              schema_ok: bool = True) -> list[Problem]:
    """The checks a schema can't express. They run beside the schema's (so one pass reports
    both); on parts the schema found malformed they add nothing."""
    problems: list[Problem] = []
    for part in (_check_players, _check_deck, _check_refs, _check_steps):
        try:
            problems.extend(part(located))
        except (TypeError, KeyError, AttributeError, ValueError, IndexError):
            continue  # malformed there: the schema's problems say why
    if schema_ok and not problems:
        problems.extend(_option_problems(located))
    if schema_ok and not problems:
        problems.extend(_check_sizes(located, hand_overridden))
    return problems


def _check_players(located: Located) -> list[Problem]:
    missing = [k for k in ("min", "max") if k not in located.data["players"]]
    # optional in the schema so that an overlay may set one of them
    return [located.problem(("players",), f"players.{k} is required but missing")
            for k in missing[:1]]


def _check_sides(located: Located) -> list[Problem]:
    """Colours come from `colors` or from `sides`, not both; a colour names one side's."""
    data = located.data
    if "sides" in data and "colors" in data:
        return [located.problem(("colors",), "give the colours either in `colors` (cards with "
                                "one side) or in each of `sides`, not both", at_key=True)]
    if "sides" not in data and "colors" not in data:
        return [located.problem((), "'colors' is required but missing (or give `sides`)")]
    seen: dict[str, str] = {}
    out = []
    for side, spec in (data.get("sides") or {}).items():
        for i, color in enumerate((spec or {}).get("colors") or []):
            if color in seen:
                out.append(located.problem(("sides", side, "colors", i), f"colour {color!r} "
                                           f"is already a colour of side {seen[color]!r}"))
            seen[color] = side
    return out


def _check_deck(located: Located) -> list[Problem]:
    """Colours and ranks of the deck groups, and card rules for ranks the deck has."""
    data, problems = located.data, _check_sides(located)
    side_names, side_cols = side_colors(data)
    ranks: set[str] = set()
    names: set[tuple[str, str]] = set()
    for gname, group in (data.get("deck") or {}).items():
        if group is None:
            continue
        gpath = ("deck", gname)
        side = group.get("side", side_names[0])
        if side not in side_names:
            problems.append(located.problem(gpath + ("side",), f"unknown side {side!r}"
                                            f"{did_you_mean(side, side_names)}; the sides "
                                            f"are {', '.join(side_names)}"))
            continue
        colors = side_cols[side_names.index(side)]
        cols = group.get("colors")
        if isinstance(cols, list):
            for i, c in enumerate(cols):
                if c not in colors:
                    problems.append(located.problem(gpath + ("colors", i), f"unknown colour "
                                                    f"{c!r}{did_you_mean(c, colors)}"))
        for i, rank in enumerate(group["ranks"]):
            rank = str(rank)
            ranks.add(rank)
            if group.get("points") == "face" and not rank.isdigit():
                problems.append(located.problem(gpath + ("ranks", i), f"rank {rank!r} has no "
                                                "face value for `points: face`"))
            for c in (colors if cols == "all" else cols or [None]):
                name = " ".join(x for x in (c, rank, *group.get("tags", [])) if x)
                if (side, name) in names:
                    problems.append(located.problem(gpath + ("ranks", i), f"card {name!r} is "
                                                    "defined by two deck groups"))
                names.add((side, name))
    tags = {t for g in (data.get("deck") or {}).values() if g for t in g.get("tags", [])}
    for rank, card in (data.get("cards") or {}).items():
        if rank not in ranks and rank not in tags and not (card or {}).get("optional"):
            problems.append(located.problem(("cards", rank), f"card rule for rank {rank!r}, "
                                            f"which no deck group has"
                                            f"{did_you_mean(rank, sorted(ranks | tags))}",
                                            at_key=True))
    return problems


def _check_refs(located: Located) -> list[Problem]:
    """Every `$option` reference names an option; `if: option` names a boolean one."""
    data, problems = located.data, []
    options = data.get("options") or {}
    for path, ref in _walk_refs({k: data.get(k) for k in SECTIONS}, ()):
        if ref not in options:
            problems.append(located.problem(path, f"unknown option '${ref}'"
                                            f"{did_you_mean(ref, list(options))}"))
    for path, value in _walk_steps({k: data.get(k) for k in SECTIONS}, ()):
        if isinstance(value, dict) and "if" in value and isinstance(value["if"], dict):
            opt = value["if"].get("option")
            if opt is not None and not isinstance(options.get(opt), bool):
                state = "not defined" if opt not in options else "not boolean"
                problems.append(located.problem(path + ("if", "option"), f"`if: option` needs "
                                                f"a boolean option, {opt!r} is {state}"))
    return problems


def _programs(data: Mapping[str, Any]) -> Iterator[tuple[PathKey, Any]]:
    """Every step list of a rulebook, with its path."""
    for rank, card in (data.get("cards") or {}).items():
        for part in ("effect", "first_card"):
            if isinstance(card, dict) and isinstance(card.get(part), list):
                yield ("cards", rank, part), card[part]
    for path in (("going_out", "then"), ("after_draw",), ("setup",), ("turn", "draw")):
        value: Any = data
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, list):
            yield path, value


def _steps(steps: list[Any], path: PathKey) -> Iterator[tuple[PathKey, str, dict[str, Any]]]:
    """Every step of a step list, nested ones too: (path, primitive, parameters)."""
    for i, raw in enumerate(steps):
        if isinstance(raw, dict) and len(raw) == 1:
            ((name, params),) = raw.items()
        else:
            name, params = raw, None
        prim = PRIMITIVES.get(name) if isinstance(name, str) else None
        if prim is None:
            continue  # not a step: the schema reports it
        if prim.main and params is not None and not isinstance(params, dict):
            params = {prim.main: params}
        params = params or {}
        yield path + (i, name), name, params
        for key in prim.programs:
            if isinstance(params.get(key), list):
                yield from _steps(params[key], path + (i, name, key))


PARTNER_SEATS = ("partner", "next_partner")
DRAWING = ("draw", "draw_until_color", "draw_until_playable")
HOW = "(`team: {size: N}`)"
NEEDS_PARTNERS = {"give_cards": "gives cards to partners",
                  "partner_plays": "hands the turn to a partner"}


def _check_steps(located: Located) -> list[Problem]:
    """What a step names must exist: without partnerships there are no partners (a step
    naming one would quietly mean the player itself); a pile must be declared."""
    partnered = ((located.data.get("team") or {}).get("size") or 1) > 1
    piles = list(located.data.get("piles") or {})
    problems = []
    for path, steps in _programs(located.data):
        for at, name, params in _steps(steps, path):
            if path[0] == "after_draw" and name in DRAWING:
                problems.append(located.problem(at, f"`after_draw` can't `{name}`: the draw "
                                                "would run `after_draw` again, without end"))
            if name == "knock_out" and "to" in params and params["to"] not in piles:
                problems.append(located.problem(at + ("to",), f"no pile {params['to']!r}"
                                                f"{did_you_mean(str(params['to']), piles)}: "
                                                "declare it in `piles`"))
            if partnered:
                continue
            if name in NEEDS_PARTNERS and "who" not in params:
                problems.append(located.problem(at, f"`{name}` {NEEDS_PARTNERS[name]}, but "
                                                f"this rulebook has no partnerships {HOW}"))
            for key, value in params.items():
                for seat in value if isinstance(value, list) else [value]:
                    if seat in PARTNER_SEATS:
                        problems.append(located.problem(at + (key,), f"`{seat}` needs "
                                                        "partnerships, and this rulebook has "
                                                        f"none {HOW}"))
    return problems


def _substitute(value: Any, options: Mapping[str, Any]) -> Any:
    if isinstance(value, dict):
        return {k: _substitute(v, options) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, options) for v in value]
    return _opt(value, options)


def _option_problems(located: Located) -> list[Problem]:
    """Each option's value checked against the schema of every place that uses it: the
    rulebook is validated again with the values in place of the `$name` references."""
    data = located.data
    options = data.get("options") or {}
    refs = list(_walk_refs({k: data.get(k) for k in SECTIONS}, ()))
    if not refs:
        return []
    resolved = dict(data)
    for key in SECTIONS:
        if key in data:
            resolved[key] = _substitute(data[key], options)
    out: list[Problem] = []
    for problem in schema_problems(Located(resolved, located.positions, located.file),
                                   _VALIDATOR):
        for path, name in refs:
            at = json_path(path)
            if problem.path == at or problem.path.startswith((at + ".", at + "[")):
                origin = located.pos(("options", name))
                message = problem.message.replace(" or a $option reference", "")
                if origin[1] > 0:  # defined in a file: point at the use
                    out.append(Problem(problem.file, problem.line, problem.col,
                                       f"option ${name} = {options[name]!r} doesn't fit "
                                       f"here: {message}", problem.path))
                else:  # set on the command line: point at the argument
                    out.append(Problem(origin[0], 0, 0, f"{message}, where the rulebook "
                                       f"uses ${name}", problem.path))
                break
    return out


def _walk_steps(value: Any, path: PathKey):
    if isinstance(value, dict):
        yield path, value
        for k, v in value.items():
            yield from _walk_steps(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk_steps(v, path + (i,))


def _check_sizes(located: Located, fewest: bool) -> list[Problem]:
    """The deck must deal every allowed player count (with ``fewest``, only the smallest:
    an overridden hand size narrows the player counts instead, see player_counts)."""
    data = located.data
    players = data["players"]
    out = []
    if players["min"] > players["max"]:
        out.append(located.problem(("players",), f"players.min {players['min']} is more than "
                                   f"players.max {players['max']}"))
    options = data.get("options") or {}
    hand = _opt((data.get("settings") or {}).get("hand_size", 7), options)
    side_names, side_cols = side_colors(data)
    per_side = [0] * len(side_names)
    for group in (data.get("deck") or {}).values():
        if group is None:
            continue
        side = side_names.index(group.get("side", side_names[0]))
        copies = _opt(group["copies"], options)
        ncol = len(side_cols[side]) if group.get("colors") == "all" else \
            len(group.get("colors") or [None])
        per_side[side] += copies * ncol * len(group["ranks"])
    total = per_side[0]
    if total > MAX_DECK:
        return out + [located.problem(("deck",), f"the deck has {total} cards, more than "
                                      f"{MAX_DECK}")]
    if any(n != total for n in per_side):
        counts = ", ".join(f"{side} {n}" for side, n in zip(side_names, per_side, strict=True))
        out.append(located.problem(("deck",), f"every side needs as many cards as the others: "
                                   f"{counts}"))
    most = players["min"] if fewest else players["max"]
    turned = data.get("discard_piles", 1)
    need = most * hand + turned
    if total < need:
        out.append(located.problem(("deck",), f"the deck has {total} cards, fewer than "
                                   f"{most} players × {hand} cards + {turned} = {need}"))
    return out


def _opt(value: Any, options: Mapping[str, Any]) -> Any:
    return options.get(value[1:]) if isinstance(value, str) and value.startswith("$") else value


# ------------------------------------------------------------------ compiling
class _Compiler:
    def __init__(self, located: Located):
        self.located = located
        self.options = dict(located.data.get("options") or {})
        self.programs: list[tuple[Step, ...]] = []
        self.ranks: list[str] = []

    def concat(self, ids: list[int | None]) -> int | None:
        """One program running the given ones in order (None when all are None)."""
        real = [i for i in ids if i is not None]
        if len(real) <= 1:
            return real[0] if real else None
        self.programs.append(tuple(step for i in real for step in self.programs[i]))
        return len(self.programs) - 1

    def program(self, steps: list[Any], path: PathKey) -> int:
        compiled: list[Step] = []
        for i, raw in enumerate(steps):
            compiled.extend(self.step(raw, path + (i,), steps[i + 1:]))
        self.programs.append(tuple(compiled))
        return len(self.programs) - 1

    def step(self, raw: Any, path: PathKey, rest: list[Any]) -> list[Step]:
        name, params = (raw, None) if isinstance(raw, str) else next(iter(raw.items()))
        prim = PRIMITIVES[name]
        if prim.main and params is not None and not isinstance(params, dict):
            params = {prim.main: params}
        params = dict(params or {})
        args: dict[str, Any] = {}
        if name == "if" and "option" in params:
            # Options are fixed when the rulebook loads: keep only the branch that applies.
            chosen = "then" if self.options[params["option"]] else "else"
            params = {"then": params.get(chosen) or []}
        for key, value in params.items():
            if key in prim.programs:
                args[key] = self.program(value, path + (name, key))
            else:
                args[key] = _opt(value, self.options)
        for key in prim.params:  # every parameter present: its default, or None
            args.setdefault(key, prim.defaults.get(key))
        at_end = prim.at_end
        if prim.provides is not None:
            # A choice at the end of a round is asked only if a later at-end step reads it.
            at_end = _read_at_end(rest, prim.provides)
        f, line, col = self.located.pos(path)
        return [Step(name, FrozenMap(args), at_end, f"{f}:{line}:{col}", prim.run)]


def _read_at_end(steps: Any, what: str) -> bool:
    """Whether any step in ``steps`` (nested ones too) that runs at the end reads ``what``."""
    for raw in steps if isinstance(steps, list) else []:
        name, params = (raw, None) if isinstance(raw, str) else next(iter(raw.items()))
        prim = PRIMITIVES[name]
        params = params if isinstance(params, dict) else \
            ({prim.main: params} if prim.main and params is not None else {})
        if prim.at_end and what in step_reads(params, prim):
            return True
        if any(_read_at_end(params.get(key), what) for key in prim.programs):
            return True
    return False


DEFAULT_DRAW = [{"draw": {"who": "self", "count": 1}}, "offer_drawn"]


def _card_rules(comp: _Compiler, data: dict[str, Any], faces: list[Face]
                ) -> list[CardRule | None]:
    """Each face's behaviour: its rank's card rule, then its tags' (programs concatenated)."""
    cards = {k: v for k, v in (data.get("cards") or {}).items() if v is not None}
    opts = comp.options
    compiled: dict[tuple[str, str], int | None] = {}

    def program(key: str, part: str) -> int | None:
        if (key, part) not in compiled:
            steps = cards.get(key, {}).get(part)
            compiled[key, part] = None if steps is None else \
                comp.program(steps, ("cards", key, part))
        return compiled[key, part]

    out: list[CardRule | None] = []
    for face in faces:
        rank = data_rank = comp.ranks[face.rank]
        keys = [k for k in (data_rank, *face.tags) if k in cards]
        if not keys:
            out.append(None)
            continue
        effects = [program(k, "effect") for k in keys]
        effect = comp.concat(effects)
        firsts = [program(k, "first_card") if "first_card" in cards[k] else program(k, "effect")
                  for k in keys]
        legal = cards.get(rank, {}).get("legal_if")
        out.append(CardRule(
            rank=rank,
            effect=effect,
            first_card=comp.concat(firsts),
            legal_if=None if legal is None else LegalIf(
                _opt(legal["holds_no"], opts), bool(_opt(legal.get("count_wilds", False), opts))),
            bluff=bool(_opt(cards.get(rank, {}).get("bluff", False), opts)),
            stack_value=next((st.args["count"] for st in comp.programs[effect]
                              if st.op == "stack_draw"), None) if effect is not None else None,
            sheds=effect is not None and _sheds(comp.programs, effect),
        ))
    return out


def side_colors(data: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The side names and each side's colours (one side, ``front``, without `sides`)."""
    sides = data.get("sides")
    if isinstance(sides, dict) and sides:
        return list(sides), [list((s or {}).get("colors") or []) for s in sides.values()]
    return ["front"], [list(data.get("colors") or [])]


SHEDDING = ("discard_color", "give_cards")  # primitives that may take cards from a hand


def _sheds(programs: list[tuple[Step, ...]], program: int) -> bool:
    """Whether a program (or one nested in it) may take cards from a player's hand."""
    for step in programs[program]:
        if step.op in SHEDDING:
            return True
        if any(isinstance(v, int) and not isinstance(v, bool) and step.op in NESTING
               and k in PRIMITIVES[step.op].programs and _sheds(programs, v)
               for k, v in step.args.items()):
            return True
    return False


NESTING = tuple(name for name, p in PRIMITIVES.items() if p.programs)


def _compile(located: Located, source: str, house: tuple[str, ...],
             overrides: Mapping[str, Any]) -> Rulebook:
    data = located.data
    comp = _Compiler(located)
    opts = comp.options
    side_names, side_cols = side_colors(data)
    colors = tuple(c for cols in side_cols for c in cols)
    ranks: list[str] = comp.ranks
    faces: list[Face] = []
    side_decks: list[list[int]] = [[] for _ in side_names]  # face ids, deck order
    for group in (data.get("deck") or {}).values():
        if group is None:
            continue
        side = side_names.index(group.get("side", side_names[0]))
        cols = group.get("colors")
        copies = _opt(group["copies"], opts)
        for rank in map(str, group["ranks"]):
            if rank not in ranks:
                ranks.append(rank)
            r = ranks.index(rank)
            points = group.get("points", 0)
            points = int(rank) if points == "face" else points
            for c in (side_cols[side] if cols == "all" else cols or [None]):
                name = " ".join(x for x in (c, rank, *group.get("tags", [])) if x)
                face = Face(len(faces), name, NO_COLOR if c is None else colors.index(c), r,
                            tuple(group.get("tags", [])), points, group.get("points") == "face",
                            side)
                faces.append(face)
                side_decks[side].extend([face.id] * copies)
    rules = _card_rules(comp, data, faces)
    cards, deck = _pair_sides(faces, side_decks, (data.get("pairing") or {}).get("shift", 0))
    by_side: list[dict[str, int]] = [{} for _ in side_names]
    for face in faces:
        by_side[face.side][face.name] = face.id
    settings = Settings(**{k: _opt(v, opts) for k, v in (data.get("settings") or {}).items()})
    going_out = data.get("going_out") or {}
    draw_steps = (data.get("turn") or {}).get("draw") or DEFAULT_DRAW
    draw_program = comp.program(draw_steps, ("turn", "draw"))
    hooks = {key: comp.program(steps, path) if steps else None for key, steps, path in [
        ("going_out", going_out.get("then"), ("going_out", "then")),
        ("after_draw", data.get("after_draw"), ("after_draw",)),
        ("setup", data.get("setup"), ("setup",))]}
    return Rulebook(
        name=data["name"], title=data.get("title", data["name"]), source=source,
        players_min=data["players"]["min"], players_max=data["players"]["max"],
        colors=colors, ranks=tuple(ranks), faces=tuple(faces), deck=deck,
        rules=tuple(rules), programs=tuple(comp.programs), settings=settings,
        draw_program=draw_program, team_size=(data.get("team") or {}).get("size", 1),
        stack_mixing=None if "stacking" not in data else
        bool(_opt((data["stacking"] or {}).get("mixing", False), opts)),
        stack_max=_opt((data.get("stacking") or {}).get("max"), opts),
        round_ends=going_out.get("round_ends", "player"), going_out=hooks["going_out"],
        after_draw=hooks["after_draw"], setup=hooks["setup"],
        options=FrozenMap(opts), description=data.get("description", ""), house=house,
        overrides=FrozenMap(overrides),
        by_name=FrozenMap({k: v for names in reversed(by_side) for k, v in names.items()}),
        sides=tuple(side_names),
        side_colors=tuple(tuple(colors.index(c) for c in cols) for cols in side_cols),
        cards=cards, card_ids=FrozenMap({faces_of: i for i, faces_of in enumerate(cards)}),
        side_faces=tuple(tuple(faces[c[s]] for c in cards) for s in range(len(side_names))),
        side_rules=tuple(tuple(rules[c[s]] for c in cards) for s in range(len(side_names))),
        side_by_name=tuple(FrozenMap(names) for names in by_side),
        piles=tuple(data.get("piles") or {}),
        discard_piles=data.get("discard_piles", 1),
        reshuffle_piles=tuple(i for i, spec in enumerate((data.get("piles") or {}).values())
                              if (spec or {}).get("reshuffle")),
    )


def _pair_sides(faces: list[Face], side_decks: list[list[int]], shift: int
                ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Every possible card (one face per side) and the deck as card ids. With one side a
    card is its face. With more, the k-th card of each side's deck (in deck order, the other
    sides turned by ``shift``) make one physical card; every pairing of faces has a card
    id, so a scenario may pair any faces."""
    if len(side_decks) == 1:
        return tuple((f.id,) for f in faces), tuple(side_decks[0])
    per_side = [[f.id for f in faces if f.side == s] for s in range(len(side_decks))]
    cards = tuple(itertools.product(*per_side))
    index = {faces_of: i for i, faces_of in enumerate(cards)}
    n = len(side_decks[0])
    turned = [side_decks[0]] + [d[shift % n:] + d[:shift % n] for d in side_decks[1:]]
    return cards, tuple(index[faces_of] for faces_of in zip(*turned, strict=True))


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
    problems.extend(schema_problems(located, _VALIDATOR))
    problems.extend(_semantic(located, "hand_size" in (overrides or {}), not problems))
    if problems:
        return None, _dedupe(problems)
    source = str(name_or_path)
    return _compile(located, source, applied, overrides or {}), []


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen, out = set(), []
    for p in problems:
        if p not in seen:
            seen.add(p)
            out.append(p)
    out.sort(key=lambda p: (p.file, p.line, p.col))
    return out


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
    (the same source, house rules and settings); raises :class:`SnapshotError`."""
    if not isinstance(snapshot, Mapping):
        raise SnapshotError(f"a snapshot is a mapping, not {type(snapshot).__name__}")
    try:
        rulebook = load_rulebook(snapshot.get("source") or snapshot["rulebook"],
                                 house=list(snapshot["house"]),
                                 settings=dict(snapshot["set"]))
    except (KeyError, TypeError) as exc:
        raise SnapshotError(f"malformed snapshot: {type(exc).__name__}: {exc}") from None
    except RulebookError as exc:
        raise SnapshotError(f"can't load the snapshot's rulebook: {exc}") from None
    return rulebook.restore(snapshot)


__all__ = ["load_rulebook", "restore", "check", "resolve", "shipped_names", "house_names",
           "json_path"]
