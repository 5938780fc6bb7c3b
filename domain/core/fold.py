"""The one fold: how a game's state moves on by one event, for every reader of a game.

The aggregate, the projections, the viewer's frames, the simulator, the auditor and import
all fold through `step`, so they agree on every kind: the game's own kinds go to its
`evolve`; the core's kinds (a seat joining, a referee's adjustment, notes) are handled here;
a rewind restores the state at an earlier version, which only the reader can supply
(`earlier`): the aggregate from the state stored beside the record, `History` from the
states it kept, the viewer and the projections from the event store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from domain.core import log
from domain.core.decider import Decider
from domain.core.envelope import to_event
from domain.core.errors import RecordError
from domain.core.events import Event
from domain.core.kinds import NOTES, REWINDS, AdjustmentMade, GameCreated, SeatJoined, SeedRevealed
from domain.core.state import transient

Earlier = Callable[[int], Any]
"""The game's state at an earlier version, for a rewind to restore."""

_UNCHANGED = (GameCreated, SeedRevealed, *NOTES)
"""The core's kinds that leave the game state as it is."""

_REWIND, _JOINED, _ADJUSTED, _SAME, _GAMES = range(5)
_HANDLED: dict[type, int] = {}
"""Each type of event folded -> which of `step`'s cases it is, worked out once per type by
the same `isinstance` tests: `step` runs for every event every reader folds, and the tests
in a row cost a game's own event (the most of them) a fifth of its fold."""


def _handled(kind: type) -> int:
    for case, kinds in ((_REWIND, REWINDS), (_JOINED, SeatJoined), (_ADJUSTED, AdjustmentMade), (_SAME, _UNCHANGED)):
        if issubclass(kind, kinds):
            _HANDLED[kind] = case
            return case
    _HANDLED[kind] = _GAMES
    return _GAMES


def step(decider: Decider[Any], state: Any, event: Event, earlier: Earlier | None = None) -> Any:
    """The game state after `event`. A rewind needs `earlier`; without it, it is refused.
    The core's kinds are handled here, so a game's `evolve` sees only its own."""
    case = _HANDLED.get(type(event))
    if case is None:
        case = _handled(type(event))
    if case == _GAMES:
        return decider.evolve(state, event)
    if case == _SAME:
        return state
    if case == _REWIND:
        if earlier is None:
            raise RecordError("rewind_needs_history", f"{event.kind} restores an earlier state; fold the record with History", None)
        return log.restored(earlier(event.to_version), state)  # type: ignore[attr-defined]
    if case == _JOINED:
        return log.joined(state, event.seat, event.name)  # type: ignore[attr-defined]
    return log.adjusted(decider, state, event.data)


class History:
    """A game folded record by record that remembers its state at every version, so a
    rewind, which restores an earlier version's state, needs nothing but the record.
    States are immutable and share what they do not change, so keeping them is cheap."""

    def __init__(self, created: dict[str, Any]) -> None:
        if created.get("kind") != log.GAME_CREATED:
            raise RecordError("no_game_created", "a game record starts with GameCreated", 1)
        # From the creation's data as stored: `log.decider_of` and `setup_of` take that mapping (the
        # projector and the aggregate build theirs by hand), and the rules start from the options as recorded.
        self.created = created["data"]
        self.decider = log.decider_of(self.created)
        self._catalogue = self.decider.catalogue
        self._states = [None, self.decider.initial_state(log.setup_of(self.created))]

    @property
    def version(self) -> int:
        return len(self._states) - 1

    @property
    def state(self) -> Any:
        return self._states[-1]

    def at(self, version: int) -> Any:
        if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= self.version:
            raise RecordError("bad_version", f"there is no version {version!r} before version {self.version + 1}", self.version + 1)
        return self._states[version]

    def add(self, record: dict[str, Any]) -> Any:
        """Fold the next record; returns the state after it."""
        states = self._states  # runs for every event every reader folds: no properties
        if record.get("version") != len(states):
            raise RecordError("version_gap", f"expected version {len(states)}, found {record.get('version')}", len(states))
        state = step(self.decider, states[-1], to_event(record, self._catalogue), self.at)
        states.append(state)
        return state


@dataclass(frozen=True)
class Replay:
    """A game folded from its full record."""

    decider: Decider[Any]
    created: dict[str, Any]
    state: Any
    version: int


def replay(records: Iterable[dict[str, Any]], upto: int | None = None) -> Replay:
    """Fold full records (optionally only the first `upto` events) into a state. A record
    with no rewind is folded through a transient (`state.transient`): no state along the way
    is handed out, so none is copied per event; the one handed out at the end is immutable.
    A rewind needs the states along the way, which `History` keeps."""
    listed = list(records)
    if not listed:
        raise RecordError("no_game_created", "a game record starts with GameCreated", 1)
    replayed = _replay_transient(listed, upto)
    if replayed is not None:
        return replayed
    history = History(listed[0])
    for record in listed[1:]:
        if upto is not None and record["version"] > upto:
            break
        history.add(record)
    return Replay(history.decider, history.created, history.state, history.version)


def _replay_transient(records: list[dict[str, Any]], upto: int | None) -> Replay | None:
    """The replay through a transient, or None when a rewind is met on the way (folded
    again by `History` from the start: a rewind is rare, a look at every record first
    was not free)."""
    created = records[0]
    if created.get("kind") != log.GAME_CREATED:
        raise RecordError("no_game_created", "a game record starts with GameCreated", 1)
    # The creation's data as stored, as `History` reads it: the rules start from the options as recorded.
    decider = log.decider_of(created["data"])
    catalogue = decider.catalogue
    state = decider.initial_state(log.setup_of(created["data"]))
    version = 1
    rewinds = log.REWIND_KINDS
    with transient():
        for record in records[1:]:
            if upto is not None and record["version"] > upto:
                break
            if record.get("version") != version + 1:
                raise RecordError("version_gap", f"expected version {version + 1}, found {record.get('version')}", version + 1)
            if record.get("kind") in rewinds:
                return None
            state = step(decider, state, to_event(record, catalogue))
            version += 1
    return Replay(decider, created["data"], state, version)
