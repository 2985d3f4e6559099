"""The semantic checks (uno_rules/load/checks.py) that a JSON Schema can't express: player counts,
deck sizes, option values where they are used. Each test names the exact located problem,
or that the rulebook loads (a check that refused too much would fail it). The mutants these
tests kill are listed in bench/mutation.md (the loader section)."""

from __future__ import annotations

from pathlib import Path

from uno_rules.load.loader import check

# A standalone rulebook: 2 colours x 9 ranks x 2 copies = 36 cards, 2-4 players of 7 cards.
BASE = """name: t
players: {min: 2, max: 4}
colors: [red, blue]
deck:
  numbers: {ranks: [1, 2, 3, 4, 5, 6, 7, 8, 9], colors: all, copies: 2, points: face}
"""


def _problems(tmp_path: Path, text: str, **overrides: object) -> tuple[Path, list[str]]:
    path = tmp_path / "rb.yaml"
    path.write_text(text)
    rulebook, problems = check(path, overrides or None)
    assert (rulebook is None) == bool(problems)
    return path, [str(p) for p in problems]


def test_the_base_rulebook_loads(tmp_path: Path) -> None:
    assert _problems(tmp_path, BASE)[1] == []


def test_players_min_above_max(tmp_path: Path) -> None:
    path, problems = _problems(tmp_path, BASE.replace("min: 2, max: 4", "min: 5, max: 4"))
    assert problems == [f"{path}:2:10: players.min 5 is more than players.max 4 (at $.players)"]


def test_players_min_equal_to_max_is_allowed(tmp_path: Path) -> None:
    assert _problems(tmp_path, BASE.replace("min: 2, max: 4", "min: 4, max: 4"))[1] == []


def test_deck_size_counts_a_hand_size_set_by_an_option(tmp_path: Path) -> None:
    path, problems = _problems(tmp_path, "options: {h: 9}\n" + BASE
                               + "settings: {hand_size: $h}\n")
    assert problems == [f"{path}:6:3: the deck has 36 cards, fewer than 4 players × 9 cards "
                        "+ 1 = 37 (at $.deck)"]


def test_deck_size_counts_copies_set_by_an_option(tmp_path: Path) -> None:
    path, problems = _problems(tmp_path, BASE.replace("copies: 2", "copies: $c")
                               + "options: {c: 1}\n")
    assert problems == [f"{path}:5:3: the deck has 18 cards, fewer than 4 players × 7 cards "
                        "+ 1 = 29 (at $.deck)"]


def test_deck_size_counts_one_turned_card_per_discard_pile(tmp_path: Path) -> None:
    path, problems = _problems(tmp_path, BASE + "discard_piles: 8\nsettings: {hand_size: 8}\n")
    assert problems == [f"{path}:5:3: the deck has 36 cards, fewer than 4 players × 8 cards "
                        "+ 8 = 40 (at $.deck)"]
    assert _problems(tmp_path, BASE + "discard_piles: 8\n")[1] == []  # 4 x 7 + 8 = 36


def test_a_group_with_listed_colours_counts_only_those(tmp_path: Path) -> None:
    text = (BASE.replace("min: 2, max: 4", "min: 2, max: 2")
            + "  reds: {ranks: [0], colors: [red], copies: 1}\nsettings: {hand_size: 19}\n")
    path, problems = _problems(tmp_path, text)
    assert problems == [f"{path}:5:3: the deck has 37 cards, fewer than 2 players × 19 cards "
                        "+ 1 = 39 (at $.deck)"]


def test_an_empty_deck_group_is_skipped_not_the_end_of_the_deck(tmp_path: Path) -> None:
    path = tmp_path / "rb.yaml"
    path.write_text(BASE.replace("deck:\n", "deck:\n  nothing: null\n"))
    rulebook, problems = check(path)
    assert problems == [] and rulebook is not None and len(rulebook.deck) == 36
    path, problems = _problems(tmp_path, BASE.replace("deck:\n", "deck:\n  nothing: null\n")
                               + "  more: {ranks: [0], colors: [purple], copies: 1}\n")
    assert problems == [f"{path}:7:31: unknown colour 'purple' (the colours are red, blue) "
                        "(at $.deck.more.colors[0])"]


def test_the_largest_deck(tmp_path: Path) -> None:
    largest = BASE.replace("[1, 2, 3, 4, 5, 6, 7, 8, 9], colors: all, copies: 2",
                           "[1, 2, 3, 4, 5], colors: all, copies: 1000")
    assert _problems(tmp_path, largest)[1] == []  # 10,000 cards: allowed
    path, problems = _problems(tmp_path, largest + "  one: {ranks: [wild], copies: 1}\n")
    assert problems == [f"{path}:5:3: the deck has 10001 cards, more than 10000 (at $.deck)"]


SIDES = """name: t
players: {min: 2, max: 2}
sides:
  light: {colors: [red, blue]}
  dark: {colors: [pink, teal]}
settings: {hand_size: 3}
deck:
  light: {side: light, ranks: [1, 2, 3], colors: all, copies: 2}
  dark: {side: dark, ranks: [1, 2, 3], colors: all, copies: 2}
"""


def test_every_side_needs_as_many_cards(tmp_path: Path) -> None:
    assert _problems(tmp_path, SIDES)[1] == []
    path, problems = _problems(tmp_path, SIDES.replace("dark, ranks: [1, 2, 3]",
                                                       "dark, ranks: [1, 2]"))
    assert problems == [f"{path}:8:3: every side needs as many cards as the others: "
                        "light 12, dark 8 (at $.deck)"]


USES_N = BASE + "cards:\n  '1':\n    effect:\n      - draw: {who: next, count: $n}\n"


def test_an_option_value_that_does_not_fit_where_it_is_used(tmp_path: Path) -> None:
    # The option is defined on line 1: still a file position, pointed at where it is used.
    path, problems = _problems(tmp_path, "options: {n: many}\n" + USES_N)
    # (a draw's count may also be weights over counts: a mapping)
    assert problems == [f"{path}:10:34: option $n = 'many' doesn't fit here: expected "
                        "integer or a mapping, got string 'many' (at "
                        "$.cards.1.effect[0].draw.count)"]


def test_an_option_set_on_the_command_line_that_does_not_fit(tmp_path: Path) -> None:
    _, problems = _problems(tmp_path, "options: {n: 3}\n" + USES_N, n="many")
    assert problems == ["--set n=many: expected integer or a mapping, got string 'many', "
                        "where the rulebook uses $n (at $.cards.1.effect[0].draw.count)"]


def test_one_player_count_missing_is_reported_once(tmp_path: Path) -> None:
    for players in ("{max: 4}", "{}"):
        path, problems = _problems(tmp_path, BASE.replace("{min: 2, max: 4}", players))
        assert problems == [f"{path}:2:10: players.min is required but missing (at $.players)"]


def test_the_other_checks_still_run_beside_a_malformed_part(tmp_path: Path) -> None:
    text = "players: 5\n" + BASE.replace("players: {min: 2, max: 4}\n", "").replace(
        "colors: all", "colors: [red, purple]")
    path, problems = _problems(tmp_path, text)
    assert problems == [f"{path}:1:10: expected a mapping, got integer 5 (at $.players)",
                        f"{path}:5:63: unknown colour 'purple' (the colours are red, blue) "
                        "(at $.deck.numbers.colors[1])"]


def test_colours_come_from_colors_or_from_sides(tmp_path: Path) -> None:
    path, problems = _problems(tmp_path, SIDES.replace("settings:", "colors: [red]\nsettings:"))
    assert problems == [f"{path}:6:1: give the colours either in `colors` (cards with one "
                        "side) or in each of `sides`, not both (at $.colors)"]
    path, problems = _problems(tmp_path, BASE.replace("colors: [red, blue]\n", ""))
    assert problems == [f"{path}:1:1: 'colors' is required but missing (or give `sides`) (at $)"]
    path, problems = _problems(tmp_path, SIDES.replace("[pink, teal]", "[pink, red]"))
    assert problems == [f"{path}:5:25: colour 'red' is already a colour of side 'light' "
                        "(at $.sides.dark.colors[1])"]


def test_an_unknown_side_and_the_groups_after_it(tmp_path: Path) -> None:
    text = (SIDES.replace("side: dark,", "side: drak,")
            + "  more: {side: light, ranks: [4], colors: [purple], copies: 1}\n")
    path, problems = _problems(tmp_path, text)
    assert problems == [f"{path}:9:16: unknown side 'drak' (the sides are light, dark); did "
                        "you mean 'dark'? (at $.deck.dark.side)",
                        f"{path}:10:44: unknown colour 'purple' (the colours are red, blue) "
                        "(at $.deck.more.colors[0])"]


def test_face_points_need_number_ranks(tmp_path: Path) -> None:
    path, problems = _problems(tmp_path, BASE + "  actions: {ranks: [skip], colors: all, "
                                                "copies: 2, points: face}\n")
    assert problems == [f"{path}:6:21: rank 'skip' has no face value for `points: face` "
                        "(at $.deck.actions.ranks[0])"]


def test_a_card_defined_by_two_groups(tmp_path: Path) -> None:
    path, problems = _problems(tmp_path, BASE + "  again: {ranks: [1], colors: [red], "
                                                "copies: 1}\n")
    assert problems == [f"{path}:6:19: card 'red 1' is already defined by deck group "
                        "'numbers' (at $.deck.again.ranks[0])"]
    # one line a rank, however many colours clash
    path, problems = _problems(tmp_path, BASE + "  again: {ranks: [1], colors: all, "
                                                "copies: 1}\n")
    assert problems == [f"{path}:6:19: card 'red 1' is already defined by deck group "
                        "'numbers' (and 1 more of rank '1') (at $.deck.again.ranks[0])"]
    # a tag makes it another card ("red 1 x")
    assert _problems(tmp_path, BASE + "  tagged: {ranks: [1], colors: [red], copies: 1, "
                                      "tags: [x]}\n")[1] == []


def test_an_optional_card_rule_may_name_a_rank_the_deck_lacks(tmp_path: Path) -> None:
    assert _problems(tmp_path, BASE + "cards:\n  skip: {optional: true, effect: [skip]}\n")[1] \
        == []


def test_if_option_needs_a_boolean_option(tmp_path: Path) -> None:
    path, problems = _problems(tmp_path, "options: {n: 3}\n" + BASE + "cards:\n  '1':\n"
                               "    effect:\n      - if: {option: n, then: [skip]}\n")
    assert problems == [f"{path}:10:22: `if: option` needs a boolean option, 'n' is not boolean "
                        "(at $.cards.1.effect[0].if.option)"]


NO_PARTNERS = "`partner` needs partnerships, and this rulebook has none (`team: {size: N}`)"


def test_partner_seats_are_checked_in_every_step_list(tmp_path: Path) -> None:
    """First-card rules, `going_out.then`, `setup` and `turn.draw` are step lists too; a
    bare value is the step's main parameter (`turn_to: partner` is `{who: partner}`)."""
    head = "name: t\nextends: classic\n"
    for text, at, where in [
        ("cards:\n  skip:\n    first_card: [turn_to: partner]\n", "5:27",
         "cards.skip.first_card[0]"),
        ("going_out:\n  then: [turn_to: partner]\n", "4:19", "going_out.then[0]"),
        ("setup: [turn_to: partner]\n", "3:18", "setup[0]"),
        ("turn:\n  draw: [turn_to: partner, offer_drawn]\n", "4:19", "turn.draw[0]"),
    ]:
        path, problems = _problems(tmp_path, head + text)
        assert problems == [f"{path}:{at}: {NO_PARTNERS} (at $.{where}.turn_to.who)"]


def test_steps_after_a_bad_one_are_still_checked(tmp_path: Path) -> None:
    path, problems = _problems(tmp_path, "name: t\nextends: classic\ncards:\n  skip:\n"
                               "    effect: [bogus, turn_to: partner]\n")
    assert problems == [f"{path}:5:14: unknown primitive 'bogus' (at $.cards.skip.effect[0])",
                        f"{path}:5:30: {NO_PARTNERS} (at $.cards.skip.effect[1].turn_to.who)"]
    # with partnerships, later steps are still checked for what they name
    path, problems = _problems(tmp_path, "name: t\nextends: teams\ncards:\n  skip:\n"
                               "    effect: [skip, {knock_out: {to: nowhere}}]\n")
    assert problems == [f"{path}:5:37: no pile 'nowhere': declare it in `piles` "
                        "(at $.cards.skip.effect[1].knock_out.to)"]


def test_steps_that_need_partners(tmp_path: Path) -> None:
    head = "name: t\nextends: classic\ncards:\n  skip:\n    effect: "
    path, problems = _problems(tmp_path, head + "[{give_cards: {from: [self, partner]}}]\n")
    assert problems == [
        f"{path}:5:27: `give_cards` gives cards to partners, but this rulebook has no "
        "partnerships (`team: {size: N}`) (at $.cards.skip.effect[0].give_cards)",
        f"{path}:5:34: {NO_PARTNERS} (at $.cards.skip.effect[0].give_cards.from)"]
    # handing the turn to a seat that is not a partner needs no partnerships
    assert _problems(tmp_path, head + "[{partner_plays: {who: next}}]\n")[1] == []


def test_a_chosen_player_must_be_chosen_before_it_is_named(tmp_path: Path) -> None:
    """`target`, `loser` and `challenger` name a player some earlier step chose: named
    anywhere else they would name nobody, so the rulebook is refused at that line."""
    text = ("name: choices\nextends: classic\ncards:\n  wild:\n    effect:\n"
            "      - {if: {out: loser, then: [skip]}}\n"         # line 6: no contest yet
            "      - contest\n"                                  # line 7: reads target
            "      - choose_player\n"
            "      - {swap_hands: {with: target}}\n"             # fine: chosen above
            "      - {challenge: {who: next, guilty: [{draw: {who: challenger, count: 1}}],"
            " innocent: [], accepted: [{draw: {who: challenger, count: 1}}]}}\n"  # line 10
            "    bluff: true\n    legal_if: {holds_no: color}\n")  # (a challenge needs them)
    path, problems = _problems(tmp_path, text)
    assert problems == [
        f"{path}:6:20: `loser` names nobody here: it is chosen by a `contest` step before it "
        "(at $.cards.wild.effect[0].if.out)",
        f"{path}:7:9: `target` names nobody here: it is chosen by a `choose_player` step "
        "before it (at $.cards.wild.effect[1].contest)",
        f"{path}:10:118: `challenger` names nobody here: it is chosen by a `challenge` "
        "step's `guilty` or `innocent` branch "
        "(at $.cards.wild.effect[4].challenge.accepted[0].draw.who)"]


def test_a_tag_may_name_the_player_its_ranks_choose(tmp_path: Path) -> None:
    """A tag's steps run after the rank's: a target every rank with the tag chooses counts;
    one that some rank with the tag doesn't choose is refused."""
    text = BASE + ("  tagged: {ranks: [8, 9], colors: [red], copies: 1, tags: [zap]}\n"
                   "cards:\n"
                   "  '8': {effect: [choose_player]}\n"
                   "  '9': {effect: [choose_player]}\n"
                   "  zap: {effect: [{draw: {who: target, count: 1}}]}\n")
    assert _problems(tmp_path, text)[1] == []
    text = text.replace("  '9': {effect: [choose_player]}\n", "")
    path, problems = _problems(tmp_path, text)
    assert problems == [f"{path}:9:31: `target` names nobody here: it is chosen by a "
                        "`choose_player` step before it (at $.cards.zap.effect[0].draw.who)"]


# ------------------------------------------------------------------ uniqueness and caps
def test_a_colour_or_rank_listed_twice_is_named(tmp_path: Path) -> None:
    text = BASE.replace("[red, blue]", "[red, blue, red]").replace(
        "[1, 2, 3,", "[1, 2, '2', 3, 3,")
    path, problems = _problems(tmp_path, text)
    assert problems == [
        f"{path}:3:21: colour 'red' is listed twice (first at 3:10) (at $.colors[2])",
        f"{path}:5:27: rank '2' is listed twice (first at 5:24) (at $.deck.numbers.ranks[2])",
        f"{path}:5:35: rank '3' is listed twice (first at 5:32) (at $.deck.numbers.ranks[4])"]


def test_a_colour_listed_twice_on_a_side(tmp_path: Path) -> None:
    text = BASE.replace("colors: [red, blue]\n", "sides:\n  light: {colors: [red, red]}\n"
                        "  dark: {colors: [teal, pink]}\n")
    path, problems = _problems(tmp_path, text)
    assert problems == [f"{path}:4:25: colour 'red' is listed twice (first at 4:20) "
                        "(at $.sides.light.colors[1])"]


def test_thousands_of_repeats_are_one_line_checked_in_linear_time(tmp_path: Path) -> None:
    ranks = ", ".join(f"{i}, r{i}" for i in range(150)) + ", 7"   # 300 distinct, then a 7
    path, problems = _problems(tmp_path, BASE.replace("[1, 2, 3, 4, 5, 6, 7, 8, 9]",
                                                      f"[{ranks}]"))
    assert problems == [f"{path}:5:3: the deck has 300 ranks, more than 200 (at $.deck)",
                        f"{path}:5:1451: rank '7' is listed twice (first at 5:70) "
                        "(at $.deck.numbers.ranks[300])"]
    path, problems = _problems(tmp_path, BASE.replace("[1, 2, 3, 4, 5, 6, 7, 8, 9]",
                                                      "[" + "1, " * 5000 + "1]"))
    assert problems == [f"{path}:5:24: 5,000 problems like this, the first at 5:24: rank '1' "
                        "is listed twice (first at 5:21) (at $.deck.numbers.ranks[1])"]


def test_the_schema_leaves_uniqueness_to_the_checks() -> None:
    from uno_rules.load.schema import schema_json
    assert "uniqueItems" not in schema_json()


def test_caps_on_colours_ranks_and_different_cards(tmp_path: Path) -> None:
    colors = ", ".join(f"c{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(33))
    path, problems = _problems(tmp_path, BASE.replace("[red, blue]", f"[{colors}]"))
    assert problems == [f"{path}:3:9: 33 colours, more than 32 (at $.colors)"]
    ranks = ", ".join(f"r{i}" for i in range(201))
    path, problems = _problems(tmp_path, BASE + f"  more: {{ranks: [{ranks}], copies: 1}}\n")
    assert problems == [f"{path}:5:3: the deck has 210 ranks, more than 200 (at $.deck)"]
    groups = "".join(f"  g{i}: {{ranks: [1], colors: all, copies: 0, tags: [t{i}]}}\n"
                     for i in range(496))
    path, problems = _problems(tmp_path, BASE + groups)   # 18 + 992 different cards
    assert problems == [f"{path}:5:3: the deck has 1,010 different cards, more than 1,000 "
                        "(at $.deck)"]
    assert _problems(tmp_path, BASE + groups.split("  g491:")[0])[1] == []  # 18 + 982


def test_a_cap_on_the_pairings_of_faces(tmp_path: Path) -> None:
    ranks = ", ".join(f"r{i}" for i in range(36))
    text = ("name: t\nplayers: {min: 2, max: 4}\nsides:\n  light: {colors: [red, blue]}\n"
            "  dark: {colors: [teal, pink]}\ndeck:\n"
            f"  l: {{ranks: [{ranks}], colors: all, copies: 1}}\n"
            f"  d: {{ranks: [{ranks}], colors: all, copies: 1, side: dark}}\n")
    path, problems = _problems(tmp_path, text)   # 72 faces a side
    assert problems == [f"{path}:3:1: the sides' faces pair in 5,184 ways, more than 5,000 "
                        "(at $.sides)"]
    assert _problems(tmp_path, text.replace(", r35]", "]"))[1] == []   # 70 x 70


def test_repeated_problems_are_collapsed_and_the_list_is_capped(tmp_path: Path) -> None:
    steps = ", ".join(["skipp"] * 4 + ["drow"] * 3 + [f"x{i}" for i in range(120)])
    path, problems = _problems(tmp_path, BASE + f"cards:\n  1: {{effect: [{steps}]}}\n")
    assert problems[0] == (f"{path}:7:16: 4 problems like this, the first at 7:16: unknown "
                           "primitive 'skipp'; did you mean 'skip'? (at $.cards.1.effect[0])")
    assert problems[1:4] == [f"{path}:7:{col}: unknown primitive 'drow'; did you mean "
                             f"'draw'? (at $.cards.1.effect[{i}])"
                             for i, col in ((4, 44), (5, 50), (6, 56))]
    assert len(problems) == 101
    assert problems[100].endswith("24 more problems from here on (the first 100 are listed) "
                                  "(at $.cards.1.effect[103])")   # 1 + 3 + 120 lines


def test_too_many_colours_are_not_also_too_many_cards_of_the_base(tmp_path: Path) -> None:
    """A variant of classic with 300 colours: the colours, at its own line, and not also
    '2,700+ different cards' located in the installed classic.yaml (a consequence)."""
    colors = ", ".join(f"c{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(300))
    path, problems = _problems(tmp_path, f"name: t\nextends: classic\ncolors: [{colors}]\n")
    assert problems == [f"{path}:3:9: 300 colours, more than 32 (at $.colors)"]


def test_a_capped_list_says_when_more_problems_were_not_read(tmp_path: Path) -> None:
    """1,200 different problems: 100 listed, then the count of the rest read, and that the
    reading stopped (it said '901 more problems', counting its own mark, of ~1,100)."""
    steps = ", ".join(f"x{i}" for i in range(1200))
    path, problems = _problems(tmp_path, BASE + f"cards:\n  1: {{effect: [{steps}]}}\n")
    assert len(problems) == 101
    assert problems[100].endswith(": 900 more problems from here on (the first 100 are "
                                  "listed; more not read: the reading stops at 1,000) "
                                  "(at $.cards.1.effect[100])"), problems[100]


def test_schema_errors_are_read_up_to_a_cap(tmp_path: Path) -> None:
    steps = ", ".join(["skipp"] * 3000)
    path, problems = _problems(tmp_path, BASE + f"cards:\n  1: {{effect: [{steps}]}}\n")
    assert problems == [
        f"{path}:7:16: 1,000 problems like this, the first at 7:16: unknown primitive 'skipp'; "
        "did you mean 'skip'? (at $.cards.1.effect[0])",
        f"{path}:7:7009: more problems from here on, not read (the reading stops at 1,000) "
        "(at $.cards.1.effect[999])"]


def test_a_long_file_path_in_a_message_is_kept_whole() -> None:
    """An installed rulebook's path easily passes 80 characters: it is not cut short (a
    run without a slash is)."""
    from uno_rules.engine.errors import shorten_values

    path = "/" + "/".join(["site-packages-of-a-long-virtualenv-name"] * 4) + "/classic.yaml:3:1"
    text = shorten_values(f"bad value (used at {path})")
    assert path in text
    assert "x" * 200 not in shorten_values("bad " + "x" * 200)


BLUFF_HINT = ("`bluff: true` lets {} be played when its `legal_if` says no, but nothing "
              "challenges it: add a `challenge` step to its effect (or a `stack_draw` with a "
              "`challenge_penalty`), or write `bluff: false`")


def test_a_bluff_and_a_challenge_go_together(tmp_path: Path) -> None:
    """A card that may be played illegally needs a challenge, and a challenge is offered only
    on such a card: each alone is refused, located (docs/settings.md, `bluff`)."""
    for house in ([], ["no_bluffing"], ["stacking"], ["stacking", "no_bluffing"]):
        assert check("classic", house=house)[1] == [], house  # bluff: false says it outright
    path, problems = _problems(tmp_path, "name: v\nextends: classic\noptions: {b: true}\n"
                               "cards:\n  wild:\n    bluff: $b\n")
    assert problems == [f"{path}:6:5: {BLUFF_HINT.format('wild')} (at $.cards.wild.bluff)"]
    assert _problems(tmp_path, "name: v\nextends: classic\noptions: {b: false}\n"
                     "cards:\n  wild:\n    bluff: $b\n")[1] == []
    # a tag's challenge runs on each rank with the tag: each of them needs its `bluff`
    tagged = BASE + ("  tagged: {ranks: [8, 9], colors: [red], copies: 1, tags: [zap]}\n"
                     "cards:\n  zap:\n    effect:\n      - challenge: {who: next, guilty: [], "
                     "innocent: [], accepted: []}\n  '8': {bluff: false}\n")
    path, problems = _problems(tmp_path, tagged)
    assert problems == [f"{path}:10:9: this challenge is never offered: 9 has no `bluff`, so it "
                        "is played only when legal and `accepted` always runs; add `bluff: true`"
                        " under cards.9 (with a `legal_if` saying when it is legal), or `bluff: "
                        "false` to say it is never challenged (at $.cards.zap.effect[0].challenge)"]
    assert _problems(tmp_path, tagged + "  '9': {bluff: true, legal_if: {holds_no: color}}\n"
                     )[1] == []


def test_a_stacked_draw_of_nothing_is_refused(tmp_path: Path) -> None:
    text = "name: v\nextends: classic\noptions: {n: 0}\ncards:\n  skip:\n    effect:\n"
    path, problems = _problems(tmp_path, text + "      - stack_draw: {count: $n}\n")
    assert problems == [f"{path}:7:29: `stack_draw` of 0 cards: nothing to draw, and no "
                        "stacking card could answer it; give a count of 1 or more (`skip` alone "
                        "skips the next player) (at $.cards.skip.effect[0].stack_draw.count)"]
    assert _problems(tmp_path, text + "      - stack_draw: 1\n")[1] == []
