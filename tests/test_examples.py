"""The README's and examples/' Python code runs as shown."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_embed_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(ROOT / "examples" / "embed.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert re.search(r"Result\(winners=\(\d,\), points=\d+\)", out)


def test_readme_python_blocks_run(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102 - our own documentation
    assert "Result(winners=" in capsys.readouterr().out
