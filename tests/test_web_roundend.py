"""The end of a round on the page's API (uno_rules/web/view.py, games.py; docs/web.md, "The
end of a round"): every hand shown with its points once the round is over (never before),
the scores as the match scores them, the next round keeping them, and "play again"."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from test_web_games import answer, create, finish, pick
from web_client import local_client

import uno_rules
from uno_rules.play.match import Match

MATCH = {"rulebook": "classic", "players": 3, "humans": [0], "seed": 7}


def to_round_end(c: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    """Answers until a round is over (a match's next_round, or the game's end); on the way,
    no state shows a hand but the seat's own."""
    while state["prompt"] is not None and state["prompt"]["kind"] != "next_round":
        assert state["round_end"] is None and '"hands"' not in json.dumps(state)
        state = answer(c, state, pick(state))
    return state


def check_hands(end: dict[str, Any], players: int) -> None:
    """Every seat's hand, card by card with its points, and its total; the winners' empty."""
    assert [h["seat"] for h in end["hands"]] == list(range(players))
    for hand in end["hands"]:
        assert hand["points"] == sum(card["points"] for card in hand["cards"])
        assert all(card["name"] and card["rank"] for card in hand["cards"])
        assert hand["winner"] == (hand["seat"] in end["winners"])
        if hand["winner"]:
            assert hand["cards"] == []
    # classic scores winner_takes: the winner gets the points left in the others' hands
    assert end["points"] == sum(h["points"] for h in end["hands"]) > 0


def test_one_round_ends_with_every_hand_and_the_scores_it_is_worth(tmp_path: Path) -> None:
    c = local_client(tmp_path)
    state = finish(c, create(c, rulebook="classic", players=3, humans=[0], seed=5,
                             round=True))
    end = state["round_end"]
    assert state["status"] == "over" and end["one_round"] and end["round"] == 1
    check_hands(end, 3)
    (winner,) = end["winners"]
    expected = [end["points"] if s == winner else 0 for s in range(3)]
    assert state["scores"] == end["scores"] == expected  # not 0 for everyone
    assert state["result"]["text"] == f"round 1 over: seat {winner} wins {end['points']} points"
    assert end["match_winners"] == [] and end["match_text"] is None


def test_a_match_round_end_scores_as_the_match_does_and_the_next_round_keeps_them(
        tmp_path: Path) -> None:
    c = local_client(tmp_path)
    state = to_round_end(c, create(c, **MATCH))
    assert state["prompt"]["kind"] == "next_round" and state["status"] == "playing"
    end = state["round_end"]
    check_hands(end, 3)
    assert not end["one_round"] and end["round"] == 1 and state["round"] == 2
    # the CLI's match scoring: the same match played by uno_rules.play.match
    store = c.app.state.games  # type: ignore[attr-defined]
    game = store.live[state["game"]].session.ended.game
    match = Match(uno_rules.load_rulebook("classic"), 3, MATCH["seed"])
    for action in game.history:
        match.game.apply(action)
    match.next_round()
    assert state["scores"] == end["scores"] == match.scores and max(match.scores) > 0
    assert any("wins the round" in line for line in state["log"])  # the round just over's
    assert local_client(tmp_path).get(f"/api/games/{state['game']}").json() == state  # restored
    state = answer(c, state, "")  # next round: dealt, the hands hidden again
    assert state["round_end"] is None and state["round"] == 2
    assert state["scores"] == end["scores"] and len(state["view"]["hand"]) == 7
    assert '"hands"' not in json.dumps(state)
    assert state["seats"] == ["human", "greedy", "greedy"]


def test_a_match_end_says_who_won_the_match(tmp_path: Path) -> None:
    c = local_client(tmp_path)
    state = create(c, **MATCH, set={"target_score": 1})
    state = finish(c, state)
    end = state["round_end"]
    assert state["status"] == "over" and end["match_winners"] == end["winners"]
    (winner,) = end["winners"]
    assert end["match_text"] == f"seat {winner} wins the match"
    assert state["result"]["text"].endswith(f"; seat {winner} wins the match")
    assert state["result"]["winners"] == [winner]


def test_play_again_is_a_new_game_made_the_same_way(tmp_path: Path) -> None:
    c = local_client(tmp_path)
    text = "extends: classic\nsettings:\n  target_score: 1\n"
    first = finish(c, create(c, text=text, players=3, humans=[0, 2], agents="uniform"))
    r = c.post(f"/api/games/{first['game']}/again")
    assert r.status_code == 201, r.text
    again = r.json()
    assert again["game"] != first["game"] and again["version"] == 0
    assert again["seats"] == first["seats"] == ["human", "uniform", "human"]
    assert again["one_round"] is False and again["target"] == 1
    assert again["scores"] == [0, 0, 0] and again["round_end"] is None
    assert c.post("/api/games/000000000000/again").status_code == 404
