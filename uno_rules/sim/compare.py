"""Comparing rule variants with common random numbers (``uno-rules compare``).

Every variant plays the same round seeds (:func:`uno_rules.sim.rounds.game_seeds`) with the
same players, so a round of one variant and the round with the same seed of another start
from the same shuffle: their per-round difference measures the rules, not the luck of the
deal. Each metric gets its value per variant (a rate with its Wilson interval, or a mean
with its interval) and, against the first variant, the mean of the paired per-round
differences with a 95% interval (docs/simulation.md, "Comparing variants").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine.errors import UnoRulesError
from ..engine.rulebook import Rulebook
from . import stats as st
from .rounds import Round, RunSpec, play_round

if TYPE_CHECKING:
    from ..play.agents import AgentClass


MAX_VARIANTS = 26  # A to Z in the report; more would be a table nobody reads


class VariantError(UnoRulesError):  # a ValueError, as before
    """A variant the command line can't make sense of (one line, exit 1)."""


@dataclass
class Variant:
    """One side of a comparison: a rulebook reference with its own house rules and
    settings (``--set NAME=VALUE`` as text, as the loader takes them)."""

    ref: str
    house: list[str] = field(default_factory=list)
    settings: dict[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """``classic + stacking (hand_size=5)``: how reports name it."""
        sets = ", ".join(f"{k}={v}" for k, v in self.settings.items())
        return self.ref + "".join(f" + {h}" for h in self.house) + (f" ({sets})" if sets
                                                                      else "")


def parse_variants(args: Sequence[str], is_file: Callable[[str], bool]) -> list[Variant]:
    """Variants from the command line's words: ``NAME[+HOUSE...]``, each optionally
    followed by ``--house H`` and ``--set NAME=VALUE`` (repeatable) that apply to it alone.
    A word that names an existing file (``is_file``) is taken whole, ``+`` and all."""
    variants: list[Variant] = []
    words = list(args)
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("--house", "--set") or word.startswith(("--house=", "--set=")):
            option, eq, value = word.partition("=")
            if not eq:
                if i + 1 >= len(words):
                    raise VariantError(f"{option}: expected a value after it")
                i += 1
                value = words[i]
            if not variants:
                raise VariantError(f"{option} {value}: comes before any variant (put it "
                                   f"after the variant it changes)")
            if option == "--house":
                if not value.strip():
                    raise VariantError("--house: empty name")
                variants[-1].house.append(value)
            else:
                key, sep, setting = value.partition("=")
                if not sep or not key.strip():
                    raise VariantError(f"--set {value!r}: expected NAME=VALUE")
                variants[-1].settings[key.strip()] = setting.strip()
        elif word.startswith("-"):
            raise VariantError(f"{word}: not an option of compare (see uno-rules compare "
                               f"--help)")
        else:
            if is_file(word):
                parts = [word]
            else:
                parts = word.split("+")
            if any(not p.strip() for p in parts):
                raise VariantError(f"variant {word!r}: an empty name (expected "
                                   f"RULEBOOK[+HOUSE...])")
            if len(variants) == MAX_VARIANTS:
                raise VariantError(f"more than {MAX_VARIANTS} variants (compare a few at a "
                                   f"time)")
            variants.append(Variant(parts[0], parts[1:]))
        i += 1
    if len(variants) < 2:
        raise VariantError(f"{len(variants)} variant{'s' if len(variants) != 1 else ''}: "
                           f"compare needs at least two (say classic classic --house stacking)")
    return variants


# ------------------------------------------------------------------ per-round values
# A metric: its JSON key, what people read, its unit, whether it is a 0/1 rate, and its
# value in one round (None: not defined there, e.g. the winner of a stalled round).
Extract = Callable[[Round, Callable[[int], int]], "int | None"]


def _first_won(r: Round, team: Callable[[int], int]) -> int | None:
    if not r.winners or r.first is None:
        return None
    return int(team(r.first) == team(r.winners[0]))


def _seat_won(seat: int) -> Extract:
    def won(r: Round, team: Callable[[int], int]) -> int | None:
        return int(seat in r.winners) if r.winners else None
    return won


BASE_METRICS: list[tuple[str, str, str, bool, Extract]] = [
    ("first_player_win", "first player's win rate", "%", True, _first_won),
    ("turns", "round length", "turns", False, lambda r, t: r.turns),
    ("actions", "round length", "actions", False, lambda r, t: r.actions),
    ("points", "points per round", "points", False, lambda r, t: r.points),
    ("cards_drawn", "cards drawn per round", "cards", False, lambda r, t: r.drawn),
    ("stalled", "stalled rounds", "%", True, lambda r, t: int(r.stalled is not None)),
]


def metrics_for(players: int) -> list[tuple[str, str, str, bool, Extract]]:
    """The metrics compared, with one win rate per seat."""
    return BASE_METRICS + [(f"seat_{s}_win", f"seat {s}'s win rate", "%", True,
                            _seat_won(s)) for s in range(players)]


def _value(values: list[int], is_rate: bool) -> dict[str, Any]:
    """One variant's value of a metric: a rate with its Wilson interval, or a mean with its
    normal interval (the definitions of simulate's report)."""
    if is_rate:
        return st.rate(sum(values), len(values))
    s = st.summary(values)
    return {k: s[k] for k in ("n", "mean", "low", "high")}


def paired(base: list[int | None], other: list[int | None]) -> dict[str, Any]:
    """The mean of ``other - base`` over the rounds where both have a value, with its 95%
    interval; significant when the interval excludes 0."""
    diffs = [b - a for a, b in zip(base, other, strict=True) if a is not None and b is not None]
    est = st.mean_interval(diffs)
    if est is None:
        return {"n": len(diffs), "mean": None, "low": None, "high": None,
                "significant": False}
    mean, low, high = (round(x, 4) for x in est)
    # Exactly 0 when every difference is (a rulebook against itself), whatever the rounding.
    return {"n": len(diffs), "mean": mean, "low": low, "high": high,
            "significant": len(diffs) > 1 and (low > 0 or high < 0)}


# ------------------------------------------------------------------ the run
def play_deal(specs: Sequence[RunSpec], seed: int) -> list[Round]:
    """One deal played by every variant (a spec each, all alike but their rulebook): its
    round's record per variant (what a worker process or a Dask worker plays per seed)."""
    return [play_round(s.rulebook, s.players, seed, s.max_actions, s.policy, s.max_steps,
                       s.agents) for s in specs]


def _deals(specs: Sequence[RunSpec], workers: int,
           client: Any) -> Generator[list[Round], None, None]:
    """The deals' records in deal order, played by ``workers`` processes or on
    ``client``'s Dask cluster (their chunks and Ctrl-C: :mod:`uno_rules.sim.workers`)."""
    run = specs[0]
    if client is not None:
        from .distributed import dask_rounds

        return dask_rounds(client, tuple(specs), run.seeds(), run.games, play=play_deal)
    from .workers import parallel_rounds, resolve_workers

    return parallel_rounds(tuple(specs), run.seeds(), run.games, resolve_workers(workers),
                           play=play_deal)


def check_run(rulebooks: Sequence[Rulebook], games: int, players: int, seed: int,
              max_actions: int | None, policy: str, max_steps: int | None,
              agents: Sequence[tuple[str, AgentClass]] | None) -> None:
    """The checks :func:`uno_rules.sim.simulate.simulate` makes, before any round is played,
    and that every rulebook is for ``players``; as :func:`check_specs`."""
    spec = RunSpec(rulebooks[0], players, seed, games, policy, agents, max_steps, max_actions)
    check_specs([spec.on(rb) for rb in rulebooks])


def check_specs(specs: Sequence[RunSpec]) -> None:
    """The checks :func:`uno_rules.sim.simulate.simulate_spec` makes, before any round is
    played (:meth:`RunSpec.check`), and that every spec's rulebook is for its players; the
    specs are alike but for the rulebook (:meth:`RunSpec.on`; ValueError otherwise). The web's
    jobs check a run with it before starting its process."""
    first = specs[0]
    if any(s.on(first.rulebook) != first for s in specs):
        raise ValueError("the variants of a comparison differ in more than their rulebook")
    first.check(variants=[s.rulebook for s in specs])


def _decided(r: Round) -> bool:
    """Whether a round counts as decided (as :meth:`uno_rules.sim.simulate.Stats.count`)."""
    return r.stalled is None and r.points is not None and r.first is not None


def compare(rulebooks: Sequence[Rulebook], labels: Sequence[str], games: int, players: int,
            seed: int, max_actions: int | None = None, policy: str = "play_first", *,
            max_steps: int | None = None,
            agents: Sequence[tuple[str, AgentClass]] | None = None,
            on_round: Callable[[], None] | None = None,
            records: list[list[Round]] | None = None, workers: int = 1,
            client: Any = None) -> dict[str, Any]:
    """Simulate each rulebook on the same round seeds and compare them against the first;
    returns the report ``compare --json`` prints. Each deal is played by every variant in
    turn before the next deal, so Ctrl-C (KeyboardInterrupt) keeps every deal finished by
    all of them: the comparison is of those (``interrupted`` and ``games_requested`` set;
    KeyboardInterrupt is raised again when not one deal was finished). ``on_round`` is
    called after each round played (a progress bar); ``records``, when given, receives
    the rounds' records per variant (a plot draws from them). ``workers`` (processes,
    0: one per core) or ``client`` (a ``distributed.Client``) play the deals elsewhere,
    each deal by every variant in one chunk, merged in deal order: the same report, less
    ``timing``. The same as :func:`compare_specs` with one :class:`RunSpec` per variant."""
    spec = RunSpec(rulebooks[0], players, seed, games, policy, agents, max_steps, max_actions)
    return compare_specs([spec.on(rb) for rb in rulebooks], labels, on_round=on_round,
                         records=records, workers=workers, client=client)


def compare_specs(specs: Sequence[RunSpec], labels: Sequence[str], *,
                  on_round: Callable[[], None] | None = None,
                  records: list[list[Round]] | None = None, workers: int = 1,
                  client: Any = None) -> dict[str, Any]:
    """Compare the variants ``specs`` name (one :class:`RunSpec` each, alike but for the
    rulebook: :meth:`RunSpec.on`; ValueError otherwise) against the first; as
    :func:`compare`."""
    check_specs(specs)
    first = specs[0]
    games, players, seed, policy, agents = (first.games, first.players, first.seed,
                                            first.policy, first.agents)
    rulebooks = [s.rulebook for s in specs]
    start = time.perf_counter()
    rounds: list[list[Round]] = [[] for _ in specs] if records is None else records
    rounds[:] = [[] for _ in specs]
    done = 0
    try:
        with closing(_each_deal(specs, on_round, workers, client)) as deals:
            for deal in deals:
                for records_of, record in zip(rounds, deal, strict=True):
                    records_of.append(record)
                done += 1
    except KeyboardInterrupt:  # the deal under way is dropped; the finished ones count
        for records_of in rounds:
            del records_of[done:]
        if not done:
            raise
    runs = [(sum(map(_decided, rs)), sum(not _decided(r) for r in rs)) for rs in rounds]
    out: dict[str, Any] = {
        "games": done, "players": players, "seed": seed,
        **({"interrupted": True, "games_requested": games} if done < games else {}),
        "policy": None if agents is not None else policy,
        **({"agents": [name for name, _ in agents]} if agents is not None else {}),
        "variants": [{"label": label, "rulebook": rb.name, "house": list(rb.house),
                      "decided": decided, "stalled": stalled}
                     for label, rb, (decided, stalled) in zip(labels, rulebooks, runs,
                                                              strict=True)],
        # Every variant saw these deals: the first round's seed shows it.
        "round_seeds": {"first": rounds[0][0].seed if rounds[0] else None,
                        "same": all([r.seed for r in rs] == [r.seed for r in rounds[0]]
                                    for rs in rounds)},
    }
    out["metrics"] = _metrics(rulebooks, rounds, players)
    out["timing"] = {"seconds": round(time.perf_counter() - start, 3)}
    return out


def _each_deal(specs: Sequence[RunSpec], on_round: Callable[[], None] | None, workers: int,
               client: Any) -> Generator[list[Round], None, None]:
    """Each deal's records, one per variant, in deal order: played here, or by
    :func:`_deals`; ``on_round`` is called after each round."""
    if client is not None or workers != 1:
        with closing(_deals(specs, workers, client)) as deals:
            for deal in deals:
                if on_round is not None:
                    for _ in deal:
                        on_round()
                yield deal
        return
    first = specs[0]
    for s in first.seeds():
        played = []
        for spec in specs:
            played.append(play_round(spec.rulebook, first.players, s, first.max_actions,
                                     first.policy, first.max_steps, first.agents))
            if on_round is not None:
                on_round()
        yield played


def _metrics(rulebooks: Sequence[Rulebook], rounds: Sequence[Sequence[Round]],
             players: int) -> dict[str, Any]:
    """Each metric's value per variant and its paired differences against the first."""
    out: dict[str, Any] = {}
    for key, name, unit, is_rate, extract in metrics_for(players):
        per_variant: list[list[int | None]] = []
        for rb, played in zip(rulebooks, rounds, strict=True):
            size = max(1, rb.team_size)

            def team(seat: int, size: int = size) -> int:
                return seat % (players // size)
            per_variant.append([extract(r, team) for r in played])
        out[key] = {
            "name": name, "unit": unit,
            "values": [_value([v for v in vs if v is not None], is_rate)
                       for vs in per_variant],
            "diff": [paired(per_variant[0], vs) | {"variant": i}
                     for i, vs in enumerate(per_variant) if i],
        }
    return out


# ------------------------------------------------------------------ the report
def _show(value: dict[str, Any], unit: str) -> str:
    """A variant's value: ``27.1% ± 1.2`` or ``57.6 ± 0.9``."""
    if unit == "%":
        if value["rate"] is None:
            return "n/a"
        return f"{st.percent(value['rate'])} ± {100 * (value['high'] - value['low']) / 2:.1f}"
    if value["mean"] is None:
        return "n/a"
    if value["low"] is None:
        return f"{value['mean']}"
    return f"{value['mean']:.1f} ± {(value['high'] - value['low']) / 2:.1f}"


def _show_diff(d: dict[str, Any], unit: str) -> str:
    """A paired difference: ``+3.3 ± 0.9`` (percentage points for a rate)."""
    if d["mean"] is None:
        return "n/a"
    k = 100 if unit == "%" else 1
    return f"{k * d['mean']:+.1f} ± {k * (d['high'] - d['low']) / 2:.1f}"


def report(result: dict[str, Any]) -> list[str]:
    """The comparison for people: a verdict per metric for two variants, a table against
    the first for more."""
    variants = result["variants"]
    who = (f"agents {', '.join(result['agents'])}" if "agents" in result
           else f"policy {result['policy']}")
    deals, stopped = f"{result['games']} deals", ""
    if result.get("interrupted"):  # as simulate's report says it
        deals, stopped = (f"{result['games']} of {result['games_requested']} deals",
                          "interrupted; ")
    lines = [f"{len(variants)} variants, each on the same {deals} "
             f"({stopped}{result['players']} players, seed {result['seed']}, {who}):"]
    for i, v in enumerate(variants):
        lines.append(f"  {chr(ord('A') + i)}: {v['label']} "
                     f"({v['decided']} decided, {v['stalled']} stalled)")
    metrics = result["metrics"]

    def title(m: dict[str, Any]) -> str:
        return str(m["name"]) + ("" if m["unit"] == "%" else f" ({m['unit']})")

    if len(variants) == 2:
        for m in metrics.values():
            d = m["diff"][0]
            verdict = "significant" if d["significant"] else "not significant"
            unit = "" if m["unit"] == "%" else f" {m['unit']}"
            lines.append(f"  {m['name']}: {_show(m['values'][0], m['unit'])} → "
                         f"{_show(m['values'][1], m['unit'])}{unit} (difference "
                         f"{_show_diff(d, m['unit'])}, {verdict})")
    else:
        rows = [["metric", variants[0]["label"]] + [v["label"] for v in variants[1:]]]
        for m in metrics.values():
            row = [title(m), _show(m["values"][0], m["unit"])]
            for value, d in zip(m["values"][1:], m["diff"], strict=True):
                mark = "*" if d["significant"] else ""
                row.append(f"{_show(value, m['unit'])} ({_show_diff(d, m['unit'])}{mark})")
            rows.append(row)
        widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
        lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                  for r in rows]
        lines.append("  (difference against the first, 95% interval; * significant: the "
                     "interval excludes 0)")
    lines.append("  differences are paired by deal, with 95% intervals (docs/simulation.md)")
    return lines
