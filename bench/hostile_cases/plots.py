"""--plot (issue 16 item 5): paths that can't take the picture. Each is one line, exit 1,
and all but the full disk are refused before any game is played (the suffix, matplotlib and
opening the file come first); /dev/full itself has no picture suffix, and a .png name
pointing at it fails when written, after the report. tests/test_plots.py asserts the
messages."""

from __future__ import annotations

from pathlib import Path


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    sim = ["simulate", "classic", "--games", "1000000", "--players", "4"]  # refused first
    folder = tmp / "plots-folder.png"
    folder.mkdir()
    full = tmp / "full.png"
    if Path("/dev/full").exists():
        full.symlink_to("/dev/full")
    out = [
        ("--plot in a missing folder", [*sim, "--plot", str(tmp / "missing" / "p.png")], 1),
        ("--plot /dev/full (no picture suffix)", [*sim, "--plot", "/dev/full"], 1),
        ("--plot a directory named .png", [*sim, "--plot", str(folder)], 1),
        ("--plot a 300-character name", [*sim, "--plot", str(tmp / ("x" * 300 + ".png"))], 1),
        ("--plot a .jpg", [*sim, "--plot", str(tmp / "p.jpg")], 1),
        ("compare --plot in a missing folder",
         ["compare", "classic", "classic", "--games", "1000000", "--plot",
          str(tmp / "missing" / "c.svg")], 1),
    ]
    if full.is_symlink():  # written after 5 games: the full disk shows at the write
        out.append(("--plot a .png on /dev/full",
                    ["simulate", "classic", "--games", "5", "--plot", str(full)], 1))
    return out
