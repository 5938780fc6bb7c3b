"""The game index says why a game cannot be read here (`problem`: its content pack or its
ruleset is not installed), so the listing shows that game with what its records say instead
of failing for every game.

The column starts empty (null: read in full) on existing rows.

Revision ID: proj0004
Revises: proj0003
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "proj0004"
down_revision = "proj0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("proj_games") as batch:
        batch.add_column(sa.Column("problem", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("proj_games") as batch:
        batch.drop_column("problem")
