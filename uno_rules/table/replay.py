"""The ``replay`` command (added to the ``uno-rules`` group by cli.py): a record
(:mod:`uno_rules.record`) shown step by step as one seat saw it, or with every hand open."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..cli_common import fail
from ..engine.actions import Action
from ..engine.errors import NotationError, visible
from ..match import Match
from ..record import Record, RecordError, read
from .screen import Style, event_lines, scores_lines, table_lines


def seat_of(record: Record) -> int:
    """The seat shown by default: the first human one, else seat 0."""
    seats = record.header["seats"]
    return seats.index("human") if "human" in seats else 0


def action_seen(line: dict[str, Any], seat: int | None) -> str:
    """A step's action as ``seat`` saw it (None: every seat's view, open): a card another
    seat gave away is hidden, as agents are shown it (uno_rules.agents.observation)."""
    try:
        action = Action.parse(line["action"])  # shown as this version writes it
    except NotationError:
        return visible(str(line["action"]))
    if seat is not None and action.kind == "give" and action.seat != seat:
        return f"{action.seat} give a card"
    return visible(str(action))


def header_lines(record: Record) -> list[str]:
    """What the record is: rulebook, house rules, settings, players, who sat where (the
    file's text escaped: a seat named with a newline or an escape sequence forges nothing)."""
    h = record.header
    house = "".join(f" + {x}" for x in h["house"])
    sets = "".join(f" --set {k}={v}" for k, v in h["set"].items())
    kind = "a match" if h["match"] else "one round"
    seats = ", ".join(f"{s}: {name}" for s, name in enumerate(h["seats"]))
    return [visible(text) for text in
            [f"{h['rulebook']}{house}{sets}: {kind}, {h['players']} players, seed {h['seed']} "
             f"(recorded by uno-rules {h['engine']})"] + ([f"seats: {seats}"] if seats else [])]


def end_text(end: dict[str, Any]) -> str:
    if "quit" in end:
        return "stopped: a player quit (the record may be resumed)"
    if "stalled" in end:
        return f"stopped: stalled ({visible(end['stalled'])})"
    who = ", ".join(map(str, end["winners"]))
    if "points" in end:
        return f"round over: seat(s) {who} win {end['points']} points"
    return f"match over: seat(s) {who} win; scores {end['scores']}"


@click.command()
@click.argument("file")
@click.option("--seat", type=int, default=None,
              help="The seat whose view is shown (default: the first human seat, else 0).")
@click.option("--open", "open_hands", is_flag=True, help="Show every hand (the referee's view).")
@click.option("--to", type=click.IntRange(0), default=None, metavar="N",
              help="Stop after step N.")
@click.option("--step", "stepwise", is_flag=True,
              help="On a terminal, wait for Enter after each step.")
def replay(file: str, seat: int | None, open_hands: bool, to: int | None,
           stepwise: bool) -> None:
    """Show a record (FILE.jsonl, written by play --record or simulate --record-dir) step
    by step, as one seat saw it: every step's action and events, then the table. Each
    event is checked against this version's: a tampered record, or one that replays
    differently, is refused with one line (exit 1)."""
    try:  # the whole record is checked before anything is shown: a refusal is one line
        record = read(file)
        record.replay()
    except RecordError as exc:
        fail(str(exc))
    players = record.header["players"]
    if seat is None:
        seat = seat_of(record)
    elif not 0 <= seat < players:
        fail(f"--seat {seat}: seats are 0 to {players - 1}")
    viewer = None if open_hands else seat
    wait = stepwise and sys.stdin.isatty() and sys.stdout.isatty()
    for text in header_lines(record):
        click.echo(text)
    click.echo("every hand is shown (--open)" if open_hands else f"as seat {seat} saw it")

    style = Style.detect(sys.stdout)
    shown = [0]  # events of the round shown so far

    def show(match: Match, line: dict[str, Any]) -> None:
        game = match.game
        if "round" in line:
            click.echo(f"\n-- round {line['round']}: seat {line['dealer']} deals")
            shown[0] = 0
        elif "step" in line:
            click.echo(f"\nstep {line['step']}: {action_seen(line, viewer)}")
        elif "scored" in line:
            click.echo("")
            for text in scores_lines(match, style):
                click.echo(text)
            return
        else:
            click.echo(f"\n{end_text(line['end'])}")
            return
        # The events as the seat saw them: its own draws name the cards (all with --open).
        for text in event_lines(game, shown[0], viewer, style, open_hands=open_hands):
            click.echo(f"  {text}")
        shown[0] = len(game.log or ())
        for text in table_lines(game, viewer, style, open_hands=open_hands):
            click.echo(f"  | {text}")
        if wait:
            click.prompt("", default="", show_default=False, prompt_suffix="")

    record.replay(to=to, on_line=show)  # as checked above: it can't differ now
    if record.rules_changed:
        click.echo(f"note: the rulebook has changed since the record was made (digest "
                   f"{visible(record.header['digest'])}); it replayed identically all the same",
                   err=True)
