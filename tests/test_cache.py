"""The compiled-rulebook cache (uno_rules.load.cache): the same rulebook with and without it,
never a stale one, nothing trusted from a corrupt or foreign entry, no cache when it is off
or can't be written, errors never cached, and the confinement checks held as without it.
(tests/test_imports.py: a cached load, in a fresh interpreter, imports neither yaml nor
jsonschema.)"""

from __future__ import annotations

import os
import pickle
import random
import stat
import subprocess
import sys
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import load_cases

import uno_rules
from uno_rules.cli import cli
from uno_rules.engine.errors import RulebookError
from uno_rules.load import cache, loader

VARIANTS: list[tuple[str, list[str], dict[str, Any]]] = [
    ("classic", [], {}), ("flip", [], {}), ("no_mercy", [], {}), ("teams", [], {}),
    ("classic", ["stacking", "seven_zero", "jump_in"], {}),
    ("classic", [], {"hand_size": "5", "uno_penalty": 4}),
]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh cache folder for the test."""
    where = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV, str(where))
    return where


class Fresh:
    """Counts the loads that read the YAML (the loader's check): 0 means served by cache."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        check = loader.check

        def counting(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return check(*args, **kwargs)
        monkeypatch.setattr(loader, "check", counting)


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Fresh:
    return Fresh(monkeypatch)


def entries(where: Path) -> list[Path]:
    return sorted(where.glob("*" + cache.SUFFIX)) if where.exists() else []


def events(rulebook: uno_rules.Rulebook, seed: int = 3) -> list[str]:
    """The events of a seeded random round."""
    game = rulebook.new_game(rulebook.player_counts()[0], seed=seed)
    bot = random.Random(seed)
    while not game.over:
        game.apply(bot.choice(game.legal_actions()))
    return [str(e) for e in game.events]


def test_the_same_rules_and_the_same_play_with_and_without_cache(
        folder: Path, fresh: Fresh, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, house, settings in VARIANTS:
        stored = uno_rules.load_rulebook(name, house=house, settings=settings)
        served = uno_rules.load_rulebook(name, house=house, settings=settings)
        monkeypatch.setenv(cache.ENV, "off")
        plain = uno_rules.load_rulebook(name, house=house, settings=settings)
        monkeypatch.setenv(cache.ENV, str(folder))
        assert served is not stored and served == stored == plain
        assert served.source == plain.source and served.house == plain.house
        assert dict(served.overrides) == dict(plain.overrides)
        assert events(served) == events(plain)
    assert fresh.calls == 2 * len(VARIANTS)  # each stored once, loaded afresh when off
    assert len(entries(folder)) == len(VARIANTS)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_a_served_rulebook_brings_its_digest(folder: Path, fresh: Fresh,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest (snapshots and records write it; a big deck's costs a tenth of a second)
    is stored with the entry: a served rulebook has it without computing it again, and it
    is the digest a fresh load computes."""
    from uno_rules.engine.snapshot import digest

    uno_rules.load_rulebook("flip")
    served = uno_rules.load_rulebook("flip")
    assert fresh.calls == 1
    carried = served.memo.get("digest")
    monkeypatch.setenv(cache.ENV, "off")
    plain = uno_rules.load_rulebook("flip")
    assert "digest" not in plain.memo  # computed only when asked for
    assert carried is not None and carried == digest(plain)


def test_a_served_rulebook_has_its_attribute_names_interned(folder: Path,
                                                             fresh: Fresh) -> None:
    """Interpreted, a rulebook's attribute names are the class's shared keys: names left
    un-interned by unpickling turned every attribute read of a round into a string
    comparison (2.5 % of a round). Compiled, a rulebook keeps its fields in C, not a dict."""
    uno_rules.load_rulebook("classic")
    served = uno_rules.load_rulebook("classic")
    assert fresh.calls == 1  # the second came from the cache
    if uno_rules.COMPILED:
        assert not hasattr(served, "__dict__")
        return
    names = list(vars(served))
    assert "deck" in names and "settings" in names
    assert all(name is sys.intern(name) for name in names)


def test_a_setting_keys_by_type_and_value(folder: Path, fresh: Fresh) -> None:
    as_text = uno_rules.load_rulebook("classic", settings={"hand_size": "5"})
    as_int = uno_rules.load_rulebook("classic", settings={"hand_size": 5})
    other = uno_rules.load_rulebook("classic", settings={"hand_size": 6})
    assert fresh.calls == 3 and len(entries(folder)) == 3
    assert uno_rules.load_rulebook("classic", settings={"hand_size": "5"}) == as_text
    assert uno_rules.load_rulebook("classic", settings={"hand_size": 5}) == as_int
    assert uno_rules.load_rulebook("classic", settings={"hand_size": 6}) == other
    assert fresh.calls == 3
    assert as_text.settings.hand_size == 5 and other.settings.hand_size == 6


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def _user_files(tmp_path: Path) -> tuple[Path, Path, Path]:
    """variant.yaml extends base.yaml (which extends classic) and includes mine.yaml."""
    base = tmp_path / "base.yaml"
    base.write_text("name: base\nextends: classic\nsettings: {hand_size: 6}\n")
    overlay = tmp_path / "mine.yaml"
    overlay.write_text("name: mine\nsettings: {uno_penalty: 3}\n")
    variant = tmp_path / "variant.yaml"
    variant.write_text("name: variant\nextends: base.yaml\nhouse: [mine.yaml]\n"
                       "settings: {target_score: 300}\n")
    return variant, base, overlay


def test_a_changed_file_is_never_served_stale(folder: Path, tmp_path: Path,
                                              fresh: Fresh) -> None:
    variant, base, overlay = _user_files(tmp_path)
    given = tmp_path / "given.yaml"  # an overlay given to load_rulebook
    given.write_text("name: given\nsettings: {next_dealer: left}\n")

    def load() -> uno_rules.Rulebook:
        return uno_rules.load_rulebook(variant, house=[str(given)])
    first = load()
    assert (first.settings.hand_size, first.settings.uno_penalty,
            first.settings.target_score, first.settings.next_dealer) == (6, 3, 300, "left")
    assert load() == first and fresh.calls == 1  # unchanged: served
    _edit(variant, "300", "301")  # one byte of the rulebook
    assert load().settings.target_score == 301 and fresh.calls == 2
    _edit(base, "6", "5")  # of what it extends
    assert load().settings.hand_size == 5 and fresh.calls == 3
    _edit(overlay, "3", "4")  # of an overlay it includes
    assert load().settings.uno_penalty == 4 and fresh.calls == 4
    _edit(given, "left", "winner")  # of an overlay given
    assert load().settings.next_dealer == "winner" and fresh.calls == 5
    assert load().settings.next_dealer == "winner" and fresh.calls == 5
    assert len(entries(folder)) == 1  # one request, one entry, rewritten each time


def test_a_file_replaced_by_a_link_to_the_same_bytes_elsewhere_is_checked_again(
        folder: Path, tmp_path: Path, fresh: Fresh) -> None:
    variant, base, _ = _user_files(tmp_path)
    uno_rules.load_rulebook(variant)
    away = tmp_path.parent / f"{tmp_path.name}-away.yaml"  # outside the variant's folder
    away.write_bytes(base.read_bytes())
    base.unlink()
    base.symlink_to(away)
    with pytest.raises(RulebookError, match="outside this file's folder, so not read"):
        uno_rules.load_rulebook(variant)  # as without a cache: refused
    assert fresh.calls == 2
    away.unlink()


def test_a_folder_replaced_by_links_to_the_same_files_is_checked_again(
        folder: Path, tmp_path: Path, fresh: Fresh) -> None:
    """Each file's real path and bytes unchanged, but the folder that names the base is now
    another: the confinement check refuses the base, as it would without a cache."""
    real = tmp_path / "real"
    real.mkdir()
    _user_files(real)
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    variant = link / "variant.yaml"
    assert uno_rules.load_rulebook(variant).name == "variant"
    link.unlink()
    link.mkdir()
    for name in ("variant.yaml", "base.yaml", "mine.yaml"):
        (link / name).symlink_to(real / name)
    with pytest.raises(RulebookError, match="outside this file's folder, so not read"):
        uno_rules.load_rulebook(variant)
    assert fresh.calls == 2


def test_root_and_max_bytes_hold_with_a_warm_cache(folder: Path, tmp_path: Path,
                                                   fresh: Fresh) -> None:
    inner = tmp_path / "inner"
    inner.mkdir()
    (tmp_path / "shared.yaml").write_text("name: shared\nextends: classic\n")
    variant = inner / "variant.yaml"
    variant.write_text("name: variant\nextends: ../shared.yaml\n")
    trusted = uno_rules.load_rulebook(variant, root=tmp_path)
    assert uno_rules.load_rulebook(variant, root=tmp_path) == trusted and fresh.calls == 1
    with pytest.raises(RulebookError, match="outside this file's folder"):
        uno_rules.load_rulebook(variant)  # without root= it is refused, cache or not
    with pytest.raises(RulebookError, match="more than the limit of 100"):
        uno_rules.load_rulebook(variant, root=tmp_path, max_bytes=100)
    assert fresh.calls == 3


def test_errors_are_never_cached(folder: Path, tmp_path: Path, fresh: Fresh) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nextends: classic\nsettings: {hand_size: many}\n")
    messages = []
    for _ in range(2):
        with pytest.raises(RulebookError) as caught:
            uno_rules.load_rulebook(bad)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] and f"{bad}:3:" in messages[0]
    assert fresh.calls == 2 and entries(folder) == []
    _edit(bad, "many", "5")
    assert uno_rules.load_rulebook(bad).settings.hand_size == 5


def _entry(where: Path) -> Path:
    """The one entry in the folder (after one load)."""
    found = entries(where)
    assert len(found) == 1
    return found[0]


class Boom:
    """Unpickling this would write a marker file: an entry that names it must not run."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.mkdir, (os.environ["BOOM"],))


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty", "other magic",
                                    "foreign code", "another key", "not a rulebook",
                                    "a folder", "too big", "zeros", "nested", "a fifo"])
def test_a_corrupt_or_foreign_entry_is_ignored_and_rewritten(
        damage: str, folder: Path, fresh: Fresh, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    right = uno_rules.load_rulebook("classic")
    path = _entry(folder)
    data = path.read_bytes()
    marker = tmp_path / "boom"
    monkeypatch.setenv("BOOM", str(marker))
    if damage == "truncated":
        path.write_bytes(data[:len(data) // 2])
    elif damage == "garbage":
        path.write_bytes(cache.MAGIC + bytes(range(256)) * 10)
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "other magic":
        path.write_bytes(data.replace(b"rulebook 1", b"rulebook 0", 1))
    elif damage == "foreign code":
        path.write_bytes(cache.MAGIC + pickle.dumps({"key": None, "boom": Boom()}))
    elif damage == "another key":  # a sound entry, for the flip rulebook
        flip = uno_rules.load_rulebook("flip")
        other = next(p for p in entries(folder) if p != path)
        path.write_bytes(other.read_bytes())
        assert flip.name == "flip"
    elif damage == "not a rulebook":
        entry = pickle.loads(data[len(cache.MAGIC):])
        entry["rulebook"] = "classic"
        path.write_bytes(cache.MAGIC + pickle.dumps(entry))
    elif damage == "a folder":
        path.unlink()
        path.mkdir()
    elif damage == "zeros":
        path.write_bytes(cache.MAGIC + bytes(100_000))
    elif damage == "nested":  # tuples 100,000 deep (bench/hostile_cases/cache.py: 2 million)
        path.write_bytes(cache.MAGIC + b"(" * 100_000 + b"t" * 100_000 + b".")
    elif damage == "a fifo":  # opened without blocking, and not read
        path.unlink()
        os.mkfifo(path)
    elif damage == "too big":
        with path.open("ab") as f:
            f.truncate(cache.MAX_ENTRY + 1)  # sparse: costs no disk
    calls = fresh.calls
    assert uno_rules.load_rulebook("classic") == right
    assert fresh.calls == calls + 1  # loaded afresh
    assert not marker.exists()
    if damage != "a folder":  # written again (a FIFO replaced by the file), and served from then on
        assert uno_rules.load_rulebook("classic") == right and fresh.calls == calls + 1
        assert path.read_bytes().startswith(cache.MAGIC) and path.stat().st_size < 100_000


def test_off_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            fresh: Fresh) -> None:
    monkeypatch.setenv(cache.ENV, "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for _ in range(2):
        uno_rules.load_rulebook("classic", house=["stacking"])
    assert fresh.calls == 2
    assert list(tmp_path.iterdir()) == []


def test_the_default_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cache.ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.folder() == tmp_path / "xdg" / "uno-rules"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")  # ignored, as XDG says
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache.folder() == tmp_path / ".cache" / "uno-rules"
    uno_rules.load_rulebook("classic")
    assert len(entries(tmp_path / ".cache" / "uno-rules")) == 1

    def homeless() -> Path:
        raise RuntimeError("Could not determine home directory")
    monkeypatch.setattr(cache.Path, "home", homeless)
    assert cache.folder() is None  # no cache, and the load still works
    assert uno_rules.load_rulebook("classic").name == "classic"


def test_no_usable_folder_means_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         fresh: Fresh) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(cache.ENV, str(blocker / "cache"))  # can't be made
    assert uno_rules.load_rulebook("classic").name == "classic"
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # anyone may write: an entry there could be anyone's code
    monkeypatch.setenv(cache.ENV, str(shared))
    for _ in range(2):
        assert uno_rules.load_rulebook("classic").name == "classic"
    assert fresh.calls == 3 and list(shared.iterdir()) == []
    assert blocker.read_text() == "not a folder"


def test_an_unusual_setting_is_loaded_afresh(folder: Path, fresh: Fresh) -> None:
    class Five(int):
        pass
    for _ in range(2):  # not keyed: an int's subclass might compare or print otherwise
        assert uno_rules.load_rulebook("classic", settings={"hand_size": Five(5)}
                                       ).settings.hand_size == 5
    assert fresh.calls == 2 and entries(folder) == []
    deep: list[Any] = []
    for _ in range(100_000):  # deeper than Python's recursion limit
        deep = [deep]
    with pytest.raises(RulebookError, match="nested too deeply"):  # as without a cache
        uno_rules.load_rulebook("classic", settings={"hand_size": deep})
    assert entries(folder) == []


def test_old_entries_are_removed(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    for size in range(2, 8):
        uno_rules.load_rulebook("classic", settings={"hand_size": size})
    assert len(entries(folder)) == 3
    assert not [p for p in folder.iterdir() if p.name.startswith(".tmp")]


def test_an_entry_is_written_whole(folder: Path, monkeypatch: pytest.MonkeyPatch,
                                   fresh: Fresh) -> None:
    """A write that fails half-way leaves no entry and no temporary file behind."""
    def failing(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(cache.os, "replace", failing)
    assert uno_rules.load_rulebook("classic").name == "classic"
    assert list(folder.iterdir()) == []
    monkeypatch.undo()


RACE = """
import sys, uno_rules
from uno_rules.load import cache
for round in range(3):
    for size in range(2, 9):
        rulebook = uno_rules.load_rulebook("classic", settings={"hand_size": size})
        assert rulebook.settings.hand_size == size
print("ok", cache.code_digest())
"""


def test_processes_at_once_share_the_folder(folder: Path, fresh: Fresh) -> None:
    """Four processes loading and storing the same entries at the same time: each load is
    right, and every entry left is whole."""
    # The code digest (part of every entry's key) read now, as the children read it, not
    # the one this process kept from its first load: the files it digests changed since
    # then (a developer editing the tree during a long run under load) made every load
    # below miss, though the children had shared the folder rightly.
    cache.code_digest.cache_clear()
    children = [subprocess.Popen([sys.executable, "-c", RACE], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for _ in range(4)]
    for child in children:
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0 and out.split() == ["ok", cache.code_digest()], err
    assert len(entries(folder)) == 7
    assert not [p for p in folder.iterdir() if p.name.startswith(".tmp")]  # none left
    for size in range(2, 9):  # served from the entries the children left
        assert uno_rules.load_rulebook("classic", settings={"hand_size": size}
                                       ).settings.hand_size == size
    assert fresh.calls == 0


def test_restore_is_served_too(folder: Path, fresh: Fresh) -> None:
    rulebook = uno_rules.load_rulebook("classic", house=["stacking"])
    game = rulebook.new_game(3, seed=5)
    for _ in range(10):
        game.apply(game.decision.options[0])
    again = uno_rules.restore(game.snapshot())
    assert again.snapshot() == game.snapshot() and fresh.calls == 1


def test_the_hostile_bench_cases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """bench/hostile_cases/cache.py's damaged entries (timed there in fresh processes):
    each command still prints the deck, runs no code from the entry, and rewrites it."""
    module = load_cases("cache")
    where = tmp_path / "uno-rules-cache"
    monkeypatch.setenv(cache.ENV, str(where))
    own = tmp_path / "cache"
    own.mkdir()
    found = module.cases(own)
    assert len(found) == 7
    for name, args, code in found:
        done = CliRunner().invoke(cli, args)
        assert (done.exit_code, code) == (0, 0), (name, done.output)
        assert "wild draw four   x4    50 pts" in done.output, name
    assert not (own / "ran").exists()
    rewritten = entries(where)  # one a request, the FIFO replaced by a file
    assert len(rewritten) == 7 and all(p.is_file() for p in rewritten)
    assert all(p.stat().st_size < 100_000 for p in rewritten)
    monkeypatch.setenv(cache.ENV, str(tmp_path.parent / "elsewhere"))
    assert module.cases(own) == []  # never plants entries in another folder


# ------------------------------------------------ every pickle opcode that names or calls code
SENTINEL = """
from pathlib import Path

MARKER = Path({marker!r})
MARKER.write_text("imported")  # importing this module is code too: an entry must not


def ran(what):
    with MARKER.open("a") as f:
        f.write(" " + what)


class Fire:
    def __new__(cls, *args, **kwargs):
        ran("new")
        return super().__new__(cls)

    def __init__(self, *args, **kwargs):
        ran("init")

    def __setstate__(self, state):
        ran("setstate")


Fire.Inner = type("Inner", (Fire,), {{}})  # reached only by walking a dotted name
"""

EXTENSIONS = {"EXT1": (b"\x82", 1, 0xF1), "EXT2": (b"\x83", 2, 0x1F2E),
              "EXT4": (b"\x84", 4, 0x1F2E3D4C)}


def _text(value: str) -> bytes:
    return b"V" + value.encode() + b"\n"  # UNICODE: read at every protocol


def _payload(opcode: str, protocol: int, module: str, name: str, arg: str) -> bytes:
    """A pickle expression that names ``module.name`` and, but for GLOBAL alone, calls it
    with ``arg`` (or builds an instance of it) through ``opcode``."""
    named = b"c" + module.encode() + b"\n" + name.encode() + b"\n"
    call = b"(" + _text(arg) + b"tR"
    if opcode in EXTENSIONS:
        op, size, code = EXTENSIONS[opcode]
        return op + code.to_bytes(size, "little") + call
    made = named + b")\x81" if protocol >= 2 else b"(" + b"i" + named[1:]  # an instance
    return {
        "GLOBAL": named + b"0",  # named only: the import alone would run code
        "STACK_GLOBAL": _text(module) + _text(name) + b"\x93" + call,
        "REDUCE": named + call,
        "INST": b"(" + _text(arg) + b"i" + named[1:],
        "OBJ": b"(" + named + _text(arg) + b"o",
        "NEWOBJ": named + b"(" + _text(arg) + b"t\x81",
        "NEWOBJ_EX": named + b"(" + _text(arg) + b"t}\x92",
        "BUILD": made + _text(arg) + b"b",  # __setstate__
        "PERSID": b"P" + arg.encode() + b"\n",
        "BINPERSID": _text(arg) + b"Q",
    }[opcode]


def _opcode_cases() -> list[tuple[str, int, str]]:
    """(opcode, protocol, target) for each protocol that has the opcode: the sentinel's
    class by its plain name, by a dotted name, and os.system walked to from an engine
    module (as the issue's entry did: protocol 4's lookup walks dotted names)."""
    cases = []
    for opcode, first in [("GLOBAL", 0), ("REDUCE", 0), ("INST", 0), ("OBJ", 0),
                          ("BUILD", 0), ("NEWOBJ", 2), ("STACK_GLOBAL", 4),
                          ("NEWOBJ_EX", 4), ("EXT1", 2), ("EXT2", 2), ("EXT4", 2),
                          ("PERSID", 0), ("BINPERSID", 1)]:
        for protocol in range(first, 6):
            targets = ["plain", "dotted"] if "PERSID" not in opcode else ["plain"]
            if protocol >= 4 and opcode in ("REDUCE", "STACK_GLOBAL", "INST", "OBJ"):
                targets.append("engine")
            cases += [(opcode, protocol, target) for target in targets]
    return cases


class _Permissive(pickle.Unpickler):
    """Python's own unpickler, with a persistent_load that runs code (for PERSID)."""

    def persistent_load(self, pid: Any) -> Any:
        return __import__(os.environ["SENTINEL"]).Fire()


@pytest.mark.parametrize("opcode,protocol,target", _opcode_cases())
def test_an_entry_reaches_no_code_by_any_opcode(
        opcode: str, protocol: int, target: str, folder: Path, fresh: Fresh,
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An otherwise sound entry with one expression that would run code: each opcode that
    names a global or calls one, at each protocol that has it. Python's own unpickler runs
    the code (so the expression is live); the cache's refuses the entry before any runs —
    the module isn't even imported — and the rulebook loads afresh from its YAML."""
    import copyreg
    import io
    import uuid

    right = uno_rules.load_rulebook("classic")
    path = _entry(folder)
    sound = path.read_bytes()[len(cache.MAGIC):]
    module = f"uno_sentinel_{uuid.uuid4().hex}"  # a module never imported before
    marker = tmp_path / "ran"
    (tmp_path / f"{module}.py").write_text(SENTINEL.format(marker=str(marker)))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("SENTINEL", module)
    module_name, name, arg = {
        "plain": (module, "Fire", "x"), "dotted": (module, "Fire.Inner", "x"),
        "engine": ("uno_rules.engine.game", "random._os.system", f"echo system >> {marker}"),
    }[target]
    head = b"\x80" + bytes([protocol]) if protocol >= 2 else b""
    # the expression, dropped (POP), then the sound entry: only the expression differs
    tampered = head + _payload(opcode, protocol, module_name, name, arg) + b"0" + sound
    if opcode in EXTENSIONS:  # the code registered, as a program embedding us might
        copyreg.add_extension(module_name, name, EXTENSIONS[opcode][2])

    def refused() -> None:
        path.write_bytes(cache.MAGIC + tampered)
        calls = fresh.calls
        assert uno_rules.load_rulebook("classic") == right
        assert fresh.calls == calls + 1  # loaded afresh from the YAML
        assert not marker.exists(), marker.read_text()
    try:
        refused()
        assert module not in sys.modules
        with suppress(Exception):  # a dotted name before protocol 4: imported, not found
            _Permissive(io.BytesIO(tampered)).load()
        assert marker.exists()  # the expression is live: Python's own unpickler runs it
        if opcode in EXTENSIONS:  # now resolved in copyreg's cache, past find_class
            marker.unlink()
            refused()
    finally:
        if opcode in EXTENSIONS:
            copyreg.remove_extension(module_name, name, EXTENSIONS[opcode][2])
        sys.modules.pop(module, None)
    calls = fresh.calls
    path.write_bytes(cache.MAGIC + b"\x80\x05N0" + sound)  # the same splice, harmless:
    assert uno_rules.load_rulebook("classic") == right and fresh.calls == calls  # served


@pytest.mark.parametrize("module,name", [
    ("uno_rules.engine.effects", "_draw"), ("uno_rules.engine.effects", "PRIMITIVES"),
    ("uno_rules.engine.model", "Step"), ("uno_rules.engine.model", "Rules"),
    ("uno_rules.engine.model", "Face.__init__"), ("uno_rules.engine.model", "sys.modules"),
    ("uno_rules.engine.game", "random._os.system"), ("uno_rules.engine.rulebook", "Game"),
    ("uno_rules.engine.rulebook.Rulebook", "__init__"), ("uno_rules.engine", "model"),
    ("builtins", "eval"), ("__builtin__", "eval"), ("copyreg", "_reconstructor"),
    ("os", "system"), ("posix", "system"), ("", ""), ("uno_rules.engine.model", "Face "),
])
def test_an_entry_names_only_the_records_exactly(module: str, name: str) -> None:
    """The exact (module, name) pairs, nothing else — another name of the same modules, a
    dotted name, a module, a name Python's own lookup would map (``__builtin__``)."""
    import io

    unpickler = cache._Unpickler(io.BytesIO(b""))
    with pytest.raises(pickle.UnpicklingError, match="is not a rulebook record"):
        unpickler.find_class(module, name)
    assert sorted(cache.allowed()) == [
        ("uno_rules.engine.effects", "bound_step"), ("uno_rules.engine.model", "CardRule"),
        ("uno_rules.engine.model", "Combo"), ("uno_rules.engine.model", "Face"),
        ("uno_rules.engine.model", "FrozenMap"),
        ("uno_rules.engine.model", "LegalIf"), ("uno_rules.engine.model", "Settings"),
        ("uno_rules.engine.rulebook", "Rulebook")]
    for (where, what), found in cache.allowed().items():  # pickle writes these names
        assert unpickler.find_class(where, what) is found
        assert (found.__module__, found.__qualname__) == (where, what)


def test_every_shipped_rulebook_is_served_naming_only_records(folder: Path,
                                                              fresh: Fresh) -> None:
    """Each shipped rulebook's entry is read (it names nothing outside the list) and is the
    rulebook loaded afresh, its steps bound to their primitives' functions again."""
    from uno_rules.engine.effects import PRIMITIVES
    from uno_rules.load.resources import shipped_names

    names = list(shipped_names())
    stored = [uno_rules.load_rulebook(name) for name in names]
    served = [uno_rules.load_rulebook(name) for name in names]
    assert fresh.calls == len(names) and served == stored
    for rulebook in served:
        assert all(step.run is PRIMITIVES[step.op].run
                   for program in rulebook.programs for step in program)


def test_a_tampered_entry_runs_no_command_through_the_cli(tmp_path: Path) -> None:
    """The issue's entry: `uno-rules deck classic` in a fresh process, its entry led by a
    STACK_GLOBAL walked to os.system (bench/hostile_cases/cache.py): the deck, exit 0, and
    no marker; the entry is written again."""
    where, marker = tmp_path / "cache", tmp_path / "ran"
    env = {**os.environ, cache.ENV: str(where)}

    def deck() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "uno_rules", "deck", "classic"],
                              env=env, capture_output=True, text=True, timeout=120)
    assert deck().returncode == 0
    path = _entry(where)
    path.write_bytes(load_cases("cache").walked_to_system(path.read_bytes(), marker))
    done = deck()
    assert (done.returncode, done.stderr) == (0, "")
    assert "wild draw four   x4    50 pts" in done.stdout
    assert not marker.exists()
    assert path.read_bytes().startswith(cache.MAGIC) and len(path.read_bytes()) < 100_000
    assert b"_os.system" not in path.read_bytes()


def test_a_home_folder_that_isnt_there_means_no_cache(tmp_path: Path) -> None:
    """HOME naming a folder that doesn't exist (HOME=/no/such-xyz: a service's account):
    `uno-rules deck classic` works and exits 0, and nothing is made — not the home folder,
    not its .cache (docs/cache.md: no home folder, no cache). A home that exists gets its
    .cache made."""
    home = tmp_path / "no" / "such-xyz"
    env = {k: v for k, v in os.environ.items() if k not in (cache.ENV, "XDG_CACHE_HOME")}
    done = subprocess.run([sys.executable, "-m", "uno_rules", "deck", "classic"],
                          env={**env, "HOME": str(home)}, capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert "wild draw four   x4    50 pts" in done.stdout
    assert list(tmp_path.iterdir()) == []
    home.mkdir(parents=True)
    done = subprocess.run([sys.executable, "-m", "uno_rules", "deck", "classic"],
                          env={**env, "HOME": str(home)}, capture_output=True, timeout=120)
    assert done.returncode == 0 and len(entries(home / ".cache" / "uno-rules")) == 1
