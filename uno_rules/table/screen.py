"""The table as one seat sees it, in lines of text: its hand grouped by colour, the top
card(s) and the colour in force, every seat's cards count and marks, the last events and
the options, with plain ANSI colours when the terminal takes them.

Everything shown comes from ``game.view(seat)`` and the public state (what
:mod:`uno_rules.rl.observation` encodes too): no line ever names a card of another seat's hand,
nor a card another seat drew. Card names are shown with spaces for underscores
(``wild draw four``); :mod:`uno_rules.table.answers` reads both spellings.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from ..engine.actions import Action
from ..engine.decisions import WORDS
from ..engine.errors import visible as escaped
from ..engine.events import describe_event
from ..engine.game import Game
from ..engine.model import NO_COLOR, Face
from ..engine.notation import normalize
from ..engine.view import hides

if TYPE_CHECKING:
    from ..play.match import Match

WIDTH = 96  # lines are wrapped to this many visible columns
RESET = "\x1b[0m"
BOLD = "1"
# SGR codes for the colour words rulebooks use; a colour not listed here gets one of the
# FALLBACK codes by its position in the rulebook's colours (still told apart, if not named).
SGR: Mapping[str, str] = {
    "red": "31", "yellow": "33", "green": "32", "blue": "34", "pink": "95", "teal": "36",
    "orange": "38;5;208", "purple": "35", "magenta": "35", "cyan": "36", "white": "97",
    "black": "90", "grey": "37", "gray": "37", "brown": "38;5;130", "gold": "38;5;178",
    "silver": "37", "violet": "35", "lime": "92", "navy": "38;5;18",
}
FALLBACK = ("91", "93", "92", "94", "96", "95", "38;5;208", "38;5;130")
ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class Style:
    """How text is drawn: ``colour`` True adds ANSI colour escapes."""

    colour: bool = False

    @classmethod
    def detect(cls, stream: TextIO, environ: Mapping[str, str] | None = None) -> Style:
        """Colour iff ``stream`` is a terminal, ``NO_COLOR`` is not set (to anything: see
        no-color.org) and ``TERM`` is not ``dumb``. ``environ``: os.environ by default."""
        env = os.environ if environ is None else environ
        if "NO_COLOR" in env or env.get("TERM") == "dumb":
            return cls(False)
        try:
            tty = bool(stream.isatty())
        except (AttributeError, ValueError, OSError):  # closed, or no file at all
            tty = False
        return cls(tty)

    def paint(self, text: str, code: str | None) -> str:
        """``text`` in the SGR ``code`` (as it is without colour, or without a code)."""
        if not self.colour or not code or not text:
            return text
        return f"\x1b[{code}m{text}{RESET}"


PLAIN = Style(False)


def visible(text: str) -> str:
    """``text`` without its colour escapes."""
    return ESCAPE.sub("", text)


def label(name: str) -> str:
    """A card name as shown: underscores as spaces (``wild draw four``)."""
    return " ".join(name.replace("_", " ").split())


def colour_code(game: Game, colour: int | str | None) -> str | None:
    """The SGR code of a colour (its index in the rulebook's colours, or its name)."""
    colours = game.rulebook.colors
    if colour is None or colour == NO_COLOR:
        return None
    if isinstance(colour, str):
        if colour not in colours:
            return SGR.get(colour.lower())
        colour = colours.index(colour)
    name = colours[colour].lower()
    return SGR.get(name) or FALLBACK[colour % len(FALLBACK)]


def face_of(game: Game, name: str, side: int | None = None) -> Face | None:
    """The face a card name names, read on ``side`` first (default: the side in play)."""
    rb, key = game.rulebook, normalize(name)
    by_side = rb.side_by_name
    fid = by_side[game.side if side is None else side].get(key) if by_side else None
    if fid is None:
        fid = rb.by_name.get(key)
    return None if fid is None else rb.faces[fid]


def card_text(game: Game, name: str, style: Style, side: int | None = None) -> str:
    """A card as shown: ``red 5``, in its colour (a colourless card in bold)."""
    text = label(name)
    if not style.colour:
        return text
    face = face_of(game, name, side)
    if face is None or face.color == NO_COLOR:
        return style.paint(text, BOLD)
    return style.paint(text, colour_code(game, face.color))


def colour_text(game: Game, colour: str | None, style: Style) -> str:
    """A colour's name in that colour (``no colour`` for none)."""
    return "no colour" if colour is None else style.paint(colour, colour_code(game, colour))


def wrap(items: Sequence[str], first: str, indent: str, sep: str = ", ",
         width: int = WIDTH) -> list[str]:
    """``first`` then the items joined by ``sep``, wrapped to ``width`` visible columns,
    the lines after the first starting with ``indent``."""
    lines: list[str] = []
    line, size = first, len(visible(first))
    fresh = True  # nothing after the prefix yet
    for item in items:
        add = len(visible(item)) + (0 if fresh else len(sep))
        if not fresh and size + add > width:
            lines.append(line.rstrip() + sep.rstrip())
            line, size, fresh = indent, len(indent), True
            add = len(visible(item))
        line += item if fresh else sep + item
        size += add
        fresh = False
    lines.append(line)
    return lines


def _hand_lines(game: Game, names: Sequence[str], style: Style, indent: str) -> list[str]:
    """A hand grouped by colour, the rulebook's colour order, colourless cards last."""
    if not names:
        return [f"{indent}(no cards)"]
    colours = game.rulebook.colors
    groups: dict[int, list[str]] = {}
    for name in names:
        face = face_of(game, name)
        groups.setdefault(NO_COLOR if face is None else face.color, []).append(name)
    lines: list[str] = []
    width = max(len(colours[c]) if c != NO_COLOR else 5 for c in groups)
    for colour in sorted(groups, key=lambda c: (c == NO_COLOR, c)):
        head = "wilds" if colour == NO_COLOR else colours[colour]
        head = style.paint(head.ljust(width), None if colour == NO_COLOR
                           else colour_code(game, colour))
        cards = [card_text(game, n, style) for n in groups[colour]]
        lines += wrap(cards, f"{indent}{head}  ", indent + " " * (width + 2))
    return lines


DECISIONS: Mapping[str, str] = {kind: words.waiting for kind, words in WORDS.items()}


def decision_words(kind: str) -> str:
    """A decision's kind in words: ``to play``, ``to choose a colour``."""
    return DECISIONS.get(kind, f"to {kind.replace('_', ' ')}")


def _seat_name(seat: int, me: int | None) -> str:
    return f"seat {seat}" + (" (you)" if seat == me else "")


def _counter(view: dict[str, Any], pile: int) -> str:
    """A pile's counter as the table sees it (pile counters): open or closed, its presses."""
    if "presses" not in view:
        return ""
    state = "open" if pile in view["open_piles"] else "closed"
    return f", {state}, pressed {view['presses'][pile]}"


def table_lines(game: Game, seat: int | None, style: Style = PLAIN, *,
                match: Match | None = None, open_hands: bool = False) -> list[str]:
    """What ``seat`` sees of the table (see the module doc). ``seat`` None: what anyone
    at the table sees (no hand); ``open_hands``: every seat's hand too (a replay's
    ``--open``: never for a player's screen)."""
    me = seat
    view = game.view(0 if seat is None else seat)
    lines: list[str] = []
    if match is not None:
        lines += scores_lines(match, style)
    # The top card(s) and the colour in force, the direction, the piles.
    if "discards" in view:
        tops = [f"pile {k}: {_top(game, p['top'], style)} "
                f"({colour_text(game, p['color'], style)}, {_cards(p['size'])}"
                f"{_counter(view, k)})"
                for k, p in enumerate(view["discards"])]
        lines += wrap(tops, "discard piles: ", "  ", sep="   ")
    else:
        lines.append(f"top card: {_top(game, view['top'], style)}" + (
            f"   colour: {colour_text(game, view['color'], style)}"
            if game.rulebook.colors else ""))  # a deck without colours: none to say
    extra = "".join(f"   {label(name)}: {size}" for name, size in view.get("piles", {}).items())
    if "discards" not in view:  # several piles: each one's size is on its own
        extra = f"   discard pile: {view['discard_size']}{extra}"
    lines.append(f"play goes {view['direction']}   draw pile: {view['draw_pile_size']}{extra}")
    if "side" in view:
        other = view["other_side"]
        back = other["draw_pile_top"]
        lines.append(f"side in play: {escaped(view['side'])}   the backs show the "
                     f"{escaped(other['side'])} side"
                     + ("" if back is None else
                        f"; draw pile top: {_back(game, back, style)}"))
    if view["stacked_draw"]:
        lines.append(style.paint(f"stacked draw: {view['stacked_draw']} cards to draw", BOLD))
    result, decision = view["result"], view["decision"]
    if result is not None:
        lines.append(style.paint(f"round over: {_seats(result['winners'])} "
                                 f"{'wins' if len(result['winners']) == 1 else 'win'} "
                                 f"{result['points']} points", BOLD))
    elif view["over"]:
        lines.append(f"round stopped: {game.stalled_reason() or 'it can not go on'}")
    if decision is not None and decision["seat"] is None:
        article = {"contest": "a ", "outcome": "an "}.get(decision["kind"], "")
        lines.append(f"the table settles {article}{decision['kind']}")
    lines += _seat_lines(game, view, me, style, open_hands)
    if me is not None:
        hand = view["hand"]
        lines.append(f"your hand (seat {me}, {_cards(len(hand))}):")
        lines += _hand_lines(game, hand, style, "  ")
    return lines


def brief_lines(game: Game, seat: int, style: Style = PLAIN) -> list[str]:
    """A seat's screen in a few lines (the table's answer between two of its own
    questions): the top card and colour (several piles: each, on lines of their own),
    every seat's cards count and marks on one line, and the seat's hand.
    :func:`table_lines` has it all."""
    view = game.view(seat)
    lines: list[str] = []
    if "discards" in view:  # every pile on its own line(s), then the seats
        lines += wrap([f"pile {k}: {_top(game, p['top'], style)} "
                       f"({colour_text(game, p['color'], style)}{_counter(view, k)})"
                       for k, p in enumerate(view["discards"])], "", "  ", sep="   ")
        head = "cards: "
    else:
        head = f"top card: {_top(game, view['top'], style)}" + (
            f" ({colour_text(game, view['color'], style)})" if game.rulebook.colors else "") \
            + "   cards: "
    seats = [f"{_seat_name(s, seat)} {size}" + "".join(
        f" ({m})" for m in _marks(game, view, s, seat, style))
        for s, size in enumerate(view["hand_sizes"])]
    lines += wrap(seats, head, "  ", sep="; ")
    if view["stacked_draw"]:
        lines.append(style.paint(f"stacked draw: {view['stacked_draw']} cards to draw", BOLD))
    hand = view["hand"]
    lines.append(f"your hand (seat {seat}, {_cards(len(hand))}):")
    return lines + _hand_lines(game, hand, style, "  ")


def _seats(seats: Sequence[int]) -> str:
    return "seat " + ", ".join(map(str, seats)) if len(seats) == 1 else \
        "seats " + ", ".join(map(str, seats))


def _top(game: Game, name: str | None, style: Style) -> str:
    return "(none)" if name is None else card_text(game, name, style)


def _back(game: Game, name: str, style: Style) -> str:
    return card_text(game, name, style, (game.side + 1) % len(game.rulebook.sides))


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _seat_lines(game: Game, view: Mapping[str, Any], me: int | None, style: Style,
                open_hands: bool) -> list[str]:
    """A line per seat: its cards count, team and marks (and the backs it shows)."""
    decision = view["decision"]
    acting = None if decision is None else decision["seat"]
    sided = "side" in view
    lines: list[str] = []
    for s, size in enumerate(view["hand_sizes"]):
        marks = _marks(game, view, s, me, style)
        if s == acting:
            marks.append(decision_words(decision["kind"]))
        pointer = ">" if s == acting else " "
        head = f"{pointer} {_seat_name(s, me):<15} {_cards(size):>9}"
        # many marks (per-player state, a call open, a decision) wrap under the first
        lines += wrap(marks, head + "   ", " " * (len(head) + 3)) if marks else [head]
        indent = " " * 4
        if open_hands and s != me:  # its own: under "your hand"
            lines += _hand_lines(game, game.hand(s), style, indent)
        if sided and s != me:  # the other side of its cards: everyone else sees them
            backs = view["other_side"]["hands"][s]
            if backs is None:  # no seat's screen (me None): seat 0's, as seat 1 sees them
                backs = game.view(1)["other_side"]["hands"][s]
            if backs:
                lines += wrap([_back(game, b, style) for b in backs], f"{indent}backs: ",
                              indent + " " * 7)
    return lines


def _marks(game: Game, view: Mapping[str, Any], s: int, me: int | None,
           style: Style) -> list[str]:
    """What a seat's line says besides its cards: team, state, out, the call (UNO, or the
    rulebook's ``call_name``)."""
    call, at = game.rulebook.settings.call_name, game.rulebook.settings.call_at
    team = view.get("team_by_seat")
    size = view["hand_sizes"][s]
    marks = []
    if team is not None:
        marks.append(f"team {team[s]}" + (" (yours)" if me is not None and s != me and
                                           team[s] == team[me] else ""))
    marks += [f"{label(key)} {values[s]}" for key, values in
              view.get("player_state", {}).items()]
    if s in view["absent"]:
        marks.append("out of the match")
    elif s in view["knocked_out"]:
        marks.append("knocked out")
    elif s in view["out"]:
        marks.append("out (its team plays on)")
    if view["uno_open"] == s:
        marks.append(style.paint(f"{call} not called: open to a catch", BOLD))
    elif s in view.get("owed", ()):
        marks.append(style.paint(f"{call} owed (left at {_cards(at)}): call it, or be caught",
                                 BOLD))
    elif size == at:
        marks.append(call)
    return marks


def scores_lines(match: Match, style: Style = PLAIN) -> list[str]:
    """The match as it stands: round, scoring, every seat's score, who is out or won."""
    s = match.rulebook.settings
    how = {"winner_takes": f"first to {s.target_score}",
           "lowest_total": f"lowest total when one reaches {s.target_score}",
           "elimination": f"out at {s.target_score}"
                          + (" or with the round's worst hand" if s.knock_out_worst else "")
                          + ", the last one standing wins"
           }.get(s.scoring, f"{s.scoring}, target {s.target_score}")
    scores = []
    for seat, score in enumerate(match.scores):
        mark = " (won)" if seat in match.winners else " (out)" if seat in match.out else ""
        scores.append(f"seat {seat}: {score}{mark}")
    lines = [f"match: round {match.rounds}, {how}"]
    lines += wrap(scores, "scores: ", "        ", sep="   ")
    if match.winners:
        lines.append(style.paint("match won by " + ", ".join(f"seat {w}" for w in
                                                              match.winners), BOLD))
    return lines


def event_lines(game: Game, since: int, seat: int | None, style: Style = PLAIN, *,
                open_hands: bool = False,
                notes: Mapping[int, Sequence[str]] | None = None) -> list[str]:
    """``game``'s events from number ``since`` on, in words (a long one wrapped onto
    lines starting with spaces). The draws of ``seat`` (every seat's with ``open_hands``)
    name the cards drawn; a card given is named to its giver only (the receiver finds it in
    its hand: cards given together are chosen before any is received). Nobody else's
    ever are. ``notes``: lines a table adds (``seat 2 is skipped``), by the number of
    events before them."""
    log = game.log or []
    since = max(since, 0)
    if since >= len(log):
        return []
    rb = game.rulebook
    sides = _sides_then(game, log)
    notes = notes or {}
    lines: list[str] = []
    for i in range(since, len(log)):
        if i > since:
            lines += notes.get(i, ())
        event = log[i]
        text = escaped(describe_event(game, event))  # a side's name is the rulebook's text
        kind = event[0]
        seen = open_hands or (seat is not None and (
            kind == "draw" and event[1] == seat or kind == "give" and not hides(kind, event[1],
                                                                               seat)))
        if kind in ("play", "first", "return"):
            name = rb.faces[event[2 if kind != "first" else 1]].name
            text = text.replace(name, card_text(game, name, style, rb.faces[
                event[2 if kind != "first" else 1]].side))
        elif kind == "discard":
            lines += wrap([card_text(game, rb.faces[f].name, style, rb.faces[f].side)
                           for f in event[2]], f"seat {event[1]} discards ", "    ")
            continue
        elif kind == "color":
            colour = rb.colors[event[2]]
            text = text.replace(colour, colour_text(game, colour, style))
        elif kind == "draw" and seen and event[3]:
            faces = rb.side_faces[sides[i]]
            lines += wrap([card_text(game, faces[c].name, style, sides[i]) for c in event[3]],
                          text + ": ", "    ")
            continue
        elif kind == "give" and seen:
            name = rb.side_faces[sides[i]][event[3]].name
            text = f"seat {event[1]} gives {card_text(game, name, style, sides[i])} to " \
                   f"seat {event[2]}"
        elif kind in ("win", "catch", "knock_out") or kind == "challenge" and event[3]:
            text = style.paint(text, BOLD)
        lines.append(text)
    return lines + list(notes.get(len(log), ()))


def _sides_then(game: Game, log: Sequence[tuple[Any, ...]]) -> list[int]:
    """The side in play at each event of ``log``: read back from the side in play now, as
    a turn-over event names the side it turned to (the log may start mid-round)."""
    count = len(game.rulebook.sides)
    side = game.side
    sides = [0] * len(log)
    for i in range(len(log) - 1, -1, -1):
        sides[i] = side
        if log[i][0] == "turn_over":
            side = (log[i][1] - 1) % count
    return sides


def option_text(option: Action, game: Game, style: Style = PLAIN) -> str:
    """One option in short words: ``play red 5``, ``choose blue``, ``catch seat 2``."""
    kind, arg = option.kind, option.arg
    if kind in ("play", "jump_in", "give"):
        card = card_text(game, str(arg), style)
        verb = {"play": "play", "jump_in": "jump in with", "give": "give"}[kind]
        text = f"{verb} {card}"
        if option.pile:
            text += f" on pile {option.pile}"
        elif game.rulebook.discard_piles > 1 and kind == "play":
            text += " on pile 0"
        return text + (f" and call {game.rulebook.settings.call_name}" if option.uno else "")
    if kind == "color":
        return f"choose {colour_text(game, str(arg), style)}"
    if kind == "draw":
        total = game.stacked.total
        return f"draw the {total} stacked" if total else "draw"
    call = game.rulebook.settings.call_name
    words = {"keep": "keep the drawn card", "challenge": "challenge", "accept": "accept",
             "pass": "pass (let the chance go)", "end": "end your turn", "target": f"seat {arg}",
             "catch": f"catch seat {arg} ({call} not called)", "uno": f"call {call} for seat {arg}",
             "loser": f"seat {arg} loses", "press": f"press pile {arg}",
             "side": f"play it {arg}" if arg == "normal" else f"play it as {arg}"}
    return words.get(kind, str(option))


PROMPTS: Mapping[str, str] = {kind: words.prompt for kind, words in WORDS.items()}


def prompt_text(game: Game, seat: int) -> str:
    """What ``seat`` is asked now, in words: its own decision, or (another seat's pending)
    its chance out of turn: ``seat 0, your turn: play a card or draw``."""
    decision = game.decision
    if decision is None:
        return f"seat {seat}: the round is over"
    if decision.seat == seat:
        ask = PROMPTS.get(decision.kind, decision_words(decision.kind))
        if decision.kind == "turn" and game.stacked.total:
            ask = f"your turn: answer the stacked draw or draw its {game.stacked.total}"
        return f"seat {seat}, {ask}"
    who = "the table" if decision.seat is None else f"seat {decision.seat}"
    return f"seat {seat}, out of turn ({who} {decision_words(decision.kind)}): " \
           "act now, or pass"


def option_lines(options: Sequence[Action], game: Game, style: Style = PLAIN) -> list[str]:
    """The options numbered from 1: ``  1) play red 5``."""
    width = len(str(len(options)))
    return [f"  {i:>{width}}) {option_text(o, game, style)}" for i, o in enumerate(options, 1)]


__all__ = ["PLAIN", "Style", "card_text", "colour_text", "decision_words", "event_lines",
           "label", "option_lines", "option_text", "prompt_text", "scores_lines", "table_lines",
           "visible"]
