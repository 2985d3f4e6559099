"""Schema violations as located one-line problems, and the helpers every check shares."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from typing import Any, cast

import jsonschema

from .effects import PRIMITIVES
from .errors import Problem
from .yamlpos import Located, PathKey


def strict_validator(schema: Mapping[str, Any]) -> jsonschema.protocols.Validator:
    """A validator whose ``integer`` is a true integer: ``2.0`` is refused, not truncated."""
    checker = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool))
    # ``extend`` is untyped in the stubs; it returns a validator class.
    extend = cast("Callable[..., type[jsonschema.protocols.Validator]]",
                  jsonschema.validators.extend)
    cls = extend(jsonschema.Draft202012Validator, type_checker=checker)
    return cls(schema)




# A validator sets ``instance``, ``validator_value`` and ``schema`` on every error it yields;
# the stubs also allow the "unset" sentinel of an error made by hand. These read them as set.
def _instance(error: jsonschema.ValidationError) -> Any:
    return cast(Any, error.instance)


def _value(error: jsonschema.ValidationError) -> Any:
    return cast(Any, error.validator_value)


def _schema(error: jsonschema.ValidationError) -> Mapping[str, Any]:
    return cast("Mapping[str, Any]", error.schema)


def did_you_mean(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(str(word), choices, n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""



def schema_problems(located: Located, validator: jsonschema.protocols.Validator
                    ) -> list[Problem]:
    """Every schema violation in ``located``, as located one-line problems."""
    problems: list[Problem] = []
    errors = sorted(validator.iter_errors(located.data),
                    key=lambda e: [str(x) for x in e.absolute_path])
    for error in errors:
        problems.extend(schema_problem(located, error))
    return dedupe(problems)


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
                out.append(located.problem(path + (key,), f"{what} '{key}'"
                                           f"{did_you_mean(key, allowed)}", at_key=True))
        return out
    if error.validator == "required":
        return [located.problem(path, error.message.replace("is a required property",
                                                            "is required but missing"))]
    if error.validator == "enum":
        values = _value(error)
        hint = did_you_mean(str(error.instance), [str(x) for x in values])
        return [located.problem(path, f"{error.instance!r} is not one of "
                                      f"{', '.join(map(str, values))}{hint}")]
    if error.validator == "type":
        want = error.validator_value
        want = " or ".join(want) if isinstance(want, list) else want
        return [located.problem(path, f"expected {want}, got "
                                      f"{type_name(error.instance)} {error.instance!r}")]
    return [located.problem(path, error.message)]


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
        prims = set(names) <= set(PRIMITIVES)
        if prims and inst in PRIMITIVES:  # a primitive that can't be written bare
            prim = PRIMITIVES[inst]
            needs = ", ".join(prim.required or prim.params)
            short = f" or `{inst}: <{prim.main}>`" if prim.main else ""
            return [located.problem(path, f"`{inst}` can't stand alone: give it {needs} "
                                          f"(`{inst}: {{...}}`{short})")]
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
                        and "pattern" not in _schema(s)})
        if any(str(b.get("pattern", "")).startswith("^\\$") for b in branches):
            kinds.append("a $option reference")
        consts = [repr(b["const"]) for b in branches if "const" in b]
        want = " or ".join(kinds + consts) or "a valid value"
        return [located.problem(path, f"expected {want}, got {type_name(inst)} {inst!r}")]
    out: list[Problem] = []
    for sub in best:
        out.extend(schema_problem(located, sub))
    return out




def dedupe(problems: list[Problem]) -> list[Problem]:
    seen, out = set(), []
    for p in problems:
        if p not in seen:
            seen.add(p)
            out.append(p)
    out.sort(key=lambda p: (p.file, p.line, p.col))
    return out

