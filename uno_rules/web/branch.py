""""Continue from here" (docs/web.md, "Replay"): a new game at a position of an ended one.

The new game is made as the old one was — the same rulebook, seats, agents and seed — and
its prompts are answered so that it plays the old record's first steps: a human's recorded
action is answered in notation (``0 play red 5 uno``), a chance let go with Enter, the
keyboard passed, the next round dealt. Those answers are kept as any typed ones, so the
new game is an ordinary game (restored from its answers, recorded in full) that goes on
live from the position; the agents play the steps as they did, being dealt the same.

A record sent to the page (``POST /api/replay/branch``) goes on the same way, but its seats
may have been humans or agents this server doesn't have: its agents are :class:`Scripted`
(the record's steps first, then their own), the table's contests come out as recorded
(:func:`outcome`), and the new game's record must be the sent one's up to the step."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..engine.actions import Action
from ..play.agents import AGENTS, Agent, AgentClass, AgentError, Observation
from ..play.record import Record
from ..table.replay import seat_of
from ..table.session import HUMAN, Prompt
from .http import ApiError

MAX_SEED = 2 ** 53  # seeds a page's JavaScript keeps exact (games.py)
SLACK = 4  # answers per step at most (pass the keyboard, a window, a round's end...)


def answer_for(prompt: Prompt, action: Action, humans: Sequence[int],
               decider: int | None) -> str:
    """What the table is answered at ``prompt`` when its next step is ``action`` (the
    decision being ``decider``'s)."""
    if prompt.kind == "choose":
        if action in prompt.options:
            return str(action)
        if prompt.can_pass:  # an out-of-turn chance this seat did not take
            return ""
        raise ApiError(422, f"the record's next step, {action}, is not one of seat "
                            f"{prompt.seat}'s options")
    if prompt.kind == "window" and prompt.seat is None and action.seat in humans and \
            action.seat != decider:
        return str(action.seat)  # the human who acted out of turn at the shared keyboard
    return ""  # pass the keyboard, let the window go, deal the next round


def follow(live: Any, script: Sequence[str]) -> None:
    """Answer ``live`` (a web game) until it has played ``script``, its answers kept."""
    humans = [s for s, k in enumerate(live.meta["seats"]) if k == HUMAN]
    for _ in range(SLACK * len(script) + SLACK):
        done = live.recorder.steps
        if done >= len(script):
            return
        if live.prompt is None:
            raise ApiError(422, f"the game ended at step {done}, before step {len(script)}")
        decision = live.match.game.decision
        answer = answer_for(live.prompt, Action.parse(script[done]), humans,
                            None if decision is None else decision.seat)
        try:
            live.advance(answer)
        except AgentError as exc:  # a scripted agent whose step is not an option (Scripted)
            raise ApiError(422, f"step {done + 1}: the game does not play as recorded: "
                                f"{exc}") from None
        if live.prompt is not None and live.prompt.hint is not None:
            raise ApiError(422, f"step {done + 1}: {live.prompt.hint}")
        live.meta["answers"].append(answer)
    raise ApiError(422, f"the game does not reach step {len(script)} as recorded")


# ------------------------------------------------------------------ a record sent to the page
class Scripted:
    """An agent that plays the record's steps while the new game is played to its position
    (the record's agents may not be this server's, nor its humans agents), then its own."""

    def __init__(self, inner: Agent, script: Sequence[str], done: Callable[[], int]) -> None:
        self.inner, self.script, self.done = inner, script, done
        self.missed: list[Action] = []  # the events shown while the script played

    def choose(self, obs: Observation) -> int | None:
        k = self.done()
        if k >= len(self.script):
            if self.missed:  # the agent follows the round from the events it was shown
                obs = dataclasses.replace(obs, events=(*self.missed, *obs.events))
                self.missed = []
            return self.inner.choose(obs)
        self.missed.extend(obs.events)
        for i, option in zip(obs.ids, obs.options, strict=True):
            if str(option) == self.script[k]:
                return i
        if obs.optional:  # offered something out of turn the record's seat did not take
            return None
        raise AgentError(f"the record's step {k + 1}, {self.script[k]}, is not one of seat "
                         f"{obs.seat}'s options")


def script_meta(body: Mapping[str, Any], script: Sequence[str]) -> dict[str, Any]:
    """What a new game's restore file keeps of a record it continues: the steps its agents
    and table play first, and its round's deal (:func:`record_body`)."""
    if not script:
        return {}
    return {"script": list(script), **({"deal": body["deal"]} if "deal" in body else {})}


def outcome(script: Sequence[str], done: Callable[[], int]
            ) -> Callable[[Sequence[Action]], int | None]:
    """The table's contest settled as ``script`` has it while fewer of its steps are
    ``done`` (a record's chance outcomes; its own RNG's after)."""
    def settle(options: Sequence[Action]) -> int | None:
        k = done()
        texts = [str(a) for a in options]
        return texts.index(script[k]) if k < len(script) and script[k] in texts else None
    return settle


def scripted(cls: AgentClass, script: Sequence[str], done: Callable[[], int]) -> AgentClass:
    """``cls``, its agents playing ``script``'s steps while fewer than it are ``done``."""
    def make(seat: int, rng: random.Random) -> Agent:
        return Scripted(cls(seat, rng), script, done)
    return make


def check_request(record: Record, to: Any, seat: Any) -> None:
    """A step of ``record`` and a seat (or None), else a 400."""
    if type(to) is not int or not 0 <= to <= len(record.steps):
        raise ApiError(400, f"to: a step number from 0 to {len(record.steps)}")
    if seat is not None and type(seat) is not int:
        raise ApiError(400, "seat: a seat number, or null (the record's)")


def record_body(record: Record, seat: int | None) -> dict[str, Any]:
    """The body that makes a game as ``record``'s was (its shipped rulebook, house rules,
    settings, seed and length), the user at ``seat`` (None: the record's), its other seats
    the record's agents (greedy where it names none of this server's). A one-round
    record's round is dealt as its round line says (``deal``: a round simulate dealt from
    a seed of its own, not from a match's)."""
    h = record.header
    players, seed = h["players"], h["seed"]
    seat = seat_of(record) if seat is None else seat
    if not 0 <= seat < players:
        raise ApiError(400, f"seat: seats are 0 to {players - 1}")
    fits = type(seed) is int and 0 <= seed <= MAX_SEED
    if h["match"] and not fits:
        raise ApiError(422, f"{record.path}:1: the record's match was dealt without a seed "
                            "this server can deal again: it can't be continued here")
    first = next(line for _, line in record.lines if "round" in line)
    names = list(h["seats"]) or ["greedy"] * players
    name = h["rulebook"] if Path(h["source"]).name == f"{h['rulebook']}.yaml" else h["source"]
    return {"rulebook": name, "house": [x.removeprefix("house/") for x in h["house"]],
            "set": h["set"], "players": players, "humans": [seat], "seed": seed if fits else 0,
            "agents": ",".join(n if n in AGENTS else "greedy" for n in names),
            "round": not h["match"],
            **({} if h["match"] else {"deal": [first["seed"], first["dealer"]]})}


def prefix(record: Record, to: int) -> list[dict[str, Any]]:
    """The record's lines after its header up to step ``to`` (0: its first deal)."""
    lines: list[dict[str, Any]] = []
    for _, line in record.lines:
        if to == 0 and "step" in line:
            break
        lines.append(line)
        if line.get("step") == to:
            break
    return lines


def differs(record: Record, made: Record) -> None:
    """Refuse a new game that is not ``record``'s: the first deal or step (its events in
    words) it plays otherwise."""
    for (number, line), (_, mine) in zip(record.lines, made.lines, strict=False):
        if line != mine:
            raise ApiError(422, f"{record.path}:{number}: this server's game differs from "
                                "the record here: it can't be continued")


def check_same(record: Record, made: Record, to: int) -> None:
    """Refuse a new game that is not ``record``'s at step ``to``."""
    want = prefix(record, to)
    differs(record, Record(made.path, made.header, made.lines[:len(want)], made.check))
    if len(made.lines) < len(want):
        raise ApiError(422, f"{record.path}: this server's game ends before step {to}")
