"""The ``serve`` command (added to the ``uno-rules`` group by cli.py): the web playground
on a local port. Starlette and uvicorn come with the ``[web]`` extra and are imported only
here, when the command runs."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..cli_common import fail, os_problem
from .limits import Limits

LOCAL = ("127.0.0.1", "localhost", "::1")


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
              type=click.Path(file_okay=False, path_type=Path),
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
def serve(port: int, host: str, data_dir: Path | None, max_body: int, max_games: int,
          max_jobs: int) -> None:
    """Serve the web playground (docs/web.md): write a rulebook and see its problems and
    rules sheet, simulate and compare variants, play them. Needs the web extra
    (pip install 'uno-rules[web]'). Ctrl-C stops it; games in play are kept in --data-dir
    and go on when it is started again."""
    try:
        import uvicorn

        from .app import create_app
    except ImportError as exc:
        fail(f"uno-rules serve needs the web extra: pip install 'uno-rules[web]' "
             f"({exc.name or exc} is missing)")
    folder = data_dir if data_dir is not None else default_data_dir()
    try:
        app = create_app(folder, Limits(max_body=max_body, max_games=max_games,
                                        max_jobs=max_jobs))
    except OSError as exc:
        fail(os_problem(exc))
    if host not in LOCAL:
        click.echo(f"warning: listening on {host}: anyone who can reach this machine can "
                   "use the playground", err=True)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)

    # The address is printed once the socket is bound (port 0: the port chosen).
    original_startup = server.startup

    async def started(sockets: object = None) -> None:
        await original_startup(sockets)  # type: ignore[arg-type]
        if server.should_exit:  # the port was taken: uvicorn said why
            return
        for s in server.servers:
            for sock in s.sockets:
                name = sock.getsockname()
                shown = f"[{name[0]}]" if ":" in name[0] else name[0]
                click.echo(f"uno-rules playground on http://{shown}:{name[1]}/ "
                           f"(games kept in {folder}); Ctrl-C stops it", err=True)
                return

    server.startup = started  # type: ignore[method-assign]
    server.run()
    if server.should_exit and not server.started:
        fail(f"error: could not listen on {host}:{port}")
