"""The transparency log (issue: an operator-proof log): one Merkle tree over every stored
event, signed checkpoints, proofs and witnesses. See `docs/transparency.md`."""

from __future__ import annotations

import base64
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from sqlalchemy import Engine

from service.settings import Settings
from service.tlog.log import TransparencyLog, wait_for
from service.tlog.notes import Signer, Verifier, load_or_make


def key_path(settings: Settings) -> Path | None:
    """Where the log's key is kept (None: a `memory` store's key lives with its process)."""
    if settings.log_key:
        return Path(settings.log_key)
    if settings.db == "memory":
        return None
    url = urlparse(settings.db)
    if url.scheme == "sqlite":
        path = unquote(url.path[1:] if url.path.startswith("/") else url.path)
        return None if path in ("", ":memory:") else Path(path + ".log-key")
    return Path(f"caboose-log-{settings.schema}.key" if settings.schema else "caboose-log.key")


def open_log(settings: Settings, engine: Engine) -> TransparencyLog:
    name = settings.log_origin or f"caboose.log/{secrets.token_hex(6)}"
    path = key_path(settings)
    signer = Signer.generate(name) if path is None else load_or_make(path, name)
    return TransparencyLog(engine, signer, [Verifier.parse(k) for k in settings.witness_keys])


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
