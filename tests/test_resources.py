"""Finding files: shipped names, and which files a rulebook, overlay, scenario or snapshot may
name (`resources.allowed`): shipped ones and those under the naming file's folder, symlinks
resolved, unless the caller trusts a folder (root=, --root). The hostile inputs are in
tests/hostile/confine/: a planted secret, and files that name it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import uno_rules
from uno_rules.authoring.scenario import run_file, run_paths
from uno_rules.cli import cli
from uno_rules.load.loader import check
from uno_rules.load.resources import ROOT, allowed, find, house_dir, rulebooks_dir

HERE = Path(__file__).resolve().parent
CONFINE = HERE / "hostile" / "confine"
SECRETS = ("hunter2", "db_password")   # the planted file's value and key
OUTSIDE = "outside this file's folder"
runner = CliRunner()


# ------------------------------------------------------------------ allowed()
def test_shipped_files_are_allowed_from_anywhere(tmp_path: Path) -> None:
    assert allowed(find("classic"), tmp_path)
    assert allowed(find("stacking", overlay=True), tmp_path)
    assert allowed(rulebooks_dir() / "house" / ".." / "teams.yaml", tmp_path)
    assert not allowed(house_dir() / ".." / ".." / "__init__.py", tmp_path)  # the package


def test_files_under_the_folder_are_allowed_and_nothing_else(tmp_path: Path) -> None:
    folder = tmp_path / "rules"
    (folder / "sub").mkdir(parents=True)
    assert allowed(folder / "a.yaml", folder)
    assert allowed(folder / "sub" / ".." / "sub" / "b.yaml", folder)
    assert allowed(folder / "missing" / "c.yaml", folder)  # decided without looking
    assert not allowed(folder / ".." / "secret.yaml", folder)
    assert not allowed(tmp_path / "secret.yaml", folder)
    assert not allowed(Path("/etc/passwd"), folder)
    assert not allowed(tmp_path / "rules2" / "x.yaml", folder)  # a prefix is not a parent
    assert not allowed(folder / "a\0.yaml", folder)  # a NUL byte: no file has that name


def test_symlinks_are_resolved(tmp_path: Path) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    (tmp_path / "secret.yaml").write_text("db_password: hunter2\n")
    (folder / "out.yaml").symlink_to("../secret.yaml")
    (folder / "dir").symlink_to(tmp_path)
    (folder / "own.yaml").write_text("title: own\n")
    (folder / "in.yaml").symlink_to("own.yaml")
    assert not allowed(folder / "out.yaml", folder)  # a link inside pointing outside
    assert not allowed(folder / "dir" / "secret.yaml", folder)
    assert allowed(folder / "in.yaml", folder)
    linked = tmp_path / "linked"
    linked.symlink_to(folder)  # the folder itself named through a link
    assert allowed(linked / "own.yaml", linked) and not allowed(linked / "out.yaml", linked)


def test_a_root_trusts_its_folder(tmp_path: Path) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    token = ROOT.set(tmp_path)
    try:
        assert allowed(tmp_path / "secret.yaml", folder)
        assert not allowed(Path("/etc/passwd"), folder)
    finally:
        ROOT.reset(token)
    token = ROOT.set(Path("/"))
    try:
        assert allowed(Path("/etc/passwd"), folder)
    finally:
        ROOT.reset(token)
    assert not allowed(tmp_path / "secret.yaml", folder)  # reset after the call


# ------------------------------------------------------------------ the planted secret
def _header(path: Path, key: str) -> str:
    match = re.search(rf"^# {key}: (.*)$", path.read_text(), re.M)
    assert match, path
    return match.group(1)


@pytest.mark.parametrize("name", ["extends", "house", "overlay", "scenario", "scenario_house"])
def test_hostile_files_name_the_secret_and_are_refused(name: str) -> None:
    path = CONFINE / "rules" / f"{name}.yaml"
    code = int(_header(path, "exit"))
    args = (["scenario", str(path)] if code == 2 else
            ["deck", "classic", "--house", str(path)] if name == "overlay" else
            ["validate", str(path)])
    result = runner.invoke(cli, args)
    assert result.exit_code == code, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}:{_header(path, 'expect')}"), lines
    assert not any(s in result.output for s in SECRETS)


def test_many_refused_entries_are_one_problem(tmp_path: Path) -> None:
    """bench/hostile_cases/confine.py times 5,000 of them."""
    path = tmp_path / "rb.yaml"
    path.write_text("name: evil\nextends: classic\nhouse:\n  - stacking\n"
                    + "".join(f"  - ../x{i}.yaml\n" for i in range(300)))
    rb, problems = check(path)
    assert rb is None and [str(p) for p in problems] == [
        f"{path}:5:5: house '../x0.yaml' and 299 more: {OUTSIDE}, so not read (a file may "
        "name shipped rulebooks and overlays, and files under its own folder; --root DIR or "
        "root=DIR trusts a folder) (at $.house[1])"]


def test_files_under_the_folder_load() -> None:
    rb = uno_rules.load_rulebook(CONFINE / "rules" / "inside.yaml")
    assert (rb.settings.hand_size, rb.settings.uno_penalty) == (6, 4)
    assert rb.house == ("sub/own.yaml",)


def _plant(tmp: Path, how: str) -> tuple[Path, str]:
    """A secret outside tmp/rules, and how a file in tmp/rules names it."""
    (tmp / "rules").mkdir()
    secret = tmp / "secret.yaml"
    secret.write_text("db_password: hunter2\nsettings: {hand_size: hunter2}\n")
    if how == "symlink":
        (tmp / "rules" / "conf.yaml").symlink_to(secret)
        return tmp / "rules", "conf.yaml"
    return tmp / "rules", "../secret.yaml" if how == "relative" else str(secret)


VIA = {  # what names the secret: (file, its text with REF, command, exit code, position)
    "extends": ("rb.yaml", "name: evil\nextends: REF\n", ["validate"], 1, ":2:1:"),
    "rulebook house:": ("rb.yaml", "name: evil\nextends: classic\nhouse: [REF]\n",
                        ["validate"], 1, ":3:9:"),
    "overlay house:": ("overlay.yaml", "title: evil\nhouse: [REF]\n",
                       ["deck", "classic", "--house"], 1, ":2:9:"),
    "scenario rulebook:": ("s.yaml", "rulebook: REF\nplayers: 2\nname: x\nsteps: []\n",
                           ["scenario"], 2, ":1:1:"),
    "scenario house:": ("s.yaml", "rulebook: classic\nhouse: [REF]\nplayers: 2\nname: x\n"
                        "steps: []\n", ["scenario"], 2, ":2:9:"),
}


@pytest.mark.parametrize("how", ["relative", "absolute", "symlink"])
@pytest.mark.parametrize("via", list(VIA))
def test_a_planted_secret_is_never_read(tmp_path: Path, how: str, via: str) -> None:
    folder, ref = _plant(tmp_path, how)
    name, text, command, code, where = VIA[via]
    path = folder / name
    path.write_text(text.replace("REF", ref))
    result = runner.invoke(cli, [*command, str(path)])
    assert result.exit_code == code, result.output
    [line] = result.output.strip().splitlines()
    assert line.startswith(f"{path}{where}") and OUTSIDE in line, line
    assert not any(s in result.output for s in SECRETS), result.output
    # Control: trusting the folder above (the opt-out), the same input does read the
    # secret, and its errors quote it - which is what the refusal above prevents.
    trusted = runner.invoke(cli, ["--root", str(tmp_path), *command, str(path)])
    assert trusted.exit_code == code, trusted.output
    assert any(s in trusted.output for s in SECRETS), trusted.output


@pytest.mark.parametrize("how", ["relative", "absolute", "symlink"])
def test_a_snapshot_naming_the_secret_is_refused(tmp_path: Path, how: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    folder, ref = _plant(tmp_path, how)
    monkeypatch.chdir(folder)  # the default root: the working directory
    snapshot = uno_rules.load_rulebook("classic").new_game(2, 1).snapshot()
    for field, value in [("source", ref), ("house", [ref])]:
        with pytest.raises(uno_rules.SnapshotError) as info:
            uno_rules.restore({**snapshot, field: value})
        message = str(info.value)
        assert f"snapshot {field} {ref!r} is neither a shipped name nor a file under" in message
        assert not any(s in message for s in SECRETS), message
    # trusted explicitly, it is read - and still not quoted: the snapshot named it, not the
    # user; the error says where its problems are
    with pytest.raises(uno_rules.SnapshotError, match=r"problem\(s\) in its files, the first "
                       r"at .*(secret|conf).yaml:\d+:\d+") as info:
        uno_rules.restore({**snapshot, "source": ref}, root=tmp_path)
    assert not any(s in str(info.value) for s in SECRETS), info.value


def test_a_snapshot_naming_a_file_of_the_working_directory_quotes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "conf.yaml").write_text("db_password: hunter2\n")
    monkeypatch.chdir(tmp_path)  # under the default root, so it is read
    snapshot = uno_rules.load_rulebook("classic").new_game(2, 1).snapshot()
    for field, value in [("source", "conf.yaml"), ("house", ["conf.yaml"])]:
        with pytest.raises(uno_rules.SnapshotError, match="conf.yaml:") as info:
            uno_rules.restore({**snapshot, field: value})
        assert not any(s in str(info.value) for s in SECRETS), info.value
    with pytest.raises(uno_rules.SnapshotError, match="hand_size=x"):  # its own values: whole
        uno_rules.restore({**snapshot, "set": {"hand_size": "x"}})


def test_a_snapshot_of_a_rulebook_under_the_working_directory_restores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rules").mkdir()
    shutil.copy(CONFINE / "rules" / "sub" / "base.yaml", tmp_path / "rules" / "base.yaml")
    monkeypatch.chdir(tmp_path)
    game = uno_rules.load_rulebook("rules/base.yaml").new_game(3, 5)
    snapshot = game.snapshot()
    assert uno_rules.restore(snapshot).snapshot() == snapshot
    monkeypatch.chdir(tmp_path / "rules")  # now the relative source names nothing here
    with pytest.raises(uno_rules.SnapshotError, match="can't load"):
        uno_rules.restore(snapshot)
    absolute = {**snapshot, "source": str(tmp_path / "rules" / "base.yaml")}
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    with pytest.raises(uno_rules.SnapshotError, match="neither a shipped name"):
        uno_rules.restore(absolute)
    assert uno_rules.restore(absolute, root=tmp_path).snapshot() == absolute


# ------------------------------------------------------------------ opting out
def test_load_rulebook_root_trusts_a_folder(tmp_path: Path) -> None:
    folder, ref = _plant(tmp_path, "relative")
    (tmp_path / "base.yaml").write_text("name: base\nextends: classic\n")
    (folder / "rb.yaml").write_text("name: rb\nextends: ../base.yaml\n")
    with pytest.raises(uno_rules.RulebookError, match=OUTSIDE):
        uno_rules.load_rulebook(folder / "rb.yaml")
    assert uno_rules.load_rulebook(folder / "rb.yaml", root=tmp_path).name == "rb"
    assert uno_rules.load_rulebook(folder / "rb.yaml", root="/").name == "rb"
    with pytest.raises(uno_rules.RulebookError, match=OUTSIDE):  # only for that call
        uno_rules.load_rulebook(folder / "rb.yaml")
    with pytest.raises(uno_rules.RulebookError, match=OUTSIDE):  # a root elsewhere
        uno_rules.load_rulebook(folder / "rb.yaml", root=folder)


def test_arguments_are_trusted_what_they_name_is_not(tmp_path: Path) -> None:
    folder, _ = _plant(tmp_path, "relative")
    overlay = tmp_path / "own.yaml"
    overlay.write_text("settings: {uno_penalty: 4}\n")
    # a rulebook or overlay the caller names may be anywhere
    assert uno_rules.load_rulebook("classic", house=[str(overlay)]).settings.uno_penalty == 4
    rb, problems = check(tmp_path / "secret.yaml")
    assert rb is None and any("hunter2" in str(p) for p in problems)  # named: its own errors


def test_scenario_runs_take_a_root(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "base.yaml").write_text("name: base\nextends: classic\n")
    scenario = tmp_path / "rules" / "s.yaml"
    scenario.write_text("rulebook: ../base.yaml\nplayers: 2\nname: x\nsteps: []\n")
    with pytest.raises(uno_rules.ScenarioError, match=OUTSIDE):
        run_file(scenario)
    assert [o.passed for o in run_paths([tmp_path / "rules"], root=tmp_path)] == [True]
    assert runner.invoke(cli, ["--root", str(tmp_path), "scenario", str(scenario)]).exit_code == 0
    assert runner.invoke(cli, ["scenario", str(scenario)]).exit_code == 2


def test_scenario_house_paths_resolve_from_the_scenario_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`house:` paths in a scenario resolve from its folder, as `rulebook:` does (not from
    the working directory)."""
    (tmp_path / "tests" / "house").mkdir(parents=True)
    (tmp_path / "tests" / "house" / "penalty.yaml").write_text("settings: {uno_penalty: 4}\n")
    scenario = tmp_path / "tests" / "s.yaml"
    scenario.write_text("rulebook: classic\nhouse: [house/penalty.yaml]\nplayers: 2\nname: x\n"
                        "state: {hands: [[red 1, red 2], [blue 1]], discard: [red 3],"
                        " draw_pile: [green 1, green 2, green 3, green 4, green 5]}\n"
                        "steps:\n  - {seat: 0, play: red 1, uno: false}\n"
                        "  - {seat: 1, catch: 0}\n  - expect: {hand_sizes: [5, 1]}\n")
    monkeypatch.chdir(tmp_path)  # not the scenario's folder
    assert [str(o) for o in run_file("tests/s.yaml")] == ["PASS x"]


def test_new_refuses_a_base_its_rulebook_could_not_extend(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "base.yaml").write_text("name: base\nextends: classic\n")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    result = runner.invoke(cli, ["new", "mine", "--from", "../base.yaml"])
    assert result.exit_code == 1 and "outside the folder of mine.yaml" in result.output
    assert not (tmp_path / "sub" / "mine.yaml").exists()
    result = runner.invoke(cli, ["new", "mine", "--from", "../base.yaml", "-o", "../mine.yaml"])
    assert result.exit_code == 0, result.output
    assert runner.invoke(cli, ["validate", "../mine.yaml"]).exit_code == 0


# ------------------------------------------------------------------ what ships still loads
def test_everything_shipped_loads_with_the_default_confinement() -> None:
    root = HERE.parent
    for name in uno_rules.load.loader.shipped_names():
        uno_rules.load_rulebook(name)
    for name in uno_rules.load.loader.house_names():
        uno_rules.load_rulebook("classic", house=[name])
    for path in [*sorted((HERE / "rulebooks" / "positive").glob("*.yaml")),
                 root / "examples" / "lightning.yaml", root / "examples" / "two_piles.yaml"]:
        uno_rules.load_rulebook(path)
    scenarios = [*sorted((HERE / "scenarios").rglob("*.yaml")),
                 *sorted((HERE / "rulebooks").glob("*.scenarios.yaml")),
                 *sorted((root / "examples").glob("*scenarios*.yaml"))]
    outcomes = run_paths(scenarios)
    assert outcomes and all(o.passed for o in outcomes)
    assert len({o.file for o in outcomes}) == len(scenarios)
