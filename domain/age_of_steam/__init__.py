"""Age of Steam: the rules of `docs/rules/age_of_steam.md` as a decider, bound to a map pack
(`packs/rust_belt`, the Rust Belt).

One rule is one module, read top to bottom with its events, checks, moves and the handlers that
apply its events: `shares`, `auction`, `actions`, `build_track`, `move_goods`, `income`,
`growth` and `scoring`, in the order of a turn; `flow` says what comes after what.

Beneath them: `board` (the map a pack declares, and the printed constants) and `content`
(reading a pack), `tiles` (the tile mix and its geometry), `state`, `moves` (what clients send),
`track` (links and the rules of one placement), `building` (the placements a build step may
list), `goods` (the bag and the routes a good may take), `ledger` (bookkeeping the handlers
share), `events` (the order of play's kinds) and `catalogue` (every kind). Above them: `legal`
(who may act, the legal moves), `decide` and `steps` (events applied as they are emitted),
`evolve` (dispatch on the event's type), `views`, `invariants`, `playout` (the simulation bot),
`options`, `notation` (a move as one line of a score sheet), `observed` (the opening as laid out
at a table), and `decider`, which puts them behind the core `Decider` contract (`ruleset1`: the
first ruleset, for games recorded under it). What the service shows of the game: `words` (its
title and refusal sentences), `geometry` (the static board and its JSON Schema) and `figures`
(the read models' board, income and VP).
"""

from domain.age_of_steam.decider import DECIDER, AgeOfSteam
from domain.age_of_steam.ruleset1 import RULESET_1
from domain.age_of_steam.state import Seat, State

__all__ = ["DECIDER", "RULESET_1", "AgeOfSteam", "Seat", "State"]
