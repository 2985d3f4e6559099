"""Build hook: with ``UNO_RULES_COMPILE=1`` the engine modules (uno_rules/engine/) are
compiled to C extensions with mypyc; without it the package is pure Python. Everything else
about the package is declared in pyproject.toml."""

import os
from pathlib import Path

from setuptools import setup

# Every engine module (a new one included) but errors.py (exception classes), outcome.py
# (an Enum), position.py (games from described positions, for scenarios and tests) and
# __init__.py, which stay Python: nothing hot lives there.
PURE = ("__init__", "errors", "outcome", "position")
ENGINE = sorted(path.stem for path in (Path(__file__).parent / "uno_rules" / "engine").glob("*.py")
                if path.stem not in PURE)

# UNO_RULES_LISTING_REQUIRES: the backend (_build/uno_build.py) is only asking for the build
# requirements, mypy among them, which is not installed yet.
if os.environ.get("UNO_RULES_COMPILE") == "1" and not os.environ.get("UNO_RULES_LISTING_REQUIRES"):
    from mypyc.build import mypycify

    # The engine imports no yaml or jsonschema; mypy meets them only through the package's
    # __init__ (its type-checking import of the loader), so their stubs aren't needed here.
    modules = [f"uno_rules/engine/{name}.py" for name in ENGINE]
    setup(ext_modules=mypycify(["--ignore-missing-imports", *modules], opt_level="3",
                               group_name="uno_rules_engine"))
else:
    setup()
