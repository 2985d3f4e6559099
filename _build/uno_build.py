"""The in-tree build backend: setuptools' own, plus mypy among the build requirements when
``UNO_RULES_COMPILE=1`` asks for the compiled engine (setup.py then runs mypyc), so that a
fresh machine needs nothing installed first. Without the variable the build is pure Python
and needs only setuptools."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - the rest of the backend, unchanged

_COMPILE_REQUIRES = ["mypy>=1.8"]


def _with_compile_requires(ask: Callable[[Any], list[str]], config_settings: Any) -> list[str]:
    if os.environ.get("UNO_RULES_COMPILE") != "1":
        return ask(config_settings)
    # setuptools runs setup.py to collect its requirements, before mypy is installed:
    # this tells setup.py not to import mypyc yet.
    os.environ["UNO_RULES_LISTING_REQUIRES"] = "1"
    try:
        return ask(config_settings) + _COMPILE_REQUIRES
    finally:
        del os.environ["UNO_RULES_LISTING_REQUIRES"]


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    return _with_compile_requires(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: Any = None) -> list[str]:
    if os.environ.get("UNO_RULES_COMPILE") == "1":  # the first hook pip calls for -e
        # Compiled in place, the .so files would sit in the source tree (ignored by git) and
        # shadow its .py files in every later run.
        raise SystemExit("UNO_RULES_COMPILE=1 builds a wheel, not an editable install: "
                         "use `pip install .` (or `python bench/build_compiled.py DIR`)")
    return _setuptools.get_requires_for_build_editable(config_settings)
