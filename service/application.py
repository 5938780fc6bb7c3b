"""The Caboose application: one short method per use case, over the `Game` aggregate.

Plain types come in (game names, seat numbers, move dicts, ids as strings) and plain
JSON goes out; the rules' errors pass through unchanged for the interfaces to map.
"""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, Mapper, Transcoder

from domain import games
from domain.core import fold, log
from domain.core.audit import AuditReport, audit
from domain.core.decider import Setup
from domain.core.envelope import redact, seal, to_event
from domain.core.errors import IllegalMove, MalformedMove, RecordError, RuleError
from domain.core.events import REFEREE, Audience
from domain.core.kinds import AtTable
from domain.core.randomness import commitment
from domain.core.referee import referee_actor
from domain.core.transcription import TABLE, notated, sheet_lines
from service import command_ids, stored
from service.aggregate import Game, Stamp, new_salt, project_game, utc_now
from service.cache import GameCache
from service.commands import Command, Held, Play, SeatToken, decided_once, held_digest, held_id, replayed
from service.errors import (
    GameNotFound,
    IdempotencyKeyReused,
    NoSuchSeat,
    NoSuchVersion,
    VersionConflict,
    Withheld,
)
from service.migrate import open_store
from service.seating import REFEREE_NAME
from service.settings import Settings, persistence_env
from service.tlog import is_proof_line
from service.transcoder import EventMapper, OrjsonTranscoder

logger = logging.getLogger(__name__)


def _move_shown(decider: Any, record: dict[str, Any], audience: Audience) -> bool:
    """Whether the move a seat's record starts tells `audience` nothing it may not see: the
    move read from the record as redacted for it is the move read from the full record."""
    if not record["actor"].startswith("seat:"):
        return False
    try:
        made = decider.move_of(to_event(record, decider.catalogue))
        return made is not None and decider.move_of(to_event(redact(record, audience), decider.catalogue)) == made
    except (RuleError, KeyError, TypeError, ValueError):
        return False


def waiting_for(game: Game) -> dict[str, Any] | None:
    """What a table game waits for before any move: the outcome, and who enters it
    (`referee`, or `seat:N` for a seat's own secret draw); None when it waits for none."""
    pending = game.pending
    if pending is None:
        return None
    request = pending.request
    return {"outcome": request.describe(), "by": "referee" if request.by is None else f"seat:{request.by}",
            "seat": pending.seat, "needed": request.to_json()}


@dataclass(frozen=True)
class Moved:
    """What a command did: the records it stored, and the game (the caller's own copy) after them."""

    records: list[dict[str, Any]]
    game: Game
    replayed: bool = False
    """A retry's answer: the records its first attempt stored, the game as it now is."""

    @property
    def game_id(self) -> str:
        return str(self.game.id)


class Caboose(Application[UUID]):
    name = "caboose"
    is_snapshotting_enabled = True

    def __init__(self, settings: Settings | None = None, env: Mapping[str, str] | None = None) -> None:
        self.settings = settings or Settings.from_env()
        schema = {"POSTGRES_SCHEMA": self.settings.schema} if self.settings.schema else {}
        # The library's aggregate cache is left off: it fast-forwards a cached game in place
        # while other threads may be copying it. `GameCache` never changes what it holds.
        super().__init__({**persistence_env(self.settings.db), **schema, **(env or {})})
        self.cache: GameCache[Game] = GameCache(maxsize=1000)

    def construct_mapper(self) -> Mapper[UUID]:
        # Unless another mapper is configured (`MAPPER_TOPIC`), the library's own with its
        # per-topic look-ups made once (`service/transcoder.py`).
        if self.factory.env.get(self.factory.MAPPER_TOPIC):
            return super().construct_mapper()
        return self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=EventMapper)

    def construct_transcoder(self) -> Transcoder:
        # The library's extension point for how events are read and written: its JSON, read
        # back by orjson (`service/transcoder.py`); a `TRANSCODER_TOPIC` set still wins.
        if self.factory.env.get(self.factory.TRANSCODER_TOPIC):
            return super().construct_transcoder()
        transcoder = OrjsonTranscoder()
        self.register_transcodings(transcoder)
        return transcoder

    def construct_recorder(self) -> Any:
        # Tables are made by the migrations (`caboose db upgrade`), never by a worker at run time.
        migrated = open_store(self.settings.db, self.factory.env.get("POSTGRES_SCHEMA") or None)
        self.factory.env.setdefault("CREATE_TABLE", "n" if migrated else "y")
        return super().construct_recorder()

    # -- use cases --------------------------------------------------------------------

    def create_game(self, game: str, seats: list[str], options: Mapping[str, Any] | None = None,
                    seed: bytes | None = None, observed: Mapping[str, Any] | None = None) -> str:
        """Create a game, record its opening, and return its id. Without seats' tokens:
        the service's entry points create games through `Lobby`, which issues them.
        `observed` makes it a game played at a table (see `new_game`)."""
        return self.execute(Held(self.new_game(game, seats, options, seed, observed))).game_id

    def new_game(self, game: str, seats: list[str], options: Mapping[str, Any] | None = None,
                 seed: bytes | None = None, observed: Mapping[str, Any] | None = None,
                 tournament: AtTable | None = None, rated: bool = False, *,
                 request: tuple[str, str] | None = None) -> Game:
        """A new game with its opening recorded, not yet stored. With `observed` (the opening
        as laid out at a table, `Decider.table_setup`; `{}` for the game's default) it is a
        game played at a table (`seed_source: "table"`): no seed, every outcome entered.
        `tournament` names the tournament table it is played at; `rated`: its result counts in
        the ratings once it ends. `request`: the client's Idempotency-Key and the digest of
        its request, which give the game its id and its opening's command (`commands.Held`)."""
        decider, options = games.for_options(game, options or {})
        if not decider.min_seats <= len(seats) <= decider.max_seats:
            raise MalformedMove("bad_seats", f"{game} takes {decider.min_seats}–{decider.max_seats} players, not {len(seats)}.")
        if seed is not None and len(seed) != 32:
            raise MalformedMove("bad_seed", "A seed is 32 bytes (64 hex digits).")
        if observed is not None and seed is not None:
            raise MalformedMove("bad_seed", "A game played at a table has no seed: its outcomes are entered.")
        if observed is not None and not isinstance(observed, Mapping):
            raise MalformedMove("bad_setup", "The observed opening is a JSON object.")
        setup = Setup(tuple(seats), decider.options(options, len(seats)))
        key, digest = request if request is not None else (None, None)
        game_id = held_id("create", key) if key is not None else str(uuid.uuid4())
        now, command_id = utc_now(), key if key is not None else command_ids.fresh("create:")
        stamp = Stamp(command_id, now, digest)
        if observed is not None:
            created = seal(game_id=game_id, version=1, time=now, actor="system", command_id=command_id,
                           event=log.game_created(decider, setup, None, TABLE, tournament, rated), prev_hash="0" * 64,
                           new_salt=new_salt)
            aggregate = Game(record=created, seed=None, request_digest=digest)
            aggregate.set_up_table(observed, referee_actor(REFEREE_NAME), stamp)
            return aggregate
        seed_source = "client" if seed is not None else "server"
        seed = seed if seed is not None else os.urandom(32)
        created = seal(game_id=game_id, version=1, time=now, actor="system", command_id=command_id,
                       event=log.game_created(decider, setup, commitment(seed), seed_source, tournament, rated),
                       prev_hash="0" * 64, new_salt=new_salt)
        aggregate = Game(record=created, seed=seed.hex(), request_digest=digest)
        aggregate.set_up(stamp)
        return aggregate

    def play(self, game_id: str, seat: int, move: Mapping[str, Any], *, expected_version: int | Iterable[int] | None = None,
             idempotency_key: str | None = None, actor: str | None = None, by_bot: bool = False,
             outcomes: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """A move (`commands.Play`) through `execute`; returns the records it stored."""
        return self.execute(Play(game_id, seat, move, tuple(outcomes), actor, by_bot), expected_version=expected_version,
                            idempotency_key=idempotency_key).records

    def execute(self, command: Command | Held, *, expected_version: int | Iterable[int] | None = None,
                idempotency_key: str | None = None, loaded: Game | None = None,
                credential: SeatToken | None = None) -> Moved:
        """The one way a stored game is written to: decide `command` against the game and
        store what it decided in one transaction. Returns the records this call stored (full
        form) and the game after them (for a retry of a stored request: the game as it now is).

        With `expected_version` (one version, or several any of which will do), a game that
        moved on refuses the command. Without it, a command that lost a race to another
        writer is decided again against the game as it now is, so concurrent writes
        serialize. The command is stored under the client's `idempotency_key` (else a fresh
        id in the command's namespace); a retry of the same request with the same key
        returns exactly the records the first one stored, and stores nothing; the same key
        with another request is refused (`IdempotencyKeyReused`). `loaded`: the game as this
        request already loaded it (`game()`), the caller's own copy, decided on first; a
        round after a lost race loads the game afresh. `credential`: the caller's seat
        token as it was let in (`SeatToken`), asked of every version the command is decided
        against but `loaded`, which the caller let the token in against (`TokenReplaced`
        when it no longer speaks for its seat there).

        A `Held` command is a game decided in memory (created, imported, forked, or played
        on by bots); it is stored as it stands, and one made under a client's key is answered
        on a retry as any command is (see `Held`). `Moved.replayed` tells a retry's answer.
        """
        if isinstance(command, Held):
            return self._store_held(command)
        decided = decided_once(self, command.game_id, lambda game, stamp: command.decide(game, stamp, self),
                               command.digest(), command.namespace, expected_version=expected_version,
                               idempotency_key=idempotency_key, loaded=loaded,
                               admit=None if credential is None else credential.admit)
        return Moved(decided.records, decided.aggregate, decided.replayed)

    # -- the store of games, as the pipeline asks of it (`commands.Stream`) ---------------

    def load(self, stream_id: str) -> Game:
        return self.game(stream_id)

    def recorded(self, stream_id: str, first: int, last: int) -> list[dict[str, Any]]:
        return self.records(stream_id, after=first - 1, upto=last)

    def commit(self, aggregate: Game) -> bool:
        try:
            self._save(aggregate)
        except IntegrityError:
            return False
        return True

    def _store_held(self, held: Held) -> Moved:
        answer = self.held_replayed(held)
        if answer is not None:
            return answer
        aggregate = held.game
        first = aggregate.version - len(aggregate.pending_events) + 1
        records: list[dict[str, Any]] = [event.record for event in cast(list[Any], aggregate.pending_events)]
        try:
            self._save(aggregate)
        except IntegrityError as refused:
            # Refused at the unique (game, version) key only when another writer stored that
            # version first; any other refusal (a constraint, a full disk) is raised as it is.
            try:
                stored = self.game(str(aggregate.id)).version
            except GameNotFound:
                raise refused from None
            if stored < first:
                raise
            if first == 1:
                answer = self.held_replayed(held)  # a racing attempt of the same keyed request
                if answer is not None:
                    return answer
                raise RecordError("game_exists", f"A game with id {aggregate.id} is already stored.", 1) from None
            raise VersionConflict(None, stored) from None
        return Moved(records, aggregate)

    def held_replayed(self, held: Held) -> Moved | None:
        """What a new game's keyed request stored before (`Held`): the records of its command
        and the game as it now is; None when nothing is stored under its id yet, or it is not
        keyed. The same key with another request is refused (`IdempotencyKeyReused`)."""
        if held.key is None or held.command is None:
            return None
        try:
            stored = self.game(held.game_id)
        except GameNotFound:
            return None
        made_by = stored.commands[held.command][2] if held.command in stored.commands else None
        if made_by is None:
            return None  # not made by a keyed request: storing it is refused (`game_exists`)
        if made_by != held.digest:
            raise IdempotencyKeyReused(held.key)
        return Moved(replayed(self, held.game_id, stored, held.command, str(held.digest)), stored, replayed=True)

    def game(self, game_id: str, at: int | None = None) -> Game:
        """The aggregate now, or as it stood at version `at` (time travel): a copy of the
        caller's own, which it may change without affecting anyone else."""
        key = self._key(game_id)
        if at is not None:
            return self._reconstructed(game_id, key, at)
        cached = self.cache.get(key)
        if cached is None:
            latest = self._reconstructed(game_id, key, None)
        else:
            # Other processes may have stored events since: fold them onto a copy.
            newer = list(self.events.get(key, gt=cached.version))
            latest = project_game(cached.copy(), newer) if newer else cached  # type: ignore[assignment]
        self.cache.put(key, latest)
        return latest.copy()

    def _reconstructed(self, game_id: str, key: UUID, at: int | None) -> Game:
        try:
            aggregate: Game = self.repository.get(key, version=at, projector_func=project_game)
        except AggregateNotFoundError:
            raise GameNotFound(game_id) from None
        if not isinstance(aggregate, Game):  # a tournament's id, say: the store holds more than games
            raise GameNotFound(game_id)
        if not hasattr(aggregate, "handed_back") or not hasattr(aggregate, "origins"):
            # From a snapshot taken before the versions of hand-backs (tokens are checked
            # against them) or a fork's origins (who may see it waits on them) were kept:
            # folded from its events once, so the next snapshot has them.
            aggregate = project_game(None, self.events.get(key, lte=at))  # type: ignore[assignment]
        return aggregate

    def records(self, game_id: str, after: int = 0, limit: int | None = None, upto: int | None = None) -> list[dict[str, Any]]:
        """The game's full records (referee form) after version `after`."""
        return stored.records(self, self._key(game_id), after or None, upto, limit)

    def view_records(self, game_id: str, audience: Audience, after: int = 0, limit: int | None = None,
                     loaded: Game | None = None) -> list[dict[str, Any]]:
        """The records as `audience` may see them now (`seen_as`). A referee's are the records
        as stored, read without judging the game (so a game whose content pack is not
        installed can still be exported)."""
        if not audience.referee:
            loaded = loaded or self.game(game_id)
            self._seat_of(loaded, audience.seat)
        records = self.records(game_id, after, limit)
        if audience.referee and not records and not self.records(game_id, limit=1):
            raise GameNotFound(game_id)
        return self.shown(game_id, records, audience, loaded)

    def shown(self, game_id: str, records: list[dict[str, Any]], audience: Audience,
              loaded: Game | None = None) -> list[dict[str, Any]]:
        """`records` as `audience` may see them now (`loaded`: the game as already loaded)."""
        if self.seen_as(game_id, audience, loaded).referee:
            return records
        return [redact(r, audience) for r in records]

    def seen_as(self, game_id: str, audience: Audience, loaded: Game | None = None) -> Audience:
        """Whose view `audience` gets of the game now: everything (`REFEREE`) for its referee,
        and for anyone once it is over and shown whole (`shown_whole`); else its own. A game
        that continues the hidden cards of a game still running (a fork of it, or a record
        imported from one) shows them through its play (a market refilled from a copied deck,
        a route paid from a copied hand, tickets scored at the end): until that game ends,
        the public is refused it (`Withheld`) and its own seats see only their own secrets,
        even after it ends."""
        if audience.referee:
            return REFEREE
        game = loaded or self.game(game_id)
        running = self.running_origin(game)
        if running is not None:
            if audience.seat is None:
                raise Withheld(game_id, running)
            return audience
        return REFEREE if game.is_over else audience

    def shown_whole(self, game: Game) -> bool:
        """Whether every secret of `game` is public now: it is over, and every game whose
        hidden cards it continues is over too."""
        return game.is_over and self.running_origin(game) is None

    def running_origin(self, game: Game) -> str | None:
        """A game still running whose hidden cards `game` continues, if any: an origin of
        its forks, or of theirs. An origin not in this store has no cards here to keep: a
        record imported from elsewhere is judged by what this store holds."""
        seen: set[str] = set()
        waiting = list(game.origins)
        while waiting:
            origin = waiting.pop()
            if origin in seen:
                continue
            seen.add(origin)
            try:
                found = self.game(origin)
            except GameNotFound:
                continue
            if not found.is_over:
                return origin
            waiting += found.origins
        return None

    def text_form(self, game_id: str, audience: Audience) -> list[str]:
        """The game as a score sheet: one line per move in its notation, one per entered
        outcome (`transcription.sheet_lines`). It needs the record the rules can fold: the
        referee's, or anyone's once the game is shown whole."""
        records = self.view_records(game_id, audience)
        if any("value" not in s for r in records for s in r["secrets"]):
            raise IllegalMove("secrets_withheld", "The text form is folded from the full record: ask as the referee, "
                              "or once the game is over and shown whole.")
        return sheet_lines(records)

    def notation_lines(self, game_id: str, audience: Audience, upto: int | None = None,
                       loaded: Game | None = None, open_moves: bool = False) -> dict[int, str]:
        """Each move in the game's notation and each outcome entered at a table as typed, by
        the version it is recorded at, up to `upto`. A command with anything `audience` may
        not see has no line (a line never tells more than the events do), unless
        `open_moves`: then only a command whose move itself is secret (the move its redacted
        record gives is not the move made: tickets kept) has none, and a blind draw is told as
        a draw. A record the rules cannot fold here (its pack is not installed) has no line."""
        game = loaded or self.game(game_id)
        records = self.records(game_id, upto=upto)
        everything = audience.referee or game.is_over
        hidden = set() if everything else {r["command_id"] for r in records
                                            if any("value" in s and not audience.sees(s["to"]) for s in r["secrets"])
                                            and not (open_moves and _move_shown(game.decider, r, audience))}
        command = {r["version"]: r["command_id"] for r in records}
        try:
            return {v: text for v, text in notated(records) if command.get(v) not in hidden or command.get(v) is None}
        except RuleError:
            return {}

    def state(self, game_id: str, audience: Audience, at: int | None = None, loaded: Game | None = None) -> dict[str, Any]:
        now = loaded or self.game(game_id)
        self._seat_of(now, audience.seat)
        seen = self.seen_as(game_id, audience, now)
        if at is not None and at > now.version:
            raise NoSuchVersion(at, now.version)
        aggregate = now if at is None or at == now.version else self.game(game_id, at)
        return {"game_id": game_id, "version": aggregate.version, "game": aggregate.ruleset,
                "state": aggregate.decider.view(aggregate.state, seen), "waiting_for": waiting_for(aggregate)}

    def summary(self, game_id: str, loaded: Game | None = None, audience: Audience | None = None) -> dict[str, Any]:
        """The game's summary; for `audience` (None: the service itself), refused where it may
        not see the game (`seen_as`)."""
        g = loaded or self.game(game_id)
        if audience is not None:
            self.seen_as(game_id, audience, g)
        decider, open_seats = g.decider, log.open_seats(g.seats)
        return {
            "game_id": game_id, "game": g.ruleset, "ruleset_version": g.ruleset_version,
            "seats": [{"seat": i, "name": n, "open": i in open_seats} for i, n in enumerate(g.seats)], "version": g.version,
            "status": "finished" if g.is_over else "active", "active_seats": sorted(decider.active_seats(g.state)),
            "scores": {str(k): v for k, v in decider.scores(g.state).items()},
            "created_at": g.created_at, "updated_at": g.updated_at,
            "waiting_since": dict(g.waiting_since),
            "thinking_seconds": {str(s): g.thinking_seconds.get(str(s), 0.0) for s in range(len(g.seats))},
            "bots": {str(seat): level for seat, level in sorted(g.held_by_bots.items())}, "move_deadline": g.deadline,
            "transcribed": g.is_table, "waiting_for": waiting_for(g), "tournament": g.at_table,
        }

    def legal_moves(self, game_id: str, seat: int) -> list[dict[str, Any]]:
        return self.legal_moves_at(game_id, seat)[1]

    def legal_moves_at(self, game_id: str, seat: int, loaded: Game | None = None) -> tuple[int, list[dict[str, Any]]]:
        """The game's version and the moves `seat` may make at it (none in a game that cannot
        be played on here: `Game.playable`)."""
        g = loaded or self.game(game_id)
        self._seat_of(g, seat)
        if g.is_over or not g.playable or seat not in g.decider.active_seats(g.state):
            return g.version, []
        return g.version, g.decider.legal_moves(g.state, seat)

    def audit(self, game_id: str) -> AuditReport:
        return audit(self.records(game_id))

    def import_record(self, records: Iterable[dict[str, Any]]) -> str:
        """Verify a full record (chain and rules) and store it; a record that does not verify
        raises `RecordError` naming its first bad version and stores nothing."""
        return self.execute(self.imported(records)).game_id

    def imported(self, records: Iterable[dict[str, Any]], key: str | None = None) -> Held:
        """The game a full record holds, verified (chain and rules), not yet stored. An
        export's proof line is left out: it proves the record in the log it came from. Under
        the client's Idempotency-Key `key`, a retry is answered with the game it stored: the
        record keeps its own command ids, so the request's digest (the key and the record's
        hashes) is kept with the command of its first record."""
        records = [r for r in records if not is_proof_line(r)]
        report = audit(records)
        if not report.ok:
            problem = report.first_problem or {"version": 1, "what": "the record does not verify"}
            raise RecordError("record_rejected", f"Refused: {problem['what']}", problem["version"])
        withheld = next((r["version"] for r in records if any("value" not in s for s in r["secrets"])), None)
        if withheld is not None:
            # A public or a seat's export of a running game: its state cannot be rebuilt
            # without the secrets it leaves out, so it cannot be played on or checked here.
            raise RecordError("secrets_withheld", f"Refused: version {withheld} withholds a secret (an export for "
                              "the public or a seat); import the referee's full record, which holds every secret.",
                              withheld)
        game_id = records[0]["game_id"]
        try:
            self.game(game_id)
        except GameNotFound:
            pass
        else:
            if key is None:
                raise RecordError("game_exists", f"A game with id {game_id} is already stored.", 1)
        command = records[0]["command_id"] if key is not None else None
        digest = held_digest("import", key=key, records=[r["hash"] for r in records]) if command else None
        if command is None:
            key = None
        aggregate = Game(record=records[0], seed=None, request_digest=digest)
        aggregate.restore_all(records[1:], fold.History(records[0]))
        return Held(aggregate, key, command, digest)

    def _save(self, aggregate: Game) -> None:
        """Store the aggregate's new events in one transaction, cache the game as stored, then
        snapshot it if they crossed a multiple of the interval. The snapshot is taken from the
        aggregate in hand rather than rebuilt from the store, which the library would do; it
        only speeds up loading, so a failure to store it does not fail the move."""
        first = aggregate.version - len(aggregate.pending_events) + 1
        self.save(aggregate)
        self.cache.put(aggregate.id, aggregate.copy())
        interval = self.settings.snapshot_interval
        if self.snapshots is not None and interval and aggregate.version // interval > (first - 1) // interval:
            try:
                self.snapshots.put([Game.Snapshot.take(aggregate)])
            except Exception:  # the move is stored; a later snapshot will do
                logger.warning("snapshot of game %s at version %s not stored", aggregate.id, aggregate.version, exc_info=True)

    def logged(self, notifications: Sequence[Any]) -> list[tuple[int, dict[str, Any], Any]]:
        """The records a stretch of the notification log holds, for the read models
        (`service/stored.py`): (notification id, record, the state a rewind restores)."""
        return stored.logged(self, notifications)

    def originators(self) -> dict[UUID, int]:
        """Every game's and tournament's id in the store with its number of events (a
        rebuild's parts split them)."""
        return stored.originators(self)

    def notifications_of(self, ids: Sequence[UUID], upto: int) -> list[Any]:
        """The notifications of `ids` up to position `upto`, in the log's order."""
        return stored.notifications_of(self, ids, upto)

    def game_ids(self) -> list[str]:
        """Every stored game, oldest first."""
        seen: dict[str, None] = {}
        start = 1
        while batch := self.recorder.select_notifications(start=start, limit=1000):
            for item in batch:
                if item.topic in stored.TOPICS:  # a game's, not a tournament's
                    seen.setdefault(str(item.originator_id), None)
            start = batch[-1].id + 1
        return list(seen)

    @staticmethod
    def _seat_of(game: Game, seat: int | None) -> None:
        """Refuse a seat the game does not have (None: not a seat's request)."""
        if seat is not None and not 0 <= seat < len(game.seats):
            raise NoSuchSeat(seat, len(game.seats))

    @staticmethod
    def _key(game_id: str) -> UUID:
        try:
            return UUID(game_id)
        except (ValueError, TypeError, AttributeError):
            raise GameNotFound(str(game_id)) from None
