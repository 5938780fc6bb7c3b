"""The notification tables: subscriptions per seat, deliveries, the follower's position."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import JSON, DateTime, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from service.seating import Base


def utcnow() -> datetime:
    return datetime.now(UTC)


class Subscription(Base):
    __tablename__ = "caboose_subscriptions"

    game_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    webhook_url: Mapped[str | None] = mapped_column(String(2000))
    webhook_secret: Mapped[str | None] = mapped_column(String(64))
    email: Mapped[str | None] = mapped_column(String(320))
    language: Mapped[str | None] = mapped_column(String(16))
    """The locale its mails are written in (`th`, `zh_Hant_TW`); none: English."""


class Delivery(Base):
    __tablename__ = "caboose_deliveries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(36), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    channel: Mapped[str] = mapped_column(String(16))  # webhook | email
    target: Mapped[str] = mapped_column(String(2000))
    payload: Mapped[dict] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="pending", index=True)  # pending | delivered | failed
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class FollowerPosition(Base):
    __tablename__ = "caboose_notify_position"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, default=0)
