"""Reference documentation generated from the code: the primitives (``docs/primitives.md``),
the settings and rulebook keys (``docs/settings.md``), the decision kinds
(``docs/decisions.md``) and one rules sheet per shipped rulebook (``docs/rulebooks/NAME.md``).
``python -m uno_rules.authoring.docs`` rewrites them all."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from ..engine.decisions import DATA, KINDS, WORDS
from ..engine.effects import PRIMITIVES, SEATS
from ..engine.words import SEAT_SET_SCHEMA, SEAT_SETS


def _param_text(schema: dict[str, Any]) -> str:
    if schema.get("enum") == sorted(SEATS):
        return "a seat"
    if schema.get("enum") == SEAT_SET_SCHEMA["enum"]:
        return "a set of seats"
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
           "Generated from `uno_rules/engine/effects.py` by `uno-rules primitives`; do not edit.",
           "A card's `effect` (and `first_card`, `setup`, `after_draw`, `going_out.then`, "
           "`turn.draw`) is a list of these steps, run in order. A step is a primitive's "
           "name alone (where it needs no parameter), `name: value` (its main parameter), "
           "or `name: {param: value, ...}`.", "", "## Seats", "",
           "Parameters that name a seat take one of:", ""]
    out += [f"- `{k}` — {v}" for k, v in SEATS.items()]
    out += ["", "Parameters that name a set of seats (a step run per seat, the hands a deal "
            "gathers) take any one seat above, or one of:", ""]
    out += [f"- `{k}` — {v}" for k, v in SEAT_SETS.items()]
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
                req = "yes" if name in prim.required else \
                    (f"no (default `{str(prim.defaults[name]).lower()}`)"
                     if name in prim.defaults else "")
                desc = schema.get("description", "").split(": `")[0].split(";")[0]
                out.append(f"| `{name}` | {req} | {_param_text(schema)} | {desc} |")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ settings and keys
_DEFAULT_NOTE = re.compile(r"\s*\(default [^)]*\)")
_PLURAL = {"string": "strings", "integer": "integers", "boolean": "booleans"}


def _plural(text: str) -> str:
    head, *rest = text.split(" ", 1)
    return " ".join([_PLURAL.get(head, head), *rest])


def _is_ref(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "string" and str(schema.get("pattern", "")).startswith("^\\$")


def _yaml(value: Any) -> str:
    return "`" + (str(value).lower() if isinstance(value, bool) else str(value)) + "`"


def _value_text(schema: dict[str, Any]) -> str:
    """A schema's value in words, for the keys reference."""
    if "$ref" in schema:
        target = schema["$ref"].rsplit("/", 1)[-1]
        return "a list of steps" if target == "steps" else "a mapping (keys below)"
    if "anyOf" in schema:
        parts = [_value_text(s) for s in schema["anyOf"] if not _is_ref(s)]
        text = " or ".join(dict.fromkeys(parts))
        return text + (" or `$option`" if any(_is_ref(s) for s in schema["anyOf"]) else "")
    if "enum" in schema:
        return " \\| ".join(_yaml(v) for v in schema["enum"])
    if "const" in schema:
        return _yaml(schema["const"])
    kind = schema.get("type", "value")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "null":
        return "`null`"
    if kind == "array":
        items = _value_text(schema.get("items", {}))
        return "a list of " + " or ".join(_plural(w) for w in items.split(" or "))
    if kind == "object":
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and "properties" not in schema:
            return "a mapping: name → " + _value_text(extra)
        return "a mapping"
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        return f"{kind} {low}–{high}"
    if low is not None:
        return f"{kind} ≥ {low}"
    return str(kind)


def _unwrap(schema: dict[str, Any]) -> dict[str, Any]:
    """The value schema of a property that also accepts a `$name` reference."""
    branches = [s for s in schema.get("anyOf", []) if not _is_ref(s)]
    if len(branches) == 1 and len(schema["anyOf"]) == 2:
        return {**branches[0], **{k: v for k, v in schema.items() if k != "anyOf"}}
    return schema


def _meaning(schema: dict[str, Any]) -> str:
    return " ".join(schema.get("description", "").split()) or "*(not described yet)*"


def _setting_rows() -> list[str]:
    from dataclasses import MISSING, fields

    from ..engine.model import Settings
    from ..load.schema import rulebook_schema

    defaults = {f.name: f.default for f in fields(Settings) if f.default is not MISSING}
    rows = ["| setting | value | default | meaning |", "|---|---|---|---|"]
    props = rulebook_schema()["properties"]["settings"]["properties"]
    for name, prop in props.items():
        inner = _unwrap(prop)
        if "default" in inner:
            default = _yaml(inner["default"])
        elif name in defaults:
            default = _yaml(defaults[name])
        else:
            default = "—"
        meaning = _DEFAULT_NOTE.sub("", _meaning(inner))
        rows.append(f"| `{name}` | {_value_text(prop)} | {default} | {meaning} |")
    return rows


def _key_rows(schema: dict[str, Any], defs: dict[str, Any], prefix: str = "") -> list[str]:
    """One row per key of ``schema``, then its sub-keys (``players.min``, ``deck.*.copies``)."""
    rows = []
    for key, prop in schema.get("properties", {}).items():
        path = prefix + key
        if key == "settings" and not prefix:  # its own section
            rows.append(f"| `{path}` | {_value_text(prop)} | {_meaning(prop)} See "
                        "[Settings](#settings). |")
            continue
        rows.append(f"| `{path}` | {_value_text(prop)} | {_meaning(_unwrap(prop))} |")
        rows += _key_rows(_resolve(prop, defs), defs, path + ".")
        extra = prop.get("additionalProperties")
        if isinstance(extra, dict):
            for branch in extra.get("anyOf", [extra]):
                rows += _key_rows(_resolve(branch, defs), defs, path + ".*.")
    return rows


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref", "")
    name = ref.rsplit("/", 1)[-1]
    return defs[name] if ref.startswith("#/$defs/") and name != "steps" else schema


def _ref_sites(schema: dict[str, Any], defs: dict[str, Any], path: str) -> list[str]:
    """Where a `$name` reference may stand, as key paths (``deck.*.copies``)."""
    out = []
    if any(_is_ref(s) for s in schema.get("anyOf", [])):
        out.append(path)
    schema = _resolve(schema, defs)
    for key, prop in schema.get("properties", {}).items():
        out += _ref_sites(prop, defs, f"{path}.{key}".lstrip("."))
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        for branch in extra.get("anyOf", [extra]):
            out += _ref_sites(branch, defs, f"{path}.*")
    return out


def settings_markdown() -> str:
    """The settings and rulebook keys reference as Markdown (``docs/settings.md``)."""
    from ..engine.effects import PRIMITIVES
    from ..load.schema import rulebook_schema

    schema = rulebook_schema()
    defs = schema["$defs"]
    step_refs: dict[str, list[str]] = {}
    for prim in PRIMITIVES.values():
        for param, value in prim.params.items():
            if any(_is_ref(s) for s in value.get("anyOf", [])):
                step_refs.setdefault(param, []).append(f"`{prim.name}`")
    sites = [s for s in _ref_sites(schema, defs, "") if not s.startswith("settings.")]
    required = ", ".join(f"`{k}`" for k in schema["required"])
    out = [
        "# Settings and rulebook keys", "",
        "Generated from the rulebook schema (`uno_rules/load/schema.py`) by "
        "`python -m uno_rules.authoring.docs`; do not edit. `uno-rules schema` prints the schema "
        "itself; [primitives.md](primitives.md) lists the steps that card effects are made of.",
        "", "## Settings", "",
        "Plain rule settings, under `settings:`. A rulebook that `extends` another inherits "
        "its settings and lists only those it changes. Any value may be a `$name` reference "
        "to an option (below).", "",
        *_setting_rows(), "",
        "## Options and `$name` references", "",
        "`options:` declares named values of the rulebook's own (a string, an integer, a "
        "boolean, or a mapping: weights, `{0: 50, 1: 15}`): the choices its rules leave "
        "open. A value written `$name` stands for option `name`; it is replaced when the "
        "rulebook loads, and each option's value is "
        "checked against every place that uses it. A reference may stand in any setting, "
        "and at:", "",
        *[f"- `{s}`" for s in sites],
        *[f"- `{param}` of a " + " or ".join(prims) + " step ([primitives.md](primitives.md))"
          for param, prims in step_refs.items()], "",
        "A boolean option can also choose steps: `if: {option: NAME, then: [...], "
        "else: [...]}` runs `then` when the option is true, decided when the rulebook "
        "loads. Any option chooses steps by its value with `if: {option_is: {NAME: VALUE}, "
        "then: [...], else: [...]}` (a card whose text is a setting, as blank cards written "
        "by the table). A mapping option gives weights: `count: {weights: $NAME}` of a "
        "`draw` step, and a `random` branch's `weight` may be an option (`--set 'NAME={1: "
        "1}'`).", "",
        "```yaml",
        "options:",
        "  penalty: 2                # cards a Skip makes the next player draw",
        "cards:",
        "  skip:",
        "    effect:",
        "      - draw: {who: next, count: $penalty}",
        "      - skip",
        "```", "",
        "## Overriding settings and options", "",
        "Without editing the file: `--set NAME=VALUE` (repeatable) on `validate`, "
        "`scenario`, `deck`, `explain`, `diff`, `simulate` and `play`; `set: {NAME: VALUE}` "
        "in a scenario file "
        "([scenarios.md](scenarios.md)); `load_rulebook(ref, settings={NAME: VALUE})` from "
        "Python. NAME is a setting or one of the rulebook's options (a house-rule overlay "
        "may bring options of its own); VALUE is read as YAML, so `5` is an integer, "
        "`true` a boolean, `blue` a string. The result is checked like a file: "
        "an unknown name (with a suggestion) or a value that doesn't fit is an error, exit "
        "code 1 (in a scenario file, the file is reported as malformed).", "",
        "One difference: in a file, `hand_size` must let the deck deal every allowed player "
        "count (`players.max` × `hand_size` + 1 cards at least); a `hand_size` set with "
        "`--set` or `set:` narrows the allowed player counts instead (down to "
        "`players.min`, which must still fit).", "",
        "## Rulebook keys", "",
        f"Required: {required} — after `extends` is merged, so a variant lists only its "
        "`name` and what it changes. `*` stands for a name of your choice (a deck group, a "
        "rank or a tag).", "",
        "| key | value | meaning |", "|---|---|---|",
        *_key_rows(schema, defs), "",
        "A house-rule overlay is a file without `extends` and without a `deck` of its own "
        "`colors`, `sides` or `players` (a `deck:` that adds cards is fine): a partial "
        "rulebook, merged over the rulebook it is applied to (`--house`, `house:`) the same "
        "way `extends` merges; its `name`, `title` and `conflicts` stay its own. An overlay "
        "may not change a value an earlier overlay set (that change would be lost without a "
        "word): it is refused, naming both overlays and the key. Setting the same value "
        "again, or changing what the rulebook itself set, is fine.",
    ]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ decision kinds
def _data_text(kind: str) -> str:
    shape = DATA.get(kind)
    if shape is None:
        return "none (`null`)"
    return f"`{shape}`" if isinstance(shape, str) else "`[" + ", ".join(shape) + "]`"


def decisions_markdown() -> str:
    """The decision kinds reference as Markdown (``docs/decisions.md``), from
    ``uno_rules.engine.decisions``: each kind's record, words and snapshot data."""
    out = [
        "# Decision kinds",
        "",
        "<!-- generated by `python -m uno_rules.authoring.docs`; do not edit by hand -->",
        "",
        "The decisions a round can wait for, in `uno_rules.engine.decisions.KINDS` order (the",
        "order of the RL observation's `decision_kind` segment). `Decision.kind`, a seat's",
        "view's `decision`, a scenario's `decision` and an agent observation's `kind` are one of",
        "these names. *Data* is what a snapshot's `pending.data` holds for the kind",
        "([snapshots.md](snapshots.md)): `card` a card id, `seat` a seat, `program` a program",
        "id (`program_or_none`: or `null`), `seats` one or more distinct seats, `seat_pair` two",
        "distinct seats, `[a, b]` a list of those.",
        "",
        "| kind | what it is | the seat is asked | data |",
        "|---|---|---|---|",
    ]
    for kind in KINDS:
        words = WORDS[kind]  # not the class's docstring: the compiled build has none
        out.append(f"| `{kind}` | {words.what} | {words.prompt} | {_data_text(kind)} |")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ all generated docs
def generated_docs() -> dict[str, str]:
    """Every generated page, by its path under ``docs/``."""
    from ..load.entry import load_rulebook
    from ..load.resources import shipped_names
    from .explain import explain

    pages = {"primitives.md": primitives_markdown(), "settings.md": settings_markdown(),
             "decisions.md": decisions_markdown()}
    for name in shipped_names():
        pages[f"rulebooks/{name}.md"] = explain(load_rulebook(name))
    return pages


def write_docs(directory: str | Path = "docs") -> list[Path]:
    """Write every generated page under ``directory``; returns the files written."""
    written = []
    for rel, text in generated_docs().items():
        path = Path(directory) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> None:
    """``python -m uno_rules.authoring.docs [DIR]``: regenerate the generated docs (default
    ``docs``)."""
    args = sys.argv[1:] if argv is None else argv
    for path in write_docs(args[0] if args else "docs"):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
