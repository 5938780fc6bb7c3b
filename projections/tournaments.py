"""The tournaments' read models, projected from the same notification log as the games, in
the same transactions: the tournament index with each tournament's standings
(`TournamentRow`), and the ratings (`RatingMatchRow`, `RatingRow`).

A tournament's record is folded as it is projected (`domain/tournament/state.py`'s
`evolve`, the one fold of a tournament); the projection keeps each tournament's fold in
memory between records (a bounded cache), and after a restart, or when another process
projected the record before, folds the tournament's records up to there again from the
event store. At the end of each transaction every tournament it touched has its row
written once: its standings as `standings_answer` makes them from the fold, which is
what a reader of the events alone computes (`tests/integration/projections/test_tournament_read_models.py`
compares the two after each kind of event, on SQLite and PostgreSQL).

The ratings' matches are a tournament's tables with a result (`TableFinished`, and the
places a `ResultRuled` puts in their place) and the games created rated once they end
(handed in by the game projection, `rated_game`). See `projections/ratings.py` for the
order they are rated in and when a game title's ratings are made again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from domain.tournament import pairing
from domain.tournament import record as tr
from domain.tournament.events import HEAT, HEATS, ROUND, ResultRuled, TableFinished, TournamentCreated
from domain.tournament.standings import ladder_of, standing
from domain.tournament.state import Tournament, evolve, start
from projections.index import sortable_time
from projections.models import RatingMatchRow, RatingRow, TournamentRow
from projections.ratings import Match, Rating, best_first, match_key, rate_one
from projections.store import ReadModelError

TournamentRecords = Callable[[str, int], list[dict[str, Any]]]
"""(tournament id, version) -> the tournament's records up to that version, from the event store."""


def status(state: Tournament) -> str:
    if state.finished:
        return "finished"
    return "running" if state.rounds else "registering"


def meetings(state: Tournament) -> dict[str, Any]:
    """Pairs who met more than once, against the least possible for the rounds as played
    (Swiss and schedule rounds; heats: their draws, which do not avoid meetings).

    The least is exact (`least_met_twice_exact`) when the rounds as played reach the
    counting lower bound (`pairing.least_met_twice`), or when every other seating of them
    was tried (`pairing.least_met_twice_searched`, small fields); otherwise it is that
    lower bound, and the true least may be higher."""
    stage = HEAT if state.format.kind == HEATS else ROUND
    bound = pairing.least_met_twice(state, stage)
    exact: int | None = bound if pairing.twice(pairing.stage_rounds(state, stage)) == bound else None
    if exact is None:
        exact = pairing.least_met_twice_searched(state, stage)
    return {"met_twice": pairing.met_twice(state), "least_met_twice": exact if exact is not None else bound,
            "least_met_twice_exact": exact is not None}


def standings_answer(state: Tournament, version: int) -> dict[str, Any]:
    """The standings of the tournament at `version`: every player in the ladder's order."""
    rows = [{"rank": rank, **row.to_json()} for rank, row in enumerate(standing(state), start=1)]
    return {"tournament_id": state.id, "version": version, "status": status(state), "ladder": list(ladder_of(state)),
            "standings": rows, **meetings(state)}


def tournament_row(state: Tournament, version: int, created_at: str, updated_at: str) -> dict[str, Any]:
    answer = standings_answer(state, version)
    created = state.created
    return {"tournament_id": state.id, "name": created.name, "game": created.game, "format": created.format.kind,
            "status": answer["status"], "players": len(state.players), "rounds": len(state.rounds), "version": version,
            "created_at": created_at, "updated_at": updated_at, "ladder": answer["ladder"],
            "standings": answer["standings"], "met_twice": answer["met_twice"],
            "least_met_twice": answer["least_met_twice"], "least_met_twice_exact": answer["least_met_twice_exact"]}


def answer_of(row: TournamentRow) -> dict[str, Any]:
    """The standings answer a stored row holds (what `standings_answer` made)."""
    return {"tournament_id": row.tournament_id, "version": row.version, "status": row.status, "ladder": list(row.ladder),
            "standings": list(row.standings), "met_twice": row.met_twice, "least_met_twice": row.least_met_twice,
            "least_met_twice_exact": row.least_met_twice_exact}


def listing_entry(row: Any) -> dict[str, Any]:
    return {"tournament_id": row.tournament_id, "name": row.name, "game": row.game, "format": row.format,
            "status": row.status, "players": row.players, "rounds": row.rounds, "updated_at": row.updated_at}


@dataclass
class _Folded:
    version: int
    state: Tournament
    created_at: str
    updated_at: str


@dataclass
class Pending:
    """What one transaction changes in the tournaments' read models, written at its end."""

    session: Session
    tournaments: dict[str, _Folded] = field(default_factory=dict)
    new: set[str] = field(default_factory=set)
    matches: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    """match id -> its new row (None: taken away)."""
    stored: dict[str, RatingMatchRow | None] = field(default_factory=dict)
    """match id -> its row as the transaction found it."""


class TournamentProjection:
    def __init__(self, records: TournamentRecords | None, cache_size: int = 200) -> None:
        self.records = records
        self.cache_size = cache_size
        self._cache: OrderedDict[str, _Folded] = OrderedDict()

    def forget(self) -> None:
        self._cache.clear()

    def pending(self, session: Session) -> Pending:
        return Pending(session)

    # -- a tournament's record -------------------------------------------------------------

    def project(self, pending: Pending, record: dict[str, Any]) -> None:
        tournament_id, version = record[tr.ID], record["version"]
        now = sortable_time(record["time"])
        if version == 1:
            if tournament_id in pending.tournaments or pending.session.get(TournamentRow, tournament_id) is not None:
                return  # already projected (a replayed notification)
            created = tr.to_event(record)
            assert isinstance(created, TournamentCreated)
            pending.tournaments[tournament_id] = _Folded(1, start(tournament_id, created), now, now)
            pending.new.add(tournament_id)
            return
        folded = self._folded(pending, tournament_id, version - 1)
        if folded is None:
            return
        event = tr.to_event(record)
        folded.state = evolve(folded.state, event, version)
        folded.version, folded.updated_at = version, now
        if isinstance(event, (TableFinished, ResultRuled)):
            self._table_result(pending, folded.state, record, event)

    def _folded(self, pending: Pending, tournament_id: str, version: int) -> _Folded | None:
        """The tournament folded up to `version`, or None when the record after it is projected already."""
        found = pending.tournaments.get(tournament_id)
        if found is not None:
            if found.version != version:
                raise ReadModelError(f"tournament {tournament_id}: the log delivers version {version + 1} after "
                                     f"version {found.version}; run `caboose projections rebuild`")
            return found
        stored = pending.session.scalar(select(TournamentRow.version).where(TournamentRow.tournament_id == tournament_id))
        if stored is None or stored < version:
            raise ReadModelError(f"tournament {tournament_id}: the read models are at version {stored or 0} but the log "
                                 f"delivers version {version + 1}; run `caboose projections rebuild`")
        if stored > version:
            return None
        cached = self._cache.pop(tournament_id, None)
        if cached is None or cached.version != version:
            if self.records is None:
                raise ReadModelError("the tournaments' read models need the event store to fold a tournament again")
            records = self.records(tournament_id, version)
            cached = _Folded(version, tr.folded(records), sortable_time(records[0]["time"]),
                             sortable_time(records[-1]["time"]))
        pending.tournaments[tournament_id] = cached
        return cached

    def _table_result(self, pending: Pending, state: Tournament, record: dict[str, Any],
                      event: TableFinished | ResultRuled) -> None:
        game_id = event.game_id
        table = state.table_of(game_id)
        assert table is not None and table.result is not None
        earlier = self._match(pending, game_id)
        key = earlier["sort_key"] if earlier is not None else match_key(record["time"], game_id, state.id,
                                                                        table.round, table.table)
        if earlier is not None and list(earlier["places"]) == list(table.result.places):
            return  # a ruling that leaves the places as they were rates nothing again
        pending.matches[game_id] = {
            "match_id": game_id, "game": state.created.game, "sort_key": key, "version": record["version"],
            "tournament_id": state.id, "players": list(table.seats), "places": list(table.result.places)}

    # -- a game created rated ----------------------------------------------------------------

    def rated_game(self, pending: Pending, game_id: str, title: str, seats: Sequence[str], places: Sequence[int] | None,
                   record: dict[str, Any], rewound_to: int | None = None) -> None:
        """A step of a game created rated: it ended (`places`), a rewind took the game back
        to `rewound_to`, or, over already, its places changed (an adjustment)."""
        earlier = self._match(pending, game_id)
        if rewound_to is not None:
            if earlier is not None and earlier["version"] > rewound_to:
                pending.matches[game_id] = None
            return
        if places is None:
            return
        if earlier is not None:
            if list(earlier["places"]) == list(places):
                return
            pending.matches[game_id] = {**earlier, "places": list(places)}
            return
        pending.matches[game_id] = {"match_id": game_id, "game": title, "sort_key": match_key(record["time"], game_id),
                                    "version": record["version"], "tournament_id": None, "players": list(seats),
                                    "places": list(places)}

    def _match(self, pending: Pending, match_id: str) -> dict[str, Any] | None:
        if match_id in pending.matches:
            return pending.matches[match_id]
        if match_id not in pending.stored:
            pending.stored[match_id] = pending.session.get(RatingMatchRow, match_id)
        row = pending.stored[match_id]
        return None if row is None else {c.name: getattr(row, c.name) for c in RatingMatchRow.__table__.columns}

    # -- the end of the transaction ----------------------------------------------------------

    def flush(self, pending: Pending) -> None:
        session = pending.session
        for tournament_id, folded in pending.tournaments.items():
            row = tournament_row(folded.state, folded.version, folded.created_at, folded.updated_at)
            if tournament_id in pending.new:
                session.execute(insert(TournamentRow), [row])
            else:
                session.execute(update(TournamentRow).where(TournamentRow.tournament_id == tournament_id).values(**row))
        if pending.matches:
            self._ratings(pending)
        for tournament_id, folded in pending.tournaments.items():
            self._cache[tournament_id] = folded
            self._cache.move_to_end(tournament_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        pending.tournaments.clear()
        pending.new.clear()
        pending.matches.clear()
        pending.stored.clear()

    def _ratings(self, pending: Pending) -> None:
        touched: dict[str, dict[str, dict[str, Any] | None]] = {}
        for match_id, row in pending.matches.items():
            known = pending.stored.get(match_id)
            title = row["game"] if row is not None else known.game if known is not None else None
            if title is not None:
                touched.setdefault(title, {})[match_id] = row
        for title, changed in sorted(touched.items()):
            self._rate_from(pending.session, title, changed)

    @staticmethod
    def _rate_from(session: Session, title: str, changed: dict[str, dict[str, Any] | None]) -> None:
        """Rate a game title's matches again from the first one `changed` touches (a new
        match, a result ruled again, a match taken away) to its last. Each match keeps every
        player's rating just before it (`before`), so a player's rating at that point is the
        `before` of its first match from there on, or its rating now when it has none: the
        matches ahead of the point are never read again. A new match after every other one
        is rated onto the ratings as they are."""
        olds = {row.match_id: row for row in session.scalars(select(RatingMatchRow).where(
            RatingMatchRow.game == title, RatingMatchRow.match_id.in_(sorted(changed))))}
        keys = [r["sort_key"] for r in changed.values() if r is not None] + [o.sort_key for o in olds.values()]
        if not keys:
            return
        start = min(keys)
        later = [_values(row) for row in session.scalars(select(RatingMatchRow).where(
            RatingMatchRow.game == title, RatingMatchRow.sort_key >= start).order_by(RatingMatchRow.sort_key))]
        at_start: dict[str, list[Any] | None] = {}
        for row in later:
            for player in row["players"]:
                at_start.setdefault(player, (row["before"] or {}).get(player))
        by_id = {row["match_id"]: row for row in later}
        for match_id, new in changed.items():
            if new is None:
                by_id.pop(match_id, None)
            else:
                by_id[match_id] = dict(new)
        rows = sorted(by_id.values(), key=lambda row: row["sort_key"])
        others = sorted({p for row in rows for p in row["players"]} - at_start.keys())
        now: dict[str, list[Any]] = {r.player: [r.mu, r.sigma, r.games] for r in session.scalars(
            select(RatingRow).where(RatingRow.game == title, RatingRow.player.in_(others)))} if others else {}
        state: dict[str, Rating] = {}
        for row in rows:
            before: dict[str, list[Any]] = {}
            for player in row["players"]:
                if player not in state:
                    known = at_start[player] if player in at_start else now.get(player)
                    if known is not None:
                        state[player] = Rating(player, float(known[0]), float(known[1]), int(known[2]))
                if player in state:
                    before[player] = [state[player].mu, state[player].sigma, state[player].games]
            row["before"] = before
            rate_one(state, _as_match(row))
        session.execute(delete(RatingMatchRow).where(RatingMatchRow.game == title, RatingMatchRow.sort_key >= start))
        if rows:
            session.execute(insert(RatingMatchRow), rows)
        # Every player of a match from the point on: its rating after them, or, with no match
        # left there, its rating at the point (none at all: no rating).
        affected = sorted(at_start.keys() | state.keys())
        session.execute(delete(RatingRow).where(RatingRow.game == title, RatingRow.player.in_(affected)))
        after = []
        for player in affected:
            rating = state.get(player)
            if rating is None and at_start.get(player) is not None:
                mu, sigma, games = at_start[player]  # type: ignore[misc]
                rating = Rating(player, float(mu), float(sigma), int(games))
            if rating is not None:
                after.append({"game": title, "player": player, "mu": rating.mu, "sigma": rating.sigma, "games": rating.games})
        if after:
            session.execute(insert(RatingRow), after)


    @classmethod
    def rate_again(cls, session: Session, title: str) -> None:
        """Rate every match of a title again from the first, with nobody rated before it:
        after a rebuild in parts, whose parts each rated only the matches they held."""
        session.execute(update(RatingMatchRow).where(RatingMatchRow.game == title).values(before=None))
        session.execute(delete(RatingRow).where(RatingRow.game == title))
        first = session.scalars(select(RatingMatchRow).where(RatingMatchRow.game == title)
                                .order_by(RatingMatchRow.sort_key).limit(1)).first()
        if first is not None:
            cls._rate_from(session, title, {first.match_id: _values(first)})


def _values(row: RatingMatchRow) -> dict[str, Any]:
    return {c.name: getattr(row, c.name) for c in RatingMatchRow.__table__.columns}


def _as_match(row: Any) -> Match:
    values: dict[str, Any] = row if isinstance(row, dict) else {c.name: getattr(row, c.name) for c in RatingMatchRow.__table__.columns}
    return Match(values["match_id"], values["game"], values["sort_key"], tuple(values["players"]), tuple(values["places"]))


# -- the queries --------------------------------------------------------------------------


def stored_standings(store: Any, tournament_id: str) -> dict[str, Any] | None:
    """The standings the read models hold for a tournament (None: none there)."""
    with store.reading() as session:
        row = session.get(TournamentRow, tournament_id)
        return answer_of(row) if row is not None else None


def stored_listing(store: Any) -> list[dict[str, Any]]:
    """Every tournament, newest activity first."""
    columns = [c for c in TournamentRow.__table__.columns if c.name not in ("standings", "ladder")]
    with store.reading() as session:
        return [listing_entry(row) for row in session.execute(
            select(*columns).order_by(TournamentRow.updated_at.desc(), TournamentRow.tournament_id.desc()))]


def stored_ratings(store: Any, game: str | None = None) -> dict[str, list[Rating]]:
    """Every player's rating per game title (one title with `game`), best first."""
    query = select(RatingRow)
    if game is not None:
        query = query.where(RatingRow.game == game)
    found: dict[str, list[Rating]] = {}
    with store.reading() as session:
        for row in session.scalars(query):
            found.setdefault(row.game, []).append(Rating(row.player, row.mu, row.sigma, row.games))
    return {title: best_first(ratings) for title, ratings in sorted(found.items())}


def stored_rating(store: Any, game: str, player: str) -> Rating | None:
    with store.reading() as session:
        row = session.get(RatingRow, (game, player))
        return Rating(row.player, row.mu, row.sigma, row.games) if row is not None else None
