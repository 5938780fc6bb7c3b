"""Drawing destination tickets during play: keep at least one, the rest to the bottom,
short draws (ruling 3)."""

from __future__ import annotations

from domain.core.errors import IllegalMove
from domain.ticket_to_ride import DECIDER
from tests.usa import TICKETS

from .conftest import kinds, play, refused, table

ALL = list(TICKETS)


def test_draw_three_keep_one_and_return_the_rest_to_the_bottom() -> None:
    state = table()
    top, rest = state.ticket_deck[:3], state.ticket_deck[3:]
    state, events = play(state, 0, {"type": "draw_tickets"})
    assert kinds(events) == ["TicketsDrawn"]
    assert events[0].data == {"seat": 0, "count": 3}
    assert events[0].secrets[0].to == (0,) and events[0].secret() == {"tickets": list(top)}
    assert state.current == 0 and state.seats[0].offered == top
    assert refused(state, 0, {"type": "keep_tickets", "keep": []}, IllegalMove).code == "tickets_keep_too_few"
    state, events = play(state, 0, {"type": "keep_tickets", "keep": [top[1]]})
    assert kinds(events) == ["TicketsKept", "TurnStarted"]
    assert events[0].data == {"seat": 0, "kept": 1, "returned": 2}
    assert events[0].secret() == {"kept": [top[1]], "returned": [top[0], top[2]]}
    assert state.seats[0].tickets == (top[1],)
    assert state.ticket_deck == (*rest, top[0], top[2])
    assert DECIDER.invariants(state) == []


def test_tickets_must_be_chosen_before_anything_else() -> None:
    state, _ = play(table(), 0, {"type": "draw_tickets"})
    assert refused(state, 0, {"type": "draw_card", "source": "deck"}, IllegalMove).code == "must_keep_tickets"
    assert {m["type"] for m in DECIDER.legal_moves(state, 0)} == {"keep_tickets"}


def test_a_short_ticket_deck_gives_what_it_has() -> None:
    # Ruling 3: two tickets left, both drawn; keeping one of two is enough.
    state = table(tickets=[ALL[:14], ALL[14:28]], ticket_deck=ALL[28:])
    state, events = play(state, 0, {"type": "draw_tickets"})
    assert events[0].data["count"] == 2 and state.ticket_deck == ()
    assert len(DECIDER.legal_moves(state, 0)) == 3
    state, _ = play(state, 0, {"type": "keep_tickets", "keep": [ALL[29]]})
    assert state.ticket_deck == (ALL[28],)


def test_no_ticket_draw_from_an_empty_ticket_deck() -> None:
    state = table(tickets=[ALL[:15], ALL[15:]], ticket_deck=[])
    assert refused(state, 0, {"type": "draw_tickets"}, IllegalMove).code == "ticket_deck_empty"
    assert {"type": "draw_tickets"} not in DECIDER.legal_moves(state, 0)


def test_keep_without_an_offer_is_refused() -> None:
    error = refused(table(), 0, {"type": "keep_tickets", "keep": [ALL[0]]}, IllegalMove)
    assert error.code == "no_tickets_offered"
