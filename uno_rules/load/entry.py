"""The load side's entry points, :func:`load_rulebook` and :func:`restore`: importable, and
served from the compiled-rulebook cache (:mod:`uno_rules.load.cache`), without yaml or
jsonschema; the loader (:mod:`uno_rules.load.loader`) is imported only to load afresh."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..engine.errors import Problem, RulebookError, SnapshotError, shorten
from ..engine.game import Game
from ..engine.rulebook import Rulebook
from ..engine.snapshot import rules_of
from . import cache
from .resources import MAX_BYTES, ROOT, allowed, find


def _check(name_or_path: str | Path, settings: Mapping[str, Any] | None,
           house: list[str]) -> tuple[Rulebook | None, list[Problem]]:
    from .loader import check  # yaml and jsonschema: only when the cache can't serve

    return check(name_or_path, settings, house)


def load_rulebook(name_or_path: str | Path, *, house: Iterable[str] = (),
                  settings: Mapping[str, Any] | None = None,
                  max_bytes: int | None = None, root: str | Path | None = None) -> Rulebook:
    """Load, validate and compile a rulebook by shipped name or path.

    ``house`` names house-rule overlays (``rulebooks/house/NAME.yaml``, or paths) merged over
    it in order; ``settings`` overrides settings or options by name. Raises
    :class:`RulebookError` with every problem found. ``max_bytes`` changes the most bytes
    read: of one file, and of the rulebook with the files it extends and includes in all
    (default 1 MiB).

    ``name_or_path`` and ``house`` may name any file. The files those name in turn
    (``extends``, ``house:``) must be shipped or under the naming file's own folder, symlinks
    resolved; ``root`` trusts a folder besides: they may also name any file under it
    (``root="/"`` trusts every path).
    """
    if isinstance(house, (str, Path)):  # one overlay given alone, not its characters
        house = [str(house)]
    house, settings = _arguments(house, settings, max_bytes, root)
    tokens = (None if max_bytes is None else MAX_BYTES.set(max_bytes),
              None if root is None else ROOT.set(Path(root)))
    try:
        rulebook, problems = cache.load(name_or_path, settings, house,
                                         lambda: _check(name_or_path, settings, house))
    finally:
        if tokens[0] is not None:
            MAX_BYTES.reset(tokens[0])
        if tokens[1] is not None:
            ROOT.reset(tokens[1])
    if rulebook is None:
        raise RulebookError(problems)
    return rulebook


def _arguments(house: Any, settings: Any, max_bytes: Any = None,
               root: Any = None) -> tuple[list[str], Mapping[str, Any] | None]:
    """``house`` and ``settings`` as :func:`load_rulebook` takes them (``max_bytes`` and
    ``root`` checked), or a RulebookError naming the argument (not a TypeError from deep
    inside)."""
    def refuse(name: str, value: Any, expected: str, got: Any) -> RulebookError:
        return RulebookError(f"{name}={shorten(repr(value))}: expected {expected}, got "
                             f"{type(got).__name__}")
    if not isinstance(house, Iterable):
        raise refuse("house", house, "names or paths (str)", house)
    names = list(house)
    for name in names:
        if not isinstance(name, (str, Path)):
            raise refuse("house", names, "names or paths (str)", name)
    if settings is not None:
        if not isinstance(settings, Mapping):
            raise refuse("settings", settings, "a mapping of setting names to values",
                         settings)
        for key in settings:
            if not isinstance(key, str):
                raise refuse("settings", settings, "setting names (str) as keys", key)
    if max_bytes is not None and (type(max_bytes) is not int or max_bytes < 1):
        raise refuse("max_bytes", max_bytes, "a whole number of bytes >= 1", max_bytes)
    if root is not None and not isinstance(root, (str, Path)):
        raise refuse("root", root, "a folder's path (str or Path)", root)
    return [str(n) for n in names], settings


def restore(snapshot: Mapping[str, Any], *, root: str | Path | None = None) -> Game:
    """Continue a game from :meth:`Game.snapshot` output, loading its rulebook as it was
    (the same source, house rules and settings): it trusts the snapshot's rules, where
    :meth:`Rulebook.restore` refuses other rules than its own. Raises :class:`SnapshotError`.

    The snapshot's rulebook (``source``) and house rules must be shipped names or files
    under ``root`` (default: the current working directory), symlinks resolved; anything
    else is refused unread. ``root`` is also passed to :func:`load_rulebook`."""
    source, house, settings = rules_of(snapshot)  # each checked: a SnapshotError naming it
    if root is not None and not isinstance(root, (str, Path)):
        raise SnapshotError(f"root={shorten(repr(root))}: expected a folder's path (str or "
                            f"Path), got {type(root).__name__}")
    bound = Path.cwd() if root is None else Path(root)
    for key, ref in [("source", source), *(("house", h) for h in house)]:
        if not allowed(find(ref, overlay=key == "house"), bound):
            raise SnapshotError(f"snapshot {key} {ref!r} is neither a shipped name nor a "
                                f"file under {bound}: refused unread (restore(snapshot, "
                                "root=DIR) trusts a folder)")
    try:
        rulebook = load_as_written(source, house, settings, root=root)
    except RulebookError as exc:
        raise SnapshotError(f"can't load the snapshot's rulebook: {_unquoted(exc)}") from None
    except (OSError, ValueError, RecursionError) as exc:  # a path the system can't open
        raise SnapshotError(f"can't load the snapshot's rulebook {source!r}: "
                            f"{type(exc).__name__}") from None
    return rulebook.restore(snapshot)


def load_as_written(source: str | Path, house: Iterable[str], settings: Mapping[str, Any],
                    *, root: str | Path | None = None) -> Rulebook:
    """The rulebook a snapshot or record names: ``house`` is every overlay it plays with,
    as ``Rulebook.house`` lists them, the rulebook's own (its ``house:`` key) first; those
    are applied by loading it, so only the rest are given as house rules (given again, they
    would be refused as already part of it). Raises :class:`RulebookError`."""
    house = list(house)
    try:  # most rulebooks have none of their own: one load, served by the cache
        return load_rulebook(source, house=house, settings=settings, root=root)
    except RulebookError:
        own = list(load_rulebook(source, root=root).house) if house else []
        if not own or house[:len(own)] != own:
            raise
    return load_rulebook(source, house=house[len(own):], settings=settings, root=root)


def _unquoted(exc: RulebookError) -> str:
    """The problems of a rulebook a snapshot named, quoting nothing of its files: the user
    named the snapshot, not them (problems of its own house/set values are shown whole)."""
    own = [str(p) for p in exc.problems if p.line <= 0]
    located = [p for p in exc.problems if p.line > 0]
    if located:
        first = located[0]
        own.append(f"{len(located)} problem(s) in its files, the first at {first.file}:"
                   f"{first.line}:{first.col} (load_rulebook shows them)")
    return "; ".join(own)
