"""The game index as the listing pages through it: title, stage (waiting for players,
running, finished), open seats, each active seat's wait, forks by origin, transcribed
games, final scores, an index per filter ending in the last activity, and the players'
names in activity order.

The read models are made from the event log and can always be made again, so this
revision does not convert the old rows: it empties the read models (view rows, tracking
position, recorded source) and makes the game index anew; the next reader or runner
projects the whole log again from its start (`caboose projections rebuild` does it ahead
of time). It is safe on a database whose tables a build made at run time.

Revision ID: proj0002
Revises: proj0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "proj0002"
down_revision = "proj0001"
branch_labels = None
depends_on = None

metadata = sa.MetaData()

games = sa.Table(
    "proj_games", metadata,
    sa.Column("game_id", sa.String(36), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("ruleset_version", sa.String(32), nullable=False),
    sa.Column("title", sa.String(200), nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("open_seats", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("stage", sa.String(16), nullable=False),
    sa.Column("active_seats", sa.JSON, nullable=False),
    sa.Column("since", sa.String(40), nullable=False),
    sa.Column("since_version", sa.Integer, nullable=False),
    sa.Column("waiting_since", sa.JSON, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
    sa.Column("forked_from", sa.JSON, nullable=True),
    sa.Column("forked_from_id", sa.String(36), nullable=True),
    sa.Column("transcribed", sa.Boolean, nullable=False),
    sa.Column("scores", sa.JSON, nullable=True),
    sa.Column("rewinds", sa.Integer, nullable=False),
    sa.Column("open_disputes", sa.Integer, nullable=False),
    sa.Index("ix_proj_games_activity", "updated_at", "game_id"),
    sa.Index("ix_proj_games_status_activity", "status", "updated_at", "game_id"),
    sa.Index("ix_proj_games_stage_activity", "stage", "updated_at", "game_id"),
    sa.Index("ix_proj_games_game_activity", "game", "updated_at", "game_id"),
    sa.Index("ix_proj_games_transcribed_activity", "transcribed", "updated_at", "game_id"),
    sa.Index("ix_proj_games_forked_from_id", "forked_from_id"),
)
players = sa.Table(
    "proj_game_players", metadata,
    sa.Column("game_id", sa.String(36), primary_key=True),
    sa.Column("name_key", sa.String(64), primary_key=True),
    sa.Column("updated_at", sa.String(40), nullable=False),
    sa.Index("ix_proj_game_players_activity", "name_key", "updated_at", "game_id"),
)

EMPTIED = ("proj_board", "proj_seat_figures", "proj_tracking", "proj_source")


def upgrade() -> None:
    bind = op.get_bind()
    present = set(sa.inspect(bind).get_table_names(schema=op.get_context().version_table_schema))
    for name in EMPTIED:
        if name in present:
            op.execute(sa.text(f"DELETE FROM {name}"))
    for table in (games, players):
        if table.name in present:
            op.drop_table(table.name)
    metadata.create_all(bind)


def downgrade() -> None:
    for table in (players, games):
        op.drop_table(table.name)
    op.create_table(
        "proj_games",
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
    for name in EMPTIED:
        op.execute(sa.text(f"DELETE FROM {name}"))
