"""The game's view at a run of versions, for stepping through a replay.

`GET /api/v1/games/{id}/state?at=N` answers one version per request: the page would need a
request per step, and the read limit per client and game (`CABOOSE_RATE_LIMIT_READ`) would
stop anyone holding an arrow key through a long game. Here one request folds a run of versions once, from the
state at the first (a snapshot plus at most a snapshot interval of events), and returns
each version's view.

The answer is the API's, version for version: the same state (`fold.step`, as the
aggregate folds; a rewind restores the stored state at its version), the same
`decider.view`, and the same rule as `Caboose.state` for who sees what (`Caboose.seen_as`:
the caller's audience; everything once the game is over and shown whole).
"""

from __future__ import annotations

from typing import Any

from domain.core import fold
from domain.core.envelope import to_event
from domain.core.events import Audience
from service.aggregate import Game
from service.application import Caboose

MAX_SPAN = 200
"""Versions per request: a chunk of views stays a few hundred KB before compression."""


def views(caboose: Caboose, game_id: str, audience: Audience, first: int, last: int,
          now: Game | None = None) -> list[dict[str, Any]]:
    """`[{version, state}]` for each version from `first` to `last` (clamped to the game);
    `now`: the game as the caller has just loaded it, if it has."""
    now = now or caboose.game(game_id)
    audience = caboose.seen_as(game_id, audience, now)  # as `Caboose.state`
    last = min(last, now.version)
    first = max(1, min(first, last))
    # The current version (the first board of most replays) is the game in hand: no
    # reconstruction from a snapshot and the events after it.
    start = now if first == now.version else caboose.game(game_id, first)
    decider = start.decider
    state = start.state
    out = [{"version": first, "state": decider.view(state, audience)}]
    if last == first:
        return out
    for record in caboose.records(game_id, after=first, upto=last):
        state = fold.step(decider, state, to_event(record, decider.catalogue), lambda version: caboose.game(game_id, version).state)
        out.append({"version": record["version"], "state": decider.view(state, audience)})
    return out
