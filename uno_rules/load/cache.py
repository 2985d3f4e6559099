"""The compiled-rulebook cache: loading a rulebook whose files haven't changed neither reads
its YAML nor checks it again, and imports neither yaml nor jsonschema.

An entry is the pickled :class:`Rulebook` with what decided it. Its file name digests the
request: the rulebook and house rules as given (and where they are), the settings, the
limits (``max_bytes``, ``root``), the shipped names, and this package's code (the engine's
and loader's files and the schemas, the Python version). Inside, it records the request
whole, each file the load read (name, real path, sha256 of its bytes) and each file named
inside another that the confinement check allowed. It is used only if the request is the
same, every file still has the same real path and bytes, and every such check still passes;
anything else (a changed file, a corrupt, truncated or foreign entry) loads afresh and
writes the entry again. Only rulebooks that load are stored: one with problems is checked
every time. Entries are written whole (a temporary file, then ``os.replace``), in a folder
only the user may write (made 0700); one that can't be made or written means no cache.

Where: ``$UNO_RULES_CACHE`` (``off``: no cache), else ``$XDG_CACHE_HOME/uno-rules``, else
``~/.cache/uno-rules``. Deleting the folder clears it.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import stat
import sys
from collections.abc import Callable, Iterable, Mapping
from contextlib import suppress
from functools import cache
from pathlib import Path
from typing import Any

from ..engine.errors import Problem, UnoRulesError
from ..engine.rulebook import Rulebook
from ..engine.snapshot import digest as rulebook_digest
from .resources import MAX_BYTES, READS, ROOT, Reads, find, house_names, shipped_names, within

FORMAT = 1  # raised when an entry's layout changes
MAGIC = b"uno-rules compiled rulebook %d\n" % FORMAT
ENV = "UNO_RULES_CACHE"
MAX_ENTRY = 4 << 20    # bytes: a bigger entry is neither written nor read (shipped: 7-80 KB)
MAX_FILES = 1_000      # files read by one load: a load that read more is not stored
MAX_ENTRIES = 256      # entries kept: writing one more removes the oldest
SUFFIX = ".rulebook"
PACKAGE = Path(__file__).resolve().parent.parent  # the uno_rules folder
CODE = ("engine", "load", "schemas")              # its folders that decide a compiled rulebook

Key = tuple[Any, ...]
Loader = Callable[[], tuple[Rulebook | None, list[Problem]]]


def folder() -> Path | None:
    """The cache folder, or None when the cache is off (``UNO_RULES_CACHE=off``)."""
    given = os.environ.get(ENV, "")
    if given.lower() == "off":
        return None
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(base):  # XDG: a relative value is to be ignored
        return Path(base) / "uno-rules"
    try:
        home = Path.home()
    except (RuntimeError, KeyError, OSError):  # no home to find: no cache
        return None
    # A home that isn't there (HOME=/nonexistent for a service) is not made for a cache.
    return home / ".cache" / "uno-rules" if home.is_absolute() and home.is_dir() else None


@cache  # fixed for the process
def code_digest() -> str:
    """A digest of what compiles and runs a rulebook: the package version, Python's, and
    every file of the engine, the loader and the schemas (source or compiled), so that
    a changed engine never reads an entry an older one wrote."""
    from .._about import __version__

    digest = hashlib.sha256(f"{FORMAT} {__version__} {sys.implementation.cache_tag} "
                            f"{sys.version}".encode())
    for part in CODE:
        with os.scandir(PACKAGE / part) as found:
            for entry in sorted(found, key=lambda e: e.name):
                if entry.is_file():
                    digest.update(entry.name.encode() + b"\0")
                    digest.update(Path(entry.path).read_bytes())
    return digest.hexdigest()


class _Uncacheable(UnoRulesError):
    """A request the cache doesn't key (a setting of an unusual type): it loads afresh."""


def _canon(value: Any) -> Any:
    """A setting's value as a key: its type and contents (``1``, ``True``, ``1.0`` and
    ``"1"`` are different settings), for the plain types only."""
    if value is None or type(value) in (bool, str, float):  # not a subclass: its own repr
        return (type(value).__name__, repr(value))
    if type(value) is int:
        if value.bit_length() > 256:  # refused by the loader anyway; repr could be slow
            raise _Uncacheable
        return ("int", repr(value))
    if type(value) in (list, tuple):
        return (type(value).__name__, tuple(_canon(v) for v in value))
    if type(value) is dict and all(isinstance(k, str) for k in value):
        return ("dict", tuple((k, _canon(v)) for k, v in value.items()))
    raise _Uncacheable


def request_key(name_or_path: str | Path, overrides: Mapping[str, Any] | None,
                house: Iterable[str]) -> Key | None:
    """What a load depends on besides the files it reads, or None if it can't be keyed."""
    try:
        root = ROOT.get()
        return (
            code_digest(), tuple(shipped_names()), tuple(house_names()),
            # as given (a rulebook's `source`) and the file that names (a relative path
            # names another file from another folder)
            str(name_or_path), os.path.abspath(find(name_or_path)),
            tuple((h, os.path.abspath(find(h, overlay=True))) for h in house),
            tuple((k, _canon(v)) for k, v in (overrides or {}).items()),
            MAX_BYTES.get(), None if root is None else os.path.realpath(root),
        )
    # ValueError: a NUL byte in a path; RecursionError: a setting nested absurdly deep
    except (_Uncacheable, OSError, ValueError, RecursionError):
        return None


def _trusted(info: os.stat_result, directory: bool) -> bool:
    """Whether a cache folder (or entry) is the user's own: an entry is code (a pickle), so
    one anyone else could have written is not read."""
    if not hasattr(os, "getuid"):  # no owners to compare (Windows): the folder is private
        return True
    if info.st_uid != os.getuid():
        return False
    return not directory or not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _read_file(name: str, limit: int) -> bytes | None:
    """The bytes of a regular file of at most ``limit`` bytes, else None (never blocking on
    a FIFO or a device)."""
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        data = f.read(limit + 1)
    return data if len(data) <= limit else None


@cache
def allowed() -> dict[tuple[str, str], Any]:
    """What an entry may name, by its exact ``(module, name)`` as pickle writes it: the
    record classes a compiled rulebook is made of (and the function that makes a step again
    from its primitive's name). Nothing else: not another name of the same modules, and no
    dotted name (``random._os.system``), which Python's own lookup would walk."""
    from ..engine.effects import bound_step
    from ..engine.model import CardRule, Combo, Face, FrozenMap, LegalIf, Settings

    return {(o.__module__, o.__qualname__): o  # Combo: a rulebook's `combos` (DOS's sums)
            for o in (Rulebook, Face, CardRule, LegalIf, Settings, FrozenMap, Combo,
                      bound_step)}


def _extensions() -> bool:
    """Whether this process has copyreg extension codes: the EXT opcodes take one resolved
    before from copyreg's cache without asking ``find_class``, so entries are then not read."""
    import copyreg

    return any(getattr(copyreg, name, None) for name in (
        "_extension_registry", "_inverted_registry", "_extension_cache"))


class _Unpickler(pickle.Unpickler):
    """Unpickles the engine's records only. Every opcode that names or calls a global
    (GLOBAL, STACK_GLOBAL, INST, OBJ, REDUCE, NEWOBJ, an EXT code not resolved before) gets
    it here, so only these can be called; BUILD reaches only their ``__setstate__`` or
    attributes."""

    def find_class(self, module: str, name: str) -> Any:
        # the pair itself, looked up: never an import, an attribute walk or a name mapped
        found = allowed().get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not a rulebook record")
        return found

    def persistent_load(self, pid: Any) -> Any:
        raise pickle.UnpicklingError("an entry has no persistent ids")


def _entry_path(where: Path, key: Key) -> Path:
    return where / (hashlib.sha256(repr(key).encode()).hexdigest()[:40] + SUFFIX)


def lookup(where: Path, key: Key) -> Rulebook | None:
    """The rulebook stored for ``key`` if the entry is sound and still holds, else None."""
    path = _entry_path(where, key)
    try:
        if not _trusted(os.stat(where), True) or _extensions():
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(fd)
            if not (stat.S_ISREG(info.st_mode) and _trusted(info, False)
                    and info.st_size <= MAX_ENTRY) or f.read(len(MAGIC)) != MAGIC:
                return None
            entry = _Unpickler(io.BytesIO(f.read(MAX_ENTRY + 1))).load()
        return _valid(entry, key)
    except Exception:  # noqa: BLE001 - a corrupt or foreign entry, however it fails: a miss
        return None


def _valid(entry: Any, key: Key) -> Rulebook | None:
    """The entry's rulebook if it was made for ``key`` from files that are unchanged."""
    if not (type(entry) is dict and entry.get("key") == key
            and isinstance(entry.get("rulebook"), Rulebook)
            and len(entry["files"]) + len(entry["allowed"]) <= 2 * MAX_FILES):
        return None
    limit = MAX_BYTES.get()
    for name, real, digest in entry["files"]:
        if os.path.realpath(name) != real:
            return None
        data = _read_file(name, limit)
        if data is None or hashlib.sha256(data).hexdigest() != digest:
            return None
    # the confinement checks the load passed, passed again (a link may have changed)
    if not all(within(Path(named_from))(Path(path)) for path, named_from in entry["allowed"]):
        return None
    rulebook: Rulebook = entry["rulebook"]
    return rulebook


class _Pickler(pickle.Pickler):
    """Pickles a compiled step by its primitive's name (``effects.bound_step`` binds the run
    function again when the entry is read), so that an entry names no function: the
    unpickler allows the records' classes and that one function only."""

    def __init__(self, file: io.BytesIO) -> None:
        from ..engine.effects import PRIMITIVES, bound_step
        from ..engine.model import Step

        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.step, self.bound, self.runs = Step, bound_step, {
            name: prim.run for name, prim in PRIMITIVES.items()}

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is self.step and self.runs.get(obj.op) is obj.run:
            return (self.bound, (obj.op, obj.args, obj.at_end, obj.where))
        return NotImplemented


def store(where: Path, key: Key, rulebook: Rulebook, reads: Reads) -> None:
    """Write the entry for ``key``, whole or not at all; any failure just means no entry."""
    files = sorted({(name, os.path.realpath(name), digest) for name, digest in reads.files})
    if len(files) > MAX_FILES or len(reads.allowed) > MAX_FILES:
        return
    rulebook_digest(rulebook)  # computed once here and stored with it (snapshots, records)
    out = io.BytesIO()
    _Pickler(out).dump({
        "key": key, "files": files, "allowed": sorted(set(reads.allowed)), "rulebook": rulebook})
    data = MAGIC + out.getvalue()
    if len(data) > MAX_ENTRY:
        return
    import tempfile

    try:
        where.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _trusted(os.stat(where), True):
            return
        fd, temp = tempfile.mkstemp(prefix=".tmp-", suffix=SUFFIX, dir=where)  # mode 0600
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(temp, _entry_path(where, key))
        finally:
            with suppress(OSError):
                os.unlink(temp)  # gone already when replaced
        _prune(where)
    except OSError:  # a read-only or full disk, a file where the folder should be
        pass


def _prune(where: Path) -> None:
    """Remove the oldest entries beyond ``MAX_ENTRIES`` (each --set value makes one)."""
    with os.scandir(where) as found:
        entries = [(e.stat().st_mtime_ns, e.path) for e in found
                   if e.name.endswith(SUFFIX) and not e.name.startswith(".")]
    for _, old in sorted(entries)[:max(len(entries) - MAX_ENTRIES, 0)]:
        with suppress(OSError):
            os.unlink(old)


def load(name_or_path: str | Path, overrides: Mapping[str, Any] | None,
         house: Iterable[str], loader: Loader) -> tuple[Rulebook | None, list[Problem]]:
    """The rulebook from the cache when its entry holds, else ``loader()``'s result (the
    loader's ``check``), stored when it loaded without problems."""
    house = tuple(house)
    where = folder()
    key = None if where is None else request_key(name_or_path, overrides, house)
    if where is None or key is None:
        return loader()
    found = lookup(where, key)
    if found is not None:
        return found, []
    reads = Reads()
    token = READS.set(reads)
    try:
        rulebook, problems = loader()
    finally:
        READS.reset(token)
    if rulebook is not None and not problems and reads.files:
        try:
            store(where, key, rulebook, reads)
        except Exception:  # noqa: BLE001 - an entry not written costs a load, never the load
            pass
    return rulebook, problems
