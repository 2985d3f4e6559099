"""How a round ended (uno_rules.engine.outcome): the Termination words, ``Game.outcome``,
and the records that carry them, written exactly as the bare words they replace."""

from __future__ import annotations

import csv
import io
import json
import pickle
import random

import pytest

import uno_rules
from uno_rules.engine.errors import RunawayEffect
from uno_rules.engine.outcome import BUDGETS, Outcome, Termination
from uno_rules.sim.rounds import round_record, runaway_record
from uno_rules.sim.simulate import random_moves


@pytest.mark.parametrize("member", list(Termination))
def test_a_termination_is_its_word_everywhere_it_is_written(member: Termination) -> None:
    word = member.value
    assert member == word and hash(member) == hash(word) and {word: 1}[member] == 1
    assert (str(member), f"{member}", f"{member:>9}", repr(member)) == \
        (word, word, f"{word:>9}", repr(word))  # repr too: the fingerprint hashes it
    assert json.dumps({member: [member]}) == json.dumps({word: [word]})
    row = io.StringIO()
    csv.writer(row).writerow([member])
    assert row.getvalue() == f"{word}\r\n"
    assert pickle.loads(pickle.dumps(member)) is member and Termination(word) is member
    assert member.stalled is (member is not Termination.OVER)


def test_the_words_are_the_ones_outputs_have_always_had() -> None:
    assert [t.value for t in Termination] == ["over", "steps", "actions", "runaway", "rounds"]
    assert BUDGETS == (Termination.STEPS, Termination.ACTIONS)


def test_a_round_played_out_has_its_result_as_outcome(classic: uno_rules.Rulebook) -> None:
    game = classic.new_game(3, 7)
    assert game.outcome is None  # still going on
    random_moves(game, random.Random(7))
    assert game.result is not None
    assert game.outcome == Outcome(Termination.OVER, game.result.winners, game.result.points)
    assert round_record(game).stalled is None


@pytest.mark.parametrize("budget", ["max_actions", "max_steps"])
def test_a_stalled_round_names_its_budget(classic: uno_rules.Rulebook, budget: str) -> None:
    game = classic.new_game(4, 3, **{budget: 12})
    random_moves(game, random.Random(3), policy="uniform")
    want = Termination.ACTIONS if budget == "max_actions" else Termination.STEPS
    assert game.stalled is want  # the member itself, not a look-alike word
    assert game.outcome == Outcome(want) and game.outcome.winners == ()
    assert round_record(game).stalled is want


def test_a_runaway_round_is_over_with_a_runaway_outcome(
        classic: uno_rules.Rulebook, monkeypatch: pytest.MonkeyPatch) -> None:
    from uno_rules.engine import game as game_module

    monkeypatch.setattr(game_module, "RUN_BUDGET", 2)  # an action card now "runs away"
    for seed in range(20):
        game = classic.new_game(4, seed)
        try:
            random_moves(game, random.Random(seed))
        except RunawayEffect:
            break
    else:
        pytest.fail("no round ran away")
    assert game.outcome == Outcome(Termination.RUNAWAY) and game.stalled is None
    assert runaway_record(seed).stalled is Termination.RUNAWAY
