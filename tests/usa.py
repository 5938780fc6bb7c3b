"""The shipped USA map under the names the Ticket to Ride tests use (the rules themselves
read the map only through the decider they are bound to)."""

from __future__ import annotations

import service  # noqa: F401  (installs the shelf of shipped packs)
from domain import games
from domain.ticket_to_ride.board import Board

DECIDER = games.current("ticket_to_ride")
BOARD: Board = DECIDER.board

CITIES = BOARD.cities
ROUTES = BOARD.routes
TICKETS = BOARD.tickets
COLOURS = BOARD.colours
CARD_KINDS = BOARD.card_kinds
TRAIN_CARDS = BOARD.train_cards
CARD_COUNTS = BOARD.card_counts
ROUTE_POINTS = BOARD.route_points
ROUTES_AT = BOARD.routes_at
TWIN = BOARD.twin
TRAINS_PER_SEAT = BOARD.trains_per_seat
MARKET_SIZE = BOARD.market_size
neighbours = BOARD.neighbours
