"""Toot-Toot Train ruleset 2, kept registered so the games recorded under it replay, audit
and go on unchanged: a sale's refill drew from the deck and discards as they were before the
sale, so when it had to reshuffle the discards (R15) the hand orders that same sale had just
discarded were not shuffled in, and the reshuffle then emptied the pile they lay in: those
order cards left the game. Ruleset 3 shuffles them in (R35)."""

from __future__ import annotations

from typing import ClassVar

from domain.core.decider import Unbound
from domain.toot_toot.decider import TootToot


class TootTootRuleset2(TootToot):
    ruleset_version = "2"
    sale_discards_reshuffled: ClassVar[bool] = False


RULES_2 = Unbound(TootTootRuleset2)
"""Not yet bound to a pack: the registry binds it to the one a record names."""
