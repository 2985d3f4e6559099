"""Agents (uno_rules/play/agents.py): what an agent is shown, the built-ins, --agents."""

from __future__ import annotations

import dataclasses
import functools
import gc
import json
import random
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import uno_rules
from uno_rules.cli import cli
from uno_rules.engine.game import Game
from uno_rules.play.agents import (
    AGENTS,
    Agent,
    AgentError,
    Greedy,
    Observation,
    load_agent,
    parse_agents,
    play_agents,
    play_agents_on,
)
from uno_rules.sim.simulate import simulate
from uno_rules.sim.stats import wilson

HERE = Path(__file__).resolve().parent
HOSTILE = HERE / "hostile" / "agents"
CLASSIC = uno_rules.load_rulebook("classic")
runner = CliRunner()


def test_wilson_matches_a_known_interval() -> None:
    low, high = wilson(81, 263)  # Wilson's interval of 81/263: 0.2553 to 0.3662
    assert round(low, 4) == 0.2553 and round(high, 4) == 0.3662


# ------------------------------------------------------------------ what an agent sees
class Recorder:
    """Keeps every observation it is given, and plays the first option."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng
        self.seen: list[Observation] = []

    def choose(self, obs: Observation) -> int | None:
        self.seen.append(obs)
        return obs.ids[0]


def _reachable(roots: list[Any]) -> list[Any]:
    """Every object reachable from ``roots`` through attributes and ``gc.get_referents``
    (what an attribute walk or a gc trick on them can reach), not entering modules, classes,
    functions or code: those are shared program text, not data the agent was given."""
    seen: dict[int, Any] = {}
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (types.ModuleType, type, types.FunctionType,
                                               types.CodeType, types.BuiltinFunctionType)):
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return list(seen.values())


def test_what_an_agent_is_given_holds_no_game_and_no_other_hand() -> None:
    """Everything reachable from the observations and from the agent itself (its RNG
    included) holds no Game and none of the game's hand lists; the only hand in it, as
    card names, is the agent's own."""
    made: list[Recorder] = []

    def make(seat: int, rng: random.Random) -> Recorder:
        made.append(Recorder(seat, rng))
        return made[-1]

    game = play_agents(CLASSIC, 4, 3, [("recorder", make)] * 4, max_actions=40)
    agent = made[0]
    assert agent.seen, "seat 0 was never asked"
    reached = _reachable([agent])
    assert not any(isinstance(o, Game) for o in reached)
    hands = {id(h) for h in game.hands} | {id(game.draw_pile), id(game.history)}
    assert not hands & {id(o) for o in reached}
    # As names: the card lists it was given are its own hand (and the table, the deck and
    # the card list, which every seat knows); no other seat's hand, as a sorted list.
    others = [sorted(game.faces[c].name for c in game.hands[s]) for s in (1, 2, 3)]
    lists = [o for o in reached if isinstance(o, list) and o and
             all(isinstance(x, str) for x in o)]
    for other in others:
        assert other not in lists
    for obs in agent.seen:
        assert set(obs.view) >= {"hand", "hand_sizes"} and obs.seat == 0


def test_an_observation_holds_the_seat_view_and_makes_its_dict_when_read() -> None:
    """The observation carries the seat's record; ``view`` is made from it on first reading,
    equal to ``game.view(seat)``, then the same dict."""
    from uno_rules.play.agents import observation

    game = CLASSIC.new_game(2, 5)
    obs = observation(game, 0, game.legal_ids(0), "turn", 0)
    assert obs.seat_view == game.seat_view(0) and obs._view is None
    assert obs.view == game.view(0) and obs.view is obs.view
    other = dataclasses.replace(obs, seat_view=game.seat_view(1))
    assert other.view == game.view(1)  # made from the record it holds, not copied along
    with pytest.raises(ValueError, match="without its rulebook"):
        _ = dataclasses.replace(obs, rulebook=None).view


def test_an_observation_is_frozen_and_a_copy() -> None:
    """Writing to an observation fails; changing its view's lists changes no game."""
    game = CLASSIC.new_game(2, 5, log=False)
    before = game.snapshot()

    class Vandal(Recorder):
        def choose(self, obs: Observation) -> int | None:
            with pytest.raises(dataclasses.FrozenInstanceError):
                obs.seat = 1  # type: ignore[misc]
            obs.view["hand"].clear()
            obs.view["hand_sizes"][1] = 0
            with pytest.raises(TypeError):
                obs.cards["red 5"] = obs.cards["red 6"]  # type: ignore[index]
            return super().choose(obs)

    play_agents(CLASSIC, 2, 5, [("vandal", Vandal)] * 2, max_actions=1)
    assert game.snapshot() == before  # the same deal, untouched by the vandal
    assert CLASSIC.new_game(2, 5, log=False).snapshot() == before


def test_the_limit_in_process_code_can_find_the_game_by_gc() -> None:
    """What is NOT guaranteed (docs/agents.md says so): an agent runs in our process, and
    gc.get_objects() or the call stack reaches the game. The protocol hands it none; it is
    not a sandbox."""
    found: list[bool] = []

    class Snoop(Recorder):
        def choose(self, obs: Observation) -> int | None:
            found.append(any(isinstance(o, Game) for o in gc.get_objects()))
            return super().choose(obs)

    play_agents(CLASSIC, 2, 1, [("snoop", Snoop)] * 2, max_actions=1)
    assert found == [True]


def test_events_are_the_public_actions_since_the_last_observation() -> None:
    made: list[Recorder] = []

    def make(seat: int, rng: random.Random) -> Recorder:
        made.append(Recorder(seat, rng))
        return made[-1]

    game = play_agents(CLASSIC, 2, 9, [("recorder", make)] * 2, max_actions=30)
    for agent in made:
        seen = [a for obs in agent.seen for a in obs.events]
        upto = len(seen)
        assert seen == game.history[:upto]  # in order, none twice, none missed
        assert all(obs.kind is not None or obs.optional for obs in agent.seen)


def test_a_contest_is_drawn_by_the_table_never_asked_of_an_agent() -> None:
    """Ted Lasso's contests are chance nodes: no agent is asked for a loser (the round's
    table RNG draws it, and the same seed draws the same losers)."""
    rulebook = uno_rules.load_rulebook("ted_lasso")
    losers = []
    made: list[Recorder] = []

    def make(seat: int, rng: random.Random) -> Recorder:
        made.append(Recorder(seat, rng))
        return made[-1]

    for seed in range(12):
        game = play_agents(rulebook, 4, seed, [("recorder", make)] * 4, max_actions=400)
        again = play_agents(rulebook, 4, seed, [("recorder", Recorder)] * 4, max_actions=400)
        assert again.history == game.history
        losers += [a for a in game.history if a.kind == "loser"]
        assert all(obs.kind != "contest" and all(a.kind != "loser" for a in obs.options)
                   for agent in made for obs in agent.seen)
    assert len({a.arg for a in losers}) > 1  # drawn, not always the first option


# ------------------------------------------------------------------ the built-ins
def _greedy_share(rulebook: uno_rules.Rulebook, players: int, opponent: str,
                  games: int) -> tuple[int, int]:
    """Greedy's wins in ``games`` rounds against ``opponent`` at every other seat, its seat
    moving round by round (so no seat's advantage counts for or against it)."""
    wins = 0
    for g in range(games):
        seat = g % players
        seats = [(opponent, AGENTS[opponent])] * players
        seats[seat] = ("greedy", AGENTS["greedy"])
        game = play_agents(rulebook, players, 1000 + g, seats)
        assert game.result is not None, "a round stalled"
        wins += seat in game.result.winners
    return wins, games


@pytest.mark.parametrize("players,opponent,games", [
    (2, "uniform", 60), (4, "uniform", 60), (2, "play_first", 150), (4, "play_first", 200)])
def test_greedy_beats_the_random_players(players: int, opponent: str, games: int) -> None:
    """The 95% Wilson interval of greedy's win rate lies above the fair share 1/players
    (fixed seeds: this is a check that the heuristics help, not a benchmark)."""
    wins, n = _greedy_share(CLASSIC, players, opponent, games)
    low, _ = wilson(wins, n)
    assert low > 1 / players, (wins, n, low)


def _obs(hand: list[str], options: list[str], kind: str | None = "turn",
         events: tuple[str, ...] = (), color: str = "red",
         sizes: tuple[int, ...] = (3, 7)) -> Observation:
    table = CLASSIC.action_table(2)
    actions = tuple(uno_rules.Action.parse(o) for o in options)
    from uno_rules.play.agents import _public

    cards, deck = _public(CLASSIC)
    face = {f.name: f.id for f in CLASSIC.faces}
    record = CLASSIC.new_game(2, 0).seat_view(0)._replace(
        hand=tuple(face[name] for name in hand), hand_sizes=sizes,
        colors=(CLASSIC.colors.index(color),))
    return Observation(0, 2, record, kind, kind is None, tuple(table.index(a) for a in actions),
                       actions, tuple(uno_rules.Action.parse(e) for e in events), cards,
                       CLASSIC.colors, deck, table, rulebook=CLASSIC)


def _choice(agent: Greedy, obs: Observation) -> str:
    choice = agent.choose(obs)
    return "pass" if choice is None else str(obs.table[choice])


def test_greedy_sheds_points_keeps_wilds_calls_uno_and_names_its_colour() -> None:
    g = Greedy(0, random.Random(0))
    hand = ["red 2", "red skip", "wild", "blue 3"]
    assert _choice(g, _obs(hand, ["0 play red 2", "0 play red skip", "0 play wild",
                                  "0 draw"])) == "0 play red skip"
    assert _choice(g, _obs(["wild", "green 4"], ["0 play wild", "0 play wild uno",
                                                 "0 draw"])) == "0 play wild uno"
    assert _choice(g, _obs(["red 2", "red 9", "blue 3"], ["0 play red 9", "0 play red 9 uno",
                                                          "0 play red 2"])) \
        == "0 play red 9 uno"
    colors = ["0 color red", "0 color yellow", "0 color green", "0 color blue"]
    assert _choice(g, _obs(["blue 1", "blue 7", "red 3"], colors, kind="color")) \
        == "0 color blue"
    assert _choice(g, _obs(["blue 1"], ["0 catch 1"], kind=None)) == "0 catch 1"


def test_greedy_challenges_when_the_player_likely_held_the_colour() -> None:
    """Seat 1 played a wild draw four on red: with 7 cards left it very likely held a red
    one (challenge); with 1 card left, unlikely (accept)."""
    events = ("1 play red 5", "1 play wild_draw_four", "1 color blue")
    options = ["0 challenge", "0 accept"]
    g = Greedy(0, random.Random(0))
    assert _choice(g, _obs(["green 1"], options, "challenge", events, "blue", (1, 7))) \
        == "0 challenge"
    g = Greedy(0, random.Random(0))
    assert _choice(g, _obs(["green 1"], options, "challenge", events, "blue", (1, 1))) \
        == "0 accept"


def test_greedy_is_generic_every_shipped_rulebook_finishes() -> None:
    for name in ("classic", "flip", "no_mercy", "pokemon", "teams", "ted_lasso", "dos"):
        rb = uno_rules.load_rulebook(name)
        players = 4
        game = play_agents(rb, players, 2, [("greedy", AGENTS["greedy"])] * players)
        assert game.result is not None, name


def test_greedy_and_lookahead_play_combos() -> None:
    """Several cards in one play (Triple Play's Discard 2 pair, a pairs house rule): the
    agents read a combo's cards (its top card, the points it sheds) and play combos."""
    for ref in ("triple_play", str(HERE / "rulebooks" / "positive" / "pairs.yaml")):
        rb = uno_rules.load_rulebook(ref)
        combos = 0
        for seed in range(3):
            game = play_agents(rb, 3, seed, [("greedy", AGENTS["greedy"]),
                                             ("lookahead", AGENTS["lookahead"]),
                                             ("greedy", AGENTS["greedy"])])
            assert game.result is not None, ref
            combos += sum(" + " in str(a.arg) for a in game.history if a.kind == "play")
        assert combos, ref


# ------------------------------------------------------------------ simulate and --agents
def test_builtins_are_agents() -> None:
    for cls in AGENTS.values():
        assert isinstance(cls(0, random.Random(0)), Agent)


def test_default_simulate_is_mains_byte_for_byte() -> None:
    """Without --agents, simulate prints exactly what main (46d8849) printed, less timing
    (tests/golden/agents/simulate_main.json was made by main's code), in the keys it had:
    the statistics added since (docs/simulation.md) come on top. The No Mercy entry was
    made again when knocked-out seats stopped being offered catches, and when a 7 or 0
    that leaves its player one card could be played calling UNO (rules fixes)."""
    golden = json.loads((HERE / "golden" / "agents" / "simulate_main.json").read_text())
    for args, expected in golden.items():
        result = runner.invoke(cli, ["simulate", *args.split(), "--json"])
        assert result.exit_code == 0, result.output
        out = json.loads(result.output)
        out.pop("timing")
        out = {key: value for key, value in out.items() if key in expected}
        assert json.dumps(out, indent=2) == json.dumps(expected, indent=2), args


def test_simulate_json_says_who_sat_where_and_is_deterministic() -> None:
    args = ["simulate", "classic", "--games", "30", "--agents",
            "greedy,uniform,play_first,uniform", "--json"]
    outs = []
    for _ in range(2):
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, result.output
        out = json.loads(result.output)
        out.pop("timing")
        outs.append(out)
    assert outs[0] == outs[1]
    assert outs[0]["agents"] == ["greedy", "uniform", "play_first", "uniform"]
    assert outs[0]["policy"] is None and sum(outs[0]["wins_by_seat"]) == 30
    other = simulate(CLASSIC, 30, 4, 1, agents=parse_agents("greedy,uniform,play_first,"
                                                            "uniform", 4)).to_json()
    assert other["turns"] != outs[0]["turns"]  # another seed, other rounds
    text = runner.invoke(cli, ["simulate", "classic", "--games", "5", "--agents", "greedy"])
    assert "agents by seat: greedy, greedy, greedy, greedy" in text.output


def test_parse_agents() -> None:
    assert [n for n, _ in parse_agents("greedy", 3)] == ["greedy"] * 3
    assert [c for _, c in parse_agents(" greedy , uniform ", 2)] == [AGENTS["greedy"],
                                                                     AGENTS["uniform"]]
    with pytest.raises(AgentError, match=r"^--agents: 3 names for 4 players"):
        parse_agents("greedy,uniform,uniform", 4)
    with pytest.raises(AgentError, match=r"^--agents: name 2 of 3 is empty"):
        parse_agents("greedy,,uniform", 3)
    with pytest.raises(AgentError, match=r"^unknown agent 'clever': one of uniform, "):
        parse_agents("clever", 2)


@pytest.fixture
def in_hostile(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from tests/hostile/agents/, sys.path and sys.modules restored after."""
    monkeypatch.chdir(HOSTILE)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".")])
    monkeypatch.setattr(sys, "modules", dict(sys.modules))


@pytest.mark.usefixtures("in_hostile")
@pytest.mark.parametrize("name,message", [
    ("bad_import:A", "agent 'bad_import:A': can't import 'bad_import': RuntimeError: boom"),
    ("exits_on_import:A", "agent 'exits_on_import:A': can't import 'exits_on_import': "
                          "SystemExit: 5"),
    ("no_such_module_here:A", "agent 'no_such_module_here:A': can't import "
                              "'no_such_module_here': ModuleNotFoundError: No module named "
                              "'no_such_module_here'"),
    ("cheats:Missing", "agent 'cheats:Missing': module 'cheats' has no 'Missing'"),
    ("cheats:NotAnAgent", "agent 'cheats:NotAnAgent': 'NotAnAgent' is not an agent (a class "
                          "with a choose(observation) method)"),
    ("cheats:VALUE", "agent 'cheats:VALUE': 'VALUE' is not an agent"),
    ("cheats:Illegal", "agent 'cheats:Illegal' at seat 0 chose 1000000000: not one of its "
                       "options"),
    ("cheats:Passes", "agent 'cheats:Passes' at seat 0 chose None: not one of its options"),
    ("cheats:Raises", "agent 'cheats:Raises' at seat 0 failed: ValueError: no idea what to "
                      "do"),
    ("cheats:Exits", "agent 'cheats:Exits' at seat 0 failed: SystemExit: 0"),
    ("cheats:NoArgs", "agent 'cheats:NoArgs' at seat 0: can't be made: TypeError:"),
    (":A", "agent ':A': expected MODULE:CLASS"),
])
def test_bad_agents_fail_in_one_line(name: str, message: str) -> None:
    result = runner.invoke(cli, ["simulate", "classic", "--players", "2", "--games", "3",
                                 "--agents", name])
    assert result.exit_code == 1, result.output
    assert result.output.startswith(message), result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output


def test_wrong_count_and_unknown_name_exit_1() -> None:
    for agents, message in [("greedy,uniform", "--agents: 2 names for 4 players"),
                            ("greedy,nobody,uniform,uniform", "unknown agent 'nobody'")]:
        result = runner.invoke(cli, ["simulate", "classic", "--agents", agents])
        assert result.exit_code == 1 and result.output.startswith(message), result.output


def test_own_agent_from_the_current_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    """The example agent, named MODULE:CLASS from its folder, plays through the CLI."""
    monkeypatch.chdir(HERE.parent / "examples")
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".")])
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    result = runner.invoke(cli, ["simulate", "classic", "--players", "2", "--games", "20",
                                 "--agents", "my_agent:LowFirst,greedy", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["agents"] == ["my_agent:LowFirst", "greedy"] and sum(out["wins_by_seat"]) == 20
    assert load_agent("my_agent:LowFirst").__name__ == "LowFirst"


def test_the_example_and_the_doc_agent_run(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """examples/my_agent.py runs as shown, and docs/agents.md's agent is the example's."""
    import re
    import runpy

    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    runpy.run_path(str(HERE.parent / "examples" / "my_agent.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert re.search(r"Result\(winners=\(\d,\), points=\d+\)", out)
    assert "['my_agent:LowFirst', 'greedy']" in out
    [block] = re.findall(r"```python\n(.*?)```", (HERE.parent / "docs" / "agents.md")
                         .read_text(), re.S)
    scope: dict[str, Any] = {}
    exec(compile(block, "docs/agents.md", "exec"), scope)  # noqa: S102 - our own docs
    seats = [("doc", scope["LowFirst"]), ("greedy", AGENTS["greedy"])]
    assert play_agents(CLASSIC, 2, 3, seats).result is not None


def test_hostile_agents_arguments_fail_in_one_short_line() -> None:
    """bench/hostile_cases/agents.py's long --agents values: one line, the value cut."""
    for agents, start in [("greedy," * 15_000, "--agents: name 15001 of 15001 is empty"),
                          ("g" * 100_000, "unknown agent 'ggg")]:
        result = runner.invoke(cli, ["simulate", "classic", "--agents", agents])
        assert result.exit_code == 1 and result.output.startswith(start), result.output[:300]
        assert result.output.count("\n") == 1 and len(result.output) < 400


def test_each_seat_has_its_own_rng_and_a_round_replays() -> None:
    made: list[Recorder] = []

    def make(seat: int, rng: random.Random) -> Recorder:
        made.append(Recorder(seat, rng))
        return made[-1]

    seats = [("uniform", AGENTS["uniform"])] * 3 + [("recorder", make)]
    play_agents(CLASSIC, 4, 11, [("recorder", make)] * 4, max_actions=1)
    rngs = [a.rng for a in made]
    assert len({id(r) for r in rngs}) == 4
    assert len({r.random() for r in rngs}) == 4  # seeded apart
    first = play_agents(CLASSIC, 4, 11, seats)
    again = play_agents(CLASSIC, 4, 11, seats)
    assert first.history == again.history and first.result == again.result
    other = play_agents(CLASSIC, 4, 12, seats)
    assert other.history != first.history


# ------------------------------------------------------------------ lookahead
def test_lookahead_searches_only_through_determinize() -> None:
    """Lookahead resamples through the observation's determinize (never the live game): each
    game it gets is a new one; without determinize it decides as greedy does."""
    from uno_rules.play.agents import Greedy, Lookahead, observation

    game = CLASSIC.new_game(2, 11)
    while game.pending is None or len(game.legal_ids()) < 2:
        game.step(game.legal_ids()[0])
    seat = game.pending.seat
    assert seat is not None
    obs = observation(game, seat, game.legal_ids(seat), game.pending.kind, 0)
    before = game.snapshot()
    got: list[Game] = []
    determinize = obs.determinize
    assert determinize is not None

    def spy(rng: random.Random) -> Game:
        got.append(determinize(rng))
        return got[-1]

    agent = Lookahead(seat, random.Random(1))
    choice = agent.choose(dataclasses.replace(obs, determinize=spy))
    assert choice in obs.ids and len(got) == Lookahead.ROLLOUTS
    assert all(g is not game for g in got) and game.snapshot() == before
    assert all(g.view(seat) == game.view(seat) for g in got)
    plain = dataclasses.replace(obs, determinize=None)
    assert Lookahead(seat, random.Random(1)).choose(plain) == \
        Greedy(seat, random.Random(1)).choose(plain)


def test_lookahead_finishes_rounds_of_every_shipped_rulebook() -> None:
    for name in ("classic", "flip", "no_mercy", "pokemon", "teams", "ted_lasso", "dos"):
        rb = uno_rules.load_rulebook(name)
        players = 4
        seats = [("lookahead", AGENTS["lookahead"])] + [("greedy", AGENTS["greedy"])] * 3
        game = play_agents(rb, players, 3, seats)
        assert game.result is not None, name


def test_lookahead_thinks_within_its_budget_of_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision's work is bounded by ``Lookahead.WORK`` whatever the rulebook: in one of
    9,000 cards whose every card makes the next player draw 20 (hands of thousands, a
    rollout's action reading one), the deck's cards handled per resample and per clone,
    plus 1 + the acting hand's cards per action a rollout takes, plus the effect steps, stay
    within it (each decision took seconds, 32 rollouts of 400 actions an option); counted,
    not timed, so the same seed makes the same choice."""
    from uno_rules.play.agents import Lookahead, observation

    fat = uno_rules.load_rulebook(Path(__file__).parent / "hostile" / "exits" /
                                  "fat_hands.yaml")
    cards = len(fat.deck)
    game = fat.new_game(2, 3)
    for _ in range(40):  # hands grow to hundreds of cards
        game.step(game.legal_ids()[0])
    while game.pending is None or len(game.legal_ids()) < 2:
        game.step(game.legal_ids()[0])
    seat = game.pending.seat
    assert seat is not None and len(game.hands[1 - seat]) > 200
    obs = observation(game, seat, game.legal_ids(seat), game.pending.kind, 0)
    work = 0
    legal_ids, clone, resample = Game.legal_ids, Game.clone, Game.resample

    def counted_legal_ids(self: Game, *args: Any) -> tuple[int, ...]:
        nonlocal work
        ids = legal_ids(self, *args)
        actor = obs.table[ids[0]].seat
        work += 1 + len(self.hands[actor if actor is not None else 0])
        return ids

    def counted_clone(self: Game) -> Game:
        nonlocal work
        work += cards
        return clone(self)

    def counted_resample(self: Game, *args: Any) -> Game:
        nonlocal work
        work += cards
        return resample(self, *args)

    def choice() -> int | None:
        nonlocal work
        work = 0
        with monkeypatch.context() as m:
            m.setattr(Game, "legal_ids", counted_legal_ids)
            m.setattr(Game, "clone", counted_clone)
            m.setattr(Game, "resample", counted_resample)
            return Lookahead(seat, random.Random(7)).choose(obs)
    first = choice()
    # (a rollout stops after the action that went over: a hand's worth more at most)
    assert 0 < work <= Lookahead.WORK * 1.05, work
    assert choice() == first


def test_lookahead_hostile_cases() -> None:
    """bench/hostile_cases/determinize.py (timed there in fresh processes): lookahead plays
    from the command line; a misspelt name next to it is refused in one line."""
    from conftest import load_cases

    for name, args, code in load_cases("determinize").cases(Path(".")):
        result = runner.invoke(cli, args)
        assert result.exit_code == code, (name, result.output)
        if code == 1:
            assert "unknown agent 'lookahed'" in result.output, result.output


def _two_player_turn(seed: int) -> tuple[Game, int]:
    """A classic 2-player game at a decision with two options or more, and its seat."""
    game = CLASSIC.new_game(2, seed)
    while game.pending is None or len(game.legal_ids()) < 2:
        game.step(game.legal_ids()[0])
    seat = game.pending.seat
    assert seat is not None
    return game, seat


def test_lookahead_choice_depends_only_on_the_determinization() -> None:
    """Two games that look the same from the seat (the second one the first with the
    hidden cards dealt again) get the same choice from the same determinize: the agent
    reads nothing hidden anywhere else; a different determinize may change it."""
    from uno_rules.play.agents import Lookahead, observation

    for seed in range(6):
        game, seat = _two_player_turn(seed)
        twin = game.resample(seat, random.Random(seed))
        assert twin.hands[1 - seat] != game.hands[1 - seat]
        obs = observation(game, seat, game.legal_ids(seat), game.pending.kind, 0)
        other = observation(twin, seat, twin.legal_ids(seat), twin.pending.kind, 0)
        assert obs.view == other.view and obs.ids == other.ids
        det = obs.determinize
        assert det is not None
        small = type("Small", (Lookahead,), {"ROLLOUTS": 6})
        first = small(seat, random.Random(5)).choose(obs)
        again = small(seat, random.Random(5)).choose(dataclasses.replace(other, determinize=det))
        assert first == again
        # the live game's hidden cards changed after the observation was made: a
        # determinize of a copy taken before gives the same choice
        frozen = game.clone()
        game.hands[1 - seat][:] = twin.hands[1 - seat]
        same = dataclasses.replace(obs, determinize=functools.partial(frozen.resample, seat))
        assert small(seat, random.Random(5)).choose(same) == first


def test_lookahead_follows_what_a_greedy_opponent_revealed() -> None:
    """A seat that drew and kept the card held nothing playable (bans on the colour in
    force, the rank on top and wilds); a wild played means no coloured card played instead.
    Determinizations are mended to fit: the opponent's hand holds no banned card."""
    from uno_rules.play.agents import Lookahead, observation

    game, seat = _two_player_turn(3)
    other = 1 - seat
    obs = observation(game, seat, game.legal_ids(seat), game.pending.kind, 0)
    agent = Lookahead(seat, random.Random(2))
    color = obs.view["color"]
    draw, keep = uno_rules.Action(other, "draw"), uno_rules.Action(other, "keep")
    agent.follow(dataclasses.replace(obs, events=()))  # the colour and rank on top
    top = agent.top
    assert top is not None and agent.bans == {}
    agent.follow(dataclasses.replace(obs, events=(draw, keep)))
    assert agent.bans == {other: [[color, top, True, 0, -1]]}
    det = obs.determinize
    assert det is not None
    for _ in range(5):
        dealt = agent._deal(det, exact=False)
        faces = [dealt.faces[c] for c in dealt.hands[other]]
        assert dealt.view(seat) == game.view(seat)
        assert not [f for f in faces if f.color < 0 or CLASSIC.colors[f.color] == color
                    or CLASSIC.ranks[f.rank] == top]
    # a draw then the drawn card played: the same ban (the card drawn is gone), and no
    # ban from that play (it was the drawn card's decision, not a pick)
    fresh = Lookahead(seat, random.Random(2))
    fresh.follow(dataclasses.replace(obs, events=()))
    fresh.follow(dataclasses.replace(obs, events=(draw, uno_rules.Action(other, "play",
                                                                         "wild"))))
    assert fresh.bans == {other: [[color, top, True, 0, -1]]}
    # the same with the draw and the play seen in two observations (out of turn between)
    split = Lookahead(seat, random.Random(2))
    split.follow(dataclasses.replace(obs, events=()))
    sizes = list(obs.seat_view.hand_sizes)
    sizes[other] += 1  # the card drawn, then played
    split.follow(dataclasses.replace(obs, events=(draw,), seat_view=obs.seat_view._replace(
        hand_sizes=tuple(sizes))))
    split.follow(dataclasses.replace(obs, events=(uno_rules.Action(other, "play", "wild"),)))
    assert split.bans == {other: [[color, top, True, 0, -1]]}
    # a wild played: no coloured card of the colour in force or the rank on top (wilds
    # may remain); a coloured card played: none of those with more points
    wild = Lookahead(seat, random.Random(2))
    wild.follow(dataclasses.replace(obs, events=()))
    wild.follow(dataclasses.replace(obs, events=(uno_rules.Action(other, "play", "wild"),)))
    assert wild.bans == {other: [[color, top, False, 0, -1]]}
    five = Lookahead(seat, random.Random(2))
    five.follow(dataclasses.replace(obs, events=()))
    five.follow(dataclasses.replace(obs, events=(uno_rules.Action(other, "play",
                                                                  f"{color} 5"),)))
    assert five.bans == {other: [[color, top, False, 0, 5]]}


def test_lookahead_bans_hold_on_greedy_hands() -> None:
    """Against greedy players what lookahead infers is exact: at every decision of some
    2- and 3-player rounds, each ban holds on the real hand (no more banned cards than the
    cards drawn since allow), and some bans are made."""
    from uno_rules.play.agents import Lookahead, play_agents_on

    live: list[Game] = []
    checked = [0]

    class Spy(Lookahead):
        def choose(self, obs: Observation) -> int | None:
            choice = Greedy.choose(self, obs)  # greedy's choice, the events followed
            game = live[0]
            for s, bans in self.bans.items():
                hand = [obs.cards[game.faces[c].name] for c in game.hands[s]]
                for ban in bans:
                    assert sum(self._breaks(c, ban) for c in hand) <= ban[3], (s, ban)
                    checked[0] += 1
            return choice

    for players, seed in ((2, 1), (2, 2), (3, 3)):
        live[:] = [CLASSIC.new_game(players, seed, log=True)]
        seats = [("spy", Spy), *[("greedy", Greedy)] * (players - 1)]
        play_agents_on(CLASSIC, live[0], seats)
    assert checked[0] > 20


def test_a_module_beside_the_user_shadows_no_standard_module(tmp_path: Path) -> None:
    """`--agents mymod:X` from a folder that also holds a random.py (raising on import):
    the folder comes after the standard library on sys.path, so the workers start (they
    get this sys.path) and --plot draws; mymod's own import of a helper beside it still
    works. Run with -P, as the uno-rules command runs: the folder isn't on sys.path."""
    (tmp_path / "random.py").write_text("raise ImportError('the folder shadowed random')\n")
    (tmp_path / "mymod_helper.py").write_text("def first(obs):\n    return obs.ids[0]\n")
    (tmp_path / "mymod.py").write_text(
        "from mymod_helper import first\n\n\nclass X:\n"
        "    def __init__(self, seat, rng):\n        pass\n\n"
        "    def choose(self, obs):\n        return first(obs)\n")
    done = subprocess.run(
        [sys.executable, "-P", "-m", "uno_rules", "simulate", "classic", "--players", "2",
         "--games", "12", "--agents", "mymod:X", "--workers", "2", "--plot", "out.png",
         "--json"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["agents"] == ["mymod:X", "mymod:X"]
    assert (tmp_path / "out.png").stat().st_size > 1000


def test_another_seats_keep_is_not_in_the_events() -> None:
    """Two worlds seat B can't tell apart: seat A's drawn card playable (a ``drawn``
    decision, kept) or not (no decision). B's first observation is the same in both."""
    from test_pettingzoo import top_drawn

    class Drawer(Recorder):
        def choose(self, obs: Observation) -> int | None:
            self.seen.append(obs)
            if self.seat != first:
                raise StopIteration  # B has seen what it sees: enough
            return next(i for i, a in zip(obs.ids, obs.options, strict=True)
                        if a.kind in ("draw", "keep"))

    seen = []
    for playable in (True, False):
        game = CLASSIC.new_game(2, 4, log=True)
        first = game.decision.seat
        assert first is not None
        top_drawn(game, first, playable)
        agents: list[Drawer] = []

        def make(seat: int, rng: random.Random, made: list[Drawer] = agents) -> Drawer:
            made.append(Drawer(seat, rng))
            return made[-1]
        with pytest.raises(AgentError, match="StopIteration"):
            play_agents_on(CLASSIC, game, [("drawer", make)] * 2)
        obs = next(a for a in agents if a.seat != first).seen[0]
        seen.append((obs.events, obs.seat_view, obs.kind, obs.ids))
    assert seen[0] == seen[1]
