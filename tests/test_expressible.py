"""docs/expressible.md runs as written.

Every YAML block of the page is marked in its fence: ```` ```yaml rulebook ```` is a whole
rulebook file (most extend a shipped rulebook) that must load with no problem, written
beside the others as ``<its name>.yaml``; ```` ```yaml scenario ```` is a scenario file,
naming a shipped rulebook or a rulebook block above it, whose every scenario must pass.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from uno_rules.authoring.scenario import run_file
from uno_rules.engine.errors import RulebookError, ScenarioError
from uno_rules.load.loader import check

PAGE = Path(__file__).resolve().parent.parent / "docs" / "expressible.md"
FENCE = re.compile(r"^```(\S*)[ \t]*(.*?)\n(.*?)^```[ \t]*$", re.M | re.S)
KINDS = ("rulebook", "scenario")


def blocks(text: str) -> list[tuple[int, str, str]]:
    """The page's YAML blocks: (line, kind, body); a block marked otherwise is an error."""
    found = []
    for m in FENCE.finditer(text):
        lang, kind, body = m.groups()
        line = text.count("\n", 0, m.start()) + 1
        if lang in ("yaml", "yml"):
            assert kind in KINDS, f"line {line}: a yaml block is marked `rulebook` or `scenario`"
            found.append((line, kind, body))
    return found


def failures(text: str, folder: Path) -> list[str]:
    """Each block run in order in ``folder``: what failed, one line each."""
    out: list[str] = []
    for line, kind, body in blocks(text):
        if kind == "rulebook":
            path = folder / f"{yaml.safe_load(body)['name']}.yaml"
            path.write_text(body, encoding="utf-8")
            _, problems = check(path)
            out += [f"line {line}: {p}" for p in problems]
        else:
            path = folder / f"scenario_{line}.yaml"
            path.write_text(body, encoding="utf-8")
            try:
                outcomes = run_file(path)
            except (ScenarioError, RulebookError) as exc:  # a malformed file: one failure
                out.append(f"line {line}: {exc}")
                continue
            out += [f"line {line}: no scenario"] if not outcomes else []
            out += [f"line {line}: {o}" for o in outcomes if not o.passed]
    return out


def test_every_example_of_the_page_loads_and_passes(tmp_path: Path) -> None:
    assert failures(PAGE.read_text(encoding="utf-8"), tmp_path) == []


def test_every_capability_has_an_example_and_a_scenario() -> None:
    """Each ``###`` section of "What can be written" shows a rulebook or scenario block, and
    the page as a whole runs scenarios, not only loads rulebooks."""
    text = PAGE.read_text(encoding="utf-8")
    can = text.split("\n## What can be written", 1)[1].split("\n## ", 1)[0]
    sections = re.split(r"^### ", can, flags=re.M)[1:]
    assert len(sections) >= 15
    for section in sections:
        assert blocks(section), f"no example under '### {section.splitlines()[0]}'"
    kinds = [kind for _, kind, _ in blocks(text)]
    assert kinds.count("scenario") >= 15 and kinds.count("rulebook") >= 10


def test_the_cannot_list_names_its_workarounds() -> None:
    text = PAGE.read_text(encoding="utf-8")
    cannot = text.split("\n## What can't be written yet", 1)[1].split("\n## ", 1)[0]
    items = re.findall(r"^### (.+)$", cannot, flags=re.M)
    assert len(items) >= 6
    for part in re.split(r"^### ", cannot, flags=re.M)[1:]:
        assert "Workaround" in part, part.splitlines()[0]


BAD = """
```yaml rulebook
name: bad
extends: classic
settings: {hand_sise: 8}
```

```yaml scenario
rulebook: classic
players: 2
name: wrong
state:
  hands: [[red 1, red 2], [blue 1]]
  discard: [red 3]
steps:
  - {seat: 0, play: red 1}
  - expect: {turn: 0}
```
"""


def test_the_runner_catches_a_bad_example(tmp_path: Path) -> None:
    found = failures(BAD, tmp_path)
    assert len(found) == 2, found
    assert found[0].startswith("line 2: ") and "hand_sise" in found[0]
    assert found[1].startswith("line 8: ") and "expected turn 0" in found[1]
    with pytest.raises(AssertionError, match="marked"):
        blocks("```yaml\nname: x\n```\n")
