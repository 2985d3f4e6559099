""""Continue from here" (docs/web.md, "Replay"): a new game at a position of an ended one.

The new game is made as the old one was — the same rulebook, seats, agents and seed — and
its prompts are answered so that it plays the old record's first steps: a human's recorded
action is answered in notation (``0 play red 5 uno``), a chance let go with Enter, the
keyboard passed, the next round dealt. Those answers are kept as any typed ones, so the
new game is an ordinary game (restored from its answers, recorded in full) that goes on
live from the position; the agents play the steps as they did, being dealt the same."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.actions import Action
from ..table.session import HUMAN, Prompt
from .http import ApiError

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
        live.advance(answer)
        if live.prompt is not None and live.prompt.hint is not None:
            raise ApiError(422, f"step {done + 1}: {live.prompt.hint}")
        live.meta["answers"].append(answer)
    raise ApiError(422, f"the game does not reach step {len(script)} as recorded")
