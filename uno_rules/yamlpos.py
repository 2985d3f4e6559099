"""YAML reading that keeps the line and column of every value, for located error messages."""

from __future__ import annotations

import copy
import hashlib
import os
import re
import stat
import sys
from contextvars import ContextVar
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
        self.set_by: dict[PathKey, str] = {}         # values an overlay set: which one

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


MAX_NODES = 20_000   # aliases can make a small file expand enormously ("billion laughs");
                     # a shipped rulebook has a few hundred values
MAX_DEPTH = 64       # nesting; a real rulebook nests a dozen levels
# The largest file read, in bytes; checked before reading. load_rulebook(max_bytes=...) and
# the command line's --max-bytes change it for one call.
MAX_BYTES: ContextVar[int] = ContextVar("MAX_BYTES", default=1 << 20)


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
        if len(path) > MAX_DEPTH:
            self.fail(node, path, f"nested more than {MAX_DEPTH} levels deep")
            return None
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
            try:
                return _scalar(node)
            except (yaml.YAMLError, ValueError) as exc:
                self.fail(node, path, _scalar_problem(node, exc))
                return None
        if node.tag not in (_SEQ, _MAP):
            self.fail(node, path, f"unsupported YAML tag {node.tag!r}")
            return None
        if id(node) in self.active:
            self.fail(node, path, "an alias refers to a value that contains it")
            return None
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.MappingNode):
                return self.mapping(node, path)
            return [self.build(v, path + (i,)) for i, v in enumerate(node.value)]  # a sequence
        finally:
            self.active.discard(id(node))

    def mapping(self, node: yaml.MappingNode, path: PathKey) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if self.count > MAX_NODES:
                break
            found = len(self.problems)
            key = self.build(key_node, path, record=False)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                if len(self.problems) == found:  # not already reported
                    self.fail(key_node, path, "mapping keys must be plain scalars")
                continue
            key = str(key) if not isinstance(key, str) else key
            if key in out:
                self.fail(key_node, path + (key,), f"duplicate key '{key}'")
            self.positions[("#key",) + path + (key,)] = (
                self.file, key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = self.build(value_node, path + (key,))
        return out


_SEQ, _MAP = "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"


def _scalar_problem(node: yaml.ScalarNode, exc: Exception) -> str:
    """Why a scalar can't be read, in one line."""
    if node.tag == "tag:yaml.org,2002:merge":
        return "merge keys (<<) are not supported: write the keys out"
    if isinstance(exc, ValueError):  # Python's limit on digits
        return f"a number with {len(node.value)} digits is too long"
    return f"unsupported YAML tag {node.tag!r}"


def _scalar(node: yaml.ScalarNode) -> Any:
    # PyYAML has no public "construct one scalar" call; resolve through a throwaway loader.
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()


def load_text(text: str, file: str) -> tuple[Located | None, list[Problem]]:
    """Parse YAML text. Returns the located data (or None) and the problems found."""
    if _flow_depth(text) > MAX_DEPTH:  # PyYAML scans deep flow nesting in quadratic time
        return None, [Problem(file, 1, 1, f"nested more than {MAX_DEPTH} levels deep")]
    # PyYAML composes recursively: a low recursion limit stops absurd nesting early (what
    # is allowed is checked, located, by the builder).
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(min(limit, _depth() + 40 * MAX_DEPTH))
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except RecursionError:
        return None, [Problem(file, 1, 1, f"nested more than {MAX_DEPTH} levels deep")]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        msg = " ".join(str(x) for x in (exc.context, exc.problem) if x)
        return None, [Problem(file, line, col, f"YAML syntax error: {msg}")]
    except yaml.YAMLError as exc:  # pragma: no cover - non-marked errors are rare
        return None, [Problem(file, 1, 1, f"YAML error: {exc}")]
    finally:
        sys.setrecursionlimit(limit)
    if node is None:
        return Located({}, {(): (file, 1, 1)}, file), [Problem(file, 1, 1, "the file is empty")]
    problems: list[Problem] = []
    builder = _Builder(file, problems)
    data = builder.build(node, ())
    return Located(data, builder.positions, file), problems


def read_text(path: str | Path) -> str:
    """The text of a regular UTF-8 file no larger than ``MAX_BYTES``; anything else (a
    missing file, a device, a FIFO, a huge file, bytes that are not UTF-8) raises
    ``ValueError`` with a one-line reason, before more than the limit is read."""
    limit = MAX_BYTES.get()
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("not a regular file")
        if info.st_size > limit:
            raise ValueError(f"{info.st_size} bytes, more than the limit of {limit} "
                             "(--max-bytes to allow more)")
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise ValueError(exc.strerror or str(exc)) from None
    if len(data) > limit:
        raise ValueError(f"more than the limit of {limit} bytes (--max-bytes to allow more)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text (byte {data[exc.start]:#04x} at offset "
                         f"{exc.start})") from None


_FLOW = re.compile(r"""[\[\]{}"'#\n]""")


def _flow_depth(text: str) -> int:
    """The deepest nesting of ``[ ]`` and ``{ }`` outside quotes and comments (a linear
    scan; quotes and comments are followed roughly, which is enough for a limit)."""
    depth = deepest = 0
    quote = ""
    comment = False
    for match in _FLOW.finditer(text):
        ch = match.group()
        if comment:
            comment = ch != "\n"
        elif quote:
            quote = "" if ch == quote else quote
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth = max(depth - 1, 0)
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            comment = True
    return deepest


def _depth() -> int:
    """How deep the call stack is now."""
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1  # type: ignore[assignment]
    return depth


_PARSED: dict[tuple[str, str], tuple[Located | None, list[Problem]]] = {}


def load_file(path: str | Path) -> tuple[Located | None, list[Problem]]:
    """Read and parse a YAML file (a missing or unreadable file is a problem, not a crash).
    A file already parsed with the same text is not parsed again (``validate`` looks at a
    file once to tell an overlay, then loads it; a rulebook's base is read for every
    variant); the caller gets its own copy."""
    name = str(path)
    try:
        text = read_text(path)
    except ValueError as exc:
        return None, [Problem(name, 1, 1, f"can't read file: {exc}")]
    key = (name, hashlib.sha256(text.encode()).hexdigest())
    if key not in _PARSED:
        if len(_PARSED) >= 64:
            _PARSED.clear()
        _PARSED[key] = load_text(text, name)
    located, problems = _PARSED[key]
    return copy.deepcopy(located), list(problems)


def load_value(text: str) -> Any:
    """Read one YAML value given on the command line (``5``, ``true``, ``[a, b]``) with the
    same limits as a file; raises ``ValueError`` with a one-line message."""
    located, problems = load_text(text, "value")
    if problems or located is None:
        raise ValueError(problems[0].message if problems else "can't read the value")
    return located.data
