"""The limit classes from the environment: each class's own variable, one for every class,
the older `N/S` notation, and a clear error for a value that is not a rate."""

from __future__ import annotations

import pytest

from service.settings import RateLimits, Settings


def test_defaults_for_every_class_and_a_process_local_storage() -> None:
    limits = RateLimits.from_env({})
    assert limits == RateLimits()
    assert limits.storage == "memory://" and limits.legal_moves == "1200/minute" and limits.expensive == "12/minute"


def test_one_variable_for_every_class_and_one_per_class_that_wins() -> None:
    limits = RateLimits.from_env({"CABOOSE_RATE_LIMIT": "1000000/60", "CABOOSE_RATE_LIMIT_AUDIT": "ignored",
                                  "CABOOSE_RATE_LIMIT_EXPENSIVE": "3/minute",
                                  "CABOOSE_RATE_LIMIT_STORAGE": "redis://127.0.0.1:6379", "CABOOSE_RATE_LIMIT_PREFIX": "p"})
    assert limits.expensive == "3/minute"
    assert {limits.read, limits.legal_moves, limits.move, limits.create, limits.join} == {"1000000 per 60 seconds"}
    assert (limits.storage, limits.prefix) == ("redis://127.0.0.1:6379", "p")


@pytest.mark.parametrize("bad", ["lots", "10/fortnight", "-5/minute", ""])
def test_a_value_that_is_not_a_rate_is_refused_with_its_name(bad: str) -> None:
    with pytest.raises(ValueError, match="rate limit move="):
        RateLimits(move=bad)


def test_settings_read_the_limits_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CABOOSE_RATE_LIMIT_JOIN", "5/hour")
    assert Settings.from_env().rate_limits.join == "5/hour"
