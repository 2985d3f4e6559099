"""simulate's outputs beside its report: ``--csv`` rows, ``--actions`` lines and
``--record-dir`` records, each written as the run goes (or after it), and a FILE or DIR
that can't be written is one line naming its option, exit 1."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .common import fail as _fail
from .common import shorten_path as _shorten

if TYPE_CHECKING:
    from ..sim.rounds import RunSpec


def actions_writer(out: Any, matches: bool) -> Any:
    """``--actions``: each round (with ``matches`` each match) watched written to ``out`` as
    a JSON line, in order (None without the option)."""
    if out is None:
        return None
    from ..sim.matchsim import match_actions_line
    from ..sim.watch import actions_line

    line: Any = match_actions_line if matches else actions_line
    numbers = iter(range(1, 2**63))

    def write(watched: Any) -> None:
        try:
            out.write(line(next(numbers), watched) + "\n")
        except OSError as exc:  # a full disk
            _fail(f"--actions {_shorten(out.name)}: can't write it: {exc.strerror or exc}")
    return write


def with_csv(out: Any, tool: Any, bar: Any, run: Any) -> Any:
    """``run(on_record)``, each record written as a ``--csv`` row into ``out`` (when open)
    and advancing the progress ``bar`` (when shown)."""
    tick = None if bar is None else bar.advance
    if out is None:
        return run(None if tick is None else lambda r: tick())
    import csv

    with out:
        writer = csv.writer(out)
        writer.writerow(tool.CSV_COLUMNS)

        def row(r: Any) -> None:
            writer.writerow(tool.csv_row(r))
            if tick is not None:
                tick()
        return run(row)


def write_records(folder: str, chooser: Any, spec: RunSpec, matches: bool) -> None:
    """``--record-dir``: the chosen games of the run ``spec`` played again and written."""
    from ..sim.recordsim import write_chosen

    try:
        said = write_chosen(Path(folder), chooser, spec, matches)
    except OSError as exc:
        _fail(f"--record-dir {_shorten(folder)}: can't write a record: {exc.strerror or exc}")
    for line in said:
        click.echo(line, err=True)


def record_chooser(folder: str | None, where: tuple[str, ...], games: int) -> Any:
    """simulate's --record-dir/--record-where: the chooser of the games to record (None
    without --record-dir), the folder made first (a folder that can't be written fails
    before any game is played)."""
    if folder is None:
        if where:
            _fail("--record-where: only with --record-dir DIR")
        return None
    from ..sim.recordsim import DEFAULT_WHERE, Chooser, parse_where

    try:
        stalled, longest, numbers = parse_where(where or DEFAULT_WHERE, games)
    except ValueError as exc:
        _fail(str(exc))
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            raise PermissionError(13, "Permission denied")
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else str(exc)
        _fail(f"--record-dir {_shorten(folder)}: can't write there: {why}")
    return Chooser(stalled, longest, numbers)
