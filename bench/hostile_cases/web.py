"""Hostile input for the web playground's part that the command line shares (issue 19):
the editor's hostile texts (an alias bomb, 1 MiB of nesting), which POST /api/validate loads
through the same loader, ``serve``'s bad options, and 25,000 ``--set`` names (issue 28: the
``set`` of /api/validate, quadratic once). Each ends with one line and exit 1;
tests/test_web_command.py checks the messages (EXPECT). The request bodies themselves are
tested in tests/test_web_edit.py and tests/test_web_jobs.py (a server, not a command)."""

from __future__ import annotations

from pathlib import Path

ALIASES = Path(__file__).resolve().parents[2] / "tests" / "hostile" / "web" / "aliases.yaml"


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    nested = tmp / "nested.yaml"
    nested.write_text("a: " + "[" * ((1 << 20) - 16))
    return [
        ("validate an alias bomb", ["validate", str(ALIASES)], 1),
        ("validate 1 MiB of nesting", ["validate", str(nested)], 1),
        ("serve on an unknown host", ["serve", "--port", "0", "--host", "no.such.host.invalid",
                                      "--data-dir", str(tmp / "data")], 1),
        ("serve on port 70000", ["serve", "--port", "70000"], 1),
        ("validate 25,000 --set names", ["validate", "classic", *MANY_SETS], 1),
    ]


# 25,000 unknown settings, a problem each (each message was cut against every value: 13 s)
MANY_SETS = [arg for i in range(25_000) for arg in ("--set", f"name_{i:06d}=1")]


# The last line each case prints holds this.
EXPECT = {
    "validate an alias bomb": "the document expands to more than 20,000 values, counting the "
                              "210 of the files read before it for this rulebook (through "
                              "aliases?) (at $.e[1][4][8][8][8])",
    "validate 1 MiB of nesting": "nested more than 64 levels deep (at $)",
    "serve on an unknown host": "error: --host no.such.host.invalid: ",
    "serve on port 70000": "70000 is not in the range 0<=x<=65535. (see uno-rules serve "
                           "--help)",
    "validate 25,000 --set names": "--set name_000100=1: 24,900 more problems from here on "
                                   "(the first 100 are listed)",
}
