"""Embedding uno-rules: play one round of classic UNO with a simple bot at every seat."""

import random

import uno_rules

rulebook = uno_rules.load_rulebook("classic")          # a shipped name or a path
game = rulebook.new_game(players=3, seed=42)
bot = random.Random(42)

while not game.over:
    decision = game.decision                          # who decides what, and the options
    plays = [a for a in decision.options if a.kind == "play"]
    action = bot.choice(plays or list(decision.options))   # prefer playing a card
    game.apply(action)                                # anything else raises IllegalAction

print(game.result)                                    # Result(winners=(...,), points=...)
print(game.view(0)["hand_sizes"], len(game.events), "events")
