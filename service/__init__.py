"""The application layer: the eventsourcing `Application` that stores games, and the
Flask REST API in front of it."""

from service import readside
from service.content import install

# Every process that uses the service finds the content packs on disk, and its read
# models are migrated and connected as the service's own tables are.
install()
readside.provide()
