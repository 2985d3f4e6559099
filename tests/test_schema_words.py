"""The schema's descriptions say what a field does, not which edition uses it: no shipped
rulebook's name or title appears in them (uno_rules/load/schema.py, the primitives' and
conditions' tables; the schema file is checked against them in tests/test_loader.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import uno_rules
from uno_rules.load.resources import shipped_names
from uno_rules.load.schema import rulebook_schema


def descriptions(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "description" and isinstance(inner, str):
                yield inner
            else:
                yield from descriptions(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from descriptions(inner)


def forms(name: str) -> set[str]:
    """A rulebook's name and title as prose may write them: `triple_play`, `triple play`,
    `UNO Triple Play`, `Triple Play`."""
    title = uno_rules.load_rulebook(name).title
    return {name, name.replace("_", " "), title, re.sub(r"^UNO | UNO$", "", title)} - {""}


@pytest.mark.parametrize("name", shipped_names())
def test_no_edition_in_the_schema_descriptions(name: str) -> None:
    text = "\n".join(descriptions(rulebook_schema()))
    for form in forms(name):
        found = re.search(rf"(?<!\w){re.escape(form)}(?!\w)", text, re.IGNORECASE)
        assert found is None, f"{form!r} in: {text[max(0, found.start() - 60):found.end() + 40]}"

