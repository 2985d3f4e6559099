"""What one request may ask of the server: the same bounds as the command line (bytes read,
nesting, each round's budget), plus the server's own (games per simulation, jobs and games
held at once). One record, made by ``serve`` from its options and given to every route."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.game import GAME_ACTIONS, GAME_STEPS


@dataclass(frozen=True)
class Limits:
    """Bounds on what the server accepts and keeps."""

    max_body: int = 1 << 20        # bytes of a request's body (--max-bytes: the CLI's 1 MiB)
    max_depth: int = 64            # nesting of a request's JSON
    max_games: int = 100_000       # rounds (or matches) in one simulation or compare
    max_players: int = 10          # seats at one table
    max_steps: int = GAME_STEPS    # effect steps in a round (simulate's --max-steps)
    max_actions: int = GAME_ACTIONS # actions in a round (simulate's --max-actions)
    max_jobs: int = 2              # simulations running at once (each one process)
    max_finished_jobs: int = 50    # finished jobs whose results are kept
    max_live_games: int = 32       # games held in memory (the rest wait on disk)
    # actions in a round played on the page: the agents' moves between two answers are
    # played in one request (greedy agents over 20,000 actions of hands of a thousand
    # cards take half a minute; over 1,000, about a second; the longest No Mercy round in
    # 200 is about 260 actions)
    play_actions: int = 1000
    # seconds of work one request may take (the agents' moves, a game brought back from
    # its answers): then it stops and answers 503 (uno_rules.web.work)
    request_seconds: float = 30.0
