"""Games played on the page (docs/web.md, "Playing: the games API"): each game is a
:class:`~uno_rules.table.session.Session` — the terminal table's own loop — stopped at each
prompt (:meth:`Session.play` yields it) and sent the next answer in a later request.

Every game lives in ``DATA/games``: ``ID.jsonl``, its record (:mod:`uno_rules.play.record`,
a line flushed per action: ``uno-rules replay`` reads it), ``ID.json``, what restores it
(the rulebook's source, seats, seed and every answer typed, written anew after each), and
``ID/editor.yaml``, the editor's text of a rulebook that came from the page. A game not in
memory (a restart, or one of more than ``max_live_games``) is dealt again from its seed
and sent its answers again, the agents playing as they did, and the record that makes is
checked against the file: a tampered or broken game answers 422 (410 when its files are
gone) with the reason, and no other game is touched. The files are read as hostile input
(:mod:`.files`: regular files only, inside the data folder). While a game is played, no
answer shows more than the seat at the screen sees: its record (the seed, every hand) and
other seats' replays come when it is over."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any, TypeVar, cast

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..engine.errors import IllegalAction, RulebookError, RunawayEffect, shorten
from ..engine.outcome import Termination
from ..engine.rulebook import Rulebook
from ..load.entry import load_rulebook
from ..load.resources import house_dir, house_names, rulebooks_dir, shipped_names
from ..play.agents import AGENTS, AgentError
from ..play.match import Match
from ..play.record import MAX_RECORD, Record, Recorder, RecordError, read_text
from ..table.replay import action_seen, seat_of
from ..table.screen import PLAIN, event_lines
from ..table.session import HUMAN, Asking, Outcome, Prompt, Session
from . import branch, friends, view
from .branch import MAX_SEED
from .files import (
    MAX_META,
    StoredFileError,
    append,
    check_listed,
    check_meta,
    confined_text_path,
    parse_meta,
    read_stored,
    unwritable,
    write_new,
)
from .http import ApiError, read_json
from .limits import Limits
from .source import builtin_agents, house_list, invalid, load_source, problem_json, set_values
from .work import Stopped, checked

FORMAT = 1              # the restore file's format
ID = re.compile(r"[0-9a-f]{12}")
MAX_ANSWER = 200        # characters of one answer
QUIT = ("q", "quit", "exit")
EDITOR = "editor.yaml"
T = TypeVar("T")


class AppendFile:
    """The record's file, opened to append each line and closed again (no file is held
    open for a game kept in memory; a link or FIFO put in its place is never written)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def write(self, text: str) -> int:
        append(self.path, text)
        return len(text)

    def flush(self) -> None:
        """Each write is flushed as the file is closed."""


@dataclass
class Live:
    """A game in memory: its session stopped at ``prompt`` (None: it has ended)."""

    id: str
    folder: Path  # the store's: messages name no path in it
    meta: dict[str, Any]
    match: Match
    recorder: Recorder
    steps: Asking[Outcome]
    session: Session
    prompt: Prompt | None = None
    status: str = "playing"
    reason: str | None = None

    @property
    def version(self) -> int:
        return len(self.meta["answers"])

    def state(self) -> dict[str, Any]:
        return view.state(self.id, self.version, self.meta, self.match, self.prompt,
                          self.status, self.reason, self.session.ended)

    def advance(self, answer: str | None) -> None:
        """Send ``answer`` (None: start) and run to the next prompt, or the end."""
        try:
            self.prompt = next(self.steps) if answer is None else self.steps.send(answer)
        except StopIteration as stop:
            outcome = cast(Outcome, stop.value)
            self.prompt, self.status = None, outcome.how
            if outcome.how == "stalled":
                self.reason = self.match.game.stalled_reason()
        except RunawayEffect as exc:  # the rulebook's effects never end: the game stops
            self.prompt, self.status = None, "stalled"
            self.reason = f"an effect runs away: {hide_paths(str(exc), self.folder)}"
            self.recorder.end(Termination.RUNAWAY)


def hide_paths(text: str, folder: Path) -> str:
    """A message without the server's paths: a game's rulebook text is ``editor``, a
    shipped file its name."""
    for f in {str(folder), os.path.realpath(folder)}:
        text = re.sub(re.escape(f + os.sep) + r"[0-9a-f]{12}" + re.escape(os.sep + EDITOR),
                      "editor", text)
    for d in (house_dir(), rulebooks_dir()):  # the overlays' folder is inside: first
        for f in {str(d), os.path.realpath(d)}:
            text = re.sub(re.escape(f + os.sep) + r"([a-z][a-z0-9_]*)\.yaml", r"\1", text)
    return text


def _error(status: int, message: str) -> ApiError:
    return ApiError(status, " ".join(message.split()))


# ------------------------------------------------------------------ the request's values
def _int(body: Mapping[str, Any], key: str, default: int | None, lo: int,
         hi: int) -> int | None:
    value = body.get(key)
    if value is None:  # absent or null (the page sends null for an empty field)
        return default
    if type(value) is not int or not lo <= value <= hi:
        raise ApiError(400, f"{key}: expected a whole number from {lo} to {hi}, got "
                            f"{shorten(json.dumps(value), 40)}")
    return value


def _agents(value: Any, players: int, humans: list[int]) -> list[str]:
    """The agent per seat (humans' seats: "human"): built-in agents only, never imported."""
    agents = builtin_agents("greedy" if value is None else value, players)
    assert agents is not None
    return [HUMAN if s in humans else agents[s][0] for s in range(players)]


# ------------------------------------------------------------------ the store
class GameStore:
    """The games of one server: those in memory (least recently used dropped past
    ``max_live_games``), a lock per game, and the folder that keeps them all."""

    def __init__(self, folder: Path, limits: Limits) -> None:
        self.folder, self.limits = folder, limits
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:  # an unwritable data folder: a 507 when a game is saved
            pass
        self.live: OrderedDict[str, Live] = OrderedDict()
        self.locks: dict[str, threading.Lock] = {}
        self.guard = threading.Lock()
        self.saves: dict[str, int] = {}  # the times each game was saved since the start

    def paths(self, game_id: str) -> tuple[Path, Path, Path]:
        """The record, the restore file and the rulebook text of a game."""
        return (self.folder / f"{game_id}.jsonl", self.folder / f"{game_id}.json",
                self.folder / game_id / EDITOR)

    def lock(self, game_id: str) -> threading.Lock:
        if not ID.fullmatch(game_id):
            raise ApiError(404, "no such game")
        with self.guard:
            lock = self.locks.get(game_id)
        if lock is None and not any(os.path.lexists(p) for p in self.paths(game_id)[:2]):
            raise ApiError(404, "no such game")  # no lock is kept for a made-up id
        with self.guard:
            return self.locks.setdefault(game_id, threading.Lock())

    def with_game(self, game_id: str, work: Callable[[Live], T]) -> T:
        """``work(game)`` holding the game's lock (restored from disk if not in memory)."""
        with self.lock(game_id):
            with self.guard:
                live = self.live.get(game_id)
                if live is not None:
                    self.live.move_to_end(game_id)
            try:
                if live is None:
                    live = self.restore(game_id)
                    self.keep(live)
                return work(live)
            except OSError as exc:  # not saved: the game comes back from disk next time
                with self.guard:
                    self.live.pop(game_id, None)
                raise unwritable(exc) from None
            except Stopped:  # its session stopped midway: back from its files next time
                with self.guard:
                    self.live.pop(game_id, None)
                raise

    def keep(self, live: Live) -> None:
        with self.guard:
            self.live[live.id] = live
            self.live.move_to_end(live.id)
            while len(self.live) > self.limits.max_live_games:
                self.live.popitem(last=False)  # on disk: it comes back when asked for

    # -------------------------------------------------------------- making one
    def rulebook(self, game_id: str, source: Mapping[str, Any]) -> Rulebook:
        """The game's rulebook: a shipped one, or the editor's text kept with the game
        (its folder the only one it may name files in). Raises RulebookError."""
        settings, house = source["set"], list(source["house"])
        max_bytes = self.limits.max_body
        if source["rulebook"] is not None:
            return load_rulebook(source["rulebook"], house=house, settings=settings,
                                 max_bytes=max_bytes)
        try:  # its own folder's file, never a link: nothing elsewhere is read
            text = confined_text_path(self.folder, game_id, EDITOR)
        except StoredFileError as exc:
            raise _error(422, f"game {game_id}: {exc}") from None
        if source["overlay"]:
            return load_rulebook(source["base"], house=[*house, str(text)],
                                 settings=settings, max_bytes=max_bytes)
        return load_rulebook(text, house=house, settings=settings, max_bytes=max_bytes)

    def create(self, body: Mapping[str, Any], script: Sequence[str] = ()) -> Live:
        """A new game made from a request's ``body``; ``script``: the steps its agents play
        first (a record's, continued from a step: web/branch.py, which may give its round's
        ``deal`` too)."""
        limits = self.limits
        loaded = load_source(body, limits)  # a bad key is a 400, the text's problems a 422
        if loaded.rulebook is None:
            raise invalid(loaded.problems)
        base = body.get("base")
        source = {"rulebook": body.get("rulebook"), "base": "classic" if base is None else base,
                  "house": house_list(body.get("house")), "set": set_values(body.get("set")),
                  "overlay": loaded.overlay}
        game_id = os.urandom(6).hex()
        record, meta_path, text_path = self.paths(game_id)
        try:
            if loaded.text is not None:  # kept with the game: the game's own file
                text_path.parent.mkdir()
                text_path.write_text(loaded.text, encoding="utf-8")
            try:
                rb = self.rulebook(game_id, source)
            except RulebookError as exc:  # loaded once already: a change under us
                raise invalid([problem_json(p, text_path.parent) for p in exc.problems]
                              ) from None
            counts = [n for n in rb.player_counts() if n <= limits.max_players]
            players = _int(body, "players", 4 if 4 in counts else counts[0] if counts else 2,
                           2, limits.max_players)
            assert players is not None
            if players not in counts:
                raise ApiError(400, f"players: {rb.name} is for {rb.players_text()} players"
                                    f" (this server seats at most {limits.max_players})")
            humans = body.get("humans")
            humans = [0] if humans is None else humans
            if not isinstance(humans, list) or not all(type(h) is int for h in humans) or \
                    len(set(humans)) != len(humans):
                raise ApiError(400, "humans: expected a list of different seat numbers")
            bad = [h for h in humans if not 0 <= h < players]
            if bad:
                raise ApiError(400, f"humans: seat {shorten(str(bad[0]), 20)}: seats are 0 "
                                    f"to {players - 1}")
            seats = _agents(body.get("agents"), players, humans)
            seed = _int(body, "seed", None, 0, MAX_SEED)
            if seed is None:
                seed = random.SystemRandom().randrange(10 ** 6)
            one_round = body.get("round") or False
            if type(one_round) is not bool:
                raise ApiError(400, "round: expected true or false")
            budgets = {"max_steps": limits.max_steps, "max_actions": limits.play_actions}
            with_friends = body.get("friends") or False
            if type(with_friends) is not bool:
                raise ApiError(400, "friends: expected true or false")
            now = time.time()
            meta = {"format": FORMAT, "game": game_id, "title": rb.title,
                    "rulebook_name": rb.name, "source": source, "players": players,
                    "seats": seats, "seed": seed, "one_round": one_round,
                    "budgets": budgets, "answers": [], "status": "playing",
                    "created": now, "updated": now}
            meta.update(branch.script_meta(body, script))
            if with_friends:  # a link per human seat (friends.py)
                meta["friends"] = friends.new(players, humans)
            try:
                live = self.start(game_id, meta, rb, AppendFile(record))
            except (IllegalAction, RunawayEffect) as exc:  # the deal itself fails
                raise ApiError(422, "the round can't be dealt: "
                                    f"{hide_paths(str(exc), self.folder)}") from None
            except AgentError as exc:  # a record's step not an option (branch.Scripted)
                raise ApiError(422, f"the game does not play as recorded: {exc}") from None
            friends.settle(live)
            self.save(live)
        except BaseException as exc:
            self.discard(game_id)
            if isinstance(exc, OSError):  # the data folder: unwritable, or the disk full
                raise unwritable(exc) from None
            raise
        self.keep(live)
        return live

    def discard(self, game_id: str) -> None:
        """A game's files removed, and the game forgotten (one that was never made)."""
        with self.guard:
            self.live.pop(game_id, None)
        record, meta_path, text_path = self.paths(game_id)
        for path in (record, meta_path):
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
        shutil.rmtree(text_path.parent, ignore_errors=True)

    def start(self, game_id: str, meta: dict[str, Any], rb: Rulebook, out: Any) -> Live:
        """A game dealt from its seed, run to its first prompt, recorded to ``out``."""
        seats = list(meta["seats"])
        match = Match(rb, meta["players"], meta["seed"], **meta["budgets"])
        if "deal" in meta:  # a record's one round, dealt from its own seed (branch.py)
            match.game = rb.new_game(meta["players"], meta["deal"][0], dealer=meta["deal"][1],
                                     **meta["budgets"])
        recorder = Recorder(out, match, seats, one_round=meta["one_round"])
        script, done = meta.get("script", []), lambda: recorder.steps  # a record's (branch.py)
        classes = {s: branch.scripted(checked(AGENTS[s]), script, done)  # checked: in time
                   for s in seats if s != HUMAN}
        session = Session(match, seats, classes, lambda prompt: None, lambda line: None,
                          one_round=meta["one_round"], style=PLAIN, clear=lambda: None,
                          recorder=recorder)
        session.chance = branch.outcome(script, done)
        live = Live(game_id, self.folder, meta, match, recorder, session.play(), session)
        live.advance(None)
        return live

    def save(self, live: Live) -> None:
        """Write the restore file anew (a temporary file renamed: never half written)."""
        live.meta["status"], live.meta["updated"] = live.status, time.time()
        write_new(self.paths(live.id)[1], json.dumps(live.meta))
        with self.guard:  # what an event stream watches (friends' streams, seats.py)
            self.saves[live.id] = self.saves.get(live.id, 0) + 1

    def again(self, game_id: str, token: str | None = None) -> Live:
        """A new game made as ``game_id`` was: its rulebook, seats, agents and length, and
        a new deal (a seed of its own: nothing of the old game's is told); with friends,
        asked by its host, and new links."""
        return self.create(self.with_game(game_id, lambda live: self.remade(live, token)))

    def remade(self, live: Live, token: str | None) -> dict[str, Any]:
        """The body that makes a game as ``live`` was (its seed left out)."""
        meta, source = live.meta, live.meta["source"]
        if friends.of(meta) is not None and friends.who(meta, token) != friends.HOST:
            raise ApiError(403, "only the game's host may start it again")
        seats = meta["seats"]
        body = {"rulebook": source["rulebook"], "house": source["house"],
                "set": source["set"], "players": meta["players"],
                "humans": [s for s, k in enumerate(seats) if k == HUMAN],
                "agents": ",".join("greedy" if k == HUMAN else k for k in seats),
                "round": meta["one_round"], "friends": "friends" in meta}
        if source["rulebook"] is None:  # the editor's text, kept with the game
            body["base"] = source["base"]
            body["text"] = self.stored(live.id, self.paths(live.id)[2],
                                       self.limits.max_body, str)
        return body

    def branch(self, game_id: str, to: Any, token: str | None = None) -> Live:
        """"Continue from here": a new game with ``game_id``'s seats and seed, played to
        its step ``to`` (web/branch.py); only once ``game_id`` is over (before, it would
        show what is to come)."""
        if type(to) is not int or to < 0:
            raise ApiError(400, "to: a step number (0: the deal)")

        def work(live: Live) -> tuple[dict[str, Any], list[str], bool]:
            if live.prompt is not None:
                raise ApiError(409, "the game is being played: it may be continued from "
                                    "a step once it is over")
            steps = _read(self.stored(game_id, self.paths(game_id)[0], MAX_RECORD, str),
                          f"{game_id}.jsonl").steps
            if to > len(steps):
                raise ApiError(400, f"to: the game has {len(steps)} steps")
            body = {**self.remade(live, token), "seed": live.meta["seed"],
                    **{k: live.meta[k] for k in ("deal",) if k in live.meta}}
            return body, [str(s["action"]) for s in steps[:to]], "script" in live.meta
        body, script, forced = self.with_game(game_id, work)
        made = self.create(body, script if forced else ())  # a record's: its agents forced
        try:
            return self.with_game(made.id, lambda live: self.followed(live, script))
        except BaseException:  # not played to the step: no half-made game is kept
            self.discard(made.id)
            raise

    def branch_record(self, text: str, to: Any, seat: Any) -> Live:
        """"Continue from here" in a record sent to the page: checked, replayed to its step
        ``to``, then a new game dealt as it was (web/branch.py), its agents playing the
        record's steps, with the user at ``seat``; refused unless it is the record's game."""
        record = _read(text, "record")
        branch.check_request(record, to, seat)
        try:
            record.replay(to=to, rulebook=shipped_rulebook_of(record))
        except RecordError as exc:
            raise _error(422, str(exc)) from None
        script = [str(s["action"]) for s in record.steps[:to]]
        made = self.create(branch.record_body(record, seat), script)
        def mine() -> Record:  # the new game's record
            return _read(self.stored(made.id, self.paths(made.id)[0], MAX_RECORD, str),
                         f"{made.id}.jsonl")
        try:
            try:
                live = self.with_game(made.id, lambda live: self.followed(live, script))
            except ApiError:  # where it went otherwise, if it did
                branch.differs(record, mine())
                raise
            branch.check_same(record, mine(), to)
            return live
        except BaseException:  # not the record's game: no half-made game is kept
            self.discard(made.id)
            raise

    def followed(self, live: Live, script: list[str]) -> Live:
        branch.follow(live, script)
        self.save(live)
        return live

    # -------------------------------------------------------------- restoring one
    def stored(self, game_id: str, path: Path, limit: int, parse: Callable[[str], T]) -> T:
        """A file of the game, read as a hostile file and parsed: 410 when it is gone, 422
        naming the game and the file (never its content or the folder) when refused."""
        try:
            return parse(read_stored(path, limit))
        except FileNotFoundError:
            raise ApiError(410, f"game {game_id}: its {path.name} is gone") from None
        except StoredFileError as exc:
            raise _error(422, f"game {game_id}: its {path.name} is refused: {exc}"
                         ) from None

    def restore(self, game_id: str) -> Live:
        """A game back from its files: dealt again and sent every answer again; the
        record that makes must be the record on disk, line for line."""
        record_path, meta_path, _ = self.paths(game_id)
        meta = self.stored(game_id, meta_path, MAX_META, parse_meta)
        written = self.stored(game_id, record_path, MAX_RECORD, str)
        try:
            read_text(written, f"{game_id}.jsonl")  # the record's own check first
        except RecordError as exc:
            raise _error(422, str(exc)) from None
        try:
            if meta.get("format") != FORMAT:
                raise ValueError("format")
            check_meta(meta, self.limits.max_steps, self.limits.max_actions)
            answers = meta["answers"]
            rb = self.rulebook(game_id, meta["source"])
            buffer = StringIO()
            live = self.start(game_id, meta, rb, buffer)
            for k, answer in enumerate(answers):
                if live.prompt is None:
                    raise ValueError(f"answer {k + 1} comes after the game's end")
                live.advance(answer)
        except RulebookError as exc:
            first = hide_paths(str(exc).splitlines()[0], self.folder)
            raise _error(422, f"game {game_id}: its rulebook no longer loads: {first}"
                         ) from None
        except (ApiError, AgentError) as exc:  # ValueErrors since they joined UnoRulesError:
            if isinstance(exc, ApiError) or "script" not in meta:  # not taken for a broken
                raise                                                # file, as before
            raise _error(422, f"game {game_id}: its restore file's script does not play "
                              f"({shorten(str(exc), 120)})") from None
        except (KeyError, TypeError, ValueError, IllegalAction, AttributeError) as exc:
            raise _error(422, f"game {game_id}: its restore file is broken "
                              f"({shorten(str(exc), 80)})") from None
        again = buffer.getvalue()
        if again != written and written.startswith(again) and again.endswith("\n"):
            # The server stopped between an answer's moves (written as played) and its
            # restore file: that answer was never acknowledged, so the game is where the
            # last one left it and the record goes back there.
            write_new(record_path, again)
            written = again
        if again != written:
            lines = written.splitlines()
            made = again.splitlines()
            n = next((i for i, (a, b) in enumerate(zip(lines, made, strict=False))
                      if a != b), min(len(lines), len(made)))
            raise _error(422, f"{game_id}.jsonl:{n + 1}: the record is not what the game's "
                              "answers play: refused")
        live.recorder.out = cast(Any, AppendFile(record_path))
        return live

    # -------------------------------------------------------------- answering
    def answer(self, live: Live, version: Any, answer: Any,
               token: str | None = None) -> dict[str, Any]:
        """Send ``answer``, given at ``version`` (with friends: by the ``token``'s seat)."""
        if type(version) is not int:
            raise ApiError(400, "version: expected the state's version (a whole number)")
        if version != live.version:
            raise ApiError(409, f"the game has moved on (version {live.version}, not "
                                f"{version}): another tab answered",
                           state=friends.state(live, token))
        if not isinstance(answer, str) or len(answer) > MAX_ANSWER:
            raise ApiError(400, f"answer: expected what you would type (a string of at most "
                                f"{MAX_ANSWER} characters)")
        if live.prompt is None:
            raise ApiError(409, f"the game is {live.status}: nothing to answer",
                           state=friends.state(live, token))
        if answer.strip().lower() in QUIT:
            raise ApiError(400, "a game on the page is never quit: just leave it (it is "
                                "kept)")
        if "\n" in answer or "\r" in answer:
            raise ApiError(400, "answer: one line")
        friends.check_answer(live, token, answer)
        live.advance(answer)
        prompt = live.prompt
        if prompt is not None and prompt.hint is not None:  # asked again: not taken
            raise ApiError(400, prompt.hint)
        live.meta["answers"].append(answer)
        friends.settle(live)
        self.save(live)
        return friends.state(live, token)

    def listing(self) -> list[dict[str, Any]]:
        """Every game kept, the latest first: a damaged restore file is listed "broken",
        anything but a regular file (a link, a FIFO) is left out unopened."""
        try:
            entries = sorted(e.name for e in os.scandir(self.folder)
                             if e.is_file(follow_symlinks=False))
        except FileNotFoundError:
            return []
        except OSError:
            raise ApiError(503, "can't list the games: the data folder can't be read"
                           ) from None
        games = []
        for name in entries:
            game_id, _, ext = name.partition(".")
            if ext != "json" or not ID.fullmatch(game_id):
                continue
            try:
                meta = parse_meta(read_stored(self.folder / name, MAX_META))
                check_listed(meta)
                games.append({"game": game_id, "title": meta["title"],
                              "players": meta["players"],
                              "humans": [s for s, k in enumerate(meta["seats"])
                                         if k == HUMAN],
                              "status": meta["status"], "updated": meta["updated"]})
            except (OSError, StoredFileError):
                games.append({"game": game_id, "title": "", "players": 0, "humans": [],
                              "status": "broken", "updated": 0.0})
        return sorted(games, key=lambda g: -g["updated"])

    # -------------------------------------------------------------- replaying
    def record_text(self, game_id: str) -> str:
        """The game's record, once the game is over (it holds the seed and every hand)."""
        def work(live: Live) -> str:
            if live.prompt is not None:
                raise ApiError(403, "the game is being played: its record (which holds the "
                                    "seed and every hand) comes when it is over")
            return self.stored(game_id, self.paths(game_id)[0], MAX_RECORD, str)
        return self.with_game(game_id, work)

    def game_replay(self, game_id: str, query: Mapping[str, str],
                    token: str | None = None) -> dict[str, Any]:
        args = {k: query[k] for k in ("to", "seat") if k in query}
        try:
            parsed = {k: int(v) for k, v in args.items() if len(v) < 12}
        except ValueError:
            raise ApiError(400, "to and seat: whole numbers") from None
        if len(parsed) != len(args):
            raise ApiError(400, "to and seat: whole numbers")
        open_hands = query.get("open", "") in ("1", "true")

        def work(live: Live) -> tuple[str, Rulebook, int | None]:
            seat = seen_seat(live, parsed.get("seat"), open_hands, token)
            return (self.stored(game_id, self.paths(game_id)[0], MAX_RECORD, str),
                    live.match.rulebook, seat)
        text, rb, seat = self.with_game(game_id, work)
        record = _read(text, f"{game_id}.jsonl")
        return replay_view(record, rb, parsed.get("to"), seat, open_hands)


def seen_seat(live: Live, seat: int | None, open_hands: bool,
              token: str | None = None) -> int | None:
    """The seat whose view a replay of ``live`` may show (None: the default). Once the game
    is over, any seat's or every hand; while it is played, only the seat whose hand the
    game's own state shows now (with one human, that human's; hot-seat, the seat choosing):
    anything else is a 403."""
    if live.prompt is None:
        return seat
    humans = [s for s, k in enumerate(live.meta["seats"]) if k == HUMAN]
    own = view.viewer(live.prompt, humans)
    if friends.of(live.meta) is not None:  # a seat's own link: that seat's view only
        mine = friends.who(live.meta, token)
        own = mine if isinstance(mine, int) else None
    if open_hands or own is None or seat not in (None, own):
        whose = "no seat's view now" if own is None else f"only seat {own}'s view"
        raise ApiError(403, f"the game is being played: its replay shows {whose} (every "
                            "seat's view and every hand come when it is over)")
    return own


def _read(text: str, name: str) -> Record:
    try:
        return read_text(text, name)
    except RecordError as exc:
        raise _error(422, str(exc)) from None


def shipped_rulebook_of(record: Record) -> Rulebook:
    """The rulebook of a record sent to the page: shipped rulebooks and house rules only
    (a record naming a file is refused unread: never a path on the server)."""
    h = record.header
    name = h["rulebook"] if Path(h["source"]).name == f"{h['rulebook']}.yaml" else \
        h["source"]
    if name not in shipped_names() or any(x not in house_names() and
                                          x.removeprefix("house/") not in house_names()
                                          for x in h["house"]):
        raise _error(422, f"{record.path}:1: the record's rulebook "
                          f"{shorten(repr(h['source']), 80)} is not a shipped one: replay it "
                          "with uno-rules replay")
    try:
        from ..load.entry import load_as_written

        return load_as_written(name, h["house"], h["set"])
    except RulebookError as exc:
        raise _error(422, f"{record.path}:1: can't load the record's rulebook: "
                          f"{str(exc).splitlines()[0]}") from None


def replay_view(record: Record, rb: Rulebook, to: int | None, seat: int | None,
                open_hands: bool) -> dict[str, Any]:
    """A record after step ``to`` as ``seat`` saw it (``open_hands``: every hand)."""
    total = len(record.steps)
    players = record.header["players"]
    if seat is None:
        seat = seat_of(record)
    if not 0 <= seat < players:
        raise ApiError(400, f"seat: seats are 0 to {players - 1}")
    if to is not None and to < 0:
        raise ApiError(400, "to: a step number (0: the deal)")
    try:
        match = record.replay(to=to, rulebook=rb)
    except RecordError as exc:
        raise _error(422, str(exc)) from None
    step = total if to is None else min(to, total)
    line = record.steps[step - 1] if step else None
    shown = None if open_hands else seat
    table = view.table(match, seat, list(record.header["seats"]) or ["?"] * players)
    if open_hands:
        table["hands"] = [[view.card(match.game, n) for n in match.game.hand(s)]
                          for s in range(players)]
    return {"total": total, "step": step, "call": rb.settings.call_name,
            "action": None if line is None else action_seen(line, shown),
            "moves": [action_seen(s, shown) for s in record.steps],  # the move list
            "view": table,
            "log": event_lines(match.game, 0, shown, PLAIN,
                               open_hands=open_hands)[-view.LOG_LINES:]}


# ------------------------------------------------------------------ routes
_MAKING = threading.Lock()


def store_of(request: Request) -> GameStore:
    """The app's store (made on first use when the app runs without its lifespan)."""
    state = request.app.state
    with _MAKING:
        if getattr(state, "games", None) is None:
            start(request.app)
    store: GameStore = state.games
    return store


def token_of(request: Request) -> str | None:
    """A friends game's seat token: its header, else (an event stream) the query's."""
    return request.headers.get(friends.TOKEN_HEADER) or request.query_params.get("token")


def made(live: Live) -> dict[str, Any]:
    """A new game's answer to its maker (with friends: the host, given every link)."""
    if friends.of(live.meta) is None:
        return live.state()
    links = friends.links(live)
    return {**friends.state(live, links["host"]), "links": links}


async def create(request: Request) -> Response:
    body = await read_json(request)
    store = store_of(request)
    live = await run_in_threadpool(store.create, body)
    return JSONResponse(made(live), status_code=201)


async def again(request: Request) -> Response:
    live = await run_in_threadpool(store_of(request).again, request.path_params["game"],
                                   token_of(request))
    return JSONResponse(made(live), status_code=201)


async def branch_game(request: Request) -> Response:
    body = await read_json(request)
    live = await run_in_threadpool(store_of(request).branch, request.path_params["game"],
                                   body.get("to"), token_of(request))
    return JSONResponse(made(live), status_code=201)


def _record_text(body: Mapping[str, Any]) -> str:
    text = body.get("record")
    if not isinstance(text, str):
        raise ApiError(400, "record: expected a record's JSON Lines text")
    return text


async def branch_record(request: Request) -> Response:
    body = await read_json(request)
    live = await run_in_threadpool(store_of(request).branch_record, _record_text(body),
                                   body.get("to"), body.get("seat"))
    return JSONResponse(made(live), status_code=201)


async def listing(request: Request) -> Response:
    games = await run_in_threadpool(store_of(request).listing)
    return JSONResponse({"games": games})


async def get_game(request: Request) -> Response:
    store = store_of(request)
    token = token_of(request)
    state = await run_in_threadpool(store.with_game, request.path_params["game"],
                                    lambda live: friends.state(live, token))
    return JSONResponse(state)


async def answer(request: Request) -> Response:
    body = await read_json(request)
    store = store_of(request)
    state = await run_in_threadpool(
        store.with_game, request.path_params["game"],
        lambda live: store.answer(live, body.get("version"), body.get("answer"),
                                  token_of(request)))
    return JSONResponse(state)


async def record(request: Request) -> Response:
    text = await run_in_threadpool(store_of(request).record_text,
                                   request.path_params["game"])
    return Response(text, media_type="application/x-ndjson")


async def game_replay(request: Request) -> Response:
    store = store_of(request)
    got = await run_in_threadpool(store.game_replay, request.path_params["game"],
                                  dict(request.query_params), token_of(request))
    return JSONResponse(got)


async def replay(request: Request) -> Response:
    body = await read_json(request)
    text = _record_text(body)
    to, seat = _int(body, "to", None, 0, 10 ** 9), _int(body, "seat", None, 0, 10 ** 4)
    open_hands = body.get("open")
    open_hands = False if open_hands is None else open_hands
    if type(open_hands) is not bool:
        raise ApiError(400, "open: expected true or false")

    def work() -> dict[str, Any]:
        got = _read(text, "record")
        return replay_view(got, shipped_rulebook_of(got), to, seat, open_hands)
    return JSONResponse(await run_in_threadpool(work))


routes: list[BaseRoute] = [
    Route("/api/games", create, methods=["POST"]),
    Route("/api/games", listing, methods=["GET"]),
    Route("/api/games/{game}", get_game, methods=["GET"]),
    Route("/api/games/{game}/answer", answer, methods=["POST"]),
    Route("/api/games/{game}/again", again, methods=["POST"]),
    Route("/api/games/{game}/branch", branch_game, methods=["POST"]),
    Route("/api/games/{game}/record", record, methods=["GET"]),
    Route("/api/games/{game}/replay", game_replay, methods=["GET"]),
    Route("/api/replay", replay, methods=["POST"]),
    Route("/api/replay/branch", branch_record, methods=["POST"]),
]


def start(app: Starlette) -> None:
    """The store of games, on the data directory (created if need be)."""
    app.state.games = GameStore(Path(app.state.data_dir) / "games", app.state.limits)


def stop(app: Starlette) -> None:
    """Nothing held open: every game is on disk as it stands."""
