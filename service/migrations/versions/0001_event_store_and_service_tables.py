"""The event store (the eventsourcing library's tables) and the service's own tables:
seats and tokens, notification subscriptions, deliveries and the follower's position.

Every statement checks what exists first, so a database made by a build from before
the migrations (tables made at run time, no version recorded) upgrades cleanly.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op
from sqlalchemy import text

from service.eventstore import event_store_statements

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

metadata = sa.MetaData()

sa.Table(
    "caboose_credentials", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(36), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("name", sa.String(64)),
    sa.Column("token_hash", sa.String(64), unique=True),
    sa.Column("invite_hash", sa.String(64), unique=True),
    sa.UniqueConstraint("game_id", "seat"),
)
sa.Table(
    "caboose_subscriptions", metadata,
    sa.Column("game_id", sa.String(36), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("webhook_url", sa.String(2000)),
    sa.Column("webhook_secret", sa.String(64)),
    sa.Column("email", sa.String(320)),
)
sa.Table(
    "caboose_deliveries", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(36), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("channel", sa.String(16), nullable=False),
    sa.Column("target", sa.String(2000), nullable=False),
    sa.Column("payload", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False, index=True),
    sa.Column("last_error", sa.Text),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("delivered_at", sa.DateTime(timezone=True)),
)
sa.Table(
    "caboose_notify_position", metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("position", sa.Integer, nullable=False),
)


def upgrade() -> None:
    bind = op.get_bind()
    schema = context.config.attributes.get("schema")
    statements = event_store_statements(bind.dialect.name, schema)
    # The library creates its composite type first (the tables' insert function uses it).
    made: set[str] = set()
    for statement, type_name in statements:
        if type_name is None or type_name in made:
            continue
        made.add(type_name)
        exists = bind.execute(text("SELECT 1 FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace "
                                   "WHERE n.nspname = :schema AND t.typname = :name"),
                              {"schema": schema or "public", "name": type_name}).first()
        if not exists:
            bind.exec_driver_sql(statement)
    for statement, type_name in statements:
        if type_name is None:
            bind.exec_driver_sql(statement)
    metadata.create_all(bind, checkfirst=True)


def downgrade() -> None:
    raise NotImplementedError("The first revision is not undone: it would drop every stored game.")
