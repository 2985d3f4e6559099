"""Make the interpreter's own records and derived tables on a Game/State private.

Issue 29, item 6: ``dir(game)`` showed ~70 public names. This renames the fields listed in
PRIVATE to a leading underscore everywhere they are read or written as an attribute of a
Game/State, and their declarations in ``engine/state.py`` (``Field("_name", ...)`` keeping
the snapshot name, so saved games restore and goldens stay identical).

Written as a script (not a hand-made diff) so it can be re-run on a newer main after other
branches touched the engine: it is idempotent (a second run changes nothing) and prints each
change. Run from the repository's root::

    python tools/make_private.py          # rewrite the files, print what changed
    python tools/make_private.py --check  # only print; exit 1 if anything would change

An attribute is renamed only after a receiver known to name a Game/State (``game.``, ``g.``,
``new.``, ``self.`` in the State/Game classes' own modules, ...): other classes have fields
of the same names (``Frame.ctx``, ``Rules.colors``, ``Match.out``, ``Ask.ctx``, an agent's
``rng``, ``SeatView.focus``), and those are left alone. A miss shows at once: the classes
are slotted, so the old name raises AttributeError, and mypy --strict names it.
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

# The fields made private: the interpreter's records (its frame stack, card context, turn
# bookkeeping, UNO windows, piles in their internal form, the generator) and the tables
# derived from the rulebook. Kept public (docs/api.md, "The state, readable"): the card
# table's state, plus pending/giving/stacked and the budgets, which layers above the
# engine read (driver, agents, RL adapters, scenarios, the terminal screen).
PRIVATE = ("stack", "ctx", "skips", "turn_to", "first_turns", "card_rules", "names",
           "matches", "guarded", "acts", "plain", "match_flags", "out_seats", "uno_open",
           "owed", "marks", "focus", "piles", "discards", "colors", "rng", "out", "pile_marks",
           "played_piles")

# Names that hold a Game or a State wherever they appear in the files below.
RECEIVERS = ("game", "g", "new", "twin", "restored", "midway", "boxed", "caught", "late",
             "same", "Game", "State")
# Further receivers, file by file (where the same name means something else elsewhere).
MORE_RECEIVERS: dict[str, tuple[str, ...]] = {
    "uno_rules/engine/state.py": ("self",),
    "uno_rules/engine/game.py": ("self",),
    "uno_rules/engine/legal.py": ("self",),
    "tests/test_calls.py": ("again",),
    "tests/test_player_state.py": ("again",),
    "tests/test_rows.py": ("again", "kept", "taken"),
    "tests/test_determinize.py": ("a", "c"),
    "tests/test_openspiel_chance.py": ("uno",),
    "tests/test_state.py": ("several",),
    "tests/test_pilecounters.py": ("other", "again"),
    "tests/test_turns.py": ("again",),
}
# Files never touched: their own classes have fields of these names.
SKIP = ("bench/floor.py", "tools/make_private.py")
ROOTS = ("uno_rules", "tests", "bench", "examples", "docs")
SUFFIXES = (".py", ".md")

_NAMES = "|".join(PRIVATE)


def _declarations(text: str) -> str:
    """engine/state.py's Field declarations: the attribute renamed, the snapshot name kept."""
    text = re.sub(rf'_plain\("({_NAMES})"\)', r'Field("_\1", SHARED, "\1", True)', text)
    text = re.sub(rf'_plain\("({_NAMES})", (\w+)\)', r'Field("_\1", \2, "\1", True)', text)
    text = re.sub(rf'Field\("({_NAMES})", (\w+), "', r'Field("_\1", \2, "', text)
    text = re.sub(rf'Field\("({_NAMES})", (\w+), why=', r'Field("_\1", \2, why=', text)
    text = re.sub(rf'_derived\("({_NAMES})"\)', r'_derived("_\1")', text)
    return re.sub(r'RECORD_FIELDS = \("stack", "ctx", ',
                  'RECORD_FIELDS = ("_stack", "_ctx", ', text)


# Hand-made fixes the patterns above can't see: (file, old, new), each applied only when
# `old` is found (so a second run, or a main where the line changed, does nothing).
MANUAL: tuple[tuple[str, str, str], ...] = (
    ("uno_rules/engine/determinize.py",  # the line grew past 100 characters
     "    for ctx in [game._ctx, game.stacked.ctx] + [f.ctx for f in game._stack "
     "if type(f) is not Resume] \\\n            + [a.ctx for a in asks if a is not None]:",
     "    frames = [f.ctx for f in game._stack if type(f) is not Resume]\n"
     "    for ctx in [game._ctx, game.stacked.ctx] + frames \\\n"
     "            + [a.ctx for a in asks if a is not None]:"),
    ("tests/test_state.py",  # field names as strings
     '("hands", "draw_pile", "discard", "out", "stack", "out_seats", "eliminated",',
     '("hands", "draw_pile", "discard", "_out", "_stack", "_out_seats", "eliminated",'),
    ("tests/test_state.py", 'f.name not in ("ctx", "pending")',
     'f.name not in ("_ctx", "pending")'),
    ("tests/test_chance.py", "new_game(4, 1).acts[2]", "new_game(4, 1)._acts[2]"),
)


def rewrite(path: str, text: str) -> str:
    """The file's text with the PRIVATE attributes of its Game/State receivers renamed."""
    receivers = "|".join(RECEIVERS + MORE_RECEIVERS.get(path, ()))
    text = re.sub(rf"(?<!\w)({receivers})\.({_NAMES})\b", r"\1._\2", text)
    text = re.sub(rf'(getattr|setattr|hasattr)\((({receivers})), "({_NAMES})"',
                  r'\1(\2, "_\4"', text)
    if path == "uno_rules/engine/state.py":
        text = _declarations(text)
    for where, old, new in MANUAL:
        if where == path and old in text:
            text = text.replace(old, new)
    return text


def _files(root: Path) -> list[Path]:
    found = [p for top in ROOTS for p in sorted((root / top).rglob("*"))
             if p.suffix in SUFFIXES and p.is_file()]
    return [p for p in found if p.relative_to(root).as_posix() not in SKIP]


def main(argv: list[str]) -> int:
    root = Path(__file__).resolve().parent.parent
    check = "--check" in argv
    changed = 0
    for file in _files(root):
        path = file.relative_to(root).as_posix()
        old = file.read_text(encoding="utf-8")
        new = rewrite(path, old)
        if new == old:
            continue
        changed += 1
        sys.stdout.writelines(difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), path, path, n=0))
        if not check:
            file.write_text(new, encoding="utf-8")
    print(f"{changed} file(s) {'would change' if check else 'changed'}", file=sys.stderr)
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
