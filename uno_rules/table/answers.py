"""Answers the way people type them: an option's number, its notation, a card name
(``red 5``, ``r5``, ``wild draw four``, ``+4``), ``uno`` with a play (``red 5 uno``,
``3 uno``: :func:`with_call`, the one rule both front ends call UNO by), a colour at a
colour prompt, ``draw``/``keep``/``challenge``/``accept``/``pass``, ``catch 2``,
``help``/``?``, ``q``. :func:`interpret` reads one line against the options offered and
never raises."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Union

from ..engine.actions import KINDS_BARE, KINDS_WITH_CARD, KINDS_WITH_NAME, KINDS_WITH_SEAT, Action
from ..engine.game import Game
from .screen import label, option_text


@dataclass(frozen=True)
class Chosen:
    """The line names this option."""

    action: Action


@dataclass(frozen=True)
class Help:
    """The line asks for help: what may be typed now."""

    lines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Quit:
    """The line asks to quit."""


@dataclass(frozen=True)
class Hint:
    """The line names no option (or several): one line saying why and what to type."""

    text: str


@dataclass(frozen=True)
class Blank:
    """An empty line."""


Answer = Union[Chosen, Help, Quit, Hint, Blank]  # noqa: UP007 (a runtime alias for 3.10)

QUIT = frozenset({"q", "quit", "exit"})
HELP = frozenset({"?", "help", "h"})
NUMBER_WORDS = {"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
                "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10"}
# Words that name an action kind, and the kind (several words for some).
VERBS = {"play": "play", "jump": "jump_in", "jumpin": "jump_in", "jump_in": "jump_in",
         "give": "give", "color": "color", "colour": "color", "choose": "color",
         "catch": "catch", "target": "target", "seat": "seat", "call": "uno"}
PILE_WORDS = ("on", "pile")
MAX_DIGITS = 6  # more digits than this is no option number (int() of 5,000 is slow or refused)
SHORT = 30  # a typed line is quoted back at most this long


def _short(line: str) -> str:
    """The line quoted back: printable, and not too long."""
    text = "".join(c if c.isprintable() else "?" for c in " ".join(line.split()))
    return repr(text if len(text) <= SHORT else text[:SHORT - 3] + "...")


def _number(word: str) -> int | None:
    """A small whole number in ASCII digits (``²`` or 5,000 digits are none)."""
    if word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS:
        return int(word)
    return None


def canonical(text: str) -> tuple[str, ...]:
    """A card name's words, compared loosely: lower case, underscores as spaces, number
    words as digits, ``draw N`` as ``+N`` (``Red Draw 2`` and ``red +2`` are alike)."""
    words = [NUMBER_WORDS.get(w, w) for w in text.lower().replace("_", " ").split()]
    out: list[str] = []
    for w in words:
        if out and out[-1] == "draw" and _number(w) is not None:
            out[-1] = "+" + w
        else:
            out.append(w)
    return tuple(out)


def _initials(words: Sequence[str]) -> str:
    """``r5`` for ``red 5``, ``w+4`` for ``wild +4``: a word's first letter, numbers whole."""
    return "".join(w if w[0].isdigit() or w[0] == "+" else w[0] for w in words if w)


def abbreviations(name: str) -> set[str]:
    """The short forms a card may be typed as: ``r5``, ``wd4``, ``w+4``, ``rs``."""
    words = canonical(name)
    spelled = [NUMBER_WORDS.get(w, w) for w in name.lower().replace("_", " ").split()]
    return {_initials(words), _initials(spelled)} - {""}


def card_matches(typed: tuple[str, ...], name: str) -> int:
    """How well typed words name a card: 2 exactly (or abbreviated), 1 as the end of its
    name (``skip`` for ``red skip``, ``+4`` for ``wild draw four``), 0 not at all."""
    words = canonical(name)
    if typed == words or len(typed) == 1 and typed[0] in abbreviations(name):
        return 2
    if 0 < len(typed) < len(words) and words[-len(typed):] == typed and \
            not all(w.isdigit() for w in typed):  # a number alone is an option's
        return 1
    return 0


NOT_UNDERSTOOD = "not understood:"


def interpret(line: str, options: Sequence[Action], game: Game, seat: int) -> Answer:
    """What ``line`` (typed by ``seat``) asks for among ``options``: a :class:`Chosen`
    option, :class:`Help`, :class:`Quit`, :class:`Blank`, or a one-line :class:`Hint`."""
    text = " ".join(str(line).split()).lower()
    options = list(options)
    if not text:
        return Blank()
    if text in QUIT:
        return Quit()
    if text in HELP:
        return Help(help_lines(options, game))
    said = _said_call(text, game)
    if said == text:
        return interpret_as_typed(text, options, game, seat)
    # the rulebook's word for the call (``red 5 dos``), else a card's word (``wild dos``):
    # the reading that chooses, else the one whose hint understood the words
    read = [interpret(said, options, game, seat), interpret_as_typed(text, options, game, seat)]
    return next((r for r in read if isinstance(r, Chosen)), None) or next(
        (r for r in read if not (isinstance(r, Hint) and r.text.startswith(NOT_UNDERSTOOD))),
        read[0])


def call_word(game: Game) -> str:
    """The call's word as typed: the rulebook's ``call_name`` in lower case (``uno``)."""
    return game.rulebook.settings.call_name.lower()


def _said_call(text: str, game: Game) -> str:
    """``text`` with its last saying of the rulebook's call word read as ``uno``, the one
    word the rest of this module reads (a card may share the word: DOS's ``wild dos``)."""
    word = call_word(game)
    found = list(re.finditer(rf"(?<![\w']){re.escape(word)}(!?)(?![\w'])", text))
    if word == "uno" or not found:
        return text
    last = found[-1]
    return text[:last.start()] + "uno" + last.group(1) + text[last.end():]


def interpret_as_typed(text: str, options: list[Action], game: Game, seat: int) -> Answer:
    """:func:`interpret` of a cleaned line, the call said as ``uno``."""
    if not options:
        return Hint("nothing to choose now: press Enter (help: ?, quit: q)")
    if text.isascii() and text.isdigit():
        number = _number(text)
        if number is not None and 1 <= number <= len(options):
            return Chosen(options[number - 1])
        return Hint(f"no option {_short(text)}: type 1 to {len(options)}, or ? for help")
    numbered = _numbered_call(text, options)
    if numbered is not None:
        return numbered
    for option in options:  # the notation, with or without the seat
        written = " ".join(canonical(str(option)))
        bare = " ".join(canonical(str(option._replace(seat=None))))
        if " ".join(canonical(text)) in (written, bare):
            return Chosen(option)
    return _read_words(text, options, game, seat)


def with_call(found: Sequence[Action], uno: bool) -> list[Action]:
    """The one rule both front ends call UNO by (the terminal's ``red 5 uno``, the page's
    UNO button): a play is the calling variant only when UNO is said, and the plain one
    otherwise; where the rules offer no such variant the play stands as it is."""
    same = [o for o in found if o.uno == uno]
    return same or list(found)


def _numbered_call(text: str, options: Sequence[Action]) -> Answer | None:
    """``3 uno``: option 3 (a card's play) with UNO called (the page's UNO button sends
    this); None when the line is not an option's number and ``uno``, or that play has no
    calling variant (``2 uno`` is then seat 2's own call, in notation)."""
    words = text.split()
    number = _number(words[0]) if len(words) == 2 and words[1] == "uno" else None
    if number is None or not 1 <= number <= len(options) or \
            options[number - 1].kind not in KINDS_WITH_CARD:
        return None
    plain = options[number - 1]._replace(uno=False)
    called = [o for o in options if o.uno and o._replace(uno=False) == plain]
    return Chosen(called[0]) if called else None  # no call to make: read as notation


def _read_words(text: str, options: list[Action], game: Game, seat: int) -> Answer:
    read = _parts(text, seat)
    if isinstance(read, Hint):
        return read
    words, uno, verb = read
    if not words and verb is not None and verb not in KINDS_WITH_SEAT + ("seat",):
        return Hint(f"{verb.replace('_', ' ')} what? e.g. {_example(options, game, verb)}")
    kinds = {o.kind for o in options}
    if verb is None and len(words) == 2 and words[0] == "draw" and \
            _number(NUMBER_WORDS.get(words[1], words[1])) is not None:
        words = words[:1]  # "draw 2": drawing (the count is the rules' to say), no +2 card
    # A bare kind: draw, keep, challenge, accept, pass (and "uno" alone, "catch" alone).
    if verb is None and len(words) == 1 and words[0] in KINDS_BARE + ("uno",):
        return _bare(words[0], options, kinds)
    if verb in KINDS_WITH_SEAT + ("seat",):
        return _seat_kind(verb, words, options)
    named = [o for o in options if o.kind in KINDS_WITH_NAME and (o.arg,) == tuple(words)]
    if verb is None and named:  # a side by its name alone: "flex", "normal"
        return Chosen(named[0])
    if verb is None and len(words) == 2 and words[0] in KINDS_WITH_SEAT:  # "loser 2"
        return _seat_kind(words[0], words[1:], options)
    if verb == "color" or (verb is None and "color" in kinds):
        found = _colour(words, options, game)
        if found is not None or verb == "color":
            return found or Hint(f"no such colour: {_short(' '.join(words))}; choose "
                                 f"{_or([str(o.arg) for o in options if o.kind == 'color'])}")
    return _card(words, verb, uno, options, game, text)


def _parts(text: str, seat: int) -> tuple[list[str], bool, str | None] | Hint:
    """The words typed, less a leading seat (``seat``'s own), an UNO call and the verb:
    (the words left, whether UNO is called, the verb or None)."""
    words = text.replace("-", " ").split()
    if len(words) > 1 and _number(words[0]) is not None and \
            words[1] in (*VERBS, *KINDS_BARE, *KINDS_WITH_SEAT):  # a seat first: notation
        if _number(words[0]) != seat:
            return Hint(f"you are seat {seat}: type the action without a seat, or ? for help")
        words = words[1:]
    uno = False
    if len(words) > 1 and any(w in ("uno", "+uno", "uno!") for w in words):
        if not (words[0] == "uno" and len(words) == 2 and _number(words[1]) is not None):
            uno = True
            words = [w for w in words if w not in ("uno", "+uno", "uno!")]
    verb: str | None = None
    if words and words[0] in VERBS:
        verb = VERBS[words[0]]
        words = words[1:]
        if verb == "jump_in" and words and words[0] == "in":
            words = words[1:]
    return words, uno, verb


def _bare(word: str, options: list[Action], kinds: set[str]) -> Answer:
    if word == "uno":
        calls = [o for o in options if o.kind == "uno"]
        if len(calls) == 1:
            return Chosen(calls[0])
        if any(o.uno for o in options):
            example = next(o for o in options if o.uno)
            return Hint(f"say uno with the card you play: {label(str(example.arg))} uno")
        return Hint("no UNO to call now (with your next-to-last card: e.g. red 5 uno)")
    if word in kinds:
        return Chosen(next(o for o in options if o.kind == word))
    return Hint(f"you can't {word} now: type a number from 1 to {len(options)}, or ? for help")


def _seat_kind(verb: str, words: list[str], options: list[Action]) -> Answer:
    """``catch 2``, ``target 2``, ``seat 2``, ``uno 1``, ``catch`` (if only one)."""
    if verb is None:
        verb, words = ("uno" if words[0] == "uno" else words[0]), words[1:]
    picked = [o for o in options if o.kind in KINDS_WITH_SEAT and
              (verb == "seat" or o.kind == verb)]
    if len(words) > 1 or words and _number(words[0]) is None:
        return Hint(f"{verb} needs a seat number, e.g. "
                    f"{_or([_seat_example(o) for o in picked] or ['catch 2'])}")
    if words:
        target = _number(words[0])
        picked = [o for o in picked if o.arg == target]
    if len(picked) == 1:
        return Chosen(picked[0])
    if not picked:
        what = f"{verb} {words[0] if words else ''}".strip()
        return Hint(f"not an option now: {what} (? lists what you may type)")
    return Hint(f"which one? {_or([_seat_example(o) for o in picked])}")


def _seat_example(option: Action) -> str:
    return f"{'seat' if option.kind in ('target', 'loser') else option.kind} {option.arg}"


def _colour(words: list[str], options: list[Action], game: Game) -> Answer | None:
    """A colour named, or by the start of its name (``b``), at a colour prompt."""
    colours = [o for o in options if o.kind == "color"]
    typed = " ".join(words)
    exact = [o for o in colours if str(o.arg).lower() == typed]
    if exact:
        return Chosen(exact[0])
    start = [o for o in colours if typed and str(o.arg).lower().startswith(typed)]
    if len(start) == 1:
        return Chosen(start[0])
    if len(start) > 1:
        return Hint(f"which colour? {_or([str(o.arg) for o in start])}")
    return None


def _card(words: list[str], verb: str | None, uno: bool, options: list[Action], game: Game,
          text: str) -> Answer:
    """A card named: the play (jump-in, give) of it among the options."""
    pile: int | None = None
    if len(words) > 2 and words[-2] in PILE_WORDS and _number(words[-1]) is not None:
        pile, words = _number(words[-1]), words[:-2]
        if words and words[-1] == "on":  # "on pile 1"
            words = words[:-1]
    typed = canonical(" ".join(words))
    cards = [o for o in options if o.kind in KINDS_WITH_CARD and (verb is None or
                                                                  o.kind == verb)]
    scored = [(card_matches(typed, str(o.arg)), o) for o in cards] if typed else []
    best = max((s for s, _ in scored), default=0)
    if best == 0:
        return _unknown(text, words, options, game)
    found = [o for s, o in scored if s == best]
    if pile is not None:
        found = [o for o in found if o.pile == pile]
        if not found:
            return Hint(f"not on pile {pile}: {_or([option_text(o, game) for o in cards])}")
    found = with_call(found, uno)
    if len(found) > 1:  # several cards, piles or kinds: ask which
        numbered = [f"{options.index(o) + 1}) {option_text(o, game)}" for o in found]
        return Hint("which one? " + "; ".join(numbered))
    return Chosen(found[0])


def _unknown(text: str, words: list[str], options: list[Action], game: Game) -> Answer:
    """Nothing offered matches: say whether it is a card (not playable now) or nothing."""
    typed = canonical(" ".join(words))
    known = typed and any(card_matches(typed, f.name) for f in game.rulebook.faces)
    if known:
        return Hint(f"{label(' '.join(words))} is not an option now: type a number from 1 "
                    f"to {len(options)}, or ? for help")
    return Hint(f"{NOT_UNDERSTOOD} {_short(text)}; type a number from 1 to {len(options)}, "
                "or ? for help")


def _or(items: Sequence[str]) -> str:
    items = list(dict.fromkeys(items))
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _example(options: Sequence[Action], game: Game, kind: str) -> str:
    """An example of typing an option of ``kind`` (a card's name)."""
    for o in options:
        if o.kind == kind:
            return f"{kind.replace('_', ' ')} {label(str(o.arg))}"
    return f"{kind.replace('_', ' ')} red 5"


def help_lines(options: Sequence[Action], game: Game) -> list[str]:
    """What may be typed now, with examples taken from the options."""
    lines = ["you may type:", f"  a number from 1 to {len(options)}: that option"
             if options else "  Enter: go on"]
    kinds = {o.kind for o in options}
    plays = [o for o in options if o.kind in KINDS_WITH_CARD]
    if plays:
        first = plays[0]
        name = label(str(first.arg))
        short = min(abbreviations(str(first.arg)), key=len, default=name)
        verb = {"play": "", "jump_in": "jump in ", "give": "give "}[first.kind]
        lines.append(f"  a card: {verb}{name} (or {verb}{short})")
        if any(o.uno for o in options):
            uno = next(o for o in options if o.uno)
            plain = uno._replace(uno=False)
            number = options.index(plain if plain in options else uno) + 1
            word, name = call_word(game), game.rulebook.settings.call_name
            lines.append(f"  {word} with the card, to call {name}: {label(str(uno.arg))} {word} "
                         f"(or {number} {word}); without it no {name} is called")
        if any(o.pile for o in options):
            lines.append(f"  the pile after the card: {name} on 1")
    colours = [str(o.arg) for o in options if o.kind == "color"]
    if colours:
        lines.append(f"  a colour: {_or(colours)} (or its first letters: {colours[0][0]})")
    bare = [k for k in KINDS_BARE if k in kinds]
    if bare:
        lines.append("  " + " · ".join(bare))
    seats = [_seat_example(o) for o in options if o.kind in KINDS_WITH_SEAT]
    if seats:
        lines.append("  " + " · ".join(dict.fromkeys(seats)))
    if options:
        lines.append(f"  the notation: {options[0]}")
    lines.append("  ? or help: this list   q: quit")
    return lines


__all__ = ["Answer", "Blank", "Chosen", "Help", "Hint", "Quit", "abbreviations",
           "canonical", "help_lines", "interpret", "with_call"]
