"""The games Caboose records: the one place a game is registered (`docs/adding-a-game.md`).

The registry itself (`domain/core/registry.py`) knows no game; this module hands it every
game's rules, so importing `domain.games` is what makes the games known. Its functions are
the registry's, re-exported so callers keep to one name for "the games".
"""

from __future__ import annotations

from domain.age_of_steam import DECIDER as AGE_OF_STEAM
from domain.age_of_steam import RULESET_1 as AGE_OF_STEAM_1
from domain.core.decider import Game
from domain.core.registry import (
    CONTENT_OPTION,
    Shelf,
    bind,
    current,
    current_rules,
    find,
    for_options,
    names,
    register,
    ruleset,
    schema,
    shelf_changed,
    use_shelf,
)
from domain.railway_boom import DECIDER as RAILWAY_BOOM
from domain.ticket_to_ride.decider import RULES as TICKET_TO_RIDE
from domain.toot_toot.decider import RULES as TOOT_TOOT
from domain.toot_toot.ruleset1 import RULES_1 as TOOT_TOOT_1
from domain.toot_toot.ruleset2 import RULES_2 as TOOT_TOOT_2

GAMES: tuple[Game, ...] = (
    TICKET_TO_RIDE,
    AGE_OF_STEAM,
    RAILWAY_BOOM,
    TOOT_TOOT,
)
"""Every game's current rules. A new game adds one line here; a new version of a game's
rules adds a line too, and keeps the old one registered with `register(old,
current_version=False)` so old games replay."""

for _game in GAMES:
    register(_game)
register(AGE_OF_STEAM_1, current_version=False)
register(TOOT_TOOT_1, current_version=False)
register(TOOT_TOOT_2, current_version=False)

__all__ = ["CONTENT_OPTION", "GAMES", "Shelf", "bind", "current", "current_rules", "find", "for_options", "names",
           "register", "ruleset", "schema", "shelf_changed", "use_shelf"]
