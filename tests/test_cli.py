"""The command line, through click's CliRunner."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import load_cases, reaped

from uno_rules.cli import cli, main

HERE = Path(__file__).resolve().parent
runner = CliRunner()


def test_validate_shipped_rulebooks() -> None:
    result = runner.invoke(cli, ["validate", str(HERE.parent / "rulebooks")])
    assert result.exit_code == 0, result.output
    assert "ok " in result.output and "classic, 108 cards" in result.output


@pytest.mark.parametrize("name", ["syntax_error", "unknown_key", "wrong_type", "dangling_rank",
                                  "challenge_without_bluff", "bluff_without_challenge",
                                  "stack_draw_zero", "extends_a_folder"])
def test_validate_bad_rulebook_one_line_exit_1(name: str) -> None:
    path = HERE / "rulebooks" / "negative" / f"{name}.yaml"
    result = runner.invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}:")


def test_validate_missing_file() -> None:
    result = runner.invoke(cli, ["validate", "nope.yaml"])
    assert result.exit_code == 1 and "no such rulebook" in result.output


@pytest.mark.parametrize("command", ["deck", "explain", "simulate"])
def test_an_overlay_given_as_the_rulebook_says_how_to_use_it(command: str) -> None:
    result = runner.invoke(cli, [command, "stacking"])
    assert result.exit_code == 1
    assert result.output.startswith("stacking:1:1: no such rulebook or file (shipped: ")
    assert result.output.endswith("; 'stacking' is a house-rule overlay: use --house stacking "
                                  "on a rulebook (at $)\n")


def test_an_overlay_given_as_the_base_of_new_says_how_to_use_it(tmp_path: Path) -> None:
    result = runner.invoke(cli, ["new", "mine", "--from", "seven_zero", "-o",
                                 str(tmp_path / "mine.yaml")])
    assert result.exit_code == 1 and not (tmp_path / "mine.yaml").exists()
    assert result.output.endswith("; 'seven_zero' is a house-rule overlay: use house: "
                                  "[seven_zero] in the new rulebook\n")


def test_an_overlay_extended_says_how_to_include_it(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text("extends: stacking\n")
    result = runner.invoke(cli, ["validate", str(tmp_path / "mine.yaml")])
    assert result.exit_code == 1
    assert result.output == (f"{tmp_path / 'mine.yaml'}:1:10: can't find rulebook 'stacking' "
                             "to extend; 'stacking' is a house-rule overlay: use house: "
                             "[stacking] (at $.extends)\n")


def test_other_missing_rulebooks_get_no_overlay_hint() -> None:
    result = runner.invoke(cli, ["deck", "stacking_x"])
    assert result.exit_code == 1 and "house-rule overlay" not in result.output


def test_deck_json() -> None:
    result = runner.invoke(cli, ["deck", "classic", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["total"] == 108 and data["cards"]["red 5"] == 2 and data["cards"]["wild"] == 4
    assert sum(data["cards"].values()) == 108


def test_deck_table_and_set() -> None:
    result = runner.invoke(cli, ["deck", "classic"])
    assert result.exit_code == 0 and "108 cards" in result.output
    # names for people, as play and the rules sheets write them; ids in the JSON (files)
    assert "  red draw two     x2    20 pts" in result.output and "_" not in result.output
    assert "  wild draw four   x4    50 pts" in result.output
    ids = json.loads(runner.invoke(cli, ["deck", "classic", "--json"]).output)["cards"]
    assert ids["red draw_two"] == 2 and "red draw two" not in ids
    flip = runner.invoke(cli, ["deck", "flip"]).output
    assert "  red draw one (light)" in flip and "_" not in flip
    odd = runner.invoke(cli, ["deck", str(HERE / "hostile" / "records" /
                                          "line_breaks.yaml")]).output
    assert odd.startswith("Line\\rbreaks\\n# forged heading\\t: 36 cards\n")
    assert not [c for c in odd if not c.isprintable() and c != "\n"]  # a side's name too
    bad = runner.invoke(cli, ["deck", "classic", "--set", "hand_sise=5"])
    assert bad.exit_code == 1 and "did you mean 'hand_size'" in bad.output


def test_simulate_json_is_deterministic_apart_from_timing() -> None:
    args = ["simulate", "classic", "--games", "5", "--players", "3", "--seed", "11", "--json"]
    first, second = runner.invoke(cli, args), runner.invoke(cli, args)
    assert first.exit_code == 0, first.output
    a, b = json.loads(first.output), json.loads(second.output)
    assert "timing" in a
    a.pop("timing"), b.pop("timing")
    assert json.dumps(a) == json.dumps(b)
    for key in ("rulebook", "games", "players", "seed", "wins_by_seat", "turns", "stalled"):
        assert key in a
    assert sum(a["wins_by_seat"]) + a["stalled"] == 5 and len(a["wins_by_seat"]) == 3
    other = runner.invoke(cli, args[:-2] + ["12", "--json"])
    assert json.loads(other.output)["turns"] != a["turns"]


def test_simulate_rejects_player_count() -> None:
    result = runner.invoke(cli, ["simulate", "classic", "--players", "11", "--games", "1"])
    assert result.exit_code == 1 and "2-10 players" in result.output


def test_scenario_exit_codes(tmp_path: Path) -> None:
    ok = runner.invoke(cli, ["scenario", str(HERE / "scenarios" / "classic")])
    assert ok.exit_code == 0 and "PASS" in ok.output and " 0 failed" in ok.output
    failing = tmp_path / "f.yaml"
    failing.write_text("rulebook: classic\nplayers: 2\nname: f\nstate:\n  hands: [[red 1], "
                       "[red 2]]\n  discard: [red 3]\nsteps:\n  - expect: {turn: 1}\n")
    bad = runner.invoke(cli, ["scenario", str(failing)])
    assert bad.exit_code == 1 and "FAIL f: step 1: expected turn 1, got 0" in bad.output
    malformed = tmp_path / "m.yaml"
    malformed.write_text("rulebook: classic\nplayers: 2\nname: m\nsteps: [{seat: 0, flay: x}]\n")
    result = runner.invoke(cli, ["scenario", str(malformed)])
    assert result.exit_code == 2 and f"{malformed}:4:" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    none = runner.invoke(cli, ["scenario", str(empty)])
    assert none.exit_code == 1 and "no scenario files" in none.output


def test_a_runaway_effect_fails_its_scenario_at_its_step(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """An effect that runs away (the bound lowered: no shipped card loops) is the rules'
    doing: that scenario fails, at its step or at the deal, exit 1 (not an internal error)."""
    from uno_rules.engine import game as game_module

    path = tmp_path / "s.yaml"
    path.write_text("rulebook: classic\nplayers: 2\nscenarios:\n"
                    "  - name: runs away\n    state:\n      hands: [[red draw_two, red 1], "
                    "[blue 1]]\n      discard: [red 5]\n    steps:\n"
                    "      - expect: {turn: 0}\n      - {seat: 0, play: red draw_two}\n"
                    "  - name: its deal runs away\n    seed: 2\n    steps: []\n"
                    "  - name: the others still run\n    state:\n      hands: [[red 1], "
                    "[blue 1]]\n      discard: [red 5]\n    steps:\n"
                    "      - {seat: 0, play: red 1}\n")
    monkeypatch.setattr(game_module, "RUN_BUDGET", 1)
    result = runner.invoke(cli, ["scenario", str(path)])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("FAIL runs away: step 2: ")
    assert "the effect of red draw_two ran more than 1 steps" in lines[0]
    assert lines[0].endswith(f"({path}:10)")
    assert lines[1].startswith("FAIL its deal runs away: the deal: ") and "ran more" in lines[1]
    assert lines[2:] == ["PASS the others still run", "1 passed, 2 failed"]


def test_a_real_runaway_in_a_scenario_is_its_failure() -> None:
    """tests/hostile/exits/runaway_scenario.yaml: no bound lowered, six nested `each` run past
    the 100,000 steps an action may run."""
    path = HERE / "hostile" / "exits" / "runaway_scenario.yaml"
    result = runner.invoke(cli, ["scenario", str(path)])
    assert result.exit_code == 1, result.output
    assert result.output.splitlines() == [
        f"FAIL a skip whose effect runs away: step 1: {path.parent / 'runaway.yaml'}:9:170: the "
        "effect of red skip ran more than 100000 steps without asking anything (`reverse` "
        f"loops); the round is stopped ({path}:11)",
        "PASS the next scenario still runs", "1 passed, 1 failed"]


def test_schema_command_prints_json() -> None:
    result = runner.invoke(cli, ["schema"])
    assert result.exit_code == 0 and json.loads(result.output)["title"] == "uno-rules rulebook"


def test_main_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["deck", "no_such_rulebook"])
    assert info.value.code == 1
    assert "no such rulebook" in capsys.readouterr().err


def test_validate_overlays_on_a_rulebook(tmp_path: Path) -> None:
    house = HERE.parent / "rulebooks" / "house"
    ok = runner.invoke(cli, ["validate", str(house)])
    assert ok.exit_code == 0 and ok.output.count("house rule, applied to classic") >= 8
    typo = tmp_path / "mine.yaml"
    typo.write_text("name: mine\nsettings:\n  jump_inn: true\n")
    bad = runner.invoke(cli, ["validate", str(typo)])
    assert bad.exit_code == 1
    assert bad.output.strip() == (f"{typo}:3:3: unknown key 'jump_inn'; did you mean "
                                  "'jump_in'? (at $.settings.jump_inn)")
    misfit = runner.invoke(cli, ["validate", "--on", "teams", str(house / "no_bluffing.yaml")])
    assert misfit.exit_code == 1 and "wild_draw_four" in misfit.output


# ------------------------------------------------------------------ misuse: one line, exit 1
def _one_line_error(args: list[str], code: int = 1) -> str:
    result = runner.invoke(cli, args)
    assert result.exit_code == code, (args, result.output)
    assert "Traceback" not in result.output and result.exception is None or \
        isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(("setting", "expect"), [
    ("wd4_holds_no=banana", "invalid value 'banana'; expected one of color, match"),
    ("play_drawn=sometimes", "invalid value 'sometimes'; expected one of may, must, never"),
    ("hand_size=-1", "less than the minimum of 1"),
    ("hand_size=7.0", "expected integer or a $option reference, got number 7.0"),
    ("hand_size=[1", "YAML syntax error"),
    ("hand_sise=5", "unknown setting 'hand_sise'; did you mean 'hand_size'?"),
])
def test_set_problems_point_at_the_argument(setting: str, expect: str) -> None:
    line = _one_line_error(["simulate", "classic", "--games", "1", "--set", setting])
    assert line.startswith(f"--set {setting}: ") and expect in line, line
    assert "classic.yaml" not in line


def test_option_values_are_checked_where_they_are_used(tmp_path: Path) -> None:
    path = tmp_path / "opt.yaml"
    path.write_text("name: opt\nextends: classic\noptions:\n  n: lots\n  h: -3\n"
                    "settings:\n  hand_size: $h\ncards:\n  draw_two:\n"
                    "    effect: [{draw: {who: next, count: $n}}, skip]\n")
    result = runner.invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines == [
        f"{path}:7:14: option $h = -3 doesn't fit here: -3 is less than the minimum of 1 "
        "(at $.settings.hand_size)",
        f"{path}:10:40: option $n = 'lots' doesn't fit here: expected integer or a mapping, "
        "got string 'lots' (at $.cards.draw_two.effect[0].draw.count)"]


def test_schema_and_semantic_problems_in_one_pass(tmp_path: Path) -> None:
    path = tmp_path / "both.yaml"
    path.write_text("name: both\nextends: classic\nsettings:\n  hand_size: seven\n"
                    "cards:\n  no_such_rank:\n    effect: [skip]\n")
    result = runner.invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{path}:4:14: expected integer") and "got string 'seven'" \
        in lines[0]
    assert lines[1].startswith(f"{path}:6:3: card rule for rank 'no_such_rank'")


def test_every_listed_name_is_accepted() -> None:
    listed = runner.invoke(cli, ["list", "-q"])
    assert listed.exit_code == 0
    names = listed.output.split()
    table = runner.invoke(cli, ["list"]).output
    rulebooks = table.split("House rules")[0].split()
    assert "classic" in names and "stacking" in names
    for name in names:
        result = runner.invoke(cli, ["validate", name])
        assert result.exit_code == 0, (name, result.output)
        if name in rulebooks:
            for args in (["simulate", name, "--games", "2"], ["explain", name],
                         ["deck", name]):
                assert runner.invoke(cli, args).exit_code == 0, args
        else:
            result = runner.invoke(cli, ["deck", "classic", "--house", name])
            assert result.exit_code == 0, (name, result.output)
            assert runner.invoke(cli, ["validate", f"house/{name}"]).exit_code == 0


def test_validate_names_and_unknown_names() -> None:
    result = runner.invoke(cli, ["validate", "stacking", "classic"])
    assert result.exit_code == 0
    assert result.output.splitlines() == ["ok stacking: house rule, applied to classic",
                                          "ok classic: classic, 108 cards, 2-10 players"]
    line = _one_line_error(["validate", "clasic"])
    assert "no such rulebook or file; did you mean 'classic'?" in line


def test_new_into_a_missing_folder(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "dir" / "x.yaml"
    line = _one_line_error(["new", "x", "-o", str(target)])
    assert line.startswith(f"--output {target}: no folder")
    assert not target.parent.exists()


@pytest.mark.parametrize("args", [
    ["simulate", "classic", "--games", "abc"],
    ["simulate"],
    ["frobnicate"],
    ["simulate", "classic", "--policy", "smart"],
    ["scenario", "/no/such/path"],
    ["play", "classic", "--players", "x"],
])
def test_usage_errors_are_user_errors(args: list[str]) -> None:
    line = _one_line_error(args)
    assert line.startswith("uno-rules") and "--help" in line


def test_policy_choices_are_listed_and_described() -> None:
    line = _one_line_error(["simulate", "classic", "--policy", "smart"])
    assert "'play_first'" in line and "'uniform'" in line
    helptext = runner.invoke(cli, ["simulate", "--help"]).output
    assert "play_first: a random" in " ".join(helptext.split())


def test_house_and_scenario_set_problems_name_what_was_given(tmp_path: Path) -> None:
    line = _one_line_error(["deck", "classic", "--house", "stackin"])
    assert line.startswith("--house stackin: unknown house rule 'stackin'; did you mean "
                           "'stacking'?")
    scenario = tmp_path / "s.yaml"
    scenario.write_text("rulebook: classic\nplayers: 2\nset: {hand_sise: 5}\nsteps: []\n")
    line = _one_line_error(["scenario", str(scenario)], code=2)
    assert line.startswith(f"{scenario}:3:6: set: hand_sise=5: unknown setting 'hand_sise'")


def test_an_internal_error_is_one_line_exit_3_and_debug_shows_where(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import uno_rules.authoring.explain

    def broken(rulebook: object) -> str:
        raise KeyError("a bug")

    monkeypatch.setattr(uno_rules.authoring.explain, "explain", broken)
    result = runner.invoke(cli, ["explain", "classic"])
    assert result.exit_code == 3
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("internal error (a bug; --debug shows "
                                                   "where): KeyError"), lines
    debug = runner.invoke(cli, ["--debug", "explain", "classic"])
    assert debug.exit_code == 3 and "Traceback" in debug.output and "broken" in debug.output


# ------------------------------------------------------------------ authoring (issue 14)
ADDS_A_CARD = ("name: add_card\ndeck:\n  mine: {ranks: [my_card], colors: all, copies: 2, "
               "points: 20}\ncards:\n  my_card:\n    effect: [{draw: {who: next, count: 3}}, "
               "skip]\n")


def test_validate_accepts_an_overlay_that_adds_a_card(tmp_path: Path) -> None:
    path = tmp_path / "add_card.yaml"
    path.write_text(ADDS_A_CARD)
    result = runner.invoke(cli, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output == f"ok {path}: house rule, applied to classic\n"
    on_flip = runner.invoke(cli, ["validate", "--on", "flip", str(path)])
    assert on_flip.exit_code == 1 and "every side needs as many cards" in on_flip.output


def test_validate_a_folder_recurses_skips_scenarios_and_reports_a_broken_file(
        tmp_path: Path) -> None:
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "sub" / "deeper" / "add_card.yaml").write_text(ADDS_A_CARD)
    (tmp_path / "a_broken.yaml").write_text("name: broken\nextends: classic\nsettings: [\n")
    (tmp_path / "sub" / "variant.yml").write_text("name: variant\nextends: classic\n")
    (tmp_path / "sub" / "tests.yaml").write_text(
        "rulebook: classic\nplayers: 2\nscenarios:\n  - name: x\n    steps: []\n")
    (tmp_path / "one.yaml").write_text("rulebook: classic\nplayers: 2\nsteps: []\n")
    (tmp_path / "unfinished.yaml").write_text("rulebook: classic\nplayers: 2\n")
    result = runner.invoke(cli, ["validate", str(tmp_path)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[:3] == [f"ok {tmp_path / 'sub' / 'deeper' / 'add_card.yaml'}: house rule, "
                         "applied to classic",
                         f"ok {tmp_path / 'sub' / 'variant.yml'}: variant, 108 cards, 2-10 "
                         "players",
                         "skipped 3 scenario files (uno-rules scenario runs them)"]
    assert len(lines) == 4 and lines[3].startswith(f"{tmp_path / 'a_broken.yaml'}:4:1: YAML "
                                                   "syntax error")
    only = tmp_path / "only"
    only.mkdir()
    (only / "s.yaml").write_text("rulebook: classic\nplayers: 2\nsteps: []\n")
    line = _one_line_error(["validate", str(only)])
    assert line == f"no rulebook files (*.yaml) in {only} (1 scenario files: run them with " \
                   "uno-rules scenario)"


def test_scenario_a_folder_skips_the_rulebooks_kept_beside_its_scenarios(
        tmp_path: Path) -> None:
    """docs/authoring.md's layout: a rulebook, its overlay and its scenarios in one folder.
    `scenario DIR` runs the scenarios and skips the rulebooks (told by content, as
    `validate DIR` skips the scenarios); a file named alone is still read as a scenario."""
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "mercy.yaml").write_text("name: mercy\nsettings: {uno_penalty: 4}\n")
    (tmp_path / "mine.yaml").write_text("name: mine\nextends: classic\nhouse: [house/mercy.yaml]\n")
    (tmp_path / "mine_scenarios.yaml").write_text(
        "rulebook: mine.yaml\nplayers: 2\nname: it loads\nsteps: []\n")
    result = runner.invoke(cli, ["scenario", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["PASS it loads", "1 passed, 0 failed",
                                          "skipped 2 rulebook files (uno-rules validate "
                                          "checks them)"]
    assert runner.invoke(cli, ["validate", str(tmp_path)]).exit_code == 0
    alone = runner.invoke(cli, ["scenario", str(tmp_path / "mine.yaml")])
    assert alone.exit_code == 2 and alone.output == (
        f"{tmp_path / 'mine.yaml'}:1:1: not a scenario file (it has no `rulebook`, `scenarios`, "
        "`steps` or `state`): a rulebook or house rule? uno-rules validate checks those "
        "(at $)\n")
    (tmp_path / "mine_scenarios.yaml").unlink()
    line = _one_line_error(["scenario", str(tmp_path)])
    assert line == f"no scenario files (*.yaml) in {tmp_path} (2 rulebook files: check them " \
                   "with uno-rules validate)"


def test_validate_takes_house_and_set(tmp_path: Path) -> None:
    overlay = tmp_path / "add_card.yaml"
    overlay.write_text(ADDS_A_CARD)
    result = runner.invoke(cli, ["validate", "classic", str(overlay), "--house", "stacking",
                                 "--set", "stack_mixing=true"])
    assert result.exit_code == 0, result.output
    line = _one_line_error(["validate", "teams", "--house", "no_bluffing"])
    assert "no_bluffing.yaml" in line and "wild_draw_four" in line
    line = _one_line_error(["validate", "classic", "--set", "hand_size=0"])
    assert line.startswith("--set hand_size=0: 0 is less than the minimum of 1")


def test_scenario_takes_house_and_set_on_top_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("rulebook: classic\nplayers: 2\nscenarios:\n"
                    "  - name: a draw two on a draw two\n"
                    "    state: {hands: [[red draw_two, red 1], [blue draw_two, blue 1]], "
                    "discard: [red 5], draw_pile: [green 1, green 2, green 3, green 4, "
                    "green 5, green 6]}\n"
                    "    steps:\n      - {seat: 0, play: red draw_two}\n"
                    "      - {seat: 1, play: blue draw_two}\n"
                    "      - {seat: 0, draw: true}\n"
                    "      - expect: {hand_sizes: [5, 1]}\n")
    plain = runner.invoke(cli, ["scenario", str(path)])
    assert plain.exit_code == 1 and "FAIL a draw two on a draw two" in plain.output
    stacked = runner.invoke(cli, ["scenario", str(path), "--house", "stacking"])
    assert stacked.exit_code == 0, stacked.output
    assert "PASS a draw two on a draw two" in stacked.output
    line = _one_line_error(["scenario", str(path), "--house", "stacking", "--set",
                            "stack_mixin=true"])
    assert line.startswith(f"{path}:1:11: --set stack_mixin=true: unknown setting "
                           "'stack_mixin'; did you mean 'stack_mixing'?")
    line = _one_line_error(["scenario", str(path), "--house", "stackin"])
    assert line.startswith(f"{path}:1:11: --house stackin: unknown house rule 'stackin'")
    assert runner.invoke(cli, ["scenario", "--help"]).output.count("--house") == 2


def test_python_dash_m_runs_the_command(tmp_path: Path) -> None:
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "uno_rules", *args], capture_output=True,
                              text=True, timeout=60, cwd=tmp_path)

    ok = run("primitives")
    assert ok.returncode == 0 and ok.stdout.startswith("# ")
    bad = run("deck", "clasic")
    assert bad.returncode == 1 and "did you mean 'classic'" in bad.stderr
    usage = run("--bogus")  # named uno-rules, not __main__.py
    assert usage.returncode == 1 and usage.stderr.startswith("uno-rules: No such option")


def test_new_refuses_to_write_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere" / "x.yaml"
    target.parent.mkdir()
    link = tmp_path / "x.yaml"
    link.symlink_to(target)  # dangling: the file it names does not exist
    line = _one_line_error(["new", "x", "-o", str(link)])
    assert line == f"{link}: a symbolic link; not written through"
    assert not target.exists()


def test_problems_point_where_the_value_was_set(tmp_path: Path) -> None:
    overlay = tmp_path / "big_hands.yaml"
    overlay.write_text("name: big_hands\nsettings:\n  hand_size: 15\n")
    line = _one_line_error(["deck", "classic", "--house", str(overlay)])
    assert line == (f"{overlay}:3:14: the deck has 108 cards, fewer than 10 players × 15 "
                    "cards + 1 = 151 (at $.settings.hand_size)")
    variant = tmp_path / "crowd.yaml"
    variant.write_text("name: crowd\nextends: classic\nplayers: {min: 2, max: 20}\n")
    assert _one_line_error(["validate", str(variant)]).startswith(f"{variant}:3:10: the deck")
    line = _one_line_error(["deck", "classic", "--set", "wd4_guilty_returns_card=maybe"])
    assert line.startswith("--set wd4_guilty_returns_card=maybe: `if: option` needs a boolean "
                           "option, 'wd4_guilty_returns_card' is not boolean (used at ")
    assert "classic.yaml:" in line.split("(used at ")[1]  # only as where it is used
    overlay.write_text("name: opts\noptions:\n  wd4_guilty_returns_card: maybe\n")
    line = _one_line_error(["validate", str(overlay)])
    assert line.startswith(f"{overlay}:3:28: `if: option` needs a boolean option")


def test_hostile_authoring_inputs_end_in_one_line(tmp_path: Path) -> None:
    """The cases bench/hostile.py measures for time and memory, and their messages."""
    module = load_cases("authoring")
    module.RULES, module.REPEATS = 20, 30  # the same messages, sooner (the bench: all)
    cases = module.cases(tmp_path)
    assert [name for name, _, _ in cases] == list(module.EXPECT)
    for name, args, code in cases:
        result = runner.invoke(cli, args)
        assert result.exit_code == code, (name, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 + (name == "validate a folder linked to itself"), lines
        assert module.EXPECT[name].format(tmp=tmp_path) in lines[-1], (name, lines)


# ------------------------------------------------ exit codes that mean what they say
# (issue 14): user errors that used to be reported as bugs (exit 3). The files are in
# tests/hostile/exits/; bench/hostile_cases/exits.py measures the same cases.
EXITS = HERE / "hostile" / "exits"
LONG = "a" * 300  # longer than any file system allows a name


def _at(name: str) -> str:
    return str(EXITS / name)


@pytest.mark.parametrize(("args", "code", "expect"), [
    (["deck", "classic", "--house", _at("overlay_self.yaml")], 1,
     "overlay_self.yaml:2:8: house rule 'overlay_self.yaml' includes itself: "
     "overlay_self.yaml -> overlay_self.yaml"),
    (["validate", _at("overlay_cycle_a.yaml")], 1,
     "overlay_cycle_b.yaml:2:8: house rule 'overlay_cycle_a.yaml' includes itself: "
     "overlay_cycle_a.yaml -> overlay_cycle_b.yaml -> overlay_cycle_a.yaml"),
    (["validate", _at("includes_cycle.yaml")], 1, "includes itself"),
    (["validate", _at("extends_nul.yaml")], 1,
     "extends_nul.yaml:3:10: control character U+0000 is not allowed in YAML, even as an "
     "escape (at $.extends)"),  # refused as it is read, before it is a path
    (["validate", _at("extends_long.yaml")], 1,
     "extends_long.yaml:3:10: can't read 'aaaaaaaaaa"),
    (["validate", _at("extends_long.yaml")], 1, "... (305 characters): file name too long"),
    (["validate", _at("house_long.yaml")], 1, "house_long.yaml:4:8: can't read house rule"),
    (["validate", _at("house_nul.yaml")], 1,
     "house_nul.yaml:4:9: control character U+0000 is not allowed in YAML, even as an "
     "escape"),
    (["deck", "classic", "--house", "stacking\0.yaml"], 1,
     "can't read house rule 'stacking\\x00.yaml': the path contains a NUL byte"),
    (["validate", LONG], 1, "error: aaaaaaaaaa"),
    (["validate", LONG], 1, "... (300 characters): File name too long"),
    (["explain", LONG + ".yaml"], 1, "can't read file: file name too long"),
    (["diff", "classic", LONG], 1, "can't read file: file name too long"),
    (["validate", "--on", LONG, "stacking"], 1, "can't read file: file name too long"),
    (["deck", "classic", "--house", LONG], 1, "file name too long"),
    (["new", "x", "--from", LONG], 1, "--from"),
    (["new", "x", "-o", "/proc/x.yaml"], 1, "--output /proc/x.yaml: can't write it: "),
    (["scenario", _at("scenario_cycle.yaml")], 2,
     "scenario_cycle.yaml:2:1: rulebook 'includes_cycle.yaml': house rule "
     "'overlay_cycle_a.yaml' includes itself"),
    (["scenario", _at("scenario_long_name.yaml")], 2, "can't read file: file name too long"),
], ids=lambda x: " ".join(map(str, x))[:60] if isinstance(x, list) else None)
def test_user_errors_exit_1_or_2_in_one_line_never_3(args: list[str], code: int,
                                                      expect: str) -> None:
    line = _one_line_error(args, code)
    assert expect in line and "internal error" not in line, line


def test_a_symlink_loop_is_a_located_problem(tmp_path: Path) -> None:
    (tmp_path / "loop.yaml").symlink_to("loop.yaml")
    base = tmp_path / "base.yaml"
    base.write_text("name: x\nextends: loop.yaml\n")
    assert _one_line_error(["validate", str(base)]) == \
        f"{base}:2:10: can't read 'loop.yaml': a symlink loop (at $.extends)"
    overlay = tmp_path / "over.yaml"
    overlay.write_text("house: [loop.yaml]\n")
    assert "can't read house rule 'loop.yaml': a symlink loop" in \
        _one_line_error(["deck", "classic", "--house", str(overlay)])


def test_new_with_a_name_too_long_for_a_file(tmp_path: Path) -> None:
    line = _one_line_error(["new", LONG, "-o", str(tmp_path / f"{LONG}.yaml")])
    assert line.startswith("--output ") and " characters): can't write it: File name too " \
        "long" in line, line
    line = _one_line_error(["new", LONG], code=1)  # NAME.yaml in the current folder
    assert line.startswith("aaaaaaaaaa") and "can't write it: File name too long" in line


def test_a_huge_max_bytes_is_only_a_limit() -> None:
    result = runner.invoke(cli, ["--max-bytes", "1" + "0" * 30, "validate", "classic"])
    assert result.exit_code == 0 and "ok classic" in result.output, result.output


def test_card_points_beyond_a_float_simulate() -> None:
    result = runner.invoke(cli, ["simulate", _at("points_huge.yaml"), "--games", "20",
                                 "--json"])
    assert result.exit_code == 0, result.output
    mean = json.loads(result.output)["points"]["mean"]
    assert isinstance(mean, int) and mean > 10 ** 399  # exact, as an integer


@pytest.mark.parametrize("answer", ["²", "9" * 5000, "--1 play red 5", "١"])
def test_play_answers_that_are_not_numbers(answer: str) -> None:
    result = runner.invoke(cli, ["play", "classic", "--seed", "1"], input=f"{answer}\nq\n")
    assert result.exit_code == 0, result.output
    assert "or ? for help" in result.output and "bye" in result.output


def test_output_on_a_full_disk_is_one_line_exit_1() -> None:
    import subprocess
    import sys

    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    for args in (["explain", "classic"], ["list"], ["simulate", "classic", "--games", "2"]):
        with open("/dev/full", "w") as full:
            proc = subprocess.run([sys.executable, "-m", "uno_rules.cli", *args], stdout=full,
                                  stderr=subprocess.PIPE, text=True, timeout=120)
        assert proc.returncode == 1, (args, proc.stderr)
        assert proc.stderr.strip().splitlines() == [
            "error: can't write the output: No space left on device"], proc.stderr


def _scenario_folder(tmp_path: Path, malformed: bool) -> Path:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "a_good.yaml").write_text("rulebook: classic\nplayers: 2\nsteps: []\n")
    (folder / "b_failing.yaml").write_text("name: fails\nrulebook: classic\nplayers: 2\n"
                                           "steps: [{expect: {turn: 1}}]\n")
    if malformed:
        (folder / "c_malformed.yaml").write_text(f"rulebook: {LONG}.yaml\nplayers: 2\n"
                                                 "steps: []\n")
        (folder / "d_good.yaml").write_text("name: after\nrulebook: classic\nplayers: 3\n"
                                            "steps: []\n")
    return folder


def test_scenario_folder_reports_a_malformed_file_and_runs_the_rest(tmp_path: Path) -> None:
    folder = _scenario_folder(tmp_path, malformed=True)
    result = runner.invoke(cli, ["scenario", str(folder)])
    assert result.exit_code == 2, result.output  # the worst: a malformed file
    lines = result.output.strip().splitlines()
    assert "PASS a_good" in lines and "PASS after" in lines
    assert any(line.startswith("FAIL fails: step 1: expected turn 1") for line in lines)
    assert "2 passed, 1 failed; 1 malformed file(s)" in lines
    assert [line for line in lines if "c_malformed.yaml:1:1: rulebook" in line and
            "file name too long" in line]


def test_scenario_folder_without_malformed_files_exits_1_on_a_failure(tmp_path: Path) -> None:
    result = runner.invoke(cli, ["scenario", str(_scenario_folder(tmp_path, False))])
    assert result.exit_code == 1 and "1 passed, 1 failed" in result.output, result.output


def test_a_bug_in_one_scenario_file_is_exit_3_and_the_rest_still_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uno_rules.authoring.scenario

    folder = _scenario_folder(tmp_path, malformed=False)
    real = uno_rules.authoring.scenario.run_file

    def broken(path: str | Path, **options: Any) -> list[uno_rules.authoring.scenario.Outcome]:
        if Path(path).name == "a_good.yaml":
            raise KeyError("a bug")
        return real(path, **options)

    monkeypatch.setattr(uno_rules.authoring.scenario, "run_file", broken)
    result = runner.invoke(cli, ["scenario", str(folder)])
    assert result.exit_code == 3, result.output
    assert "FAIL fails" in result.output
    assert "a_good.yaml: internal error (a bug; please report it): KeyError" in result.output


# ------------------------------------------------------------- every game ends
def test_simulate_of_retriggering_cards_ends_each_game_stalled() -> None:
    result = runner.invoke(cli, ["simulate", _at("retrigger.yaml"), "--games", "2",
                                 "--players", "10", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["stalled"] == 2 and stats["stalled_reasons"] == {"steps": 2}
    text = runner.invoke(cli, ["simulate", _at("fat_hands.yaml"), "--games", "1",
                               "--players", "2", "--max-actions", "300"])
    assert text.exit_code == 0, text.output
    assert "stalled: 1 (1 used up the action budget)" in text.output
    assert "turns: mean 300.0" in text.output


def test_simulate_budget_options() -> None:
    result = runner.invoke(cli, ["simulate", "classic", "--games", "3", "--max-steps", "1",
                                 "--json"])
    assert json.loads(result.output)["stalled_reasons"] == {"steps": 3}
    bad = _one_line_error(["simulate", "classic", "--max-actions", "0"])
    assert "--max-actions" in bad


def test_simulate_json_has_no_new_keys_when_nothing_stalled() -> None:
    result = runner.invoke(cli, ["simulate", "classic", "--games", "5", "--json"])
    # The keys of before the statistics with confidence, in their order, then those (added
    # before "timing"); no stalled_reasons, no interrupted.
    assert list(json.loads(result.output)) == [
        "rulebook", "house", "games", "players", "seed", "policy", "wins_by_seat", "turns",
        "points", "stalled", "decided", "win_rate_by_seat", "first_player", "length",
        "points_per_round", "cards_drawn", "challenges", "metrics", "timing"]


@pytest.mark.parametrize("as_json", [True, False])
def test_ctrl_c_in_simulate_prints_the_games_finished_and_exits_130(as_json: bool) -> None:
    import signal
    import subprocess
    import sys
    import time

    args = [sys.executable, "-m", "uno_rules.cli", "simulate", "classic", "--games",
            "1000000000"] + (["--json"] if as_json else [])
    for wait in (2, 5, 15):  # until some games are done (a loaded machine starts slowly)
        with reaped(subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)) as proc:
            time.sleep(wait)
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=120)
        assert proc.returncode == 130, (out, err)
        if as_json:
            stats = json.loads(out)
            assert stats["interrupted"] is True and stats["games_requested"] == 1000000000
            if stats["games"] > 0:
                assert sum(stats["wins_by_seat"]) + stats["stalled"] == stats["games"]
                return
        else:
            first = out.splitlines()[0]
            assert first.startswith("classic: ") and "of 1000000000 games (interrupted)" in first
            if not first.startswith("classic: 0 of"):
                assert "wins by seat" in out
                return
    raise AssertionError("no game finished in 15 s")


def test_ctrl_c_outside_simulate_is_one_line_and_exits_130() -> None:
    """Ctrl-C in any other command (here `play` waiting for an answer): exactly one line,
    `interrupted`, on a stderr that is not a terminal (click's own Abort wrote an empty
    line first: two lines)."""
    import signal
    import subprocess
    import sys
    import time

    with reaped(subprocess.Popen([sys.executable, "-m", "uno_rules.cli", "play", "classic",
                                  "--seed", "1"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:  # wait for the first prompt's options
            if "draw" in line:
                break
        time.sleep(0.5)  # let it reach input()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and err == "interrupted\n", repr(err)


def test_a_closed_pipe_ends_quietly_with_exit_1() -> None:
    """The reader went away (`uno-rules schema | head -1`): nothing more to say to anyone,
    no traceback, no internal error."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "uno_rules.cli", "schema"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the first write
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 1 and err == "", err


def test_play_with_stdin_closed_quits() -> None:
    import os
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "uno_rules.cli", "play", "classic", "--seed",
                           "1"], capture_output=True, text=True, timeout=120,
                          preexec_fn=lambda: os.close(0))
    assert proc.returncode == 0 and proc.stdout.rstrip().endswith("bye"), proc
    assert proc.stderr == ""


def test_new_from_an_invalid_rulebook_reports_its_problem_not_the_output(
        tmp_path: Path) -> None:
    """`new --from BAD.yaml`: BAD's problem at its line, like any command loading it (it was
    '--output ...: can't write it: ...', blaming the file about to be written)."""
    base = tmp_path / "base.yaml"
    base.write_text("name: base\nextends: classic\nsettings: {hand_size: many}\n")
    out = tmp_path / "mine.yaml"
    line = _one_line_error(["new", "mine", "--from", str(base), "-o", str(out)])
    assert line.startswith(f"{base}:3:") and "can't write" not in line, line
    assert not out.exists()


def test_names_found_in_a_folder_print_on_one_line_without_terminal_escapes(
        tmp_path: Path) -> None:
    """A downloaded folder's file names (and a scenario's name) may hold a newline or an
    escape sequence: every output line shows them escaped, so one line stays one line."""
    folder = tmp_path / "got"
    folder.mkdir()
    (folder / "bad\x1b[2J\nx.yaml").write_text("name: x\nextends: nope\n")
    (folder / "good\x07\n.yaml").write_text("name: y\nextends: classic\n")
    result = runner.invoke(cli, ["validate", str(folder)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"ok {folder}/good\\x07\\n.yaml: y, 108 cards, 2-10 players",
        f"{folder}/bad\\x1b[2J\\nx.yaml:2:10: can't find rulebook 'nope' to extend "
        "(at $.extends)"], result.output
    scenario = tmp_path / "s.yaml"
    scenario.write_text('rulebook: classic\nplayers: 2\nscenarios:\n  - name: "two\\nlines"\n'
                        "    steps: [{expect: {turn: 1}}]\n")
    result = runner.invoke(cli, ["scenario", str(scenario)])
    assert result.exit_code == 1
    assert result.output.splitlines()[0].startswith("FAIL two\\nlines: step 1: "), result.output


@pytest.mark.parametrize(("command", "code"), [("validate", 1), ("scenario", 2)])
def test_a_folder_s_link_to_a_file_outside_it_is_not_read(tmp_path: Path, command: str,
                                                          code: int) -> None:
    """A downloaded folder may hold a symlink to a private file: `validate DIR` and
    `scenario DIR` quoted its values. A file named on the command line is still read."""
    secret = tmp_path / "secret.yaml"
    secret.write_text("name: s\ndb_password: hunter2\nplayers: {min: hunter3, max: 3}\n")
    folder = tmp_path / "downloaded"
    folder.mkdir()
    (folder / "rules.yaml").symlink_to(secret)
    (folder / "own.yaml").write_text("name: own\nextends: classic\n")
    (folder / "inside.yaml").symlink_to("own.yaml")  # a link within the folder is fine
    result = runner.invoke(cli, [command, str(folder)])
    assert result.exit_code == code, result.output
    assert "hunter" not in result.output and "db_password" not in result.output
    assert f"{folder}/rules.yaml:1:1: a link to a file outside {folder}, so not read (name " \
        "the file itself to read it)" in result.output, result.output
    if command == "validate":
        assert f"ok {folder}/inside.yaml: own" in result.output
    named = runner.invoke(cli, [command, str(folder / "rules.yaml")])
    # named by the user: read as any file (`scenario` tells a rulebook by its content)
    assert ("hunter" if command == "validate" else "not a scenario file") in named.output


@pytest.mark.parametrize(("setting", "message"), [
    ("hand_size=" + "x" * 5000, "--set hand_size=" + "x" * 60 + "... (5,000 characters): "
     "expected integer or a $option reference, got string '" + "x" * 60 + "... (5,000 "
     "characters)' (at $.settings.hand_size)"),
    ("x" * 5000 + "=1", "--set " + "x" * 60 + "... (5,000 characters)=1: unknown setting '"
     + "x" * 59 + "... (5,002 characters)"),
    ("hand_size=" + "[" * 3000, "--set hand_size=" + "[" * 60 + "... (3,000 characters): "
     "nested more than 64 levels deep"),
])
def test_a_long_set_value_is_echoed_short(setting: str, message: str) -> None:
    result = runner.invoke(cli, ["deck", "classic", "--set", setting])
    assert result.exit_code == 1
    assert result.output == message + "\n"


def test_the_hostile_long_card_scenario_fails_on_one_short_line() -> None:
    path = Path(__file__).parent / "hostile" / "api" / "long_card.yaml"
    result = runner.invoke(cli, ["scenario", str(path)])
    assert result.exit_code == 1
    short = "'red " + "9" * 56 + "... (5,004 characters)'"
    assert result.output == (f"FAIL long card: step 1: 0 play red {'9' * 56}... (5,004 "
                             f"characters): unknown card {short} in rulebook 'classic' "
                             f"({path}:6)\n0 passed, 1 failed\n")


def _without_timing(output: str) -> dict[str, Any]:
    out = json.loads(output)
    del out["timing"]
    return dict(out)


def test_simulate_json_statistics_with_confidence() -> None:
    result = runner.invoke(cli, ["simulate", "classic", "--games", "40", "--players", "3",
                                 "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert set(out["first_player"]) == {"count", "of", "rate", "low", "high", "fair",
                                        "advantage", "advantage_low", "advantage_high"}
    for r in out["win_rate_by_seat"]:
        assert r["low"] <= r["rate"] <= r["high"] and r["of"] == out["decided"] == 40
    turns = out["length"]["turns"]
    assert turns["low"] <= turns["mean"] <= turns["high"] and turns["n"] == 40
    assert sum(turns["histogram"]["counts"]) == 40
    assert set(out["metrics"]) == {"balance", "duration", "decisiveness"}
    for key in ("points_per_round", "cards_drawn"):
        assert set(out[key]) == {"n", "mean", "low", "high", "p50", "p95", "max"}
    again = runner.invoke(cli, ["simulate", "classic", "--games", "40", "--players", "3",
                                "--seed", "4", "--json"])
    assert _without_timing(again.output) == _without_timing(result.output)  # deterministic


def test_simulate_text_report_has_intervals() -> None:
    result = runner.invoke(cli, ["simulate", "classic", "--games", "30", "--seed", "2"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "wins by seat" in text and "turns: mean" in text  # the old lines stay
    assert re.search(r"seat 0: \d+\.\d% ± \d+\.\d \[\d+\.\d%, \d+\.\d%\]", text), text
    assert "first player (left of the dealer)" in text and "fair share 25.0%" in text
    assert re.search(r"round length: [\d.]+ ± [\d.]+ turns \(p50", text), text
    assert "balance " in text and "decisiveness " in text and "turns per round:" in text


def test_simulate_csv_one_row_per_game(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    args = ["simulate", "classic", "--games", "25", "--players", "4", "--seed", "9",
            "--json", "--csv", str(path)]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 25
    assert list(rows[0]) == ["seed", "winners", "points", "turns", "actions", "cards_drawn",
                             "challenges", "challenges_won", "first_player",
                             "runner_up_cards", "stalled"]
    wins = [0] * 4
    for row in rows:
        for w in row["winners"].split():
            wins[int(w)] += 1
    assert wins == out["wins_by_seat"]
    assert max(int(r["turns"]) for r in rows) == out["turns"]["max"]
    assert sum(int(r["points"]) for r in rows) / 25 == pytest.approx(out["points"]["mean"])
    first = path.read_bytes()
    assert runner.invoke(cli, args).exit_code == 0 and path.read_bytes() == first


def test_simulate_csv_of_stalled_games(tmp_path: Path) -> None:
    path = tmp_path / "stalled.csv"
    result = runner.invoke(cli, ["simulate", "classic", "--games", "3", "--max-actions", "2",
                                 "--csv", str(path)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))
    assert [(r["winners"], r["points"], r["stalled"]) for r in rows] == [("", "", "actions")] * 3
    assert "n/a (no decided rounds)" in result.output


@pytest.mark.parametrize(("where", "expect"), [
    ("missing/games.csv", "can't write it: No such file or directory"),
    ("a" * 300 + ".csv", "can't write it: File name too long"),
])
def test_simulate_bad_csv_path(tmp_path: Path, where: str, expect: str) -> None:
    line = _one_line_error(["simulate", "classic", "--games", "2", "--csv",
                            str(tmp_path / where)])
    assert line.startswith("--csv ") and line.endswith(expect), line


def test_simulate_csv_on_a_full_disk_or_a_folder(tmp_path: Path) -> None:
    if Path("/dev/full").exists():
        line = _one_line_error(["simulate", "classic", "--games", "400", "--csv", "/dev/full"])
        assert line == "--csv /dev/full: can't write it: No space left on device"
    line = _one_line_error(["simulate", "classic", "--games", "2", "--csv", str(tmp_path)])
    assert "is a directory" in line


def test_card_points_beyond_a_float_in_the_text_report(tmp_path: Path) -> None:
    result = runner.invoke(cli, ["simulate", _at("points_huge.yaml"), "--games", "20",
                                 "--csv", str(tmp_path / "h.csv")])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if "points per round" in x)
    assert re.match(r"  points per round: \d{400,} \(p50 \d+, p95 \d+, max \d{400,}\)$", line)
    rows = list(csv.DictReader((tmp_path / "h.csv").read_text().splitlines()))
    assert any(len(r["points"]) > 400 for r in rows)
