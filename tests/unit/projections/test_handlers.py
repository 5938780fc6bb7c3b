"""The per-game projection handlers, pure: Ticket to Ride's board, VP by source and
trains; the fallback for games without a projector; figures are never changed in place."""

from __future__ import annotations

from domain.core import log
from domain.core.decider import Setup
from domain.core.events import Event
from domain.core.kinds import AdjustmentMade
from domain.ticket_to_ride import DECIDER as TTR
from domain.ticket_to_ride.claim_route import RouteClaimed
from domain.ticket_to_ride.figures import TicketToRideProjector
from domain.ticket_to_ride.scoring import LongestPathScored, TicketScored
from domain.ticket_to_ride.train_cards import CardDrawn
from projections.handlers import Figures, ScoresOnly, SeatFigures, projector_for
from tests.fakes.race import RACE, CounterAdvanced, RaceWon
from tests.usa import ROUTE_POINTS, ROUTES


def ttr_state():
    return TTR.initial_state(Setup(("a", "b", "c"), TTR.options({}, 3)))


def claim(seat: int, route: str) -> Event:
    length = ROUTES[route].length
    return RouteClaimed(seat=seat, route=route, cards={}, trains_left=45 - length, points=ROUTE_POINTS[length])


def adjustment(data: dict) -> AdjustmentMade:
    return AdjustmentMade(seat=data["seat"], adjusted=data["kind"], amount=data["amount"], detail=data["detail"],
                          reason="r", referee="ref", dispute=None)


def test_ticket_to_ride_figures_follow_claims_tickets_and_the_longest_path() -> None:
    projector = projector_for(TTR)
    assert isinstance(projector, TicketToRideProjector)
    state = ttr_state()
    start = projector.start(TTR, state)
    assert start.board == {} and [s.tracks for s in start.seats] == [{"trains": 45}] * 3
    assert [dict(s.by_source) for s in start.seats] == [{"routes": 0, "tickets": 0, "longest_path": 0}] * 3
    event = claim(1, "Denver|Omaha")
    state = TTR.evolve(state, event)
    after = projector.apply(start, event, state)
    assert after is not None and after.board == {"Denver|Omaha": 1}
    assert after.seats[1].by_source["routes"] == ROUTE_POINTS[4] and after.seats[1].tracks["trains"] == 41
    assert start.board == {} and start.seats[1].vp == 0  # the figures before are untouched
    scored = projector.apply(after, TicketScored(seat=1, ticket="x", completed=False, points=-8), state)
    longest = projector.apply(scored, LongestPathScored(lengths={}, longest=0, winners=(0, 1), points=10), state)
    assert [s.vp for s in longest.seats] == [10, ROUTE_POINTS[4] - 8 + 10, 0]
    assert projector.apply(longest, CardDrawn(seat=0, source="deck"), state) is None


def test_adjustments_show_as_their_own_source_and_a_piece_put_back_frees_the_route() -> None:
    projector = projector_for(TTR)
    state = TTR.evolve(ttr_state(), claim(0, "Denver|Omaha"))
    figures = projector.apply(projector.start(TTR, ttr_state()), claim(0, "Denver|Omaha"), state)
    bonus = {"seat": 2, "kind": "vp", "amount": 4, "detail": {}}
    figures = projector.apply(figures, adjustment(bonus), log.adjusted(TTR, state, bonus))
    assert figures.seats[2].by_source["adjustment"] == 4 and figures.seats[2].vp == 4
    piece = {"seat": 0, "kind": "piece", "amount": 0, "detail": {"route": "Denver|Omaha"}}
    back = log.adjusted(TTR, state, piece)
    figures = projector.apply(figures, adjustment(piece), back)
    assert figures.board == {} and figures.seats[0].vp == 0 and figures.seats[0].tracks["trains"] == 45
    assert projector.kinds() is not None and log.ADJUSTMENT_MADE in projector.kinds()


def test_games_without_a_projector_get_their_scores() -> None:
    projector = projector_for(RACE)
    assert isinstance(projector, ScoresOnly)
    state = RACE.initial_state(Setup(("a", "b"), {"goal": 3}))
    figures = projector.start(RACE, state)
    assert [s.vp for s in figures.seats] == [0, 0]
    won = RACE.evolve(state, RaceWon(seat=1))
    assert [s.vp for s in projector.apply(figures, RaceWon(seat=1), won).seats] == [0, 1]
    assert projector.apply(figures, CounterAdvanced(seat=0, by=1, counter=1), state) is None


def test_figures_helpers_copy_on_write() -> None:
    figures = Figures({"a": 1}, (SeatFigures({"x": 1}), SeatFigures({"x": 2}, 5, {"cash": 3})))
    changed = figures.with_cell("a", None).with_cell("b", {"owner": 1}).add_vp(1, "y", 4).with_track(0, "cash", 9)
    assert figures.board == {"a": 1} and figures.seats[1].vp == 2 and figures.seats[0].tracks == {}
    assert changed.board == {"b": {"owner": 1}} and changed.seats[1].vp == 6 and changed.seats[1].income == 5
    assert changed.seats[0].tracks == {"cash": 9}
