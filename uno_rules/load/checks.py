"""The checks of a rulebook that a JSON Schema can't express: colours and ranks of the deck,
option references and their types where they are used, what steps name (partners, piles),
and whether the deck can deal every player count."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from ..engine.effects import PRIMITIVES, Primitive
from ..engine.errors import Problem
from .problems import did_you_mean, schema_problems, strict_validator
from .schema import MAX_COLORS, MAX_FACES, MAX_PAIRINGS, MAX_RANKS, rulebook_schema
from .yamlpos import Located, PathKey, json_path

RULEBOOK_VALIDATOR = strict_validator(rulebook_schema())
MAX_DECK = 10_000  # cards in a deck (the largest edition has 168)


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
    for part in (_check_players, _check_unique, _check_counts, _check_deck, _check_refs,
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
        problems.extend(_check_sizes(located, hand_overridden))
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


def _check_players(located: Located) -> list[Problem]:
    missing = [k for k in ("min", "max") if k not in located.data["players"]]
    # optional in the schema so that an overlay may set one of them
    return [located.problem(("players",), f"players.{k} is required but missing")
            for k in missing[:1]]


def _check_sides(located: Located) -> list[Problem]:
    """Colours come from `colors` or from `sides`, not both; a colour names one side's."""
    data = located.data
    if "sides" in data and "colors" in data:
        return [located.problem(("colors",), "give the colours either in `colors` (cards with "
                                "one side) or in each of `sides`, not both", at_key=True)]
    if "sides" not in data and "colors" not in data:
        return [located.problem((), "'colors' is required but missing (or give `sides`)")]
    seen: dict[str, str] = {}
    out = []
    for side, spec in (data.get("sides") or {}).items():
        for i, color in enumerate((spec or {}).get("colors") or []):
            if seen.get(color) == side:
                continue  # listed twice on one side: _check_unique says so
            if color in seen:
                out.append(located.problem(("sides", side, "colors", i), f"colour {color!r} "
                                           f"is already a colour of side {seen[color]!r}"))
            seen[color] = side
    return out


def _check_unique(located: Located) -> list[Problem]:
    """Each colour, and each rank of a deck group, is listed once (a number and its text,
    `5` and `'5'`, are one rank). Checked here in one pass: a schema's ``uniqueItems`` is
    quadratic on lists that mix numbers and strings."""
    data, problems = located.data, []
    lists: list[tuple[PathKey, str]] = [(("colors",), "colour")]
    lists += [(("sides", side, "colors"), "colour") for side in _mapping(data.get("sides"))]
    lists += [(("deck", group, "ranks"), "rank") for group in _mapping(data.get("deck"))]
    for path, what in lists:
        values: Any = data
        for key in path:
            values = values.get(key) if isinstance(values, dict) else None
        first: dict[str, int] = {}
        for i, value in enumerate(values if isinstance(values, list) else []):
            if not isinstance(value, (str, int)) or isinstance(value, bool):
                continue  # the schema reports it
            if str(value) in first:
                _, line, col = located.pos(path + (first[str(value)],))
                problems.append(located.problem(path + (i,), f"{what} {str(value)!r} is listed "
                                                f"twice (first at {line}:{col})"))
            else:
                first[str(value)] = i
    return problems


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _check_counts(located: Located) -> list[Problem]:
    """At most ``MAX_COLORS`` colours a side, ``MAX_RANKS`` ranks, ``MAX_FACES`` different
    cards a side and ``MAX_PAIRINGS`` pairings of faces: counted before anything is built
    from them."""
    data, problems = located.data, []
    side_names, side_cols = side_colors(data)
    for side, cols in zip(side_names, side_cols, strict=True):
        if len(cols) > MAX_COLORS:
            path = ("sides", side, "colors") if "sides" in data else ("colors",)
            problems.append(located.problem(path, f"{len(cols):,} colours, more than "
                                            f"{MAX_COLORS}"))
    ranks: set[str] = set()
    faces = dict.fromkeys(side_names, 0)
    for group in _mapping(data.get("deck")).values():
        if not isinstance(group, dict) or not isinstance(group.get("ranks"), list):
            continue
        listed = {str(r) for r in group["ranks"]}   # a rank listed twice is one card
        ranks |= listed
        side = group.get("side", side_names[0])
        printed = group.get("colors")
        if side in faces and (printed == "all" or isinstance(printed, list) or printed is None):
            many = len(set(side_cols[side_names.index(side)])) if printed == "all" else \
                len(printed or [None])
            faces[side] += len(listed) * many
    if len(ranks) > MAX_RANKS:
        problems.append(located.problem(("deck",), f"the deck has {len(ranks):,} ranks, more "
                                        f"than {MAX_RANKS}"))
    for side, count in faces.items():
        if count > MAX_FACES and not problems:  # too many colours or ranks say it already
            where = f"side {side!r}" if "sides" in data else "the deck"
            problems.append(located.problem(("deck",), f"{where} has {count:,} different "
                                            f"cards, more than {MAX_FACES:,}"))
    pairings = math.prod(faces.values())
    if len(faces) > 1 and pairings > MAX_PAIRINGS and not problems:
        problems.append(located.problem(("sides",), f"the sides' faces pair in {pairings:,} "
                                        f"ways, more than {MAX_PAIRINGS:,}", at_key=True))
    return problems


def _check_deck(located: Located) -> list[Problem]:
    """Colours and ranks of the deck groups, and card rules for ranks the deck has."""
    data, problems = located.data, _check_sides(located)
    if _check_counts(located):  # too many to name one by one (reported by _check_counts)
        return problems
    side_names, side_cols = side_colors(data)
    ranks: set[str] = set()
    names: dict[tuple[str, str], str] = {}  # each card, by the group that defines it
    for gname, group in (data.get("deck") or {}).items():
        if group is None:
            continue
        side = group.get("side", side_names[0])
        if side not in side_names:
            problems.append(located.problem(("deck", gname, "side"), f"unknown side {side!r} "
                                            f"(the sides are {', '.join(side_names)})"
                                            f"{did_you_mean(side, side_names)}"))
            continue
        colors = side_cols[side_names.index(side)]
        problems += _group_colors(located, gname, group, colors)
        problems += _group_ranks(located, gname, group, side, colors, ranks, names)
    tags = {t for g in (data.get("deck") or {}).values() if g for t in g.get("tags", [])}
    for rank, card in (data.get("cards") or {}).items():
        if rank not in ranks and rank not in tags and not (card or {}).get("optional"):
            problems.append(located.problem(("cards", rank), f"card rule for rank {rank!r}, "
                                            f"which no deck group has"
                                            f"{did_you_mean(rank, sorted(ranks | tags))}",
                                            at_key=True))
    for i, combo in enumerate(data.get("combos") or ()):  # a combo's first ranks
        for k, rank in enumerate(map(str, combo.get("first", ()))):
            if rank not in ranks:
                problems.append(located.problem(("combos", i, "first", k), f"combo of a first "
                                                f"card of rank {rank!r}, which no deck group "
                                                f"has{did_you_mean(rank, sorted(ranks))}"))
    return problems


def _group_colors(located: Located, gname: str, group: Mapping[str, Any],
                  colors: list[str]) -> list[Problem]:
    """The colours a deck group lists that its side hasn't."""
    problems = []
    cols = group.get("colors")
    if isinstance(cols, list):
        for i, c in enumerate(cols):
            if c not in colors:
                hint = did_you_mean(c, colors) or f" (the colours are {', '.join(colors)})"
                problems.append(located.problem(("deck", gname, "colors", i), f"unknown colour "
                                                f"{c!r}{hint}"))
    return problems


def _group_ranks(located: Located, gname: str, group: Mapping[str, Any], side: str,
                 colors: list[str], ranks: set[str],
                 names: dict[tuple[str, str], str]) -> list[Problem]:
    """A deck group's ranks (added to ``ranks``) and cards (to ``names``): a rank without
    a face value, a card another group defines."""
    problems = []
    gpath = ("deck", gname)
    cols = group.get("colors")
    listed: set[str] = set()
    for i, rank in enumerate(group["ranks"]):
        rank = str(rank)
        if rank in listed:
            continue  # listed twice in the group: _check_unique says so
        listed.add(rank)
        ranks.add(rank)
        if opt(group.get("points"), located.data.get("options") or {}) == "face" and \
                not rank.isdigit():
            problems.append(located.problem(gpath + ("ranks", i), f"rank {rank!r} has no "
                                            "face value for `points: face`"))
        clashes: list[tuple[str, str]] = []  # this rank's cards another group has
        for c in (dict.fromkeys(colors) if cols == "all" else cols or [None]):
            name = " ".join(x for x in (c, rank, *group.get("tags", [])) if x)
            if (side, name) in names:
                clashes.append((name, names[(side, name)]))
            names[(side, name)] = gname
        if clashes:  # one line a rank, not one a colour
            more = f" (and {len(clashes) - 1} more of rank {rank!r})" * (len(clashes) > 1)
            problems.append(located.problem(gpath + ("ranks", i), f"card {clashes[0][0]!r} "
                                            f"is already defined by deck group "
                                            f"{clashes[0][1]!r}{more}"))
    return problems


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
                found = _where_set(located, [("options", opt)], use, message)
                problems.append(found if found.file == file and found.line == line else
                                _where_set(located, [("options", opt)], use,
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
    for group in _mapping(data.get("deck")).values():
        for rank in (group or {}).get("ranks") or []:
            tags.setdefault(str(rank), []).extend((group or {}).get("tags") or [])
    for rank, card in cards.items():
        if rank in tags and opt(_mapping(card).get("bluff"), options) is True and not any(
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
                     and "bluff" not in _mapping(cards.get(r))]
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


def _check_sizes(located: Located, fewest: bool) -> list[Problem]:
    """The deck must deal every allowed player count (with ``fewest``, only the smallest:
    an overridden hand size narrows the player counts instead, see player_counts)."""
    data = located.data
    players = data["players"]
    out = []
    if players["min"] > players["max"]:
        out.append(located.problem(("players",), f"players.min {players['min']} is more than "
                                   f"players.max {players['max']}"))
    options = data.get("options") or {}
    hand = opt((data.get("settings") or {}).get("hand_size", 7), options)
    side_names, side_cols = side_colors(data)
    per_side = [0] * len(side_names)
    for group in (data.get("deck") or {}).values():
        if group is None:
            continue
        side = side_names.index(group.get("side", side_names[0]))
        copies = opt(group["copies"], options)
        ncol = len(side_cols[side]) if group.get("colors") == "all" else \
            len(group.get("colors") or [None])
        per_side[side] += copies * ncol * len(group["ranks"])
    total = per_side[0]
    if total > MAX_DECK:
        return out + [located.problem(("deck",), f"the deck has {total} cards, more than "
                                      f"{MAX_DECK}")]
    if any(n != total for n in per_side):
        counts = ", ".join(f"{side} {n}" for side, n in zip(side_names, per_side, strict=True))
        out.append(located.problem(("deck",), f"every side needs as many cards as the others: "
                                   f"{counts}"))
    most = players["min"] if fewest else players["max"]
    turned = data.get("open_piles", data.get("discard_piles", 1))
    need = most * hand + turned
    if total < need:
        out.append(_where_set(located, [("settings", "hand_size"), ("players",),
                                        ("discard_piles",)], ("deck",),
                              f"the deck has {total} cards, fewer than {most} players × "
                              f"{hand} cards + {turned} = {need}"))
    return out


def _where_set(located: Located, causes: list[PathKey], default: PathKey,
               message: str) -> Problem:
    """A problem located where it came from: at the first of ``causes`` set somewhere else
    than ``default`` (by an overlay, a variant or ``--set``), else at ``default``. Where the
    checked file itself sets ``default``, a cause in a rulebook it extends doesn't count: that
    file is not the author's to edit."""
    home = located.pos(default)[0]
    for path in causes:
        if path in located.positions and located.pos(path)[0] != home:
            file, line, col = located.pos(path)
            if home == located.file and line > 0 and path not in located.set_by:
                continue
            if line <= 0:  # a command-line argument
                return Problem(file, 0, 0, message)
            return located.problem(path, message)
    return located.problem(default, message)


def opt(value: Any, options: Mapping[str, Any]) -> Any:
    return options.get(value[1:]) if isinstance(value, str) and value.startswith("$") else value




def side_colors(data: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The side names and each side's colours (one side, ``front``, without `sides`)."""
    sides = data.get("sides")
    if isinstance(sides, dict) and sides:
        return list(sides), [list((s or {}).get("colors") or []) for s in sides.values()]
    return ["front"], [list(data.get("colors") or [])]

