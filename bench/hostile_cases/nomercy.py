"""Hostile input for the No Mercy stacking setting `stacking.any_color`: bad values are one
located line (exit 1), and a stacked total of billions answered by value alone, whatever the
colour, still ends every simulated round quickly (exit 0). The files are in
tests/hostile/nomercy/; tests/test_hostile.py checks their messages."""

from __future__ import annotations

from pathlib import Path

FILES = Path(__file__).resolve().parents[2] / "tests" / "hostile" / "nomercy"


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    bad = [(f"nomercy: {p.stem}", ["validate", str(p)], 1)
           for p in sorted(FILES.glob("any_color_*.yaml"))]
    return bad + [
        ("nomercy: stack a billion by value", ["simulate", str(FILES /
         "stack_a_billion_by_value.yaml"), "--games", "20", "--players", "6", "--seed", "1"], 0),
        ("nomercy: 100 rounds of no_mercy", ["simulate", "no_mercy", "--games", "100",
                                             "--players", "6", "--seed", "1"], 0),
    ]
