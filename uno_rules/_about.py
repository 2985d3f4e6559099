"""What this installation is: its version, and whether the engine runs compiled. A leaf:
it imports nothing of the package, so any layer may read it."""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import find_spec

__version__ = "0.1.0"


def _compiled(*modules: str) -> bool:
    """True when every module named is a C extension (found, not imported)."""
    for name in modules:
        spec = find_spec(name)
        if spec is None or not (spec.origin or "").endswith(tuple(EXTENSION_SUFFIXES)):
            return False
    return True


#: True when the engine runs compiled (``UNO_RULES_COMPILE=1`` at install: mypyc C extensions),
#: False for the pure-Python build. Read from the modules' files, never set by hand.
COMPILED: bool = _compiled("uno_rules.engine.game", "uno_rules.engine.rulebook")
