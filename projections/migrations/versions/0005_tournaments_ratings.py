"""Tournaments and ratings as read models: the tournament index with each tournament's
standings (`proj_tournaments`), the rated results (`proj_rating_matches`: tournament tables
and games created rated) and the ratings they make (`proj_ratings`); the game index says
whether a game was created rated (`rated`).

The read models are made from the event log and can always be made again, so, as
`proj0002` did, this revision empties them (view rows, tracking position, recorded source):
the next reader or runner projects the whole log from its start, the tournaments' records
with it (`caboose projections rebuild` does it ahead of time).

Revision ID: proj0005
Revises: proj0004
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "proj0005"
down_revision = "proj0004"
branch_labels = None
depends_on = None

EMPTIED = ("proj_board", "proj_seat_figures", "proj_game_players", "proj_games", "proj_tracking", "proj_source")


CREATED = ("proj_tournaments", "proj_rating_matches", "proj_ratings")


def upgrade() -> None:
    for name in EMPTIED:
        op.execute(sa.text(f"DELETE FROM {name}"))
    # A database whose tables a build made at run time may hold these already: made anew.
    present = set(sa.inspect(op.get_bind()).get_table_names(schema=op.get_context().version_table_schema))
    for name in CREATED:
        if name in present:
            op.drop_table(name)
    with op.batch_alter_table("proj_games") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "proj_tournaments",
        sa.Column("tournament_id", sa.String(36), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
        sa.Column("ladder", sa.JSON, nullable=False),
        sa.Column("standings", sa.JSON, nullable=False),
        sa.Column("met_twice", sa.Integer, nullable=False),
        sa.Column("least_met_twice", sa.Integer, nullable=False),
        sa.Column("least_met_twice_exact", sa.Boolean, nullable=False),
        sa.Index("ix_proj_tournaments_activity", "updated_at", "tournament_id"),
    )
    op.create_table(
        "proj_rating_matches",
        sa.Column("match_id", sa.String(36), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("sort_key", sa.String(200), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("tournament_id", sa.String(36), nullable=True),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("places", sa.JSON, nullable=False),
        sa.Index("ix_proj_rating_matches_game_order", "game", "sort_key"),
    )
    op.create_table(
        "proj_ratings",
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(200), primary_key=True),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Index("ix_proj_ratings_game", "game"),
    )


def downgrade() -> None:
    for name in reversed(CREATED):
        op.drop_table(name)
    with op.batch_alter_table("proj_games") as batch:
        batch.drop_column("rated")
