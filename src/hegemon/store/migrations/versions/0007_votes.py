"""Players' votes: draw, concession, pause and resume (`models.Vote`).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "votes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("power", sa.String(60), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("to", sa.String(60), nullable=True),
        sa.Column("cast", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("game_id", "power", "kind"),
    )
    op.create_index("ix_votes_game_id", "votes", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_votes_game_id", "votes")
    op.drop_table("votes")
