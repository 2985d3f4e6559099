"""Hostile records for ``uno-rules replay``: a record larger than any read (refused by its
size, unread), a line nested thousands deep, a line of 10 MB (refused at the line cap,
after reading 1 MiB of it). tests/test_record.py checks their messages."""

from __future__ import annotations

from pathlib import Path


def huge(tmp: Path) -> Path:
    """A sparse file of 1 GiB: refused from its size alone."""
    path = tmp / "huge.jsonl"
    with path.open("wb") as f:
        f.truncate(1 << 30)
    return path


def nested(tmp: Path) -> Path:
    path = tmp / "nested.jsonl"
    path.write_text('{"record": ' + "[" * 200_000 + "]" * 200_000 + "}\n")
    return path


def long_line(tmp: Path) -> Path:
    path = tmp / "long.jsonl"
    path.write_text('{"record": 1, "engine": "' + "x" * 10_000_000 + '"}\n')
    return path


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    return [("records: a huge record", ["replay", str(huge(tmp))], 1),
            ("records: a deeply nested line", ["replay", str(nested(tmp))], 1),
            ("records: a 10 MB line", ["replay", str(long_line(tmp))], 1)]
