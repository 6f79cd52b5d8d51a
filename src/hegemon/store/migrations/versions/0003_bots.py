"""Bots: accounts of their own kind, and games that give their empty seats to bots when
they start.

`users.kind` says who plays through an account: ``human`` (every account made before,
and every account opened through the API) or the kind of player program a bot account
is run by (`hegemon.bots.PlayerKind`). `games.fill_with_bots` is the creator's choice that
the seats left empty when the game starts go to bots.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as users:
        users.add_column(sa.Column("kind", sa.String(10), nullable=False, server_default="human"))
    with op.batch_alter_table("games") as games:
        games.add_column(
            sa.Column("fill_with_bots", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_column("fill_with_bots")
    with op.batch_alter_table("users") as users:
        users.drop_column("kind")
