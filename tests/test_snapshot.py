"""Snapshots that can't lie: restoring checks every field against what the engine could
have reached and can continue from, and refuses anything else with a SnapshotError naming
the field. One test per class of tampered snapshot that used to be accepted (and crash or
stall later), then a property test that tampers one random field of random mid-game
snapshots of every shipped rulebook.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import MAX_ACTIONS, RULEBOOKS, VARIANTS, _check_result, check_step, examples

import uno_rules
from uno_rules import SnapshotError
from uno_rules.engine.outcome import Outcome, Termination
from uno_rules.sim.simulate import POLICIES, random_moves

CLASSIC = uno_rules.load_rulebook("classic")
SEVEN_ZERO = uno_rules.load_rulebook("classic", house=("seven_zero",))


def _game_at(rulebook: uno_rules.Rulebook, kind: str, players: int = 4) -> uno_rules.Game:
    """A game whose pending decision is of ``kind`` (found by random play)."""
    for seed in range(500):
        game = rulebook.new_game(players, seed)
        rng = random.Random(seed)
        for _ in range(300):
            if game.over or game.decision.kind == kind:
                break
            random_moves(game, rng, 1)
        if not game.over and game.decision.kind == kind:
            return game
    raise AssertionError(f"no {kind} decision found")


def _snapshot(rulebook: uno_rules.Rulebook = CLASSIC, kind: str = "turn") -> dict[str, Any]:
    return json.loads(json.dumps(_game_at(rulebook, kind).snapshot()))


def _refused(snapshot: dict[str, Any], match: str,
             rulebook: uno_rules.Rulebook = CLASSIC) -> None:
    """Refused with a SnapshotError matching ``match``, and the snapshot left as it was."""
    before = copy.deepcopy(snapshot)
    with pytest.raises(SnapshotError, match=match):
        rulebook.restore(snapshot)
    assert snapshot == before


def test_a_sound_snapshot_restores_and_writes_itself_back() -> None:
    for kind in ("turn", "color", "challenge"):
        snapshot = _snapshot(kind=kind)
        assert CLASSIC.restore(snapshot).snapshot() == snapshot
        assert uno_rules.restore(snapshot).snapshot() == snapshot


# ------------------------------------------------------ the classes that crashed or stalled
def test_a_frame_that_resumes_no_decision() -> None:
    """`stack: [[-1,0,null]]` gave a round with no decision that is not over."""
    snapshot = _snapshot()
    snapshot["stack"] = [[-1, 0, None]]
    _refused(snapshot, r"^snapshot field 'stack\[0\]': expected \[-1, 0, the decision it "
                       r"resumes\], got \[-1, 0, None\]$")


def test_a_target_decision_with_no_seat_to_name() -> None:
    snapshot = _snapshot(SEVEN_ZERO, "target")
    snapshot["pending"]["data"] = []
    _refused(snapshot, r"^snapshot field 'pending.data': expected a list of at least 1, got 0 "
                       r"items$", SEVEN_ZERO)
    snapshot["pending"]["data"] = [snapshot["pending"]["seat"]]  # naming oneself
    _refused(snapshot, r"^snapshot field 'pending.data': a choice among seats that can't be "
                       r"chosen$", SEVEN_ZERO)


def _finished() -> dict[str, Any]:
    game = CLASSIC.new_game(3, 5)
    random_moves(game, random.Random(5), MAX_ACTIONS)
    assert game.over
    return json.loads(json.dumps(game.snapshot()))


def test_a_result_with_no_winners_or_the_wrong_points_or_on_a_round_going_on() -> None:
    assert CLASSIC.restore(_finished()).result is not None
    snapshot = _finished()
    snapshot["result"][0] = []
    _refused(snapshot, r"^snapshot field 'result\[0\]': expected a list of at least 1")
    snapshot = _finished()
    snapshot["result"][1] += 1
    _refused(snapshot, r"^snapshot field 'result': \d+ points, where the hands left count \d+$")
    snapshot = _finished()
    snapshot["result"][0] = [s for s in range(3) if s not in snapshot["result"][0]][:1]
    _refused(snapshot, "^snapshot field 'result': winners .* neither went out nor are the "
                       "last standing$")
    snapshot = _finished()
    snapshot["result"] = None
    _refused(snapshot, r"^snapshot field 'result': a round over with no result \(nor stopped "
                       r"by its budget: stalled\)$")
    going = _snapshot()
    going["result"] = [[0], 10]
    _refused(going, "^snapshot field 'result': a result while the round goes on")


def _stalled(budget: str, seed: int = 2) -> uno_rules.Game:
    """A round of classic stopped by a tiny budget of ``budget`` (its game argument)."""
    game = CLASSIC.new_game(4, seed, **{budget: 30})
    random_moves(game, random.Random(seed), 40, "uniform")
    assert game.over and game.result is None and game.stalled is not None
    return game


@pytest.mark.parametrize(("budget", "stopped", "what"), [
    ("max_actions", Termination.ACTIONS, "30 actions"),
    ("max_steps", Termination.STEPS, "30 effect steps")])
def test_a_round_stopped_by_its_budget_restores_stopped(budget: str, stopped: Termination,
                                                         what: str) -> None:
    """Its snapshot says which budget ran out, and its size: restored, the round is over as
    it was, says why as it did, and writes the same snapshot back."""
    game = _stalled(budget)
    data = json.loads(json.dumps(game.snapshot()))
    assert data["stalled"] == {"budget": stopped.value, "limit": 30}
    for again in (CLASSIC.restore(data), uno_rules.restore(data)):
        assert again.over and again.result is None and again.decision is None
        assert again.stalled is stopped and again.outcome == game.outcome == Outcome(stopped)
        assert again.stalled_reason() == game.stalled_reason() == \
            f"the round's budget of {what} ran out"
        assert again.snapshot() == data and again.clone().snapshot() == data
        assert again.history == game.history and again.hands == game.hands
        with pytest.raises(uno_rules.IllegalAction):
            again.apply(str(game.history[-1]))
    # every other snapshot is as before: no such field
    assert "stalled" not in _snapshot() and "stalled" not in _finished()


@pytest.mark.parametrize(("change", "message"), [
    ({"stalled": {"budget": "sleep", "limit": 30}},
     "snapshot field 'stalled.budget': expected one of 'steps', 'actions', got 'sleep'"),
    ({"stalled": {"budget": "actions", "limit": 0}},
     "snapshot field 'stalled.limit': expected a whole number >= 1, got 0"),
    ({"stalled": {"budget": "actions"}}, "snapshot field stalled.limit is missing"),
    ({"stalled": {"budget": "actions", "limit": 30, "by": 1}},
     "snapshot field 'stalled': unknown key 'by'"),
    ({"stalled": None}, "snapshot field 'stalled': expected a mapping, got None"),
    ({"stalled": {"budget": "actions", "limit": 31}},
     "snapshot field 'stalled': stopped by its budget of 31 actions after 30"),
    ({"over": False}, "snapshot field 'stalled': a round stopped by its budget is over, "
                      "with no result"),
])
def test_a_tampered_stop_is_refused_by_name(change: dict[str, Any], message: str) -> None:
    data = json.loads(json.dumps(_stalled("max_actions").snapshot()))
    with pytest.raises(SnapshotError) as exc:
        CLASSIC.restore({**data, **change})
    assert str(exc.value) == message


def test_stalled_only_on_a_round_stopped_by_its_budget() -> None:
    """Written onto a round going on, or one played out, it is refused; taken off a stalled
    round's, that round is over with no result, refused as before."""
    going, ended = _snapshot(), _finished()
    for data in (going, ended):
        data["stalled"] = {"budget": "steps", "limit": 9}
        _refused(data, "^snapshot field 'stalled': a round stopped by its budget is over, "
                       "with no result$")
    data = _stalled("max_steps").snapshot()
    del data["stalled"]
    _refused(data, "^snapshot field 'result': a round over with no result")


def test_out_seats_naming_a_seat_that_holds_cards() -> None:
    snapshot = _snapshot()
    snapshot["out_seats"] = [1]
    _refused(snapshot, "^snapshot field 'out_seats': seat 1 holds cards$")
    snapshot = _snapshot()
    snapshot["eliminated"] = [2]
    _refused(snapshot, "^snapshot field 'eliminated': seat 2 holds cards$")


def test_every_hand_empty() -> None:
    snapshot = _snapshot()
    for hand in snapshot["hands"]:
        snapshot["draw_pile"] += hand
        hand.clear()
    _refused(snapshot, "^snapshot field '(hands|pending.seat)': ")
    snapshot = _snapshot()  # one hand empty at a turn: that player went out
    seat = (snapshot["pending"]["seat"] + 1) % 4
    snapshot["draw_pile"] += snapshot["hands"][seat]
    snapshot["hands"][seat] = []
    _refused(snapshot, f"^snapshot field 'hands': seat {seat} has gone out, yet the round "
                       "goes on$")


def test_the_next_turn_going_to_a_player_who_is_out() -> None:
    """A turn given to a seat with no cards (a knocked-out or out player) broke the round."""
    snapshot = _snapshot(kind="color")
    seat = (snapshot["pending"]["seat"] + 2) % 4
    snapshot["draw_pile"] += snapshot["hands"][seat]
    snapshot["hands"][seat] = []
    snapshot["out_seats"] = [seat]
    snapshot["turn_to"] = seat
    _refused(snapshot, f"^snapshot field 'turn_to': the next turn goes to seat {seat}, who "
                       "holds no cards$")
    snapshot = _snapshot()
    snapshot["turn_to"] = (snapshot["pending"]["seat"] + 1) % 4
    _refused(snapshot, "^snapshot field 'turn_to': a turn pending, yet the turn after the "
                       "last card is still to be settled$")


@pytest.mark.parametrize(("field", "value", "message"), [
    ("dealer", 1.5, "snapshot field 'dealer': expected a seat 0-3, got 1.5"),
    ("dealer", True, "snapshot field 'dealer': expected a seat 0-3, got True"),
    ("dealer", 4, "snapshot field 'dealer': expected a seat 0-3, got 4"),
    ("players", True, "snapshot field 'players': expected a number of players for classic "
                      "(2-10), got True"),
    ("turns", -1, "snapshot field 'turns': expected a whole number >= 0, got -1"),
    ("turns", 2.0, "snapshot field 'turns': expected a whole number >= 0, got 2.0"),
    ("over", 0, "snapshot field 'over': expected true or false, got 0"),
    ("uno_open", 7, "snapshot field 'uno_open': expected a seat 0-3 or -1 (none), got 7"),
    ("turn_to", "1", "snapshot field 'turn_to': expected a seat 0-3, got '1'"),
    ("ctx", 5, "snapshot field 'ctx': expected an index into ctxs 0-0, got 5"),
])
def test_types_and_ranges_bool_is_not_int_and_a_float_is_not_a_seat(
        field: str, value: object, message: str) -> None:
    snapshot = _snapshot()
    snapshot[field] = value
    _refused(snapshot, f"^{re.escape(message)}$")


def test_challenge_outcomes_that_no_challenge_step_has() -> None:
    snapshot = _snapshot(kind="challenge")
    snapshot["pending"]["data"] = [0, 0, 0]
    _refused(snapshot, "^snapshot field 'pending.data': a challenge whose outcomes are not "
                       "those of a challenge step$")


def test_what_raised_recursion_os_or_value_errors_is_a_snapshot_error() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    for field, value in (("set", {"hand_size": deep}), ("hands", deep), ("ctxs", deep),
                         ("pending", {"kind": "turn", "seat": 0, "ctx": None, "data": deep})):
        snapshot = _snapshot()
        snapshot[field] = value
        with pytest.raises(SnapshotError, match=f"snapshot field '{field}"):
            CLASSIC.restore(snapshot)
    for source in ("classic\0.yaml", "x" * 5000, "/"):
        snapshot = _snapshot()
        snapshot["source"] = source
        with pytest.raises(SnapshotError, match="source|can't load the snapshot's rulebook"):
            uno_rules.restore(snapshot)
    snapshot = _snapshot()
    snapshot["rng"][1][5] = -1
    _refused(snapshot, r"^snapshot field 'rng\[1\]': expected 624 numbers")
    snapshot = _snapshot()
    snapshot["history"] = ["9" * 5000 + " draw"]
    _refused(snapshot, r"^snapshot field 'history\[0\]': expected a string of at most 200")
    snapshot = _snapshot()
    snapshot["house"] = "stacking"  # list("stacking") would name eight overlays
    with pytest.raises(SnapshotError, match="^snapshot field 'house': expected a list"):
        uno_rules.restore(snapshot)


def test_missing_unknown_and_unused_items() -> None:
    snapshot = _snapshot()
    del snapshot["skips"]
    _refused(snapshot, "^snapshot field 'skips' is missing$")
    snapshot = _snapshot()
    snapshot["cheat"] = 1
    _refused(snapshot, "^snapshot field 'cheat': not a field of a snapshot of classic$")
    snapshot = _snapshot()
    snapshot["ctxs"].append(snapshot["ctxs"][0])  # a card context nothing refers to
    _refused(snapshot, "^snapshot field 'ctxs': not what the engine writes")
    snapshot = _snapshot()
    snapshot["pending"]["data"] = 3  # a turn carries no data
    _refused(snapshot, r"^snapshot field 'pending.data': expected one of None, got 3$")


# ------------------------------------------------------------ the rules it was made under
def test_rulebook_restore_refuses_other_rules_and_names_what_differs(tmp_path: Path) -> None:
    stacking = uno_rules.load_rulebook("classic", house=("stacking",))
    snapshot = json.loads(json.dumps(stacking.new_game(4, 1).snapshot()))
    _refused(snapshot, r"^snapshot fields 'house'/'set': the snapshot was made under house "
                       r"rules \['stacking'\] \(this rulebook: \[\]\)")
    assert uno_rules.restore(snapshot).rulebook.house == ("stacking",)  # trusts the snapshot
    five = uno_rules.load_rulebook("classic", settings={"hand_size": "5"})
    _refused(five.new_game(3, 1).snapshot(), r"settings \{'hand_size': '5'\} \(this "
                                             r"rulebook: \{\}\)")
    pokemon = uno_rules.load_rulebook("pokemon").new_game(3, 1).snapshot()
    _refused(pokemon, "^snapshot field 'rulebook': the snapshot is of rulebook 'pokemon', "
                      "not 'classic'$")
    # Another file that calls itself classic: the same name, house rules and settings.
    impostor = tmp_path / "impostor.yaml"
    impostor.write_text("name: classic\nextends: classic\nsettings: {uno_penalty: 4}\n")
    other = uno_rules.load_rulebook(impostor)
    assert other.name == "classic" and other.house == () and not other.overrides
    _refused(other.new_game(4, 1).snapshot(), "^snapshot field 'digest': the snapshot was made "
                                              "under other rules than this 'classic'")
    again = uno_rules.load_rulebook(impostor)  # the same rules loaded again: the same digest
    assert again.restore(other.new_game(4, 1).snapshot()).rulebook is again
    # The same rules from another place: the digest is of the rules, not of where they were.
    by_path = uno_rules.load_rulebook(Path(uno_rules.__file__).parent / "rulebooks" /
                                      "classic.yaml")
    assert by_path.source != CLASSIC.source
    assert by_path.restore(_snapshot()).rulebook is by_path


def test_lying_about_the_rules_is_caught_by_the_digest() -> None:
    stacking = uno_rules.load_rulebook("classic", house=("stacking",))
    snapshot = json.loads(json.dumps(stacking.new_game(4, 1).snapshot()))
    snapshot["house"] = []  # as if it were a plain classic game
    with pytest.raises(SnapshotError, match="^snapshot field 'digest'"):
        uno_rules.restore(snapshot)


# ------------------------------------------------------------ tampering, as a property
def _paths(value: Any, at: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*at, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*at, i))
    return out


def _tamper(data: st.DataObject, snapshot: dict[str, Any]) -> str:
    """Change one field of ``snapshot`` in place, drawn from its own structure; says what."""
    key = data.draw(st.sampled_from(sorted(snapshot)), label="field")
    path = data.draw(st.sampled_from(_paths(snapshot[key], (key,))), label="path")
    parent: Any = snapshot
    for step in path[:-1]:
        parent = parent[step]
    old = parent[path[-1]]
    ops = ["replace", "delete"] + (["remove item", "repeat item"] if isinstance(old, list)
                                   and old else [])
    op = data.draw(st.sampled_from(ops), label="op")
    if op == "delete":
        del parent[path[-1]]
    elif op == "remove item":
        old.pop(data.draw(st.integers(0, len(old) - 1), label="item"))
    elif op == "repeat item":
        old.insert(data.draw(st.integers(0, len(old)), label="at"),
                   copy.deepcopy(data.draw(st.sampled_from(old), label="item")))
    else:
        elsewhere = [p for p in _paths(snapshot, ()) if p]
        other = data.draw(st.sampled_from(elsewhere), label="from")
        found: Any = snapshot
        for step in other:
            found = found[step]
        near = [old + d for d in (-1, 1, snapshot["players"])] \
            if type(old) is int else []
        new = data.draw(st.sampled_from([
            None, True, False, 1.5, -1, 0, 1, 2, 3, 10**6, "x", "red 5", [], {}, [0],
            [[-1, 0, None]], copy.deepcopy(found), *near]), label="value")
        parent[path[-1]] = new
        return f"{'.'.join(map(str, path))}: {old!r} -> {new!r}"[:200]
    return f"{op} at {'.'.join(map(str, path))}"


def _play_to_the_end(game: uno_rules.Game, seed: int) -> None:
    """Random legal play (out-of-turn actions included), the invariants checked throughout."""
    rng, full = random.Random(seed), sorted(game.rulebook.deck)
    choose = POLICIES["play_first"]
    for _ in range(MAX_ACTIONS):
        check_step(game, full)
        if game.over:
            _check_result(game)
            return
        legal = game.legal_actions()
        if rng.random() < 0.2:
            game.apply(rng.choice(legal))
        else:
            game.step(choose(game, rng))
    check_step(game, full)  # still going: a stalled game, which is allowed


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.integers(0, 250), st.data())
def test_a_tampered_snapshot_is_refused_or_plays_to_its_end(
        variant: tuple[str, tuple[str, ...]], seed: int, cut: int, data: st.DataObject) -> None:
    rulebook = RULEBOOKS[variant]
    players = data.draw(st.sampled_from(rulebook.player_counts()), label="players")
    game = rulebook.new_game(players, seed)
    random_moves(game, random.Random(seed), cut)
    snapshot = json.loads(json.dumps(game.snapshot()))
    what = _tamper(data, snapshot)
    before = copy.deepcopy(snapshot)
    try:
        restored = rulebook.restore(snapshot)
    except SnapshotError as exc:
        assert str(exc) and "\n" not in str(exc)
        assert snapshot == before, "a refused restore changed the snapshot"
        return
    # It describes exactly the state restored (its `source` says only where rules were).
    assert {**restored.snapshot(), "source": snapshot.get("source")} == snapshot, what
    _play_to_the_end(restored, seed)


def test_every_field_of_the_state_is_declared_for_snapshots() -> None:
    """A new State field must be written and checked too: each one (but the rulebook's own
    derived tables, the event log, the card chooser of one action and whether a clone shares
    the generator) is written under a declared snapshot field."""
    from uno_rules.engine.snapshot import FIELDS, OPTIONAL, state_field_problems
    from uno_rules.engine.state import REBUILT, STATE_FIELDS

    assert state_field_problems() == []  # (asserted at import too)
    declared = {key for key, _, _ in FIELDS}
    for f in STATE_FIELDS:  # written under a declared field, or marked not written, with why
        assert f.snapshot in declared or (
            f.why and (f.copy == REBUILT
                       or f.name in ("log", "chance", "limit_chance", "_rng_shared"))), f.name
    for variant, rulebook in RULEBOOKS.items():  # and what snapshot() writes is declared
        written = set(rulebook.new_game(rulebook.player_counts()[0], 1).snapshot())
        assert written - {"format"} == {k for k, _, present in FIELDS if present(rulebook)} \
            - set(OPTIONAL), variant
    # an optional field is written when it holds something: seats out of a match
    assert "absent" in uno_rules.load_rulebook("classic").new_game(3, 1, out=[0]).snapshot()


RECORDED = Path(__file__).parent / "golden" / "snapshots"


@pytest.mark.parametrize("kind", ["frames", "resume", "giving", "stacked", "two_piles", "flip"])
def test_snapshots_made_before_restore_identically(kind: str) -> None:
    """Snapshot files written by the engine before State's records (tests/golden/snapshots,
    made by its make.py): each restores to the state it describes, writes itself back
    unchanged, clones, and plays on as it did then."""
    data = json.loads((RECORDED / f"{kind}.json").read_text())
    snap = data["snapshot"]
    assert {"frames": any(f[0] >= 0 for f in snap["stack"]),   # what each file is for
            "resume": any(f[0] < 0 for f in snap["stack"]),
            "giving": any(g["aside"] for g in snap["giving"]),
            "stacked": snap["stack_draw"][0] > 0 and snap["stack_draw"][2] is not None,
            "two_piles": snap.get("focus") == 1,
            "flip": snap.get("side") == "dark" and bool(snap["stack"])}[kind]
    root = Path(__file__).parent.parent
    name = data["rulebook"]
    rulebook = uno_rules.load_rulebook(root / name if "/" in name else name,
                                       house=tuple(data["house"]))
    for game in (rulebook.restore(data["snapshot"]),
                 rulebook.restore(data["snapshot"]).clone()):
        assert {**game.snapshot(), "source": name} == data["snapshot"]
        random_moves(game, random.Random(1), 60, "uniform")
        assert {**game.snapshot(), "source": name} == data["then"]


@pytest.mark.parametrize(("change", "message"), [
    ({"stack": [[-1, 0, {"kind": "turn", "seat": 0, "ctx": None}]]},
     "snapshot field stack[0][2].data is missing"),
    ({"stack": [[-1, 1, "PENDING"]]}, "snapshot field 'stack[0]': expected [-1, 0, the "
     "decision it resumes], got [-1, 1, {'ctx': 0, 'data': None, 'kind': 'give', 'seat': 1}]"),
    ({"stack": [[0, 0, 99]]}, "snapshot field 'stack[0][2]': expected an index into ctxs 0-1, "
     "got 99"),
    ({"giving": [{"queue": [[0, 1]], "aside": [], "together": False, "x": 1}]},
     "snapshot field 'giving[0]': unknown key 'x'"),
    ({"giving": [{"queue": [[0, "all"]], "aside": [], "together": False}]},
     "snapshot field 'giving[0].queue[0][1]': expected a whole number >= 0, got 'all'"),
    ({"stack_draw": [0, 0, None]}, "snapshot field 'stack_draw': expected a list of 4, got "
     "[0, 0, None]"),
])
def test_records_of_a_snapshot_refused_by_name(change: dict[str, Any], message: str) -> None:
    """The records (a resume frame, a frame, a giving, the stacked draw) of the recorded
    resume snapshot, each made wrong: refused in one line naming the field."""
    data = json.loads((RECORDED / "resume.json").read_text())["snapshot"]
    if change.get("stack") == [[-1, 1, "PENDING"]]:
        change = {"stack": [[-1, 1, data["pending"]]]}
    with pytest.raises(SnapshotError) as exc:
        uno_rules.load_rulebook("teams").restore({**data, **change})
    assert str(exc.value) == message


def test_a_round_asking_about_every_drawn_card_restores_asking() -> None:
    """An RL adapter's round (Game.offer_unplayable) asks about an unplayable drawn card too:
    its snapshot says so, and restored it asks what it asked; other snapshots hold no such
    field, and a value other than true/false is refused."""
    game = CLASSIC.new_game(2, 5)
    game.offer_unplayable = True
    rng = random.Random(5)
    while not (game.decision is not None and game.decision.kind == "drawn"
               and all(str(a).endswith(" keep") for a in game.legal_actions())):
        assert not game.over
        game.apply(rng.choice(game.legal_actions()))
    data = json.loads(json.dumps(game.snapshot()))
    assert data["offer_unplayable"] is True
    for again in (CLASSIC.restore(data), uno_rules.restore(data)):
        assert again.offer_unplayable and again.decision == game.decision
        assert again.legal_actions() == game.legal_actions()
        assert again.snapshot() == data and again.clone().snapshot() == data
    assert "offer_unplayable" not in _snapshot()
    with pytest.raises(SnapshotError, match="'offer_unplayable'"):
        CLASSIC.restore({**data, "offer_unplayable": "yes"})
