"""Ticket to Ride played as at a table: a shuffled box dealt out (the observed setup), moves
chosen by a bot and written in the game's notation, every card or ticket turned up entered
as an outcome line, all through the core's `Transcript`. The score sheet in tests/sheets/
was written this way (`python -m tests.unit.ticket_to_ride.table_playout`)."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domain.core.randomness import Label
from domain.core.table import OutcomeNeeded, TableRandom, format_outcome
from domain.core.transcription import Transcript
from domain.ticket_to_ride.board import LOCOMOTIVE, Board
from domain.ticket_to_ride.decider import TicketToRide
from domain.ticket_to_ride.draws import ticket_name
from domain.ticket_to_ride.notation import TicketToRideNotation

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")
SHEETS = Path(__file__).resolve().parents[2] / "sheets"


def observed_setup(board: Board, names: Sequence[str], chooser: random.Random) -> dict[str, Any]:
    """A box shuffled and dealt: hands, the market (wiped while it shows three locomotives),
    the opening tickets and the first player, as a referee would write them down."""
    cards = list(board.train_cards)
    chooser.shuffle(cards)
    hands = {name: [cards.pop() for _ in range(board.starting_hand)] for name in names}
    wiped: list[list[str]] = []
    market = [cards.pop() for _ in range(board.market_size)]
    while market.count(LOCOMOTIVE) >= board.wipe_locomotives and len(wiped) < 3:
        wiped.append(market)
        market = [cards.pop() for _ in range(board.market_size)]
    tickets = sorted(board.tickets)
    chooser.shuffle(tickets)
    label = ticket_name(board)
    observed: dict[str, Any] = {
        "hands": hands, "market": market,
        "tickets": {name: [label(tickets.pop()) for _ in range(board.opening_tickets)] for name in names},
        "first": chooser.choice(list(names)),
    }
    if wiped:
        observed["wiped"] = wiped
    return observed


@dataclass
class TablePlay:
    transcript: Transcript
    observed: dict[str, Any]
    lines: list[str] = field(default_factory=list)
    """Every line entered, moves and outcomes, in order."""
    positions: list[tuple[Any, int, list[dict[str, Any]]]] = field(default_factory=list)
    """(state, seat, legal moves) before each move, for the notation's round trips."""


def play_at_table(decider: TicketToRide, seats: int, seed: int, level: str = "greedy", short: bool = False,
                  max_lines: int = 4000) -> TablePlay:
    """A whole game: each move written by `notation` (long, or short forms), each card turned
    up drawn at random from what the deck holds and entered as the referee would type it."""
    chooser = random.Random(seed)
    names = NAMES[:seats]
    observed = observed_setup(decider.board, names, chooser)
    transcript = Transcript(decider, names, {}, observed)
    play = TablePlay(transcript, observed)
    notation = TicketToRideNotation(decider.board, short=short)
    bot = decider.bots[level]
    while not transcript.over and len(play.lines) < max_lines:
        pending = transcript.pending
        if pending is not None:
            pile = _pile_asked(decider, transcript)
            line = format_outcome(pending.request, chooser.sample(pile, pending.request.count))
        else:
            state = transcript.state
            seat = min(decider.active_seats(state))
            moves = decider.legal_moves(state, seat)
            play.positions.append((state, seat, moves))
            line = notation.format(state, names, seat, dict(bot.choose(state, seat, moves, chooser)))
        transcript.enter(line)
        play.lines.append(line)
    return play


class _Peek(TableRandom):
    """Outcomes entered so far, noting the pile the rules draw from next."""

    pile: list[Any]

    def draw(self, pile: Sequence[Any], count: int, what: str, label: Label = str, by: int | None = None) -> list[Any]:
        self.pile = list(pile)
        return super().draw(pile, count, what, label, by)


def _pile_asked(decider: TicketToRide, transcript: Transcript) -> list[Any]:
    """What the deck holds when the pending move asks for its next card or tickets."""
    pending = transcript.pending
    assert pending is not None
    peek = _Peek(pending.entered)
    try:
        decider.decide(transcript.state, pending.seat, pending.move, peek)
    except OutcomeNeeded:
        return peek.pile
    raise AssertionError("the pending move needs no outcome")


def write_sheet(decider: TicketToRide, seats: int, seed: int) -> None:
    play = play_at_table(decider, seats, seed)
    scores = decider.scores(play.transcript.state)
    head = [f"# Ticket to Ride, USA map, {seats} players: {', '.join(NAMES[:seats])}; the opening "
            "(hands, market, tickets, first player) is in ticket_to_ride.observed.json.",
            "# A move is one line; the card or tickets it turns up follow it, one line each",
            "# (a refill of the market is entered by the referee as the card turned up).",
            f"# Final scores: {', '.join(f'{NAMES[s]} {p}' for s, p in scores.items())}."]
    (SHEETS / "ticket_to_ride.txt").write_text("\n".join([*head, *play.lines]) + "\n")
    (SHEETS / "ticket_to_ride.observed.json").write_text(json.dumps(play.observed, indent=1) + "\n")


if __name__ == "__main__":
    from domain import games
    from service import content

    content.install()
    write_sheet(games.current("ticket_to_ride"), int(sys.argv[1]) if len(sys.argv) > 1 else 3,
                int(sys.argv[2]) if len(sys.argv) > 2 else 13)
