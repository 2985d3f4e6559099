"""RULES.md §8-13 traced sentence by sentence to the scenarios that pin them
(tests/rules_trace.yaml; the scenarios themselves pass in test_scenarios.py), and the
later editions' decks card by card, as their tables give them."""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

import uno_rules
from uno_rules.load.loader import shipped_names

HERE = Path(__file__).resolve().parent
TRACE = HERE / "rules_trace.yaml"
SECTIONS = ["8", "9", "10", "11", "12", "13"]
# Sentences of a shipped rulebook that nothing pins yet, each with the work that will: a
# `pending:` row of a shipped rulebook is refused unless its rule starts with one of these.
# (section, rule's start): a shipped rulebook's known gap, said in its trace (none now)
SHIPPED_GAPS: set[tuple[str, str]] = set()


@cache
def scenario_names(rel: str) -> tuple[str, ...]:
    """The names of the scenarios of a scenario file under tests/ (none if it is missing)."""
    path = HERE / rel
    if not path.is_file():
        return ()
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if "scenarios" in data:
        return tuple(str(s["name"]) for s in data["scenarios"])
    return (str(data.get("name", path.stem)),)


def _test_exists(ref: str) -> bool:
    file, _, function = ref.partition("::")
    path = HERE / file
    return path.is_file() and (not function or re.search(
        rf"^def {re.escape(function)}\(", path.read_text(encoding="utf-8"), re.M) is not None)


def _rule_problems(section: str, shipped: bool, rule: dict[str, Any]) -> list[str]:
    where = f"§{section} '{str(rule.get('rule'))[:50]}'"
    out = []
    for rel, prefix in rule.get("scenarios", []):
        found = [n for n in scenario_names(rel) if n.startswith(prefix)]
        if len(found) != 1:
            out.append(f"{where}: {len(found)} scenarios of {rel} start with '{prefix}'")
    out += [f"{where}: no test {ref}" for ref in rule.get("tests", []) if not _test_exists(ref)]
    pinned = rule.get("scenarios") or rule.get("tests")
    if "pending" in rule and shipped and not any(
            s == section and str(rule["rule"]).startswith(p) for s, p in SHIPPED_GAPS):
        out.append(f"{where}: pending, but the rulebook is shipped: pin it with a scenario")
    if not pinned and not str(rule.get("note", "")).startswith("left out"):
        out.append(f"{where}: no scenario or test (only what is left out may have none)")
    return out


def problems(trace: dict[str, Any], shipped: Collection[str]) -> list[str]:
    """What is wrong with a trace, one line each."""
    out = []
    if [s["section"] for s in trace["sections"]] != SECTIONS:
        out.append(f"sections {[s['section'] for s in trace['sections']]}, not {SECTIONS}")
    for section in trace["sections"]:
        for rule in section["rules"]:
            out += _rule_problems(section["section"], section["rulebook"] in shipped, rule)
    return out


def test_every_sentence_of_sections_8_to_13_is_pinned() -> None:
    trace = yaml.safe_load(TRACE.read_text(encoding="utf-8"))
    assert problems(trace, shipped_names()) == []
    assert sum(len(s["rules"]) for s in trace["sections"]) >= 100


def test_the_trace_check_catches_what_is_wrong() -> None:
    rule = {"rule": "x", "scenarios": [["scenarios/attack/hit.yaml", "a hit gives"]]}
    trace = {"sections": [{"section": s, "rulebook": "attack", "rules": [rule]}
                          for s in SECTIONS]}
    assert problems(trace, ["attack"]) == []
    rule["scenarios"] = [["scenarios/attack/hit.yaml", "no such scenario"],
                         ["scenarios/attack/nothing.yaml", "a hit gives"]]
    rule["tests"] = ["test_rules_trace.py::test_nothing_of_the_kind"]
    assert len(problems(trace, ["attack"])) == 6 * 3
    trace = {"sections": [{"section": s, "rulebook": "dos", "rules": [
        {"rule": "x", "pending": "not yet"}]} for s in SECTIONS]}
    assert len(problems(trace, [])) == 6  # pending, but nothing pins it
    trace["sections"][0]["rules"][0]["scenarios"] = [["scenarios/attack/hit.yaml", "a hit gives"]]
    assert len(problems(trace, [])) == 5
    assert any("is shipped" in p for p in problems(trace, ["dos"]))


# Each edition's table: rank -> (copies in the whole deck, points).
NUMBERS = {str(n): (8, n) for n in range(1, 10)}
DECKS: dict[str, dict[str, tuple[int, int]]] = {
    "classic_2018": {"0": (4, 0), **NUMBERS, "draw_two": (8, 20), "reverse": (8, 20),
                     "skip": (8, 20), "wild": (4, 50), "wild_draw_four": (4, 50),
                     "wild_shuffle_hands": (1, 40), "wild_customizable": (3, 40)},
    "attack": {**NUMBERS, "hit_2": (8, 20), "reverse": (8, 20), "skip": (8, 20),
               "discard_all": (4, 30), "trade_hands": (4, 30), "wild": (4, 50),
               "wild_all_hit": (2, 50), "wild_hit_fire": (2, 50)},
    "triple_play": {"0": (4, 0), **NUMBERS, "reverse": (8, 20), "skip": (8, 20),
                    "discard_2": (8, 20), "wild": (4, 50), "wild_clear": (4, 50),
                    "wild_give_away": (4, 50)},
    "flex": {**{str(n): (4, n) for n in range(1, 10)},
             **{f"{n} flex": (4, n) for n in range(1, 10)},
             **{f"{a}{t}": (4, 20) for a in ("skip", "reverse", "draw_two")
                for t in ("", " flex")},
             "wild_targeted": (2, 50), "wild_all_draw": (2, 50),
             "wild_draw_four_flex": (2, 50), "wild_all_flip": (2, 50)},
    "all_wild": {"wild": (70, 20), **{r: (6, 50) for r in (
        "wild_reverse", "wild_skip", "wild_skip_two", "wild_draw_two", "wild_draw_four",
        "wild_targeted_draw_two", "wild_forced_swap")}},
}
SIZES = {"classic_2018": 112, "attack": 112, "triple_play": 112, "flex": 104, "all_wild": 112}


@pytest.mark.parametrize("name", sorted(DECKS))
def test_the_decks_of_the_later_editions_card_by_card(name: str) -> None:
    rb = uno_rules.load_rulebook(name)
    table: dict[str, tuple[int, int]] = {}
    for card in rb.deck:
        face = rb.faces[card]
        rank = face.name.split(" ", 1)[1] if " " in face.name else face.name
        copies, points = table.get(rank, (0, face.points))
        assert points == face.points, f"{face.name}: {face.points} points, {rank}: {points}"
        table[rank] = (copies + 1, points)
    assert len(rb.deck) == SIZES[name]
    assert table == DECKS[name]
