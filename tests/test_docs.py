"""The documentation: generated pages stay current, links stay inside the repository, and
the authoring tutorial works when followed literally."""

from __future__ import annotations

import copy
import dataclasses
import re
import shlex
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import uno_rules
from uno_rules.authoring import docs
from uno_rules.authoring.variants import diff
from uno_rules.cli import cli
from uno_rules.engine.model import Settings
from uno_rules.load.resources import shipped_names
from uno_rules.load.schema import rulebook_schema

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
REGENERATE = "regenerate (from the repository root): python -m uno_rules.authoring.docs"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
GENERATED = docs.generated_docs()


# ------------------------------------------------------------------ generated pages
@pytest.mark.parametrize("rel", list(GENERATED))
def test_generated_doc_is_up_to_date(rel: str) -> None:
    path = DOCS / rel
    assert path.exists(), f"docs/{rel} is missing; {REGENERATE}"
    assert path.read_text(encoding="utf-8") == GENERATED[rel], \
        f"docs/{rel} is out of date; {REGENERATE}"


def test_every_shipped_rulebook_has_a_sheet_and_no_other() -> None:
    sheets = sorted(p.stem for p in (DOCS / "rulebooks").glob("*.md"))
    assert sheets == shipped_names(), f"stale or missing sheets in docs/rulebooks/; {REGENERATE}"


def test_settings_doc_covers_every_setting_and_key() -> None:
    text = docs.settings_markdown()
    schema = rulebook_schema()
    for name in schema["properties"]["settings"]["properties"]:
        assert f"| `{name}` |" in text
    for key in schema["properties"]:
        assert f"| `{key}` |" in text


def test_setting_defaults_agree_with_the_schema() -> None:
    """Settings' defaults live in model.Settings; the schema's `default` (if any) and any
    "(default X)" in a description must say the same."""
    props = rulebook_schema()["properties"]["settings"]["properties"]
    defaults = Settings()
    assert set(props) == {f.name for f in dataclasses.fields(defaults)}
    for name, prop in props.items():
        want = getattr(defaults, name)
        inner = docs._unwrap(prop)
        if "default" in inner:
            assert inner["default"] == want, name
        said = re.search(r"\(default ([^)]*)\)", inner.get("description", ""))
        if said:
            assert said.group(1) == (str(want).lower() if isinstance(want, bool) else str(want)), \
                name


def test_settings_doc_survives_a_setting_without_description(
        monkeypatch: pytest.MonkeyPatch) -> None:
    schema = copy.deepcopy(rulebook_schema())
    prop = schema["properties"]["settings"]["properties"]["jump_in"]
    prop.pop("description", None)
    for branch in prop.get("anyOf", []):
        branch.pop("description", None)
    monkeypatch.setattr("uno_rules.load.schema.rulebook_schema", lambda: schema)
    row = next(line for line in docs.settings_markdown().splitlines()
               if line.startswith("| `jump_in` |"))
    assert "not described yet" in row and "`false`" in row


def test_settings_doc_example_loads(tmp_path: Path) -> None:
    [block] = [b for lang, b in FENCE.findall((DOCS / "settings.md").read_text())
               if lang == "yaml"]
    data = {"name": "example", "extends": "classic", **yaml.safe_load(block)}
    path = tmp_path / "example.yaml"
    path.write_text(yaml.safe_dump(data))
    rulebook = uno_rules.load_rulebook(path, settings={"penalty": "3"})
    assert rulebook.options["penalty"] == 3


# ------------------------------------------------------------------ links
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def _slug(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {_slug(m) for m in re.findall(r"^#+\s+(.*)$", text, re.M)}


def test_links_stay_inside_the_repository_and_resolve() -> None:
    bad = []
    for md in _markdown_files():
        text = FENCE.sub("", md.read_text(encoding="utf-8"))
        text = re.sub(r"`[^`]+`", "", text)  # inline code is not a link
        for target in LINK.findall(text):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
                continue
            rel, _, anchor = target.partition("#")
            dest = (md.parent / rel).resolve() if rel else md
            where = f"{md.relative_to(ROOT)}: ({target})"
            if not dest.is_relative_to(ROOT.resolve()):
                bad.append(f"{where} leaves the repository")
            elif not dest.exists():
                bad.append(f"{where} points to a missing file")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                bad.append(f"{where} names a missing heading")
    assert not bad, "\n".join(bad)


def test_docs_do_not_send_readers_outside_the_repository() -> None:
    hits = [f"{md.relative_to(ROOT)}:{i}" for md in _markdown_files()
            for i, line in enumerate(md.read_text(encoding="utf-8").splitlines(), 1)
            if "../shared" in line]
    assert not hits, hits


def test_the_link_check_catches_bad_links(tmp_path: Path) -> None:
    assert LINK.findall("see [a](../shared/RULES.md) and [b](docs/x.md#top)") == \
        ["../shared/RULES.md", "docs/x.md#top"]
    assert _slug("Options and `$name` references") == "options-and-name-references"


# ------------------------------------------------------------------ the tutorial
def _blocks(text: str) -> list[tuple[str, str, str]]:
    """(language, body, the line of prose just before the block), in order."""
    out = []
    for m in FENCE.finditer(text):
        before = [line for line in text[:m.start()].splitlines() if line.strip()]
        out.append((m.group(1), m.group(2), before[-1] if before else ""))
    return out


def test_authoring_tutorial_works_when_followed_literally(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    """docs/authoring.md, in an empty directory: run each command it shows, write each file
    it tells you to create or extend, and every step must succeed."""
    text = (DOCS / "authoring.md").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    outputs: list[str] = []
    written: list[str] = []
    for lang, body, before in _blocks(text):
        create = re.search(r"create `([^`]+)`:$", before, re.I)
        append = re.search(r"add to the end of `([^`]+)`:$", before, re.I)
        if lang == "sh":
            for line in body.splitlines():
                args = shlex.split(line, comments=True)
                if not args:
                    continue
                assert args[0] == "uno-rules", line
                result = runner.invoke(cli, args[1:])
                assert result.exit_code == 0, f"{line}\n{result.output}"
                if args[1] == "validate":
                    assert result.output.startswith("ok "), f"{line}\n{result.output}"
                if args[1] == "scenario":
                    assert "FAIL" not in result.output and " 0 failed" in result.output
                outputs.append(result.output)
        elif lang == "yaml" and (create or append):
            path = Path((create or append).group(1))  # type: ignore[union-attr]
            path.parent.mkdir(parents=True, exist_ok=True)
            if create:
                assert not path.exists(), f"{path} created twice"
                path.write_text(body, encoding="utf-8")
            else:
                assert path.exists(), f"{path} extended before it was made"
                path.write_text(path.read_text(encoding="utf-8") + "\n" + body,
                                encoding="utf-8")
            written.append(str(path))
        elif lang == "" and "did you mean" in body:  # a sample error: make the mistake
            typed = re.search(r"typed `(\w+)`", before)
            assert typed, before
            file, meant = body.split(":")[0], re.search(r"did you mean '(\w+)'", body)
            assert meant
            good = Path(file).read_text(encoding="utf-8")
            Path(file).write_text(good.replace(meant.group(1), typed.group(1)), encoding="utf-8")
            result = runner.invoke(cli, ["validate", file])
            Path(file).write_text(good, encoding="utf-8")
            assert result.exit_code == 1 and body.strip() in result.output, result.output
        elif lang == "python":
            exec(compile(body, "docs/authoring.md", "exec"), {})  # noqa: S102 - our own docs
    assert written == ["house/mercy.yaml", "lightning.yaml", "lightning_scenarios.yaml"]
    assert any(o.startswith("wrote lightning.yaml") for o in outputs)
    for claim in re.findall(r"prints `(ok [^`]+)`", text):
        assert any(claim in o for o in outputs), claim
    assert "<Decision seat=0 kind=" in capsys.readouterr().out

    # The tutorial ends where examples/ is.
    examples = ROOT / "examples"
    mine = uno_rules.load_rulebook(tmp_path / "lightning.yaml")
    theirs = uno_rules.load_rulebook(examples / "lightning.yaml")
    assert mine.house == theirs.house
    assert diff(mine, theirs).endswith("No differences in rules terms.\n")
    for rel in ("house/mercy.yaml", "lightning_scenarios.yaml"):
        assert yaml.safe_load((tmp_path / rel).read_text()) == \
            yaml.safe_load((examples / rel).read_text()), rel


# ------------------------------------------------------------------ doctested pages
DOCTESTED = ["embedding.md", "table.md"]


@pytest.mark.parametrize("rel", DOCTESTED)
def test_the_examples_of_a_page_run_as_shown(rel: str, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``>>>`` example in the page's code blocks, in order, in one namespace (a page
    reads top to bottom), prints what the page shows (``...`` matches anything)."""
    import doctest

    text = (DOCS / rel).read_text(encoding="utf-8")
    blocks = [body for _, body in FENCE.findall(text) if body.lstrip().startswith(">>>")]
    monkeypatch.chdir(tmp_path)  # an example that writes a file writes it here
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, f"docs/{rel}", str(DOCS / rel), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out: list[str] = []
    runner.run(test, out=out.append)
    failed, tried = runner.summarize(verbose=False)
    assert failed == 0, "".join(out)
    if blocks:
        assert tried > 0


def test_the_doctest_runner_catches_a_wrong_example() -> None:
    import doctest

    test = doctest.DocTestParser().get_doctest(">>> 1 + 1\n3\n", {}, "x", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test, out=lambda _: None)
    assert runner.summarize(verbose=False).failed == 1
