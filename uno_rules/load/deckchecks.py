"""The checks of a rulebook's deck that a JSON Schema can't express: its colours, ranks and
sides, how many of each, and whether it deals every player count; with the readers the
other checks share (an option's value, the colours of each side, where a value was set)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..engine.errors import Problem
from .problems import did_you_mean
from .schema import MAX_COLORS, MAX_FACES, MAX_PAIRINGS, MAX_RANKS
from .yamlpos import Located, PathKey

MAX_DECK = 10_000  # cards in a deck (the largest edition has 168)


def check_players(located: Located) -> list[Problem]:
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
                continue  # listed twice on one side: check_unique says so
            if color in seen:
                out.append(located.problem(("sides", side, "colors", i), f"colour {color!r} "
                                           f"is already a colour of side {seen[color]!r}"))
            seen[color] = side
    return out


def check_unique(located: Located) -> list[Problem]:
    """Each colour, and each rank of a deck group, is listed once (a number and its text,
    `5` and `'5'`, are one rank). Checked here in one pass: a schema's ``uniqueItems`` is
    quadratic on lists that mix numbers and strings."""
    data, problems = located.data, []
    lists: list[tuple[PathKey, str]] = [(("colors",), "colour")]
    lists += [(("sides", side, "colors"), "colour") for side in mapping(data.get("sides"))]
    lists += [(("deck", group, "ranks"), "rank") for group in mapping(data.get("deck"))]
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


def mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def check_counts(located: Located) -> list[Problem]:
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
    for group in mapping(data.get("deck")).values():
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


def check_deck(located: Located) -> list[Problem]:
    """Colours and ranks of the deck groups, and card rules for ranks the deck has."""
    data, problems = located.data, _check_sides(located)
    if check_counts(located):  # too many to name one by one (reported by check_counts)
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
            continue  # listed twice in the group: check_unique says so
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


def check_sizes(located: Located, fewest: bool) -> list[Problem]:
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
        out.append(where_set(located, [("settings", "hand_size"), ("players",),
                                        ("discard_piles",)], ("deck",),
                              f"the deck has {total} cards, fewer than {most} players × "
                              f"{hand} cards + {turned} = {need}"))
    return out


def where_set(located: Located, causes: list[PathKey], default: PathKey,
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
