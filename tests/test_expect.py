"""The registry of a scenario's ``expect`` keys (uno_rules/authoring/expect.py): the schema
the runner validates with, the shipped schema file, the docs and the scenarios agree."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from uno_rules.authoring import scenario
from uno_rules.authoring.expect import EXPECTS, expect_schema
from uno_rules.load.resources import schema

ROOT = Path(__file__).resolve().parent.parent


def _expect_properties(scenario_schema: dict[str, Any]) -> dict[str, Any]:
    props: dict[str, Any] = scenario_schema["$defs"]["step"]["properties"]["expect"]["properties"]
    return props


def test_the_schema_file_names_the_registered_keys() -> None:
    assert _expect_properties(schema("scenario")) == expect_schema()


def test_the_runner_validates_with_the_registry() -> None:
    assert _expect_properties(dict(scenario._VALIDATOR.schema)) == expect_schema()
    assert list(expect_schema()) == list(EXPECTS)


def test_the_docs_name_every_key() -> None:
    text = (ROOT / "docs" / "scenarios.md").read_text()
    assert [k for k in EXPECTS if f"`{k}`" not in text] == []


def _expect_keys(node: Any) -> set[str]:
    if isinstance(node, dict):
        keys = set(node["expect"]) if isinstance(node.get("expect"), dict) else set()
        return keys.union(*(_expect_keys(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_expect_keys(v) for v in node))
    return set()


def test_every_key_is_checked_by_a_scenario() -> None:
    used: set[str] = set()
    for path in [*(ROOT / "tests" / "scenarios").rglob("*.yaml"),
                 *(ROOT / "tests" / "rulebooks").glob("*.scenarios.yaml"),
                 *(ROOT / "examples").glob("*scenarios.yaml")]:
        for doc in yaml.safe_load_all(path.read_text()):
            used |= _expect_keys(doc)
    assert sorted(set(EXPECTS) - used) == []
    assert sorted(used - set(EXPECTS)) == []


def test_an_unregistered_key_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("rulebook: classic\nplayers: 2\nname: x\nsteps: [{expect: {sides: 1}}]\n")
    try:
        scenario.run_file(f)
    except scenario.ScenarioError as exc:
        assert re.search(r"sides", str(exc))
    else:
        raise AssertionError("an unknown expect key was let through")
