"""Every card and ticket taken from a deck, asked of the game's randomness in the table's
words (`Randomness.draw`): what is drawn, how many, and whose secret it is.

A seeded game answers with the top of the deck, as it always has; a game played at a table
answers with what was entered, checked against what the deck still holds. Either way the
events carry the cards and tickets drawn, and `evolve` takes those very ones out of the deck.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.core.randomness import Randomness
from domain.ticket_to_ride.board import Board

STARTING_HAND = "a starting hand"
MARKET_CARD = "a card turned up in the market"
DECK_CARD = "a card from the deck"
OPENING_TICKETS = "opening tickets"
DRAWN_TICKETS = "destination tickets drawn"
FIRST_PLAYER = "the first player"


def ticket_name(board: Board) -> Callable[[str], str]:
    """How a ticket is named at the table: its two cities as printed, joined by a plain
    hyphen so it can be typed ("Denver-El Paso")."""
    return lambda ticket: f"{board.tickets[ticket].a}-{board.tickets[ticket].b}"


def hand(board: Board, deck: tuple[str, ...], seat: int, rng: Randomness) -> list[str]:
    return rng.draw(deck, min(board.starting_hand, len(deck)), STARTING_HAND, by=seat)


def face_up(deck: tuple[str, ...], rng: Randomness) -> str:
    return rng.draw(deck, 1, MARKET_CARD)[0]


def blind(deck: tuple[str, ...], seat: int, rng: Randomness) -> str:
    return rng.draw(deck, 1, DECK_CARD, by=seat)[0]


def tickets(board: Board, pile: tuple[str, ...], count: int, what: str, seat: int, rng: Randomness,
            returned: int = 0) -> list[str]:
    """`count` tickets from the top of `pile`, whose last `returned` were put back under it
    (their order known): the draw reaches them only for what the tickets above cannot give."""
    # Ruling 3: a short ticket deck gives what it has.
    count = min(count, len(pile))
    return rng.draw(pile[:max(count, len(pile) - returned)], count, what, ticket_name(board), by=seat)


def first_player(names: tuple[str, ...], rng: Randomness) -> int:
    return rng.pick(names, FIRST_PLAYER)
