"""No function of the package above cyclomatic complexity 30, counted as radon counts it
(``radon cc``): 1, plus one for each if, conditional expression, loop (and its ``else``),
except handler (and ``else``), comprehension ``for`` and ``if``, ``and``/``or`` operand
past the first, assert (what it tests left out) and match case; a nested function counts
apart. ruff's C901 rule (pyproject.toml) counts fewer branches, so this test holds the bar
(its count is radon's on every function of the package, checked when it was written)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "uno_rules"
LIMIT = 30
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _decisions(node: ast.AST) -> int:
    """The decision points of ``node`` itself (radon's ComplexityVisitor)."""
    if isinstance(node, ast.Try):
        return len(node.handlers) + bool(node.orelse)
    if isinstance(node, ast.BoolOp):
        return len(node.values) - 1
    if isinstance(node, (ast.If, ast.IfExp)):
        return 1
    if isinstance(node, ast.Match):
        wildcard = any(getattr(case.pattern, "pattern", False) is None for case in node.cases)
        return max(0, len(node.cases) - wildcard)
    if isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
        return 1 + bool(node.orelse)
    if isinstance(node, ast.comprehension):
        return 1 + len(node.ifs)
    return 0


def complexity(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """1 plus the decision points of the body, nested functions and classes left out."""
    total, todo = 1, list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (*DEFS, ast.ClassDef)):
            continue
        if isinstance(node, ast.Assert):  # radon counts an assert as 1, and not inside it
            total += 1
            continue
        total += _decisions(node)
        todo.extend(ast.iter_child_nodes(node))
    return total


def functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, int]]:
    """Every function and method (nested ones too), by qualified name, with its count."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, DEFS):
            yield prefix + node.name, complexity(node)
            yield from functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from functions(node, f"{prefix}{node.name}.")
        else:
            yield from functions(node, prefix)


def _counts() -> dict[tuple[str, str], int]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name, count in functions(tree):
            out[path.relative_to(PACKAGE).as_posix(), name] = count
    return out


def test_no_function_above_the_limit() -> None:
    counts = _counts()
    over = {key: n for key, n in counts.items() if n > LIMIT}
    assert over == {}


def test_the_count_is_radons() -> None:
    tree = ast.parse('''
def f(a, b):
    if a and b or a:
        return [x for x in a if x if b]
    for i in a:
        pass
    else:
        pass
    while b:
        break
    try:
        pass
    except ValueError:
        pass
    except TypeError:
        pass
    else:
        pass
    assert a and [x for x in b]
    def inner():
        if a:
            pass
    return a if b else inner
''')
    assert dict(functions(tree)) == {"f": 1 + 1 + 2 + 3 + 2 + 1 + 3 + 1 + 1, "f.inner": 2}
