"""The round's state: clone(), pickling and deep copies continue exactly like the original."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

import uno_rules
from uno_rules.sim.simulate import random_moves

VARIANTS = [("classic", ()), ("teams", ()), ("no_mercy", ()),
            ("classic", ("stacking", "seven_zero", "jump_in"))]


def _state(game: uno_rules.Game) -> str:
    return json.dumps(game.snapshot(), sort_keys=True)


def _midgame(name: str, house: tuple[str, ...], seed: int) -> uno_rules.Game:
    rulebook = uno_rules.load_rulebook(name, house=house)
    players = rulebook.player_counts()[0 if seed % 2 else -1]
    game = rulebook.new_game(players, seed)
    random_moves(game, random.Random(seed), 15 + seed % 40, "uniform")
    return game


@pytest.mark.parametrize(("name", "house"), VARIANTS)
@pytest.mark.parametrize("seed", range(4))
def test_clone_continues_like_the_original(name: str, house: tuple[str, ...],
                                           seed: int) -> None:
    game = _midgame(name, house, seed)
    before = _state(game)
    twin = game.clone()
    assert type(twin) is uno_rules.Game and twin is not game
    assert _state(twin) == before
    random_moves(twin, random.Random(99), 300, "uniform")   # the clone moves on...
    assert _state(game) == before                            # ...the original does not
    again = game.clone()
    random_moves(game, random.Random(7), 300, "uniform")
    random_moves(again, random.Random(7), 300, "uniform")
    assert _state(again) == _state(game)
    assert again.events == game.events


def test_clone_shares_nothing_mutable() -> None:
    game = _midgame("classic", ("stacking",), 3)
    twin = game.clone()
    for name in ("hands", "draw_pile", "discard", "_out", "_stack", "_out_seats", "eliminated",
                 "giving", "history", "log"):
        assert getattr(twin, name) is not getattr(game, name), name
    assert all(a is not b for a, b in zip(twin.hands, game.hands, strict=True))
    assert twin.rulebook is game.rulebook   # immutable: shared


def test_clone_shares_the_generator_until_one_draws() -> None:
    game = _midgame("classic", (), 3)
    state = game._rng.getstate()
    twin = game.clone()
    mine = twin._own_rng()  # the one about to draw: a copy of its own, in the same state
    assert mine is not game._rng and mine.getstate() == state
    mine.random()
    assert game._rng.getstate() == state and game._own_rng() is not mine
    again = game.clone()
    before = again.snapshot()
    assert game._reshuffle()  # the game shuffles: the clone sharing its generator isn't moved
    assert again.snapshot() == before and game._rng.getstate() != state


@pytest.mark.parametrize(("name", "house"), VARIANTS)
def test_rulebook_pickles(name: str, house: tuple[str, ...]) -> None:
    rulebook = uno_rules.load_rulebook(name, house=house)
    copied = pickle.loads(pickle.dumps(rulebook))
    assert copied == rulebook and type(copied) is type(rulebook)
    assert copied.new_game(rulebook.player_counts()[0], 5).snapshot() == \
        rulebook.new_game(rulebook.player_counts()[0], 5).snapshot()
    with pytest.raises(TypeError):
        copied.programs[0][0].args["x"] = 1  # type: ignore[index]  # read-only


@pytest.mark.parametrize(("name", "house"), VARIANTS)
def test_game_pickles_and_deep_copies(name: str, house: tuple[str, ...]) -> None:
    game = _midgame(name, house, 2)
    for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert _state(twin) == _state(game)
        random_moves(twin, random.Random(3), 200, "uniform")
        mine = game.clone()
        random_moves(mine, random.Random(3), 200, "uniform")
        assert _state(twin) == _state(mine)
    assert copy.deepcopy(game).rulebook is game.rulebook


def test_options_offer_each_face_once_on_cards_with_sides() -> None:
    rulebook = uno_rules.load_rulebook("flip")
    for seed in range(30):
        game = rulebook.new_game(4, seed)
        random_moves(game, random.Random(seed), seed * 3, "uniform")
        if game.over:
            continue
        options = game.decision.options  # type: ignore[union-attr]
        assert len(set(options)) == len(options), options


def test_declared_piles_are_state_like_any_other() -> None:
    """A set-aside pile is counted, copied, snapshotted and restored with the rest."""
    from pathlib import Path

    path = Path(__file__).parent / "rulebooks" / "positive" / "aside_pile.yaml"
    rulebook = uno_rules.load_rulebook(path)
    used = 0
    for seed in range(40):
        game = rulebook.new_game(4, seed)
        random_moves(game, random.Random(seed), 600, "uniform")
        assert sorted(game._all_cards()) == sorted(rulebook.deck)
        used += bool(game._piles[0])
        twin = game.clone()
        assert twin._piles == game._piles and twin._piles[0] is not game._piles[0]
        restored = rulebook.restore(json.loads(json.dumps(game.snapshot())))
        assert restored._piles == game._piles
        if game._piles[0]:
            assert game.view(0)["piles"] == {"aside": len(game._piles[0])}
    assert used, "no game set a hand aside: the test checks nothing"


def test_lay_out_is_the_one_way_to_place_cards() -> None:
    """Positions and restored snapshots place cards through State.lay_out, which keeps the
    pile in focus and its colour consistent and refuses a layout the rulebook can't have."""
    rulebook = uno_rules.load_rulebook("classic")
    game = uno_rules.Game.blank(rulebook, 2, 1)
    red5, blue7, green2 = (rulebook.by_name[n] for n in ("red 5", "blue 7", "green 2"))
    game._lay_out([[blue7], []], [green2], [[red5]], [rulebook.color_ids["red"]])
    assert game.discard == [red5] and game._discards[0] is game.discard
    assert game.color == rulebook.color_ids["red"]
    assert game._out_seats == [1]  # no cards at the start: out already
    with pytest.raises(ValueError, match="2 discard piles and 2 colours"):
        game._lay_out([[], []], [], [[red5], [blue7]], [0, 3])
    with pytest.raises(ValueError, match="1 declared piles for 0"):
        game._lay_out([[], []], [], [[red5]], [0], piles=[[blue7]])


def test_a_snapshot_with_the_wrong_discard_piles_is_refused() -> None:
    from pathlib import Path

    from uno_rules.engine.errors import SnapshotError

    path = Path(__file__).parent.parent / "examples" / "two_piles.yaml"
    rulebook = uno_rules.load_rulebook(path)
    snap = rulebook.new_game(3, 4).snapshot()
    with pytest.raises(SnapshotError, match="field .discards.: expected a list of 2, got 3 items"):
        rulebook.restore({**snap, "discards": [*snap["discards"], []],
                          "colors": [*snap["colors"], -1]})


@pytest.mark.parametrize(("name", "house"), VARIANTS + [("pokemon", ()), ("flip", ())])
def test_copies_share_the_rulebook_tables_and_keep_nothing_else_of_them(
        name: str, house: tuple[str, ...]) -> None:
    """The tables derived from the rulebook (interned actions, matching cards) are shared by
    its games, made again (not copied) in a clone, a deep copy or an unpickled game."""
    game = _midgame(name, house, 1)
    for twin in (game.clone(), copy.deepcopy(game)):
        assert twin._acts is game._acts and twin._matches is game._matches
    assert not set(game.__getstate__()) & game.DERIVED
    restored = pickle.loads(pickle.dumps(game))
    assert restored._acts is restored.rulebook.memo["seat_actions", game.players]
    if not game.over:
        assert restored.decision == game.decision


def test_a_pickled_rulebook_leaves_its_derived_tables_behind() -> None:
    rulebook = uno_rules.load_rulebook("classic")
    before = len(pickle.dumps(rulebook))
    game = rulebook.new_game(4, 3)
    random_moves(game, random.Random(3), 30, "uniform")
    assert rulebook.memo  # the tables were made...
    assert len(pickle.dumps(rulebook)) == before  # ...and are not shipped
    copied = pickle.loads(pickle.dumps(rulebook))
    # only the digest travels (a string the compiled-rulebook cache keeps with the entry)
    assert set(copied.memo) <= {"digest"} and copied == rulebook
    assert copied.new_game(4, 3).snapshot() == rulebook.new_game(4, 3).snapshot()


# ------------------------------------------------------------------ the declared fields
def _seen(value: object) -> object:
    """A field's value as plain data, records and card contexts included (to compare two
    states field by field)."""
    from uno_rules.engine.records import Ask, Ctx, Frame, Giving, Resume, StackedDraw

    if isinstance(value, list | tuple):
        return [_seen(v) for v in value]
    if isinstance(value, Ctx):
        return ("ctx", value.to_json())
    if isinstance(value, Frame):
        return ("frame", value.program, value.pc, _seen(value.ctx))
    if isinstance(value, Resume):
        return ("resume", _seen(value.ask))
    if isinstance(value, Ask):
        return (value.kind, value.seat, _seen(value.ctx), value.data())
    if isinstance(value, Giving):
        return ("giving", value.queue, value.aside, value.together)
    if isinstance(value, StackedDraw):
        return ("stacked", value.total, value.value, _seen(value.ctx), value.penalty)
    if isinstance(value, random.Random):
        return value.getstate()
    return value


def _states() -> list[uno_rules.Game]:
    """States between them holding every declared field away from its default: the recorded
    snapshots (frames, a resume frame, giving, a stacked draw, two discard piles, Flip's dark
    side) and games played on, to their end, into a stall, with budgets of their own."""
    from pathlib import Path

    root = Path(__file__).parent.parent
    out = []
    for path in sorted((root / "tests" / "golden" / "snapshots").glob("*.json")):
        data = json.loads(path.read_text())
        name = data["rulebook"]
        rb = uno_rules.load_rulebook(root / name if "/" in name else name,
                                     house=tuple(data["house"]))
        out.append(rb.restore(data["snapshot"]))
    for name, house in VARIANTS:
        rb = uno_rules.load_rulebook(name, house=house)
        game = rb.new_game(rb.player_counts()[-1], 11, dealer=1, max_steps=90_000,
                           max_actions=900)
        random_moves(game, random.Random(5), 40, "uniform")
        out.append(game)
        ended = game.clone()
        random_moves(ended, random.Random(5), 900, "play_first")
        out.append(ended)
    mercy = uno_rules.load_rulebook("no_mercy")
    for seed in range(40):  # a hand set aside on the declared pile (knocked out)
        game = mercy.new_game(2, seed)
        random_moves(game, random.Random(seed), 400, "uniform")
        if any(game._piles):
            out.append(game)
            break
    flex = uno_rules.load_rulebook("flex")
    for seed in range(40):  # a Power Card turned red (per-player state)
        game = flex.new_game(3, seed)
        random_moves(game, random.Random(seed), 30, "play_first")
        if any(game._marks):
            out.append(game)
            break
    triple = uno_rules.load_rulebook("triple_play")  # pile counters: pressed, some closed
    game = triple.new_game(3, 1)
    random_moves(game, random.Random(1), 30, "play_first")
    out.append(game)
    stalled = uno_rules.load_rulebook("classic").new_game(4, 2, max_actions=3)
    random_moves(stalled, random.Random(2), 5, "uniform")
    boxed = uno_rules.load_rulebook("classic").new_game(3, 4)  # cards out of play: only a
    boxed._out = boxed.draw_pile[:5]                           # position sets them
    del boxed.draw_pile[:5]
    midway = out[1].clone()  # frames.json: mid-effect, where a skip and a next turn may wait
    assert midway.pending.kind != "turn" and midway.hands[1]
    midway._skips, midway._turn_to, midway._uno_open = [0], 1, 1
    absent = uno_rules.load_rulebook("classic").new_game(4, 3, out=[1])  # out of a match
    owed = _owing()
    several = uno_rules.load_rulebook(str(root / "tests" / "rulebooks" / "positive" /
                                          "several_plays.yaml")).new_game(2, 1)
    while not several._played_piles:  # a turn of several plays under way
        several.apply(several.legal_actions()[0])
    chosen = uno_rules.load_rulebook("classic").new_game(2, 6)  # an adapter's choosers set
    chosen.chance, chosen.limit_chance = _top_card_stays, _first_limit  # (OpenSpiel's, as data)
    chosen.offer_unplayable = True  # (OpenSpiel's rounds)
    return [*out, stalled, boxed, midway, absent, owed, several, chosen]


def _top_card_stays(pile: list[int]) -> None:
    """A card chooser (State.chance) that keeps the pile's own top card: module-level, so a
    game holding it pickles."""


def _first_limit(weights: list[int]) -> int:
    """A pile-limit chooser (State.limit_chance): the first of the weights' values."""
    return 0


def _owing() -> uno_rules.Game:
    """All Wild: a Forced Swap leaves its target at one card, owing its own UNO call."""
    from uno_rules.engine.position import Position, game_from_position

    game = game_from_position(uno_rules.load_rulebook("all_wild"), 3, Position(
        hands=[["wild_forced_swap", "wild_skip"], ["wild", "wild", "wild"], ["wild", "wild"]],
        discard=["wild"]), seed=3)
    game.apply("0 play wild_forced_swap uno")
    game.apply("0 target 1")
    assert game._owed == [1]
    return game


def test_the_declared_fields_are_the_fields_a_state_has() -> None:
    """state.STATE_FIELDS (and Game's own, GAME_FIELDS) is every attribute there is: one
    added outside the list fails here."""
    from uno_rules.engine.game import Game
    from uno_rules.engine.snapshot import state_field_problems
    from uno_rules.engine.state import State, field_names

    for cls in (State, Game):
        names = [f.name for f in cls.FIELDS]
        assert len(names) == len(set(names))
        assert set(field_names(cls)) == set(names)
    game = uno_rules.load_rulebook("classic").new_game(2, 1)
    assert all(hasattr(game, f.name) for f in Game.FIELDS)  # each set by __init__
    assert state_field_problems() == []


def test_clone_and_snapshot_reproduce_every_declared_field() -> None:
    """Each declared field differs from a blank game's (classic, 2 players) in some state
    here, and a clone, a pickle and a snapshot restored (the fields a snapshot holds) give it
    back; what a clone copies it does not share."""
    from uno_rules.engine.game import Game
    from uno_rules.engine.state import LIST, LISTS, REBUILT, RECORDS

    states = _states()
    fields = [f for f in Game.FIELDS if f.copy != REBUILT]
    blank = Game.blank(uno_rules.load_rulebook("classic"), 2)
    for f in fields:  # the test means something for each field
        assert any(_seen(getattr(g, f.name)) != _seen(getattr(blank, f.name))
                   for g in states), \
            f"no state here has {f.name} away from its default"
    for game in states:
        twin, pickled = game.clone(), pickle.loads(pickle.dumps(game))
        restored = type(game).restore(game.rulebook, game.snapshot())  # a stalled one too
        for f in fields:
            mine = _seen(getattr(game, f.name))
            assert _seen(getattr(twin, f.name)) == mine, f"clone: {f.name}"
            assert _seen(getattr(pickled, f.name)) == mine, f"pickle: {f.name}"
            if f.snapshot:
                assert _seen(getattr(restored, f.name)) == mine, f"restore: {f.name}"
            if f.copy in (LIST, LISTS, RECORDS) and getattr(game, f.name) is not None \
                    and f.name not in ("_ctx", "pending"):
                assert getattr(twin, f.name) is not getattr(game, f.name), f.name
        assert twin.discard is twin._discards[twin._focus]
        assert restored.discard is restored._discards[restored._focus]


def test_a_catch_whose_penalty_asks_first_resumes_the_decision_after() -> None:
    """In teams, catching a seat whose partner is out: its penalty's after-draw steps (give
    half its hand) ask first, over a Resume frame; once given, the turn pending comes back."""
    from uno_rules.engine.records import Resume

    rulebook = uno_rules.load_rulebook("teams")
    game = rulebook.new_game(4, 3)
    rng = random.Random(3)
    while game.pending.kind != "turn" or game.giving:
        random_moves(game, rng, 1, "play_first")
    seat, saved = game.pending.seat, game.pending
    target, partner = (seat + 1) % 4, (seat + 3) % 4
    game.draw_pile[0:0] = game.hands[partner] + game.hands[target][1:]  # cards kept
    game.hands[partner] = []
    del game.hands[target][1:]
    game._out_seats, game._uno_open, game._decision = [partner], target, None
    game.apply(uno_rules.Action(seat, "catch", target))
    assert [type(f) for f in game._stack] == [Resume] and game._stack[0].ask is saved
    assert game.decision.kind == "give" and game.decision.seat == target
    twin = game.clone()
    for g in (game, twin):
        g.apply(g.decision.options[0])
        assert g._stack == [] and g.pending is not None and g.decision.kind == "turn"
        assert g.decision.seat == seat


@pytest.mark.parametrize("seed", [0, 1, 7, 2**200])
def test_shuffle_draws_what_random_shuffle_draws(seed: int) -> None:
    """state.shuffle (the engine's, compiled in the fast build) leaves every list in the
    order random.Random.shuffle would, and the generator in the same state after."""
    from uno_rules.engine.state import shuffle

    ours, theirs = random.Random(seed), random.Random(seed)
    for size in [*range(0, 70), 107, 108, 112, 168, 255, 256, 257, 1000]:
        a, b = list(range(size)), list(range(size))
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b, size
        assert ours.getstate() == theirs.getstate(), size
