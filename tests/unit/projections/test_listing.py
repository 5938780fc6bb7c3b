"""The listing's parts on their own: the cursor written and read back, record times made
sortable, a game index row kept from events, and every filter and page of a game index
compared with the same selection made in Python (an in-memory SQLite read store)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import insert

from domain import games
from domain.core import log
from domain.core.decider import Setup
from domain.core.randomness import SeededRandom
from projections.index import index_row, player_rows, reindex, sortable_time
from projections.listing import BadCursor, Cursor, Filters, page
from projections.models import GamePlayerRow, GameRow
from projections.store import ReadStore

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=40)


@given(TEXT, TEXT, st.booleans())
def test_a_cursor_reads_back_as_the_position_it_was(updated_at: str, game_id: str, backward: bool) -> None:
    cursor = Cursor(updated_at, game_id, backward)
    text = cursor.encode()
    assert Cursor.decode(text) == cursor
    assert set(text) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")  # safe in a URL


@pytest.mark.parametrize("text", ["", "!!!", "bm90IGpzb24", "WzEsIm4iLDEsMl0", "WzIsIm4iLCJhIiwiYiJd", "eyJhIjoxfQ",
                                  "WzEsIngiLCJhIiwiYiJd", "WzEsIm4iLCIiLCJiIl0", "%FF%FE", "WzEsIm4iLCJhIl0"])
def test_anything_else_is_not_a_cursor(text: str) -> None:
    # not base64; not JSON; times not strings; version 2; an object; direction x; empty time; bytes; 3 items
    with pytest.raises(BadCursor, match="Not a cursor of this listing"):
        Cursor.decode(text)


def test_record_times_sort_in_one_form() -> None:
    ours, theirs = "2026-03-01T10:00:05.000000Z", "2026-03-01T10:00:05Z"
    assert sortable_time(theirs) == ours == sortable_time(ours)
    assert sortable_time("2026-03-01T11:00:05+01:00") == ours
    assert sortable_time("2026-03-01T10:00:05.5Z") > sortable_time(theirs)  # as strings, in time order
    assert sortable_time("not a time") == "not a time"
    # In the fixed form already, whether or not it is a real time, it comes back as it is.
    assert sortable_time("2026-13-01T10:00:05.000000Z") == "2026-13-01T10:00:05.000000Z"
    assert sortable_time("2026-03-01T10:00:05.000000+00:00") == ours


def test_the_row_follows_the_stage_the_turn_and_each_seats_wait() -> None:
    race = games.current("race")
    names = ["Ann", log.open_seat_name(1)]
    created = {"game_id": "g", "time": "2026-01-01T00:00:00Z", "version": 1, "kind": "GameCreated", "actor": "system",
               "secrets": [], "data": {"game": "race", "ruleset_version": race.ruleset_version, "seats": [
                   {"seat": i, "name": n} for i, n in enumerate(names)], "seed_source": "server",
               "options": {}, "seed_commitment": "0" * 64}}
    row = index_row(created, race)
    assert (row["title"], row["open_seats"], row["transcribed"], row["created_at"]) == \
        ("race", [1], False, "2026-01-01T00:00:00.000000Z")
    assert [r["name_key"] for r in player_rows({**row, "seats": ["Ann", "ANN", "Bo"]})] == ["ann", "bo"]

    state = race.initial_state(Setup(tuple(names), race.options({}, 2)))
    for event in race.setup(state, SeededRandom(bytes(32))):
        state = race.evolve(state, event)
    [first] = race.active_seats(state)
    reindex(row, race, state, {"version": 4, "time": "2026-01-01T00:00:01Z"})
    assert (row["stage"], row["status"], row["active_seats"], row["since_version"]) == ("waiting", "active", [first], 4)
    assert row["waiting_since"] == {str(first): "2026-01-01T00:00:01.000000Z"}

    row["open_seats"] = []  # the open seat was joined
    reindex(row, race, state, {"version": 5, "time": "2026-01-01T00:00:02Z"})
    assert row["stage"] == "running" and row["since_version"] == 4  # the same seat still waits, since then
    assert row["waiting_since"] == {str(first): "2026-01-01T00:00:01.000000Z"}

    for event in race.decide(state, first, {"type": "advance", "by": 3}, SeededRandom(bytes(32))):
        state = race.evolve(state, event)
    reindex(row, race, state, {"version": 6, "time": "2026-01-01T00:00:03Z"})
    assert row["active_seats"] == [1 - first] and row["waiting_since"] == {str(1 - first): "2026-01-01T00:00:03.000000Z"}
    assert row["scores"] is None and row["updated_at"] == "2026-01-01T00:00:03.000000Z"


# -- filters and pages against a reference ----------------------------------------------------

NAMES = ["Ann", "ann", "Ben", "Cy", "Dee"]
ORIGINS = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"]


def random_rows(chooser: random.Random, count: int) -> list[dict[str, Any]]:
    rows = []
    for index in range(count):
        stage = chooser.choice(["waiting", "running", "finished"])
        seats = chooser.sample(NAMES, chooser.randint(2, 4))
        origin = chooser.choice([None, None, *ORIGINS])
        # Few distinct times, so many games share one: the game id must break the ties.
        when = f"2026-01-01T00:00:{chooser.randint(0, 9):02d}.000000Z"
        rows.append({"game_id": f"00000000-0000-4000-8000-{index:012d}", "game": chooser.choice(["race", "pebbles"]),
                     "ruleset_version": "1", "title": "t", "seats": seats, "open_seats": [1] if stage == "waiting" else [],
                     "status": "finished" if stage == "finished" else "active", "stage": stage,
                     "active_seats": [] if stage == "finished" else sorted(chooser.sample(range(len(seats)), 1)),
                     "since": when, "since_version": 1, "waiting_since": {}, "version": 1, "created_at": when,
                     "updated_at": when, "forked_from": {"game_id": origin, "version": 3} if origin else None,
                     "forked_from_id": origin, "transcribed": chooser.random() < 0.2, "scores": None, "rewinds": 0,
                     "open_disputes": 0})
    return rows


def expected(rows: list[dict[str, Any]], filters: Filters) -> list[str]:
    def kept(row: dict[str, Any]) -> bool:
        return ((filters.status is None or (row["status"] if filters.status == "active" else row["stage"]) == filters.status)
                and (filters.game is None or row["game"] == filters.game)
                and (filters.player is None or filters.player.casefold() in {n.casefold() for n in row["seats"]})
                and (filters.forked_from is None or row["forked_from_id"] == filters.forked_from)
                and (filters.transcribed is None or row["transcribed"] == filters.transcribed)
                and (filters.waiting_for is None or (any((row["game_id"], s) in filters.waiting_for for s in row["active_seats"])
                     and row["status"] == "active")))
    chosen = sorted((r for r in rows if kept(r)), key=lambda r: (r["updated_at"], r["game_id"]), reverse=True)
    return [r["game_id"] for r in chosen]


def random_filters(chooser: random.Random, rows: list[dict[str, Any]]) -> Filters:
    waiting_for = None
    if chooser.random() < 0.3:
        waiting_for = frozenset((r["game_id"], chooser.randint(0, 3)) for r in chooser.sample(rows, 15))
    return Filters(status=chooser.choice([None, "waiting", "running", "active", "finished"]),
                   game=chooser.choice([None, "race", "pebbles"]), player=chooser.choice([None, "ANN", "ben", "nobody"]),
                   forked_from=chooser.choice([None, None, *ORIGINS]), transcribed=chooser.choice([None, True, False]),
                   waiting_for=waiting_for)


@pytest.fixture(scope="module")
def indexed_store() -> Any:
    store = ReadStore("sqlite://")
    rows = random_rows(random.Random(14), 300)
    with store.writing() as session:
        session.execute(insert(GameRow), rows)
        session.execute(insert(GamePlayerRow), [p for row in rows for p in player_rows(row)])
    yield store, rows
    store.close()


@pytest.mark.parametrize("seed", range(40))
def test_pages_forward_and_back_are_the_filtered_games_in_order(indexed_store: Any, seed: int) -> None:
    store, rows = indexed_store
    chooser = random.Random(seed)
    filters, limit = random_filters(chooser, rows), chooser.choice([1, 3, 7, 50, 200])
    want = expected(rows, filters)
    pages = [page(store, filters, limit)]
    while pages[-1].next is not None:
        pages.append(page(store, filters, limit, pages[-1].next))
    assert [g["game_id"] for p in pages for g in p.games] == want
    assert all(len(p.games) == limit for p in pages[:-1]) and pages[0].prev is None
    # Back from the last page, by `prev`, each page is the one before it again.
    back = pages[-1]
    for earlier in reversed(pages[:-1]):
        assert back.prev is not None
        back = page(store, filters, limit, back.prev)
        assert [g["game_id"] for g in back.games] == [g["game_id"] for g in earlier.games]
    assert back.prev is None
