"""Shared machinery every game stands on: the game contract and registry, the event envelope and
hash chain of FORMAT.md, the fair generator, redaction by audience, and typed errors."""
