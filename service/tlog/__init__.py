"""The transparency log (issue: an operator-proof log): one Merkle tree over every stored
event, signed checkpoints, proofs and witnesses. See `docs/transparency.md`."""

from __future__ import annotations

import base64
import secrets
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, select, update

from service.settings import Settings
from service.tlog.log import TransparencyLog, wait_for
from service.tlog.notes import Signer, Verifier, load_or_make
from service.tlog.tables import HEAD


def open_log(settings: Settings, engine: Engine) -> TransparencyLog:
    """The log, signing with the key in the file CABOOSE_LOG_KEY names, else with the key
    kept in the database (either made on first start)."""
    name = settings.log_origin or f"caboose.log/{secrets.token_hex(6)}"
    signer = load_or_make(Path(settings.log_key), name) if settings.log_key else kept_signer(engine, name)
    return TransparencyLog(engine, signer, [Verifier.parse(k) for k in settings.witness_keys])


def kept_signer(engine: Engine, name: str) -> Signer:
    """The signer kept in the log's head row, made there by the first process to ask."""
    with engine.begin() as connection:
        connection.execute(update(HEAD).where(HEAD.c.id == 1, HEAD.c.signer.is_(None))
                           .values(signer=Signer.generate(name).private_text()))
        return Signer.parse(connection.execute(select(HEAD.c.signer).where(HEAD.c.id == 1)).scalar_one())


PROOF_KEY = "log_proof"
"""The key of an export's proof line (FORMAT.md, "The transparency log")."""


def proof_line(log: TransparencyLog, app: Any, game_id: str, version: int) -> dict[str, Any]:
    """The line an export ends with: a checkpoint covering event `version` of the game and
    that event's inclusion proof, sequenced first if the log has not reached it yet."""
    wait_for(log, app, game_id, version)
    log.checkpoint()
    signed = log.published(latest=True)
    found = log.inclusion(game_id, version, signed.checkpoint.size)
    return {PROOF_KEY: {"version": version, "leaf_index": found.leaf_index, "tree_size": found.tree_size,
                        "hashes": [base64.b64encode(h).decode() for h in found.hashes],
                        "checkpoint": signed.note, "log_key": str(log.verifier)}}


def is_proof_line(line: Any) -> bool:
    return isinstance(line, dict) and PROOF_KEY in line and "version" not in line
