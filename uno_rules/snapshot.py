"""Snapshots (the whole state as JSON-able data) and the event log in words."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from .actions import Action, Result
from .decisions import ask_from_json
from .errors import NotationError, SnapshotError
from .model import NO_COLOR, Rules
from .notation import parse_whole_card
from .state import Ctx, State

S = TypeVar("S", bound=State)

FORMAT = 1


def snapshot(game: State) -> dict[str, Any]:
    """The state of ``game`` as JSON-able data (cards in notation, RNG state included)."""
    rb = game.rulebook
    names = [rb.card_name(c) for c in range(len(rb.cards))]
    ctxs: list[Any] = []

    def ctx_index(ctx: Any) -> int | None:
        if ctx is None:
            return None
        for i, c in enumerate(ctxs):
            if c is ctx:
                return i
        ctxs.append(ctx)
        return len(ctxs) - 1

    def pending_json(pending: Any) -> dict[str, Any] | None:
        if pending is None:
            return None
        return {"kind": pending.kind, "seat": pending.seat, "ctx": ctx_index(pending.ctx),
                "data": pending.data()}

    # A negative program id marks a frame that resumes a pending decision (see Game._catch).
    frames = [[f[0], f[1], pending_json(f[2]) if f[0] < 0 else ctx_index(f[2])]
              for f in game.stack]
    pending = pending_json(game.pending)
    current = ctx_index(game.ctx)
    stacked = ctx_index(game.stack_ctx)  # every ctx is indexed before "ctxs" is written
    version, internal, gauss = game.rng.getstate()
    return {
        "format": FORMAT,
        "rulebook": rb.name,
        "source": str(rb.source),
        "house": list(rb.house),
        "set": dict(rb.overrides),
        "players": game.players,
        "seed": game.seed,
        "dealer": game.dealer,
        **({"side": rb.sides[game.side]} if len(rb.sides) > 1 else {}),
        "hands": [[names[c] for c in h] for h in game.hands],
        "draw_pile": [names[c] for c in game.draw_pile],
        "discard": [names[c] for c in game.discard],
        **({"discards": [[names[c] for c in pile] for pile in game.discard_piles()],
            "colors": list(game.colors), "focus": game.focus}
           if rb.discard_piles > 1 else {}),
        "out": [names[c] for c in game.out],
        **({"piles": {name: [names[c] for c in pile]
                      for name, pile in zip(rb.piles, game.piles, strict=True)}}
           if rb.piles else {}),
        "color": game.color,
        "direction": game.direction,
        "skips": list(game.skips),
        "turn_to": game.turn_to,
        "uno_open": game.uno_open,
        "turns": game.turns,
        "first_turns": game.first_turns,
        "over": game.over,
        "result": None if game.result is None else [list(game.result.winners), game.result.points],
        "out_seats": list(game.out_seats),
        "eliminated": list(game.eliminated),
        "stack_draw": [game.stack_total, game.stack_value, stacked,
                       game.stack_penalty],
        "giving": [{"queue": [list(q) for q in g["queue"]],
                    "aside": [[a, t, names[c]] for a, t, c in g["aside"]],
                    "together": g["together"]} for g in game.giving],
        "stack": frames,
        "ctxs": [c.to_json() for c in ctxs],
        "ctx": current,
        "pending": pending,
        "history": [str(a) for a in game.history],
        "rng": [version, list(internal), gauss],
    }


def restore(blank: Callable[[int, int | None, int], S], rulebook: Rules,
            data: Mapping[str, Any]) -> S:
    """Rebuild a game from :func:`snapshot` output into ``blank(players, seed, dealer)``, a
    state with nothing dealt; raises :class:`SnapshotError` unless the snapshot is complete
    and consistent: of this rulebook with the same house rules and settings, every card of
    the deck once, every seat, colour, program and pending decision valid."""
    if not isinstance(data, Mapping):
        raise SnapshotError(f"a snapshot is a mapping, not {type(data).__name__}")
    try:
        if data.get("format") != FORMAT:
            raise SnapshotError(f"unsupported snapshot format {data.get('format')!r}")
        if data["rulebook"] != rulebook.name:
            raise SnapshotError(f"snapshot is of rulebook {data['rulebook']!r}, "
                                f"not {rulebook.name!r}")
        if list(data["house"]) != list(rulebook.house) or \
                dict(data["set"]) != dict(rulebook.overrides):
            raise SnapshotError(f"snapshot is of {data['rulebook']} with house rules "
                                f"{list(data['house'])} and settings {dict(data['set'])}, not "
                                f"{list(rulebook.house)} and {dict(rulebook.overrides)}: load "
                                "the rulebook with those (uno_rules.restore does)")
        if type(data["players"]) is not int or data["players"] not in rulebook.player_counts():
            raise SnapshotError(f"snapshot has {data['players']!r} players; {rulebook.name} "
                                f"is for {rulebook.players_text()}")
        game = blank(int(data["players"]), data["seed"], data["dealer"])

        def cards(names: list[str]) -> list[int]:
            return [parse_whole_card(rulebook, n) for n in names]

        if len(rulebook.sides) > 1:
            game.turn_side(rulebook.sides.index(data["side"]))
        if rulebook.discard_piles > 1:
            discards = [cards(pile) for pile in data["discards"]]
            colors = [int(c) for c in data["colors"]]
            focus = int(data["focus"])
            discards[focus] = cards(data["discard"])
        else:
            discards, colors, focus = [cards(data["discard"])], [data["color"]], 0
        hands, draw_pile, out = [cards(h) for h in data["hands"]], cards(data["draw_pile"]), \
            cards(data["out"])
        piles = [cards(data["piles"][name]) for name in rulebook.piles] \
            if rulebook.piles else None
        try:
            game.lay_out(hands, draw_pile, discards, colors, focus=focus, out=out, piles=piles)
        except ValueError as exc:
            raise SnapshotError(f"snapshot does not fit the rulebook: {exc}") from None
        for key in ("color", "direction", "turn_to", "uno_open", "turns", "over"):
            setattr(game, key, data[key])
        game.skips = [int(s) for s in data["skips"]]
        game.first_turns = int(data.get("first_turns", 0))
        if data["result"] is not None:
            game.result = Result(tuple(data["result"][0]), data["result"][1])
        ctxs = [Ctx.from_json(c) for c in data["ctxs"]]

        def pending(p: Any) -> Any:
            if p is None:
                return None
            return ask_from_json(p["kind"], p["seat"],
                                 None if p["ctx"] is None else ctxs[p["ctx"]], p["data"])

        game.stack = [[f[0], f[1], pending(f[2]) if f[0] < 0 else ctxs[f[2]]]
                      for f in data["stack"]]
        game.ctx = ctxs[data["ctx"]]
        game.pending = pending(data["pending"])
        game.out_seats = list(data["out_seats"])
        game.eliminated = list(data["eliminated"])
        total, value, sctx, penalty = data["stack_draw"]
        game.stack_total, game.stack_value, game.stack_penalty = total, value, penalty
        game.stack_ctx = None if sctx is None else ctxs[sctx]
        game.giving = [{"queue": [list(q) for q in g["queue"]],
                        "aside": [[a, b, parse_whole_card(rulebook, c)]
                                  for a, b, c in g["aside"]],
                        "together": g["together"]} for g in data["giving"]]
        game.history = [Action.parse(a) for a in data["history"]]
        version, internal, gauss = data["rng"]
        game.rng.setstate((version, tuple(internal), gauss))
        problem = _inconsistency(game)
        if problem:
            raise SnapshotError(f"inconsistent snapshot: {problem}")
        return game
    except SnapshotError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, NotationError) as exc:
        raise SnapshotError(f"malformed snapshot: {type(exc).__name__}: {exc}") from None


def _inconsistency(game: State) -> str | None:
    """What makes a restored state impossible (None when it is consistent)."""
    rb, n = game.rulebook, game.players

    def seat(value: Any) -> bool:
        return type(value) is int and 0 <= value < n

    if len(game.hands) != n:
        return f"{len(game.hands)} hands for {n} players"
    faces = sorted(f for card in game.all_cards() for f in rb.cards[card])
    if faces != sorted(rb.deck_faces()):
        return "its cards are not the deck's: a card is missing, repeated or foreign"
    colors = set(rb.side_colors[game.side]) | {NO_COLOR}
    if any(type(c) is not int or c not in colors for c in [game.color, *game.colors]):
        return f"colour {game.color!r} is not one of the side in play"
    if game.direction not in (1, -1) or type(game.direction) is not int:
        return f"direction {game.direction!r} is not 1 or -1"
    if not all(seat(s) for s in [*game.skips, *game.out_seats, *game.eliminated]) or \
            not (game.turn_to is None or seat(game.turn_to)) or \
            not (game.uno_open == -1 or seat(game.uno_open)):
        return "a seat that is not one of the players"
    if any(game.hands[s] for s in game.eliminated):
        return "a knocked-out player holds cards"
    if type(game.turns) is not int or game.turns < 0 or type(game.over) is not bool:
        return "turns or over of the wrong type"
    if not 0 <= game.focus < rb.discard_piles:
        return f"discard pile {game.focus} in focus, of {rb.discard_piles}"
    contexts = [game.ctx] + [f[2] for f in game.stack if f[0] >= 0]
    contexts += [a.ctx for a in (game.pending, *[f[2] for f in game.stack if f[0] < 0])
                 if a is not None and a.ctx is not None]
    for ctx in contexts:
        if not seat(ctx.actor) or not -1 <= ctx.face < len(rb.cards) or \
                not 0 <= ctx.pile < rb.discard_piles:
            return "a card being resolved has an impossible player, card or pile"
    for program, pc, _ in game.stack:
        if program != -1 and not (0 <= program < len(rb.programs)
                                  and 0 <= pc <= len(rb.programs[program])):
            return f"an effect frame at program {program}, step {pc}, that does not exist"
    pending = game.pending
    if game.over:
        if game.result is None or not all(seat(s) for s in game.result.winners):
            return "a round over with no valid result"
        return None
    if pending is None:
        return "a round going on with no pending decision"
    return _pending_problem(game, pending, seat)


def _pending_problem(game: State, pending: Any, seat: Callable[[Any], bool]) -> str | None:
    """What is wrong with the pending decision (None when it can be answered)."""
    rb = game.rulebook
    if not (seat(pending.seat) or (pending.seat is None and pending.kind == "contest")):
        return f"a {pending.kind} decision for seat {pending.seat!r}"
    data = pending.data()
    programs = range(len(rb.programs))
    if pending.kind == "drawn" and pending.card not in game.hands[pending.seat]:
        return "the drawn card offered is not in the player's hand"
    if pending.kind in ("target", "contest") and not all(seat(s) for s in data):
        return f"a {pending.kind} among seats that are not players"
    if pending.kind == "challenge" and not all(p in programs for p in data):
        return "a challenge whose outcomes are not programs of the rulebook"
    if pending.kind != "turn" and pending.ctx is None:
        return f"a {pending.kind} decision about no card"
    return None


def describe_event(game: State, event: tuple[Any, ...]) -> str:
    """One log event in words."""
    rb = game.rulebook
    name = rb.faces.__getitem__
    kind = event[0]
    if kind == "play":
        on = f" on discard pile {event[3]}" if len(event) > 3 else ""
        return f"seat {event[1]} plays {name(event[2]).name}{on}"
    if kind == "draw":
        got, asked = len(event[3]), event[2]
        cards = "a card" if got == 1 else f"{got} cards"
        short = "" if got == asked else f" (of {asked}: the piles ran out)"
        return f"seat {event[1]} draws {cards}{short}"
    if kind == "first":
        return f"first card {name(event[1]).name}"
    if kind == "color":
        return f"seat {event[1]} chooses {rb.colors[event[2]]}"
    if kind == "challenge":
        return f"seat {event[1]} challenges seat {event[2]}: {'guilty' if event[3] else 'innocent'}"
    if kind == "catch":
        return f"seat {event[1]} catches seat {event[2]} without UNO"
    if kind == "win":
        return f"seat {event[1]} wins the round, {event[2]} points"
    if kind == "target":
        return f"seat {event[1]} chooses seat {event[2]}"
    if kind == "loser":
        return f"seat {event[1]} loses the contest"
    if kind == "give":
        return f"seat {event[1]} gives a card to seat {event[2]}"
    if kind == "discard":
        return f"seat {event[1]} discards {', '.join(name(c).name for c in event[2])}"
    if kind == "uno":
        return f"seat {event[1]} calls UNO for seat {event[2]}"
    if kind == "turn_over":
        return f"every card is turned over: the {rb.sides[event[1]]} side is in play"
    if kind == "reverse":
        return f"seat {event[1]} reverses the direction"
    if kind == "reshuffle":
        return f"the discard pile is shuffled into a new draw pile of {event[1]}"
    if kind == "keep":
        return f"seat {event[1]} keeps the drawn card"
    if kind == "swap":
        return f"seat {event[1]} swaps hands with seat {event[2]}"
    if kind == "rotate":
        return "every hand passes on"
    if kind == "knock_out":
        return f"seat {event[1]} is knocked out"
    if kind == "jump_in":
        return f"seat {event[1]} jumps in"
    if kind == "out":
        return f"seat {event[1]} is out"
    if kind == "return":
        return f"seat {event[1]} takes {name(event[2]).name} back"
    return " ".join(str(x) for x in event)
