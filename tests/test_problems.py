"""Schema problems in an author's words (uno_rules/load/problems.py): each test names the
exact message a common mistake gets (more in tests/rulebooks/negative/)."""

from __future__ import annotations

from pathlib import Path

from uno_rules.load.loader import check


def _problems(tmp_path: Path, cards: str) -> list[str]:
    path = tmp_path / "rb.yaml"
    path.write_text("name: rb\nextends: classic\ncards:\n" + cards)
    rulebook, problems = check(path)
    assert rulebook is None
    return [f"{p.line}:{p.col}: {p.message}" for p in problems]


def test_a_misspelt_required_parameter_is_one_problem_not_two(tmp_path: Path) -> None:
    # not also "'count' is required but missing": the suggestion says it
    assert _problems(tmp_path, "  draw_two:\n    effect: [{draw: {who: next, cuont: 3}}]\n") \
        == ["5:33: unknown key 'cuont'; did you mean 'count'?"]


def test_a_missing_required_parameter_without_a_misspelling_is_still_reported(
        tmp_path: Path) -> None:
    assert _problems(tmp_path, "  draw_two:\n    effect: [{draw: {who: next, skip: 3}}]\n") \
        == ["5:21: 'count' is required but missing",
            "5:33: unknown key 'skip'; the keys here are who, count"]


def test_a_seat_word_with_a_suffix_suggests_the_word_it_starts_with(tmp_path: Path) -> None:
    seats = ("challenger, dealer, first, left, loser, next, next_partner, partner, prev, right, "
             "self, target")
    assert _problems(tmp_path, "  skip:\n    effect: [{draw: {who: self_player, count: 1}}]\n") \
        == [f"5:27: 'self_player' is not one of {seats}; did you mean 'self'?"]


def test_a_rank_with_a_suffix_still_gets_the_closest_name(tmp_path: Path) -> None:
    # the rule above is for a few fixed words: `wild_draw_five` is no `wild`
    assert _problems(tmp_path, "  wild_draw_five:\n    effect: [skip]\n") == [
        "4:3: card rule for rank 'wild_draw_five', which no deck group has; did you mean "
        "'wild_draw_four'?"]


def test_json_schema_type_names_are_yaml_ones(tmp_path: Path) -> None:
    assert _problems(tmp_path, "  skip:\n    effect: [{each: 5}]\n") == [
        "5:21: expected a mapping, got integer 5: `each` takes seats, then "
        "(`each: {seats: ..., then: ...}`)"]
    assert _problems(tmp_path, "  skip: [skip]\n") == [
        "4:9: expected a mapping, got list ['skip']"]


def test_a_bare_draw_is_refused_naming_both_parameters_it_needs(tmp_path: Path) -> None:
    """`draw` has no defaults: `- draw` alone, or with `who` or `count` missing, is refused
    (a draw of nobody or of no count is no rule a loader may guess)."""
    assert _problems(tmp_path, "  skip:\n    effect:\n      - draw\n") == [
        "6:9: `draw` can't stand alone: give it who, count (`draw: {...}`)"]
    assert _problems(tmp_path, "  skip:\n    effect: [{draw: {}}]\n") == [
        "5:21: 'who' is required but missing", "5:21: 'count' is required but missing"]
    assert _problems(tmp_path, "  skip:\n    effect: [{draw: {who: next}}]\n") == [
        "5:21: 'count' is required but missing"]
    assert _problems(tmp_path, "  skip:\n    effect: [{draw: {count: 2}}]\n") == [
        "5:21: 'who' is required but missing"]
