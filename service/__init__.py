"""The application layer: the eventsourcing `Application` that stores games, and the
Flask REST API in front of it."""
