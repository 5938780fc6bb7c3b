"""What each audience sees. Everything on the table is public; the decks' order is for
referees only, and a sealed operation plan only for its own seat until the reveal."""

from __future__ import annotations

from typing import Any

from domain.core.events import Audience
from domain.railway_boom import legal
from domain.railway_boom.content import Content, Effect
from domain.railway_boom.state import State


def _seat(state: State, index: int, audience: Audience) -> dict[str, Any]:
    me = state.seats[index]
    out: dict[str, Any] = {
        "seat": index, "colour": me.colour, "vp": me.vp, "scored": dict(me.scored), "resources": dict(me.resources),
        "income": dict(me.income), "rails": me.rails, "stations": me.stations, "goal_cubes": me.goal_cubes,
        "trains": list(me.trains), "developments": list(me.developments), "sideways": list(me.sideways),
        "tiles": dict(me.tiles), "loaded": {card: list(kinds) for card, kinds in me.loaded.items()}, "power": me.power,
    }
    sealed = state.sealed
    if sealed is not None and index in sealed.choices:
        out["submitted"] = True
        if audience.sees((index,)):
            out["plan"] = sealed.choices[index]
    return out


def view(state: State, audience: Audience) -> dict[str, Any]:
    out: dict[str, Any] = {
        "round": state.round, "phase": state.phase, "step": state.step, "bid_resource": state.bid_resource,
        "order": list(state.order), "bids": {str(s): b for s, b in state.bids.items()}, "locked": list(state.locked),
        "acting": list(state.acting), "offer": list(state.offer), "rows": [list(r) for r in state.rows],
        "chosen_rows": list(state.chosen_rows),
        "turn": {"locomotive": state.turn.locomotive, "cars": list(state.turn.cars), "station": state.turn.station,
                 "laid": list(state.turn.laid), "row": state.turn.row},
        "city_tiles": dict(state.city_tiles), "stations": dict(state.stations),
        "rails": {h: list(s) for h, s in state.rails.items()}, "tile_supply": dict(state.tile_supply),
        "goals": list(state.goals), "routes": list(state.routes),
        "spaces": {g: list(row) for g, row in state.spaces.items()},
        "deck_sizes": {name: len(cards) for name, cards in state.decks.items()},
        "pending": [{"seat": p.seat, "effect": p.effect, "card": p.card, "amount": p.amount, "drawn": list(p.drawn)}
                    for p in state.pending],
        "waiting_for": sorted(legal.active_seats(state)), "winners": list(state.winners),
        "seats": [_seat(state, i, audience) for i in range(state.players)],
    }
    if audience.referee:
        out["decks"] = {name: list(cards) for name, cards in state.decks.items()}
    return out


def static_board(content: Content) -> dict[str, Any]:
    """What never changes during a game, for the viewer: the hexes and the cities, and what
    each card is (so a page words a card by what it does, not by its id)."""
    cards: dict[str, dict[str, Any]] = {}
    for train in content.trains.values():
        cards[train.id] = {"deck": "train", "kind": train.kind, "cost": train.cost, "coal": train.coal, "vp": train.vp,
                           "slots": train.slots, "effect": _effect(train.effect), "colour": train.colour or None}
    for card in content.developments.values():
        cards[card.id] = {"deck": "development", "timing": card.timing, "price": card.price, "effect": _effect(card.effect)}
    for goal in content.goals.values():
        cards[goal.id] = {"deck": "goal", "resource": goal.resource, "condition": goal.condition, "terrain": goal.terrain or None,
                          "track": goal.track or None, "per": goal.per, "multipliers": list(goal.multipliers)}
    for tile in content.city_tiles.values():
        cards[tile.id] = {"deck": "city_tile", "kind": tile.kind, "resource": tile.resource or None, "power": tile.power,
                          "effect": _effect(tile.effect)}
    return {"game": "railway_boom", "layout": "pointy-topped hexes, axial q and r",
            "hexes": {h.id: {"q": h.q, "r": h.r, "terrain": h.terrain, "power": h.power, "city": h.city}
                      for h in content.hexes.values()},
            "routes": {r.id: list(r.hexes) for r in content.routes.values()}, "cards": cards}


def _effect(effect: Effect | None) -> dict[str, Any] | None:
    if effect is None:
        return None
    return {"type": effect.type, "amount": effect.amount, "resource": effect.resource or None, "terrain": effect.terrain or None}
