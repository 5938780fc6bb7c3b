"""Seats, tokens and invites. Only SHA-256 hashes of tokens and invite codes are stored.

Each game has one bearer token per claimed seat and one referee token. An open seat has an
invite code instead; whoever joins with it gets that seat's token.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import CursorResult, Engine, Integer, String, UniqueConstraint, delete, or_, select, update
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from domain.core.events import PUBLIC, REFEREE, Audience
from service import migrate
from service.aggregate import Game


class Base(DeclarativeBase):
    pass


REFEREE_SEAT = -1
REFEREE_NAME = "referee"
"""The name a game's referee token is recorded under (moves it enters are `referee:referee`)."""


class Credential(Base):
    __tablename__ = "caboose_credentials"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(36), index=True)
    seat: Mapped[int] = mapped_column(Integer)  # REFEREE_SEAT for the referee
    name: Mapped[str | None] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    invite_hash: Mapped[str | None] = mapped_column(String(64), unique=True)


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _still_current(known: tuple[int, int], game: Game) -> bool:
    """Whether a seat read from the table at version `confirmed_at` still holds in `game`:
    the referee's token is never replaced; a seat's is when the seat is handed back."""
    seat, confirmed_at = known
    if seat == REFEREE_SEAT:
        return True
    return game.handed_back_at(seat) <= confirmed_at


def new_token() -> str:
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Issued:
    """What a game's creator receives once: tokens for named seats, invites for open ones."""

    seat_tokens: dict[int, str]
    invites: dict[int, str]
    referee_token: str


class InviteInvalid(Exception):
    pass


class Seating:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # (game, token hash) -> (seat, the game's version when the table said so): `seat_of`.
        self._seats: dict[tuple[str, str], tuple[int, int]] = {}
        migrate.prepare(engine, migrate.STORE)

    def issue(self, game_id: str, names: list[str | None]) -> Issued:
        return self.issue_many([(game_id, names)])[0]

    def issue_many(self, games: list[tuple[str, list[str | None]]]) -> list[Issued]:
        """`issue` for several games in one transaction (a tournament's round opens its tables together)."""
        issued, rows = [], []
        for game_id, names in games:
            tokens, invites, referee = {}, {}, new_token()
            rows.append(Credential(game_id=game_id, seat=REFEREE_SEAT, name=REFEREE_NAME, token_hash=_hash(referee)))
            for seat, name in enumerate(names):
                if name is None:
                    invites[seat] = secrets.token_urlsafe(12)
                    rows.append(Credential(game_id=game_id, seat=seat, invite_hash=_hash(invites[seat])))
                else:
                    tokens[seat] = new_token()
                    rows.append(Credential(game_id=game_id, seat=seat, name=name, token_hash=_hash(tokens[seat])))
            issued.append(Issued(tokens, invites, referee))
        with Session(self.engine) as session, session.begin():
            session.add_all(rows)
        return issued

    def join(self, game_id: str, invite: str, name: str) -> tuple[int, str]:
        """Claim the open seat `invite` opens; returns (seat, token). Works once per invite.
        The invite's hash stays with the seat it opened (`claimed_by`), for a retried join,
        until the seat is handed back or reopened."""
        token = new_token()
        with Session(self.engine) as session, session.begin():
            row = session.scalars(select(Credential).where(
                Credential.game_id == game_id, Credential.invite_hash == _hash(invite))).first()
            if row is None or row.token_hash is not None:
                raise InviteInvalid("This invite code does not open a seat of this game (or was used already).")
            claimed = cast(CursorResult[Any], session.execute(
                update(Credential).where(Credential.id == row.id, Credential.token_hash.is_(None))
                .values(token_hash=_hash(token), name=name)))
            if claimed.rowcount != 1:
                raise InviteInvalid("This seat was claimed a moment ago.")
            return row.seat, token

    def claimed_by(self, game_id: str, invite: str) -> int | None:
        """The seat `invite` opened, once it has been claimed; None otherwise."""
        with self.engine.connect() as connection:
            row = connection.execute(select(Credential.seat, Credential.token_hash).where(
                Credential.game_id == game_id, Credential.invite_hash == _hash(invite))).first()
        return None if row is None or row.token_hash is None else int(row.seat)

    def rejoin(self, game_id: str, invite: str) -> str:
        """A fresh token for the seat `invite` opened and was claimed with (a retried join,
        whose first answer's token was shown once): the first token speaks for no one from
        here on."""
        token = new_token()
        with Session(self.engine) as session, session.begin():
            row = session.scalars(select(Credential).where(
                Credential.game_id == game_id, Credential.invite_hash == _hash(invite),
                Credential.token_hash.is_not(None))).first()
            if row is None:
                raise InviteInvalid("This invite code has not opened a seat of this game.")
            old, row.token_hash = row.token_hash, _hash(token)
        self._forget(game_id, [old] if old else [])
        return token

    def withdraw(self, game_id: str, issued: Issued) -> None:
        """Take back what `issue` gave, when the game it was issued for could not be stored."""
        hashes = [_hash(t) for t in [*issued.seat_tokens.values(), issued.referee_token]]
        invites = [_hash(i) for i in issued.invites.values()]
        with Session(self.engine) as session, session.begin():
            session.execute(delete(Credential).where(
                Credential.game_id == game_id, or_(Credential.token_hash.in_(hashes), Credential.invite_hash.in_(invites))))
        self._forget(game_id, hashes)

    def reopen(self, game_id: str, seat: int, invite: str, token: str) -> None:
        """Undo a `join` whose seat could not be recorded in the game: the invite opens the
        seat again and the token it gave speaks for no one."""
        with Session(self.engine) as session, session.begin():
            session.execute(update(Credential).where(
                Credential.game_id == game_id, Credential.seat == seat, Credential.token_hash == _hash(token))
                .values(invite_hash=_hash(invite), token_hash=None, name=None))
        self._forget(game_id, [_hash(token)])

    def reissue(self, game_id: str, seat: int) -> tuple[str, str | None]:
        """A fresh token for `seat` (a seat a bot held, handed back): the seat's old token
        speaks for no one from here on. Returns the token and the old token's hash, for
        `restore` should the hand-back not be recorded."""
        token = new_token()
        with Session(self.engine) as session, session.begin():
            row = session.scalars(select(Credential).where(Credential.game_id == game_id, Credential.seat == seat)).first()
            if row is None:
                raise InviteInvalid(f"Seat {seat} has no credentials in this game.")
            old = row.token_hash
            row.token_hash, row.invite_hash = _hash(token), None
        self._forget(game_id, [old] if old else [])
        return token, old

    def reissue_all(self, game_id: str, invites: bool = False) -> Issued:
        """Fresh tokens for every claimed seat of the game and its referee, in one transaction
        (a retried creation or fork, whose first answer's tokens were shown once): the old
        tokens speak for no one from here on. Open seats keep their invites, or with
        `invites` get fresh ones, which replace them (a retried creation's)."""
        tokens, opened, referee = {}, {}, None
        with Session(self.engine) as session, session.begin():
            rows = session.scalars(select(Credential).where(Credential.game_id == game_id)).all()
            for row in rows:
                if row.token_hash is None:
                    if invites and row.invite_hash is not None:
                        opened[row.seat] = secrets.token_urlsafe(12)
                        row.invite_hash = _hash(opened[row.seat])
                    continue
                token = new_token()
                self._forget(game_id, [row.token_hash])
                row.token_hash = _hash(token)
                if row.seat == REFEREE_SEAT:
                    referee = token
                else:
                    tokens[row.seat] = token
        if referee is None:
            raise InviteInvalid(f"Game {game_id} has no credentials.")
        return Issued(tokens, opened, referee)

    def restore(self, game_id: str, seat: int, token: str, old_hash: str | None) -> None:
        """Undo a `reissue` whose hand-back could not be recorded."""
        with Session(self.engine) as session, session.begin():
            session.execute(update(Credential).where(
                Credential.game_id == game_id, Credential.seat == seat, Credential.token_hash == _hash(token))
                .values(token_hash=old_hash))
        self._forget(game_id, [_hash(token)])

    def _forget(self, game_id: str, hashes: list[str]) -> None:
        for token_hash in hashes:
            self._seats.pop((game_id, token_hash), None)

    def audience(self, game_id: str, token: str | None, game: Game) -> Audience | None:
        """Whom a token speaks for in `game` (the game as this request loaded it): a seat,
        the referee, the public (no token), or None for a token that is not this game's."""
        if token is None:
            return PUBLIC
        seat = self.seat_of(game_id, token, game)
        if seat is None:
            return None
        return REFEREE if seat == REFEREE_SEAT else Audience(seat=seat)

    def seat_of(self, game_id: str, token: str, game: Game) -> int | None:
        """The seat `token` speaks for in `game` (`REFEREE_SEAT` for the referee), or None.

        A token's seat, once read from the table, is kept with the version `game` had when it
        was read. It holds until the game records a hand-back of that seat after that version:
        a hand-back gives the seat a fresh token (`reissue`, before the hand-back is stored),
        whichever process or host does it, so then the table is read again. `game` must have
        been loaded before this call: a hand-back stored later is after its version."""
        key = (game_id, _hash(token))
        known = self._seats.get(key)
        if known is not None and _still_current(known, game):
            return known[0]
        confirmed_at = game.version
        with self.engine.connect() as connection:
            seat = connection.scalar(select(Credential.seat).where(
                Credential.game_id == game_id, Credential.token_hash == key[1]))
        if seat is None:
            self._seats.pop(key, None)
            return None
        if len(self._seats) > 100_000:
            self._seats.clear()
        self._seats[key] = (seat, confirmed_at)
        return seat

    def is_referee(self, game_id: str, token: str) -> bool:
        """Whether `token` is the referee's token of `game_id` (a game's, or a tournament's:
        a tournament's credentials are its referee's alone, kept under its id)."""
        with self.engine.connect() as connection:
            seat = connection.scalar(select(Credential.seat).where(
                Credential.game_id == game_id, Credential.token_hash == _hash(token)))
        return seat == REFEREE_SEAT

    def seats_of(self, token: str) -> list[tuple[str, int]]:
        """Every (game, seat) a token holds — for "games waiting for me"."""
        with Session(self.engine) as session:
            rows = session.execute(select(Credential.game_id, Credential.seat).where(Credential.token_hash == _hash(token))).all()
        return [(g, s) for g, s in rows]
