"""Hostile input for scenario `match:` blocks and their expect keys: each bad value is one
located line, exit 2 (a malformed scenario file); 19,000 seats out of range are one counted
line; a round of a match with a seat out still plays. The files are in tests/hostile/match/;
tests/test_match.py checks their messages."""

from __future__ import annotations

from pathlib import Path

FILES = Path(__file__).resolve().parents[2] / "tests" / "hostile" / "match"


def many_seats_out(tmp: Path) -> Path:
    """A match block with 19,000 seats out, none of them a seat."""
    path = tmp / "match_many_seats_out.yaml"
    path.write_text("rulebook: classic\nplayers: 4\nname: x\nset: {scoring: elimination}\n"
                    "match: {scores: [0, 0, 0, 0], out: [" + ", ".join(["9"] * 19_000) + "]}\n")
    return path


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    bad = [(f"match: {p.stem}", ["scenario", str(p)], 2)
           for p in sorted(FILES.glob("*.yaml"))]
    return bad + [
        ("match: 19,000 seats out", ["scenario", str(many_seats_out(tmp))], 2),
        ("match: the shipped match scenarios", ["scenario", str(FILES.parents[1] / "scenarios"
                                                                / "classic" / "match.yaml")], 0),
    ]
