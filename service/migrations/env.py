"""Alembic's entry point for the event store and service tables: it runs the environment `service/migrate.py`
hands over in the configuration (migrations run only through `migrate.upgrade`)."""

from alembic import context

context.config.attributes["run_environment"](context)
