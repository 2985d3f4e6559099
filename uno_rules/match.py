"""A match: rounds of one rulebook until the target score, as the rulebook's settings say."""

from __future__ import annotations

import random
from collections.abc import Iterable

from .engine.errors import IllegalAction
from .engine.game import Game, check_arguments
from .engine.rulebook import Rulebook


class Match:
    """Rounds until the target score. One seeded RNG seeds every round's game.

    Scoring (``settings.scoring``):

    - ``winner_takes``: the round winner scores the round's points; first to
      ``target_score`` wins.
    - ``lowest_total``: every player adds the points left in its own hand; when one reaches
      the target, the lowest total wins.
    - ``elimination``: every player adds the points left in its own hand to its penalty; at
      the target a player is out of the match; the last one standing wins.

    The next dealer (``settings.next_dealer``) is the player to the dealer's left, or the
    round winner. Seats are match seats; ``seats`` maps the current round's seats to them.
    """

    def __init__(self, rulebook: Rulebook, players: int, seed: int | None = None, *,
                 max_steps: int | None = None, max_actions: int | None = None):
        # Checked before they're used to set up the match. The budgets are each round's.
        check_arguments(rulebook, players, seed, max_steps=max_steps, max_actions=max_actions)
        self.budgets = {"max_steps": max_steps, "max_actions": max_actions}
        self.rulebook = rulebook
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.scores = [0] * players
        self.seats = list(range(players))   # the current round's seat i is match seat seats[i]
        self.dealer = players - 1           # a match seat
        self.rounds = 0
        self.winners: tuple[int, ...] = ()
        self.game = self._deal()

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def _deal(self) -> Game:
        self.rounds += 1
        dealer = self.seats.index(self.dealer)
        return self.rulebook.new_game(len(self.seats), self.rng.getrandbits(63), dealer=dealer,
                                      **self.budgets)

    def next_round(self) -> Game | None:
        """Score the finished round; deal the next one, or return None if the match is won."""
        game, settings = self.game, self.rulebook.settings
        if not game.over or game.result is None:
            raise IllegalAction(f"the current round stalled: {game.stalled_reason()}; it has "
                                "no score" if game.stalled else "the current round is not over")
        if self.over:
            raise IllegalAction("the match is over")
        seats, faces, target = self.seats, game.faces, settings.target_score
        winner = seats[game.result.winners[0]]
        if settings.scoring == "winner_takes":
            for s in game.result.winners:
                self.scores[seats[s]] += game.result.points
            if self.scores[winner] >= target:
                self.winners = tuple(seats[s] for s in game.result.winners)
        else:
            for s, hand in enumerate(game.hands):
                self.scores[seats[s]] += sum(faces[c].points for c in hand)
            if settings.scoring == "lowest_total":
                if max(self.scores) >= target:
                    self.winners = self._lowest(range(self.players))
            else:
                standing = [s for s in seats if self.scores[s] < target]
                if len(standing) <= 1:
                    self.winners = tuple(standing) or self._lowest(seats)
                elif len(standing) < self.rulebook.players_min or \
                        len(standing) % self.rulebook.team_size:
                    self.winners = self._lowest(standing)
                self.seats = standing
        if self.over:
            return None
        self._next_dealer(winner)
        self.game = self._deal()
        return self.game

    def _lowest(self, seats: Iterable[int]) -> tuple[int, ...]:
        seats = list(seats)
        low = min(self.scores[s] for s in seats)
        return tuple(s for s in seats if self.scores[s] == low)

    def _next_dealer(self, winner: int) -> None:
        if self.rulebook.settings.next_dealer == "winner" and winner in self.seats:
            self.dealer = winner
            return
        d = self.dealer
        for _ in range(self.players):  # the next seat to the left still in the match
            d = (d + 1) % self.players
            if d in self.seats:
                break
        self.dealer = d
