"""Toot-Toot Train ruleset 1, kept registered so the games recorded under it replay, audit
and go on unchanged: final scoring filled every hand order by itself, in the order dealt,
with as many icons as the goods still held allowed (its R33). Ruleset 2 asks each seat which
icons to supply (R22), since filling in that order can leave an order unfinished that the
same goods would have completed. Ruleset 1 also has ruleset 2's sale refill (`ruleset2`),
which lost the hand orders a sale discarded when it reshuffled the discards."""

from __future__ import annotations

from typing import ClassVar

from domain.core.decider import Unbound
from domain.toot_toot.ruleset2 import TootTootRuleset2


class TootTootRuleset1(TootTootRuleset2):
    ruleset_version = "1"
    hand_choice: ClassVar[bool] = False


RULES_1 = Unbound(TootTootRuleset1)
"""Not yet bound to a pack: the registry binds it to the one a record names."""
