"""Age of Steam: the rules of `docs/rules/age_of_steam.md` as a decider, bound to a map pack
(`packs/rust_belt`, the Rust Belt).

Read in this order: `board` (the map a pack declares and the printed constants) and `content`
(reading a pack), `tiles` (the 136-tile mix and its geometry), `options` (the project's rulings
as recorded values), `state`, `events` (every kind recorded), `moves` (what clients send),
`track` (links, one placement's rules, ownership), `building` (the placements a build step may
list), `goods` (the bag and deliveries), `legal` (who may act, the checks, the legal moves),
`decide` with `flow` and `steps` (events applied as they are emitted), `evolve`, `scoring`,
`views`, `invariants`, `playout` (the simulation bot), and `decider`, which puts them all
behind the core `Decider` contract.
"""

from domain.age_of_steam.decider import DECIDER, AgeOfSteam
from domain.age_of_steam.ruleset1 import RULESET_1
from domain.age_of_steam.state import Seat, State

__all__ = ["DECIDER", "RULESET_1", "AgeOfSteam", "Seat", "State"]
