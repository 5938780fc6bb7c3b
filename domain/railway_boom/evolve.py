"""`evolve`: the state after one event. It never checks a rule or draws randomness: the
event already says what happened."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.core import sealed
from domain.core.catalogue import UnknownKind
from domain.core.events import Event
from domain.core.randomness import RANDOM_KEY
from domain.core.state import replace, replace_seat
from domain.railway_boom import events as ev
from domain.railway_boom.content import Content
from domain.railway_boom.state import ACT, BID, BLOCKED, FREE, OVER, PAY, Pending, State, Turn


def _add(mapping: Any, key: str, amount: int) -> dict[str, int]:
    return {**mapping, key: mapping.get(key, 0) + amount}


def _resource(state: State, seat: int, resource: str, amount: int) -> State:
    return replace_seat(state, seat, resources=_add(state.seats[seat].resources, resource, amount))


def _convert(state: State, seat: int, into: str, convert: Any) -> State:
    """A conversion recorded in the move's own event (R11), applied before its payment."""
    for source, pairs in (convert or {}).items():
        state = _resource(_resource(state, seat, source, -2 * pairs), seat, into, pairs)
    return state


def _without(cards: tuple[str, ...], *gone: str) -> tuple[str, ...]:
    """`cards` less each of `gone`, by name: a card turned up at a table need not be the
    deck's top (the deck's order there is unknown), and for a seeded deck it is the top."""
    out = list(cards)
    for card in gone:
        out.remove(card)
    return tuple(out)


def _shuffled(event: Event) -> tuple[str, ...]:
    return tuple(event.secret()[RANDOM_KEY]["shuffle"])


def _deck_shuffled(c: Content, s: State, e: ev.DeckShuffled) -> State:
    return replace(s, decks={**s.decks, e.deck: _shuffled(e)})


def _beside(c: Content, s: State, e: ev.CardsRevealedBeside) -> State:
    everything = tuple(e.random["shuffle"])
    boxed = (*s.boxed, *everything[len(e.revealed):])
    s = replace(s, decks={**s.decks, e.deck: ()})
    if e.deck == "goals":
        return replace(s, goals=e.revealed, boxed=boxed,
                       spaces={g: (FREE,) * len(c.goals[g].multipliers) for g in e.revealed})
    return replace(s, routes=e.revealed, boxed=boxed)


def _blocked(c: Content, s: State, e: ev.GoalSpacesBlocked) -> State:
    spaces = {g: tuple(BLOCKED if i in e.spaces.get(g, ()) else v for i, v in enumerate(row)) for g, row in s.spaces.items()}
    return replace(s, spaces=spaces)


def _starting_order(c: Content, s: State, e: ev.StartingOrderDrawn) -> State:
    used = tuple(e.cards.values())
    return replace(s, order=e.order, decks={**s.decks, "station": _without(s.decks["station"], *used)}, boxed=(*s.boxed, *used))


def _phase(c: Content, s: State, e: ev.PhaseStarted) -> State:
    bidding = bool(e.resource)
    return replace(s, round=e.round, phase=e.phase, step=BID if bidding else "", bids={}, locked=(), settled=(), acting=(),
                   bid_resource=e.resource, turn=Turn(), rows=(), chosen_rows=(),
                   sealed=sealed.open_phase(e.phase, tuple(range(s.players))) if e.phase == "operation" else None)


def _converted(c: Content, s: State, e: ev.ResourcesConverted) -> State:
    s = _resource(s, e.seat, e.source, -2 * e.pairs)
    return _resource(s, e.seat, e.into, e.pairs)


def _bid(c: Content, s: State, e: ev.BidRaised) -> State:
    s = _convert(s, e.seat, e.resource, e.convert)
    return replace(s, bids={**s.bids, e.seat: e.space})


def _locked(c: Content, s: State, e: ev.BidLocked) -> State:
    return replace(s, locked=(*s.locked, e.seat))


def _paid_bid(c: Content, s: State, e: ev.BidPaid) -> State:
    for resource, amount in e.paid.items():
        s = _resource(s, e.seat, resource, -amount)
    pending = s.pending[1:] if s.pending and s.pending[0].effect == PAY else s.pending
    return replace(s, settled=(*s.settled, e.seat), pending=pending)


def _payment_awaited(c: Content, s: State, e: ev.PaymentAwaited) -> State:
    return replace(s, pending=(*s.pending, Pending(e.seat, PAY, "", e.amount)))


def _order(c: Content, s: State, e: ev.ActionOrderSet) -> State:
    return replace(s, order=e.order, acting=e.ranks, step=ACT, bids={}, locked=(), settled=())


def _turn_ended(c: Content, s: State, e: ev.TurnEnded) -> State:
    s = replace_seat(s, e.seat, power=0)
    return replace(s, acting=s.acting[1:], turn=Turn())


def _gained(c: Content, s: State, e: ev.ResourceGained) -> State:
    return _resource(s, e.seat, e.resource, e.amount - e.lost)


def _paid(c: Content, s: State, e: ev.ResourcePaid) -> State:
    return _resource(s, e.seat, e.resource, -e.amount)


def _score(s: State, seat: int, amount: int, source: str) -> State:
    return replace_seat(s, seat, vp=s.seats[seat].vp + amount, scored=_add(s.seats[seat].scored, source, amount))


def _vp(c: Content, s: State, e: ev.VPScored) -> State:
    return _score(s, e.seat, e.amount, e.source)


def _income(c: Content, s: State, e: ev.IncomeRaised) -> State:
    return replace_seat(s, e.seat, income={**s.seats[e.seat].income, e.track: e.level})


def _power(c: Content, s: State, e: ev.PowerGained) -> State:
    return replace_seat(s, e.seat, power=s.seats[e.seat].power + e.amount)


def _trains_revealed(c: Content, s: State, e: ev.TrainsRevealed) -> State:
    decks = {**s.decks, "locomotive": _without(s.decks["locomotive"], *e.locomotives),
             "car": _without(s.decks["car"], *e.cars)}
    return replace(s, decks=decks, offer=(*e.locomotives, *e.cars))


def _take_train(s: State, seat: int, card: str, turn: Turn) -> State:
    s = replace_seat(s, seat, trains=(*s.seats[seat].trains, card))
    return replace(s, offer=_without(s.offer, card), turn=turn)


def _loco(c: Content, s: State, e: ev.LocomotiveTaken) -> State:
    return _take_train(s, e.seat, e.card, replace(s.turn, locomotive=e.card))


def _car(c: Content, s: State, e: ev.CarBought) -> State:
    s = _convert(s, e.seat, "materials", e.convert)
    return _take_train(_resource(s, e.seat, "materials", -e.price), e.seat, e.card, replace(s.turn, cars=(*s.turn.cars, e.card)))


def _boxed(c: Content, s: State, e: ev.CardsBoxed) -> State:
    return replace(s, offer=_without(s.offer, *e.cards), boxed=(*s.boxed, *e.cards))


def _stations_revealed(c: Content, s: State, e: ev.StationCardsRevealed) -> State:
    return replace(s, decks={**s.decks, "station": _without(s.decks["station"], *e.cards)}, offer=e.cards)


def _station(c: Content, s: State, e: ev.StationBuilt) -> State:
    if e.rail_returned:
        s = _returned(s, e.seat, e.city)
    s = replace_seat(s, e.seat, stations=s.seats[e.seat].stations - 1)
    return replace(s, stations={**s.stations, e.city: e.seat}, offer=_without(s.offer, e.card),
                   boxed=(*s.boxed, e.card), turn=Turn(station=e.city))


def _returned(s: State, seat: int, hex_id: str) -> State:
    s = replace_seat(s, seat, rails=s.seats[seat].rails + 1)
    left = tuple(x for x in s.rails[hex_id] if x != seat)
    rails = {h: v for h, v in s.rails.items() if h != hex_id}
    return replace(s, rails={**rails, hex_id: left} if left else rails)


def _rail(c: Content, s: State, e: ev.RailLaid) -> State:
    s = _convert(s, e.seat, "money", e.convert)
    seat = s.seats[e.seat]
    s = replace_seat(s, e.seat, rails=seat.rails - 1, power=seat.power - e.power,
                     resources=_add(seat.resources, "money", -e.money))
    turn = replace(s.turn, laid=(*s.turn.laid, e.hex)) if s.turn.station else s.turn
    return replace(s, rails={**s.rails, e.hex: (*s.rails.get(e.hex, ()), e.seat)}, turn=turn)


def _tile(c: Content, s: State, e: ev.TileGained) -> State:
    s = replace_seat(s, e.seat, tiles=_add(s.seats[e.seat].tiles, e.tile, 1))
    return replace(s, tile_supply=_add(s.tile_supply, e.tile, -1))


def _used(c: Content, s: State, e: ev.CardUsed) -> State:
    return replace_seat(s, e.seat, sideways=(*s.seats[e.seat].sideways, e.card))


def _rows(c: Content, s: State, e: ev.RowsDealt) -> State:
    dealt = [card for row in e.rows for card in row]
    return replace(s, rows=e.rows, decks={**s.decks, "development": _without(s.decks["development"], *dealt)})


def _take_development(s: State, seat: int, card: str) -> State:
    s = replace_seat(s, seat, developments=(*s.seats[seat].developments, card))
    return replace(s, rows=tuple(_without(r, card) if card in r else r for r in s.rows))


def _row(c: Content, s: State, e: ev.RowChosen) -> State:
    s = _take_development(s, e.seat, e.card)
    return replace(s, chosen_rows=(*s.chosen_rows, e.row), turn=Turn(row=e.row))


def _development(c: Content, s: State, e: ev.DevelopmentBought) -> State:
    s = _resource(_convert(s, e.seat, "technology", e.convert), e.seat, "technology", -e.price)
    return _take_development(s, e.seat, e.card)


def _under(c: Content, s: State, e: ev.CardsUnderDeck) -> State:
    order = _shuffled(e)
    return replace(s, rows=tuple(() for _ in s.rows), decks={**s.decks, "development": (*s.decks["development"], *order)})


def _awaited(c: Content, s: State, e: ev.ChoiceAwaited) -> State:
    decks = s.decks
    if e.drawn:
        decks = {**decks, "development": _without(decks["development"], *e.drawn)}
    return replace(s, decks=decks, pending=(*s.pending, Pending(e.seat, e.effect, e.card, e.amount, e.drawn)))


def _made(c: Content, s: State, e: ev.ChoiceMade) -> State:
    head, rest = s.pending[0], s.pending[1:]
    if head.drawn:
        back = tuple(card for card in head.drawn if card != e.choice)
        if e.price is not None:
            s = _resource(_convert(s, e.seat, "technology", e.convert), e.seat, "technology", -e.price)
            s = replace_seat(s, e.seat, developments=(*s.seats[e.seat].developments, e.choice))
        return replace(s, pending=rest, decks={**s.decks, "development": (*s.decks["development"], *back)})
    if head.effect == "free_rails" and e.choice != "none" and head.amount > 1:
        return replace(s, pending=(replace(head, amount=head.amount - 1), *rest))
    return replace(s, pending=rest)


def _tile_placed(c: Content, s: State, e: ev.TilePlaced) -> State:
    seat = s.seats[e.seat]
    loaded = {**seat.loaded, e.card: (*seat.loaded.get(e.card, ()), e.tile)}
    return replace_seat(s, e.seat, tiles=_add(seat.tiles, e.tile, -1), loaded=loaded)


def _sealed(c: Content, s: State, e: Event) -> State:
    return replace(s, sealed=sealed.apply(s.sealed, e)) if s.sealed is not None else s


def _reserved(c: Content, s: State, e: ev.GoalReserved) -> State:
    row = list(s.spaces[e.goal])
    row[e.space] = e.seat
    s = replace_seat(s, e.seat, goal_cubes=s.seats[e.seat].goal_cubes - 1)
    return replace(s, spaces={**s.spaces, e.goal: tuple(row)})


def _stood_up(c: Content, s: State, e: ev.CardsStoodUp) -> State:
    for seat in range(s.players):
        s = replace_seat(s, seat, sideways=())
    return s


def _ended(c: Content, s: State, e: ev.GameEnded) -> State:
    return replace(s, phase=OVER, step="", acting=(), winners=e.winners)


def _nothing(c: Content, s: State, e: Event) -> State:
    return s


HANDLERS: dict[type[Event], Callable[[Content, State, Any], State]] = {
    ev.DeckShuffled: _deck_shuffled, ev.CardsRevealedBeside: _beside, ev.GoalSpacesBlocked: _blocked,
    ev.CityTilesPlaced: lambda c, s, e: replace(s, city_tiles={**s.city_tiles, **e.tiles}),
    ev.StartingOrderDrawn: _starting_order, ev.PhaseStarted: _phase, ev.ResourcesConverted: _converted,
    ev.BidRaised: _bid, ev.BidLocked: _locked, ev.BidPaid: _paid_bid, ev.PaymentAwaited: _payment_awaited, ev.ActionOrderSet: _order,
    ev.TurnEnded: _turn_ended, ev.ResourceGained: _gained, ev.ResourcePaid: _paid, ev.VPScored: _vp,
    ev.IncomeRaised: _income, ev.IconReached: _nothing, ev.PowerGained: _power, ev.TrainsRevealed: _trains_revealed,
    ev.LocomotiveTaken: _loco, ev.CarBought: _car, ev.CardsBoxed: _boxed, ev.StationCardsRevealed: _stations_revealed,
    ev.StationBuilt: _station, ev.RailLaid: _rail, ev.TileGained: _tile,
    ev.TouristVisited: _nothing, ev.CardUsed: _used, ev.RowsDealt: _rows, ev.RowChosen: _row,
    ev.DevelopmentBought: _development, ev.CardsUnderDeck: _under, ev.ChoiceAwaited: _awaited, ev.ChoiceMade: _made,
    ev.TilePlaced: _tile_placed, ev.TrainFormed: _nothing, ev.CardRan: _nothing, ev.GoalReserved: _reserved,
    ev.GoalMissed: _nothing, ev.CardsStoodUp: _stood_up, ev.GoalScored: lambda c, s, e: _score(s, e.seat, e.vp, "goals"),
    ev.LeftoversScored: lambda c, s, e: _score(s, e.seat, e.vp, "leftovers"),
    ev.RouteScored: lambda c, s, e: _score(s, e.seat, e.vp, "route"), ev.GameEnded: _ended,
    sealed.SubmissionSealed: _sealed, sealed.SubmissionsRevealed: _nothing,
}


def evolve(content: Content, state: State, event: Event) -> State:
    handler = HANDLERS.get(type(event))
    if handler is None:
        raise UnknownKind(event.kind, "railway_boom")
    return handler(content, state, event)
