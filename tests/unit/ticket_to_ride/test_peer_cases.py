"""Every case of the peer test file (longest path, ticket completion, ticket keep options,
face-up draw options). The file is the project's reference copy,
kept in the repository so a fresh clone runs it; a test below checks it still matches the
project's original whenever that is beside the checkout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.scoring import connected, longest_path
from domain.ticket_to_ride.state import OPENING, PLAY
from tests.usa import ROUTES, TICKETS

from .conftest import table

PEER_CASES = Path(__file__).parents[2] / "fixtures" / "ticket_to_ride" / "peer_test_cases.json"
SHARED_ORIGINAL = (Path(__file__).parents[3] / ".." / "shared" / "reference" / "ticket_to_ride" / "peer_test_cases.json").resolve()


def peer_cases() -> dict[str, Any]:
    with PEER_CASES.open(encoding="utf-8") as file:
        data: dict[str, Any] = json.load(file)
    return data


CASES = peer_cases()


def test_the_peer_file_holds_every_section() -> None:
    assert CASES["schema_version"] == 1
    assert len(CASES["longest_path"]) == 3 and len(CASES["ticket_completion"]) == 4
    assert CASES["ticket_keep_options"] and CASES["face_up_draw_options"]


@pytest.mark.parametrize("case", CASES["longest_path"], ids=lambda c: c["name"])
def test_longest_path(case: dict[str, Any]) -> None:
    routes = [ROUTES[route] for route in case["routes"]]
    assert longest_path(routes) == case["expected_length"]


@pytest.mark.parametrize("case", CASES["ticket_completion"], ids=lambda c: c["name"])
def test_ticket_completion(case: dict[str, Any]) -> None:
    routes = [ROUTES[route] for route in case["routes"]]
    ticket = case["ticket"]
    assert any(t.points == ticket["points"] and {t.a, t.b} == {ticket["a"], ticket["b"]} for t in TICKETS.values())
    assert connected(routes, ticket["a"], ticket["b"]) is case["expected_completed"]
    assert connected(routes, ticket["b"], ticket["a"]) is case["expected_completed"]


@pytest.mark.parametrize(
    "case", [c for group in CASES["ticket_keep_options"] for c in group["cases"]], ids=lambda c: str(c)
)
def test_ticket_keep_options(case: dict[str, Any]) -> None:
    offered = list(TICKETS)[: case["drawn"]]
    others = list(TICKETS)[case["drawn"] : case["drawn"] * 2]
    state = table(
        offered=[offered, others if case["is_initial_turn"] else []],
        phase=OPENING if case["is_initial_turn"] else PLAY,
    )
    moves = DECIDER.legal_moves(state, 0)
    assert all(move["type"] == "keep_tickets" for move in moves)
    assert len(moves) == case["legal_subsets"]
    assert sorted({len(move["keep"]) for move in moves}) == case["legal_keep_sizes"]


@pytest.mark.parametrize(
    "face_up, case",
    [(group["face_up"], c) for group in CASES["face_up_draw_options"] for c in group["cases"]],
    ids=lambda c: str(c),
)
def test_face_up_draw_options(face_up: list[str], case: dict[str, Any]) -> None:
    if case["deck_nonempty"]:
        state = table(market=face_up, cards_drawn=case["cards_already_drawn_this_turn"])
    else:
        # Every card not face up is in the seats' hands: no deck, no discard.
        state = table(market=face_up, hands=[{}, {}], deck=(), cards_drawn=case["cards_already_drawn_this_turn"])
    moves = [m for m in DECIDER.legal_moves(state, 0) if m["type"] == "draw_card"]
    drawable = {"blind_deck" if move["source"] == "deck" else face_up[move["slot"]] for move in moves}
    assert drawable == set(case["legal"])


def test_the_copy_matches_the_shared_original() -> None:
    if SHARED_ORIGINAL.exists():
        assert json.loads(SHARED_ORIGINAL.read_text(encoding="utf-8")) == CASES
    assert CASES["longest_path"] and CASES["ticket_completion"]
