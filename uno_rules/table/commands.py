"""The ``play`` command (added to the ``uno-rules`` group by cli.py)."""

from __future__ import annotations

import click

from ..cli_common import fail, house_option, rulebook_or_fail, set_option


@click.command()
@click.argument("rulebook")
@house_option
@set_option
@click.option("--players", default=4, show_default=True, type=click.IntRange(2))
@click.option("--seed", default=None, type=int, help="Seed of the deal and the bots.")
@click.option("--human", "humans", multiple=True, type=int, default=(0,), show_default=True,
              help="A seat played by you (repeatable); the others are random bots.")
def play(rulebook: str, house: tuple[str, ...], sets: tuple[str, ...], players: int,
         seed: int | None, humans: tuple[int, ...]) -> None:
    """Play a round in the terminal against random bots (q quits)."""
    from ..play import play as run

    rb = rulebook_or_fail(rulebook, sets, house)
    if players not in rb.player_counts():
        fail(f"--players {players}: {rb.name} is for {rb.players_text()} players")
    bad = [h for h in humans if not 0 <= h < players]
    if bad:
        fail(f"--human {bad[0]}: seats are 0 to {players - 1}")

    def ask(prompt: str) -> str | None:
        try:
            return input(prompt)
        except (EOFError, RuntimeError):  # input ran out, or stdin/stdout is closed
            return None

    click.echo(f"{rb.title}: {players} players, you are seat(s) "
               f"{', '.join(map(str, humans))}; seat 0 sits left of the dealer.")
    run(rb.new_game(players, seed), humans, ask, click.echo, seed)
