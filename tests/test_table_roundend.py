"""The end of a round and the turn-by-turn screen at the terminal table
(uno_rules/table/summary.py, session.py, screen.py; docs/table.md): every hand with its
points at a round's end, the scores, one round saying so, skips said, the whole table only
at a round's first question and on ``look``/``table``."""

from __future__ import annotations

import re

from click.testing import CliRunner
from table_driver import Player, run

import uno_rules
from uno_rules.cli import cli
from uno_rules.play.agents import load_agent
from uno_rules.play.match import Match
from uno_rules.table.session import HUMAN, Session

HAND = re.compile(r"  seat (\d+)( \(winner\))?: (\d+) points(?:: (.*)| \(no cards\))$")


def said(player: Player) -> list[str]:
    return [line for turn in player.turns for line in turn.screen] + player.screen


def summary(lines: list[str], round_no: int) -> tuple[int, int, dict[int, int]]:
    """The round's summary in ``lines``: its winner, its points and each seat's total
    (checked to be the sum of its cards' points, as written)."""
    head = next(i for i, line in enumerate(lines) if line.startswith(f"round {round_no} over"))
    found = re.fullmatch(r"round \d+ over: seat (\d+) wins (\d+) points", lines[head])
    assert found, lines[head]
    totals, winner = {}, int(found.group(1))
    joined: list[str] = []  # a long hand is wrapped onto lines indented further
    for line in lines[head + 1:]:
        if line.startswith("      ") and joined:
            joined[-1] += " " + line.strip()
        else:
            joined.append(line)
    for line in joined:
        got = HAND.match(line)
        if got is None:
            break
        seat, total = int(got.group(1)), int(got.group(3))
        assert bool(got.group(2)) == (seat == winner)
        cards = re.findall(r"\((\d+)\)", got.group(4) or "")
        assert sum(map(int, cards)) == total, line
        totals[seat] = total
    return winner, int(found.group(2)), totals


def test_a_rounds_end_shows_every_hand_with_its_points_and_the_scores() -> None:
    session, player = run("classic", 3, 11, [0], one_round=True)
    lines = said(player)
    winner, points, totals = summary(lines, 1)
    assert sorted(totals) == [0, 1, 2] and totals[winner] == 0
    assert points == sum(totals.values()) > 0  # classic: the others' hands are the points
    game = session.match.game
    assert {s: sum(game.faces[c].points for c in game.hands[s]) for s in range(3)} == totals
    scores = [points if s == winner else 0 for s in range(3)]
    assert lines[-1] == "scores (one round, as a match would count it): " + "   ".join(
        f"seat {s}: {v}" for s, v in enumerate(scores))


def test_a_match_shows_each_rounds_summary_then_the_match_scores() -> None:
    session, player = run("classic", 2, 3, [0])
    lines = said(player)
    rounds = session.match.rounds
    assert rounds > 1
    score = [0, 0]
    for r in range(1, rounds + 1):
        winner, points, _ = summary(lines, r)
        score[winner] += points
        head = lines.index(next(line for line in lines if line.startswith(f"round {r} over")))
        after = next(line for line in lines[head:] if line.startswith("scores: "))
        assert after == f"scores: seat 0: {score[0]}" + (" (won)" if r == rounds and
                                                          score[0] >= 500 else "") + \
            f"   seat 1: {score[1]}" + (" (won)" if r == rounds and score[1] >= 500 else "")
    assert score == session.match.scores
    assert lines[-1].startswith("match won by seat ")


def test_one_round_says_so_and_never_speaks_of_a_match() -> None:
    got = CliRunner().invoke(cli, ["play", "classic", "--players", "2", "--humans", "0",
                                   "--seed", "3", "--round"], input="1\n" * 300)
    assert got.exit_code == 0, got.output
    assert "one round (not a match)" in got.output
    assert "match:" not in got.output and "first to 500" not in got.output
    assert "scores (one round, as a match would count it)" in got.output
    match = CliRunner().invoke(cli, ["play", "classic", "--players", "2", "--humans", "0",
                                     "--seed", "3"], input="1\n" * 40)
    assert "match: round 1, first to 500" in match.output


def test_a_skipped_seat_is_said() -> None:
    """Two players: a skip, a reverse, a draw two and a wild draw four each skip the other
    seat, and the table says so right after the card (and its draws); nothing else does."""
    _, player = run("classic", 2, 5, [0], sets={"target_score": 300})
    lines = said(player)
    skips = 0
    for i, line in enumerate(lines):
        played = re.fullmatch(r"seat (\d) plays (.*)", line)
        if played is None:
            continue
        seat, card = int(played.group(1)), played.group(2)
        rest = lines[i + 1:i + 6]
        if any("wins the round" in r for r in rest[:2]):
            continue  # the last card: no turn after it
        told = f"seat {1 - seat} is skipped"
        if card.endswith(("skip", "reverse", "draw two")):
            assert told in rest[:3], (line, rest)
            skips += 1
        elif not card.startswith("wild"):  # a number: the turn passes
            assert "is skipped" not in " ".join(rest[:1]), (line, rest)
    assert skips >= 3
    assert all(re.fullmatch(r"seat [01] is skipped", line)
               for line in lines if "is skipped" in line)


class Looker(Player):
    """The test player, typing ``look`` once at its third question."""

    def answer(self, prompt: str) -> str:
        if len(self.turns) == 2:
            return "look"
        return super().answer(prompt)


def test_the_whole_table_comes_at_the_rounds_start_and_on_look_only() -> None:
    rb = uno_rules.load_rulebook("classic")
    match = Match(rb, 3, 11)
    player = Looker()
    session = Session(match, [HUMAN, "greedy", "greedy"], {"greedy": load_agent("greedy")},
                      player.ask, player.say, one_round=True)
    player.session = session
    session.run()
    whole = [k for k, turn in enumerate(player.turns)
             if any(line.startswith("play goes") for line in turn.screen)]
    assert whole == [0, 3]  # the round's first question, and the answer to "look"
    assert "one round (not a match)" in player.turns[3].screen
    for turn in player.turns[1:3] + player.turns[4:]:  # between: a few lines
        if turn.prompt.startswith("seat 0>"):
            assert any(line.startswith("top card: ") and "cards: seat 0 (you)" in line
                       for line in turn.screen), turn.screen
            assert len([line for line in turn.screen if not line.startswith("seat ")]) < 12
    assert player.turns[3].prompt == player.turns[2].prompt  # asked again, nothing taken
