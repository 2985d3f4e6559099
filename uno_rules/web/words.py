"""The page's words for the CLI's: a message made for the command line names its options
(``--set hand_size=50: ...``); the web API names the page's fields instead (``Settings:
hand_size=50: ...``). The one place the API's messages are translated: the CLI's stay."""

from __future__ import annotations

import re

# The CLI option and the page's field that give the same thing (index.html, app.js).
FIELDS = {"--set": "Settings", "--house": "House rules"}
_OPTION = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, FIELDS)) + r")(?:[ =]|\b)")


def page_words(text: str) -> str:
    """``text`` with each CLI option that has a field on the page named by that field."""
    return _OPTION.sub(lambda m: f"{FIELDS[m.group(1)]}: ", text)
