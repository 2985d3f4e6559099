"""Every scenario file under tests/scenarios/ (and tests/rulebooks/*.scenarios.yaml, beside
the test rulebooks they name) passes; the runner reports failures honestly."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from uno_rules.authoring.scenario import run_file
from uno_rules.engine.errors import ScenarioError

HERE = Path(__file__).resolve().parent
# A scenario may name only files under its own folder: those of the test rulebooks sit above
# tests/rulebooks/positive/.
FILES = sorted((HERE / "scenarios").rglob("*.yaml")) + \
    sorted((HERE / "rulebooks").glob("*.scenarios.yaml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(HERE)))
def test_scenario_file(path: Path) -> None:
    outcomes = run_file(path)
    assert outcomes, "a scenario file with no scenario"
    failed = [str(o) for o in outcomes if not o.passed]
    assert not failed, "\n".join(failed)


def test_there_are_classic_scenarios() -> None:
    assert len([p for p in FILES if p.parent.name == "classic"]) >= 6


STATE = ("rulebook: classic\nplayers: 2\nname: s\nstate:\n"
         "  hands: [[red 1, red 2], [blue 1]]\n  discard: [red 3]\nsteps:\n")


@pytest.mark.parametrize("steps, message", [
    ("  - {seat: 0, play: red 1}\n  - expect: {turn: 0}\n", "step 2: expected turn 0, got 1"),
    ("  - {seat: 1, draw: true}\n", "step 1: 1 draw: not seat 1's decision (pending: seat 0 "
                                    "to turn)"),
    ("  - reject: {seat: 0, play: red 1}\n", "step 1: expected the action to be refused"),
    ("  - reject: {seat: 0, play: red 1, color: blue}\n",
     "step 1: the step's first 1 action(s) were taken before one was refused"),
])
def test_failures_name_the_step(tmp_path: Path, steps: str, message: str) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(STATE + steps)
    [outcome] = run_file(f)
    assert not outcome.passed
    assert outcome.message.startswith(message), outcome.message


SPLIT = ("rulebook: teams\nplayers: 4\nname: s\nstate:\n"
         "  hands: [[red 1], [blue 1], [green 1, green 3, green 4, green 6, green 6, green 9,"
         " yellow 4], [yellow 1]]\n  discard: [red 3]\nsteps:\n  - {seat: 0, play: red 1}\n")


@pytest.mark.parametrize("give, message", [
    ("[green 1, green 3]", "step 2: give of 2 cards, but seat 2 must give 3"),
    ("[]", "step 2: give of 0 cards, but seat 2 must give 3"),
    ("[green 1, green 3, green 4, green 9]", "step 2: give of 4 cards, but seat 2 must give 3"),
    ("[green 1, blue 1, green 3]", "step 2: give of 3 cards: blue 1 is not in seat 2's hand"),
    ("[green 1, green 1, green 3]", "step 2: give of 3 cards: green 1 given 2 times, but "
                                    "seat 2's hand holds 1"),
])
def test_a_give_is_the_whole_give(tmp_path: Path, give: str, message: str) -> None:
    """A `give` step that does not complete the pending give exactly is refused as a whole,
    before any card is given; the exact give (copies included) is taken."""
    f = tmp_path / "s.yaml"
    f.write_text(SPLIT + f"  - {{seat: 2, give: {give}}}\n")
    [outcome] = run_file(f)
    assert not outcome.passed
    assert outcome.message.startswith(message), outcome.message
    f.write_text(SPLIT + f"  - reject: {{seat: 2, give: {give}}}\n"
                 "  - expect: {decision: give, turn: 2, hand_sizes: [0, 1, 7, 1]}\n"
                 "  - {seat: 2, give: [green 6, green 6, yellow 4]}\n"
                 "  - expect: {decision: turn, turn: 1, hand_sizes: [3, 1, 4, 1]}\n")
    [outcome] = run_file(f)
    assert outcome.passed, outcome.message


@pytest.mark.parametrize("text, where, message", [
    ("rulebook: classic\nplayers: 2\nname: x\nsteps:\n  - {seat: 0, plya: red 1}\n",
     ":5:15:", "unknown step key 'plya'; did you mean 'play'?"),
    ("rulebook: classic\nplayers: two\nname: x\n", ":2:10:", "expected integer"),
    ("rulebook: classic\nplayers: 2\nname: x\nstate:\n  hands: [[red 1], [purple 9]]\n",
     ":5:3:", "unknown card 'purple 9'"),
    ("rulebook: classik\nplayers: 2\nname: x\n", ":1:1:", "did you mean 'classic'"),
    ("rulebook: classic\nplayers: 2\nname: x\nstate:\n  hands: [[wild, wild, wild, wild, "
     "wild], []]\n", ":5:3:", "more copies of 'wild' than the deck has"),
    ("rulebook: classic\nplayers: 2\nname: x\nsteps: [{expect: {trun: 1}}]\n", ":4:19:",
     "unknown key 'trun'; did you mean 'turn'?"),
    ("rulebook: classic\nplayers: [2\n", ":3:1:", "YAML syntax error"),
    # a count or seed the game refuses: at its own key, in the file or in the scenario
    ("rulebook: teams\nplayers: 3\nname: x\n", ":2:10:",
     "players: teams is for 4, 6, 8 players, not 3"),
    ("rulebook: classic\nplayers: 2\nscenarios:\n  - name: x\n    players: 11\n", ":5:14:",
     "players: classic is for 2-10 players, not 11"),
    ("rulebook: classic\nplayers: 2\nseed: " + "9" * 80 + "\nname: x\n", ":3:7:",
     "seed: too large"),
])
def test_malformed_files_are_located(tmp_path: Path, text: str, where: str, message: str) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(text)
    with pytest.raises(ScenarioError) as info:
        run_file(f)
    line = str(info.value).splitlines()[0]
    assert line.startswith(str(f) + where), line
    assert message in line


def _refused(tmp_path: Path, text: str) -> tuple[Path, list[str]]:
    """A malformed scenario file of ``text``: its path and the lines of the refusal."""
    f = tmp_path / "bad.yaml"
    f.write_text(text)
    with pytest.raises(ScenarioError) as info:
        run_file(f)
    return f, str(info.value).splitlines()


def test_a_step_mistake_is_reported_beside_a_schema_mistake(tmp_path: Path) -> None:
    f, lines = _refused(tmp_path, "rulebook: classic\nplayers: 2\nname: x\nsteps:\n"
                        "  - {seat: 0, plya: red 1}\n  - expect: {hand_size: [7, 7]}\n")
    assert lines == [
        f"{f}:5:15: unknown step key 'plya'; did you mean 'play'? (at $.steps[0].plya)",
        f"{f}:6:14: unknown key 'hand_size'; did you mean 'hand_sizes'? "
        "(at $.steps[1].expect.hand_size)"]


def test_tutorial_examples_hold() -> None:
    """docs/authoring.md walks through examples/: they must keep working."""
    from uno_rules import load_rulebook

    examples = HERE.parent / "examples"
    outcomes = run_file(examples / "lightning_scenarios.yaml")
    assert outcomes and all(o.passed for o in outcomes), [str(o) for o in outcomes]
    rb = load_rulebook(examples / "lightning.yaml")
    assert rb.house == ("stacking", "house/mercy.yaml") and rb.settings.hand_size == 5


def test_a_scenarios_own_rulebook_outside_its_folder_is_refused_at_its_key(
        tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("name: base\nextends: classic\n")
    (tmp_path / "sub").mkdir()
    f = tmp_path / "sub" / "s.yaml"
    f.write_text("rulebook: classic\nplayers: 2\nscenarios:\n  - name: ok\n    steps: []\n"
                 "  - name: out\n    rulebook: ../base.yaml\n    steps: []\n")
    with pytest.raises(ScenarioError) as info:
        run_file(f)
    assert str(info.value).startswith(f"{f}:7:5: rulebook '../base.yaml': outside this file's "
                                      "folder, so not read"), str(info.value)


def test_a_rulebook_name_never_reads_a_file_of_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`rulebook: NAME` (no `/`, no .yaml) is a shipped name, not a file where the command
    runs."""
    (tmp_path / "secret").write_text("db_password: hunter2\n")
    (tmp_path / "s.yaml").write_text("rulebook: secret\nplayers: 2\nname: x\nsteps: []\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ScenarioError) as info:
        run_file("s.yaml")
    assert "rulebook 'secret': no such rulebook or file" in str(info.value)
    assert "hunter2" not in str(info.value) and "db_password" not in str(info.value)


def test_run_paths_takes_one_path_alone_as_one(tmp_path: Path) -> None:
    """`run_paths("folder")` iterated the string: one missing file per character."""
    from uno_rules.authoring.scenario import run_paths

    (tmp_path / "s.yaml").write_text("rulebook: classic\nplayers: 2\nsteps: []\n")
    for one in (str(tmp_path), tmp_path, str(tmp_path / "s.yaml")):
        assert [o.passed for o in run_paths(one)] == [True]


def test_a_file_of_many_costly_rounds_stops_at_its_budget(tmp_path: Path) -> None:
    """Each round ends within its own budget, but 2,000 of them in a 60 KB scenario file
    (rounds of a re-triggering rulebook: ~40 ms each) ran for over a minute. A file's
    scenarios share one budget of effect steps; past it, the rest are one FAIL, not run."""
    from uno_rules.authoring.scenario import FILE_STEPS, run_paths
    from uno_rules.engine.game import GAME_STEPS

    (tmp_path / "retrigger.yaml").write_text(
        (HERE / "hostile" / "exits" / "retrigger.yaml").read_text())
    scenarios = "".join(f"  - {{name: s{i}, seed: {i}, steps: []}}\n" for i in range(2000))
    path = tmp_path / "many.yaml"
    path.write_text(f"rulebook: retrigger.yaml\nplayers: 10\nscenarios:\n{scenarios}")
    outcomes = run_paths([path])
    assert FILE_STEPS == GAME_STEPS and all(o.passed for o in outcomes[:-1])
    assert 1 < len(outcomes) < 200, len(outcomes)
    last = outcomes[-1]
    assert not last.passed and last.name == f"s{len(outcomes) - 1}"
    assert last.message.startswith(f"not run, nor the {2000 - len(outcomes):,} after it: "
                                   "this file's scenarios ran "), last.message
    assert last.message.endswith(f"effect steps, the most a file may run is {FILE_STEPS:,}")


LONG = "9" * 5000


@pytest.mark.parametrize("step", [
    f"  - {{seat: 0, play: red {LONG}}}\n",
    f"  - {{seat: 0, play: RED {LONG}}}\n",  # echoed in another case
    f"  - expect: {{top: red {LONG}}}\n",
    f"  - {{seat: 0, play: red 1, color: red{LONG}}}\n",
])
def test_a_long_value_in_a_step_is_echoed_short(tmp_path: Path, step: str) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(STATE + step)
    [outcome] = run_file(f)
    assert not outcome.passed and outcome.message.startswith("step 1: ")
    line = str(outcome)
    assert len(line) < 600 and "... (5,00" in line and " characters)" in line, line
    assert line.endswith(f"({f}:8)")


def test_a_long_scenario_name_is_shown_short(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(STATE.replace("name: s", "name: " + "n" * 5000) + "  - expect: {turn: 1}\n")
    [outcome] = run_file(f)
    assert str(outcome).startswith("FAIL " + "n" * 60 + "... (5,000 characters): step 1: ")


MATCH = "rulebook: classic\nplayers: 4\nname: x\n"


@pytest.mark.parametrize("text, where, message", [
    ("match: {scores: [1, 2, 3]}\n", ":4:17:", "match.scores: 3 scores for 4 players"),
    ("set: {scoring: elimination}\nmatch: {scores: [0, 0, 0, 500], out: [7]}\n", ":5:39:",
     "match.out: no seat 7: seats are 0-3"),
    ("set: {scoring: elimination}\nmatch: {scores: [0, 500, 0, 0], out: [1, 1]}\n", ":5:42:",
     "match.out: seat 1 is given twice"),
    # (without `dealer`, the last seat still in deals: SCENARIOS.md)
    ("set: {scoring: elimination}\nmatch: {scores: [0, 0, 0, 500], out: [3], dealer: 3}\n",
     ":5:51:", "match.dealer: seat 3 is out of the match: it deals no more"),
    ("match: {dealer: 4}\n", ":4:17:", "match.dealer: no seat 4: seats are 0-3"),
    ("match: {scores: [0, 500, 0, 0], out: [1], dealer: 0}\n", ":4:38:",
     "match.out: seats are out of a match only under elimination scoring (this rulebook "
     "scores winner_takes)"),
    ("match: {scores: [0, 500, 0, 0]}\n", ":4:21:", "match.scores: seat 1 has 500, at or "
     "above the target 500: the match is over already"),
    ("set: {scoring: elimination}\nmatch: {scores: [0, 20, 0, 0], out: [1], dealer: 0}\n",
     ":5:21:", "match.scores: seat 1 has 20: under elimination a seat is out of the match "
     "(`out`) exactly when it has reached the target, 500"),
    ("set: {scoring: elimination}\nmatch: {scores: [500, 500, 500, 0], out: [0, 1, 2]}\n",
     ":5:42:", "match.out: the match is over: fewer than two players left in"),
    ("match: {scores: [0, 0, 0, -1]}\n", ":4:27:", "-1 is less than the minimum of 0"),
    ("match: {scores: [0, 0, 0, 0], winner: 1}\n", ":4:", "winner"),
    ("set: {scoring: elimination}\nmatch: {scores: [0, 500, 0, 0], out: [1]}\nstate:\n"
     "  hands: [[red 1], [red 2], [red 3], [red 4]]\n  discard: [red 5]\n", ":7:20:",
     "seat 1 is out of the match: its hand is []"),
    ("set: {scoring: elimination}\nmatch: {scores: [0, 500, 0, 0], out: [1]}\nstate:\n"
     "  hands: [[red 1], [], [red 3], [red 4]]\n  discard: [red 5]\n  turn: 1\n", ":9:9:",
     "seat 1 is out of the match: it never has the turn"),
    ("match: {dealer: 1}\nstate:\n  hands: [[red 1], [red 2], [red 3], [red 4]]\n"
     "  discard: [red 5]\n  dealer: 2\n", ":8:11:",
     "state.dealer 2 differs from match.dealer 1"),
    ("steps: [{expect: {scores: [0, 0, 0, 0], match_over: 1}}]\n", ":4:", "expected boolean"),
])
def test_malformed_match_blocks_are_located(tmp_path: Path, text: str, where: str,
                                            message: str) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(MATCH + text)
    with pytest.raises(ScenarioError) as info:
        run_file(f)
    line = str(info.value).splitlines()[0]
    assert line.startswith(str(f) + where), line
    assert message in line, line


def test_a_match_block_at_file_level_holds_for_every_scenario(tmp_path: Path) -> None:
    f = tmp_path / "m.yaml"
    hands = "    state: {hands: [[red 1], [red 2], [red 3], [red 4]], discard: [red 5]}\n"
    f.write_text("rulebook: classic\nplayers: 4\nmatch: {scores: [10, 20, 30, 40]}\n"
                 "scenarios:\n  - name: file's\n" + hands +
                 "    steps: [{seat: 0, play: red 1}, {expect: {scores: [19, 20, 30, 40]}}]\n"
                 "  - name: own\n    match: {scores: [0, 0, 0, 0], dealer: 0}\n" + hands +
                 "    steps: [{seat: 0, play: red 1}, {expect: {scores: [9, 0, 0, 0], "
                 "next_dealer: 1}}]\n"
                 "  - name: before the end, the match as it stands\n"
                 + hands + "    steps: [{expect: {scores: [10, 20, 30, 40], match_over: false,"
                 " match_out: [], match_winner: null}}]\n")
    assert [(o.name, o.passed, o.message) for o in run_file(f)] == [
        ("file's", True, ""), ("own", True, ""),
        ("before the end, the match as it stands", True, "")]


def test_a_round_without_a_match_block_is_the_first_of_a_fresh_match(tmp_path: Path) -> None:
    f = tmp_path / "m.yaml"
    f.write_text(MATCH + "state: {hands: [[red 1], [red 2], [red 3], [red 4]], "
                 "discard: [red 5]}\nsteps: [{seat: 0, play: red 1}, {expect: {scores: "
                 "[9, 0, 0, 0], match_over: false, next_dealer: 1}}]\n")
    [outcome] = run_file(f)
    assert not outcome.passed
    assert outcome.message.startswith("step 2: expected next_dealer 1, got 0"), outcome.message


def test_points_are_not_checked_under_own_leftover_scoring(tmp_path: Path) -> None:
    f = tmp_path / "m.yaml"
    body = ("state: {hands: [[red 1], [red 2], [red 3], [red 4]], discard: [red 5]}\n"
            "steps: [{seat: 0, play: red 1}, {expect: {points: 1}}]\n")
    f.write_text(MATCH + "set: {scoring: lowest_total}\nmatch: {}\n" + body)
    assert run_file(f)[0].passed
    f.write_text(MATCH + "match: {}\n" + body)  # winner_takes: checked
    assert run_file(f)[0].message.startswith("step 2: expected points 1, got 9")


def test_elimination_scoring_in_teams_is_refused_at_the_match_block(tmp_path: Path) -> None:
    f, lines = _refused(tmp_path, "rulebook: teams\nplayers: 4\nname: x\n"
                        "set: {scoring: elimination}\nmatch: {scores: [0, 0, 0, 0]}\n")
    assert "\n".join(lines) == f"{f}:5:8: match: teams plays in partnerships: elimination " \
        "scoring is for players on their own (winner_takes or lowest_total) (at $.match)"


def test_a_contest_is_settled_at_the_table_and_says_so() -> None:
    """A contest (a chance node) answered with an outsider, or a seat acting while the table
    settles it: each fails naming the contest's outcomes (tests/hostile/chance/)."""
    path = Path(__file__).resolve().parent / "hostile" / "chance" / "contest_outsider.yaml"
    outsider, turn = run_file(path)
    table = "not an option (pending: a contest settled at the table: one of loser 0, loser 2)"
    assert not outsider.passed and outsider.message.startswith(f"step 3: loser 3: {table}")
    assert not turn.passed and turn.message.startswith(f"step 4: 2 draw: {table}")


PILES = ("rulebook: piles.yaml\nplayers: 2\nname: x\nstate:\n  hands: [[red 5], [blue 1]]\n"
         "  discards: [[red 1], [blue 2]]\nsteps:\n")


@pytest.mark.parametrize("step, where, message", [
    # YAML 1.1 reads a bare `on` key as true: said so, with the keys to write instead
    ("  - {seat: 0, play: red 5, on: 1}\n", ":8:28:", "a key YAML reads as true (a bare `on`, "
     "`off`, `yes` or `no` is a boolean): to name the pile a card goes on, write `pile: N` or "
     "`play: CARD on N`"),
    ("  - {seat: 0, play: red 5 on 1, pile: 0}\n", ":8:39:", "pile: 0, but the card is played "
     "on 1 (`play: ... on 1`)"),
    # one pile's keys would check only the pile in focus
    ("  - expect: {top: red 1}\n", ":8:14:", "expect `top`: this rulebook has 2 discard piles; "
     "check every pile's with `tops: [...]`, one per pile"),
    ("  - expect: {turn: 0, color: red}\n", ":8:23:", "expect `color`: this rulebook has 2 "
     "discard piles; check every pile's with `colors: [...]`, one per pile"),
])
def test_several_piles_mistakes_are_located(tmp_path: Path, step: str, where: str,
                                            message: str) -> None:
    (tmp_path / "piles.yaml").write_text("name: piles\nextends: classic\ndiscard_piles: 2\n")
    f, lines = _refused(tmp_path, PILES + step)
    assert lines[0].startswith(f"{f}{where} {message} (at $."), lines


def test_a_file_level_state_is_every_scenarios_unless_it_has_its_own(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(textwrap.dedent("""\
        rulebook: classic
        players: 2
        state: {hands: [[red 1, red 2], [blue 1]], discard: [red 3]}
        scenarios:
          - {name: shared, steps: [{expect: {hand_sizes: [2, 1], top: red 3}}]}
          - name: shared again, unchanged by the first
            steps: [{seat: 0, play: red 1}, {expect: {hand_sizes: [1, 1]}}]
          - {name: shared a third time, steps: [{expect: {hand_sizes: [2, 1]}}]}
          - name: own
            state: {hands: [[red 1], [blue 1, blue 2]], discard: [green 3], turn: 1}
            steps: [{expect: {hand_sizes: [1, 2], top: green 3, turn: 1}}]
        """))
    outcomes = run_file(f)
    assert [o.passed for o in outcomes] == [True] * 4, [str(o) for o in outcomes]
    f.write_text("rulebook: classic\nplayers: 2\nstate:\n  hands: [[red 1], [purple 1]]\n"
                 "scenarios:\n  - name: x\n")
    _, lines = _refused(tmp_path, f.read_text())
    assert lines[0].startswith(f"{tmp_path / 'bad.yaml'}:4:3: unknown card 'purple 1'"), lines
