"""A match: rounds of one rulebook until the target score, as the rulebook's settings say."""

from __future__ import annotations

import random

from .errors import IllegalAction
from .game import Game
from .model import Rulebook


class Match:
    """Rounds until the target score. One seeded RNG seeds every round's game.

    Scoring (``settings.scoring``): ``winner_takes`` — the round winner scores the round's
    points, and the first to ``target_score`` wins; ``lowest_total`` — every player adds the
    points left in its own hand, and when one reaches the target the lowest total wins.
    The next dealer (``settings.next_dealer``) is the player to the dealer's left, or the
    round winner.
    """

    def __init__(self, rulebook: Rulebook, players: int, seed: int | None = None):
        self.rulebook = rulebook
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.scores = [0] * players
        self.dealer = players - 1
        self.rounds = 0
        self.winners: tuple[int, ...] = ()
        self.game = self._deal()

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def _deal(self) -> Game:
        self.rounds += 1
        return self.rulebook.new_game(self.players, self.rng.getrandbits(63), dealer=self.dealer)

    def next_round(self) -> Game | None:
        """Score the finished round; deal the next one, or return None if the match is won."""
        game, settings = self.game, self.rulebook.settings
        if not game.over or game.result is None:
            raise IllegalAction("the current round is not over")
        if self.over:
            raise IllegalAction("the match is over")
        winner = game.result.winners[0]
        faces = self.rulebook.faces
        if settings.scoring == "lowest_total":
            for seat, hand in enumerate(game.hands):
                self.scores[seat] += sum(faces[c].points for c in hand)
            if max(self.scores) >= settings.target_score:
                low = min(self.scores)
                self.winners = tuple(s for s, v in enumerate(self.scores) if v == low)
        else:
            for seat in game.result.winners:
                self.scores[seat] += game.result.points
            if self.scores[winner] >= settings.target_score:
                self.winners = tuple(game.result.winners)
        if self.over:
            return None
        self.dealer = winner if settings.next_dealer == "winner" else \
            (self.dealer + 1) % self.players
        self.game = self._deal()
        return self.game
