"""The engine API: decisions, illegal actions, views, snapshots, determinism."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import uno_rules
from uno_rules import Action, IllegalAction, SnapshotError
from uno_rules.engine.position import Position, game_from_position
from uno_rules.sim.simulate import random_moves as _play

HOSTILE = Path(__file__).resolve().parent / "hostile" / "exits"


def test_new_game_deals_and_waits_for_a_decision(classic: uno_rules.Rulebook) -> None:
    game = classic.new_game(players=4, seed=1)
    assert sum(map(len, game.hands)) == 28
    d = game.decision
    assert d is not None and d.kind in ("turn", "color") and d.options
    assert all(isinstance(a, Action) and a.seat == d.seat for a in d.options)


@pytest.mark.parametrize(("players", "dealer"), [(4, None), (3, 0), (5, 2)])
def test_the_deal_is_one_card_at_a_time_from_the_dealers_left(
        classic: uno_rules.Rulebook, players: int, dealer: int | None) -> None:
    """RULES.md §1: deal 7 each, one at a time from seat 0 (the dealer's left), then turn the
    next card. The deck is shuffled as random.Random would; its top card is the last."""
    game = classic.new_game(players=players, seed=11, dealer=dealer)
    deck = list(classic.deck)
    random.Random(11).shuffle(deck)
    first = 0 if dealer is None else (dealer + 1) % players
    order = [(first + i) % players for i in range(players)]
    dealt = deck[::-1]
    for i, seat in enumerate(order):
        assert game.hands[seat][:7] == dealt[i:7 * players:players], seat
    if classic.faces[dealt[7 * players]].id != "wild_draw_four":  # a WD4 is put back
        assert game.discard[0] == dealt[7 * players]


def test_wrong_player_count(classic: uno_rules.Rulebook) -> None:
    with pytest.raises(IllegalAction, match="2-10 players"):
        classic.new_game(players=11)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"players": 3.0}, "players=3.0: expected a whole number of players (classic is for "
                       "2-10), got float"),
    ({"players": True}, "players=True: expected a whole number of players (classic is for "
                        "2-10), got bool"),
    ({"players": 3, "seed": "x"}, "seed='x': expected a whole number or None, got str"),
    ({"players": 3, "seed": 1.0}, "seed=1.0: expected a whole number or None, got float"),
    ({"players": 3, "dealer": "x"}, "dealer='x': expected a seat (int) or None, got str"),
    ({"players": 3, "log": 1}, "log=1: expected True or False"),
    ({"players": 3, "max_steps": -5}, "max_steps=-5: expected a whole number >= 1 or None"),
    ({"players": 3, "max_steps": 0}, "max_steps=0: expected a whole number >= 1 or None"),
    ({"players": 3, "max_actions": "5"},
     "max_actions='5': expected a whole number >= 1 or None, got str"),
])
def test_new_game_checks_every_argument_first(classic: uno_rules.Rulebook,
                                              kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(IllegalAction) as info:
        classic.new_game(**kwargs)  # type: ignore[arg-type]
    assert str(info.value) == message


def test_a_long_wrong_argument_is_shown_short(classic: uno_rules.Rulebook) -> None:
    with pytest.raises(IllegalAction, match=r"^players='xxx.*\(5,002 characters\): ") as info:
        classic.new_game("x" * 5000)  # type: ignore[arg-type]
    assert len(str(info.value)) < 200


def test_a_seed_must_be_below_2_to_the_256_in_size(classic: uno_rules.Rulebook) -> None:
    for seed in (2**256 - 1, 1 - 2**256):  # the largest allowed: the snapshot writes it
        game = classic.new_game(3, seed)
        assert repr(game).startswith("<Game classic players=3 seat ")
        assert str(seed) not in repr(game) and "seed" not in repr(game)  # see test_repr_...
        assert json.loads(json.dumps(game.snapshot()))["seed"] == seed
        assert classic.restore(game.snapshot()).seed == seed
    for seed in (2**256, -(2**256), 10**5000):  # 10**5000 has no repr at all
        with pytest.raises(IllegalAction, match=r"^seed=\(a whole number of [\d,]+ bits\): too "
                           r"large, expected a whole number with abs\(seed\) < 2\*\*256, "
                           r"or None$"):
            classic.new_game(3, seed)


@pytest.mark.parametrize("seed", [2**256, 10**5000], ids=["2**256", "10**5000"])
def test_a_snapshot_with_a_seed_too_large_is_refused(classic: uno_rules.Rulebook,
                                                     seed: int) -> None:
    data = classic.new_game(3, 5).snapshot()
    data["seed"] = seed
    with pytest.raises(SnapshotError, match=r"^snapshot field 'seed': expected a whole number "
                       r"with abs\(seed\) < 2\*\*256, or null, got a whole number of [\d,]+ "
                       r"bits$"):
        classic.restore(data)


def test_illegal_actions_raise_and_change_nothing(classic: uno_rules.Rulebook) -> None:
    game = game_from_position(classic, 3, Position(
        hands=[["red 1", "blue 2"], ["green 3"], ["yellow 4"]], discard=["red 5"]), seed=2)
    before = json.dumps(game.snapshot())
    for bad in ["1 draw", "0 play blue 2", "0 play green 3", "0 play purple 1", "0 color red",
                "2 catch 0", "0 keep", "0 play red 1 uno extra"]:
        with pytest.raises(IllegalAction):
            game.apply(bad)
        assert json.dumps(game.snapshot()) == before
    game.apply("0 play red 1 uno")
    assert game.decision.seat == 1


def test_illegal_message_names_the_reason(classic: uno_rules.Rulebook) -> None:
    game = game_from_position(classic, 2, Position(hands=[["red 1", "blue 2"], ["green 3"]],
                                                   discard=["red 5"]))
    with pytest.raises(IllegalAction, match="blue 2 can't be played on red 5"):
        game.apply("0 play blue 2")
    with pytest.raises(IllegalAction, match="not seat 1's decision"):
        game.apply("1 draw")


def test_view_hides_other_hands(classic: uno_rules.Rulebook) -> None:
    game = classic.new_game(players=3, seed=5)
    view = game.view(1)
    assert view["hand"] == game.hand(1)
    assert view["hand_sizes"] == [len(h) for h in game.hands]
    text = json.dumps(view)
    for seat in (0, 2):
        assert len(game.hands[seat]) == view["hand_sizes"][seat]
    decider = game.decision.seat
    for seat in range(3):
        options = game.view(seat)["decision"]["options"]
        assert (options is not None) == (seat == decider)
    assert "draw_pile\"" not in text  # only its size


def test_view_shows_the_table_facts_a_player_sees() -> None:
    """The stacked draw's total, the seat open to an UNO catch, teams and the seats out,
    knocked out and out of the match: what a player at the table knows."""
    from uno_rules.engine.position import Position, game_from_position

    stacking = uno_rules.load_rulebook("classic", house=("stacking",))
    game = game_from_position(stacking, 3, Position(
        hands=[["red draw_two", "red 1"], ["blue draw_two", "blue 1", "blue 2"], ["green 1"]],
        discard=["red 5"], draw_pile=["green 2", "green 3", "green 4", "green 5"]))
    quiet = game.view(2)
    assert quiet["stacked_draw"] == 0 and quiet["uno_open"] is None
    assert quiet["out"] == quiet["knocked_out"] == quiet["absent"] == []
    assert "team_by_seat" not in quiet
    game.apply("0 play red draw_two")  # one card left, UNO not called
    for seat in range(3):
        view = game.view(seat)
        assert view["stacked_draw"] == 2 and view["uno_open"] == 0
    teams = uno_rules.load_rulebook("teams").new_game(4, seed=1)
    assert teams.view(0)["team_by_seat"] == [0, 1, 0, 1]
    classic = uno_rules.load_rulebook("classic")
    absent = classic.new_game(4, seed=2, out=[1]).view(0)
    assert absent["absent"] == absent["knocked_out"] == [1] and absent["hand_sizes"][1] == 0


def test_same_seed_same_game(classic: uno_rules.Rulebook) -> None:
    a, b = classic.new_game(4, seed=9), classic.new_game(4, seed=9)
    _play(a, random.Random(1), 300)
    _play(b, random.Random(1), 300)
    assert a.snapshot() == b.snapshot()
    c = classic.new_game(4, seed=10)
    assert c.hands != classic.new_game(4, seed=9).hands


def test_snapshot_restore_continues_identically(classic: uno_rules.Rulebook) -> None:
    game = classic.new_game(4, seed=3)
    _play(game, random.Random(2), 40)
    data = json.loads(json.dumps(game.snapshot()))
    copy = classic.restore(data)
    assert copy.snapshot() == game.snapshot()
    _play(game, random.Random(7), 500)
    _play(copy, random.Random(7), 500)
    assert copy.snapshot() == game.snapshot()


def test_snapshot_mid_effect(classic: uno_rules.Rulebook) -> None:
    game = game_from_position(classic, 3, Position(
        hands=[["wild_draw_four", "red 1"], ["green 3"], ["yellow 4"]], discard=["red 5"],
        draw_pile=["blue 1", "blue 2", "blue 3", "blue 4", "blue 5", "blue 6"]))
    game.apply("0 play wild_draw_four")
    game.apply("0 color green")
    assert game.decision.kind == "challenge"
    copy = classic.restore(game.snapshot())
    copy.apply("1 challenge")
    game.apply("1 challenge")
    assert copy.snapshot() == game.snapshot() and len(copy.hands[0]) == 5


def test_bad_snapshot_is_a_clear_error(classic: uno_rules.Rulebook) -> None:
    snap = classic.new_game(2, seed=1).snapshot()
    with pytest.raises(SnapshotError, match="field 'hands\\[0\\]\\[0\\]': unknown card 'purple 9'"):
        classic.restore({**snap, "hands": [["purple 9"], []]})
    with pytest.raises(SnapshotError, match="format"):
        classic.restore({**snap, "format": 99})


def test_events_in_words(classic: uno_rules.Rulebook) -> None:
    game = game_from_position(classic, 2, Position(hands=[["red 1"], ["green 3"]],
                                                   discard=["red 5"]))
    game.apply("0 play red 1")
    assert game.events[-2:] == ["seat 0 plays red 1", "seat 0 wins the round, 3 points"]
    assert game.result == uno_rules.Result((0,), 3)


def test_teams_of_three(tmp_path) -> None:
    path = tmp_path / "trios.yaml"
    path.write_text("name: trios\nextends: classic\nplayers: {min: 3, max: 9}\n"
                    "team: {size: 3}\ngoing_out: {round_ends: team}\n")
    rb = uno_rules.load_rulebook(path)
    with pytest.raises(IllegalAction, match="is for 6, 9 players, not 4"):
        rb.new_game(4)
    game = game_from_position(rb, 6, Position(
        hands=[["red 1"], ["blue 1"], [], ["green 1"], ["yellow 1"], []], discard=["red 3"],
        draw_pile=["blue 9", "green 9"]))
    assert game.teammates(0) == [0, 2, 4] and game._partner(0) == 2 and game._partner(4) == 0
    game.apply("0 play red 1")
    assert not game.over  # seat 4 still holds a card
    game.apply("1 draw")  # blue 9 can't be played: the turn ends
    game.apply("3 draw")  # seat 2 is out and skipped
    assert game.decision.seat == 4
    game.apply("4 play yellow 1")
    assert game.over and game.result == uno_rules.Result((0, 2, 4), 20)


def test_a_give_started_during_another_give_finishes_first(tmp_path) -> None:
    """A catch during a Passing exchange whose penalty draw triggers another give."""
    path = tmp_path / "generous.yaml"
    path.write_text("name: generous\nextends: teams\n"
                    "after_draw: [{give_cards: {from: self, count: 1}}]\n")
    rb = uno_rules.load_rulebook(path)
    game = game_from_position(rb, 4, Position(
        hands=[["red 5 pass", "red 1"], ["blue 1"], ["green 1", "green 3"], ["yellow 1"]],
        discard=["red 3"], draw_pile=["blue 7", "blue 9"]))
    game.apply("0 play red 5 pass")          # next-to-last card, UNO not called
    assert (game.decision.seat, game.decision.kind) == (0, "give")
    game.apply("1 catch 0")                  # seat 0 draws 2, then must give one card
    assert (game.decision.seat, game.decision.kind) == (0, "give")
    copy = rb.restore(game.snapshot())
    for g in (game, copy):
        g.apply("0 give blue 9")             # the after-draw give
        g.apply("0 give blue 7")             # back to the Passing exchange
        g.apply("2 give green 3")
        assert g.hand(0) == ["green 3", "red 1"] and g.hand(2) == ["blue 7", "blue 9",
                                                                   "green 1"]
        assert g.decision.kind == "turn" and g.decision.seat == 1
        assert g.giving == []


def test_a_give_out_of_place_is_refused_as_such() -> None:
    game = uno_rules.load_rulebook("classic").new_game(3, 1)
    seat = game.decision.seat  # type: ignore[union-attr]
    card = game.hand(seat)[0]
    with pytest.raises(uno_rules.IllegalAction, match="not an option .pending: seat .* to turn"):
        game.apply(uno_rules.Action(seat, "give", card))


# ------------------------------------------------------- the round's budget
def test_a_round_stops_when_its_action_budget_runs_out() -> None:
    game = uno_rules.load_rulebook("classic").new_game(4, 3, max_actions=5)
    rng = random.Random(1)
    while not game.over:
        game.apply(rng.choice(game.decision.options))
    assert len(game.history) == 5 and game.stalled == "actions" and game.result is None
    assert game.decision is None and game.legal_actions() == []
    assert game.stalled_reason() == "the round's budget of 5 actions ran out"
    with pytest.raises(IllegalAction, match="the round is over"):
        game.apply("0 draw")


def test_a_round_stops_when_its_step_budget_runs_out() -> None:
    rulebook = uno_rules.load_rulebook(HOSTILE / "retrigger.yaml")
    game = rulebook.new_game(10, 1, max_steps=50_000)
    rng = random.Random(1)
    while not game.over:
        plays = [a for a in game.decision.options if a.kind == "play"]
        game.apply(rng.choice(plays or list(game.decision.options)))
    assert game.stalled == "steps" and game.result is None and game.steps == 50_000
    assert not game._stack and game.pending is None
    assert game.stalled_reason() == "the round's budget of 50000 effect steps ran out"


def _budgeted(rulebook: uno_rules.Rulebook, actions: list[Action], **budget: int) -> uno_rules.Game:
    """A round of ``rulebook`` (4 players, seed 3) under ``budget``, taking ``actions`` until
    it is over."""
    game = rulebook.new_game(4, 3, **budget)
    for action in actions:
        if game.over:
            break
        game.apply(action)
    return game


def test_a_round_stalls_at_exactly_its_budgets_last_step_and_action() -> None:
    """max_steps=N: the round runs N effect steps, and stops in the action that needs one
    more (not one step or one action earlier or later); max_actions=N: it stops right after
    its N-th action. A budget the whole round fits in changes nothing."""
    rulebook = uno_rules.load_rulebook("classic")
    free, rng = rulebook.new_game(4, 3), random.Random(8)
    actions, steps = [], []  # steps: the round's effect steps after each action
    while not free.over:
        actions.append(rng.choice(free.decision.options))  # type: ignore[union-attr]
        free.apply(actions[-1])
        steps.append(free.steps)
    k = next(i for i in range(1, len(steps)) if steps[i] - steps[i - 1] >= 2)
    for n in (1, steps[k - 1], steps[k - 1] + 1, steps[k] - 1, steps[-1] - 1):
        game = _budgeted(rulebook, actions, max_steps=n)
        stopped_in = next(i for i, s in enumerate(steps) if s > n) + 1  # the action
        assert (game.stalled, game.steps, len(game.history)) == ("steps", n, stopped_in), n
    for n in (1, 2, k, len(actions) - 1):
        game = _budgeted(rulebook, actions, max_actions=n)
        assert (game.stalled, len(game.history), game.steps) == ("actions", n, steps[n - 1])
    for budget in ({"max_steps": steps[-1]}, {"max_actions": len(actions)}):
        game = _budgeted(rulebook, actions, **budget)
        assert game.stalled is None and game.result == free.result, budget


def test_the_default_budget_ends_a_round_that_never_would() -> None:
    from uno_rules.engine.game import GAME_ACTIONS, GAME_STEPS
    from uno_rules.sim.rounds import play_random

    game = play_random(uno_rules.load_rulebook(HOSTILE / "retrigger.yaml"), 10, 1)
    assert game.stalled == "steps" and game.steps == GAME_STEPS
    game = play_random(uno_rules.load_rulebook(HOSTILE / "fat_hands.yaml"), 2, 1)
    assert game.stalled == "actions" and len(game.history) == GAME_ACTIONS


def test_a_round_that_ends_on_its_last_budgeted_action_is_won_not_stalled() -> None:
    rulebook = uno_rules.load_rulebook("classic")
    game = rulebook.new_game(2, 5)
    rng = random.Random(2)
    while not game.over:
        game.apply(rng.choice(game.decision.options))
    again = rulebook.new_game(2, 5, max_actions=len(game.history))
    rng = random.Random(2)
    while not again.over:
        again.apply(rng.choice(again.decision.options))
    assert again.result == game.result and again.stalled is None


def test_the_budget_is_part_of_a_clone_and_the_game_is_unchanged_by_it() -> None:
    rulebook = uno_rules.load_rulebook("classic")
    game = rulebook.new_game(3, 9, max_steps=10**9, max_actions=10**9)
    plain = rulebook.new_game(3, 9)
    _play(game, random.Random(4), 30)
    _play(plain, random.Random(4), 30)
    assert game.snapshot() == plain.snapshot()  # a budget changes nothing until it runs out
    twin = game.clone()
    assert (twin.steps, twin.max_steps, twin.max_actions) == (game.steps, 10**9, 10**9)


def test_a_stalled_round_restores_stalled_and_a_restored_one_keeps_its_action_count() -> None:
    rulebook = uno_rules.load_rulebook("classic")
    game = rulebook.new_game(3, 1, max_actions=4)
    rng = random.Random(1)
    while not game.over:
        game.apply(rng.choice(game.decision.options))
    stalled = rulebook.restore(game.snapshot())  # over, and how it stopped (snapshots.md)
    assert stalled.over and stalled.result is None and stalled.stalled == game.stalled
    assert stalled.stalled_reason() == game.stalled_reason()
    data = game.snapshot()
    del data["stalled"]
    with pytest.raises(SnapshotError, match="a round over with no result"):
        rulebook.restore(data)  # over with no result, and no budget that ran out
    game = rulebook.new_game(3, 1)
    _play(game, rng, 10)
    again = rulebook.restore(game.snapshot())
    assert len(again.history) == 10 and again.max_actions == game.max_actions


def test_view_of_a_seat_that_is_not_at_the_table_is_refused() -> None:
    """view(-1) showed the last seat's hand as seat -1's; view(9) an IndexError."""
    game = uno_rules.load_rulebook("classic").new_game(3, seed=1)
    for seat in (-1, 3, 99, "0", None):
        with pytest.raises(ValueError, match="seats are 0 to 2"):
            game.view(seat)  # type: ignore[arg-type]
    assert game.view(2)["seat"] == 2


# ------------------------------------------------------------------ the integer lane
def _lane_games():
    """Seeded games of rulebooks with every kind of decision and out-of-turn action."""
    for name, house, players in [("classic", ("jump_in", "stacking"), 4), ("teams", (), 4),
                                 ("ted_lasso", (), 3), ("flip", (), 3)]:
        rulebook = uno_rules.load_rulebook(name, house=list(house))
        for seed in range(6):
            yield rulebook, rulebook.new_game(players, seed), random.Random(seed)


def test_legal_ids_are_the_options_and_each_seats_actions() -> None:
    checked = 0
    seen: set[str] = set()
    for rulebook, game, rng in _lane_games():
        table = rulebook.action_table(game.players)
        while not game.over and len(game.history) < 300:
            decision = game.decision
            assert decision is not None
            assert tuple(table[i] for i in game.legal_ids()) == decision.options
            extra = game.out_of_turn_actions()
            assert [table[i] for i in game.out_of_turn_ids()] == extra
            for seat in range(game.players):
                mine = [table[i] for i in game.legal_ids(seat)]
                own = list(decision.options) if decision.seat == seat else []
                others = [a for a in extra if a.seat == seat]
                asked = others or seat in game.asked_seats()  # a window asks it
                passing = [Action(seat, "pass")] if asked and decision.seat != seat else []
                assert mine == own + others + passing
            seen.add(decision.kind)
            seen.update(a.kind for a in extra)
            checked += 1
            _play(game, rng, 1, "uniform")
        if game.over:
            assert game.legal_ids() == () == game.legal_ids(0)
    assert checked > 1000
    assert {"turn", "drawn", "color", "target", "catch", "uno", "jump_in"} <= seen, seen


def test_legal_ids_of_a_seat_not_at_the_table_is_refused(classic: uno_rules.Rulebook) -> None:
    game = classic.new_game(3, seed=1)
    for seat in (3, -1, True, "0"):
        with pytest.raises(ValueError, match="no seat"):
            game.legal_ids(seat)  # type: ignore[arg-type]


def test_seat_getters_refuse_a_seat_not_at_the_table(classic: uno_rules.Rulebook) -> None:
    """hand, team_of and teammates, as view and decision_for: -1 read the last seat's hand,
    True seat 1's, a string or None raised TypeError."""
    game = classic.new_game(3, seed=1)
    for seat in (3, -1, True, "0", None, 1.0):
        for getter in (game.hand, game.team_of, game.teammates, game.view):
            with pytest.raises(ValueError, match=f"no seat {seat!r}: seats are 0 to 2"):
                getter(seat)  # type: ignore[arg-type]
    assert game.hand(2) == sorted(game.faces[c].name for c in game.hands[2])
    assert game.team_of(2) == 2 and game.teammates(2) == [2]


def test_step_takes_the_same_action_as_apply(classic: uno_rules.Rulebook) -> None:
    a, b = classic.new_game(4, seed=3), classic.new_game(4, seed=3)
    table = classic.action_table(4)
    rng = random.Random(3)
    while not a.over:
        ids = a.legal_ids() + tuple(a.out_of_turn_ids())
        pick = ids[rng.randrange(len(ids))]
        a.step(pick)
        b.apply(table[pick])
        assert a.history[-1] is table[pick]  # the interned object, as apply records it
    assert a.snapshot() == b.snapshot() and a.events == b.events


def test_step_of_an_illegal_id_raises_and_changes_nothing() -> None:
    for rulebook, game, rng in _lane_games():
        size = len(rulebook.action_table(game.players))
        for _ in range(12):
            if game.over:
                break
            _play(game, rng, 5, "uniform")
        before = json.dumps(game.snapshot(), sort_keys=True)
        legal = set(game.legal_ids()) | set(game.out_of_turn_ids()) \
            | {i for s in range(game.players) for i in game.legal_ids(s)}  # passes
        bad = [i for i in range(size) if i not in legal][::7]
        for action_id in bad + [-1, size, 10**30, True, 1.0, "3", None]:
            with pytest.raises(IllegalAction) as err:
                game.step(action_id)  # type: ignore[arg-type]
            assert "\n" not in str(err.value)
            assert json.dumps(game.snapshot(), sort_keys=True) == before


def test_step_refusals_say_why(classic: uno_rules.Rulebook) -> None:
    game = classic.new_game(2, seed=1)
    size = len(classic.action_table(2))
    with pytest.raises(IllegalAction, match=f"action id {size}: out of range .* 0 to "
                                            f"{size - 1}"):
        game.step(size)
    with pytest.raises(IllegalAction, match="action_id=True: expected an action id"):
        game.step(True)
    other = 1 - game.decision.seat  # type: ignore[union-attr]
    draw = classic.action_table(2).index(Action(other, "draw"))
    with pytest.raises(IllegalAction, match=f"action id {draw}: {other} draw: not seat "
                                            f"{other}'s decision"):
        game.step(draw)


# ------------------------------------------------------------------ chance nodes
def test_a_contest_is_a_chance_node_and_every_other_decision_a_seats() -> None:
    """In random Ted Lasso rounds every contest shows no seat, its ``chance`` aligned with
    its options and summing to 1, nobody's ``legal_ids(seat)``; every other decision has a
    seat and no ``chance``."""
    rulebook = uno_rules.load_rulebook("ted_lasso")
    contests = decisions = 0
    for seed in range(40):
        game = rulebook.new_game(4, seed)
        rng = random.Random(seed)
        while not game.over:
            decision = game.decision
            assert decision is not None
            decisions += 1
            if decision.kind == "contest":
                contests += 1
                chance = decision.chance
                assert decision.seat is None and chance is not None
                assert len(chance) == len(decision.options) == 2
                assert sum(chance) == 1 and all(p > 0 for p in chance)
                assert {a.kind for a in decision.options} == {"loser"}
                assert all(decision.options[0] not in [rulebook.action_table(4)[i]
                                                       for i in game.legal_ids(s)]
                           for s in range(4))
                assert game.view(seed % 4)["decision"]["options"] == \
                    [str(a) for a in decision.options]  # public outcomes
            else:
                assert decision.seat is not None and decision.chance is None
            _play(game, rng, 1, "uniform")
    assert contests > 20 and decisions > 1000


def test_a_contest_resolves_by_the_callers_draw_and_refuses_others() -> None:
    game = game_from_position(uno_rules.load_rulebook("ted_lasso"), 3, Position(
        hands=[["wild_roy_kent_grunt", "red 1", "red 2"], ["blue 3"], ["green 2"]],
        discard=["red 3"], draw_pile=["blue 7", "green 1", "red 9"]))
    game.apply("0 play wild_roy_kent_grunt")
    game.apply("0 color green")
    game.apply("0 target 2")
    decision = game.decision
    assert decision is not None and decision.seat is None and decision.kind == "contest"
    assert [str(a) for a in decision.options] == ["loser 0", "loser 2"]
    assert decision.chance == (0.5, 0.5)
    assert repr(decision) == "<Decision seat=None kind='contest' options=2>"
    assert repr(game) == "<Game ted_lasso players=3 the table to settle a contest>"
    with pytest.raises(IllegalAction, match=r"loser 1: not an option \(pending: a contest "
                                            r"settled at the table: one of loser 0, loser 2\)"):
        game.apply("loser 1")
    with pytest.raises(IllegalAction, match="0 draw: not an option"):
        game.apply("0 draw")
    pick = decision.options[random.Random(7).randrange(2)]
    game.apply(pick)
    assert game.history[-1] is pick and len(game.hands[pick.arg]) == (4 if pick.arg == 0 else 3)


def test_a_snapshot_in_a_contest_holds_no_seat_and_restores() -> None:
    game = game_from_position(uno_rules.load_rulebook("ted_lasso"), 3, Position(
        hands=[["wild_roy_kent_grunt", "red 1", "red 2"], ["blue 3"], ["green 2"]],
        discard=["red 3"], draw_pile=["blue 7", "green 1", "red 9"]))
    for action in ("0 play wild_roy_kent_grunt", "0 color green", "0 target 2"):
        game.apply(action)
    data = game.snapshot()
    assert data["pending"]["kind"] == "contest" and data["pending"]["seat"] is None
    again = game.restore(game.rulebook, data)
    assert again.decision == game.decision and again.snapshot() == data
    # written before contests were chance nodes: the card's player as its seat
    old = {**data, "pending": {**data["pending"], "seat": 0}}
    assert game.restore(game.rulebook, old).snapshot() == data
    for seat in (1, 2):  # not the card's player: refused
        with pytest.raises(SnapshotError, match="pending.seat.*a contest has no seat"):
            game.restore(game.rulebook, {**data, "pending": {**data["pending"], "seat": seat}})
    classic = uno_rules.load_rulebook("classic")
    turn = classic.new_game(2, 1).snapshot()
    with pytest.raises(SnapshotError, match="pending.seat.*a turn decision with no seat"):
        uno_rules.Game.restore(classic, {**turn, "pending": {**turn["pending"], "seat": None}})


def _documented(heading: str, until: str) -> set[str]:
    """The names in the first column of docs/api.md's table under ``heading``."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()
    return set(re.findall(r"^\| `(\w+)", doc[doc.index(heading):doc.index(until)], re.M))


def test_the_public_face_of_game_is_what_docs_api_lists() -> None:
    """docs/api.md lists Game's public methods and properties, and its readable state; every
    other name a game has (an internal operation, an interpreter record, a derived table)
    starts with an underscore: a new public attribute not in the docs fails here."""
    from uno_rules.engine.game import Game

    methods = _documented("## Methods and properties", "## The state, readable")
    state = _documented("## The state, readable", "### The card table")
    assert not methods & state
    game = uno_rules.load_rulebook("classic").new_game(4, seed=1)
    for names in (dir(Game), dir(game)):  # the class's, and an instance's (its fields)
        public = {n for n in names if not n.startswith("_")}
        assert public == methods | state, \
            (sorted(public - methods - state), sorted((methods | state) - public))
    assert state - {"FIELDS", "DERIVED"} <= {f.name for f in Game.FIELDS}  # declared state


# ------------------------------------------------------- pass, and acting as a seat
def _seat_games():
    """Seeded rounds with out-of-turn windows of every kind: jump-ins (classic with the
    ``jump_in`` house rule), UNO calls for a partner (Teams), catches (all), No Mercy."""
    for name, house, players in [("classic", ("jump_in",), 4), ("teams", (), 4),
                                 ("no_mercy", (), 4), ("ted_lasso", (), 3)]:
        rulebook = uno_rules.load_rulebook(name, house=list(house))
        for seed in range(5):
            yield rulebook, rulebook.new_game(players, seed), random.Random(seed)


def test_pass_is_offered_exactly_when_a_seat_may_act_out_of_turn_and_changes_nothing() -> None:
    offered: dict[str, int] = {}
    refused = 0
    for rulebook, game, rng in _seat_games():
        table = rulebook.action_table(game.players)
        while not game.over and len(game.history) < 250:
            decision = game.decision
            assert decision is not None
            before = json.dumps(game.snapshot(), sort_keys=True)
            counts = (len(game.history), len(game.log or []), game.steps)
            extra = game.out_of_turn_actions()
            for seat in range(game.players):
                mine = [a for a in extra if a.seat == seat]
                expected = (bool(mine) or seat in game.asked_seats()) and decision.seat != seat
                pass_id = table.index(Action(seat, "pass"))
                assert (pass_id in game.legal_ids(seat)) == expected
                assert Action(seat, "pass") not in game.legal_actions()  # the referee's list
                if expected:
                    for kind in {a.kind for a in mine}:
                        offered[kind] = offered.get(kind, 0) + 1
                    game.apply(f"{seat} pass")
                    game.step(pass_id)
                    game.apply(Action(seat, "pass"), seat=seat)
                    game.step(pass_id, seat=seat)
                else:
                    refused += 1
                    with pytest.raises(IllegalAction, match=f"^{seat} pass: seat {seat} can't "
                                                            "pass: it (is its own decision|has "
                                                            "no out-of-turn action now)$"):
                        game.apply(f"{seat} pass")
                    with pytest.raises(IllegalAction, match=f"^action id {pass_id}: "):
                        game.step(pass_id)
            # passing changed nothing: not in the history, not logged, no step counted
            assert json.dumps(game.snapshot(), sort_keys=True) == before
            assert (len(game.history), len(game.log or []), game.steps) == counts
            _play(game, rng, 1, "uniform")
    assert {"jump_in", "catch", "uno"} <= set(offered) and min(offered.values()) >= 3, offered
    assert refused > 1000


def test_pass_of_a_seat_not_at_the_table_or_after_the_round_is_refused(
        classic: uno_rules.Rulebook) -> None:
    game = classic.new_game(2, seed=1)
    with pytest.raises(IllegalAction, match="^5 pass: no seat 5 at the table$"):
        game.apply("5 pass")
    with pytest.raises(IllegalAction, match="malformed action: pass takes no argument"):
        game.apply(Action(0, "pass", "red 5"))
    _play(game, random.Random(1), 10_000, "uniform")
    assert game.over
    with pytest.raises(IllegalAction, match="^0 pass: the round is over$"):
        game.apply("0 pass")


def _card_names(game: uno_rules.engine.game.Game, cards: object) -> set[str]:
    return {game.faces[c].name for c in cards}  # type: ignore[attr-defined]


def _hidden_from(game: uno_rules.engine.game.Game, seat: int) -> set[str]:
    """Names of cards only others hold or the draw pile hides: in no public pile and not
    in ``seat``'s hand."""
    unseen = set().union(*(_card_names(game, h) for s, h in enumerate(game.hands) if s != seat))
    unseen |= _card_names(game, game.draw_pile)
    seen = _card_names(game, game.hands[seat]) | _card_names(game, game.discard)
    return unseen - seen


def _any_name(names: set[str]) -> re.Pattern[str]:
    """A pattern finding any of ``names`` as a whole name (``wild`` not in ``wild_draw_four``)."""
    alternatives = "|".join(map(re.escape, sorted(names, key=len, reverse=True))) or "(?!)"
    return re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])")


def test_acting_as_a_seat_refuses_others_actions_and_never_names_an_unseen_card() -> None:
    """With seat=, an action in another seat's name is refused before its cards are looked
    at; refusals of the seat's own actions name only cards it can see. The referee's
    apply (no seat) still says what a hand lacks: the probe seat= closes."""
    probes = refusals = 0
    for rulebook, game, rng in _seat_games():
        table = rulebook.action_table(game.players)
        names = sorted({f.name for f in rulebook.faces})
        for turn in range(40):
            if game.over:
                break
            if turn % 4:  # every fourth state is probed (a thousand refusals each)
                _play(game, rng, 1, "uniform")
                continue
            decision = game.decision
            assert decision is not None
            before = json.dumps(game.snapshot(), sort_keys=True)
            for seat in range(game.players):
                hidden = _hidden_from(game, seat)
                unseen = _any_name(hidden)
                legal = {table[i] for i in game.legal_ids(seat)}
                tries = [Action(s, kind, n) for s in range(game.players)
                         for kind in ("play", "give", "jump_in") for n in names[seat::4]]
                tries += [Action(s, k) for s in range(game.players) for k in ("draw", "keep")]
                for action in tries:
                    if action in legal:
                        continue
                    with pytest.raises(IllegalAction) as err:
                        game.apply(action, seat=seat)
                    # the card the seat named itself may be repeated ("... is not in seat
                    # 0's hand": its own): any other card named must be one it can see
                    message = str(err.value).replace(str(action), "")
                    message = message.replace(f"{action.arg} ", "").replace(f" {action.arg}", "")
                    assert not unseen.search(message), (str(err.value), hidden)
                    if action.seat != seat:
                        assert str(err.value) == f"{action}: not an action of seat {seat}, " \
                                                 f"acting as seat {seat}"
                        with pytest.raises(IllegalAction, match="not an action of seat"):
                            game.step(table.index(action), seat=seat)
                    refusals += 1
            assert json.dumps(game.snapshot(), sort_keys=True) == before
            # the referee's API without a seat: a decider's missing card is named
            deciding = decision.seat
            if deciding is not None and decision.kind == "turn":
                missing = sorted(hidden - _card_names(game, game.hands[deciding]))
                if missing:
                    with pytest.raises(IllegalAction, match=f"is not in seat {deciding}'s hand"):
                        game.apply(Action(deciding, "play", missing[0]))
                    probes += 1
            ids = game.legal_ids()
            pick = ids[rng.randrange(len(ids))]
            actor = table[pick].seat
            if actor is None:
                game.step(pick)
            else:  # the decider's own option, taken as that seat
                game.step(pick, seat=actor)
    assert refusals > 2000 and probes > 10, (refusals, probes)


def test_acting_as_a_seat_takes_the_same_game_as_the_referee() -> None:
    for rulebook, game, rng in _seat_games():
        twin = game.clone()
        table = rulebook.action_table(game.players)
        while not game.over and len(game.history) < 200:
            ids = game.legal_ids()
            pick = ids[rng.randrange(len(ids))]
            seat = table[pick].seat
            game.step(pick)
            if seat is None:
                twin.apply(table[pick])
            else:
                twin.apply(str(table[pick]), seat=seat)
        assert twin.snapshot() == game.snapshot() and twin.history == game.history


def test_a_bad_acting_seat_is_refused(classic: uno_rules.Rulebook) -> None:
    game = classic.new_game(3, seed=1)
    before = game.snapshot()
    option = game.decision.options[0]  # type: ignore[union-attr]
    for seat in (3, -1, True, "0", 1.0):
        with pytest.raises(IllegalAction, match=r"^seat=.*: expected a seat 0-2, or None"):
            game.apply(option, seat=seat)
        with pytest.raises(IllegalAction, match=r"^action id \d+: seat=.*: expected a seat"):
            game.step(game.legal_ids()[0], seat=seat)
    assert game.snapshot() == before


def test_decision_for_hides_the_options_of_another_seats_decision() -> None:
    kinds: set[str] = set()
    contests = 0
    for _rulebook, game, rng in _seat_games():
        while not game.over and len(game.history) < 250:
            decision = game.decision
            assert decision is not None
            for seat in range(game.players):
                mine = game.decision_for(seat)
                assert mine is not None
                if decision.seat == seat or decision.kind == "contest":
                    assert mine == decision  # its own, or a chance node's public outcomes
                else:
                    assert (mine.seat, mine.kind, mine.options) == (decision.seat,
                                                                    decision.kind, ())
                    assert game.view(seat)["decision"]["options"] is None
            contests += decision.kind == "contest"
            kinds.add(decision.kind)
            _play(game, rng, 1, "uniform")
        if game.over:
            assert game.decision_for(0) is None
    assert {"turn", "color", "give", "target"} <= kinds and contests > 0, kinds
    with pytest.raises(ValueError, match="no seat"):
        game.decision_for(9)


def test_after_a_give_only_giver_and_receiver_can_tell_which_card_it_was() -> None:
    """Two Teams games alike but for the card given: every other seat's per-seat API
    (view, legal_ids, decision_for) is the same in both; the giver's and receiver's views
    differ. The referee's history names the card (documented omniscient)."""
    rulebook = uno_rules.load_rulebook("teams")
    found = 0
    for seed in range(40):
        game = rulebook.new_game(4, seed)
        rng = random.Random(seed)
        while not game.over and len(game.history) < 400:
            decision = game.decision
            assert decision is not None
            if decision.kind == "give" and len(decision.options) > 1:
                break
            _play(game, rng, 1, "uniform")
        else:
            continue
        giver = decision.seat
        assert giver is not None
        first, second = game.clone(), game.clone()
        first.apply(decision.options[0], seat=giver)
        second.apply(decision.options[1], seat=giver)
        # the gives of a deal are handed over together: finish them alike in both games
        while not first.over and first.decision.kind == "give":  # type: ignore[union-attr]
            action = first.decision.options[0]  # type: ignore[union-attr]
            first.apply(action, seat=action.seat)
            second.apply(str(action), seat=action.seat)
        assert not first.giving and not second.giving
        receiver, = (s for s in game.teammates(giver) if s != giver)
        for seat in range(4):
            same = (first.view(seat) == second.view(seat) and
                    first.legal_ids(seat) == second.legal_ids(seat) and
                    first.decision_for(seat) == second.decision_for(seat))
            assert same == (seat not in (giver, receiver)), (seed, seat, giver, receiver)
        assert first.history != second.history  # the referee's record names the card
        found += 1
        if found == 5:
            break
    assert found == 5


@pytest.mark.parametrize("base", ["ted_lasso", "classic"])
def test_each_discard_pile_starts_on_a_card_its_first_card_rules_allow(
        tmp_path: Path, base: str) -> None:
    """A first card put aside (`turn_again`) is replaced on its own pile, and the replacement's
    first-card rules act on that pile too: with several discard piles no pile starts on a card
    that the rules turn over (Ted Lasso: any action card; classic: a Wild Draw Four)."""
    path = tmp_path / "three_piles.yaml"
    path.write_text(f"name: three_piles\nextends: {base}\ndiscard_piles: 3\n")
    rulebook = uno_rules.load_rulebook(path)
    for seed in range(300):
        game = rulebook.new_game(4, seed)
        tops = [game.faces[pile[-1]] for pile in game._discard_piles()]
        if base == "ted_lasso":
            assert all(face.number for face in tops), (seed, [f.name for f in tops])
        else:
            assert all(face.id != "wild_draw_four" for face in tops), (seed, [f.name for f in tops])
        assert sorted(game._all_cards()) == sorted(rulebook.deck), seed
