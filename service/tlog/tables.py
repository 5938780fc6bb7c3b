"""The transparency log's tables (made by migration 0003)."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

HEAD = sa.Table(
    "caboose_log_head", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("size", sa.BigInteger, nullable=False),
    sa.Column("last_notification", sa.BigInteger, nullable=False),
    sa.Column("signer", sa.Text),
    # The log's signing key when no file is named for it (CABOOSE_LOG_KEY): made on first start.
)
LEAVES = sa.Table(
    "caboose_log_leaves", metadata,
    sa.Column("leaf_index", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("notification_id", sa.BigInteger, nullable=False, unique=True),
    sa.Column("game_id", sa.String(36), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("event_hash", sa.LargeBinary(32), nullable=False),
    sa.UniqueConstraint("game_id", "version", name="caboose_log_leaves_event"),
)
NODES = sa.Table(
    "caboose_log_nodes", metadata,
    sa.Column("level", sa.SmallInteger, primary_key=True, autoincrement=False),
    sa.Column("idx", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("hash", sa.LargeBinary(32), nullable=False),
)
CHECKPOINTS = sa.Table(
    "caboose_log_checkpoints", metadata,
    sa.Column("size", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("note", sa.Text, nullable=False),
    sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
)
COSIGNATURES = sa.Table(
    "caboose_log_cosignatures", metadata,
    sa.Column("size", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("witness", sa.String(200), primary_key=True),
    sa.Column("line", sa.Text, nullable=False),
    sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
)
