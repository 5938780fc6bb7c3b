"""Phase 1, trains (`docs/rules/railway_boom.md`, R14), read top to bottom: the events, the
offer revealed, the locomotive and cars a seat may take, what taking and buying record, and
how each event changes the state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.moves import Command
from domain.core.state import replace, replace_seat
from domain.railway_boom.bidding import buys
from domain.railway_boom.content import Content
from domain.railway_boom.ledger import Handlers, add_resource, convert, without
from domain.railway_boom.resources import converting
from domain.railway_boom.state import State, Turn

if TYPE_CHECKING:
    from domain.railway_boom.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TrainsRevealed(Event):
    locomotives: tuple[str, ...]
    cars: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class LocomotiveTaken(Event):
    seat: int
    card: str


@dataclass(frozen=True, kw_only=True)
class CarBought(Event):
    seat: int
    card: str
    price: int
    convert: dict[str, int] | None = None


# --- the offer ----------------------------------------------------------------------------

# What each draw is called at a table (`rng.draw`'s `what`).
LOCOMOTIVES = "trains: locomotive cards revealed"
CARS = "trains: car cards revealed"


def reveal(steps: Steps) -> None:
    """The round's offer: a locomotive per player and 2 cars more (R35: a short deck reveals
    what remains)."""
    players = steps.state.players
    locomotives = steps.draw("locomotive", players, LOCOMOTIVES)
    cars = steps.draw("car", players + 2, CARS)
    steps.emit(TrainsRevealed(locomotives=locomotives, cars=cars, automatic=True))


# --- the moves ----------------------------------------------------------------------------


def actions(content: Content, state: State, seat: int) -> list[dict[str, Any]]:
    """A locomotive first, while one is offered; then up to 2 cars the seat can pay for."""
    turn = state.turn
    locomotives = [c for c in state.offer if content.trains[c].kind == "locomotive"]
    if not turn.locomotive and locomotives:
        return [{"type": "take_locomotive", "card": c} for c in locomotives]
    if len(turn.cars) >= 2:
        return []
    cars = [(c, content.trains[c].cost) for c in state.offer if content.trains[c].kind == "car"]
    return buys(state, seat, "materials", cars, "buy_car")


def _offered(steps: Steps, c: Command, kind: str) -> None:
    if c["card"] not in steps.state.offer or steps.content.trains[c["card"]].kind != kind:
        raise IllegalMove("card_not_offered", f"{c['card']} is not a revealed {kind}.")


def take_locomotive(steps: Steps, seat: int, c: Command) -> None:
    if steps.state.turn.locomotive:
        raise IllegalMove("locomotive_taken", "You have taken your locomotive this turn (R14).")
    _offered(steps, c, "locomotive")
    steps.emit(LocomotiveTaken(seat=seat, card=c["card"]))


def buy_car(steps: Steps, seat: int, c: Command) -> None:
    state = steps.state
    if not state.turn.locomotive and any(steps.content.trains[x].kind == "locomotive" for x in state.offer):
        raise IllegalMove("locomotive_first", "Take your locomotive before buying cars (R14).")
    if len(state.turn.cars) >= 2:
        raise IllegalMove("two_cars", "You may buy at most 2 cars a turn (R14).")
    _offered(steps, c, "car")
    price = steps.content.trains[c["card"]].cost
    convert = converting(steps.state, seat, "materials", c["convert"], price)
    steps.emit(CarBought(seat=seat, card=c["card"], price=price, convert=convert))


# --- the events applied -------------------------------------------------------------------


def _trains_revealed(c: Content, s: State, e: TrainsRevealed) -> State:
    decks = {**s.decks, "locomotive": without(s.decks["locomotive"], *e.locomotives),
             "car": without(s.decks["car"], *e.cars)}
    return replace(s, decks=decks, offer=(*e.locomotives, *e.cars))


def _take_train(s: State, seat: int, card: str, turn: Turn) -> State:
    s = replace_seat(s, seat, trains=(*s.seats[seat].trains, card))
    return replace(s, offer=without(s.offer, card), turn=turn)


def _loco(c: Content, s: State, e: LocomotiveTaken) -> State:
    return _take_train(s, e.seat, e.card, replace(s.turn, locomotive=e.card))


def _car(c: Content, s: State, e: CarBought) -> State:
    s = convert(s, e.seat, "materials", e.convert)
    return _take_train(add_resource(s, e.seat, "materials", -e.price), e.seat, e.card, replace(s.turn, cars=(*s.turn.cars, e.card)))


APPLY: Handlers = {TrainsRevealed: _trains_revealed, LocomotiveTaken: _loco, CarBought: _car}
KINDS = tuple(APPLY)
