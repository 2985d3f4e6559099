"""The engine stays generic: no edition or card name in the Python package."""

from __future__ import annotations

import re
from pathlib import Path

import uno_rules
from uno_rules.engine.effects import PRIMITIVES
from uno_rules.load.schema import rulebook_schema

PACKAGE = Path(uno_rules.__file__).resolve().parent
ROOT = Path(__file__).resolve().parent.parent  # the docs: not under an installed package
NAMES = re.compile(r"snorlax|greninja|grunt|kent|lasso|pokemon|teams|team_play|team_draw|"
                   r"draw_four|draw_two|draw_one|draw_five|skip_everyone|wild_draw_color|"
                   r"roulette|flip|all_wild|all wild|forced_swap|skip_two|targeted|hit_2|hit_fire|"
                   r"hit-fire|all_hit|trade_hands|discard_all", re.IGNORECASE)


def test_no_edition_or_card_names_in_python() -> None:
    hits = [f"{p.name}:{i}: {line.strip()}" for p in sorted(PACKAGE.rglob("*.py"))
            for i, line in enumerate(p.read_text().splitlines(), 1) if NAMES.search(line)]
    assert hits == []


def test_schema_and_table_name_the_same_primitives() -> None:
    step = rulebook_schema()["$defs"]["step"]["anyOf"]
    names = set(step[1]["properties"])
    assert names == set(PRIMITIVES)
    assert set(step[0]["enum"]) == {p.name for p in PRIMITIVES.values() if p.bare}
    for prim in PRIMITIVES.values():
        assert prim.doc and step[1]["properties"][prim.name]["description"] == prim.doc


def test_primitives_doc_is_up_to_date() -> None:
    from uno_rules.authoring.docs import primitives_markdown

    doc = (ROOT / "docs" / "primitives.md").read_text()
    assert doc == primitives_markdown(), "regenerate: uno-rules primitives > docs/primitives.md"
    for name in PRIMITIVES:
        assert f"## `{name}`" in doc
