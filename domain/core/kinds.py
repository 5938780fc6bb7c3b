"""The core's own event kinds, recorded around every game (creation, the seed's reveal,
seats joining, referee actions): the catalogue every game's own kinds are added to."""

from __future__ import annotations

from domain.core.catalogue import Catalogue

CORE = Catalogue(name="core")
"""Filled in as the core's kinds are declared; until then they read as `Untyped`."""
