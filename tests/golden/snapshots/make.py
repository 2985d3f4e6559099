"""Write the snapshot files that later versions must restore identically: each a state of a
kind that exercises one part of the state (mid-effect frames, a resume frame, cards being
given, a stacked draw, two discard piles, Flip's other side), made by the engine of the day,
with what `random_moves` from it then leads to. Run deliberately
(``python tests/golden/snapshots/make.py``); never to make a failing test pass."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uno_rules
from uno_rules.engine.records import Frame, Resume
from uno_rules.sim.simulate import random_moves

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
THEN = 60  # actions played from the restored state (seeded), recorded as the state after

# Each kind is found on the live game; its snapshot is what the file keeps. (The files were
# made by the engine of e9e7170, before State's records; these predicates, since rewritten
# for the records, pick the same states.)
Want = Callable[[Any], bool]
KINDS: list[tuple[str, str, tuple[str, ...], Want | None]] = [
    ("frames", "classic", ("stacking",),
     lambda g: any(isinstance(f, Frame) for f in g._stack) and g.pending.kind != "turn"),
    ("giving", "teams", (), lambda g: bool(g.giving) and any(x.aside for x in g.giving)),
    ("stacked", "no_mercy", (), lambda g: g.stacked.total > 0 and g.stacked.ctx is not None),
    ("two_piles", "examples/two_piles.yaml", (),
     lambda g: g._focus == 1 and all(g._discard_piles())),
    ("flip", "flip", (), lambda g: g.side == 1 and bool(g._stack)),
]


def _catching(game: Any, rng: random.Random) -> Any:
    """Uniform, but a catch of a seat whose partner is out first (its penalty's after-draw
    steps then run before the decision pending resumes)."""
    actions = game.legal_actions()
    for a in actions:
        if a.kind == "catch" and game._partner(a.arg) in game._out_seats:
            return a
    return actions[rng.randrange(len(actions))]


def load(rulebook: str, house: tuple[str, ...]) -> uno_rules.Rulebook:
    return uno_rules.load_rulebook(ROOT / rulebook if "/" in rulebook else rulebook,
                                   house=house)


def find(rulebook: str, house: tuple[str, ...], want: Want) -> dict[str, Any]:
    rb = load(rulebook, house)
    for seed in range(2000):
        players = rb.player_counts()[seed % len(rb.player_counts())]
        game = rb.new_game(players, seed)
        rng = random.Random(seed)
        while not game.over and len(game.history) < 400:
            if want(game):
                return game.snapshot()
            game.apply(_catching(game, rng))
    raise SystemExit(f"no state found for {rulebook}")


def resume() -> dict[str, Any]:
    """A frame that resumes a pending decision: in teams, a seat whose partner is out is
    caught without UNO; its penalty's after-draw steps (give half its hand) ask first.
    Random play hardly gets there: the position is set by hand (cards kept)."""
    rb = load("teams", ())
    game = rb.new_game(4, 3)
    rng = random.Random(3)
    while game.pending.kind != "turn" or game.giving:
        random_moves(game, rng, 1, "play_first")
    seat = game.pending.seat
    target, partner = (seat + 1) % 4, (seat + 3) % 4
    game.draw_pile[0:0] = game.hands[partner] + game.hands[target][1:]
    game.hands[partner] = []
    del game.hands[target][1:]
    game._out_seats, game._uno_open, game._decision = [partner], target, None
    game.apply(uno_rules.Action(seat, "catch", target))
    assert any(isinstance(f, Resume) for f in game._stack)
    return game.snapshot()


def then(rb: uno_rules.Rulebook, snap: dict[str, Any]) -> dict[str, Any]:
    game = rb.restore(snap)
    random_moves(game, random.Random(1), THEN, "uniform")
    return game.snapshot()


if __name__ == "__main__":
    for kind, rulebook, house, want in [*KINDS, ("resume", "teams", (), None)]:
        snap = resume() if want is None else find(rulebook, house, want)
        snap["source"] = rulebook  # not this machine's path
        after = then(load(rulebook, house), snap)
        after["source"] = rulebook
        data = {"rulebook": rulebook, "house": list(house), "snapshot": snap, "then": after}
        (HERE / f"{kind}.json").write_text(json.dumps(data) + "\n")
        print("wrote", kind, "at action", len(snap["history"]))
