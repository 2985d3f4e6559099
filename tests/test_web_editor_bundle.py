"""The page's code editor bundle (uno_rules/web/static/vendor/): committed so installing
uno-rules needs no npm, and held to web-editor/package-lock.json. Its header names every
bundled package at the lock file's version, LICENSES.txt carries each one's licence, and
web-editor/build.sh rebuilds it byte for byte from the lock file (``npm ci``: npm and the npm
registry needed, as for the page's axe-core checks; without npm the test fails saying so)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "web-editor"
VENDOR = ROOT / "uno_rules" / "web" / "static" / "vendor"


def header_packages() -> dict[str, str]:
    """NAME -> version, as the bundle's first comment lists them."""
    head = (VENDOR / "editor.js").read_text(encoding="utf-8").split("*/", 1)[0]
    return dict(re.findall(r"^   (\S+)@(\d\S*) \(", head, re.M))


def locked() -> dict[str, str]:
    lock = json.loads((SOURCE / "package-lock.json").read_text(encoding="utf-8"))
    return {path.removeprefix("node_modules/"): entry["version"]
            for path, entry in lock["packages"].items() if path}


def test_the_bundle_names_each_package_at_its_locked_version_and_keeps_its_licence() -> None:
    bundled = header_packages()
    assert {"codemirror", "@codemirror/view", "@codemirror/lang-yaml"} <= set(bundled)
    versions = locked()
    for name, version in bundled.items():
        assert versions.get(name) == version, (name, version, versions.get(name))
    licences = (VENDOR / "LICENSES.txt").read_text(encoding="utf-8")
    for name, version in bundled.items():
        at = licences.index(f"\n{name}@{version}: MIT\n")
        assert "Permission is hereby granted" in licences[at:at + 2000], name
    # what package.json asks for is pinned, and is what the lock file holds
    wanted = json.loads((SOURCE / "package.json").read_text(encoding="utf-8"))
    for name, version in {**wanted["dependencies"], **wanted["devDependencies"]}.items():
        assert versions[name] == version, (name, version)


def test_build_sh_rebuilds_the_committed_bundle_from_the_lock_file(tmp_path: Path) -> None:
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.fail("node and npm are needed to rebuild the editor bundle "
                    "(apt-get install npm; .ci/run does)", pytrace=False)
    work = tmp_path / "web-editor"
    shutil.copytree(SOURCE, work, ignore=shutil.ignore_patterns("node_modules"))
    out = tmp_path / "vendor"
    done = subprocess.run(["sh", str(work / "build.sh"), str(out)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    for name in ("editor.js", "LICENSES.txt"):
        assert (out / name).read_bytes() == (VENDOR / name).read_bytes(), (
            f"{name} is not what web-editor/build.sh builds: run it and commit the result")
