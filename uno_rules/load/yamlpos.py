"""YAML reading that keeps the line and column of every value, for located error messages."""

from __future__ import annotations

import copy
import hashlib
import os
import re
import stat
import sys
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import yaml

from ..engine.errors import Problem, UnoRulesError
from .resources import MAX_BYTES as MAX_BYTES  # the largest file read: see there
from .resources import READS

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
        self.heading: dict[str, Any] = {}  # title, description as merged before variants
        #                                    had headings of their own (see digested_as)

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


MAX_NODES = 20_000   # values in one load: a rulebook with the files it extends and includes
                     # (a shipped one has a few hundred); an alias counts as what it repeats
MAX_DEPTH = 64       # nesting; a real rulebook nests a dozen levels
_NESTED = f"nested more than {MAX_DEPTH} levels deep"


class _Budget:
    """What one load has read so far: the limits hold for the total of a rulebook, the
    rulebooks it extends and its overlays, so a chain of big files costs no more than one."""

    def __init__(self) -> None:
        self.values = self.bytes = 0


_BUDGET: ContextVar[_Budget | None] = ContextVar("_BUDGET", default=None)


@contextmanager
def one_load() -> Iterator[None]:
    """The files read inside share one budget of ``MAX_NODES`` values and ``MAX_BYTES``
    bytes (inside another ``one_load``: the outer one's). Outside, each file has its own."""
    token = _BUDGET.set(_Budget()) if _BUDGET.get() is None else None
    try:
        yield
    finally:
        if token is not None:
            _BUDGET.reset(token)


def _too_many(limit: int, what: str = "more than") -> str:
    """The message of a file that reached ``limit`` values (less than ``MAX_NODES`` when
    files read before it in the same load used part of the budget)."""
    used = MAX_NODES - limit
    return (f"{what} {MAX_NODES:,} values" + (f", counting the {used:,} of the files read "
                                              "before it for this rulebook" if used else ""))


class _Found:
    """Problems by kind, each reported once: a hostile file may repeat one mistake
    thousands of times, and gets one line with the count, located at the first."""

    def __init__(self, file: str):
        self.file = file
        self.kinds: dict[str, tuple[Problem, str, int]] = {}
        self.total = 0

    def add(self, mark: Any, path: PathKey, message: str, kind: str, detail: str = "") -> None:
        """A problem at ``mark``; ``kind`` names several of them ("duplicate keys"),
        ``detail`` what the first one was (``'a'``)."""
        self.total += 1
        if kind in self.kinds:
            first, first_detail, count = self.kinds[kind]
            self.kinds[kind] = (first, first_detail, count + 1)
            return
        problem = Problem(self.file, mark.line + 1, mark.column + 1, message, json_path(path))
        self.kinds[kind] = (problem, detail, 1)

    def problems(self) -> list[Problem]:
        out = []
        for kind, (first, detail, count) in self.kinds.items():
            if count > 1:
                first = Problem(first.file, first.line, first.col, f"{count:,} {kind}, the "
                                f"first at {first.line}:{first.col}"
                                + (f" ({detail})" if detail else ""), first.path)
            out.append(first)
        return out


class _Stop(UnoRulesError):
    """Reading stops: a limit is reached."""

    def __init__(self, mark: Any, message: str):
        super().__init__(message)
        self.mark, self.message = mark, message


class _Composer(yaml.composer.Composer):
    """PyYAML's composer, counting as it reads events: it stops at the value and depth
    limits before the rest is read, and notes the tags written out (refused later)."""

    limit: int
    found: _Found
    peek_event: Callable[[], Any]   # the parser's, in the loader class

    def start(self, limit: int, found: _Found) -> None:
        self.limit, self.found = limit, found
        self.count = self.depth = 0
        self.tagged: dict[int, str] = {}   # id(node) -> the tag written on it

    def compose_document(self) -> Any:
        event = self.peek_event()
        if getattr(event, "tags", None):
            self.found.add(event.start_mark, (), "YAML %TAG directives are not supported",
                           "%TAG directives")
        return super().compose_document()

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        self.count += 1
        if self.count > self.limit:
            raise _Stop(event.start_mark, _too_many(self.limit))
        if self.depth >= MAX_DEPTH:
            raise _Stop(event.start_mark, _NESTED)
        self.depth += 1
        try:
            node = super().compose_node(parent, index)
        finally:
            self.depth -= 1
        tag = getattr(event, "tag", None)   # None unless written out (`!!str x`, `!x`)
        if tag is not None and not isinstance(event, yaml.AliasEvent):
            self.tagged[id(node)] = tag
        return node


def _without_sexagesimal() -> dict[Any, list[tuple[str, re.Pattern[str]]]]:
    """PyYAML's implicit types, but ``190:20:30`` stays a string: YAML 1.1 reads it as a
    base-60 number (685230), which no author means."""
    plain = {"tag:yaml.org,2002:int": re.compile(
        r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+)$"),
        "tag:yaml.org,2002:float": re.compile(
        r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*"
        r"(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")}
    return {first: [(tag, plain.get(tag, regex)) for tag, regex in resolvers
                    if tag != "tag:yaml.org,2002:value"]   # `=` is a plain string too
            for first, resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items()}


class _Resolver(yaml.resolver.Resolver):
    yaml_implicit_resolvers = _without_sexagesimal()


class _PyLoader(_Composer, yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser,
                yaml.constructor.SafeConstructor, _Resolver):
    """The pure-Python reader (where PyYAML was installed without libyaml)."""

    def __init__(self, text: str):
        yaml.reader.Reader.__init__(self, text)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        _Resolver.__init__(self)


_FAST: Any = None
try:  # libyaml, bundled with PyYAML's wheels: reads a MiB a hundred times faster
    from yaml._yaml import CParser

    class _CLoader(_Composer, CParser, yaml.constructor.SafeConstructor, _Resolver):
        def __init__(self, text: str):
            CParser.__init__(self, text)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            _Resolver.__init__(self)

    _FAST = _CLoader
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    pass


class _Builder:
    """Builds plain data from a composed YAML node tree, recording every position."""

    def __init__(self, loader: Any, found: _Found, limit: int):
        self.loader, self.found, self.limit = loader, found, limit
        self.file = found.file
        self.positions: dict[PathKey, Pos] = {}
        self.active: set[int] = set()   # nodes being built: an alias back to one recurses
        self.count = 0

    def fail(self, node: yaml.Node, path: PathKey, message: str, kind: str,
             detail: str = "") -> None:
        self.found.add(node.start_mark, path, message, kind, detail)

    def build(self, node: yaml.Node, path: PathKey, record: bool = True) -> Any:
        if len(path) > MAX_DEPTH:
            self.fail(node, path, _NESTED,
                      "values nested too deep")
            return None
        self.count += 1
        if self.count > self.limit:
            if self.count == self.limit + 1:
                self.fail(node, path, _too_many(self.limit, "the document expands to more "
                                                "than") + " (through aliases?)", "expansions")
            return None
        if record:
            self.positions[path] = (self.file, node.start_mark.line + 1,
                                    node.start_mark.column + 1)
        tag = self.loader.tagged.get(id(node))
        if tag is not None:  # written out: refused, even a standard one (`!!str`)
            self.fail(node, path, f"unsupported YAML tag {tag!r}", "YAML tags", repr(tag))
            return None
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, path)
        if id(node) in self.active:
            self.fail(node, path, "an alias refers to a value that contains it",
                      "aliases to a value that contains them")
            return None
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.MappingNode):
                return self.mapping(node, path)
            return [self.build(v, path + (i,)) for i, v in enumerate(node.value)]  # a sequence
        finally:
            self.active.discard(id(node))

    def scalar(self, node: yaml.ScalarNode, path: PathKey) -> Any:
        if node.tag == "tag:yaml.org,2002:merge":
            self.fail(node, path, "merge keys (<<) are not supported: write the keys out",
                      "merge keys (<<)")
            return None
        if node.style == '"':  # an escape (`"\e[2J"`, `"\0"`) can write what the file can't
            bad = _NON_PRINTABLE.search(node.value)
            if bad is not None:
                char = bad.group()
                what = "control character" if unicodedata.category(char) == "Cc" else \
                    "character"
                self.fail(node, path, f"{what} U+{ord(char):04X} is not allowed in YAML, "
                          "even as an escape", "escaped control characters")
                return None
        try:
            return self.loader.yaml_constructors[node.tag](self.loader, node)
        except ValueError as exc:
            if node.tag == "tag:yaml.org,2002:int":  # Python's limit on digits
                self.fail(node, path, f"a number with {len(node.value)} digits is too long",
                          "numbers too long")
            else:  # a date that can't be: 2024-13-01
                self.fail(node, path, f"can't read {node.value!r}: {exc}", "unreadable values")
            return None

    def mapping(self, node: yaml.MappingNode, path: PathKey) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if self.count > self.limit:
                break
            found = self.found.total
            key = self.build(key_node, path, record=False)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                if self.found.total == found:  # not already reported
                    self.fail(key_node, path, "mapping keys must be plain scalars",
                              "keys that are not plain scalars")
                continue
            key = str(key) if not isinstance(key, str) else key
            if key in out:
                _, line, col = self.positions[("#key",) + path + (key,)]
                self.fail(key_node, path + (key,), f"duplicate key '{key}' (first at "
                          f"{line}:{col}): give each key once", "duplicate keys", f"'{key}'")
            self.positions[("#key",) + path + (key,)] = (
                self.file, key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = self.build(value_node, path + (key,))
        return out


# What YAML forbids in a file (PyYAML's reader refuses it, in two lines located at 1:1).
_NON_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd"
                            "\U00010000-\U0010ffff]")
_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def _where(text: str, index: int) -> tuple[int, int]:
    """Line and column (1-based, in characters) of ``text[index]``, as YAML counts lines."""
    line = 1 + len(_BREAK.findall(text, 0, index))
    start = 1 + max(text.rfind(c, 0, index) for c in "\n\r\x85\u2028\u2029")
    return line, index - start + 1


def _unprintable(text: str, file: str) -> Problem | None:
    """The first character a YAML file may not hold, located."""
    bad = _NON_PRINTABLE.search(text)
    if bad is None:
        return None
    char = bad.group()
    what = "control character" if unicodedata.category(char) == "Cc" else "character"
    return Problem(file, *_where(text, bad.start()), f"{what} U+{ord(char):04X} is not "
                   "allowed in YAML")


def load_text(text: str, file: str) -> tuple[Located | None, list[Problem]]:
    """Parse YAML text. Returns the located data (or None) and the problems found."""
    located, problems, _ = _parse(text, file, MAX_NODES)
    return located, problems


def _parse(text: str, file: str, limit: int) -> tuple[Located | None, list[Problem], int]:
    """Parse at most ``limit`` values: the located data (or None), the problems, and the
    values read (more than ``limit`` when cut short)."""
    bad = _unprintable(text, file)
    if bad is not None:
        return None, [bad], 0
    deep = _too_deep(text) if _FAST is None else None   # PyYAML's scanner: quadratic here
    if deep is not None:
        return None, [Problem(file, *_where(text, deep), _NESTED)], 0
    found = _Found(file)
    try:
        loader, node = _compose(_FAST or _PyLoader, text, limit, found)
    except _Stop as stop:
        mark = stop.mark
        return None, [Problem(file, mark.line + 1, mark.column + 1, stop.message)], limit + 1
    except yaml.MarkedYAMLError as exc:
        error = exc
        if _FAST is not None and len(text) <= REWORD and exc.problem != _TOO_DEEP:
            try:  # PyYAML's own words say more ("but found '<stream end>'")
                _compose(_PyLoader, text, limit, _Found(file))
            except yaml.MarkedYAMLError as again:
                error = again
            except (_Stop, yaml.YAMLError):
                pass
        deep = _too_deep(text) if error.problem == _TOO_DEEP else None
        if deep is not None:  # libyaml stops at 1,000 levels: say where level 65 starts
            return None, [Problem(file, *_where(text, deep), _NESTED)], 0
        return None, [_syntax_problem(error, file)], 0
    except yaml.YAMLError as exc:  # pragma: no cover - non-marked errors are rare
        return None, [Problem(file, 1, 1, f"YAML error: {exc}")], 0
    if node is None:
        problems = found.problems() + [Problem(file, 1, 1, "the file is empty")]
        return Located({}, {(): (file, 1, 1)}, file), problems, 0
    builder = _Builder(loader, found, limit)
    data = builder.build(node, ())
    problems = sorted(found.problems(), key=lambda p: (p.line, p.col))
    return Located(data, builder.positions, file), problems, builder.count


REWORD = 1 << 16  # a syntax error in a file up to this size is worded by pure-Python PyYAML
_TOO_DEEP = "exceeded maximum nesting depth"  # libyaml's words


def _compose(loader_class: Any, text: str, limit: int, found: _Found) -> tuple[Any, Any]:
    """The loader and the document's root node (None for an empty document)."""
    loader = loader_class(text)
    loader.start(limit, found)
    # Composing recurses: a low recursion limit is a second guard against deep nesting.
    recursion = sys.getrecursionlimit()
    sys.setrecursionlimit(min(recursion, _depth() + 40 * MAX_DEPTH))
    try:
        return loader, loader.get_single_node()
    except RecursionError:
        raise _Stop(yaml.Mark(found.file, 0, 0, 0, "", 0), _NESTED) from None
    finally:
        sys.setrecursionlimit(recursion)


def _syntax_problem(exc: yaml.MarkedYAMLError, file: str) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    if exc.problem == _TOO_DEEP:
        return Problem(file, line, col, _NESTED)
    msg = " ".join(str(x) for x in (exc.context, exc.problem) if x)
    return Problem(file, line, col, f"YAML syntax error: {msg}{_syntax_hint(str(exc.problem))}")


# What the commonest syntax errors usually mean, in an author's terms (PyYAML's words and
# libyaml's, for big files).
_HINTS = (("'\\t'", "a tab: YAML indents with spaces only"),
          ("mapping values are not allowed", "a line indented deeper than the one above, or an "
           "unquoted ': ' inside a value"),
          ("expected <block end>", "this line's indentation doesn't match the lines above"),
          ("did not find expected key", "this line's indentation doesn't match the lines "
           "above"))


def _syntax_hint(problem: str) -> str:
    return next((f" ({hint})" for words, hint in _HINTS if words in problem), "")


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
            data = f.read(min(limit, info.st_size) + 1)  # allocate no huge limit
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


def _too_deep(text: str) -> int | None:
    """Where ``[`` or ``{`` opens a level deeper than ``MAX_DEPTH`` outside quotes and
    comments, or None (a linear scan; quotes and comments are followed roughly, which is
    enough for a limit)."""
    depth = 0
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
            if depth > MAX_DEPTH:
                return match.start()
        elif ch in "]}":
            depth = max(depth - 1, 0)
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            comment = True
    return None


def _depth() -> int:
    """How deep the call stack is now."""
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1  # type: ignore[assignment]
    return depth


# text digest -> what parsing it gave, the values read and the limit it was read with
_PARSED: dict[tuple[str, str], tuple[Located | None, list[Problem], int, int]] = {}


def load_file(path: str | Path) -> tuple[Located | None, list[Problem]]:
    """Read and parse a YAML file (a missing or unreadable file is a problem, not a crash).
    Inside ``one_load``, what it reads counts towards the load's budget. A file already
    parsed with the same text is not parsed again (``validate`` looks at a file once to
    tell an overlay, then loads it; a rulebook's base is read for every variant); the
    caller gets its own copy."""
    name = str(path)
    try:
        text = read_text(path)
    except ValueError as exc:
        return None, [Problem(name, 1, 1, f"can't read file: {exc}")]
    budget = _BUDGET.get() or _Budget()
    size, limit = len(text.encode()), MAX_BYTES.get()
    if budget.bytes + size > limit:
        return None, [Problem(name, 1, 1, f"can't read file: {size:,} bytes, and the files "
                              f"read before it for this rulebook have {budget.bytes:,}: "
                              f"more than the limit of {limit:,} in all (--max-bytes to "
                              "allow more)")]
    budget.bytes += size
    left = MAX_NODES - budget.values
    key = (name, hashlib.sha256(text.encode()).hexdigest())
    reads = READS.get()
    if reads is not None:  # the digest of the very bytes parsed, for the rulebook cache
        reads.files.append(key)
    cached = _PARSED.get(key)
    # A result cut short by its limit holds only for that limit; a whole one while it fits.
    if cached is None or (cached[3] != left if cached[2] > cached[3] else cached[2] > left):
        located, problems, values = _parse(text, name, left)
        budget.values += values
        if values > CACHED:  # not worth keeping (nor copying)
            return located, problems
        if len(_PARSED) >= 64:
            _PARSED.clear()
        cached = _PARSED[key] = (located, problems, values, left)
    else:
        budget.values += cached[2]
    return copy.deepcopy(cached[0]), list(cached[1])


CACHED = 5_000  # the most values of a file kept parsed (a shipped rulebook has hundreds)


def load_value(text: str) -> Any:
    """Read one YAML value given on the command line (``5``, ``true``, ``[a, b]``) with the
    same limits as a file; raises ``ValueError`` with a one-line message."""
    located, problems = load_text(text, "value")
    if problems or located is None:
        raise ValueError(problems[0].message if problems else "can't read the value")
    return located.data
