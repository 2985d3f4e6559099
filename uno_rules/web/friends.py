"""Friends at one game, each at a browser of their own (docs/web.md, "Friends across
browsers"): a game made with ``"friends": true`` gives every human seat a link holding an
unguessable token, and the host a token of its own.

A seat's token shows that seat's table (its hand, always) and lets it answer its own
prompts; no token, or a wrong one, shows the public table only (no hand, no options) and
answers nothing. The host may give a seat to an agent and take it back: the server then
answers that seat's prompts with the agent's choice, and those answers are kept like any
other, so a game comes back from its answers as before. Each seat has a screen of its own,
so the hot-seat "pass the screen" prompt is answered by the server.

The tokens live in the game's restore file (the data folder is the server's own); they are
compared in constant time."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping
from typing import Any, Protocol

from ..play.agents import AGENTS, choice_of, make_agent, observation
from ..play.match import Match
from ..table.session import HUMAN, Prompt, Session
from . import view
from .http import ApiError
from .work import checked


class Live(Protocol):
    """A game in memory, as :class:`uno_rules.web.games.Live` is (named here by what is used
    of it: games.py imports this module)."""

    meta: dict[str, Any]
    match: Match
    session: Session
    prompt: Prompt | None

    def state(self) -> dict[str, Any]: ...

    def advance(self, answer: str | None) -> None: ...

HOST = "host"  # who a host token is
TOKEN_HEADER = "x-seat-token"


def new(players: int, humans: list[int]) -> dict[str, Any]:
    """A friends game's tokens: one per human seat, one for the host; no seat given away."""
    return {"host": secrets.token_urlsafe(24),
            "tokens": [secrets.token_urlsafe(24) if s in humans else None
                       for s in range(players)],
            "auto": {}}


def of(meta: Mapping[str, Any]) -> dict[str, Any] | None:
    """The game's friends part (None: a game at one screen), checked as hostile input."""
    got = meta.get("friends")
    if got is None:
        return None
    ok = isinstance(got, dict) and isinstance(got.get("host"), str) and \
        isinstance(got.get("tokens"), list) and \
        len(got["tokens"]) == meta.get("players") and \
        all(t is None or isinstance(t, str) for t in got["tokens"]) and \
        isinstance(got.get("auto"), dict) and \
        all(k.isdigit() and v in AGENTS for k, v in got["auto"].items())
    if not ok:
        raise ApiError(422, f"game {meta.get('game')}: its restore file is broken (friends)")
    checked_part: dict[str, Any] = got
    return checked_part


def who(meta: Mapping[str, Any], token: str | None) -> int | str | None:
    """The seat a token is (``HOST`` for the host's; None: no token, a spectator); a token
    that is none of the game's is a 403 (a link mistyped, or another game's)."""
    friends = of(meta)
    if friends is None or not token:
        return None
    found: int | str | None = None
    given = token.encode("utf-8", "surrogatepass")
    # every token compared, in constant time: no answer's timing tells which one was near
    if hmac.compare_digest(given, friends["host"].encode()):
        found = HOST
    for seat, own in enumerate(friends["tokens"]):
        if own is not None and hmac.compare_digest(given, own.encode()):
            found = seat
    if found is None:
        raise ApiError(403, "this link's token is not one of this game's: ask the host for "
                            "your seat's link")
    return found


def links(live: Live) -> dict[str, Any]:
    """What the host is given once, as the game is made: every seat's token, its own."""
    friends = of(live.meta)
    assert friends is not None
    return {"host": friends["host"],
            "seats": {str(s): t for s, t in enumerate(friends["tokens"]) if t is not None}}


def auto_seats(meta: Mapping[str, Any]) -> dict[int, str]:
    friends = of(meta)
    return {} if friends is None else {int(k): v for k, v in friends["auto"].items()}


def players_here(meta: Mapping[str, Any]) -> list[int]:
    """The human seats played by people now (not given to an agent)."""
    auto = auto_seats(meta)
    return [s for s, k in enumerate(meta["seats"]) if k == HUMAN and s not in auto]


def answerable(meta: Mapping[str, Any], prompt: Prompt, seat: int) -> bool:
    """Whether ``seat`` (a person's) may answer ``prompt``: its own question, or a question
    to the whole table (the out-of-turn window, the next round)."""
    if seat in auto_seats(meta):
        return False
    if prompt.kind in ("choose", "window") and prompt.seat is not None:
        return prompt.seat == seat
    return prompt.kind in ("window", "next_round")


def check_answer(live: Live, token: str | None, answer: Any) -> None:
    """403 unless the token's seat may give ``answer`` now (at the window: Enter, or its
    own seat number only)."""
    if of(live.meta) is None:
        return
    seat = who(live.meta, token)
    prompt = live.prompt
    if prompt is None or not isinstance(seat, int):
        if prompt is not None:
            raise ApiError(403, "only a seat's own link may answer (this one is no seat's)")
        return
    if not answerable(live.meta, prompt, seat):
        asked = "the table" if prompt.seat is None else f"seat {prompt.seat}"
        raise ApiError(403, f"seat {seat} may not answer now: {asked} is asked")
    if prompt.kind == "window" and prompt.seat is None and \
            isinstance(answer, str) and answer.strip() not in ("", str(seat)):
        raise ApiError(403, f"seat {seat} may act out of turn for itself only: "
                            f"{seat}, or Enter")


def state(live: Live, token: str | None) -> dict[str, Any]:
    """The game as the token's seat sees it (no seat: the public table, no options)."""
    got = live.state()
    if of(live.meta) is None:
        return got
    seat = who(live.meta, token)
    mine = seat if isinstance(seat, int) else None
    ended = live.session.ended
    game = live.match.game if ended is None else ended.game
    got["view"] = view.table(live.match, mine, list(live.meta["seats"]))
    got["log"] = view.log_lines(game, mine)
    if live.prompt is not None:
        got["prompt"] = _asked(live.meta, live.prompt, got["prompt"], mine)
    got["friends"] = {"you": seat, "auto": {str(k): v for k, v in
                                            auto_seats(live.meta).items()}}
    return got


def _asked(meta: Mapping[str, Any], prompt: Prompt, shown: dict[str, Any],
           seat: int | None) -> dict[str, Any]:
    """The prompt as ``seat`` sees it: its own question whole; at the out-of-turn window
    its own seat's option only; anything else "wait" (whose question it is, no options)."""
    if seat is not None and answerable(meta, prompt, seat):
        if prompt.kind != "window" or prompt.seat is not None:
            return shown
        shown["options"] = [o for o in shown["options"] if o["index"] == seat]
        if shown["options"]:
            return shown
    whose = "the table" if prompt.seat is None else f"seat {prompt.seat}"
    return {"kind": "wait", "seat": prompt.seat, "text": f"{whose} to act", "options": [],
            "can_pass": False}


def auto_answer(live: Live) -> str | None:
    """The server's answer to the prompt now (None: a person's to give): Enter where a
    seat is handed the screen, an agent's choice at a seat given to it."""
    prompt = live.prompt
    if prompt is None or of(live.meta) is None:
        return None
    if prompt.kind == "pass_to":
        return ""
    auto = auto_seats(live.meta)
    here = players_here(live.meta)
    if prompt.seat is None:  # the table's question: the agents' if nobody else is here
        return "" if not here or prompt.kind == "window" and here == [_acting(live)] \
            else None
    kind = auto.get(prompt.seat)
    if kind is None:
        return None
    if prompt.kind != "choose":
        return ""
    return _agent_choice(live, prompt, prompt.seat, kind)


def _acting(live: Live) -> int | None:
    decision = live.match.game.decision
    return None if decision is None else decision.seat


def _agent_choice(live: Live, prompt: Prompt, seat: int, kind: str) -> str:
    """The option number the agent ``kind`` at ``seat`` takes ("": it lets the chance go)."""
    session, game = live.session, live.match.game
    index = {a: i for i, a in enumerate(session.table)}
    ids = tuple(index[a] for a in prompt.options)
    pending = game.pending
    asked = None if prompt.can_pass else pending.kind if pending is not None else "turn"
    obs = observation(game, seat, ids, asked, session.seen[seat], game.rulebook,  # type: ignore[arg-type]
                      session.table)
    session.seen[seat] = len(game.history)
    seed = game.seed
    assert seed is not None
    agent = make_agent(kind, checked(AGENTS[kind]), seat, seed + len(game.history))
    choice = choice_of(agent, kind, obs)
    return "" if choice is None else str(ids.index(choice) + 1)


def settle(live: Live) -> None:
    """Answer every prompt the server answers (each kept with the game's answers)."""
    while True:
        reply = auto_answer(live)
        if reply is None:
            return
        live.advance(reply)
        if live.prompt is not None and live.prompt.hint is not None:
            raise ApiError(500, f"the server's own answer {reply!r} was refused: "
                                f"{live.prompt.hint}")
        live.meta["answers"].append(reply)


def hand_over(live: Live, seat: Any, agent: Any) -> None:
    """The host gives ``seat`` to ``agent`` (a built-in agent's name), or takes it back
    (``agent`` null); the agent plays at once if it is asked."""
    friends = of(live.meta)
    assert friends is not None
    tokens = friends["tokens"]
    if type(seat) is not int or not 0 <= seat < len(tokens) or tokens[seat] is None:
        raise ApiError(400, "seat: a person's seat number")
    if agent is None:
        friends["auto"].pop(str(seat), None)
    elif isinstance(agent, str) and agent in AGENTS and agent != HUMAN:
        friends["auto"][str(seat)] = agent
    else:
        raise ApiError(400, f"agent: one of {', '.join(sorted(AGENTS))}, or null")
    settle(live)
