"""Rules in words: a printable Markdown sheet generated from a compiled rulebook.

Each step's words are its primitive's phrase (``say`` in
:data:`uno_rules.engine.effects.PRIMITIVES`, an ``if`` condition's in
:data:`uno_rules.engine.conditions.CONDITIONS`); this module adds what depends on the
rulebook's settings and makes the sentences.
"""

from __future__ import annotations

from typing import Any

from ..engine.conditions import CONDITIONS
from ..engine.effects import PRIMITIVES
from ..engine.errors import visible
from ..engine.model import NO_COLOR, CardRule, Settings, Step
from ..engine.model import Rules as Rulebook
from ..engine.words import NOTHING, cards

# What `offer_drawn` does, by the `play_drawn` setting.
OFFER = {"may": "if the drawn card can be played, it may be played at once",
         "must": "if the drawn card can be played, it must be played at once",
         "never": "the drawn card is kept (it can't be played this turn)"}


# Words added when players can be knocked out, or be out while their team plays on: these
# steps leave them out ({out}: how a player leaves).
STILL_IN = {"rotate_hands": ", among the players still in (one {out} is passed over)",
            "choose_player": " still in"}
# Seats that follow the direction of play, and the steps that name the next player without
# a parameter: a reverse skipped on a last card changes who they are.
RELATIVE = frozenset({"next", "prev", "next_partner"})
IMPLICIT_NEXT = frozenset({"stack_draw"})


def knocks_out(rulebook: Rulebook) -> bool:
    """Whether any of the rulebook's steps knocks a player out."""
    return any(st.op == "knock_out" for program in rulebook.programs for st in program)


def _say(rulebook: Rulebook, st: Step) -> str:
    """One step in words, with the words that depend on the rulebook's settings."""
    if st.op == "offer_drawn":
        return OFFER[rulebook.settings.play_drawn]
    text = PRIMITIVES[st.op].say(dict(st.args), lambda p: describe(rulebook, p))
    if knocks_out(rulebook):
        return text + STILL_IN.get(st.op, "").format(out="knocked out")
    if rulebook.round_ends == "team":
        return text + STILL_IN.get(st.op, "").format(out="who is out")
    return text


def describe(rulebook: Rulebook, program: int | None) -> str:
    """A program in words (``nothing happens`` for none)."""
    steps: tuple[Step, ...] = () if program is None else rulebook.programs[program]
    parts = [_say(rulebook, st) for st in steps]
    return ", then ".join(p for p in parts if p) or NOTHING


def _steps(rulebook: Rulebook, program: int | None) -> list[Step]:
    """A program's steps in order, nested step lists inline after their step."""
    out: list[Step] = []
    for st in () if program is None else rulebook.programs[program]:
        out.append(st)
        for param in PRIMITIVES[st.op].programs:
            out += _steps(rulebook, st.args.get(param))
    return out


def reverse_dropped_at_end(rulebook: Rulebook, program: int | None) -> bool:
    """Whether a card ending the round skips a reverse (which only steers the next turn)
    that comes before a step still done that names a seat by the direction of play: on a
    last card, that step reaches the player who would have played next without it."""
    reversed_ = False
    for st in _steps(rulebook, program):
        if st.op == "reverse" and not st.at_end:
            reversed_ = True
        elif reversed_ and st.at_end and (st.op in IMPLICIT_NEXT or any(
                isinstance(v, str) and v in RELATIVE for v in st.args.values())):
            return True
    return False


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


# A card's own going-out rule (CardRule.going_out; `ends_round`, the rule of every card,
# is said once under "Winning and scoring").
GOING_OUT = {
    "continues": "Going out on it does not end the round: its whole effect runs and play "
                 "goes on; a player it leaves with no card has gone out.",
    "not_allowed": "It can't be played as your last card.",
}


def card_sections(rulebook: Rulebook) -> dict[str, str]:
    """What each card kind does, by its name in the deck (rank, or rank with tags)."""
    out: dict[str, str] = {}
    plain: list[str] = []
    for face in rulebook.faces:
        key = " ".join((rulebook.ranks[face.rank], *face.tags))
        rule = rulebook.rules[face.id]
        if key in out or key in plain:
            continue
        if rule is None and face.color != NO_COLOR:
            plain.append(key)
            continue
        lines = []
        if rule is None or rule.effect is None:
            lines.append("No effect.")
        else:
            lines.append(_sentence(describe(rulebook, rule.effect)))
        if face.color == NO_COLOR and ("wild" in rulebook.match or "any" in rulebook.match):
            lines.append("Always playable.")
        if rule is not None and rule.alt_effect is not None:
            lines += _alternative_lines(rulebook, key, face.alternative, rule)
        if rule is not None and rule.legal_if is not None:
            held = "no other card of the colour in force" if rule.legal_if.holds_no == \
                "color" else "no other card that matches the pile (as cards match here)"
            wild = " (a held wild counts)" if rule.legal_if.count_wilds else \
                " (a held wild does not count)"
            lines.append(f"Legal only when you hold {held}{wild}; "
                         + ("it may be played anyway as a bluff." if rule.bluff else
                            "otherwise it can't be played."))
        if rule is not None and rule.going_out in GOING_OUT:
            lines.append(GOING_OUT[rule.going_out])
        lines += _card_counter_lines(rulebook, rule)
        if rule is not None and reverse_dropped_at_end(rulebook, rule.effect):
            lines.append("As the last card: the round is over, so the direction of play does "
                         "not reverse: “the next player” is the one who would have played "
                         "next without it.")
        if rule is not None and rule.first_card != rule.effect:
            lines.append("As the first card: " + _sentence(describe(rulebook, rule.first_card)))
        elif rule is not None and rule.effect is not None:
            lines.append("As the first card, it acts as if the dealer had played it.")
        out[key] = " ".join(lines)
    if plain:
        out = {", ".join(plain): "No effect (number cards).", **out}
    return out


def _card_counter_lines(rulebook: Rulebook, rule: CardRule | None) -> list[str]:
    """A card's own pile-counter rules: no press, or its own overload."""
    if rule is None or not rulebook.pile_limits:
        return []
    lines = [] if rule.presses else ["Playing it does not press its pile (it can't overload)."]
    if rule.overload is not None:
        lines.append("When its own press overloads its pile: "
                     + _sentence(describe(rulebook, rule.overload)))
    return lines


def _alternative_lines(rulebook: Rulebook, key: str, name: str, rule: CardRule) -> list[str]:
    """A card's alternative in words: when it may be chosen, what it does, what it matches."""
    conds = [CONDITIONS[k].say(v) for k, v in (rule.alt_if or {}).items()  # type: ignore[misc]
             if CONDITIONS[k].say is not None]
    when = f" ({' and '.join(conds)})" if conds else ""
    lines = [f"You may play it as its {name}{when}: " + _sentence(describe(rulebook,
                                                                          rule.alt_effect))]
    seconds = sorted({(rulebook.colors[f.color], rulebook.colors[f.second_color])
                      for f in rulebook.faces if f.second_color != NO_COLOR
                      and " ".join((rulebook.ranks[f.rank], *f.tags)) == key})
    if seconds:
        lines.append(f"Played as its {name}, it also matches its second colour ("
                     + ", ".join(f"{c}: {d}" for c, d in seconds) + ").")
    return lines


def deck_table(rulebook: Rulebook) -> list[str]:
    counts: dict[str, list[Any]] = {}
    sided = len(rulebook.sides) > 1
    for fid in sorted(rulebook.deck_faces(), key=lambda f: (rulebook.faces[f].side, f)):
        face = rulebook.faces[fid]
        key = " ".join(((visible(rulebook.sides[face.side]),) if sided else ()) +
                       (rulebook.ranks[face.rank], *face.tags))
        entry = counts.setdefault(key, [set(), 0, face.points, face.side])
        if face.color != NO_COLOR:
            entry[0].add(rulebook.colors[face.color])
        entry[1] += 1
    rows = ["| card | colours | copies | points |", "|---|---|---|---|"]
    for key, (colors, n, points, side) in counts.items():
        cols = "all" if colors and len(colors) == len(rulebook.side_colors[side]) else \
            ", ".join(sorted(colors)) or "wild"
        rows.append(f"| {key} | {cols} | {n} | {points} |")
    rows.append(f"| **total** | | **{len(rulebook.deck)}** | |")
    return rows


def rule_lines(rulebook: Rulebook) -> dict[str, list[str]]:
    """The non-card rules, by section title."""
    s = rulebook.settings
    setup = [f"Deal {s.hand_size} cards to each player, one at a time, starting left of the "
             "dealer; turn over the top card of the draw pile to start the discard pile.",
             "The player to the dealer's left plays first, clockwise."]
    if rulebook.open_piles:
        setup.append(f"There are {rulebook.discard_piles} discard piles; a card is turned up "
                     f"on the first {rulebook.open_piles} only, the others start closed (a "
                     "closed pile takes no card until one is turned up there).")
    if rulebook.setup is not None:
        setup.append("Then: " + _sentence(describe(rulebook, rulebook.setup)))
    setup += [f"Each player has a {key} ({' or '.join(values)}), {values[start]} at the start."
              for key, values, start in rulebook.player_state]
    return {"Setup": setup, "Your turn": _turn_lines(rulebook),
            "Winning and scoring": _end_lines(rulebook)}


# How each way of `match:` reads on a sheet (tables.MATCH_WAYS).
MATCH_WORDS = {"color": "the colour in force", "rank": "the number or the symbol of the top card",
               "number": "the number of the top card (a number card)", "wild": "a wild",
               "on_uncolored": "anything when no colour is in force (a wild that names none)"}


def match_line(match: tuple[str, ...]) -> str:
    """The sheet's sentence for what a card may be played on, from the rulebook's `match:`."""
    if "any" in match:
        return "Play any card: every card plays on every card."
    ways = [MATCH_WORDS[way] for way in match]
    said = ways[0] if len(ways) == 1 else ", ".join(ways[:-1]) + ", or " + ways[-1]
    if match == ("color", "rank", "wild"):  # today's sentence, word for word
        said = "the colour in force, the number or the symbol of the top card, or a wild"
    return f"Play a card matching {said}."


def _call_line(s: Settings, penalty: str) -> str:
    """The sheet's sentence for the call (UNO, or the rulebook's ``call_name``): when it is
    due, who owes it, the penalty (in words: what a player caught does)."""
    call, left = s.call_name, "one card" if s.call_at == 1 else cards(s.call_at)
    text = (f"Call {call} whenever your own card leaves you {left} (your next-to-last card, "
            "or one whose effect makes you discard more or trade hands)"
            if s.call_at == 1 and s.uno_after_effects else
            f"Call {call} whenever your own card leaves you {left}" if s.uno_after_effects else
            f"Call {call} when you play your next-to-last card" if s.call_at == 1 else
            f"Call {call} when you play down to {left}")
    if s.uno_after_others:
        text += f"; left at {left} by another player's card (a swap), call it yourself"
    if s.call_after_draw:
        text += f"; left at {left} by a draw, call it too"
    text += f"; caught before the next player acts, {penalty}."
    if s.false_call_penalty:
        text += f" Calling {call} when it is not due: you draw {cards(s.false_call_penalty)}."
    return text


def _combo_lines(rulebook: Rulebook) -> list[str]:
    """Several cards in one play (``combos``) and wild numbers (a group's ``numbers``)."""
    out = []
    for combo in rulebook.combos:
        what = [f"{combo.cards} cards"]
        if combo.first:
            what.append("the first a " + " or ".join(rulebook.ranks[r] for r in combo.first))
        if combo.same:
            what.append(f"all of one {'colour' if combo.same == 'color' else 'rank'}")
        what.append("whose numbers add up to the top card's (none need match it)" if combo.sum
                    else "the first playable on the pile")
        out.append("You may play " + ", ".join(what) + " at once on one pile, in order: the "
                   "last on top, and only its effect is done.")
    for rank, numbers in enumerate(rulebook.rank_numbers):
        name = rulebook.ranks[rank]
        if numbers and numbers != ((int(name),) if name.isdigit() else ()):
            out.append(f"A {name} counts as " + (str(numbers[0]) if len(numbers) == 1 else
                       f"any of {', '.join(map(str, numbers))}") + ", whichever suits.")
    return out


def _counter_lines(rulebook: Rulebook) -> list[str]:
    """The sheet's sentences for the turn's opening steps and the pile counters."""
    out = []
    if rulebook.turn_begin is not None:
        out.append("As each turn begins (not a skipped one): "
                   + _sentence(describe(rulebook, rulebook.turn_begin)))
    if rulebook.pile_limits:
        limits = ", ".join(str(v) for v, _ in rulebook.pile_limits)
        line = ("A card goes only on an open discard pile. Each play on a pile presses it; "
                "each pile has a press count (public) and a hidden limit, drawn (from "
                f"{limits}) when it starts and after each overload or reset. The press that "
                "reaches the limit overloads the pile: its count returns to 0 with a new "
                "limit")
        if rulebook.overload is not None:
            line += "; then, before the card acts: " + describe(rulebook, rulebook.overload)
        out.append(_sentence(line))
    return out


def _turn_lines(rulebook: Rulebook) -> list[str]:
    """:func:`rule_lines`' "Your turn" section."""
    s = rulebook.settings
    offered = any(st.op == "offer_drawn" for st in _steps(rulebook, rulebook.draw_program))
    penalty = f"you draw {cards(s.uno_penalty)}" if rulebook.caught is None else \
        describe(rulebook, rulebook.caught)
    turn = [match_line(rulebook.match),
            "Or draw: " + _sentence(describe(rulebook, rulebook.draw_program))
            + ("" if s.draw_with_playable else " Only when you can't play."),
            {"may": "A playable drawn card may be played at once, and only that card.",
             "must": "A playable drawn card must be played at once.",
             "never": "A drawn card can't be played in the same turn."}[s.play_drawn]
            if offered else "Drawing ends your turn.",
            _call_line(s, penalty)]
    turn += _combo_lines(rulebook)
    turn += _counter_lines(rulebook)
    if rulebook.turn_plays:
        turn.append("After a play you may play again, onto a discard pile not yet played on "
                    "this turn, or end your turn; with no such play left it ends.")
    if rulebook.turn_end is not None:
        turn.append("At the end of your turn: " + _sentence(describe(rulebook,
                                                                    rulebook.turn_end))
                    + " Only then does a player whose hand is empty go out.")
    if s.jump_in:
        turn.append("Jump-in: holding the exact card on top (same colour and rank"
                    + (", or the same wild" if s.jump_in_wilds else ", not a wild")
                    + "), you may play it out of turn; play goes on from you.")
    if rulebook.stack_mixing is not None:
        values = {f"{rulebook.ranks[f.rank]} ({r.stack_value})"
                  for f in rulebook.faces if (r := rulebook.rules[f.id]) and r.stack_value}
        turn.append("Stacking: facing a draw penalty you may answer with a stacking draw card ("
                    + ", ".join(sorted(values)) + ") "
                    + ("of equal or higher value" if rulebook.stack_mixing else
                       "of the same value")
                    + (", of any colour (it need not match the top card)"
                       if rulebook.stack_any_color else
                       " that can be played on the top card")
                    + "; the total passes on, and the first player "
                    "who doesn't answer draws it all and loses its turn"
                    + ("." if rulebook.stack_max is None else
                       f"; the total may not go past {rulebook.stack_max}."))
        answers = sorted({rulebook.ranks[f.rank] for f in rulebook.faces
                          if (r := rulebook.rules[f.id]) and r.answers_draw})
        if answers:
            turn.append("A pending draw may also be answered, the same way, with a "
                        + " or ".join(answers) + ": it adds nothing, and the total stays "
                        "pending for whoever's turn its effect leads to."
                        + (" Going out on one, that player draws the total, and it counts."
                           if rulebook.settings.pending_draw_at_end == "drawn" else ""))
    joining = " and ".join(rulebook.piles[i] for i in rulebook.reshuffle_piles) + " pile" \
        + ("s" if len(rulebook.reshuffle_piles) > 1 else "")
    if not rulebook.reshuffle_discards:
        turn.append("When the draw pile runs out, "
                    + (f"the cards on the {joining} are shuffled into a new one; "
                       if rulebook.reshuffle_piles else "no card is drawn any more; ")
                    + "the discard piles are left alone.")
    elif rulebook.reshuffle_piles:
        turn.append("When the draw pile runs out, the discard pile but its top card is "
                    f"shuffled into a new one, with the cards on the {joining}.")
    if rulebook.after_draw is not None:
        turn.append("After any draw: " + _sentence(describe(rulebook, rulebook.after_draw)))
    return turn


def _end_lines(rulebook: Rulebook) -> list[str]:
    """:func:`rule_lines`' "Winning and scoring" section."""
    s = rulebook.settings
    end = []
    ops = {st.op for program in rulebook.programs for st in program}
    if rulebook.team_size > 1:
        end.append(f"Players play {rulebook.team_size} to a team; partners sit across the "
                   "table (seats players/team size apart).")
    if s.go_out_on == "number":
        end.append("You may not go out on an action card or a wild.")
    if rulebook.round_ends == "team":
        end.append("A team wins the round when all its players are out; a player who is out "
                   "is skipped.")
    else:
        end.append("The round ends as soon as a player plays its last card; what that card "
                   "makes others draw still happens"
                   + (" (a stacked total too, drawn at once)" if "stack_draw" in ops else "")
                   + ", what only steers the next turn does not.")
    if "knock_out" in ops:
        out = ["its turns are skipped"] + [text for op, text in (
            ("choose_player", "it is never chosen"), ("rotate_hands", "hands pass over it"))
            if op in ops] + _knocked_out_conditions(rulebook)
        end.append("A player knocked out takes no more part in the round: "
                   + ", ".join(out[:-1]) + (" and " if len(out) > 1 else "") + out[-1]
                   + ". In a match it is dealt in again in the next round.")
        end.append("If all the other players are knocked out, you win the round"
                   + (" (a team: when only its players are still in)"
                      if rulebook.team_size > 1 else "") + ".")
    if rulebook.going_out is not None:
        end.append("Going out while the round goes on: "
                   + _sentence(describe(rulebook, rulebook.going_out)))
    end.append("The winner scores the cards left in the other players' hands"
               + (" (of the other sides)" if rulebook.team_size > 1 else "")
               + (f", plus {s.knockout_points} per player knocked out"
                  if s.knockout_points else "") + ".")
    end.append({"winner_takes": f"The first to {s.target_score} points wins the match.",
                "lowest_total": f"Each player adds the points left in its own hand; when one "
                                f"reaches {s.target_score}, the lowest total wins.",
                "elimination": f"Each player adds the points left in its own hand; at "
                               f"{s.target_score} a player is out"
                               + ("; so is, each round, whoever is left holding the most "
                                  "points (all of them on a tie)" if s.knock_out_worst else "")
                               + "; the last one standing wins."}[s.scoring])
    end.append("The next round is dealt by " + ("the winner." if s.next_dealer == "winner"
                                                 else "the player to the dealer's left."))
    return end


def _knocked_out_conditions(rulebook: Rulebook) -> list[str]:
    """How a knock-out changes the ``if`` conditions the rulebook tests (those whose
    :data:`~uno_rules.engine.conditions.CONDITIONS` entry says so)."""
    tested = {name for program in rulebook.programs for st in program if st.op == "if"
              for name, value in st.args.items() if value is not None}
    return [f"“{c.say('N')}” {c.knocked_out}" for c in CONDITIONS.values()
            if c.name in tested and c.knocked_out is not None and c.say is not None]


def explain(rulebook: Rulebook) -> str:
    """The whole rules sheet as Markdown."""
    # The rulebook's own text escaped (a newline, an escape sequence), the description's
    # lines kept: a sheet is printed on a terminal.
    title = rulebook.title + (f" (with {', '.join(rulebook.house)})" if rulebook.house else "")
    out = [f"# {visible(title)}", ""]
    if rulebook.description:
        out += [*map(visible, rulebook.description.strip().split("\n")), ""]
    colours = "; ".join(
        ", ".join(rulebook.colors[c] for c in cols)
        + (f" ({visible(rulebook.sides[s])} side)" if len(rulebook.sides) > 1 else "")
        for s, cols in enumerate(rulebook.side_colors))
    out += [f"{rulebook.players_text()} players, {len(rulebook.deck)} cards, "
            + (f"colours {colours}." if any(rulebook.side_colors) else "no colours.") + "",
            "", "## Deck", "", *deck_table(rulebook), ""]
    for title_, lines in rule_lines(rulebook).items():
        out += [f"## {title_}", "", *[f"- {line}" for line in lines], ""]
    out += ["## Cards", ""]
    for key, text in card_sections(rulebook).items():
        out.append(f"- **{key}**: {text}")
    return "\n".join(out) + "\n"
