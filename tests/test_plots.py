"""``--plot FILE.png|.svg`` on simulate and compare (uno_rules/sim/plots.py): the picture opens,
has the documented size and is not blank; bad paths and a missing matplotlib give one line,
exit 1, before any game is played."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from uno_rules.cli import cli
from uno_rules.sim import compare as cmp
from uno_rules.sim.plots import COMPARE_SIZE, NEEDS, SIMULATE_SIZE

matplotlib = pytest.importorskip("matplotlib", reason="the [plot] extra is not installed")


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def check_png(path: Path, size: tuple[int, int]) -> None:
    from matplotlib.image import imread

    pixels = imread(str(path))  # floats in [0, 1], height x width x RGB(A)
    assert (pixels.shape[1], pixels.shape[0]) == size
    rgb = [tuple(round(float(c), 2) for c in px[:3]) for row in pixels[::7] for px in row[::7]]
    colours = set(rgb)
    assert len(colours) > 10, "a near-blank picture"
    white = sum(1 for c in rgb if c == (1.0, 1.0, 1.0))
    assert white < 0.97 * len(rgb), "all white"
    # The bars' blue is there (the first colour of the palette, #0072B2).
    assert any(abs(r - 0.0) < 0.02 and abs(g - 0.45) < 0.02 and abs(b - 0.7) < 0.02
               for r, g, b in colours)


def test_simulate_png(tmp_path: Path) -> None:
    out = tmp_path / "sim.png"
    result = run("simulate", "classic", "--games", "60", "--players", "3", "--seed", "2",
                 "--plot", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("classic: 60 games")  # the report is still printed
    check_png(out, SIMULATE_SIZE)


def test_compare_png(tmp_path: Path) -> None:
    out = tmp_path / "cmp.PNG"  # the suffix in any case
    result = run("compare", "classic", "classic", "--house", "stacking", "--games", "40",
                 "--players", "3", "--plot", str(out), "--json")
    assert result.exit_code == 0, result.output
    check_png(out, COMPARE_SIZE)


def test_svg_is_xml_with_the_titles(tmp_path: Path) -> None:
    out = tmp_path / "sim.svg"
    result = run("simulate", "classic", "--house", "stacking", "--games", "30", "--seed", "5",
                 "--plot", str(out))
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    assert root.tag.endswith("svg")
    text = out.read_text()  # text kept as text: the title and the axis labels are there
    assert "classic + stacking: 4 players, 30 games" in text
    assert "round length (turns)" in text and "win rate (%)" in text
    cmp_out = tmp_path / "cmp.svg"
    assert run("compare", "classic", "teams", "--games", "20", "--plot",
               str(cmp_out)).exit_code == 0
    assert ET.parse(cmp_out).getroot().tag.endswith("svg")


def test_an_interrupted_run_is_still_drawn(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    real = cmp.play_round
    calls = [0]

    def interrupted(*args: Any) -> Any:
        calls[0] += 1
        if calls[0] == 21:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(cmp, "play_round", interrupted)
    out = tmp_path / "cmp.png"
    result = run("compare", "classic", "classic", "--games", "100", "--plot", str(out))
    assert result.exit_code == 130
    assert "same 10 of 100 deals (interrupted; 4 players" in result.stdout
    check_png(out, COMPARE_SIZE)


@pytest.mark.parametrize("command", [["simulate", "classic"], ["compare", "classic", "classic"]])
def test_a_bad_suffix_is_one_line_before_any_game(command: list[str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*args: Any, **kw: Any) -> Any:
        raise AssertionError("a game was played")

    monkeypatch.setattr("uno_rules.sim.rounds.play_round", never)
    monkeypatch.setattr(cmp, "play_round", never)
    result = run(*command, "--games", "5", "--plot", str(tmp_path / "out.jpg"))
    assert result.exit_code == 1
    assert result.stderr == (f"--plot {tmp_path / 'out.jpg'}: expected a file name ending in "
                             ".png or .svg\n")
    assert not (tmp_path / "out.jpg").exists()


@pytest.mark.parametrize("command", [["simulate", "classic"], ["compare", "classic", "classic"]])
def test_without_matplotlib_one_line_and_nothing_simulated(
        command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(sys.modules):
        if name == "matplotlib" or name.startswith("matplotlib."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails

    def never(*args: Any, **kw: Any) -> Any:
        raise AssertionError("a game was played")

    monkeypatch.setattr("uno_rules.sim.rounds.play_round", never)
    monkeypatch.setattr(cmp, "play_round", never)
    result = run(*command, "--games", "5", "--plot", str(tmp_path / "out.png"))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == NEEDS + "\n"
    assert NEEDS == "--plot needs matplotlib: pip install 'uno-rules[plot]'"
    assert not (tmp_path / "out.png").exists()


@pytest.mark.parametrize("where, why", [
    ("missing/out.png", "No such file or directory"),
    ("", "Is a directory"),  # the folder itself, named with a .png suffix
    ("x" * 300 + ".png", "File name too long"),
])
def test_a_path_that_cant_be_written_fails_first(where: str, why: str, tmp_path: Path) -> None:
    if where == "":
        folder = tmp_path / "folder.png"
        folder.mkdir()
        where = str(folder)
    else:
        where = str(tmp_path / where)
    result = run("simulate", "classic", "--games", "5", "--plot", where)
    assert result.exit_code == 1 and result.stdout == ""
    line = result.stderr
    assert line.count("\n") == 1 and line.startswith("--plot ") and why in line
    assert "can't write it" in line


def test_dev_full_itself_has_no_picture_suffix() -> None:
    result = run("simulate", "classic", "--games", "5", "--plot", "/dev/full")
    assert result.exit_code == 1
    assert result.stderr == "--plot /dev/full: expected a file name ending in .png or .svg\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_full_disk_is_one_line_after_the_report(tmp_path: Path) -> None:
    full = tmp_path / "full.png"
    full.symlink_to("/dev/full")
    result = run("simulate", "classic", "--games", "5", "--plot", str(full))
    # /dev/full opens: the disk is full only when written, after the games; the report
    # is printed first, so no work is lost.
    assert result.exit_code == 1
    assert result.stdout.startswith("classic: 5 games")
    assert result.stderr == f"--plot {full}: can't write it: No space left on device\n"


def test_matplotlib_is_imported_only_for_a_plot(tmp_path: Path) -> None:
    import subprocess

    code = ("import sys; from uno_rules.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print('matplotlib' in sys.modules, file=sys.stderr)")
    base = [sys.executable, "-c", code, "simulate", "classic", "--games", "3"]
    plain = subprocess.run(base, capture_output=True, text=True)
    assert plain.stderr.strip() == "False"
    drawn = subprocess.run([*base, "--plot", str(tmp_path / "p.png")], capture_output=True,
                           text=True)
    assert drawn.stderr.strip() == "True" and (tmp_path / "p.png").stat().st_size > 1000


def test_the_readme_picture_is_there_and_named_by_its_command() -> None:
    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "--plot docs/images/compare-stacking.png`" in readme
    assert "](docs/images/compare-stacking.png)" in readme
    check_png(root / "docs" / "images" / "compare-stacking.png", COMPARE_SIZE)
    check_png(root / "docs" / "images" / "simulate-stacking.png", SIMULATE_SIZE)


def test_compare_puts_each_unit_on_its_own_axis() -> None:
    from uno_rules.load.entry import load_rulebook
    from uno_rules.sim.plots import compare_plot

    rulebooks = [load_rulebook("classic"), load_rulebook("classic", house=["stacking"])]
    records: list[Any] = []
    result = cmp.compare(rulebooks, ["classic", "stacking"], 30, 3, 4, records=records)
    fig = compare_plot(result, records)
    labels = {ax.get_xlabel().split("\n")[0]: [t.get_text() for t in ax.get_yticklabels()]
              for ax in fig.axes if ax.get_xlabel().startswith("paired difference")}
    units = {m["unit"] for m in result["metrics"].values()}
    assert set(labels) == {"paired difference (percentage points)",
                           *(f"paired difference ({u})" for u in units - {"%"})}
    assert len(units - {"%"}) >= 3  # turns, points, cards...: never one axis between them
    for xlabel, rows in labels.items():
        unit = xlabel.removeprefix("paired difference ")
        if unit == "(percentage points)":  # the rates: win rates, stalled rounds
            assert rows and all(" (" not in r and "rate" in r or "rounds" in r for r in rows)
        else:  # each row of the unit the axis says, and only those
            assert rows and all(r.endswith(unit) for r in rows), (xlabel, rows)
    named = {(ax.get_xlabel(), ax.get_ylabel()) for ax in fig.axes}
    assert ("round length (turns)", "rounds") in named
    assert any(y.startswith("win rate (%)") for _, y in named)
