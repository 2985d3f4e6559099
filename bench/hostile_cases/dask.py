"""Scale on a Dask cluster (issue 16 item 7): --scheduler values that can't be used. The
malformed ones are refused before dask is imported; the unreachable one (a closed port on
this machine) fails at the refused connection, not after the timeout; a service that speaks
first (issue 28) is not a Dask scheduler. Each is one line, exit 1, with dask installed or
not (tests/test_distributed.py asserts the messages)."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path


def speaking_first(data: bytes, clients: int = 2, life: float = 600.0) -> str:
    """The address of a TCP server on this machine's loopback that sends ``data`` to each
    client as it connects, as a service that speaks first does (an SSH or SMTP server, say).
    Bounded: it serves ``clients`` connections (a run makes two: its reachability check,
    then dask's), one at a time, each until the client closes it or for 10 s, and stops
    listening after ``life`` seconds."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(clients)
    deadline = time.monotonic() + life

    def serve() -> None:
        with server:
            for _ in range(clients):
                server.settimeout(max(0.01, deadline - time.monotonic()))
                try:
                    conn, _ = server.accept()
                except OSError:  # the time is up
                    return
                with conn:
                    try:
                        conn.sendall(data)
                        conn.settimeout(10)
                        while conn.recv(65536):  # until the client hangs up
                            pass
                    except OSError:  # it hung up first, or the 10 s are up
                        pass

    threading.Thread(target=serve, name="speaks first", daemon=True).start()
    return f"tcp://127.0.0.1:{server.getsockname()[1]}"


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
        # 8 bytes of 0xff read as a frame's length: 16 EiB (was exit 3, MemoryError).
        ("--scheduler speaks first", [*sim, "--scheduler", speaking_first(b"\xff" * 8),
                                      "--scheduler-timeout", "5"], 1),
    ]
