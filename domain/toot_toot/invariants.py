"""What must hold after every event: order cards conserved, goods and tokens within their
limits and never negative, penalty tokens counted, trains on track and never two on a hex,
seats choosing hand orders in turn order, and a finished game's totals and winners."""

from __future__ import annotations

from collections import Counter

from domain.toot_toot.content import Content
from domain.toot_toot.hexes import ends_at
from domain.toot_toot.seats import MOST_TOKENS, limit
from domain.toot_toot.state import OVER, SCORING, SETUP, State


def problems(content: Content, state: State) -> list[str]:
    out: list[str] = []
    if state.phase == SETUP and not state.map:
        return out
    # Every order card in exactly one place: the deck, the discards, the public row, a hand,
    # or kept once supplied (R15, R35), from the setup's shuffle on; also when the deck and
    # the row are both empty.
    places = [*state.deck, *state.discard, *state.public, *(o for s in state.seats for o in (*s.hand, *s.kept))]
    counts = Counter(places)
    shuffled = bool(places) or state.phase != SETUP
    if shuffled and (set(counts) != set(content.order) or any(n != 1 for n in counts.values())):
        twice = sorted(o for o, n in counts.items() if n > 1)
        lost = sorted(set(content.order) - set(counts))
        out.append(f"order cards not conserved: twice {twice}, missing {lost}")
    for o in state.filled:
        if o not in state.public and not any(o in s.hand for s in state.seats):
            out.append(f"order {o} has filled icons but is neither public nor in a hand")
    trains: dict[str, int] = {}
    for i, seat in enumerate(state.seats):
        if any(n <= 0 for n in seat.goods.values()):
            out.append(f"seat {i} holds a non-positive number of goods: {dict(seat.goods)}")
        if seat.card and sum(seat.goods.values()) > limit(content, seat):
            out.append(f"seat {i} holds {sum(seat.goods.values())} goods, over its limit")
        if seat.tokens < 0 or seat.gained > MOST_TOKENS or seat.tokens + sum(seat.upgrades.values()) != seat.gained:
            out.append(f"seat {i}: tokens {seat.tokens} + placed {sum(seat.upgrades.values())} != gained {seat.gained}")
        if seat.track < 0 or seat.penalties < 0:
            out.append(f"seat {i} has a negative score or penalty count")
        if seat.hex is not None:
            if seat.hex in trains:
                out.append(f"seats {trains[seat.hex]} and {i} both stand on {seat.hex}")
            trains[seat.hex] = i
            if not ends_at(state.track.get(seat.hex, ()), seat.facing):
                out.append(f"seat {i}'s train faces edge {seat.facing} of {seat.hex}, where no segment ends")
    for good in content.goods:
        if state.goods_supply and good.supply is not None and sum(s.goods.get(good.id, 0) for s in state.seats) > good.supply:
            out.append(f"more {good.id} held than the supply holds")
    if state.penalties_out != sum(s.penalties for s in state.seats):
        out.append("penalty tokens out differ from the seats' counts")
    if state.penalty_supply is not None and state.penalties_out > state.penalty_supply:
        out.append("more penalty tokens out than the supply holds")
    if state.phase == SCORING and list(state.choosing) != sorted(set(state.choosing)):
        out.append(f"seats choosing hand orders out of turn order: {list(state.choosing)}")
    if state.phase == OVER:
        totals = {i: s.track + sum(s.final.values()) for i, s in enumerate(state.seats)}
        best = max(totals.values())
        if state.totals != totals or state.winners != tuple(i for i, t in totals.items() if t == best):
            out.append(f"totals {dict(state.totals)} and winners {state.winners} differ from the scores {totals}")
    return out
