"""Each rated match keeps every player's rating just before it (`proj_rating_matches.before`),
so a ruling, an older result or an end taken back rates again only the matches from that
point on (`projections/tournaments.py`).

Matches projected before this revision have no snapshot to start from, so, as `proj0005` did,
this revision empties the read models (view rows, tracking position, recorded source): the
next reader or runner projects the whole log from its start (`caboose projections rebuild`
does it ahead of time).

Revision ID: proj0006
Revises: proj0005
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "proj0006"
down_revision = "proj0005"
branch_labels = None
depends_on = None

EMPTIED = ("proj_board", "proj_seat_figures", "proj_game_players", "proj_games", "proj_tournaments",
           "proj_rating_matches", "proj_ratings", "proj_tracking", "proj_source")


def upgrade() -> None:
    for name in EMPTIED:
        op.execute(sa.text(f"DELETE FROM {name}"))
    with op.batch_alter_table("proj_rating_matches") as batch:
        batch.add_column(sa.Column("before", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("proj_rating_matches") as batch:
        batch.drop_column("before")
