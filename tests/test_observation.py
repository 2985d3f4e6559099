"""The observation encoding: what it holds agrees with view(seat), it shows nothing the seat
can't see, and its layout is what `spaces` says."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import uno_rules
from uno_rules.engine.game import Game
from uno_rules.load.resources import shipped_names
from uno_rules.rl import observation
from uno_rules.rl.observation import CAP, DECISION_KINDS, Observer

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LONG = os.environ.get("UNO_LONG", "") not in ("", "0")  # long run: conftest.py
SEEDS = 20 if LONG else 2
MOVES = 300  # actions per round at most: long rounds add nothing the first ones lack


def _load(name: str, house: tuple[str, ...] = ()) -> uno_rules.Rulebook:
    path = EXAMPLES / f"{name}.yaml"
    return uno_rules.load_rulebook(path if path.exists() else name, house=house)


def _configs() -> list[tuple[str, tuple[str, ...], int]]:
    """Every shipped rulebook at its smallest and a larger player count, and the layouts
    they leave out: several discard piles, house rules that stack and jump in."""
    out = []
    for name in shipped_names():
        counts = _load(name).player_counts()
        for players in sorted({counts[0], counts[min(2, len(counts) - 1)]}):
            out.append((name, (), players))
    return out + [("two_piles", (), 3), ("classic", ("jump_in", "stacking"), 4)]


CONFIGS = _configs()


def _rounds(rb: uno_rules.Rulebook, players: int, seeds: int,
            out: tuple[int, ...] = (), first: int = 0) -> Any:
    """The states of random rounds (out-of-turn actions included), each yielded once."""
    for seed in range(first, first + seeds):
        game = rb.new_game(players, seed, out=list(out))
        rng = random.Random(seed)
        yield game
        for _ in range(MOVES):
            if game.over:
                break
            _move(game, rng)
            yield game


def _move(game: Game, rng: random.Random) -> None:
    """A random legal action (out-of-turn ones included), a card play more often than not:
    rounds then end, and reach their last cards (UNO, going out)."""
    legal = game.legal_actions()
    plays = [a for a in legal if a.kind in ("play", "jump_in")]
    game.apply(rng.choice(plays if plays and rng.random() < 0.8 else legal))


def _part(obs: Observer, vector: list[int], name: str) -> list[int]:
    s = obs.segment(name)
    return vector[s.offset:s.offset + s.length]


def _one(values: list[int]) -> int | None:
    """The index a one-hot part marks (None: none)."""
    assert sum(values) <= 1 and set(values) <= {0, 1}, values
    return values.index(1) if 1 in values else None


def _names(rb: uno_rules.Rulebook, counts: list[int]) -> list[str]:
    return sorted(rb.faces[f].name for f, c in enumerate(counts) for _ in range(c))


def _absolute(players: int, seat: int, values: list[int]) -> list[int]:
    """A per-relative-seat part in seat order."""
    return [values[(s - seat) % players] for s in range(players)]


def _check_against_view(obs: Observer, game: Game, seat: int) -> None:
    """Each segment of the vector says what view(seat) says."""
    rb, n = obs.rulebook, obs.players
    vec, view = obs.encode(game, seat), game.view(seat)
    part = lambda name: _part(obs, vec, name)  # noqa: E731
    assert len(vec) == obs.size
    assert obs.encode_view(game.seat_view(seat)) == vec  # made from the seat's record alone
    assert _names(rb, part("hand")) == view["hand"]
    capped = lambda x: min(x, CAP)  # noqa: E731
    piles = view.get("discards") or [{"top": view["top"], "color": view["color"],
                                      "size": view["discard_size"]}]
    faces, colors = len(rb.faces), len(rb.colors)
    for k, pile in enumerate(piles):
        top = _one(part("top")[k * faces:(k + 1) * faces])
        assert (None if top is None else rb.faces[top].name) == pile["top"]
        if rb.colors:
            color = _one(part("color")[k * colors:(k + 1) * colors])
            assert (None if color is None else rb.colors[color]) == pile["color"]
        else:  # a deck without colours: no colour segment, and none in force
            assert pile["color"] is None and all(s.name != "color" for s in obs.spaces)
        assert part("discard_size")[k] == capped(pile["size"])
    if "discards" in view:  # the pile in play is the one view's `top` shows
        focus = _one(part("focus"))
        assert focus is not None and view["discards"][focus]["top"] == view["top"]
    assert part("direction") == [view["direction"] == "clockwise"]
    assert _absolute(n, seat, part("hand_sizes")) == [capped(x) for x in view["hand_sizes"]]
    assert part("draw_pile_size") == [capped(view["draw_pile_size"])]
    if rb.piles:
        assert part("piles") == [capped(x) for x in view["piles"].values()]
    if "team_by_seat" in view:
        teams = view["team_by_seat"]
        rel = [(teams[(seat + k) % n] - teams[seat]) % (n // rb.team_size) for k in range(n)]
        assert part("team") == rel
    for name in ("out", "knocked_out", "absent"):
        flags = _absolute(n, seat, part(name))
        assert [s for s in range(n) if flags[s]] == view[name], name
    assert part("stacked_draw") == [capped(view["stacked_draw"])]
    open_ = _absolute(n, seat, part("uno_open"))  # uncalled, or owed after another's card
    assert {s for s in range(n) if open_[s]} == \
        ({view["uno_open"]} - {None}) | set(view.get("owed", ()))
    decision = view["decision"]
    kind, decider = _one(part("decision_kind")), _one(part("decider"))
    if decision is None:
        assert kind is None and decider is None
    else:
        assert kind is not None and DECISION_KINDS[kind] == decision["kind"]
        assert (None if decider is None else (seat + decider) % n) == decision["seat"]
    assert part("my_decision") == [decision is not None and decision["seat"] == seat]
    assert part("over") == [view["over"]]
    if len(rb.sides) > 1:
        assert rb.sides[_one(part("side"))] == view["side"]  # type: ignore[index]
        other = view["other_side"]
        backs = part("other_side_hands")
        for k in range(1, n):
            counts = backs[(k - 1) * faces:k * faces]
            assert _names(rb, counts) == other["hands"][(seat + k) % n]
        top = _one(part("draw_pile_back"))
        assert (None if top is None else rb.faces[top].name) == other["draw_pile_top"]
    else:
        for name in ("side", "other_side_hands", "draw_pile_back"):
            with pytest.raises(KeyError):
                obs.segment(name)


@pytest.mark.parametrize("name, house, players", CONFIGS)
def test_the_vector_says_what_the_view_says(name: str, house: tuple[str, ...],
                                            players: int) -> None:
    rb = _load(name, house)
    obs = Observer(rb, players)
    # The rounds go on until they reached what the rulebook has (so that the checks were
    # not all of zeros): a catch open, and No Mercy's stacks and knock-outs.
    wanted = {"uno_open"} | ({"stacked"} if name == "no_mercy" or "stacking" in house
                             else set()) | ({"knocked_out"} if name == "no_mercy" else set())
    seen: set[str] = set()
    seeds = 0
    while seeds < SEEDS or not wanted <= seen:
        assert seeds < 30, f"30 rounds never reached {wanted - seen}"
        for game in _rounds(rb, players, 1, first=seeds):
            for seat in range(players):
                _check_against_view(obs, game, seat)
            if game.stacked.total:
                seen.add("stacked")
            if game._uno_open >= 0:
                seen.add("uno_open")
            if game.eliminated:
                seen.add("knocked_out")
        seeds += 1


def test_seats_out_of_a_match_show_as_absent(classic: uno_rules.Rulebook) -> None:
    obs = Observer(classic, 4)
    for game in _rounds(classic, 4, 1, out=(1,)):
        for seat in range(4):
            _check_against_view(obs, game, seat)
        assert _absolute(4, 2, _part(obs, obs.encode(game, 2), "absent")) == [0, 1, 0, 0]


def _hidden_swap(game: Game, seat: int, rng: random.Random, own: bool) -> Game | None:
    """A clone with two cards swapped that show different faces on the side in play: two
    cards ``seat`` can't see (others' hands, the draw pile), of the same back when cards have
    two sides; or with ``own``, one of its own hand's for one it can't see."""
    new = game.clone()
    sided = len(game.rulebook.sides) > 1
    back = game.rulebook.side_faces[(game.side + 1) % len(game.rulebook.sides)]
    hidden = [(pile, i) for s, hand in enumerate(new.hands) if s != seat
              for pile in (hand,) for i in range(len(hand))]
    hidden += [(new.draw_pile, i) for i in range(len(new.draw_pile))]
    mine = [(new.hands[seat], i) for i in range(len(new.hands[seat]))]
    rng.shuffle(hidden)
    for a, i in mine if own else hidden:
        for b, j in hidden:
            if a is b and i == j:
                continue
            x, y = a[i], b[j]
            if new.faces[x].id == new.faces[y].id:
                continue
            if not own and sided and back[x].id != back[y].id:
                continue  # the backs are seen: only cards of the same back are hidden
            a[i], b[j] = y, x
            return new
    return None


@pytest.mark.parametrize("name, house, players", CONFIGS)
def test_what_the_seat_cant_see_changes_nothing(name: str, house: tuple[str, ...],
                                                players: int) -> None:
    rb = _load(name, house)
    obs = Observer(rb, players)
    rng = random.Random(17)
    swapped = changed = 0
    for step, game in enumerate(_rounds(rb, players, SEEDS)):
        if step % 7:
            continue
        seat = rng.randrange(players)
        other = _hidden_swap(game, seat, rng, own=False)
        if other is not None:
            assert other.hands != game.hands or other.draw_pile != game.draw_pile
            assert other.view(seat) == game.view(seat)  # the swap is hidden indeed
            assert obs.encode(other, seat) == obs.encode(game, seat)
            assert (obs.array(other, seat) == obs.array(game, seat)).all()
            swapped += 1
        mine = _hidden_swap(game, seat, rng, own=True)
        if mine is not None:
            assert _part(obs, obs.encode(mine, seat), "hand") != \
                _part(obs, obs.encode(game, seat), "hand")
            changed += 1
    assert swapped > 5 and changed > 5


def test_spaces_cover_the_vector_exactly() -> None:
    for name, house, players in CONFIGS:
        obs = Observer(_load(name, house), players)
        offset = 0
        for s in obs.spaces:
            assert s.offset == offset and s.length > 0 and 0 <= s.low <= s.high <= CAP, s
            assert obs.segment(s.name) is s and s.meaning
            offset += s.length
        assert offset == obs.size
        assert len({s.name for s in obs.spaces}) == len(obs.spaces)


# Version 1's decision kinds: history, never edited. A new kind comes after them (their one-hot
# positions stay) and gets the next version in observation.VERSIONS.
V1_KINDS = ("turn", "drawn", "color", "challenge", "target", "contest", "give", "forced_play")


def test_version_one_layout() -> None:
    """Version 1's decision kinds and classic 2p layout: a change here bumps VERSION. A kind
    added after them only lengthens the decision_kind segment (and needs a VERSIONS entry)."""
    assert observation.VERSIONS[observation.layout_digest(V1_KINDS)] == 1
    assert DECISION_KINDS[:len(V1_KINDS)] == V1_KINDS
    assert Observer.VERSION == observation.layout_version(DECISION_KINDS,
                                                          observation.SEGMENTS_SINCE_V1)
    assert (Observer.VERSION == 1) == (DECISION_KINDS == V1_KINDS
                                       and not observation.SEGMENTS_SINCE_V1)
    more = len(DECISION_KINDS) - len(V1_KINDS)
    obs = Observer(_load("classic"), 2)
    assert [(s.name, s.offset, s.length) for s in obs.spaces] == [
        ("hand", 0, 54), ("top", 54, 54), ("color", 108, 4), ("discard_size", 112, 1),
        ("direction", 113, 1), ("hand_sizes", 114, 2), ("draw_pile_size", 116, 1),
        ("out", 117, 2), ("knocked_out", 119, 2), ("absent", 121, 2),
        ("stacked_draw", 123, 1), ("uno_open", 124, 2), ("decision_kind", 126, 8 + more),
        ("decider", 134 + more, 2), ("my_decision", 136 + more, 1), ("over", 137 + more, 1)]
    assert obs.size == 138 + more
    assert obs.table().splitlines()[1].split()[:4] == ["0", "54", "0-4", "hand"]


@settings(max_examples=200 if LONG else 25, deadline=None)
@given(name=st.sampled_from([c for c in CONFIGS]), seed=st.integers(0, 2**32),
       moves=st.integers(0, 150), seat=st.integers(0, 9))
def test_any_state_encodes_within_its_spaces(name: tuple[str, tuple[str, ...], int],
                                             seed: int, moves: int, seat: int) -> None:
    rulebook, house, players = name
    rb = _load(rulebook, house)
    obs = Observer(rb, players)
    game, rng = rb.new_game(players, seed), random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        _move(game, rng)
    seat %= players
    vec = obs.encode(game, seat)
    array = obs.array(game, seat)
    assert array.dtype.name == "uint8" and array.shape == (obs.size,)
    assert array.tolist() == vec
    for s in obs.spaces:
        assert all(s.low <= v <= s.high for v in vec[s.offset:s.offset + s.length]), s
    assert sum(_part(obs, vec, "hand")) == min(len(game.hands[seat]), CAP)


def test_refusals(classic: uno_rules.Rulebook) -> None:
    obs = Observer(classic, 3)
    game = classic.new_game(3, 1)
    for seat in (-1, 3, True, "0", None, 1.0):
        with pytest.raises(ValueError, match="no seat"):
            obs.encode(game, seat)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="no seat"):
            obs.array(game, seat)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="classic for 4 players given to the observer of "
                                         "classic for 3"):
        obs.encode(classic.new_game(4, 1), 0)
    with pytest.raises(ValueError, match="flip for 3 players"):
        obs.encode(_load("flip").new_game(3, 1), 0)
    with pytest.raises(ValueError, match="teams is for 4, 6, 8 players, not 2"):
        Observer(_load("teams"), 2)
    for players in (1, 11, True, "3"):
        with pytest.raises(ValueError, match="classic is for 2-10 players"):
            Observer(classic, players)  # type: ignore[arg-type]
    # The same rulebook with other settings is another layout's game (its deck may differ).
    with pytest.raises(ValueError, match="given to the observer"):
        obs.encode(uno_rules.load_rulebook("classic", settings={"hand_size": 5})
                   .new_game(3, 1), 0)


BIG = """\
name: big
players: {min: 2, max: 3}
colors: [red, blue]
deck:
  numbers: {ranks: [1, 2], colors: all, copies: 75, points: face}
"""


def test_counts_past_255_are_capped(tmp_path: Path) -> None:
    """A deck of 300 cards: the draw pile's size, and (in a view made up to reach it) a
    face's copies in a hand and the hand's size, read 255."""
    path = tmp_path / "big.yaml"
    path.write_text(BIG)
    rb = uno_rules.load_rulebook(path)
    obs, game = Observer(rb, 2), rb.new_game(2, 1)
    vec = obs.encode(game, 0)
    assert _part(obs, vec, "draw_pile_size") == [CAP] < [len(game.draw_pile)]
    view = game.seat_view(0)
    face = view.hand[0]
    big = view._replace(hand=(face,) * 300 + view.hand, hand_sizes=(307, 7))
    counts = _part(obs, obs.encode_view(big), "hand")
    assert counts[face] == CAP and sum(counts) == CAP + len(view.hand) - view.hand.count(face)
    assert _part(obs, obs.encode_view(big), "hand_sizes") == [CAP, 7]
    with pytest.raises(ValueError, match="not a view of a game for 2 players"):
        obs.encode_view(tuple(view))  # type: ignore[arg-type]


def test_an_equal_rulebook_loaded_again_is_accepted(classic: uno_rules.Rulebook) -> None:
    import pickle

    again = pickle.loads(pickle.dumps(classic))
    assert again is not classic and again == classic
    game = again.new_game(2, 5)
    obs = Observer(classic, 2)
    assert obs.encode(game, 1) == Observer(again, 2).encode(game, 1)


def test_an_observer_pickled_and_loaded_encodes_as_before(classic: uno_rules.Rulebook) -> None:
    """Its filler (engine/encode.py, a compiled class in the fast build) is made again from
    its layout when loaded, not pickled."""
    import pickle

    obs = Observer(classic, 3)
    again = pickle.loads(pickle.dumps(obs))
    game = classic.new_game(3, 8)
    for seat in range(3):
        assert again.encode(game, seat) == obs.encode(game, seat)
        assert again.array(game, seat).tobytes() == obs.array(game, seat).tobytes()


def test_encode_needs_no_numpy_array_does(classic: uno_rules.Rulebook,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)
    monkeypatch.setattr(observation, "_NUMPY", None)  # as before NumPy's first use
    obs = Observer(classic, 2)
    assert len(obs.encode(classic.new_game(2, 1), 0)) == obs.size
    with pytest.raises(ImportError, match=r"pip install 'uno-rules\[rl\]'"):
        obs.array(classic.new_game(2, 1), 0)


def test_the_module_imports_without_numpy_yaml_or_click() -> None:
    import subprocess

    child = ("import sys, uno_rules.rl.observation\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] in "
             "('numpy', 'yaml', 'jsonschema', 'click')))")
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_a_new_decision_kind_changes_the_layout_version_visibly() -> None:
    """The layout is made from the engine's kinds: another kind gives another digest, which
    has no version until one is given (importing the module then fails, never silently)."""
    assert observation.VERSIONS["d37c960a8403b2c1"] == 1
    assert observation.layout_digest(V1_KINDS) == "d37c960a8403b2c1"
    assert observation.layout_version(V1_KINDS) == 1
    assert sorted(observation.VERSIONS.values()) == list(range(1, len(observation.VERSIONS) + 1))
    # Version 2: the side kind and the player_state segment (per-player state).
    assert observation.layout_version((*V1_KINDS, "side"), ("player_state",)) == 2
    with pytest.raises(RuntimeError, match="segments since version 1: player_state, toy"):
        observation.layout_version((*V1_KINDS, "side"), ("player_state", "toy"))
    more = (*DECISION_KINDS, "toy_kind")
    with pytest.raises(RuntimeError,
                       match=f"give it version {len(observation.VERSIONS) + 1}"):
        observation.layout_version(more)
    with pytest.raises(RuntimeError):
        observation.layout_version(tuple(reversed(DECISION_KINDS)))

