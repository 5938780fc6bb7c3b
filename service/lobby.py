"""Games as players meet them: created with seat tokens, joined by invite, listed."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError

from domain.core import log
from projections import listing
from projections.listing import Cursor, Filters, Page
from projections.runner import log_caught_up
from service import referee as desk
from service.application import Caboose
from service.commands import Held
from service.db import make_engine
from service.seating import REFEREE_SEAT, InviteInvalid, Issued, Seating

RACING_ATTEMPTS = 100
"""How often a keyed new game (created, imported, forked) tries again while a racing attempt
of the same key holds its id (0.05 s apart): that attempt stores the game, or withdraws its
credentials, long before."""


class Lobby:
    def __init__(self, caboose: Caboose, seating: Seating | None = None) -> None:
        self.caboose = caboose
        self.seating = seating or Seating(make_engine(caboose.settings.db, caboose.settings.schema))

    def open_game(self, game: str, players: list[str | None], options: Mapping[str, Any] | None = None,
                  seed: bytes | None = None, observed: Mapping[str, Any] | None = None,
                  rated: bool = False) -> tuple[str, Issued]:
        """Create a game; named seats get tokens, open seats (None) get invite codes. With
        `observed`, a game played at a table, opened as laid out there (`Caboose.new_game`);
        `rated`, its result counts in the ratings."""
        names = [name if name is not None else log.open_seat_name(i) for i, name in enumerate(players)]
        held = Held(self.caboose.new_game(game, names, options, seed=seed, observed=observed, rated=rated))
        return self.store(held, players)

    def import_game(self, records: Iterable[dict[str, Any]], idempotency_key: str | None = None) -> tuple[str, Issued]:
        """Verify a full record and store it; every seat gets a token, as does its referee."""
        held = self.caboose.imported(records, idempotency_key)
        return self.store(held, list(held.game.seats))

    def fork_game(self, game_id: str, referee_name: str, at_version: int, reason: str,
                  seed: bytes | None = None, idempotency_key: str | None = None) -> tuple[str, Issued]:
        """Fork a game at `at_version` (`service.referee.fork`); the fork's seats and referee
        get fresh tokens. With an `idempotency_key`, a retry finds the fork its first attempt
        stored (`referee.fork_id_for`) and stores nothing new."""
        held = desk.forked(self.caboose, game_id, referee_name, at_version, reason, seed, idempotency_key)
        return self.store(held, list(held.game.seats))

    def store(self, held: Held, players: list[str | None]) -> tuple[str, Issued]:
        """Issue a new game's credentials, then store the game through the pipeline. A stored
        event cannot be taken back, so this order lets a failure leave nothing half-made:
        credentials without their game are withdrawn. The game is listed once its events are
        stored (the game index follows the event log), never before.

        A game made under a client's key (`Held`) has the same id on every retry: a retry
        finds the credentials its first attempt issued, and is answered with the game that
        attempt stored. A token is kept only as its hash, so the answer has fresh tokens
        (and invites for seats still open), which replace the first ones: the key, with its
        request, speaks for the game as its tokens do. While a racing attempt under the same
        key holds the credentials but has not stored the game yet, this one waits for it."""
        game_id = held.game_id
        for attempt in range(RACING_ATTEMPTS):
            try:
                issued = self.seating.issue(game_id, players)
            except IntegrityError:
                if held.key is None:
                    raise
                if self.caboose.held_replayed(held) is not None:
                    return game_id, self.seating.reissue_all(game_id, invites=True)
                if attempt == RACING_ATTEMPTS - 1:
                    raise
                time.sleep(0.05)  # a racing attempt stores the game, or withdraws its credentials, long before
                continue
            try:
                moved = self.caboose.execute(held)
            except BaseException:
                self.seating.withdraw(game_id, issued)
                raise
            if moved.replayed:  # stored by an attempt whose credentials were not kept
                self.seating.withdraw(game_id, issued)
                return game_id, self.seating.reissue_all(game_id, invites=True)
            return game_id, issued
        raise AssertionError("unreachable")

    def join(self, game_id: str, invite: str, name: str, idempotency_key: str | None = None) -> tuple[int, str]:
        """Take the open seat `invite` opens, under `name`, and record it in the game
        (`SeatJoined`); if that cannot be stored, the invite stays unused. With an
        `idempotency_key`, a retry of a join that claimed the seat answers with the same seat
        and stores nothing new (the `SeatJoined` its first attempt stored under the key; the
        key with another request is refused); since a token is kept only as its hash, the
        retry's token is a fresh one, which replaces the first answer's."""
        self.caboose.game(game_id)
        if idempotency_key is not None and self.seating.claimed_by(game_id, invite) is not None:
            return self._rejoined(game_id, invite, name, idempotency_key)
        try:
            seat, token = self.seating.join(game_id, invite, name)
        except InviteInvalid:
            if idempotency_key is None or self.seating.claimed_by(game_id, invite) is None:
                raise
            return self._rejoined(game_id, invite, name, idempotency_key)  # a retry claimed it a moment ago
        try:
            desk.join_seat(self.caboose, game_id, seat, name, idempotency_key)
        except BaseException:
            self.seating.reopen(game_id, seat, invite, token)
            raise
        return seat, token

    def _rejoined(self, game_id: str, invite: str, name: str, idempotency_key: str) -> tuple[int, str]:
        """A retried join: the seat the invite claimed, its `SeatJoined` as the key stored it
        (or stores it, when the retry overtook its first attempt), and a fresh token."""
        seat = self.seating.claimed_by(game_id, invite)
        if seat is None:
            raise InviteInvalid("This invite code does not open a seat of this game (or was used already).")
        desk.join_seat(self.caboose, game_id, seat, name, idempotency_key)
        return seat, self.seating.rejoin(game_id, invite)

    def listing(self, filters: Filters, limit: int = 50, cursor: Cursor | None = None) -> Page:
        """A page of the game index (`projections/listing.py`), newest activity first. The
        read models are first caught up with the end of the log, so a game just created,
        joined or moved, by this process or any other, shows as it now is. A fork of a game
        still running is listed without its scores: the public may not see its play yet
        (`Caboose.seen_as`)."""
        page = listing.page(log_caught_up(self.caboose), filters, limit, cursor)
        for entry in page.games:
            if entry["forked_from"] is not None and self.caboose.running_origin(self.caboose.game(entry["game_id"])):
                entry["scores"] = None
        return page

    def seats_held(self, tokens: Sequence[str]) -> frozenset[tuple[str, int]]:
        """The (game, seat) each of these seat tokens holds, for `waiting_for`. A token that
        holds no seat (unknown, or a referee's) is refused, by its place in the list."""
        seats: set[tuple[str, int]] = set()
        for place, token in enumerate(tokens, start=1):
            held = self.seating.seats_of(token)
            if not held:
                raise TokenNotValid(f"Token {place} of {len(tokens)} is not valid for any game.")
            seats.update((game_id, seat) for game_id, seat in held if seat != REFEREE_SEAT)
            if all(seat == REFEREE_SEAT for _, seat in held):
                raise TokenNotValid(f"Token {place} of {len(tokens)} is a referee's: a referee has no seat to wait for.")
        return frozenset(seats)


class TokenNotValid(Exception):
    """A token given to ask which games wait for its seat holds no seat."""
