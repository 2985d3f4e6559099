"""Open piles and pile counters (uno_rules.engine.pilecounters): the setup of UNO Triple
Play, the hidden limits kept from every seat, and the `press` decision."""

from __future__ import annotations

import random
from typing import Any

import uno_rules
from uno_rules.engine.actions import Action
from uno_rules.engine.pilecounters import WIDTH, nonempty_sets, set_name
from uno_rules.rl.observation import Observer
from uno_rules.sim.simulate import random_moves


def _triple() -> uno_rules.Rulebook:
    return uno_rules.load_rulebook("triple_play")


def test_every_pile_starts_on_a_number_card() -> None:
    rb = _triple()
    for seed in range(60):
        game = rb.new_game(4, seed)
        for pile in game._discards:
            assert rb.faces[pile[-1]].number, (seed, [rb.card_name(c) for c in pile])


def test_the_unit_opens_one_of_the_seven_sets_each_as_likely() -> None:
    game = _triple().new_game(3, 2)
    decision = game.decision
    assert decision is not None and decision.kind == "outcome" and decision.seat is None
    assert [str(a) for a in decision.options] == [
        f"outcome {set_name(s)}" for s in nonempty_sets(3)]
    assert len(set(decision.chance)) == 1 and len(decision.options) == 7


def test_limits_are_drawn_from_the_declared_weights_and_hidden_from_views() -> None:
    rb = _triple()
    for seed in range(20):
        game = rb.new_game(3, seed)
        limits = game._pile_marks[WIDTH - 1::WIDTH]
        assert all(3 <= v <= 8 for v in limits)
        view = game.view(0)
        assert view["presses"] == [0, 0, 0] and view["open_piles"] == [0, 1, 2]
        assert "limits" not in str(sorted(view))


def test_a_different_limit_changes_no_view_and_no_observation() -> None:
    rb = _triple()
    game = rb.new_game(3, 4)
    random_moves(game, random.Random(4), 25, "play_first")
    other = game.clone()
    for at in range(WIDTH - 1, len(other._pile_marks), WIDTH):
        other._pile_marks[at] = 99
    obs = Observer(rb, 3)
    for seat in range(3):
        assert game.view(seat) == other.view(seat)
        assert obs.encode(game, seat) == obs.encode(other, seat)


def test_a_snapshot_carries_the_limits_and_restores_them() -> None:
    rb = _triple()
    game = rb.new_game(4, 9)
    random_moves(game, random.Random(9), 40, "play_first")
    data = game.snapshot()
    assert data["pile_counters"] == game._pile_marks
    again = rb.restore(data)
    assert again._pile_marks == game._pile_marks
    random_moves(game, random.Random(1), 60, "uniform")
    random_moves(again, random.Random(1), 60, "uniform")
    assert again._pile_marks == game._pile_marks and again.history == game.history


def test_a_resample_draws_the_limits_again_above_the_counts() -> None:
    rb = _triple()
    game = rb.new_game(3, 5)
    random_moves(game, random.Random(5), 30, "play_first")
    seen = set()
    for k in range(30):
        new = game.resample(0, random.Random(k))
        marks = new._pile_marks
        for at in range(0, len(marks), WIDTH):
            assert marks[at:at + 2] == game._pile_marks[at:at + 2]  # open and count: public
            assert marks[at + 1] < marks[at + 2] <= 8
        seen.add(tuple(marks[WIDTH - 1::WIDTH]))
    assert len(seen) > 1


def test_a_kept_card_asks_for_an_open_pile_to_press() -> None:
    rb = _triple()
    for seed in range(200):
        game = rb.new_game(3, seed)
        random_moves(game, random.Random(seed), 6, "play_first")
        decision = game.decision
        if decision is None or decision.kind != "press":
            continue
        opened = game.view(0)["open_piles"]
        assert [a.arg for a in decision.options] == opened
        before = list(game.view(0)["presses"])
        pile = decision.options[0].arg
        game.apply(Action(decision.seat, "press", pile))
        after = game.view(0)["presses"]
        assert isinstance(pile, int)
        assert after[pile] in (before[pile] + 1, 0)  # counted, or overloaded
        return
    raise AssertionError("no press decision came up")


def test_unit_off_leaves_every_pile_open_with_no_counter() -> None:
    rb = uno_rules.load_rulebook("triple_play", settings={"unit": False})
    game = rb.new_game(3, 3)
    assert game._pile_marks == [] and game.decision is not None
    assert game.decision.kind == "turn"
    random_moves(game, random.Random(3), 200, "uniform")
    assert not any(a.kind in ("press", "outcome") for a in game.history)


def _pending_press(rb: uno_rules.Rulebook) -> Any:
    """A game with a press decision pending among two piles or more."""
    for seed in range(100):
        game, rng = rb.new_game(3, seed), random.Random(seed)
        while not game.over:
            pending = game.pending
            if pending is not None and pending.kind == "press" and len(pending.data()) > 1:
                return game
            random_moves(game, rng, 1, "play_first")
    raise AssertionError("no press decision among several piles came up")


def test_a_pending_press_snapshots_its_piles_and_restores_them() -> None:
    # Press and Target share one base (records.Among): the data is the list chosen among.
    rb = _triple()
    game = _pending_press(rb)
    pending = game.pending
    data = game.snapshot()
    written = data["stack"][-1][2] if data.get("pending") is None else data["pending"]
    assert written["kind"] == "press"
    assert written["data"] == [a.arg for a in game.decision.options]  # type: ignore[union-attr]
    restored = rb.restore(data)
    assert restored.pending is not None and restored.pending.kind == "press"
    assert restored.pending.data() == pending.data() and restored.snapshot() == data


def test_a_call_judged_after_an_overload_snapshots_and_restores() -> None:
    """An uncalled next-to-last card whose press overloads: its call is judged once the play
    is resolved (docs/rules.md §10, UNO), so the card's context carries ``call_due`` while the
    overload is pending; a snapshot then writes it, and the restored round goes on the same."""
    import json

    rb = uno_rules.load_rulebook("triple_play")
    for seed in range(300):
        game, rng = rb.new_game(3, seed), random.Random(seed)
        while not game.over and not (game._ctx.call_due and game.pending is not None):
            random_moves(game, rng, 1, "uniform")
        if game.over:
            continue
        data = json.loads(json.dumps(game.snapshot()))
        ctx = data["ctxs"][data["ctx"]]
        assert ctx["call_due"] is True, ctx
        restored = rb.restore(data)
        assert restored.snapshot() == data
        random_moves(game, random.Random(seed), 50, "uniform")
        random_moves(restored, random.Random(seed), 50, "uniform")
        assert restored.snapshot() == game.snapshot()
        return
    raise AssertionError("no overload of an uncalled next-to-last card came up")
