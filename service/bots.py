"""Seats played by bots, and move deadlines: the referee's use cases and the bot runner.

The rules of who may move for a seat are `domain/core/takeover.py`; this module records
the referee's actions (`take_over`, `hand_back`, `set_deadline`) and runs the bots.

`BotRunner` follows the event store's notification log, as the notifier does, to learn
which games have a seat held by a bot or a move deadline, and moves for those seats
whenever they are to act: through `Caboose.play`, with the version it saw as the expected
version and an idempotency key made of the game and that version (`command_ids.bot_move`, a
namespace no client may use), so two runners racing to move for one bot store one move. A
key found taken by another command anyway (a record stored before clients were refused the
namespace) is passed over for a fresh one, so nothing a seat stored can stop a bot. Each
choice is made with a generator seeded from the game id, the version and the seat, so it is
reproducible from the record. The clock is injected (`clock`), so tests pass a deadline
without waiting for it.
"""

from __future__ import annotations

import hashlib
import logging
import random
import re
import threading
import uuid
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from domain.core import referee, takeover
from domain.core.bots import bot_of
from domain.core.envelope import to_event
from domain.core.errors import MalformedMove, RuleError
from domain.core.kinds import CORE, DeadlinePassed
from domain.core.log import open_seat_name
from domain.core.referee import referee_actor
from service import command_ids
from service import referee as desk
from service.aggregate import Game, Stamp, seed_not_held
from service.application import Caboose
from service.background import every
from service.commands import Act, Held, Play, Unstored, held_digest
from service.errors import IdempotencyKeyReused, TokenShownOnce, VersionConflict
from service.lobby import Lobby
from service.seating import REFEREE_NAME, Issued

log = logging.getLogger(__name__)
BATCH = 500
OVERLAP = 100
Clock = Callable[[], datetime]

_DURATION = re.compile(r"^P(?:(?P<days>\d+)D)?(?:T(?:(?P<hours>\d+)H)?(?:(?P<minutes>\d+)M)?(?:(?P<seconds>\d+)S)?)?$")


def utc_clock() -> datetime:
    return datetime.now(UTC)


def deadline_seconds(value: Any) -> int | None:
    """A move deadline as a request gives it: whole seconds, an ISO 8601 duration of days,
    hours, minutes and seconds ("PT24H", "P2DT12H"), or None (no deadline)."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        seconds = value
    elif isinstance(value, str) and (match := _DURATION.fullmatch(value.strip().upper())) and value.strip().upper() not in ("P", "PT"):
        parts = {name: int(amount or 0) for name, amount in match.groupdict().items()}
        seconds = ((parts["days"] * 24 + parts["hours"]) * 60 + parts["minutes"]) * 60 + parts["seconds"]
    else:
        raise MalformedMove("bad_deadline", f"A move deadline is whole seconds or an ISO 8601 duration such as \"PT24H\", "
                                            f"not {_shown(value)}.")
    if not 1 <= seconds <= takeover.MAX_DEADLINE:
        raise MalformedMove("bad_deadline", f"A move deadline is 1 to {takeover.MAX_DEADLINE} seconds, not {_shown(seconds)}.")
    return seconds


def _shown(value: Any) -> str:
    """A refused value as a message quotes it: never longer than a line."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# -- the referee's use cases ----------------------------------------------------------------

def take_over(app: Caboose, game_id: str, seat: int, level: str, reason: str, referee_name: str = REFEREE_NAME,
              expected_version: int | None = None, idempotency_key: str | None = None,
              loaded: Game | None = None) -> list[dict[str, Any]]:
    """Record that the bot of `level` plays `seat` from here on (`SeatTakenOver`)."""
    playable(app, game_id)
    action = takeover.TakeOver(seat, level, reason)
    return desk.act(app, game_id, referee_actor(referee_name), action, expected_version, idempotency_key, loaded)


def playable(app: Caboose, game_id: str) -> None:
    """Refuse to bring bots or a deadline to a game no move can be decided in here."""
    if not app.game(game_id).playable:
        raise seed_not_held()


def hand_back(lobby: Lobby, game_id: str, seat: int, reason: str, referee_name: str = REFEREE_NAME,
              idempotency_key: str | None = None) -> tuple[list[dict[str, Any]], str]:
    """Record that `seat` goes back to a person (`SeatHandedBack`); returns the records and
    the seat's fresh token. The old token stops speaking for the seat; if the hand-back
    cannot be recorded, the old token is restored and nothing has changed.

    A token is kept only as its hash, so a retry (`idempotency_key`) cannot show the first
    answer's token again: it answers with the first records and another fresh token, which
    replaces the first one, as long as the seat still stands as that hand-back left it."""
    actor, action = referee_actor(referee_name), takeover.HandBack(seat, reason)
    app = lobby.caboose
    game = app.game(game_id)
    if idempotency_key is not None and idempotency_key in game.commands:
        first = game.commands[idempotency_key][0]
        records = desk.act(app, game_id, actor, action, idempotency_key=idempotency_key, loaded=game)  # the first answer
        if game.handed_back_at(seat) != first or seat in game.held_by_bots:
            raise TokenShownOnce(f"This hand-back was stored at version {first}, and seat {seat} has changed hands since: "
                                 "the token it gave was shown once and cannot be given again.")
        return records, lobby.seating.reissue(game_id, seat)[0]
    # Judged first, so a refused hand-back never touches the seat's token.
    situation = referee.Situation(app.records(game_id, upto=game.version), game.decider, game.state)
    referee.judge(situation, actor, action)
    token, old = lobby.seating.reissue(game_id, seat)
    try:
        records = desk.act(app, game_id, actor, action, idempotency_key=idempotency_key, loaded=game)
    except BaseException:
        lobby.seating.restore(game_id, seat, token, old)
        raise
    return records, token


def set_deadline(app: Caboose, game_id: str, move_deadline: Any, referee_name: str = REFEREE_NAME,
                 idempotency_key: str | None = None, loaded: Game | None = None) -> list[dict[str, Any]]:
    """Set, change or lift (None) the game's move deadline (`MoveDeadlineSet`)."""
    playable(app, game_id)
    action = takeover.SetDeadline(deadline_seconds(move_deadline))
    return desk.act(app, game_id, referee_actor(referee_name), action, idempotency_key=idempotency_key, loaded=loaded)


def opening_terms(lobby: Lobby, game: str, options: Mapping[str, Any] | None, bots: Mapping[Any, str] | None,
                  move_deadline: Any) -> tuple[dict[int, str], int | None]:
    """The bots and the deadline a create request asks for, checked before anything is stored:
    seats as numbers, levels the game offers, a valid deadline."""
    from domain import games

    rules, _ = games.for_options(game, options or {})
    seats: dict[int, str] = {}
    for key, level in (bots or {}).items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise MalformedMove("bad_seat", f"`bots` is keyed by seat number, not {_shown(key)}.") from None
        if seat < 0 or str(seat) != str(key).strip():
            raise MalformedMove("bad_seat", f"`bots` is keyed by seat number, not {_shown(key)}.")
        if not isinstance(level, str):
            raise MalformedMove("bad_field", f"The bot for seat {seat} is named by its level, e.g. \"greedy\".")
        bot_of(rules, level)
        seats[seat] = level
    return seats, deadline_seconds(move_deadline)


def open_game(lobby: Lobby, game: str, players: list[str | None], options: Mapping[str, Any] | None = None,
              seed: bytes | None = None, bots: Mapping[Any, str] | None = None, move_deadline: Any = None,
              observed: Mapping[str, Any] | None = None, rated: bool = False,
              idempotency_key: str | None = None) -> tuple[str, Issued]:
    """Create a game (`Lobby.open_game`, `rated`: its result counts in the ratings) with bots
    in some seats and a move deadline from the start, each recorded right after the opening,
    by the game's referee, and stored with it in one transaction (`commands.Held`). Under the
    client's `idempotency_key`, a retry is answered with the game its first attempt stored
    (`Lobby.store`)."""
    seats, seconds = opening_terms(lobby, game, options, bots, move_deadline)
    for seat in seats:
        if seat >= len(players):
            raise MalformedMove("bad_seat", f"`bots` names seat {seat}; the game has seats 0 to {len(players) - 1}.")
    request = None if idempotency_key is None else (idempotency_key, held_digest(
        "create", game=game, players=list(players), options=dict(options or {}), seed=seed.hex() if seed else None,
        bots={str(seat): level for seat, level in sorted(seats.items())}, move_deadline=seconds,
        observed=dict(observed) if observed is not None else None, rated=rated))
    names = [name if name is not None else open_seat_name(i) for i, name in enumerate(players)]
    aggregate = lobby.caboose.new_game(game, names, options, seed=seed, observed=observed, rated=rated, request=request)
    game_id, actor = str(aggregate.id), referee_actor(REFEREE_NAME)
    actions: list[Any] = [takeover.TakeOver(seat, level, "a bot plays this seat from the start")
                          for seat, level in sorted(seats.items())]
    actions += [takeover.SetDeadline(seconds)] if seconds is not None else []
    for action in actions:  # each a command of its own, as the audit reads them, stored with the opening
        Act(game_id, actor, action).decide(aggregate, Stamp.now(command_ids.fresh("referee:")), Unstored(aggregate))
    key, command, digest = (request[0], request[0], request[1]) if request is not None else (None, None, None)
    return lobby.store(Held(aggregate, key, command, digest), players)


# -- the runner ---------------------------------------------------------------------------

def chooser_for(game_id: str, version: int, seat: int) -> random.Random:
    """The generator a bot chooses with at `version`: from the record alone, anyone can
    make the same choice again."""
    digest = hashlib.sha256(f"{game_id}:{version}:{seat}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


class BotRunner:
    """Moves for the seats bots hold, and for late seats once a move deadline passes."""

    def __init__(self, app: Caboose, clock: Clock = utc_clock) -> None:
        self.app, self.clock = app, clock
        self.position = 0
        # Games with a bot or a deadline, learnt from the log (a process starts from its beginning).
        self.watched: set[str] = set()

    def follow(self, start: int | None = None) -> int:
        """Read the next stretch of the log (from `start`, else after the position); returns
        how many notifications it held."""
        items = self.app.recorder.select_notifications(start=start or self.position + 1, limit=BATCH)
        for item in items:
            record = getattr(self.app.mapper.to_domain_event(item), "record", None)
            if record is not None and record["kind"] in (takeover.TAKEN_OVER, takeover.DEADLINE_SET):
                self.watched.add(record["game_id"])
            self.position = max(self.position, item.id)
        return len(items)

    def run_once(self) -> int:
        """Catch up with the log, then move wherever a bot is due; returns the moves stored.
        Each round reads the last `OVERLAP` notifications again: on PostgreSQL a transaction
        may commit after one with a later number, and its takeover must not be passed by."""
        self.follow(max(1, self.position - OVERLAP + 1))
        while self.follow() == BATCH:
            pass
        stored = 0
        for game_id in sorted(self.watched):
            try:
                stored += self.tend(game_id)
            except Exception:  # one game's trouble (a database error) does not stop the others' bots
                log.warning("bots of game %s not moved this round", game_id, exc_info=True)
        return stored

    def tend(self, game_id: str) -> int:
        """Every move due in one game now; returns how many this runner stored."""
        stored = 0
        for _ in range(10_000):  # a bound, never reached by a game that ends
            game = self.app.game(game_id)
            if game.is_over or not game.playable:
                self.watched.discard(game_id)
                return stored
            due = self._due(game_id, game)
            if due is None:
                return stored
            try:
                stored += due()
            except VersionConflict:
                continue  # someone else moved first: look again at the game as it now is
            except RuleError as error:
                log.warning("bot for game %s could not move: %s: %s", game_id, error.code, error.message)
                return stored
        return stored

    def _due(self, game_id: str, game: Game) -> Callable[[], int] | None:
        """What is due in `game` now, or None."""
        if game.pending is not None:
            return None  # a game played at a table waits for an outcome, which no bot enters
        active = sorted(game.decider.active_seats(game.state))
        last = self.app.records(game_id, after=game.version - 1)[-1]
        passed = to_event(last, CORE) if last["kind"] == takeover.DEADLINE_PASSED else None
        if isinstance(passed, DeadlinePassed) and passed.seat in active:
            seat, level = passed.seat, passed.level
            return lambda: self._move(game_id, game, seat, level)
        bots = game.held_by_bots
        for seat in active:
            if seat in bots:
                level = bots[seat]
                return lambda: self._move(game_id, game, seat, level)
        if game.deadline is not None and active and self._late(game):
            seat = active[0]
            return lambda: self._pass_deadline(game_id, game, seat)
        return None

    def _late(self, game: Game) -> bool:
        since = datetime.fromisoformat(game.updated_at.replace("Z", "+00:00"))
        return self.clock() >= since + timedelta(seconds=game.deadline or 0)

    def _move(self, game_id: str, game: Game, seat: int, level: str) -> int:
        moves = game.decider.legal_moves(game.state, seat)
        if not moves:
            raise MalformedMove("no_legal_move", f"seat {seat} is to act but has no legal move")
        move = bot_of(game.decider, level).choose(game.state, seat, moves, chooser_for(game_id, game.version, seat))
        key = command_ids.bot_move(game_id, game.version)
        stored = self._play(game_id, game, seat, move, key)
        if stored is None:
            fresh = f"{key}:{uuid.uuid4()}"
            log.warning("bot for game %s: the key %s belongs to another command; moving under %s", game_id, key, fresh)
            stored = self._play(game_id, game, seat, move, fresh)
        return len((stored or [])[:1])

    def _play(self, game_id: str, game: Game, seat: int, move: Mapping[str, Any], key: str) -> list[dict[str, Any]] | None:
        """The bot's move stored under `key` at the version after `game`'s (by this runner or
        a racing one); None when the key is another command's, so the move is not stored."""
        try:
            records = self.app.execute(Play(game_id, seat, move, by_bot=True), expected_version=game.version,
                                       idempotency_key=key, loaded=game.copy()).records
        except IdempotencyKeyReused:
            return None
        # A key another command used with the same request answers with that command's records.
        return records if records and records[0]["version"] == game.version + 1 else None

    def _pass_deadline(self, game_id: str, game: Game, seat: int) -> int:
        desk.act(self.app, game_id, takeover.SYSTEM, takeover.PassDeadline(seat, game.updated_at), game.version)
        return 0

    def start(self, interval: float = 1.0) -> threading.Event:
        """Run in a daemon thread until the returned event is set."""
        return every(interval, self.run_once, "bots")
