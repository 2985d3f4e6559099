"""``uno-rules serve``: started in a subprocess on a free port, it prints its address,
answers, and stops at Ctrl-C, cleanly; a port already taken is one line and exit 1."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the [web] extra is not installed")

URL = re.compile(r"uno-rules playground on (http://\S+/) \(games kept in (.+)\); "
                 r"Ctrl-C stops it")


@contextmanager
def serving(*args: str, session: bool = False
            ) -> Iterator[tuple[subprocess.Popen[str], str, list[str]]]:
    """The server started with ``args``, its URL and the lines it wrote before it
    (``session``: in a session of its own, as a terminal's foreground job is: a Ctrl-C
    there reaches its whole process group)."""
    process = subprocess.Popen([sys.executable, "-m", "uno_rules", "serve", *args],
                               stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"},
                               start_new_session=session)
    try:
        assert process.stderr is not None
        lines: list[str] = []
        for line in process.stderr:  # ends if the process does
            lines.append(line.rstrip("\n"))
            found = URL.fullmatch(lines[-1])
            if found:
                yield process, found[1], lines
                return
        raise AssertionError(f"no address printed: {lines}")
    finally:
        if process.poll() is None:
            if session:
                os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
        process.wait()


def status_for_host(url: str, host: str) -> int:
    """The status of ``GET url/api/rulebooks`` sent with ``Host: host``."""
    request = urllib.request.Request(url + "api/rulebooks", headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_serve_answers_and_stops_at_ctrl_c(tmp_path: Path) -> None:
    with serving("--port", "0", "--data-dir", str(tmp_path / "data")) as (process, url, lines):
        assert lines == [f"uno-rules playground on {url} (games kept in "
                         f"{tmp_path / 'data'}); Ctrl-C stops it"]
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":0/")
        with urllib.request.urlopen(url + "api/rulebooks", timeout=30) as answer:
            names = [r["name"] for r in json.load(answer)["rulebooks"]]
        assert "classic" in names
        with urllib.request.urlopen(url, timeout=30) as page:  # / leads to the page
            assert page.url.endswith("/static/index.html")
        assert status_for_host(url, "rebound.example") == 400  # uno_rules.web.guard
        assert status_for_host(url, url.split("/")[2].replace("127.0.0.1", "localhost")) == 200
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
        assert process.stderr is not None
        assert process.stderr.read() == ""  # no traceback, no "interrupted"
        assert (tmp_path / "data").is_dir()


def test_ctrl_c_stops_a_running_job(tmp_path: Path) -> None:
    with serving("--port", "0", "--data-dir", str(tmp_path)) as (process, url, _):
        request = urllib.request.Request(url + "api/simulate", method="POST",
                                         data=b'{"rulebook": "classic", "games": 100000}')
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert answer.status == 202
            job = json.load(answer)["job"]
        deadline = time.monotonic() + 60
        while True:  # it plays (its process started from `python -m uno_rules serve`)
            with urllib.request.urlopen(f"{url}api/jobs/{job}", timeout=30) as answer:
                state = json.load(answer)
            assert state["state"] == "running", state
            if state["done"]:
                break
            assert time.monotonic() < deadline
            time.sleep(0.1)
        children = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True,
                                  text=True).stdout.split()
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
    for pid in children:  # the job's process ended with the server
        deadline = time.monotonic() + 10
        while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not os.path.exists(f"/proc/{pid}") or \
            "zombie" in Path(f"/proc/{pid}/status").read_text().lower()


def test_a_port_already_taken_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "uno_rules", "serve", "--port",
                                 str(port), "--data-dir", str(tmp_path)],
                                capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr == f"error: can't listen on 127.0.0.1 port {port}: address " \
                            "already in use\n"


def test_another_host_is_warned_about(tmp_path: Path) -> None:
    with serving("--port", "0", "--host", "0.0.0.0", "--data-dir", str(tmp_path)) as \
            (process, url, lines):
        assert lines[0] == ("warning: listening on 0.0.0.0: anyone who can reach this "
                            "machine can use the playground")
        assert url.startswith("http://0.0.0.0:")
        # every interface: the names it is reached by can't be known, so any is answered
        assert status_for_host(url.replace("0.0.0.0", "127.0.0.1"), "lan-name.example") == 200
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0


def test_an_unknown_host_is_one_line(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "uno_rules", "serve", "--port", "0",
                             "--host", "no.such.host.invalid", "--data-dir", str(tmp_path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and lines[0].startswith("warning: listening on no.such.host")
    assert lines[1].startswith("error: --host no.such.host.invalid: ")


def test_bench_hostile_cases(tmp_path: Path) -> None:
    """bench/hostile_cases/web.py (timed there in fresh processes): one line, exit 1."""
    from click.testing import CliRunner
    from conftest import load_cases

    from uno_rules.cli import cli

    module = load_cases("web")
    for name, args, code in module.cases(tmp_path):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == code, (name, result.output)
        assert module.EXPECT[name] in result.stderr.strip().splitlines()[-1], name


def test_a_nul_byte_in_the_data_dir_is_a_usage_error(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from uno_rules.cli import cli

    result = CliRunner().invoke(cli, ["serve", "--data-dir", str(tmp_path / "a\0b")])
    assert result.exit_code == 1, result.output
    assert result.output.count("\n") == 1 and "contains a NUL byte" in result.output


def post(url: str, body: dict[str, object]) -> tuple[int, dict[str, object]]:
    """The status and JSON answer of a POST."""
    request = urllib.request.Request(url, method="POST", data=json.dumps(body).encode())
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return int(answer.status), json.load(answer)
    except urllib.error.HTTPError as error:
        return int(error.code), json.load(error)


def stopped(process: subprocess.Popen[str], how: signal.Signals = signal.SIGINT,
            group: bool = False) -> tuple[int, str]:
    """Stop the server (``group``: its whole process group, as a terminal's Ctrl-C does):
    its exit code and all it wrote on stderr after its first line, read to the end (what a
    process it started wrote too)."""
    if group:
        os.killpg(process.pid, how)
    else:
        process.send_signal(how)
    code = process.wait(timeout=30)  # a hang fails the test here
    assert process.stderr is not None
    return code, process.stderr.read()


def test_ctrl_c_while_agents_think_stops_the_server_at_once(tmp_path: Path) -> None:
    """A request whose agents would think for an hour (lookahead on hands of thousands of
    cards, 1,000 actions) ends with a 503 at Ctrl-C, and the server with it: quietly,
    exit 0 (a worker thread used to keep the process alive until the work was done)."""
    text = (Path(__file__).parent / "hostile" / "exits" / "fat_hands.yaml").read_text()
    with serving("--port", "0", "--data-dir", str(tmp_path), "--max-seconds", "3600") as \
            (process, url, _):
        answers: list[tuple[int, dict[str, object]]] = []
        asking = threading.Thread(target=lambda: answers.append(post(url + "api/games", {
            "text": text, "players": 2, "humans": [], "agents": "lookahead", "seed": 1,
            "round": True})))
        asking.start()
        deadline = time.monotonic() + 60
        while not any(len(p.read_text().splitlines()) > 5  # its agents are at work
                      for p in (tmp_path / "games").glob("*.jsonl")):
            assert time.monotonic() < deadline and asking.is_alive()
            time.sleep(0.05)
        assert stopped(process) == (0, "")
        asking.join(30)
    assert answers and answers[0][0] == 503, answers
    assert "the server is stopping" in str(answers[0][1]["error"])
    assert not list((tmp_path / "games").glob("*.jsonl"))  # nothing kept of it


def test_ctrl_c_while_bodies_arrive_is_quiet(tmp_path: Path) -> None:
    """Requests whose bodies are still arriving at Ctrl-C are each answered 503 in one
    line, and the server stops without a traceback (one a request, before)."""
    with serving("--port", "0", "--data-dir", str(tmp_path)) as (process, url, _):
        host, port = url.split("/")[2].split(":")
        waiting = []
        for path in ("/api/validate", "/api/games", "/api/simulate"):
            connection = socket.create_connection((host, int(port)), timeout=30)
            connection.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                               "Content-Length: 1000\r\n\r\n{\"text\": \"".encode())
            waiting.append(connection)
        status_for_host(url, "127.0.0.1")  # answered after the three were taken in
        assert stopped(process) == (0, "")
        for connection in waiting:
            with connection:
                answer = connection.recv(4096).decode()
            assert answer.startswith("HTTP/1.1 503 "), answer
            assert answer.endswith('{"error": "the server is stopping: the request was '
                                   'not finished, nothing of it is kept"}')


def test_a_server_stopped_by_a_signal_leaks_nothing(tmp_path: Path) -> None:
    """SIGTERM with a job running: the job's process ends, and nothing is reported leaked
    (a job's multiprocessing queue left 'leaked semaphore objects' to the resource tracker
    when the server ended by the signal, as uvicorn ends it)."""
    with serving("--port", "0", "--data-dir", str(tmp_path)) as (process, url, _):
        status, started = post(url + "api/simulate", {"rulebook": "classic", "games": 100000})
        assert status == 202
        deadline = time.monotonic() + 60
        while True:  # it plays
            with urllib.request.urlopen(f"{url}api/jobs/{started['job']}", timeout=30) as a:
                if json.load(a)["done"]:
                    break
            assert time.monotonic() < deadline
            time.sleep(0.1)
        code, err = stopped(process, signal.SIGTERM)
    assert code == -signal.SIGTERM and err == ""


def test_ctrl_c_at_the_terminal_reaches_no_job(tmp_path: Path) -> None:
    """A terminal's Ctrl-C goes to the server's whole process group: a job's process
    still starting up took it too, and printed its KeyboardInterrupt traceback. Jobs start
    with SIGINT blocked: the server alone stops them."""
    with serving("--port", "0", "--data-dir", str(tmp_path), session=True) as \
            (process, url, _):
        for _ in range(2):
            assert post(url + "api/simulate", {"rulebook": "classic", "games": 100000}
                        )[0] == 202
        assert stopped(process, group=True) == (0, "")
