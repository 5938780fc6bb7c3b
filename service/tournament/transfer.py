"""A tournament's export, import and verification, with its tables' games.

An export is one JSON Lines file: the tournament's records (`tournament_id`), then each
table's game record (`game_id`) in the order the tables were seated. Verifying it checks the
tournament's record (`domain/tournament/audit.py`), every game's record (the games' audit),
and each table against its game: the game is that table's (its `GameCreated` names the
tournament, round and table, its seats are the table's players in their seat order, its seed
commitment is the table's), and each result recorded from a game is what the game's rules
give at the version it names (places, scores and order of finish). An import stores nothing
unless all of it verifies.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from domain.core import fold, log
from domain.core.audit import AuditReport, Check
from domain.core.audit import audit as game_audit
from domain.core.errors import RecordError
from domain.core.events import Audience
from domain.core.kinds import AtTable
from domain.tournament import events as ev
from domain.tournament import record as tr
from domain.tournament.audit import audit as tournament_audit
from service.aggregate import Game
from service.errors import IdempotencyKeyReused, VersionConflict
from service.seating import Issued
from service.tournament.aggregate import Tournament
from service.tournament.organiser import Created, Organiser, request_digest
from service.tournament.store import TournamentNotFound


def exported(organiser: Organiser, tournament_id: str, audience: Audience) -> Iterator[dict[str, Any]]:
    """The tournament's records, then each table's game as `audience` may see it."""
    records = organiser.shelf.records(tournament_id)
    yield from records
    for table in tr.folded(records).tables:
        if table.game_id is not None:
            yield from organiser.caboose.view_records(table.game_id, audience)


def split(records: Iterable[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """(the tournament's records, each game's records by id) of an export."""
    tournament: list[dict[str, Any]] = []
    tables: dict[str, list[dict[str, Any]]] = {}
    for line, record in enumerate(records, start=1):
        if isinstance(record, dict) and tr.ID in record:
            tournament.append(record)
        elif isinstance(record, dict) and isinstance(record.get("game_id"), str):
            tables.setdefault(record["game_id"], []).append(record)
        else:
            raise RecordError("record_malformed", f"line {line} is neither a tournament's record nor a game's", None)
    if not tournament:
        raise RecordError("record_malformed", "the file holds no tournament record (no line with a tournament_id)", None)
    return tournament, tables


def verify(records: Sequence[dict[str, Any]], tables: Mapping[str, Sequence[dict[str, Any]]],
           secret: bytes | None = None, seeds: Mapping[str, bytes] | None = None) -> AuditReport:
    """The whole tournament's audit: its record, every table's game, each table against its game."""
    report = tournament_audit(records, secret)
    report.extra["games"] = Check(None, "not checked")
    report.extra["tables"] = Check(None, "not checked")
    if report.chain.ok is False or report.rules.ok is not True:
        return report
    state = tr.folded(records)
    seated = opened(records)
    unchecked = []
    played = [(t, t.game_id) for t in state.tables if t.game_id is not None]
    for table, game_id in played:
        game = tables.get(game_id)
        if not game:
            report.fail(report.extra["games"], seated[game_id], f"the record of game {game_id} "
                        f"(round {table.round} table {table.table}) is missing")
            return report
        checked = game_audit(list(game), (seeds or {}).get(game_id))
        if not checked.ok:
            problem = checked.first_problem or {"version": 1, "what": "does not verify"}
            report.fail(report.extra["games"], seated[game_id], f"game {game_id} (round {table.round} "
                        f"table {table.table}) fails its audit at version {problem['version']}: {problem['what']}")
            return report
        unchecked += [f"{game_id}: {name}" for name in checked.unchecked]
    report.extra["games"] = Check(True, f"{len(played)} table games audited" + (
        f"; not checked: {'; '.join(unchecked)}" if unchecked else ""))
    _tables(report, records, [t for t, _ in played], tables, state.id, state.created.seed_source == "table")
    return report


def opened(records: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Each table game's id and the version of the record that gave the table its game."""
    return {event.game_id: record["version"] for record in records
            if isinstance(event := tr.to_event(record), ev.TableSeated | ev.TableOpened) and event.game_id}


def _tables(report: AuditReport, records: Sequence[dict[str, Any]], seated: Sequence[Any],
            games: Mapping[str, Sequence[dict[str, Any]]], tournament_id: str, physical: bool) -> None:
    check = report.extra["tables"]
    versions = opened(records)
    for table in seated:
        created = log.created_of(games[table.game_id][0])
        names = tuple(log.names_of(created))
        why = None
        if created.tournament != AtTable(tournament_id, table.round, table.table):
            why = "its GameCreated does not name this tournament's table"
        elif names != table.seats:
            why = "its seats are not the table's players in their seat order"
        elif (created.seed_source == "table") != physical or created.seed_commitment != table.seed_commitment:
            why = "its seed commitment is not the table's"
        if why:
            report.fail(check, versions[table.game_id], f"game {table.game_id} (round {table.round} table {table.table}): {why}")
            return
    for record in records:
        result = tr.to_event(record)
        if not isinstance(result, ev.TableFinished):
            continue
        game = list(games[result.game_id])
        ended = fold.replay(game, upto=result.version)
        decider = ended.decider
        keys = [tuple(decider.finish(ended.state)[s]) for s in range(len(result.places))]
        scores = [decider.scores(ended.state)[s] for s in range(len(result.places))]
        if not decider.is_over(ended.state) or game[result.version - 1]["hash"] != result.head \
                or keys != list(result.finish) or scores != list(result.scores):
            report.fail(check, record["version"], f"the result of round {result.round} table {result.table} is not "
                        f"what game {result.game_id} gives at its version {result.version}")
            return
    report.extra["tables"] = Check(True, "every table's game is the table's, and every result is its game's")


def verify_stored(organiser: Organiser, tournament_id: str) -> AuditReport:
    """`verify` of a stored tournament, with the secret and the seeds this service holds."""
    tournament = organiser.shelf.get(tournament_id)
    records = organiser.shelf.records(tournament_id)
    games: dict[str, list[dict[str, Any]]] = {}
    seeds: dict[str, bytes] = {}
    for table in tournament.state.tables:
        if table.game_id is None:
            continue
        games[table.game_id] = organiser.caboose.records(table.game_id)
        seed = organiser.caboose.game(table.game_id).seed
        if seed:
            seeds[table.game_id] = bytes.fromhex(seed)
    return verify(records, games, tournament.secret_bytes, seeds)


def imported(organiser: Organiser, lines: Iterable[dict[str, Any]],
             idempotency_key: str | None = None) -> tuple[Created, dict[str, Any]]:
    """Verify an export and store the tournament with its games: new tokens for the referee
    and every seat. A record that does not verify stores nothing. Under the client's
    `idempotency_key` the digest of the key and the export's hashes is kept with the
    tournament's first record (its records keep their own command ids), so a retry is
    answered with the tournament its first attempt stored and fresh tokens, which replace the
    first answer's; the key with another export of that tournament, or the export under
    another key, is refused."""
    records, tables = split(lines)
    report = verify(records, tables)
    if not report.ok:
        problem = report.first_problem or {"version": 1, "what": "the record does not verify"}
        raise RecordError("record_rejected", f"Refused: tournament version {problem['version']}: {problem['what']}",
                          problem["version"])
    tournament_id = records[0][tr.ID]
    digest = None if idempotency_key is None else request_digest(
        "import", key=idempotency_key, records=[r["hash"] for r in records],
        games={game_id: [r["hash"] for r in game] for game_id, game in sorted(tables.items())})
    state = tr.folded(records)
    table_games = [t.game_id for t in state.tables if t.game_id is not None]
    before = _imported_before(organiser, tournament_id, records[0]["command_id"], idempotency_key, digest, table_games)
    if before is not None:
        return before
    games: list[Game] = [organiser.caboose.imported(tables[game_id]).game for game_id in table_games]
    aggregate = Tournament(entry=records[0], secret=None, request_digest=digest)
    aggregate.restore(records[1:])
    seating = organiser.lobby.seating
    issued = [(str(g.id), seating.issue(str(g.id), list(g.seats))) for g in games]
    referee = seating.issue(tournament_id, [])
    try:
        organiser.shelf.save(aggregate, games, [*issued, (tournament_id, referee)])
    except VersionConflict:
        # Stored by a racing attempt meanwhile: answered as its retry, if it was one.
        again = _imported_before(organiser, tournament_id, records[0]["command_id"], idempotency_key, digest, table_games)
        if again is None:
            raise
        return again
    return Created(tournament_id, referee.referee_token), _tokens(issued)


def _imported_before(organiser: Organiser, tournament_id: str, command: str, key: str | None, digest: str | None,
                     table_games: Sequence[str]) -> tuple[Created, dict[str, Any]] | None:
    """A keyed import's retry answered: the tournament its first attempt stored, with fresh
    tokens for its referee and its tables; None when no tournament of that id is stored."""
    try:
        stored = organiser.shelf.get(tournament_id)
    except TournamentNotFound:
        return None
    made_by = stored.commands.get(command, (0, 0, None))[2]
    if key is None or made_by is None:
        raise RecordError("tournament_exists", f"A tournament with id {tournament_id} is already stored.", 1)
    if made_by != digest:
        raise IdempotencyKeyReused(key)
    seating = organiser.lobby.seating
    issued = [(game_id, seating.reissue_all(game_id)) for game_id in table_games]
    return Created(tournament_id, seating.reissue_all(tournament_id).referee_token), _tokens(issued)


def _tokens(issued: Sequence[tuple[str, Issued]]) -> dict[str, Any]:
    return {game_id: {"seat_tokens": {str(k): v for k, v in i.seat_tokens.items()}, "referee_token": i.referee_token}
            for game_id, i in issued}
