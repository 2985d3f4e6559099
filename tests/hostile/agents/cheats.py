"""Agents that break the protocol: --agents cheats:NAME must end in one line, exit 1."""

import random


class NotAnAgent:
    """A class without choose()."""


VALUE = 3


class Illegal:
    """Chooses an id that is never an option."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        pass

    def choose(self, obs: object) -> int:
        return 10**9


class Passes:
    """Passes (None) when it must answer its decision."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        pass

    def choose(self, obs: object) -> None:
        return None


class Raises:
    """Fails inside choose()."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        pass

    def choose(self, obs: object) -> int:
        raise ValueError("no idea\nwhat to do")


class NoArgs:
    """Can't be made as Class(seat, rng)."""

    def choose(self, obs: object) -> int:
        return 0

    def __init__(self) -> None:
        pass


class Exits:
    """Calls sys.exit inside choose()."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        pass

    def choose(self, obs: object) -> int:
        import sys

        sys.exit(0)
