"""Who may act, and every move a seat may make now."""

from __future__ import annotations

from typing import Any

from domain.railway_boom import bidding, building, operation
from domain.railway_boom.content import DRAW_TWO_BUY_ONE, EXTRA_POWER, FREE_RAILS, RAISE_INCOME, TRACKS, Content
from domain.railway_boom.state import ACT, BID, DEVELOPMENT, EXPANSION, OPERATION, OVER, PAY, TRAINS, State

Move = dict[str, Any]


def active_seats(state: State) -> frozenset[int]:
    if state.phase == OVER:
        return frozenset()
    if state.pending:
        return frozenset({state.pending[0].seat})
    if state.step == BID:
        seat = bidding.to_bid(state)
        return frozenset() if seat is None else frozenset({seat})
    if state.step == ACT and state.acting:
        return frozenset({state.acting[0]})
    if state.phase == OPERATION and state.sealed is not None:
        return state.sealed.waiting
    return frozenset()


def _with(move: Move, convert: dict[str, int] | None) -> Move:
    return {**move, "convert": convert} if convert else move


def _buys(state: State, seat: int, resource: str, cards: list[tuple[str, int]], kind: str) -> list[Move]:
    out = []
    for card, price in cards:
        convert = bidding.conversion_for(state.seats[seat], resource, price)
        if convert is not None:
            out.append(_with({"type": kind, "card": card}, convert))
    return out


def actions(content: Content, state: State, seat: int) -> list[Move]:
    """The moves of `seat`'s action step other than ending it."""
    turn, me = state.turn, state.seats[seat]
    if state.phase == TRAINS:
        locomotives = [c for c in state.offer if content.trains[c].kind == "locomotive"]
        if not turn.locomotive and locomotives:
            return [{"type": "take_locomotive", "card": c} for c in locomotives]
        if len(turn.cars) >= 2:
            return []
        cars = [(c, content.trains[c].cost) for c in state.offer if content.trains[c].kind == "car"]
        return _buys(state, seat, "materials", cars, "buy_car")
    if state.phase == EXPANSION:
        if not turn.station:
            return _stations(content, state, seat) if me.stations else []
        moves = [{"type": "use_card", "card": c} for c in me.developments
                 if content.developments[c].effect.type == EXTRA_POWER and c not in me.sideways]
        for hex_id in building.rail_spots(content, state, seat):
            _, money = building.split(state, seat, sum(building.rail_cost(content, state, seat, hex_id)))
            convert = bidding.conversion_for(me, "money", money)
            if convert is not None:
                moves.append(_with({"type": "lay_rail", "hex": hex_id}, convert))
        return moves
    if state.phase == DEVELOPMENT:
        if turn.row is None:
            return [{"type": "choose_row", "row": i} for i, row in enumerate(state.rows)
                    if row and i not in state.chosen_rows]
        row = state.rows[turn.row]
        return _buys(state, seat, "technology", [(c, content.developments[c].price) for c in row], "buy_development")
    return []


def _stations(content: Content, state: State, seat: int) -> list[Move]:
    out: list[Move] = []
    for card in state.offer:
        city = content.station_cards[card].city
        if city in state.stations:
            continue
        if seat in state.rails.get(city, ()):
            # R14: the rail there comes back, and any one income level rises too.
            out += [{"type": "place_station", "city": city, "income": track} for track in TRACKS]
        else:
            out.append({"type": "place_station", "city": city})
    return out


def may_end(state: State) -> bool:
    """Whether the acting seat has done its turn's mandatory part (R14, R15, R20)."""
    if state.phase == TRAINS:
        return bool(state.turn.locomotive)
    if state.phase == EXPANSION:
        return bool(state.turn.station)
    return state.turn.row is not None


def choices(content: Content, state: State) -> list[str]:
    """The answers the first pending effect accepts."""
    pending = state.pending[0]
    if pending.effect == RAISE_INCOME:
        return list(TRACKS)
    if pending.effect == FREE_RAILS:
        return [*building.rail_spots(content, state, pending.seat, free=True), "none"]
    if pending.effect == DRAW_TWO_BUY_ONE:
        # R11: the price may be met by converting into technology.
        technology = bidding.reachable(state.seats[pending.seat], "technology")
        return [c for c in pending.drawn if _drawn_price(content, pending.amount, c) <= technology] + ["none"]
    return []


def _drawn_price(content: Content, discount: int, card: str) -> int:
    return max(0, content.developments[card].price - discount)


def _answers(content: Content, state: State) -> list[Move]:
    """The moves answering the first pending choice: a "?" payment's every mix (R12), or an
    effect's answers, a drawn card with the fewest conversions that pay for it (R11)."""
    pending = state.pending[0]
    me = state.seats[pending.seat]
    if pending.effect == PAY:
        return [{"type": "pay", "paid": mix} for mix in bidding.mixes(me, pending.amount)]
    moves: list[Move] = []
    for choice in choices(content, state):
        convert = None
        if pending.effect == DRAW_TWO_BUY_ONE and choice != "none":
            convert = bidding.conversion_for(me, "technology", _drawn_price(content, pending.amount, choice))
        moves.append(_with({"type": "resolve", "choice": choice}, convert))
    return moves


def legal_moves(content: Content, state: State, seat: int) -> list[Move]:
    if seat not in active_seats(state):
        return []
    if state.pending:
        return _answers(content, state)
    if state.step == BID:
        me = state.seats[seat]
        moves: list[Move] = []
        for space in bidding.spaces(content, state, seat):
            convert = bidding.conversion_for(me, state.bid_resource, space)
            if convert is not None:
                moves.append(_with({"type": "bid", "space": space}, convert))
        return [*moves, {"type": "lock_in"}]
    if state.step == ACT:
        moves = actions(content, state, seat)
        return [*moves, {"type": "done"}] if may_end(state) else moves
    if state.phase == OPERATION:
        return operation.options(content, state, seat)
    return []
