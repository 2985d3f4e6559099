"""Learning and search: action spaces, observations, and the PettingZoo, Gymnasium and
OpenSpiel adapters (the ``rl`` extra)."""
