"""Alembic's entry point for the read models (see service/migrate.py)."""

from alembic import context

from service.migrate import run_environment

run_environment(context)
