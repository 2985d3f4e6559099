"""The statistics formulas (uno_rules/sim/stats.py) on known values and hand-made inputs."""

from __future__ import annotations

import math
import random

import pytest

from uno_rules.sim import stats as st


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    (0, 10, 0.0, 0.2775),      # published Wilson bounds (Newcombe 1998, Brown et al. 2001)
    (5, 10, 0.2366, 0.7634),
    (50, 100, 0.4038, 0.5962),
    (100, 100, 0.9630, 1.0),
    (1, 1, 0.2065, 1.0),
])
def test_wilson_known_values(k: int, n: int, low: float, high: float) -> None:
    got = st.wilson(k, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_edges() -> None:
    assert st.wilson(0, 0) == (0.0, 1.0)  # nothing known
    with pytest.raises(ValueError, match="11 successes in 10 trials"):
        st.wilson(11, 10)
    low, high = st.wilson(30, 100)
    assert low < 0.3 < high and (high - low) / 2 == pytest.approx(0.088, abs=1e-3)


def test_wilson_interval_covers_a_known_coin_about_95_percent_of_the_time() -> None:
    rng, p, n, runs = random.Random(16), 0.3, 200, 1000
    covered = 0
    for _ in range(runs):
        heads = sum(rng.random() < p for _ in range(n))
        low, high = st.wilson(heads, n)
        covered += low <= p <= high
    assert 0.93 <= covered / runs <= 0.97, covered


def test_mean_interval_covers_a_known_mean() -> None:
    rng, runs, covered = random.Random(7), 500, 0
    for _ in range(runs):
        values = [rng.randint(1, 6) for _ in range(100)]  # a die: mean 3.5
        est = st.mean_interval(values)
        assert est is not None
        covered += est[1] <= 3.5 <= est[2]
    assert 0.92 <= covered / runs <= 0.98, covered


def test_mean_interval_values() -> None:
    mean, low, high = st.mean_interval([1, 2, 3]) or (0, 0, 0)
    assert mean == 2 and high - mean == pytest.approx(st.Z95 / math.sqrt(3))
    assert mean - low == pytest.approx(high - mean)
    assert st.mean_interval([7]) == (7, 7, 7)
    assert st.mean_interval([]) is None
    assert st.mean_interval([10 ** 400, 1]) is None  # beyond a float


def test_percentile_is_simulates_definition() -> None:
    ordered = list(range(1, 101))
    assert st.percentile(ordered, 0.5) == 51 and st.percentile(ordered, 0.95) == 96
    assert st.percentile([4], 0.95) == 4 and st.percentile([], 0.5) == 0


@pytest.mark.parametrize(("span", "width"), [(1, 1), (19, 1), (20, 2), (100, 10),
                                             (95, 5), (96, 10), (2001, 200)])
def test_nice_width(span: int, width: int) -> None:
    assert st.nice_width(span, 19) == width


def test_histogram_bins() -> None:
    h = st.histogram(list(range(100)))
    assert h == {"start": 0, "width": 10, "counts": [10] * 10}
    h = st.histogram([5, 7, 7, 23])
    assert h["start"] == 5 and h["width"] == 1 and len(h["counts"]) == 19
    assert h["counts"][0] == 1 and h["counts"][2] == 2 and h["counts"][18] == 1
    h = st.histogram([33, 250, 251, 999])  # start aligned down to a multiple of the width
    # span 967: 50 x 19 bins is too few, so 100 wide
    assert h == {"start": 0, "width": 100, "counts": [1, 0, 2, 0, 0, 0, 0, 0, 0, 1]}
    h = st.histogram([130, 1049])  # span 920: 50 wide, from 100 (aligned), 19 bins
    assert h["width"] == 50 and h["start"] == 100 and len(h["counts"]) == 19
    assert st.histogram([]) == {"start": 0, "width": 1, "counts": []}


def test_histogram_properties() -> None:
    rng = random.Random(3)
    for _ in range(200):
        values = [rng.randint(0, rng.choice([5, 50, 5000])) + rng.randint(0, 900)
                  for _ in range(rng.randint(1, 60))]
        h = st.histogram(values)
        assert 1 <= len(h["counts"]) <= 20 and sum(h["counts"]) == len(values)
        assert h["start"] % h["width"] == 0 and h["start"] <= min(values)
        assert max(values) < h["start"] + h["width"] * len(h["counts"])
        assert h["counts"][-1] > 0


def test_summary() -> None:
    s = st.summary([3, 1, 2], with_histogram=True)
    assert (s["n"], s["mean"], s["p50"], s["p95"], s["max"]) == (3, 2, 2, 3, 3)
    assert s["low"] < 2 < s["high"] and s["histogram"]["counts"] == [1, 1, 1]
    huge = st.summary([10 ** 400, 10 ** 400 + 2])
    assert huge["mean"] == 10 ** 400 + 1 and huge["low"] is None
    assert st.summary([])["mean"] is None
    text = st.describe_summary(huge)
    assert text.startswith("1" + "0" * 399 + "1 (p50") and "±" not in text
    assert st.describe_summary(st.summary([])) == "n/a"


def test_first_player_advantage() -> None:
    f = st.first_player(30, 100, 4)
    assert f["rate"] == 0.3 and f["fair"] == 0.25 and f["advantage"] == 0.05
    low, high = st.wilson(30, 100)
    assert f["advantage_low"] == round(round(low, 4) - 0.25, 4)
    assert f["advantage_high"] == round(round(high, 4) - 0.25, 4)
    assert st.first_player(0, 0, 2)["advantage"] is None


def test_balance() -> None:
    assert st.balance([0.25] * 4) == 1
    assert st.balance([1.0, 0.0]) == 0
    assert st.balance([0.3, 0.2, 0.25, 0.25]) == 0.9
    assert st.balance([]) is None


def test_decisiveness() -> None:
    # close finishes: a loser held 2 cards, another 0 (knocked out seats are left out
    # before); 3 cards and "no loser left" are decisive.
    assert st.decisiveness([None, 3, 2, 0]) == 0.5
    assert st.decisiveness([5, 9]) == 1 and st.decisiveness([1]) == 0
    assert st.decisiveness([]) is None


def test_text_forms() -> None:
    r = st.rate(271, 1000)
    assert st.describe_rate(r) == "27.1% ± 2.7 [24.4%, 29.9%]"
    assert st.describe_rate(st.rate(0, 0)) == "n/a (no decided rounds)"
    s = st.summary([40, 50, 60])
    assert st.describe_summary(s, "turns").startswith("50.0 ± 11.3 turns (p50 50")
    lines = st.describe_histogram({"start": 0, "width": 10, "counts": [2, 0, 1]}, width=4)
    assert lines == ["  0-9 #### 2", "10-19      0", "20-29 ##   1"]


def test_the_advantage_is_said_in_percentage_points_not_points() -> None:
    # "points" alone reads as the game's scoring points, printed a few lines below.
    stats = {"stalled": 0, "stalled_by_reason": {}, "win_rate_by_seat": [],
             "first_player": st.first_player(30, 100, 4)}
    lines = st.describe_outcomes(stats, "stalled", {}, "100 decided", "first player")
    assert lines[-1].endswith("+5.0 [-3.1, +14.6] percentage points"), lines
