"""Finding secrets in views, without knowing the game.

Every game's view keeps what only seat N may see under `seats[N]`. So wherever a seat's
view differs from the public view, the difference must lie inside that seat's own part;
anything else is a leak (another seat's hand, a deck order).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Path = tuple[Any, ...]


def differences(public: Any, private: Any, path: Path = ()) -> Iterator[Path]:
    """The paths where `private` holds something the public view does not."""
    if isinstance(public, dict) and isinstance(private, dict):
        for key, value in private.items():
            if key not in public:
                yield (*path, key)
            else:
                yield from differences(public[key], value, (*path, key))
    elif isinstance(public, list) and isinstance(private, list) and len(public) == len(private):
        for index, (a, b) in enumerate(zip(public, private, strict=True)):
            yield from differences(a, b, (*path, index))
    elif public != private:
        yield path


def leaks(public: Any, views: dict[int, Any]) -> list[str]:
    """Problems where a seat's view shows what the public may not see, outside that seat's
    own part of the view. Views keep each seat's private content under `seats[N]`."""
    problems = []
    for seat, view in views.items():
        for path in sorted(differences(public, view), key=repr):
            if path[:2] != ("seats", seat):
                problems.append(f"seat {seat}'s view shows {'/'.join(map(str, path))}, which is hidden from the public")
    return problems
