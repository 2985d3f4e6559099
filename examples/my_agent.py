"""A player of your own: an agent that plays its lowest-scoring card and names a random
colour. Run it from this folder against the built-in greedy player:

    uno-rules simulate classic --players 2 --agents my_agent:LowFirst,greedy --games 200

or run this file to see one observation and a short simulation (docs/agents.md).
"""

import random

from uno_rules.play.agents import Observation


class LowFirst:
    """Made once per seat and round as ``LowFirst(seat, rng)``; ``rng`` is its own."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng

    def choose(self, obs: Observation) -> int | None:
        """One of ``obs.ids`` (or None to pass, when ``obs.optional``)."""
        options = list(zip(obs.ids, obs.options, strict=True))  # (id, Action) pairs
        plays = [(i, a) for i, a in options if a.kind == "play"]
        if plays:                                          # the card worth fewest points
            return min(plays, key=lambda p: obs.cards[str(p[1].arg)].points)[0]
        if obs.optional:                                   # a catch or jump-in: skip it
            return None
        return options[self.rng.randrange(len(options))][0]


if __name__ == "__main__":
    import uno_rules
    from uno_rules.play.agents import AGENTS, play_agents
    from uno_rules.sim.simulate import simulate

    rulebook = uno_rules.load_rulebook("classic")
    seats = [("my_agent:LowFirst", LowFirst), ("greedy", AGENTS["greedy"])]
    game = play_agents(rulebook, 2, seed=7, agents=seats)
    print(game.result)                                 # Result(winners=(...,), points=...)
    stats = simulate(rulebook, 200, 2, seed=1, agents=seats).to_json()
    print(stats["agents"], stats["wins_by_seat"])      # ['my_agent:LowFirst', 'greedy'] [..]
