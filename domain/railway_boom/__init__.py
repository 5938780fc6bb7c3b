"""Railway Boom (2-4 players): rules in this package, cards and map from a content pack
(`docs/railway_boom-content.md`), rulings R1-R37 in `docs/rules/railway_boom.md`."""

from domain.railway_boom.decider import RULES

DECIDER = RULES

__all__ = ["DECIDER", "RULES"]
