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
        self.house: list[str] = []                   # overlays merged in, in order
        self.conflicts: dict[str, list[str]] = {}    # each overlay's declared conflicts

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


MAX_NODES = 200_000  # aliases can make a small file expand enormously ("billion laughs")


class _Builder:
    """Builds plain data from a composed YAML node tree, recording every position."""

    def __init__(self, file: str, problems: list[Problem]):
        self.file, self.problems = file, problems
        self.positions: dict[PathKey, Pos] = {}
        self.active: set[int] = set()   # nodes being built: an alias back to one recurses
        self.count = 0

    def fail(self, node: yaml.Node, path: PathKey, message: str) -> None:
        mark = node.start_mark
        self.problems.append(Problem(self.file, mark.line + 1, mark.column + 1, message,
                                     json_path(path)))

    def build(self, node: yaml.Node, path: PathKey, record: bool = True) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            if self.count == MAX_NODES + 1:
                self.fail(node, path, f"the document expands to more than {MAX_NODES} values "
                                      "(through aliases?)")
            return None
        if record:
            self.positions[path] = (self.file, node.start_mark.line + 1,
                                    node.start_mark.column + 1)
        if isinstance(node, yaml.ScalarNode):
            return _scalar(node)
        if id(node) in self.active:
            self.fail(node, path, "an alias refers to a value that contains it")
            return None
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.build(v, path + (i,)) for i, v in enumerate(node.value)]
            return self.mapping(node, path)
        finally:
            self.active.discard(id(node))

    def mapping(self, node: yaml.MappingNode, path: PathKey) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if self.count > MAX_NODES:
                break
            key = self.build(key_node, path, record=False)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                self.fail(key_node, path, "mapping keys must be plain scalars")
                continue
            key = str(key) if not isinstance(key, str) else key
            if key in out:
                self.fail(key_node, path + (key,), f"duplicate key '{key}'")
            self.positions[("#key",) + path + (key,)] = (
                self.file, key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = self.build(value_node, path + (key,))
        return out


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
    builder = _Builder(file, problems)
    data = builder.build(node, ())
    return Located(data, builder.positions, file), problems


def load_file(path: str | Path) -> tuple[Located | None, list[Problem]]:
    """Read and parse a YAML file (a missing or unreadable file is a problem, not a crash)."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Problem(name, 1, 1, f"can't read file: {exc.strerror or exc}")]
    return load_text(text, name)


def load_value(text: str) -> Any:
    """Read one YAML value given on the command line (``5``, ``true``, ``[a, b]``) with the
    same limits as a file; raises ``ValueError`` with a one-line message."""
    located, problems = load_text(text, "value")
    if problems or located is None:
        raise ValueError(problems[0].message if problems else "can't read the value")
    return located.data
