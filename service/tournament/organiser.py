"""A tournament's use cases over the application, one short method each: create, register,
withdraw, pair the next round, record the results of tables whose games ended, raise and
rule disputes. Each loads the tournament, lets the pure rules (`domain/tournament/decide.py`)
judge the command, and stores what they decide; a refused command stores nothing.

The table games a round opens are stored in the same transaction as the round, each created
with its seed derived from the tournament's secret and its players in their derived seat
order (`domain/tournament/fairness.py`), its tokens issued first as the lobby issues them.

A referee's command (register, withdraw, pair, rule) may come with the client's
Idempotency-Key (`service/command_ids.py`): it becomes the command's id in the record, with a
digest of the request beside it, so a retry is answered with what the first attempt stored
and stores nothing; the same key with another request is refused (`IdempotencyKeyReused`).
A retried pairing answers its tables without their tokens, which are shown once.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.exc import IntegrityError

from domain import games
from domain.core.errors import IllegalMove, MalformedMove
from domain.core.events import Event
from domain.core.kinds import AtTable
from domain.core.randomness import commitment
from domain.core.referee import referee_actor
from domain.tournament import decide
from domain.tournament import events as ev
from domain.tournament import record as tr
from domain.tournament.pairing import Plan, Solver
from domain.tournament.state import evolve
from service import bots, command_ids
from service import referee as desk
from service.aggregate import Game, Stamp
from service.application import utc_now
from service.commands import Decided, decided_once, held_id
from service.errors import IdempotencyKeyReused, VersionConflict
from service.lobby import RACING_ATTEMPTS, Lobby
from service.seating import Issued
from service.simulation import best_level, levels_of
from service.tournament import assign
from service.tournament.aggregate import Tournament, opened
from service.tournament.store import Shelf, TournamentNotFound

Ratings = Callable[[str, str], float | None]
"""A player's rating in a game (`projections/ratings.py`), or None for an unrated player."""


@dataclass(frozen=True)
class Created:
    tournament_id: str
    referee_token: str


@dataclass(frozen=True)
class Opened:
    """A table a round opened: its game and the tokens of its seats and referee (shown once)."""

    round: int
    table: int
    game_id: str | None
    """None at a physical table until its opening is entered (`Organiser.open_table`)."""
    seats: tuple[str, ...]
    issued: Issued | None
    replayed: bool = False
    """A retry's answer: the table as the first attempt paired it, its tokens not shown again."""

    def to_json(self) -> dict[str, Any]:
        tokens = self.issued.seat_tokens if self.issued else {}
        return {"round": self.round, "table": self.table, "game_id": self.game_id,
                "seats": [{"seat": i, "player": p, "token": tokens.get(i)} for i, p in enumerate(self.seats)],
                "referee_token": self.issued.referee_token if self.issued else None, "replayed": self.replayed}


class Organiser:
    def __init__(self, lobby: Lobby, solver: Solver = assign.solve, ratings: Ratings | None = None) -> None:
        self.lobby, self.caboose = lobby, lobby.caboose
        self.shelf = Shelf(lobby.caboose, lobby.seating)
        self.solver = solver
        self.ratings = ratings

    # -- use cases ----------------------------------------------------------------------

    def create(self, name: str, game: str, *, kind: str, rounds: int, options: Mapping[str, Any] | None = None,
               table_size: int | None = None, semifinal: int | None = None, final: int | None = None,
               seeding: str = "draw", place_points: Sequence[float] | None = None,
               tie_breaks: Sequence[str] | None = None, bye_points: float | None = None, seed_source: str = "server",
               move_deadline: Any = None, referee: str = "referee", secret: bytes | None = None,
               idempotency_key: str | None = None) -> Created:
        """A new tournament; its referee's token is shown once (only its hash is kept). Under
        the client's `idempotency_key` its id is the key's (`commands.held_id`), so a retry
        finds the tournament its first attempt stored and stores nothing: since the token is
        kept only as its hash, it is answered with a fresh one, which replaces the first."""
        decider, _ = games.for_options(game, dict(options or {}))
        seconds = bots.deadline_seconds(move_deadline) if move_deadline is not None else None
        secret = secret if secret is not None else os.urandom(32)
        if len(secret) != 32:
            raise MalformedMove("bad_seed", "A tournament's secret is 32 bytes (64 hex digits).", "secret")
        created = decide.created(
            name=name, game=decider.name, ruleset_version=decider.ruleset_version,
            content=decider.pack.pinned if decider.pack is not None else None, seats=(decider.min_seats, decider.max_seats),
            options=dict(options or {}), kind=kind, rounds=rounds, table_size=table_size, semifinal=semifinal,
            final=final, seeding=seeding, place_points=place_points, tie_breaks=tie_breaks, bye_points=bye_points,
            commitment=commitment(secret), seed_source=seed_source, move_deadline=seconds)
        # Refuse options the game refuses before anything is stored.
        decider.options(dict(options or {}), created.format.table_size)
        if idempotency_key is None:
            tournament_id = str(uuid.uuid4())
            aggregate = opened(tournament_id, created, secret, command_ids.fresh("create:"), utc_now(), referee_actor(referee))
            issued = self.lobby.seating.issue(tournament_id, [])
            self.shelf.save(aggregate, issued=[(tournament_id, issued)])
            return Created(tournament_id, issued.referee_token)
        tournament_id = held_id("tournament", idempotency_key)
        digest = request_digest("create", name=name, game=game, kind=kind, rounds=rounds, options=dict(options or {}),
                                table_size=table_size, semifinal=semifinal, final=final, seeding=seeding,
                                place_points=list(place_points) if place_points is not None else None,
                                tie_breaks=list(tie_breaks) if tie_breaks is not None else None, bye_points=bye_points,
                                seed_source=seed_source, move_deadline=seconds, referee=referee)
        aggregate = opened(tournament_id, created, secret, idempotency_key, utc_now(), referee_actor(referee), digest)
        for _ in range(RACING_ATTEMPTS):
            before = self._created_before(tournament_id, idempotency_key, digest)
            if before is not None:
                return before
            try:
                issued = self.lobby.seating.issue(tournament_id, [])
            except IntegrityError:
                time.sleep(0.05)  # a racing attempt under the key stores it, or withdraws its token, long before
                continue
            try:
                self.shelf.save(aggregate, issued=[(tournament_id, issued)])
            except VersionConflict:
                continue  # stored by a racing attempt meanwhile: answered as a retry
            return Created(tournament_id, issued.referee_token)
        raise VersionConflict(None, 1)

    def _created_before(self, tournament_id: str, key: str, digest: str) -> Created | None:
        """The tournament a keyed creation stored (None: none yet), with a fresh referee token."""
        try:
            stored = self.shelf.get(tournament_id)
        except TournamentNotFound:
            return None
        if stored.commands.get(key, (0, 0, None))[2] != digest:
            raise IdempotencyKeyReused(key)
        return Created(tournament_id, self.lobby.seating.reissue_all(tournament_id).referee_token)

    def register(self, tournament_id: str, player: str, referee: str = "referee",
                 idempotency_key: str | None = None) -> list[dict[str, Any]]:
        def registered(tournament: Tournament, stamp: Stamp) -> list[dict[str, Any]]:
            rating = self.ratings(tournament.state.created.game, player.strip()) if self.ratings else None
            event = decide.registered(tournament.state, player, self._secret(tournament), rating)
            return _appended(tournament, [event], referee_actor(referee), stamp)

        digest = request_digest("register", player=player, referee=referee)
        return self._execute(tournament_id, registered, digest, idempotency_key).records

    def withdraw(self, tournament_id: str, player: str, how: str, reason: str, referee: str = "referee",
                 level: str | None = None, idempotency_key: str | None = None) -> list[dict[str, Any]]:
        """A player leaves: paired no more. In a game still running, a bot keeps the seat
        (`bot`: the player's result counts; `forfeit`: the game's strongest bot plays it out
        and the player is placed last)."""
        def withdrawn(tournament: Tournament, stamp: Stamp) -> list[dict[str, Any]]:
            decider = games.current(tournament.state.created.game)
            event = decide.withdrawn(tournament.state, player, how, level, reason, referee, levels_of(decider))
            return _appended(tournament, [event], referee_actor(referee), stamp)

        digest = request_digest("withdraw", player=player, how=how, reason=reason, referee=referee, level=level)
        done = self._execute(tournament_id, withdrawn, digest, idempotency_key)
        stored, tournament = done.records, done.aggregate
        if done.replayed:
            return stored
        decider = games.current(tournament.state.created.game)
        for table in tournament.state.playing():
            if player in table.seats and table.game_id is not None:
                bots.take_over(self.caboose, table.game_id, table.seats.index(player), level or best_level(decider),
                               f"{player} withdrew from the tournament: {reason}", referee)
        return stored

    def pair(self, tournament_id: str, referee: str = "referee", entrants: Sequence[str] | None = None,
             idempotency_key: str | None = None) -> list[Opened]:
        """The next round (a schedule: its whole season): its tables' games opened and stored
        with the round, in one transaction. Results of tables whose games ended are recorded first."""
        def paired(tournament: Tournament, stamp: Stamp) -> list[dict[str, Any]]:
            plans = decide.plans(tournament.state, self._secret(tournament), self.solver, entrants)
            events, tables = self._open(tournament, plans)
            records = _appended(tournament, events, referee_actor(referee), stamp)
            # Their credentials last: issued only for a round the rules let in (withdrawn if it is not stored).
            issued = self.lobby.seating.issue_many([(str(g.id), list(g.seats)) for g in tables])
            tournament.opening = tuple(zip(tables, issued, strict=True))
            return records

        digest = request_digest("pair", referee=referee, entrants=list(entrants) if entrants is not None else None)
        if idempotency_key is None or idempotency_key not in self._running(tournament_id).commands:
            self.settle(tournament_id)  # not for a retry, which is answered as it was
        done = self._execute(tournament_id, paired, digest, idempotency_key)
        if done.replayed:
            return _tables_of(done.records)
        issued = {str(game.id): credentials for game, credentials in done.aggregate.opening}
        seconds = done.aggregate.state.created.move_deadline
        if seconds is not None:
            for game_id in issued:
                bots.set_deadline(self.caboose, game_id, seconds)
        return [replace(t, issued=issued.get(str(t.game_id)), replayed=False) for t in _tables_of(done.records)]

    def settle(self, tournament_id: str) -> list[dict[str, Any]]:
        """Record the result of every table whose game has ended and, when the last is in,
        the end of the tournament and its secret."""
        def settled(tournament: Tournament, stamp: Stamp) -> list[dict[str, Any]]:
            state, events = tournament.state, list[Event]()
            if state.finished:
                return []
            for table in state.playing():
                if table.game_id is None:
                    continue  # a physical table whose opening is not entered yet
                game = self.caboose.game(table.game_id)
                if game.is_over:
                    event = decide.table_finished(state, table.game_id, game.decider.finish(game.state),
                                                  game.decider.scores(game.state), game.version, game.head)
                    events.append(event)
                    state = evolve(state, event)
            secret = tournament.secret_bytes
            if decide.complete(state) and secret is not None:
                events += decide.finished(state, secret)
            return _appended(tournament, events, "system", stamp)

        return self._execute(tournament_id, settled, request_digest("settle"), None, namespace="system:").records

    def raise_dispute(self, tournament_id: str, game_id: str, version: int, raised_by: str, claim: str,
                      referee: str = "referee", idempotency_key: str | None = None) -> list[dict[str, Any]]:
        """A dispute about an event of one of the tournament's tables, recorded in its game."""
        self._table(tournament_id, game_id)
        return desk.raise_dispute(self.caboose, game_id, referee, version, raised_by, claim, idempotency_key=idempotency_key)

    def rule(self, tournament_id: str, game_id: str, referee: str, text: str, *, outcome: str = "upheld",
             dispute: int | None = None, places: Sequence[int] | None = None,
             idempotency_key: str | None = None) -> dict[str, Any]:
        """A ruling: in the table's game (`RulingMade`, when it settles a dispute) and, when it
        changes the table's result (`places`), in the tournament (`ResultRuled`), which moves
        the standings. Rounds paired since stand as paired, and the answer says so. With an
        Idempotency-Key, each part is stored once under it: a retry stores what the first
        attempt did not."""
        tournament = self._running(tournament_id)
        self._table(tournament_id, game_id)
        digest = request_digest("rule", game_id=game_id, referee=referee, text=text, outcome=outcome, dispute=dispute,
                                places=list(places) if places is not None else None)
        if places is not None and (idempotency_key is None or idempotency_key not in tournament.commands):
            decide.ruled(tournament.state, game_id, places, text, referee, dispute)  # refused before the game's ruling is stored
        if dispute is None and places is None:
            raise MalformedMove("nothing_ruled", "A ruling settles a dispute (`dispute`) or changes a result (`places`).")
        in_game = desk.rule(self.caboose, game_id, referee, dispute, text, outcome,
                            idempotency_key=idempotency_key) if dispute is not None else []

        def ruled(tournament: Tournament, stamp: Stamp) -> list[dict[str, Any]]:
            change = decide.ruled(tournament.state, game_id, list(places or ()), text, referee, dispute)
            return _appended(tournament, [change], referee_actor(referee), stamp)

        in_tournament = self._execute(tournament_id, ruled, digest, idempotency_key).records if places is not None else []
        since = [r for record in in_tournament if isinstance(ruling := tr.to_event(record), ev.ResultRuled)
                 for r in ruling.paired_since]
        note = (f"Round{'s' if len(since) > 1 else ''} {', '.join(map(str, since))} {'were' if len(since) > 1 else 'was'} "
                "already paired: the tables stand as paired; nothing is re-paired.") if since else None
        return {"game": in_game, "tournament": in_tournament, "paired_since": since, "note": note}

    # -- helpers --------------------------------------------------------------------------

    def _running(self, tournament_id: str) -> Tournament:
        return self.shelf.get(tournament_id)

    def _secret(self, tournament: Tournament) -> bytes:
        secret = tournament.secret_bytes
        if secret is None:
            raise IllegalMove("secret_unavailable", "This tournament was imported without its secret: its remaining "
                              "rounds cannot be paired or entered here.")
        return secret

    def _table(self, tournament_id: str, game_id: str) -> None:
        if self.shelf.get(tournament_id).state.table_of(game_id) is None:
            raise IllegalMove("not_in_tournament", f"Game {game_id} is not a table of this tournament.",
                              {"game_id": game_id})

    def _execute(self, tournament_id: str, decide: Callable[[Tournament, Stamp], list[dict[str, Any]]], digest: str,
                 idempotency_key: str | None, namespace: str = "referee:") -> Decided[Tournament]:
        """A command to the tournament through the pipeline (`commands.decided_once`), as a
        command to a game goes: its records under the client's key (else a fresh id of the
        server's), a retry answered with what its first attempt stored, decided again
        against the tournament as it now is when another writer stored first."""
        return decided_once(self.shelf, tournament_id, decide, digest, namespace, idempotency_key=idempotency_key)

    def _open(self, tournament: Tournament, plans: Sequence[Plan]) -> tuple[list[Event], list[Game]]:
        """The events of the planned rounds and the games of their tables, not yet stored."""
        created, tournament_id = tournament.state.created, str(tournament.id)
        decider, _ = games.for_options(created.game, dict(created.options))
        pinned = decider.pack.pinned if decider.pack is not None else None
        if created.content is not None and pinned != {"id": created.content.id, "version": created.content.version,
                                                      "sha256": created.content.sha256}:
            raise IllegalMove("content_mismatch", f"The tournament pinned the content pack {created.content.id} "
                              f"({created.content.sha256}); the installed one differs.")
        events: list[Event] = []
        aggregates: list[Game] = []
        for plan in plans:
            events.append(plan.paired())
            for table in plan.tables:
                if table.seed is None:  # a physical table: its game waits for the opening laid out there
                    events.append(ev.TableSeated(round=plan.round, table=table.table, seats=table.seats, game_id=None,
                                                 seed_commitment=None))
                    continue
                game = self.caboose.new_game(created.game, list(table.seats), created.options, seed=table.seed,
                                             tournament=AtTable(tournament_id, plan.round, table.table))
                events.append(ev.TableSeated(round=plan.round, table=table.table, seats=table.seats, game_id=str(game.id),
                                             seed_commitment=commitment(table.seed)))
                aggregates.append(game)
        return events, aggregates

    def open_table(self, tournament_id: str, round_: int, table: int, observed: Mapping[str, Any],
                   referee: str = "referee", idempotency_key: str | None = None) -> Opened:
        """A physical table's game, made from its opening as laid out there (`observed`, the
        game's own form: docs/transcription.md), its players in the table's derived seat order;
        stored with the tournament's `TableOpened` in one transaction."""
        def opened_at(tournament: Tournament, stamp: Stamp) -> list[dict[str, Any]]:
            seated = tournament.state.table_at(round_, table)
            if seated is None or seated.game_id is not None:
                raise IllegalMove("no_table_waiting", f"Round {round_} has no physical table {table} waiting for its opening.")
            created = tournament.state.created
            game = self.caboose.new_game(created.game, list(seated.seats), created.options, observed=observed,
                                         tournament=AtTable(tournament_id, round_, table))
            records = _appended(tournament, [ev.TableOpened(round=round_, table=table, game_id=str(game.id))],
                                referee_actor(referee), stamp)
            tournament.opening = ((game, self.lobby.seating.issue(str(game.id), list(seated.seats))),)
            return records

        digest = request_digest("open_table", round=round_, table=table, observed=dict(observed), referee=referee)
        done = self._execute(tournament_id, opened_at, digest, idempotency_key)
        table_opened = tr.to_event(done.records[0])
        assert isinstance(table_opened, ev.TableOpened)
        game_id = table_opened.game_id
        seated = done.aggregate.state.table_at(round_, table)
        seats = seated.seats if seated is not None else ()
        issued = None if done.replayed else dict((str(g.id), i) for g, i in done.aggregate.opening)[game_id]
        return Opened(round_, table, game_id, seats, issued, replayed=done.replayed)


def _appended(tournament: Tournament, events: Sequence[Event], actor: str, stamp: Stamp) -> list[dict[str, Any]]:
    """`events` recorded on the tournament as one command, under `stamp`."""
    return tournament.append(events, actor, stamp.command_id, stamp.time, stamp.digest)


def request_digest(use: str, **fields: Any) -> str:
    """What identifies a request to a tournament, for its retries: its use case and its fields."""
    text = json.dumps({"use": use, **fields}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _tables_of(records: Sequence[dict[str, Any]]) -> list[Opened]:
    """A stored pairing's tables (a retry's answer: no tokens)."""
    return [Opened(seated.round, seated.table, seated.game_id, seated.seats, None, replayed=True)
            for seated in map(tr.to_event, records) if isinstance(seated, ev.TableSeated)]
