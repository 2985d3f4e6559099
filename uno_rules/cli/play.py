"""The ``play`` command (added to the ``uno-rules`` group by cli.py)."""

from __future__ import annotations

import contextlib
import io
import os
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO, cast

import click
from click.core import ParameterSource

from ..engine.errors import shorten, visible
from .common import fail, house_option, os_problem, rulebook_or_fail, set_option
from .common import shorten_path as _shorten

DEFAULT_AGENT = "greedy"
QUIT = ("q", "quit", "exit")
# what --resume takes from the record: given on the command line too, they are refused
FROM_RECORD = ("rulebook", "house", "sets", "players", "seed", "humans", "human", "agents",
               "one_round")


def _seat_list(text: str, players: int) -> list[int]:
    """--humans: seat numbers separated by commas ("none": every seat an agent's)."""
    if text.strip().lower() == "none":
        return []
    seats = []
    for part in text.split(","):
        part = part.strip()
        if not (part.isascii() and part.isdigit() and len(part) <= 4):
            fail(f"--humans {shorten(text, 40)!r}: expected seat numbers separated by commas, "
                 "e.g. 0,2")
        seats.append(int(part))
    return seats


def _clear_screen(stream: TextIO) -> None:
    """Blank the screen: ANSI on a terminal, else a rule and blank lines."""
    if stream.isatty():
        click.echo("\x1b[2J\x1b[H", nl=False)
    else:
        click.echo("\n" + "-" * 60 + "\n" * 3, nl=False)


def _ask(prompt: str) -> str | None:
    try:
        return input(prompt)
    except (EOFError, RuntimeError):  # input ran out, or stdin is closed (Ctrl-C: exit 130)
        return None


@click.command()
@click.argument("rulebook", required=False)
@house_option
@set_option
@click.option("--players", default=4, show_default=True, type=click.IntRange(2))
@click.option("--humans", default=None, metavar="SEATS",
              help="The seats played by people at this keyboard, e.g. 0,2 (default 0; "
                   "'none': agents only).")
@click.option("--human", "human", multiple=True, type=int,
              help="A seat played by you (repeatable; the same as --humans).")
@click.option("--agents", default=DEFAULT_AGENT, show_default=True, metavar="NAMES",
              help="The agents at the other seats: one name, or one per seat "
                   "(easy, normal, hard; uniform, play_first, greedy, lookahead; or "
                   "MODULE:CLASS).")
@click.option("--seed", default=None, type=int,
              help="Seed of the match (shown when not given, to play it again).")
@click.option("--round", "one_round", is_flag=True, help="Play one round, not a match.")
@click.option("--save", "save", default=None, metavar="FILE",
              help="Where q saves the game (else q asks for a file name).")
@click.option("--resume", "resume", default=None, metavar="FILE",
              help="Go on with a game saved with q (its rulebook, seats and seed).")
@click.option("--record", "record", default=None, metavar="FILE.jsonl",
              help="Write a record of the whole game (see `uno-rules replay`).")
@click.option("--no-color", "no_color", is_flag=True, help="No colours (NO_COLOR works too).")
@click.pass_context
def play(ctx: click.Context, /, **params: Any) -> None:
    """Play a match (or --round, one round) in the terminal: you at the --humans seats,
    agents at the others; q quits (offering to save). docs/play.md shows a game."""
    opts = PlayOptions(**params)
    outs = _Outputs()
    start = _resumed(ctx, opts, outs) if opts.resume is not None else _fresh(opts, outs)
    _run(opts, start, outs)


@dataclass(frozen=True)
class PlayOptions:
    """The ``play`` command's options, as click parsed them."""
    rulebook: str | None
    house: tuple[str, ...]
    sets: tuple[str, ...]
    players: int
    humans: str | None
    human: tuple[int, ...]
    agents: str
    seed: int | None
    one_round: bool
    save: str | None
    resume: str | None
    record: str | None
    no_color: bool


@dataclass
class _Outputs:
    """Where the record goes: ``buffer`` (what q saves) and the files opened for it."""
    buffer: io.StringIO = field(default_factory=io.StringIO)
    streams: list[TextIO] = field(default_factory=list)
    opened: list[TextIO] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.streams.append(self.buffer)

    def open(self, path: str, mode: str) -> TextIO:
        """``path`` opened for the record (closed when the game ends)."""
        _no_nul(path)
        try:
            out = cast(TextIO, open(path, mode, encoding="utf-8"))  # noqa: SIM115
        except OSError as exc:
            fail(os_problem(exc))
        self.opened.append(out)
        return out


@dataclass
class _Start:
    """The game to play, set up from the options or from the record resumed."""
    match: Any
    seats: list[str]
    seed: int
    players: int
    one_round: bool
    script: list[str] = field(default_factory=list)
    recorded: int = 1
    saved: Any = None  # the record resumed


def _resumed(ctx: click.Context, opts: PlayOptions, outs: _Outputs) -> _Start:
    """--resume: the game of the record, its steps to play again."""
    from ..play.match import Match
    from ..play.record import RecordError, read

    resume = cast(str, opts.resume)
    given = [p for p in FROM_RECORD
             if ctx.get_parameter_source(p) not in (ParameterSource.DEFAULT, None)]
    if given:
        name = "RULEBOOK" if given[0] == "rulebook" else \
            f"--{given[0].replace('one_round', 'round')}"
        fail(f"--resume {_shorten(resume)}: the game's rulebook, seats and seed come from the "
             f"record; drop {name}")
    try:
        saved = read(resume)
        if saved.ended:
            fail(f"{_shorten(resume)}: that game is over (uno-rules replay "
                 f"{_shorten(resume)} shows it)")
        match = saved.replay()  # checks every step is what this version plays
    except RecordError as exc:
        fail(str(exc))
    header = saved.header
    seats: list[str] = [str(s) for s in header.get("seats") or ()]
    players = match.players
    if len(seats) != players:
        fail(f"{_shorten(resume)}: the record names {len(seats)} seats for {players} players "
             "(a record of a game played at the table names every seat)")
    script = [str(s["action"]) if isinstance(s, dict) else str(s) for s in saved.steps]
    try:
        text = Path(resume).read_text(encoding="utf-8")
    except OSError as exc:
        fail(os_problem(exc))
    outs.buffer.write(text)
    outs.streams.append(outs.open(resume, "a"))
    if opts.record is not None:
        out = outs.open(opts.record, "w")
        out.write(text)
        outs.streams.append(out)
    # played again from the deal through the script (the agents' state comes back)
    again = Match(match.rulebook, players, header["seed"], **match.budgets)
    return _Start(again, seats, header["seed"], players, not header["match"], script,
                  saved.rounds, saved)


def _fresh(opts: PlayOptions, outs: _Outputs) -> _Start:
    """A new game from the options."""
    from ..engine.errors import IllegalAction
    from ..play.agents import AgentError, parse_agents
    from ..play.match import Match
    from ..table.session import HUMAN

    if opts.rulebook is None:
        fail("missing RULEBOOK (or --resume FILE)")
    rb = rulebook_or_fail(opts.rulebook, opts.sets, opts.house)
    players = opts.players
    if players not in rb.player_counts():
        fail(f"--players {players}: {rb.name} is for {rb.players_text()} players")
    seated = _seat_list(opts.humans, players) if opts.humans is not None else \
        list(opts.human) if opts.human else [0]
    bad = [h for h in seated if not 0 <= h < players]
    if bad:
        fail(f"--humans {bad[0]}: seats are 0 to {players - 1}")
    try:
        names = [n for n, _ in parse_agents(opts.agents, players)]
    except AgentError as exc:
        fail(visible(str(exc)))
    seats = [HUMAN if s in seated else names[s] for s in range(players)]
    seed = opts.seed
    if seed is None:  # shown below, so that the game can be played again
        seed = random.SystemRandom().randrange(10 ** 6)
    try:
        match = Match(rb, players, seed)
    except IllegalAction as exc:  # a bad seed, or scoring that can't be a match's
        fail(f"error: {exc}")
    if opts.record is not None:
        outs.streams.append(outs.open(opts.record, "w"))
    return _Start(match, seats, seed, players, opts.one_round)


def _run(opts: PlayOptions, start: _Start, outs: _Outputs) -> None:
    """The game played at the table, then q's offer to save."""
    from ..engine.errors import RunawayEffect
    from ..play.agents import AgentError
    from ..table.session import Diverged

    session = _session(opts, start, outs)
    resume = opts.resume
    click.echo(_greeting(start, resume))
    try:
        outcome = session.run()
    except AgentError as exc:  # an agent's own error may run over lines: one line here
        fail(visible(str(exc)))
    except Diverged as exc:
        fail(f"{_shorten(str(resume))}: {exc}")
    except RunawayEffect as exc:  # the rulebook's effects never end: its problem, not ours
        fail(f"error: the round stopped: {exc}")
    finally:
        for out in outs.opened:
            out.close()
    if outcome.how == "quit":
        _offer_save(opts.save or resume, outs.buffer.getvalue())
    if outcome.how in ("quit", "eof"):
        click.echo("bye")


def _session(opts: PlayOptions, start: _Start, outs: _Outputs) -> Any:
    """The table's session: agents at the seats not played here, the record written."""
    from ..play.agents import AgentError, parse_agents
    from ..play.match import Match
    from ..play.record import Recorder
    from ..table.screen import Style
    from ..table.session import HUMAN, Session, Tee

    style = Style(False) if opts.no_color else Style.detect(sys.stdout)
    seats = start.seats
    try:
        classes = dict(parse_agents(",".join(s for s in seats if s != HUMAN) or DEFAULT_AGENT,
                                    len([s for s in seats if s != HUMAN]) or 1))
    except AgentError as exc:  # an agent's own error may run over lines: one line here
        fail(visible(str(exc)))
    tee: Any = Tee(*outs.streams)
    recorder: Any = None
    if opts.resume is None:
        recorder = Recorder(tee, start.match, seats, one_round=start.one_round)
    session = Session(start.match, seats, classes, _ask, click.echo, one_round=start.one_round,
                      style=style, clear=lambda: _clear_screen(sys.stdout), script=start.script,
                      recorded=start.recorded, recorder=recorder)
    if opts.resume is not None:
        saved = start.saved

        def live(m: Match) -> Any:  # once the script has run: the chain goes on
            recorder = Recorder.resume(tee, saved)
            recorder.match = m  # the match played here (the same, replayed again)
            return recorder
        session.on_live = live
    return session


def _greeting(start: _Start, resume: str | None) -> str:
    """The line before the game: the rulebook, the seats played here, the seed."""
    from ..table.session import HUMAN

    rb = start.match.rulebook
    people = [s for s, k in enumerate(start.seats) if k == HUMAN]
    what = "one round" if start.one_round else \
        f"a match to {rb.settings.target_score} points ({rb.settings.scoring})"
    return (f"{visible(rb.title)}: {start.players} players, {what}; "
            f"{'you are seat(s) ' + ', '.join(map(str, people)) if people else 'agents only'}"
            f", seat 0 sits left of the dealer. Seed {start.seed}"
            f"{' (resumed from ' + _shorten(resume) + ')' if resume else ''}.")


def _no_nul(path: str) -> None:
    """One line and exit 1 for a path with a NUL byte (open() would raise ValueError)."""
    if "\0" in path:
        fail(f"error: {_shorten(path)}: the path contains a NUL byte")


def _offer_save(target: str | None, text: str) -> None:
    """Save the record so far at ``target``, or where the user says (Enter: not at all)."""
    while target is None:
        reply = _ask("save the game? a file name (Enter or n: don't save): ")
        if reply is None or reply.strip().lower() in ("", "n", "no"):
            return
        if os.path.lexists(reply.strip()):  # typed at a prompt: never over a file unasked
            sure = _ask(f"{reply.strip()} exists: replace it? (y/N) ")
            if sure is None or sure.strip().lower() not in ("y", "yes"):
                continue
        target = reply.strip()
    _no_nul(target)
    if os.path.exists(target) and not os.path.isfile(target):  # never a device replaced
        fail(f"error: {_shorten(target)}: not a regular file; the game is not saved there")
    tmp = f"{target}.tmp{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):  # no half-saved file left beside the target
            os.remove(tmp)
        fail(f"error: {_shorten(target)}: can't save there: {exc.strerror or exc}")
    click.echo(f"saved in {target}: uno-rules play --resume {target} goes on with it")
