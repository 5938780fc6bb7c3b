"""The transparency log: one Merkle tree over every stored event (`service/tlog/`).

- `caboose_log_head`: one row, the tree's size and the last notification it holds (the
  sequencer locks it, so one sequencer at a time extends the tree), and the log's signing
  key unless the deployment keeps it in a file (CABOOSE_LOG_KEY);
- `caboose_log_leaves`: leaf i is the event (game, version) with its record's hash;
- `caboose_log_nodes`: every complete subtree's hash, (level, index), leaves at level 0;
- `caboose_log_checkpoints`: each signed checkpoint, by tree size;
- `caboose_log_cosignatures`: the witnesses' cosignature lines, by tree size and witness.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from service.tlog.tables import HEAD, metadata

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    metadata.create_all(bind, checkfirst=True)
    if bind.execute(sa.select(HEAD.c.id)).first() is None:
        bind.execute(HEAD.insert().values(id=1, size=0, last_notification=0))


def downgrade() -> None:
    for table in reversed(metadata.sorted_tables):
        op.drop_table(table.name)
