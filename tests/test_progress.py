"""The progress bar (uno_rules/cli/progress.py): its line, its redraw rate, that it is cleared,
and that it shows on a real terminal only (a pseudo-terminal running ``uno-rules``), never
piped, with --json or with --quiet; Ctrl-C on the terminal keeps what was simulated."""

from __future__ import annotations

import io
import os
import select
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner
from conftest import reaped

from uno_rules.cli import cli, progress
from uno_rules.cli.progress import Progress, wanted


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_line_says_done_rate_and_time_left() -> None:
    clock, out = Clock(), io.StringIO()
    bar = Progress(1000, stream=out, clock=clock)
    clock.now += 2.0
    assert bar.line(clock.now) == "0/1,000 games   0%  0 games/s  ...  [....................]"
    bar.done = 250
    line = bar.line(clock.now)
    assert line == "250/1,000 games  25%  125 games/s  6 s left  [#####...............]"
    bar.done = 100
    clock.now = 100.0 + 100
    assert "1 games/s  15 min 00 s left  [##.." in bar.line(clock.now)


def test_redrawn_at_most_ten_times_a_second_and_cleared() -> None:
    clock, out = Clock(), io.StringIO()
    bar = Progress(10_000, stream=out, clock=clock)
    for _ in range(10_000):  # 10,000 games in one second
        clock.now += 0.0001
        bar.advance()
    draws = out.getvalue().count("\r")
    assert 9 <= draws <= 11, draws
    bar.close()
    text = out.getvalue()
    assert text.endswith("\r" + " " * bar.shown + "\r") or text.endswith("\r")
    last = text.rsplit("\r", 2)
    assert last[-1] == "" and set(last[-2]) == {" "}  # the line blanked, cursor at its start


def test_wanted_only_on_a_terminal_without_json_or_quiet() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert wanted(Tty(), quiet=False, as_json=False)
    assert not wanted(Tty(), quiet=True, as_json=False)
    assert not wanted(Tty(), quiet=False, as_json=True)
    assert not wanted(io.StringIO(), quiet=False, as_json=False)
    assert not wanted(None, quiet=False, as_json=False)


def test_a_piped_run_has_no_bar() -> None:
    result = CliRunner().invoke(cli, ["simulate", "classic", "--games", "30"])
    assert result.exit_code == 0 and result.stderr == ""
    result = CliRunner().invoke(cli, ["compare", "classic", "classic", "--games", "10"])
    assert result.exit_code == 0 and result.stderr == ""


# ------------------------------------------------------------------ a real terminal
pty = pytest.importorskip("pty", reason="no pseudo-terminals on this platform")


def on_a_tty(args: list[str], interrupt_after: str | None = None,
             timeout: float = 120) -> tuple[int, str]:
    """Run ``uno-rules ARGS`` with its standard output and error on a pseudo-terminal;
    its exit code and everything it wrote there. ``interrupt_after``: send SIGINT once
    that text has appeared."""
    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "120"}  # a fresh terminal has no size: the whole line
    proc = subprocess.Popen([sys.executable, "-m", "uno_rules", *args], stdin=slave,
                            stdout=slave, stderr=slave, close_fds=True, env=env)
    os.close(slave)
    seen, sent = b"", False
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the child closed its end
                    break
                if not chunk:
                    break
                seen += chunk
            if interrupt_after and not sent and interrupt_after.encode() in seen:
                proc.send_signal(signal.SIGINT)
                sent = True
            if not ready and proc.poll() is not None:
                break
    finally:
        os.close(master)
        with reaped(proc):
            proc.wait(timeout=30)
    return proc.returncode, seen.decode("utf-8", "replace").replace("\r\n", "\n")


def test_the_bar_shows_on_a_terminal_and_is_cleared() -> None:
    code, text = on_a_tty(["simulate", "classic", "--games", "150", "--seed", "3"])
    assert code == 0, text
    assert "games/s" in text and "/150 games" in text and " left" in text
    bar, _, report = text.rpartition("\r")  # the last carriage return ends the blanking
    assert report.startswith("classic: 150 games, 4 players, seed 3"), text
    assert bar.rsplit("\r", 1)[-1].strip() == ""  # the bar was blanked out


def test_a_compare_bar_counts_the_rounds_of_every_variant() -> None:
    # 30 deals under two variants: 60 rounds played, not "60 games" (there are 30).
    code, text = on_a_tty(["compare", "classic", "classic", "--house", "stacking",
                           "--games", "30"])
    assert code == 0, text
    assert "/60 rounds" in text and "rounds/s" in text and "games" not in text.split(
        "2 variants")[0], text


def test_no_bar_on_a_terminal_with_json_or_quiet() -> None:
    code, text = on_a_tty(["simulate", "classic", "--games", "40", "--json"])
    assert code == 0 and "games/s" not in text.split("\"timing\"")[0] and "\r" not in text
    code, text = on_a_tty(["compare", "classic", "classic", "--games", "20", "--quiet"])
    assert code == 0 and "\r" not in text and "games/s" not in text


@pytest.mark.parametrize("args, first", [
    (["simulate", "classic", "--games", "1000000"], "classic: "),
    (["compare", "classic", "classic", "--house", "stacking", "--games", "1000000"],
     "2 variants, each on the same "),
])
def test_ctrl_c_on_a_terminal_keeps_what_was_simulated(args: list[str], first: str) -> None:
    # SIGINT once the bar reports a few hundred games: the report of those follows.
    code, text = on_a_tty(args, interrupt_after="00/2,000,000 rounds" if "compare" in args
                          else "00/1,000,000 games")
    assert code == 130, text
    report = text.rpartition("\r")[2].lstrip("\n^C")
    assert report.startswith(first), text
    assert "interrupted" in report.splitlines()[0]


def test_progress_module_is_light() -> None:
    # No third-party import: a plain carriage-return line.
    source = progress.__file__
    with open(source, encoding="utf-8") as f:
        imports = {line.split()[1] for line in f if line.startswith(("import ", "from "))}
    assert imports <= {"__future__", "shutil", "sys", "time", "collections.abc", "typing"}
