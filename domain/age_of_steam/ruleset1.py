"""Age of Steam ruleset 1, kept registered so the games recorded under it replay and audit
unchanged.

Its rules are today's; only its records differ: a bidder's event did not name who bids next.
Re-adjudicating such a record must give the events as they were stored, so ruleset 1 records
them without the next bidder, and works the next bidder out when it folds them
(`auction.with_next_bidder`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.age_of_steam import auction
from domain.age_of_steam.decider import AgeOfSteam
from domain.age_of_steam.state import State
from domain.core.decider import Decider, Decision, Unbound
from domain.core.events import Event
from domain.core.randomness import Randomness


class AgeOfSteamRuleset1(AgeOfSteam):
    ruleset_version = "1"

    def decide(self, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> list[Event]:
        return [auction.without_next_bidder(event) for event in super().decide(state, seat, move, rng)]

    def evolve(self, state: State, event: Event) -> State:
        return super().evolve(state, auction.with_next_bidder(state, event))

    def decision(self, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> Decision[State]:
        # Its events are not the ones the steps evolved (the next bidder is stripped), so
        # they are folded afresh, as any game's are by default.
        return Decider.decision(self, state, seat, move, rng)


RULESET_1 = Unbound(AgeOfSteamRuleset1)
