"""The old one-round play loop, replaced by table/session.py (the `play` command); kept
only for describe_table, which table/replay.py uses until it moves to table/screen.py.

Playing a round in the terminal: human seats answer prompts, the others are random bots;
a chance node (a contest) is drawn with the bots' RNG and shown by its result.

The I/O is two callables (``ask`` reads a line, ``say`` prints one), so the loop is easy to
drive from tests or another front end.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from .engine.actions import Action
from .engine.errors import IllegalAction, NotationError
from .engine.game import Game

QUIT = ("q", "quit", "exit")


def describe_table(game: Game, seat: int) -> list[str]:
    """What ``seat`` sees, in a few lines."""
    view = game.view(seat)
    sizes = "  ".join(f"seat {s}: {n}" for s, n in enumerate(view["hand_sizes"]))
    if "discards" in view:  # several discard piles: each top and colour
        tops = "; ".join(f"pile {k}: {p['top']} ({p['color'] or 'no colour'})"
                         for k, p in enumerate(view["discards"]))
    else:
        tops = f"top: {view['top']} ({view['color'] or 'no colour'})"
    lines = [f"{tops}, {view['direction']}, draw pile {view['draw_pile_size']}",
             f"cards: {sizes}",
             f"your hand (seat {seat}): {', '.join(view['hand']) or '(empty)'}"]
    if "other_side" in view:  # cards with sides: what the table shows of the other side
        other = view["other_side"]
        backs = "  ".join(f"seat {s}: {', '.join(h)}" for s, h in enumerate(other["hands"])
                          if h is not None)
        lines.insert(0, f"side in play: {view['side']} (the {other['side']} side shows: "
                        f"{backs}; draw pile top {other['draw_pile_top']})")
    return lines


def _choose(options: list[Action], line: str) -> Action | None:
    """The option a reply names: its number, or its notation."""
    line = line.strip()
    # ASCII digits only ("²" is a digit to str.isdigit, not to int), and few of them
    if line.isascii() and line.isdigit() and len(line) <= 6 and 1 <= int(line) <= len(options):
        return options[int(line) - 1]
    try:
        wanted = Action.parse(line)
    except NotationError:
        return None
    return next((a for a in options if a == wanted or str(a) == str(wanted)), None)


def play(game: Game, humans: Iterable[int], ask: Callable[[str], str | None],
         say: Callable[[str], None], seed: int | None = None) -> bool:
    """Play ``game`` to its end. Returns False if a human quit (or input ran out)."""
    humans = set(humans)
    bot = random.Random(seed)
    shown = 0
    while not game.over:
        for line in game.events[shown:]:
            say(f"  {line}")
        shown = len(game.events)
        decision = game.decision
        assert decision is not None
        # A chance node (a contest, no seat) is nobody's to answer: it is drawn with the
        # bots' RNG and its result shows in the events, unless a human acts out of turn first.
        asked = decision.seat is not None and decision.seat in humans
        extra = [a for a in game.out_of_turn_actions() if a.seat in humans]
        if not asked and not extra:
            game.apply(bot.choice(decision.options))
            continue
        options = list(decision.options) if asked else []
        options += extra
        seat = decision.seat if decision.seat in humans else min(a.seat for a in extra
                                                                 if a.seat is not None) \
            if extra else min(humans)
        say("")
        for line in describe_table(game, seat):
            say(line)
        what = f"the table settles the {decision.kind}" if decision.seat is None else \
            f"seat {decision.seat} to {decision.kind}"
        say(f"{what}:" if asked else f"{what} (press enter to let it act, or jump in):")
        for i, option in enumerate(options, 1):
            say(f"  {i}) {option}")
        reply = ask("> ")
        if reply is None or reply.strip().lower() in QUIT:
            say("bye")
            return False
        if not reply.strip() and not asked:
            game.apply(bot.choice(decision.options))
            continue
        action = _choose(options, reply)
        if action is None:
            say(f"not an option: {reply.strip()!r} (a number, or an action such as "
                f"{options[0]})")
            continue
        try:
            game.apply(action)
        except IllegalAction as exc:  # options are legal; kept for safety with odd input
            say(str(exc))
    for line in game.events[shown:]:
        say(f"  {line}")
    result = game.result
    if result is None:  # the round's budget ran out (a rulebook whose round never ends)
        say(f"round stopped: {game.stalled_reason()}")
        return False
    say(f"round over: seat(s) {', '.join(map(str, result.winners))} win "
        f"{result.points} points")
    return True
