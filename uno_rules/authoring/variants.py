"""Authoring helpers: what a variant changes (``diff``) and starter rulebooks (``new``)."""

from __future__ import annotations

import json
import os
from dataclasses import fields
from pathlib import Path

from ..engine.rulebook import Rulebook
from ..load.resources import find, house_names, is_shipped, schema_file
from .explain import card_sections, deck_table, rule_lines


def _deck_rows(rb: Rulebook) -> dict[str, str]:
    rows = {}
    for row in deck_table(rb)[2:-1]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        rows[cells[0]] = f"{cells[2]} cards, colours {cells[1]}, {cells[3]} points"
    return rows


def _yaml(value: object) -> str:
    """A value as YAML writes it inline: ``true``, ``null``, ``[a, b]``, ``{k: v}``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(_yaml, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml(v)}" for k, v in value.items()) + "}"
    return str(value)


def _changes(title: str, old: dict[str, str], new: dict[str, str]) -> list[str]:
    out = []
    for key in new:
        if key not in old:
            out.append(f"- added **{key}**: {new[key]}")
        elif old[key] != new[key]:
            out.append(f"- changed **{key}**: {old[key]} → {new[key]}")
    out += [f"- removed **{key}** (was: {old[key]})" for key in old if key not in new]
    return [f"## {title}", "", *out, ""] if out else []


def diff(a: Rulebook, b: Rulebook) -> str:
    """What ``b`` changes against ``a``, in rules terms (Markdown)."""
    name_a = a.name + "".join(f" +{h}" for h in a.house)
    name_b = b.name + "".join(f" +{h}" for h in b.house)
    out = [f"# {name_a} → {name_b}", ""]
    if (a.players_min, a.players_max, a.team_size) != (b.players_min, b.players_max,
                                                       b.team_size):
        out += ["## Players", "", f"- {a.players_text()} → {b.players_text()} players"
                + (f", {b.team_size} to a team" if b.team_size > 1 else ""), ""]
    settings = {f.name: (getattr(a.settings, f.name), getattr(b.settings, f.name))
                for f in fields(a.settings)}
    out += _changes("Settings", {k: _yaml(v[0]) for k, v in settings.items()},
                    {k: _yaml(v[1]) for k, v in settings.items()})
    out += _changes("Options", {k: _yaml(v) for k, v in a.options.items()},
                    {k: _yaml(v) for k, v in b.options.items()})
    out += _changes("Deck", _deck_rows(a), _deck_rows(b))
    out += _changes("Cards", card_sections(a), card_sections(b))
    lines_a, lines_b = rule_lines(a), rule_lines(b)
    for section in lines_b:
        old, new = set(lines_a.get(section, [])), set(lines_b[section])
        moved = [f"- now: {x}" for x in lines_b[section] if x not in old] + \
                [f"- no longer: {x}" for x in lines_a.get(section, []) if x not in new]
        if moved:
            out += [f"## {section}", "", *moved, ""]
    if len(out) == 2:
        out += ["No differences in rules terms.", ""]
    return "\n".join(out)


def starter(name: str, base: str, directory: Path) -> str:
    """The text of a commented starter rulebook ``name`` extending ``base``."""
    base_path = find(base)
    ref = base if is_shipped(base_path) else os.path.relpath(base_path.resolve(),
                                                             directory.resolve())
    schema = os.path.relpath(schema_file("rulebook"), directory.resolve())
    from ..load.entry import load_rulebook
    from ..load.loader import check
    from .explain import describe

    rb = load_rulebook(base)
    acting = next((f for f in rb.faces if rb.rules[f.id] is not None
                   and rb.rules[f.id].effect is not None), rb.faces[0])  # type: ignore[union-attr]
    rank = rb.ranks[acting.rank]
    rule = rb.rules[acting.id]
    now = describe(rb, None if rule is None else rule.effect)
    # a card of one's own: on every side of a deck with sides (they must stay the same size)
    groups = ["my_group: {ranks: [my_card], colors: all, copies: 2, points: 20}"] \
        if len(rb.sides) == 1 else [
            f"my_{side}: {{side: {side}, ranks: [my_card], colors: all, copies: 2, "
            "points: 20}" for side in rb.sides]
    deck = "\n".join(f"#   {g}" for g in groups)
    # the example house rule is one that fits the base (stacking does not fit every deck)
    example = next((h for h in ("stacking", *house_names()) if check(base, house=[h])[0]),
                   "")  # none fits: an empty list, which still validates
    commands = [(f"validate {name}.yaml", "check it (every problem, with its line)"),
                (f"explain {name}.yaml", "the rules as a printable sheet"),
                (f"diff {ref} {name}.yaml", "what you changed, in rules terms"),
                ("primitives", "the building blocks of card effects")]
    width = max(len(c) for c, _ in commands)
    usage = "\n".join(f"#   uno-rules {c:<{width}}  {what}" for c, what in commands)
    return f"""# yaml-language-server: $schema={schema}
# {name}: a variant of {base}. Write only what differs from it.
{usage}
name: {name}
title: {name}
description: {json.dumps(f'A variant of {base}.')}   # shown under the title by `uno-rules explain`
extends: {ref}

# Uncomment any of the blocks below, in any combination (remove the "# " at the start of
# each of their lines), and change them to taste.

# Plain settings:
# settings:
#   hand_size: 7              # cards dealt
#   uno_penalty: 2            # cards drawn when caught not calling UNO
#   play_drawn: may           # may | must | never play a playable drawn card
#   target_score: 500

# House rules to include ({", ".join(house_names())}):
# house: [{example}]

# Cards of your own: a deck group (a group name and a rank name of your choice):
# deck:
{deck}

# What cards do: change a card ({rank} now: {now}), and give yours an effect.
# One `cards:` for all of them; `optional: true` lets this block stand without the deck
# group above (remove it once you keep the group: a misspelt rank is then an error).
# cards:
#   {rank}:
#     effect:
#       - draw: {{who: next, count: 3}}
#       - skip
#   my_card:
#     optional: true
#     effect: [{{draw: {{who: next, count: 3}}}}, skip]
"""
