"""The ``uno-rules`` command line: every click command (``main``), its shared options and
one-line errors (``common``), the progress bar (``progress``)."""

from __future__ import annotations

from .main import cli, main

__all__ = ["cli", "main"]
