"""What the read models need of the deployment, provided by the service: their migrations
(`service/migrate.py`, tree `READ_MODELS`) and the same bounded waits as every other
connection (`DatabaseTimeouts`). The read models import no service (tests/test_architecture.py):
the service hands this over when it is imported."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from projections import store
from service import migrate
from service.db import bound_waits, postgres_connect_args
from service.settings import DatabaseTimeouts


class ReadModelProvisioning:
    def prepare(self, engine: Engine, schema: str | None) -> None:
        try:
            migrate.prepare(engine, migrate.READ_MODELS, schema)
        except migrate.SchemaMissing as error:
            raise store.ReadModelError(error.message) from None

    def upgrade(self, engine: Engine, schema: str | None) -> str:
        return migrate.upgrade(engine, migrate.READ_MODELS, schema)

    def postgres_connect_args(self, schema: str | None, *options: str) -> dict[str, Any]:
        return postgres_connect_args(schema, DatabaseTimeouts.from_env(), *options)

    def connect_timeout(self) -> float:
        return DatabaseTimeouts.from_env().connect

    def bound_waits(self, engine: Engine) -> None:
        bound_waits(engine, DatabaseTimeouts.from_env())


def provide() -> None:
    store.provide(ReadModelProvisioning())
