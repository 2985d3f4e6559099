"""Writing rules: scenario files (rules tests), rules sheets, the reference pages, and a
variant's starter file and diff (``variants``)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # static names for mypy; at run time they come from __getattr__
    from .variants import diff as diff
    from .variants import starter as starter

# The names of the module this package replaced (uno_rules/authoring/variants.py, now .variants),
# imported on first use: importing the package must not load the YAML side.
_FROM_VARIANTS = ("diff", "starter")


def __getattr__(name: str) -> Any:
    """``diff`` and ``starter`` at their old path, imported when first asked."""
    if name not in _FROM_VARIANTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(".variants", __name__), name)
