"""The ``replay`` command: a record (:mod:`uno_rules.play.record`) shown step by step as one
seat saw it, or with every hand open."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..engine.errors import visible
from ..play.match import Match
from ..play.record import RecordError, read
from ..table.replay import action_seen, end_text, header_lines, seat_of
from ..table.screen import Style, event_lines, scores_lines, table_lines
from .common import fail

STEP_PROMPT = "  -- Enter: the next step, q: stop -- "


@click.command()
@click.argument("file")
@click.option("--seat", type=int, default=None,
              help="The seat whose view is shown (default: the first human seat, else 0).")
@click.option("--open", "open_hands", is_flag=True, help="Show every hand (the referee's view).")
@click.option("--to", type=click.IntRange(0), default=None, metavar="N",
              help="Stop after step N.")
@click.option("--step/--no-step", "stepwise", default=None,
              help="Wait for Enter after each step (q stops). Default: on a terminal, "
                   "--step; piped or redirected, the whole output at once.")
def replay(file: str, seat: int | None, open_hands: bool, to: int | None,
           stepwise: bool | None) -> None:
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
    # Waiting needs a keyboard and a screen: never when piped, whatever --step says.
    wait = stepwise is not False and sys.stdin.isatty() and sys.stdout.isatty()
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
        if wait and click.prompt(STEP_PROMPT, default="", show_default=False,
                                 prompt_suffix="").strip().lower() in ("q", "quit"):
            raise SystemExit(0)

    record.replay(to=to, on_line=show)  # as checked above: it can't differ now
    if record.rules_changed:
        click.echo(f"note: the rulebook has changed since the record was made (digest "
                   f"{visible(record.header['digest'])}); it replayed identically all the same",
                   err=True)
