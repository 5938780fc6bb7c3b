"""Toot-Toot Train (火車嘟嘟): draw track on a hex map, drive a train that keeps its heading,
take, process and sell goods against public and secret orders (docs/rules/toot_toot.md),
played on the maps, orders and player cards of a content pack (`reference` by default).

Laid out by mechanism, as Age of Steam is: each rule's events, checks, legal moves, what a
move records and how each event changes the state (`APPLY`) sit in one module, read top to
bottom. Read in this order: `content` and `pack` (what a pack holds, and how it is read),
`hexes` (the geometry, R1), `state`, `board` (the map as play has changed it, with `split`
for R9), `seats` (what a seat's card and upgrades allow it), `context` (the state for one
seat), `moves` (what clients send), `ledger` (the bookkeeping the mechanisms share) and
`steps` (events applied as they are emitted); then the mechanisms: `setup` (the map, cards,
orders and start positions), `orders` (the order deck, refills and orders supplied), `goods`
and `penalties` (what a seat holds and pays), `draw_track` (action A, and a segment for
iron), `train` (action B, the move for wood or coal, and action C), `build_factory`,
`locations` (the location action: take, process, sell, or pass), `technology` (tokens for
gears passed, upgrades), `end_of_game` (the end trigger at 25) and `final_scoring`; then
`events` (the order of play's kinds), `flow` (the end of a turn and what follows it),
`evolve` and `catalogue` (gathering every mechanism's `APPLY` and kinds), `legal` (who may
act, the steps of a turn, the full list of legal moves), `decide`, `views`, `invariants`,
and `decider`, which puts them all behind the core `Decider` contract, bound to one pack
(`ruleset1` keeps the first ruleset's final scoring, `ruleset2` the second's sale refill).
The bot: `bot`, with its sales plan (`plan`), routes (`route`) and upgrades (`upgrades`). A game played at a table: `table` (the
opening as laid out) and `notation` (one line per move, docs/notation-toot-toot.md). What
the service shows of the game: `words` (its title and refusal sentences), `geometry` (the
static board's JSON Schema), `view_schema` and `figures` (the read models' board and VP).
"""
