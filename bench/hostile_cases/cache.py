"""The compiled-rulebook cache (uno_rules.load.cache): damaged entries in the cache folder
that bench/hostile.py gives its children (``UNO_RULES_CACHE``): each is ignored, the
rulebook loads afresh (exit 0) and the entry is written again. tests/test_cache.py checks
the same entries in-process (the rulebook is the right one, no foreign code runs)."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

from uno_rules.load import cache
from uno_rules.load.entry import load_rulebook


class _System:
    """An entry that would run a shell command if unpickled by a plain unpickler."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, ...]:
        return (os.system, (f"touch {self.marker}",))


def walked_to_system(entry: bytes, marker: Path) -> bytes:
    """A sound entry with, before it, protocol 4's STACK_GLOBAL of ``random._os.system``
    from an engine module (a lookup that walks dotted names reaches ``os.system``), called
    to create ``marker``."""
    def text(value: str) -> bytes:
        return b"\x8c" + bytes([len(value)]) + value.encode()  # SHORT_BINUNICODE
    command = f"touch '{marker}'"
    return (cache.MAGIC + b"\x80\x04" + text("uno_rules.engine.game")
            + text("random._os.system") + b"\x93" + text(command) + b"\x85R0"
            + entry[len(cache.MAGIC):])


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    where = Path(os.environ.get(cache.ENV, "off"))
    if not where.is_absolute() or not where.is_relative_to(tmp.parent):
        return []  # only in hostile.py's own folder, never the user's cache
    out = []

    def entry(size: int, damage: str) -> Path:
        """The entry of `deck classic --set hand_size=SIZE`, made and found here."""
        settings = {"hand_size": str(size)}
        load_rulebook("classic", settings=settings)  # writes it (the same key as the CLI's)
        key = cache.request_key("classic", settings, ())
        assert key is not None
        path = cache._entry_path(where, key)
        assert path.is_file()
        out.append((f"cache entry: {damage}", ["deck", "classic", "--set", f"hand_size={size}"],
                    0))
        return path

    path = entry(3, "truncated")
    path.write_bytes(path.read_bytes()[:200])
    path = entry(4, "4 MB of zeros after the header")
    path.write_bytes(cache.MAGIC + bytes(cache.MAX_ENTRY - len(cache.MAGIC)))
    path = entry(5, "1 GB (sparse)")
    with path.open("ab") as f:
        f.truncate(1 << 30)
    path = entry(6, "tuples nested 2 million deep")
    n = (cache.MAX_ENTRY - len(cache.MAGIC)) // 2 - 1
    path.write_bytes(cache.MAGIC + b"(" * n + b"t" * n + b".")
    path = entry(8, "a pickle calling os.system")
    path.write_bytes(cache.MAGIC + pickle.dumps(_System(tmp / "ran")))
    path = entry(10, "STACK_GLOBAL of random._os.system from an engine module")
    path.write_bytes(walked_to_system(path.read_bytes(), tmp / "ran"))
    path = entry(9, "a FIFO")
    path.unlink()
    os.mkfifo(path)
    return out
