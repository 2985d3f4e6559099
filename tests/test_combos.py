"""Several cards in one play (rulebook key ``combos``): the action table's combo plays
(none, and every id unchanged, without the key), their notation, legality masks, records
and the RL adapters on a rulebook using them."""

from __future__ import annotations

import random
from pathlib import Path

import numpy
import pytest

import uno_rules
from uno_rules import IllegalAction
from uno_rules.engine.actions import Action
from uno_rules.engine.position import Position, game_from_position
from uno_rules.engine.tables import action_table, combo_names, numbers_of, seat_actions, sums_to
from uno_rules.load.resources import shipped_names
from uno_rules.play.record import Recorder, read
from uno_rules.rl.gymnasium import UnoEnv

HERE = Path(__file__).resolve().parent
PAIRS = str(HERE / "rulebooks" / "positive" / "pairs.yaml")
SEVEN = Position(hands=[["red 3", "blue 4", "green 1", "red 5", "blue 5"],
                        ["yellow 1", "yellow 2"]], discard=["green 7"])


@pytest.fixture(scope="module")
def pairs() -> uno_rules.Rulebook:
    return uno_rules.load_rulebook(PAIRS)


WITH_COMBOS = {"triple_play", "dos"}  # the Discard 2 pair; DOS's sums


@pytest.mark.parametrize("name", sorted(set(shipped_names()) - WITH_COMBOS))
def test_a_rulebook_without_combos_has_none_in_its_table(name: str) -> None:
    rulebook = uno_rules.load_rulebook(name)
    assert rulebook.combos == () and combo_names(rulebook) == ()
    assert not any(" + " in str(a.arg) for a in action_table(rulebook, 3))


def test_triple_plays_combos_are_a_discard_2_with_one_card_of_its_colour_on_top() -> None:
    rulebook = uno_rules.load_rulebook("triple_play")
    names = combo_names(rulebook)
    assert all(a.endswith(" discard_2") and b.split()[0] == a.split()[0] for a, b in names)
    # per colour: the Discard 2 under any of the colour's 13 ranks (0-9, reverse, skip,
    # discard_2); no wild
    assert len(names) == 4 * 13 and ("red discard_2", "red skip") in names
    assert ("red discard_2", "wild") not in names
    table = action_table(rulebook, 3)  # x seats, UNO or not, piles
    assert sum(" + " in str(a.arg) for a in table) == 3 * 2 * 3 * len(names)


def test_the_combo_plays_end_the_table_so_every_other_id_stays(pairs: uno_rules.Rulebook,
                                                                classic: uno_rules.Rulebook
                                                                ) -> None:
    plain, table = action_table(classic, 3), action_table(pairs, 3)
    assert table[:len(plain)] == plain
    extra = table[len(plain):]
    assert len(extra) == 3 * 2 * len(combo_names(pairs))  # seats x UNO called or not
    for seat, acts in enumerate(seat_actions(pairs, 3)):
        for (arg, uno, pile), i in acts.combo.items():
            assert table[i] == Action(seat, "play", arg, uno, pile)
    # the table holds only what some combo allows: a sum no number reaches is left out
    assert ("red 3", "blue 4") in combo_names(pairs)
    assert ("red 9", "blue 4") not in combo_names(pairs)
    assert ("red skip", "blue skip") in combo_names(pairs)


def test_the_notation_of_a_combo_round_trips(pairs: uno_rules.Rulebook) -> None:
    for action in action_table(pairs, 2):
        assert Action.parse(str(action)) == action
    assert str(Action(1, "play", "red 3 + blue 4", True)) == "1 play red 3 + blue 4 uno"


def test_the_turn_offers_the_combos_the_hand_holds(pairs: uno_rules.Rulebook) -> None:
    game = game_from_position(pairs, 2, SEVEN, seed=1)
    combos = sorted(str(a) for a in game.decision.options if " + " in str(a.arg))
    assert combos == ["0 play blue 4 + red 3", "0 play red 3 + blue 4"]
    ids = game.legal_ids()
    assert all(game.rulebook.action_table(2)[i] in game.decision.options for i in ids)


def test_a_combo_is_refused_in_words(pairs: uno_rules.Rulebook) -> None:
    game = game_from_position(pairs, 2, SEVEN, seed=1)
    with pytest.raises(IllegalAction, match="no combo of these rules on pile 0"):
        game.apply("0 play red 5 + blue 5")
    with pytest.raises(IllegalAction, match="holds no second red 5"):
        game.apply("0 play red 5 + red 5")
    with pytest.raises(IllegalAction, match="holds no yellow 9"):
        game.apply("0 play red 5 + yellow 9")
    game.apply("0 play RED 3+blue  4")  # read as the combo, whatever the spacing
    assert game.top == "blue 4" and game.events[-2:] == ["seat 0 plays red 3",
                                                        "seat 0 plays blue 4"]


def _random_round(game: uno_rules.Game, rng: random.Random, recorder: Recorder) -> int:
    """Play ``game`` out choosing among its legal actions, a combo whenever there is one;
    the number of combos played."""
    combos = 0
    while not game.over:
        options = game.legal_actions()
        several = [a for a in options if " + " in str(a.arg)]
        action = rng.choice(several or options)
        combos += bool(several)
        game.apply(action)
        recorder.step(action)
    return combos


def test_a_round_of_combos_records_and_replays(pairs: uno_rules.Rulebook,
                                               tmp_path: Path) -> None:
    played = 0
    for seed in range(3):
        game = pairs.new_game(3, seed)
        path = tmp_path / f"r{seed}.jsonl"
        with path.open("w") as out:
            recorder = Recorder(out, game)
            played += _random_round(game, random.Random(seed), recorder)
            recorder.end()
        again = read(path).replay().game
        assert again.history == game.history and again.events == game.events
        assert again.result == game.result
    assert played > 0


def test_the_gymnasium_env_masks_and_plays_combos() -> None:
    env = UnoEnv(PAIRS, 2, opponents="play_first", max_steps=50_000)
    obs, info = env.reset(seed=3)
    table = env.aec.game.rulebook.action_table(2)
    rng, offered = random.Random(3), 0
    while True:
        legal = numpy.flatnonzero(info["action_mask"])
        several = [i for i in legal if " + " in str(table[i].arg)]
        offered += bool(several)
        action = int(rng.choice(several or list(legal)))
        obs, _reward, terminated, truncated, info = env.step(action)
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            break
    assert offered > 0


def test_a_wild_number_counts_as_whichever_of_its_numbers_suits() -> None:
    assert sums_to([(3,), (1, 2, 9)], (5,)) and not sums_to([(3,), (1, 9)], (5,))
    assert sums_to([(2,), (2,)], (4, 7)) and not sums_to([(), (2,)], (2,))
    rulebook = uno_rules.load_rulebook(str(HERE / "rulebooks" / "positive" /
                                           "wild_numbers.yaml"))
    wild = rulebook.ranks.index("wild_number")
    assert numbers_of(rulebook, wild, False) == tuple(range(1, 10))
    assert numbers_of(rulebook, rulebook.ranks.index("wild_dos"), False) == (2,)
    assert numbers_of(rulebook, rulebook.ranks.index("skip"), False) == ()
    names = combo_names(rulebook)
    assert ("wild_dos", "red 7") in names and ("red wild_number", "blue wild_number") in names
    assert ("red 9", "blue 9") not in names  # 18: no card counts as that much
    assert uno_rules.load_rulebook("classic").rank_numbers == ()


def test_the_sheet_says_the_combos_and_the_wild_numbers(pairs: uno_rules.Rulebook) -> None:
    from uno_rules.authoring.explain import rule_lines
    turn = rule_lines(pairs)["Your turn"]
    assert "You may play 2 cards, all of one rank, the first playable on the pile at once on " \
        "one pile, in order: the last on top, and only its effect is done." in turn
    wild = uno_rules.load_rulebook(str(HERE / "rulebooks" / "positive" / "wild_numbers.yaml"))
    assert "A wild_dos counts as 2, whichever suits." in rule_lines(wild)["Your turn"]
    assert not any("at once on one pile" in line
                   for line in rule_lines(uno_rules.load_rulebook("classic"))["Your turn"])
