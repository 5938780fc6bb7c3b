"""What a forger who can rewrite a record (or the store) does: edit it, then recompute every
version, `prev_hash` and `hash` so the chain verifies again. The tamper tests use these to
show that the chain is not what catches them: the seed, its reveal and the rules do.

The forged games are Ticket to Ride games played to the end in memory."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.core import fold, log
from domain.core.envelope import GENESIS_HASH, group_by_command, record_hash
from service.aggregate import Game
from service.application import Caboose
from service.settings import Settings
from service.simulation import play_one

Record = dict[str, Any]
SEED = bytes(range(32))


def reseal(records: list[Record]) -> list[Record]:
    """Number the events 1.. again, link each to the one before and recompute its hash."""
    prev, out = GENESIS_HASH, []
    for version, record in enumerate(records, start=1):
        record = {**record, "version": version, "prev_hash": prev}
        record["hash"] = prev = record_hash(record)
        out.append(record)
    return out


@dataclass(frozen=True)
class Honest:
    records: list[Record]
    seed: bytes


def finished_ticket_to_ride() -> Honest:
    """A finished two-seat game, its full record and its seed."""
    app = Caboose(Settings(db="memory"))
    play_one(app, "ticket_to_ride", 2, SEED, random.Random(1), check=False)
    return Honest(app.records(app.game_ids()[0]), SEED)


def swap_undrawn_tickets(records: list[Record]) -> list[Record]:
    """Swap two tickets of the opening ticket shuffle that nobody ever drew: every move
    still re-adjudicates, so only the seed can tell the shuffle was not the generator's."""
    forged = copy.deepcopy(records)
    shuffle = next(r for r in forged if r["kind"] == "TicketsShuffled")
    order = shuffle["secrets"][0]["value"]["random"]["shuffle"]
    rest = json.dumps([r for r in forged if r is not shuffle])
    first, second = [i for i, ticket in enumerate(order) if json.dumps(ticket) not in rest][:2]
    order[first], order[second] = order[second], order[first]
    return reseal(forged)


def drop_reveal(records: list[Record]) -> list[Record]:
    return reseal([r for r in records if r["kind"] != log.SEED_REVEALED])


def change_revealed_seed(records: list[Record]) -> list[Record]:
    forged = copy.deepcopy(records)
    next(r for r in forged if r["kind"] == log.SEED_REVEALED)["data"]["seed"] = "11" * 32
    return reseal(forged)


def drop_commitment_and_reveal(records: list[Record]) -> list[Record]:
    """Pretend the game never committed to a seed, so there is nothing to reveal."""
    created = records[0]
    return drop_reveal([{**created, "data": {**created["data"], "seed_commitment": None}}, *records[1:]])


def drop_middle_event(records: list[Record]) -> list[Record]:
    """Remove one event from the middle of the game (a card drawn, a route claimed)."""
    middle = len(records) // 2
    return reseal(records[:middle] + records[middle + 1:])


def truncate(records: list[Record]) -> list[Record]:
    """Cut the record after the command group nearest its middle: an unfinished game."""
    kept: list[Record] = []
    for group in group_by_command(records):
        if len(kept) + len(group) > len(records) // 2:
            break
        kept += group
    return kept


FORGERIES: dict[str, Callable[[list[Record]], list[Record]]] = {
    "swapped shuffle, reveal kept": swap_undrawn_tickets,
    "swapped shuffle, reveal dropped": lambda records: drop_reveal(swap_undrawn_tickets(records)),
    "changed seed in the reveal": change_revealed_seed,
    "commitment and reveal dropped": drop_commitment_and_reveal,
    "a middle event dropped": drop_middle_event,
}
"""Forgeries every verifier must refuse, by name."""


def store_unchecked(app: Caboose, records: list[Record], seed: bytes | None) -> str:
    """Write records into the store as they are, without the import's audit, as someone
    with write access to the database could; `seed` is the seed the service then holds."""
    aggregate = Game(record=records[0], seed=seed.hex() if seed else None)
    aggregate.restore_all(records[1:], fold.History(records[0]))
    app._save(aggregate)
    return str(records[0]["game_id"])


def write_jsonl(path: Path, records: list[Record]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return path
