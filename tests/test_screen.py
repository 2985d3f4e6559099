"""The table screen: what one seat sees, on random mid-round states of every shipped
rulebook; no other seat's hand (nor a card it drew) ever shows; colours only when asked."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

import uno_rules
from uno_rules.engine.game import Game
from uno_rules.engine.position import Position, game_from_position
from uno_rules.load.resources import shipped_names
from uno_rules.play.match import Match
from uno_rules.table.screen import (
    PLAIN,
    Style,
    brief_lines,
    card_text,
    event_lines,
    label,
    option_lines,
    option_text,
    prompt_text,
    scores_lines,
    table_lines,
    visible,
)

ROOT = Path(__file__).resolve().parent.parent
COLOUR = Style(True)
# Every shipped rulebook, a few house rules, and several discard piles.
BOOKS = [(name, ()) for name in shipped_names()] + [
    ("classic", ("stacking", "jump_in")), ("classic", ("partners",)),
    (str(ROOT / "examples" / "two_piles.yaml"), ())]


def load(name: str, house: Iterable[str] = ()) -> uno_rules.Rulebook:
    return uno_rules.load_rulebook(name, house=tuple(house))


def random_state(rb: uno_rules.Rulebook, players: int, seed: int) -> Game:
    """A round played at random (out-of-turn actions too) for a random number of actions."""
    game = rb.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(3, 160)):
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def states() -> Iterable[tuple[str, Game]]:
    for name, house in BOOKS:
        rb = load(name, house)
        counts = rb.player_counts()
        for players in sorted({counts[0], counts[len(counts) // 2]}):
            for seed in range(4):
                yield f"{Path(name).stem}{'+' + '+'.join(house) if house else ''}", \
                    random_state(rb, players, seed)


def _bounded(text: str) -> str:
    return r"(?<![\w+])" + re.escape(text) + r"(?![\w+])"


def mentions(text: str, name: str, names: Iterable[str]) -> bool:
    """Whether the card ``name`` shows in ``text`` as a card name of its own: not as a part
    of a longer one (``red 5`` in ``red 5 pass``, ``wild`` in ``wild draw four``)."""
    target = label(name)
    longer = sorted({label(n) for n in names} - {target}, key=len, reverse=True)
    for other in longer:
        if re.search(_bounded(target), other):
            text = re.sub(_bounded(other), "#", text)
    return re.search(_bounded(target), text) is not None


def public_names(game: Game, seat: int) -> set[str]:
    """The card names ``seat`` may see (over-counted: a drawn card's every side): its
    hand, the top cards, the backs, the cards the public log names, its own draws and
    the cards it gave or was given."""
    rb, view = game.rulebook, game.view(seat)
    names = set(view["hand"]) | {view["top"]} | {p["top"] for p in view.get("discards", [])}
    if "other_side" in view:
        names |= {n for h in view["other_side"]["hands"] if h for n in h}
        names.add(view["other_side"]["draw_pile_top"])
    for event in game.log or []:
        kind = event[0]
        if kind in ("play", "return"):
            names.add(rb.faces[event[2]].name)
        elif kind == "first":
            names.add(rb.faces[event[1]].name)
        elif kind == "turn_up":  # a card turned up on a closed pile (refill_piles), by name
            names.add(event[2])
        elif kind == "discard":
            names |= {rb.faces[f].name for f in event[2]}
        elif kind == "draw" and event[1] == seat:
            names |= {side[c].name for side in rb.side_faces for c in event[3]}
        elif kind == "give" and seat == event[1]:
            names |= {side[event[3]].name for side in rb.side_faces}
    return names - {None}


def leaks(game: Game, seat: int, text: str) -> list[str]:
    """Cards of other seats' hands that ``text`` names though ``seat`` can't see them."""
    all_names = [f.name for f in game.rulebook.faces]
    public = public_names(game, seat)
    hidden = {n for s in range(game.players) if s != seat for n in game.hand(s)} - public
    return sorted(n for n in hidden if mentions(text, n, all_names))


def screen(game: Game, seat: int, style: Style = PLAIN, **kw: bool) -> str:
    lines = table_lines(game, seat, style, **kw) + event_lines(game, 0, seat, style)
    decision = game.decision
    if decision is not None and decision.seat == seat:
        lines += option_lines(decision.options, game, style)
    return "\n".join(lines)


@pytest.mark.parametrize("book", range(len(BOOKS)), ids=[
    Path(n).stem + "+".join(("",) + h) for n, h in BOOKS])
def test_a_seat_sees_its_hand_and_no_other(book: int) -> None:
    name, house = BOOKS[book]
    rb = load(name, house)
    checked = caught = 0
    counts = rb.player_counts()
    for players in sorted({counts[0], counts[len(counts) // 2]}):
        for seed in range(4):
            game = random_state(rb, players, seed)
            all_names = [f.name for f in rb.faces]
            for seat in range(players):
                text = screen(game, seat)
                hand_part = "\n".join(_hand_block(text))
                for card in game.hand(seat):  # every own card, as often as held
                    assert mentions(hand_part, card, all_names), (card, hand_part)
                assert _count_cards(hand_part) == len(game.hands[seat])
                assert leaks(game, seat, text) == [], (game.hand(seat), text)
                checked += len({n for s in range(players) if s != seat
                                for n in game.hand(s)} - public_names(game, seat))
                # the check can fail: the open screen (every hand) gets caught
                caught += bool(leaks(game, seat, screen(game, seat, open_hands=True)))
    assert checked > 0 and caught > 0


def _hand_block(text: str) -> list[str]:
    """The lines of the hand after its heading (they start with two spaces)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("your hand"))
    block = []
    for line in lines[start + 1:]:
        if not line.startswith("  ") or re.match(r" +\d+\) ", line):
            break
        block.append(line)
    return block


def _count_cards(block: str) -> int:
    """The cards listed in a hand block: after each colour's heading, comma separated."""
    total = 0
    for line in block.splitlines():
        if line.strip() == "(no cards)":
            continue
        if line[2] != " ":  # a colour's first line: its heading, two spaces, the cards
            line = re.split(r"\s{2,}", line.strip(), maxsplit=1)[1]
        total += len([c for c in line.split(",") if c.strip()])
    return total


def test_colour_changes_nothing_but_the_escapes() -> None:
    seen = 0
    for _, game in states():
        for seat in range(game.players):
            plain, coloured = screen(game, seat), screen(game, seat, COLOUR)
            assert "\x1b" not in plain
            assert "\x1b[" in coloured
            assert visible(coloured) == plain
            assert all(len(line) <= 100 for line in plain.splitlines()), plain
            seen += 1
    assert seen > 100


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_style_detect_colour_only_on_a_terminal_without_no_color() -> None:
    assert Style.detect(_Tty(), {}).colour is True
    assert Style.detect(_Tty(), {"TERM": "xterm-256color"}).colour is True
    assert Style.detect(io.StringIO(), {}).colour is False
    assert Style.detect(_Tty(), {"NO_COLOR": ""}).colour is False
    assert Style.detect(_Tty(), {"NO_COLOR": "1"}).colour is False
    assert Style.detect(_Tty(), {"TERM": "dumb"}).colour is False
    closed = io.StringIO()
    closed.close()
    assert Style.detect(closed, {}).colour is False


def test_style_detect_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert Style.detect(_Tty()).colour is True
    monkeypatch.setenv("NO_COLOR", "")
    assert Style.detect(_Tty()).colour is False


def test_card_text_colours_by_the_rulebook_colour_with_a_fallback() -> None:
    classic, flip = load("classic"), load("flip")
    game = classic.new_game(2, 1)
    assert card_text(game, "red 5", COLOUR) == "\x1b[31mred 5\x1b[0m"
    assert card_text(game, "blue skip", COLOUR) == "\x1b[34mblue skip\x1b[0m"
    assert card_text(game, "wild_draw_four", COLOUR) == "\x1b[1mwild draw four\x1b[0m"
    assert card_text(game, "wild_draw_four", PLAIN) == "wild draw four"
    dark = flip.new_game(2, 1)
    codes = {card_text(dark, f"{c} 5", COLOUR)[:-len("\x1b[0m")].split("m")[0]
             for c in ("pink", "teal", "orange", "purple")}
    assert len(codes) == 4  # four colours told apart
    # a colour no table knows still gets a colour of its own
    from uno_rules.table.screen import colour_code
    odd = load(str(ROOT / "tests" / "rulebooks" / "positive" / "minimal.yaml"))
    odd_game = odd.new_game(odd.player_counts()[0], 1)
    assert all(colour_code(odd_game, i) for i in range(len(odd.colors)))


def test_own_draws_are_named_others_never() -> None:
    rb = load("classic")
    game = game_from_position(rb, 2, Position(hands=[["red 1", "red 2"], ["blue 1", "blue 2"]],
                                              discard=["green 5"],
                                              draw_pile=["yellow 7", "yellow 8", "red 9"]))
    game.apply("0 draw")
    game.apply("0 keep") if game.decision and game.decision.kind == "drawn" else None
    game.apply("1 draw")
    mine, theirs = event_lines(game, 0, 0), event_lines(game, 0, 1)
    assert "seat 0 draws a card: yellow 7" in mine
    assert "seat 1 draws a card" in mine and not any("yellow 8" in line for line in mine)
    assert "seat 1 draws a card: yellow 8" in theirs
    assert "seat 0 draws a card" in theirs and not any("yellow 7" in line for line in theirs)
    spectator = event_lines(game, 0, None)
    assert not any(":" in line for line in spectator)
    assert "seat 1 draws a card: yellow 8" in event_lines(game, 0, None, open_hands=True)
    assert event_lines(game, len(game.log or []), 0) == []
    assert event_lines(game, 1, 0) == mine[1:]


def test_draws_are_named_as_they_were_seen_on_the_side_then() -> None:
    """Flip-style sides: a card drawn before the cards turned over is named by the face the
    seat drew (the log holds the card, the side changes)."""
    rb = load("flip")
    found = False
    for seed in range(30):
        game = rb.new_game(2, seed)
        rng = random.Random(seed)
        drawn: list[str] = []
        while not game.over and len(game.log or []) < 400:
            before = list(game.hands[0])
            game.apply(rng.choice(game.decision.options))  # type: ignore[union-attr]
            new = [c for c in game.hands[0] if c not in before]
            if new and (game.log or [])[-1:] and any(e[0] == "draw" and e[1] == 0
                                                     for e in (game.log or [])[-3:]):
                drawn += [game.faces[c].name for c in new]
        turned = any(e[0] == "turn_over" for e in game.log or [])
        text = "\n".join(line for line in event_lines(game, 0, 0) if "seat 0 draws" in line)
        named = [label(n) for n in drawn]
        listed = ", ".join(line.split(": ", 1)[1] for line in text.splitlines() if ": " in line)
        for name in named:
            assert name in listed
        found = found or (turned and bool(named))
    assert found


def test_the_screen_shows_the_table_state() -> None:
    rb = load("classic", ("stacking",))
    game = game_from_position(rb, 3, Position(
        hands=[["red draw_two", "red 1"], ["blue draw_two", "blue 3", "blue 4"], ["green 2"]],
        discard=["red 5"]))
    game.apply("0 play red draw_two")
    text = "\n".join(table_lines(game, 1))
    assert "stacked draw: 2 cards to draw" in text
    assert "top card: red draw two   colour: red" in text
    assert re.search(r"seat 0 +1 card +UNO not called: open to a catch", text), text
    assert re.search(r"> seat 1 \(you\) +3 cards +to play", text), text
    assert "seat 2" in text and "your hand (seat 1, 3 cards):" in text
    assert "red 1" not in text  # seat 0's last card
    assert "play goes clockwise" in text
    nobody = "\n".join(table_lines(game, None))
    assert "your hand" not in nobody and "blue 3" not in nobody
    everyone = "\n".join(table_lines(game, None, open_hands=True))
    assert all(card in everyone for card in ("red 1", "blue 3", "blue draw two", "green 2"))


def test_teams_several_piles_sides_and_marks() -> None:
    teams = load("teams").new_game(4, 2)
    text = "\n".join(table_lines(teams, 0))
    assert "team 0" in text and "team 1" in text and "team 0 (yours)" in text
    piles = load(str(ROOT / "examples" / "two_piles.yaml")).new_game(3, 2)
    text = "\n".join(table_lines(piles, 0))
    view = piles.view(0)
    assert f"pile 0: {label(view['discards'][0]['top'])}" in text
    assert f"pile 1: {label(view['discards'][1]['top'])}" in text
    flip = load("flip").new_game(3, 4)
    text = "\n".join(table_lines(flip, 0))
    backs = flip.view(0)["other_side"]["hands"]
    assert "side in play: light" in text and "the backs show the dark side" in text
    assert text.count("backs: ") == 2 and all(label(b) in text for b in backs[1] + backs[2])
    knocked = game_from_position(load("no_mercy"), 3, Position(
        hands=[["red 1"] * 2, ["blue 2"], ["green 3"]], discard=["red 5"]))
    knocked.eliminated.append(2)
    assert re.search(r"seat 2 .*knocked out", "\n".join(table_lines(knocked, 0)))


def test_every_pile_with_its_counter_in_the_brief_too_and_a_press_in_words() -> None:
    """Triple Play at the terminal: each pile's top, open or closed, its press count (never
    its hidden limit), on the full screen and the brief one; a press option names its pile."""
    game = game_from_position(load("triple_play"), 3, Position(
        hands=[["red 4", "green 4"], ["blue 1"], ["green 2"]],
        discards=[["red 1"], ["blue 2"], ["yellow 3"]], draw_pile=["green 9", "blue 9"],
        open_piles=[0, 2], presses=[2, 0, 1], limits=[8, 7, 6]))
    for lines in (table_lines(game, 0), brief_lines(game, 0)):
        text = "\n".join(lines)
        assert "pile 0: red 1 (red" in text and "open, pressed 2)" in text
        assert "pile 1: blue 2 (blue" in text and "closed, pressed 0)" in text
        assert "pile 2: yellow 3 (yellow" in text and "open, pressed 1)" in text
        assert not re.search(r"limit|[678]\b", text), text
    game.apply("0 draw")
    assert [option_text(o, game) for o in game.decision.options  # type: ignore[union-attr]
            ] == ["press pile 0", "press pile 2"]


def test_match_scores_and_seats_out_of_the_match() -> None:
    rb = load("classic", ())
    match = Match(rb, 3, seed=4)
    rng = random.Random(4)
    while not match.game.over:
        match.game.apply(rng.choice(match.game.decision.options))  # type: ignore[union-attr]
    match.next_round()
    lines = scores_lines(match)
    assert lines[0] == "match: round 2, first to 500"
    assert all(f"seat {s}: {match.scores[s]}" in lines[1] for s in range(3))
    assert max(match.scores) > 0
    text = table_lines(match.game, 0, match=match)
    assert text[:len(lines)] == lines
    out = Match(load("no_mercy"), 3, seed=1)
    out.out = [2]
    out.scores = [100, 20, 1000]
    assert "seat 2: 1000 (out)" in "\n".join(scores_lines(out))
    out.winners = (1,)
    assert scores_lines(out)[-1] == "match won by seat 1"


def test_option_lines_are_numbered_short_words() -> None:
    rb = load("classic")
    game = game_from_position(rb, 2, Position(hands=[["red 1", "wild_draw_four"], ["blue 1"]],
                                              discard=["red 5"]))
    options = game.decision.options  # type: ignore[union-attr]
    lines = option_lines(options, game)
    assert lines == ["  1) play red 1 and call UNO", "  2) play red 1",
                     "  3) play wild draw four and call UNO", "  4) play wild draw four",
                     "  5) draw"]
    game.apply("0 play wild_draw_four uno")
    assert option_lines(game.decision.options, game)[0] == "  1) choose red"  # type: ignore


def test_a_card_given_is_named_to_its_giver_only() -> None:
    """Cards given together are chosen before any is received: the receiver must not learn
    its partner's card before choosing its own (it finds it in its hand afterwards)."""
    game = load("teams").new_game(4, 3)
    assert game.decision is not None and game.decision.kind == "give"
    card = str(game.decision.options[0].arg)
    game.apply(game.decision.options[0])  # seat 0 gives to its partner, seat 2
    assert f"seat 0 gives {label(card)} to seat 2" in event_lines(game, 0, 0)
    for seat in (1, 2, 3):
        assert "seat 0 gives a card to seat 2" in event_lines(game, 0, seat)
        assert label(card) not in "\n".join(event_lines(game, 0, seat)[-1:])


def test_a_round_over_or_stopped_says_so() -> None:
    rb = load("classic")
    game = rb.new_game(3, 1, log=False)
    rng = random.Random(1)
    while not game.over:
        game.apply(rng.choice(game.decision.options))  # type: ignore[union-attr]
    assert game.result is not None
    text = table_lines(game, 0)
    winner = game.result.winners[0]
    assert f"round over: seat {winner} wins {game.result.points} points" in text
    assert event_lines(game, 0, 0) == []  # no log kept: no events
    stalled = rb.new_game(3, 1, max_actions=3)
    while not stalled.over:
        stalled.apply(rng.choice(stalled.decision.options))  # type: ignore[union-attr]
    assert "round stopped: the round's budget of 3 actions ran out" in table_lines(stalled, 1)


def test_prompts_in_words() -> None:
    rb = load("classic", ("jump_in",))
    game = game_from_position(rb, 3, Position(
        hands=[["red 1", "wild"], ["blue 1", "blue 3"], ["red 5", "green 3"]],
        discard=["red 5"]))
    assert prompt_text(game, 0) == "seat 0, your turn: play a card or draw"
    assert prompt_text(game, 2) == \
        "seat 2, out of turn (seat 0 to play): act now, or pass"
    game.apply("0 play wild")
    assert prompt_text(game, 0) == "seat 0, choose a colour"


def _controls(text: str) -> list[str]:
    """The control characters of ``text`` but its line ends."""
    return [c for c in text if not c.isprintable() and c != "\n"]


def test_the_rulebooks_own_text_is_shown_escaped() -> None:
    """tests/hostile/records/line_breaks.yaml names its sides with a carriage return and a
    newline: the screen and the events show them escaped, on their own line."""
    rb = uno_rules.load_rulebook(ROOT / "tests" / "hostile" / "records" / "line_breaks.yaml")
    game, rng = rb.new_game(2, 3), random.Random(3)
    while not any(e[0] == "turn_over" for e in game.log or ()):
        game.apply(rng.choice(game.legal_actions()))
    lines = table_lines(game, 0) + event_lines(game, 0, 0)
    assert not _controls("\n".join(lines)), lines
    assert "every card is turned over: the da\\nrk side is in play" in lines
    assert any(line.startswith("side in play: da\\nrk   the backs show the li\\rght side")
               for line in lines)
