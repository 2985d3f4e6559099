"""Start fast: ``import uno_rules`` and playing a game from a loaded Rulebook import neither
jsonschema nor yaml (the load side, imported on first use); every public name resolves."""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import uno_rules

# Rulebooks whose cards run every kind of decision and effect: sides, teams, stacking,
# swaps, jump-ins; each played to its end in the child, from its pickle alone.
VARIANTS = [("classic", ()), ("flip", ()), ("no_mercy", ()), ("teams", ()), ("pokemon", ()),
            ("ted_lasso", ()), ("classic", ("stacking", "seven_zero", "jump_in"))]

ENGINE = ("model", "actions", "notation", "tables", "state", "legal", "decisions", "effects",
          "snapshot", "game", "rulebook", "errors")

# Run in a fresh interpreter: this test process has long imported yaml and jsonschema.
CHILD = """
import json, pickle, random, sys
ENGINE = sys.argv[2].split(",")
LOAD_SIDE = ("yaml", "jsonschema")
def loaded():
    return sorted(m for m in sys.modules if m.split(".")[0] in LOAD_SIDE)
report = {}
import uno_rules
report["after_import"] = loaded()
results = []
with open(sys.argv[1], "rb") as f:
    rulebooks = pickle.load(f)
for number, rulebook in enumerate(rulebooks):
    game = rulebook.new_game(rulebook.player_counts()[0], seed=number)
    bot = random.Random(number)
    restored = False
    while not game.over:
        seat = game.decision.seat
        game.view(seat if seat is not None else 0)
        game.apply(bot.choice(game.legal_actions()))
        if len(game.history) == 30:   # the engine's own restore, not the loader's
            restored = rulebook.restore(game.snapshot()).snapshot() == game.snapshot()
    results.append([str(game.result), len(game.events), restored])
report["results"] = results
for module in ENGINE:   # whichever the game didn't need: none imports the load side either
    __import__("uno_rules.engine." + module)
report["after_play"] = loaded()
rulebook = uno_rules.load_rulebook("classic")
report["loaded_players"] = list(rulebook.player_counts())
report["after_load"] = loaded()
print(json.dumps(report))
"""


def _play_here(rulebook: uno_rules.Rulebook, number: int) -> list[object]:
    """The child's game, played in this process: the same seeds give the same end."""
    game = rulebook.new_game(rulebook.player_counts()[0], seed=number)
    bot = random.Random(number)
    while not game.over:
        seat = game.decision.seat
        game.view(seat if seat is not None else 0)
        game.apply(bot.choice(game.legal_actions()))
    return [str(game.result), len(game.events), True]


def test_import_and_play_leave_yaml_and_jsonschema_unloaded(tmp_path: Path) -> None:
    rulebooks = [uno_rules.load_rulebook(name, house=house) for name, house in VARIANTS]
    pickled = tmp_path / "rulebooks.pickle"
    pickled.write_bytes(pickle.dumps(rulebooks))
    # no compiled-rulebook cache: its last load reads the YAML (test_cache_... has one)
    done = subprocess.run([sys.executable, "-c", CHILD, str(pickled), ",".join(ENGINE)],
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "UNO_RULES_CACHE": "off"})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["after_import"] == []
    assert report["after_play"] == []
    # the games really were played to their end, each exactly as here
    assert report["results"] == [_play_here(r, n) for n, r in enumerate(rulebooks)]
    assert all(events > 0 for _, events, _ in report["results"])
    # and the load side still works on first use (importing them now)
    assert report["loaded_players"] == list(rulebooks[0].player_counts())
    assert "yaml" in report["after_load"] and "jsonschema" in report["after_load"]


def test_every_public_name_resolves() -> None:
    for name in uno_rules.__all__:
        assert getattr(uno_rules, name) is not None, name
    namespace: dict[str, object] = {}
    exec("from uno_rules import *", namespace)
    assert set(uno_rules.__all__) <= set(namespace)
    assert uno_rules.load_rulebook is uno_rules.load.entry.load_rulebook
    assert uno_rules.restore is uno_rules.load.entry.restore
    assert uno_rules.Rulebook is uno_rules.engine.rulebook.Rulebook


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        uno_rules.no_such_name  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("uno_rules.no_such_name resolved")


def test_load_side_names_resolve_in_a_fresh_process() -> None:
    """The lazy names work by ``from``-import and by attribute before anything loaded them."""
    code = ("from uno_rules import load_rulebook, restore\n"
            "import uno_rules, uno_rules.load.loader, json\n"
            "g = load_rulebook('classic').new_game(2, seed=1)\n"
            "t = restore(g.snapshot())\n"
            "print(json.dumps([t.snapshot() == g.snapshot(), "
            "uno_rules.load.loader.shipped_names() == uno_rules.load.resources.shipped_names()]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [True, True]


# Loads every variant from the cache, plays each, restores a snapshot and runs the command
# line's simulate, all in one fresh interpreter.
WARM = """
import contextlib, io, json, random, sys
LOAD_SIDE = ("yaml", "jsonschema")
def loaded():
    return sorted(m for m in sys.modules if m.split(".")[0] in LOAD_SIDE)
import uno_rules
results = []
for name, house, settings in json.loads(sys.argv[1]):
    rulebook = uno_rules.load_rulebook(name, house=house, settings=settings)
    game = rulebook.new_game(rulebook.player_counts()[0], seed=7)
    bot = random.Random(7)
    while not game.over:
        game.apply(bot.choice(game.legal_actions()))
        if len(game.history) == 20:
            again = uno_rules.restore(game.snapshot())
            assert again.snapshot() == game.snapshot()
    results.append([str(game.result), len(game.events)])
from uno_rules.cli import cli
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):  # --json exits 0
    cli.main(["simulate", "classic", "--games", "1", "--json"], standalone_mode=False)
print(json.dumps({"results": results, "simulated": json.loads(out.getvalue())["games"],
                  "loaded": loaded()}))
"""

WARM_VARIANTS = [("classic", [], {}), ("flip", [], {}), ("teams", [], {"hand_size": "5"}),
                 ("classic", ["stacking", "seven_zero"], {"uno_penalty": 4})]


def test_cached_load_play_restore_and_simulate_leave_yaml_and_jsonschema_unloaded(
        tmp_path: Path) -> None:
    env = {**os.environ, "UNO_RULES_CACHE": str(tmp_path / "cache")}
    args = [sys.executable, "-c", WARM, json.dumps(WARM_VARIANTS)]
    cold = subprocess.run(args, capture_output=True, text=True, check=False, env=env)
    assert cold.returncode == 0, cold.stderr
    assert "yaml" in json.loads(cold.stdout)["loaded"]  # the first run read the YAML
    warm = subprocess.run(args, capture_output=True, text=True, check=False, env=env)
    assert warm.returncode == 0, warm.stderr
    report = json.loads(warm.stdout)
    assert report["loaded"] == []
    assert report["simulated"] == 1
    # the same games, from the cache as from the YAML
    assert report["results"] == json.loads(cold.stdout)["results"]
    assert all(events > 0 for _, events in report["results"])
