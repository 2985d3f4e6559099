"""The games' files on disk (docs/web.md, "Kept on disk"), read and written as hostile
files: whatever is in the data folder may have been put there by someone else.

Only regular files directly in the games folder are opened — never a symbolic link, a FIFO
or a device (opened without following links and without blocking, checked with ``fstat``
before a byte is read) — and never more than a size limit. A restore file is strict JSON of
a known shape (no ``NaN``, no deep nesting) before any of it is used. A refusal names no
path and quotes nothing of the file. Writes go to a fresh temporary file renamed over the
old one, or append to a regular file only; a data folder that can't be written is a 507
naming no path."""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NoReturn

from ..engine.errors import UnoRulesError
from ..load.resources import house_names, shipped_names
from ..play.agents import AGENTS
from .http import ApiError

MAX_META = 8 << 20      # bytes of a restore file (each answer at most 200 characters)
_OPEN = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
_APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC


class StoredFileError(UnoRulesError):  # a ValueError, as before
    """A stored file refused: why, in words that name no path and quote none of it."""


def _regular(fd: int, limit: int) -> int:
    """The size of the file open at ``fd``, if it is a regular file within ``limit``."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise StoredFileError("not a regular file")
    if info.st_size > limit:
        raise StoredFileError(f"over {limit:,} bytes")
    return info.st_size


def read_stored(path: Path, limit: int) -> str:
    """The UTF-8 text of the regular file ``path`` (not a link), at most ``limit`` bytes.
    Raises FileNotFoundError when it is gone, StoredFileError for anything else."""
    try:
        fd = os.open(path, _OPEN)
    except FileNotFoundError:
        raise
    except OSError as exc:  # ELOOP: a symbolic link
        raise StoredFileError("a symbolic link" if exc.errno == errno.ELOOP else
                              exc.strerror or "can't be opened") from None
    try:
        size = _regular(fd, limit)
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(min(size, limit) + 1)
    except OSError as exc:
        raise StoredFileError(exc.strerror or "can't be read") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise StoredFileError(f"over {limit:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise StoredFileError("not UTF-8 text") from None


def is_regular(path: Path) -> bool:
    """Whether ``path`` is a regular file itself (a link to one is not)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def confined_text_path(folder: Path, game_id: str, name: str) -> Path:
    """The game's own rulebook file ``folder/ID/name``: a real folder holding a regular
    file (neither a link), inside ``folder`` with every link resolved."""
    own = folder / game_id
    path = own / name
    try:
        if not stat.S_ISDIR(os.lstat(own).st_mode) or not is_regular(path):
            raise StoredFileError(f"its {name} is not a regular file in its own folder")
        inside = Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))
    except OSError:
        raise StoredFileError(f"its {name} can't be read") from None
    if not inside:
        raise StoredFileError(f"its {name} is outside the data folder")
    return path


# ------------------------------------------------------------------ the restore file
def _constant(name: str) -> NoReturn:
    raise StoredFileError(f"{name} is not a number JSON allows")


def parse_meta(text: str) -> dict[str, Any]:
    """A restore file's JSON, strict: an object, no NaN or Infinity, not nested deeper
    than Python parses (StoredFileError otherwise)."""
    try:
        meta = json.loads(text, parse_constant=_constant)
    except RecursionError:
        raise StoredFileError("nested too deep") from None
    except StoredFileError:
        raise
    except ValueError:
        raise StoredFileError("not JSON") from None
    if not isinstance(meta, dict):
        raise StoredFileError("not a JSON object")
    return meta


def _want(ok: bool, key: str) -> None:
    if not ok:
        raise StoredFileError(f"its {key} is not what a game keeps there")


def _whole(value: Any, lo: int, hi: int) -> bool:
    return type(value) is int and lo <= value <= hi


def check_source(source: Any) -> None:
    """A stored rulebook source names shipped rulebooks and house rules only (never a
    path: a file elsewhere is never read for a stored game)."""
    _want(isinstance(source, dict), "source")
    rulebook, base, house = source.get("rulebook"), source.get("base"), source.get("house")
    _want(rulebook is None or (isinstance(rulebook, str) and rulebook in shipped_names()),
          "source.rulebook")
    # base: null in the games of servers before it was filled in (used only by overlays)
    _want(base is None or (isinstance(base, str) and base in shipped_names()), "source.base")
    _want(isinstance(house, list) and all(isinstance(h, str) and h in house_names()
                                          for h in house), "source.house")
    settings = source.get("set")
    _want(isinstance(settings, dict) and all(isinstance(k, str) and isinstance(v, str)
                                             for k, v in settings.items()), "source.set")
    overlay = source.get("overlay")
    _want(type(overlay) is bool and not (overlay and base is None), "source.overlay")


def check_listed(meta: Mapping[str, Any]) -> None:
    """The keys the list of games shows: of their types, numbers finite."""
    _want(isinstance(meta.get("title"), str), "title")
    _want(_whole(meta.get("players"), 2, 10_000), "players")
    seats = meta.get("seats")
    _want(isinstance(seats, list) and len(seats) == meta["players"] and
          all(isinstance(s, str) for s in seats), "seats")
    _want(isinstance(meta.get("status"), str), "status")
    updated = meta.get("updated")
    _want(isinstance(updated, (int, float)) and not isinstance(updated, bool) and
          math.isfinite(updated), "updated")


def check_meta(meta: Mapping[str, Any], max_steps: int, max_actions: int) -> None:
    """Every key a restore uses, of its type and within the server's bounds."""
    check_listed(meta)
    _want(isinstance(meta.get("rulebook_name"), str), "rulebook_name")
    _want(all(s == "human" or s in AGENTS for s in meta["seats"]), "seats")
    check_source(meta.get("source"))
    _want(_whole(meta.get("seed"), 0, 2 ** 64), "seed")
    _want(type(meta.get("one_round")) is bool, "one_round")
    budgets = meta.get("budgets")
    _want(isinstance(budgets, dict) and set(budgets) == {"max_steps", "max_actions"} and
          _whole(budgets["max_steps"], 1, max_steps) and
          _whole(budgets["max_actions"], 1, max_actions), "budgets")
    answers = meta.get("answers")
    _want(isinstance(answers, list) and all(isinstance(a, str) for a in answers), "answers")
    script = meta.get("script", [])  # a record's steps its agents play first (branch.py)
    _want(isinstance(script, list) and all(isinstance(a, str) for a in script), "script")
    deal = meta.get("deal", [0, 0])  # [seed, dealer] of a record's one round (branch.py)
    _want(isinstance(deal, list) and len(deal) == 2 and _whole(deal[0], 0, 2 ** 64) and
          _whole(deal[1], 0, meta["players"] - 1), "deal")


# ------------------------------------------------------------------ writing
def unwritable(exc: OSError) -> ApiError:
    """The 507 of a data folder the server can't write to (no path in it)."""
    why = "the disk is full" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else \
        "the data folder is not writable"
    return ApiError(507, f"can't save games: {why}")


def write_new(path: Path, text: str) -> None:
    """Write ``path`` anew: a fresh temporary file beside it, renamed over it (never half
    written; a link or FIFO at ``path`` is replaced, not written through)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def append(path: Path, text: str) -> None:
    """Append ``text`` to the regular file ``path`` (created if need be; never a link)."""
    fd = os.open(path, _APPEND, 0o644)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        with os.fdopen(fd, "ab", closefd=False) as out:
            out.write(text.encode("utf-8"))
    finally:
        os.close(fd)
