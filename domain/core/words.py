"""Markers for the words a game declares (`Decider.title`, `Decider.refusals`): the rules
stay untranslated, and these leave each string as it is; the service's catalogue extraction
(`service/i18n/catalogues.py`) finds them by these names, so each shipped language has its
own words for them."""

from __future__ import annotations


def N_(message: str) -> str:
    """A sentence to translate where it is shown (a refusal's)."""
    return message


def pgettext_noop(context: str, message: str) -> str:
    """A message translated in a context: a game's title in the context `game`."""
    return message
