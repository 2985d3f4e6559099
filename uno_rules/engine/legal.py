"""What may be done now: the options of the pending decision, out-of-turn actions, and
why an action is refused. Reads the state only; the interpreter (:mod:`uno_rules.engine.game`)
and the primitives (:mod:`uno_rules.engine.effects`) build on it."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product

from .actions import Action, Decision
from .conditions import CONDITIONS
from .errors import IllegalAction, NotationError
from .model import NO_COLOR, PILE_MARKS, Combo, LegalIf
from .notation import COMBO, parse_card
from .records import Ctx
from .state import State
from .tables import (
    calls_uno,
    combo_fits,
    combo_set,
    matching,
    numbers_of,
    second_matching,
    sums_to,
)

# The refusal of a last card that may not go out (``go_out_on: number``).
NO_LAST = "only a number may be the last card (go_out_on: number)"
# The refusal of a last card whose rule says so (``going_out: not_allowed``).
NOT_LAST = "this card may not be played as the last card (going_out: not_allowed)"


class Legality(State):
    """Options, legality checks and refusal messages over a round's state."""

    __slots__ = ()

    def out_of_turn_actions(self) -> list[Action]:
        """Actions seats may take outside the pending decision: catching a player that did
        not call UNO, or (in a team) calling UNO for one's partner, or its own call owed
        after another's card (``uno_after_others``); jumping in."""
        table = self._acts[0].table
        return [table[i] for i in self.out_of_turn_ids()]

    def out_of_turn_ids(self) -> list[int]:
        """:meth:`out_of_turn_actions` as ids of the action table, in the same order: the
        catches and UNO calls seat by seat, then the jump-ins seat by seat."""
        if self.over:
            return []
        out = self._call_ids()
        if self.rulebook.settings.jump_in:  # a jump-in is a play: its conditions hold too
            faces, acts = self.faces, self._acts
            out += [acts[s].jump_in[faces[card].id] for s, card in self._jump_in_cards()
                    if self._allowed(s, card)]
        return out

    def asked_seats(self) -> list[int]:
        """The seats an out-of-turn window asks now, ascending, decided by what every seat
        sees (so who is asked never tells what a hand holds): each seat offered a catch or
        an UNO call, and every seat that could jump in (:meth:`_jump_in_seats`). A seat
        asked that has no out-of-turn action may only pass (:meth:`Game.legal_ids`)."""
        if self.over:
            return []
        table = self._acts[0].table
        seats = {table[i].seat for i in self._call_ids()}
        seats.update(self._jump_in_seats())
        return sorted(s for s in seats if s is not None)

    def _call_ids(self) -> list[int]:
        """The catches and UNO calls open now, seat by seat (who may make them is public)."""
        out: list[int] = []
        late = self._uno_open
        acts = self._acts
        if late >= 0:
            mates = self._mates(late)
            out += [acts[s].uno[late] if s in mates else acts[s].catch[late]
                    for s in range(self.players) if s != late and s not in self.eliminated]
        for owes in self._owed:  # left at one card by another's card: it calls too
            if len(self.hands[owes]) == self.rulebook.settings.call_at:
                mates = self._mates(owes)
                out += [acts[s].uno[owes] if s in mates else acts[s].catch[owes]
                        for s in range(self.players) if s not in self.eliminated]
        return out

    def _jump_in_seats(self) -> list[int]:
        """Who could jump in, by public information only: under ``jump_in``, while another
        seat's turn or drawn card is pending and the card on top may be jumped on (a wild
        only with ``jump_in_wilds``), every other seat with cards in hand."""
        pending = self.pending
        if not self.rulebook.settings.jump_in or pending is None or \
                pending.kind not in ("turn", "drawn") or not self.discard:
            return []
        if self.faces[self.discard[-1]].color == NO_COLOR and \
                not self.rulebook.settings.jump_in_wilds:
            return []
        hands = self.hands
        return [s for s in range(self.players) if s != pending.seat and hands[s]]

    def _jump_in_cards(self) -> list[tuple[int, int]]:
        """The seats of :meth:`_jump_in_seats` that hold the exact card on top, each with
        that card: who may jump in, unless the card's conditions (:meth:`_allowed`) forbid
        it."""
        seats = self._jump_in_seats()
        if not seats:
            return []
        face = self.faces[self.discard[-1]].id
        held = ((s, self._held(s, face)) for s in seats)
        return [(s, card) for s, card in held if card is not None]

    def _cards_of_color(self, seat: int, color: int) -> list[int]:
        """The distinct faces of colour ``color`` in ``seat``'s hand (wilds never match)."""
        faces = self.faces
        return self._distinct(c for c in self.hands[seat] if faces[c].color == color != NO_COLOR)

    def _forced_cards(self, seat: int) -> list[int]:
        """The cards ``seat`` may play on a forced play: those of the colour in force, under
        the same conditions as any play (a last card that may not go out can't be played)."""
        return [c for c in self._cards_of_color(seat, self.color) if self._allowed(seat, c)]

    def _distinct(self, cards: Iterable[int]) -> list[int]:
        """One card per face in play, in face order (copies are the same choice)."""
        faces, seen = self.faces, dict[int, int]()
        for card in cards:
            seen.setdefault(faces[card].id, card)
        return [seen[f] for f in sorted(seen)]

    def _canonical(self, action: Action) -> Action:
        """Normalise card names so that ``RED  5`` and ``red 5`` are the same action."""
        if action.kind in ("play", "give", "jump_in") and isinstance(action.arg, str):
            try:  # a combo's cards one by one (`red 3 + blue 2`)
                fids = [parse_card(self.rulebook, name, self.side)
                        for name in action.arg.split(COMBO.strip())]
            except NotationError as exc:
                raise IllegalAction(f"{action}: {exc}") from None
            return action._replace(arg=COMBO.join(self.rulebook.faces[f].name for f in fids))
        if action.kind == "color" and isinstance(action.arg, str):
            return action._replace(arg=action.arg.lower())
        return action

    def _matching_top(self) -> frozenset[int]:
        """The cards (ids, on the side in play) that match the top card and the colour in
        force, or are colourless: playable unless a legality condition says otherwise."""
        discard = self.discard
        rank = self.faces[discard[-1]].rank if discard else -1
        match = self._matches.get((self.color << 32) + rank)  # tables.match_key, inlined
        if match is None:
            match = matching(self._matches, self.faces, self.color, rank, self.rulebook.match,
                             self.rulebook.rank_numbers)
        return match

    def _matching_flags(self) -> bytes:
        """:meth:`matching_top` as one byte per card, 1 where it matches: compiled, indexing
        it per held card costs a fraction of a set membership test."""
        discard = self.discard
        rank = self.faces[discard[-1]].rank if discard else -1
        key = (self.color << 32) + rank  # tables.match_key, inlined
        flags = self._match_flags.get(key)
        if flags is None:
            match = self._matching_top()
            flags = self._match_flags[key] = bytes([c in match for c in range(len(self.faces))])
        return flags

    def _playable(self, seat: int, cards: Iterable[int]) -> list[int]:
        """The distinct faces among ``cards`` that ``seat`` may play now."""
        match = self._matching_top()
        if len(self.rulebook.sides) == 1:  # a card is its face: copies are the same card
            out = sorted(match.intersection(cards))
        else:  # one card per face in play (copies are the same choice), in face order
            out = [card for card in self._distinct(cards) if card in match]
        if self.rulebook.alternatives:  # cards matching by a second colour, played so
            out = self._with_second(seat, cards, out)
        if out and (len(self.hands[seat]) == 1 or self._guarded):  # conditions to check
            out = [card for card in out if self._allowed(seat, card)]
        return out

    def _with_second(self, seat: int, cards: Iterable[int], out: list[int]) -> list[int]:
        """``out`` and the cards of ``cards`` that match by their second colour, where
        ``seat`` may play them as their alternative (one per face, in card order)."""
        second = second_matching(self.rulebook, self.side, self.color)
        more = [c for c in self._distinct(cards) if c in second and c not in out
                and self._alt_allowed(seat, c)]
        return sorted(out + more) if more else out

    def _alt_allowed(self, seat: int, card: int) -> bool:
        """Whether ``seat`` may play ``card`` as its alternative now: it has one, and the
        alternative's conditions hold for ``seat``."""
        rule = self._card_rules[card]
        if rule is None or rule.alt_effect is None:
            return False
        conds = rule.alt_if
        if conds is None:
            return True
        ctx = Ctx(seat)
        for name, value in conds.items():
            holds = CONDITIONS[name].holds  # in-play ones only: the compiler keeps no other
            if holds is not None and not holds(self, ctx, value):
                return False
        return True

    def _sides(self, seat: int, card: int) -> int:
        """How ``card``, about to be played by ``seat``, may be played (judged before it
        leaves the hand): 0 as itself only, 1 as its alternative only (it matched by its
        second colour), 2 either way."""
        if not self._alt_allowed(seat, card):
            return 0
        return 2 if card in self._matching_top() or self.stacked.total else 1

    def _can_play(self, seat: int, card: int) -> bool:
        """Whether ``seat`` may play ``card`` now (:meth:`playable` for one card)."""
        if card not in self._matching_top() and not (
                self.rulebook.alternatives and self._with_second(seat, (card,), [])):
            return False
        return self._allowed(seat, card)

    def _allowed(self, seat: int, card: int) -> bool:
        """The conditions on a matching card: a number to go out on (``go_out_on``), and its
        ``legal_if`` when it may not be bluffed."""
        if self._may_not_go_out(seat, card):
            return False
        if card not in self._guarded:
            return True
        rule = self._card_rules[card]  # guarded: it has a rule with a `legal_if`
        assert rule is not None and rule.legal_if is not None
        return self._legal(seat, card, rule.legal_if)

    def _may_not_go_out(self, seat: int, card: int) -> bool:
        """Whether ``card``, ``seat``'s last, may not be played: not a number under
        ``go_out_on: number``, or a card whose own rule is ``going_out: not_allowed``."""
        if len(self.hands[seat]) != 1:
            return False
        if self.rulebook.settings.go_out_on == "number" and not self.faces[card].number:
            return True
        rule = self._card_rules[card]
        return rule is not None and rule.going_out == "not_allowed"

    def _why_not_last(self, card: int) -> str:
        """Which rule keeps ``card`` from being played as a last card (in words)."""
        rule = self._card_rules[card]
        return NOT_LAST if rule is not None and rule.going_out == "not_allowed" else NO_LAST

    def _legal(self, seat: int, card: int, cond: LegalIf) -> bool:
        """Whether playing ``card`` now meets its ``legal_if`` (checked before it leaves):
        no other coloured card of the colour in force, or (``match``) none that matches the
        pile by the rulebook's own ``match:`` ways; a wild counts with ``count_wilds``."""
        faces = self.faces
        match = self._matching_top() if cond.holds_no == "match" else None
        skipped = False
        for c in self.hands[seat]:
            if c == card and not skipped:
                skipped = True
                continue
            f = faces[c]
            if f.color == NO_COLOR:
                if cond.count_wilds:
                    return False
            elif f.color == self.color if match is None else c in match:
                return False
        return True

    def _play_ids(self, seat: int, cards: list[int], hand_size: int,
                 pile: int = 0) -> list[int]:
        """The ids of the plays of ``cards`` onto discard pile ``pile`` (with UNO called,
        too, where :func:`calls_uno` allows it), looked up in the seat's table."""
        acts = self._acts[seat]
        faces = self.faces
        base = pile * len(self.rulebook.faces)
        out: list[int] = []  # loops, not comprehensions: no closure made on every call
        if not acts.uno_any[hand_size]:  # no card may call UNO now
            plain = acts.play
            if len(faces) == len(self.rulebook.faces) and not base:  # a card is its face
                for card in cards:
                    out.append(plain[card])
            else:
                for card in cards:
                    out.append(plain[base + faces[card].id])
            return out
        rules = self._card_rules
        s = self.rulebook.settings
        after, call_at, false = s.uno_after_effects, s.call_at, s.false_call_penalty > 0
        for card in cards:
            face = base + faces[card].id
            rule = rules[card]
            if calls_uno(hand_size, rule is not None and rule.sheds, after, call_at, false,
                         rule is not None and rule.uno_after
                         and (hand_size > 1 or rule.going_out == "continues")):
                out += acts.both[face]
            else:
                out.append(acts.play[face])
        return out

    def _takes(self, pile: int) -> bool:
        """Whether discard pile ``pile`` takes a card now: not closed (emptied), and open
        this turn where the rulebook has pile counters (pilecounters)."""
        marks = self._pile_marks
        return bool(self._discards[pile]) and not (marks and not marks[PILE_MARKS * pile])

    def _pile_plays(self, seat: int, cards: list[int]) -> tuple[list[int], list[int]]:
        """With several discard piles: the plays (ids) of ``cards`` onto every pile they may
        go on, and the cards playable somewhere."""
        focus, size = self._focus, len(self.hands[seat])
        opts: list[int] = []
        anywhere: set[int] = set()
        for pile in range(self.rulebook.discard_piles):
            if not self._takes(pile):
                continue
            self._focus_on(pile)
            playable = self._playable(seat, cards)
            opts += self._play_ids(seat, playable, size, pile)
            anywhere.update(playable)
        self._focus_on(focus)
        return opts, sorted(anywhere)

    def _combo_ids(self, seat: int) -> list[int]:
        """The combo plays (``combos``: several cards at once) ``seat``'s hand allows onto
        every pile, as ids: the cards held (copies counted), with ``sum`` their numbers
        adding up to the pile's top number, else the first card playable there; UNO called
        too where the play leaves ``call_at`` cards."""
        rb, faces, hand = self.rulebook, self.faces, self.hands[seat]
        held: dict[str, list[int]] = {}
        for card in hand:
            held.setdefault(faces[card].name, []).append(card)
        s = rb.settings
        focus, combos, out = self._focus, self._acts[seat].combo, []
        # The sequences of held names the table has (the hand's, not the whole table's)
        known = combo_set(rb)
        sizes = sorted({c.cards for c in rb.combos})
        held_names = sorted(held)
        candidates = [names for k in sizes for names in product(held_names, repeat=k)
                      if names in known and
                      all(len(held[n]) >= names.count(n) for n in names)]
        for pile in range(rb.discard_piles):
            if not self._takes(pile):
                continue
            self._focus_on(pile)
            top_face = faces[self.discard[-1]] if self.discard else None
            top = () if top_face is None else numbers_of(rb, top_face.rank, top_face.number)
            for names in candidates:
                cards = [held[n][names[:k].count(n)] for k, n in enumerate(names)]
                if not any(self._combo_holds(seat, c, cards, top) for c in rb.combos):
                    continue
                arg, size = COMBO.join(names), len(hand) - len(names) + 1
                if calls_uno(size, False, s.uno_after_effects, s.call_at,
                             s.false_call_penalty > 0):
                    out.append(combos[arg, True, pile])
                out.append(combos[arg, False, pile])
        self._focus_on(focus)
        return out

    def _combo_holds(self, seat: int, combo: Combo, cards: list[int],
                     top: tuple[int, ...]) -> bool:
        """Whether ``cards`` (``seat``'s, in play order) are a ``combo`` on the pile in focus,
        whose top card counts as the numbers ``top``."""
        rb, faces = self.rulebook, [self.faces[c] for c in cards]
        if len(cards) != combo.cards or not combo_fits(combo, faces, rb):
            return False
        if combo.sum:
            return sums_to([numbers_of(rb, f.rank, f.number) for f in faces], top)
        return cards[0] in self._matching_top() and self._allowed(seat, cards[0])

    def _stack_ids(self, seat: int, playable: list[int]) -> list[int]:
        """Facing a stacked draw (option ids): answer with a stacking card, draw it all, or
        challenge. With ``stacking.any_color`` an answer need not be ``playable``: any held
        stacking card of a value allowed answers (its own conditions, ``legal_if``, still hold)."""
        rb, value, mixing = self.rulebook, self.stacked.value, self.rulebook.stack_mixing
        if rb.stack_any_color:
            playable = [c for c in self._distinct(self.hands[seat]) if self._allowed(seat, c)]
        answers = []
        for card in playable if mixing is not None else ():
            rule = self._card_rules[card]
            if rule is None:
                continue
            v = rule.stack_value
            if (v is not None and (v == value or (mixing and v > value)) and
                    (rb.stack_max is None or self.stacked.total + v <= rb.stack_max)) or \
                    rule.answers_draw:
                answers.append(card)
        opts = self._play_ids(seat, answers, len(self.hands[seat]), self._focus)
        opts.append(self._acts[seat].draw)
        last = self.stacked.ctx
        if self.stacked.penalty is not None and last is not None and \
                self._card_rules[last.face].bluff:  # type: ignore[union-attr]
            opts.append(self._acts[seat].challenge)
        return opts

    def _stack_rule(self) -> str:
        """What may answer the pending stacked draw, in words (for a refusal)."""
        rb = self.rulebook
        if rb.stack_mixing is None:
            return "these rules have no stacking; draw it"
        text = f"only a stacking card worth {self.stacked.value}" \
            + (" or more" if rb.stack_mixing else "")
        if not rb.stack_any_color:
            text += f" that can be played on {self.top} ({self.color_name})"
        if rb.stack_max is not None:
            text += f", the total staying within {rb.stack_max}"
        if any(r is not None and r.answers_draw for r in self._card_rules):
            text += ", or a card answering a draw (as playable)"
        return text + " may"

    def _why_illegal(self, action: Action, decision: Decision) -> str:
        if decision.seat is None:  # a chance node: its outcomes are public
            return f"{action}: not an option (pending: a {decision.kind} settled at the " \
                   f"table: one of {', '.join(str(a) for a in decision.options)})"
        pending = f"pending: seat {decision.seat} to {decision.kind}"
        if action.seat != decision.seat:
            return f"{action}: not seat {action.seat}'s decision ({pending})"
        if action.kind == "play" and COMBO in str(action.arg):
            return self._why_not_combo(action, pending)
        if action.kind in ("play", "give") and decision.kind in ("turn", "drawn", "give",
                                                                 "forced_play"):
            fid = self._face_named(str(action.arg))
            held = self._held(action.seat, fid)
            if held is None:
                return f"{action}: {action.arg} is not in seat {action.seat}'s hand"
            if (action.kind == "give") != (decision.kind == "give"):
                return f"{action}: not an option ({pending})"
            if decision.kind == "drawn":
                return f"{action}: only the card just drawn may be played ({pending})"
            if action.uno and len(self.hands[action.seat]) != \
                    self.rulebook.settings.call_at + 1:
                return f"{action}: UNO is called in advance only on the next-to-last card " \
                       "(or a card that may leave one)"
            if action.kind == "play" and self._may_not_go_out(action.seat, held):
                return f"{action}: {self._why_not_last(held)}"
            if decision.kind == "forced_play":
                return f"{action}: a card of the colour {self.color_name} must be played"
            if decision.kind == "turn" and self.stacked.total:
                return f"{action}: {action.arg} can't answer the pending draw of " \
                       f"{self.stacked.total}: {self._stack_rule()}"
            if decision.kind == "turn":
                return f"{action}: {action.arg} can't be played on {self.top} " \
                       f"({self.color_name})"
        return f"{action}: not an option ({pending})"

    def _why_not_combo(self, action: Action, pending: str) -> str:
        """Why a play of several cards (a combo) is refused."""
        names = str(action.arg).split(COMBO)
        held = [self.faces[c].name for c in self.hands[action.seat]]  # type: ignore[index]
        for name in names:
            if held.count(name) < names.count(name):
                return f"{action}: seat {action.seat} holds no{' second' if name in held else ''}" \
                       f" {name}"
        if not self.rulebook.combos or self.pending is None or self.pending.kind != "turn":
            return f"{action}: not an option ({pending}; several cards are played at once " \
                   "only as a turn's play, by the rulebook's combos)"
        focus = self._focus
        self._focus_on(min(action.pile, self.rulebook.discard_piles - 1))
        top, color = self.top, self.color_name
        self._focus_on(focus)
        return f"{action}: these cards are no combo of these rules on pile {action.pile} " \
               f"({top}, {color})"
