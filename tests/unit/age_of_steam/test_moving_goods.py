"""Moving goods: completed links only, the locomotive's reach, the first city of the good's
colour, no stop twice, income to each link's owner; the locomotive instead of a move."""

from __future__ import annotations

from domain.age_of_steam.state import MOVE, State
from domain.age_of_steam.track import network
from domain.core.errors import MalformedMove
from tests.rust_belt import DECIDER, MAP

from .helpers import kinds, play, refused, table, tile
from .network import CINCINNATI, EVANSVILLE, FORT_WAYNE, INDIANAPOLIS, board, link


def position(**kwargs: object) -> State:
    options: dict[str, object] = {
        "phase": MOVE,
        "board": board(),
        "cubes": {EVANSVILLE: ["blue", "red", "yellow"], CINCINNATI: ["red"]},
        "locomotive": [3, 3, 3],
    }
    options.update(kwargs)
    return table(**options)  # type: ignore[arg-type]


def deliver(state: State, seat: int, city: str, cube: str, *path: str) -> tuple[State, dict[str, object]]:
    state, events = play(state, seat, {"type": "deliver", "city": city, "cube": cube, "path": list(path)})
    assert events[0].kind == "GoodsDelivered"
    return state, events[0].data


def test_a_delivery_pays_each_links_owner() -> None:
    state = position()
    path = [link(state, EVANSVILLE, INDIANAPOLIS), link(state, INDIANAPOLIS, CINCINNATI, "11,8")]
    after, data = deliver(state, 0, EVANSVILLE, "blue", *path)
    assert data["income"] == {"0": 1, "1": 1} and data["to"] == CINCINNATI
    assert data["places"] == ["Evansville", "Indianapolis", "Cincinnati"]
    assert [s.income for s in after.seats] == [1, 1, 0]
    assert after.cubes[EVANSVILLE] == ("red", "yellow") and after.bag["blue"] == state.bag["blue"] + 1


def test_the_city_may_be_named() -> None:
    state = position()
    path = [link(state, EVANSVILLE, INDIANAPOLIS), link(state, INDIANAPOLIS, CINCINNATI, "11,7")]
    _, data = deliver(state, 0, "Evansville", "blue", *path)
    assert data["from"] == EVANSVILLE and data["income"] == {"0": 1, "2": 1}


def test_the_locomotive_limits_the_links() -> None:
    state = position(locomotive=[1, 3, 3])
    path = [link(state, EVANSVILLE, INDIANAPOLIS), link(state, INDIANAPOLIS, CINCINNATI, "11,8")]
    assert refused(state, 0, {"type": "deliver", "city": EVANSVILLE, "cube": "blue", "path": path}).code == "beyond_locomotive"


def test_a_good_stops_at_the_first_city_of_its_colour() -> None:
    state = position()
    path = [link(state, EVANSVILLE, INDIANAPOLIS), link(state, INDIANAPOLIS, CINCINNATI, "11,8"), link(state, CINCINNATI, FORT_WAYNE)]
    assert refused(state, 0, {"type": "deliver", "city": EVANSVILLE, "cube": "blue", "path": path}).code == "must_stop_at_colour"


def test_a_good_passes_each_stop_once() -> None:
    state = position()
    path = [
        link(state, EVANSVILLE, INDIANAPOLIS),
        link(state, INDIANAPOLIS, CINCINNATI, "11,8"),
        link(state, INDIANAPOLIS, CINCINNATI, "11,7"),
    ]
    assert refused(state, 0, {"type": "deliver", "city": EVANSVILLE, "cube": "red", "path": path}).code == "stop_visited_twice"


def test_a_good_ends_at_a_city_of_its_colour() -> None:
    state = position()
    path = [link(state, EVANSVILLE, INDIANAPOLIS), link(state, INDIANAPOLIS, CINCINNATI, "11,8")]
    assert refused(state, 0, {"type": "deliver", "city": EVANSVILLE, "cube": "red", "path": path}).code == "wrong_destination"
    short = [link(state, EVANSVILLE, INDIANAPOLIS)]
    assert refused(state, 0, {"type": "deliver", "city": EVANSVILLE, "cube": "blue", "path": short}).code == "wrong_destination"


def test_only_completed_links_carry_goods() -> None:
    # Seat 0's loose track out of Evansville on 8,9.
    state = position(board=[*board(), tile("8,9", "gentle_curve", 2, 0)])
    loose = next(link.id for link in network(MAP, state.board, state.new_cities).links if not link.complete)
    assert refused(state, 0, {"type": "deliver", "city": EVANSVILLE, "cube": "blue", "path": [loose]}).code == "incomplete_link"
    assert refused(state, 0, {"type": "deliver", "city": EVANSVILLE, "cube": "blue", "path": ["1,1:0~2,2:3"]}).code == "unknown_link"
    assert refused(state, 0, {"type": "deliver", "city": EVANSVILLE, "cube": "black", "path": []}).code == "no_such_good"
    assert refused(state, 0, {"type": "deliver", "city": EVANSVILLE, "cube": "blue", "path": []}).code == "empty_path"
    assert refused(state, 0, {"type": "deliver", "city": INDIANAPOLIS, "cube": "blue", "path": []}).code == "not_a_city"
    assert refused(state, 0, {"type": "deliver", "city": EVANSVILLE, "cube": "green", "path": []}, MalformedMove).code == "unknown_colour"
    path = [link(state, INDIANAPOLIS, CINCINNATI, "11,8")]
    assert refused(state, 0, {"type": "deliver", "city": EVANSVILLE, "cube": "blue", "path": path}).code == "path_not_connected"


def test_unowned_links_carry_goods_and_pay_nobody() -> None:
    state = position(board=board(ei=None))
    path = [link(state, EVANSVILLE, INDIANAPOLIS), link(state, INDIANAPOLIS, CINCINNATI, "11,8")]
    _, data = deliver(state, 0, EVANSVILLE, "blue", *path)
    assert data["income"] == {"1": 1}


def test_every_listed_delivery_is_accepted() -> None:
    state = position()
    moves = DECIDER.legal_moves(state, 0)
    deliveries = [m for m in moves if m["type"] == "deliver"]
    # Blue from Evansville to Cincinnati by either link (the red goods have nowhere to go).
    assert len(deliveries) == 2 and all(m["city"] == EVANSVILLE and m["cube"] == "blue" for m in deliveries)
    assert moves[-2:] == [{"type": "upgrade_locomotive"}, {"type": "pass_move"}]
    for move in deliveries:
        play(state, 0, move)


def test_the_locomotive_instead_of_a_move_once_a_turn_and_at_most_six() -> None:
    state = position()
    state, events = play(state, 0, {"type": "upgrade_locomotive"})
    assert kinds(events) == ["LocomotiveUpgradedInsteadOfMove"] and state.seats[0].locomotive == 4
    state, _ = play(state, 1, {"type": "pass_move"})
    state, _ = play(state, 2, {"type": "pass_move"})
    assert refused(state, 0, {"type": "upgrade_locomotive"}).code == "locomotive_once_per_turn"
    assert {"type": "upgrade_locomotive"} not in DECIDER.legal_moves(state, 0)
    top = position(locomotive=[6, 3, 3])
    assert refused(top, 0, {"type": "upgrade_locomotive"}).code == "locomotive_max"


def test_two_rounds_in_order_then_income() -> None:
    state = position(order=[2, 0, 1])
    assert state.queue == (2, 0, 1, 2, 0, 1)
    rounds = []
    for seat in (2, 0, 1, 2, 0):
        state, events = play(state, seat, {"type": "pass_move"})
        rounds.append(events[0].data["round"])
    assert rounds == [1, 1, 1, 2, 2]
    state, events = play(state, 1, {"type": "pass_move"})
    assert events[0].data["round"] == 2
    assert "IncomeCollected" in kinds(events)
