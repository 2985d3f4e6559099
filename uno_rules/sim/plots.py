"""Pictures of a simulation or a comparison (``--plot FILE.png`` / ``.svg``), drawn with
matplotlib (the optional extra ``uno-rules[plot]``), imported only when a plot is asked for.

The figures are drawn from the same statistics ``--json`` prints (and, for a comparison,
the rounds' records), on matplotlib's ``Figure`` with the Agg canvas: no display, no pyplot
state. Their size in pixels is fixed (:data:`SIMULATE_SIZE`, :data:`COMPARE_SIZE`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..engine.errors import UnoRulesError
from . import stats as st

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from .rounds import Round

FORMATS = {".png": "png", ".svg": "svg"}
DPI = 100
SIMULATE_SIZE = (1200, 500)  # pixels, width x height
COMPARE_SIZE = (1400, 1000)
NEEDS = "--plot needs matplotlib: pip install 'uno-rules[plot]'"
# Colour-blind-safe (Okabe-Ito), one per variant; more variants cycle.
COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#000000"]


KEY = "filled dot: significant (the interval excludes 0)"


class PlotError(UnoRulesError):  # a ValueError, as before
    """A --plot that can't be made: a bad suffix, no matplotlib (one line, exit 1)."""


def plot_format(path: str) -> str:
    """The format the file's suffix asks for ("png" or "svg"), or PlotError."""
    fmt = FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise PlotError("expected a file name ending in .png or .svg")
    return fmt


def require_matplotlib() -> None:
    """PlotError with how to install it unless matplotlib can be imported; only looked
    up, not imported (that takes most of a second: a refused path should not wait)."""
    from importlib.util import find_spec

    try:
        found = find_spec("matplotlib") is not None
    except (ImportError, ValueError):  # ValueError: sys.modules holds None for it
        found = False
    if not found:
        raise PlotError(NEEDS)


def _figure(size: tuple[int, int]) -> Figure:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:  # found but broken: the same advice
        raise PlotError(NEEDS) from None

    fig = Figure(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)  # attaches itself: savefig renders with Agg (or SVG by format)
    return fig


def _save(fig: Figure, out: IO[bytes], fmt: str) -> None:
    from matplotlib import rc_context

    # SVG text kept as text (not outlines): smaller, searchable, selectable.
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "uno-rules"}):
        fig.savefig(out, format=fmt, dpi=DPI, metadata={"Software": "uno-rules"}
                    if fmt == "png" else {"Creator": "uno-rules", "Date": None})


def _who(data: dict[str, Any]) -> str:
    if data.get("agents") is not None:
        return "agents " + ", ".join(data["agents"])
    return f"policy {data['policy']}"


def _rates(ax: Axes, rates: Sequence[dict[str, Any]], x: Sequence[float], colour: str,
           label: str | None, width: float, values: bool = False) -> None:
    """Bars of win rates (in %) with their 95% intervals as error bars."""
    heights = [100 * (r["rate"] or 0) for r in rates]
    below = [h - 100 * r["low"] if r["rate"] is not None else 0
             for h, r in zip(heights, rates, strict=True)]
    above = [100 * r["high"] - h if r["rate"] is not None else 0
             for h, r in zip(heights, rates, strict=True)]
    ax.bar(x, heights, width, color=colour, label=label, yerr=[below, above], capsize=4,
           error_kw={"elinewidth": 1.2, "ecolor": "#333333"}, edgecolor="white")
    if values:
        for xi, h, r in zip(x, heights, rates, strict=True):
            if r["rate"] is not None:
                ax.annotate(f"{h:.1f}%", (xi, 100 * r["high"]), xytext=(0, 3),
                            textcoords="offset points", ha="center", fontsize=9)


def _fair(ax: Axes, fair: float) -> None:
    ax.axhline(100 * fair, color="#C00000", linestyle="--", linewidth=1.3,
               label=f"fair share {st.percent(fair)}")


def _histogram(ax: Axes, h: dict[str, Any], colour: str, label: str | None = None,
               step: bool = False) -> None:
    counts = h["counts"]
    edges = [h["start"] + i * h["width"] for i in range(len(counts) + 1)]
    if step:
        ax.stairs(counts, edges, color=colour, linewidth=2, label=label)
    else:
        ax.stairs(counts, edges, fill=True, color=colour, alpha=0.85, label=label)
        ax.stairs(counts, edges, color="white", linewidth=0.8)


def simulate_figure(stats: dict[str, Any], out: IO[bytes], fmt: str) -> None:
    """``simulate``'s picture: the length histogram (rounds in turns; with ``--match``,
    matches in rounds) and the win rate per seat with its 95% interval against the fair
    share; ``stats`` is the JSON ``simulate`` prints (rounds or matches)."""
    fig = _figure(SIMULATE_SIZE)
    house = "".join(f" + {h}" for h in stats["house"])
    matches = "match" in stats
    unit, step = ("matches", "rounds") if matches else ("games", "turns")
    games = f"{stats['games']:,} {unit}"
    if stats.get("interrupted"):
        games = f"{stats['games']:,} of {stats['games_requested']:,} {unit} (interrupted)"
    stalled = f", {stats['stalled']:,} stalled" if stats["stalled"] else ""
    to = f" to {stats['match']['target_score']:,}" if matches else ""
    fig.suptitle(f"{stats['rulebook']}{house}{to}: {stats['players']} players, {games}"
                 f"{stalled}, seed {stats['seed']}, {_who(stats)}", fontsize=13)
    length, rates = fig.subplots(1, 2, width_ratios=[3, 2])
    lengths = stats["rounds_per_match"] if matches else stats["length"]["turns"]
    what = "match" if matches else "round"
    _histogram(length, lengths["histogram"], COLOURS[0])
    if lengths["mean"] is not None:
        length.axvline(lengths["mean"], color="#C00000", linewidth=1.5,
                       label=f"mean {lengths['mean']:.1f} {step}")
        length.axvline(lengths["p95"], color="#555555", linestyle=":", linewidth=1.5,
                       label=f"95th percentile {lengths['p95']} {step}")
        length.legend(frameon=False, loc="upper right")
    length.set_title(f"{what.capitalize()} length ({lengths['n']:,} {what}es)"
                     if matches else f"Round length ({lengths['n']:,} rounds)")
    length.set_xlabel(f"{what} length ({step})")
    length.set_ylabel("matches" if matches else "rounds")
    seats = stats["win_rate_by_seat"]
    _rates(rates, seats, range(len(seats)), COLOURS[0], None, 0.6, values=len(seats) <= 8)
    _fair(rates, stats["first_player"]["fair"])
    rates.set_xticks(range(len(seats)), [f"seat {i}" for i in range(len(seats))],
                     rotation=45 if len(seats) > 6 else 0)
    rates.set_title(f"{'Match wins' if matches else 'Win rate'} by seat "
                    f"({stats['decided']:,} decided {what}{'es' if matches else 's'})")
    rates.set_ylabel("win rate (%), bars: 95% interval")
    rates.set_ylim(0, min(100, max([100 * r["high"] for r in seats] + [0]) * 1.25 + 1))
    rates.legend(frameon=False, loc="upper right")
    _save(fig, out, fmt)


def compare_figure(result: dict[str, Any], records: Sequence[Sequence[Round]],
                   out: IO[bytes], fmt: str) -> None:
    """:func:`compare_plot` written to ``out`` as ``fmt``."""
    _save(compare_plot(result, records), out, fmt)


def compare_plot(result: dict[str, Any], records: Sequence[Sequence[Round]]) -> Figure:
    """``compare``'s picture: each variant's win rate per seat (95% intervals), its round
    length distribution, and the paired differences against the first variant with their
    95% intervals, a panel per unit (rates; turns, points...); ``result`` is
    :func:`uno_rules.sim.compare.compare`'s, ``records`` the rounds of each variant."""
    variants = result["variants"]
    letters = [chr(ord("A") + i) for i in range(len(variants))]
    names = [f"{k}: {v['label']}" for k, v in zip(letters, variants, strict=True)]
    colours = [COLOURS[i % len(COLOURS)] for i in range(len(variants))]
    fig = _figure(COMPARE_SIZE)
    games = f"{result['games']:,} deals"
    if result.get("interrupted"):
        games = f"{result['games']:,} of {result['games_requested']:,} deals (interrupted)"
    what = " vs ".join(v["label"] for v in variants) if len(variants) == 2 \
        else f"{len(variants)} variants"
    fig.suptitle(f"{what}: the same {games}, {result['players']} players, "
                 f"seed {result['seed']}, {_who(result)}", fontsize=13)
    grid = fig.add_gridspec(2, 2)
    seats_ax, length_ax = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1])
    rate_diff = fig.add_subplot(grid[1, 0])
    metrics = result["metrics"]
    _compare_seats(seats_ax, result, records, names, colours)

    turns = [[r.turns for r in rs if r.turns is not None] for rs in records]
    shared = st.histogram([t for ts in turns for t in ts], bins=40)
    for i, name in enumerate(names):
        h = _rebin(turns[i], shared["start"], shared["width"], len(shared["counts"]))
        mean = metrics["turns"]["values"][i]["mean"]
        label = name if mean is None else f"{name} (mean {mean:.1f})"
        _histogram(length_ax, h, colours[i], label, step=True)
    length_ax.set_title("Round length distribution")
    length_ax.set_xlabel("round length (turns)")
    length_ax.set_ylabel("rounds")
    length_ax.legend(frameon=False, fontsize=9)

    against = ("B - A" if len(variants) == 2 else "each variant - A") + \
        ", 95% intervals"
    rate_rows = [k for k, m in metrics.items() if m["unit"] == "%"]
    _forest(rate_diff, metrics, rate_rows, letters, colours, 100)
    rate_diff.set_xlabel("paired difference (percentage points)\n" + KEY)
    rate_diff.set_title(f"Rates: {against}")
    # One axis per unit: a difference in turns and one in points share no scale.
    units = list(dict.fromkeys(m["unit"] for m in metrics.values() if m["unit"] != "%"))
    cells = grid[1, 1].subgridspec(max(1, len(units)), 1)
    for n, unit in enumerate(units):
        ax = fig.add_subplot(cells[n, 0])
        _forest(ax, metrics, [k for k, m in metrics.items() if m["unit"] == unit], letters,
                colours, 1)
        ax.set_xlabel(f"paired difference ({unit})", fontsize=9)
        if n == 0:
            ax.set_title(f"Per round: {against}")
    return fig


def _compare_seats(ax: Any, result: dict[str, Any], records: Sequence[Sequence[Round]],
                   names: Sequence[str], colours: Sequence[str]) -> None:
    """``compare_figure``'s win rate by seat panel, with each variant's fair share."""
    metrics = result["metrics"]
    players = result["players"]
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        rates = [metrics[f"seat_{s}_win"]["values"][i] for s in range(players)]
        _rates(ax, rates, [s - 0.4 + width * (i + 0.5) for s in range(players)],
               colours[i], name, width)
    # The fair share per seat is 1/sides (partners of a winner win with it).
    fairs = [1 / _sides(players, rs) for rs in records]
    if len(set(fairs)) == 1:
        _fair(ax, fairs[0])
    else:  # variants of different team sizes: a dash over each variant's own bars
        for i, fair in enumerate(fairs):
            ax.hlines([100 * fair] * players,
                      [s - 0.4 + width * i for s in range(players)],
                      [s - 0.4 + width * (i + 1) for s in range(players)],
                      color="#C00000", linestyle="--", linewidth=1.3,
                      label="fair share of each variant" if i == 0 else None)
    ax.set_xticks(range(players), [f"seat {s}" for s in range(players)])
    ax.set_ylabel("win rate (%), bars: 95% interval")
    ax.set_title("Win rate by seat")
    top = max(100 * v["high"] for s in range(players)
              for v in metrics[f"seat_{s}_win"]["values"])
    ax.set_ylim(0, min(100, top * 1.35 + 1))
    ax.legend(frameon=False, fontsize=9, loc="upper left", ncols=2)


def _sides(players: int, records: Sequence[Round]) -> int:
    """How many sides win (players, or partnerships): the most winners one round had tells
    the team size."""
    most = max((len(r.winners) for r in records), default=1)
    return max(1, players // max(1, most))


def _rebin(values: Sequence[int], start: int, width: int, bins: int) -> dict[str, Any]:
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, (v - start) // width)] += 1
    return {"start": start, "width": width, "counts": counts}


def _forest(ax: Axes, metrics: dict[str, Any], keys: Sequence[str], letters: Sequence[str],
            colours: Sequence[str], scale: float) -> None:
    """One row per metric: each variant's paired difference against the first, a dot
    with its 95% interval (filled: significant, the interval excludes 0)."""
    others = len(letters) - 1
    labels = []
    for row, key in enumerate(keys):
        m = metrics[key]
        unit = "" if m["unit"] == "%" else f" ({m['unit']})"
        labels.append(f"{m['name']}{unit}")
        for d in m["diff"]:
            if d["mean"] is None:
                continue
            i = d["variant"]
            y = row + (0 if others == 1 else 0.6 * ((i - 1) / (others - 1) - 0.5))
            mean = scale * d["mean"]
            ax.errorbar([mean], [y], xerr=[[mean - scale * d["low"]],
                                           [scale * d["high"] - mean]],
                        fmt="o", color=colours[i], capsize=4, markersize=7,
                        markerfacecolor=colours[i] if d["significant"] else "white",
                        label=f"{letters[i]} - A" if row == 0 else None)
    ax.axvline(0, color="#333333", linewidth=1)
    ax.set_yticks(range(len(keys)), labels)
    ax.set_ylim(len(keys) - 0.5, -0.5)  # the first metric at the top
    ax.grid(axis="x", color="#DDDDDD")
    if others > 1:
        ax.legend(frameon=False, fontsize=9)
