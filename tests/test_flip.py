"""UNO Flip (RULES.md §7): what scenario files can't express.

Views (each seat sees its own hand on the side in play and the other side of the others'
cards and of the draw pile's top card, nothing more), the deck on both sides, card
conservation over both sides in random rounds at 2..10 players, determinism,
snapshot/restore and ``clone`` on the dark side and in the middle of a flip.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import uno_rules
from uno_rules import Action, Game
from uno_rules.engine.position import Position, game_from_position
from uno_rules.play.match import Match
from uno_rules.sim.simulate import random_moves

RB = uno_rules.load_rulebook("flip")
RB_DIR = Path(uno_rules.__file__).resolve().parent / "rulebooks"
LIGHT, DARK = RB.sides.index("light"), RB.sides.index("dark")
VIEW_KEYS = {"seat", "side", "hand", "hand_sizes", "top", "color", "direction",
             "draw_pile_size", "discard_size", "stacked_draw", "uno_open", "out",
             "knocked_out", "absent", "decision", "over", "result", "other_side"}


def face(card: int, side: int) -> str:
    """The name of ``card``'s face on ``side``."""
    return RB.side_faces[side][card].name


def position(**kw: Any) -> Game:
    players = len(kw["hands"])
    return game_from_position(RB, players, Position(**kw), 0)


def table() -> Game:
    """A small light-side position whose face names are all distinct."""
    return position(
        hands=[["red flip // pink 2", "red 4 // teal 9"],
               ["blue 1 // purple 4", "green 2 // pink 8"],
               ["yellow 3 // orange 7", "yellow 5 // teal 1"]],
        discard=["green 7 // purple 6", "red 3 // pink 9"],
        draw_pile=["blue 9 // pink 5", "yellow 9 // teal 3", "green 8 // orange 2"])


def strings(data: Any) -> list[str]:
    """Every string in a view, card names of options included."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in strings(v)]
    if isinstance(data, list | tuple):
        return [s for v in data for s in strings(v)]
    return []


def shown_names(view: dict[str, Any]) -> set[str]:
    out = set(strings({k: v for k, v in view.items() if k != "decision"}))
    options = (view["decision"] or {}).get("options") or []
    out |= {str(Action.parse(o).arg) for o in options}
    return out


def check_view(game: Game, seat: int) -> None:
    """``seat``'s view against the state: own hand on the side in play, the others' hands
    and the draw pile's top on the other side, nothing else of what is hidden."""
    view = game.view(seat)
    back = 1 - game.side
    assert set(view) == VIEW_KEYS
    assert view["side"] == RB.sides[game.side]
    assert view["hand"] == sorted(face(c, game.side) for c in game.hands[seat])
    assert view["hand_sizes"] == [len(h) for h in game.hands]
    other = view["other_side"]
    assert other["side"] == RB.sides[back]
    assert other["hands"] == [None if s == seat else sorted(face(c, back) for c in h)
                              for s, h in enumerate(game.hands)]
    assert other["draw_pile_top"] == (face(game.draw_pile[-1], back) if game.draw_pile
                                      else None)
    decision = view["decision"]
    if decision is not None and decision["seat"] != seat:
        assert decision["options"] is None


# ----------------------------------------------------------------------------- the deck
def test_the_deck_on_each_side() -> None:
    """112 double-sided cards; each side has the composition and points of RULES.md §7."""
    assert len(RB.deck) == 112
    light = Counter(face(c, LIGHT) for c in RB.deck)
    dark = Counter(face(c, DARK) for c in RB.deck)
    for counts, colors, actions, wilds in (
            (light, ["red", "yellow", "green", "blue"],
             ["draw_one", "reverse", "skip", "flip"], ["wild", "wild_draw_two"]),
            (dark, ["pink", "teal", "orange", "purple"],
             ["draw_five", "reverse", "skip_everyone", "flip"], ["wild", "wild_draw_color"])):
        want = {f"{c} {r}": 2 for c in colors for r in [*map(str, range(1, 10)), *actions]}
        want |= {w: 4 for w in wilds}
        assert dict(counts) == want
    points = {"draw_one": 10, "draw_five": 20, "reverse": 20, "skip": 20, "flip": 20,
              "skip_everyone": 30, "wild": 40, "wild_draw_two": 50, "wild_draw_color": 60}
    for card in RB.deck:
        for side in (LIGHT, DARK):
            f = RB.side_faces[side][card]
            rank = f.name.split()[-1]
            assert f.points == (int(rank) if rank.isdigit() else points[rank]), f.name


def test_every_physical_card_has_one_face_per_side() -> None:
    for card in RB.deck:
        light, dark = RB.cards[card]
        assert RB.faces[light].side == LIGHT and RB.faces[dark].side == DARK
        assert RB.card_name(card) == f"{face(card, LIGHT)} // {face(card, DARK)}"


def test_the_pairing_is_a_rulebook_setting(tmp_path: Path) -> None:
    """Which dark face backs which light face is an assumption stated in the rulebook
    (`pairing.shift`): another shift pairs the faces otherwise, with the same faces."""
    text = (RB_DIR / "flip.yaml").read_text()
    assert "pairing: {shift: 41}" in text
    other = tmp_path / "flip_other_pairing.yaml"
    other.write_text(text.replace("pairing: {shift: 41}", "pairing: {shift: 0}"))
    rb = uno_rules.load_rulebook(other)
    names = sorted(rb.card_name(c) for c in rb.deck)
    assert names != sorted(RB.card_name(c) for c in RB.deck)
    assert Counter(n.split(" // ")[0] for n in names) == \
        Counter(face(c, LIGHT) for c in RB.deck)
    assert Counter(n.split(" // ")[1] for n in names) == \
        Counter(face(c, DARK) for c in RB.deck)


def test_a_new_round_starts_on_the_light_side_never_on_a_flip_or_wild_draw_two() -> None:
    for players in (2, 3, 6, 10):
        for seed in range(40):
            game = RB.new_game(players, seed)
            assert RB.sides[game.side] == "light"
            assert game.top is not None
            assert game.top.split()[-1] not in ("flip", "wild_draw_two"), (players, seed)
            assert sorted(game._all_cards()) == sorted(RB.deck)


# ---------------------------------------------------------------------------- the views
def test_view_shows_own_hand_and_the_other_side_of_the_rest() -> None:
    game = table()
    view = game.view(0)
    assert view["side"] == "light"
    assert view["hand"] == ["red 4", "red flip"]
    assert view["top"] == "red 3" and view["color"] == "red"
    assert view["other_side"] == {"side": "dark",
                                  "hands": [None, ["pink 8", "purple 4"], ["orange 7", "teal 1"]],
                                  "draw_pile_top": "pink 5"}
    assert sorted(view["decision"]["options"]) == ["0 draw", "0 play red 4", "0 play red 4 uno",
                                                   "0 play red flip", "0 play red flip uno"]
    shown = shown_names(view)
    # Hidden from seat 0: the light faces of the others' cards, the dark faces of its own
    # cards (turned away from it), the light face of the draw pile's top, every other card
    # of the draw pile, the dark faces of the discard pile.
    for hidden in ("blue 1", "green 2", "yellow 3", "yellow 5", "pink 2", "teal 9",
                   "blue 9", "yellow 9", "teal 3", "green 8", "orange 2", "purple 6", "pink 9"):
        assert hidden not in shown, hidden
    for seat in range(3):
        check_view(game, seat)
    other = game.view(1)
    assert other["hand"] == ["blue 1", "green 2"]
    assert other["other_side"]["hands"] == [["pink 2", "teal 9"], None, ["orange 7", "teal 1"]]
    assert other["decision"] == {"seat": 0, "kind": "turn", "options": None}
    assert "red 4" not in shown_names(other) and "purple 4" not in shown_names(other)


def test_view_after_a_flip_shows_the_dark_side_and_the_light_backs() -> None:
    game = table()
    game.apply("0 play red flip uno")
    view = game.view(1)
    assert view["side"] == "dark"
    assert view["hand"] == ["pink 8", "purple 4"]
    assert view["top"] == "purple 6" and view["color"] == "purple"
    # the draw pile was reversed: its old bottom card is on top, its light face showing
    assert view["other_side"] == {"side": "light",
                                  "hands": [["red 4"], None, ["yellow 3", "yellow 5"]],
                                  "draw_pile_top": "green 8"}
    shown = shown_names(view)
    for hidden in ("blue 1", "green 2", "teal 9", "orange 7", "teal 1", "orange 2", "pink 5",
                   "teal 3", "blue 9", "yellow 9"):
        assert hidden not in shown, hidden
    for seat in range(3):
        check_view(game, seat)
    # and back to light: the views turn again
    game.apply("1 play purple 4")
    game.apply("2 draw")          # orange 2, not playable on purple 4: kept
    assert game.view(2)["hand"] == ["orange 2", "orange 7", "teal 1"]
    assert game.view(0)["other_side"]["hands"][2] == ["green 8", "yellow 3", "yellow 5"]
    for seat in range(3):
        check_view(game, seat)


def test_view_while_the_flipper_chooses_the_colour_of_a_turned_up_wild() -> None:
    game = position(hands=[["red flip", "red 1", "red 2"], ["yellow 1", "yellow 2"],
                           ["green 1", "green 2"]],
                    discard=["red 9 // wild", "red 3"], draw_pile=["blue 9 // teal 4"])
    game.apply("0 play red flip")
    view = game.view(0)
    assert view["side"] == "dark" and view["top"] == "wild" and view["color"] is None
    assert view["decision"] == {"seat": 0, "kind": "color",
                                "options": ["0 color pink", "0 color teal", "0 color orange",
                                            "0 color purple"]}
    assert game.view(1)["decision"]["options"] is None
    for seat in range(3):
        check_view(game, seat)


def test_views_in_random_rounds() -> None:
    """Every seat's view matches the state at every step, across flips both ways."""
    flips = 0
    for players, seed in ((2, 11), (3, 12), (5, 13), (10, 14)):
        game = RB.new_game(players, seed)
        rng = random.Random(seed)
        side = game.side
        for _ in range(1500):
            for seat in range(players):
                check_view(game, seat)
            if game.over:
                break
            random_moves(game, rng, 1, "play_first")
            flips += game.side != side
            side = game.side
    assert flips >= 4, "the random rounds should flip a few times"


# ---------------------------------------------------------------------- random rounds
def choose(game: Game, rng: random.Random) -> Action:
    """A random legal action, out-of-turn ones included; mostly a play when there is one
    (rounds that mostly draw run long)."""
    options = game.legal_actions()
    plays = [a for a in options if a.kind == "play"]
    return rng.choice(plays if plays and rng.random() < 0.8 else options)


def _play(game: Game, rng: random.Random, limit: int = 3000) -> tuple[list[Action], int]:
    """Random legal actions (out-of-turn ones included) with card conservation checked
    after every one; returns the actions and how many times the side changed."""
    full = sorted(RB.deck)
    actions: list[Action] = []
    flips = 0
    for _ in range(limit):
        assert sorted(game._all_cards()) == full, "a card was lost or duplicated"
        if game.over:
            break
        side = game.side
        action = choose(game, rng)
        game.apply(action)
        actions.append(action)
        flips += game.side != side
    assert sorted(game._all_cards()) == full
    return actions, flips


@pytest.mark.parametrize("players", range(2, 11))
def test_card_conservation_over_both_sides(players: int) -> None:
    flips = 0
    for seed in range(4):
        game = RB.new_game(players, 100 * players + seed)
        _, n = _play(game, random.Random(seed))
        flips += n
        if game.over:
            assert game.result is not None
            winner = game.result.winners[0]
            assert not game.hands[winner]
            assert game.result.points == sum(game.faces[c].points for h in game.hands
                                             for c in h)
    assert flips > 0, "no flip happened: the dark side went untested"


def test_same_seed_same_actions_same_game() -> None:
    a = RB.new_game(4, 2024)
    actions, flips = _play(a, random.Random(7))
    assert flips > 0
    b = RB.new_game(4, 2024)
    for action in actions:
        b.apply(action)
    assert b.snapshot() == a.snapshot()
    assert b.events == a.events
    assert any("turned over: the dark side" in e for e in a.events)


def test_every_flip_in_random_rounds_turns_the_piles_and_hands_over() -> None:
    """Whenever a Flip is played (not as the last card): the discard pile with the Flip on
    top is reversed, the draw pile is reversed, the hands hold the same cards, the side
    changes, the colour is the new top's (or the flipper is asked for one), and the seat
    after the flipper plays next."""
    seen = 0
    for players in (2, 3, 4, 6, 10):
        for seed in range(6):
            game = RB.new_game(players, 7000 + 10 * players + seed)
            rng = random.Random(seed)
            for _ in range(3000):
                if game.over:
                    break
                action = choose(game, rng)
                card = None
                if action.kind == "play":
                    card = game._card_named(action.seat, str(action.arg))
                if card is None or RB.side_faces[game.side][card].name.split()[-1] != "flip":
                    game.apply(action)
                    continue
                side, seat = game.side, action.seat
                discard, pile = game.discard + [card], game.draw_pile[:]
                hands = [sorted(h) for h in game.hands]
                hands[seat].remove(card)
                game.apply(action)
                if game.over:
                    continue
                seen += 1
                assert game.side == 1 - side
                assert game.discard == discard[::-1]
                assert game.draw_pile == pile[::-1]
                assert [sorted(h) for h in game.hands] == hands
                top = game.faces[game.discard[-1]]
                assert top.name == face(discard[0], game.side)
                if top.color >= 0:
                    assert game.color == top.color
                    assert game.decision.kind == "turn"
                    assert game.decision.seat == game._advance(seat, 1)
                else:
                    assert game.decision.kind == "color" and game.decision.seat == seat
                    assert {str(a.arg) for a in game.decision.options} == \
                        {RB.colors[c] for c in RB.side_colors[game.side]}
    assert seen > 30


def _first_dark(players: int, seed: int) -> tuple[Game, random.Random]:
    """A random round played up to the first moment the dark side is in play."""
    game = RB.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if game.side == DARK or game.over:
            break
        random_moves(game, rng, 1, "play_first")
    assert game.side == DARK and not game.over, "pick a seed whose round flips"
    return game, rng


def _continue_both(a: Game, b: Game, seed: int) -> None:
    """Apply the same random actions to both games; they must stay equal throughout."""
    rng = random.Random(seed)
    for _ in range(3000):
        assert a.snapshot() == b.snapshot()
        assert a.legal_actions() == b.legal_actions()
        if a.over:
            break
        action = choose(a, rng)
        a.apply(action)
        b.apply(action)
    assert a.snapshot() == b.snapshot() and a.events[-5:] == b.events[-5:]


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 5), (4, 8), (7, 1)])
def test_snapshot_restore_on_the_dark_side_continues_identically(players: int,
                                                                  seed: int) -> None:
    game, _ = _first_dark(players, seed)
    data = json.loads(json.dumps(game.snapshot()))
    assert data["side"] == "dark"
    restored = RB.restore(data)
    assert restored.side == DARK
    assert restored.snapshot() == game.snapshot()
    for seat in range(players):
        assert restored.view(seat) == game.view(seat)
    _continue_both(game, restored, seed)


def test_snapshot_restore_at_every_step_of_rounds_with_flips() -> None:
    flips = 0
    for players, seed in ((3, 41), (3, 42), (5, 43)):
        game = RB.new_game(players, seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if game.over:
                break
            data = game.snapshot()
            restored = RB.restore(json.loads(json.dumps(data)))
            assert restored.snapshot() == data
            assert restored.legal_actions() == game.legal_actions()
            side = game.side
            action = choose(game, rng)
            game.apply(action)
            restored.apply(action)
            assert restored.snapshot() == game.snapshot()
            flips += game.side != side
    assert flips > 1


def test_snapshot_restore_while_a_turned_up_wild_waits_for_its_colour() -> None:
    game = position(hands=[["red flip", "red 1", "red 2"], ["yellow 1", "yellow 2"],
                           ["green 1", "green 2"]],
                    discard=["red 9 // wild", "red 3"],
                    draw_pile=["blue 9 // teal 4", "blue 8 // pink 4"])
    game.apply("0 play red flip")
    assert game.decision.kind == "color" and game.side == DARK
    restored = RB.restore(json.loads(json.dumps(game.snapshot())))
    assert restored.decision == game.decision
    for g in (game, restored):
        g.apply("0 color teal")
    assert restored.snapshot() == game.snapshot()
    assert restored.color_name == "teal" and restored.decision.seat == 1
    _continue_both(game, restored, 9)


def test_clone_after_a_flip_continues_identically() -> None:
    game, _ = _first_dark(4, 8)
    clone = game.clone()
    assert clone.side == DARK and clone.snapshot() == game.snapshot()
    _continue_both(game, clone, 4)


def test_clone_is_independent_of_the_original() -> None:
    game = table()
    clone = game.clone()
    clone.apply("0 play red flip uno")
    assert clone.side == DARK and game.side == LIGHT
    assert game.top == "red 3" and clone.top == "purple 6"
    assert game.view(0)["hand"] == ["red 4", "red flip"]
    assert clone.view(0)["hand"] == ["teal 9"]
    game.apply("0 draw")
    assert len(clone.draw_pile) == 3 and len(game.draw_pile) == 2


def test_a_flip_is_an_event_in_words() -> None:
    game = table()
    game.apply("0 play red flip uno")
    assert game.events[-2:] == ["seat 0 plays red flip",
                                "every card is turned over: the dark side is in play"]


def test_a_match_deals_every_round_on_the_light_side() -> None:
    """Match as classic: each round starts light, whatever side the last one ended on, and
    the winner scores the round's points (counted on the side it ended on)."""
    match = Match(RB, 3, seed=5)
    rng = random.Random(5)
    ended_dark = 0
    for _ in range(200):
        game = match.game
        assert game.side == LIGHT and len(game.discard) == 1
        _play(game, rng)
        assert game.over and game.result is not None
        ended_dark += game.side == DARK
        before = match.scores[:]
        winner = match.seats[game.result.winners[0]]
        if match.next_round() is None:
            break
        assert match.scores[winner] == before[winner] + game.result.points
    assert match.over and max(match.scores) >= 500
    assert ended_dark > 0
