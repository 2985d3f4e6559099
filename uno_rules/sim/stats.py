"""Statistics with confidence for simulations: pure functions on counts and lists of
numbers (no engine). The formulas are those of docs/simulation.md."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Z95 = 1.959963984540054  # the standard normal's 97.5th percentile: a two-sided 95% interval
CLOSE_FINISH = 2  # a round is close when a loser ends holding at most this many cards


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); ``(0.0, 1.0)`` when
    there are no trials. Unlike p ± z·√(p(1-p)/n) it stays inside [0, 1] and is not empty
    at 0 or n successes."""
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes in {trials} trials")
    p, n, z2 = successes / trials, trials, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # Clamped: at 0 or n successes rounding could put a bound a hair outside [0, 1].
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(successes: int, trials: int) -> dict[str, Any]:
    """A proportion with its Wilson interval, as the JSON report gives it."""
    low, high = wilson(successes, trials)
    return {"count": successes, "of": trials,
            "rate": round(successes / trials, 4) if trials else None,
            "low": round(low, 4), "high": round(high, 4)}


def percentile(ordered: Sequence[int], p: float) -> int:
    """The value at rank ``int(p * n)`` of the sorted values (0 when there are none): the
    definition simulate has always used for p50/p95."""
    if not ordered:
        return 0
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def mean_interval(values: Sequence[int], z: float = Z95) -> tuple[float, float, float] | None:
    """The mean with a 95% normal-approximation interval, mean ± z·s/√n (s the sample
    standard deviation); None when there are no values or they overflow a float. One
    value: an interval of width 0 (nothing is known of the spread)."""
    n = len(values)
    if n == 0:
        return None
    try:
        mean = math.fsum(values) / n
        if n == 1:
            return mean, mean, mean
        var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
        half = z * math.sqrt(var / n)
    except OverflowError:  # card points beyond a float
        return None
    if not math.isfinite(mean + half):
        return None
    return mean, mean - half, mean + half


def nice_width(span: int, bins: int = 20) -> int:
    """The smallest bin width of the form 1, 2 or 5 times a power of ten that covers
    ``span`` (max - min + 1 values) in at most ``bins`` bins."""
    width = 1
    while True:
        for step in (1, 2, 5):
            if step * width * bins >= span:
                return step * width
        width *= 10


def histogram(values: Sequence[int], bins: int = 20) -> dict[str, Any]:
    """Fixed-width bins of whole numbers: bin i holds ``start + i*width <= v < start +
    (i+1)*width``; ``start`` is the lowest value rounded down to a multiple of the width
    (:func:`nice_width`), so the same values always give the same bins."""
    if not values:
        return {"start": 0, "width": 1, "counts": []}
    low, high = min(values), max(values)
    # bins - 1 for the span: aligning start down to a multiple adds less than one bin.
    width = nice_width(high - low + 1, max(1, bins - 1))
    start = low - low % width
    counts = [0] * ((high - start) // width + 1)
    for v in values:
        counts[(v - start) // width] += 1
    return {"start": start, "width": width, "counts": counts}


def summary(values: Sequence[int], with_histogram: bool = False) -> dict[str, Any]:
    """Mean with its 95% interval, p50/p95/max (and a histogram) of whole numbers."""
    ordered = sorted(values)
    est = mean_interval(ordered)
    if est is None and ordered:  # beyond a float: the integer part of the mean, exactly
        mean: float | int | None = sum(ordered) // len(ordered)
        low = high = None
    elif est is None:
        mean = low = high = None
    else:
        mean, low, high = (round(x, 3) for x in est)
    out: dict[str, Any] = {"n": len(ordered), "mean": mean, "low": low, "high": high,
                           "p50": percentile(ordered, 0.5), "p95": percentile(ordered, 0.95),
                           "max": ordered[-1] if ordered else 0}
    if with_histogram:
        out["histogram"] = histogram(ordered)
    return out


def first_player(wins: int, decided: int, sides: int) -> dict[str, Any]:
    """The first player's win rate against the fair share ``1/sides``: the advantage is
    rate - fair share, its interval the Wilson interval shifted by the fair share."""
    out = rate(wins, decided)
    fair = 1 / sides
    out["fair"] = round(fair, 4)
    out["advantage"] = None if out["rate"] is None else round(wins / decided - fair, 4)
    out["advantage_low"] = round(out["low"] - fair, 4)
    out["advantage_high"] = round(out["high"] - fair, 4)
    return out


def balance(rates: Sequence[float]) -> float | None:
    """1 - (max - min) of the sides' win rates: 1 when every side wins equally often, 0
    when one always wins and another never. None with no rates."""
    if not rates:
        return None
    return round(1 - (max(rates) - min(rates)), 4)


def decisiveness(runner_up: Sequence[int | None]) -> float | None:
    """The share of decided rounds that were not close finishes: the best-placed loser
    (fewest cards among the seats still in the round and not on the winning side) held more
    than :data:`CLOSE_FINISH` cards at the end. A round with no such loser (every other
    seat knocked out) counts as decisive. None with no decided rounds."""
    if not runner_up:
        return None
    close = sum(1 for r in runner_up if r is not None and r <= CLOSE_FINISH)
    return round(1 - close / len(runner_up), 4)


def percent(x: float | None, digits: int = 1) -> str:
    """``0.2712`` as ``27.1%``."""
    return "n/a" if x is None else f"{100 * x:.{digits}f}%"


def describe_rate(r: dict[str, Any]) -> str:
    """A rate for people: ``27.1% ± 1.2 [25.9%, 28.3%]`` (± half the interval's width)."""
    if r["rate"] is None:
        return "n/a (no decided rounds)"
    half = 100 * (r["high"] - r["low"]) / 2
    return f"{percent(r['rate'])} ± {half:.1f} [{percent(r['low'])}, {percent(r['high'])}]"


def describe_summary(s: dict[str, Any], unit: str = "") -> str:
    """A summary for people: ``45.2 ± 1.1 turns (p50 40, p95 90, max 200)``."""
    if s["mean"] is None:
        return "n/a"
    unit = f" {unit}" if unit else ""
    ci = "" if s["low"] is None else f" ± {(s['high'] - s['low']) / 2:.1f}"
    mean = s["mean"] if isinstance(s["mean"], int) and s["low"] is None else \
        f"{s['mean']:.1f}"  # an int beyond a float (no interval) is shown whole
    return f"{mean}{ci}{unit} (p50 {s['p50']}, p95 {s['p95']}, max {s['max']})"


def describe_histogram(h: dict[str, Any], width: int = 40) -> list[str]:
    """A histogram as text bars, one line a bin: ``  20-29  ######  123``."""
    counts = h["counts"]
    if not counts:
        return []
    top, w = max(counts), h["width"]
    label = len(str(h["start"] + len(counts) * w - 1))
    lines = []
    for i, c in enumerate(counts):
        lo = h["start"] + i * w
        rng = f"{lo}" if w == 1 else f"{lo}-{lo + w - 1}"
        lines.append(f"{rng:>{2 * label + 1}} {'#' * round(width * c / top):<{width}} {c}")
    return lines


def describe_head(stats: dict[str, Any], games: int, unit: str, how: str = "",
                  wins: str = "wins") -> list[str]:
    """A report's first lines: what ran (``games`` of ``unit``, ``how`` after it), the
    agents, and the ``wins`` by seat and by team."""
    done = f"{stats['games']} of {games} {unit} (interrupted)" if "interrupted" in stats \
        else f"{games} {unit}"
    house = "".join(f" + {h}" for h in stats["house"])
    lines = [f"{stats['rulebook']}{house}: {done}{how}, {stats['players']} players, "
             f"seed {stats['seed']}"]
    if "agents" in stats:
        lines.append(f"  agents by seat: {', '.join(stats['agents'])}")
    lines.append(f"  {wins} by seat: {stats['wins_by_seat']}")
    if "wins_by_team" in stats:
        lines.append(f"  {wins} by team: {stats['wins_by_team']}")
    return lines


def describe_outcomes(stats: dict[str, Any], stalled: str, why: dict[str, str], decided: str,
                      first: str, rate: str = "win rate") -> list[str]:
    """The report lines common to rounds and matches: the stalled count with its reasons
    (``why``: a phrase per reason), the win rate of each seat and team of the ``decided``
    (``"decided rounds"``), and the ``first`` seat's (``"first player (left of the
    dealer)"``) rate and advantage."""
    reasons = stats.get("stalled_reasons", {})
    lines = [f"  {stalled}: {stats['stalled']}" + (" (" + ", ".join(
        f"{n} {why[w]}" for w, n in reasons.items()) + ")" if reasons else "")]
    lines += [f"  {rate}, 95% interval, of {decided}:"]
    lines += [f"    seat {i}: {describe_rate(r)}" for i, r in enumerate(stats["win_rate_by_seat"])]
    lines += [f"    team {i}: {describe_rate(r)}"
              for i, r in enumerate(stats.get("win_rate_by_team", []))]
    f = stats["first_player"]
    if f["rate"] is not None:
        lines.append(f"  {first}: {describe_rate(f)}, fair share {percent(f['fair'])}, "
                     f"advantage {100 * f['advantage']:+.1f} [{100 * f['advantage_low']:+.1f}, "
                     f"{100 * f['advantage_high']:+.1f}] percentage points")
    return lines


def trained_vs_random(trained: int, baseline: int, games: int) -> str:
    """The rounds won of ``games`` by a trained policy and by uniform random, each with its
    95% Wilson interval, and whether the first's interval lies above the second's rate (the
    training examples' report)."""
    lines = []
    for name, wins in (("trained policy", trained), ("uniform random", baseline)):
        low, high = wilson(wins, games)
        lines.append(f"{name}: won {wins}/{games} = {wins / games:.1%} "
                     f"(95% interval {low:.1%}-{high:.1%})")
    verdict = "above" if wilson(trained, games)[0] > baseline / games else "not above"
    lines.append(f"the trained policy's interval is {verdict} uniform random's win rate")
    return "\n".join(lines)
