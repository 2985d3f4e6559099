"""Reference documentation generated from the primitive table (``docs/primitives.md``)."""

from __future__ import annotations

from typing import Any

from .effects import PRIMITIVES, SEATS


def _param_text(schema: dict[str, Any]) -> str:
    if schema.get("enum") == sorted(SEATS):
        return "a seat"
    if "enum" in schema:
        return " \\| ".join(f"`{v}`" for v in schema["enum"])
    if "$ref" in schema:
        return "a list of steps"
    if "anyOf" in schema:
        return " or ".join(_param_text(s) for s in schema["anyOf"])
    if "const" in schema:
        return f"`{schema['const']}`"
    if schema.get("type") == "array":
        return "a list of " + _param_text(schema.get("items", {}))
    if "pattern" in schema and schema.get("type") == "string":
        return "`$option`"
    return str(schema.get("type", "value"))


def primitives_markdown() -> str:
    """The primitives reference as Markdown."""
    out = ["# Effect primitives", "",
           "Generated from `uno_rules/effects.py` by `uno-rules primitives`; do not edit.",
           "A card's `effect` (and `first_card`, `setup`, `after_draw`, `going_out.then`, "
           "`turn.draw`) is a list of these steps, run in order. A step is a primitive's "
           "name alone (where it needs no parameter), `name: value` (its main parameter), "
           "or `name: {param: value, ...}`.", "", "## Seats", "",
           "Parameters that name a seat take one of:", ""]
    out += [f"- `{k}` — {v}" for k, v in SEATS.items()]
    for prim in PRIMITIVES.values():
        out += ["", f"## `{prim.name}`", "", prim.doc, ""]
        flags = []
        if prim.bare:
            flags.append("may be written bare")
        if prim.main:
            flags.append(f"main parameter `{prim.main}`")
        if prim.at_end:
            flags.append("runs even when the card ended the round")
        if prim.provides:
            flags.append(f"provides `{prim.provides}`")
        if prim.reads:
            flags.append("reads " + ", ".join(f"`{r}`" for r in prim.reads))
        if flags:
            out += ["*" + "; ".join(flags) + ".*", ""]
        if prim.params:
            out += ["| parameter | required | value | meaning |", "|---|---|---|---|"]
            for name, schema in prim.params.items():
                req = "yes" if name in prim.required else ""
                desc = schema.get("description", "").split(": `")[0].split(";")[0]
                out.append(f"| `{name}` | {req} | {_param_text(schema)} | {desc} |")
    return "\n".join(out) + "\n"
