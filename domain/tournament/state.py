"""A tournament as its record folds: players, rounds, tables and their results.

`evolve` is the one fold of a tournament's events, used when one is played, read, imported
and verified. It refuses an event that does not fit what came before it (a player entered
twice, a table of a round never paired, places that are not places), so a rewritten record
whose hashes were recomputed still fails where it stops making sense.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from domain.core.errors import RecordError
from domain.core.events import Event
from domain.core.randomness import commitment
from domain.core.state import FrozenDict
from domain.tournament import events as ev
from domain.tournament.points import places as places_of


@dataclass(frozen=True)
class Player:
    name: str
    draw: str
    rating: float | None = None
    late: bool = False
    withdrawn: str | None = None
    """`forfeit` or `bot` once the player withdrew."""
    level: str | None = None


@dataclass(frozen=True)
class Result:
    places: tuple[int, ...]
    scores: tuple[int, ...]
    finish: tuple[tuple[int, ...], ...] = ()
    ruled_by: str | None = None
    """The referee whose ruling set these places (None: the game's own result)."""
    reason: str | None = None


@dataclass(frozen=True)
class Table:
    round: int
    table: int
    stage: str
    seats: tuple[str, ...]
    game_id: str | None
    """None at a physical table until its opening is entered (`TableOpened`)."""
    seed_commitment: str | None
    result: Result | None = None

    @property
    def key(self) -> tuple[int, int]:
        return self.round, self.table


@dataclass(frozen=True)
class Round:
    number: int
    stage: str
    order: tuple[str, ...]
    byes: tuple[str, ...]
    repeats: int


@dataclass(frozen=True)
class Tournament:
    id: str
    created: ev.TournamentCreated
    players: FrozenDict = field(default_factory=FrozenDict)
    """name -> Player, in registration order."""
    rounds: tuple[Round, ...] = ()
    tables: tuple[Table, ...] = ()
    standing: tuple[str, ...] | None = None
    secret: str | None = None

    @property
    def format(self) -> ev.Format:
        return self.created.format

    @property
    def finished(self) -> bool:
        return self.standing is not None

    def table_of(self, game_id: str) -> Table | None:
        return next((t for t in self.tables if t.game_id == game_id and game_id is not None), None)

    def table_at(self, round_: int, table: int) -> Table | None:
        return next((t for t in self.tables if t.key == (round_, table)), None)

    def round_tables(self, number: int) -> list[Table]:
        return [t for t in self.tables if t.round == number]

    def playing(self) -> list[Table]:
        """Tables whose result is not in yet."""
        return [t for t in self.tables if t.result is None]

    def active(self) -> list[str]:
        """Players still in, in registration order."""
        return [p.name for p in self.players.values() if p.withdrawn is None]


def start(tournament_id: str, created: ev.TournamentCreated) -> Tournament:
    return Tournament(tournament_id, created)


def fold(tournament_id: str, events: Iterable[Event]) -> Tournament:
    """The tournament a whole record's events make (the first is its TournamentCreated)."""
    state: Tournament | None = None
    for version, event in enumerate(events, start=1):
        if state is None:
            if not isinstance(event, ev.TournamentCreated):
                raise RecordError("record_malformed", "a tournament's record starts with TournamentCreated", 1)
            state = start(tournament_id, event)
        else:
            state = evolve(state, event, version)
    if state is None:
        raise RecordError("record_malformed", "the tournament's record is empty", 1)
    return state


def evolve(state: Tournament, event: Event, version: int | None = None) -> Tournament:
    """The tournament after `event`; `RecordError` (naming `version`) when it does not fit."""
    handler = _HANDLERS.get(type(event))
    if handler is None or state.secret is not None:
        raise RecordError("unexpected_event", f"event {version}: {event.kind} cannot follow what came before it", version)
    try:
        return handler(state, event)
    except _Misfit as misfit:
        raise RecordError("unexpected_event", f"event {version}: {event.kind}: {misfit}", version) from None


class _Misfit(Exception):
    pass


def _check(condition: bool, why: str) -> None:
    if not condition:
        raise _Misfit(why)


def _registered(state: Tournament, e: ev.PlayerRegistered) -> Tournament:
    _check(e.player not in state.players, f"{e.player} is registered already")
    _check(not state.finished, "the tournament has finished")
    player = Player(e.player, e.draw, e.rating, e.late)
    return replace(state, players=FrozenDict({**state.players, e.player: player}))


def _withdrawn(state: Tournament, e: ev.PlayerWithdrawn) -> Tournament:
    player = state.players.get(e.player)
    _check(player is not None and player.withdrawn is None, f"{e.player} is not a player still in")
    _check(e.how in (ev.FORFEIT, ev.BOT), f"unknown withdrawal {e.how!r}")
    assert player is not None
    return replace(state, players=FrozenDict({**state.players, e.player: replace(player, withdrawn=e.how, level=e.level)}))


def _paired(state: Tournament, e: ev.RoundPaired) -> Tournament:
    _check(e.round == len(state.rounds) + 1, f"round {e.round} follows round {len(state.rounds)}")
    _check(all(p in state.players for p in (*e.order, *e.byes)), "a player paired is not registered")
    _check(len(set(e.order)) == len(e.order), "a player is paired twice")
    return replace(state, rounds=(*state.rounds, Round(e.round, e.stage, e.order, e.byes, e.repeats)))


def _seated(state: Tournament, e: ev.TableSeated) -> Tournament:
    _check(bool(state.rounds) and e.round == state.rounds[-1].number, f"round {e.round} is not the round being paired")
    _check(e.table == len(state.round_tables(e.round)) + 1, f"table {e.table} is out of order")
    seated = {p for t in state.round_tables(e.round) for p in t.seats}
    _check(all(p in state.rounds[-1].order and p not in seated for p in e.seats), "a player is seated who is not "
           "paired in this round, or twice")
    _check(e.game_id is None or state.table_of(e.game_id) is None, f"game {e.game_id} has a table already")
    _check((e.game_id is None) == (state.created.seed_source == "table"), "a physical table's game is opened later; "
           "any other table's with the round")
    table = Table(e.round, e.table, state.rounds[-1].stage, e.seats, e.game_id, e.seed_commitment)
    return replace(state, tables=(*state.tables, table))


def _opened(state: Tournament, e: ev.TableOpened) -> Tournament:
    table = state.table_at(e.round, e.table)
    _check(table is not None and table.game_id is None, f"round {e.round} table {e.table} is no physical table waiting "
           "for its game")
    _check(state.table_of(e.game_id) is None, f"game {e.game_id} has a table already")
    return replace(state, tables=tuple(replace(t, game_id=e.game_id) if t is table else t for t in state.tables))


def _with_result(state: Tournament, game_id: str, result: Result) -> Tournament:
    return replace(state, tables=tuple(replace(t, result=result) if t.game_id == game_id else t for t in state.tables))


def _table_finished(state: Tournament, e: ev.TableFinished) -> Tournament:
    table = state.table_of(e.game_id)
    _check(table is not None and table.key == (e.round, e.table), f"game {e.game_id} is not table {e.round}.{e.table}")
    assert table is not None
    _check(table.result is None, f"table {e.round}.{e.table} has its result already")
    n = len(table.seats)
    _check(len(e.places) == len(e.scores) == len(e.finish) == n, "a result names every seat once")
    _check(tuple(e.places) == places_of(e.finish, e.forfeited), "the places do not follow from the order of finish")
    return _with_result(state, e.game_id, Result(tuple(e.places), tuple(e.scores), tuple(e.finish)))


def _ruled(state: Tournament, e: ev.ResultRuled) -> Tournament:
    table = state.table_of(e.game_id)
    _check(table is not None and table.key == (e.round, e.table), f"game {e.game_id} is not table {e.round}.{e.table}")
    assert table is not None
    _check(valid_places(e.places, len(table.seats)), f"{list(e.places)} are not places at a table of {len(table.seats)}")
    before = table.result
    scores = before.scores if before is not None else tuple(0 for _ in table.seats)
    finish = before.finish if before is not None else ()
    return _with_result(state, e.game_id, Result(tuple(e.places), scores, finish, e.referee, e.reason))


def valid_places(places: tuple[int, ...], seats: int) -> bool:
    """Places as a table has them: one per seat, each one more than the seats ahead of it."""
    return len(places) == seats and all(isinstance(p, int) and p == 1 + sum(o < p for o in places) for p in places)


def _finished(state: Tournament, e: ev.TournamentFinished) -> Tournament:
    _check(not state.playing(), "tables are still playing")
    _check(sorted(e.standing) == sorted(state.players), "the standing names every player once")
    return replace(state, standing=tuple(e.standing))


def _revealed(state: Tournament, e: ev.SecretRevealed) -> Tournament:
    _check(state.finished, "the secret is revealed only at the end")
    try:
        secret = bytes.fromhex(e.revealed)
    except ValueError:
        raise _Misfit("the secret is not hex") from None
    _check(commitment(secret) == state.created.commitment, "the secret does not match the creation's commitment")
    return replace(state, secret=e.revealed)


_HANDLERS: dict[type, Any] = {
    ev.PlayerRegistered: _registered, ev.PlayerWithdrawn: _withdrawn, ev.RoundPaired: _paired,
    ev.TableSeated: _seated, ev.TableOpened: _opened, ev.TableFinished: _table_finished, ev.ResultRuled: _ruled,
    ev.TournamentFinished: _finished, ev.SecretRevealed: _revealed,
}
