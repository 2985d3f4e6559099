"""Determinization: a copy of a round with the cards one seat can't see dealt again at random.

:func:`resample` (``Game.resample``) is what a search from one seat's information needs
(OpenSpiel's ``resample_from_infostate``): a new independent round consistent with what
that seat has seen, in which every card it can't see is re-dealt among the places it can't
see into, with a fresh random generator for the future. It is canonical: the hidden cards are
sorted before they are shuffled, so the deal depends on what the seat can't see only as a
multiset, and resampling an already resampled round with a generator in the same state
gives the same round.

What is treated as known (kept where it is):

- the seat's own hand; the discard piles and the cards out of play (public);
- the number of cards in every hand and pile (public);
- with several sides, the side turned away from the table of the other hands and of
  the draw pile's top card: a card is only ever exchanged with one showing the same back
  there (the rest of the draw pile and the declared piles show no back);
- cards the seat gave to its partner (``give`` actions in the history): they stay in the
  partner's hand, less the cards of those names the partner has played or given on since;
  cards it has set aside to give (a ``give_cards`` with ``together``) stay aside;
- the card a pending ``drawn`` decision offers (another seat's): re-dealt like the rest, to
  a card that seat could play (the decision shows it is playable); when no hidden card
  would do, it is kept. With ``offer_unplayable`` (OpenSpiel's rounds: the decision is
  asked whether or not the card is playable, so it shows nothing) it is re-dealt like any
  hidden card, playable or not.

Re-dealt: the other seats' hands, the draw pile, the declared piles (their contents are
face down), cards set aside to give by others, and the hidden limits of pile counters
(each drawn again among the limits its public press count has not reached). Derived
again from the new deal: the ``honest`` flag of a card that may be challenged (one with a
``legal_if``), when it is another seat's card on top of the discard pile, since it depends
on the hand it was played from.

Approximations (the seat is taken to know less than a player with a perfect memory could):
cards seen when a hand was turned over (the backs before a ``turn_over``), a card
returned to its player (``return_card``), the cards a ``draw_until_*`` drew that could not
be played, and everything about hands moved by ``swap_hands`` / ``rotate_hands`` /
``deal_hands`` or cards given to another than the partner (``give_cards`` with ``to``; in a
rulebook with such cards the given-card knowledge is dropped too) are not kept: those cards
are re-dealt like any hidden card. The knocked-out hands put on a pile are re-dealt with it.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, NamedTuple

from .model import PILE_MARKS
from .records import Ctx, Resume
from .shuffling import shuffle
from .view import hides

# Operations after which the history no longer tells where a card given went.
HAND_MOVES = frozenset({"swap_hands", "rotate_hands", "deal_hands"})

# A hidden segment: a list of cards and its hidden indices (None: every one).
Segment = tuple[list[int], list[int] | None]


class Hidden(NamedTuple):
    """One hidden place: the list a card lies in and its index there (``at``: a tuple
    already has an ``index`` method)."""
    where: list[int]
    at: int


def _moves_hands(rulebook: Any) -> bool:
    """Whether any step of the rulebook moves whole hands (memoised per rulebook)."""
    found: bool | None = rulebook.memo.get("moves_hands")
    if found is None:
        # A give to another than the partner (`give_cards` with `to`) too: the history
        # names no recipient.
        found = rulebook.memo["moves_hands"] = any(
            step.op in HAND_MOVES or (step.op == "give_cards" and step.args.get("to"))
            for program in rulebook.programs for step in program)
    return found


def _names(game: Any, card: int) -> set[str]:
    """The names of ``card`` on every side."""
    return {faces[card].name for faces in game.rulebook.side_faces} \
        if len(game.rulebook.sides) > 1 else {game.faces[card].name}


def known_given(game: Any, seat: int) -> dict[int, list[int]]:
    """The cards ``seat`` knows to be in another hand: those it gave to its partner (from
    the history), less the partner's later plays and gives of cards of those names, and
    only as many as that hand holds."""
    rulebook = game.rulebook
    if rulebook.team_size <= 1 or _moves_hands(rulebook):
        return {}
    partner = game._partner(seat)
    names: list[str] = []  # the names of the cards given and not seen leaving since
    for action in game.history:
        kind = action.kind
        if kind == "give" and not hides(kind, action.seat, seat):  # a give it saw: its own
            names.append(str(action.arg))
        elif names and action.seat == partner and kind in ("play", "give", "jump_in"):
            if action.arg in names:
                names.remove(str(action.arg))
    if not names:
        return {}
    kept: list[int] = []
    for card in game.hands[partner]:
        hit = _names(game, card) & set(names)
        if hit:
            names.remove(hit.pop())
            kept.append(card)
    return {partner: kept} if kept else {}


def resample(game: Any, seat: object, rng: random.Random) -> Any:
    """A new independent game consistent with what ``seat`` has seen, every card it can't
    see re-dealt at random (from ``rng``), with a fresh generator for the future (seeded
    from ``rng``). ``game`` is unchanged. See the module docstring for what is kept."""
    if type(seat) is not int or not 0 <= seat < game.players:
        raise ValueError(f"no seat {seat!r}: seats are 0 to {game.players - 1}")
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng: expected a random.Random, got {type(rng).__name__}")
    new = game.clone()
    rulebook = new.rulebook
    sides = len(rulebook.sides)
    back = rulebook.side_faces[(new.side + 1) % sides] if sides > 1 else None
    segs = _hidden_segments(new, seat, known_given(game, seat) if game.history else {})
    old: list[int] = []
    for where, idx in segs:
        old += where if idx is None else [where[i] for i in idx]
    if not old:
        return _finish(new, rng)
    ctxs = _ctxs(new)
    hands = new.hands
    # Contexts whose drawn card (which offer_drawn may offer) is in another seat's hand.
    drawn = [c for c in ctxs if c.drawn >= 0 and c.actor != seat and c.drawn in hands[c.actor]]
    asks = [new.pending] + [f.ask for f in new._stack if type(f) is Resume]
    offered = any(a is not None and a.kind == "drawn" and a.seat != seat for a in asks)
    if back is None and (not offered or new.offer_unplayable):  # one shuffle, list by list
        _deal_plain(new, seat, rng, segs, old, drawn)
        if offered:  # the decision names the card now drawn (playable or not)
            _renamed_drawn(new, seat)
    else:
        _deal_by_places(new, seat, rng, _places(segs), old, drawn, back)
    _rederive_honest(new, seat, ctxs)
    return _finish(new, rng)


def _hidden_segments(new: Any, seat: int, known: dict[int, list[int]]) -> list[Segment]:
    """The hidden places, as lists and their hidden indices (None: all of them): the other
    hands (less the cards ``known`` there), the draw pile, the declared piles and the cards
    others set aside to give."""
    segs: list[Segment] = []
    for s, hand in enumerate(new.hands):
        if s == seat or not hand:
            continue
        keep = known.get(s)
        if keep:
            kept, rest = [], []
            for card in hand:
                if card in keep:
                    keep.remove(card)
                    kept.append(card)
                else:
                    rest.append(card)
            # The known cards first (a hidden order): resampling again finds them there, so
            # the re-deal is canonical.
            hand[:] = kept + rest
            segs.append((hand, list(range(len(kept), len(hand)))))
        else:
            segs.append((hand, None))
    if new.draw_pile:
        segs.append((new.draw_pile, None))
    for declared in new._piles:
        if declared:
            segs.append((declared, None))
    for giving in new.giving:
        for entry in giving.aside:
            if entry[0] != seat:
                segs.append((entry, [2]))
    return segs


def _deal_plain(new: Any, seat: int, rng: random.Random, segs: list[Segment],
                old: list[int], drawn: list[Ctx]) -> None:
    """One side and no ``drawn`` decision of another seat pending: the hidden cards shuffled
    and put back list by list, each drawn card's context following its card."""
    follow = _drawn_spots(new, segs, drawn)
    cards = sorted(old)  # canonical: the deal depends on the hidden multiset, not its order
    shuffle(rng, cards)
    at = 0
    for where, idx in segs:
        if idx is None:
            n = len(where)
            where[:] = cards[at:at + n]
            at += n
        else:
            for i in idx:
                where[i] = cards[at]
                at += 1
    ask = new.pending
    if ask is not None and ask.seat is not None and ask.seat != seat and \
            ask.kind != "turn" and not ask.options(new):
        places = _places(segs)
        _keep_options(new, seat, rng, places, [-1] * len(places), None, old)
    for ctx, where, i in follow:
        ctx.drawn = where[i]


def _drawn_spots(new: Any, segs: list[Segment],
                 drawn: list[Ctx]) -> list[tuple[Ctx, list[int], int]]:
    """Where each drawn card lies: its last copy in its player's hidden places."""
    follow = []
    for ctx in drawn:
        for where, idx in segs:
            if where is new.hands[ctx.actor]:
                spots = range(len(where)) if idx is None else idx
                i = next((i for i in reversed(spots) if where[i] == ctx.drawn), -1)
                if i >= 0:
                    follow.append((ctx, where, i))
                break
    return follow


def _deal_by_places(new: Any, seat: int, rng: random.Random, places: list[Hidden],
                    old: list[int], drawn: list[Ctx], back: Any) -> None:
    """Several sides, or another seat's ``drawn`` decision pending: the hidden cards dealt
    place by place (each showing the back its place shows), then the decisions that show
    a playable card kept true."""
    keys = _back_keys(new, places, back)
    drawn_at = _drawn_places(new, drawn, places)
    if back is None or all(k < 0 for k in keys):
        cards = sorted(old)  # canonical, as in _deal_plain
        shuffle(rng, cards)
    else:
        cards = _deal_by_back(rng, sorted(old), keys, back)
    for (where, i), card in zip(places, cards, strict=True):
        where[i] = card
    _keep_options(new, seat, rng, places, keys, back, old)
    for ctx, k in drawn_at.items():
        ctx.drawn = places[k].where[places[k].at]
    _follow_pending(new, seat, rng, places, keys, back, drawn_at)


def _back_keys(new: Any, places: list[Hidden], back: Any) -> list[int]:
    """The back each place must keep (-1: none shown): others' hands and the pile's top."""
    keys = [-1] * len(places)
    if back is not None:
        hands = new.hands
        for k, (where, i) in enumerate(places):
            if where is not new.draw_pile or i == len(where) - 1:
                if where is new.draw_pile or any(where is h for h in hands):
                    keys[k] = back[where[i]].id
    return keys


def _places(segs: list[Segment]) -> list[Hidden]:
    """The hidden places one by one."""
    return [Hidden(where, i) for where, idx in segs
            for i in (range(len(where)) if idx is None else idx)]


def _deal_by_back(rng: random.Random, old: list[int], keys: list[int],
                  back: Any) -> list[int]:
    """The cards ``old`` dealt again to their places, each place with a back (key >= 0)
    getting a card showing that back: uniform over such deals. For each back, the places
    showing it take a random choice of the cards with it; every other card goes at random
    to the places that show none."""
    by_back: dict[int, list[int]] = {}
    for card in old:
        by_back.setdefault(back[card].id, []).append(card)
    wanted: dict[int, list[int]] = {}
    free: list[int] = []
    for at, key in enumerate(keys):
        if key < 0:
            free.append(at)
        else:
            wanted.setdefault(key, []).append(at)
    out = [-1] * len(old)
    rest: list[int] = []
    for key, cards in by_back.items():
        shuffle(rng, cards)
        need = wanted.get(key, [])
        for at, card in zip(need, cards, strict=False):
            out[at] = card
        rest += cards[len(need):]
    shuffle(rng, rest)
    for at, card in zip(free, rest, strict=True):
        out[at] = card
    return out


def _ctxs(game: Any) -> list[Ctx]:
    """Every card context the state holds (each once)."""
    seen: dict[int, Ctx] = {}
    asks = [game.pending] + [f.ask for f in game._stack if type(f) is Resume]
    frames = [f.ctx for f in game._stack if type(f) is not Resume]
    for ctx in [game._ctx, game.stacked.ctx] + frames \
            + [a.ctx for a in asks if a is not None]:
        if ctx is not None:
            seen.setdefault(id(ctx), ctx)
    return list(seen.values())


def _drawn_places(game: Any, drawn: list[Ctx],
                  places: list[Hidden]) -> dict[Ctx, int]:
    """For each context of ``drawn`` (its drawn card in its player's hand, another seat's):
    the index in ``places`` of that card's place (its last copy). Only that hand matters:
    offer_drawn offers the card if that hand holds it."""
    out: dict[Ctx, int] = {}
    if not drawn:
        return out
    index = {(id(where), i): k for k, (where, i) in enumerate(places)}
    for ctx in drawn:
        card, hand = ctx.drawn, game.hands[ctx.actor]
        for i in range(len(hand) - 1, -1, -1):
            k = index.get((id(hand), i))
            if hand[i] == card and k is not None:
                out[ctx] = k
                break
    return out


def _follow_pending(game: Any, seat: int, rng: random.Random,
                    places: list[Hidden], keys: list[int], back: Any,
                    drawn_at: dict[Ctx, int]) -> None:
    """Point another seat's pending ``drawn`` decisions at the card now in its place, one
    that seat can play (exchanged with another hidden card showing the same back if
    needed; the original card when none will do)."""
    asks = [game.pending] + [f.ask for f in game._stack if type(f) is Resume]
    if not any(a is not None and a.kind == "drawn" and a.seat != seat for a in asks):
        return
    for a in asks:
        if a is None or a.kind != "drawn" or a.seat == seat or a.ctx not in drawn_at:
            continue
        at = drawn_at[a.ctx]
        where, i = places[at]
        if not game.offer_unplayable and not game._can_play(a.seat, where[i]):
            key = keys[at]
            mine = back[where[i]].id if back is not None else -1
            order = list(range(len(places)))
            shuffle(rng, order)
            done = False
            for j in order:
                w2, i2 = places[j]
                if j == at or keys[j] not in (-1, key) or \
                        (back is not None and back[w2[i2]].id != mine):
                    continue
                where[i], w2[i2] = w2[i2], where[i]
                if game._can_play(a.seat, where[i]):
                    done = True
                    break
                where[i], w2[i2] = w2[i2], where[i]
            if not done:  # put the original card back in its place
                j = next(j for j, (w2, i2) in enumerate(places) if w2[i2] == a.card)
                w2, i2 = places[j]
                where[i], w2[i2] = w2[i2], where[i]
        a.ctx.drawn = where[i]
    _renamed_drawn(game, seat)


def _renamed_drawn(game: Any, seat: int) -> None:
    """Another seat's ``drawn`` decisions made anew naming the card their context drew
    now (asks are shared records: the original round's are left as they are)."""
    if game.pending is not None and game.pending.kind == "drawn" and game.pending.seat != seat:
        game.pending = replace(game.pending, card=game.pending.ctx.drawn)
    game._stack = [_redrawn(f.ask) if type(f) is Resume and f.ask.kind == "drawn" and
                  f.ask.seat != seat else f for f in game._stack]


def _redrawn(ask: Any) -> Resume:
    """A resumed ``drawn`` decision naming the card its context drew now."""
    return Resume(replace(ask, card=ask.ctx.drawn))


def _keep_options(game: Any, seat: int, rng: random.Random,
                  places: list[Hidden], keys: list[int], back: Any,
                  old: list[int]) -> None:
    """Another seat's pending decision that shows it holds a card it can play (a
    ``forced_play``: a card of the colour in force): when the new deal left it none,
    exchange one of its hidden cards with another hidden card (same backs) until it has
    one; after a bounded number of tries, the cards go back where they were."""
    ask = game.pending
    if ask is None or ask.seat is None or ask.seat == seat or ask.kind in ("turn", "drawn") \
            or ask.options(game):
        return
    hand = game.hands[ask.seat]
    mine = [k for k, (where, _) in enumerate(places) if where is hand]
    others = [k for k, (where, _) in enumerate(places) if where is not hand]
    if mine and others:
        for _ in range(64):
            i, j = mine[rng.randrange(len(mine))], others[rng.randrange(len(others))]
            (wi, ii), (wj, ij) = places[i], places[j]
            if back is not None and (keys[i] not in (-1, back[wj[ij]].id) or
                                     keys[j] not in (-1, back[wi[ii]].id)):
                continue
            wi[ii], wj[ij] = wj[ij], wi[ii]
            if ask.options(game):
                return
            wi[ii], wj[ij] = wj[ij], wi[ii]
    for (where, i), card in zip(places, old, strict=True):
        where[i] = card


def _rederive_honest(game: Any, seat: int, ctxs: list[Ctx]) -> None:
    """Another seat's card that may be challenged, still on top of the discard pile: whether
    it was legally played is worked out again from its player's hand as now dealt."""
    for ctx in ctxs:
        if ctx.actor == seat or ctx.face < 0:
            continue
        discard = game._discards[ctx.pile]
        if not discard or discard[-1] != ctx.face:
            continue
        rule = game._card_rules[ctx.face]
        if rule is None or rule.legal_if is None:
            continue
        focus = game._focus
        game._focus_on(ctx.pile)
        color, hand = game.color, game.hands[ctx.actor]
        discard.pop()  # as it was when the card was played: in hand, the colour before it
        game.color = ctx.prev_color
        game.hands[ctx.actor] = hand + [ctx.face]
        try:
            ctx.honest = game._legal(ctx.actor, ctx.face, rule.legal_if)
        finally:
            game.hands[ctx.actor] = hand
            game.color = color
            discard.append(ctx.face)
            game._focus_on(focus)


def resample_limits(new: Any, rng: random.Random) -> None:
    """Each pile's hidden limit drawn again from its declared weights, among the limits its
    public press count has not reached (pile counters: no seat sees a limit)."""
    marks, table = new._pile_marks, new.rulebook.pile_limits
    for at in range(0, len(marks), PILE_MARKS):
        fits = [(v, w) for v, w in table if v > marks[at + 1]] or list(table)
        marks[at + 2] = rng.choices([v for v, _ in fits], [w for _, w in fits])[0]


def _finish(new: Any, rng: random.Random) -> Any:
    """A fresh generator for the future, and nothing that named the old deal's cards."""
    new._rng, new._rng_shared = random.Random(rng.getrandbits(64)), False
    if new._pile_marks:  # the hidden pile limits: drawn again, consistent with the counts
        resample_limits(new, rng)
    new.seed = None
    if new.log is not None:
        new.log = []
    new._decision = new._ids = None
    return new
