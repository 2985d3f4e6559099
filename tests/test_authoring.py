"""Authoring helpers: the `new` template and `diff` (more in test_explain.py)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

import uno_rules
from uno_rules.authoring.variants import diff, starter
from uno_rules.load.loader import check

HERE = Path(__file__).resolve().parent


def _blocks(text: str) -> list[list[int]]:
    """The template's commented YAML blocks: in each run of comment lines after
    `extends:`, the lines from the first commented key (`# deck:`) on, by line index."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("extends:"))
    blocks: list[list[int]] = []
    current: list[int] | None = None
    for i in range(start + 1, len(lines)):
        if not lines[i].startswith("#"):
            current = None
        elif current is None and re.match(r"# [a-z_]+:", lines[i]):
            current = [i]
            blocks.append(current)
        elif current is not None:
            current.append(i)
    return blocks


@pytest.mark.parametrize("base", ["classic", "flip", "teams"])  # one side, two, no +4
def test_any_combination_of_the_template_blocks_validates(tmp_path: Path, base: str) -> None:
    text = starter("mine", base, tmp_path)
    blocks = _blocks(text)
    assert len(blocks) == 4  # settings, house, deck, cards
    lines = text.splitlines()
    for n in range(len(blocks) + 1):
        for chosen in itertools.combinations(blocks, n):
            out = list(lines)
            for i in itertools.chain(*chosen):
                out[i] = lines[i][2:]  # remove "# "
            path = tmp_path / "mine.yaml"
            path.write_text("\n".join(out) + "\n", encoding="utf-8")
            rulebook, problems = check(path)
            assert rulebook is not None, (n, [str(p) for p in problems])
            if any("ranks: [my_card]" in lines[i] for i in itertools.chain(*chosen)):
                assert any(f.rank == rulebook.ranks.index("my_card") for f in rulebook.faces)


def test_uncommenting_everything_adds_a_card_with_its_effect(tmp_path: Path) -> None:
    text = starter("mine", "classic", tmp_path)
    lines = text.splitlines()
    for i in itertools.chain(*_blocks(text)):
        lines[i] = lines[i][2:]
    path = tmp_path / "mine.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rulebook = uno_rules.load_rulebook(path)
    assert rulebook.deck_counts()["red my_card"] == 2 and rulebook.house == ("stacking",)
    assert "my_card" in diff(uno_rules.load_rulebook("classic"), rulebook)


def test_diff_prints_yaml_values() -> None:
    classic = uno_rules.load_rulebook("classic")
    variant = uno_rules.load_rulebook("classic", house=["stacking", "jump_in"],
                                      settings={"stack_mixing": True})
    text = diff(classic, variant)
    assert "- changed **jump_in**: false → true" in text
    assert "- added **stack_mixing**: true" in text
    assert "True" not in text and "False" not in text and "None" not in text


def test_the_template_lists_its_commands_in_one_column(tmp_path: Path) -> None:
    text = starter("a_long_name", "classic", tmp_path)
    usage = [line for line in text.splitlines() if line.startswith("#   uno-rules ")]
    assert len(usage) == 4 and "#   uno-rules diff classic a_long_name.yaml  " in text
    starts = {m.start(1) for line in usage if (m := re.search(r"\S  +(\S)", line))}
    assert len(starts) == 1
    # its sheet doesn't describe it as the rulebook it extends
    path = tmp_path / "a_long_name.yaml"
    path.write_text(text, encoding="utf-8")
    assert uno_rules.load_rulebook(path).description == "A variant of classic."
