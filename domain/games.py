"""The rulesets Caboose can record, by name and ruleset version.

Old ruleset versions stay registered when a rule changes, so a game replays and audits
under the rules it was created with.
"""

from __future__ import annotations

from typing import Any

from domain.age_of_steam import DECIDER as AGE_OF_STEAM
from domain.core.decider import Decider
from domain.core.errors import MalformedMove
from domain.ticket_to_ride import DECIDER as TICKET_TO_RIDE

_RULESETS: dict[tuple[str, str], Decider[Any]] = {
    (d.name, d.ruleset_version): d for d in (TICKET_TO_RIDE, AGE_OF_STEAM)
}
_CURRENT: dict[str, Decider[Any]] = {TICKET_TO_RIDE.name: TICKET_TO_RIDE, AGE_OF_STEAM.name: AGE_OF_STEAM}


def register(decider: Decider[Any], *, current_version: bool = True) -> None:
    """Install a ruleset (a new game, or a new version of one)."""
    _RULESETS[(decider.name, decider.ruleset_version)] = decider
    if current_version:
        _CURRENT[decider.name] = decider


def names() -> list[str]:
    return sorted(_CURRENT)


def current(name: str) -> Decider[Any]:
    """The ruleset new games of `name` are created with."""
    try:
        return _CURRENT[name]
    except KeyError:
        raise MalformedMove("unknown_game", f"Unknown game {name!r}; known games: {', '.join(names())}.") from None


def ruleset(name: str, version: str) -> Decider[Any]:
    """The exact ruleset a recorded game was created with."""
    try:
        return _RULESETS[(name, version)]
    except KeyError:
        raise MalformedMove("unknown_ruleset", f"No ruleset {name!r} version {version!r} is installed.") from None
