"""The checks of a rulebook that a JSON Schema can't express, run by :func:`semantic`: option
references and their types where they are used, what steps name (partners, piles, tags,
choices), settings that need others; the deck's own are in :mod:`.deckchecks`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..engine.effects import PRIMITIVES, Primitive
from ..engine.errors import Problem
from .deckchecks import (
    check_counts,
    check_deck,
    check_players,
    check_sizes,
    check_unique,
    mapping,
    opt,
    side_colors,
    where_set,
)
from .problems import did_you_mean, schema_problems, strict_validator
from .schema import rulebook_schema
from .yamlpos import Located, PathKey, json_path

RULEBOOK_VALIDATOR = strict_validator(rulebook_schema())


def _walk_refs(value: Any, path: PathKey) -> Iterator[tuple[PathKey, str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk_refs(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk_refs(v, path + (i,))
    elif isinstance(value, str) and value.startswith("$"):
        yield path, value[1:]


SECTIONS = ("settings", "deck", "cards", "going_out", "after_draw", "setup", "turn",
            "stacking", "caught", "pile_counters")
# (SECTIONS: the parts of a rulebook where `$option` references may stand)


def semantic(located: Located, hand_overridden: bool = False,
              schema_ok: bool = True) -> list[Problem]:
    """The checks a schema can't express. They run beside the schema's (so one pass reports
    both); on parts the schema found malformed they add nothing."""
    problems: list[Problem] = []
    for part in (check_players, check_unique, check_counts, check_deck, _check_refs,
                 _check_steps, _check_choices, _check_bluffs, _check_player_state,
                 _check_alternatives, _check_chance, _check_holdings, _check_settings,
                 _check_open_piles, _check_pile_counters, _check_put_out):
        try:
            problems.extend(part(located))
        except (TypeError, KeyError, AttributeError, ValueError, IndexError):
            continue  # malformed there: the schema's problems say why
    if schema_ok and not problems:
        problems.extend(_option_problems(located))
    if schema_ok and not problems:
        problems.extend(check_sizes(located, hand_overridden))
    return problems


def _check_open_piles(located: Located) -> list[Problem]:
    """No more discard piles open at the deal than there are; turns of a play per pile
    (`turn: {plays: each_pile}`) only with several piles."""
    data = located.data
    piles = data.get("discard_piles", 1)
    if data.get("open_piles", 1) > piles:
        return [located.problem(("open_piles",), f"open_piles: {data['open_piles']}, but "
                                f"there are {piles} discard piles (`discard_piles`)")]
    if (data.get("turn") or {}).get("plays") and piles < 2:
        return [located.problem(("turn", "plays"), "turn: {plays: each_pile} needs several "
                                "discard piles (`discard_piles`)")]
    return []


def _check_put_out(located: Located) -> list[Problem]:
    """A card is put out on a closed pile: with one discard pile there is none to take it
    (the step would never ask anything)."""
    if located.data.get("discard_piles", 1) > 1:
        return []
    return [located.problem(at, "`put_out` needs several discard piles (`discard_piles`): "
                            "a card goes out on a closed one")
            for path, steps in _programs(located.data)
            for at, name, _ in _steps(steps, path) if name == "put_out"][:1]




def _check_refs(located: Located) -> list[Problem]:
    """Every `$option` reference names an option; `if: option` names a boolean one."""
    data, problems = located.data, []
    options = data.get("options") or {}
    for name, value in options.items():  # a reference would pass as the value it stands for
        if isinstance(value, str) and value.startswith("$"):
            problems.append(located.problem(("options", name), f"option {name!r} = {value!r}: "
                                            "an option's value is a value, not a reference to "
                                            "another option"))
    for path, ref in _walk_refs({k: data.get(k) for k in SECTIONS}, ()):
        if ref not in options:
            problems.append(located.problem(path, f"unknown option '${ref}'"
                                            f"{did_you_mean(ref, list(options))}"))
    for path, value in _walk_steps({k: data.get(k) for k in SECTIONS}, ()):
        if isinstance(value, dict) and "if" in value and isinstance(value["if"], dict):
            problems += _option_values(located, path + ("if", "option_is"),
                                       value["if"].get("option_is"), options)
            opt = value["if"].get("option")
            if opt is not None and not isinstance(options.get(opt), bool):
                state = "not defined" if opt not in options else "not boolean"
                use = path + ("if", "option")
                file, line, col = located.pos(use)
                message = f"`if: option` needs a boolean option, {opt!r} is {state}"
                found = where_set(located, [("options", opt)], use, message)
                problems.append(found if found.file == file and found.line == line else
                                where_set(located, [("options", opt)], use,
                                           f"{message} (used at {file}:{line}:{col})"))
    return problems


def _option_values(located: Located, path: PathKey, given: Any,
                   options: Mapping[str, Any]) -> list[Problem]:
    """`if: option_is` names options, each compared with a value of its own type."""
    problems = []
    for name, want in given.items() if isinstance(given, dict) else ():
        if name not in options:
            problems.append(located.problem(path + (name,), f"`if: option_is` names no option "
                                            f"{name!r}{did_you_mean(name, list(options))}"))
        elif type(options[name]) is not type(want):
            problems.append(located.problem(path + (name,), f"`if: option_is` compares option "
                                            f"{name!r} = {options[name]!r} with {want!r}, a "
                                            f"value of another type: it could never hold"))
    return problems


def _programs(data: Mapping[str, Any]) -> Iterator[tuple[PathKey, Any]]:
    """Every step list of a rulebook, with its path."""
    for rank, card in (data.get("cards") or {}).items():
        for part in ("effect", "first_card", "overload"):
            if isinstance(card, dict) and isinstance(card.get(part), list):
                yield ("cards", rank, part), card[part]
            alts = card.get("alternatives") if isinstance(card, dict) else None
            for name, steps in (alts.items() if isinstance(alts, dict) else ()):
                if isinstance(steps, list):
                    yield ("cards", rank, "alternatives", name), steps
    for name, alt in (data.get("alternatives") or {}).items():
        if isinstance(alt, dict) and isinstance(alt.get("effect"), list):
            yield ("alternatives", name, "effect"), alt["effect"]
    for path in (("going_out", "then"), ("after_draw",), ("setup",), ("turn", "draw"),
                 ("caught",), ("turn", "begin"), ("turn", "end"), ("pile_counters", "overload")):
        value: Any = data
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, list):
            yield path, value


def _parts(steps: list[Any]) -> Iterator[tuple[int, str, Primitive, dict[str, Any]]]:
    """The steps of one step list as (index, name, primitive, parameters as written, a bare
    main value put under its name); what is not a step is left to the schema."""
    for i, raw in enumerate(steps):
        if isinstance(raw, dict) and len(raw) == 1:
            ((name, params),) = raw.items()
        else:
            name, params = raw, None
        prim = PRIMITIVES.get(name) if isinstance(name, str) else None
        if prim is None:
            continue
        if prim.main and params is not None and not isinstance(params, dict):
            params = {prim.main: params}
        yield i, name, prim, params or {}


def _steps(steps: list[Any], path: PathKey) -> Iterator[tuple[PathKey, str, dict[str, Any]]]:
    """Every step of a step list, nested ones too: (path, primitive, parameters)."""
    for i, name, prim, params in _parts(steps):
        yield path + (i, name), name, params
        for key, inner in _nested(name, prim, params):
            yield from _steps(inner, path + (i, name) + key)


def _nested(name: str, prim: Primitive, params: dict[str, Any]
            ) -> Iterator[tuple[PathKey, list[Any]]]:
    """A step's nested step lists as written, each with its path under the step: its
    primitive's program parameters, and a `random` step's branches."""
    for key in prim.programs:
        if isinstance(params.get(key), list):
            yield (key,), params[key]
    if name == "random":
        for branch, spec in params.items():
            if isinstance(spec, dict) and isinstance(spec.get("then"), list):
                yield (branch, "then"), spec["then"]


STATE_STEPS = ("set_state", "turn_state")
STATE_CONDITIONS = ("state", "every_state")


def _check_player_state(located: Located) -> list[Problem]:
    """Per-player state: values each once, a start among them; steps and conditions name a
    declared key and one of its values."""
    declared = {k: [str(v) for v in spec["values"]]
                for k, spec in (located.data.get("player_state") or {}).items()}
    problems = []
    for key, values in declared.items():
        spec = located.data["player_state"][key]
        if len(set(values)) != len(values):
            problems.append(located.problem(("player_state", key, "values"),
                                            f"`{key}` lists a value twice"))
        if "start" in spec and str(spec["start"]) not in values:
            problems.append(located.problem(("player_state", key, "start"),
                                            f"`{key}` can't start at {spec['start']!r}: its "
                                            f"values are {', '.join(values)}"))

    def named(at: PathKey, key: Any, value: Any = None) -> None:
        if key not in declared:
            problems.append(located.problem(at, f"no per-player state {key!r}"
                                            f"{did_you_mean(str(key), list(declared))}: "
                                            "declare it in `player_state`"))
        elif value is not None and str(value) not in declared[key]:
            problems.append(located.problem(at, f"{value!r} is not a value of `{key}` "
                                            f"({', '.join(declared[key])})"))

    for path, steps in _programs(located.data):
        for at, name, params in _steps(steps, path):
            if name in STATE_STEPS:
                named(at + ("key",), params.get("key"))
                if name == "set_state" and params.get("key") in declared:
                    named(at + ("to",), params["key"], params.get("to"))
            for cond in STATE_CONDITIONS if name == "if" else ():
                for key, value in (params.get(cond) or {}).items():
                    named(at + (cond, key), key, value)
    for alt, spec in (located.data.get("alternatives") or {}).items():
        for cond in STATE_CONDITIONS:
            for key, value in ((spec or {}).get("if", {}).get(cond) or {}).items():
                named(("alternatives", alt, "if", cond, key), key, value)
    return problems


def _check_alternatives(located: Located) -> list[Problem]:
    """A deck group's or a card's alternative is declared in `alternatives`; second colours
    are colours of the rulebook, each for a colour of the group."""
    data = located.data
    declared = list(data.get("alternatives") or {})
    problems = []

    def known(at: PathKey, name: str) -> None:
        if name not in declared:
            problems.append(located.problem(at, f"no alternative {name!r}"
                                            f"{did_you_mean(name, declared)}: declare it in "
                                            "`alternatives`"))

    colors = [c for cols in side_colors(data)[1] for c in cols]
    for gname, group in (data.get("deck") or {}).items():
        if not isinstance(group, dict):
            continue
        if "alternative" in group:
            known(("deck", gname, "alternative"), group["alternative"])
        for color, second in (group.get("second_colors") or {}).items():
            for at, c in ((("deck", gname, "second_colors"), color),
                          (("deck", gname, "second_colors", color), second)):
                if c not in colors:
                    problems.append(located.problem(at, f"no colour {c!r}"
                                                    f"{did_you_mean(str(c), colors)}"))
    for rank, card in (data.get("cards") or {}).items():
        for name in ((card or {}).get("alternatives") or {}):
            known(("cards", rank, "alternatives", name), name)
    tags = sorted({t for g in (data.get("deck") or {}).values() if isinstance(g, dict)
                   for t in g.get("tags") or ()})
    for path, steps in _programs(data):
        for at, name, params in _steps(steps, path):
            tag = params.get("card_tag") if name == "if" else None
            if tag is not None and tag not in tags:
                problems.append(located.problem(at + ("card_tag",), f"no deck group has the "
                                                f"tag {tag!r}{did_you_mean(str(tag), tags)}"))
    return problems


PARTNER_SEATS = ("partner", "next_partner")
DRAWING = ("draw", "draw_until_color", "draw_until_playable")
HOW = "(`team: {size: N}`)"
NEEDS_PARTNERS = {"give_cards": "gives cards to partners",
                  "partner_plays": "hands the turn to a partner"}
# The parameter that names another seat instead of the partner.
INSTEAD = {"give_cards": "to", "partner_plays": "who"}


def _check_holdings(located: Located) -> list[Problem]:
    """A `holds` condition names a colour, rank and tag of the deck; a card answering a
    pending draw (`answers_draw`) needs `stacking` (without it no draw is ever pending)."""
    data, problems = located.data, []
    groups = [g for g in (data.get("deck") or {}).values() if isinstance(g, dict)]
    known = {"color": [c for cols in side_colors(data)[1] for c in cols],
             "rank": sorted({str(r) for g in groups for r in g.get("ranks") or ()}),
             "tag": sorted({t for g in groups for t in g.get("tags") or ()})}
    for path, steps in _programs(data):
        for at, name, params in _steps(steps, path):
            held = params.get("holds") if name == "if" else None
            if not isinstance(held, dict):
                continue
            for key, names in known.items():
                if key in held and str(held[key]) not in names:
                    problems.append(located.problem(at + ("holds", key), f"no {key} "
                                                    f"{held[key]!r} in the deck"
                                                    f"{did_you_mean(str(held[key]), names)}"))
    for rank, card in (data.get("cards") or {}).items():
        if isinstance(card, dict) and card.get("answers_draw") is True and \
                "stacking" not in data:
            problems.append(located.problem(("cards", rank, "answers_draw"), "no draw is "
                                            "ever pending to answer: draws stack only with "
                                            "`stacking`"))
    return problems


# A setting that means something only beside another: (setting, the other, its value).
NEEDS = (("knock_out_worst", "scoring", "elimination"), ("jump_in_wilds", "jump_in", True))


def _check_settings(located: Located) -> list[Problem]:
    """A setting set true that only means something beside another setting's value."""
    settings = located.data.get("settings") or {}
    return [located.problem(("settings", name), f"`{name}` needs `{other}: "
                            f"{str(value).lower()}` (it has no effect otherwise)")
            for name, other, value in NEEDS
            if settings.get(name) is True and settings.get(other, False) != value
            and not str(settings.get(other, "")).startswith("$")]


def _check_steps(located: Located) -> list[Problem]:
    """What a step names must exist: without partnerships there are no partners (a step
    naming one would quietly mean the player itself); a pile must be declared."""
    partnered = ((located.data.get("team") or {}).get("size") or 1) > 1
    piles = list(located.data.get("piles") or {})
    options = located.data.get("options") or {}
    problems = []
    for path, steps in _programs(located.data):
        for at, name, params in _steps(steps, path):
            if path[0] == "after_draw" and name in DRAWING:
                problems.append(located.problem(at, f"`after_draw` can't `{name}`: the draw "
                                                "would run `after_draw` again, without end"))
            if name == "stack_draw" and opt(params.get("count"), options) == 0:
                problems.append(located.problem(at + ("count",), "`stack_draw` of 0 cards: "
                                                "nothing to draw, and no stacking card could "
                                                "answer it; give a count of 1 or more (`skip` "
                                                "alone skips the next player)"))
            if name in ("knock_out", "clear_piles") and "to" in params and \
                    params["to"] not in piles:
                problems.append(located.problem(at + ("to",), f"no pile {params['to']!r}"
                                                f"{did_you_mean(str(params['to']), piles)}: "
                                                "declare it in `piles`"))
            if partnered:
                continue
            if name in NEEDS_PARTNERS and INSTEAD[name] not in params:
                problems.append(located.problem(at, f"`{name}` {NEEDS_PARTNERS[name]}, but "
                                                f"this rulebook has no partnerships {HOW}"))
            for key, value in params.items():
                for seat in value if isinstance(value, list) else [value]:
                    if seat in PARTNER_SEATS:
                        problems.append(located.problem(at + (key,), f"`{seat}` needs "
                                                        "partnerships, and this rulebook has "
                                                        f"none {HOW}"))
    return problems


PILE_STEPS = ("open_piles", "press", "reset_pile")  # steps of pile counters (pilecounters)


def _check_pile_counters(located: Located) -> list[Problem]:
    """Pile steps and a card's `presses`/`overload` need `pile_counters`, and name piles the
    rulebook has."""
    data = located.data
    counted, piles = bool(data.get("pile_counters")), int(data.get("discard_piles", 1))
    problems = []
    for path, steps in _programs(data):
        for at, name, params in _steps(steps, path):
            if name not in PILE_STEPS:
                continue
            if not counted:
                problems.append(located.problem(at, f"`{name}` needs `pile_counters` (each "
                                                "discard pile's count and hidden limit)"))
            given = params.get("piles", params.get("pile"))
            seen: set[int] = set()
            for k, pile in enumerate(given if isinstance(given, list) else [given]):
                if type(pile) is int and pile in seen:  # uniqueness: here, not in the schema
                    problems.append(located.problem(at + ("piles", k),
                                                    f"discard pile {pile} is listed twice"))
                elif type(pile) is int:
                    seen.add(pile)
                if type(pile) is int and pile >= piles:
                    key = "piles" if name == "open_piles" else "pile"
                    problems.append(located.problem(
                        at + ((key, k) if isinstance(given, list) else (key,)),
                        f"no discard pile {pile}: this rulebook has {piles} (0-{piles - 1})"))
    for rank, card in (data.get("cards") or {}).items():
        for key in ("presses", "overload"):
            if isinstance(card, dict) and key in card and not counted:
                problems.append(located.problem(("cards", rank, key), f"`{key}` needs "
                                                "`pile_counters` (each discard pile's count "
                                                "and hidden limit)"))
    return problems


def _challenges(data: Mapping[str, Any], key: str) -> list[PathKey]:
    """Where the effect of card rule ``key`` lets the next player challenge the card: its
    `challenge` steps and its `stack_draw` steps with a `challenge_penalty`."""
    steps = ((data.get("cards") or {}).get(key) or {}).get("effect")
    path = ("cards", key, "effect")
    return [at for at, name, params in _steps(steps if isinstance(steps, list) else [], path)
            if name == "challenge" or (name == "stack_draw" and "challenge_penalty" in params)]


def _check_bluffs(located: Located) -> list[Problem]:
    """`bluff` and a challenge go together: a card played illegally (`bluff: true`) must be
    open to a challenge, and a `challenge` step is offered only on a card that may be a
    bluff (without `bluff`, it would silently never be)."""
    data, problems = located.data, []
    cards, options = data.get("cards") or {}, data.get("options") or {}
    tags: dict[str, list[str]] = {}  # each rank's tags
    for group in mapping(data.get("deck")).values():
        for rank in (group or {}).get("ranks") or []:
            tags.setdefault(str(rank), []).extend((group or {}).get("tags") or [])
    for rank, card in cards.items():
        if rank in tags and opt(mapping(card).get("bluff"), options) is True and not any(
                _challenges(data, key) for key in (rank, *tags[rank])):
            problems.append(located.problem(_written(located, rank), f"`bluff: true` lets "
                                            f"{rank} be played when its `legal_if` says no, "
                                            "but nothing challenges it: add a `challenge` step "
                                            "to its effect (or a `stack_draw` with a "
                                            "`challenge_penalty`), or write `bluff: false`",
                                            at_key=True))
    return problems + _unbluffed(located, cards, tags)


def _written(located: Located, rank: str) -> PathKey:
    """Where a bluff without a challenge is the checked file's doing: its `bluff`, else its
    `effect` (a variant that replaced the effect of a card its base lets be bluffed)."""
    bluff, effect = ("cards", rank, "bluff"), ("cards", rank, "effect")
    mine = located.pos(bluff)[0] == located.file or located.pos(effect)[0] != located.file
    return bluff if mine else effect


def _unbluffed(located: Located, cards: Mapping[str, Any],
               tags: Mapping[str, list[str]]) -> list[Problem]:
    """The `challenge` steps of ranks (or tags) with no `bluff` given: never offered."""
    problems = []
    for key in cards:
        unbluffed = [r for r in tags if key in (r, *tags[r])
                     and "bluff" not in mapping(cards.get(r))]
        for at in _challenges(located.data, key)[:1] if unbluffed else []:
            problems.append(located.problem(at, f"this challenge is never offered: "
                                            f"{unbluffed[0]} has no `bluff`, so it is played "
                                            "only when legal and `accepted` always runs; add "
                                            f"`bluff: true` under cards.{unbluffed[0]} (with a "
                                            "`legal_if` saying when it is legal), or `bluff: "
                                            "false` to say it is never challenged",
                                            at_key=True))
    return problems


CHOSEN_BY = {"target": "a `choose_player` step before it",
             "loser": "a `contest` step before it",
             "challenger": "a `challenge` step's `guilty` or `innocent` branch"}


def _check_choices(located: Located) -> list[Problem]:
    """A step naming a chosen player (`target`, `loser`, `challenger`) needs the step that
    chooses it earlier in the same card's steps; otherwise it names nobody. A tag's steps
    run after its card's rank's steps: what every such rank chooses counts as chosen."""
    problems: list[Problem] = []
    for path, steps in _programs(located.data):
        chosen = _chosen_by_ranks(located.data, path[1], path[2]) \
            if path[0] == "cards" else frozenset()
        _choices_in(located, steps, path, chosen, problems)
    return problems


def _chosen_by_ranks(data: Mapping[str, Any], key: str, part: str) -> frozenset[str]:
    """For a tag's steps: the players chosen at the top level of the `part` steps of every
    rank that carries the tag (none for a rank's own steps)."""
    cards = data.get("cards") or {}
    ranks = {str(r) for g in (data.get("deck") or {}).values() if isinstance(g, dict)
             and key in (g.get("tags") or []) for r in g.get("ranks") or []}
    chosen: frozenset[str] | None = None
    for rank in ranks:
        card = cards.get(rank)
        steps = card.get(part) if isinstance(card, dict) else None
        steps = steps if isinstance(steps, list) else []
        provided = frozenset(prim.provides for _, _, prim, _ in _parts(steps)
                             if prim.provides in CHOSEN_BY)
        chosen = provided if chosen is None else chosen & provided
    return chosen or frozenset()


def _choices_in(located: Located, steps: list[Any], path: PathKey, chosen: frozenset[str],
                problems: list[Problem]) -> None:
    for i, name, prim, written in _parts(steps):
        params = {**prim.defaults, **written}
        at = path + (i, name)
        for key, value in params.items():
            if key not in prim.programs and value in CHOSEN_BY and value not in chosen:
                where = at + (key,) if key in written else at  # a default: the step itself
                problems.append(located.problem(where, f"`{value}` names nobody here: it is "
                                                f"chosen by {CHOSEN_BY[value]}"))
        for sub, steps_in in _nested(name, prim, params):
            inner = chosen | {"challenger"} if sub[0] in ("guilty", "innocent") else chosen
            _choices_in(located, steps_in, at + sub, inner, problems)
        if prim.provides in ("target", "loser"):
            chosen = chosen | {prim.provides}


def _check_chance(located: Located) -> list[Problem]:
    """Declared weights: a `random` step's or a drawn count's, not all 0 (nothing could
    come), a count's values whole numbers >= 0; a `repeat` gives one of `times`, `until`."""
    options = located.data.get("options") or {}
    problems: list[Problem] = []
    for path, steps in _programs(located.data):
        for at, name, params in _steps(steps, path):
            if name == "random" and isinstance(params, dict):
                weights = [opt(b.get("weight"), options) for b in params.values()
                           if isinstance(b, dict)]
                if weights and all(w == 0 for w in weights):
                    problems.append(located.problem(at, "every branch has weight 0: nothing "
                                                    "could come; give one a weight > 0"))
            count = params.get("count") if name == "draw" else None
            if isinstance(count, dict):
                problems += _count_weights(located, at + ("count", "weights"),
                                           opt(count.get("weights"), options))
            if name == "repeat" and ("times" in params) == ("until" in params):
                problems.append(located.problem(at, "`repeat` needs one of `times` (how many "
                                                "passes) and `until` (when to stop), not "
                                                f"{'both' if 'times' in params else 'neither'}"))
    return problems


def _count_weights(located: Located, at: PathKey, table: Any) -> list[Problem]:
    """The problems of a count given as weights (``table``: the mapping, or what an option
    it names holds)."""
    if not isinstance(table, dict) or not table:
        return [located.problem(at, f"weights over counts are a mapping `{{COUNT: WEIGHT, "
                                f"...}}`, not {table!r}")]
    for count, weight in table.items():
        if isinstance(count, bool) or not (isinstance(count, int) or str(count).isdigit()) \
                or int(count) < 0:
            return [located.problem(at, f"{count!r} is not a count of cards (a whole number "
                                    ">= 0)")]
        if isinstance(weight, bool) or not isinstance(weight, int) or weight < 0:
            return [located.problem(at, f"the weight of {count!r} is {weight!r}: a weight is "
                                    "a whole number >= 0")]
    if all(w == 0 for w in table.values()):
        return [located.problem(at, "every count has weight 0: nothing could come; give one "
                                "a weight > 0")]
    return []


def _substitute(value: Any, options: Mapping[str, Any]) -> Any:
    if isinstance(value, dict):
        return {k: _substitute(v, options) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, options) for v in value]
    return opt(value, options)


def _option_problems(located: Located) -> list[Problem]:
    """Each option's value checked against the schema of every place that uses it: the
    rulebook is validated again with the values in place of the `$name` references."""
    data = located.data
    options = data.get("options") or {}
    refs = list(_walk_refs({k: data.get(k) for k in SECTIONS}, ()))
    if not refs:
        return []
    # Only the entries holding a reference are validated again (the others were already,
    # and a big deck or card list would cost twice): a section's own keys, or its entries.
    resolved = dict(data)
    for key in SECTIONS:
        if key in data:
            value = data[key]
            if isinstance(value, dict) and key in ("deck", "cards"):
                used = {path[1] for path, _ in refs if path[0] == key and len(path) > 1}
                value = {k: v for k, v in value.items() if k in used}
            resolved[key] = _substitute(value, options)
    out: list[Problem] = []
    for problem in schema_problems(Located(resolved, located.positions, located.file),
                                   RULEBOOK_VALIDATOR):
        for path, name in refs:
            at = json_path(path)
            if problem.path == at or problem.path.startswith((at + ".", at + "[")):
                origin = located.pos(("options", name))
                message = problem.message.replace(" or a $option reference", "")
                if origin[1] > 0:  # defined in a file: point at the use
                    out.append(Problem(problem.file, problem.line, problem.col,
                                       f"option ${name} = {options[name]!r} doesn't fit "
                                       f"here: {message}", problem.path))
                else:  # set on the command line: point at the argument
                    out.append(Problem(origin[0], 0, 0, f"{message}, where the rulebook "
                                       f"uses ${name}", problem.path))
                break
    return out


def _walk_steps(value: Any, path: PathKey) -> Iterator[tuple[PathKey, dict[Any, Any]]]:
    if isinstance(value, dict):
        yield path, value
        for k, v in value.items():
            yield from _walk_steps(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk_steps(v, path + (i,))
