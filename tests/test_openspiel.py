"""The OpenSpiel game (uno_rules/rl/openspiel.py, the ``rl`` extra): it loads by name for the
shipped rulebooks, passes OpenSpiel's own random-simulation test, holds up played by hand
(clones independent, serialization exact, chance outcomes summing to 1, legal actions until
the end, zero-sum returns), and OpenSpiel's MCTS bot plays it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")  # the rl extra (CI installs it)

import uno_rules  # noqa: E402
import uno_rules.rl.openspiel  # noqa: E402,F401  (registers "uno_rules")
from uno_rules.rl.observation import Observer  # noqa: E402


def _load(rulebook: str, players: int, **more: object) -> object:
    return pyspiel.load_game("uno_rules", {"rulebook": rulebook, "players": players, **more})


@pytest.mark.parametrize("rulebook, players", [("classic", 3), ("flip", 2), ("no_mercy", 4),
                                              ("flex", 3), ("attack", 3)])
def test_load_game_by_name(rulebook: str, players: int) -> None:
    game = _load(rulebook, players)
    table = uno_rules.load_rulebook(rulebook).action_table(players)
    assert game.num_players() == players
    assert game.num_distinct_actions() == len(table)
    deck = uno_rules.load_rulebook(rulebook).deck
    faces = max(deck) + 1
    assert game.max_chance_outcomes() == len(table) + faces  # by default a card's face
    assert game.get_type().short_name == "uno_rules"
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()  # the first card dealt: any of the deck's faces
    assert state.is_chance_node() and [a - len(table) for a, _ in outcomes] == \
        sorted(set(deck))
    assert [p for _, p in outcomes] == [deck.count(a - len(table)) / len(deck)
                                       for a, _ in outcomes]


def test_the_parameters_and_their_refusals() -> None:
    game = _load("classic", 2, house="stacking, jump_in", seed=40, deals=3, max_actions=50)
    state = game.new_initial_state()
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == \
        ["deal 40", "deal 41", "deal 42"]
    state.apply_action(state.chance_outcomes()[1][0])
    house = uno_rules.load_rulebook("classic", house=["stacking", "jump_in"])
    dealt = house.new_game(2, 41, log=False)
    dealt.offer_unplayable = True  # (the adapter's rounds ask about every drawn card)
    assert state.uno_game.snapshot() == dealt.snapshot()
    with pytest.raises(Exception, match="teams is for 4, 6, 8 players, not 3"):
        _load("teams", 3)
    for bad in ({"deals": -1}, {"deals": 10**9}, {"max_actions": 0}):
        with pytest.raises(Exception, match=r"expected deals 0-65536 .* max_actions >= 1"):
            _load("classic", 2, **bad)
    with pytest.raises(Exception, match="no_such_rulebook"):
        _load("no_such_rulebook", 2)
    with pytest.raises(Exception, match="classic is for 2-10 players, not 12"):
        _load("classic", 12)


@pytest.mark.parametrize("rulebook, players", [("classic", 2), ("flip", 3), ("no_mercy", 4),
                                               ("classic_2018", 4),
                                               ("all_wild", 3),
                                               ("flex", 2), ("attack", 3)])
def test_openspiels_random_simulation_test(rulebook: str, players: int) -> None:
    """pyspiel.random_sim_test: OpenSpiel's own checks of a game (legal actions, chance
    outcomes, clones, observations, serialization round trips), on a few random rounds."""
    game = _load(rulebook, players, deals=8, max_actions=300)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_table_outcome_is_a_chance_node_with_its_weights() -> None:
    """UNO Attack's hit: a chance node over the launcher's counts, by their weights."""
    state = _load("attack", 2, deals=1).new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    while state.is_chance_node() or not any(state.action_to_string(a).endswith(" draw")
                                            for a in state.legal_actions()):
        state.apply_action(state.legal_actions()[0])  # to a turn that may hit
    hit = next(a for a in state.legal_actions() if state.action_to_string(a).endswith("draw"))
    state.apply_action(hit)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [state.action_to_string(a) for a, _ in outcomes] == [f"outcome {k}" for k in range(7)]
    assert [round(p, 2) for _, p in outcomes] == [0.5, 0.15, 0.12, 0.1, 0.06, 0.04, 0.03]


def _play(game: object, rng: random.Random, check: bool) -> object:
    """A random round through OpenSpiel's API, checking each state on the way."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert state.legal_actions() == [a for a, _ in outcomes] == \
                sorted(a for a, _ in outcomes)
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            player = state.current_player()
            legal = state.legal_actions()
            assert legal and legal == sorted(legal)
            assert all(state.legal_actions(p) == [] for p in range(game.num_players())
                       if p != player)
            plays = [a for a in legal if " play " in state.action_to_string(a)]
            action = rng.choice(plays if plays and rng.random() < 0.9 else legal)
        if check and len(state.history()) % 5 == 1:  # every 5th state: restores cost ms
            twin = state.clone()
            text = str(state)
            twin.apply_action(action)
            assert str(state) == text  # the clone is independent
            again = game.deserialize_state(state.serialize())
            assert str(again) == text and again.history() == state.history()
        state.apply_action(action)
    return state


def test_random_rounds_by_hand_clones_serialization_and_returns() -> None:
    rng = random.Random(5)
    won = 0
    for rulebook, players in [("classic", 2), ("classic", 4), ("teams", 4)]:
        game = _load(rulebook, players, deals=50, max_actions=400)
        for k in range(3):
            state = _play(game, rng, check=k == 0)
            returns = state.returns()
            assert abs(sum(returns)) < 1e-9
            uno = state.uno_game
            if uno.result is None:  # stopped by its budget: nobody won
                assert returns == [0.0] * players
                continue
            won += 1
            winners = set(uno.result.winners)
            assert [s for s, r in enumerate(returns) if r == 1.0] == sorted(winners)
            loss = -len(winners) / (players - len(winners))
            assert all(r == loss for s, r in enumerate(returns) if s not in winners)
    assert won >= 6


def _dealt(game: Any, rng: random.Random) -> Any:
    """A new round of ``game`` past its deal (a chance node over the deal seeds)."""
    state = game.new_initial_state()
    state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_contest_is_an_openspiel_chance_node() -> None:
    game = _load("ted_lasso", 4, deals=200)
    rng = random.Random(2)
    seen = 0
    for _ in range(30):
        state = _dealt(game, rng)
        while not state.is_terminal() and not seen:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert [state.action_to_string(a).split()[0] for a, _ in outcomes] == \
                    ["loser", "loser"]
                assert [p for _, p in outcomes] == [0.5, 0.5]
                assert state.uno_game.decision.kind == "contest"
                seen += 1
            state.apply_action(rng.choice(state.legal_actions()))
        if seen:
            break
    assert seen


def test_the_information_state_hides_the_deal_and_others_hands() -> None:
    game = _load("classic", 3, deals=4)
    one, two = game.new_initial_state(), game.new_initial_state()
    one.apply_action(one.chance_outcomes()[0][0])
    two.apply_action(two.chance_outcomes()[1][0])
    for state in (one, two):
        text = state.information_state_string(1)
        uno = state.uno_game
        assert all(name in text for name in uno.hand(1))
        assert "deal" not in text and str(uno.hand(0)) not in text
        assert len(state.observation_tensor(1)) == game.observation_tensor_size()
        # the observation tensor is uno_rules.rl.observation's encoding of what seat 1 sees
        encoding = Observer(uno.rulebook, 3).encode(uno, 1)
        assert state.observation_tensor(1)[:len(encoding)] == [float(v) for v in encoding]
    assert one.information_state_string(1) != two.information_state_string(1)


def _bot(kind: str, game: Any) -> Any:
    """OpenSpiel's MCTS or IS-MCTS bot on ``game``, small and seeded."""
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0), 200)
    if kind == "mcts":
        return mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator,
                            random_state=np.random.RandomState(1))
    return ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8,
                            random_state=np.random.RandomState(1))


@pytest.mark.parametrize(("kind", "deal", "turns"), [("mcts", 3, 4), ("ismcts", 2, 3)])
def test_openspiels_search_bots_play_classic(kind: str, deal: int, turns: int) -> None:
    game = _load("classic", 2, deals=10)
    bot = _bot(kind, game)
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[deal][0])
    moves = 0
    while moves < turns and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == turns or state.is_terminal()


def test_out_of_turn_windows_are_extra_turns_with_a_pass() -> None:
    """A seat with out-of-turn actions moves before the decider with those and its pass; a
    pass changes nothing in the round and hands the move on; catches and jump-ins happen."""
    game = _load("classic", 4, house="jump_in", deals=100, max_actions=600)
    table = uno_rules.load_rulebook("classic", house=["jump_in"]).action_table(4)
    rng = random.Random(4)
    taken: dict[str, int] = {}
    windows = 0
    for _ in range(6):
        state = _dealt(game, rng)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            uno, player = state.uno_game, state.current_player()
            legal = state.legal_actions()
            decider = uno.decision.seat
            keeping = [table[a].kind for a in legal] == ["keep"]  # the adapter's keep
            if player != decider and not keeping:  # a window: out-of-turn actions, a pass
                windows += 1
                kinds = [table[a].kind for a in legal]
                assert kinds[-1] == "pass"  # ascending ids: the passes come last in the table
                assert set(kinds) <= {"catch", "uno", "jump_in", "pass"}
                assert all(table[a].seat == player for a in legal)
                if rng.random() < 0.7:
                    before = uno.snapshot()
                    known = [state.information_state_string(s) for s in range(4)]
                    state.apply_action(table.index(uno_rules.Action(player, "pass")))
                    assert state.uno_game.snapshot() == before
                    assert state.current_player() != player
                    # the round is as it was, yet every seat saw the pass (perfect recall)
                    assert state.passed[-1] == player
                    assert all(state.information_state_string(s) != known[s]
                               for s in range(4))
                    continue
            action = rng.choice(legal)
            taken[table[action].kind] = taken.get(table[action].kind, 0) + 1
            state.apply_action(action)
    assert windows > 50 and taken.get("jump_in", 0) > 0 and taken.get("catch", 0) > 0


def test_resample_from_infostate_keeps_what_the_player_knows() -> None:
    """The resampled state looks the same to the player (its information state, legal
    actions) while the cards it can't see are re-dealt; the original is unchanged."""
    game = _load("classic", 3, deals=20)
    rng = random.Random(8)
    moved = 0
    for _ in range(10):
        state = _dealt(game, rng)
        for _ in range(rng.randrange(30)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        before = str(state)
        sampled = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0., 1.))
        assert str(state) == before
        assert sampled.information_state_string(player) == state.information_state_string(player)
        assert sampled.legal_actions() == state.legal_actions()
        assert sampled.history() == state.history()
        others = [s for s in range(3) if s != player]
        moved += any(sampled.uno_game.hand(s) != state.uno_game.hand(s) for s in others)
    assert moved >= 5




def test_an_action_outside_legal_actions_is_refused_and_changes_nothing() -> None:
    """A pass not offered (it was appended to the window's passes), a negative id (read from
    the table's end), an id past the table (an IndexError), another seat's action taken in a
    window: each raises IllegalAction and the state is as it was."""
    game = _load("classic", 4, house="jump_in", deals=100, max_actions=600)
    table = uno_rules.load_rulebook("classic", house=["jump_in"]).action_table(4)
    rng = random.Random(7)
    tried = windows = 0
    for _ in range(2):
        state = _dealt(game, rng)
        while not state.is_terminal():
            legal = state.legal_actions()
            player = state.current_player()
            bad = [a for a in range(len(table)) if a not in legal]
            probes = [-2, -len(table), len(table) + 10**6] + rng.sample(bad, 3)
            if not state.is_chance_node() and player != state.uno_game.decision.seat:
                windows += 1  # the decider's options are not the window's seat's
                probes += list(state.uno_game.legal_ids())
            before = (state.history(), state.current_player())
            whole = state.serialize()
            for action in probes:
                with pytest.raises(uno_rules.IllegalAction):
                    state.apply_action(action)
                assert (state.history(), state.current_player()) == before
                tried += 1
            # The whole state once after the step's probes, not after each: serialize() is
            # as long as the round, and a refused probe that changed anything would leave
            # it changed for the ones after it (nothing puts it back).
            assert state.serialize() == whole
            state.apply_action(rng.choice(legal))
    assert tried > 250 and windows > 3


class _Boom:
    """Unpickling this creates the folder ``path``: code that must never run."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        import os
        return (os.mkdir, (self.path,))


def _window_state(game: Any) -> Any:
    """A dealt state some actions in, with passes in an out-of-turn window."""
    rng = random.Random(4)
    for _ in range(50):
        state = _dealt(game, rng)
        while not state.is_terminal() and not (state.passed and len(state.uno_game.history) > 2):
            legal = state.legal_actions()
            passes = [a for a in legal if state.action_to_string(a).endswith(" pass")]
            state.apply_action(passes[0] if passes else rng.choice(legal))
        if state.passed:
            return state
    raise AssertionError("no window with a pass in 50 rounds")


def test_a_serialized_state_round_trips_as_checked_json() -> None:
    """state.serialize() is JSON of plain data (OpenSpiel's history, the window's passes,
    the round's snapshot); deserialize_state gives the same state back, before the deal,
    in a window and at the end."""
    import json

    game = _load("classic", 4, house="jump_in", deals=20)
    states = [game.new_initial_state(), _window_state(game)]
    end = states[1].clone()
    while not end.is_terminal():
        end.apply_action(end.legal_actions()[0])
    for state in [*states, end]:
        text = state.serialize()
        fields = json.loads(text)
        assert fields["format"] == uno_rules.rl.openspiel.FORMAT
        again = game.deserialize_state(text)
        assert (str(again), again.history(), again.move_number(), again.passed,
                again.current_player(), again.serialize()) == \
            (str(state), state.history(), state.move_number(), state.passed,
             state.current_player(), text)
    assert states[1].passed and json.loads(states[1].serialize())["passed"]


def _tampered(text: str, spec: Any) -> list[tuple[str, str, str]]:
    """(what, tampered text, the message's field) for a state's serialized text (of a game
    of ``spec``: a dropped action is one the round took, not a pass, which it doesn't hold)."""
    import json

    fields = json.loads(text)

    def edit(**changes: Any) -> str:
        return json.dumps({**fields, **changes})
    history, snapshot = fields["history"], fields["round"]
    passes, memory = fields["passed"], fields["memory"]
    assert passes and memory[-1] == [len(snapshot["history"]), passes[-1]]  # a pass last
    # the last action the round took (not a pass, nor a keep: the adapter's own may be)
    taken = max(i for i, (p, a) in enumerate(history) if p >= 0 and i < len(history) - 1
                and spec.table[spec.table_id(p, a)].kind not in ("pass", "keep"))
    hands = [list(h) for h in snapshot["hands"]]
    hands[0].append(hands[1][0])  # a card twice
    return [
        ("not JSON", "history=\nmove_number=0\n__dict__=", "not the JSON"),
        ("a list", "[]", "format"), ("another format", edit(format="x"), "format"),
        ("a field more", edit(extra=1), "fields"),
        ("a field less", json.dumps({k: v for k, v in fields.items() if k != "passed"}),
         "fields"),
        ("deeply nested", "[" * 100_000 + "]" * 100_000, "not the JSON"),
        ("a huge number", text.replace('"passed":[', '"passed":[' + "9" * 5000 + ",", 1),
         "not the JSON"),
        ("history not a list", edit(history={}), "history"),
        ("a history too long", edit(history=history + [history[-1]] * 200_000), "history:"),
        ("a deal out of range", edit(history=[[-1, 0], *history[1:]]), "history[0]"),
        ("an action by seat 9", edit(history=[*history[:-1], [9, history[-1][1]]]),
         "history["),
        ("a player as a boolean", edit(history=[*history[:-1], [True, history[-1][1]]]),
         "history["),
        ("an action dropped", edit(history=history[:taken] + history[taken + 1:]), "round:"),
        ("a seat passed twice", edit(passed=[fields["passed"][0]] * 2), "passed"),
        # The window's passes are the history's trailing ones, and the memory's passes
        # the history's: else another seat would move in the state read back.
        ("the window's passes forgotten", edit(passed=[]), "passed"),
        ("the last pass cut from the history", edit(history=history[:-1]), "passed"),
        ("the passes cut from the end", edit(history=history[:-1], passed=passes[:-1]),
         "memory"),
        ("a pass left out of the memory", edit(memory=memory[:-1]), "memory"),
        ("another seat's pass in the memory",
         edit(memory=[*memory[:-1], [memory[-1][0], (memory[-1][1] + 1) % 4]]), "memory"),
        ("a pass by seat 7", edit(passed=[7]), "passed"),
        ("no round after the deal", edit(round=None), "round:"),
        ("a card twice", edit(round={**snapshot, "hands": hands}), "round:"),
        ("a round of 3 players", edit(round={**snapshot, "players": 3}), "round:"),
        ("a round before the deal", edit(history=[], passed=[]), "round:"),
    ]


def test_a_tampered_serialized_state_is_refused_and_runs_no_code(tmp_path: Any) -> None:
    """deserialize_state reads its JSON field by field and unpickles nothing: OpenSpiel's
    own format with a pickle that would run code, or any field changed, raises
    SnapshotError naming the field, and no code runs."""
    import base64
    import pickle

    game = _load("classic", 4, house="jump_in", deals=20)
    state = _window_state(game)
    marker = tmp_path / "ran"
    evil = base64.b64encode(pickle.dumps({"_round": _Boom(str(marker))})).decode()
    cases = [("OpenSpiel's format, a pickle running code",
              f"history=\nmove_number=0\n__dict__={evil}", "not the JSON"),
             ("OpenSpiel's own serialization", pyspiel.serialize_game_and_state(game, state),
              "not the JSON"),
             ("bytes", b"{}", "expected text")]
    def refused(what: str, text: Any, field: str) -> None:
        try:
            game.deserialize_state(text)
        except uno_rules.SnapshotError as exc:
            message = str(exc)
        else:
            message = "accepted"
        assert not marker.exists(), what  # first: the code didn't run
        assert message.startswith("serialized state: ") and field in message, (what, message)
        assert "\n" not in message and len(message) < 400, what
    for case in cases:
        refused(*case)
    for case in _tampered(state.serialize(), game):
        refused(*case)


def test_rulebook_settings_and_options_are_a_game_parameter() -> None:
    text = "draw_with_playable:false; hand_size:5;wd4_holds_no:match"
    game = _load("classic", 2, settings=text, deals=4)
    rulebook = uno_rules.load_rulebook(
        "classic", settings={"draw_with_playable": "false", "hand_size": "5",
                             "wd4_holds_no": "match"})
    assert game.rulebook == rulebook  # the setting and the option both applied
    state = _dealt(game, random.Random(1))
    assert [len(state.uno_game.hand(s)) for s in range(2)] == [5, 5]
    # the game's string reads back (OpenSpiel's own serialization goes through it)
    again, copy = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    assert again.rulebook == rulebook and copy.uno_game.snapshot() == state.uno_game.snapshot()
    assert _load("classic", 2, settings="").rulebook == uno_rules.load_rulebook("classic")
    refusals = {"draw_with_playabl:false": "unknown setting 'draw_with_playabl'; did you mean "
                                           "'draw_with_playable'",
                "hand_size:x": "hand_size=x: expected integer",
                "hand_size=5": "'hand_size=5' is not NAME:VALUE",
                "hand_size:": "'hand_size:' is not NAME:VALUE"}
    for bad, message in refusals.items():
        with pytest.raises(ValueError, match="uno_rules game parameter settings") as caught:
            _load("classic", 2, settings=bad)
        assert message in str(caught.value) and "\n" not in str(caught.value)


def test_whether_anothers_drawn_card_was_playable_is_not_in_its_view() -> None:
    """Two worlds seat 1 can't tell apart: seat 0's draw pile topped by a playable card or
    by an unplayable one. Seat 0 is asked about its card either way (keep the only option
    of the unplayable one): the OpenSpiel histories are the same, and both while seat 0
    decides and at seat 1's turn, who moves and seat 1's information state, observation
    and tensors are the same; seat 0's differ."""
    game = _load("classic", 2, seed=3, deals=1)
    dealt = _dealt(game, random.Random(0))
    text = json.loads(dealt.serialize())
    asked, worlds = [], []
    for card in ("yellow 5", "red 4"):  # playable on yellow 9, not playable
        pile = text["round"]["draw_pile"]
        i = pile.index(card)
        pile[i], pile[-1] = pile[-1], pile[i]  # the card on top: the next drawn
        state = game.deserialize_state(json.dumps(text))
        table = game.table
        state.apply_action(next(a for a in state.legal_actions() if table[a].kind == "draw"))
        assert state.uno_game.decision.kind == "drawn" and state.current_player() == 0
        assert [str(table[a]) for a in state.legal_actions()] == \
            (["0 play yellow 5", "0 keep"] if card == "yellow 5" else ["0 keep"])
        asked.append(state.clone())
        state.apply_action(next(a for a in state.legal_actions() if table[a].kind == "keep"))
        assert state.current_player() == 1
        worlds.append(state)
    observer = Observer(game.rulebook, 2)  # PettingZoo's observation
    for one, two in (asked, worlds):
        assert one.history() == two.history()  # the same moves, keep included
        assert one.current_player() == two.current_player()
        assert one.information_state_string(1) == two.information_state_string(1)
        assert one.information_state_tensor(1) == two.information_state_tensor(1)
        assert one.observation_string(1) == two.observation_string(1)
        assert one.observation_tensor(1) == two.observation_tensor(1)
        assert (observer.array(one.uno_game, 1) == observer.array(two.uno_game, 1)).all()
        assert one.information_state_string(0) != two.information_state_string(0)


def test_shared_actions_give_every_seat_the_same_ids() -> None:
    shared = _load("classic", 3, house="jump_in", shared_actions=True, deals=4,
                   max_actions=300)
    plain = _load("classic", 3, house="jump_in", deals=4, max_actions=300)
    space = shared.shared
    assert space is not None and plain.shared is None
    assert shared.num_distinct_actions() == len(space) < plain.num_distinct_actions()
    pyspiel.random_sim_test(shared, num_sims=2, serialize=True, verbose=False)
    rng = random.Random(3)
    for deal in range(2):  # the same round in both: each legal id mapped, the same choices
        a, b = plain.new_initial_state(), shared.new_initial_state()
        for state in (a, b):
            state.apply_action(len(plain.table) + deal)
        while not a.is_terminal():
            player = a.current_player()
            if player < 0:
                action = rng.choice(a.legal_actions())
                assert b.legal_actions() == a.legal_actions()  # chance: the table's ids
                a.apply_action(action)
                b.apply_action(action)
                continue
            legal = a.legal_actions()
            mapped = [space.shared_id[player][i] for i in legal]
            assert b.current_player() == player and b.legal_actions() == sorted(mapped)
            pick = rng.randrange(len(legal))
            assert a.action_to_string(legal[pick]) == b.action_to_string(mapped[pick])
            a.apply_action(legal[pick])
            b.apply_action(mapped[pick])
            if len(a.history()) % 40 == 0 or b.is_terminal():  # a round stopped by its budget too
                again = shared.deserialize_state(b.serialize())
                assert again.history() == b.history() and str(again) == str(b)
                assert again.is_terminal() == b.is_terminal() and again.returns() == b.returns()
        assert a.uno_game.history == b.uno_game.history and a.returns() == b.returns()
    state = _dealt(shared, rng)
    before = state.serialize()
    for bad in (-2, len(space)):
        with pytest.raises(uno_rules.IllegalAction, match="not in the action space"):
            state.apply_action(bad)
    assert state.serialize() == before


def test_a_round_stopped_by_its_budget_serializes_and_comes_back() -> None:
    """A terminal state whose round the action budget stopped: deserialized, it is that
    terminal state again (its round's snapshot says how it stopped), returns and all."""
    game = _load("classic", 3, deals=4, max_actions=5)
    rng = random.Random(7)
    state = _dealt(game, rng)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.uno_game.stalled == "actions" and state.returns() == [0.0] * 3
    text = state.serialize()
    again = game.deserialize_state(text)
    assert again.is_terminal() and again.returns() == state.returns()
    assert again.history() == state.history() and str(again) == str(state)
    assert again.uno_game.stalled_reason() == state.uno_game.stalled_reason()
    assert again.serialize() == text
    assert pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))[1].is_terminal()
