"""Package data: the shipped rulebooks, house-rule overlays and JSON Schemas.

They live inside the package (``uno_rules/rulebooks``, ``uno_rules/schemas``) and are found
through :mod:`importlib.resources`, so a wheel installed anywhere has them. :func:`find` is
the one place that decides whether a reference is a shipped name or a path, and
:func:`allowed` whether a path named inside a file may be read at all.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from contextvars import ContextVar
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, cast

NAME = re.compile(r"[a-z][a-z0-9_]*")
HOUSE_PREFIX = "house/"
# A folder the caller trusts: files named inside rulebooks, overlays and scenarios may be
# anywhere under it, besides the referring file's own folder. Set for one call by
# load_rulebook(root=...), restore(root=...), run_paths(root=...) and `uno-rules --root`.
ROOT: ContextVar[Path | None] = ContextVar("ROOT", default=None)
# The largest file read, in bytes; checked before reading. load_rulebook(max_bytes=...) and
# the command line's --max-bytes change it for one call. It is also the most one load reads
# in all (a rulebook with the files it extends and includes). Here, not in yamlpos (which
# uses it), so that the compiled-rulebook cache can read it without importing yaml.
MAX_BYTES: ContextVar[int] = ContextVar("MAX_BYTES", default=1 << 20)


class Reads:
    """What one load read, for the compiled-rulebook cache to check again on its next use:
    each file (its name as opened and the sha256 of its bytes) and each file named inside
    another that :func:`within` allowed (its path and the naming file's folder)."""

    def __init__(self) -> None:
        self.files: list[tuple[str, str]] = []
        self.allowed: list[tuple[str, str]] = []


# Set by the cache around one load it may store (uno_rules.load.cache); None otherwise.
READS: ContextVar[Reads | None] = ContextVar("READS", default=None)


@cache  # fixed for the process; looked up for every reference to check
def _data_dir(*parts: str) -> Path:
    # Installed packages are always unpacked on disk (wheels are never imported zipped), so
    # the traversable is a real directory; a Path lets the loader report file positions.
    place = files("uno_rules")  # the data folders sit in the top package
    for part in parts:  # one at a time: a namespace package's MultiplexedPath takes one
        place = place.joinpath(part)
    return Path(os.fspath(cast("os.PathLike[str]", place)))


def rulebooks_dir() -> Path:
    """The folder of the shipped rulebooks."""
    return _data_dir("rulebooks")


def house_dir() -> Path:
    """The folder of the shipped house-rule overlays."""
    return _data_dir("rulebooks", "house")


def schema_file(name: str) -> Path:
    """A shipped JSON Schema file: ``rulebook`` or ``scenario``."""
    return _data_dir("schemas", f"{name}.schema.json")


@cache
def schema(name: str) -> dict[str, Any]:
    """A shipped JSON Schema, parsed."""
    data: dict[str, Any] = json.loads(schema_file(name).read_text(encoding="utf-8"))
    return data


def shipped_names() -> list[str]:
    """Names of the shipped rulebooks."""
    return sorted(p.stem for p in rulebooks_dir().glob("*.yaml"))


def house_names() -> list[str]:
    """Names of the shipped house-rule overlays."""
    return sorted(p.stem for p in house_dir().glob("*.yaml"))


def shipped_rulebook(ref: str) -> Path | None:
    """The shipped rulebook named ``ref``, if there is one."""
    path = rulebooks_dir() / f"{ref}.yaml"
    return path if NAME.fullmatch(ref) and _is_file(path) else None


def shipped_overlay(ref: str) -> Path | None:
    """The shipped overlay named ``ref`` (``stacking`` or ``house/stacking``), if any."""
    name = ref[len(HOUSE_PREFIX):] if ref.startswith(HOUSE_PREFIX) else ref
    path = house_dir() / f"{name}.yaml"
    return path if NAME.fullmatch(name) and _is_file(path) else None


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long for the file system is no shipped name
        return False


def find(ref: str | Path, relative_to: Path | None = None, *, overlay: bool = False) -> Path:
    """The file a reference names: a shipped rulebook name (or, with ``overlay``, a shipped
    overlay name), else a path, relative to ``relative_to`` when it is not absolute. The
    path may not exist; callers report that with their own context."""
    text = str(ref)
    shipped = shipped_overlay(text) if overlay else shipped_rulebook(text)
    if shipped is not None:
        return shipped
    path = Path(text)
    if relative_to is not None and not path.is_absolute():
        path = relative_to / path
    return path


def is_shipped(path: Path) -> bool:
    """Whether ``path`` is one of the shipped rulebook files."""
    return path.resolve().parent == rulebooks_dir().resolve()


def _real(path: str | Path) -> str:
    # realpath, not Path.resolve: a symlink loop gives a path (refused or unreadable later),
    # not a RuntimeError.
    return os.path.realpath(path)


def _under(path: str, folder: str) -> bool:
    # both are realpaths: absolute and normalised, so a prefix test is exact
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def allowed(path: Path, folder: Path) -> bool:
    """Whether a file named inside another (by `extends`, `house:`, a scenario's `rulebook:`)
    may be read: a shipped rulebook or overlay, or a file under ``folder`` (the referring
    file's) or under :data:`ROOT`, symlinks resolved (a link inside the folder to a file
    outside is outside). Decided without reading, or even finding, the file."""
    return within(folder)(path)


def outside_folder(folder: Path) -> str:
    """The problem of a file found in ``folder`` (``validate DIR``, ``scenario DIR``) that is
    a link to a file outside it: not read, so a folder from elsewhere can't have a private
    file's values quoted."""
    return f"a link to a file outside {folder}, so not read (name the file itself to read it)"


def within(folder: Path) -> Callable[[Path], bool]:
    """:func:`allowed` for the files named from one folder (its bounds resolved once)."""
    bounds = []
    for b in (rulebooks_dir(), folder, ROOT.get()):
        try:
            bounds += [] if b is None else [_real(b)]
        except ValueError:  # a NUL byte (a root= given so): no folder has it, it trusts none
            pass

    def check(path: Path) -> bool:
        try:
            target = _real(path)
        except ValueError:  # a NUL byte: no file has that name
            return False
        ok = any(_under(target, bound) for bound in bounds)
        reads = READS.get()
        if ok and reads is not None:  # a cached load must pass the same check again
            reads.allowed.append((str(path), str(folder)))
        return ok
    return check
