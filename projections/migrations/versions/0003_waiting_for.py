"""The game index says what a game played at a table waits for (`waiting_for`: the outcome
and who enters it), so the listing shows it beside whose turn it is.

The column starts empty (null: waits for no outcome) on existing rows; a game waiting for an
outcome when this revision runs shows it once the read models are rebuilt (`caboose
projections rebuild`), or from its next event.

Revision ID: proj0003
Revises: proj0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "proj0003"
down_revision = "proj0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("proj_games") as batch:
        batch.add_column(sa.Column("waiting_for", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("proj_games") as batch:
        batch.drop_column("waiting_for")
