"""Setting a game up from a described position (hands, piles, colour, turn)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .decisions import Turn
from .errors import IllegalAction
from .game import Game
from .model import NO_COLOR, Rules
from .notation import SIDES, parse_card, parse_sides
from .pilecounters import set_public, start_counters


@dataclass
class Position:
    """A start position in card notation; ``None`` fields are left to the rules."""

    hands: Sequence[Sequence[str]]
    discard: Sequence[str] = ()
    draw_pile: Sequence[str] | None = None   # top first; None: the rest, shuffled
    color: str | None = None
    turn: int = 0
    direction: str = "clockwise"
    side: str | None = None                  # cards with sides: the side in play
    discards: Sequence[Sequence[str]] | None = None  # several discard piles: each of them
    colors: Sequence[str | None] | None = None       # and the colour in force on each
    # per-player state (rulebook.player_state): each key's value per seat; None: the start
    player_state: Mapping[str, Sequence[str]] | None = None
    # pile counters (rulebook.pile_limits): the open piles (given: the turn starts without
    # its `turn.begin` steps), each pile's presses and hidden limit; None: as dealt
    open_piles: Sequence[int] | None = None
    presses: Sequence[int] | None = None
    limits: Sequence[int] | None = None


class _Faces:
    """The faces a position may still place, per side, in deck order."""

    def __init__(self, rulebook: Rules):
        self.rulebook = rulebook
        self.left = [0] * len(rulebook.faces)
        for fid in rulebook.deck_faces():
            self.left[fid] += 1

    def take(self, fid: int) -> None:
        if self.left[fid] == 0:
            raise IllegalAction(f"the position places more copies of "
                                f"{self.rulebook.faces[fid].name!r} than the deck has")
        self.left[fid] -= 1

    def first(self, side: int) -> int:
        """The first face of ``side`` not placed yet (deck order)."""
        fid = next(f.id for f in self.rulebook.faces if f.side == side and self.left[f.id])
        self.left[fid] -= 1
        return fid

    def rest(self) -> list[int]:
        """The cards nobody placed: each side's faces left, paired in deck order."""
        rb = self.rulebook
        per_side = [[f.id for f in rb.faces if f.side == s for _ in range(self.left[f.id])]
                    for s in range(len(rb.sides))]
        return [rb.card_ids[faces] for faces in zip(*per_side, strict=True)]


def game_from_position(rulebook: Rules, players: int, position: Position,
                       seed: int | None = None, *, dealer: int | None = None,
                       out: Sequence[int] = ()) -> Game:
    """A game starting from ``position``. Cards the position does not place are the draw
    pile (shuffled from ``seed``) or, when ``draw_pile`` is given, out of play. With an empty
    discard pile the first-card rules run, as at a normal start. A card of a rulebook with
    sides may be written with every face (``red 5 // pink 2``) or with one: the other sides
    are then the first faces the deck still has unplaced. Raises ``IllegalAction`` (a
    ``ValueError``) for an impossible position. ``out``: seats out of a match (their hands
    empty), knocked out from the start as in ``Rulebook.new_game``."""
    if len(position.hands) != players:
        raise IllegalAction(f"the position has {len(position.hands)} hands for "
                            f"{players} players")
    game = Game.blank(rulebook, players, seed, dealer=dealer)
    if out:
        if any(position.hands[s] for s in out):
            raise IllegalAction("a seat out of the match holds cards")
        game.eliminated, game.absent = sorted(out), sorted(out)
    if position.side is not None:
        if position.side not in rulebook.sides:
            raise IllegalAction(f"unknown side {position.side!r}: the sides are "
                                f"{', '.join(rulebook.sides)}")
        game._turn_side(rulebook.sides.index(position.side))
    pool = _Faces(rulebook)
    discards = _discards(rulebook, position)
    piles = [*position.hands, *discards, position.draw_pile or ()]
    named = [[_sides(rulebook, name, game.side) for name in pile] for pile in piles]
    for pile in named:  # faces named first, so that filling in takes only what is left
        for faces in pile:
            for fid in faces:
                if fid is not None:
                    pool.take(fid)
    cards = [[rulebook.card_ids[tuple(pool.first(s) if f is None else f
                                      for s, f in enumerate(faces))] for faces in pile]
             for pile in named]
    rest = pool.rest()
    if position.draw_pile is not None:
        draw_pile, out = cards[-1][::-1], rest
    else:
        game._own_rng().shuffle(rest)
        draw_pile, out = rest, []
    tops = cards[players:players + len(discards)]
    colors = [NO_COLOR] * len(tops)
    if any(tops):  # a position in play: the colour in force on each pile, given or its top's
        given = list(position.colors or [None] * len(tops))
        if position.color is not None:
            given[0] = position.color
        if len(given) != len(tops):
            raise IllegalAction(f"`colors` names {len(given)} colours for {len(tops)} "
                                "discard piles")
        colors = [_color(game, color, pile[-1]) if pile else NO_COLOR  # a closed pile
                  for color, pile in zip(given, tops, strict=True)]
    game._lay_out(cards[:players], draw_pile, tops, colors, out=out)
    if position.player_state is not None:
        _set_player_state(game, position.player_state)
    if position.direction not in ("clockwise", "counterclockwise"):
        raise IllegalAction(f"direction must be clockwise or counterclockwise, "
                            f"not {position.direction!r}")
    game.direction = 1 if position.direction == "clockwise" else -1
    if not 0 <= position.turn < players:
        raise IllegalAction(f"turn {position.turn} is not a seat of {players} players")
    if not game.discard:
        game._start()
    else:
        _begin(game, position)
    return game


def _begin(game: Game, position: Position) -> None:
    """A position in play: its pile counters, then its turn (the rulebook's `turn.begin`
    steps first, unless the position gives the open piles)."""
    rulebook = game.rulebook
    if rulebook.pile_limits:
        _set_counters(game, position)
    if position.open_piles is None and rulebook.turn_begin is not None:
        game._begin_turn(position.turn)  # its outcome (Triple Play's open piles) first
    else:
        game.pending = Turn(position.turn)


def _set_counters(game: Game, position: Position) -> None:
    """A position's pile counters: fresh ones, with what it gives."""
    piles = game.rulebook.discard_piles
    for values in (position.presses, position.limits):
        if values is not None and len(values) != piles:
            raise IllegalAction(f"pile counters need one value per discard pile ({piles})")
    if any(p >= piles for p in position.open_piles or ()):
        raise IllegalAction(f"`open_piles` names a pile that is not one of {piles}")
    start_counters(game)
    set_public(game, position.open_piles, position.presses, position.limits)


def _set_player_state(game: Game, given: Mapping[str, Sequence[str]]) -> None:
    """Set the per-player state a position gives (each key a value per seat; keys not given
    keep their start)."""
    declared = {name: values for name, values, _ in game.rulebook.player_state}
    for key, per_seat in given.items():
        if key not in declared:
            raise IllegalAction(f"no per-player state {key!r}: this rulebook declares "
                                f"{', '.join(declared) or 'none'}")
        if len(per_seat) != game.players:
            raise IllegalAction(f"`{key}` gives {len(per_seat)} values for "
                                f"{game.players} players")
        for seat, value in enumerate(per_seat):
            if str(value) not in declared[key]:
                raise IllegalAction(f"{value!r} is not a value of `{key}` "
                                    f"({', '.join(declared[key])})")
            game._marks[game._mark_at(seat, key)] = declared[key].index(str(value))


def _discards(rulebook: Rules, position: Position) -> list[Sequence[str]]:
    """The discard piles of a position: ``discard`` for one, ``discards`` for several."""
    if position.discards is None:
        if rulebook.discard_piles > 1 and position.discard:
            raise IllegalAction(f"{rulebook.name} has {rulebook.discard_piles} discard piles: "
                                "give them all in `discards`")
        return [position.discard] + [[] for _ in range(rulebook.discard_piles - 1)]
    if len(position.discards) != rulebook.discard_piles or position.discard:
        raise IllegalAction(f"`discards` needs exactly {rulebook.discard_piles} piles (and "
                            "no `discard` beside it)")
    if not all(position.discards) and any(position.discards) and not rulebook.open_piles:
        raise IllegalAction("give every discard pile a card, or none of them (only piles "
                            "that may close, `open_piles`, may be empty)")
    return list(position.discards)


def _color(game: Game, color: str | None, top: int) -> int:
    """The colour in force on a discard pile whose top card is ``top``: given, or the top
    card's."""
    rulebook = game.rulebook
    if color is not None:
        if color.lower() not in [rulebook.colors[c] for c in rulebook.side_colors[game.side]]:
            raise IllegalAction(f"unknown colour {color!r}")
        return rulebook.color_ids[color.lower()]
    face = game.faces[top]
    if face.color == NO_COLOR and rulebook.side_colors[game.side]:  # (no colours: none)
        raise IllegalAction(f"the top card {face.name!r} has no colour: give `color`")
    return face.color


def _sides(rulebook: Rules, name: str, side: int) -> list[int | None]:
    """The faces a card's notation names, per side; a face named alone is read on ``side``
    (the side in play) when it is printed on several."""
    if SIDES in name:
        return parse_sides(rulebook, name)
    faces: list[int | None] = [None] * len(rulebook.sides)
    fid = parse_card(rulebook, name, side)
    faces[rulebook.faces[fid].side] = fid
    return faces
