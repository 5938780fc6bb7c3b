"""The application layer: the eventsourcing `Application` that stores games, and the
Flask REST API in front of it."""

from service.content import install

# Every process that uses the service finds the content packs on disk.
install()
