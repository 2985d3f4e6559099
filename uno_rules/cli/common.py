"""What every command of the ``uno-rules`` command line shares: how it fails (one line,
an exit code), how it loads the RULEBOOK argument with --house/--set, and those options."""

from __future__ import annotations

import math
import os
import sys
from typing import Any, NoReturn, TextIO

import click

from ..engine.errors import RulebookError, shorten, shorten_values, visible
from ..engine.rulebook import Rulebook
from ..load.entry import load_rulebook  # served by the cache: yaml only on a miss


def say(message: str) -> None:
    """Print an error ``message`` on standard error, any run of over 200 characters in it
    cut short (an argument of 100,000 characters echoed back is not a message)."""
    try:
        click.echo(shorten_values(message, (), 200), err=True)
    except OSError:  # stderr itself can't be written: the exit code still tells
        pass


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``message`` on standard error (:func:`say`) and exit with ``code``."""
    say(message)
    sys.exit(code)


def open_out(option: str, path: str) -> TextIO:
    """An option's output FILE opened for writing, before any game is played: one that
    can't be (no such folder, not writable, a NUL byte) is one line naming it, exit 1."""
    try:
        return open(path, "w", newline="", encoding="utf-8")
    except (OSError, ValueError) as exc:
        fail(f"{option} {shorten_path(path)}: can't write it: "
             f"{exc.strerror if isinstance(exc, OSError) else exc}")


def shorten_path(text: str) -> str:
    """A path (or any argument) for a one-line message: a newline or an escape written as a
    Python escape, cut short past 200 characters (a few hundred are shown whole)."""
    return shorten(visible(text), 200)


class PathType(click.Path):
    """``click.Path`` refusing a NUL byte in the path as a usage error (click's checks call
    ``os.stat``, whose ValueError would be taken for a bug)."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, str) and "\0" in value:
            self.fail(f"'{shorten_path(value)}': the path contains a NUL byte", param, ctx)
        return super().convert(value, param, ctx)


class FloatRange(click.FloatRange):
    """``click.FloatRange`` refusing NaN (which every bound's comparison lets through)."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{shorten_path(str(value))!r} is not a number", param, ctx)
        return number


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
            fail(f"--set '{shorten_path(item)}': expected NAME=VALUE")
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
