"""The tables derived from a rulebook: the action table and its ids, matching cards."""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

import pytest

import uno_rules
from uno_rules.engine.errors import IllegalAction
from uno_rules.engine.model import DEFAULT_MATCH, NO_COLOR
from uno_rules.engine.tables import (
    MATCH_WAYS,
    match_key,
    matches,
    matching,
    play_extras,
    seat_actions,
)


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
    found = matching(tables, rulebook.faces, red, five, DEFAULT_MATCH)
    names = {rulebook.faces[c].name for c in found}
    assert {"red 0", "red skip", "blue 5", "green 5", "wild", "wild_draw_four"} <= names
    assert not names & {"blue 6", "green skip", "yellow 0"}
    assert names == {f.name for f in rulebook.faces
                     if f.color in (red, NO_COLOR) or f.rank == five}
    assert tables == {match_key(red, five): found}


@pytest.mark.parametrize("way", MATCH_WAYS)
def test_each_way_of_matching(way: str) -> None:
    """``match:`` ways one by one, on classic's cards under red in force and a 5 on top."""
    rulebook = uno_rules.load_rulebook("classic")
    red, five = rulebook.color_ids["red"], rulebook.face("blue 5").rank
    skip = rulebook.face("blue skip").rank
    want = {"color": {"red 0", "red skip"}, "rank": {"green 5"}, "number": {"green 5"},
            "wild": {"wild"}, "any": {"red 0", "green 5", "wild", "blue 6"},
            "on_uncolored": set()}[way]
    refused = {"color": {"blue 6", "wild"}, "rank": {"red 0", "wild"},
               "number": {"red 0", "wild"}, "wild": {"red 0", "green 5"}, "any": set(),
               "on_uncolored": {"red 0", "green 5", "wild", "blue 6"}}[way]
    for name in want:
        assert matches(rulebook.face(name), red, five, (way,)), name
    for name in refused:
        assert not matches(rulebook.face(name), red, five, (way,)), name
    # a symbol on top: `rank` matches it, `number` (numbers only) does not
    assert matches(rulebook.face("green skip"), red, skip, ("rank",)) is True
    assert matches(rulebook.face("green skip"), red, skip, ("number",)) is False
    # no colour in force (a deck without colours): `color` matches no card at all, and
    # `on_uncolored` (a wild top naming none) every card
    assert not any(matches(f, NO_COLOR, five, ("color",)) for f in rulebook.faces)
    assert all(matches(f, NO_COLOR, five, ("on_uncolored",)) for f in rulebook.faces)


def test_a_rulebooks_match_builds_its_tables() -> None:
    """The legality tables come from the rulebook's own `match:` (every card on every card
    in All Wild; by number in a house rule), and the default is today's rule."""
    classic = uno_rules.load_rulebook("classic")
    assert classic.match == DEFAULT_MATCH
    by_number = uno_rules.load_rulebook(Path(__file__).parent / "rulebooks" / "positive"
                                        / "by_number.yaml")
    assert by_number.match == ("number", "wild")
    game = by_number.new_game(2, seed=1)
    top = game.faces[game.discard[-1]]
    found = game._matching_top()
    assert found == frozenset(c for c, f in enumerate(game.faces)
                              if f.color == NO_COLOR or (f.number and f.rank == top.rank))
    all_wild = uno_rules.load_rulebook("all_wild")
    assert all_wild.colors == () and all_wild.match == ("any",)
    assert all_wild.new_game(3, seed=2)._matching_top() == frozenset(range(len(all_wild.faces)))


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


POSITIVE = Path(__file__).resolve().parent / "rulebooks" / "positive"
GOLDEN_TABLES = Path(__file__).resolve().parent / "golden" / "action_tables.sha256"


def table_digest(rulebook: uno_rules.Rulebook, players: int, full: bool = False) -> str:
    """The digest of the table without its ``pass`` block (the table as it was before pass
    was appended: the ids it had must never move), or with it (``full``)."""
    table = rulebook.action_table(players)
    table = table if full else table[:-players]
    return hashlib.sha256("\n".join(map(str, table)).encode()).hexdigest()


def stored_digests() -> dict[str, str]:
    """The stored digests: ``classic-Np`` the table before ``pass`` came, ``classic-Np-full``
    the whole table (docs/actions.md)."""
    return {f"classic-{n}p{tail}": table_digest(uno_rules.load_rulebook("classic"), n, full)
            for n in (2, 4) for tail, full in (("", False), ("-full", True))}


def test_action_table_ids_are_unique_and_the_layout_documented() -> None:
    for name, players in [("classic", 2), ("classic", 7), ("flip", 3), ("teams", 4),
                          ("no_mercy", 4)]:
        rulebook = uno_rules.load_rulebook(name)
        table = rulebook.action_table(players)
        assert len(set(table)) == len(table)
        assert rulebook.action_table(players) is table  # made once, interned
        # docs/actions.md: per seat 2NP plays, 4 bare, C colours, 3n seats, 2N names; loser,
        # then pass, per seat
        names = len({f.name for f in rulebook.faces})
        block = 2 * names * rulebook.discard_piles + 4 + len(rulebook.colors) \
            + 3 * players + 2 * names
        assert len(table) == players * block + 2 * players
        first, second = rulebook.faces[0].name, rulebook.faces[1].name
        assert [str(a) for a in table[:3]] == [f"0 play {first}", f"0 play {first} uno",
                                                f"0 play {second}"]
        assert str(table[block]).startswith("1 play ")
        assert [str(a) for a in table[-2 * players:-players]] == [f"loser {s}"
                                                                   for s in range(players)]
        assert [str(a) for a in table[-players:]] == [f"{s} pass" for s in range(players)]
        for seat, acts in enumerate(seat_actions(rulebook, players)):
            assert table[acts.pass_] == uno_rules.Action(seat, "pass")
            assert [table[i] for i in acts.loser] == [uno_rules.Action(None, "loser", s)
                                                      for s in range(players)]


def test_action_tables_are_stable() -> None:
    """The classic 2- and 4-player tables, held against their stored digests: a change of
    numbering breaks every stored policy (python tests/test_tables.py --write to renew).
    ``classic-Np`` is the digest stored before ``pass`` was appended, unchanged: the table
    without its last ``n`` ids (the passes) is still exactly that table."""
    stored = dict(line.split() for line in GOLDEN_TABLES.read_text().splitlines())
    assert stored_digests() == stored


def test_action_table_refuses_a_player_count_the_rulebook_cannot_play() -> None:
    classic = uno_rules.load_rulebook("classic")
    for players in (1, 11, 0, True, "4"):
        with pytest.raises(IllegalAction, match="players"):
            classic.action_table(players)  # type: ignore[arg-type]


def test_every_option_of_thousands_of_decisions_is_in_the_table() -> None:
    """The options of seeded games under a uniform policy (catches, jump-ins, targets,
    contests and gifts come up) are the table's own objects at their ids."""
    from uno_rules.sim.simulate import random_moves

    seen = 0
    for name, house, players in [("classic", ("jump_in", "stacking", "seven_zero"), 4),
                                 ("classic", ("deflect", "pass_on", "jump_in_wilds"), 4),
                                 ("teams", (), 4), ("ted_lasso", (), 3), ("flip", (), 3),
                                 ("pokemon", (), 3), ("no_mercy", (), 4), ("attack", (), 3),
                                 (str(POSITIVE / "pairs_jackpot.yaml"), (), 3)]:
        rulebook = uno_rules.load_rulebook(name, house=list(house))
        table = rulebook.action_table(players)
        index = {a: i for i, a in enumerate(table)}
        for seed in range(8):
            game = rulebook.new_game(players, seed)
            rng = random.Random(seed)
            while not game.over and len(game.history) < 400:
                decision = game.decision
                assert decision is not None
                ids = game.legal_ids()
                assert [index[a] for a in decision.options] == list(ids)
                assert all(table[i] is a for i, a in zip(ids, decision.options, strict=True))
                extra = game.out_of_turn_ids()
                assert [table[i] for i in extra] == game.out_of_turn_actions()
                seen += 1
                random_moves(game, rng, 1, "uniform")
    assert seen > 2000


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_tables.py --write")
    GOLDEN_TABLES.write_text("".join(f"{key} {digest}\n"
                                     for key, digest in stored_digests().items()))
    print(f"wrote {GOLDEN_TABLES}")


def test_the_biggest_table_is_built_and_played(tmp_path: Path) -> None:
    """tests/hostile/lane/big_table.yaml (bench/hostile_cases/lane.py times it): the size the
    layout says, every id once, 200 actions played through the lane; 21 players refused."""
    from click.testing import CliRunner

    from uno_rules.cli import cli

    path = Path(__file__).resolve().parent / "hostile" / "lane" / "big_table.yaml"
    rulebook = uno_rules.load_rulebook(path)
    names, piles = len({f.name for f in rulebook.faces}), rulebook.discard_piles
    assert names > 900 and piles == 8
    table = rulebook.action_table(20)
    block = 2 * names * piles + 4 + len(rulebook.colors) + 3 * 20 + 2 * names
    assert len(table) == 20 * block + 2 * 20 > 290_000  # losers, then passes
    assert len(set(table)) == len(table)
    game, rng = rulebook.new_game(20, seed=1), random.Random(1)
    while not game.over and len(game.history) < 200:
        ids = game.legal_ids()
        assert [table[i] for i in ids] == list(game.decision.options)  # type: ignore[union-attr]
        game.step(ids[rng.randrange(len(ids))])
    assert len(game.history) > 100
    result = CliRunner().invoke(cli, ["simulate", str(path), "--games", "1", "--players", "21"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1] == "--players 21: big_table is for 2-20 players"


@pytest.mark.parametrize(("name", "settings", "extras"), [
    ("classic", None, False),                            # none: the play skips every check
    ("classic", {"false_call_penalty": 3}, True),        # a false UNO call's penalty
    ("classic_2018", None, True),                        # Wild Shuffle Hands continues
    ("flex", None, True),                                # cards played as their alternative
    ("triple_play", None, True),                         # pile counters
])
def test_play_extras_names_the_rulebooks_whose_plays_need_their_checks(
        name: str, settings: dict[str, object] | None, extras: bool) -> None:
    """Game._play_card skips the checks of false calls, pile presses, card sides and going on
    after the last card when the rulebook has none of them (looked up once per game)."""
    rulebook = uno_rules.load_rulebook(name, settings=settings)
    assert play_extras(rulebook) is extras
    assert rulebook.new_game(2, 0)._extras is extras


@pytest.mark.parametrize(("name", "settings", "flags"), [
    # an UNO call judged once the card is resolved (uno_after_effects, pile counters),
    # several discard piles, combos, after-draw steps or owed calls, a card named by its
    # face (one side)
    ("classic", None, (False, False, False, False, True)),
    ("all_wild", None, (True, False, False, False, True)),
    ("no_mercy", None, (True, False, False, True, True)),
    ("teams", None, (False, False, False, True, True)),
    ("triple_play", None, (True, True, True, False, True)),
    ("dos", None, (False, True, True, True, True)),
    ("classic", {"call_after_draw": True}, (False, False, False, True, True)),
    ("flip", None, (False, False, False, False, False)),
])
def test_the_hot_paths_flags_name_the_rulebooks_whose_games_need_their_checks(
        name: str, settings: dict[str, object] | None,
        flags: tuple[bool, bool, bool, bool, bool]) -> None:
    """Each play, draw and step reads a rulebook feature as a flag made once per game (the
    checks of the feature are skipped without it): read from the rulebook, never guessed,
    and again after a clone and a restore (derived fields are made again)."""
    rulebook = uno_rules.load_rulebook(name, settings=settings)
    game = rulebook.new_game(rulebook.player_counts()[0], 0)
    for g in (game, game.clone(), type(game).restore(rulebook, game.snapshot())):
        one_sided = g._names is rulebook.side_by_name[g.side]
        assert (g._uno_after, g._piled, g._combos, g._after_draws, one_sided) == flags
        if one_sided:  # a card's name is that card
            assert all(g._names[f.name] == f.id for f in rulebook.faces)
        else:  # no name is one card: every name is looked for in the hand
            assert not g._names


@pytest.mark.parametrize(("name", "settings"), [
    ("classic", None), ("classic", {"false_call_penalty": 2}), ("classic", {"call_at": 2}),
    ("no_mercy", None), ("all_wild", None), ("classic_2018", None), ("flip", None),
    ("triple_play", None),
])
def test_plays_offer_uno_as_calls_uno_says_card_by_card(
        name: str, settings: dict[str, object] | None) -> None:
    """Legality._play_ids skips the card-by-card UNO test at the hand sizes where its table
    (SeatActions.uno_any) says no card may call: at every hand size, every card of every
    pile is offered with UNO called exactly where calls_uno says so for that card."""
    from uno_rules.engine.tables import calls_uno

    rulebook = uno_rules.load_rulebook(name, settings=settings)
    game = rulebook.new_game(rulebook.player_counts()[0], 0)
    s, acts = rulebook.settings, game._acts[0]
    called = 0
    for size in range(1, 12):
        for pile in range(rulebook.discard_piles):
            for card, rule in enumerate(game._card_rules):
                face = pile * len(rulebook.faces) + game.faces[card].id
                uno = calls_uno(size, rule is not None and rule.sheds, s.uno_after_effects,
                                s.call_at, s.false_call_penalty > 0,
                                rule is not None and rule.uno_after
                                and (size > 1 or rule.going_out == "continues"))
                want = list(acts.both[face]) if uno else [acts.play[face]]
                assert game._play_ids(0, [card], size, pile) == want, (size, pile, card)
                called += uno
    assert called
