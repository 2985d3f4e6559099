"""One UNO for both front ends (table.answers.with_call): a play that leaves the call's
size is the plain play unless UNO is said — ``red 5 uno`` (or ``3 uno``) at the terminal,
the UNO button on the page (which answers ``3 uno``) — and the same answer plays the same
game in both."""

from __future__ import annotations

from pathlib import Path

from web_client import local_client

import uno_rules
from uno_rules.engine.actions import Action
from uno_rules.play.agents import load_agent
from uno_rules.play.match import Match
from uno_rules.table.screen import label
from uno_rules.table.session import HUMAN, Session

SETS = {"hand_size": 2}  # seat 0's first card leaves one: a call is due at once
DOS_SETS = {"hand_size": 3}  # DOS is called at two: the first card leaves two


def first_call_seed(name: str = "classic", sets: dict[str, int] = SETS
                    ) -> tuple[int, list[Action]]:
    """The first seed whose deal lets seat 0 play a card that calls UNO, and its options."""
    rb = uno_rules.load_rulebook(name, settings=sets)
    for seed in range(1, 200):
        game = Match(rb, 2, seed).game
        table = rb.action_table(2)
        options = [table[i] for i in game.legal_ids(0)]
        if game.decision is not None and game.decision.seat == 0 and any(o.uno for o in options):
            return seed, options
    raise AssertionError("no seed deals a call at once")


def terminal(seed: int, lines: list[str], name: str = "classic",
             sets: dict[str, int] = SETS) -> tuple[list[str], list[str]]:
    """A round at the terminal table, seat 0 typing ``lines`` (then q): the history in
    notation and what was printed."""
    rb = uno_rules.load_rulebook(name, settings=sets)
    match = Match(rb, 2, seed)
    typed, printed = list(lines), []

    def ask(prompt: str) -> str | None:
        return typed.pop(0) if typed else None

    Session(match, [HUMAN, "greedy"], {"greedy": load_agent("greedy")}, ask, printed.append,
            one_round=True).run()
    return [str(a) for a in match.game.history], printed


def page_answers(tmp_path: Path, seed: int, answers: list[str]) -> list[str]:
    """The same round on the web API, answered as the page answers (a card's plain
    option's number, with `` uno`` when its UNO button is down): the log in words."""
    with local_client(tmp_path) as c:
        state = c.post("/api/games", json={"rulebook": "classic", "players": 2, "humans": [0],
                                           "agents": "greedy", "seed": seed, "round": True,
                                           "set": SETS}).json()
        for text in answers:
            state = c.post(f"/api/games/{state['game']}/answer",
                           json={"version": state["version"], "answer": text}).json()
        return list(state["log"])


def test_a_card_named_without_uno_is_caught_and_with_uno_is_not() -> None:
    seed, options = first_call_seed()
    plain = next(o for o in options if o.kind == "play" and not o.uno)
    name = label(str(plain.arg))
    quiet, _ = terminal(seed, [name])
    assert quiet[0] == str(plain)
    assert any(" catch 0" in a for a in quiet[1:3]), quiet[:3]
    number = options.index(plain) + 1
    for said in (f"{name} uno", f"{number} uno"):
        called, _ = terminal(seed, [said])
        assert called[0] == str(plain._replace(uno=True)), said
        assert not any(" catch 0" in a for a in called[1:3]), called[:3]


def test_the_page_and_the_terminal_call_uno_the_same_way(tmp_path: Path) -> None:
    seed, options = first_call_seed()
    plain = next(o for o in options if o.kind == "play" and not o.uno)
    number = str(options.index(plain) + 1)
    quiet = page_answers(tmp_path / "a", seed, [number])
    called = page_answers(tmp_path / "b", seed, [f"{number} uno"])
    assert any("catches seat 0" in line for line in quiet), quiet
    assert not any("catches seat 0" in line for line in called), called
    # the terminal's history for the same answers says the same
    assert any(" catch 0" in a for a in terminal(seed, [number])[0][1:3])
    assert not any(" catch 0" in a for a in terminal(seed, [number + " uno"])[0][1:3])


def test_help_says_how_to_call_uno_with_a_card() -> None:
    seed, options = first_call_seed()
    _, printed = terminal(seed, ["?"])
    line = next(x for x in printed if "to call UNO" in x)
    assert " uno (or " in line and "without it no UNO is called" in line, line


def test_dos_is_said_by_its_own_word_and_shown_by_it() -> None:
    """A rulebook's ``call_name`` (DOS, called at two) is what the terminal shows and
    reads: ``wild dos dos`` or ``3 dos`` calls, as ``uno`` still does."""
    seed, options = first_call_seed("dos", DOS_SETS)
    plain = next(o for o in options if o.kind == "play" and not o.uno and
                 o._replace(uno=True) in options)
    name, number = label(str(plain.arg)), str(options.index(plain) + 1)
    for said in (f"{name} dos", f"{number} dos", f"{name} uno", f"{name} DOS!"):
        history, printed = terminal(seed, [said], "dos", DOS_SETS)
        assert str(plain._replace(uno=True)) in history, said
    history, printed = terminal(seed, ["?", name], "dos", DOS_SETS)
    assert str(plain) in history
    text = "\n".join(printed)
    assert f"{name} dos (or {number} dos); without it no DOS is called" in text
    assert "and call DOS" in text and "UNO" not in text


def test_a_card_that_shares_the_call_word_is_still_named() -> None:
    """DOS's ``wild dos`` card: its word is the call's too; the card named alone is its
    plain play, and ``wild dos dos`` calls with it."""
    rb = uno_rules.load_rulebook("dos", settings=DOS_SETS)
    for seed in range(1, 400):
        game = Match(rb, 2, seed).game
        table = rb.action_table(2)
        options = [table[i] for i in game.legal_ids(0)]
        plays = [o for o in options if o.kind == "play" and
                 label(str(o.arg)).endswith(" dos") and o._replace(uno=True) in options]
        if game.decision is not None and game.decision.seat == 0 and plays:
            break
    else:
        raise AssertionError("no deal gives seat 0 a card named with the call's word")
    plain = plays[0]._replace(uno=False)
    name = label(str(plain.arg)) + (f" on {plain.pile}" if plain.pile else " on 0")
    assert str(plain) in terminal(seed, [name], "dos", DOS_SETS)[0]
    assert str(plain._replace(uno=True)) in terminal(seed, [f"{name} dos"], "dos", DOS_SETS)[0]
    bare = label(str(plain.arg))  # two piles: asked which, not misread as a call
    assert "which one?" in "\n".join(terminal(seed, [bare], "dos", DOS_SETS)[1])


def test_the_state_names_the_call(tmp_path: Path) -> None:
    """The web state's ``call`` is the rulebook's ``call_name``; the options say it."""
    seed, _ = first_call_seed("dos", DOS_SETS)
    with local_client(tmp_path) as c:
        state = c.post("/api/games", json={"rulebook": "dos", "players": 2, "humans": [0],
                                           "agents": "greedy", "seed": seed, "round": True,
                                           "set": DOS_SETS}).json()
        classic = c.post("/api/games", json={"rulebook": "classic", "players": 2,
                                             "humans": [0], "agents": "greedy"}).json()
    assert state["call"] == "DOS" and classic["call"] == "UNO"
    texts = [o["text"] for o in state["prompt"]["options"]]
    assert any(t.endswith(" and call DOS") for t in texts), texts
    assert not any("UNO" in t for t in texts), texts
