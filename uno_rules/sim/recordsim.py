"""Records of simulated games (``simulate --record-dir DIR --record-where ...``): which
games of a run to record, chosen from the rounds' (matches') records as the run goes, then
played again from their seeds in this process with a record written (docs/records.md). A
run is deterministic from its seed, so the game played again is the game simulated: checked,
its record of statistics must be the one the run counted."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.errors import RunawayEffect
from ..engine.outcome import BUDGETS, Termination
from ..play.match import Match
from ..play.record import record_game

if TYPE_CHECKING:
    from .matchsim import MatchRecord
    from .rounds import Round, RunSpec

MOST = 100  # the most records `stalled` writes in one run
# Without --record-where: the stalled games and the longest, so that a run always records
# one game (a run with nothing stalled recorded nothing, which looked like a failure).
DEFAULT_WHERE = ("stalled", "longest")


def parse_where(values: Sequence[str], games: int) -> tuple[bool, bool, list[int]]:
    """``--record-where`` values (repeated or comma-separated): whether to record stalled
    games, the longest, and which numbered games (1 to ``games``). Raises ValueError with
    the word that can't be read."""
    stalled = longest = False
    numbers: list[int] = []
    for value in values:
        for word in value.split(","):
            word = word.strip().lower()
            if word == "stalled":
                stalled = True
            elif word == "longest":
                longest = True
            elif word.isascii() and word.isdigit() and len(word) <= 12 and \
                    1 <= int(word) <= games:
                numbers.append(int(word))
            else:
                raise ValueError(f"--record-where {word[:40]!r}: expected stalled, longest or "
                                 f"a game's number, 1 to {games}")
    return stalled, longest, sorted(set(numbers))


@dataclass
class Chooser:
    """Watches a run's records (``on_round`` / ``on_match``), in order, and keeps the games
    to record: their number, seed and record."""

    stalled: bool
    longest: bool
    numbers: list[int]
    seen: int = 0
    chosen: dict[int, Any] = field(default_factory=dict)  # number -> the run's record
    best: tuple[int, int, Any] | None = None  # the longest so far: (length, number, record)
    more_stalled: int = 0  # stalled games past MOST, not recorded

    def __call__(self, record: Round | MatchRecord) -> None:
        self.seen += 1
        n = self.seen
        if n in self.numbers:
            self.chosen[n] = record
        if self.stalled and record.stalled is not None:
            if sum(1 for r in self.chosen.values() if r.stalled is not None) < MOST:
                self.chosen[n] = record
            else:
                self.more_stalled += 1
        if self.longest:
            length = _length(record)
            if self.best is None or length > self.best[0]:
                self.best = (length, n, record)

    def also(self, then: Callable[[Any], None] | None) -> Callable[[Any], None]:
        """An ``on_round`` that gives each record to this chooser, then to ``then``."""
        def both(record: Any) -> None:
            self(record)
            if then is not None:
                then(record)
        return both

    def games(self) -> dict[int, Any]:
        """The games chosen, by number, in order."""
        found = dict(self.chosen)
        if self.best is not None:
            found[self.best[1]] = self.best[2]
        return dict(sorted(found.items()))


def _length(record: Any) -> int:
    rounds = getattr(record, "rounds", None)  # a match's record: its rounds
    return int(rounds if rounds is not None else record.actions or 0)


def _open(path: Path) -> Any:
    """``path`` opened to write, never through a symbolic link."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0),
                 0o644)
    return os.fdopen(fd, "w", encoding="utf-8")


def _seats(spec: RunSpec) -> list[str]:
    """Who a record says played each seat: the agents' names, else the policy's."""
    if spec.agents is not None:
        return [name for name, _ in spec.agents]
    return [spec.policy] * spec.players


def record_rounds(folder: Path, chosen: dict[int, Round], spec: RunSpec) -> list[Path]:
    """Play the chosen rounds of the run ``spec`` again (as
    :func:`uno_rules.sim.rounds.play_round` does) and write ``folder/game-N.jsonl`` for
    each; returns the files written."""
    from .rounds import play_on, round_record, runaway_record

    rulebook, players, policy, agents = spec.rulebook, spec.players, spec.policy, spec.agents
    max_steps, max_actions = spec.max_steps, spec.max_actions
    seats = _seats(spec)
    written = []
    for number, counted in chosen.items():
        seed = counted.seed
        assert seed is not None
        try:
            game = rulebook.new_game(players, seed, log=True, max_steps=max_steps,
                                     max_actions=max_actions)
        except RunawayEffect:  # the deal itself ran away: no round to record
            continue
        how = Termination.OVER
        try:
            play_on(rulebook, game, policy, agents)
        except RunawayEffect:
            how = Termination.RUNAWAY
        again = runaway_record(seed) if how is Termination.RUNAWAY else round_record(game)
        if again != counted:  # the same seed must play the same round: else a bug
            raise RuntimeError(f"game {number} played again differs from the run's")
        path = folder / f"game-{number}.jsonl"
        with _open(path) as out:
            record_game(out, rulebook, game, seats, how=how)
        written.append(path)
    return written


def record_matches(folder: Path, chosen: dict[int, MatchRecord], spec: RunSpec) -> list[Path]:
    """Play the chosen matches of the run ``spec`` again
    (:func:`uno_rules.sim.matchsim.play_match`, each round's actions kept) and write
    ``folder/match-N.jsonl`` for each; returns the files written."""
    from .matchsim import MAX_ROUNDS, play_match

    rulebook = spec.rulebook
    seats = _seats(spec)
    written = []
    for number, counted in chosen.items():
        rounds = _Rounds()
        again = play_match(rulebook, spec.players, counted.seed, spec.max_actions,
                           spec.policy, spec.max_steps, spec.agents,
                           MAX_ROUNDS if spec.max_rounds is None else spec.max_rounds,
                           on_round=rounds)
        if again != counted or rounds.match is None:
            raise RuntimeError(f"match {number} played again differs from the run's")
        how = Termination.OVER if counted.stalled in (None, *BUDGETS) else counted.stalled
        path = folder / f"match-{number}.jsonl"
        with _open(path) as out:
            record_game(out, rulebook, rounds.match, seats, histories=rounds.histories,
                        how=how)
        written.append(path)
    return written


class _Rounds:
    """``play_match``'s ``on_round``: keeps each round's actions, and the match."""

    def __init__(self) -> None:
        self.histories: list[list[Any]] = []
        self.match: Match | None = None

    def __call__(self, match: Match) -> None:
        self.histories.append(list(match.game.history))
        self.match = match


def write_chosen(folder: Path, chooser: Chooser, spec: RunSpec, matches: bool) -> list[str]:
    """Write the records of the games of the run ``spec`` that ``chooser`` kept (rounds, or
    ``matches``); returns what to tell the user, a line each."""
    chosen = chooser.games()
    kind = "match" if matches else "game"
    if matches:
        paths = record_matches(folder, chosen, spec)
    else:
        paths = record_rounds(folder, chosen, spec)
    lines = [f"records: {len(paths)} written in {folder}: "
             + ", ".join(p.name for p in paths)] if paths else \
        [f"records: no {kind} chosen{'' if chosen else ' (none stalled)'}: nothing "
         f"written in {folder}"]
    if len(paths) < len(chosen):
        lines.append(f"records: {len(chosen) - len(paths)} {kind}(s) chosen ran away at "
                     "the deal: nothing to record")
    if chooser.more_stalled:
        lines.append(f"records: {chooser.more_stalled} more stalled {kind}(s) not recorded "
                     f"(at most {MOST})")
    return lines
