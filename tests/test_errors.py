"""Messages that echo the user's values (uno_rules.engine.errors): cut short, in any case."""

from __future__ import annotations

from uno_rules.engine.errors import shorten_values, value_shortener


def test_a_long_value_is_cut_wherever_and_however_it_is_echoed() -> None:
    spaced = "Ab " * 40 + "z"
    dotted = "İx " * 40 + "z"  # lower case is longer: its windows don't line up
    cut = value_shortener([spaced, dotted, "short one"])
    assert cut(f"x '{spaced.upper()}' y") == f"x '{spaced.upper()[:60]}... (121 characters)' y"
    assert cut(f"'{dotted}'") == f"'{dotted[:60]}... (121 characters)'"
    assert cut("a short one stays") == "a short one stays"
    assert cut("a run " + "x" * 100) == "a run " + "x" * 60 + "... (100 characters)"
    assert shorten_values(f"{spaced}{spaced}", [spaced]) == \
        2 * f"{spaced[:60]}... (121 characters)"


# ------------------------------------------------------------------ one exception family
# Exceptions that are deliberately not errors: control flow that no error handler on the way
# may take (an `except UnoRulesError` or `except ValueError` would swallow them).
NOT_ERRORS = {
    "uno_rules.web.work.Stopped": "a BaseException: a request's work stops (time out, "
                                  "server stopping), answered 503 past every handler",
    "uno_rules.cli.main._Interrupted": "Ctrl-C carried past click's handler: an interrupt, "
                                       "exit 130, never 'error: ...'",
    "uno_rules.table.session.Quitting": "a human typed q (or the input ran out): the table "
                                        "stops as asked, it didn't fail",
    "uno_rules.rl.cardchance.NeedCard": "control flow: an OpenSpiel state stops an action to "
                                        "let chance choose a card; never leaves the adapter",
}


def exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class defined in a module of the package, found by walking it (every
    module imports: the test environment has every extra, as the other tests need)."""
    import importlib
    import inspect
    import pkgutil

    import uno_rules

    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(uno_rules.__path__, "uno_rules."):
        if info.name.endswith(".__main__"):  # runs the command line when imported
            continue
        module = importlib.import_module(info.name)
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__ == info.name:
                found[f"{info.name}.{name}"] = cls
    return found


def test_every_exception_the_package_defines_is_an_uno_rules_error() -> None:
    from uno_rules.engine.errors import UnoRulesError

    classes = exception_classes()
    assert set(NOT_ERRORS) <= set(classes), "a listed exception is gone: drop it from the list"
    outside = sorted(n for n, c in classes.items()
                     if not issubclass(c, UnoRulesError) and n not in NOT_ERRORS)
    assert outside == [], f"join UnoRulesError (or list the reason in NOT_ERRORS): {outside}"
    # The walk sees the whole package: the errors raised far from the engine included.
    assert {"uno_rules.sim.workers.WorkerError", "uno_rules.sim.distributed.SchedulerError",
            "uno_rules.play.agents.AgentError", "uno_rules.sim.plots.PlotError",
            "uno_rules.sim.compare.VariantError", "uno_rules.web.http.ApiError"} <= set(classes)


def test_the_joined_errors_are_still_caught_as_before() -> None:
    from uno_rules.sim.compare import VariantError
    from uno_rules.sim.plots import PlotError
    from uno_rules.web.files import StoredFileError
    from uno_rules.web.http import ApiError

    for cls in (VariantError, PlotError, StoredFileError):  # were ValueErrors: still are
        assert issubclass(cls, ValueError)
    error = ApiError(404, "no such\ngame", where="x")
    assert (error.status, error.message, error.extra, str(error)) == \
        (404, "no such\\ngame", {"where": "x"}, "no such\\ngame")
