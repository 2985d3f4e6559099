"""Loading and validating rulebooks: positive and negative example files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import uno_rules
from uno_rules.engine.errors import RulebookError
from uno_rules.engine.model import CardRule, LegalIf, Step
from uno_rules.load.loader import check, house_names, is_overlay, overlay_summary, shipped_names
from uno_rules.load.schema import schema_json

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


def _by_rank(rb: uno_rules.Rulebook) -> tuple[dict[str, int], dict[str, set[int]]]:
    """Copies and point values of each rank (the tag included: `5 pass`), over all colours."""
    copies: dict[str, int] = {}
    points: dict[str, set[int]] = {}
    for card in rb.deck:
        face = rb.faces[card]
        rank = face.name.split(" ", 1)[1] if " " in face.name else face.name
        copies[rank] = copies.get(rank, 0) + 1
        points.setdefault(rank, set()).add(face.points)
    return copies, points


@pytest.mark.parametrize(("name", "total", "extra"), [
    ("pokemon", 112, {"snorlax": 2, "greninja": 2}),
    ("ted_lasso", 112, {"wild_roy_kent_grunt": 4}),
])
def test_classic_plus_decks(name: str, total: int, extra: dict[str, int]) -> None:
    """RULES.md §2, §3: classic's 108 cards plus the edition's wilds, 50 points each."""
    copies, points = _by_rank(uno_rules.load_rulebook(name))
    classic, _ = _by_rank(uno_rules.load_rulebook("classic"))
    assert sum(copies.values()) == total and copies == classic | extra
    assert all(points[rank] == {50} for rank in extra)


def test_teams_deck_is_the_assumed_breakdown() -> None:
    """RULES.md §4: 76 numbers (both copies of the 2, 5 and 8 of each colour carry the
    Passing symbol: 24 cards), 8 each Draw Two, Reverse, Skip, 4 each Wild, Wild Team Play,
    Wild Team Draw Four: 112, no plain Wild Draw Four."""
    copies, points = _by_rank(uno_rules.load_rulebook("teams"))
    passing = {f"{n} pass": 8 for n in (2, 5, 8)}
    numbers = {"0": 4} | {str(n): 8 for n in (1, 3, 4, 6, 7, 9)} | passing
    assert copies == numbers | {"draw_two": 8, "reverse": 8, "skip": 8, "wild": 4,
                                "wild_team_play": 4, "wild_team_draw_four": 4}
    assert sum(copies.values()) == 112 and sum(copies[r] for r in numbers) == 76
    assert all(points[r] == {int(r.split()[0])} for r in numbers)
    assert all(points[r] == {20} for r in ("draw_two", "reverse", "skip"))
    assert all(points[r] == {50} for r in ("wild", "wild_team_play", "wild_team_draw_four"))


def test_no_mercy_deck_is_the_most_cited_breakdown() -> None:
    """RULES.md §6: per colour 0-9 x2, Skip x3, Skip Everyone x2, Reverse x3, Draw Two x3,
    Draw Four x2, Discard All x3; wilds Reverse Draw Four x8, Colour Roulette x8, Draw Six
    x4, Draw Ten x4: 168. Numbers face value, coloured actions 20, wilds 50."""
    copies, points = _by_rank(uno_rules.load_rulebook("no_mercy"))
    actions = {"skip": 12, "skip_everyone": 8, "reverse": 12, "draw_two": 12,
               "draw_four": 8, "discard_all": 12}
    wilds = {"wild_reverse_draw_four": 8, "wild_color_roulette": 8, "wild_draw_six": 4,
             "wild_draw_ten": 4}
    assert copies == {str(n): 8 for n in range(10)} | actions | wilds
    assert sum(copies.values()) == 168
    assert all(points[str(n)] == {n} for n in range(10))
    assert all(points[r] == {20} for r in actions) and all(points[r] == {50} for r in wilds)


@pytest.mark.parametrize(("name", "allowed"), [
    ("classic", range(2, 11)), ("pokemon", range(2, 11)), ("ted_lasso", range(2, 11)),
    ("teams", (4, 6, 8)), ("no_mercy", range(2, 7)), ("flip", range(2, 11))])
def test_player_counts(name: str, allowed: range | tuple[int, ...]) -> None:
    """RULES.md: classic 2-10 players, Teams 4, 6 or 8, No Mercy 2-6, Flip 2-10."""
    rb = uno_rules.load_rulebook(name)
    for players in range(1, 13):
        if players in allowed:
            assert rb.new_game(players=players, seed=1).decision is not None
        else:
            with pytest.raises(uno_rules.IllegalAction):
                rb.new_game(players=players, seed=1)


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
    (["stacking", "stacking"], "--house stacking: house rule 'stacking' is given twice"),
    (["stacking", "house/stacking"], "house rule 'house/stacking' is given twice (as "
                                     "'stacking')"),
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


# ------------------------------------------------------------------ compiled records
# What the compiler makes of a rulebook, field by field: the engine reads only these records,
# so a field compiled wrong (a default changed, a branch dropped) must fail here.
def _rule(rb: uno_rules.Rulebook, card: str) -> CardRule:
    rule = rb.rules[rb.face(card).id]
    assert rule is not None, f"{card} has no card rule"
    return rule


def _steps(rb: uno_rules.Rulebook, program: int | None) -> tuple[Step, ...]:
    assert program is not None
    return rb.programs[program]


def _ops(rb: uno_rules.Rulebook, program: int | None) -> list[str] | None:
    return None if program is None else [step.op for step in rb.programs[program]]


def test_classic_card_rules_are_compiled() -> None:
    # Loaded here, not the session fixture: mutmut runs a test against a mutant only if the
    # test itself called the mutated function.
    classic = uno_rules.load_rulebook("classic")
    wd4 = _rule(classic, "wild_draw_four")
    assert wd4.rank == "wild_draw_four"
    assert wd4.legal_if == LegalIf("color", False) and wd4.bluff is True
    assert _ops(classic, wd4.effect) == ["choose_color", "challenge"]
    assert _ops(classic, wd4.first_card) == ["turn_again"]
    assert (wd4.stack_value, wd4.sheds) == (None, False)
    reverse = _rule(classic, "red reverse")
    assert _ops(classic, reverse.first_card) == ["reverse", "turn_to"]
    assert reverse.sheds is False  # its `if` nests a program, which does not shed
    for card, effect in [("red draw_two", ["draw", "skip"]), ("red skip", ["skip"]),
                         ("wild", ["choose_color"])]:
        rule = _rule(classic, card)
        assert (rule.legal_if, rule.bluff, rule.sheds) == (None, False, False)
        # no `first_card`: turned up first, the card does what its effect does
        assert _ops(classic, rule.effect) == _ops(classic, rule.first_card) == effect
    assert classic.rules[classic.face("red 5").id] is None
    assert classic.face("red 5").number and not classic.face("red skip").number
    assert (classic.face("red 5").points, classic.face("wild").points) == (5, 50)
    assert classic.sides == ("front",)  # no `sides`: one side, named front


def test_card_rules_follow_options_house_rules_and_stacking() -> None:
    strict = uno_rules.load_rulebook("classic", settings={"wd4_holds_no": "match",
                                                          "wd4_wilds_match": True})
    assert _rule(strict, "wild_draw_four").legal_if == LegalIf("match", True)
    no_bluffing = uno_rules.load_rulebook("classic", house=["no_bluffing"])
    assert _rule(no_bluffing, "wild_draw_four").bluff is False
    stacking = uno_rules.load_rulebook("classic", house=["stacking"])
    assert [_rule(stacking, c).stack_value for c in ("red draw_two", "wild_draw_four")] == [2, 4]
    assert (stacking.stack_mixing, stacking.stack_max) == (False, None)
    capped = uno_rules.load_rulebook(HERE / "rulebooks" / "positive" / "everyone_draws.yaml")
    assert (capped.stack_mixing, capped.stack_max) == (False, 6)
    assert uno_rules.load_rulebook("classic").stack_mixing is None
    no_mercy = uno_rules.load_rulebook("no_mercy")
    assert _rule(no_mercy, "red discard_all").sheds is True
    # A 7 swap or a 0 rotation may leave its player one card: UNO may be called on it where
    # UNO follows effects (No Mercy); elsewhere `sheds` is never read and stays False.
    assert [_rule(no_mercy, c).sheds for c in ("red 7", "red 0", "red skip")] == \
        [True, True, False]
    seven_zero = uno_rules.load_rulebook("classic", house=["seven_zero"])
    assert [_rule(seven_zero, c).sheds for c in ("red 7", "red 0")] == [False, False]
    after = uno_rules.load_rulebook("classic", house=["seven_zero"],
                                    settings={"uno_after_effects": True})
    assert [_rule(after, c).sheds for c in ("red 7", "red 0")] == [True, True]


def test_round_hooks_and_the_draw_program_are_compiled() -> None:
    classic = uno_rules.load_rulebook("classic")
    assert (classic.round_ends, classic.going_out, classic.after_draw, classic.setup) == \
        ("player", None, None, None)
    assert _ops(classic, classic.draw_program) == ["draw", "offer_drawn"]
    teams = uno_rules.load_rulebook("teams")
    assert teams.round_ends == "team" and _ops(teams, teams.going_out) == ["give_cards"]
    assert _ops(teams, teams.setup) == ["give_cards"] and _ops(teams, teams.after_draw) == ["if"]
    matching = uno_rules.load_rulebook("classic", house=["draw_to_match"])
    assert _ops(matching, matching.draw_program) == ["draw_until_playable", "offer_drawn"]


COMPILED = """name: compiled
extends: classic
options: {n: 3, extra: false, b: false}
deck:
  blanks: {ranks: [blank], colors: [red], copies: $n, tags: [marked]}
cards:
  blank:
    effect:
      - if: {option: extra, then: [skip], else: [reverse]}
      - if: {players: 2, then: [{discard_color: self}]}
  marked:
    effect:
      - draw: {who: next, count: $n}
  "9":
    legal_if: {holds_no: match}
    bluff: $b
  wild:
    effect: [choose_color, discard_color: self]
  "8":
    effect: [discard_color: self, choose_color, skip]
  "7":
    effect: [choose_color, {if: {players: 2, then: [draw_until_color: self]}}]
"""


def test_a_rank_and_a_tag_rule_run_one_after_the_other(tmp_path: Path) -> None:
    path = tmp_path / "compiled.yaml"
    path.write_text(COMPILED)
    rb = uno_rules.load_rulebook(path)
    face = rb.face("red blank marked")
    assert (face.tags, face.points, face.number) == (("marked",), 0, False)  # no `points`: 0
    assert rb.deck_counts()["red blank marked"] == 3  # copies: $n
    rule = _rule(rb, "red blank marked")
    assert rule.rank == "blank"
    steps = _steps(rb, rule.effect)
    assert [s.op for s in steps] == ["if", "if", "draw"] == _ops(rb, rule.first_card)
    assert [s.where for s in steps] == [f"{path}:9:9", f"{path}:10:9", f"{path}:13:9"]
    assert steps[2].args == {"who": "next", "count": 3}  # count: $n
    assert _ops(rb, steps[0].args["then"]) == ["reverse"]  # `if: option` false: the else
    assert rule.sheds is True  # a discard_color nested in the second `if`
    extra = uno_rules.load_rulebook(path, settings={"extra": True})
    first = _steps(extra, _rule(extra, "red blank marked").effect)[0]
    assert _ops(extra, first.args["then"]) == ["skip"]


def test_a_card_rule_without_an_effect(tmp_path: Path) -> None:
    path = tmp_path / "compiled.yaml"
    path.write_text(COMPILED)
    rule = _rule(uno_rules.load_rulebook(path), "red 9")
    assert rule == CardRule(rank="9", effect=None, first_card=None,
                            legal_if=LegalIf("match", False), bluff=False, stack_value=None,
                            sheds=False)


def test_a_choice_is_asked_at_the_end_only_if_a_later_step_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "compiled.yaml"
    path.write_text(COMPILED)
    rb = uno_rules.load_rulebook(path)

    def at_end(rulebook: uno_rules.Rulebook, card: str) -> list[tuple[str, bool]]:
        return [(s.op, s.at_end) for s in _steps(rulebook, _rule(rulebook, card).effect)]

    assert at_end(rb, "wild") == [("choose_color", True), ("discard_color", True)]
    assert at_end(rb, "red 7") == [("choose_color", True), ("if", True)]  # read in a nested step
    assert at_end(rb, "red 8") == [("discard_color", True), ("choose_color", False),
                                   ("skip", False)]  # read before, not after: not at the end
    assert at_end(uno_rules.load_rulebook("classic"), "wild_draw_four") == [
        ("choose_color", False), ("challenge", True)]
    ted_lasso = uno_rules.load_rulebook("ted_lasso")
    assert at_end(ted_lasso, "wild_roy_kent_grunt") == [
        ("choose_color", False), ("choose_player", True), ("contest", True), ("draw", True)]


def test_the_sides_of_a_card_are_paired_after_the_shift(tmp_path: Path) -> None:
    flip = uno_rules.load_rulebook("flip")  # pairing: {shift: 41}
    assert [flip.card_name(c) for c in flip.deck[:2]] == ["red 1 // pink 6", "red 1 // teal 6"]
    path = tmp_path / "unshifted.yaml"
    path.write_text("name: unshifted\nextends: flip\npairing: null\n")
    unshifted = uno_rules.load_rulebook(path)
    assert [unshifted.card_name(c) for c in unshifted.deck[:3]] == [
        "red 1 // pink 1", "red 1 // pink 1", "yellow 1 // teal 1"]


# ------------------------------------------------------------------ settings, overlays, restore
def test_every_bad_setting_is_reported_not_only_the_first() -> None:
    _, problems = check("classic", {"hand_size": "[", "hand_sise": 5,
                                    "wd4_holds_nope": "match", "play_drawn": " "})
    assert [str(p) for p in problems] == [
        "--set hand_sise=5: unknown setting 'hand_sise'; did you mean 'hand_size'?",
        "--set hand_size=[: YAML syntax error: while parsing a flow node expected the node "
        "content, but found '<stream end>'",
        "--set play_drawn= : invalid value ' '; expected one of may, must, never "
        "(at $.settings.play_drawn)",
        "--set wd4_holds_nope=match: unknown setting 'wd4_holds_nope'; did you mean "
        "'wd4_holds_no'?"]


def test_a_setting_overrides_a_rulebook_without_settings(tmp_path: Path) -> None:
    path = tmp_path / "bare.yaml"
    path.write_text("name: bare\nplayers: {min: 2, max: 3}\ncolors: [red, blue]\ndeck:\n"
                    "  numbers: {ranks: [1, 2, 3, 4, 5], colors: all, copies: 1}\n")
    assert uno_rules.load_rulebook(path, settings={"hand_size": 3}).settings.hand_size == 3


def test_what_counts_as_an_overlay(tmp_path: Path) -> None:
    assert is_overlay(HERE.parent / "uno_rules" / "rulebooks" / "house" / "stacking.yaml")
    assert is_overlay(HERE.parent / "uno_rules" / "rulebooks" / "house" / "partners.yaml")
    assert not is_overlay(HERE / "rulebooks" / "positive" / "house_draw_three.yaml")  # extends
    assert not is_overlay(HERE / "rulebooks" / "positive" / "minimal.yaml")  # a whole deck
    for text, overlay in [
        ("name: a\ndeck:\n  mine: {ranks: [x], colors: all, copies: 1}\n", True),  # adds a card
        ("name: a\ncolors: [red]\ndeck:\n  mine: {ranks: [x], colors: all, copies: 1}\n",
         False),  # a deck in its own colours: a rulebook that forgot `players`
        ("name: a\nplayers: {min: 2, max: 4}\ndeck:\n  m: {ranks: [x], copies: 9}\n", False),
        ("name: a\nplayers: {max: 4}\n", True),
    ]:
        (tmp_path / "a.yaml").write_text(text)
        assert is_overlay(tmp_path / "a.yaml") is overlay, text
    assert check("classic", house=[str(tmp_path / "a.yaml")])[0] is not None


def test_an_overlay_may_not_undo_an_earlier_overlay(tmp_path: Path) -> None:
    """`--house my_seven_zero --house zero_draws` lost the 0's rotate without a word."""
    (tmp_path / "my_seven_zero.yaml").write_text(
        'name: my_seven_zero\ncards:\n  "0":\n    effect: [rotate_hands]\n')
    (tmp_path / "zero_draws.yaml").write_text(
        'name: zero_draws\ncards:\n  "0":\n    effect: [{draw: {who: next, count: 1}}]\n')
    (tmp_path / "no_zero_rule.yaml").write_text('name: no_zero_rule\ncards:\n  "0": null\n')
    seven, draws = str(tmp_path / "my_seven_zero.yaml"), str(tmp_path / "zero_draws.yaml")
    assert [str(p) for p in check("classic", house=[seven, draws])[1]] == [
        f"{draws}:4:5: house rule {draws!r} changes cards.0.effect, which house rule "
        f"{seven!r} set ({seven}:4:13): one would undo the other; combine them in one overlay "
        "(at $.cards.0.effect)"]
    removed = check("classic", house=["seven_zero", str(tmp_path / "no_zero_rule.yaml")])[1]
    assert len(removed) == 1 and "which house rule 'seven_zero' set" in removed[0].message
    # the same value twice loses nothing; a value only the base set is the overlay's to change
    assert check("classic", house=["seven_zero", seven])[0] is not None
    assert uno_rules.load_rulebook("classic", house=[draws]).name == "classic"
    # a rulebook's own keys win over its overlays': a later overlay changes the rulebook's
    (tmp_path / "mine.yaml").write_text('name: mine\nextends: classic\nhouse: [seven_zero]\n'
                                        'cards:\n  "0": {effect: [skip]}\n')
    assert check(tmp_path / "mine.yaml", house=[draws])[0] is not None
    assert "'seven_zero' set" in str(check(tmp_path / "mine.yaml", house=[
        str(tmp_path / "no_zero_rule.yaml")])[1][0])  # its first_card is still seven_zero's
    # in a rulebook's `house:` list too
    (tmp_path / "both.yaml").write_text(f"name: both\nextends: classic\nhouse: [{seven}, "
                                        f"{draws}]\n")
    assert "changes cards.0.effect" in str(check(tmp_path / "both.yaml")[1][0])


def test_an_overlay_summary_is_its_description_else_its_title_else_its_name(
        tmp_path: Path) -> None:
    assert overlay_summary("stacking") == ("Draw Two on Draw Two, Wild Draw Four on Wild Draw "
                                           "Four; the last +4 may be challenged")
    (tmp_path / "titled.yaml").write_text("name: titled\ntitle: A title\n")
    assert overlay_summary(str(tmp_path / "titled.yaml")) == "A title"
    for untitled in ("name: bare\n", "- not a mapping\n"):
        (tmp_path / "other.yaml").write_text(untitled)
        assert overlay_summary(str(tmp_path / "other.yaml")) == str(tmp_path / "other.yaml")


def test_a_game_restores_with_a_rulebook_loaded_from_a_file() -> None:
    path = HERE / "rulebooks" / "positive" / "minimal.yaml"
    snapshot = uno_rules.load_rulebook(path, settings={"hand_size": "2"}).new_game(2, 1).snapshot()
    assert (snapshot["rulebook"], snapshot["source"]) == ("minimal", str(path))
    game = uno_rules.restore(snapshot)
    assert game.rulebook.source == str(path) and game.rulebook.settings.hand_size == 2
    assert game.snapshot() == snapshot
    classic = uno_rules.load_rulebook("classic").new_game(2, 1).snapshot()
    older = {k: v for k, v in classic.items() if k not in ("source", "digest")}
    with pytest.raises(uno_rules.SnapshotError, match="unsupported snapshot format 1 "):
        uno_rules.restore({**older, "format": 1})  # before rulebook digests: refused


def _loads(name: str, house: str) -> bool:
    try:
        uno_rules.load_rulebook(name, house=[house])
    except RulebookError:
        return False
    return True


@pytest.mark.parametrize("name", shipped_names())
def test_every_shipped_rulebook_restores_with_its_own_and_added_house_rules(name: str) -> None:
    """A rulebook with house rules of its own (No Mercy's `house:`) lists them in
    `Rulebook.house`, so its snapshots name them: restore used to give them again as
    --house and fail ("already part of no_mercy")."""
    own = uno_rules.load_rulebook(name).house
    added = [[h] for h in house_names() if h not in own and _loads(name, h)][:1]
    assert added  # some shipped overlay applies to every shipped rulebook
    for house in [[], *added]:
        rulebook = uno_rules.load_rulebook(name, house=house)
        game = rulebook.new_game(min(rulebook.player_counts()), seed=3)
        game.apply(game.legal_actions()[0])
        again = uno_rules.restore(game.snapshot())
        assert again.snapshot() == game.snapshot()
        assert list(again.rulebook.house) == list(rulebook.house)


def test_snapshots_restore_refusals_name_the_cause() -> None:
    with pytest.raises(uno_rules.SnapshotError, match="^a snapshot is a mapping, not list$"):
        uno_rules.restore([1, 2])  # type: ignore[arg-type]
    snapshot = uno_rules.load_rulebook("classic").new_game(2, 1).snapshot()
    del snapshot["set"]
    with pytest.raises(uno_rules.SnapshotError, match="^snapshot field 'set' is missing$"):
        uno_rules.restore(snapshot)
    snapshot = uno_rules.load_rulebook("classic").new_game(2, 1).snapshot()
    snapshot["set"] = {"hand_sise": 5}
    with pytest.raises(uno_rules.SnapshotError, match=re.escape(
            "can't load the snapshot's rulebook: --set hand_sise=5: unknown setting "
            "'hand_sise'; did you mean 'hand_size'?")):
        uno_rules.restore(snapshot)


def test_rulebook_level_fields_and_their_defaults(tmp_path: Path) -> None:
    minimal = uno_rules.load_rulebook(HERE / "rulebooks" / "positive" / "minimal.yaml")
    assert (minimal.title, minimal.description, minimal.team_size) == ("minimal", "", 1)
    assert (minimal.discard_piles, minimal.piles, minimal.reshuffle_piles) == (1, (), ())
    aside = uno_rules.load_rulebook(HERE / "rulebooks" / "positive" / "aside_pile.yaml")
    assert (aside.piles, aside.reshuffle_piles) == (("aside",), (0,))
    assert uno_rules.load_rulebook("teams").team_size == 2
    two_piles = tmp_path / "two_piles.yaml"
    two_piles.write_text("name: two_piles\nextends: classic\ndiscard_piles: 2\n")
    assert uno_rules.load_rulebook(two_piles).discard_piles == 2
    # stacking without `mixing` does not mix; `max` may be an option; removing a key the
    # base lacks (`pairing: null`) is no error
    capped = tmp_path / "capped.yaml"
    capped.write_text("name: capped\nextends: classic\noptions: {m: 8}\nstacking: {max: $m}\n"
                      "pairing: null\ncards:\n  draw_two:\n    effect: [stack_draw: 2]\n")
    rb = uno_rules.load_rulebook(capped)
    assert (rb.stack_mixing, rb.stack_max) == (False, 8)
    # a variant's heading is its own, never its base's (docs/authoring.md)
    assert (rb.title, rb.description) == ("capped", "A variant of UNO (classic rules).")


def test_an_overlay_may_set_a_card_rule_its_base_removed() -> None:
    # teams removes wild_draw_four (`wild_draw_four: null`); stacking sets it (optional)
    rb = uno_rules.load_rulebook("teams", house=["stacking"])
    assert rb.stack_mixing is False and _rule(rb, "red draw_two").stack_value == 2
    assert "wild_draw_four" not in rb.ranks


def test_round_hook_steps_point_at_their_lines() -> None:
    teams = uno_rules.load_rulebook("teams")
    where = [step.where for program in (teams.setup, teams.going_out, teams.after_draw)
             for step in _steps(teams, program)]
    assert [w.rsplit("/", 1)[-1] for w in where] == ["teams.yaml:23:5", "teams.yaml:28:7",
                                                     "teams.yaml:32:5"]
    matching = uno_rules.load_rulebook("classic", house=["draw_to_match"])
    assert [s.where.rsplit("/", 1)[-1] for s in _steps(matching, matching.draw_program)] == [
        "draw_to_match.yaml:8:10", "draw_to_match.yaml:8:31"]


def test_a_file_that_is_not_a_mapping_or_not_there(tmp_path: Path) -> None:
    path = tmp_path / "list.yaml"
    path.write_text("- a\n- b\n")
    assert [str(p) for p in check(path)[1]] == [f"{path}:1:1: a rulebook must be a mapping of "
                                                "keys (at $)"]
    shipped = ", ".join(shipped_names())
    assert [str(p) for p in check("nope.yaml")[1]] == [
        f"nope.yaml:1:1: no such rulebook or file (shipped: {shipped}) (at $)"]


def test_overlays_named_in_a_rulebook(tmp_path: Path) -> None:
    jump_in = (HERE.parent / "uno_rules" / "rulebooks" / "house" / "jump_in.yaml").read_text()
    (tmp_path / "jump.yml").write_text(jump_in)  # .yml is YAML too
    (tmp_path / "jump.txt").write_text(jump_in)  # not a YAML file name
    path = tmp_path / "housed.yaml"
    path.write_text("name: housed\nextends: classic\nhouse: [stackin, jump.yml, jump.txt]\n")
    shipped = ", ".join(house_names())
    # every bad one is reported, at the `house` key
    assert [str(p) for p in check(path)[1]] == [
        f"{path}:3:8: unknown house rule 'stackin'; did you mean 'stacking'? (shipped: "
        f"{shipped}) (at $)",
        f"{path}:3:8: unknown house rule 'jump.txt' (shipped: {shipped}) (at $)"]
    path.write_text("name: housed\nextends: classic\nhouse: [jump.yml]\n")
    assert uno_rules.load_rulebook(path).settings.jump_in is True
    path.write_text("name: housed\nextends: classic\nhouse: 5\n")
    assert [str(p) for p in check(path)[1]] == [
        f"{path}:3:8: expected a list, got integer 5 (at $.house)"]


def test_every_bad_overlay_is_reported_not_only_the_first(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("name: bad\nsettings: {jump_in: [\n")
    (tmp_path / "clash.yaml").write_text("name: clash\nconflicts: [stacking]\n")
    unknown = (f"--house stackin: unknown house rule 'stackin'; did you mean 'stacking'? "
               f"(shipped: {', '.join(house_names())})")
    for house, first in [
        (["stacking", "stacking"], "--house stacking: house rule 'stacking' is given twice"),
        ([str(tmp_path / "broken.yaml")], f"{tmp_path / 'broken.yaml'}:3:1: YAML syntax error: "
                                          "while parsing a flow node expected the node content, "
                                          "but found '<stream end>' (at $)"),
        (["stacking", str(tmp_path / "clash.yaml")],
         f"--house {tmp_path / 'clash.yaml'}: house rule '{tmp_path / 'clash.yaml'}' can't be "
         "combined with 'stacking'"),
    ]:
        assert [str(p) for p in check("classic", house=[*house, "stackin"])[1]] == [first,
                                                                                   unknown]


EXITS = HERE / "hostile" / "exits"


@pytest.mark.parametrize(("ref", "house", "expect"), [
    (EXITS / "extends_nul.yaml", (), "control character U+0000 is not allowed in YAML"),
    (EXITS / "extends_long.yaml", (), "file name too long"),
    (EXITS / "house_nul.yaml", (), "control character U+0000 is not allowed in YAML"),
    (EXITS / "house_long.yaml", (), "file name too long"),
    (EXITS / "includes_cycle.yaml", (), "includes itself"),
    ("classic", (str(EXITS / "overlay_self.yaml"),), "includes itself"),
    ("a" * 300, (), "can't read file: file name too long"),
    ("classic\0", (), "can't read file: the path contains a NUL byte"),
    ("classic", ("a" * 300,), "file name too long"),
    ("classic", ("stacking\0",), "the path contains a NUL byte"),
])
def test_load_rulebook_raises_only_rulebook_errors_for_bad_paths(
        ref: str | Path, house: tuple[str, ...], expect: str) -> None:
    with pytest.raises(RulebookError) as caught:  # not OSError, ValueError, RecursionError
        uno_rules.load_rulebook(ref, house=house)
    assert expect in str(caught.value) and len(caught.value.problems) == 1, caught.value


def test_a_root_with_a_nul_byte_trusts_nothing(tmp_path: Path) -> None:
    """root= is the caller's input too: a NUL byte in it is no folder (it was a raw
    ValueError from load_rulebook, restore and run_paths)."""
    from uno_rules.authoring.scenario import run_paths
    from uno_rules.engine.errors import ScenarioError, SnapshotError

    (tmp_path / "secret.yaml").write_text("name: s\ndb_password: hunter2\n")
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "x.yaml").write_text("name: x\nextends: ../secret.yaml\n")
    (folder / "s.yaml").write_text("rulebook: ../secret.yaml\nplayers: 2\nsteps: []\n")
    with pytest.raises(RulebookError, match="outside this file's folder") as caught:
        uno_rules.load_rulebook(folder / "x.yaml", root="a\0b")
    assert "hunter2" not in str(caught.value)
    assert uno_rules.load_rulebook("classic", root="a\0b").name == "classic"
    snapshot = {**uno_rules.load_rulebook("classic").new_game(2, seed=1).snapshot(),
                "source": str(tmp_path / "secret.yaml")}
    with pytest.raises(SnapshotError, match="refused unread"):
        uno_rules.restore(snapshot, root="a\0b")
    with pytest.raises(ScenarioError, match="outside this file's folder") as refused:
        run_paths([folder / "s.yaml"], root="a\0b")
    assert "hunter2" not in str(refused.value)


def test_a_symlink_loop_is_a_rulebook_error(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").symlink_to("b.yaml")
    (tmp_path / "b.yaml").symlink_to("a.yaml")
    base = tmp_path / "base.yaml"
    base.write_text("name: x\nextends: a.yaml\n")
    with pytest.raises(RulebookError, match=r"base.yaml:2:10: can't read 'a.yaml': a symlink "
                                            r"loop \(at \$.extends\)"):
        uno_rules.load_rulebook(base)
    with pytest.raises(RulebookError, match="a symlink loop"):
        uno_rules.load_rulebook(tmp_path / "a.yaml")


def test_overlays_including_each_other_deeply_are_refused(tmp_path: Path) -> None:
    for i in range(100):
        (tmp_path / f"h{i}.yaml").write_text(f"house: [h{i + 1}.yaml]\n")
    (tmp_path / "h100.yaml").write_text("settings: {hand_size: 5}\n")
    with pytest.raises(RulebookError, match="a chain of more than 32 rulebooks and overlays"):
        uno_rules.load_rulebook("classic", house=[str(tmp_path / "h0.yaml")])
    assert uno_rules.load_rulebook("classic", house=[str(tmp_path / "h90.yaml")]) \
        .settings.hand_size == 5  # a short chain is fine


def test_a_huge_max_bytes_reads_the_file_as_it_is() -> None:
    assert uno_rules.load_rulebook("classic", max_bytes=10 ** 30).name == "classic"


def test_one_house_rule_given_alone_is_one() -> None:
    """house="stacking" was read as eight overlays: 's', 't', 'a', ..."""
    from uno_rules.load.resources import house_dir

    alone = uno_rules.load_rulebook("classic", house="stacking")
    assert alone.house == uno_rules.load_rulebook("classic", house=["stacking"]).house
    path = house_dir() / "stacking.yaml"
    assert uno_rules.load_rulebook("classic", house=path).deck == alone.deck


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"house": [5]}, "house=[5]: expected names or paths (str), got int"),
    ({"house": 5}, "house=5: expected names or paths (str), got int"),
    ({"settings": [("hand_size", 5)]},
     "settings=[('hand_size', 5)]: expected a mapping of setting names to values, got list"),
    ({"settings": 5}, "settings=5: expected a mapping of setting names to values, got int"),
    ({"settings": {5: 1}}, "settings={5: 1}: expected setting names (str) as keys, got int"),
    ({"max_bytes": "x"}, "max_bytes='x': expected a whole number of bytes >= 1, got str"),
    ({"max_bytes": 0}, "max_bytes=0: expected a whole number of bytes >= 1, got int"),
    ({"max_bytes": True}, "max_bytes=True: expected a whole number of bytes >= 1, got bool"),
    ({"root": 5}, "root=5: expected a folder's path (str or Path), got int"),
])
def test_arguments_of_the_wrong_type_are_a_rulebook_error(kwargs: dict[str, object],
                                                          message: str) -> None:
    with pytest.raises(RulebookError) as info:
        uno_rules.load_rulebook("classic", **kwargs)  # type: ignore[arg-type]
    assert str(info.value) == message


def test_a_long_wrong_argument_is_shortened_in_the_message() -> None:
    with pytest.raises(RulebookError) as info:
        uno_rules.load_rulebook("classic", house=["stacking"] * 1000 + [5])  # type: ignore[list-item]
    assert len(str(info.value)) < 200 and str(info.value).endswith("characters): expected "
                                                                   "names or paths (str), got int")


def test_a_house_rule_may_be_given_as_a_path() -> None:
    from uno_rules.load.resources import find
    path = find("stacking", overlay=True)
    assert uno_rules.load_rulebook("classic", house=[path]).house == (str(path),)


def test_a_setting_too_large_to_show_is_refused() -> None:
    with pytest.raises(RulebookError) as info:
        uno_rules.load_rulebook("classic", settings={"hand_size": 10**5000})
    assert str(info.value) == ("--set hand_size=(a whole number of 16,610 bits): a whole "
                               "number too large for any setting")
