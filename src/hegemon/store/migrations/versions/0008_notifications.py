"""Notifications: each account's preferences, each game's webhooks, the queue of mail and
webhook posts, the press waiting for a digest, how far each game's events have been
turned into notices, and the server's own secrets (`models.NoticeSettings` and after).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _game() -> sa.Column[int]:
    return sa.Column(
        "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
    )


def _user(nullable: bool = False) -> sa.Column[int]:
    return sa.Column(
        "user_id",
        sa.Integer(),
        sa.ForeignKey("users.id", ondelete="CASCADE"),
        nullable=nullable,
    )


def upgrade() -> None:
    op.create_table(
        "notice_settings",
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("hours", sa.Integer(), nullable=False),
    )
    op.create_table(
        "webhooks",
        sa.Column("id", sa.Integer(), primary_key=True),
        _game(),
        sa.Column("url", sa.String(500), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("game_id", "url"),
    )
    op.create_table(
        "deliveries",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE")),
        _user(nullable=True),
        sa.Column("webhook_id", sa.Integer(), sa.ForeignKey("webhooks.id", ondelete="CASCADE")),
        sa.Column("target", sa.String(500), nullable=False),
        sa.Column("subject", sa.String(300), nullable=True),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("key", sa.String(120), nullable=True, unique=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt", sa.DateTime(), nullable=True),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.Column("last_error", sa.String(300), nullable=True),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_deliveries_next_attempt", "deliveries", ["next_attempt"])
    op.create_table(
        "digest_items",
        sa.Column("id", sa.Integer(), primary_key=True),
        _user(),
        _game(),
        sa.Column(
            "message_id",
            sa.Integer(),
            sa.ForeignKey("messages.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("added", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("user_id", "message_id"),
    )
    op.create_table(
        "notice_cursors",
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("last", sa.Integer(), nullable=False),
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_secrets")
    op.drop_table("notice_cursors")
    op.drop_table("digest_items")
    op.drop_index("ix_deliveries_next_attempt", "deliveries")
    op.drop_table("deliveries")
    op.drop_table("webhooks")
    op.drop_table("notice_settings")
