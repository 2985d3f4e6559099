"""The many-game fingerprint: every decision, option, action, event and final state of a
few hundred seeded games over ten variants of several rulebooks, hashed into one digest per
variant and held against ``tests/golden/fingerprint/variants.json``.

A change to the engine that alters any game shows up here, however it was made (a redesign,
a fast path, the compiled build, the integer lane: the object-API player and the lane
player below must both give it). Regenerate only when play is meant to change:
``python tests/test_fingerprint.py --write``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import uno_rules
from uno_rules import Game

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "fingerprint" / "variants.json"
GAMES = 60          # per variant
MAX_ACTIONS = 1500  # a uniform policy's longest rounds stall here (the stall is fingerprinted)

# (name, rulebook, house rules, players): sides, teams, stacking, jump-ins, swaps, contests,
# giving, several discard piles, declared piles, elimination.
VARIANTS = [
    ("classic-2p", "classic", (), 2),
    ("classic-4p", "classic", (), 4),
    ("classic-house-4p", "classic", ("stacking", "seven_zero", "jump_in"), 4),
    ("classic-strict-3p", "classic", ("no_bluffing", "force_play", "draw_to_match"), 3),
    ("flip-3p", "flip", (), 3),
    ("no_mercy-4p", "no_mercy", (), 4),
    ("teams-4p", "teams", (), 4),
    ("pokemon-3p", "pokemon", (), 3),
    ("ted_lasso-4p", "ted_lasso", (), 4),
    ("two_piles-3p", "examples/two_piles.yaml", (), 3),
]


def load(ref: str, house: tuple[str, ...]) -> uno_rules.Rulebook:
    return uno_rules.load_rulebook(ROOT / ref if "/" in ref else ref, house=list(house))


def choose(rng: random.Random, options: list[str], extra: list[str]) -> tuple[bool, int]:
    """The seeded policy, on notations: now and then an out-of-turn action (a catch, an UNO
    call for a partner, a jump-in); else mostly a play when there is one (so that rounds
    end), else any option. (out of turn?, index)."""
    if extra and rng.random() < 0.3:
        return True, rng.randrange(len(extra))
    plays = [i for i, a in enumerate(options) if " play " in a]
    if plays and rng.random() < 0.85:
        return False, plays[rng.randrange(len(plays))]
    return False, rng.randrange(len(options))


def holder(game: Game, seat: int | None) -> int | None:
    """The seat a decision is digested with: its own, or for a chance node (a contest, no
    seat) the card's player, whose decision a contest was shown as when the golden digests
    were written (play is the same: only the seat shown changed)."""
    if seat is None and game.pending is not None and game.pending.ctx is not None:
        return game.pending.ctx.actor
    return seat


def play_objects(game: Game, rng: random.Random, digest: Callable[[object], None]) -> None:
    """Play to the end through the object API."""
    while not game.over:
        decision = game.decision
        assert decision is not None
        options = [str(a) for a in decision.options]
        digest((holder(game, decision.seat), decision.kind, options))
        extra = game.legal_actions()[len(options):]
        out_of_turn, i = choose(rng, options, [str(a) for a in extra])
        action = extra[i] if out_of_turn else decision.options[i]
        digest(str(action))
        game.apply(action)


def play_lane(game: Game, rng: random.Random, digest: Callable[[object], None]) -> None:
    """Play to the end through the integer lane: ids from ``legal_ids`` and
    ``out_of_turn_ids``, notations from the action table, actions taken by ``step``."""
    table = game.rulebook.action_table(game.players)
    while not game.over:
        ids = game.legal_ids()
        pending = game.pending
        assert pending is not None
        options = [str(table[i]) for i in ids]
        digest((holder(game, pending.seat), pending.kind, options))
        extra = game.out_of_turn_ids()
        out_of_turn, i = choose(rng, options, [str(table[a]) for a in extra])
        action_id = extra[i] if out_of_turn else ids[i]
        digest(str(table[action_id]))
        game.step(action_id)


def fingerprint(ref: str, house: tuple[str, ...], players: int,
                play: Callable[[Game, random.Random, Callable[[object], None]], None]
                = play_objects) -> str:
    rulebook = load(ref, house)
    h = hashlib.sha256()

    def digest(item: object) -> None:
        h.update(repr(item).encode())

    for seed in range(GAMES):
        game = rulebook.new_game(players, seed, max_actions=MAX_ACTIONS)
        play(game, random.Random(seed), digest)
        digest(game.events)
        final = game.snapshot()
        final.pop("source", None)  # where the rulebook file is: not the game
        final.pop("stalled", None)  # how a round stopped: game.stalled, digested below
        digest(json.dumps(final, sort_keys=True))
        digest((game.result, game.stalled, game.steps))
    return h.hexdigest()


@pytest.mark.parametrize("name,ref,house,players", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_fingerprint_object_api(name: str, ref: str, house: tuple[str, ...],
                                players: int) -> None:
    expected = json.loads(GOLDEN.read_text())
    assert fingerprint(ref, house, players) == expected[name], \
        f"{name}: play changed (python tests/test_fingerprint.py --write if it is meant to)"


@pytest.mark.parametrize("name,ref,house,players", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_fingerprint_integer_lane(name: str, ref: str, house: tuple[str, ...],
                                  players: int) -> None:
    """The same games through ``legal_ids``/``step``: the same digest as the object API."""
    expected = json.loads(GOLDEN.read_text())
    assert fingerprint(ref, house, players, play_lane) == expected[name]


def test_the_golden_file_names_every_variant() -> None:
    assert sorted(json.loads(GOLDEN.read_text())) == sorted(v[0] for v in VARIANTS)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_fingerprint.py --write")
    GOLDEN.write_text(json.dumps({name: fingerprint(ref, house, players)
                                  for name, ref, house, players in VARIANTS}, indent=1) + "\n")
    print(f"wrote {GOLDEN}")
