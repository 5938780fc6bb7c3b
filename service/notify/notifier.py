"""The notifier: follows the event log into the delivery queue, and delivers with retries."""

from __future__ import annotations

import logging
import secrets
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from domain.core import takeover
from domain.core.envelope import to_event
from domain.core.events import Audience
from domain.core.kinds import CORE, DeadlinePassed
from service import migrate
from service.application import Caboose
from service.background import every
from service.i18n import ENGLISH, title_of
from service.notify import senders
from service.notify.store import Delivery, FollowerPosition, Subscription, utcnow
from service.notify.targets import TargetRefused, WebhookTargets
from service.settings import bound_url

log = logging.getLogger(__name__)
FOLLOWER = "notifier"
BATCH = 500
SINCE_LINES = 12
"""At most this many of the moves made since a seat's last are told in its turn notice."""
# Referee actions that change a game (recorded by the referee tools).
RULING_KINDS = frozenset({"RulingMade", "AdjustmentMade", "GameRewound"})


@dataclass(frozen=True)
class Backoff:
    first_seconds: float = 2.0
    max_seconds: float = 3600.0
    max_attempts: int = 10

    def after(self, attempts: int) -> timedelta:
        return timedelta(seconds=min(self.max_seconds, self.first_seconds * 2 ** (attempts - 1)))


class Notifier:
    def __init__(self, app: Caboose, engine: Engine, smtp: senders.SmtpSettings | None = None,
                 backoff: Backoff | None = None, base_url: str | None = None, webhooks: WebhookTargets | None = None) -> None:
        self.app, self.engine = app, engine
        self.smtp = smtp or senders.SmtpSettings()
        self.webhooks = webhooks or WebhookTargets.allowing(app.settings.webhook_allow_networks)
        self.backoff = backoff or Backoff()
        self.base_url = (base_url or app.settings.base_url or bound_url()).rstrip("/")
        self._active: dict[str, frozenset[int]] = {}
        self._over: dict[str, bool] = {}
        migrate.prepare(engine, migrate.STORE)

    # -- subscriptions -------------------------------------------------------------------

    def subscribe(self, game_id: str, seat: int, webhook_url: str | None, email: str | None,
                  language: str | None = None) -> dict[str, Any]:
        """Set where a seat is told, and the language of its mails (none: English); a new
        webhook secret is made whenever the URL changes. Raises `TargetRefused` for a
        webhook this server will not send to."""
        if webhook_url:
            self.webhooks.check_url(webhook_url)
        with Session(self.engine) as session, session.begin():
            row = session.get(Subscription, (game_id, seat)) or Subscription(game_id=game_id, seat=seat)
            if webhook_url != row.webhook_url:
                row.webhook_secret = secrets.token_hex(32) if webhook_url else None
            row.webhook_url, row.email = webhook_url, email
            row.language = language if language and language != "en" else None
            session.add(row)
            return {"webhook_url": row.webhook_url, "webhook_secret": row.webhook_secret, "email": row.email}

    def status(self, game_id: str, seat: int, limit: int = 50) -> dict[str, Any]:
        """A seat's subscription and its latest deliveries (attempts and last error)."""
        with Session(self.engine) as session:
            row = session.get(Subscription, (game_id, seat))
            deliveries = session.scalars(select(Delivery).where(Delivery.game_id == game_id, Delivery.seat == seat)
                                         .order_by(Delivery.id.desc()).limit(limit)).all()
            return {
                "webhook_url": row.webhook_url if row else None, "email": row.email if row else None,
                "deliveries": [{"id": d.id, "channel": d.channel, "event": d.payload["event"], "version": d.payload["version"],
                                "status": d.status, "attempts": d.attempts, "last_error": d.last_error,
                                "next_attempt_at": _iso(d.next_attempt_at), "delivered_at": _iso(d.delivered_at)}
                               for d in deliveries],
            }

    # -- following the log ---------------------------------------------------------------

    def follow(self) -> int:
        """Enqueue deliveries for new events; returns how many notifications were read."""
        with Session(self.engine) as session, session.begin():
            tracked = session.get(FollowerPosition, FOLLOWER) or FollowerPosition(name=FOLLOWER, position=0)
            items = self.app.recorder.select_notifications(start=tracked.position + 1, limit=BATCH)
            domain_events = [(item.id, self.app.mapper.to_domain_event(item)) for item in items]
            records: list[tuple[int, dict[str, Any]]] = [(i, e.record) for i, e in domain_events if hasattr(e, "record")]
            if len(items) == BATCH:
                records = _complete_groups(records)
            for index, (_, record) in enumerate(records):
                nxt = records[index + 1][1] if index + 1 < len(records) else None
                ends_group = nxt is None or nxt["game_id"] != record["game_id"] or nxt["command_id"] != record["command_id"]
                if ends_group:
                    session.add_all(self._deliveries(session, record))
            last = records[-1][0] if records else (items[-1].id if items and len(items) < BATCH else tracked.position)
            tracked.position = max(tracked.position, last)
            session.add(tracked)
        return len(items)

    def _deliveries(self, session: Session, record: dict[str, Any]) -> list[Delivery]:
        game_id, version = record["game_id"], record["version"]
        game = self.app.game(game_id, at=version)
        # The players by the names they go by now: a notice sent after a seat was joined
        # names its player, not the seat's placeholder.
        names = list(self.app.game(game_id).seats)
        active = frozenset(game.decider.active_seats(game.state))
        over = game.is_over
        if game_id not in self._active:
            before = self.app.game(game_id, at=version - 1) if version > 1 else None
            self._active[game_id] = frozenset(before.decider.active_seats(before.state)) if before else frozenset()
            self._over[game_id] = bool(before and before.is_over)
        # (seat, event, summary, the particulars a mail in another language words it with)
        told: list[tuple[int, str, str, dict[str, Any]]] = []
        if over and not self._over[game_id]:
            scores = game.decider.scores(game.state)
            told += [(s, "game_ended", f"The game has ended; your score is {scores.get(s, 0)}", {"score": scores.get(s, 0)})
                     for s in range(len(game.seats))]
        elif record["kind"] in RULING_KINDS:
            told += [(s, "ruling", f"A referee recorded {record['kind']} at version {version}",
                      {"kind": record["kind"], "version": version}) for s in range(len(game.seats))]
        held = game.held_by_bots
        late = to_event(record, CORE) if record["kind"] == takeover.DEADLINE_PASSED else None
        if isinstance(late, DeadlinePassed):
            told.append((late.seat, "deadline_passed",
                         f"The move deadline passed: the {late.level} bot makes your next move; your later turns are yours",
                         {"level": late.level}))
        if record["kind"] == takeover.DEADLINE_SET and not over:
            # Whoever is to act now is told, as the next seats will be with their turn.
            told += [(s, "deadline_set",
                      _your_turn(game, record["time"], names).replace("It is your turn", "The move deadline changed"),
                      _turn_terms(game, record["time"], names)) for s in sorted(active) if s not in held]
        told += [(s, "your_turn", _your_turn(game, record["time"], names), _turn_terms(game, record["time"], names))
                 for s in sorted(active - self._active[game_id]) if not over and s not in held]
        turns = ("your_turn", "deadline_set")
        self._active[game_id], self._over[game_id] = active, over
        rows = []
        for seat, event, summary, terms in told:
            sub = session.get(Subscription, (game_id, seat))
            if sub is None:
                continue
            payload = {"event": event, "summary": summary, "game_id": game_id, "game": game.ruleset, "version": version,
                       "seat": seat, "seat_name": names[seat], "players": names, "time": record["time"],
                       **self.links(game_id, seat if event in turns else None)}
            if event in turns:
                payload["since"] = self.since(game_id, game, seat, version)
            if event in ("your_turn", "deadline_set") and game.deadline is not None:
                payload["deadline"] = _due(record["time"], game.deadline)
            if sub.webhook_url:
                rows.append(Delivery(game_id=game_id, seat=seat, channel="webhook", target=sub.webhook_url, payload=payload))
            if sub.email:
                # The mail is worded when sent, in the subscriber's language, from these.
                mail = {**payload, "language": sub.language, "terms": terms} if sub.language else payload
                rows.append(Delivery(game_id=game_id, seat=seat, channel="email", target=sub.email, payload=mail))
        return rows

    def links(self, game_id: str, seat: int | None) -> dict[str, str]:
        """Where to go from a notice. `link`, the page a person opens: for a seat to move, its
        play page (the lobby opens it with the seat's token the browser keeps: the token
        itself is never sent in a notice), else the game's replay, which follows it live.
        Beside it the public replay and, for a move, the API a program plays by."""
        replay, api = f"{self.base_url}/games/{game_id}/replay", f"{self.base_url}/api/v1/games/{game_id}"
        if seat is None:
            return {"link": replay, "replay": replay}
        return {"link": f"{self.base_url}/#play={game_id}&seat={seat}", "replay": replay,
                "legal_moves": f"{api}/legal-moves", "moves": f"{api}/moves", "docs": f"{self.base_url}/api/docs"}

    def since(self, game_id: str, game: Any, seat: int, version: int, most: int = SINCE_LINES) -> list[str]:
        """What happened since `seat` last moved, as the seat may see it: each move in the
        game's notation (the last `most`, after a line saying how many came before)."""
        records = self.app.records(game_id, upto=version)
        mine = [r["version"] for r in records if r["actor"] == f"seat:{seat}"]
        after = mine[-1] if mine else 0
        lines = [text for at, text in sorted(self.app.notation_lines(game_id, Audience(seat=seat), upto=version,
                                                                     loaded=game, open_moves=True).items()) if at > after]
        if len(lines) > most:
            return [f"({len(lines) - most} earlier moves)", *lines[-most:]]
        return lines

    # -- delivering ----------------------------------------------------------------------

    def deliver_due(self, limit: int = 100) -> int:
        """Try every delivery that is due; returns how many were attempted."""
        with Session(self.engine) as session:
            due = session.scalars(select(Delivery).where(Delivery.status == "pending", Delivery.next_attempt_at <= utcnow())
                                  .order_by(Delivery.id).limit(limit)).all()
            for delivery in due:
                self._attempt(delivery)
                session.commit()
            return len(due)

    def _attempt(self, delivery: Delivery) -> None:
        delivery.attempts += 1
        try:
            if delivery.channel == "webhook":
                with Session(self.engine) as lookup:
                    sub = lookup.get(Subscription, (delivery.game_id, delivery.seat))
                secret = sub.webhook_secret if sub and sub.webhook_secret else ""
                senders.post_webhook(delivery.target, secret, {**delivery.payload, "delivery_id": delivery.id}, self.webhooks)
            else:
                senders.send_email(self.smtp, delivery.target, delivery.payload)
        except Exception as error:  # any failure is recorded and retried; none reaches a move
            delivery.last_error = f"{type(error).__name__}: {error}"[:2000]
            log.warning("notification not delivered: game %s, seat %s, %s to %s, attempt %d: %s", delivery.game_id,
                        delivery.seat, delivery.channel, delivery.target, delivery.attempts, delivery.last_error)
            # A refused address is not retried: it would be refused again.
            if delivery.attempts >= self.backoff.max_attempts or isinstance(error, TargetRefused):
                delivery.status = "failed"
            else:
                delivery.next_attempt_at = utcnow() + self.backoff.after(delivery.attempts)
        else:
            delivery.status, delivery.delivered_at, delivery.last_error = "delivered", utcnow(), None

    def run_once(self) -> None:
        while self.follow() == BATCH:
            pass
        self.deliver_due()

    def start(self, interval: float = 1.0) -> threading.Event:
        """Run in a daemon thread until the returned event is set."""
        return every(interval, self.run_once, "notifier")


def _due(since: str, seconds: int) -> str:
    due = datetime.fromisoformat(since.replace("Z", "+00:00")) + timedelta(seconds=seconds)
    return due.isoformat(timespec="seconds").replace("+00:00", "Z")


def _your_turn(game: Any, since: str, names: list[str]) -> str:
    """The turn notification: which game (its name and players); with a move deadline, when
    it passes and who moves then."""
    which = f"It is your turn in {title_of(game.ruleset, ENGLISH.locale)} with {', '.join(names)}"
    if game.deadline is None:
        return which
    level = takeover.strongest(game.decider)
    return f"{which}: move by {_due(since, game.deadline)}, or the {level} bot moves for you"


def _turn_terms(game: Any, since: str, names: list[str]) -> dict[str, Any]:
    """What a turn notice says besides the turn, for a mail worded in another language: the
    game's players; when the deadline passes and who moves then."""
    players = {"players": ", ".join(names)}
    if game.deadline is None:
        return players
    return {**players, "due": _due(since, game.deadline), "level": takeover.strongest(game.decider)}


def _complete_groups(records: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """Drop a trailing group that may continue in the next batch (unless it is all there is)."""
    if not records:
        return records
    tail = records[-1][1]
    keep = [r for r in records if not (r[1]["game_id"] == tail["game_id"] and r[1]["command_id"] == tail["command_id"])]
    return keep or records


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None
