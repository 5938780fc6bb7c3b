"""The Swiss report of pairs who met more than once, against the least possible: on small
fields where the least is found here by trying every seating of the rounds, independently of
the service's own search, the report gives the true count, the true least and says it is
exact; on a field too large to search it gives the counting bound and says so."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product

import pytest

from domain.tournament import pairing
from projections.runner import log_caught_up
from projections.tournaments import stored_standings
from service.application import Caboose
from service.lobby import Lobby
from service.settings import Settings
from service.tournament import views
from service.tournament.organiser import Organiser


def seatings(players: list[str], size: int) -> list[list[tuple[str, ...]]]:
    """Every way to seat `players` at tables of `size` (tables alike), the plain way."""
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    out = []
    for others in combinations(rest, size - 1):
        left = [p for p in rest if p not in others]
        out += [[(first, *others), *tables] for tables in seatings(left, size)]
    return out


def pairs_twice(rounds: list[list[tuple[str, ...]]]) -> int:
    counts = Counter(frozenset(pair) for tables in rounds for seats in tables for pair in combinations(seats, 2))
    return sum(1 for n in counts.values() if n > 1)


def least_by_hand(players: list[str], size: int, rounds: int) -> int:
    every = seatings(players, size)
    return min(pairs_twice([every[0], *rest]) for rest in product(every, repeat=rounds - 1))


def swiss(players: int, size: int, rounds: int) -> tuple[Organiser, str]:
    """A Swiss event played to its end, each table's result a referee's ruling."""
    organiser = Organiser(Lobby(Caboose(Settings(db="memory"))))
    tournament_id = organiser.create("Small Swiss", "ticket_to_ride", kind="swiss", rounds=rounds,
                                     table_size=size).tournament_id
    for number in range(1, players + 1):
        organiser.register(tournament_id, f"P{number}")
    for _ in range(rounds):
        for table in organiser.pair(tournament_id):
            organiser.rule(tournament_id, table.game_id, "Rita", "Entered from the score sheet.",
                           places=list(range(1, size + 1)))
    organiser.settle(tournament_id)
    return organiser, tournament_id


@pytest.mark.parametrize(("players", "size", "rounds"), [(6, 3, 3), (8, 4, 3)])
def test_the_report_is_the_true_count_against_the_true_least(players: int, size: int, rounds: int) -> None:
    organiser, tournament_id = swiss(players, size, rounds)
    state = organiser.shelf.get(tournament_id).state
    assert state.finished and len(state.rounds) == rounds
    played = [[t.seats for t in state.round_tables(r.number)] for r in state.rounds]
    answer = stored_standings(log_caught_up(organiser.caboose), tournament_id)
    assert answer is not None
    assert answer["met_twice"] == pairs_twice(played)
    assert answer["least_met_twice"] == least_by_hand([f"P{n}" for n in range(1, players + 1)], size, rounds)
    assert answer["least_met_twice_exact"] is True
    assert answer["met_twice"] >= answer["least_met_twice"]
    assert views.summary(organiser.shelf.get(tournament_id))["least_met_twice"] == answer["least_met_twice"]


def test_six_players_at_tables_of_three_must_repeat_more_than_the_counting_bound_says() -> None:
    """Three rounds of two tables of three: the counting bound is 2, the least is 4."""
    organiser, tournament_id = swiss(6, 3, 3)
    state = organiser.shelf.get(tournament_id).state
    assert pairing.least_met_twice(state) < pairing.least_met_twice_searched(state) == least_by_hand(
        [f"P{n}" for n in range(1, 7)], 3, 3)


def test_too_many_seatings_to_try_gives_the_bound_and_says_so() -> None:
    organiser, tournament_id = swiss(12, 3, 2)  # 15,400 seatings of one round: searched
    state = organiser.shelf.get(tournament_id).state
    assert pairing.least_met_twice_searched(state) is not None
    organiser, tournament_id = swiss(12, 3, 3)  # 15,400² seatings: not searched
    state = organiser.shelf.get(tournament_id).state
    answer = views.computed(organiser.shelf.get(tournament_id))
    assert pairing.least_met_twice_searched(state) is None
    assert answer["least_met_twice"] == pairing.least_met_twice(state)
    assert answer["least_met_twice_exact"] is (answer["met_twice"] == pairing.least_met_twice(state))
