"""The shipped Rust Belt map and the Age of Steam rules bound to it, for the tests (the rules
themselves read the map only through the decider they are bound to)."""

from __future__ import annotations

import service  # noqa: F401  (installs the shelf of shipped packs)
from domain import games
from domain.age_of_steam import AgeOfSteam
from domain.age_of_steam.board import Map

DECIDER: AgeOfSteam = games.current("age_of_steam")  # type: ignore[assignment]
MAP: Map = DECIDER.map

CITY_BY_NAME = MAP.city_by_name
TOWNS = MAP.towns
TERRAIN = MAP.terrain
NEIGHBOURS = MAP.neighbours
