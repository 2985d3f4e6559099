"""Schema violations as located one-line problems, and the helpers every check shares."""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import islice
from typing import Any, cast

import jsonschema

from ..engine.effects import PRIMITIVES
from ..engine.errors import Problem
from .yamlpos import Located, PathKey


def strict_validator(schema: Mapping[str, Any]) -> jsonschema.protocols.Validator:
    """A validator whose ``integer`` is a true integer: ``2.0`` is refused, not truncated."""
    checker = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool))
    # ``extend`` is untyped in the stubs; it returns a validator class.
    extend = cast("Callable[..., type[jsonschema.protocols.Validator]]",
                  jsonschema.validators.extend)
    cls = extend(jsonschema.Draft202012Validator, type_checker=checker,
                 validators={"anyOf": _any_of})
    return cls(schema)


def _any_of(validator: Any, branches: list[Any], instance: Any, schema: Any
            ) -> Iterator[jsonschema.ValidationError]:
    """jsonschema's ``anyOf``, reading at most ``MAX_ERRORS`` errors of each branch: a list
    of thousands of bad items would otherwise build every error, in time and memory."""
    found: list[jsonschema.ValidationError] = []
    for index, branch in enumerate(branches):
        errors = list(islice(validator.descend(instance, branch, schema_path=index),
                             MAX_ERRORS))
        if not errors:
            return
        found.extend(errors)
        if len(errors) == MAX_ERRORS:  # say so, where the reading stopped
            found.append(jsonschema.ValidationError(
                _MORE, validator="maxErrors", path=errors[-1].path,
                schema_path=[index]))
    yield jsonschema.ValidationError(f"{instance!r} is not valid under any of the given "
                                     "schemas", context=found)




# A validator sets ``instance``, ``validator_value`` and ``schema`` on every error it yields;
# the stubs also allow the "unset" sentinel of an error made by hand. These read them as set.
def _instance(error: jsonschema.ValidationError) -> Any:
    return cast(Any, error.instance)


def _value(error: jsonschema.ValidationError) -> Any:
    return cast(Any, error.validator_value)


def _schema(error: jsonschema.ValidationError) -> Mapping[str, Any]:
    return cast("Mapping[str, Any]", error.schema)


# Names compared for "did you mean" in one load: a hostile file with thousands of
# misspellings among thousands of names would otherwise take minutes (0.1 s of work here).
SUGGESTION_WORK = 50_000
_WORK: ContextVar[list[int] | None] = ContextVar("_WORK", default=None)


@contextmanager
def suggestion_budget() -> Iterator[None]:
    """Inside, "did you mean" compares at most ``SUGGESTION_WORK`` names in all, then
    stops suggesting; outside, it always suggests."""
    token = _WORK.set([SUGGESTION_WORK])
    try:
        yield
    finally:
        _WORK.reset(token)


def did_you_mean(word: str, choices: list[str]) -> str:
    key = (str(word), tuple(choices))
    if key not in _SUGGESTED:  # the same word among the same names: the same answer
        work = _WORK.get()
        if work is not None:
            if work[0] < len(choices):
                return ""
            work[0] -= len(choices)
        if len(_SUGGESTED) >= 1024:
            _SUGGESTED.clear()
        close = difflib.get_close_matches(key[0], choices, n=1, cutoff=0.6)
        _SUGGESTED[key] = f"; did you mean '{close[0]}'?" if close else ""
    return _SUGGESTED[key]


_SUGGESTED: dict[tuple[str, tuple[str, ...]], str] = {}


MAX_ERRORS = 1_000  # schema errors read: beyond, they cost time and say nothing new
_MORE = f"more problems from here on, not read (the reading stops at {MAX_ERRORS:,})"


def schema_problems(located: Located, validator: jsonschema.protocols.Validator
                    ) -> list[Problem]:
    """Every schema violation in ``located`` (up to ``MAX_ERRORS``), as located one-line
    problems."""
    problems: list[Problem] = []
    errors = list(islice(validator.iter_errors(located.data), MAX_ERRORS + 1))
    more = errors[MAX_ERRORS:]
    errors = sorted(errors[:MAX_ERRORS], key=lambda e: [str(x) for x in e.absolute_path])
    for error in errors:
        problems.extend(schema_problem(located, error))
    if more:
        problems.append(located.problem(tuple(more[0].absolute_path), _MORE))
    return dedupe(problems)


REPEATED = 3       # a message found more often than this is reported once, with its count
MAX_REPORTED = 100  # problems listed; the rest are counted


def report(problems: list[Problem]) -> list[Problem]:
    """The problems to show, in their order, each once; a message repeated more than
    ``REPEATED`` times as one line with its count; at most ``MAX_REPORTED`` lines."""
    problems = list(dict.fromkeys(problems))
    counts = Counter(p.message for p in problems)
    out, seen = [], set()
    for p in problems:
        count = counts[p.message]
        if count <= REPEATED:
            out.append(p)
        elif p.message not in seen:
            seen.add(p.message)
            where = f"{p.line}:{p.col}" if p.line > 0 else p.file
            out.append(Problem(p.file, p.line, p.col, f"{count:,} problems like this, the "
                               f"first at {where}: {p.message}", p.path))
    if len(out) > MAX_REPORTED:
        rest = out[MAX_REPORTED]
        unread = any(p.message == _MORE for p in out[MAX_REPORTED:])  # not a problem: a mark
        out = out[:MAX_REPORTED] + [Problem(
            rest.file, rest.line, rest.col,
            f"{len(out) - MAX_REPORTED - unread:,} more problems from here on (the first "
            f"{MAX_REPORTED} are listed" + (f"; more not read: the reading stops at "
                                            f"{MAX_ERRORS:,})" if unread else ")"), rest.path)]
    return out


def schema_problem(located: Located, error: jsonschema.ValidationError) -> list[Problem]:
    """One schema violation as located one-line problems."""
    path: PathKey = tuple(error.absolute_path)
    if error.validator in ("anyOf", "oneOf") and error.context:
        return _best_branch(located, error)
    if error.validator == "additionalProperties":
        allowed = list(_schema(error).get("properties", {}))
        out = []
        for key in re.findall(r"'([^']*)'", error.message.split("(")[-1]):
            if key in _instance(error):
                what = "unknown primitive" if set(allowed) == set(PRIMITIVES) else "unknown key"
                hint = did_you_mean(key, allowed) or _elsewhere(key, _schema(error), allowed)
                out.append(located.problem(path + (key,), f"{what} '{key}'{hint}", at_key=True))
        return out
    if error.validator == "required":
        missing = re.findall(r"'([^']*)'", error.message)[:1]
        allowed = _schema(error).get("properties", {})
        inst = _instance(error)
        if missing and isinstance(inst, dict) and any(
                k not in allowed and did_you_mean(str(k), missing) for k in inst):
            return []  # a misspelt key stands for it: its "did you mean" says all
        return [located.problem(path, error.message.replace("is a required property",
                                                            "is required but missing"))]
    if error.validator == "enum":
        values = _value(error)
        word = str(error.instance)
        # among a few fixed words, `next_player` means `next` (not the closer `next_partner`)
        head = max((str(v) for v in values if word.startswith(f"{v}_")), key=len, default="")
        hint = f"; did you mean '{head}'?" if head else \
            did_you_mean(word, [str(x) for x in values])
        return [located.problem(path, f"{error.instance!r} is not one of "
                                      f"{', '.join(map(str, values))}{hint}")]
    if error.validator in ("maxProperties", "minProperties") and \
            set(_schema(error).get("properties", {})) == set(PRIMITIVES):
        keys = [str(k) for k in islice(_instance(error), 6)]
        more = ", ..." if len(_instance(error)) > len(keys) else ""
        here = f"{len(_instance(error)):,} keys: {', '.join(keys)}{more} (is one a parameter, " \
            "indented too little?)" if keys else "none"
        return [located.problem(path, f"a step names one primitive, here {here}")]
    if error.validator == "type":
        want = _value(error)
        kinds = [want] if isinstance(want, str) else list(want)
        return [located.problem(path, _expected(kinds, _instance(error), path))]
    return [located.problem(path, error.message)]


FEW_KEYS = 12  # an unknown key among at most this many, without a near one: list them
KINDS = {"array": "a list", "object": "a mapping"}  # JSON Schema's words, in YAML's


def _elsewhere(key: str, schema: Mapping[str, Any], allowed: list[str]) -> str:
    """For an unknown key with no near name here: the mapping one level down that takes it
    (a setting written at the top), else the keys allowed here when they are few."""
    for name in allowed:
        below = schema["properties"][name]
        for branch in (below, *below.get("anyOf", [])) if isinstance(below, dict) else ():
            if isinstance(branch, dict) and key in branch.get("properties", {}):
                return f": it goes under `{name}:`"
    if len(allowed) == 1:
        return f"; the only key here is {allowed[0]}"
    if allowed and len(allowed) <= FEW_KEYS:
        return f"; the keys here are {', '.join(allowed)}"
    return ""


def _expected(kinds: list[str], inst: Any, path: PathKey) -> str:
    """"expected ..., got ..." in the author's words, with the fix when it is plain: a
    lone word where a list is wanted, or a value where a step wants its parameters."""
    text = f"expected {' or '.join(KINDS.get(k, k) for k in kinds)}, got {type_name(inst)} " \
        f"{inst!r}"
    if kinds == ["array"] and isinstance(inst, str) and re.fullmatch(r"[\w .,-]{1,60}", inst):
        return f"{text}; write [{inst}]"
    prim = PRIMITIVES.get(str(path[-1])) if len(path) > 1 and isinstance(path[-2], int) \
        else None
    if "object" in kinds and prim is not None and prim.params:
        names = list(prim.required or prim.params)
        return (f"{text}: `{prim.name}` takes {', '.join(names)} "
                f"(`{prim.name}: {{{', '.join(f'{n}: ...' for n in names)}}}`)")
    return text


def type_name(value: Any) -> str:
    return {bool: "boolean", int: "integer", float: "number", str: "string", list: "list",
            dict: "mapping", type(None): "null"}.get(type(value), type(value).__name__)


def _best_branch(located: Located, error: jsonschema.ValidationError) -> list[Problem]:
    """For anyOf failures, report the branch that fits the value's type best."""
    inst = error.instance
    branches = _value(error)
    by_branch: dict[str | int, list[jsonschema.ValidationError]] = {}
    for sub in error.context or []:
        by_branch.setdefault(sub.schema_path[0] if sub.schema_path else 0, []).append(sub)
    path: PathKey = tuple(error.absolute_path)
    names = [n for b in branches for n in b.get("enum", [])]
    if isinstance(inst, str) and names and not inst.startswith("$"):
        return [located.problem(path, _name_problem(inst, names))]
    best = _best_fit(by_branch, path)
    if best is None:
        return [located.problem(path, _no_branch_fits(error, branches, path))]
    out: list[Problem] = []
    for sub in best:
        out.extend(schema_problem(located, sub))
    return out


def _name_problem(inst: str, names: list[str]) -> str:
    """A name that is none of ``names`` (primitives' names, or a schema's enum)."""
    prims = set(names) <= set(PRIMITIVES)
    if prims and inst in PRIMITIVES:  # a primitive that can't be written bare
        prim = PRIMITIVES[inst]
        needs = ", ".join(prim.required or prim.params)
        short = f" or `{inst}: <{prim.main}>`" if prim.main else ""
        return f"`{inst}` can't stand alone: give it {needs} (`{inst}: {{...}}`{short})"
    every = list(PRIMITIVES) if prims else names
    what = "unknown primitive" if prims else "invalid value"
    valid = "" if prims else f"; expected one of {', '.join(map(str, names))}"
    return f"{what} {inst!r}{did_you_mean(inst, every)}{valid}"


def _best_fit(by_branch: dict[str | int, list[jsonschema.ValidationError]], path: PathKey
              ) -> list[jsonschema.ValidationError] | None:
    """The errors of the branch with the fewest, among those of the value's type (None:
    the value has the type of no branch)."""
    best: list[jsonschema.ValidationError] | None = None
    for subs in by_branch.values():
        if any((s.validator in ("type", "const") and len(s.absolute_path) == len(path))
               or (s.validator == "pattern" and str(s.validator_value).startswith("^\\$"))
               for s in subs):
            continue  # wrong type for this branch: not the branch the author meant
        if best is None or len(subs) < len(best):
            best = subs
    return best


def _no_branch_fits(error: jsonschema.ValidationError, branches: list[Any],
                    path: PathKey) -> str:
    """The types and constants a value of no branch's type could have been."""
    inst = error.instance
    kinds = sorted({str(s.validator_value) for s in error.context or []
                    if s.validator == "type" and s.validator_value != "null"
                    and "pattern" not in _schema(s)})
    if any(str(b.get("pattern", "")).startswith("^\\$") for b in branches):
        kinds.append("a $option reference")
    consts = [repr(b["const"]) for b in branches if "const" in b]
    if not kinds + consts:
        return f"expected a valid value, got {type_name(inst)} {inst!r}"
    return _expected(kinds + consts, inst, path)


def dedupe(problems: list[Problem]) -> list[Problem]:
    seen, out = set(), []
    for p in problems:
        if p not in seen:
            seen.add(p)
            out.append(p)
    out.sort(key=lambda p: (p.file, p.line, p.col))
    return out

