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
