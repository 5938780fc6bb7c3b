"""Alembic's entry point for the event store and service tables (see service/migrate.py)."""

from alembic import context

from service.migrate import run_environment

run_environment(context)
