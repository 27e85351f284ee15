"""Alembic environment: runs the revisions on the connection ``Store.migrate`` hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from couyon.store.schema import metadata

connection: Connection = context.config.attributes["connection"]
# render_as_batch lets later revisions alter SQLite tables (it has almost no ALTER TABLE).
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
