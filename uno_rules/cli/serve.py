"""The ``serve`` command (added to the ``uno-rules`` group by cli.py): the web playground
on a local port. Starlette and uvicorn come with the ``[web]`` extra and are imported only
here, when the command runs."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path
from types import FrameType

import click

from ..engine.errors import shorten
from ..web.guard import LOOPBACK, allowed_hosts
from ..web.limits import Limits
from .common import PathType, fail, os_problem


def default_data_dir() -> Path:
    """Where games are kept: ``$XDG_DATA_HOME/uno-rules/web``, else
    ``~/.local/share/uno-rules/web``."""
    base = os.environ.get("XDG_DATA_HOME", "")
    if os.path.isabs(base):  # XDG: a relative value is to be ignored
        return Path(base) / "uno-rules" / "web"
    return Path.home() / ".local" / "share" / "uno-rules" / "web"


@click.command()
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="The port to listen on (0: any free one, printed).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on: this machine only unless you give another "
                   "(0.0.0.0: every interface; anyone who can reach it can use it).")
@click.option("--data-dir", "data_dir", default=None, metavar="DIR",
              type=PathType(file_okay=False, path_type=Path),
              help="Where games in play are kept, so that a reload or a restart goes on "
                   "(default $XDG_DATA_HOME/uno-rules/web or ~/.local/share/uno-rules/web).")
@click.option("--max-body", "max_body", default=Limits.max_body, show_default=True,
              type=click.IntRange(1024), metavar="BYTES",
              help="The largest request body (a rulebook's text, a record) accepted.")
@click.option("--max-games", "max_games", default=Limits.max_games, show_default=True,
              type=click.IntRange(1), metavar="N",
              help="The most rounds (or matches) one simulation or compare may play.")
@click.option("--max-jobs", "max_jobs", default=Limits.max_jobs, show_default=True,
              type=click.IntRange(1, 64), metavar="N",
              help="Simulations running at once (each in a process of its own).")
@click.option("--max-seconds", "max_seconds", default=Limits.request_seconds,
              show_default=True, type=click.FloatRange(0.1, 86400), metavar="SECONDS",
              help="The longest one request may work (the agents' moves in a game): then "
                   "it stops and answers 503, keeping nothing of it.")
def serve(port: int, host: str, data_dir: Path | None, max_body: int, max_games: int,
          max_jobs: int, max_seconds: float) -> None:
    """Serve the web playground (docs/web.md): write a rulebook and see its problems and
    rules sheet, simulate and compare variants, play them. Needs the web extra
    (pip install 'uno-rules[web]'). Ctrl-C stops it; games in play are kept in --data-dir
    and go on when it is started again."""
    try:
        import uvicorn

        from ..web.app import create_app
    except ImportError as exc:
        fail(f"uno-rules serve needs the web extra: pip install 'uno-rules[web]' "
             f"({exc.name or exc} is missing)")
    folder = data_dir if data_dir is not None else default_data_dir()
    try:
        app = create_app(folder, Limits(max_body=max_body, max_games=max_games,
                                        max_jobs=max_jobs, request_seconds=max_seconds),
                         allowed_hosts(host))
    except OSError as exc:
        fail(os_problem(exc))
    if host not in LOOPBACK:
        click.echo(f"warning: listening on {host}: anyone who can reach this machine can "
                   "use the playground", err=True)
    # Bound and listening here, before uvicorn starts: a port already taken is one line
    # (uvicorn would log it and exit 3), and the address printed is the one bound (port 0:
    # the port chosen). Requests arriving meanwhile wait in the backlog.
    sock = listening(host, port)
    name = sock.getsockname()
    shown = f"[{name[0]}]" if ":" in name[0] else name[0]
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
    stopping: threading.Event = app.state.stopping

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            stopping.set()  # at once: work in flight stops before the grace period ends
            super().handle_exit(sig, frame)
    server = Server(config)
    try:
        click.echo(f"uno-rules playground on http://{shown}:{name[1]}/ (games kept in "
                   f"{folder}); Ctrl-C stops it", err=True)
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C it caught once it has stopped;
        pass                   # one before its handler is in place stops it as well
    finally:
        sock.close()


def listening(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening, or one line and exit 1."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (OSError, UnicodeError) as exc:  # no such host name
        fail(f"error: --host {shorten(host, 80)}: {getattr(exc, 'strerror', None) or exc}")
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        fail(f"error: can't listen on {shorten(host, 80)} port {port}: "
             f"{(exc.strerror or str(exc)).lower()}")
    return sock
