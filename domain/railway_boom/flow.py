"""The automatic steps between moves: phases starting and ending, auctions settling,
income, goal reservations, the end of a round and of the game. `advance` runs them until
a seat must act (or the game is over)."""

from __future__ import annotations

from domain.core.events import Secret
from domain.core.randomness import Randomness, shuffled
from domain.railway_boom import bidding, effects, legal, scoring
from domain.railway_boom import events as ev
from domain.railway_boom.content import ANY
from domain.railway_boom.state import (
    ACT,
    AUCTIONS,
    BID,
    DEVELOPMENT,
    EXPANSION,
    FREE,
    GOALS,
    INCOME,
    OPERATION,
    OVER,
    ROUNDS,
    TRAINS,
)
from domain.railway_boom.steps import Steps

# What each draw of a round is called at a table (`rng.draw`'s `what`).
LOCOMOTIVES = "trains: locomotive cards revealed"
CARS = "trains: car cards revealed"
STATIONS = "expansion: station cards revealed"
ROWS = "development: cards dealt into rows of 3, in the order turned up"


def start_round(steps: Steps, number: int) -> None:
    _start(steps, number, TRAINS)
    players = steps.state.players
    # R35: a short deck reveals what remains.
    locomotives = steps.draw("locomotive", players, LOCOMOTIVES)
    cars = steps.draw("car", players + 2, CARS)
    steps.emit(ev.TrainsRevealed(locomotives=locomotives, cars=cars, automatic=True))


def _start(steps: Steps, number: int, phase: str) -> None:
    if phase == GOALS:
        goal = steps.state.goals[number - 1]
        steps.emit(ev.PhaseStarted(round=number, phase=phase, resource=steps.content.goals[goal].resource, goal=goal,
                                   automatic=True))
    else:
        steps.emit(ev.PhaseStarted(round=number, phase=phase, resource=AUCTIONS.get(phase, ""), automatic=True))


def advance(steps: Steps, rng: Randomness) -> None:
    while steps.state.phase != OVER and not steps.state.pending:
        state = steps.state
        if state.step == BID:
            seat = bidding.to_bid(state)
            if seat is None:
                _settle(steps)
            elif not bidding.spaces(steps.content, state, seat):
                # R8: a seat that can reach no empty higher space must lock in.
                steps.emit(ev.BidLocked(seat=seat, space=state.bids.get(seat, 0), automatic=True))
            else:
                return
        elif state.step == ACT and state.acting:
            seat = state.acting[0]
            if legal.actions(steps.content, state, seat):
                return
            steps.emit(ev.TurnEnded(seat=seat, power_lost=state.seats[seat].power, automatic=True))
        elif state.phase == OPERATION and state.sealed is not None and not state.sealed.complete:
            return
        else:
            _end_phase(steps, rng)


def _settle(steps: Steps) -> None:
    """Everyone locked in: each pays by rank (R10), the discs go back (R9). A "?" payment
    with more than one possible mix waits for its seat to choose the mix (R12); settling
    goes on from the next rank once it is paid."""
    state, content = steps.state, steps.content
    ranks = bidding.ranks(state)
    for rank, seat in enumerate(ranks, start=1):
        if seat in steps.state.settled:
            continue
        bid = state.bids.get(seat, 0)
        payment = bidding.share(content, state.players, rank)
        due = bidding.amount(payment, bid)
        resource = state.bid_resource
        paid = bidding.forced_mix(steps.state.seats[seat], due) if resource == ANY else ({resource: due} if due else {})
        if paid is None:
            steps.emit(ev.PaymentAwaited(seat=seat, rank=rank, bid=bid, share=payment, amount=due, automatic=True))
            return
        steps.emit(ev.BidPaid(seat=seat, rank=rank, bid=bid, share=payment, paid=paid, automatic=True))
    steps.emit(ev.ActionOrderSet(ranks=ranks, order=tuple(reversed(ranks)), automatic=True))
    if state.phase == GOALS:
        _reserve(steps)


def _reserve(steps: Steps) -> None:
    """R29: in rank order, each cube on the highest free space of the round's goal card."""
    state = steps.state
    goal = state.goals[state.round - 1]
    for seat in state.acting:
        row = steps.state.spaces[goal]
        free = [i for i, holder in enumerate(row) if holder == FREE]
        if free and steps.state.seats[seat].goal_cubes:
            space = free[0]
            steps.emit(ev.GoalReserved(seat=seat, goal=goal, space=space,
                                       multiplier=steps.content.goals[goal].multipliers[space], automatic=True))
        else:
            steps.emit(ev.GoalMissed(seat=seat, goal=goal, automatic=True))
        steps.emit(ev.TurnEnded(seat=seat, automatic=True))


def _end_phase(steps: Steps, rng: Randomness) -> None:
    state = steps.state
    if state.phase == TRAINS:
        if state.offer:
            steps.emit(ev.CardsBoxed(cards=state.offer, automatic=True))
        _start(steps, state.round, EXPANSION)
        steps.emit(ev.StationCardsRevealed(cards=steps.draw("station", state.players, STATIONS), automatic=True))
    elif state.phase == EXPANSION:
        if state.offer:
            steps.emit(ev.CardsBoxed(cards=state.offer, automatic=True))
        _start(steps, state.round, DEVELOPMENT)
        steps.emit(ev.RowsDealt(rows=_rows(steps), automatic=True))
    elif state.phase == DEVELOPMENT:
        leftovers = [card for row in state.rows for card in row]
        if leftovers:
            order = rng.shuffle(leftovers)
            steps.emit(ev.CardsUnderDeck(count=len(order), secrets=(Secret((), shuffled(order)),), automatic=True))
        _start(steps, state.round, INCOME)
        _income(steps)
        _start(steps, state.round, OPERATION)
    elif state.phase == OPERATION:
        _start(steps, state.round, GOALS)
    elif state.phase == GOALS:
        steps.emit(ev.CardsStoodUp(round=state.round, automatic=True))
        if state.round < ROUNDS:
            start_round(steps, state.round + 1)
        else:
            scoring.final(steps)


def _rows(steps: Steps) -> tuple[tuple[str, ...], ...]:
    """R20: 3 cards per player in draw order, rows of 3, each sorted by price (stable)."""
    dealt = steps.draw("development", 3 * steps.state.players, ROWS)
    prices = steps.content.developments
    rows = [dealt[i:i + 3] for i in range(0, len(dealt), 3)]
    return tuple(tuple(sorted(row, key=lambda card: prices[card].price)) for row in rows)


def _income(steps: Steps) -> None:
    """Phase 4: the "+" beside each current level, every track (R23); no cube moves (R24)."""
    for seat in range(steps.state.players):
        for track, level in steps.state.seats[seat].income.items():
            plus = steps.content.income[track][level - 1].plus
            steps.gain(seat, track, plus, "income")


def run_effects(steps: Steps, seat: int, source: str) -> None:
    """The immediate effect of a development card just gained."""
    card = steps.content.developments[source]
    if card.timing == "immediate":
        effects.apply(steps, seat, card.effect, source)
