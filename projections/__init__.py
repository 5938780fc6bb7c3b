"""Read models in SQL (boards, income tracks, VP tallies, timelines, game index) that
follow the event log, with runners that survive crashes and a rebuild from zero.

`handlers` is the small per-game interface; each game's module registers its projector
when imported here. Age of Steam adds `projections/age_of_steam.py` the same way.
"""

from projections import age_of_steam, railway_boom, ticket_to_ride, toot_toot  # noqa: F401  (register their projectors)
