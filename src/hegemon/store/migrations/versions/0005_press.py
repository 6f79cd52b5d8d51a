"""Press: the messages of each game's press, who may read each private one, each member's
last message read per channel, and the game master's mute (`members.muted`).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _game() -> sa.Column[int]:
    return sa.Column(
        "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "messages",
        sa.Column("id", sa.Integer(), primary_key=True),
        _game(),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(12), nullable=False),
        sa.Column("sent", sa.DateTime(), nullable=False),
        sa.Column("sender", sa.String(60), nullable=False),
        sa.Column("voice", sa.String(60), nullable=True),
        sa.Column("grey", sa.Boolean(), nullable=False),
        sa.Column("recipients", sa.JSON(), nullable=False),
        sa.Column("channel", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.UniqueConstraint("game_id", "channel", "number"),
    )
    op.create_table(
        "message_readers",
        sa.Column(
            "message_id",
            sa.Integer(),
            sa.ForeignKey("messages.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("reader", sa.String(60), primary_key=True),
        _game(),
    )
    op.create_index(
        "ix_message_readers_game_reader", "message_readers", ["game_id", "reader", "message_id"]
    )
    op.create_table(
        "read_marks",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "member_id",
            sa.Integer(),
            sa.ForeignKey("members.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("channel", sa.Text(), nullable=False),
        sa.Column("last", sa.Integer(), nullable=False),
        sa.UniqueConstraint("member_id", "channel"),
    )
    with op.batch_alter_table("members") as members:
        members.add_column(
            sa.Column("muted", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("members") as members:
        members.drop_column("muted")
    op.drop_table("read_marks")
    op.drop_index("ix_message_readers_game_reader", "message_readers")
    op.drop_table("message_readers")
    op.drop_table("messages")
