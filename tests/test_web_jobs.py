"""Simulations and comparisons as background jobs (uno_rules.web.jobs): the same result as
the command line's --json, progress, cancel, limits, and a rulebook whose rounds never end."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the [web] extra is not installed")

from click.testing import CliRunner  # noqa: E402
from web_client import TestClient, local_client  # noqa: E402

from uno_rules.cli import cli  # noqa: E402
from uno_rules.web.limits import Limits  # noqa: E402

HOSTILE = Path(__file__).parent / "hostile"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with local_client(tmp_path) as c:
        yield c


def wait(client: TestClient, job: str, seconds: float = 120) -> dict[str, Any]:
    """Poll a job until it is no longer running (a hang fails the test, never blocks it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer = client.get(f"/api/jobs/{job}")
        assert answer.status_code == 200, answer.text
        state: dict[str, Any] = answer.json()
        if state["state"] != "running":
            return state
        time.sleep(0.1)
    raise AssertionError(f"job {job} still running after {seconds} s")


def start(client: TestClient, path: str, body: dict[str, Any]) -> str:
    answer = client.post(path, json=body)
    assert answer.status_code == 202, answer.text
    job: str = answer.json()["job"]
    return job


def cli_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, [*args, "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def without_timing(stats: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in stats.items() if k != "timing"}


def error(answer: Any, status: int) -> str:
    assert answer.status_code == status, answer.text
    message: str = answer.json()["error"]
    assert message and "\n" not in message
    return message


def test_a_simulation_gives_what_simulate_json_prints(client: TestClient) -> None:
    job = start(client, "/api/simulate", {"rulebook": "classic", "house": ["stacking"],
                                          "set": {"hand_size": 5}, "games": 200,
                                          "players": 3, "seed": 7})
    state = wait(client, job)
    assert state["state"] == "done" and state["error"] is None, state
    assert state["kind"] == "simulate" and state["done"] == state["total"] == 200
    expected = cli_json("simulate", "classic", "--house", "stacking", "--set", "hand_size=5",
                        "--games", "200", "--players", "3", "--seed", "7")
    assert without_timing(state["result"]) == without_timing(expected)
    assert state["result"]["length"]["turns"]["histogram"]  # what the page charts


def test_null_is_the_default(client: TestClient) -> None:
    job = start(client, "/api/simulate", {"rulebook": "classic", "games": 3, "players": None,
                                          "seed": None, "policy": None, "match": None,
                                          "agents": None, "max_steps": None})
    result = wait(client, job)["result"]
    assert (result["players"], result["seed"], result["policy"]) == (4, 0, "play_first")


def test_the_editor_text_and_agents_and_matches(client: TestClient) -> None:
    text = "extends: classic\nname: short\nsettings: {hand_size: 4, target_score: 100}\n"
    job = start(client, "/api/simulate", {"text": text, "games": 6, "players": 2, "seed": 3,
                                          "agents": "greedy,play_first", "match": True,
                                          "max_rounds": 50})
    state = wait(client, job)
    assert state["state"] == "done", state
    assert state["result"]["rulebook"] == "short" and state["result"]["games"] == 6
    assert state["result"]["agents"] == ["greedy", "play_first"]
    assert "rounds_per_match" in state["result"]


def test_compare_two_variants(client: TestClient) -> None:
    job = start(client, "/api/compare", {
        "variants": [{"rulebook": "classic"},
                     {"rulebook": "classic", "house": ["stacking"], "label": "stacking"}],
        "games": 50, "players": 4, "seed": 2})
    state = wait(client, job)
    assert state["state"] == "done" and state["kind"] == "compare", state
    assert state["done"] == state["total"] == 100
    # 50 deals, each played under both variants: 100 rounds, and the answer says so.
    assert (state["games"], state["variants"], state["unit"]) == (50, 2, "rounds")
    expected = cli_json("compare", "classic", "classic", "--house", "stacking", "--games",
                        "50", "--players", "4", "--seed", "2")
    result = state["result"]
    assert [v["label"] for v in result["variants"]] == ["classic", "stacking"]
    assert result["metrics"] == expected["metrics"]
    assert [v["decided"] for v in result["variants"]] == \
        [v["decided"] for v in expected["variants"]]


def test_cancel_stops_the_process_at_once(tmp_path: Path) -> None:
    with local_client(tmp_path, Limits(max_games=10**6)) as client:
        job = start(client, "/api/simulate", {"rulebook": "classic", "games": 10**6})
        process = client.app.state.jobs.get(job).process  # type: ignore[attr-defined]
        deadline = time.monotonic() + 60
        while client.get(f"/api/jobs/{job}").json()["done"] == 0:  # it is playing
            assert time.monotonic() < deadline
            time.sleep(0.1)
        answer = client.delete(f"/api/jobs/{job}")
        assert answer.status_code == 200 and answer.json()["state"] == "cancelled"
        assert not process.is_alive()  # gone when the answer came
        state = client.get(f"/api/jobs/{job}").json()
        assert state["state"] == "cancelled" and state["result"] is None
        assert 0 < state["done"] < 10**6


def test_a_process_that_dies_is_a_failed_job(client: TestClient) -> None:
    job = start(client, "/api/simulate", {"rulebook": "classic", "games": 10**5})
    process = client.app.state.jobs.get(job).process  # type: ignore[attr-defined]
    process.kill()  # as the kernel's out-of-memory killer would
    state = wait(client, job, 30)
    assert state["state"] == "failed" and state["result"] is None
    assert state["error"] == "the job's process ended without a result (exit code -9)"


def test_the_server_stops_its_jobs(tmp_path: Path) -> None:
    with local_client(tmp_path) as client:
        job = start(client, "/api/simulate", {"rulebook": "classic", "games": 10**5})
        process = client.app.state.jobs.get(job).process  # type: ignore[attr-defined]
        assert process.is_alive()
    assert not process.is_alive()


def test_too_many_jobs_is_429(tmp_path: Path) -> None:
    with local_client(tmp_path, Limits(max_jobs=1)) as client:
        first = start(client, "/api/simulate", {"rulebook": "classic", "games": 10**5})
        assert "1 jobs are running" in error(
            client.post("/api/simulate", json={"rulebook": "classic", "games": 10}), 429)
        client.delete(f"/api/jobs/{first}")
        wait(client, start(client, "/api/simulate", {"rulebook": "classic", "games": 10}))


def test_finished_jobs_kept_up_to_the_limit(tmp_path: Path) -> None:
    with local_client(tmp_path, Limits(max_finished_jobs=2)) as client:
        jobs = []
        for _ in range(3):
            jobs.append(start(client, "/api/simulate", {"rulebook": "classic", "games": 2}))
            wait(client, jobs[-1])
        time.sleep(0.5)  # the last one's listener prunes after saying it is done
        assert "no job" in error(client.get(f"/api/jobs/{jobs[0]}"), 404)
        assert client.get(f"/api/jobs/{jobs[2]}").json()["state"] == "done"


def test_rounds_that_never_end_are_stalled_not_a_hang(client: TestClient) -> None:
    text = (HOSTILE / "exits" / "fat_hands.yaml").read_text()
    job = start(client, "/api/simulate", {"text": text, "games": 3, "players": 2,
                                          "max_actions": 300})
    state = wait(client, job)
    assert state["state"] == "done", state
    assert state["result"]["stalled"] == 3
    assert state["result"]["stalled_reasons"] == {"actions": 3}
    steps = (HOSTILE / "exits" / "retrigger.yaml").read_text()
    job = start(client, "/api/compare", {"variants": [{"rulebook": "classic"},
                                                      {"text": steps}],
                                         "games": 2, "players": 10, "max_steps": 2000})
    state = wait(client, job)
    assert state["state"] == "done", state
    assert state["result"]["variants"][1]["stalled"] == 2


@pytest.mark.parametrize(("body", "message"), [
    ({"rulebook": "classic", "games": 0}, "games 0: expected at least 1"),
    ({"rulebook": "classic", "games": -5}, "games -5: expected at least 1"),
    ({"rulebook": "classic", "games": 10**30}, "games a number that large"),
    ({"rulebook": "classic", "games": 200_000}, "serve --max-games"),
    ({"rulebook": "classic", "games": "200"}, "games: expected a whole number"),
    ({"rulebook": "classic", "games": 2.5}, "games: expected a whole number"),
    ({"rulebook": "classic", "games": True}, "games: expected a whole number"),
    ({"rulebook": "classic", "players": 11}, "players 11"),
    ({"rulebook": "no_mercy", "players": 8}, "no_mercy is for 2-6 players"),
    ({"rulebook": "teams", "players": 5}, "teams is for"),
    ({"rulebook": "classic", "seed": "1"}, "seed: expected a whole number"),
    ({"rulebook": "classic", "seed": 10**100}, "seed="),
    ({"rulebook": "classic", "policy": "smart"}, "policy 'smart'"),
    ({"rulebook": "classic", "policy": 0}, "policy 0"),
    ({"rulebook": "classic", "agents": ""}, "name 1 of 1 is empty"),
    ({"rulebook": "classic", "agents": "tests.agents:Mine"}, "the server runs no other code"),
    ({"rulebook": "classic", "agents": "os:system"}, "unknown agent 'os:system'"),
    ({"rulebook": "classic", "agents": ["greedy"] * 3}, "3 names for 4 players"),
    ({"rulebook": "classic", "agents": {"a": 1}}, "agents: expected"),
    ({"rulebook": "classic", "match": "yes"}, "match: expected true or false"),
    ({"rulebook": "classic", "max_rounds": 5}, "max_rounds: only with"),
    ({"rulebook": "classic", "max_steps": 10**9}, "max_steps"),
    ({"rulebook": "classic", "max_actions": 0}, "max_actions 0"),
    ({"rulebook": "/etc/passwd"}, "no such shipped rulebook"),
    ({"text": ["x"]}, "text: expected"),
])
def test_bad_simulations_are_400(client: TestClient, body: dict[str, Any],
                                 message: str) -> None:
    assert message in error(client.post("/api/simulate", json=body), 400)


@pytest.mark.parametrize(("body", "message"), [
    ({}, "variants: expected a list"),
    ({"variants": "classic,classic"}, "variants: expected a list"),
    ({"variants": [{"rulebook": "classic"}]}, "compare takes 2 to 6"),
    ({"variants": [{"rulebook": "classic"}] * 7}, "compare takes 2 to 6"),
    ({"variants": [{"rulebook": "classic"}, {"rulebook": "classic", "label": 5}]}, "label"),
    ({"variants": [{"rulebook": "classic"}] * 2, "games": 60_000}, "shared by 2 variants"),
    ({"variants": [{"rulebook": "classic"}, {"rulebook": "no_mercy"}], "players": 8},
     "no_mercy is for 2-6 players"),
    ({"variants": [{"rulebook": "classic"}] * 2, "match": True}, "compare plays rounds"),
])
def test_bad_comparisons_are_400(client: TestClient, body: dict[str, Any],
                                 message: str) -> None:
    assert message in error(client.post("/api/compare", json=body), 400)


def test_an_invalid_rulebook_is_422(client: TestClient) -> None:
    answer = client.post("/api/simulate", json={"text": "extends: classic\nsettings: x\n"})
    assert error(answer, 422).startswith("the rulebook has 1 problem: editor:2:")
    answer = client.post("/api/compare", json={"variants": [
        {"rulebook": "classic"}, {"text": "extends: nope\n"}]})
    assert "can't find rulebook 'nope'" in error(answer, 422)


def test_hostile_bodies(tmp_path: Path) -> None:
    with local_client(tmp_path, Limits(max_body=4096)) as client:
        for path in ("/api/simulate", "/api/compare"):
            def post(content: bytes, path: str = path) -> Any:
                return client.post(path, content=content)
            assert "bytes" in error(post(b"{" + b" " * 5000 + b"}"), 413)
            assert "nested more than" in error(post(b'{"variants": ' + b"[" * 100), 400)
            assert "not JSON" in error(post(b"games=5"), 400)
            assert "JSON object" in error(post(b"5"), 400)
        assert "no job" in error(client.get("/api/jobs/nope"), 404)
        assert "no job" in error(client.delete("/api/jobs/" + "x" * 5000), 404)


# ------------------------------------------------------------------ any body at all
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from uno_rules.web.http import ApiError  # noqa: E402
from uno_rules.web.jobs import parse_run  # noqa: E402

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**40, 10**40),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
                    st.sampled_from(["classic", "no_mercy", "stacking", "greedy", "os:system",
                                     "greedy,uniform", "uniform", "play_first", "extends: x"]))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
KEYS = ["rulebook", "text", "base", "house", "set", "games", "players", "seed", "policy",
        "agents", "match", "max_rounds", "max_steps", "max_actions", "label"]
SOURCE = st.dictionaries(st.sampled_from(KEYS), JSON, max_size=6)
BODY = st.one_of(SOURCE, st.fixed_dictionaries({"variants": st.one_of(
    JSON, st.lists(SOURCE, max_size=7))}, optional={k: JSON for k in KEYS}))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["simulate", "compare"]), body=BODY)
def test_any_body_is_a_run_or_a_4xx(kind: str, body: dict[str, Any]) -> None:
    """Whatever the body, checking it gives a run or a one-line 4xx, never another error
    (which the server would answer with a 500)."""
    try:
        run, rulebooks = parse_run(kind, body, Limits(max_games=1000))
    except ApiError as exc:
        assert 400 <= exc.status < 500 and exc.message and "\n" not in exc.message
        return
    assert 1 <= run.games <= 1000 and len(rulebooks) == len(run.sources)


def test_json_infinity_and_nan(client: TestClient) -> None:
    for content in (b'{"rulebook": "classic", "games": Infinity}',
                    b'{"rulebook": "classic", "seed": NaN}',
                    b'{"rulebook": "classic", "players": -Infinity}'):
        assert "expected a whole number" in error(client.post("/api/simulate",
                                                              content=content), 400)


def test_a_job_carries_its_run_as_specs_and_plays_what_the_api_plays() -> None:
    """A job's run is one RunSpec per source, alike but for the rulebook; it pickles (it
    crosses to the job's process) and plays what the Python API plays with it."""
    import pickle

    from uno_rules.sim.compare import compare_specs
    from uno_rules.web.jobs import play

    body = {"variants": [{"rulebook": "classic"}, {"rulebook": "classic", "house": ["stacking"],
                                                   "set": {"hand_size": 5}}],
            "games": 12, "players": 3, "seed": 4, "agents": "greedy", "max_actions": 300}
    run, rulebooks = parse_run("compare", body, Limits(max_games=1000))
    first, second = run.specs
    assert [s.rulebook for s in run.specs] == rulebooks and second == first.on(rulebooks[1])
    assert (first.games, first.players, first.seed, first.max_actions) == (12, 3, 4, 300)
    assert first.agents is not None and [n for n, _ in first.agents] == ["greedy"] * 3
    again = pickle.loads(pickle.dumps(run))
    assert again.specs == run.specs and again.total == 24
    ticks: list[int] = []
    result = play(again, lambda: ticks.append(1))
    expected = compare_specs(run.specs, run.labels)
    for out in (result, expected):
        del out["timing"]
    assert [v.pop("settings") for v in result["variants"]] == [{}, {"hand_size": "5"}]
    assert result == expected and len(ticks) == 24
