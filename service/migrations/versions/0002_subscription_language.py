"""A subscription's language: the one its seat subscribed in (the page's choice or the
request's Accept-Language), in which its mails are written. Existing subscriptions have
none and are written to in English, as before.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TABLE = "caboose_subscriptions"


def upgrade() -> None:
    columns = {column["name"] for column in sa.inspect(op.get_bind()).get_columns(TABLE)}
    if "language" not in columns:
        op.add_column(TABLE, sa.Column("language", sa.String(16)))


def downgrade() -> None:
    op.drop_column(TABLE, "language")
