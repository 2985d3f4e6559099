"""One seat's view (uno_rules/engine/view.py): the frozen record every form of a seat's view
derives from, and the give-hiding rule written once."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any, ClassVar

import pytest

import uno_rules
from uno_rules.engine.actions import Action
from uno_rules.engine.game import Game
from uno_rules.engine.view import SeatView, hides, seen, seen_actions, view_dict
from uno_rules.play.agents import observation
from uno_rules.rl.gymnasium import UnoEnv
from uno_rules.rl.observation import Observer
from uno_rules.rl.openspiel import public_history
from uno_rules.table.replay import action_seen
from uno_rules.table.screen import event_lines, label

PACKAGE = Path(uno_rules.__file__).resolve().parent
BOOKS = [("classic", ()), ("flip", ()), ("teams", ()), ("no_mercy", ()), ("classic_2018", ()),
         ("classic", ("seven_zero", "jump_in"))]


def random_games(name: str, house: tuple[str, ...], count: int = 6) -> list[Game]:
    rb = uno_rules.load_rulebook(name, house=house)
    players = 4 if 4 in rb.player_counts() else min(rb.player_counts())
    games = []
    for seed in range(count):
        game, rng = rb.new_game(players, seed), random.Random(seed)
        for _ in range(rng.randrange(60)):
            if game.over:
                break
            game.apply(rng.choice(game.legal_actions()))
        games.append(game)
    return games


@pytest.mark.parametrize(("name", "house"), BOOKS)
def test_the_view_is_made_from_the_seat_view_and_the_observation_holds_no_more(
        name: str, house: tuple[str, ...]) -> None:
    for game in random_games(name, house):
        observer = Observer(game.rulebook, game.players)
        table = game.rulebook.action_table(game.players)
        for seat in range(game.players):
            view = game.seat_view(seat)
            assert isinstance(view, SeatView)
            assert view_dict(view, game.rulebook, table) == game.view(seat)
            assert observer.encode(game, seat) == observer.encode(
                game.resample(seat, random.Random(seat)), seat)  # what the view holds


@pytest.mark.parametrize(("name", "house"), BOOKS)
def test_the_seat_view_holds_nothing_the_seat_can_not_see(
        name: str, house: tuple[str, ...]) -> None:
    """The same view for every deal of the cards it can't see (game.resample keeps the
    seat's information and re-deals the rest), and its options only when its own."""
    for i, game in enumerate(random_games(name, house)):
        for seat in range(game.players):
            view = game.seat_view(seat)
            other = game.resample(seat, random.Random(i))
            assert other.seat_view(seat) == view
            pending = game.pending
            mine = pending is not None and pending.seat in (seat, None)
            assert (view.options is not None) == mine


def test_the_give_hiding_rule() -> None:
    give = Action(1, "give", "red 5")
    assert [hides(give.kind, give.seat, s) for s in (None, 0, 1, 2)] == \
        [False, True, False, True]
    assert seen(give, 0) == Action(1, "give", None) and seen(give, 1) is give
    play = Action(1, "play", "red 5")
    assert seen(play, 0) is play
    assert seen_actions([give, play], 2) == [Action(1, "give", None), play]


class Recorder:
    """An opponent keeping every observation (class-wide), choosing its first option."""

    seen: ClassVar[list[Any]] = []

    def __init__(self, seat: int, rng: random.Random) -> None:
        pass

    def choose(self, obs: Any) -> int:
        Recorder.seen.append(obs)
        return obs.ids[0]


def _given(game: Game) -> tuple[Action, str]:
    """Seat 0's give, taken: the action and its card."""
    decision = game.decision
    assert decision is not None and decision.kind == "give" and decision.seat == 0
    action = decision.options[0]
    game.apply(action)
    return action, str(action.arg)


def test_a_given_card_is_seen_by_its_giver_only_in_every_form() -> None:
    """Seat 0 gives a card to its partner, seat 2: the giver sees the card in every form of
    its view; the receiver (it finds it in its hand later) and a third seat never do."""
    game = uno_rules.load_rulebook("teams").new_game(4, 3)
    action, card = _given(game)
    for seat, sees in ((0, True), (1, False), (2, False), (3, False)):
        obs = observation(game, seat, game.legal_ids(seat), None, 0)
        assert (obs.events[0].arg == card) is sees
        assert (public_history(game, seat)[0] == str(action)) is sees
        assert (action_seen({"action": str(action)}, seat) == str(action)) is sees
        assert (label(card) in event_lines(game, 0, seat)[-1]) is sees
    # the gymnasium env's opponents are shown the same
    Recorder.seen.clear()
    env = UnoEnv("teams", 4, opponents=Recorder, seat=3)
    env.reset(seed=3)
    gives = [(obs.seat, e) for obs in Recorder.seen for e in obs.events if e.kind == "give"]
    assert gives
    assert all((e.arg is not None) == (e.seat == seat) for seat, e in gives)


def test_the_give_hiding_rule_is_written_once() -> None:
    """No module but engine/view.py compares a give's seat with the viewing seat: a form of
    the view that did would hide (or show) a given card by a rule of its own."""
    pattern = re.compile(r'kind\s*==\s*"give"\s+and\s+\S*seat\S*\s*!=\s*seat'
                         r'|"give".{0,40}!= seat|seat != .{0,20}"give"')
    written = [str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
               if pattern.search(path.read_text())]
    assert written == ["engine/view.py"]
