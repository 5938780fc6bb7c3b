"""The read models: game index, board changes, seat figures, tracking position, and the
store they were made from.

Tables are created only where missing, so read models made at run time by a build from
before the migrations upgrade cleanly.

Revision ID: proj0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "proj0001"
down_revision = None
branch_labels = None
depends_on = None

metadata = sa.MetaData()

sa.Table(
    "proj_games", metadata,
    sa.Column("game_id", sa.String(36), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False, index=True),
    sa.Column("ruleset_version", sa.String(32), nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("active_seats", sa.JSON, nullable=False),
    sa.Column("since", sa.String(40), nullable=False),
    sa.Column("since_version", sa.Integer, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
    sa.Column("forked_from", sa.JSON, nullable=True),
    sa.Column("rewinds", sa.Integer, nullable=False),
    sa.Column("open_disputes", sa.Integer, nullable=False),
)
sa.Table(
    "proj_board", metadata,
    sa.Column("game_id", sa.String(36), primary_key=True),
    sa.Column("cell", sa.String(128), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("value", sa.JSON, nullable=True),
    sa.Index("ix_proj_board_game_version", "game_id", "version"),
)
sa.Table(
    "proj_seat_figures", metadata,
    sa.Column("game_id", sa.String(36), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("vp", sa.Integer, nullable=False),
    sa.Column("income", sa.Integer, nullable=True),
    sa.Column("by_source", sa.JSON, nullable=False),
    sa.Column("tracks", sa.JSON, nullable=False),
    sa.Column("charted", sa.Boolean, nullable=False),
    sa.Index("ix_proj_seat_figures_game_version", "game_id", "version"),
)
sa.Table(
    "proj_tracking", metadata,
    sa.Column("application_name", sa.String(64), primary_key=True),
    sa.Column("notification_id", sa.BigInteger, nullable=False),
)
sa.Table(
    "proj_source", metadata,
    sa.Column("application_name", sa.String(64), primary_key=True),
    sa.Column("first_originator_id", sa.String(36), nullable=False),
)


def upgrade() -> None:
    metadata.create_all(op.get_bind(), checkfirst=True)


def downgrade() -> None:
    for table in reversed(metadata.sorted_tables):
        op.drop_table(table.name)
