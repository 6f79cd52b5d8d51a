"""The first tables: users, sessions, games, members, pending orders, phases, audit.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _id() -> sa.Column[int]:
    return sa.Column("id", sa.Integer(), primary_key=True)


def _game_id(nullable: bool = False) -> sa.Column[int]:
    games = sa.ForeignKey("games.id", ondelete="CASCADE")
    return sa.Column("game_id", sa.Integer(), games, nullable=nullable, index=True)


def _user_id() -> sa.Column[int]:
    users = sa.ForeignKey("users.id", ondelete="CASCADE")
    return sa.Column("user_id", sa.Integer(), users, nullable=False, index=True)


def upgrade() -> None:
    op.create_table(
        "users",
        _id(),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "sessions",
        _id(),
        _user_id(),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("expires", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "games",
        _id(),
        sa.Column("title", sa.String(100), nullable=False),
        sa.Column("variant", sa.String(60), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False, index=True),
        sa.Column("policy", sa.JSON(), nullable=False),
        sa.Column("start", sa.JSON(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(12), nullable=False),
        sa.Column("deadline", sa.DateTime(), nullable=True, index=True),
        sa.Column("grace_used", sa.Boolean(), nullable=False),
        sa.Column("paused_left", sa.Double(), nullable=True),
        sa.Column("agreed", sa.JSON(), nullable=True),
        sa.Column("ended", sa.JSON(), nullable=True),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_table(
        "members",
        _id(),
        _game_id(),
        _user_id(),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("power", sa.String(60), nullable=True),
        sa.UniqueConstraint("game_id", "user_id"),
        sa.UniqueConstraint("game_id", "power"),
    )
    op.create_table(
        "pending_orders",
        _id(),
        _game_id(),
        sa.Column("power", sa.String(60), nullable=False),
        sa.Column("orders", sa.JSON(), nullable=False),
        sa.Column("ready", sa.Boolean(), nullable=False),
        sa.Column("missed", sa.Integer(), nullable=False),
        sa.Column("disorder", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.UniqueConstraint("game_id", "power"),
    )
    op.create_table(
        "phases",
        _id(),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(12), nullable=False),
        sa.Column("orders", sa.JSON(), nullable=False),
        sa.Column("draws", sa.JSON(), nullable=False),
        sa.Column("digest", sa.String(16), nullable=False),
        sa.Column("after", sa.JSON(), nullable=False),
        sa.Column("adjudicated", sa.DateTime(), nullable=False),
        # One row per phase number: a phase adjudicated twice cannot be stored twice.
        sa.UniqueConstraint("game_id", "number"),
    )
    op.create_table(
        "audit",
        _id(),
        _game_id(nullable=True),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    for table in ("audit", "phases", "pending_orders", "members", "games", "sessions", "users"):
        op.drop_table(table)
