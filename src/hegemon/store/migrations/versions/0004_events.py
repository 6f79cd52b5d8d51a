"""Events: the outbox of each game's changes that live pages and notifications follow
(`hegemon.store.models.Event`), numbered per game by `counters`, which
number whatever else a game numbers in the order it commits.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(24), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("kind", sa.String(30), nullable=False),
        sa.Column("audience", sa.JSON(), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.UniqueConstraint("game_id", "seq"),
        sa.UniqueConstraint("game_id", "token"),
    )
    op.create_table(
        "counters",
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("name", sa.Text(), primary_key=True),
        sa.Column("last", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("counters")
    op.drop_table("events")
