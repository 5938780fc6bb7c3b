"""The composition root: every part of a deployment built once, from its settings, for the
app factory (`service/api`), gunicorn (`service/wsgi.py`) and the command line alike.

The parts that open another database (the lobby's seats table, the notifier, the read
models) are built when first asked for, so a command that only reads a game opens only
the event store.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from eventsourcing.projection import BaseProjectionRunner

from projections.runner import PollingRunner, library_runner, projection_for
from projections.store import ReadStore, read_store_for, use_read_store
from service.application import Caboose
from service.lobby import Lobby
from service.notify.notifier import Notifier
from service.settings import Settings
from service.tlog import TransparencyLog, open_log
from service.tournament.organiser import Organiser
from service.tournament.ratings import Ratings


class FollowedCaboose(Caboose):
    """The event store as the library's runner opens it: from an environment alone."""

    name = Caboose.name

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = dict(env or {})
        super().__init__(Settings.from_env(env.get("CABOOSE_DB")), env=env)


class Services:
    """A deployment's parts. Build it with `bootstrap`."""

    def __init__(self, caboose: Caboose, lobby: Lobby | None = None, notifier: Notifier | None = None,
                 base_url: str | None = None, read_db: str | None = None) -> None:
        self.caboose, self.settings = caboose, caboose.settings
        self._base_url, self._read_db = base_url, read_db
        if lobby is not None:
            self.lobby = lobby
        if notifier is not None:
            self.notifier = notifier

    @cached_property
    def lobby(self) -> Lobby:
        return Lobby(self.caboose)

    @cached_property
    def organiser(self) -> Organiser:
        """Tournaments (`service/tournament/`), their first rounds seeded by the ratings read model."""
        return Organiser(self.lobby, ratings=self.ratings.rating_of)

    @cached_property
    def ratings(self) -> Ratings:
        """The ratings read model (OpenSkill per game title, `projections/ratings.py`)."""
        return Ratings(self.caboose)

    @cached_property
    def notifier(self) -> Notifier:
        return Notifier(self.caboose, self.lobby.seating.engine, self.settings.smtp,
                        base_url=self.settings.base_url or self._base_url)

    @cached_property
    def log(self) -> TransparencyLog:
        """The transparency log, on the seats' database (beside the events)."""
        return open_log(self.settings, self.lobby.seating.engine)

    @cached_property
    def read_store(self) -> ReadStore:
        """The read models: `read_db` if one was named, else beside the events."""
        if self._read_db is None:
            return read_store_for(self.caboose)
        store = ReadStore(self._read_db)
        use_read_store(self.caboose, store)
        return store

    @property
    def schema(self) -> str | None:
        return self.settings.schema or self.caboose.env.get("POSTGRES_SCHEMA") or os.environ.get("POSTGRES_SCHEMA") or None

    def polling_runner(self, batch_size: int = 500) -> PollingRunner:
        """Follows the log into the read models by polling it (SQLite, or on request)."""
        return PollingRunner(self.caboose, projection_for(self.caboose, self.read_store), batch_size)

    def library_runner(self) -> BaseProjectionRunner[Any]:
        """The eventsourcing library's runner (PostgreSQL: LISTEN/NOTIFY)."""
        env = {"CABOOSE_DB": self.settings.db, **({"POSTGRES_SCHEMA": self.schema} if self.schema else {})}
        return library_runner(self.caboose, self.read_store, env, FollowedCaboose)


def bootstrap(settings: Settings | None = None, *, caboose: Caboose | None = None, lobby: Lobby | None = None,
              notifier: Notifier | None = None, base_url: str | None = None, read_db: str | None = None) -> Services:
    """Build a deployment's parts from `settings` (the environment's when None). Parts
    passed in are used as they are (tests, a server that already holds them)."""
    if caboose is None:
        caboose = Caboose(settings or Settings.from_env())
    return Services(caboose, lobby, notifier, base_url, read_db)

