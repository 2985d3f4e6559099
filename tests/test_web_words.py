"""The web API's errors name the page's fields, not the CLI's options (uno_rules.web.words):
"Settings: hand_size=50: ..." where the CLI says "--set hand_size=50: ..."."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [web] extra is not installed")

from web_client import local_client  # noqa: E402

from uno_rules.web.words import page_words  # noqa: E402

TOO_BIG = {"rulebook": "classic", "set": {"hand_size": 50}}


def test_each_option_is_named_by_its_field_and_nothing_else_changes() -> None:
    assert page_words("--set hand_size=50: too big") == "Settings: hand_size=50: too big"
    assert page_words("--house stackin: no such one") == "House rules: stackin: no such one"
    untouched = "--settings x--set, a-b --max-games 5"
    assert page_words(untouched) == untouched


@pytest.mark.parametrize("path, body", [
    ("/api/games", {**TOO_BIG, "players": 3}),
    ("/api/simulate", {**TOO_BIG, "games": 2}),
    ("/api/compare", {"games": 2, "variants": [{"rulebook": "classic"}, TOO_BIG]}),
])
def test_a_bad_setting_is_said_in_the_pages_words(tmp_path: Path, path: str,
                                                    body: dict[str, object]) -> None:
    with local_client(tmp_path) as client:
        answer = client.post(path, json=body)
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert "Settings: hand_size=50: 50 is greater than the maximum" in error, error
    assert "--" not in error
    assert [p["file"] for p in answer.json()["problems"]] == ["Settings: hand_size=50"]


def test_the_validate_problems_name_the_field(tmp_path: Path) -> None:
    with local_client(tmp_path) as client:
        answer = client.post("/api/validate", json={"rulebook": "classic",
                                                    "set": {"hand_sise": 5}})
    problems = answer.json()["problems"]
    assert problems[0]["file"] == "Settings: hand_sise=5"


def test_the_cli_keeps_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    from uno_rules.cli.main import main
    with pytest.raises(SystemExit):
        main(["validate", "classic", "--set", "hand_size=50"])
    assert "--set hand_size=50" in capsys.readouterr().err


def test_every_error_answer_goes_through_the_translation() -> None:
    from uno_rules.web.http import error_response
    assert error_response(400, "--house x: no such house rule").body == \
        b'{"error":"House rules: x: no such house rule"}'
