"""Records of games: JSON Lines written as a round or match is played, read back, checked
and replayed (docs/records.md).

A record is the referee's file: it holds every action of every seat (a recorded game can be
dealt again from its seeds), so it is never shown to an agent. Each line is one JSON object
ending with ``"check"``, the first 16 hex digits of sha256 of the previous line's check and
this line's canonical JSON without it (the first line chained from ""): editing, dropping
or reordering any line breaks the chain, and :func:`read` refuses the record. That is an
integrity check, not a signature: anyone can write a record with a valid chain.

Lines: a header (``"record": FORMAT``, the rulebook's identity as :meth:`Game.snapshot`
writes it, the players, seed, budgets and who sat where), then for each round a ``round``
line (its seed, dealer, seats out and the deal's events), a ``step`` line per action (its
notation and the events it produced, in words), a ``scored`` line when a match scores the
round, and an ``end`` line. :meth:`Record.replay` deals the rounds again and checks every
event is the one recorded, so a record made by another version either replays identically
or fails at the first step that differs, saying what differs.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..engine.actions import Action
from ..engine.errors import (
    IllegalAction,
    NotationError,
    RulebookError,
    RunawayEffect,
    UnoRulesError,
    shorten,
    visible,
)
from ..engine.events import describe_event
from ..engine.game import Game
from ..engine.notation import card_token
from ..engine.outcome import Termination
from ..engine.rulebook import Rulebook
from ..engine.snapshot import digest
from ..engine.tables import action_names
from . import driver
from .match import IDENTITY, Match

FORMAT = 2          # the newest record format, and the formats this version reads:
FORMATS = (1, 2)    # 2 may quote a card in an action ('1 play "blue uno"'), 1 never does
MAX_LINE = 1 << 20  # the longest line read (bytes): a step's line is well under 1 KiB
MAX_RECORD = 32 << 20  # the largest record read (bytes): a 20,000-action round is ~3 MiB
MAX_TEXT = 4096     # the longest string a header field holds (a path)
MAX_PLAYERS = 1000  # more than any rulebook seats: the rulebook's own limit is checked too

OnStep = Callable[[Match, Action, list[str]], None]
OnLine = Callable[[Match, dict[str, Any]], None]


class RecordError(UnoRulesError):
    """A record that can't be read, is tampered with, or replays differently: one line,
    ``FILE:LINE: message``."""


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _check(previous: str, line: Mapping[str, Any]) -> str:
    """The check of ``line`` (without its own "check") chained from ``previous``: its
    canonical JSON (keys sorted, no spaces, ASCII)."""
    canonical = _CANONICAL.encode(line)
    return hashlib.sha256((previous + canonical).encode()).hexdigest()[:16]


def _words(game: Game, since: int) -> list[str]:
    """The events logged since ``since``, in words (what Game.events shows)."""
    log = game.log
    return [describe_event(game, e) for e in log[since:]] if log is not None else []


def _format(rulebook: Rulebook) -> int:
    """The record format a game of ``rulebook`` is written in: 1, which older versions
    read too, unless a card's name is quoted in an action's notation (format 2)."""
    quoted = any(card_token(name, True) != name for name in action_names(rulebook))
    return FORMAT if quoted else 1


def _identity(rulebook: Rulebook) -> dict[str, Any]:
    """The rulebook's identity, as Game.snapshot writes it (match.IDENTITY's keys)."""
    written = {"rulebook": rulebook.name, "digest": digest(rulebook),
               "source": str(rulebook.source), "house": list(rulebook.house),
               "set": dict(rulebook.overrides)}
    return {key: written[key] for key in IDENTITY}


# ------------------------------------------------------------------ writing
class Recorder:
    """Writes the record of a match (or of one round) as it is played: the header and the
    first round's line at once, then a line per :meth:`step`, per :meth:`round` and at
    :meth:`end`, each flushed as written (a crash loses nothing already played).

    ``match`` is a :class:`Match`, or a :class:`Game` (a one-round record); with
    ``one_round`` a Match's first round is recorded as a one-round record (``"match":
    false``). ``seats`` names who sat at each seat ("human", "greedy", ...). The game(s)
    must keep their event log (``log=True``, the default) and have a seed."""

    def __init__(self, out: TextIO, match: Match | Game, seats: Sequence[str] = (), *,
                 one_round: bool = False) -> None:
        if isinstance(match, Game):
            game, self.match = match, _around(match, None)
            one_round = True
        else:
            game, self.match = match.game, match
        if game.log is None:
            raise ValueError("a recorded game keeps its event log: deal it with log=True")
        if game.seed is None:
            raise ValueError("a recorded game is dealt from a seed (None: no record can "
                             "deal it again)")
        if game.history:
            raise ValueError("a record starts at the deal: this round has had actions "
                             "(Recorder.resume goes on from a record)")
        seats = [str(s) for s in seats]
        if seats and len(seats) != game.players:
            raise ValueError(f"{len(seats)} seat names for {game.players} players")
        self.out = out
        self.one_round = one_round
        self.last = ""     # the check of the last line written
        self.steps = 0     # steps written
        self.rounds = 0    # round lines written
        self.seen = 0      # events of the current round written
        rulebook = self.match.rulebook
        seed = game.seed if isinstance(match, Game) else match.seed
        self._write({"record": _format(rulebook), "engine": _version(), **_identity(rulebook),
                     "players": game.players, "seed": seed, "match": not one_round,
                     "budgets": _budgets(game), "seats": seats})
        self._round_line()

    @property
    def game(self) -> Game:
        """The round being recorded."""
        return self.match.game

    def _write(self, line: dict[str, Any]) -> None:
        self.last = _check(self.last, line)
        self.out.write(json.dumps({**line, "check": self.last}) + "\n")
        self.out.flush()

    def _round_line(self) -> None:
        game = self.game
        self.rounds += 1
        self.seen = len(game.log or ())
        self._write({"round": self.rounds, "seed": game.seed, "dealer": game.dealer,
                     "out": list(game.absent), "events": _words(game, 0)})

    def step(self, action: Action | str) -> None:
        """Record ``action``, just taken (``match.game.apply(action)``), with its events."""
        game = self.game
        events = _words(game, self.seen)
        self.seen = len(game.log or ())
        self.steps += 1
        self._write({"step": self.steps, "action": str(action), "events": events})

    def round(self) -> None:
        """Record the round just scored (after ``match.next_round()``), and the next one
        dealt, if the match goes on."""
        if self.one_round:
            raise ValueError("a one-round record has no next round")
        m = self.match
        self._write({"scored": {"scores": list(m.scores), "out": list(m.out),
                                "winners": list(m.winners)}})
        if not m.winners:
            self._round_line()

    def end(self, how: str = Termination.OVER) -> None:
        """The last line: ``"over"`` (the match or round as it ended: its winners, or the
        budget that ran out when it stalled; ``"stalled"`` says the same), ``"quit"``
        (stopped by a player: the record may be resumed), or another :class:`Termination`
        the game stopped early by (``ROUNDS``, ``RUNAWAY``)."""
        self._write({"end": _ending(self.match, self.one_round, how)})

    @classmethod
    def resume(cls, out: TextIO, record: Record) -> Recorder:
        """Go on appending to ``record`` (read with :func:`read`) through ``out`` (opened to
        append to its file): the record is replayed (:meth:`Record.replay`) and the chain
        goes on from its last line. ``recorder.match`` is the match as it stands. Raises
        :class:`RecordError` for a record that has ended."""
        if record.ended:
            raise record.error(len(record.lines) + 1,
                               "the record has ended: there is nothing to resume")
        match = record.replay()
        self = cls.__new__(cls)
        self.out, self.match = out, match
        self.one_round = not record.header["match"]
        self.last = record.check
        self.steps = len(record.steps)
        self.rounds = record.rounds
        self.seen = len(match.game.log or ())
        return self


def _version() -> str:
    from .._about import __version__

    return __version__


def _budgets(game: Game) -> dict[str, int]:
    return {"max_steps": game.max_steps, "max_actions": game.max_actions}


def _ending(match: Match, one_round: bool, how: str) -> dict[str, Any]:
    if how == "quit":
        return {"quit": True}
    game = match.game
    if game.stalled is not None and how in (Termination.OVER, "stalled"):
        return {"stalled": game.stalled}  # the budget that ran out
    if how != Termination.OVER:
        return {"stalled": how}
    if one_round:
        if game.result is None:
            raise ValueError("the round is not over: end('quit'), or the reason it stopped")
        return {"winners": list(game.result.winners), "points": game.result.points}
    if not match.winners:
        raise ValueError("the match is not over: end('quit'), or the reason it stopped")
    return {"winners": list(match.winners), "scores": list(match.scores)}


def _around(game: Game, seed: int | None) -> Match:
    """A Match holding ``game`` as its first round (a one-round record's, or a match's
    dealt at random, its round dealt from the recorded seed). Made field by field, as
    Match.restore does: the constructor would deal a round of its own, which could run
    away in a looping rulebook."""
    rb = game.rulebook
    assert isinstance(rb, Rulebook)
    match = Match.__new__(Match)
    match.rulebook, match.players, match.seed = rb, game.players, seed
    match.budgets = {"max_steps": game.max_steps, "max_actions": game.max_actions}
    match.rng = random.Random(seed)
    match.scores, match.out, match.dealer = [0] * game.players, list(game.absent), game.dealer
    match.rounds, match.winners, match.game = 1, (), game
    return match


def record_game(out: TextIO, rulebook: Rulebook, game_or_match: Game | Match,
                seats: Sequence[str] = (), *,
                histories: Sequence[Sequence[Action]] | None = None,
                how: str = Termination.OVER) -> None:
    """Write the record of a finished round or match from its history (the actions
    taken): the round is dealt again from its seed and every action taken again, to learn
    the events of each. A match keeps only its last round: ``histories`` gives every
    round's actions in order (default: a one-round match's own). ``how`` is
    :meth:`Recorder.end`'s: why the game stopped when it is neither over nor stalled."""
    if isinstance(game_or_match, Game):
        g = game_or_match
        fresh = rulebook.new_game(g.players, g.seed, dealer=g.dealer, out=g.absent or None,
                                  max_steps=g.max_steps, max_actions=g.max_actions)
        recorder = Recorder(out, fresh, seats)
        rounds: Sequence[Sequence[Action]] = [g.history]
    else:
        m = game_or_match
        if m.seed is None:
            raise ValueError("a match dealt without a seed: its rounds can't be dealt again")
        if histories is None:
            if m.rounds != 1:
                raise ValueError("a match of several rounds: give every round's history")
            histories = [m.game.history]
        recorder = Recorder(out, Match(rulebook, m.players, m.seed, **m.budgets), seats)
        rounds = histories
    for k, history in enumerate(rounds):
        if k:
            recorder.match.next_round()
            recorder.round()
        # the driver's script: each action taken again, then written with its events
        driver.script(recorder.game, history, lambda action, _: recorder.step(action))
    if not isinstance(game_or_match, Game) and recorder.match.game.result is not None:
        recorder.match.next_round()  # the last round played is scored (and the next dealt,
        recorder.round()             # if a budget of rounds stopped the match there)
    if isinstance(game_or_match, Match) and (recorder.match.scores, recorder.match.winners) \
            != (game_or_match.scores, game_or_match.winners):
        raise ValueError("the histories given don't play to the match given")
    recorder.end(how)


# ------------------------------------------------------------------ reading
def _fail_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):  # a key given twice: name it
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {shorten(key)!r}")
            seen.add(key)
    return out


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_fail_constant)


def _is_int(v: Any, lo: int | None = 0) -> bool:
    return type(v) is int and (lo is None or v >= lo) and v.bit_length() <= 256


def _is_str(v: Any, most: int = MAX_TEXT) -> bool:
    return type(v) is str and len(v) <= most


def _is_ints(v: Any) -> bool:
    return type(v) is list and all(_is_int(x) for x in v)


def _is_strs(v: Any, most: int = MAX_TEXT) -> bool:
    return type(v) is list and all(_is_str(x, most) for x in v)


def _is_scalars(v: Any) -> bool:
    return type(v) is dict and all(_is_str(k) and (v[k] is None or type(v[k]) in
                                                   (str, int, float, bool)) for k in v)


def _is_budgets(v: Any) -> bool:
    return type(v) is dict and set(v) == {"max_steps", "max_actions"} and \
        all(_is_int(x, 1) for x in v.values())


def _is_scored(v: Any) -> bool:
    return type(v) is dict and set(v) == {"scores", "out", "winners"} and \
        all(_is_ints(x) for x in v.values())


def _is_end(v: Any) -> bool:
    if type(v) is not dict:
        return False
    keys = set(v)
    return (keys == {"quit"} and v["quit"] is True) or \
        (keys == {"stalled"} and _is_str(v["stalled"], 200)) or \
        (keys == {"winners", "scores"} and _is_ints(v["winners"]) and _is_ints(v["scores"])) or \
        (keys == {"winners", "points"} and _is_ints(v["winners"]) and _is_int(v["points"]))


# Each kind of line: its fields and what each must be (the kind is the first field).
LINES: dict[str, dict[str, tuple[Callable[[Any], bool], str]]] = {
    "record": {"record": (lambda v: _is_int(v), "a format number"),
               "engine": (lambda v: _is_str(v, 200), "a version"),
               "rulebook": (lambda v: _is_str(v, 200), "a rulebook name"),
               "digest": (lambda v: _is_str(v, 200), "a digest"),
               "source": (lambda v: _is_str(v), "a shipped name or a path"),
               "house": (lambda v: _is_strs(v), "a list of overlay names or paths"),
               "set": (_is_scalars, "a mapping of setting names to values"),
               "players": (lambda v: _is_int(v, 2) and v <= MAX_PLAYERS, "a number of players"),
               "seed": (lambda v: v is None or _is_int(v, None), "a whole number or null"),
               "match": (lambda v: type(v) is bool, "true or false"),
               "budgets": (_is_budgets, "max_steps and max_actions, whole numbers >= 1"),
               "seats": (lambda v: _is_strs(v, 200), "a list of names")},
    "round": {"round": (lambda v: _is_int(v, 1), "a round number"),
              "seed": (lambda v: _is_int(v, None), "a whole number"),
              "dealer": (lambda v: _is_int(v), "a seat"),
              "out": (_is_ints, "a list of seats"),
              "events": (lambda v: _is_strs(v, MAX_LINE), "a list of events")},
    "step": {"step": (lambda v: _is_int(v, 1), "a step number"),
             "action": (lambda v: _is_str(v, MAX_LINE), "an action's notation"),
             "events": (lambda v: _is_strs(v, MAX_LINE), "a list of events")},
    "scored": {"scored": (_is_scored, "scores, out and winners (lists of whole numbers)")},
    "end": {"end": (_is_end, "winners and scores (or points), stalled, or quit")},
}


def read(path: str | Path, *, max_bytes: int = MAX_RECORD) -> Record:
    """Read the record at ``path``, checking every line's form and the chain of checks.
    Raises :class:`RecordError` (``FILE:LINE: message``, one line) for a file that can't
    be read, is larger than ``max_bytes`` or has a line over :data:`MAX_LINE` bytes, a
    line that isn't JSON or not a record's, another format, or a broken chain (a record
    changed after it was written)."""
    name = visible(shorten(str(path), 200))
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # not opened: a FIFO would block
            raise RecordError(f"{name}: can't read it: not a regular file")
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > max_bytes:
                raise RecordError(f"{name}: {size:,} bytes: too large for a record (at most "
                                  f"{max_bytes:,})")
            return _parse(name, f, max_bytes)
    except RecordError:
        raise
    except (OSError, ValueError) as exc:  # no such file, a directory, a NUL byte
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise RecordError(f"{name}: can't read it: {visible(shorten(why, 120))}") from None


def read_text(text: str, name: str = "record", *, max_bytes: int = MAX_RECORD) -> Record:
    """:func:`read` of a record given as text (a record sent to the web playground);
    ``name`` stands for the file in messages. A record read so has no folder: its rulebook
    is loaded by the caller (``Record.replay(rulebook=...)``), never from a path it names."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) > max_bytes:
        raise RecordError(f"{name}: {len(data):,} bytes: too large for a record (at most "
                          f"{max_bytes:,})")
    return _parse(name, io.BytesIO(data), max_bytes)


def _parse(name: str, f: Any, max_bytes: int) -> Record:
    record = Record(name, {}, [], "")
    total = 0
    number = 0
    while True:
        raw = f.readline(MAX_LINE + 1)
        if not raw:
            break
        number += 1
        total += len(raw)
        where = f"{name}:{number}"
        if len(raw) > MAX_LINE:
            raise RecordError(f"{where}: a line over {MAX_LINE:,} bytes: not a record's")
        if total > max_bytes:
            raise RecordError(f"{where}: the record is larger than {max_bytes:,} bytes")
        line = _line(where, raw)
        given = line.pop("check", None)
        if not isinstance(given, str):
            raise RecordError(f"{where}: the line has no \"check\": not a record's line")
        record.check = _check(record.check, line)
        if given != record.check:
            raise RecordError(f"{where}: the check doesn't match: the record was changed "
                              "after it was written (a line edited, dropped or moved): "
                              "refused")
        record._add(number, line)
    if number == 0:
        raise RecordError(f"{name}: empty: not a record")
    return record


def _line(where: str, raw: bytes) -> dict[str, Any]:
    """One line parsed and its form checked."""
    try:
        text = raw.decode("utf-8")
        value = _DECODER.decode(text)
    except UnicodeDecodeError:
        raise RecordError(f"{where}: not UTF-8 text") from None
    except RecursionError:
        raise RecordError(f"{where}: not a record's line: JSON nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, a duplicate key, a 5,000-digit number
        raise RecordError(f"{where}: not a JSON line: "
                          f"{visible(shorten(str(exc), 120))}") from None
    if type(value) is not dict or not value:
        raise RecordError(f"{where}: expected a JSON object, got "
                          f"{type(value).__name__ if value else 'an empty one'}")
    kinds = [k for k in LINES if k in value]
    if len(kinds) != 1:
        raise RecordError(f"{where}: not a record's line: expected exactly one of the fields "
                          f"{', '.join(LINES)}")
    kind = kinds[0]
    spec = LINES[kind]
    if kind == "record" and (type(value["record"]) is not int or
                             value["record"] not in FORMATS):
        raise RecordError(f"{where}: record format {visible(shorten(repr(value['record'])))}: "
                          f"this version reads formats {', '.join(map(str, FORMATS))}")
    for key in spec:
        if key not in value:
            raise RecordError(f"{where}: the {kind} line has no {key!r}")
    for key, v in value.items():
        if key == "check":
            continue
        if key not in spec:
            raise RecordError(f"{where}: unknown field {visible(shorten(key, 40))!r} in a "
                              f"{kind} line")
        ok, what = spec[key]
        if not ok(v):
            raise RecordError(f"{where}: field {key!r}: expected {what}, got "
                              f"{visible(shorten(repr(v), 60))}")
    return value


@dataclass
class Record:
    """A record read and its chain checked (:func:`read`): the header, then every other
    line with its line number."""

    path: str
    header: dict[str, Any]
    lines: list[tuple[int, dict[str, Any]]]
    check: str  # the last line's check: a resumed record's chain goes on from it
    rules_changed: bool = field(default=False)  # set by replay: another digest, same name
    rounds: int = 0  # round lines read
    _steps: int = 0  # step lines read

    @property
    def steps(self) -> list[dict[str, Any]]:
        """The step lines, in order."""
        return [line for _, line in self.lines if "step" in line]

    @property
    def ended(self) -> bool:
        """Whether the record ends with the game's end (not a quit: that may resume)."""
        return bool(self.lines) and "end" in self.lines[-1][1] and \
            "quit" not in self.lines[-1][1]["end"]

    def error(self, number: int, message: str) -> RecordError:
        return RecordError(f"{self.path}:{number}: {message}")

    def _add(self, number: int, line: dict[str, Any]) -> None:
        """Check ``line`` may come next (the structure; replay checks the meaning)."""
        kind = next(iter(line))
        last = self.lines[-1][1] if self.lines else None
        if number == 1:
            if kind != "record":
                raise self.error(number, "the first line is not a record's header")
            seats, players = len(line["seats"]), line["players"]
            if seats and seats != players:  # shown seat by seat: every seat or none is named
                raise self.error(number, f"{seats} seat names for {players} players: a "
                                         "record names every seat, or none")
            self.header = line
            return
        if kind == "record":
            raise self.error(number, "a second header")
        if last is not None and "end" in last and "quit" not in last["end"]:
            raise self.error(number, "a line after the end of the game")
        rounds = self.rounds
        if kind == "round" and line["round"] != rounds + 1:
            raise self.error(number, f"round {line['round']}: expected round {rounds + 1}")
        if kind != "round" and not rounds:
            raise self.error(number, "expected the first round's line")
        if kind == "step" and line["step"] != self._steps + 1:
            raise self.error(number, f"step {line['step']}: expected step {self._steps + 1}")
        if kind == "scored" and not self.header["match"]:
            raise self.error(number, "a scored line in a one-round record")
        if kind == "round" and rounds and (last is None or "scored" not in last):
            raise self.error(number, "a new round before the last one is scored")
        if last is not None and "scored" in last and kind not in ("round", "end"):
            raise self.error(number, "expected the next round, or the end, after a score")
        self.rounds += kind == "round"
        self._steps += kind == "step"
        self.lines.append((number, line))

    # -------------------------------------------------------------- replaying
    def rulebook(self) -> Rulebook:
        """The rulebook the header names, loaded: its ``source`` (a shipped name, or a
        file under the record's folder, the current folder or ``--root``; a shipped
        rulebook's file from another installation is taken by its name), with its house
        rules and settings. Another digest than the recorded one is not an error: replay
        goes on and reports the first difference (``rules_changed`` tells)."""
        from ..load.entry import load_as_written
        from ..load.resources import allowed, find, shipped_rulebook

        h = self.header
        source = h["source"]
        folder = Path(self.path).resolve().parent
        if shipped_rulebook(source) is None:
            place = Path(source)
            if shipped_rulebook(h["rulebook"]) is not None and not place.is_file() and \
                    place.name == f"{h['rulebook']}.yaml" and place.parent.name == "rulebooks":
                source = h["rulebook"]  # a shipped rulebook, written where it was installed
            elif not (allowed(find(source), folder) or allowed(find(source), Path.cwd())):
                raise self.error(1, f"the rulebook {visible(shorten(source, 200))!r} is "
                                    f"neither shipped nor under {folder} or the current "
                                    "folder: refused unread (uno-rules --root DIR trusts a "
                                    "folder)")
        for ref in h["house"]:
            path = find(ref, overlay=True)
            if not (allowed(path, folder) or allowed(path, Path.cwd())):
                raise self.error(1, f"house rule {visible(shorten(ref, 200))!r} is neither "
                                    f"shipped nor under {folder} or the current folder: "
                                    "refused unread")
        try:
            rb = load_as_written(source, h["house"], h["set"])
        except RulebookError as exc:
            first = str(exc).splitlines()[0] if str(exc) else "invalid"
            more = len(exc.problems) - 1
            raise self.error(1, f"can't load the record's rulebook: {visible(first)}"
                             + (f" (and {more} more problem(s))" if more > 0 else "")
                             ) from None
        except (OSError, ValueError, RecursionError) as exc:
            raise self.error(1, f"can't load the record's rulebook "
                                f"{visible(shorten(source, 200))!r}: "
                                f"{type(exc).__name__}") from None
        self.rules_changed = digest(rb) != h["digest"]
        return rb

    def replay(self, to: int | None = None, on_step: OnStep | None = None, *,
               rulebook: Rulebook | None = None, on_line: OnLine | None = None) -> Match:
        """Deal the recorded rounds again, take every recorded action and check each
        produces the events recorded (and each deal, score and the end are as recorded);
        return the match (a one-round record's: a Match around its round) after step
        ``to`` (default: the whole record). ``on_step(match, action, events)`` is called
        after each step; ``on_line(match, line)`` after every line replayed (a deal, a
        step, a score, the end). Raises :class:`RecordError` at the first difference: the
        line, the step, what the record says and what this version gives. ``rulebook``:
        replay under this one instead of the header's (its digest is still compared)."""
        rb = self.rulebook() if rulebook is None else rulebook
        if rulebook is not None:
            self.rules_changed = digest(rb) != self.header["digest"]
        return _Replay(self, rb, on_step, on_line).run(to)


class _Replay:
    """One replay of a record: the match rebuilt as the lines are read."""

    def __init__(self, record: Record, rulebook: Rulebook, on_step: OnStep | None,
                 on_line: OnLine | None):
        self.record, self.rb, self.on_step, self.on_line = record, rulebook, on_step, on_line
        self.match: Match | None = None
        self.seen = 0
        h = record.header
        self.why = ""  # said with every difference: what may explain it
        notes = []
        if record.rules_changed:
            notes.append(f"the rulebook differs from the record's (digest {h['digest']}, "
                         f"now {digest(rulebook)})")
        if h["engine"] != _version():
            notes.append(f"recorded by uno-rules {visible(h['engine'])}, this is "
                         f"{_version()}")
        if notes:
            self.why = " (" + "; ".join(notes) + ")"

    def differ(self, number: int, message: str) -> RecordError:
        return self.record.error(number, f"replay differs: {message}{self.why}")

    def run(self, to: int | None) -> Match:
        for number, line in self.record.lines:
            if "round" in line:
                self.deal(number, line)
            elif "step" in line:
                if to is not None and line["step"] > to:
                    break
                self.step(number, line)
            elif "scored" in line:
                self.scored(number, line["scored"])
            else:
                self.end(number, line["end"])
            if self.on_line is not None:
                assert self.match is not None
                self.on_line(self.match, line)
            if to is not None and line.get("step") == to:
                break
        if self.match is None:  # cut after its header: the round's line is written next
            raise self.record.error(2, "expected the first round's "
                                    "line: the record ends after its header")
        return self.match

    def deal(self, number: int, line: dict[str, Any]) -> None:
        h = self.record.header
        budgets = {k: h["budgets"][k] for k in ("max_steps", "max_actions")}
        seed, dealer, out = line["seed"], line["dealer"], line["out"]
        if h["players"] not in self.rb.player_counts():
            raise self.differ(1, f"{h['players']} players: {self.rb.name} is for "
                                 f"{self.rb.players_text()}")
        try:
            if self.match is None:
                if h["match"] and h["seed"] is not None:
                    self.match = Match(self.rb, h["players"], h["seed"], **budgets)
                else:
                    self.match = _around(self.rb.new_game(
                        h["players"], seed, dealer=dealer, out=out or None, **budgets),
                        h["seed"])
            elif self.match.game.seed != seed and h["seed"] is None:  # dealt at random
                self.match.game = self.rb.new_game(h["players"], seed, dealer=self.match.dealer,
                                                   out=self.match.out or None, **budgets)
        except (IllegalAction, RunawayEffect) as exc:
            raise self.differ(number, f"round {line['round']} can't be dealt: "
                                      f"{visible(str(exc))}") from None
        game = self.match.game
        dealt = {"seed": game.seed, "dealer": game.dealer, "out": list(game.absent)}
        for key, value in dealt.items():
            if line[key] != value:
                raise self.differ(number, f"round {line['round']}: the record says {key} "
                                          f"{line[key]}, this version deals {value}")
        self.seen = 0
        self.compare(number, f"round {line['round']}'s deal", line["events"])

    def compare(self, number: int, what: str, recorded: list[str]) -> list[str]:
        assert self.match is not None
        game = self.match.game
        events = _words(game, self.seen)
        self.seen = len(game.log or ())
        if events != recorded:
            k = next((i for i, (a, b) in enumerate(zip(recorded, events, strict=False))
                      if a != b), min(len(recorded), len(events)))
            said = repr(recorded[k]) if k < len(recorded) else "no more events"
            gives = repr(events[k]) if k < len(events) else "no more events"
            raise self.differ(number, f"{what}: event {k + 1}: the record says "
                                      f"{visible(shorten(said, 120))}, this version gives "
                                      f"{visible(shorten(gives, 120))}")
        return events

    def step(self, number: int, line: dict[str, Any]) -> None:
        assert self.match is not None
        i, text = line["step"], line["action"]
        try:
            action = Action.parse(text)
        except NotationError:
            raise self.record.error(number, f"step {i}: {visible(shorten(text, 80))!r} is "
                                            "not an action's notation") from None
        try:
            driver.take(self.match.game, action)
        except IllegalAction as exc:
            raise self.differ(number, f"step {i} ({action}): this version refuses it: "
                                      f"{visible(shorten(str(exc), 160))}") from None
        except RunawayEffect as exc:
            raise self.differ(number, f"step {i} ({action}): it runs away: "
                                      f"{visible(shorten(str(exc), 160))}") from None
        events = self.compare(number, f"step {i} ({action})", line["events"])
        if self.on_step is not None:
            self.on_step(self.match, action, events)

    def scored(self, number: int, scored: dict[str, Any]) -> None:
        assert self.match is not None
        try:
            self.match.next_round()
        except IllegalAction as exc:
            raise self.differ(number, f"the round can't be scored: "
                                      f"{visible(str(exc))}") from None
        m = self.match
        now = {"scores": list(m.scores), "out": list(m.out), "winners": list(m.winners)}
        for key, value in now.items():
            if scored[key] != value:
                raise self.differ(number, f"the record scores {key} {scored[key]}, this "
                                          f"version {value}")

    def end(self, number: int, end: dict[str, Any]) -> None:
        assert self.match is not None
        if "quit" in end:
            return
        m, game = self.match, self.match.game
        if "stalled" in end:
            reason = end["stalled"]
            if game.stalled is not None and reason == game.stalled:
                return
            if game.stalled is None and not game.over and \
                    reason in (Termination.RUNAWAY, Termination.ROUNDS):
                return  # stopped by what the engine doesn't keep: taken as recorded
            if game.stalled is None and game.over and reason == Termination.ROUNDS:
                return
            now = f"stalls ({game.stalled})" if game.stalled else \
                "ends the round" if game.over else "goes on"
            raise self.differ(number, f"the record stalls ({visible(reason)}), this "
                                      f"version {now}")
        if "points" in end:
            result = game.result
            now_end = {"winners": list(result.winners), "points": result.points} \
                if result is not None else None
        else:
            now_end = {"winners": list(m.winners), "scores": list(m.scores)} \
                if m.winners else None
        if now_end != end:
            raise self.differ(number, f"the record ends with {end}, this version "
                                      f"{'with ' + str(now_end) if now_end else 'goes on'}")
