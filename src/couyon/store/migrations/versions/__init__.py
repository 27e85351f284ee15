"""Alembic revisions, oldest first; each one is written by hand and never edited once released."""
