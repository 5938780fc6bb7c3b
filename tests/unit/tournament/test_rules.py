"""The tournament's pure rules: places and shared points, table sizes and byes, the ladder,
heats' advancement, the secret's derivations, and the refusals that store nothing."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from domain.core.errors import IllegalMove, MalformedMove, RecordError
from domain.core.randomness import SeededRandom, commitment
from domain.tournament import decide, fairness
from domain.tournament import events as ev
from domain.tournament import pairing as p
from domain.tournament.points import places, points
from domain.tournament.standings import standing
from domain.tournament.state import Tournament, evolve, start

SECRET = bytes(range(32))


def new(kind: str = "swiss", rounds: int = 3, players: int = 8, **settings: object) -> Tournament:
    created = decide.created(name="Test", game="ticket_to_ride", ruleset_version="1", content=None, seats=(2, 5),
                             options={}, kind=kind, rounds=rounds, commitment=commitment(SECRET), **settings)  # type: ignore[arg-type]
    state = start("t", created)
    for number in range(players):
        state = evolve(state, decide.registered(state, f"P{number}", SECRET, None))
    return state


def seat(state: Tournament, plans: Sequence[p.Plan]) -> Tournament:
    for plan in plans:
        state = evolve(state, plan.paired())
        for table in plan.tables:
            state = evolve(state, ev.TableSeated(round=plan.round, table=table.table, seats=table.seats,
                                                 game_id=f"g{plan.round}.{table.table}", seed_commitment=None))
    return state


def finish_all(state: Tournament, chooser: random.Random) -> Tournament:
    for table in state.playing():
        finish = {s: (chooser.randint(0, 9),) for s in range(len(table.seats))}
        state = evolve(state, decide.table_finished(state, table.game_id, finish, {s: k[0] for s, k in finish.items()},
                                                    5, "0" * 64))
    return state


def test_shared_places_split_their_points() -> None:
    assert places([(30,), (20,), (20,), (5,)]) == (1, 2, 2, 4)
    assert points((1, 2, 2, 4), (3, 1.5, 0.5, 0)) == (3, 1, 1, 0)
    assert points((1, 1, 3), (3, 1.5, 0.5)) == (2.25, 2.25, 0.5)
    # A forfeited seat is last whatever its score.
    assert places([(30,), (20,), (10,)], forfeited=[0]) == (3, 1, 2)


def test_table_sizes_prefer_full_tables_with_short_ones_at_the_bottom() -> None:
    assert p.split(38, 4, range(3, 7)) == (4,) * 8 + (3, 3)
    assert p.split(5, 4, range(2, 6)) == (3, 2)
    assert p.split(5, 4, range(3, 7)) == (5,)
    assert p.split(2, 4, range(3, 7)) is None
    seated, sizes, byes = p.fitted(["a", "b", "c", "d", "e", "f", "g"], 3, [3])
    assert sizes == (3, 3) and byes == ("g",) and seated == ("a", "b", "c", "d", "e", "f")


def test_snake_deals_the_strongest_over_every_table() -> None:
    assert p.snake(list("abcdefgh"), (4, 4)) == [tuple("adeh"), tuple("bcfg")]


def test_derivations_are_the_format_generator_keyed_by_the_secret() -> None:
    seed = fairness.derived(SECRET, use="seats", round=2, table=3)
    assert fairness.seating(SECRET, 2, 3, ["b", "a", "c"]) == tuple(SeededRandom(seed).shuffle(["a", "b", "c"]))
    assert fairness.table_seed(SECRET, 1, 1) != fairness.table_seed(SECRET, 1, 2)
    assert fairness.draw(SECRET, "Ann") == fairness.derived(SECRET, use="draw", player="Ann").hex()[:16]


def test_registering_twice_and_bad_settings_are_refused() -> None:
    state = new()
    with pytest.raises(IllegalMove) as twice:
        decide.registered(state, "P1", SECRET, None)
    assert twice.value.code == "already_registered"
    with pytest.raises(MalformedMove) as size:
        new(table_size=7)
    assert size.value.code == "bad_table_size" and "2–5" in size.value.message
    with pytest.raises(MalformedMove) as ladder:
        new(tie_breaks=["points", "height"])
    assert ladder.value.code == "bad_tie_breaks"


def test_too_few_players_for_one_table() -> None:
    with pytest.raises(IllegalMove) as few:
        decide.plans(new(players=1), SECRET, p.consecutive)
    assert few.value.code == "too_few_players"


def test_a_round_is_not_paired_while_tables_of_the_last_one_play_and_the_error_names_them() -> None:
    state = seat(new(players=8), decide.plans(new(players=8), SECRET, p.consecutive))
    with pytest.raises(IllegalMove) as playing:
        decide.plans(state, SECRET, p.consecutive)
    assert playing.value.code == "tables_playing"
    assert "g1.1" in playing.value.message and "g1.2" in playing.value.message


def test_a_result_for_a_game_outside_the_tournament_is_refused() -> None:
    state = seat(new(), decide.plans(new(), SECRET, p.consecutive))
    with pytest.raises(IllegalMove) as outside:
        decide.ruled(state, "some-other-game", (1, 2, 3, 4), "a reason", "ref", None)
    assert outside.value.code == "not_in_tournament"


def test_a_swiss_event_to_its_end_and_its_standing() -> None:
    chooser, state = random.Random(3), new(rounds=3, players=10)
    for _ in range(3):
        state = finish_all(seat(state, decide.plans(state, SECRET, p.consecutive)), chooser)
    assert decide.complete(state)
    for event in decide.finished(state, SECRET):
        state = evolve(state, event)
    rows = standing(state)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    assert state.finished and state.secret == SECRET.hex()
    assert sum(r.games for r in rows) == sum(len(t.seats) for t in state.tables)


def test_heats_advance_by_most_wins_then_the_ladder_and_the_final_takes_the_semifinal_winners() -> None:
    chooser, state = random.Random(5), new("heats", rounds=2, players=20, semifinal=8, final=4)
    for _ in range(2):
        state = finish_all(seat(state, decide.plans(state, SECRET, p.consecutive)), chooser)
    semis = p.advancing(state, ev.SEMIFINAL)
    wins = {r.player: r.wins for r in standing(state)}
    assert len(semis) == 8 and all(wins[q] >= wins[r] for q in semis for r in wins if r not in semis)
    state = finish_all(seat(state, decide.plans(state, SECRET, p.consecutive)), chooser)
    winners = {t.seats[t.result.places.index(1)] for t in state.tables if t.stage == ev.SEMIFINAL and t.result}
    final = p.advancing(state, ev.FINAL)
    assert winners <= set(final) and len(final) == 4


def test_the_fold_refuses_places_that_do_not_follow_from_the_order_of_finish() -> None:
    state = seat(new(), decide.plans(new(), SECRET, p.consecutive))
    table = state.tables[0]
    good = decide.table_finished(state, table.game_id, {s: (s,) for s in range(len(table.seats))},
                                 {s: s for s in range(len(table.seats))}, 9, "0" * 64)
    forged = ev.TableFinished(**{**{f: getattr(good, f) for f in ("round", "table", "game_id", "scores", "finish",
                                                                   "forfeited", "version", "head")},
                                 "places": tuple(reversed(good.places))})
    with pytest.raises(RecordError):
        evolve(state, forged, 12)


def test_the_counting_bound_on_repeated_meetings() -> None:
    # Twelve players at three tables of four: a table of round 2 must hold two who met in round 1.
    chooser, state = random.Random(1), new(rounds=2, players=12, table_size=4)
    for _ in range(2):
        state = finish_all(seat(state, decide.plans(state, SECRET, p.consecutive)), chooser)
    assert p.least_met_twice(state) == 3
