"""YAML reading that keeps the line and column of every value, for located error messages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import Problem

Pos = tuple[str, int, int]  # file, line (1-based), column (1-based)
PathKey = tuple[Any, ...]


def json_path(path: PathKey) -> str:
    """Render a path tuple as a JSON path such as ``$.cards.skip.effect[0]``."""
    out = "$"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


class Located:
    """Parsed YAML data plus the position of every node, keyed by path tuple."""

    def __init__(self, data: Any, positions: dict[PathKey, Pos], file: str):
        self.data = data
        self.positions = positions
        self.file = file

    def pos(self, path: PathKey) -> Pos:
        """The position of the deepest known node on ``path``."""
        path = tuple(path)
        while path not in self.positions and path:
            path = path[:-1]
        return self.positions.get(path, (self.file, 1, 1))

    def key_pos(self, path: PathKey) -> Pos:
        """The position of the mapping key that ends ``path`` (falls back to its value)."""
        return self.positions.get(("#key",) + tuple(path)) or self.pos(path)

    def problem(self, path: PathKey, message: str, at_key: bool = False) -> Problem:
        file, line, col = self.key_pos(path) if at_key else self.pos(path)
        return Problem(file, line, col, message, json_path(path))


def _build(node: yaml.Node, path: PathKey, file: str, positions: dict, problems: list) -> Any:
    positions[path] = (file, node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _build(key_node, ("#tmp",), file, {}, problems)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                mark = key_node.start_mark
                problems.append(Problem(file, mark.line + 1, mark.column + 1,
                                        "mapping keys must be plain scalars", _jp(path)))
                continue
            key = str(key) if not isinstance(key, str) else key
            if key in out:
                mark = key_node.start_mark
                problems.append(Problem(file, mark.line + 1, mark.column + 1,
                                        f"duplicate key '{key}'", _jp(path + (key,))))
            positions[("#key",) + path + (key,)] = (
                file, key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = _build(value_node, path + (key,), file, positions, problems)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(v, path + (i,), file, positions, problems) for i, v in enumerate(node.value)]
    return _scalar(node)


def _jp(path: PathKey) -> str:
    return json_path(path)


def _scalar(node: yaml.ScalarNode) -> Any:
    # PyYAML has no public "construct one scalar" call; resolve through a throwaway loader.
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()


def load_text(text: str, file: str) -> tuple[Located | None, list[Problem]]:
    """Parse YAML text. Returns the located data (or None) and the problems found."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        msg = " ".join(str(x) for x in (exc.context, exc.problem) if x)
        return None, [Problem(file, line, col, f"YAML syntax error: {msg}")]
    except yaml.YAMLError as exc:  # pragma: no cover - non-marked errors are rare
        return None, [Problem(file, 1, 1, f"YAML error: {exc}")]
    if node is None:
        return Located({}, {(): (file, 1, 1)}, file), [Problem(file, 1, 1, "the file is empty")]
    problems: list[Problem] = []
    positions: dict[PathKey, Pos] = {}
    data = _build(node, (), file, positions, problems)
    return Located(data, positions, file), problems


def load_file(path: str | Path) -> tuple[Located | None, list[Problem]]:
    """Read and parse a YAML file (a missing or unreadable file is a problem, not a crash)."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Problem(name, 1, 1, f"can't read file: {exc.strerror or exc}")]
    return load_text(text, name)
