"""Phase 3, development (`docs/rules/railway_boom.md`, R20-R22), read top to bottom: the
events, the rows dealt, the row and cards a seat may take, what choosing a row and buying a
card record (an immediate effect acting at once: `effects`), the leftovers under the deck,
and how each event changes the state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core.errors import IllegalMove
from domain.core.events import Event, Secret
from domain.core.moves import Command
from domain.core.randomness import Randomness, shuffled
from domain.core.state import replace, replace_seat
from domain.railway_boom import effects
from domain.railway_boom.bidding import buys
from domain.railway_boom.content import Content
from domain.railway_boom.ledger import Handlers, add_resource, convert, shuffle_order, without
from domain.railway_boom.resources import converting
from domain.railway_boom.state import State, Turn

if TYPE_CHECKING:
    from domain.railway_boom.steps import Steps

# --- the events ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RowsDealt(Event):
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, kw_only=True)
class RowChosen(Event):
    seat: int
    row: int
    card: str


@dataclass(frozen=True, kw_only=True)
class DevelopmentBought(Event):
    seat: int
    card: str
    price: int
    convert: dict[str, int] | None = None


@dataclass(frozen=True, kw_only=True)
class CardsUnderDeck(Event):
    """Leftover development cards went under the deck, in an order secret to referees."""

    count: int


# --- the rows -----------------------------------------------------------------------------

ROWS = "development: cards dealt into rows of 3, in the order turned up"
"""What the draw is called at a table (`rng.draw`'s `what`)."""


def deal(steps: Steps) -> None:
    steps.emit(RowsDealt(rows=_dealt(steps), automatic=True))


def _dealt(steps: Steps) -> tuple[tuple[str, ...], ...]:
    """R20: 3 cards per player in draw order, rows of 3, each sorted by price (stable)."""
    dealt = steps.draw("development", 3 * steps.state.players, ROWS)
    prices = steps.content.developments
    rows = [dealt[i:i + 3] for i in range(0, len(dealt), 3)]
    return tuple(tuple(sorted(row, key=lambda card: prices[card].price)) for row in rows)


def leftovers_under(steps: Steps, rng: Randomness) -> None:
    """At the phase's end, the cards left in the rows go under the deck, shuffled."""
    leftovers = [card for row in steps.state.rows for card in row]
    if leftovers:
        order = rng.shuffle(leftovers)
        steps.emit(CardsUnderDeck(count=len(order), secrets=(Secret((), shuffled(order)),), automatic=True))


# --- the moves ----------------------------------------------------------------------------


def actions(content: Content, state: State, seat: int) -> list[dict[str, Any]]:
    """A row first (R20); then each card left in it the seat can pay for."""
    turn = state.turn
    if turn.row is None:
        return [{"type": "choose_row", "row": i} for i, row in enumerate(state.rows)
                if row and i not in state.chosen_rows]
    row = state.rows[turn.row]
    return buys(state, seat, "technology", [(c, content.developments[c].price) for c in row], "buy_development")


def choose_row(steps: Steps, seat: int, c: Command) -> None:
    state, row = steps.state, c["row"]
    if state.turn.row is not None:
        raise IllegalMove("row_chosen", "You have chosen your row this turn.")
    if row >= len(state.rows) or row in state.chosen_rows or not state.rows[row]:
        raise IllegalMove("row_not_free", f"Row {row} is not an unchosen row (R20).")
    card = state.rows[row][0]
    steps.emit(RowChosen(seat=seat, row=row, card=card))
    run_effects(steps, seat, card)


def buy_development(steps: Steps, seat: int, c: Command) -> None:
    state, card = steps.state, c["card"]
    if state.turn.row is None or card not in state.rows[state.turn.row]:
        raise IllegalMove("card_not_in_row", f"{card} is not a card left in your row.")
    price = steps.content.developments[card].price
    convert = converting(steps.state, seat, "technology", c["convert"], price)
    steps.emit(DevelopmentBought(seat=seat, card=card, price=price, convert=convert))
    run_effects(steps, seat, card)


def run_effects(steps: Steps, seat: int, source: str) -> None:
    """The immediate effect of a development card just gained."""
    card = steps.content.developments[source]
    if card.timing == "immediate":
        effects.apply(steps, seat, card.effect, source)


# --- the events applied -------------------------------------------------------------------


def _rows(c: Content, s: State, e: RowsDealt) -> State:
    dealt = [card for row in e.rows for card in row]
    return replace(s, rows=e.rows, decks={**s.decks, "development": without(s.decks["development"], *dealt)})


def _take_development(s: State, seat: int, card: str) -> State:
    s = replace_seat(s, seat, developments=(*s.seats[seat].developments, card))
    return replace(s, rows=tuple(without(r, card) if card in r else r for r in s.rows))


def _row(c: Content, s: State, e: RowChosen) -> State:
    s = _take_development(s, e.seat, e.card)
    return replace(s, chosen_rows=(*s.chosen_rows, e.row), turn=Turn(row=e.row))


def _development(c: Content, s: State, e: DevelopmentBought) -> State:
    s = add_resource(convert(s, e.seat, "technology", e.convert), e.seat, "technology", -e.price)
    return _take_development(s, e.seat, e.card)


def _under(c: Content, s: State, e: CardsUnderDeck) -> State:
    order = shuffle_order(e)
    return replace(s, rows=tuple(() for _ in s.rows), decks={**s.decks, "development": (*s.decks["development"], *order)})


APPLY: Handlers = {RowsDealt: _rows, RowChosen: _row, DevelopmentBought: _development, CardsUnderDeck: _under}
KINDS = tuple(APPLY)
