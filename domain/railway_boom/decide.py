"""`decide`: the events a seat's move causes, with every automatic step it triggers. Each
move is checked in full before anything is emitted, so a refused move changes nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core import sealed
from domain.core.errors import GameOver, IllegalMove, NotYourTurn
from domain.core.events import Event
from domain.core.moves import Command, Moves
from domain.core.randomness import Randomness
from domain.railway_boom import bidding, building, effects, flow, legal, operation
from domain.railway_boom import events as ev
from domain.railway_boom.content import DRAW_TWO_BUY_ONE, EXTRA_POWER, FREE_RAILS, RESOURCES, Content
from domain.railway_boom.state import ACT, BID, OPERATION, OVER, PAY, State
from domain.railway_boom.steps import Steps


def decide(content: Content, moves: Moves, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> list[Event]:
    return decided(content, moves, state, seat, move, rng).events


def decided(content: Content, moves: Moves, state: State, seat: int, move: Mapping[str, Any], rng: Randomness) -> Steps:
    """`decide`, with the states its events passed through."""
    if state.phase == OVER:
        raise GameOver()
    if seat not in legal.active_seats(state):
        raise NotYourTurn(seat)
    command: Command = moves.parse(move)
    steps = Steps(content, state, rng)
    _check_stage(state, command)
    HANDLERS[command.type](steps, seat, command)
    flow.advance(steps, rng)
    return steps


def _check_stage(state: State, command: Command) -> None:
    paying = bool(state.pending) and state.pending[0].effect == PAY
    if state.pending:
        stage: tuple[str, ...] = ("pay",) if paying else ("resolve",)
    elif state.step == BID:
        stage = ("bid", "lock_in")
    elif state.phase == OPERATION and state.step != ACT:
        stage = ("operate",)
    else:
        stage = {"trains": ("take_locomotive", "buy_car", "done"), "expansion": ("place_station", "lay_rail", "use_card", "done"),
                 "development": ("choose_row", "buy_development", "done")}.get(state.phase, ())
    if command.type not in stage:
        now = ("choose the mix you pay your \"?\" bid in" if paying else "answer the pending choice") if state.pending else (
            f"the {state.phase} phase's {state.step or 'plans'}")
        raise IllegalMove("wrong_step", f"A {command.type} move is not possible now ({now}); "
                          f"the moves now are: {', '.join(stage)}.")


def _converting(steps: Steps, seat: int, into: str, convert: Mapping[str, int] | None, due: int) -> dict[str, int] | None:
    """Check a conversion (R11) and that it covers `due`; the plain dict to record, or None."""
    me = steps.state.seats[seat]
    convert = dict(convert or {})
    for source, pairs in convert.items():
        if source == into:
            raise IllegalMove("cannot_convert", f"Converting {source} into itself does nothing.")
        if me.resources[source] < 2 * pairs:
            raise IllegalMove("cannot_convert",
                              f"Converting {pairs} pair(s) of {source} needs {2 * pairs}; you hold {me.resources[source]}.")
    have = me.resources[into] + sum(convert.values())
    if have < due:
        raise IllegalMove(f"not_enough_{into}", f"This needs {due} {into}; you would hold {have} (R13).")
    return convert or None


def _bid(steps: Steps, seat: int, c: Command) -> None:
    state = steps.state
    space = c["space"]
    if space in state.bids.values() or space <= state.bids.get(seat, 0):
        raise IllegalMove("space_not_free", f"Space {space} is not an empty space above your disc (R7).")
    resource = state.bid_resource
    if c["convert"] and resource not in RESOURCES:
        raise IllegalMove("cannot_convert", "A \"?\" bid counts all four resources; there is nothing to convert (R12).")
    if resource in RESOURCES:
        convert = _converting(steps, seat, resource, c["convert"], space)
    elif bidding.holding(state.seats[seat], resource) < space:
        raise IllegalMove("not_enough_resources", f"Your four resources total less than {space} (R12).")
    else:
        convert = None
    holding = bidding.holding(state.seats[seat], resource) + sum((convert or {}).values())
    steps.emit(ev.BidRaised(seat=seat, space=space, resource=resource, holding=holding, convert=convert))


def _pay(steps: Steps, seat: int, c: Command) -> None:
    """The mix a seat pays its "?" bid in (R12): any of its four resources, exactly the
    amount due, each part held, never VP."""
    pending, me = steps.state.pending[0], steps.state.seats[seat]
    paid = {resource: amount for resource, amount in c["paid"].items() if amount}
    if sum(paid.values()) != pending.amount:
        raise IllegalMove("wrong_amount", f"Your \"?\" bid costs {pending.amount}; this mix adds up to "
                          f"{sum(paid.values())} (R10, R12).")
    for resource, amount in paid.items():
        if me.resources[resource] < amount:
            raise IllegalMove(f"not_enough_{resource}", f"You hold {me.resources[resource]} {resource}, "
                              f"not the {amount} this mix pays (R13).")
    # The discs stay on the track until everyone has paid, so the rank is still where it was.
    rank = bidding.ranks(steps.state).index(seat) + 1
    bid = steps.state.bids.get(seat, 0)
    steps.emit(ev.BidPaid(seat=seat, rank=rank, bid=bid, share=bidding.share(steps.content, steps.state.players, rank),
                          paid={r: paid[r] for r in RESOURCES if r in paid}))


def _lock(steps: Steps, seat: int, c: Command) -> None:
    steps.emit(ev.BidLocked(seat=seat, space=steps.state.bids.get(seat, 0)))


def _end_if_done(steps: Steps, seat: int) -> None:
    """The turn ends by itself when nothing but ending it is left to do."""
    state = steps.state
    if not state.pending and state.acting and state.acting[0] == seat and not legal.actions(steps.content, state, seat):
        steps.emit(ev.TurnEnded(seat=seat, power_lost=state.seats[seat].power, automatic=True))


def _offered(steps: Steps, c: Command, kind: str) -> None:
    if c["card"] not in steps.state.offer or steps.content.trains[c["card"]].kind != kind:
        raise IllegalMove("card_not_offered", f"{c['card']} is not a revealed {kind}.")


def _take_locomotive(steps: Steps, seat: int, c: Command) -> None:
    if steps.state.turn.locomotive:
        raise IllegalMove("locomotive_taken", "You have taken your locomotive this turn (R14).")
    _offered(steps, c, "locomotive")
    steps.emit(ev.LocomotiveTaken(seat=seat, card=c["card"]))
    _end_if_done(steps, seat)


def _buy_car(steps: Steps, seat: int, c: Command) -> None:
    state = steps.state
    if not state.turn.locomotive and any(steps.content.trains[x].kind == "locomotive" for x in state.offer):
        raise IllegalMove("locomotive_first", "Take your locomotive before buying cars (R14).")
    if len(state.turn.cars) >= 2:
        raise IllegalMove("two_cars", "You may buy at most 2 cars a turn (R14).")
    _offered(steps, c, "car")
    price = steps.content.trains[c["card"]].cost
    convert = _converting(steps, seat, "materials", c["convert"], price)
    steps.emit(ev.CarBought(seat=seat, card=c["card"], price=price, convert=convert))
    _end_if_done(steps, seat)


def _place_station(steps: Steps, seat: int, c: Command) -> None:
    state, city = steps.state, c["city"]
    if state.turn.station:
        raise IllegalMove("station_built", "You have built your station this turn.")
    if not state.seats[seat].stations:
        raise IllegalMove("no_station_left", "You have no station left on your board.")
    card = next((x for x in state.offer if steps.content.station_cards[x].city == city), None)
    if card is None or city in state.stations:
        raise IllegalMove("city_not_marked", f"{city} is not a marked city nobody has picked (R15).")
    returning = seat in state.rails.get(city, ())
    if returning != (c["income"] is not None):
        raise IllegalMove("income_choice", "Name an \"income\" track to raise exactly when your rail is on that city (R14)."
                          if returning else "An \"income\" choice is only for a city holding your rail.")
    steps.emit(ev.StationBuilt(seat=seat, city=city, card=card, income=c["income"], rail_returned=returning))
    tile = steps.content.city_tiles[steps.state.city_tiles[city]]
    effects.raise_levels(steps, seat, tile.resource, 1, f"station:{city}")
    if returning:
        effects.raise_levels(steps, seat, c["income"], 1, f"station:{city}")
    steps.emit(ev.PowerGained(seat=seat, amount=tile.power, source=f"city:{city}", automatic=True))
    _end_if_done(steps, seat)


def lay(steps: Steps, seat: int, hex_id: str, free: bool, convert: Mapping[str, int] | None = None, first: bool = True) -> None:
    """One rail (R17, R25): pay, then the city tile or tourist effect, then automatic cards."""
    content = steps.content
    if hex_id not in building.rail_spots(content, steps.state, seat, free=free):
        raise IllegalMove("rail_not_allowed", f"A rail cannot go on {hex_id}: it must be land without a piece of yours, "
                          "next to this turn's station or rails (R17), and you need a rail left.")
    cost, surcharge = (0, 0) if free else building.rail_cost(content, steps.state, seat, hex_id)
    power, money = building.split(steps.state, seat, cost + surcharge)
    recorded = None if free else _converting(steps, seat, "money", convert, money)
    steps.emit(ev.RailLaid(seat=seat, hex=hex_id, cost=cost, surcharge=surcharge, power=power, money=money, free=free,
                           convert=recorded, automatic=not first))
    place = content.hexes[hex_id]
    tile_id = steps.state.city_tiles.get(hex_id)
    if place.city == "normal" and tile_id is not None:
        kind = content.city_tiles[tile_id].resource
        if steps.state.tile_supply.get(kind, 0) > 0:
            steps.emit(ev.TileGained(seat=seat, hex=hex_id, tile=kind, automatic=True))
    elif place.city == "tourist" and tile_id is not None:
        steps.emit(ev.TouristVisited(seat=seat, hex=hex_id, tile=tile_id, automatic=True))
        tourist = content.city_tiles[tile_id].effect
        if tourist is not None:
            effects.apply(steps, seat, tourist, f"tourist:{hex_id}")
    effects.after_rail(steps, seat, place.terrain)


def _lay_rail(steps: Steps, seat: int, c: Command) -> None:
    if not steps.state.turn.station:
        raise IllegalMove("station_first", "Build your station before laying rails (R15).")
    lay(steps, seat, c["hex"], False, c["convert"])
    _end_if_done(steps, seat)


def _use_card(steps: Steps, seat: int, c: Command) -> None:
    me, card = steps.state.seats[seat], c["card"]
    printed = steps.content.developments[card]
    if card not in me.developments or printed.effect.type != EXTRA_POWER or card in me.sideways:
        raise IllegalMove("card_not_usable", f"{card} is not an unused extra-power card of yours.")
    if not steps.state.turn.station:
        raise IllegalMove("station_first", "Extra power is used after building your station.")
    steps.emit(ev.CardUsed(seat=seat, card=card))
    effects.apply(steps, seat, printed.effect, card)


def _choose_row(steps: Steps, seat: int, c: Command) -> None:
    state, row = steps.state, c["row"]
    if state.turn.row is not None:
        raise IllegalMove("row_chosen", "You have chosen your row this turn.")
    if row >= len(state.rows) or row in state.chosen_rows or not state.rows[row]:
        raise IllegalMove("row_not_free", f"Row {row} is not an unchosen row (R20).")
    card = state.rows[row][0]
    steps.emit(ev.RowChosen(seat=seat, row=row, card=card))
    flow.run_effects(steps, seat, card)
    _end_if_done(steps, seat)


def _buy_development(steps: Steps, seat: int, c: Command) -> None:
    state, card = steps.state, c["card"]
    if state.turn.row is None or card not in state.rows[state.turn.row]:
        raise IllegalMove("card_not_in_row", f"{card} is not a card left in your row.")
    price = steps.content.developments[card].price
    convert = _converting(steps, seat, "technology", c["convert"], price)
    steps.emit(ev.DevelopmentBought(seat=seat, card=card, price=price, convert=convert))
    flow.run_effects(steps, seat, card)
    _end_if_done(steps, seat)


def _resolve(steps: Steps, seat: int, c: Command) -> None:
    pending, choice = steps.state.pending[0], c["choice"]
    allowed = legal.choices(steps.content, steps.state)
    if choice not in allowed:
        raise IllegalMove("bad_choice", f"{choice!r} is not an answer here; choose one of: {', '.join(allowed)}.")
    price, convert = None, None
    if pending.effect == DRAW_TWO_BUY_ONE and choice != "none":
        price = max(0, steps.content.developments[choice].price - pending.amount)
        convert = _converting(steps, seat, "technology", c["convert"], price)
    elif c["convert"]:
        raise IllegalMove("cannot_convert", "Only buying a drawn card pays anything here; there is nothing to convert for (R11).")
    steps.emit(ev.ChoiceMade(seat=seat, card=pending.card, choice=choice, price=price, convert=convert))
    if pending.effect == FREE_RAILS:
        if choice != "none":
            lay(steps, seat, choice, True, first=False)
            still = steps.state.pending[0] if steps.state.pending else None
            if still is not None and (still.card, still.effect) == (pending.card, FREE_RAILS) and not building.rail_spots(
                    steps.content, steps.state, seat, free=True):
                steps.emit(ev.ChoiceMade(seat=seat, card=pending.card, choice="none", automatic=True))
    elif pending.effect == DRAW_TWO_BUY_ONE:
        if choice != "none":
            flow.run_effects(steps, seat, choice)
    else:
        effects.raise_levels(steps, seat, choice, pending.amount, pending.card)
    _end_if_done(steps, seat)


def _done(steps: Steps, seat: int, c: Command) -> None:
    if not legal.may_end(steps.state):
        raise IllegalMove("turn_not_done", "First do this turn's mandatory part: a locomotive, a station or a row.")
    steps.emit(ev.TurnEnded(seat=seat, power_lost=steps.state.seats[seat].power))


def _operate(steps: Steps, seat: int, c: Command) -> None:
    state = steps.state
    plan = operation.plan_of(c.fields)
    operation.check(steps.content, state, seat, plan)
    assert state.sealed is not None
    for event in sealed.seal(state.sealed, seat, plan):
        steps.emit(event)
    if steps.state.sealed is not None and steps.state.sealed.complete:
        # R26: run in bid-track order, right to left.
        for who in reversed(steps.state.order):
            operation.run(steps, who, steps.state.sealed.choices[who])


HANDLERS = {
    "bid": _bid, "lock_in": _lock, "take_locomotive": _take_locomotive, "buy_car": _buy_car,
    "place_station": _place_station, "lay_rail": _lay_rail, "use_card": _use_card, "choose_row": _choose_row,
    "buy_development": _buy_development, "resolve": _resolve, "done": _done, "operate": _operate, "pay": _pay,
}
