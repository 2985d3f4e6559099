"""The tables derived from a rulebook: interned actions and matching cards."""

from __future__ import annotations

import uno_rules
from uno_rules.engine.model import NO_COLOR
from uno_rules.engine.tables import match_key, matching, seat_actions


def test_match_keys_never_collide() -> None:
    """A rulebook may have thousands of ranks (deck groups are data): one key per pair."""
    colors = [NO_COLOR, 0, 1, 2, 63]
    ranks = [-1, 0, 1, 4095, 4096, 5000, 20_000, 2**31]
    keys = {match_key(c, r) for c in colors for r in ranks}
    assert len(keys) == len(colors) * len(ranks)


def test_matching_cards_are_those_of_the_colour_the_rank_or_no_colour() -> None:
    rulebook = uno_rules.load_rulebook("classic")
    red, five = rulebook.color_ids["red"], rulebook.face("blue 5").rank
    tables: dict[int, frozenset[int]] = {}
    found = matching(tables, rulebook.faces, red, five)
    names = {rulebook.faces[c].name for c in found}
    assert {"red 0", "red skip", "blue 5", "green 5", "wild", "wild_draw_four"} <= names
    assert not names & {"blue 6", "green skip", "yellow 0"}
    assert names == {f.name for f in rulebook.faces
                     if f.color in (red, NO_COLOR) or f.rank == five}
    assert tables == {match_key(red, five): found}


def test_seat_actions_are_made_once_per_rulebook() -> None:
    rulebook = uno_rules.load_rulebook("classic")
    four = seat_actions(rulebook, 4)
    assert seat_actions(rulebook, 4) is four
    table = four[0].table
    assert all(s.table is table for s in four)  # one table for the game size
    assert str(table[four[2].play[rulebook.by_name["red 5"]]]) == "2 play red 5"
    assert str(table[four[2].play_uno[rulebook.by_name["red 5"]]]) == "2 play red 5 uno"
    assert [str(table[i]) for i in four[1].colors] == ["1 color red", "1 color yellow",
                                                       "1 color green", "1 color blue"]
    other = uno_rules.load_rulebook("classic", settings={"hand_size": 5})
    assert seat_actions(other, 4) is not four  # each rulebook its own
