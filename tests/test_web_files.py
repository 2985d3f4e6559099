"""The web playground's stored games as hostile files (uno_rules/web/files.py, and its use
in games.py): nothing outside the data folder is read or quoted, only regular files are
opened, a damaged restore file is never a 500 (nor breaks the list of games), and a data
folder that can't be written is a clear 507. The planted files are in
tests/hostile/web/stored/ (README: "stored games")."""

from __future__ import annotations

import errno
import json
import os
import shutil
import threading
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about httpx2
    from starlette.testclient import TestClient

from web_client import get_urls, local_client

from uno_rules.web import files
from uno_rules.web.files import StoredFileError, parse_meta, read_stored

STORED = Path(__file__).parent / "hostile" / "web" / "stored"
SECRET_KEY, SECRET = "web_secret_key_zq7", "planted-secret-value-4b1d9"
ROUND = {"rulebook": "classic", "players": 2, "humans": [0], "seed": 1, "round": True}
TEXT = {"text": "extends: classic\nname: mine\n", "players": 2, "seed": 1, "round": True}
OVERLAY = {"text": "settings: {hand_size: 5}\n", "players": 2, "seed": 1, "round": True}


def create(c: TestClient, body: dict[str, Any]) -> str:
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    game: str = r.json()["game"]
    return game


def edit_meta(games: Path, game: str, change: Callable[[dict[str, Any]], None]) -> None:
    path = games / f"{game}.json"
    meta = json.loads(path.read_text())
    change(meta)
    path.write_text(json.dumps(meta))


def answers(c: TestClient, game: str) -> Iterator[tuple[str, Any]]:
    """Every endpoint asked about ``game``: (what was asked, the answer)."""
    for url in ["/api/games", *get_urls(c, game)]:
        yield url, c.get(url)
    yield "answer", c.post(f"/api/games/{game}/answer", json={"version": 0, "answer": "1"})


# ------------------------------------------------------------------ reading one file
def test_only_a_regular_file_within_its_limit_is_read(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text('{"a": 1}')
    assert read_stored(good, 100) == '{"a": 1}'
    link = tmp_path / "link.json"
    link.symlink_to(good)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    latin = tmp_path / "latin.json"
    latin.write_bytes(b"\xe9")
    for path, why in [(link, "a symbolic link"), (fifo, "not a regular file"),
                      (tmp_path, "not a regular file"), (latin, "not UTF-8 text")]:
        with pytest.raises(StoredFileError, match=f"^{why}$"):
            read_stored(path, 100)
    with pytest.raises(StoredFileError, match="^over 4 bytes$"):
        read_stored(good, 4)
    with pytest.raises(FileNotFoundError):
        read_stored(tmp_path / "gone.json", 100)


@pytest.mark.parametrize(("text", "why"), [
    ((STORED / "nan_title.json").read_text(), "NaN is not a number JSON allows"),
    ((STORED / "infinite_updated.json").read_text(), "Infinity is not a number JSON allows"),
    ("[" * 100_000 + "]" * 100_000, "nested too deep"),
    ("{", "not JSON"), ("[]", "not a JSON object")])
def test_a_restore_file_is_strict_json(text: str, why: str) -> None:
    with pytest.raises(StoredFileError, match=f"^{why}$"):
        parse_meta(text)


# ------------------------------------------------------------------ files outside the folder
def plant(tmp_path: Path) -> tuple[Path, Path]:
    """The secret, outside the data folder ``tmp_path/data``: its folder and its file."""
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.yaml"
    shutil.copy(STORED / "secret.yaml", secret)
    return outside, secret


def point_games_outside(c: TestClient, data: Path, outside: Path,
                        secret: Path) -> dict[str, str]:
    """Stored games pointed at the secret in every way a game's files allow: {way: id}."""
    games = data / "games"
    ways: dict[str, str] = {}

    def source(way: str, body: dict[str, Any], key: str, value: Any) -> None:
        ways[way] = create(c, body)
        edit_meta(games, ways[way], lambda meta: meta["source"].__setitem__(key, value))

    source("rulebook, absolute", ROUND, "rulebook", str(secret))
    source("rulebook, relative to the games", ROUND, "rulebook",
           os.path.relpath(secret, games))
    source("rulebook, relative to the server", ROUND, "rulebook",
           os.path.relpath(secret, Path.cwd()))
    source("rulebook, .. from a shipped one", ROUND, "rulebook",
           "classic/../../" + os.path.relpath(secret, games))
    source("base of an overlay", OVERLAY, "base", str(secret))
    source("house", ROUND, "house", [str(secret)])
    source("house, relative", ROUND, "house", [os.path.relpath(secret, games)])
    ways["editor.yaml a link"] = create(c, TEXT)
    editor = games / ways["editor.yaml a link"] / "editor.yaml"
    editor.unlink()
    editor.symlink_to(secret)
    ways["the game's folder a link"] = create(c, TEXT)
    folder = games / ways["the game's folder a link"]
    shutil.rmtree(folder)
    (outside / "folder").mkdir()
    shutil.copy(secret, outside / "folder" / "editor.yaml")
    folder.symlink_to(outside / "folder")
    ways["restore file a link"] = create(c, ROUND)
    meta = games / f"{ways['restore file a link']}.json"
    planted = json.loads(meta.read_text())
    planted["title"] = SECRET
    (outside / "meta.json").write_text(json.dumps(planted))
    meta.unlink()
    meta.symlink_to(outside / "meta.json")
    ways["record a link"] = create(c, ROUND)
    record = games / f"{ways['record a link']}.jsonl"
    shutil.copy(record, outside / "record.jsonl")
    with open(outside / "record.jsonl", "a") as out:
        out.write(json.dumps({SECRET_KEY: SECRET}) + "\n")
    record.unlink()
    record.symlink_to(outside / "record.jsonl")
    return ways


def test_no_file_outside_the_data_folder_is_read_or_quoted(tmp_path: Path) -> None:
    outside, secret = plant(tmp_path)
    data = tmp_path / "data"
    with local_client(data) as c:
        ways = point_games_outside(c, data, outside, secret)
    refused = {}
    with local_client(data) as c:  # a new server: every game comes from its files
        for way, game in ways.items():
            for url, r in answers(c, game):
                assert r.status_code < 500, (way, url, r.text)
                for word in (SECRET, SECRET_KEY, "planted", str(outside),
                             os.path.realpath(outside), str(data)):
                    assert word not in r.text, (way, url, word, r.text)
            r = c.get(f"/api/games/{game}")
            assert r.status_code == 422 and f"game {game}:" in r.json()["error"], (way, r.text)
            refused[way] = r.json()["error"]
        listed = {g["game"] for g in c.get("/api/games").json()["games"]}
    assert ways["restore file a link"] not in listed  # a link: left out, unopened
    assert "is refused: a symbolic link" in refused["record a link"]
    assert "not a regular file in its own folder" in refused["editor.yaml a link"]
    assert "source.rulebook" in refused["rulebook, absolute"]


def test_an_editor_text_naming_a_file_outside_quotes_only_its_own_words(
        tmp_path: Path) -> None:
    """The stored text itself names the secret (``extends``): the loader refuses it unread,
    as ``validate`` does; the answer quotes the text's words, nothing of the file."""
    outside, secret = plant(tmp_path)
    data = tmp_path / "data"
    with local_client(data) as c:
        game = create(c, TEXT)
    (data / "games" / game / "editor.yaml").write_text(f"extends: {secret}\nname: mine\n")
    with local_client(data) as c:
        for url, r in answers(c, game):
            assert r.status_code < 500 and SECRET not in r.text, url
            assert SECRET_KEY not in r.text, url
        error = c.get(f"/api/games/{game}").json()["error"]
    assert "outside this file's folder, so not read" in error


# ------------------------------------------------------------------ only regular files
def release(fifos: list[Path]) -> None:
    """Open each FIFO for writing and close it: a reader blocked on one is let go."""
    for fifo in fifos:
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass  # no reader: nothing to release


def in_thread(work: Callable[[], Any], fifos: list[Path]) -> Any:
    """``work()`` in a thread: a hang on one of ``fifos`` fails the test (the FIFOs are
    released first, so that the server and the test run still end)."""
    got: list[Any] = []
    thread = threading.Thread(target=lambda: got.append(work()), daemon=True)
    thread.start()
    thread.join(120)  # not a speed limit: a read blocked on a FIFO never returns
    hung = thread.is_alive()
    while thread.is_alive():  # blocked on one FIFO after another: each let go in turn
        release(fifos)
        thread.join(1)
    assert not hung, "the request hung on a FIFO"
    return got[0]


def test_a_fifo_at_a_games_file_is_skipped_not_opened(tmp_path: Path) -> None:
    with local_client(tmp_path) as c:
        good = create(c, ROUND)
        fifo_game = create(c, ROUND)
    games = tmp_path / "games"
    fifos = [games / f"{fifo_game}.json", games / f"{fifo_game}.jsonl",
             games / "0123456789ab.json"]  # the last a FIFO alone, with a game's name
    for path in fifos:
        path.unlink(missing_ok=True)
        os.mkfifo(path)
    with local_client(tmp_path) as c:
        listing = in_thread(lambda: c.get("/api/games"), fifos)
        assert listing.status_code == 200
        assert [g["game"] for g in listing.json()["games"]] == [good]
        for game in (fifo_game, "0123456789ab"):
            r = in_thread(lambda game=game: c.get(f"/api/games/{game}"), fifos)
            assert r.status_code == 422 and "not a regular file" in r.json()["error"], r.text


# ------------------------------------------------------------------ never a 500
DAMAGED: dict[str, Callable[[str], str]] = {
    "title NaN": lambda text: json.dumps(
        {**json.loads(text), **json.loads((STORED / "nan_title.json").read_text())}),
    "updated Infinity": lambda text: json.dumps(
        {**json.loads(text), **json.loads((STORED / "infinite_updated.json").read_text())}),
    "players -Infinity, seed NaN": lambda text: json.dumps(
        {**json.loads(text), **json.loads((STORED / "nan_numbers.json").read_text())}),
    "100,000 brackets": lambda text: "[" * 100_000 + "]" * 100_000,
    "a string": lambda text: json.dumps("x"),
    "seats of another type": lambda text: json.dumps({**json.loads(text), "seats": 5}),
}


@pytest.mark.parametrize("damage", DAMAGED, ids=list(DAMAGED))
def test_a_damaged_restore_file_is_listed_broken_and_its_game_a_422(
        tmp_path: Path, damage: str) -> None:
    with local_client(tmp_path) as c:
        good, bad = create(c, ROUND), create(c, ROUND)
    meta = tmp_path / "games" / f"{bad}.json"
    meta.write_text(DAMAGED[damage](meta.read_text()))
    with local_client(tmp_path) as c:
        listing = c.get("/api/games")
        assert listing.status_code == 200, listing.text
        status = {g["game"]: g["status"] for g in listing.json()["games"]}
        assert status == {good: "playing", bad: "broken"}
        for url, r in answers(c, bad):
            assert r.status_code < 500, (url, r.text)
        r = c.get(f"/api/games/{bad}")
        assert r.status_code == 422 and r.json()["error"].startswith(f"game {bad}: its "), \
            r.text
        assert c.get(f"/api/games/{good}").status_code == 200


def test_a_data_folder_that_cant_be_written_is_a_507_naming_no_path(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "games").write_text("not a folder")  # as root, a chmod wouldn't stop a write
    with local_client(data) as c:
        for body in (ROUND, TEXT):
            r = c.post("/api/games", json=body)
            assert r.status_code == 507, r.text
            assert r.json()["error"] == "can't save games: the data folder is not writable"
        assert c.get("/api/games").status_code == 503
    assert (data / "games").read_text() == "not a folder"


def test_a_full_disk_while_saving_an_answer_is_a_507_and_the_game_comes_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with local_client(tmp_path) as c:
        state = c.post("/api/games", json=ROUND).json()
        options = state["prompt"]["options"]

        def full(*args: Any, **kwargs: Any) -> Any:
            raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path))
        with monkeypatch.context() as m:
            m.setattr(files.tempfile, "mkstemp", full)
            r = c.post(f"/api/games/{state['game']}/answer",
                       json={"version": 0, "answer": str(options[0]["index"])})
        assert r.status_code == 507 and str(tmp_path) not in r.text
        assert r.json()["error"] == "can't save games: the disk is full"
        assert c.get(f"/api/games/{state['game']}").json() == state  # as last saved
