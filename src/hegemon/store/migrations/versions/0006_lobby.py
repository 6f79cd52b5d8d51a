"""Games players create and find: public or private (an invitation code), anonymous
players, how seats are assigned.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("creator_id", sa.Integer(), nullable=True))
        games.add_column(sa.Column("invitation", sa.String(32), nullable=True))
        games.add_column(
            sa.Column("anonymous", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        games.add_column(
            sa.Column("assignment", sa.String(10), nullable=False, server_default="chosen")
        )
        games.create_foreign_key(
            "fk_games_creator_id_users", "users", ["creator_id"], ["id"], ondelete="SET NULL"
        )
        games.create_unique_constraint("uq_games_invitation", ["invitation"])


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_constraint("uq_games_invitation", type_="unique")
        games.drop_constraint("fk_games_creator_id_users", type_="foreignkey")
        games.drop_column("assignment")
        games.drop_column("anonymous")
        games.drop_column("invitation")
        games.drop_column("creator_id")
