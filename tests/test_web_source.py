"""uno_rules.web.source: a request's rulebook from the editor's text or shipped names,
through the real loader, with every server path hidden."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [web] extra is not installed")

from uno_rules.load.loader import check  # noqa: E402
from uno_rules.web.http import ApiError  # noqa: E402
from uno_rules.web.limits import Limits  # noqa: E402
from uno_rules.web.source import (  # noqa: E402
    builtin_agents,
    load_source,
    require_rulebook,
    set_values,
)

LIMITS = Limits()


def refused(body: dict[str, object], status: int = 400) -> str:
    with pytest.raises(ApiError) as info:
        load_source(body, LIMITS)
    assert info.value.status == status
    assert "\n" not in info.value.message
    return info.value.message


def test_a_shipped_rulebook_loads_as_the_cli_loads_it() -> None:
    loaded = load_source({"rulebook": "classic", "house": ["stacking"],
                          "set": {"hand_size": 5}}, LIMITS)
    cli, problems = check("classic", {"hand_size": "5"}, ["stacking"])
    assert problems == [] and loaded.problems == [] and cli is not None
    assert loaded.rulebook is not None and not loaded.overlay and loaded.text is None
    assert loaded.rulebook.settings == cli.settings
    assert list(loaded.rulebook.house) == ["stacking"]


def test_editor_text_problems_are_located_in_the_editor() -> None:
    text = "extends: classic\nname: mine\nsettings:\n  hand_sise: 5\n"
    loaded = load_source({"text": text}, LIMITS)
    assert loaded.rulebook is None and not loaded.overlay
    assert loaded.problems == [{"line": 4, "column": 3, "file": "editor",
                                "path": "$.settings.hand_sise",
                                "message": "unknown key 'hand_sise'; did you mean "
                                           "'hand_size'?"}]


def test_an_overlay_text_is_applied_to_base_after_house() -> None:
    loaded = load_source({"text": "settings: {hand_size: 5}\n", "base": "classic",
                          "house": ["stacking"]}, LIMITS)
    assert loaded.overlay and loaded.rulebook is not None
    assert loaded.rulebook.settings.hand_size == 5
    assert loaded.rulebook.name == "classic"
    assert list(loaded.rulebook.house)[0] == "stacking"  # house first, the text after it


def test_no_server_path_in_any_problem() -> None:
    for text in ("extends: /etc/passwd\n", "extends: ../../x\n", "house: [/etc/hosts]\n",
                 "extends: nope\n", "extends: classic\nhouse: [../secret]\n"):
        loaded = load_source({"text": text}, LIMITS)
        assert loaded.rulebook is None and loaded.problems, text
        for p in loaded.problems:
            assert p["file"] == "editor", p
            assert "uno-rules-web-" not in p["message"] and "/tmp" not in p["message"], p


def test_extends_outside_is_refused_by_the_loader() -> None:
    loaded = load_source({"text": "extends: /etc/passwd\n"}, LIMITS)
    assert loaded.problems[0]["line"] == 1
    assert "outside this file's folder, so not read" in loaded.problems[0]["message"]


def test_set_problems_are_on_line_0() -> None:
    loaded = load_source({"rulebook": "classic", "set": {"hand_sise": "5"}}, LIMITS)
    assert loaded.problems[0]["line"] == 0
    assert loaded.problems[0]["file"] == "Settings: hand_sise=5"  # the page's field
    assert "unknown setting 'hand_sise'" in loaded.problems[0]["message"]


def test_set_values_are_strings_like_the_cli() -> None:
    assert set_values({" hand_size ": " 5 ", "x": 2, "y": True, "z": 1.5}) == \
        {"hand_size": "5", "x": "2", "y": "true", "z": "1.5"}
    for bad in ([], "hand_size=5", {"a": [1]}, {"a": None}, {" ": "1"}):
        with pytest.raises(ApiError) as info:
            set_values(bad)
        assert info.value.status == 400


def test_only_shipped_names() -> None:
    assert "no such shipped rulebook" in refused({"rulebook": "/etc/passwd"})
    assert "no such shipped rulebook" in refused({"rulebook": "../rulebooks/classic"})
    assert "house rule" in refused({"rulebook": "stacking"})
    assert "base" in refused({"text": "a: 1", "base": "tests/rulebooks/x.yaml"})
    assert "no such shipped house rule" in refused({"rulebook": "classic",
                                                    "house": ["../house/stacking"]})
    assert "house: expected a list" in refused({"rulebook": "classic", "house": "stacking"})
    assert "rulebook: expected" in refused({"rulebook": 3})


def test_text_or_rulebook() -> None:
    assert "not both" in refused({"text": "a: 1", "rulebook": "classic"})
    assert 'give "text"' in refused({})
    assert "text: expected" in refused({"text": ["a"]})
    assert "lone surrogate" in refused({"text": "a: '\ud800'"})
    big = Limits(max_body=1024)
    with pytest.raises(ApiError) as info:
        load_source({"text": "#" * 2000}, big)
    assert info.value.status == 413


def test_hostile_texts_are_problems_not_errors() -> None:
    bomb = (Path(__file__).parent / "hostile" / "web" / "aliases.yaml").read_text()
    for text, message in (("[" * (1 << 20), "nested more than 64 levels deep"),
                          (bomb, "more than 20,000 values"),
                          ("- a\n" * 100, "a rulebook must be a mapping"),
                          ("", "the file is empty"),
                          ("a: !!python/object:os.system x\n", "tag")):
        loaded = load_source({"text": text}, LIMITS)
        assert loaded.rulebook is None, message
        assert any(message in p["message"] for p in loaded.problems), loaded.problems


def test_require_rulebook_is_a_422_with_the_problems() -> None:
    with pytest.raises(ApiError) as info:
        require_rulebook({"text": "extends: classic\nsettings: {hand_size: x}\n"}, LIMITS)
    assert info.value.status == 422
    assert info.value.message.startswith("the rulebook has 1 problem: editor:2:")
    assert info.value.extra["problems"][0]["line"] == 2


def test_builtin_agents_only() -> None:
    assert builtin_agents(None, 3) is None
    assert [n for n, _ in builtin_agents("greedy", 3) or []] == ["greedy"] * 3
    assert [n for n, _ in builtin_agents(["greedy", "uniform"], 2) or []] == \
        ["greedy", "uniform"]
    for bad, message in (("os:system", "unknown agent 'os:system'"),
                         ("tests.x:Agent", "the server runs no other code"),
                         ("greedy,greedy", "2 names for 3 players"),
                         (3, "agents: expected")):
        with pytest.raises(ApiError) as info:
            builtin_agents(bad, 3)
        assert info.value.status == 400 and message in info.value.message


def test_no_server_path_in_the_rulebook() -> None:
    for body in ({"text": "settings: {hand_size: 5}\n", "house": ["stacking"]},
                 {"text": "extends: classic\nname: mine\ncards:\n  skip:\n    effect: "
                          "[reverse]\n"}, {"rulebook": "classic"}):
        rb = load_source(body, LIMITS).rulebook
        assert rb is not None
        for text in (rb.source, *rb.house, *(s.where for p in rb.programs for s in p)):
            assert "/" not in text, text
        assert rb.new_game(4, 1).legal_actions()  # it still plays
    overlay = load_source({"text": "settings: {hand_size: 5}\n", "house": ["stacking"]},
                          LIMITS).rulebook
    assert overlay is not None and list(overlay.house) == ["stacking", "editor"]
    assert overlay.source == "classic"
    mine = load_source({"text": "extends: classic\nname: mine\n"}, LIMITS).rulebook
    assert mine is not None and mine.source == "editor"


def test_the_editor_file_naming_itself_or_its_folder() -> None:
    for text, message in (("extends: editor.yaml\n", "extends cycle: editor.yaml -> "
                                                     "editor.yaml"),
                          ("extends: classic\nhouse: [./editor.yaml]\n", "includes itself"),
                          ("extends: .\n", "can't read '.': a folder, not a rulebook file"),
                          ("extends: /proc/self/environ\n", "outside this file's folder")):
        loaded = load_source({"text": text}, LIMITS)
        assert loaded.rulebook is None
        assert [p["file"] for p in loaded.problems] == ["editor"]
        assert message in loaded.problems[0]["message"], loaded.problems
