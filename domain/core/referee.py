"""Referee tools and takebacks as first-class events, judged by pure rules.

History is append-only: nothing here removes or rewrites an event.

- **Rewind** (`GameRewound`, by a referee): the state after it equals the state at
  `to_version`, and play continues from there. The random stream is *not* rewound: draws
  after a rewind continue the generator where it stood, so a rewind never replays cards
  or dice the players have already seen. Because of that, and because a revealed seed
  would make every later draw predictable, a game whose seed is revealed cannot be
  rewound; fork it instead.
- **Takeback**: a seat asks to take back its own last move (`TakebackRequested`); every
  other seat accepts (`TakebackAccepted`) or one refuses (`TakebackRefused`); a referee
  may answer for all. When accepted, `MoveTakenBack` (automatic) rewinds to just before
  the move. Never across a random draw or a reveal: a move whose events drew, dealt or
  showed anything hidden can only be undone by a referee's rewind.
- **Disputes, rulings, adjustments**: `DisputeRaised` names the event in question, who
  raised it and the claim; `RulingMade` closes it with a text and an outcome;
  `AdjustmentMade` changes the game through the game's own `adjust` (VP, cash, income,
  a piece put back), always with a reason, optionally citing the dispute.
- **Joining**: a seat left open at creation is taken by whoever holds its invite
  (`SeatJoined {seat, name}`, by that seat); the seat's name is the joined one from there
  on. A seat joins once.
- **Seats taken over by bots, move deadlines**: `domain/core/takeover.py`, judged here
  like the rest.
- **Fork**: a new game whose first N records are copies of another game's (re-sealed
  under the new id) followed by `ForkedFrom`, which names the origin and the hash of
  its event N and commits to the fork's own new seed.

Every action is judged by `judge(situation, actor, action)`, which returns the events
to record or raises a `RuleError`; the service records them and the auditor re-judges
each recorded action with `action_of`, exactly as moves go through `log.play`.

Optional game hooks it uses, declared with their defaults on `Decider`:
- `adjust(state, adjustment) -> state`: apply `{seat, kind, amount, detail}` or raise
  `MalformedMove`/`IllegalMove`; by default every adjustment is refused.
- `reveals(event) -> bool`: whether a public event showed something hidden (a card
  turned up from the deck). Events with secrets or random outcomes always count.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast, get_args

from domain.core import log, takeover
from domain.core.decider import Decider
from domain.core.envelope import actor_seat, group_by_command, record_hash, to_event
from domain.core.errors import IllegalMove, MalformedMove
from domain.core.events import Event
from domain.core.judging import Situation, is_int, require_referee, seat_count, seat_in, text_field
from domain.core.judging import referee_actor as referee_actor  # the referee's names, asked of this module
from domain.core.judging import referee_of as referee_of
from domain.core.kinds import (
    CORE,
    Adjusted,
    AdjustmentMade,
    DisputeRaised,
    ForkedFrom,
    GameRewound,
    MoveTakenBack,
    Outcome,
    RulingMade,
    SeatJoined,
    TakebackAccepted,
    TakebackRefused,
    TakebackRequested,
)
from domain.core.randomness import outcomes_in

OUTCOMES = get_args(Outcome)
ADJUSTMENT_KINDS = get_args(Adjusted)
MAX_REASON = 500
MAX_TEXT = 5000


# -- actions ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rewind:
    to_version: int
    reason: str
    dispute: int | None = None


@dataclass(frozen=True)
class RequestTakeback:
    seat: int


@dataclass(frozen=True)
class AnswerTakeback:
    accept: bool
    reason: str = ""


@dataclass(frozen=True)
class RaiseDispute:
    version: int
    raised_by: str
    claim: str


@dataclass(frozen=True)
class MakeRuling:
    dispute: int
    text: str
    outcome: str


@dataclass(frozen=True)
class Adjust:
    seat: int
    kind: str
    amount: int
    reason: str
    detail: dict[str, Any] = field(default_factory=dict)
    dispute: int | None = None


@dataclass(frozen=True)
class MarkFork:
    origin: str
    at_version: int
    origin_hash: str
    seed_commitment: str
    seed_source: str
    reason: str


@dataclass(frozen=True)
class JoinSeat:
    seat: int
    name: str


Action = (Rewind | RequestTakeback | AnswerTakeback | RaiseDispute | MakeRuling | Adjust | MarkFork | JoinSeat
          | takeover.TakeOver | takeover.HandBack | takeover.SetDeadline | takeover.PassDeadline)


def judge(situation: Situation, actor: str, action: Action) -> list[Event]:
    """The events `action` by `actor` records, or a `RuleError` saying why not."""
    judges: dict[type, Callable[[Situation, str, Any], list[Event]]] = {
        Rewind: _rewind, RequestTakeback: _request_takeback, AnswerTakeback: _answer_takeback,
        RaiseDispute: _raise_dispute, MakeRuling: _make_ruling, Adjust: _adjust, MarkFork: _mark_fork,
        JoinSeat: _join_seat, takeover.TakeOver: takeover.take_over, takeover.HandBack: takeover.hand_back,
        takeover.SetDeadline: takeover.set_deadline, takeover.PassDeadline: takeover.pass_deadline,
    }
    return judges[type(action)](situation, actor, action)


# The kinds that start a recorded command of this module (a `MoveTakenBack` follows an acceptance).
_STARTS = frozenset({log.GAME_REWOUND, log.TAKEBACK_REQUESTED, log.TAKEBACK_ACCEPTED, log.TAKEBACK_REFUSED,
                     log.DISPUTE_RAISED, log.RULING_MADE, log.ADJUSTMENT_MADE, log.FORKED_FROM, log.SEAT_JOINED})


def action_of(record: Mapping[str, Any]) -> Action | None:
    """The action the first event of a recorded referee or takeback command records."""
    event = to_event(record, CORE) if record["kind"] in _STARTS else None
    if isinstance(event, GameRewound):
        return Rewind(event.to_version, event.reason, event.dispute)
    if isinstance(event, TakebackRequested):
        return RequestTakeback(event.seat)
    if isinstance(event, TakebackAccepted):
        return AnswerTakeback(True)
    if isinstance(event, TakebackRefused):
        return AnswerTakeback(False, event.reason)
    if isinstance(event, DisputeRaised):
        return RaiseDispute(event.version, event.raised_by, event.claim)
    if isinstance(event, RulingMade):
        return MakeRuling(event.dispute, event.text, event.outcome)
    if isinstance(event, AdjustmentMade):
        return Adjust(event.seat, event.adjusted, event.amount, event.reason, event.detail, event.dispute)
    if isinstance(event, ForkedFrom):
        return MarkFork(event.origin, event.at_version, event.origin_hash, event.seed_commitment, event.seed_source,
                        event.reason)
    if isinstance(event, SeatJoined):
        return JoinSeat(event.seat, event.name)
    return takeover.action_of(record)


# -- the judges ---------------------------------------------------------------------------

def _rewind(situation: Situation, actor: str, action: Rewind) -> list[Event]:
    referee = require_referee(actor)
    reason = text_field(action.reason, "reason", MAX_REASON)
    _check_not_revealed(situation, "rewound")
    to_version = _version(action.to_version, "to_version")
    if to_version >= situation.version:
        raise IllegalMove("bad_rewind", f"A rewind goes back: to_version must be below the current version {situation.version}.")
    _check_quiet(situation, to_version, "rewind")
    dispute = _cited_dispute(situation, action.dispute)
    return [GameRewound(to_version=to_version, reason=reason, referee=referee, dispute=dispute)]


def _request_takeback(situation: Situation, actor: str, action: RequestTakeback) -> list[Event]:
    seat = seat_in(situation, action.seat)
    if actor_seat(actor) != seat:
        raise IllegalMove("not_your_takeback", f"Only seat {seat} may ask to take back seat {seat}'s move.")
    _check_not_held(situation, seat)
    if situation.decider.is_over(situation.state):
        raise IllegalMove("game_over", "The game has ended; ask a referee instead.")
    if _pending_request(situation) is not None:
        raise IllegalMove("takeback_pending", "A takeback is already waiting for an answer.")
    groups = _groups(situation.records)
    move = _last_play_group(groups)
    if move is None or actor_seat(move[0]["actor"]) != seat or move[0]["kind"] in log.REFEREE_KINDS:
        raise IllegalMove("takeback_not_last_move", "Only your own last move can be taken back, and only before anyone else has moved.")
    if any(_draws_or_reveals(situation.decider, record) for record in move):
        raise IllegalMove("takeback_after_draw",
                          "That move drew or revealed something (a card, a die, a hidden choice); only a referee may rewind it.")
    first, last = move[0]["version"], move[-1]["version"]
    return [TakebackRequested(seat=seat, to_version=first - 1, move=(first, last))]


def _answer_takeback(situation: Situation, actor: str, action: AnswerTakeback) -> list[Event]:
    if not isinstance(action.accept, bool):
        raise MalformedMove("bad_field", "`accept` must be true or false.")
    request = _pending_request(situation)
    if request is None:
        raise IllegalMove("no_pending_takeback", "No takeback is waiting for an answer (a move since the request cancels it).")
    asked = to_event(request, CORE)
    assert isinstance(asked, TakebackRequested)  # what `_pending_request` finds
    seat = asked.seat
    by = actor_seat(actor)
    if by is None:
        require_referee(actor)
    elif by == seat:
        raise IllegalMove("own_takeback", "The seat that asked cannot answer its own takeback.")
    elif not 0 <= by < seat_count(situation):
        raise IllegalMove("bad_seat", f"There is no seat {by} in this game.")
    else:
        _check_not_held(situation, by)
    answered = _answers(situation, request)
    if by is not None and by in answered:
        raise IllegalMove("already_answered", f"Seat {by} has already answered this takeback.")
    if not action.accept:
        reason = text_field(action.reason, "reason", MAX_REASON, required=False)
        return [TakebackRefused(seat=seat, by=actor, reason=reason)]
    events: list[Event] = [TakebackAccepted(seat=seat, by=actor)]
    others = set(range(seat_count(situation))) - {seat}
    if by is None or others <= answered | {by}:
        events.append(MoveTakenBack(seat=seat, to_version=asked.to_version, automatic=True))
    return events


def _raise_dispute(situation: Situation, actor: str, action: RaiseDispute) -> list[Event]:
    referee = require_referee(actor)
    version = _version(action.version, "version")
    if version > situation.version:
        raise IllegalMove("bad_version", f"There is no event {version} yet; the game is at version {situation.version}.")
    raised_by = text_field(action.raised_by, "raised_by", 64)
    claim = text_field(action.claim, "claim", MAX_TEXT)
    return [DisputeRaised(version=version, raised_by=raised_by, claim=claim, referee=referee)]


def _make_ruling(situation: Situation, actor: str, action: MakeRuling) -> list[Event]:
    referee = require_referee(actor)
    dispute = cast(int, _open_dispute(situation, action.dispute, required=True))  # required: never None
    text = text_field(action.text, "text", MAX_TEXT)
    if action.outcome not in OUTCOMES:
        raise MalformedMove("bad_field", f"`outcome` must be one of {', '.join(OUTCOMES)}.")
    return [RulingMade(dispute=dispute, text=text, outcome=cast(Outcome, action.outcome), referee=referee)]


def _adjust(situation: Situation, actor: str, action: Adjust) -> list[Event]:
    referee = require_referee(actor)
    seat = seat_in(situation, action.seat)
    if action.kind not in ADJUSTMENT_KINDS:
        raise MalformedMove("bad_field", f"`kind` must be one of {', '.join(ADJUSTMENT_KINDS)}.")
    if not is_int(action.amount) or abs(action.amount) > 10**6:
        raise MalformedMove("bad_field", "`amount` must be a whole number (at most a million either way).")
    if action.kind != "piece" and action.amount == 0:
        raise MalformedMove("bad_field", "An adjustment of 0 changes nothing.")
    if not isinstance(action.detail, dict):
        raise MalformedMove("bad_field", "`detail` must be a JSON object.")
    reason = text_field(action.reason, "reason", MAX_REASON)
    dispute = _cited_dispute(situation, action.dispute)
    event = AdjustmentMade(seat=seat, adjusted=cast(Adjusted, action.kind), amount=action.amount,
                           detail=dict(action.detail), reason=reason, referee=referee, dispute=dispute)
    # The game judges whether it can apply this adjustment now; nothing is kept.
    log.adjusted(situation.decider, situation.state, event.data)
    return [event]


def _mark_fork(situation: Situation, actor: str, action: MarkFork) -> list[Event]:
    referee = require_referee(actor)
    reason = text_field(action.reason, "reason", MAX_REASON)
    if action.at_version != situation.version:
        raise IllegalMove("bad_fork", f"ForkedFrom follows the copied events: at_version must be {situation.version}.")
    _check_not_revealed(situation, "forked")
    _check_quiet(situation, action.at_version, "fork")
    for name in ("origin_hash", "seed_commitment"):
        value = getattr(action, name)
        if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{64}", value):
            raise MalformedMove("bad_field", f"`{name}` must be 64 lowercase hex digits.")
    return [ForkedFrom(origin=action.origin, at_version=action.at_version, origin_hash=action.origin_hash,
                       seed_commitment=action.seed_commitment, seed_source=action.seed_source, reason=reason, referee=referee)]


def _join_seat(situation: Situation, actor: str, action: JoinSeat) -> list[Event]:
    seat = seat_in(situation, action.seat)
    if actor_seat(actor) != seat:
        raise IllegalMove("not_your_seat", f"Only seat {seat} may join as seat {seat}.")
    name = text_field(action.name, "name", 64)
    if any(r["kind"] == log.SEAT_JOINED and isinstance(joined := to_event(r, CORE), SeatJoined) and joined.seat == seat
           for r in situation.records):
        raise IllegalMove("seat_taken", f"Seat {seat} has been joined already.")
    return [SeatJoined(seat=seat, name=name)]


# -- forks --------------------------------------------------------------------------------

def fork_records(origin: Sequence[dict[str, Any]], at_version: int, game_id: str) -> list[dict[str, Any]]:
    """The first `at_version` records of `origin`, re-sealed as game `game_id`: the same
    times, actors, commands, kinds, data and secrets (salts included, so every secret
    keeps its digest), chained anew because the game id is part of each hash."""
    if not is_int(at_version) or not 1 <= at_version <= len(origin):
        raise IllegalMove("bad_fork", f"at_version must be between 1 and {len(origin)}.")
    copies, prev = [], "0" * 64
    for record in origin[:at_version]:
        copy = {**record, "game_id": game_id, "prev_hash": prev}
        copy.pop("hash")
        copy["hash"] = record_hash(copy)
        copies.append(copy)
        prev = copy["hash"]
    return copies


def same_history(fork: Sequence[dict[str, Any]], origin: Sequence[dict[str, Any]]) -> int | None:
    """The first version where a fork's copied events differ from its origin's (None when
    they agree); everything but the game id and the chain must be equal."""
    record = last_fork(fork)
    mark = to_event(record, CORE) if record is not None else None
    if not isinstance(mark, ForkedFrom):
        return None
    at = mark.at_version
    if len(origin) < at:
        return len(origin) + 1
    ignored = ("game_id", "prev_hash", "hash")
    for mine, theirs in zip(fork[:at], origin[:at], strict=True):
        if {k: v for k, v in mine.items() if k not in ignored} != {k: v for k, v in theirs.items() if k not in ignored}:
            return int(mine["version"])
    return at + 1 if origin[at - 1]["hash"] != mark.origin_hash else None


def last_fork(records: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    marks = [r for r in records if r["kind"] == log.FORKED_FROM]
    return marks[-1] if marks else None


# -- reading the log ----------------------------------------------------------------------

def open_disputes(records: Sequence[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Disputes not yet ruled on, by the version of their `DisputeRaised`."""
    raised = {r["version"]: r for r in records if r["kind"] == log.DISPUTE_RAISED}
    for _, ruling in _rulings(records):
        raised.pop(ruling.dispute, None)
    return raised


def disputes(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every dispute with its status (`raised` or `ruled`), its ruling and the referee's
    actions that cite it."""
    out: dict[int, dict[str, Any]] = {}
    for record in records:
        event = to_event(record, CORE) if record["kind"] in _ABOUT_DISPUTES else None
        if isinstance(event, DisputeRaised):
            out[record["version"]] = {"dispute": record["version"], "status": "raised", "about_version": event.version,
                                      "raised_by": event.raised_by, "claim": event.claim, "referee": event.referee,
                                      "time": record["time"], "actions": [], "ruling": None}
        elif isinstance(event, RulingMade) and event.dispute in out:
            out[event.dispute].update(status="ruled", ruling={"version": record["version"], "text": event.text,
                                                              "outcome": event.outcome, "referee": event.referee})
        elif isinstance(event, (GameRewound, AdjustmentMade)) and event.dispute in out:
            out[event.dispute]["actions"].append({"version": record["version"], "kind": record["kind"]})
    return list(out.values())


_ABOUT_DISPUTES = frozenset({log.DISPUTE_RAISED, log.RULING_MADE, log.GAME_REWOUND, log.ADJUSTMENT_MADE})


def _rulings(records: Sequence[Mapping[str, Any]]) -> Iterator[tuple[int, RulingMade]]:
    """Each ruling in the record, with its version."""
    for record in records:
        if record["kind"] == log.RULING_MADE and isinstance(ruling := to_event(record, CORE), RulingMade):
            yield record["version"], ruling


def _groups(records: Sequence[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    return group_by_command(list(records))


def _quiet_versions(records: Sequence[dict[str, Any]]) -> tuple[int, set[int]]:
    """The end of the opening, and every version that ends a command: the only states a
    game ever waited in for a move."""
    groups = _groups(records)
    return groups[0][-1]["version"], {group[-1]["version"] for group in groups}


def _check_quiet(situation: Situation, version: int, what: str) -> None:
    opening, quiet = _quiet_versions(situation.records)
    if version < opening:
        raise IllegalMove(f"bad_{what}", f"A {what} cannot go before the end of the opening (version {opening}).")
    if version not in quiet:
        raise IllegalMove(f"bad_{what}",
                          f"Version {version} is in the middle of a command; a {what} goes to a version that ends one.")


def _check_not_revealed(situation: Situation, what: str) -> None:
    if any(r["kind"] == log.SEED_REVEALED for r in situation.records):
        raise IllegalMove("seed_revealed", f"The seed has been revealed, so new draws would be predictable: this game cannot be {what} "
                                           "past that point; fork it at an earlier version instead.")


def _last_play_group(groups: list[list[dict[str, Any]]]) -> list[dict[str, Any]] | None:
    """The last group that changed the game (a move, a rewind, an adjustment)."""
    for group in reversed(groups[1:]):
        kind = group[0]["kind"]
        if kind in _NOTES_AND_ASKS and not any(r["kind"] == log.MOVE_TAKEN_BACK for r in group):
            continue
        return group
    return None


# A refused or unanswered request, a partial acceptance and a dispute change nothing.
_NOTES_AND_ASKS = frozenset({log.DISPUTE_RAISED, log.RULING_MADE, log.TAKEBACK_REQUESTED, log.TAKEBACK_ACCEPTED, log.TAKEBACK_REFUSED,
                             log.SEAT_JOINED, takeover.TAKEN_OVER, takeover.HANDED_BACK, takeover.DEADLINE_SET})


def _pending_request(situation: Situation) -> dict[str, Any] | None:
    groups = _groups(situation.records)
    for index in range(len(groups) - 1, 0, -1):
        first = groups[index][0]
        if first["kind"] == log.TAKEBACK_REQUESTED:
            return first
        if first["kind"] in (log.DISPUTE_RAISED, log.RULING_MADE, log.SEAT_JOINED, takeover.TAKEN_OVER, takeover.HANDED_BACK,
                             takeover.DEADLINE_SET):
            continue
        if first["kind"] == log.TAKEBACK_ACCEPTED and not any(r["kind"] == log.MOVE_TAKEN_BACK for r in groups[index]):
            continue
        return None
    return None


def _answers(situation: Situation, request: dict[str, Any]) -> set[int]:
    after = [r for r in situation.records if r["version"] > request["version"] and r["kind"] == log.TAKEBACK_ACCEPTED]
    return {seat for r in after if (seat := actor_seat(r["actor"])) is not None}


def _draws_or_reveals(decider: Decider[Any], record: dict[str, Any]) -> bool:
    # The random outcomes as stored (FORMAT.md `random`), found alike in every kind, as the audit reads them.
    if record["secrets"] or any(True for _ in outcomes_in([record["data"]])):
        return True
    return decider.reveals(to_event(record, decider.catalogue))


def _check_not_held(situation: Situation, seat: int) -> None:
    """A seat a bot holds neither asks nor answers takebacks (its player must not race the
    bot); a referee answers for everyone."""
    bots = takeover.held(situation.records)
    if seat in bots:
        raise IllegalMove("seat_held_by_bot", f"Seat {seat} is played by the {bots[seat]} bot; a referee answers for it.")


def _open_dispute(situation: Situation, dispute: Any, required: bool = False) -> int | None:
    if dispute is None and not required:
        return None
    if not is_int(dispute):
        raise MalformedMove("bad_field", "`dispute` must be the version of a DisputeRaised event.")
    if dispute not in open_disputes(situation.records):
        ruled = _ruling_of(situation.records, dispute)
        if ruled is not None:
            version, ruling = ruled
            raise IllegalMove("dispute_ruled", f"The dispute raised at version {dispute} was ruled on at version {version} "
                                               f"({ruling.outcome}); it takes no second ruling.")
        raise IllegalMove("no_such_dispute", f"There is no open dispute raised at version {dispute}.")
    return int(dispute)


def _cited_dispute(situation: Situation, dispute: Any) -> int | None:
    """The dispute a rewind or an adjustment settles. A referee rules and then carries the
    ruling out, so an upheld dispute can still be cited after its ruling, as an open one
    can before; a dismissed or withdrawn one calls for no action."""
    if dispute is None or (is_int(dispute) and dispute in open_disputes(situation.records)):
        return _open_dispute(situation, dispute)
    ruled = _ruling_of(situation.records, dispute) if is_int(dispute) else None
    if ruled is None:
        return _open_dispute(situation, dispute)
    version, ruling = ruled
    if ruling.outcome != "upheld":
        raise IllegalMove("dispute_not_upheld", f"The dispute raised at version {dispute} was {ruling.outcome} "
                                                f"at version {version}; only an open or upheld dispute is settled by an action.")
    return int(dispute)


def _ruling_of(records: Sequence[dict[str, Any]], dispute: int) -> tuple[int, RulingMade] | None:
    """The ruling on the dispute raised at version `dispute`, with its version (None: not ruled on)."""
    raised = any(r["kind"] == log.DISPUTE_RAISED and r["version"] == dispute for r in records)
    rulings = [(version, ruling) for version, ruling in _rulings(records) if ruling.dispute == dispute]
    return rulings[0] if raised and rulings else None


def _version(value: Any, name: str) -> int:
    if not is_int(value) or value < 1:
        raise MalformedMove("bad_field", f"`{name}` must be a version number (1 or more).")
    return int(value)
