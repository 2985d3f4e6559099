"""A progress bar on standard error for long runs (``simulate``, ``compare``): games done,
the rate and the time left, on one line redrawn with a carriage return; no dependency.

It is shown only on a terminal (:func:`wanted`): a pipe or a file never gets it, so that
``--json`` output and logs stay clean.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from typing import TextIO

INTERVAL = 0.1  # seconds between redraws at most: ~10 a second, cheap beside the games
BAR = 20  # characters of the bar itself


def wanted(stream: TextIO | None, quiet: bool, as_json: bool) -> bool:
    """Whether to show a bar: ``stream`` is a terminal, and neither ``--quiet`` nor
    ``--json`` was given."""
    if quiet or as_json or stream is None:
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):  # closed or not a real file
        return False


def _duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``2 h 07 min``."""
    s = int(seconds + 0.5)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class Progress:
    """``total`` units of work (``unit``: "games"); call :meth:`advance` as each is done
    and :meth:`close` at the end (the line is cleared, whatever happened)."""

    def __init__(self, total: int, unit: str = "games", stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total, self.unit, self.done = total, unit, 0
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.start = clock()
        self.next_draw = self.start  # the first unit done draws at once
        self.shown = 0  # characters on the line now (0: nothing to clear)

    def advance(self, n: int = 1) -> None:
        """``n`` more units done; redraws when :data:`INTERVAL` has passed."""
        self.done += n
        now = self.clock()
        if now >= self.next_draw:
            self.next_draw = now + INTERVAL
            self.draw(now)

    def line(self, now: float) -> str:
        """The bar's text: ``1,234/10,000 games  12%  812 games/s  11 s left
        [##..........]`` (the bar last: a narrow terminal cuts it first)."""
        total = max(1, self.total)
        part = min(1.0, self.done / total)
        filled = int(BAR * part)
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = f"{_duration((self.total - self.done) / rate)} left" if rate > 0 else "..."
        return (f"{self.done:,}/{self.total:,} {self.unit} {100 * part:3.0f}%  "
                f"{rate:,.0f} {self.unit}/s  {left}  [{'#' * filled}{'.' * (BAR - filled)}]")

    def draw(self, now: float) -> None:
        width = shutil.get_terminal_size((80, 24)).columns - 1  # never wrap the line
        text = self.line(now)[:max(0, width)]
        self._write("\r" + text.ljust(self.shown))
        self.shown = len(text)

    def close(self) -> None:
        """Clear the line (the report then prints on a clean line)."""
        if self.shown:
            self._write("\r" + " " * self.shown + "\r")
            self.shown = 0

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: the run still counts
            self.shown = 0
