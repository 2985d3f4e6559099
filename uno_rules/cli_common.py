"""What every command of the ``uno-rules`` command line shares: how it fails (one line,
an exit code), how it loads the RULEBOOK argument with --house/--set, and those options."""

from __future__ import annotations

import os
import sys
from typing import NoReturn

import click

from .engine.errors import RulebookError, shorten
from .engine.rulebook import Rulebook
from .load.entry import load_rulebook  # served by the cache: yaml only on a miss


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``message`` on standard error and exit with ``code``."""
    try:
        click.echo(message, err=True)
    except OSError:  # stderr itself can't be written: the exit code still tells
        pass
    sys.exit(code)


def shorten_path(text: str) -> str:
    """A path short enough for a one-line message (a path of a few hundred characters is
    shown whole)."""
    return shorten(text, 200)


def os_problem(exc: OSError) -> str:
    """An operating-system error (a full disk, a closed pipe, a name too long, a folder not
    writable) in one line: the user's environment or arguments, not a bug."""
    why = exc.strerror or str(exc)
    if exc.filename is None:  # a write to standard output or error
        return f"error: can't write the output: {why}"
    return f"error: {shorten_path(str(exc.filename))}: {why}"


def mute_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush of what
    could not be written raises nothing more (a second line)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def parse_sets(values: tuple[str, ...]) -> dict[str, str]:
    """--set NAME=VALUE options as a mapping (a malformed one fails)."""
    out = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            fail(f"--set {item!r}: expected NAME=VALUE")
        out[key.strip()] = value.strip()
    return out


def rulebook_or_fail(ref: str, sets: tuple[str, ...], house: tuple[str, ...] = ()) -> Rulebook:
    try:
        return load_rulebook(ref, house=house, settings=parse_sets(sets))
    except RulebookError as exc:
        fail(str(exc))


house_option = click.option("--house", "house", multiple=True, metavar="NAME",
                            help="Apply a house-rule overlay (repeatable, in order).")
set_option = click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
                          help="Override a setting or option of the rulebook (repeatable).")


quiet_option = click.option("--quiet", "-q", is_flag=True,
                            help="No progress bar (shown only on a terminal, never with "
                            "--json).")
