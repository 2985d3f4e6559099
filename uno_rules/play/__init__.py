"""Playing games: agents (the players), matches of rounds, and records of games."""
