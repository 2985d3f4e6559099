"""Setting a game up from a described position (hands, piles, colour, turn)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .decisions import Turn
from .errors import IllegalAction
from .game import Game
from .model import NO_COLOR, Rules
from .notation import parse_card


@dataclass
class Position:
    """A start position in card notation; ``None`` fields are left to the rules."""

    hands: Sequence[Sequence[str]]
    discard: Sequence[str] = ()
    draw_pile: Sequence[str] | None = None   # top first; None: the rest, shuffled
    color: str | None = None
    turn: int = 0
    direction: str = "clockwise"


def game_from_position(rulebook: Rules, players: int, position: Position,
                       seed: int | None = None, *, dealer: int | None = None) -> Game:
    """A game starting from ``position``. Cards the position does not place are the draw
    pile (shuffled from ``seed``) or, when ``draw_pile`` is given, out of play. With an empty
    discard pile the first-card rules run, as at a normal start. Raises ``IllegalAction``
    (a ``ValueError``) for an impossible position."""
    if len(position.hands) != players:
        raise IllegalAction(f"the position has {len(position.hands)} hands for "
                            f"{players} players")
    game = Game.blank(rulebook, players, seed, dealer=dealer)
    remaining = [0] * len(rulebook.faces)
    for fid in rulebook.deck:
        remaining[fid] += 1

    def take(names: Sequence[str]) -> list[int]:
        out = []
        for name in names:
            fid = parse_card(rulebook, name)
            if remaining[fid] == 0:
                raise IllegalAction(f"the position places more copies of "
                                    f"{rulebook.faces[fid].name!r} than the deck has")
            remaining[fid] -= 1
            out.append(fid)
        return out

    game.hands = [take(h) for h in position.hands]
    game.out_seats = [s for s, h in enumerate(game.hands) if not h]  # already out
    game.discard = take(position.discard)
    rest = [fid for fid, n in enumerate(remaining) for _ in range(n)]
    if position.draw_pile is not None:
        game.draw_pile = take(position.draw_pile)[::-1]
        game.out = [fid for fid, n in enumerate(remaining) for _ in range(n)]
    else:
        game.rng.shuffle(rest)
        game.draw_pile = rest
    if position.direction not in ("clockwise", "counterclockwise"):
        raise IllegalAction(f"direction must be clockwise or counterclockwise, "
                            f"not {position.direction!r}")
    game.direction = 1 if position.direction == "clockwise" else -1
    if not 0 <= position.turn < players:
        raise IllegalAction(f"turn {position.turn} is not a seat of {players} players")
    if not game.discard:
        game.start()
        return game
    top = rulebook.faces[game.discard[-1]]
    if position.color is not None:
        if position.color.lower() not in rulebook.colors:
            raise IllegalAction(f"unknown colour {position.color!r}")
        game.color = rulebook.colors.index(position.color.lower())
    else:
        game.color = top.color
        if top.color == NO_COLOR:
            raise IllegalAction(f"the top card {top.name!r} has no colour: give `color`")
    game.pending = Turn(position.turn)
    return game
