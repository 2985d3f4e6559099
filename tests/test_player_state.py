"""Per-player state (`player_state`): carried by clones, snapshots, views, the event log;
refused when a snapshot or a position gives a value the rulebook doesn't declare."""

from __future__ import annotations

from pathlib import Path

import pytest

import uno_rules
from uno_rules.engine.errors import IllegalAction, SnapshotError
from uno_rules.engine.position import Position, game_from_position
from uno_rules.engine.snapshot import digest

HERE = Path(__file__).resolve().parent
JOKER = HERE / "rulebooks" / "positive" / "joker_state.yaml"
POSITION = Position(hands=[["red skip", "red 2"], ["blue 1", "blue 2"], ["green 1", "green 2"]],
                    discard=["red 3"], player_state={"joker": ["used", "held", "used"]})


def _game() -> uno_rules.Game:
    return game_from_position(uno_rules.load_rulebook(JOKER), 3, POSITION, seed=1)


def test_a_snapshot_carries_it_and_restores_it() -> None:
    game = _game()
    snap = game.snapshot()
    assert snap["player_state"] == {"joker": ["used", "held", "used"]}
    again = game.rulebook.restore(snap)
    assert again._marks == game._marks == [1, 0, 1]
    assert again.snapshot() == snap


def test_a_snapshot_with_an_undeclared_value_is_refused() -> None:
    snap = _game().snapshot()
    snap["player_state"] = {"joker": ["used", "lost", "used"]}
    with pytest.raises(SnapshotError, match="joker"):
        uno_rules.load_rulebook(JOKER).restore(snap)


def test_a_clone_has_its_own() -> None:
    game = _game()
    twin = game.clone()
    twin.apply(twin.legal_actions()[0])
    twin._set_mark(1, "joker", 1)
    assert game._marks == [1, 0, 1] and twin._marks == [1, 1, 1]


def test_the_view_shows_every_seat_s() -> None:
    game = _game()
    assert game.view(1)["player_state"] == {"joker": ["used", "held", "used"]}
    assert game.seat_view(2).marks == (1, 0, 1)


def test_a_change_is_logged_in_words() -> None:
    game = _game()
    game.apply(uno_rules.Action(0, "play", "red skip"))
    assert "seat 1's joker is used" not in game.events  # seat 0 held none: one skip
    game = game_from_position(uno_rules.load_rulebook(JOKER), 3, Position(
        hands=POSITION.hands, discard=["red 3"]), seed=1)
    game.apply(uno_rules.Action(0, "play", "red skip"))
    assert "seat 0's joker is used" in game.events


def test_a_position_with_an_undeclared_key_is_refused() -> None:
    with pytest.raises(IllegalAction, match="no per-player state 'jokr'"):
        game_from_position(uno_rules.load_rulebook(JOKER), 3, Position(
            hands=POSITION.hands, discard=["red 3"], player_state={"jokr": ["held"] * 3}))


def test_rulebooks_without_it_keep_their_digest_and_snapshot() -> None:
    classic = uno_rules.load_rulebook("classic")
    assert classic.player_state == ()
    assert "player_state" not in classic.new_game(4, seed=1).snapshot()
    assert "player_state" not in classic.new_game(4, seed=1).view(0)
    assert digest(classic) != digest(uno_rules.load_rulebook(JOKER))


def test_the_observation_shows_each_seat_s_value_one_hot() -> None:
    from uno_rules.rl.observation import Observer
    game = _game()  # jokers: used, held, used
    obs = Observer(game.rulebook, 3)
    seg = obs.segment("player_state")
    assert seg.length == 3 * 2
    part = obs.encode(game, 1)[seg.offset:seg.offset + seg.length]
    # relative to seat 1: itself (held), seat 2 (used), seat 0 (used)
    assert part == [1, 0, 0, 1, 0, 1]
    assert "player_state" not in [s.name for s in Observer(
        uno_rules.load_rulebook("classic"), 3).spaces]
