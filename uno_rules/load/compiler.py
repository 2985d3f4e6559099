"""Compiling a checked rulebook into frozen records: faces, cards with their sides, card
rules, programs of steps with every parameter filled in."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from ..engine.conditions import decided_at_load
from ..engine.effects import PRIMITIVES, step_reads
from ..engine.model import (
    DEFAULT_MATCH,
    NO_COLOR,
    CardRule,
    Combo,
    Face,
    FrozenMap,
    LegalIf,
    Settings,
    Step,
    sparse_param,
)
from ..engine.pilecounters import nonempty_sets, set_name
from ..engine.rulebook import Rulebook
from .deckchecks import opt, side_colors
from .yamlpos import Located, PathKey


class _Compiler:
    def __init__(self, located: Located):
        self.located = located
        self.options = dict(located.data.get("options") or {})
        self.programs: list[tuple[Step, ...]] = []
        self.ranks: list[str] = []

    def concat(self, ids: list[int | None]) -> int | None:
        """One program running the given ones in order (None when all are None)."""
        real = [i for i in ids if i is not None]
        if len(real) <= 1:
            return real[0] if real else None
        self.programs.append(tuple(step for i in real for step in self.programs[i]))
        return len(self.programs) - 1

    def program(self, steps: list[Any], path: PathKey) -> int:
        compiled: list[Step] = []
        later = _later_reads(steps)
        for i, raw in enumerate(steps):
            compiled.extend(self.step(raw, path + (i,), later[i]))
        self.programs.append(tuple(compiled))
        return len(self.programs) - 1

    def step(self, raw: Any, path: PathKey, later: frozenset[str]) -> list[Step]:
        name, params = (raw, None) if isinstance(raw, str) else next(iter(raw.items()))
        prim = PRIMITIVES[name]
        if prim.main and params is not None and not isinstance(params, dict):
            params = {prim.main: params}
        params = dict(params or {})
        if name == "random":
            return self.random(params, path + (name,))
        if name == "draw" and isinstance(params.get("count"), dict):
            return self.drawn_count(params, path + (name,))
        if name == "repeat":
            return self.repeat(params, path + (name,))
        if name == "open_piles" and params.get("piles") == "any":
            return self.any_open(path + (name,))
        args: dict[str, Any] = {}
        loaded = decided_at_load(params, self.options) if name == "if" else None
        if loaded is not None:
            # Options are fixed when the rulebook loads: keep only the branch that applies.
            params = {"then": params.get("then" if loaded else "else") or []}
        for key, value in params.items():
            if key in prim.programs:
                args[key] = self.program(value, path + (name, key))
            else:
                args[key] = opt(value, self.options)
        for key in prim.params:  # every parameter present: its default, or None
            if not sparse_param(name, key) or key in prim.defaults:
                args.setdefault(key, prim.defaults.get(key))
        at_end = prim.at_end
        if prim.provides is not None:
            # A choice at the end of a round is asked only if a later at-end step reads it.
            at_end = prim.provides in later
        f, line, col = self.located.pos(path)
        return [Step(name, FrozenMap(args), at_end, f"{f}:{line}:{col}", prim.run)]


    def where(self, path: PathKey) -> str:
        f, line, col = self.located.pos(path)
        return f"{f}:{line}:{col}"

    def outcome_step(self, values: list[str], weights: list[int], then: list[int],
                     path: PathKey, count_of: str | None = None) -> list[Step]:
        """A table outcome over ``values`` (those of weight 0 left out); a single value left
        runs its program's steps without asking."""
        kept = [(v, w, p) for v, w, p in zip(values, weights, then, strict=True) if w > 0]
        if len(kept) == 1:
            return list(self.programs[kept[0][2]])
        args = {"values": tuple(v for v, _, _ in kept), "weights": tuple(w for _, w, _ in kept),
                "then": tuple(p for _, _, p in kept), "count_of": count_of}
        return [Step("random", FrozenMap(args), True, self.where(path),
                     PRIMITIVES["random"].run)]

    def random(self, params: dict[str, Any], path: PathKey) -> list[Step]:
        """``random``: each branch's steps a program, drawn by its weight."""
        names = list(params)
        weights = [int(opt(params[n]["weight"], self.options)) for n in names]
        then = [self.program(params[n].get("then") or [], path + (n, "then")) for n in names]
        return self.outcome_step(names, weights, then, path)

    def drawn_count(self, params: dict[str, Any], path: PathKey) -> list[Step]:
        """A ``draw`` whose count is given as weights: a table outcome over the counts, each
        a program drawing that many."""
        who = params["who"]
        table = opt(params["count"]["weights"], self.options)
        counts = list(table)
        where = self.where(path)
        then = []
        for count in counts:
            self.programs.append((Step("draw", FrozenMap({"who": who, "count": int(count)}),
                                       True, where, PRIMITIVES["draw"].run),))
            then.append(len(self.programs) - 1)
        return self.outcome_step([str(c) for c in counts], [int(table[c]) for c in counts],
                                 then, path, count_of=who)

    def any_open(self, path: PathKey) -> list[Step]:
        """``open_piles: any``: a table outcome over the non-empty sets of discard piles,
        each as likely, each a program opening that set."""
        sets = nonempty_sets(int(self.located.data.get("discard_piles", 1)))
        where, then = self.where(path), []
        for piles in sets:
            self.programs.append((Step("open_piles", FrozenMap({"piles": tuple(piles)}), True,
                                       where, PRIMITIVES["open_piles"].run),))
            then.append(len(self.programs) - 1)
        return self.outcome_step([set_name(p) for p in sets], [1] * len(sets), then, path)

    def repeat(self, params: dict[str, Any], path: PathKey) -> list[Step]:
        """``repeat``: its body a program; with ``until``, a one-step program checking the
        conditions after each pass and running the body again (``again``)."""
        run = PRIMITIVES["repeat"].run
        body = self.program(params["then"], path + ("then",))
        times = opt(params.get("times"), self.options)
        until = params.get("until")
        args: dict[str, Any] = {"then": body, "times": times, "until": None, "first": True,
                                "again": None}
        if until is not None:
            args["until"] = FrozenMap(until)
            args["again"] = len(self.programs)
            self.programs.append((Step("repeat", FrozenMap({**args, "first": False}), True,
                                       self.where(path), run),))
        return [Step("repeat", FrozenMap(args), True, self.where(path), run)]


def _end_reads(steps: Any) -> frozenset[str]:
    """What the steps in ``steps`` (nested ones too) that run at the end read."""
    out: set[str] = set()
    for raw in steps if isinstance(steps, list) else []:
        name, params = (raw, None) if isinstance(raw, str) else next(iter(raw.items()))
        prim = PRIMITIVES[name]
        params = params if isinstance(params, dict) else \
            ({prim.main: params} if prim.main and params is not None else {})
        if prim.at_end:
            out |= step_reads({**prim.defaults, **params}, prim)
        for key in prim.programs:
            out |= _end_reads(params.get(key))
        if name == "random":  # each branch's steps
            for branch in params.values():
                out |= _end_reads(branch.get("then") if isinstance(branch, dict) else None)
    return frozenset(out)


def _later_reads(steps: list[Any]) -> list[frozenset[str]]:
    """For each step, what the at-end steps after it read (one pass from the end, so a
    long step list costs no more than its length)."""
    out: list[frozenset[str]] = [frozenset()] * len(steps)
    for i in range(len(steps) - 2, -1, -1):
        out[i] = out[i + 1] | _end_reads(steps[i + 1:i + 2])
    return out


DEFAULT_DRAW = [{"draw": {"who": "self", "count": 1}}, "offer_drawn"]


def _card_rules(comp: _Compiler, data: dict[str, Any], faces: list[Face]
                ) -> list[CardRule | None]:
    """Each face's behaviour: its rank's card rule, then its tags' (programs concatenated)."""
    cards = {k: v for k, v in (data.get("cards") or {}).items() if v is not None}
    opts = comp.options
    after = bool(opt((data.get("settings") or {}).get("uno_after_effects", False), opts))
    shedding = SHEDDING + TRADING if after else SHEDDING
    compiled: dict[tuple[str, str], int | None] = {}

    def program(key: str, part: str) -> int | None:
        if (key, part) not in compiled:
            steps = cards.get(key, {}).get(part)
            compiled[key, part] = None if steps is None else \
                comp.program(steps, ("cards", key, part))
        return compiled[key, part]

    out: list[CardRule | None] = []
    alts = _Alternatives(comp, data, cards, program)
    for face in faces:
        rank = data_rank = comp.ranks[face.rank]
        keys = [k for k in (data_rank, *face.tags) if k in cards]
        if not keys and not face.alternative:
            out.append(None)
            continue
        effects = [program(k, "effect") for k in keys]
        effect = comp.concat(effects)
        alt_effect, alt_if = alts.of(face, keys, effects)
        firsts = [program(k, "first_card") if "first_card" in cards[k] else program(k, "effect")
                  for k in keys]
        legal = cards.get(rank, {}).get("legal_if")
        out.append(CardRule(
            rank=rank,
            effect=effect,
            first_card=comp.concat(firsts),
            legal_if=None if legal is None else LegalIf(
                opt(legal["holds_no"], opts), bool(opt(legal.get("count_wilds", False), opts))),
            bluff=bool(opt(cards.get(rank, {}).get("bluff", False), opts)),
            stack_value=next((st.args["count"] for st in comp.programs[effect]
                              if st.op == "stack_draw"), None) if effect is not None else None,
            sheds=effect is not None and _sheds(comp.programs, effect, shedding),
            going_out=str(opt(next((cards[k]["going_out"] for k in keys
                                    if "going_out" in cards[k]), "ends_round"), opts)),
            uno_after=effect is not None and _sheds(comp.programs, effect, JUDGING),
            alt_effect=alt_effect, alt_if=alt_if,
            answers_draw=any(bool(opt(cards[k].get("answers_draw", False), opts))
                             for k in keys),
            **_card_counters(program, cards, keys, opts),
        ))
    return out


def _card_counters(program: Any, cards: dict[str, Any], keys: list[str],
                   opts: dict[str, Any]) -> dict[str, Any]:
    """A card's ``presses`` and ``overload`` (pile counters), when given."""
    out: dict[str, Any] = {}
    presses = next((cards[k]["presses"] for k in keys if "presses" in cards[k]), None)
    if presses is not None and not opt(presses, opts):
        out["presses"] = False
    own = next((k for k in keys if "overload" in cards[k]), None)
    if own is not None:
        out["overload"] = program(own, "overload")
    return out


class _Alternatives:
    """The programs and conditions of the cards' alternatives (``alternatives``): the
    alternative's own steps, then the card's entry for it under ``alternatives`` (by rank,
    then tags), else its ``effect``."""

    def __init__(self, comp: _Compiler, data: dict[str, Any], cards: dict[str, Any],
                 program: Any):
        self.comp, self.cards, self.program = comp, cards, program
        self.declared = data.get("alternatives") or {}
        self.compiled: dict[tuple[str, ...], int | None] = {}

    def _steps(self, path: tuple[str, ...], steps: list[Any] | None) -> int | None:
        if path not in self.compiled:
            self.compiled[path] = None if steps is None else self.comp.program(steps, path)
        return self.compiled[path]

    def of(self, face: Face, keys: list[str], effects: list[int | None]
           ) -> tuple[int | None, Mapping[str, Any] | None]:
        name = face.alternative
        spec = self.declared.get(name) if name else None
        if spec is None:
            return None, None
        conds = dict(spec.get("if") or {})
        if decided_at_load(conds, self.comp.options) is False:
            return None, None  # an option rules it out
        conds = {k: v for k, v in conds.items() if k != "option"}
        own = self._steps(("alternatives", name, "effect"), spec.get("effect"))
        parts = [self._steps(("cards", k, "alternatives", name),
                             self.cards[k].get("alternatives", {}).get(name)) for k in keys]
        body = [p if p is not None or name in self.cards[k].get("alternatives", {}) else e
                for k, p, e in zip(keys, parts, effects, strict=True)]
        effect = self.comp.concat([own, *body])
        if effect is None:  # nothing to do, but an alternative all the same
            effect = self.comp.program([], ("alternatives", name))
        return effect, FrozenMap(conds) if conds else None


SHEDDING = ("discard_color", "give_cards")  # primitives that may take cards from a hand
# Primitives that trade a hand for another (a 7 swap, a 0 rotation): the player may end with
# one card. They count only where UNO follows effects (`uno_after_effects`, the one reader of
# `sheds`), so that other rulebooks' digests, and the games saved with them, stay as they were.
TRADING = ("swap_hands", "rotate_hands")
# Primitives that settle their player's UNO themselves (CardRule.uno_after).
JUDGING = tuple(p.name for p in PRIMITIVES.values() if p.judges_uno)


def _sheds(programs: list[tuple[Step, ...]], program: int,
           ops: tuple[str, ...] = SHEDDING) -> bool:
    """Whether a program (or one nested in it) has a step of ``ops``: one that may leave its
    player fewer cards."""
    for step in programs[program]:
        if step.op in ops:
            return True
        if any(step.args[k] is not None and _sheds(programs, step.args[k], ops)
               for k in PRIMITIVES[step.op].programs):
            return True
        if step.op == "random" and any(_sheds(programs, p, ops) for p in step.args["then"]):
            return True
    return False


def compile_rulebook(located: Located, source: str, house: tuple[str, ...],
             overrides: Mapping[str, Any]) -> Rulebook:
    data = located.data
    comp = _Compiler(located)
    opts = comp.options
    side_names, side_cols = side_colors(data)
    colors = tuple(c for cols in side_cols for c in cols)
    faces, side_decks = _faces(comp, data, side_names, side_cols, colors)
    # The programs are numbered in compiling order: the cards', the draw, then the hooks.
    rules = _card_rules(comp, data, faces)
    cards, deck = _pair_sides(faces, side_decks, (data.get("pairing") or {}).get("shift", 0))
    settings = Settings(**{k: opt(v, opts) for k, v in (data.get("settings") or {}).items()})
    going_out = data.get("going_out") or {}
    draw_steps = (data.get("turn") or {}).get("draw") or DEFAULT_DRAW
    draw_program = comp.program(draw_steps, ("turn", "draw"))
    hooks = {key: comp.program(steps, path) if steps else None for key, steps, path in [
        ("going_out", going_out.get("then"), ("going_out", "then")),
        ("after_draw", data.get("after_draw"), ("after_draw",)),
        ("setup", data.get("setup"), ("setup",)),
        ("caught", data.get("caught"), ("caught",)),
        ("turn_end", (data.get("turn") or {}).get("end"), ("turn", "end"))]}
    counters = _pile_counters(comp, data)
    return Rulebook(
        name=data["name"], title=data.get("title", data["name"]), source=source,
        players_min=data["players"]["min"], players_max=data["players"]["max"],
        colors=colors, ranks=tuple(comp.ranks), faces=tuple(faces), deck=deck,
        rules=tuple(rules), programs=tuple(comp.programs), settings=settings,
        draw_program=draw_program, team_size=(data.get("team") or {}).get("size", 1),
        **_stacking(data, opts),
        round_ends=going_out.get("round_ends", "player"), going_out=hooks["going_out"],
        after_draw=hooks["after_draw"], setup=hooks["setup"], caught=hooks["caught"],
        turn_end=hooks["turn_end"], turn_plays=(data.get("turn") or {}).get("plays", ""),
        options=FrozenMap(opts), description=data.get("description", ""), house=house,
        overrides=FrozenMap(overrides),
        **_side_tables(faces, rules, cards, side_names, side_cols, colors),
        **_piles(data),
        digested_as=_digested_as(located),
        match=tuple(data.get("match", DEFAULT_MATCH)),
        player_state=_player_state(data),
        alternatives=tuple(data.get("alternatives") or {}),
        rank_numbers=_rank_numbers(data, comp.ranks, faces),
        combos=tuple(Combo(c.get("cards", 2), c.get("sum", False), c.get("same", ""),
                           tuple(comp.ranks.index(str(r)) for r in c.get("first", ())))
                     for c in data.get("combos") or ()),
        **counters,
    )


def _pile_counters(comp: _Compiler, data: dict[str, Any]) -> dict[str, Any]:
    """The Rulebook's fields for ``pile_counters`` and ``turn.begin`` (none: left out)."""
    out: dict[str, Any] = {}
    begin = (data.get("turn") or {}).get("begin")
    if begin:
        out["turn_begin"] = comp.program(begin, ("turn", "begin"))
    spec = data.get("pile_counters") or {}
    if not spec or not opt(spec.get("enabled", True), comp.options):
        return out
    table = opt(spec["limit"]["weights"], comp.options)
    out["pile_limits"] = tuple((int(v), int(w)) for v, w in table.items() if int(w) > 0)
    if spec.get("overload"):
        out["overload"] = comp.program(spec["overload"], ("pile_counters", "overload"))
    return out


def _player_state(data: dict[str, Any]) -> tuple[tuple[str, tuple[str, ...], int], ...]:
    """The Rulebook's ``player_state``: each key, its values (as text) and its start's index."""
    out = []
    for key, spec in (data.get("player_state") or {}).items():
        values = tuple(str(v) for v in spec["values"])
        out.append((key, values, values.index(str(spec.get("start", values[0])))))
    return tuple(out)


def _faces(comp: _Compiler, data: dict[str, Any], side_names: list[str],
           side_cols: list[list[str]], colors: tuple[str, ...]
           ) -> tuple[list[Face], list[list[int]]]:
    """Every face of the deck (the ranks numbered in ``comp.ranks`` as met) and each side's
    deck as face ids, in deck order."""
    opts = comp.options
    ranks = comp.ranks
    faces: list[Face] = []
    side_decks: list[list[int]] = [[] for _ in side_names]
    for group in (data.get("deck") or {}).values():
        if group is None:
            continue
        side = side_names.index(group.get("side", side_names[0]))
        cols = group.get("colors")
        copies = opt(group["copies"], opts)
        for rank in map(str, group["ranks"]):
            if rank not in ranks:
                ranks.append(rank)
            r = ranks.index(rank)
            points = opt(group.get("points", 0), opts)
            points = int(rank) if points == "face" else points
            for c in (side_cols[side] if cols == "all" else cols or [None]):
                name = " ".join(x for x in (c, rank, *group.get("tags", [])) if x)
                second = (group.get("second_colors") or {}).get(c)
                face = Face(len(faces), name, NO_COLOR if c is None else colors.index(c), r,
                            tuple(group.get("tags", [])), points,
                            opt(group.get("points"), opts) == "face",
                            side, NO_COLOR if second is None else colors.index(second),
                            group.get("alternative", ""))
                faces.append(face)
                side_decks[side].extend([face.id] * copies)
    return faces, side_decks


def _rank_numbers(data: dict[str, Any], ranks: list[str], faces: list[Face]
                  ) -> tuple[tuple[int, ...], ...]:
    """The numbers each rank counts as (Rules.rank_numbers): a deck group's `numbers` for
    its ranks, a number card's own rank else; () when no group declares any."""
    groups = [g for g in (data.get("deck") or {}).values() if g and "numbers" in g]
    if not groups:
        return ()
    declared: dict[str, set[int]] = {}
    for group in groups:
        for rank in map(str, group["ranks"]):
            declared.setdefault(rank, set()).update(group["numbers"])
    numbered = {f.rank for f in faces if f.number and ranks[f.rank].isdigit()}
    return tuple(tuple(sorted(declared[name])) if name in declared else
                 (int(name),) if r in numbered else () for r, name in enumerate(ranks))


def _stacking(data: dict[str, Any], opts: dict[str, Any]) -> dict[str, Any]:
    """The Rulebook's fields from the ``stacking`` block."""
    stacking = data.get("stacking") or {}
    return {"stack_mixing": None if "stacking" not in data else
            bool(opt(stacking.get("mixing", False), opts)),
            "stack_max": opt(stacking.get("max"), opts),
            "stack_any_color": bool(opt(stacking.get("any_color", False), opts))}


def _side_tables(faces: list[Face], rules: list[CardRule | None],
                 cards: tuple[tuple[int, ...], ...], side_names: list[str],
                 side_cols: list[list[str]], colors: tuple[str, ...]) -> dict[str, Any]:
    """The Rulebook's fields that look a card or a name up on each side."""
    by_side: list[dict[str, int]] = [{} for _ in side_names]
    for face in faces:
        by_side[face.side][face.name] = face.id
    sides = range(len(side_names))
    return {
        "by_name": FrozenMap({k: v for names in reversed(by_side) for k, v in names.items()}),
        "sides": tuple(side_names),
        "side_colors": tuple(tuple(colors.index(c) for c in cols) for cols in side_cols),
        "cards": cards, "card_ids": FrozenMap({faces_of: i for i, faces_of in enumerate(cards)}),
        "side_faces": tuple(tuple(faces[c[s]] for c in cards) for s in sides),
        "side_rules": tuple(tuple(rules[c[s]] for c in cards) for s in sides),
        "side_by_name": tuple(FrozenMap(names) for names in by_side)}


def _piles(data: dict[str, Any]) -> dict[str, Any]:
    """The Rulebook's fields for the declared and the discard piles."""
    declared = data.get("piles") or {}
    return {"piles": tuple(declared), "discard_piles": data.get("discard_piles", 1),
            "open_piles": data.get("open_piles", 0),
            "reshuffle_discards": data.get("reshuffle_discards", True),
            "reshuffle_piles": tuple(i for i, spec in enumerate(declared.values())
                                     if (spec or {}).get("reshuffle"))}


def _digested_as(located: Located) -> tuple[str, str] | None:
    """The title and description a variant's digest reads (what it inherited, before it
    had its own: see loader._variant_heading); None when they are the ones it shows."""
    data, was = located.data, located.heading
    old = (was.get("title", data["name"]), was.get("description", ""))
    return None if old == (data.get("title", data["name"]), data.get("description", "")) \
        else old


def _pair_sides(faces: list[Face], side_decks: list[list[int]], shift: int
                ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Every possible card (one face per side) and the deck as card ids. With one side a
    card is its face. With more, the k-th card of each side's deck (in deck order, the other
    sides turned by ``shift``) make one physical card; every pairing of faces has a card
    id, so a scenario may pair any faces."""
    if len(side_decks) == 1:
        return tuple((f.id,) for f in faces), tuple(side_decks[0])
    per_side = [[f.id for f in faces if f.side == s] for s in range(len(side_decks))]
    cards = tuple(itertools.product(*per_side))
    index = {faces_of: i for i, faces_of in enumerate(cards)}
    n = len(side_decks[0])
    turned = [side_decks[0]] + [d[shift % n:] + d[:shift % n] for d in side_decks[1:]]
    return cards, tuple(index[faces_of] for faces_of in zip(*turned, strict=True))


