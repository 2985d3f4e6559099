"""Scale on a Dask cluster (issue 16 item 7): --scheduler values that can't be used. The
malformed ones are refused before dask is imported; the unreachable one (a closed port on
this machine) fails at the refused connection, not after the timeout. Each is one line,
exit 1, with dask installed or not (tests/test_distributed.py asserts the messages)."""

from __future__ import annotations

import socket
from pathlib import Path


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    sim = ["simulate", "classic", "--players", "4", "--games", "20"]
    with socket.socket() as s:  # a port nothing listens on once closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return [
        ("--scheduler foo", [*sim, "--scheduler", "foo"], 1),
        ("--scheduler without a port", [*sim, "--scheduler", "tcp://127.0.0.1"], 1),
        ("--scheduler port 99999", [*sim, "--scheduler", "tcp://127.0.0.1:99999"], 1),
        ("--scheduler, 100,000 characters", [*sim, "--scheduler", "tcp://" + "h" * 100_000], 1),
        ("--scheduler with --workers", [*sim, "--scheduler", "tcp://127.0.0.1:1",
                                        "--workers", "9" * 100_000], 1),
        ("--scheduler refused", [*sim, "--scheduler", f"tcp://127.0.0.1:{port}",
                                 "--scheduler-timeout", "1"], 1),
        ("--scheduler-timeout 1e308", [*sim, "--scheduler", "local",
                                       "--scheduler-timeout", "1e308"], 1),
        ("compare --scheduler refused", ["compare", "classic", "classic", "--games", "5",
                                         "--scheduler", f"tcp://127.0.0.1:{port}"], 1),
    ]
