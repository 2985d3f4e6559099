"""``python -m uno_rules``: the ``uno-rules`` command (same options, messages and exit
codes)."""

from .cli.main import main

main()
