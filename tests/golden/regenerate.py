"""Write the golden playthroughs: one whole round per variant, from a fixed seed, with its
actions and event log. Run deliberately (``python tests/golden/regenerate.py``) after a change
that is meant to alter play, and review the diff."""

from __future__ import annotations

import json
import random
from pathlib import Path

import uno_rules
from uno_rules.sim.simulate import POLICIES

HERE = Path(__file__).resolve().parent
GOLDEN = [("classic", (), 4, 1), ("classic", (), 2, 2), ("pokemon", (), 3, 3),
          ("ted_lasso", (), 4, 4), ("teams", (), 4, 5), ("no_mercy", (), 4, 6),
          ("classic", ("stacking", "seven_zero", "jump_in"), 4, 7),
          ("classic", ("partners",), 6, 8), ("flip", (), 3, 9),
          ("examples/two_piles.yaml", (), 3, 10)]


def name(rulebook: str, house: tuple[str, ...], players: int, seed: int) -> str:
    stem = Path(rulebook).stem
    return "-".join((stem, *house, f"{players}p", f"seed{seed}")) + ".json"


def play(rulebook: str, house: tuple[str, ...], players: int, seed: int) -> dict:
    rb = uno_rules.load_rulebook(HERE.parent.parent / rulebook if "/" in rulebook else rulebook,
                                 house=house)
    game = rb.new_game(players, seed)
    rng = random.Random(seed)
    while not game.over:
        game.step(POLICIES["play_first"](game, rng))
    return {"rulebook": rulebook, "house": list(house), "players": players, "seed": seed,
            "actions": [str(a) for a in game.history], "events": game.events,
            "result": [list(game.result.winners), game.result.points]}


if __name__ == "__main__":
    for spec in GOLDEN:
        (HERE / name(*spec)).write_text(json.dumps(play(*spec), indent=1) + "\n")
        print("wrote", name(*spec))
