"""Every kind of event a Ticket to Ride game records, one frozen dataclass each: the class
name is the record's `kind`, the fields its `data` (docs/FORMAT.md). The first line of each
docstring is the kind's published meaning (`caboose catalogue`, docs/catalogue.md).

What a seat alone may see (a dealt hand, a shuffle's order, a ticket choice) is not a field
but a secret of the event (`Event.secrets`), described here in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from domain.core.catalogue import Catalogue
from domain.core.events import Event, means
from domain.core.kinds import Roll

# --- the setup -----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TrainCardsShuffled(Event):
    """The train-card deck was shuffled; the order is a referees' secret until the game ends."""

    count: int = field(metadata=means("How many cards were shuffled."))


@dataclass(frozen=True, kw_only=True)
class CardsDealt(Event):
    """A seat was dealt its starting hand from the top of the deck; the cards are its secret."""

    seat: int = field(metadata=means("The seat, from 0."))
    count: int = field(metadata=means("How many cards were dealt."))


@dataclass(frozen=True, kw_only=True)
class MarketCardTurnedUp(Event):
    """A card from the top of the deck was turned up into an empty market slot at the setup."""

    slot: int = field(metadata=means("The market slot, from 0."))
    card: str = field(metadata=means("The card kind turned up."))


@dataclass(frozen=True, kw_only=True)
class TicketsShuffled(Event):
    """The destination tickets were shuffled; the order is a referees' secret until the game ends."""

    count: int = field(metadata=means("How many tickets were shuffled."))


@dataclass(frozen=True, kw_only=True)
class TicketsDealt(Event):
    """A seat was dealt its opening tickets from the top of the ticket deck; which ones is its secret."""

    seat: int = field(metadata=means("The seat, from 0."))
    count: int = field(metadata=means("How many tickets it was dealt."))


@dataclass(frozen=True, kw_only=True)
class FirstPlayerChosen(Event):
    """The seat to play first was drawn at random."""

    seat: int = field(metadata=means("The seat, from 0."))
    random: Roll = field(metadata=means("The draw that chose it (a number below the seat count)."))


# --- tickets -------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TicketsKept(Event):
    """A seat chose which of its offered tickets to keep; the choice is its secret.

    In the sealed opening even how many stays hidden until every seat has chosen."""

    seat: int = field(metadata=means("The seat, from 0."))
    kept: int | None = field(default=None, metadata=means("How many it kept; absent in the opening."))
    returned: int | None = field(default=None, metadata=means(
        "How many went back under the ticket deck; absent in the opening."))


@dataclass(frozen=True, kw_only=True)
class TicketChoicesRevealed(Event):
    """Every seat has chosen its opening tickets: how many each kept and returned is made public."""

    kept: dict[str, int] = field(metadata=means("Seat (as a string) to how many tickets it kept."))
    returned: dict[str, int] = field(metadata=means("Seat (as a string) to how many it returned."))


@dataclass(frozen=True, kw_only=True)
class TicketsDrawn(Event):
    """A seat drew destination tickets to choose from; which ones is its secret."""

    seat: int = field(metadata=means("The seat, from 0."))
    count: int = field(metadata=means("How many it drew (fewer when the ticket deck runs short)."))


# --- turns and cards ----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TurnStarted(Event):
    """A seat's turn began."""

    seat: int = field(metadata=means("The seat, from 0."))


@dataclass(frozen=True, kw_only=True)
class CardDrawn(Event):
    """A seat drew a train card from the face-up market or from the deck (then the card is its secret)."""

    seat: int = field(metadata=means("The seat, from 0."))
    source: Literal["market", "deck"] = field(metadata=means("Where the card came from."))
    slot: int | None = field(default=None, metadata=means("The market slot taken from; only from the market."))
    card: str | None = field(default=None, metadata=means("The card kind taken; only from the market."))


@dataclass(frozen=True, kw_only=True)
class MarketRefilled(Event):
    """A card from the top of the deck was turned up into an empty market slot during play."""

    slot: int = field(metadata=means("The market slot, from 0."))
    card: str = field(metadata=means("The card kind turned up."))


@dataclass(frozen=True, kw_only=True)
class MarketWiped(Event):
    """Three or more locomotives lay face up, so the whole market was discarded (ruling 1)."""

    discarded: tuple[str, ...] = field(metadata=means("The market's cards, in slot order."))
    wipe: int = field(metadata=means("How many wipes in a row this is, from 1."))


@dataclass(frozen=True, kw_only=True)
class DiscardsShuffled(Event):
    """The deck ran out and the discard pile was shuffled into a new deck (its order a referees' secret)."""

    count: int = field(metadata=means("How many cards were shuffled."))


@dataclass(frozen=True, kw_only=True)
class RouteClaimed(Event):
    """A seat claimed a route, paying train cards from its hand and placing its trains."""

    seat: int = field(metadata=means("The seat, from 0."))
    route: str = field(metadata=means("The route's id: its two cities, and #lane for a double, e.g. Denver|Omaha or Dallas|Houston#1."))
    cards: dict[str, int] = field(metadata=means("The cards paid: card kind to how many."))
    trains_left: int = field(metadata=means("The seat's trains after placing this route."))
    points: int = field(metadata=means("The points the route scores."))


@dataclass(frozen=True, kw_only=True)
class TurnPassed(Event):
    """A seat passed, having no other legal move."""

    seat: int = field(metadata=means("The seat, from 0."))


# --- the end -------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class FinalRoundBegan(Event):
    """A seat ended its turn with few enough trains: every seat, it included, has one more turn."""

    seat: int = field(metadata=means("The seat, from 0."))
    trains_left: int = field(metadata=means("The seat's trains left."))


@dataclass(frozen=True, kw_only=True)
class PlayStalled(Event):
    """Every seat passed in a row, so nothing can change any more: the game goes to final scoring."""

    passes: int = field(metadata=means("How many passes in a row."))


@dataclass(frozen=True, kw_only=True)
class TicketScored(Event):
    """A seat's destination ticket was scored: its points if completed, as many lost if not."""

    seat: int = field(metadata=means("The seat, from 0."))
    ticket: str = field(metadata=means("The ticket's id, its two cities, e.g. Denver|El Paso."))
    completed: bool = field(metadata=means("Whether the seat's routes join the ticket's two cities."))
    points: int = field(metadata=means("The points gained (negative when lost)."))


@dataclass(frozen=True, kw_only=True)
class LongestPathScored(Event):
    """The longest continuous path was found; its holders each score the bonus."""

    lengths: dict[str, int] = field(metadata=means("Seat (as a string) to its longest path, in trains."))
    longest: int = field(metadata=means("The longest of them."))
    winners: tuple[int, ...] = field(metadata=means("The seats holding it (none when no route was claimed)."))
    points: int = field(metadata=means("The bonus each holder scores."))


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    """The game is over: the final scores and the winners."""

    scores: dict[str, int] = field(metadata=means("Seat (as a string) to its final score."))
    completed_tickets: dict[str, int] = field(metadata=means("Seat (as a string) to how many tickets it completed."))
    winners: tuple[int, ...] = field(metadata=means(
        "The winning seats: highest score, then most completed tickets, then the longest path."))


EVENTS = Catalogue(
    TrainCardsShuffled, CardsDealt, MarketCardTurnedUp, TicketsShuffled, TicketsDealt, FirstPlayerChosen,
    TicketsKept, TicketChoicesRevealed, TicketsDrawn, TurnStarted, CardDrawn, MarketRefilled, MarketWiped,
    DiscardsShuffled, RouteClaimed, TurnPassed, FinalRoundBegan, PlayStalled, TicketScored, LongestPathScored,
    GameEnded, name="ticket_to_ride",
)
"""Ticket to Ride's own kinds; a record's other kinds are the core's (`domain/core/kinds.py`)."""
