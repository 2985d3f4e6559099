"""A scripted player for the table's tests (tests/test_session.py, tests/test_play.py): it
answers every prompt of a :class:`Session` in-process from the game it can see, and keeps
the transcript (each prompt, what was printed before it, the answer), so a pseudo-terminal
run can type the same answers and check the same screen."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO

import uno_rules
from uno_rules.play.agents import load_agent
from uno_rules.play.match import Match
from uno_rules.play.record import Recorder
from uno_rules.table.screen import Style, table_lines
from uno_rules.table.session import HUMAN, Session


@dataclass
class Turn:
    prompt: str
    screen: list[str]   # the lines printed since the previous prompt
    answer: str
    # each human's private table lines then: what its view shows and another's doesn't
    private: dict[int, set[str]] = field(default_factory=dict)


@dataclass
class Player:
    """Answers as seat(s) ``humans`` would, in words: a colour by name, ``challenge`` at
    every Wild Draw Four, ``catch N`` whenever offered, ``uno N`` for a call of its own it
    owes (``uno_after_others``), the next-to-last card played with
    ``uno`` except the first time (so that the player is caught once), else the first
    card that plays, or ``draw``."""

    session: Session | None = None
    turns: list[Turn] = field(default_factory=list)
    screen: list[str] = field(default_factory=list)
    forgot_uno: bool = False
    window_seat: int | None = None

    def say(self, line: str) -> None:
        self.screen.append(line)

    def ask(self, prompt: str) -> str | None:
        answer = self.answer(prompt)
        self.turns.append(Turn(prompt, self.screen, answer, self.private()))
        self.screen = []
        return answer

    def private(self) -> dict[int, set[str]]:
        assert self.session is not None
        game, humans = self.session.match.game, self.session.humans
        if len(humans) < 2:
            return {}
        seen = {h: set(table_lines(game, h, Style(False))) for h in humans}
        return {h: seen[h] - set().union(*(seen[o] for o in humans if o != h))
                for h in humans}

    def answer(self, prompt: str) -> str:
        assert self.session is not None
        game = self.session.match.game
        if prompt.startswith("out of turn"):  # hot-seat window: the first seat that may act
            seats = sorted({a.seat for a in game.out_of_turn_actions()
                            if a.seat in self.session.humans and a.kind == "catch"})
            return str(seats[0]) if seats else ""
        if not prompt.endswith("> "):
            return ""  # press Enter (pass the keyboard, deal the next round)
        seat = int(prompt.split()[1].rstrip(">"))
        decision = game.decision
        assert decision is not None
        own = [a for a in game.out_of_turn_actions() if a.kind == "uno" and a.seat == seat
               and a.arg == seat]
        if own:  # a call it owes itself (left at one card by another's card): made at once
            return f"uno {seat}"
        if decision.seat != seat:  # out of turn: catch when it can, else let it go
            catches = [a for a in game.out_of_turn_actions() if a.kind == "catch"
                       and a.seat == seat]
            return f"catch {catches[0].arg}" if catches else ""
        options = decision.options
        kinds = {a.kind for a in options}
        if decision.kind == "color":
            return str(options[0].arg)
        if "challenge" in kinds:
            return "challenge"
        # several cards at once (a combo) typed first where one is offered
        several = sorted((a for a in options if a.kind == "play"), key=lambda a: " + " not in
                         str(a.arg))
        plays = [a for a in several if not a.uno]
        calls = [a for a in several if a.uno]
        first = (calls or plays or [None])[0]
        # several discard piles: the pile named, as the table writes it (`red 5 on 1`)
        on = f" on {first.pile}" if first and game.rulebook.discard_piles > 1 else ""
        if calls:
            if not self.forgot_uno:
                self.forgot_uno = True
                return str(calls[0].arg) + on
            return f"{calls[0].arg}{on} uno"
        if plays:
            return str(plays[0].arg) + on
        return "draw" if "draw" in kinds else "1"  # a target, a card to give: the first


def run(rulebook: str, players: int, seed: int, humans: Sequence[int], *,
        sets: dict[str, object] | None = None, house: Sequence[str] = (),
        agents: str = "greedy", one_round: bool = False,
        record: TextIO | None = None) -> tuple[Session, Player]:
    """Play a whole match (or round) in-process with :class:`Player` at ``humans``
    (``record``: written as ``play --record`` writes it)."""
    rb = uno_rules.load_rulebook(rulebook, house=house, settings=sets or {})
    match = Match(rb, players, seed)
    seats = [HUMAN if s in humans else agents for s in range(players)]
    player = Player()
    recorder = None if record is None else Recorder(record, match, seats, one_round=one_round)
    session = Session(match, seats, {agents: load_agent(agents)}, player.ask, player.say,
                      one_round=one_round, recorder=recorder)
    player.session = session
    session.run()
    return session, player
