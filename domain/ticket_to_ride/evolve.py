"""`evolve`: the state after one event. It never validates and never draws randomness.
What the state cannot know is read from the event: a shuffle's order, a seat's choice of
tickets, and every card or ticket taken from a deck. A drawn card leaves the deck by value
(its first copy), not from the top: at a table a deck's order is never known, so the card
turned up is whatever was entered; in a seeded game it is the top card, and taking the
first copy of each drawn value takes exactly the top cards.

Each of the game's kinds (`events.py`) has one handler; any other event is refused with
`UnknownKind`, so a misspelt or foreign kind is an error rather than a silently ignored
event (the core's kinds never get here: `fold.step` handles them)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

from domain.core import sealed
from domain.core.catalogue import UnknownKind
from domain.core.events import Event
from domain.core.randomness import RANDOM_KEY
from domain.core.state import replace, replace_seat
from domain.ticket_to_ride.board import Board
from domain.ticket_to_ride.events import (
    CardDrawn,
    CardsDealt,
    DiscardsShuffled,
    FinalRoundBegan,
    FirstPlayerChosen,
    GameEnded,
    LongestPathScored,
    MarketCardTurnedUp,
    MarketRefilled,
    MarketWiped,
    PlayStalled,
    RouteClaimed,
    TicketChoicesRevealed,
    TicketScored,
    TicketsDealt,
    TicketsDrawn,
    TicketsKept,
    TicketsShuffled,
    TrainCardsShuffled,
    TurnPassed,
    TurnStarted,
)
from domain.ticket_to_ride.state import OPENING, OVER, PLAY, Seat, State


def evolve(board: Board, state: State, event: Event) -> State:
    apply = _APPLY.get(type(event))
    if apply is None:
        raise UnknownKind(event.kind, "Ticket to Ride")
    return apply(board, state, event)


def _added(hand: dict[str, int], cards: Iterable[str]) -> dict[str, int]:
    out = dict(hand)
    for card in cards:
        out[card] += 1
    return out


def _without(pile: tuple[str, ...], drawn: Iterable[str]) -> tuple[str, ...]:
    """`pile` with the first copy of each drawn item taken out."""
    out = list(pile)
    for item in drawn:
        out.remove(item)
    return tuple(out)


def _shuffle_order(event: Event) -> tuple[str, ...]:
    return tuple(event.secret()[RANDOM_KEY]["shuffle"])


def _train_cards_shuffled(board: Board, state: State, event: TrainCardsShuffled) -> State:
    return replace(state, deck=_shuffle_order(event))


def _cards_dealt(board: Board, state: State, event: CardsDealt) -> State:
    cards = event.secret()["cards"]
    hand = _added(state.seats[event.seat].hand, cards)
    return replace(replace_seat(state, event.seat, hand=hand), deck=_without(state.deck, cards))


def _card_turned_up(board: Board, state: State, event: MarketCardTurnedUp | MarketRefilled) -> State:
    market = list(state.market)
    market[event.slot] = event.card
    return replace(state, market=tuple(market), deck=_without(state.deck, (event.card,)))


def _market_wiped(board: Board, state: State, event: MarketWiped) -> State:
    wiped = tuple(card for card in state.market if card is not None)
    return replace(state, market=(None,) * len(state.market), discard=state.discard + wiped)


def _tickets_shuffled(board: Board, state: State, event: TicketsShuffled) -> State:
    return replace(state, ticket_deck=_shuffle_order(event), tickets_returned=0)


def _tickets_offered(board: Board, state: State, event: TicketsDealt | TicketsDrawn) -> State:
    offered = tuple(event.secret()["tickets"])
    # A draw takes the shuffled tickets first, and reaches the returned ones under them only
    # for what the shuffled ones could not give.
    above = len(state.ticket_deck) - state.tickets_returned
    returned = state.tickets_returned - max(0, len(offered) - above)
    return replace(replace_seat(state, event.seat, offered=offered), ticket_deck=_without(state.ticket_deck, offered),
                   tickets_returned=returned, passes_in_a_row=0)


def _first_player_chosen(board: Board, state: State, event: FirstPlayerChosen) -> State:
    # Every seat dealt tickets chooses among them; a short ticket deck may have dealt a seat none.
    choosing = tuple(index for index, seat in enumerate(state.seats) if seat.offered)
    return replace(state, first_player=event.seat, phase=OPENING, sealed=sealed.open_phase(OPENING, choosing))


def _tickets_kept(board: Board, state: State, event: TicketsKept) -> State:
    seat = event.seat
    if state.phase == OPENING:
        assert state.sealed is not None
        return replace(replace_seat(state, seat, offered=()), sealed=state.sealed.submitted(seat, event.secret()))
    kept, returned = tuple(event.secret()["kept"]), tuple(event.secret()["returned"])
    state = replace_seat(state, seat, tickets=state.seats[seat].tickets + kept, offered=())
    return replace(state, ticket_deck=state.ticket_deck + returned, tickets_returned=state.tickets_returned + len(returned))


def _ticket_choices_revealed(board: Board, state: State, event: TicketChoicesRevealed) -> State:
    assert state.sealed is not None
    choices = state.sealed.choices
    seats = tuple(replace(seat, tickets=seat.tickets + tuple(choices[index]["kept"])) if index in choices else seat
                  for index, seat in enumerate(state.seats))
    returned = tuple(t for index in sorted(choices) for t in choices[index]["returned"])
    return replace(state, seats=seats, ticket_deck=state.ticket_deck + returned,
                   tickets_returned=state.tickets_returned + len(returned), sealed=None)


def _turn_started(board: Board, state: State, event: TurnStarted) -> State:
    return replace(state, phase=PLAY, current=event.seat, cards_drawn=0)


def _card_drawn(board: Board, state: State, event: CardDrawn) -> State:
    seat = event.seat
    if event.source == "market":
        slot = cast(int, event.slot)
        card = cast(str, state.market[slot])
        market = list(state.market)
        market[slot] = None
        state = replace(state, market=tuple(market))
    else:
        card = event.secret()["card"]
        state = replace(state, deck=_without(state.deck, (card,)))
    state = replace_seat(state, seat, hand=_added(state.seats[seat].hand, (card,)))
    return replace(state, cards_drawn=state.cards_drawn + 1, passes_in_a_row=0)


def _discards_shuffled(board: Board, state: State, event: DiscardsShuffled) -> State:
    return replace(state, deck=state.deck + _shuffle_order(event), discard=())


def _route_claimed(board: Board, state: State, event: RouteClaimed) -> State:
    seat, route, paid = event.seat, board.routes[event.route], event.cards
    before = state.seats[seat]
    hand = dict(before.hand)
    for kind, count in paid.items():
        hand[kind] -= count
    spent = tuple(kind for kind in board.card_kinds for _ in range(paid.get(kind, 0)))
    state = replace_seat(
        state,
        seat,
        hand=hand,
        trains=before.trains - route.length,
        score=before.score + board.route_points[route.length],
        scored=(*before.scored, event.points),
    )
    claims = dict(state.claims)
    claims[route.id] = seat
    return replace(state, claims=claims, discard=state.discard + spent, passes_in_a_row=0)


def _turn_passed(board: Board, state: State, event: TurnPassed) -> State:
    return replace(state, passes_in_a_row=state.passes_in_a_row + 1)


def _final_round_began(board: Board, state: State, event: FinalRoundBegan) -> State:
    return replace(state, final_round_trigger=event.seat)


def _play_stalled(board: Board, state: State, event: PlayStalled) -> State:
    # The passes are already counted; final scoring follows as events of its own.
    return state


def _ticket_scored(board: Board, state: State, event: TicketScored) -> State:
    seat, ticket = event.seat, board.tickets[event.ticket]
    before = state.seats[seat]
    points = ticket.points if event.completed else -ticket.points
    return replace_seat(state, seat, score=before.score + points, scored=(*before.scored, event.points))


def _longest_path_scored(board: Board, state: State, event: LongestPathScored) -> State:
    lengths = tuple(event.lengths[str(seat)] for seat in range(len(state.seats)))
    seats: list[Seat] = list(state.seats)
    for winner in event.winners:
        before = seats[winner]
        seats[winner] = replace(
            before, score=before.score + board.longest_path_bonus, scored=(*before.scored, event.points)
        )
    return replace(state, seats=tuple(seats), longest_paths=lengths)


def _game_ended(board: Board, state: State, event: GameEnded) -> State:
    return replace(state, phase=OVER, current=None, winners=tuple(event.winners))


_APPLY: dict[type[Event], Callable[[Board, State, Any], State]] = {
    TrainCardsShuffled: _train_cards_shuffled,
    CardsDealt: _cards_dealt,
    MarketCardTurnedUp: _card_turned_up,
    MarketRefilled: _card_turned_up,
    MarketWiped: _market_wiped,
    TicketsShuffled: _tickets_shuffled,
    TicketsDealt: _tickets_offered,
    TicketsDrawn: _tickets_offered,
    FirstPlayerChosen: _first_player_chosen,
    TicketsKept: _tickets_kept,
    TicketChoicesRevealed: _ticket_choices_revealed,
    TurnStarted: _turn_started,
    CardDrawn: _card_drawn,
    DiscardsShuffled: _discards_shuffled,
    RouteClaimed: _route_claimed,
    TurnPassed: _turn_passed,
    FinalRoundBegan: _final_round_began,
    PlayStalled: _play_stalled,
    TicketScored: _ticket_scored,
    LongestPathScored: _longest_path_scored,
    GameEnded: _game_ended,
}
"""One handler per kind the game declares (`test_evolve_handles_every_declared_kind`)."""
