"""What a public server needs of its tables: account names unique whatever their case, the
accounts the demo made, a game's deadlines passed with nobody ordering and why it was
paused, and the counters of the rate limits that several processes share.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as users:
        users.add_column(sa.Column("name_key", sa.String(60), nullable=True))
        users.add_column(sa.Column("demo", sa.Boolean(), nullable=False, server_default=sa.false()))
    _fill_name_keys()
    with op.batch_alter_table("users") as users:
        users.alter_column("name_key", nullable=False)
        users.create_unique_constraint("uq_users_name_key", ["name_key"])
    with op.batch_alter_table("games") as games:
        games.add_column(
            sa.Column("idle_deadlines", sa.Integer(), nullable=False, server_default="0")
        )
        games.add_column(sa.Column("pause_reason", sa.String(200), nullable=True))
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False, index=True),
    )


def _fill_name_keys() -> None:
    """Each name in lower case; where two names already differ only by case, the later
    account's key is marked with its number, so that both can still sign in by their
    exact names."""
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("name"), sa.column("name_key"))
    connection = op.get_bind()
    taken: set[str] = set()
    for user_id, name in connection.execute(sa.select(users.c.id, users.c.name).order_by("id")):
        key = name.lower()
        if key in taken:
            key = f"{key}#{user_id}"
        taken.add(key)
        connection.execute(users.update().where(users.c.id == user_id).values(name_key=key))


def downgrade() -> None:
    op.drop_table("rate_limits")
    with op.batch_alter_table("games") as games:
        games.drop_column("pause_reason")
        games.drop_column("idle_deadlines")
    with op.batch_alter_table("users") as users:
        users.drop_constraint("uq_users_name_key", type_="unique")
        users.drop_column("demo")
        users.drop_column("name_key")
