"""Hostile records for ``uno-rules replay`` made by the engine itself: a round of a
rulebook whose cards are named like the notation's words (tests/hostile/records/
keyword_ranks.yaml: replays, exit 0), a round whose seat names hold BEL, a newline and an
escape sequence (shown escaped, exit 0), and a header naming fewer seats than its players
(refused at line 1, exit 1). tests/test_replay.py and tests/test_actions.py check them."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import uno_rules
from uno_rules.play.match import Match
from uno_rules.play.record import Recorder, _check

KEYWORDS = Path(__file__).resolve().parents[2] / "tests" / "hostile" / "records" / \
    "keyword_ranks.yaml"


def _round(path: Path, rulebook: uno_rules.Rulebook, seats: list[str]) -> Path:
    """The first 80 actions of a round of ``rulebook`` played at random, recorded with
    these seat names."""
    match = Match(rulebook, len(seats), 3)
    rng = random.Random(3)
    with path.open("w", encoding="utf-8") as out:
        recorder = Recorder(out, match, seats, one_round=True)
        for _ in range(80):
            if match.game.over:
                break
            action = rng.choice(match.game.legal_actions())
            match.game.apply(action)
            recorder.step(action)
        recorder.end("over" if match.game.over else "quit")
    return path


def _fewer_seats(tmp: Path) -> Path:
    """A round whose header names 2 seats of 3, its chain made again."""
    path = _round(tmp / "short.jsonl", uno_rules.load_rulebook("classic"), ["a", "b", "c"])
    lines, last, out = path.read_text().splitlines(), "", []
    for number, text in enumerate(lines):
        line = json.loads(text)
        line.pop("check")
        if number == 0:
            line["seats"] = ["a", "b"]
        last = _check(last, line)
        out.append(json.dumps({**line, "check": last}))
    path.write_text("\n".join(out) + "\n")
    return path


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    rulebook = tmp / "keyword_ranks.yaml"  # beside its record: replay finds it there
    shutil.copy(KEYWORDS, rulebook)
    keywords = _round(tmp / "keywords.jsonl", uno_rules.load_rulebook(rulebook),
                      ["greedy"] * 3)
    forged = _round(tmp / "forged.jsonl", uno_rules.load_rulebook("classic"),
                    ["bell\x07", "x\nstep 99: 0 play wild", "\x1b[2Jclear"])
    return [("records: cards named like the notation's words", ["replay", str(keywords)], 0),
            ("records: seat names with control characters", ["replay", str(forged)], 0),
            ("records: a header naming fewer seats", ["replay", str(_fewer_seats(tmp))], 1)]
