"""What each audience sees (R29): everything but the deck's order and the seats' hand
orders, each shown only to its seat and referees (whether everyone may see a finished game
as a referee does is the service's to decide: not while a game it was forked from runs),
and once it has ended the totals and winners; and the move a seat's first event records
(`move_of`)."""

from __future__ import annotations

from typing import Any

from domain.core.events import Audience, Event
from domain.toot_toot.build_factory import FactoryBuilt
from domain.toot_toot.content import Content
from domain.toot_toot.draw_track import LineEnded, TrackDrawn
from domain.toot_toot.events import TurnEnded
from domain.toot_toot.final_scoring import HandOrdersSupplied
from domain.toot_toot.locations import GoodsProcessed, GoodsSold, LocationPassed, ResourceTaken
from domain.toot_toot.setup import StartChosen
from domain.toot_toot.state import OVER, State
from domain.toot_toot.technology import Upgraded
from domain.toot_toot.train import TrainMoved, TrainTurned


def view(content: Content, state: State, audience: Audience) -> dict[str, Any]:
    over = state.phase == OVER
    seats = []
    for index, seat in enumerate(state.seats):
        shown: dict[str, Any] = {
            "seat": index, "name": seat.name, "card": seat.card, "hex": seat.hex, "facing": seat.facing,
            "goods": dict(sorted(seat.goods.items())), "kept": list(seat.kept), "shovel": seat.shovel,
            "penalties": seat.penalties, "tokens": seat.tokens, "gained": seat.gained,
            "upgrades": dict(sorted(seat.upgrades.items())), "track": seat.track, "final": dict(seat.final),
            "turns": seat.turns, "hand_count": len(seat.hand),
        }
        if audience.sees((index,)):
            shown["hand"] = [_order(content, state, o) for o in seat.hand]
        seats.append(shown)
    out: dict[str, Any] = {
        "map": state.map, "phase": state.phase, "round": state.round, "last_round": state.last_round,
        "current": state.current, "step": state.step, "in_extra_turn": state.in_extra,
        "choosing": list(state.choosing),
        "line": list(state.line) if state.line else None,
        "track": {h: [list(s) for s in segs] for h, segs in sorted(state.track.items())},
        "factories": {h: {"kind": f.kind, "exit": f.exit} for h, f in sorted(state.factories.items())},
        "public": [_order(content, state, o) for o in state.public],
        "deck": len(state.deck), "discard": list(state.discard), "penalties_out": state.penalties_out,
        "seats": seats,
    }
    if over:
        out["totals"] = {str(seat): total for seat, total in sorted(state.totals.items())}
        out["winners"] = list(state.winners)
    if audience.referee:
        out["deck_order"] = list(state.deck)
    return out


def _order(content: Content, state: State, order_id: str) -> dict[str, Any]:
    order = content.order[order_id]
    return {"order": order_id, "colour": order.colour, "icons": list(order.icons),
            "filled": list(state.filled.get(order_id, ()))}


def move_of(event: Event) -> dict[str, Any] | None:
    """The move whose first event is `event`."""
    if isinstance(event, StartChosen):
        return {"type": "choose_start", "hex": event.hex}
    if isinstance(event, TrackDrawn):
        kind = "draw_track" if event.action == "main" else "iron_track"
        return {"type": kind, "hex": event.hex, "from": event.edges[0], "to": event.edges[1]}
    if isinstance(event, LineEnded):
        return {"type": "stop_drawing"}
    if isinstance(event, TrainMoved):
        hex_, facing = event.path[-1]
        if event.fuel:
            return {"type": "fuel_move", "fuel": event.fuel, "hex": hex_, "facing": facing}
        return {"type": "drive", "hex": hex_, "facing": facing}
    if isinstance(event, TrainTurned):
        return {"type": "turn", "facing": event.facing}
    if isinstance(event, ResourceTaken):
        return {"type": "take", "site": event.site}
    if isinstance(event, GoodsProcessed):
        return {"type": "process", "factory": event.factory, "recipe": event.recipe}
    if isinstance(event, GoodsSold):
        return {"type": "sell", "city": event.city, "fills": _fills(event.fills)}
    if isinstance(event, HandOrdersSupplied):
        return {"type": "supply_hand_orders", "fills": _fills(event.fills)}
    if isinstance(event, LocationPassed):
        return {"type": "pass_location"}
    if isinstance(event, FactoryBuilt):
        return {"type": "build_factory", "hex": event.hex, "kind": event.factory, "exit": event.exit,
                "payment": event.payment}
    if isinstance(event, Upgraded):
        return {"type": "upgrade", "ability": event.ability}
    if isinstance(event, TurnEnded):
        return {"type": "end_turn"}
    return None


def _fills(recorded: tuple[tuple[str, str, int], ...]) -> dict[str, dict[str, int]]:
    fills: dict[str, dict[str, int]] = {}
    for order, good, count in recorded:
        fills.setdefault(order, {})[good] = count
    return fills


def static_maps(content: Content) -> dict[str, Any]:
    """Every map of a pack as the viewer draws it: terrain, buildings with their sides, starts."""
    return {"game": "toot_toot", "layout": "pointy-topped hexes, odd rows shifted right; hex id 'col,row'; "
            "edges 0-5 clockwise from east",
            "maps": {m.id: {"title": m.title, "orientation": m.orientation, "terrain": dict(m.terrain),
                            "buildings": [{"id": b.id, "kind": b.kind, "hexes": list(b.hexes), "sides": dict(b.sides),
                                           "good": b.good, "colour": b.colour, "factory": b.factory} for b in m.buildings],
                            "starts": [{"hex": s.hex, "facing": s.facing} for s in m.starts]} for m in content.maps}}
