"""Railway Boom (2-4 players): rules in this package, cards and map from a content pack
(`docs/railway_boom-content.md`), rulings R1-R37 in `docs/rules/railway_boom.md`.

Laid out by mechanism, as Age of Steam is: each rule's events, checks, legal moves, what a move
records and how each event changes the state (`APPLY`) sit in one module, read top to bottom:
`setup` (the opening), `resources` (payments, gains, conversions, VP), `bidding` (the bid
track), `trains`, `expansion` and `development` (phases 1-3, with `building` for where a rail
may go), `effects` and `choices` (card effects and the choices they wait for), `operation`
(phase 5), `goals` (phase 6) and `scoring`. Around them: `ledger` (the bookkeeping they
share), `steps`, `events` (the order of play's kinds), `flow` (what comes next), `evolve` and
`catalogue` (gathering every mechanism's `APPLY` and kinds), `legal` and `decide`."""

from domain.railway_boom.decider import RULES

DECIDER = RULES

__all__ = ["DECIDER", "RULES"]
