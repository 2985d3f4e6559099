"""Loading and validating rulebooks: positive and negative example files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import uno_rules
from uno_rules.errors import RulebookError
from uno_rules.loader import check, shipped_names
from uno_rules.schema import schema_json

HERE = Path(__file__).resolve().parent
NEGATIVE = sorted((HERE / "rulebooks" / "negative").glob("*.yaml"))
POSITIVE = sorted((HERE / "rulebooks" / "positive").glob("*.yaml"))


def _expected(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    match = re.match(r"# expect: (.*)", first)
    assert match, f"{path} lacks an '# expect:' first line"
    return match.group(1)


@pytest.mark.parametrize("path", NEGATIVE, ids=lambda p: p.stem)
def test_negative_rulebook_is_reported_at_its_line(path: Path) -> None:
    rulebook, problems = check(path)
    assert rulebook is None
    lines = [str(p) for p in problems]
    expected = _expected(path)
    other = re.match(r"([\w.]+\.yaml):(.*)", expected)  # reported in the file it names
    want = f"{path.parent / other[1]}:{other[2]}" if other else f"{path}:{expected}"
    assert any(line.startswith(want) for line in lines), "\n".join(lines)
    assert all(re.match(r".+:\d+:\d+: .+ \(at \$[^)]*\)$", line) for line in lines), lines


@pytest.mark.parametrize("path", POSITIVE, ids=lambda p: p.stem)
def test_positive_rulebook_loads(path: Path) -> None:
    rulebook, problems = check(path)
    assert problems == [] and rulebook is not None


@pytest.mark.parametrize("name", shipped_names())
def test_shipped_rulebooks_validate(name: str) -> None:
    rulebook, problems = check(name)
    assert problems == []


def test_all_problems_are_reported_at_once(tmp_path: Path) -> None:
    f = tmp_path / "many.yaml"
    f.write_text("name: many\nextends: classic\nsettings:\n  hand_sise: 8\n  uno_penalty: x\n"
                 "cards:\n  skip:\n    effect: [skp]\n")
    _, problems = check(f)
    assert [(p.line, p.col) for p in problems] == [(4, 3), (5, 16), (8, 14)]


def test_classic_deck_composition(classic: uno_rules.Rulebook) -> None:
    counts = classic.deck_counts()
    assert len(classic.deck) == 108
    assert counts["red 0"] == 1 and counts["blue 7"] == 2 and counts["green skip"] == 2
    assert counts["wild"] == 4 and counts["wild_draw_four"] == 4
    assert sum(classic.faces[f].points for f in classic.deck) == 4 * (90 + 120) + 400


def test_variant_overrides_only_what_it_says() -> None:
    variant = uno_rules.load_rulebook(HERE / "rulebooks" / "positive" / "house_draw_three.yaml")
    assert variant.settings.hand_size == 5
    assert len(variant.deck) == 108
    game = variant.new_game(3, seed=1)
    assert [len(h) for h in game.hands if h] and all(len(h) >= 5 for h in game.hands)


def test_settings_overrides_by_name() -> None:
    rb = uno_rules.load_rulebook("classic", settings={"hand_size": "5", "wd4_wilds_match": True})
    assert rb.settings.hand_size == 5 and rb.options["wd4_wilds_match"] is True
    with pytest.raises(RulebookError, match="unknown setting 'hand_sise'; did you mean"):
        uno_rules.load_rulebook("classic", settings={"hand_sise": 5})
    with pytest.raises(RulebookError, match="expected integer"):
        uno_rules.load_rulebook("classic", settings={"hand_size": "many"})


def test_rulebook_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        uno_rules.load_rulebook("no_such_rulebook")


def test_schema_file_is_up_to_date() -> None:
    on_disk = (HERE.parent / "schemas" / "rulebook.schema.json").read_text()
    hint = "regenerate with: uno-rules schema > schemas/rulebook.schema.json"
    assert on_disk == schema_json(), hint
    assert json.loads(on_disk)["$schema"].endswith("2020-12/schema")


def test_every_schema_property_has_a_description() -> None:
    missing = []

    def walk(node: object, path: str) -> None:
        if isinstance(node, dict):
            for key, sub in (node.get("properties") or {}).items():
                if isinstance(sub, dict) and "description" not in sub and "$ref" not in sub:
                    missing.append(f"{path}.{key}")
            for key, sub in node.items():
                walk(sub, f"{path}.{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{path}[{i}]")

    walk(json.loads(schema_json()), "$")
    assert missing == []


def test_house_overlays_apply_in_order_and_are_recorded() -> None:
    rb = uno_rules.load_rulebook("classic", house=["stacking", "seven_zero"])
    assert rb.house == ("stacking", "seven_zero") and rb.stack_mixing is False
    assert uno_rules.load_rulebook("classic", house=["stacking"],
                                   settings={"stack_mixing": True}).stack_mixing is True


@pytest.mark.parametrize("house, message", [
    (["stackin"], "unknown house rule 'stackin'; did you mean 'stacking'?"),
    (["stacking", "stacking"], "house rule 'stacking' is already part of classic"),
])
def test_bad_overlays_are_refused(house: list[str], message: str) -> None:
    with pytest.raises(RulebookError, match=re.escape(message)):
        uno_rules.load_rulebook("classic", house=house)


def test_overlay_that_does_not_fit_is_refused_at_its_line() -> None:
    with pytest.raises(RulebookError) as info:
        uno_rules.load_rulebook("teams", house=["no_bluffing"])
    assert re.search(r"house/no_bluffing\.yaml:\d+:\d+: card rule for rank 'wild_draw_four'",
                     str(info.value))


def test_declared_conflicts_are_refused(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("name: a\nconflicts: [stacking]\nsettings: {jump_in: true}\n")
    with pytest.raises(RulebookError, match="can't be combined with 'stacking'"):
        uno_rules.load_rulebook("classic", house=["stacking", str(tmp_path / "a.yaml")])
    with pytest.raises(RulebookError, match="can't be combined with"):
        uno_rules.load_rulebook("classic", house=[str(tmp_path / "a.yaml"), "stacking"])


def test_a_rulebook_may_include_overlays(tmp_path: Path) -> None:
    f = tmp_path / "mine.yaml"
    f.write_text("name: mine\nextends: classic\nhouse: [seven_zero, jump_in]\n")
    rb = uno_rules.load_rulebook(f)
    assert rb.house == ("seven_zero", "jump_in") and rb.settings.jump_in
    with pytest.raises(RulebookError, match="already part of mine"):
        uno_rules.load_rulebook(f, house=["jump_in"])


def test_a_bigger_deal_narrows_the_player_counts() -> None:
    rb = uno_rules.load_rulebook("classic", settings={"hand_size": 15})
    assert rb.player_counts() == list(range(2, 8))
    with pytest.raises(uno_rules.IllegalAction, match="2-7 players, not 8"):
        rb.new_game(8)
    assert sum(map(len, rb.new_game(7, seed=1).hands)) == 105
