"""Names for seats nobody named: the players of games and tournaments the bots play
(`caboose simulate`, the demo, `caboose tournament simulate`). A page reads "Dara claimed
Denver–Omaha", as it would for a game people play, never "player 3": a seat number where
a name belongs is what a reader cannot place.

The names are first names from many places, short and not words of any of the page's
languages, so a translated page shows them as the names they are."""

from __future__ import annotations

import random
import string

FIRST_NAMES = (
    "Ann", "Ben", "Cleo", "Dara", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun",
    "Kiri", "Lena", "Malee", "Nico", "Omar", "Pim", "Quan", "Rosa", "Sami", "Tomas",
    "Uma", "Vera", "Wen", "Xavi", "Yuki", "Zara", "Arun", "Bea", "Chen", "Dmitri",
    "Esme", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kwame", "Lior", "Mina", "Nadia",
)
"""The first names, in the order the demo seats its people (Ann, Ben, Cleo, ...)."""


def seat_names(count: int, seed: bytes | int | str) -> list[str]:
    """`count` different names, drawn from `FIRST_NAMES` by `seed`: the same seed names the
    same seats the same way on every run (a simulation repeats exactly), another seed draws
    others. Past the list's length, a name comes back with an initial ("Ann B.")."""
    key = seed if isinstance(seed, bytes) else str(seed).encode()
    order = list(FIRST_NAMES)
    random.Random(b"caboose-seat-names:" + key).shuffle(order)
    return [order[index % len(order)] + _initial(index // len(order)) for index in range(count)]


def _initial(round_: int) -> str:
    """"" for the first time through the names, then " A.", " B.", ..., " Z.", " AA.", ..."""
    letters = ""
    while round_ > 0:
        round_, left = divmod(round_ - 1, len(string.ascii_uppercase))
        letters = string.ascii_uppercase[left] + letters
    return f" {letters}." if letters else ""
