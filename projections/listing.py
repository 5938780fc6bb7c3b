"""The game listing: the game index a page at a time, newest activity first, with filters.

Keyset pagination: a page is the `limit` rows after (or before) a position in the order
(`updated_at` descending, then `game_id` descending, so rows with the same time keep one
order). Each filter has an index ending in that order (`projections/models.py`), so a
page is one index range scan: its cost does not grow with the number of games. No
OFFSET: a game that moves while a client pages goes to the front, and the pages after
the client's position neither repeat nor skip the others.

A cursor is that position, written opaquely for clients (`Cursor.encode`): the activity
time and game id of the row it follows, and the direction. It carries no filters: a client
sends the same filters with it (the `next` and `prev` links do).
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, select, tuple_

from projections.index import name_key
from projections.models import GamePlayerRow, GameRow
from projections.store import ReadStore, index_entry

STATUSES = ("waiting", "running", "active", "finished")
"""`waiting` for players (a seat is still open), `running`, `finished`; `active` is either
of the first two (every game not finished, as a game's summary says)."""
MAX_WAITING_FOR = 100
"""At most this many seats in one `waiting_for` question."""


class BadCursor(ValueError):
    """A cursor this service did not write (or a damaged one)."""


@dataclass(frozen=True)
class Cursor:
    """A position in the listing: just after (`backward`: just before) the game `game_id`
    whose last activity was at `updated_at`."""

    updated_at: str
    game_id: str
    backward: bool = False

    def encode(self) -> str:
        text = json.dumps([1, "p" if self.backward else "n", self.updated_at, self.game_id], separators=(",", ":"))
        return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")

    @classmethod
    def decode(cls, text: str) -> Cursor:
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
            value = json.loads(raw.decode())
        except (binascii.Error, UnicodeDecodeError, ValueError):
            raise BadCursor("Not a cursor of this listing: use the `next` or `prev` link of a listing as it is.") from None
        if not (isinstance(value, list) and len(value) == 4 and value[0] == 1 and value[1] in ("n", "p")
                and all(isinstance(v, str) and 0 < len(v) <= 40 for v in value[2:])):
            raise BadCursor("Not a cursor of this listing: use the `next` or `prev` link of a listing as it is.")
        return cls(value[2], value[3], value[1] == "p")


@dataclass(frozen=True)
class Filters:
    status: str | None = None
    """One of `STATUSES`."""
    game: str | None = None
    """A ruleset name."""
    player: str | None = None
    """A seat's name, in any case."""
    forked_from: str | None = None
    """The game the listed games were forked from."""
    transcribed: bool | None = None
    waiting_for: frozenset[tuple[str, int]] | None = None
    """(game id, seat): only the games where one of these seats is to act."""


@dataclass(frozen=True)
class Page:
    games: list[dict[str, Any]]
    next: Cursor | None
    """Where the next (older) page starts; None on the last page."""
    prev: Cursor | None
    """Where the previous (newer) page ends; None on the first page."""


def page(store: ReadStore, filters: Filters, limit: int, cursor: Cursor | None = None) -> Page:
    """One page of at most `limit` games matching `filters`, from `cursor` on (None: the
    newest)."""
    backward = cursor is not None and cursor.backward
    query = _filtered(filters)
    # With a player, the order is read from that player's rows (the same times), so the
    # scan is of their games alone.
    order = (GamePlayerRow.updated_at, GamePlayerRow.game_id) if filters.player is not None else \
        (GameRow.updated_at, GameRow.game_id)
    if cursor is not None:
        key, at = tuple_(*order), tuple_(cursor.updated_at, cursor.game_id)
        query = query.where(key > at if backward else key < at)
    query = query.order_by(*order) if backward else query.order_by(*(column.desc() for column in order))
    with store.reading() as session:
        if filters.waiting_for is None:
            rows = list(session.execute(query.limit(limit + 1)))
        else:
            # At most MAX_WAITING_FOR games: read them all and keep those whose seat is to act.
            rows = [row for row in session.execute(query) if _waiting(row, filters.waiting_for)][:limit + 1]
    if backward and not rows:
        return page(store, filters, limit)  # nothing newer any more: the first page
    more = len(rows) > limit
    rows = rows[:limit]
    if backward:
        rows.reverse()
    games = [index_entry(row) for row in rows]
    if not rows:
        return Page(games, None, None)
    first, last = rows[0], rows[-1]
    # Back from an older page, there is a next page (the one the client came from) and a
    # previous one if more were found; forward, the other way round.
    following = Cursor(last.updated_at, last.game_id) if backward or more else None
    preceding = Cursor(first.updated_at, first.game_id, backward=True) if (more if backward else cursor is not None) else None
    return Page(games, following, preceding)


def _filtered(filters: Filters) -> Select[Any]:
    # Plain rows of the index's columns, not mapped objects: a page is read, never changed.
    query = select(*GameRow.__table__.columns)
    if filters.status == "active":
        query = query.where(GameRow.status == "active")
    elif filters.status is not None:
        query = query.where(GameRow.stage == filters.status)
    if filters.game is not None:
        query = query.where(GameRow.game == filters.game)
    if filters.forked_from is not None:
        query = query.where(GameRow.forked_from_id == filters.forked_from)
    if filters.transcribed is not None:
        query = query.where(GameRow.transcribed == filters.transcribed)
    if filters.player is not None:
        query = query.join(GamePlayerRow, GamePlayerRow.game_id == GameRow.game_id).where(
            GamePlayerRow.name_key == name_key(filters.player))
    if filters.waiting_for is not None:
        query = query.where(GameRow.game_id.in_(sorted({game for game, _ in filters.waiting_for})),
                            GameRow.status == "active")
    return query


def _waiting(row: Any, seats: frozenset[tuple[str, int]]) -> bool:
    return any((row.game_id, seat) in seats for seat in row.active_seats)
