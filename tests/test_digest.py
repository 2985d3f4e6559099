"""A rulebook's digest (engine/snapshot.digest): every shipped rulebook's is pinned, and what
model.DIGEST_SPARSE lists is left out of it only at the value it lists."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import uno_rules
from uno_rules.engine import model
from uno_rules.engine.rulebook import Rulebook
from uno_rules.engine.snapshot import digest
from uno_rules.load.resources import house_names, shipped_names

PINNED: dict[str, str] = json.loads(
    (Path(__file__).parent / "rulebook_digests.json").read_text(encoding="utf-8"))


def fresh(name: str | Path, house: tuple[str, ...] = (), **settings: Any) -> str:
    """The digest of a rulebook computed now (not the one the compiled-rulebook cache kept)."""
    rb: Rulebook = uno_rules.load_rulebook(name, house=house, settings=settings or None)
    rb.memo.pop("digest", None)
    return digest(rb)


def test_every_shipped_rulebook_is_pinned() -> None:
    assert sorted(PINNED) == sorted([*shipped_names(), *(f"classic+{h}" for h in house_names())])


@pytest.mark.parametrize("name", sorted(PINNED))
def test_shipped_digest_unchanged(name: str) -> None:
    base, _, house = name.partition("+")
    assert fresh(base, (house,) if house else ()) == PINNED[name]


def test_a_field_not_in_the_table_is_digested(monkeypatch: pytest.MonkeyPatch) -> None:
    # call_name holds "UNO" in classic: left out while listed, digested once not.
    assert fresh("classic", call_name="DOS") != fresh("classic")
    table = {k: v for k, v in model.DIGEST_SPARSE.items() if k != ("Settings", "call_name")}
    monkeypatch.setattr("uno_rules.engine.snapshot.DIGEST_SPARSE", table)
    assert fresh("classic") != PINNED["classic"]


def test_a_step_parameter_not_in_the_table_is_digested(monkeypatch: pytest.MonkeyPatch) -> None:
    # teams' give_cards steps don't give `to`: left out while listed, compiled as None once not.
    assert model.sparse_param("give_cards", "to") and model.sparse_param("if", "holds")
    assert not model.sparse_param("give_cards", "count")
    monkeypatch.setenv("UNO_RULES_CACHE", "off")  # compiled afresh, with the table below
    table = {k: v for k, v in model.DIGEST_SPARSE.items() if k != ("step give_cards", "to")}
    monkeypatch.setattr(model, "DIGEST_SPARSE", table)
    assert fresh("teams") != PINNED["teams"]
