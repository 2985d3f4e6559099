"""The scenario runner: rules tests written in YAML (format: SCENARIOS.md, a contract).

:func:`run_paths` runs files or folders and returns one :class:`Outcome` per scenario;
a malformed file raises :class:`ScenarioError` with every problem located.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.actions import Action
from ..engine.decisions import Give
from ..engine.errors import (
    IllegalAction,
    NotationError,
    Problem,
    RulebookError,
    RunawayEffect,
    ScenarioError,
    UnoRulesError,
    shorten,
    shorten_values,
    visible,
)
from ..engine.game import GAME_STEPS, Game
from ..engine.notation import COMBO, normalize, parse_card
from ..engine.pilecounters import set_name
from ..engine.position import Position, game_from_position
from ..engine.rulebook import Rulebook
from ..engine.state import SEED_LIMIT
from ..load.entry import load_rulebook
from ..load.loader import (
    did_you_mean,
    is_scenario_file,
    outside,
    resolve,
    schema_problem,
    schema_problems,
    shipped_names,
    strict_validator,
)
from ..load.problems import dedupe, report
from ..load.resources import (
    ROOT,
    allowed,
    find,
    outside_folder,
    schema,
    shipped_overlay,
    shipped_rulebook,
    within,
)
from ..load.yamlpos import Located, PathKey, load_file
from ..play import driver
from ..play.match import Standing
from .expect import EXPECTS, mismatches, with_expect_keys

# The `expect` keys come from the registry of checks (expect.py).
_VALIDATOR = strict_validator(with_expect_keys(schema("scenario")))
# An action step's values, checked against the schema's `action` (its keys are checked
# by _check_step, which names the valid ones).
_ACTION = strict_validator({**schema("scenario")["$defs"]["action"],
                            "$defs": schema("scenario")["$defs"]})
SHARED_KEYS = ("rulebook", "house", "set", "players", "seed")
# Effect steps all the scenarios of one file may run together (the project's own files run
# under 200 each): past it, the rest are not run, so a file's cost is bounded like a round's.
FILE_STEPS = GAME_STEPS
ACTION_KEYS = ("play", "draw", "keep", "color", "challenge", "target", "loser", "give",
               "catch", "jump_in", "call_uno", "call", "side", "outcome", "press", "end")
TABLE_KEYS = ("loser", "outcome")  # steps settled at the table: no `seat`
# What may accompany `play` in its step: the decisions that come right after it.
WITH_PLAY = ("color", "side")
STEP_KEYS = ("seat", "uno", "pile", "expect", "reject") + ACTION_KEYS


@dataclass(frozen=True)
class Outcome:
    """The result of one scenario."""

    file: str
    name: str
    passed: bool
    message: str = ""

    def __str__(self) -> str:
        name = visible(shorten(self.name))
        return f"PASS {name}" if self.passed else f"FAIL {name}: {visible(self.message)}"


BOOLEAN_KEY = ("a key YAML reads as {} (a bare `on`, `off`, `yes` or `no` is a boolean): to "
               "name the pile a card goes on, write `pile: N` or `play: CARD on N`")
NOT_A_SCENARIO = ("not a scenario file (it has no `rulebook`, `scenarios`, `steps` or "
                  "`state`): a rulebook or house rule? uno-rules validate checks those")


class _Fail(UnoRulesError):
    pass


def scenario_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """The scenario files named by ``paths`` (folders are searched for ``*.yaml``); one
    path alone is taken as one (not as its characters)."""
    for p in map(Path, [paths] if isinstance(paths, (str, Path)) else paths):
        if p.is_dir():
            yield from sorted(x for x in p.rglob("*.y*ml") if x.suffix in (".yaml", ".yml"))
        else:
            yield p


def _folder_of(paths: Iterable[str | Path]) -> dict[Path, Path]:
    """Each file found in a folder of ``paths``, with that folder."""
    return {x: Path(p) for p in ([paths] if isinstance(paths, (str, Path)) else paths)
            if Path(p).is_dir() for x in scenario_files([p])}


@dataclass
class Report:
    """Everything a run of several scenario files found: each scenario's outcome, the
    problems of malformed files (which don't stop the others), and unexpected errors."""

    outcomes: list[Outcome] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    malformed: list[str] = field(default_factory=list)   # the malformed files
    skipped: list[str] = field(default_factory=list)  # rulebooks found in a folder: not run
    errors: list[tuple[str, Exception]] = field(default_factory=list)  # bugs, by file


def run_all(paths: Iterable[str | Path], *, house: Iterable[str] = (),
            settings: Mapping[str, Any] | None = None,
            root: str | Path | None = None) -> Report:
    """Run every scenario in the given files and folders (``house``, ``settings``, ``root``:
    as in :func:`run_paths`); a malformed file (or one that trips an internal error) is
    recorded and the others still run. A rulebook or overlay found in a folder (told by its
    content, as `validate` does) is skipped; one named as a file is read as a scenario file."""
    found = Report()
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    folders = _folder_of(paths)
    for path in scenario_files(paths):
        if path in folders and not within(folders[path])(path):  # a link out: not read
            found.problems.append(Problem(str(path), 1, 1, outside_folder(folders[path])))
            found.malformed.append(str(path))
            continue
        try:
            if is_scenario_file(path) is False:  # a rulebook: beside scenarios, or named
                if path in folders:
                    found.skipped.append(str(path))
                    continue
                raise ScenarioError([Problem(str(path), 1, 1, NOT_A_SCENARIO)])
            found.outcomes.extend(run_file(path, house=house, settings=settings, root=root))
        except ScenarioError as exc:
            found.problems.extend(exc.problems)
            found.malformed.append(str(path))
        except (OSError, RecursionError) as exc:  # the file's doing (a path, a depth)
            why = "nested too deeply" if isinstance(exc, RecursionError) else \
                (exc.strerror or str(exc)).lower()
            found.problems.append(Problem(str(path), 1, 1, f"can't run it: {why}"))
            found.malformed.append(str(path))
        except RulebookError:  # the caller's house or settings: not this file's problem
            raise
        except Exception as exc:  # noqa: BLE001 - a bug: reported, the other files still run
            found.errors.append((str(path), exc))
    return found


def run_paths(paths: Iterable[str | Path], *, house: Iterable[str] = (),
              settings: Mapping[str, Any] | None = None,
              root: str | Path | None = None) -> list[Outcome]:
    """Run every scenario in the given files and folders (malformed: ScenarioError, after
    every file has run). ``house`` and ``settings`` apply on top of each scenario's own
    `house` and `set`; one that doesn't fit a scenario's rulebook raises RulebookError.
    ``root``: a folder whose files the scenarios and their rulebooks may name besides their
    own folders' (see :func:`uno_rules.load_rulebook`)."""
    report = run_all(paths, house=house, settings=settings, root=root)
    if report.errors:
        raise report.errors[0][1]
    if report.problems:
        raise ScenarioError(report.problems)
    return report.outcomes


def run_file(path: str | Path, *, house: Iterable[str] = (),
             settings: Mapping[str, Any] | None = None,
             root: str | Path | None = None) -> list[Outcome]:
    """Run the scenarios of one file (``house``, ``settings``: as in run_paths). Its
    `rulebook:` and `house:` paths are resolved from its folder and must be under it (or
    under ``root``)."""
    if root is not None:
        token = ROOT.set(Path(root))
        try:
            return run_file(path, house=house, settings=settings)
        finally:
            ROOT.reset(token)
    path = Path(path)
    located, problems = load_file(path)
    if located is None or problems:
        raise ScenarioError(problems)
    if not isinstance(located.data, dict):
        raise ScenarioError(located.problem((), "a scenario file must be a mapping"))
    problems = schema_problems(located, _VALIDATOR)
    data = located.data
    # (a `state` beside `scenarios` is theirs to share; `steps` would be one scenario more)
    if not problems and "scenarios" in data and "steps" in data:
        problems.append(located.problem(("scenarios",), "give either `scenarios` or a "
                                        "single scenario at top level, not both"))
    # the steps' own checks beside the schema's, so that every mistake is reported at once
    scenarios = data.get("scenarios", [data])
    for idx, sc in _scenarios(data) if isinstance(scenarios, list) else []:
        steps = sc.get("steps") if isinstance(sc, dict) else None
        for i, step in enumerate(steps if isinstance(steps, list) else []):
            if isinstance(step, dict):
                problems.extend(_check_step(located, idx + ("steps", i), step))
    if problems:
        raise ScenarioError(report(dedupe(problems)))  # a mistake repeated: one line, counted
    outcomes: list[Outcome] = []
    spent = 0  # effect steps run by this file's scenarios so far
    todo = _scenarios(data)
    for i, (idx, sc) in enumerate(todo):
        if spent > FILE_STEPS:  # each round ends within its budget, but not so 2,000 rounds
            outcomes.append(Outcome(str(path), sc.get("name", path.stem), False,
                                    f"not run, nor the {len(todo) - i - 1:,} after it: this "
                                    f"file's scenarios ran {spent:,} effect steps, the most "
                                    f"a file may run is {FILE_STEPS:,}"))
            break
        config = {k: sc.get(k, data.get(k)) for k in SHARED_KEYS}
        if config["seed"] is None:
            config["seed"] = 0  # scenarios are reproducible even without a seed
        try:
            game, standing = _setup(located, idx, sc, data, config, path,
                                    (tuple(house), dict(settings or {})))
        except RunawayEffect as exc:  # the deal's own effects (a first card) ran away
            outcomes.append(Outcome(str(path), sc.get("name", path.stem), False,
                                    f"the deal: {exc}"))
            continue
        problems = _one_pile_keys(located, idx, sc, game.rulebook.discard_piles)
        if problems:
            raise ScenarioError(report(problems))
        outcomes.append(_run_steps(located, idx, sc, game, str(path), standing))
        spent += game.steps
    return outcomes


def _scenarios(data: Mapping[str, Any]) -> list[tuple[PathKey, Mapping[str, Any]]]:
    if "scenarios" in data:
        return [(("scenarios", i), sc) for i, sc in enumerate(data["scenarios"])]
    return [((), data)]


def _check_step(located: Located, path: PathKey, step: Mapping[str, Any]) -> list[Problem]:
    out = []
    for key in step:
        if key in ("True", "False"):  # YAML 1.1: a bare on/off/yes/no key is a boolean
            out.append(located.problem(path + (key,), BOOLEAN_KEY.format(key.lower()),
                                       at_key=True))
        elif key not in STEP_KEYS:
            out.append(located.problem(path + (key,), f"unknown step key '{key}'"
                                       f"{did_you_mean(key, list(STEP_KEYS))}", at_key=True))
    if out:
        return out
    kinds = [k for k in ("expect", "reject", *ACTION_KEYS) if k in step]
    if "expect" in step or "reject" in step:
        if len(step) != 1:
            out.append(located.problem(path, "`expect` and `reject` stand alone in their step"))
        if isinstance(step.get("reject"), dict):  # another type: the schema says so
            out.extend(_check_step(located, path + ("reject",), step["reject"]))
        return out
    for error in _ACTION.iter_errors(dict(step)):  # values of the right types
        error.path.extendleft(reversed(path))  # located from the file's root
        out.extend(schema_problem(located, error))
    if out:
        return out
    written = _on_pile(step["play"])[1] if isinstance(step.get("play"), str) else None
    if written is not None and step.get("pile", written) != written:
        out.append(located.problem(path + ("pile",), f"pile: {step['pile']}, but the card is "
                                   f"played on {written} (`play: ... on {written}`)"))
    acts = [k for k in kinds if k not in WITH_PLAY] or kinds
    if len(acts) != 1:
        out.append(located.problem(path, "an action step names exactly one action (one of "
                                   + ", ".join(ACTION_KEYS) + ")"))
    elif acts[0] not in TABLE_KEYS and "seat" not in step:
        out.append(located.problem(path, f"a `{acts[0]}` step needs `seat`"))
    return out


def _setup(located: Located, idx: PathKey, sc: Mapping[str, Any], data: Mapping[str, Any],
           config: Mapping[str, Any], path: Path,
           extra: tuple[tuple[str, ...], dict[str, Any]] = ((), {})
           ) -> tuple[Game, Standing | None]:
    if not config["rulebook"]:
        raise ScenarioError(located.problem(idx, "no `rulebook` given"))
    rulebook = _setup_rulebook(located, idx, sc, config, path, extra)
    players = _setup_players(located, idx, sc, config, rulebook)
    state = sc.get("state", data.get("state"))  # the scenario's own, else the file's
    at = _key_at(idx, sc, "state")
    standing = _standing(located, idx, sc, data, rulebook, players)
    out = standing.out if standing else []
    dealer = _setup_dealer(located, at, state, standing)
    try:
        if state is None:
            return rulebook.new_game(players, config["seed"], dealer=dealer, out=out), standing
        position = Position(hands=state["hands"], discard=state.get("discard") or (),
                            draw_pile=state.get("draw_pile"), color=state.get("color"),
                            turn=state.get("turn", 0),
                            direction=state.get("direction", "clockwise"),
                            side=state.get("side"), discards=state.get("discards"),
                            colors=state.get("colors"),
                            player_state=state.get("player_state"),
                            open_piles=state.get("open_piles"),
                            presses=state.get("presses"), limits=state.get("limits"))
        return game_from_position(rulebook, players, position, config["seed"],
                                  dealer=dealer, out=out), standing
    except (IllegalAction, NotationError) as exc:
        raise ScenarioError(located.problem(at if state else idx,
                                            str(exc))) from None


def _setup_rulebook(located: Located, idx: PathKey, sc: Mapping[str, Any],
                    config: Mapping[str, Any], path: Path,
                    extra: tuple[tuple[str, ...], dict[str, Any]]) -> Rulebook:
    """The scenario's rulebook, a problem loading it reported at the key that caused it."""
    where = idx if "rulebook" in sc else ("rulebook",)
    ref = config["rulebook"]
    rulebook_at, house_at = _key_at(idx, sc, "rulebook"), _key_at(idx, sc, "house")
    try:
        return _load(_rulebook_ref(located, rulebook_at, ref, path.parent),
                     (*_house_refs(located, house_at, config["house"] or (), path.parent),
                      *extra[0]),
                     {**(config["set"] or {}), **extra[1]})
    except RulebookError as exc:
        first = exc.problems[0]
        if first.line <= 0 and _given(first.file, *extra):  # a command-line argument's
            raise RulebookError(located.problem(where, str(first))) from None
        if first.line <= 0:  # a problem with the scenario's own `set:` or `house:` value
            key = "set" if first.file.startswith("--set") else "house"
            at = _key_at(idx, sc, key)
            raise ScenarioError(located.problem(at, f"{key}: {first.file.split(' ', 1)[-1]}: "
                                                f"{first.message}")) from None
        raise ScenarioError(located.problem(where, f"rulebook {ref!r}: {first.message}"
                                            + (f" ({first.file}:{first.line}:{first.col})"
                                               if first.file != str(ref) else ""))) from None


def _setup_players(located: Located, idx: PathKey, sc: Mapping[str, Any],
                   config: Mapping[str, Any], rulebook: Rulebook) -> int:
    """The player count (one the rulebook plays), the seed checked too."""
    players: int = config["players"]
    if players is None:
        raise ScenarioError(located.problem(idx, "no `players` given"))
    # Found out here, at the key that says them, rather than by the deal at the scenario.
    if players not in rulebook.player_counts():
        raise ScenarioError(located.problem(_key_at(idx, sc, "players"), f"players: "
                                            f"{rulebook.name} is for "
                                            f"{rulebook.players_text()} players, not {players}"))
    seed = config["seed"]
    if seed is not None and abs(seed) >= SEED_LIMIT:
        raise ScenarioError(located.problem(_key_at(idx, sc, "seed"),
                                            "seed: too large (abs(seed) < 2**256)"))
    return players


def _setup_dealer(located: Located, at: PathKey, state: Mapping[str, Any] | None,
                  standing: Standing | None) -> int | None:
    """The dealer (the match's, which the state may repeat), once the seats out of the
    match are seen to hold nothing and never to have the turn."""
    out = standing.out if standing else []
    dealer = state.get("dealer") if state else None
    if standing:
        if dealer is not None and dealer != standing.dealer:
            raise ScenarioError(located.problem(at + ("dealer",), f"state.dealer "
                                                f"{dealer} differs from match.dealer "
                                                f"{standing.dealer}"))
        dealer = standing.dealer
    for seat in out:  # a seat out of the match holds nothing and never has the turn
        if state is not None and seat < len(state["hands"]) and state["hands"][seat]:
            raise ScenarioError(located.problem(at + ("hands", seat), f"seat {seat} "
                                                "is out of the match: its hand is []"))
        if state is not None and state.get("discard") and state.get("turn", 0) == seat:
            raise ScenarioError(located.problem(at + ("turn",), f"seat {seat} is out "
                                                "of the match: it never has the turn"))
    return dealer


def _one_pile_keys(located: Located, idx: PathKey, sc: Mapping[str, Any],
                   piles: int) -> list[Problem]:
    """With several discard piles, `expect` keys of one pile (`top`, `color`) would check
    only the pile in focus: each is refused, pointing at its key for every pile."""
    if piles < 2:
        return []
    out = []
    for i, step in enumerate(sc.get("steps") or []):
        expect = step.get("expect") if isinstance(step, dict) else None
        for key, every in (("top", "tops"), ("color", "colors")):
            if isinstance(expect, dict) and key in expect:
                out.append(located.problem(idx + ("steps", i, "expect", key), f"expect `{key}`"
                                           f": this rulebook has {piles} discard piles; check "
                                           f"every pile's with `{every}: [...]`, one per pile",
                                           at_key=True))
    return out


def _key_at(idx: PathKey, sc: Mapping[str, Any], key: str) -> PathKey:
    """Where ``key`` is given for a scenario: its own, else the file's (top level)."""
    return idx + (key,) if key in sc else (key,)


def _standing(located: Located, idx: PathKey, sc: Mapping[str, Any], data: Mapping[str, Any],
              rulebook: Rulebook, players: int) -> Standing | None:
    """The match a scenario's round is part of (its `match:` block, else the file's), checked
    against the rulebook; None without one."""
    at = _key_at(idx, sc, "match")
    block = sc.get("match", data.get("match"))
    if block is None:
        return None
    fresh = Standing.fresh(players)
    out = list(block.get("out", []))
    # the default dealer: the last seat still in the match (a seat out deals no more)
    dealer = max((s for s in range(players) if s not in out), default=fresh.dealer)
    standing = Standing(list(block.get("scores", fresh.scores)), out,
                        block.get("dealer", dealer))
    problems = [located.problem(at + key, f"match{f'.{key[0]}' if key else ''}: {why}")
                for key, why in standing.problems(rulebook, players)]
    if problems:
        raise ScenarioError(report(problems))  # a mistake repeated: one line, counted
    return Standing(standing.scores, sorted(standing.out), standing.dealer)


def _given(origin: str, house: tuple[str, ...], settings: Mapping[str, Any]) -> bool:
    """Whether a problem's origin (``--house NAME``, ``--set NAME=VALUE``) is one of
    ``house`` or ``settings`` (given on the command line, not in the file)."""
    kind, _, given = origin.partition(" ")
    return given in house if kind == "--house" else given.partition("=")[0] in settings


def _shipped(ref: str) -> bool:
    return "/" not in ref and not ref.endswith((".yaml", ".yml"))


def _rulebook_ref(located: Located, at: PathKey, ref: str, folder: Path) -> str:
    """What to load for a `rulebook:` value (at ``at``): a shipped name, or a path under the
    scenario file's folder (refused unread if it is outside; see resources.allowed)."""
    if _shipped(ref):  # a name: only ever a shipped rulebook, never a file here
        if shipped_rulebook(ref) is None:
            names = shipped_names()
            raise ScenarioError(located.problem(at, f"rulebook {ref!r}: no such rulebook or "
                                                f"file{did_you_mean(ref, names)} (shipped: "
                                                f"{', '.join(names)})", at_key=True))
        return ref
    path = resolve(ref, folder)
    if not allowed(path, folder):
        raise ScenarioError(located.problem(at, outside("rulebook", ref), at_key=True))
    return str(path)


def _house_refs(located: Located, at: PathKey, names: Iterable[str],
                folder: Path) -> tuple[str, ...]:
    """The `house:` entries to apply: shipped names, and paths resolved from the scenario
    file's folder, under it (a path outside is refused unread)."""
    out = []
    for i, name in enumerate(names):
        path = find(name, folder, overlay=True)
        if not allowed(path, folder):
            raise ScenarioError(located.problem(at + (i,), outside("house", name)))
        # A name that is no overlay stays as written, so its error suggests a shipped one.
        is_file = shipped_overlay(name) is None and name.endswith((".yaml", ".yml"))
        out.append(str(path) if is_file else name)
    return tuple(out)


_CACHE: dict[tuple[str, tuple[str, ...], str, str], Rulebook] = {}


def _load(ref: str, house: tuple[str, ...], overrides: Mapping[str, Any]) -> Rulebook:
    # ROOT is part of the key: a rulebook loaded under a wider root isn't reused under another
    key = (ref, house, json.dumps(overrides, sort_keys=True, default=str), str(ROOT.get()))
    if key not in _CACHE:
        _CACHE[key] = load_rulebook(ref, house=house, settings=overrides)
    return _CACHE[key]


def _run_steps(located: Located, idx: PathKey, sc: Mapping[str, Any], game: Game,
               file: str, standing: Standing | None = None) -> Outcome:
    name = sc.get("name", Path(file).stem)
    for k, step in enumerate(sc.get("steps") or [], start=1):
        f, line, _ = located.pos(idx + ("steps", k - 1))
        where = f" ({f}:{line})"
        try:
            if "expect" in step:
                _expect(game, step["expect"], standing)
            elif "reject" in step:
                _reject(game, step["reject"])
            else:
                driver.script(game, _actions(game, step))
        except (_Fail, IllegalAction, NotationError, RunawayEffect) as exc:
            # a runaway effect is the rules' doing, so this scenario's failure, not a bug
            # (the step's values cut short)
            message = shorten_values(str(exc), _strings(step))
            return Outcome(file, name, False, f"step {k}: {message}{where}")
    return Outcome(file, name, True)


def _strings(value: Any) -> Iterator[str]:
    """The strings in a step (its card names, colours, expected values...)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


# Steps whose value is the action's number as given (a seat, or a pile): key -> action kind.
NUMBERED = {"target": "target", "catch": "catch", "call_uno": "uno", "press": "press"}


def _actions(game: Game, step: Mapping[str, Any]) -> Iterator[Action]:
    """The engine actions one scenario step stands for (a wild + colour is two)."""
    seat = step.get("seat")
    if "play" in step:
        yield from _plays(game, seat, step)
        return
    if "draw" in step:
        yield Action(seat, "draw")
    elif "keep" in step:
        yield Action(seat, "keep")
    elif "end" in step:
        yield Action(seat, "end")
    elif "challenge" in step:
        yield Action(seat, "challenge" if step["challenge"] else "accept")
    elif "loser" in step:
        yield Action(None, "loser", step["loser"])
    elif "outcome" in step:
        yield Action(None, "outcome", _outcome_value(step["outcome"]))
    elif any(key in step for key in NUMBERED):
        key = next(key for key in NUMBERED if key in step)
        yield Action(seat, NUMBERED[key], step[key])
    elif "call" in step:  # a seat's own call (`call: uno`): for itself
        yield Action(seat, "uno", seat)
    elif "jump_in" in step:
        yield Action(seat, "jump_in", str(step["jump_in"]))
    elif "give" in step:
        yield from _gives(game, seat, [str(card) for card in step["give"]])
    elif "color" in step:
        yield Action(seat, "color", str(step["color"]))
    elif "side" in step:
        yield Action(seat, "side", str(step["side"]))


def _plays(game: Game, seat: Any, step: Mapping[str, Any]) -> Iterator[Action]:
    """The actions of a `play` step: the play, then its side and colour if given."""
    several = isinstance(step["play"], list)  # several cards at once, laid in order
    card, on = (COMBO.join(map(normalize, map(str, step["play"]))), None) if several \
        else _on_pile(str(step["play"]))
    hand = game.hands[seat] if isinstance(seat, int) and 0 <= seat < game.players else []
    pile = step.get("pile", 0 if on is None else on)
    uno = step.get("uno", True)
    # called where the play may leave one card (or, not written, `call_at` cards: DOS's two)
    if uno and (len(hand) != 2 or several or
                ("uno" not in step and game.rulebook.settings.call_at != 1)):
        decision = game.decision
        uno = decision is not None and any(
            a.uno and a.pile == pile and a.arg == normalize(card) for a in decision.options)
    yield Action(seat, "play", card, uno, pile)
    if "side" in step:  # how it is played: asked right after it, before its colour
        yield Action(seat, "side", str(step["side"]))
    if "color" in step and not game.over:
        yield Action(seat, "color", str(step["color"]))
def _outcome_value(value: Any) -> str:
    """A table outcome's value as written: a set of piles as a list, `[0, 2]`, is `0+2`."""
    return set_name(value) if isinstance(value, list) else str(value)


_ON_PILE = re.compile(r"(.*?\S)\s+(?:on\s+pile|on|pile)\s+(\d{1,9})\s*", re.IGNORECASE)


def _on_pile(text: str) -> tuple[str, int | None]:
    """A played card as the table writes it, ``red 5 on 1`` (also ``on pile 1``, ``pile
    1``): the card and the pile it names (None: none named)."""
    match = _ON_PILE.fullmatch(text)
    return (match[1], int(match[2])) if match else (text, None)


def _gives(game: Game, seat: Any, names: list[str]) -> list[Action]:
    """The actions of a `give` step, one per card. The list is the whole give: unless it
    completes the give pending for ``seat`` exactly (as many cards as the seat still owes,
    each in its hand), it is refused as a whole (IllegalAction) before any card is given."""
    pending = game.pending
    n = len(names)
    what = f"give of {n} card{'' if n == 1 else 's'}"
    if game.over or not isinstance(pending, Give) or pending.seat != seat or not game.giving:
        raise IllegalAction(f"{what}, but seat {seat} has no give pending{_pending(game)}")
    hand = game.hands[seat]
    owed = _owed(game, seat)
    if n != owed:
        raise IllegalAction(f"{what}, but seat {seat} must give {owed}")
    held = Counter(game.faces[c].id for c in hand)
    wanted: Counter[int] = Counter()
    for name in names:
        try:
            wanted[parse_card(game.rulebook, name, game.side)] += 1
        except NotationError as exc:
            raise IllegalAction(f"{what}: {exc}") from None
    for face, k in wanted.items():
        if k > held[face]:
            card = game.rulebook.faces[face].name
            raise IllegalAction(f"{what}: {card} is not in seat {seat}'s hand" if not held[face]
                                else f"{what}: {card} given {k} times, but seat {seat}'s hand "
                                     f"holds {held[face]}")
    return [Action(seat, "give", name) for name in names]


def _owed(game: Game, seat: int) -> int:
    """How many cards ``seat`` still has to give in the current give."""
    hand = game.hands[seat]
    count: Any = next((entry[1] for entry in game.giving[-1].queue if entry[0] == seat), 0)
    if count == "half":  # not yet asked (the engine settles it when it asks)
        count = len(hand) // 2
    return max(0, min(int(count), len(hand)))  # a giver whose hand runs out is done


def _reject(game: Game, step: Mapping[str, Any]) -> None:
    before = json.dumps(game.snapshot(), sort_keys=True)
    taken = 0

    def counted(actions: Iterable[int | Action]) -> Iterator[int | Action]:
        nonlocal taken
        for action in actions:
            yield action
            taken += 1
    try:
        driver.script(game, counted(_actions(game, step)))
    except (IllegalAction, NotationError):
        after = json.dumps(game.snapshot(), sort_keys=True)
        if taken:  # a step of several actions (a play, then its side): only the last refused
            raise _Fail(f"the step's first {taken} action(s) were taken before one was "
                        "refused: a reject step's first action must be the refused one"
                        ) from None
        if after != before:
            raise _Fail("the refused action changed the game state") from None
        return
    raise _Fail(f"expected the action to be refused, but it was taken: {step}")


def _expect(game: Game, expect: Mapping[str, Any], standing: Standing | None = None) -> None:
    unknown = next((key for key in expect if key not in EXPECTS), None)
    if unknown is not None:  # the schema only lets known keys through
        raise _Fail(f"unknown expect key {unknown!r}")
    actual = mismatches(game, expect, standing)
    if actual:
        raise _Fail("; ".join(f"expected {k} {w!r}, got {g!r}" for k, (w, g) in actual.items())
                    + _pending(game))


def _pending(game: Game) -> str:
    d = game.decision
    if d is not None and d.seat is None:  # a chance node
        return f" (pending: a {d.kind} settled at the table)"
    return " (round over)" if d is None else f" (pending: seat {d.seat} to {d.kind})"
