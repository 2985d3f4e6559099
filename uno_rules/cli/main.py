"""The ``uno-rules`` command line. Exit codes, the same for every command: 0 ok; 1 a user
error (a bad argument or option, an invalid rulebook, a failing scenario); 2 a malformed
scenario file (the scenario contract's code); 3 an internal error. Errors are one line
each, never a traceback."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .._about import COMPILED
from ..engine.errors import Problem, RulebookError, UnoRulesError, shorten_values, visible
from ..engine.game import GAME_ACTIONS, GAME_STEPS
from ..load.entry import load_rulebook  # served by the cache: yaml only on a miss
from ..load.resources import shipped_names
from ..table.screen import label
from .common import FloatRange, PathType, house_option, quiet_option, set_option
from .common import fail as _fail
from .common import mute_stdout as _mute_stdout
from .common import open_out as _open_out
from .common import os_problem as _os_problem
from .common import parse_sets as _parse_sets
from .common import rulebook_or_fail as _rulebook
from .common import say as _say
from .common import shorten_path as _shorten
from .outputs import actions_writer, record_chooser, with_csv, write_records
from .play import play as table_play
from .replay import replay as table_replay
from .serve import serve as web_serve

if TYPE_CHECKING:
    from ..sim.rounds import RunSpec

BUILD = "compiled with mypyc" if COMPILED else "pure Python"  # which build runs (--version)


plot_option = click.option("--plot", "plot_path", default=None, metavar="FILE",
                           help="Draw the results into FILE.png or FILE.svg (needs "
                           "matplotlib: pip install 'uno-rules[plot]').")


def _open_plot(path: str | None) -> tuple[Any, str] | None:
    """The --plot file opened for writing and its format, checked before any game is
    played (a bad suffix, no matplotlib, a path that can't be written: one line)."""
    if path is None:
        return None
    from ..sim.plots import NEEDS, PlotError, plot_format, require_matplotlib

    try:
        fmt = plot_format(path)
        require_matplotlib()
    except PlotError as exc:
        _fail(str(exc) if str(exc) == NEEDS else f"--plot {_shorten(path)}: {exc}")
    try:
        return open(path, "wb"), fmt
    except (OSError, ValueError) as exc:  # no such folder, a folder, a NUL byte, too long
        _fail(f"--plot {_shorten(path)}: can't write it: "
              f"{exc.strerror if isinstance(exc, OSError) else exc}")


def _write_plot(plot: tuple[Any, str], path: str, draw: Any) -> None:
    """Draw into the opened --plot file (``draw(file, format)``); a full disk: one line."""
    from ..sim.plots import PlotError

    out, fmt = plot
    try:
        with out:
            draw(out, fmt)
    except PlotError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"--plot {_shorten(path)}: can't write it: {exc.strerror or exc}")


def _progress(total: int, quiet: bool, as_json: bool, unit: str = "games") -> Any:
    """A progress bar on standard error when it is a terminal (uno_rules.cli.progress)."""
    from .progress import Progress, wanted

    return Progress(total, unit) if wanted(sys.stderr, quiet, as_json) else None


workers_option = click.option(
    "--workers", default=None, metavar="N",
    help="Play in N processes (default 1): 0 or auto for one per core this machine lets us "
    "use; with --scheduler local, the local cluster's worker processes (default one per "
    "core). The results are the same as with 1 (the same seeds, merged in order); only the "
    "timing differs.")
scheduler_option = click.option(
    "--scheduler", default=None, metavar="ADDRESS",
    help="Play on a Dask cluster: tcp://HOST:PORT (its scheduler; its workers play), or "
    "local to start one on this machine for the run. The same results as one process; "
    "needs pip install 'uno-rules[dask]' (docs/simulation.md).")
scheduler_timeout_option = click.option(
    "--scheduler-timeout", default=10.0, show_default=True, metavar="SECONDS",
    type=FloatRange(0, 3600, min_open=True),
    help="How long to try reaching the scheduler, and to wait for a worker there.")


def _processes(workers: str | None, scheduler: str | None) -> int:
    """``--workers`` (with ``--scheduler``) as a count of processes, 0 for one per core;
    each bad value or combination one line, exit 1."""
    from ..sim.workers import resolve_workers

    if scheduler is not None:
        from ..sim.distributed import SchedulerError, parse_scheduler

        try:
            parse_scheduler(scheduler)
        except SchedulerError as exc:
            _fail(shorten_values(str(exc), [scheduler], 200))
        if scheduler != "local" and workers is not None:
            _fail(f"--workers {_shorten(workers)}: not with --scheduler {scheduler} (the "
                  f"cluster's workers play: start more with dask worker {scheduler})")
    if workers is None:
        return 0 if scheduler == "local" else 1
    if workers.strip().lower() == "auto":
        processes = 0
    elif workers.strip().isdigit():  # digits only: no sign, no '1e3'
        processes = int(workers) if len(workers) < 10 else 10**9  # past any limit
    else:
        _fail(f"--workers {_shorten(workers)!r}: expected a whole number >= 0, or auto "
              "(one per core)")
    try:
        resolve_workers(processes)
    except ValueError as exc:
        _fail(f"--workers {_shorten(workers)}: {str(exc).partition(': ')[2]}")
    return processes


@contextmanager
def _cluster(scheduler: str | None, workers: int, timeout: float) -> Iterator[Any]:
    """A Dask client for ``--scheduler`` (None without one); a scheduler that can't be used
    (dask missing, unreachable, no worker) is one line, exit 1."""
    if scheduler is None:
        yield None
        return
    from ..sim.distributed import SchedulerError, open_client

    try:
        with open_client(scheduler, workers, timeout) as client:
            yield client
    except SchedulerError as exc:
        _fail(shorten_values(str(exc), [scheduler], 200))


class _Interrupted(Exception):
    """Ctrl-C, carried past click's own handler (which writes an empty line first)."""


class _Cli(click.Group):
    """The command group, with one-line errors and the documented exit codes whoever calls
    it (the console script, ``python -m``, or click's test runner)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            raise _Interrupted from exc

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        prog_name = "uno-rules"  # the same name in messages, whoever calls (tests too)
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
            if sys.stdout is not None:
                sys.stdout.flush()  # a full disk shows here, while we can still say so
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.format_message())
            sys.exit(0)
        except click.ClickException as exc:  # usage errors: a user error like any other
            ctx: click.Context | None = getattr(exc, "ctx", None)  # usage errors carry one
            command = ctx.command_path if ctx else "uno-rules"
            _fail(f"{command}: {exc.format_message()} (see {command} --help)")
        except click.exceptions.Abort as exc:
            if isinstance(exc.__cause__, KeyboardInterrupt):  # Ctrl-C: the shell's code
                _fail("interrupted", 130)
            sys.exit(1)
        except _Interrupted:  # one line; on a terminal, first end the line ^C was echoed on
            _fail(("\n" if sys.stderr is not None and sys.stderr.isatty() else "")
                  + "interrupted", 130)
        except UnoRulesError as exc:
            _fail(f"error: {exc}")
        except OSError as exc:
            _mute_stdout()
            _fail(_os_problem(exc))
        except Exception as exc:  # noqa: BLE001 - last resort: one line, exit 3
            if "--debug" in (args if args is not None else sys.argv[1:]):
                import traceback

                traceback.print_exc()
            message = " ".join(str(exc).split())[:300]  # one line, however long the cause
            _fail(f"internal error (a bug; --debug shows where): {type(exc).__name__}: "
                  f"{message}", 3)
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="uno-rules", message=f"%(prog)s %(version)s ({BUILD})")
@click.option("--max-bytes", type=click.IntRange(1), default=None, metavar="N",
              help="The most bytes read: a file, or a rulebook with the files it extends "
                   "and includes (default 1 MiB).")
@click.option("--root", type=PathType(exists=True, file_okay=False, path_type=Path),
              default=None, metavar="DIR",
              help="Trust DIR: files named inside rulebooks, overlays and scenarios (extends, "
              "house, rulebook) may be anywhere under it. Default: only shipped names and "
              "files under the naming file's own folder; --root / trusts every path.")
@click.option("--debug", is_flag=True, help="On an internal error, print the traceback.")
def cli(max_bytes: int | None, root: Path | None, debug: bool) -> None:
    """A declarative rules engine for UNO and its editions."""
    if max_bytes is not None:
        from ..load.resources import MAX_BYTES

        token = MAX_BYTES.set(max_bytes)
        click.get_current_context().call_on_close(lambda: MAX_BYTES.reset(token))
    if root is not None:
        from ..load.resources import ROOT

        trusted = ROOT.set(root)
        click.get_current_context().call_on_close(lambda: ROOT.reset(trusted))


def _yaml_files(folder: Path) -> list[Path]:
    """The YAML files in a folder and its subfolders, in order."""
    return sorted(x for x in folder.rglob("*.y*ml") if x.suffix in (".yaml", ".yml"))


@cli.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--on", "on", default="classic", show_default=True, metavar="RULEBOOK",
              help="The rulebook that house-rule overlays are checked on.")
@house_option
@set_option
def validate(paths: tuple[str, ...], on: str, house: tuple[str, ...],
             sets: tuple[str, ...]) -> None:
    """Validate rulebooks and house-rule overlays: files, folders (searched with their
    subfolders; scenario files there are skipped), or shipped names (`uno-rules list`). A
    file that neither extends a rulebook nor has a deck with its own colours or players is
    an overlay: it is checked applied to --on (after --house). --house and --set apply to
    every rulebook checked."""
    from ..load.loader import check, is_overlay, is_scenario_file
    from ..load.resources import outside_folder, shipped_overlay, shipped_rulebook, within

    overrides = _parse_sets(sets)
    targets: list[tuple[str, bool]] = []   # (reference, is an overlay)
    refused: list[Problem] = []
    skipped = 0
    for p in paths:
        path = Path(p)
        if not p:  # Path('') is the current folder: not what an empty argument means
            refused.append(Problem("''", 0, 0, "an empty path (expected a file, a folder or "
                                   "a shipped name)"))
        elif shipped_rulebook(p) is None and shipped_overlay(p) is not None:
            targets.append((p, True))
        elif path.is_dir():
            inside = within(path)
            for x in _yaml_files(path):
                if not inside(x):  # a link out of the folder: not read, not quoted
                    refused.append(Problem(str(x), 1, 1, outside_folder(path)))
                elif is_scenario_file(x):  # tell by content: scenario folders mix both
                    skipped += 1
                else:
                    targets.append((str(x), is_overlay(x)))
        else:
            targets.append((p, path.is_file() and is_overlay(p)))
    if not targets and not refused:
        _fail(f"no rulebook files (*.yaml) in {', '.join(map(_shorten, paths))}"
              + (f" ({skipped} scenario files: run them with uno-rules scenario)"
                 if skipped else ""))
    problems: list[Problem] = refused
    for ref, overlay in targets:
        rulebook, found = (check(on, overrides, house=[*house, ref]) if overlay
                           else check(ref, overrides, house))
        problems.extend(found)
        if rulebook is not None:
            ref = visible(ref)  # a name found in a folder may hold a newline or an escape
            click.echo(f"ok {ref}: house rule, applied to {on}"
                       + "".join(f" +{h}" for h in house) if overlay else
                       f"ok {ref}: {rulebook.name}, {len(rulebook.deck)} cards, "
                       f"{rulebook.players_text()} players")
    if skipped:
        click.echo(f"skipped {skipped} scenario file{'s' * (skipped > 1)} "
                   "(uno-rules scenario runs them)")
    for problem in problems:
        _say(str(problem))
    if problems:
        sys.exit(1)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=PathType(exists=True))
@house_option
@set_option
def scenario(paths: tuple[str, ...], house: tuple[str, ...], sets: tuple[str, ...]) -> None:
    """Run scenario files or folders (searched with their subfolders; rulebook files there
    are skipped): PASS/FAIL per scenario; exit 1 if any fails, 2 if a file is malformed (the
    others still run: the worst decides). --house and --set apply on top of each scenario's
    own."""
    from ..authoring.scenario import run_all

    overrides = _parse_sets(sets)
    try:
        report = run_all(paths, house=house, settings=overrides)
    except RulebookError as exc:  # --house or --set doesn't fit a scenario's rulebook
        _fail(str(exc))
    skipped = len(report.skipped)
    if not report.outcomes and not report.problems and not report.errors:
        _fail(f"no scenario files (*.yaml) in {', '.join(map(_shorten, paths))}"
              + (f" ({skipped} rulebook files: check them with uno-rules validate)"
                 if skipped else ""))
    for o in report.outcomes:
        click.echo(str(o))
    failed = sum(not o.passed for o in report.outcomes)
    if report.outcomes:  # (a lone malformed file: its problem is the one line)
        click.echo(f"{len(report.outcomes) - failed} passed, {failed} failed"
                   + (f"; {len(report.malformed)} malformed file(s)" if report.malformed
                      else ""))
    if skipped:
        click.echo(f"skipped {skipped} rulebook file{'s' * (skipped > 1)} "
                   "(uno-rules validate checks them)")
    for problem in report.problems:
        _say(str(problem))
    for file, bug in report.errors:
        click.echo(f"{file}: internal error (a bug; please report it): "
                   f"{type(bug).__name__}: {' '.join(str(bug).split())[:300]}", err=True)
    # The worst outcome decides: a bug 3, a malformed file 2, a failing scenario 1.
    sys.exit(3 if report.errors else 2 if report.problems else 1 if failed else 0)


@cli.command()
@click.argument("rulebook")
@house_option
@set_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {total, cards}, the "
              "cards by their ids (as scenarios and files write them).")
def deck(rulebook: str, house: tuple[str, ...], sets: tuple[str, ...], as_json: bool) -> None:
    """Show a rulebook's deck composition: each card by its name, as play and the rules
    sheets write it (red draw two); --json by its id."""
    rb = _rulebook(rulebook, sets, house)
    counts = rb.deck_counts()
    if as_json:
        click.echo(json.dumps({"total": len(rb.deck), "cards": counts}, indent=2))
        return
    # deck_counts' order: by side, then face; names for people (a side's name escaped)
    faces = sorted(rb.faces, key=lambda f: (f.side, f.id))
    names = [visible(label(rb.face_label(f))) for f in faces]
    width = max(map(len, names))
    click.echo(f"{visible(rb.title)}: {len(rb.deck)} cards")
    for face, name in zip(faces, names, strict=True):
        click.echo(f"  {name:<{width}}  x{counts[rb.face_label(face)]:<2}  "
                   f"{face.points:>3} pts")


@cli.command()
@click.argument("rulebook")
@house_option
@set_option
@click.option("--games", default=1000, show_default=True, type=click.IntRange(1, 10**9),
              help="Rounds to play; with --match, matches.")
@click.option("--players", default=4, show_default=True, type=click.IntRange(2))
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--match", "matches", is_flag=True,
              help="Play whole matches (rounds scored to the rulebook's target_score, as "
              "its scoring setting says) instead of single rounds: --games counts matches; "
              "match wins, rounds per match, final scores, lead changes (docs/simulation.md).")
@click.option("--max-rounds", type=click.IntRange(1), default=None, metavar="N",
              help="With --match: each match's budget of rounds (default 1000, matchsim's "
              "MAX_ROUNDS); a "
              "match still undecided after N rounds is stalled.")
@click.option("--policy", type=click.Choice(["play_first", "uniform"]), default="play_first",
              show_default=True, help="How the random players choose. play_first: a random "
              "playable card whenever they hold one, else any legal action at random "
              "(draws, catches, ...); uniform: every legal action equally likely, drawing "
              "too while holding playable cards (rounds last far longer).")
@click.option("--agents", default=None, metavar="NAMES",
              help="Who plays instead of --policy: one agent for every seat, or one per "
              "seat, comma-separated: easy, normal, hard, uniform, play_first, greedy, "
              "lookahead, or MODULE:CLASS (your "
              "own, importable from here; docs/agents.md).")
@click.option("--max-steps", type=click.IntRange(1), default=None, metavar="N",
              help=f"Each round's budget of effect steps (default {GAME_STEPS}); a round "
              "that uses it up is stalled.")
@click.option("--max-actions", type=click.IntRange(1), default=None, metavar="N",
              help=f"Each round's budget of actions (default {GAME_ACTIONS}).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.option("--csv", "csv_path", type=PathType(dir_okay=False), default=None,
              metavar="FILE", help="Write one row per game to FILE (CSV: seed, winners, "
              "points, turns, actions, cards drawn, challenges, stalled reason...; with "
              "--match one row per match: seed, winners, rounds, scores, lead changes...).")
@click.option("--actions", "actions_path", type=PathType(dir_okay=False), default=None,
              metavar="FILE", help="Write each round's actions to FILE, one JSON line per "
              "round in round order: its number, seed and each action's notation and events; "
              "with --match one line per match, its rounds' actions (docs/simulation.md).")
@click.option("--record-dir", default=None, metavar="DIR",
              help="Write a record (JSON Lines, for `uno-rules replay`) of each game chosen "
              "by --record-where into DIR: DIR/game-N.jsonl, with --match DIR/match-N.jsonl "
              "(docs/records.md).")
@click.option("--record-where", multiple=True, metavar="WHICH",
              help="Which games --record-dir records: stalled (at most 100), longest (the "
              "most actions; with --match the most rounds), or N (game number N, from 1); "
              "repeatable or comma-separated. Default: stalled,longest (every stalled game "
              "and the longest, so a run always records one).")
@workers_option
@scheduler_option
@scheduler_timeout_option
@plot_option
@quiet_option
def simulate(rulebook: str, house: tuple[str, ...], sets: tuple[str, ...], games: int,
             players: int, seed: int, matches: bool, max_rounds: int | None, policy: str,
             agents: str | None, max_steps: int | None, max_actions: int | None,
             as_json: bool, csv_path: str | None, actions_path: str | None,
             record_dir: str | None, record_where: tuple[str, ...], workers: str | None,
             scheduler: str | None, scheduler_timeout: float, plot_path: str | None,
             quiet: bool) -> None:
    """Play GAMES rounds (with --match: GAMES matches) with random legal choices, or
    --agents, and report statistics with 95% intervals (docs/simulation.md). Ctrl-C stops
    early: the statistics of the rounds (matches) finished are printed, and the exit code
    is 130."""
    if max_rounds is not None and not matches:
        _fail("--max-rounds: only with --match (a match's budget of rounds)")
    shown = _Shown(as_json, csv_path, plot_path, quiet, actions_path)
    chooser = record_chooser(record_dir, record_where, games)
    place = _Place(_processes(workers, scheduler), scheduler, scheduler_timeout)
    spec = _run_spec(rulebook, house, sets, games, players, seed, policy, max_steps,
                     max_actions, max_rounds)
    plot = _open_plot(plot_path)
    played, spec = _simulate_shown(spec, agents, matches, place, shown, chooser)
    stats = played.to_json()
    from ..sim import matchsim
    from ..sim import simulate as rounds

    tool: Any = matchsim if matches else rounds  # report
    if as_json:
        click.echo(json.dumps(stats, indent=2))
    else:
        click.echo("\n".join(tool.report(stats, games)))
    if chooser is not None and record_dir is not None:
        write_records(record_dir, chooser, spec, matches)
    if plot is not None:
        from ..sim.plots import simulate_figure

        _write_plot(plot, str(plot_path), lambda f, fmt: simulate_figure(stats, f, fmt))
    if stats.get("interrupted", False):
        sys.exit(130)


@dataclass(frozen=True)
class _Shown:
    """How simulate shows a run: ``--json``, ``--csv FILE``, ``--plot FILE``, ``--quiet``."""

    as_json: bool
    csv_path: str | None
    plot_path: str | None
    quiet: bool
    actions_path: str | None = None


@dataclass(frozen=True)
class _Place:
    """Where a run plays: ``--workers`` (as a count, 0: one per core), ``--scheduler``."""

    processes: int
    scheduler: str | None
    timeout: float


def _run_spec(ref: str, house: tuple[str, ...], sets: tuple[str, ...], games: int,
              players: int, seed: int, policy: str, max_steps: int | None,
              max_actions: int | None, max_rounds: int | None) -> RunSpec:
    """The run simulate's options name, its rulebook loaded (``--agents`` is parsed as the
    run starts, :func:`_simulate_shown`); a rulebook not for ``players``: one line."""
    from ..sim.rounds import RunSpec

    rb = _rulebook(ref, sets, house)
    if players not in rb.player_counts():
        _fail(f"--players {players}: {rb.name} is for {rb.players_text()} players")
    return RunSpec(rb, players, seed, games, policy, None, max_steps, max_actions,
                   max_rounds)


def _simulate_shown(spec: RunSpec, agents: str | None, matches: bool, place: _Place,
                    shown: _Shown, chooser: Any) -> tuple[Any, RunSpec]:
    """Play the run (rounds, or ``matches``) with its progress bar and ``--csv`` rows;
    returns its statistics and the spec played (its agents parsed)."""
    from ..play.agents import AgentError, parse_agents
    from ..sim import matchsim
    from ..sim import simulate as rounds
    from ..sim.workers import WorkerError

    tool: Any = matchsim if matches else rounds  # CSV_COLUMNS, csv_row
    played = [spec]

    def run(on_record: Any) -> Any:  # the rounds' (or matches') statistics
        if agents is not None:
            played[0] = replace(spec, agents=parse_agents(agents, spec.players))
        if chooser is not None:  # it sees every record too, in order
            on_record = chooser.also(on_record)
        with _cluster(place.scheduler, place.processes, place.timeout) as client:
            if matches:
                return matchsim.simulate_matches_spec(played[0], on_match=on_record,
                                                      on_actions=actions_writer(lines, True),
                                                      workers=place.processes,
                                                      client=client)
            return rounds.simulate_spec(played[0], on_round=on_record,
                                        on_actions=actions_writer(lines, False),
                                        workers=place.processes, client=client)

    where = f"--csv {_shorten(str(shown.csv_path))}"
    # opened first: a path that can't be written fails before any game is played
    out = None if shown.csv_path is None else _open_out("--csv", shown.csv_path)
    lines = None if shown.actions_path is None else _open_out("--actions", shown.actions_path)
    bar = _progress(spec.games, shown.quiet, shown.as_json)
    try:
        return with_csv(out, tool, bar, run), played[0]
    except (AgentError, WorkerError) as exc:  # a user's agent, a dead worker: one line
        _fail(_shorten(" ".join(str(exc).split())))
    except OSError as exc:  # a full disk while writing the rows
        _fail(f"{where}: can't write it: {exc.strerror or exc}")
    finally:
        if bar is not None:
            bar.close()
        if lines is not None:
            lines.close()


@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("variants", nargs=-1, required=True, type=click.UNPROCESSED)
@click.option("--games", default=1000, show_default=True, type=click.IntRange(1, 10**9))
@click.option("--players", default=4, show_default=True, type=click.IntRange(2))
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--policy", type=click.Choice(["play_first", "uniform"]), default="play_first",
              show_default=True, help="How the random players choose (as simulate's).")
@click.option("--agents", default=None, metavar="NAMES",
              help="Who plays instead of --policy, the same on every variant (as simulate's).")
@click.option("--max-steps", type=click.IntRange(1), default=None, metavar="N",
              help=f"Each round's budget of effect steps (default {GAME_STEPS}).")
@click.option("--max-actions", type=click.IntRange(1), default=None, metavar="N",
              help=f"Each round's budget of actions (default {GAME_ACTIONS}).")
@click.option("--json", "as_json", is_flag=True,
              help="Print JSON: each metric's values per variant and its paired diff.")
@workers_option
@scheduler_option
@scheduler_timeout_option
@plot_option
@quiet_option
def compare(variants: tuple[str, ...], games: int, players: int, seed: int, policy: str,
            agents: str | None, max_steps: int | None, max_actions: int | None,
            as_json: bool, workers: str | None, scheduler: str | None,
            scheduler_timeout: float, plot_path: str | None, quiet: bool) -> None:
    """Compare rule variants on the same deals: VARIANTS are rulebooks (names or files),
    each RULEBOOK[+HOUSE...] and followed by its own --house NAME / --set NAME=VALUE
    (repeatable; they apply to the variant named just before them). So `compare classic
    classic --house stacking` compares classic with classic + stacking, as does `compare
    classic classic+stacking`. Every variant plays the same round seeds with the same
    players; each metric gets its value per variant and the paired difference against the
    first with a 95% interval (docs/simulation.md)."""
    from ..play.agents import AgentError, parse_agents
    from ..sim.compare import VariantError, compare_specs, parse_variants, report
    from ..sim.rounds import RunSpec
    from ..sim.workers import WorkerError

    processes = _processes(workers, scheduler)
    def is_file(word: str) -> bool:
        try:
            return Path(word).is_file()
        except (OSError, ValueError):  # a name too long for a path, a NUL byte: not a file
            return False

    try:
        parsed = parse_variants(variants, is_file)
    except VariantError as exc:
        _fail(f"uno-rules compare: {_shorten(str(exc))}")
    rulebooks = []
    for k, v in enumerate(parsed):
        try:
            rb = load_rulebook(v.ref, house=tuple(v.house), settings=v.settings)
        except RulebookError as exc:
            # The loader echoes the name: a 100,000-character one is cut short.
            _fail(shorten_values(f"variant {k + 1} ({_shorten(v.label)}): {exc}",
                                 [v.ref, *v.house], 200))
        if players not in rb.player_counts():
            _fail(f"--players {players}: variant {k + 1} ({_shorten(v.label)}) is for "
                  f"{rb.players_text()} players")
        rulebooks.append(rb)
    plot = _open_plot(plot_path)
    # Each of the games (deals) is played once per variant: the bar counts those rounds.
    bar = _progress(games * len(rulebooks), quiet, as_json, "rounds")
    records: list[Any] = []
    try:
        seated = None if agents is None else parse_agents(agents, players)
        spec = RunSpec(rulebooks[0], players, seed, games, policy, seated, max_steps,
                       max_actions)
        with _cluster(scheduler, processes, scheduler_timeout) as client:
            result = compare_specs([spec.on(rb) for rb in rulebooks],
                                   [v.label for v in parsed],
                                   on_round=None if bar is None else bar.advance,
                                   records=records, workers=processes, client=client)
    except (AgentError, WorkerError) as exc:
        _fail(_shorten(" ".join(str(exc).split())))
    finally:
        if bar is not None:
            bar.close()
    for entry, v in zip(result["variants"], parsed, strict=True):
        entry["settings"] = v.settings
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        click.echo("\n".join(report(result)))
    if plot is not None:
        from ..sim.plots import compare_figure

        _write_plot(plot, str(plot_path),
                    lambda f, fmt: compare_figure(result, records, f, fmt))
    if result.get("interrupted"):
        sys.exit(130)


@cli.command()
@click.argument("rulebook")
@house_option
@set_option
def explain(rulebook: str, house: tuple[str, ...], sets: tuple[str, ...]) -> None:
    """Print the rules of RULEBOOK as a Markdown sheet (deck, cards, setup, turn, scoring)."""
    from ..authoring.explain import explain as sheet

    click.echo(sheet(_rulebook(rulebook, sets, house)), nl=False)


@cli.command()
@click.argument("base")
@click.argument("variant")
@house_option
@set_option
def diff(base: str, variant: str, house: tuple[str, ...], sets: tuple[str, ...]) -> None:
    """What VARIANT (with --house/--set applied) changes against BASE, in rules terms."""
    from ..authoring.variants import diff as compare

    click.echo(compare(_rulebook(base, ()), _rulebook(variant, sets, house)), nl=False)


@cli.command()
@click.argument("name")
@click.option("--from", "base", default="classic", show_default=True,
              help="The rulebook to start from (a shipped name or a path).")
@click.option("--output", "-o", type=PathType(dir_okay=False), default=None,
              help="Where to write it (default: NAME.yaml here).")
def new(name: str, base: str, output: str | None) -> None:
    """Write a commented starter rulebook NAME that extends another and validates."""
    import re

    from ..authoring.variants import starter
    from ..load.loader import overlay_hint
    from ..load.resources import allowed, find

    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        _fail(f"{name!r}: a rulebook name is lower case letters, digits and underscores")
    try:
        found = find(base).is_file()
    except OSError:  # a name too long for a file
        found = False
    if not found:
        hint = overlay_hint(base, "house: [{}] in the new rulebook")
        _fail(f"--from {_shorten(repr(base))}: no such rulebook (shipped: "
              f"{', '.join(shipped_names())}){hint}")
    path = Path(output or f"{name}.yaml")
    where = f"--output {_shorten(str(path))}" if output else _shorten(str(path))
    try:
        if path.is_symlink():  # a dangling link too: it would write wherever the link points
            _fail(f"{_shorten(str(path))}: a symbolic link; not written through")
        if path.exists():
            _fail(f"{_shorten(str(path))}: already exists; not overwritten")
        if not path.parent.is_dir():
            _fail(f"{where}: no folder {_shorten(str(path.parent))!r} to write into")
        if not allowed(find(base), path.parent):  # its `extends` would be refused
            _fail(f"--from {_shorten(base)}: outside the folder of {_shorten(str(path))}, "
                  "which could not extend it; write it beside or above its base (-o), or "
                  "trust a folder with --root DIR")
        text = starter(name, base, path.parent)
        with open(path, "x", encoding="utf-8") as f:  # "x": never through a link or over
            f.write(text)                              # a file that appeared meanwhile
    except FileExistsError:
        _fail(f"{_shorten(str(path))}: already exists; not overwritten")
    except RulebookError as exc:  # the base's own problems, not the output's
        _fail(str(exc))
    except (OSError, ValueError) as exc:  # not writable, a name too long, a NUL byte
        _fail(f"{where}: can't write it: "
              f"{exc.strerror if isinstance(exc, OSError) else exc}")
    click.echo(f"wrote {path}; check it with: uno-rules validate {path}")


@cli.command()
def schema() -> None:
    """Print the rulebook JSON Schema (what schemas/rulebook.schema.json holds)."""
    from ..load.schema import schema_json

    click.echo(schema_json(), nl=False)


@cli.command()
def primitives() -> None:
    """Print the effect primitives reference (Markdown)."""
    from ..authoring.docs import primitives_markdown

    click.echo(primitives_markdown(), nl=False)


@cli.command("list")
@click.option("--quiet", "-q", is_flag=True, help="Names only, one a line.")
def list_rulebooks(quiet: bool) -> None:
    """List the shipped rulebooks (a RULEBOOK argument of any command) and house-rule
    overlays (--house NAME). `validate` takes either."""
    from ..load.loader import house_names, overlay_summary

    rulebooks = [load_rulebook(n) for n in shipped_names()]
    overlays = [(n, overlay_summary(n)) for n in house_names()]
    if quiet:
        for name in [rb.name for rb in rulebooks] + [n for n, _ in overlays]:
            click.echo(name)
        return
    width = max(len(n) for n in shipped_names() + house_names())
    click.echo("Rulebooks (RULEBOOK):")
    for rb in rulebooks:
        click.echo(f"  {rb.name:<{width}}  {rb.title}: {rb.players_text()} players, "
                   f"{len(rb.deck)} cards")
    click.echo("House rules (--house NAME):")
    for name, summary in overlays:
        click.echo(f"  {name:<{width}}  {summary}")


cli.add_command(table_play)
cli.add_command(table_replay)
cli.add_command(web_serve)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``uno-rules`` command."""
    cli.main(args=argv, prog_name="uno-rules")


if __name__ == "__main__":
    main()
