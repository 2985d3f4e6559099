"""Random rulebooks: random decks, random effect compositions, random settings and house
rules. Each either loads or fails with a RulebookError; one that loads plays whole rounds
with the invariants holding after every action (or stops with the typed RunawayEffect).
The budget is fixed (derandomized under CI=true); UNO_LONG=1 runs five times as many."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import uno_rules
from uno_rules.engine.errors import RulebookError, RunawayEffect
from uno_rules.load.loader import check


def FUZZ(examples: int) -> settings:  # noqa: N802 - used as a decorator
    """``examples`` (five times as many under UNO_LONG=1; FUZZ_EXAMPLES=N by hand)."""
    import os

    if os.environ.get("UNO_LONG", "") not in ("", "0"):
        examples *= 5
    return settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", examples)),
                    deadline=None, suppress_health_check=[
                        HealthCheck.too_slow, HealthCheck.filter_too_much,
                        HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])

COLORS = ["red", "yellow", "green", "blue", "pink", "teal"]
SEATS = ["self", "next", "prev", "dealer", "first", "target", "challenger", "loser"]
# Seats some step chooses (`target`, `challenger`, `loser`) drawn less often: named where
# nothing chose them, the rulebook is refused, and a refused rulebook plays no round.
seat = st.sampled_from(SEATS[:5] * 3 + SEATS[5:])
count = st.integers(0, 5)


def steps(depth: int = 2) -> st.SearchStrategy[list[Any]]:
    """A step list of the primitives, nested up to ``depth``."""
    simple: list[st.SearchStrategy[Any]] = [
        st.sampled_from(["skip", "reverse", "choose_color", "choose_player", "return_card",
                         "rotate_hands", "knock_out", "offer_drawn", "draw_until_playable"]),
        st.builds(lambda w, n: {"draw": {"who": w, "count": n}}, seat, count),
        st.builds(lambda w: {"turn_to": w}, seat),
        st.builds(lambda w: {"discard_color": w}, seat),
        st.builds(lambda w: {"draw_until_color": w}, seat),
        st.builds(lambda w: {"swap_hands": w}, seat),
        st.builds(lambda w: {"contest": w}, seat),
        st.builds(lambda n: {"stack_draw": n}, st.integers(1, 6)),
    ]
    if depth > 0:
        inner = steps(depth - 1)
        simple += [
            st.builds(lambda p, t, e: {"if": {"players": p, "then": t, "else": e}},
                      st.integers(2, 5), inner, inner),
            st.builds(lambda h, t: {"if": {"hand_at_least": h, "then": t}},
                      st.integers(1, 9), inner),
            st.builds(lambda s, t: {"each": {"seats": s, "then": t}},
                      st.sampled_from(["others", "all", "opponents"]), inner),
            st.builds(lambda w, g, i, a: {"challenge": {"who": w, "guilty": g, "innocent": i,
                                                       "accepted": a}},
                      seat, inner, inner, inner),
        ]
    return st.lists(st.one_of(simple), max_size=4)


RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "act_a", "act_b", "act_c"]
WILDS = ["wild_x", "wild_y"]


@st.composite
def rulebooks(draw: st.DrawFn, colours: list[str] = COLORS, rank_names: list[str] = RANKS,
              wild_names: list[str] = WILDS) -> dict[str, Any]:
    """A random rulebook; its colours (the first few), ranks and wilds drawn from the names
    given."""
    colors = colours[:draw(st.integers(1, 5))]
    ranks = draw(st.lists(st.sampled_from(rank_names), min_size=2, max_size=8, unique=True))
    wilds = draw(st.lists(st.sampled_from(wild_names), max_size=2, unique=True))
    deck: dict[str, Any] = {
        "coloured": {"ranks": ranks, "colors": "all", "copies": draw(st.integers(1, 3)),
                     "points": draw(st.integers(0, 50))}}
    if wilds:
        deck["wilds"] = {"ranks": wilds, "copies": draw(st.integers(1, 4)), "points": 50}
    # Half the effects choose a player and hold a contest first, so that the steps naming
    # `target` or `loser` (refused where nothing chose them) load and play as often as not.
    cards = {rank: {"effect": (["choose_player", "contest"] if draw(st.booleans()) else [])
                    + draw(steps())}
             for rank in draw(st.lists(st.sampled_from(ranks + wilds), max_size=4,
                                       unique=True))}
    for rank in cards:
        if "'challenge'" in repr(cards[rank]["effect"]):  # offered only on a possible bluff
            cards[rank].update({"bluff": True, "legal_if": {"holds_no": "color"}}
                               if draw(st.booleans()) else {"bluff": False})
        if draw(st.booleans()):
            cards[rank]["first_card"] = draw(st.one_of(
                steps(1), st.just([{"turn_again": {"put_back": draw(st.booleans())}}])))
    data: dict[str, Any] = {
        "name": "random", "players": {"min": 2, "max": draw(st.integers(2, 6))},
        "colors": colors, "deck": deck, "cards": cards,
        "settings": {"hand_size": draw(st.integers(1, 7)),
                     "play_drawn": draw(st.sampled_from(["may", "must", "never"])),
                     "draw_with_playable": draw(st.booleans())},
    }
    if draw(st.booleans()):
        data["after_draw"] = [{"if": {"hand_at_least": draw(st.integers(5, 30)),
                                      "then": ["knock_out"]}}]
    if draw(st.booleans()):
        data["stacking"] = {"mixing": draw(st.booleans())}
    if draw(st.booleans()):
        data["house"] = draw(st.lists(st.sampled_from(
            ["seven_zero", "jump_in", "draw_to_match", "force_play", "no_action_finish"]),
            max_size=2, unique=True))
    return data


def _play(rulebook: uno_rules.Rulebook, seed: int) -> None:
    """Whole rounds with the invariants checked after every action."""
    rng = random.Random(seed)
    players = rng.choice(rulebook.player_counts())
    game = rulebook.new_game(players, seed)
    deck = sorted(rulebook.deck)
    for _ in range(1500):
        assert sorted(game._all_cards()) == deck, "a card was lost or duplicated"
        if game.over:
            assert game.result is not None
            return
        options = game.decision.options  # type: ignore[union-attr]
        assert options, "a decision with no option"
        actions = list(options) + game.legal_actions()[len(options):]
        game.apply(rng.choice(actions))


@FUZZ(90)  # more than before the check of chosen seats, which refuses more of them
@given(data=rulebooks(), seed=st.integers(0, 2**16))
def test_random_rulebooks_load_or_fail_cleanly_and_play_soundly(tmp_path_factory: Any,
                                                                data: dict[str, Any],
                                                                seed: int) -> None:
    path = Path(tmp_path_factory.mktemp("rb")) / "random.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    rulebook, problems = check(path)
    if rulebook is None:
        assert problems and all(p.line >= 1 and p.message for p in problems)
        try:
            uno_rules.load_rulebook(path)
        except RulebookError:
            return
        raise AssertionError("check() found problems but load_rulebook() did not")
    if not rulebook.player_counts():
        return
    try:
        _play(rulebook, seed)
    except RunawayEffect:
        pass  # stopped, with a typed error naming the card and step


def test_found_by_the_fuzz_return_card_twice(tmp_path: Path) -> None:
    """`return_card` run once per other player used to pop an empty discard pile."""
    path = tmp_path / "twice.yaml"
    path.write_text("name: twice\nplayers: {min: 2, max: 3}\ncolors: [red]\n"
                    "deck: {coloured: {ranks: ['1', '2', '3', '4'], colors: all, copies: 2}}\n"
                    "cards: {'1': {effect: [{each: {seats: others, then: [return_card]}}]}}\n"
                    "settings: {hand_size: 1}\n")
    rulebook = uno_rules.load_rulebook(path)
    for seed in range(30):
        _play(rulebook, seed)
