"""Records (uno_rules.play.record): written as a game is played, read back with the chain of
checks verified, replayed to identical events; tampering and divergence refused with one
line; resume appends and the chain still holds; reading is bounded."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import load_cases
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import uno_rules
from uno_rules.cli import cli
from uno_rules.engine.actions import Action
from uno_rules.engine.events import describe_event
from uno_rules.engine.tables import action_table
from uno_rules.load.resources import house_names, shipped_names
from uno_rules.play.match import Match
from uno_rules.play.record import (
    MAX_LINE,
    Record,
    Recorder,
    RecordError,
    _check,
    read,
    record_game,
)
from uno_rules.sim.rounds import POLICIES, _chance

LONG = os.environ.get("UNO_LONG", "") not in ("", "0")
runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def play(match: Match, recorder: Recorder | None, rng: random.Random,
         rounds: int | None = None, policy: str = "play_first") -> list[tuple[str, list[str]]]:
    """Play ``match`` with a random policy (contests drawn at the table), recording each
    action; returns every step's action and events as the live game showed them."""
    seen: list[tuple[str, list[str]]] = []
    played = 0
    while True:
        game = match.game
        table = action_table(game.rulebook, game.players)
        while not game.over:
            chance = game.pending is not None and game.pending.seat is None
            action = table[_chance(game, rng) if chance else POLICIES[policy](game, rng)]
            before = len(game.log)
            game.apply(action)
            seen.append((str(action), [describe_event(game, e) for e in game.log[before:]]))
            if recorder is not None:
                recorder.step(action)
        played += 1
        if match.stalled or (rounds is not None and played >= rounds):
            return seen
        more = match.next_round()
        if recorder is not None:
            recorder.round()
        if more is None:
            return seen


def record_match(path: Path, rulebook: uno_rules.Rulebook, players: int, seed: int, *,
                 one_round: bool = False, rounds: int | None = None,
                 **kw: Any) -> tuple[Match, list[tuple[str, list[str]]]]:
    match = Match(rulebook, players, seed)
    with path.open("w", encoding="utf-8") as out:
        recorder = Recorder(out, match, ["human"] + ["play_first"] * (players - 1),
                            one_round=one_round)
        seen = play(match, recorder, random.Random(seed), rounds=1 if one_round else rounds,
                    **kw)
        recorder.end("over" if match.over or one_round else "quit")
    return match, seen


def replayed(record: Record) -> tuple[Match, list[tuple[str, list[str]]]]:
    steps: list[tuple[str, list[str]]] = []
    match = record.replay(on_step=lambda m, a, ev: steps.append((str(a), ev)))
    return match, steps


def test_a_recorded_match_replays_to_identical_events(tmp_path: Path,
                                                      classic: uno_rules.Rulebook) -> None:
    path = tmp_path / "m.jsonl"
    match, seen = record_match(path, classic, 4, 3)
    record = read(path)
    again, steps = replayed(record)
    assert steps == seen and len(seen) == len(record.steps) > 50
    assert (again.scores, again.winners, again.rounds) == \
        (match.scores, match.winners, match.rounds)
    assert again.game.history == match.game.history
    assert record.ended and not record.rules_changed
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines[0]["match"] is True and lines[0]["seats"][0] == "human"
    assert {k: lines[0][k] for k in ("rulebook", "digest", "source", "house", "set")} == \
        {k: match.game.snapshot()[k] for k in ("rulebook", "digest", "source", "house", "set")}
    assert lines[-1]["end"] == {"winners": list(match.winners), "scores": match.scores}
    assert sum("round" in x for x in lines) == match.rounds


def test_a_one_round_record_is_a_match_of_one_round(tmp_path: Path,
                                                    classic: uno_rules.Rulebook) -> None:
    game = classic.new_game(3, 11)
    path = tmp_path / "r.jsonl"
    with path.open("w") as out:
        recorder = Recorder(out, game)
        rng = random.Random(5)
        while not game.over:
            action = rng.choice(game.legal_actions())
            game.apply(action)
            recorder.step(action)
        recorder.end()
    record = read(path)
    assert record.header["match"] is False and record.header["seed"] == 11
    match = record.replay()
    assert isinstance(match, Match) and match.game.history == game.history
    assert match.game.result == game.result
    assert json.loads(path.read_text().splitlines()[-1])["end"] == \
        {"winners": list(game.result.winners), "points": game.result.points}


@pytest.mark.parametrize("name", shipped_names())
@settings(max_examples=40 if LONG else 4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_records_of_every_shipped_rulebook_round_trip(name: str, tmp_path: Path,
                                                      data: st.DataObject) -> None:
    settings_: dict[str, str] = {}
    if data.draw(st.booleans(), label="low target"):
        settings_["target_score"] = "150"
    rulebook = uno_rules.load_rulebook(name, settings=settings_)
    players = data.draw(st.sampled_from(sorted(rulebook.player_counts())[:4]), label="players")
    seed = data.draw(st.integers(0, 2**40), label="seed")
    whole = data.draw(st.booleans(), label="whole match")
    path = tmp_path / f"{name}-{seed}.jsonl"
    match, seen = record_match(path, rulebook, players, seed, one_round=not whole)
    record = read(path)
    again, steps = replayed(record)
    assert steps == seen
    assert (again.scores, again.out, again.winners, again.rounds) == \
        (match.scores, match.out, match.winners, match.rounds)
    assert again.game.history == match.game.history and again.game.events == match.game.events
    assert again.game.result == match.game.result


def test_a_record_with_house_rules_and_settings(tmp_path: Path) -> None:
    rb = uno_rules.load_rulebook("classic", house=["stacking", "jump_in"],
                                 settings={"hand_size": "5", "target_score": "100"})
    path = tmp_path / "h.jsonl"
    match, seen = record_match(path, rb, 4, 9, policy="uniform")
    record = read(path)
    assert record.header["house"] == ["stacking", "jump_in"]
    assert record.header["set"] == {"hand_size": "5", "target_score": "100"}
    assert replayed(record)[1] == seen


# ------------------------------------------------------------------ tampering
def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def _write(path: Path, lines: list[str]) -> None:
    path.write_text("".join(x + "\n" for x in lines))


def _edit(line: str, change: Any) -> str:
    obj = json.loads(line)
    change(obj)
    return json.dumps(obj)


def _rechain(lines: list[str]) -> list[str]:
    out, last = [], ""
    for line in lines:
        obj = json.loads(line)
        obj.pop("check")
        last = _check(last, obj)
        out.append(json.dumps({**obj, "check": last}))
    return out


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "game.jsonl"
    record_match(path, uno_rules.load_rulebook("classic"), 4, 21,
                 rounds=2)
    return path


def _refused(path: Path) -> str:
    result = runner.invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def _first_step(lines: list[str]) -> int:
    return next(i for i, x in enumerate(lines) if '"step"' in x)


TAMPERS = {
    "an action": lambda ls: ls.__setitem__(_first_step(ls) + 3, _edit(
        ls[_first_step(ls) + 3], lambda o: o.__setitem__("action", "0 draw"))),
    "an event": lambda ls: ls.__setitem__(_first_step(ls), _edit(
        ls[_first_step(ls)], lambda o: o["events"].append("seat 1 is out"))),
    "a dropped line": lambda ls: ls.pop(_first_step(ls) + 5),
    "reordered lines": lambda ls: ls.insert(_first_step(ls) + 6, ls.pop(_first_step(ls) + 5)),
    "a header field": lambda ls: ls.__setitem__(0, _edit(
        ls[0], lambda o: o.__setitem__("seed", 22))),
    "a dropped header": lambda ls: ls.pop(0),
}


@pytest.mark.parametrize("how", TAMPERS)
def test_a_tampered_record_is_refused_with_one_line(how: str, recorded: Path,
                                                    tmp_path: Path) -> None:
    lines = _lines(recorded)
    TAMPERS[how](lines)
    path = tmp_path / "t.jsonl"
    _write(path, lines)
    message = _refused(path)
    assert message.startswith(f"{path}:")
    assert "changed after it was written" in message or "first line" in message, message
    with pytest.raises(RecordError):
        read(path)


def test_the_untampered_record_replays_through_the_cli(recorded: Path) -> None:
    result = runner.invoke(cli, ["replay", str(recorded)])
    assert result.exit_code == 0, result.output
    assert "scores:" in result.output and "step 1:" in result.output


def test_an_edited_event_with_the_chain_recomputed_fails_as_a_divergence(
        recorded: Path, tmp_path: Path) -> None:
    lines = _lines(recorded)
    k = _first_step(lines) + 7
    step = json.loads(lines[k])["step"]
    lines[k] = _edit(lines[k], lambda o: o["events"].__setitem__(0, "seat 9 plays red 99"))
    path = tmp_path / "d.jsonl"
    _write(path, _rechain(lines))
    record = read(path)  # the chain holds: only replaying finds the difference
    with pytest.raises(RecordError, match=rf"^{path}:{k + 1}: replay differs: step {step} "
                       r".*event 1: the record says 'seat 9 plays red 99', this version "
                       r"gives 'seat"):
        record.replay()
    assert f"{path}:{k + 1}: replay differs: step {step}" in _refused(path)


def test_an_edited_action_with_the_chain_recomputed_is_refused(recorded: Path,
                                                               tmp_path: Path) -> None:
    lines = _lines(recorded)
    k = _first_step(lines) + 2
    lines[k] = _edit(lines[k], lambda o: o.__setitem__("action", "2 play wild_draw_four"))
    path = tmp_path / "a.jsonl"
    _write(path, _rechain(lines))
    assert f"{path}:{k + 1}: replay differs: step 3 (2 play wild_draw_four): this version " \
        "refuses it" in _refused(path)


def test_a_record_made_under_a_changed_rulebook_file_fails_clearly(tmp_path: Path) -> None:
    original = (ROOT / "uno_rules" / "rulebooks" / "classic.yaml").read_text()
    book = tmp_path / "mine.yaml"
    book.write_text(original.replace("name: classic", "name: mine"))
    rb = uno_rules.load_rulebook(book)
    path = tmp_path / "mine.jsonl"
    record_match(path, rb, 3, 4, rounds=1)
    assert replayed(read(path))[0].rounds == 1  # unchanged: replays
    # The same file changed: action cards score 25, not 20 (events and scores change).
    changed = original.replace("name: classic", "name: mine").replace(
        "copies: 2, points: 20}", "copies: 2, points: 25}")
    assert changed != original.replace("name: classic", "name: mine")
    book.write_text(changed)
    record = read(path)
    with pytest.raises(RecordError, match="replay differs: .*wins the round.*the rulebook "
                                          "differs from the record's"):
        record.replay()
    assert record.rules_changed
    message = _refused(path)
    assert "replay differs" in message and "the rulebook differs" in message


def test_a_changed_rulebook_that_plays_alike_replays_with_a_note(tmp_path: Path) -> None:
    original = (ROOT / "uno_rules" / "rulebooks" / "classic.yaml").read_text()
    book = tmp_path / "mine.yaml"
    book.write_text(original.replace("name: classic", "name: mine"))
    path = tmp_path / "mine.jsonl"
    record_match(path, uno_rules.load_rulebook(book), 3, 4, rounds=1)
    # A different target score: another digest, but the round plays the same.
    book.write_text(original.replace("name: classic", "name: mine").replace(
        "target_score: 500", "target_score: 600"))
    result = runner.invoke(cli, ["replay", str(path), "--to", "3"])
    assert result.exit_code == 0, result.output
    assert "note: the rulebook has changed since the record was made" in result.output


def test_a_rulebook_outside_the_trusted_folders_is_refused_unread(tmp_path: Path,
                                                                  recorded: Path) -> None:
    lines = _lines(recorded)
    lines[0] = _edit(lines[0], lambda o: o.__setitem__("source", "/etc/passwd"))
    path = tmp_path / "o.jsonl"
    _write(path, _rechain(lines))
    assert "neither shipped nor under" in _refused(path)


# ------------------------------------------------------------------ malformed records
MALFORMED = {
    "not JSON": ("{not json", "1: not a JSON line"),
    "a list": ("[1, 2]", "1: expected a JSON object, got list"),
    "another format": ('{"record": 3, "check": "x"}', "1: record format 3: this version "
                       "reads formats 1, 2"),
    "no kind": ('{"hello": 1, "check": "x"}', "1: not a record's line"),
    "a wrong type": (None, "1: field 'players': expected a number of players, got '4'"),
    "a NaN": ('{"step": NaN, "check": "x"}', "1: not a JSON line: NaN is not a JSON number"),
    "a huge number": ('{"step": ' + "9" * 5000 + ', "check": "x"}', "1: not a JSON line"),
    "a duplicate key": ('{"step": 1, "step": 2, "check": "x"}', "1: not a JSON line: "
                        "duplicate key 'step'"),
    "not UTF-8": (b"\xff\xfe".decode("latin-1"), "1: not UTF-8 text"),
}


@pytest.mark.parametrize("how", MALFORMED)
def test_a_malformed_record_is_one_line_naming_its_line(how: str, recorded: Path,
                                                        tmp_path: Path) -> None:
    text, expected = MALFORMED[how]
    path = tmp_path / "bad.jsonl"
    if text is None:
        lines = _lines(recorded)
        lines[0] = _edit(lines[0], lambda o: o.__setitem__("players", "4"))
        _write(path, lines)
    elif how == "not UTF-8":
        path.write_bytes(b'{"step": "\xff"}\n')
    else:
        path.write_text(text + "\n")
    with pytest.raises(RecordError) as caught:
        read(path)
    assert str(caught.value).startswith(f"{path}:{expected}"), caught.value
    assert _refused(path).startswith(f"{path}:{expected}")


@pytest.mark.parametrize("args,expected", [
    (["replay", "/nonexistent/x.jsonl"], "can't read it: No such file or directory"),
    (["replay", "/dev/null"], "can't read it: not a regular file"),
])
def test_unreadable_records(args: list[str], expected: str) -> None:
    result = runner.invoke(cli, args)
    assert result.exit_code == 1 and expected in result.output, result.output


def test_an_empty_record(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    assert _refused(path) == f"{path}: empty: not a record"


def test_a_record_of_its_header_alone(recorded: Path, tmp_path: Path) -> None:
    """A record cut after its header (the recorder writes the first round's line next):
    replay and --resume refuse it in one line (an AssertionError, exit 3, before)."""
    path = tmp_path / "header.jsonl"
    _write(path, _lines(recorded)[:1])
    expected = f"{path}:2: expected the first round's line: the record ends after its header"
    assert _refused(path) == expected
    result = runner.invoke(cli, ["play", "--resume", str(path)])
    assert result.exit_code == 1 and result.output == expected + "\n", result.output
    with pytest.raises(RecordError, match="the record ends after its header"):
        read(path).replay()


def test_structure_out_of_order_is_refused(recorded: Path, tmp_path: Path) -> None:
    lines = _lines(recorded)
    k = _first_step(lines)
    renumbered = _rechain(lines[:k] + [_edit(lines[k], lambda o: o.__setitem__("step", 2))])
    path = tmp_path / "s.jsonl"
    _write(path, renumbered)
    assert _refused(path) == f"{path}:{k + 1}: step 2: expected step 1"


# ------------------------------------------------------------------ resume
def test_resume_appends_and_the_chain_still_verifies(tmp_path: Path,
                                                     classic: uno_rules.Rulebook) -> None:
    path = tmp_path / "r.jsonl"
    match = Match(classic, 4, 8, max_actions=5000)
    rng = random.Random(2)
    with path.open("w") as out:
        recorder = Recorder(out, match, ["human"] * 4)
        table = action_table(classic, 4)
        for _ in range(30):
            recorder.game.apply(table[POLICIES["play_first"](recorder.game, rng)])
            recorder.step(recorder.game.history[-1])
        recorder.end("quit")
    saved = read(path)
    assert not saved.ended and len(saved.steps) == 30
    with path.open("a") as out:
        resumed = Recorder.resume(out, saved)
        assert resumed.match.game.history == match.game.history
        play(resumed.match, resumed, rng)
        resumed.end()
    record = read(path)
    assert record.ended and len(record.steps) > 30
    again, _ = replayed(record)
    assert (again.scores, again.winners) == (resumed.match.scores, resumed.match.winners)
    with pytest.raises(RecordError, match="the record has ended"):
        Recorder.resume(open(os.devnull, "a"), record)


def test_replay_to_a_step(recorded: Path) -> None:
    record = read(recorded)
    match = record.replay(to=10)
    assert len(match.game.history) == 10
    assert record.replay(to=0).game.history == []


def test_record_game_writes_a_finished_game_or_match(tmp_path: Path,
                                                     classic: uno_rules.Rulebook) -> None:
    from uno_rules.sim.rounds import play_random

    game = play_random(classic, 4, 17, log=True)
    path = tmp_path / "g.jsonl"
    with path.open("w") as out:
        record_game(out, classic, game, ["play_first"] * 4)
    match = read(path).replay()
    assert match.game.history == game.history and match.game.result == game.result

    live = Match(classic, 3, 5)
    histories = []
    rng = random.Random(1)
    while True:
        play(live, None, rng, rounds=1)
        histories.append(list(live.game.history))
        if live.next_round() is None:
            break
    path = tmp_path / "m.jsonl"
    with path.open("w") as out:
        record_game(out, classic, live, histories=histories)
    again = read(path).replay()
    assert (again.scores, again.winners, again.rounds) == \
        (live.scores, live.winners, live.rounds)


def test_a_recorder_needs_a_logged_seeded_game(classic: uno_rules.Rulebook) -> None:
    with pytest.raises(ValueError, match="log=True"):
        Recorder(open(os.devnull, "w"), classic.new_game(4, 1, log=False))
    with pytest.raises(ValueError, match="seed"):
        Recorder(open(os.devnull, "w"), classic.new_game(4, None))
    game = classic.new_game(4, 1)
    game.apply(game.legal_actions()[0])
    with pytest.raises(ValueError, match="starts at the deal"):
        Recorder(open(os.devnull, "w"), game)


def test_a_record_is_action_notation_only(recorded: Path) -> None:
    for step in read(recorded).steps:
        assert str(Action.parse(step["action"])) == step["action"]


# ------------------------------------------------------------------ hostile records
def test_hostile_records_are_refused_boundedly(tmp_path: Path) -> None:
    cases = load_cases("records").cases(tmp_path)
    assert len(cases) >= 3
    expected = {"records: a huge record": "bytes: too large for a record",
                "records: a deeply nested line": "nested too deeply",
                "records: a 10 MB line": f"a line over {MAX_LINE:,} bytes"}
    for name, args, code in cases:
        result = runner.invoke(cli, args)
        assert result.exit_code == code, (name, result.output)
        if name in expected:
            assert expected[name] in result.output, (name, result.output)
            assert len(result.output.strip().splitlines()) == 1


def test_recording_a_round_deals_nothing_else(classic: uno_rules.Rulebook,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-round record's Match holds the round given: no round of its own is dealt (one
    could run away in a looping rulebook, as an action card does here)."""
    from uno_rules.engine import game as game_module
    from uno_rules.engine.errors import RunawayEffect

    monkeypatch.setattr(game_module, "RUN_BUDGET", 2)
    recorded = 0
    for seed in range(1000):  # about one deal in 300 runs away
        try:
            game = classic.new_game(4, seed)
        except RunawayEffect:  # this deal runs away itself: nothing to record
            continue
        with open(os.devnull, "w") as out:
            assert Recorder(out, game).match.game is game
        recorded += 1
    assert 0 < recorded < 1000  # both kinds of deal were met


@pytest.mark.parametrize("how", ["over", "stalled"])
def test_a_stalled_round_ends_the_record_with_its_budget(how: str, tmp_path: Path,
                                                        classic: uno_rules.Rulebook) -> None:
    match = Match(classic, 4, 6, max_actions=12)
    path = tmp_path / "s.jsonl"
    with path.open("w") as out:
        recorder = Recorder(out, match)
        play(match, recorder, random.Random(1))
        assert match.game.stalled == "actions"
        recorder.end(how)
    record = read(path)
    assert record.lines[-1][1]["end"] == {"stalled": "actions"} and record.ended
    assert record.replay().game.stalled == "actions"
    assert record.header["budgets"]["max_actions"] == 12


def test_a_contest_settled_at_the_table_is_an_ordinary_step(tmp_path: Path) -> None:
    rb = uno_rules.load_rulebook("ted_lasso")
    for seed in range(40):
        path = tmp_path / f"t{seed}.jsonl"
        match, seen = record_match(path, rb, 4, seed, one_round=True)
        contests = [a for a, _ in seen if a.startswith("loser ")]
        if contests:
            break
    assert contests, "no contest in 40 rounds of ted_lasso"
    record = read(path)
    assert [s["action"] for s in record.steps if s["action"].startswith("loser ")] == contests
    assert replayed(record)[1] == seen


@pytest.mark.parametrize("overlay", house_names())
def test_records_of_every_shipped_house_rule_round_trip(overlay: str, tmp_path: Path) -> None:
    rb = uno_rules.load_rulebook("classic", house=[overlay])
    players = 4 if 4 in rb.player_counts() else rb.player_counts()[0]
    path = tmp_path / f"{overlay}.jsonl"
    # uniform: out-of-turn actions (catches, jump-ins, passes) are taken too
    match, seen = record_match(path, rb, players, 5, policy="uniform", one_round=True)
    record = read(path)
    assert record.header["house"] == [overlay]
    again, steps = replayed(record)
    assert steps == seen and (again.scores, again.winners) == (match.scores, match.winners)


def test_a_match_dealt_at_random_replays_from_its_round_seeds(tmp_path: Path) -> None:
    rb = uno_rules.load_rulebook("classic", settings={"target_score": "150"})
    path = tmp_path / "random.jsonl"
    match = Match(rb, 3, 5)
    match.seed = None  # as if dealt at random (Match(rb, 3, None)), but the same every run
    with path.open("w") as out:
        recorder = Recorder(out, match)
        seen = play(match, recorder, random.Random(3))
        recorder.end()
    record = read(path)
    assert record.header["seed"] is None and match.rounds > 1
    again, steps = replayed(record)
    assert steps == seen and (again.scores, again.winners) == (match.scores, match.winners)
