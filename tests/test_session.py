"""The table's session loop (uno_rules/table/session.py), driven in-process through its
ask/say callables; tests/test_play.py drives the real command in a pseudo-terminal."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_driver import run

import uno_rules
from uno_rules.engine.position import Position, game_from_position
from uno_rules.play.agents import load_agent, play_agents_on
from uno_rules.play.match import Match
from uno_rules.table.screen import Style, table_lines
from uno_rules.table.session import HUMAN, Session

# Classic, 3 players, target 100, play_first agents: found by a search (the scripted
# player at seat 0 names a wild's colour, challenges a Wild Draw Four, calls UNO, is
# caught once and catches an agent, in a two-round match).
MATCH = dict(rulebook="classic", players=3, seed=27, humans=[0],
             sets={"target_score": 100}, agents="play_first")


def _said(session_args: dict[str, object], replies: list[str | None]) -> tuple[Session, list[str]]:
    """A session answering ``replies`` in order (None: the input runs out)."""
    said: list[str] = []
    it: Iterator[str | None] = iter(replies)
    match = session_args.pop("match")
    assert isinstance(match, Match)
    session = Session(match, ask=lambda prompt: next(it, None), say=said.append,
                      **session_args)  # type: ignore[arg-type]
    session.outcome = session.run()  # type: ignore[attr-defined]
    return session, said


def test_a_whole_match_against_agents() -> None:
    session, player = run(**MATCH)  # type: ignore[arg-type]
    match = session.match
    assert match.over and match.rounds == 2 and match.winners
    answers = [t.answer for t in player.turns]
    screen = [line for t in player.turns for line in t.screen] + player.screen
    assert any(a in ("red", "yellow", "green", "blue") for a in answers)
    chosen = next(a for a in answers if a in ("red", "yellow", "green", "blue"))
    assert f"seat 0 chooses {chosen}" in screen
    assert "challenge" in answers and any(line.startswith("seat 0 challenges seat")
                                          for line in screen)
    assert any(a.endswith(" uno") for a in answers)
    assert any("catches seat 0 without UNO" in line for line in screen)
    assert any(a.startswith("catch ") for a in answers) and \
        any(line.startswith("seat 0 catches seat") for line in screen)
    assert any(t.prompt.startswith("press Enter to deal round 2") for t in player.turns)
    assert any(line.startswith("match won by seat") for line in player.screen)


def test_agents_alone_play_what_play_agents_on_plays() -> None:
    """No human: each round is the round play_agents_on plays (the same agents, seeded the
    same, asked in the same order; a contest drawn with the same table RNG)."""
    rb = uno_rules.load_rulebook("ted_lasso", house=["jump_in"])
    match = Match(rb, 3, 5)
    first = match.game.clone()
    session, said = _said(dict(match=match, seats=["greedy"] * 3,
                               agents={"greedy": load_agent("greedy")}, one_round=True), [])
    play_agents_on(rb, first, [("greedy", load_agent("greedy"))] * 3)
    assert session.match.game.history == first.history and first.over
    assert any(line.startswith("round 1 over") for line in said[-5:])


def test_hot_seat_hides_each_hand_from_the_other() -> None:
    session, player = run("classic", 3, 4, [0, 2], one_round=True)
    passes = [t for t in player.turns if t.prompt == "" and t.screen and
              t.screen[-1].startswith("pass to seat")]
    assert len(passes) >= 4
    facing = None
    for t in player.turns:
        if t.screen and t.screen[-1].startswith("pass to seat"):
            facing = int(t.screen[-1].split()[3])
        elif t.prompt.startswith("seat "):
            assert int(t.prompt.split()[1].rstrip(">")) == facing
            assert f"your hand (seat {facing}, " in "\n".join(t.screen)
            other = 2 - facing
            assert f"your hand (seat {other}" not in "\n".join(t.screen)


def test_the_hot_seat_window_for_out_of_turn_chances() -> None:
    """With jump-ins in the rules the window opens after every card played (whether a
    human can jump in is private); a seat with nothing to do is told so only after the
    keyboard is passed to it."""
    rb = uno_rules.load_rulebook("classic", house=["jump_in"])

    def dealt(hand_0: list[str]) -> Match:
        match = Match(rb, 3, 2)
        match.game = game_from_position(rb, 3, Position(
            hands=[hand_0, ["red 5", "green 1", "green 2"], ["yellow 1", "yellow 2"]],
            discard=["red 3"], turn=1, draw_pile=["yellow 7", "yellow 8", "yellow 9"]), seed=2)
        return match

    window = "out of turn (catch UNO, jump in)? type your seat number, or press Enter to go on: "
    # seat 2 is next to play: its own chances come in its prompt, not the window
    session, said = _said(dict(match=dealt(["blue 5", "blue 9"]), seats=[HUMAN, "greedy", HUMAN],
                               agents={"greedy": load_agent("greedy")}, one_round=True),
                          ["2", "0", "", "", "q"])
    assert said[:2] == ["seat 1 plays red 5", "a seat number: 0; or Enter"]
    assert said.index("pass to seat 0 — press Enter") < said.index(
        "seat 0: nothing to do out of turn now")
    assert session.outcome.how == "quit"  # type: ignore[attr-defined]
    match = dealt(["red 5", "blue 9"])
    asked: list[str] = []
    replies = iter(["0", "", "jump in red 5", "q"])

    def ask(prompt: str) -> str | None:
        asked.append(prompt)
        return next(replies, None)

    lines: list[str] = []
    session = Session(match, [HUMAN, "greedy", HUMAN], {"greedy": load_agent("greedy")},
                      ask, lines.append, one_round=True)
    session.run()
    assert asked[0] == window and "seat 0 jumps in" in lines


def test_one_human_is_offered_out_of_turn_actions_in_its_prompt() -> None:
    rb = uno_rules.load_rulebook("classic", house=["jump_in"])
    match = Match(rb, 3, 2)
    match.game = game_from_position(rb, 3, Position(
        hands=[["red 5", "blue 9"], ["red 5", "green 1", "green 2"], ["yellow 1", "yellow 2"]],
        discard=["red 3"], turn=1, draw_pile=["yellow 7", "yellow 8", "yellow 9"]), seed=2)
    session, said = _said(dict(match=match, seats=[HUMAN, "greedy", "greedy"],
                               agents={"greedy": load_agent("greedy")}, one_round=True),
                          ["jump in red 5", "q"])
    assert "seat 2 to act; seat 0, press Enter to let it, or act out of turn:" in said, said
    assert "seat 0 jumps in" in said


def test_a_stalled_round_says_why() -> None:
    rb = uno_rules.load_rulebook("classic")
    session, said = _said(dict(match=Match(rb, 2, 1, max_actions=3), seats=["greedy"] * 2,
                               agents={"greedy": load_agent("greedy")}), [])
    assert said[-1] == "round stopped: the round's budget of 3 actions ran out"
    assert session.outcome.how == "stalled"  # type: ignore[attr-defined]


def test_q_quits_and_the_input_running_out_ends_quietly() -> None:
    rb = uno_rules.load_rulebook("classic")
    for replies, how in ((["q"], "quit"), ([], "eof")):
        session, said = _said(dict(match=Match(rb, 2, 1), seats=[HUMAN, "greedy"],
                                   agents={"greedy": load_agent("greedy")}), replies)
        assert session.outcome.how == how  # type: ignore[attr-defined]
        assert not session.match.game.over


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(max_size=12) | st.sampled_from(["1", "2", "", "?", "draw", "red",
                                                        "uno", "catch 1", "0", "9" * 50]),
                max_size=60),
       st.sampled_from([("classic", ["jump_in"]), ("flip", []), ("no_mercy", [])]),
       st.integers(0, 3))
def test_no_line_typed_at_any_prompt_breaks_the_loop(lines: list[str],
                                                     rules: tuple[str, list[str]],
                                                     seed: int) -> None:
    """Random lines at every prompt (two humans: passes, windows, quits): the loop only
    ever ends as over, quit or out of input."""
    rb = uno_rules.load_rulebook(rules[0], house=rules[1])
    session, said = _said(dict(match=Match(rb, 3, seed), seats=[HUMAN, "greedy", HUMAN],
                               agents={"greedy": load_agent("greedy")}), list(lines))
    assert session.outcome.how in ("over", "quit", "eof", "stalled")  # type: ignore[attr-defined]


def test_the_table_a_human_sees_is_its_own() -> None:
    """The lines of the other seat's hand (what its view shows and this seat's doesn't)
    never reach a human's prompt in hot-seat (checked on a random game)."""
    session, player = run("classic", 2, random.Random(7).randrange(100), [0, 1],
                          one_round=True)
    rb = session.match.rulebook
    game = uno_rules.load_rulebook("classic").new_game(2, session.match.game.seed)
    mine = set(table_lines(game, 0, Style(False))) - set(table_lines(game, 1, Style(False)))
    assert rb is not None and mine
    first = next(t for t in player.turns if t.prompt == "seat 1> ")
    assert not mine & set(first.screen)


def test_a_contest_is_drawn_and_shown_not_asked() -> None:
    """A contest (a chance node: no seat) is nobody's to answer: the table draws it and
    the result shows before the human's next prompt (moved from the old play loop)."""
    rb = uno_rules.load_rulebook("ted_lasso")
    match = Match(rb, 3, 1)
    game = match.game = game_from_position(rb, 3, Position(
        hands=[["green 1", "green 2"], ["wild_roy_kent_grunt", "red 1", "red 2"],
               ["yellow 1"]],
        discard=["red 5"], turn=1, draw_pile=["blue 1", "blue 2", "blue 3", "blue 4"]),
        seed=1)
    for action in ("1 play wild_roy_kent_grunt", "1 color red", "1 target 0"):
        game.apply(action)
    assert game.decision is not None and game.decision.seat is None
    session, said = _said(dict(match=match, seats=[HUMAN, "greedy", "greedy"],
                               agents={"greedy": load_agent("greedy")}, one_round=True), ["q"])
    losers = [line for line in said if line.endswith("loses the contest")]
    assert len(losers) == 1 and not any("loser" in line for line in said)
    first_prompt = next(i for i, line in enumerate(said) if line.startswith("your hand"))
    assert said.index(losers[0]) < first_prompt


def test_play_stops_at_each_prompt_and_says_what_it_asks() -> None:
    """Session.play, the loop run() drives: each question is a Prompt (its kind, seat,
    options and the terminal's text) sent the line typed; a line not taken is asked again
    with the hint; the same lines play what run() plays."""
    rb = uno_rules.load_rulebook("classic", house=["jump_in"])

    def dealt() -> Match:
        match = Match(rb, 3, 2)
        match.game = game_from_position(rb, 3, Position(
            hands=[["red 5", "blue 9"], ["red 5", "green 1", "green 2"],
                   ["yellow 1", "yellow 2"]],
            discard=["red 3"], turn=1, draw_pile=["yellow 7", "yellow 8", "yellow 9"]), seed=2)
        return match

    session = Session(dealt(), [HUMAN, "greedy", HUMAN], {"greedy": load_agent("greedy")},
                      lambda prompt: None, lambda line: None, one_round=True)
    steps = session.play()
    prompt = next(steps)
    assert (prompt.kind, prompt.seat, prompt.can_pass, prompt.hint) == \
        ("window", None, True, None)
    again = steps.send("7")  # no such human seat: the same window, with the hint
    assert (again.kind, again.hint) == ("window", "a seat number: 0; or Enter")
    prompt = steps.send("0")
    assert (prompt.kind, prompt.seat, prompt.text) == ("pass_to", 0, "")
    prompt = steps.send("")
    assert prompt.kind == "choose" and prompt.seat == 0 and prompt.can_pass
    assert [str(a) for a in prompt.options] == ["0 jump_in red 5"]
    assert prompt.text == "seat 0> "
    assert steps.send("purple").hint  # names no option: asked again, with why
    typed = ["7", "0", "", "purple", "jump in red 5"]
    prompt = steps.send("jump in red 5")
    assert session.match.game.history[-1].kind == "jump_in"
    # run() is this loop answered by ask: the same lines play the same game
    replies = iter([*typed, "q"])
    other = Session(dealt(), [HUMAN, "greedy", HUMAN], {"greedy": load_agent("greedy")},
                    lambda prompt: next(replies, None), lambda line: None, one_round=True)
    other.run()
    assert other.match.game.history[:len(session.match.game.history)] == \
        session.match.game.history
    try:  # the input running out ends play() as it ends run()
        while True:
            prompt = steps.send(None)
    except StopIteration as stop:
        assert stop.value.how == "eof"


def test_a_triple_play_round_at_the_table_names_piles_and_shows_the_unit() -> None:
    """Several discard piles with pile counters: a human's plays name their pile, the
    table shows each pile open or closed with its presses, and the round ends."""
    session, player = run("triple_play", 3, 5, [0], one_round=True)
    assert session.match.game.over
    answers = [t.answer for t in player.turns]
    assert any(" on " in a for a in answers)
    screen = [line for t in player.turns for line in t.screen]
    assert any("pressed" in line and ("open" in line or "closed" in line) for line in screen)


def test_a_dos_round_at_the_table_types_several_cards_and_names_piles() -> None:
    """DOS at the terminal: a human types a play of two cards at once (`3 + 4 on 1`), names
    the Centre Row pile, puts cards out, and the round ends; the screen shows the row."""
    session, player = run("dos", 3, 2, [0], one_round=True)
    assert session.match.game.over
    answers = [t.answer for t in player.turns]
    assert any(" + " in a and " on " in a for a in answers), answers
    screen = [line for t in player.turns for line in t.screen]
    assert any("pile 1:" in line for line in screen)
