"""Alembic's environment: migrations run on the connection `Store.upgrade` gives them."""

from __future__ import annotations

from alembic import context

from hegemon.store.models import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying
)
with context.begin_transaction():
    context.run_migrations()
