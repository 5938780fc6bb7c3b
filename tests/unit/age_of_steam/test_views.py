"""Views: plain JSON, the same for every audience (Age of Steam keeps no secrets), holding the
board, the seats' tracks and the VP tally by source."""

from __future__ import annotations

import json

from domain.core.events import PUBLIC, REFEREE, Audience
from domain.core.leaks import leaks
from tests.rust_belt import DECIDER

from .helpers import new_game, table
from .network import CINCINNATI, EVANSVILLE, board


def test_the_view_shows_the_whole_table() -> None:
    state = table(income=[3, 1, 0], shares=[4, 2, 2], board=board(), cubes={EVANSVILLE: ["blue"]})
    view = DECIDER.view(state, PUBLIC)
    json.dumps(view)
    assert view["phase"] == "build" and view["active_seats"] == [0] and view["turn"] == 1
    assert view["order"] == [0, 1, 2] and view["build"]["limit"] == 3
    seat = view["seats"][0]
    assert {k: seat[k] for k in ("cash", "income", "shares", "locomotive", "eliminated")} == {
        "cash": 10, "income": 3, "shares": 4, "locomotive": 1, "eliminated": False,
    }
    assert seat["vp"] == {"income": 9, "shares": -12, "track": 4, "total": 1}
    tiles = {t["hex"]: t for t in view["board"]}
    assert tiles["9,8"]["tile"] == "gentle_curve" and tiles["9,8"]["rotation"] == 1
    assert tiles["9,8"]["track"] == [{"exits": [1, 3], "town": False, "owner": 0}]
    assert tiles["10,8"]["place"] == "Indianapolis" and [t["owner"] for t in tiles["10,8"]["track"]] == [2, 1, 0]
    assert view["cities"][EVANSVILLE]["goods"] == ["blue"] and view["cities"][CINCINNATI]["colour"] == "blue"
    assert len(view["goods_display"]) == 20 and sum(len(c) for c in view["goods_display"].values()) == 52
    assert sum(link["complete"] for link in view["links"]) == 4
    assert view["scores"] == {str(s): DECIDER.scores(state)[s] for s in range(3)}


def test_every_audience_sees_the_same() -> None:
    state, _, _ = new_game(4)
    public = DECIDER.view(state, PUBLIC)
    assert DECIDER.view(state, REFEREE) == public
    assert leaks(public, {seat: DECIDER.view(state, Audience(seat=seat)) for seat in range(4)}) == []


def test_the_auction_view() -> None:
    state = table(phase="auction", bids={0: 3}, high_bidder=0, current=1, pass_holder=2)
    auction = DECIDER.view(state, PUBLIC)["auction"]
    assert auction == {"bidders": [0, 1, 2], "high_bid": 3, "high_bidder": 0, "bids": {"0": 3, "1": 0, "2": 0},
                       "dropped": [], "turn_order_pass": 2}


def test_the_state_survives_the_snapshot_codec() -> None:
    from domain.core.codec import decode, encode

    from .helpers import tile
    from .network import board as network_board

    state = table(phase="auction", bids={0: 3}, high_bidder=0, current=1, pass_holder=2, new_cities={"7,3": "A"},
                  board=[*network_board(), tile("7,6", "straight", 0, None)], loco_upgraded=[1])
    assert decode(type(state), json.loads(json.dumps(encode(state)))) == state
    built = table(board=network_board(), placed=["9,8"])
    assert decode(type(built), json.loads(json.dumps(encode(built)))) == built
