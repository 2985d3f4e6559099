"""``python -m uno_rules.cli ...``: the same command as ``uno-rules ...``."""

from .main import main

main()
