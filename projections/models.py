"""The read models' tables (SQLAlchemy 2, typed declarative).

Everything that changes during a game is stored as a *change at a version*, never
updated in place: a board cell's new content, a seat's new figures. The board, the
income tracks and the VP tallies "as they stood at version N" are then the latest change
at or before N, one indexed query, and a rebuild only ever inserts. The timeline is the
seat figures read as a series. Only the game index (one row per game, and its players'
names) and the tracking position are updated in place.

Table names start with `proj_` so the read models can share a database (and a
PostgreSQL schema) with the events.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Double, Index, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """The game index: one row per game, as of its last projected event. The listing pages
    through it newest activity first (`projections/listing.py`), so each filter it offers
    has an index that ends in (`updated_at`, `game_id`): a page is one index range scan
    whatever the number of games."""

    __tablename__ = "proj_games"

    game_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    ruleset_version: Mapped[str] = mapped_column(String(32))
    title: Mapped[str] = mapped_column(String(200))
    """A line for people: the title of the game's content pack, else its ruleset's name."""
    seats: Mapped[list[Any]] = mapped_column(JSON)
    """Seat names, by seat number."""
    open_seats: Mapped[list[Any]] = mapped_column(JSON)
    """The seats left open at creation that nobody has joined yet."""
    status: Mapped[str] = mapped_column(String(16))
    """`active` or `finished`, as the game's summary says."""
    stage: Mapped[str] = mapped_column(String(16))
    """`waiting` (for players: a seat is still open), `running` or `finished`."""
    active_seats: Mapped[list[Any]] = mapped_column(JSON)
    since: Mapped[str] = mapped_column(String(40))
    """When the active seats became the active seats (the time of that event)."""
    since_version: Mapped[int] = mapped_column(Integer)
    waiting_since: Mapped[dict[str, Any]] = mapped_column(JSON)
    """For each active seat (as a string), since when it has been waiting to act."""
    version: Mapped[int] = mapped_column(Integer)
    """The last projected version: the read models hold this game up to here."""
    created_at: Mapped[str] = mapped_column(String(40))
    updated_at: Mapped[str] = mapped_column(String(40))
    """The time of the game's last event, in one fixed form (microseconds, `Z`), so it sorts."""
    forked_from: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    forked_from_id: Mapped[str | None] = mapped_column(String(36), nullable=True, index=True)
    transcribed: Mapped[bool] = mapped_column(Boolean, default=False)
    """Played at a table and entered here (seed source `table`)."""
    waiting_for: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """A game played at a table waiting for an outcome: what (`outcome`), who enters it
    (`by`: `referee` or `seat:N`), and whose move waits (`seat`); null otherwise."""
    scores: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The final scores by seat (as a string), once finished."""
    rewinds: Mapped[int] = mapped_column(Integer, default=0)
    open_disputes: Mapped[int] = mapped_column(Integer, default=0)
    problem: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """Why the rules cannot read this game here (`code`, `message`, `params`: its content
    pack is not installed, or its ruleset), so the row holds only what the records say
    without them; null for a game read in full."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    """Created as a rated game (`GameCreated.rated`): its result, once it ends, counts in the ratings."""

    __table_args__ = (
        Index("ix_proj_games_activity", "updated_at", "game_id"),
        Index("ix_proj_games_status_activity", "status", "updated_at", "game_id"),
        Index("ix_proj_games_stage_activity", "stage", "updated_at", "game_id"),
        Index("ix_proj_games_game_activity", "game", "updated_at", "game_id"),
        Index("ix_proj_games_transcribed_activity", "transcribed", "updated_at", "game_id"),
    )


class GamePlayerRow(Base):
    """Who plays in each game, by name, with the game's last activity beside it: the
    listing's `player` filter is then one index range scan in activity order, like the
    others, however many games the player has."""

    __tablename__ = "proj_game_players"

    game_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    name_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    """A seat's name, case-folded: the filter finds "ann" as "Ann"."""
    updated_at: Mapped[str] = mapped_column(String(40))
    """The game's `updated_at`, kept equal to it."""

    __table_args__ = (Index("ix_proj_game_players_activity", "name_key", "updated_at", "game_id"),)


class BoardChange(Base):
    """What a board cell (a route, a hex, an edge) holds from `version` on; NULL: empty."""

    __tablename__ = "proj_board"

    game_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    cell: Mapped[str] = mapped_column(String(128), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    value: Mapped[Any | None] = mapped_column(JSON, nullable=True)

    __table_args__ = (Index("ix_proj_board_game_version", "game_id", "version"),)


class SeatFiguresChange(Base):
    """A seat's figures from `version` on: VP by source (and their total), income and
    other resource tracks. `charted` marks a change of VP or income: a timeline point."""

    __tablename__ = "proj_seat_figures"

    game_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    vp: Mapped[int] = mapped_column(Integer)
    income: Mapped[int | None] = mapped_column(Integer, nullable=True)
    by_source: Mapped[dict[str, Any]] = mapped_column(JSON)
    tracks: Mapped[dict[str, Any]] = mapped_column(JSON)
    charted: Mapped[bool] = mapped_column(default=False)

    __table_args__ = (Index("ix_proj_seat_figures_game_version", "game_id", "version"),)


class TrackingRow(Base):
    """How far the read models have followed an application's notification log; written
    in the same transaction as the view rows it accounts for."""

    __tablename__ = "proj_tracking"

    application_name: Mapped[str] = mapped_column(String(64), primary_key=True)
    notification_id: Mapped[int] = mapped_column(BigInteger)


class SourceRow(Base):
    """Which event store the read models were made from: the originator (game id) of its
    first notification. Read models left from another store are told apart by it."""

    __tablename__ = "proj_source"

    application_name: Mapped[str] = mapped_column(String(64), primary_key=True)
    first_originator_id: Mapped[str] = mapped_column(String(36))


class TournamentRow(Base):
    """The tournament index and its standings: one row per tournament, as of its last
    projected record (`projections/tournaments.py`). The listing reads it newest activity
    first; the standings are the answer as `domain/tournament/standings.py` orders them."""

    __tablename__ = "proj_tournaments"

    tournament_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    game: Mapped[str] = mapped_column(String(64))
    format: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))
    """`registering`, `running` or `finished`."""
    players: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    """The last projected version of the tournament's record."""
    created_at: Mapped[str] = mapped_column(String(40))
    updated_at: Mapped[str] = mapped_column(String(40))
    ladder: Mapped[list[Any]] = mapped_column(JSON)
    standings: Mapped[list[Any]] = mapped_column(JSON)
    """Every player's row in the standings' order, with its rank."""
    met_twice: Mapped[int] = mapped_column(Integer)
    least_met_twice: Mapped[int] = mapped_column(Integer)
    least_met_twice_exact: Mapped[bool] = mapped_column(Boolean)
    """Whether `least_met_twice` is the least possible, or only a lower bound."""

    __table_args__ = (Index("ix_proj_tournaments_activity", "updated_at", "tournament_id"),)


class RatingMatchRow(Base):
    """One rated result: a tournament table's (its places as recorded or ruled) or a game
    created rated (its places by the game's own order of finish). The ratings are these
    matches rated in the order of `sort_key`."""

    __tablename__ = "proj_rating_matches"

    match_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    """The game's id."""
    game: Mapped[str] = mapped_column(String(64))
    sort_key: Mapped[str] = mapped_column(String(200))
    """When it finished, then the tournament, round and table (`projections/ratings.py`'s `Match.key`)."""
    version: Mapped[int] = mapped_column(Integer)
    """A rated game's version that ended it (a rewind to before it takes the match away)."""
    tournament_id: Mapped[str | None] = mapped_column(String(36), nullable=True)
    players: Mapped[list[Any]] = mapped_column(JSON)
    places: Mapped[list[Any]] = mapped_column(JSON)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """Each player's rating just before this match (`[mu, sigma, games]`; a first match: absent),
    so the matches from here on can be rated again without those ahead of it."""

    __table_args__ = (Index("ix_proj_rating_matches_game_order", "game", "sort_key"),)


class RatingRow(Base):
    """A player's rating in one game title, after every match of `proj_rating_matches`."""

    __tablename__ = "proj_ratings"

    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    player: Mapped[str] = mapped_column(String(200), primary_key=True)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    games: Mapped[int] = mapped_column(Integer)

    __table_args__ = (Index("ix_proj_ratings_game", "game"),)


VIEW_TABLES = (BoardChange, SeatFiguresChange, GameRow, GamePlayerRow, TournamentRow, RatingMatchRow, RatingRow)
