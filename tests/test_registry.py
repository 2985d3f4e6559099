"""The primitive, condition and decision-kind tables are the one place a step, an ``if``
condition or a kind's words are written: the schema, checks, compiler, docs, rules sheet and
tables derive from them (a toy primitive and a toy condition registered at run time reach all
of them)."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import uno_rules
from uno_rules.authoring.docs import decisions_markdown, primitives_markdown
from uno_rules.authoring.explain import describe, explain
from uno_rules.engine import decisions, effects
from uno_rules.engine.actions import Action
from uno_rules.engine.conditions import CONDITIONS, Condition
from uno_rules.engine.decisions import KINDS, WORDS, KindFacts, KindWords, register_kind
from uno_rules.engine.effects import PRIMITIVES, Primitive, register_condition
from uno_rules.engine.errors import SnapshotError
from uno_rules.engine.records import Ask
from uno_rules.engine.words import SEAT_SCHEMA
from uno_rules.load import checks, loader
from uno_rules.load.loader import check
from uno_rules.load.schema import rulebook_schema
from uno_rules.rl import observation
from uno_rules.table import screen, session

TOY = """\
name: toy
players: {min: 2, max: 3}
colors: [red, blue]
settings: {hand_size: 3}
deck:
  numbers: {ranks: [1, 2, 3], colors: all, copies: 2, points: face}
  actions: {ranks: [gift], colors: all, copies: 2, points: 20}
cards:
  gift:
    effect:
      - if: {hand_at_most: 2, then: [{toy_gift: next}], else: [skip]}
"""


def _step_schema() -> dict[str, Any]:
    step: dict[str, Any] = rulebook_schema()["$defs"]["step"]["anyOf"][1]["properties"]
    return step


def _params(name: str) -> dict[str, Any]:
    """A primitive's parameters as the schema states them."""
    entry = _step_schema()[name]
    obj = entry if "properties" in entry else entry["anyOf"][0]
    params: dict[str, Any] = obj["properties"]
    return params


def test_every_primitive_has_a_phrase() -> None:
    for prim in PRIMITIVES.values():
        args = dict.fromkeys(prim.params, None) | prim.defaults
        assert callable(prim.say), prim.name
        if not prim.params or prim.defaults.keys() == prim.params.keys() - set(prim.programs):
            text = prim.say(args, lambda program: "nothing happens")
            assert isinstance(text, str) and text, prim.name


def test_every_condition_is_decided_once_and_worded_when_in_play() -> None:
    for cond in CONDITIONS.values():
        assert (cond.holds is None) != (cond.at_load is None), cond.name
        assert (cond.say is None) == (cond.holds is None), cond.name
        if cond.say is not None:  # a value of its schema: its example, a seat, or a number
            assert cond.say(cond.schema.get("examples", cond.schema.get("enum", [2]))[0]), \
                cond.name
        assert cond.doc and cond.schema.get("description"), cond.name


def test_the_if_schema_names_exactly_the_registered_conditions() -> None:
    assert list(_params("if")) == [*CONDITIONS, "then", "else"]
    for name, cond in CONDITIONS.items():
        assert _params("if")[name] == cond.schema
        assert f"`{name}` ({cond.doc})" in PRIMITIVES["if"].doc
        assert f"| `{name}` |" in primitives_markdown().split("## `if`")[1].split("## `")[0]


@pytest.fixture
def fresh_schema(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No cache (a toy step must not be stored) and a schema made again from the tables,
    before and after the test."""
    monkeypatch.setenv("UNO_RULES_CACHE", "off")
    rulebook_schema.cache_clear()
    yield
    rulebook_schema.cache_clear()


def _load_toy(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, text: str) -> Any:
    """A toy rulebook, checked and loaded with the schema as the tables now make it."""
    path = tmp_path / "toy.yaml"
    path.write_text(text)
    # The loader's validator is made from the schema when it is imported: made again here.
    validator = checks.strict_validator(rulebook_schema())
    monkeypatch.setattr(checks, "RULEBOOK_VALIDATOR", validator)
    monkeypatch.setattr(loader, "RULEBOOK_VALIDATOR", validator)
    checked, problems = check(path)
    assert problems == [] and checked is not None
    return uno_rules.load_rulebook(path)


def _gift(game: Any, ctx: Any, step: Any) -> None:
    seat = game._seat(step.args["who"], ctx)
    if seat >= 0:
        game._draw_cards(seat, 1)


def _hand_at_most(game: Any, ctx: Any, value: Any) -> bool:
    return len(game.hands[ctx.actor]) <= value


@pytest.mark.usefixtures("fresh_schema")
def test_a_new_primitive_and_condition_are_one_entry_each(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # What a new primitive's file holds: its record, run function and phrase; a condition's.
    toy = Primitive("toy_gift", "`who` gets a card from the draw pile.", _gift,
                    lambda a, sub: f"{a['who']} gets a card", {"who": SEAT_SCHEMA}, ("who",),
                    main="who")
    monkeypatch.setitem(PRIMITIVES, "toy_gift", toy)
    monkeypatch.setitem(CONDITIONS, "hand_at_most", CONDITIONS["players"])  # undone after
    monkeypatch.setitem(PRIMITIVES, "if", PRIMITIVES["if"])
    monkeypatch.setitem(PRIMITIVES, "repeat", PRIMITIVES["repeat"])  # its `until` too
    register_condition(Condition(
        "hand_at_most", "the player holds at most that many cards",
        {"type": "integer", "minimum": 0, "description": "Most cards in the player's hand."},
        _hand_at_most, lambda v: f"when you hold {v} cards or fewer"))
    assert "toy_gift" in _step_schema() and "hand_at_most" in _params("if")
    assert "hand_at_most" in PRIMITIVES["repeat"].params["until"]["properties"]
    doc = primitives_markdown()
    assert "## `toy_gift`\n\n`who` gets a card from the draw pile." in doc
    assert "`hand_at_most` (the player holds at most that many cards)" in doc
    rb = _load_toy(monkeypatch, tmp_path, TOY)
    gift = next(r for f, r in zip(rb.faces, rb.rules, strict=True) if rb.ranks[f.rank] == "gift")
    assert gift is not None
    assert describe(rb, gift.effect) == \
        "when you hold 2 cards or fewer: next gets a card; otherwise the next player loses its turn"
    assert "Next gets a card" not in explain(rb) and "next gets a card" in explain(rb)
    assert all(s.run is _gift for p in rb.programs for s in p if s.op == "toy_gift")
    # The engine runs both: whole rounds end, and the toy step dealt cards out of turn.
    gifts = 0
    for seed in range(20):
        game, rng = rb.new_game(2, seed=seed), random.Random(seed)
        while not game.over:
            seat = game.decision.seat if game.decision is not None else None
            before = len(game.hands[1 - seat]) if seat is not None else 0
            game.step(rng.choice(game.legal_ids()))
            if seat is not None and len(game.hands[1 - seat]) > before:
                gifts += 1
    assert gifts > 0


def test_a_schema_without_a_registered_condition_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above fails when the schema drops a condition (it would stay silent if it
    read the conditions from the schema itself)."""
    monkeypatch.setitem(PRIMITIVES, "if", PRIMITIVES["if"])
    monkeypatch.setattr(effects, "CONDITIONS", {k: v for k, v in CONDITIONS.items()
                                                if k != "out"})
    rulebook_schema.cache_clear()
    try:
        PRIMITIVES["if"] = effects._if_primitive()
        with pytest.raises(AssertionError):
            test_the_if_schema_names_exactly_the_registered_conditions()
    finally:
        rulebook_schema.cache_clear()


def test_every_decision_kind_has_its_words() -> None:
    """One table of words per kind (the tables' marks and prompts derive from it)."""
    assert list(WORDS) == list(KINDS) == list(decisions.FACTS)
    for kind, words in WORDS.items():
        assert words.waiting and words.prompt and words.brief, kind
        assert screen.decision_words(kind) == words.waiting
        assert screen.PROMPTS[kind] == words.prompt and session.PROMPTS[kind] == words.brief


# ------------------------------------------------------------------ a toy decision kind
# What a new kind's files hold: its record, words and data shape (engine/decisions.py), the
# primitive that raises it (here a toy one), and a VERSIONS entry in rl/observation.py.
def _make_nudge() -> type[Ask]:
    """The toy kind's record: a Python subclass of the engine's ``Ask`` (the compiled build
    makes no instance of one: there a new kind is compiled with the package)."""

    @dataclass(slots=True)
    class Nudge(Ask):
        """The next player may draw a card (or keep its hand)."""

        kind: str = field(default="toy_nudge", init=False, repr=False, compare=False)
        player: int = -1  # who played the card that nudges

        def options(self, g: Any) -> list[int]:
            acts = g._acts[self.seat]
            return [acts.draw, acts.keep]

        def answer(self, g: Any, action: Action) -> None:
            if action.kind == "draw":
                g._draw_cards(self.seat, 1)
            g._run()

        def data(self) -> Any:
            return [self.player]  # a row of one: shape ("seat",)

        @classmethod
        def data_fields(cls, data: Any) -> dict[str, Any]:
            (player,) = data
            return {"player": player}

    return Nudge


def _nudge(game: Any, ctx: Any, step: Any) -> None:
    seat = game._seat(step.args["who"], ctx)
    if seat >= 0:
        game.pending = KINDS["toy_nudge"](seat, ctx, ctx.actor)


def _nudge_problem(game: Any, ask: Any) -> tuple[str, str] | None:
    """The toy kind's own check: the seat nudged by the card's player."""
    return None if ask.player == ask.ctx.actor else ("data", "a nudge not by the card's player")


NUDGE_FACTS = KindFacts(holds_cards=True, check=_nudge_problem)


def _facts_hold(rb: Any, saved: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A restored toy decision is held to the facts its kind registered: its own check, and
    its seat holding cards (and only because the kind says so)."""
    wrong = copy.deepcopy(saved)
    wrong["pending"]["data"] = [1 - saved["pending"]["data"][0]]  # a seat, not the player
    with pytest.raises(SnapshotError, match="'pending.data': a nudge not by the card's player"):
        rb.restore(wrong)
    empty, seat = copy.deepcopy(saved), saved["pending"]["seat"]
    empty["draw_pile"] += empty["hands"][seat]
    empty["hands"][seat] = []
    with pytest.raises(SnapshotError, match=f"'pending.seat': seat {seat} holds no cards, "
                                            "yet is asked to draw or not$"):
        rb.restore(empty)
    monkeypatch.setitem(decisions.FACTS, "toy_nudge", KindFacts(check=_nudge_problem))
    assert rb.restore(empty).pending.seat == seat  # no longer said to hold cards
    monkeypatch.setitem(decisions.FACTS, "toy_nudge", NUDGE_FACTS)


NUDGE = TOY.replace("if: {hand_at_most: 2, then: [{toy_gift: next}], else: [skip]}",
                    "toy_nudge: next")


@pytest.fixture
def fresh_kinds() -> Iterator[None]:
    """The decision-kind tables as they were, after the test."""
    tables: list[dict[str, Any]] = [KINDS, WORDS, decisions.DATA,  # type: ignore[list-item]
                                     decisions.FACTS]
    saved = [dict(table) for table in tables]
    yield
    for table, old in zip(tables, saved, strict=True):
        table.clear()
        table.update(old)


@pytest.mark.usefixtures("fresh_schema", "fresh_kinds")
def test_a_new_decision_kind_is_its_record_words_and_data_shape(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Registered at run time, a kind reaches the engine's decisions and options, snapshots
    (its data checked by its declared shape), the consistency check and the generated
    decisions page; the RL layout, made at import, refuses the new kinds until versioned."""
    if uno_rules.COMPILED:  # mypyc's records: no instance of an interpreted subclass
        with pytest.raises(TypeError, match="interpreted classes cannot inherit"):
            _make_nudge()(0, None, -1)
        return
    register_kind(_make_nudge(), KindWords(
        "to draw or not", "draw a card, or keep your hand", "draw or keep",
        "The next player may draw a card (or keep its hand)."), ("seat",), NUDGE_FACTS)
    assert list(KINDS)[-1] == "toy_nudge" and "toy_nudge" in WORDS
    assert decisions.FACTS["toy_nudge"] is NUDGE_FACTS
    monkeypatch.setitem(PRIMITIVES, "toy_nudge", Primitive(
        "toy_nudge", "`who` may draw a card.", _nudge, lambda a, sub: f"{a['who']} may draw",
        {"who": SEAT_SCHEMA}, ("who",), main="who"))
    rb = _load_toy(monkeypatch, tmp_path, NUDGE)
    assert "| `toy_nudge` | The next player may draw a card (or keep its hand). | " \
        "draw a card, or keep your hand | `[seat]` |" in decisions_markdown()
    with pytest.raises(RuntimeError, match=f"give it version {len(observation.VERSIONS) + 1}"):
        observation.layout_version(tuple(KINDS), observation.SEGMENTS_SINCE_V1)
    nudged = 0
    for seed in range(20):
        game, rng = rb.new_game(2, seed=seed), random.Random(seed)
        while not game.over:
            decision = game.decision
            if decision is not None and decision.kind == "toy_nudge":
                nudged += 1
                assert [a.kind for a in decision.options] == ["draw", "keep"]
                saved = game.snapshot()
                assert saved["pending"]["data"] == [game.pending.player]  # type: ignore[union-attr]
                assert rb.restore(saved).snapshot() == saved
                _facts_hold(rb, saved, monkeypatch)
                saved["pending"]["data"] = ["nobody"]  # not a seat: refused by its shape
                with pytest.raises(SnapshotError, match="pending.data"):
                    rb.restore(saved)
            game.step(rng.choice(game.legal_ids()))
    assert nudged > 0
