"""Agent levels named for people (docs/play.md): easy, normal and hard are uniform, greedy
and lookahead under a second name, in the CLI, the web API and the page's picker; the old
names keep working and a level plays exactly as its agent does."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner
from web_client import local_client

import uno_rules
from uno_rules.cli import cli
from uno_rules.play.agents import AGENTS, LEVELS, load_agent, parse_agents, play_agents

ROOT = Path(__file__).resolve().parent.parent
WANT = {"easy": "uniform", "normal": "greedy", "hard": "lookahead"}


def test_each_level_is_its_agent_and_the_old_names_stay() -> None:
    assert WANT == LEVELS
    for level, name in WANT.items():
        assert load_agent(level) is load_agent(name) is AGENTS[name]
    assert [n for n, _ in parse_agents("easy,normal,hard,greedy", 4)] == [
        "easy", "normal", "hard", "greedy"]


def test_a_level_plays_the_rounds_its_agent_plays() -> None:
    rb = uno_rules.load_rulebook("classic")
    for level, name in (("easy", "uniform"), ("normal", "greedy")):
        by_level = play_agents(rb, 3, 4, [(level, load_agent(level))] * 3)
        by_name = play_agents(rb, 3, 4, [(name, load_agent(name))] * 3)
        assert by_level.history == by_name.history


def test_play_and_simulate_take_a_level() -> None:
    runner = CliRunner()
    played = runner.invoke(cli, ["play", "classic", "--players", "2", "--humans", "none",
                                 "--agents", "hard,easy", "--round", "--seed", "3"])
    assert played.exit_code == 0, played.output
    assert re.search(r"round 1 over|round over|wins", played.output)
    sim = runner.invoke(cli, ["simulate", "classic", "--players", "2", "--games", "4",
                              "--agents", "normal", "--json", "-q"])
    assert sim.exit_code == 0, sim.output
    assert json.loads(sim.output)["agents"] == ["normal", "normal"]
    bad = runner.invoke(cli, ["play", "classic", "--agents", "expert", "--humans", "none"])
    assert bad.exit_code == 1 and "unknown agent 'expert'" in bad.output
    assert "easy, normal, hard" in runner.invoke(cli, ["play", "--help"]).output


def test_the_web_api_and_the_page_picker_take_a_level(tmp_path: Path) -> None:
    with local_client(tmp_path) as c:
        made = c.post("/api/games", json={"rulebook": "classic", "players": 3, "humans": [0],
                                          "agents": "hard,easy,normal", "round": True,
                                          "seed": 2})
        assert made.status_code == 201, made.text
        assert made.json()["seats"] == ["human", "easy", "normal"]
    page = (ROOT / "uno_rules" / "web" / "static" / "index.html").read_text(encoding="utf-8")
    assert 'id="play-agents" value="normal"' in page
    for level, name in WANT.items():
        assert f'<option value="{level}" label="{level}: ' in page and name in page
