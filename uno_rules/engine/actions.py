"""Actions and decisions: the values exchanged with a :class:`~uno_rules.engine.game.Game`."""

from __future__ import annotations

from typing import NamedTuple, cast

from .errors import NotationError
from .notation import QUOTE, card_token, tokens, unquote

KINDS_WITH_CARD = ("play", "give", "jump_in")
KINDS_WITH_SEAT = ("target", "catch", "loser", "uno")
KINDS_WITH_COLOR = ("color",)
KINDS_WITH_NAME = ("side",)  # a card's side or alternative: `normal` or its name
KINDS_WITH_VALUE = ("outcome",)  # a table outcome's declared value: a count or a branch name
KINDS_WITH_PILE = ("press",)  # a discard pile pressed (pile counters)
KINDS_BARE = ("draw", "keep", "challenge", "accept", "pass", "end")
ALL_KINDS = KINDS_WITH_CARD + KINDS_WITH_SEAT + KINDS_WITH_COLOR + KINDS_BARE + KINDS_WITH_NAME \
    + KINDS_WITH_VALUE + KINDS_WITH_PILE
# The kinds a chance node's options have: no seat takes them, the table settles them.
CHANCE_KINDS = ("loser", "outcome")
ARG_TYPE: dict[str, type] = {**dict.fromkeys(KINDS_WITH_CARD + KINDS_WITH_COLOR
                                             + KINDS_WITH_NAME + KINDS_WITH_VALUE, str),
                             **dict.fromkeys(KINDS_WITH_SEAT + KINDS_WITH_PILE, int),
                             **dict.fromkeys(KINDS_BARE, type(None))}


class Action(NamedTuple):
    """One move. ``str(action)`` is its stable notation; :meth:`parse` reads it back.

    Notation: ``"SEAT KIND [ARG]"`` — ``"1 play red 5"``, ``"1 play red 5 uno"`` (calling UNO
    on the next-to-last card), ``"0 draw"``, ``"0 keep"``, ``"2 color blue"``,
    ``"1 challenge"``, ``"1 accept"``, ``"0 target 2"``, ``"0 press 2"`` (a discard pile
    pressed, pile counters), ``"3 catch 1"``, ``"3 uno 1"`` (a
    partner calls UNO for seat 1), ``"2 pass"`` (seat 2 lets an out-of-turn chance go: it
    changes nothing), ``"1 side flex"`` (the side or alternative a card just played is played
    as, or ``normal``), ``"loser 2"`` for a contest settled at the table and ``"outcome 3"``
    (``"outcome jackpot"``) for a table outcome: the value a rulebook's ``random`` step (or a
    count given as weights) declares.
    With several discard piles a play names its pile: ``"1 play red 5 on 1"`` (pile 0 is
    written without ``on``). Several cards in one play (a rulebook's ``combos``) are
    joined by ``+``, laid in that order: ``"1 play red 3 + blue 4 on 1"``. A card whose
    name would read as something else is quoted (a JSON string): ``'1 play "blue uno"'``
    plays the card ``blue uno`` without calling UNO.
    """

    seat: int | None
    kind: str
    arg: str | int | None = None
    uno: bool = False
    pile: int = 0

    def __str__(self) -> str:
        # Fields read as plain objects: compiled, a field read checks its declared type, and
        # a malformed Action (which the game refuses) must still print.
        seat, kind, arg, uno, pile = cast("tuple[object, ...]", self)
        parts = [] if seat is None else [str(seat)]
        parts.append(str(kind))
        if isinstance(arg, str) and kind in KINDS_WITH_CARD:
            parts.append(card_token(arg, kind == "play"))
        elif arg is not None:
            parts.append(str(arg))
        if pile:
            parts += ["on", str(pile)]
        if uno:
            parts.append("uno")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action from its notation (card names are checked by the game, not here)."""
        words = tokens(str(text))
        seat: int | None = None
        if words and _number(words[0], signed=True):
            seat = int(words.pop(0))
        if not words or words[0] not in ALL_KINDS:
            raise NotationError(f"can't read action {text!r}: expected [SEAT] KIND [ARG], "
                                f"KIND one of {', '.join(ALL_KINDS)}")
        kind, rest = words[0], words[1:]
        uno, pile = False, 0
        if kind == "play" and len(rest) > 1 and rest[-1] == "uno":
            uno, rest = True, rest[:-1]
        if kind == "play" and len(rest) > 2 and rest[-2] == "on" and _number(rest[-1]):
            pile, rest = int(rest[-1]), rest[:-2]
        arg: str | int | None = " ".join(rest) if rest else None
        if kind in KINDS_BARE and rest:
            raise NotationError(f"can't read action {text!r}: {kind} takes no argument")
        if kind not in KINDS_BARE and not rest:
            raise NotationError(f"can't read action {text!r}: {kind} needs an argument")
        if any(w.startswith(QUOTE) for w in rest):
            if kind not in KINDS_WITH_CARD or len(rest) != 1:
                raise NotationError(f"can't read action {text!r}: a quoted card is the whole "
                                    "card of a play, give or jump_in")
            arg = unquote(rest[0])
        if kind in KINDS_WITH_SEAT + KINDS_WITH_PILE:
            if not (len(rest) == 1 and _number(rest[0])):
                what = "a pile" if kind in KINDS_WITH_PILE else "a seat"
                raise NotationError(f"can't read action {text!r}: {kind} needs {what} number")
            arg = int(rest[0])
        if seat is None and kind not in CHANCE_KINDS:
            raise NotationError(f"can't read action {text!r}: it must start with the seat")
        return cls(seat, kind, arg, uno, pile)


def _number(word: str, signed: bool = False) -> bool:
    """Whether a word reads as a seat or pile number: ASCII digits only (``²`` is a digit to
    ``str.isdigit``, not to ``int``), and few enough for ``int`` (a 5,000-digit one is not)."""
    digits = word[1:] if signed and word.startswith("-") else word
    return digits.isascii() and digits.isdigit() and len(digits) <= 18


def shape_problem(action: object) -> str | None:
    """Why ``action`` is not a well-formed Action (None when it is)."""
    if not isinstance(action, Action):
        return f"not an Action: {action!r}"
    seat, kind, arg, uno, pile = cast("tuple[object, ...]", action)  # unchecked (see __str__)
    if kind not in ALL_KINDS:
        return f"unknown action kind {kind!r}"
    chance = kind in CHANCE_KINDS
    if not (seat is None if chance else isinstance(seat, int) and not isinstance(seat, bool)):
        return f"{kind} needs {'no seat' if chance else 'a seat number'}, not {seat!r}"
    if type(arg) is not ARG_TYPE[kind]:
        return f"{kind} takes {'no argument' if kind in KINDS_BARE else ARG_TYPE[kind].__name__}" \
               f", not {arg!r}"
    if not isinstance(uno, bool) or (uno and kind != "play"):
        return f"uno is a flag of a play, not {uno!r}"
    if type(pile) is not int or pile < 0 or (pile and kind != "play"):
        return f"pile is a discard pile number of a play, not {pile!r}"
    return None


class Decision(NamedTuple):
    """What the game waits for: which seat decides what, and the allowed answers (a named
    tuple: cheap to make, as one is made for every decision).

    A decision with no seat (``seat`` None: a ``contest`` or a table ``outcome``, settled at
    the table) is a chance node: no player chooses; :attr:`chance` gives its outcomes'
    probabilities and the caller draws one with its own RNG. ``weights``: a table outcome's
    declared weights, aligned with the options (empty: every outcome equally likely)."""

    seat: int | None
    kind: str
    options: tuple[Action, ...]
    weights: tuple[int, ...] = ()

    @property
    def chance(self) -> tuple[float, ...] | None:
        """A chance node's probabilities, aligned with :attr:`options` (they sum to 1): by
        the declared weights of a table outcome, else every outcome equally likely (a
        contest is a fair one); None for a seat's decision. Computed when asked, so making
        a decision costs nothing more."""
        if self.seat is not None:
            return None
        weights = self.weights
        if weights:
            total = sum(weights)
            return tuple(w / total for w in weights)
        count = len(self.options)
        return (1 / count,) * count if count else ()

    def __repr__(self) -> str:
        return f"<Decision seat={self.seat} kind={self.kind!r} options={len(self.options)}>"


class Result(NamedTuple):
    """The outcome of a finished round: the winning seat(s) and the points they score."""

    winners: tuple[int, ...]
    points: int
