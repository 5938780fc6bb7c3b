"""A witness of a Caboose log (`caboose witness URL --state DIR`): it remembers the last
checkpoint it accepted, accepts a newer one only with a consistency proof that the new
tree extends it, cosigns what it accepts (C2SP tlog-cosignature) and hands the
cosignature to the log; on a fork, a smaller tree or a tree that does not extend the last
it refuses, keeps what it saw as evidence, and says so.

The witness's state is a folder: `witness.key` (its own key, made on first run),
`log.vkey` (the log's verifier key: given with `--log-key`, else trusted on first use)
and `checkpoint` (the last checkpoint accepted, as the log signed it).
"""

from __future__ import annotations

import base64
import json
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from domain.core import merkle
from service.tlog.notes import COSIGNATURE, Checkpoint, Note, NoteError, Signer, Verifier, load_or_make, open_checkpoint

TIMEOUT = 10.0


class WitnessAlarm(Exception):
    """The log showed a view that contradicts one the witness accepted: a rewrite or a fork."""


class Unreachable(Exception):
    """The log could not be asked (the network, the server); nothing was decided."""


@dataclass(frozen=True)
class Accepted:
    checkpoint: Checkpoint
    previous: Checkpoint | None
    handed_in: str
    """What the log said of the cosignature: the witnesses it kept, or why it did not."""


def own_key(state: Path, name: str | None = None) -> Signer:
    """The witness's key, made in its folder on first use."""
    return load_or_make(state / "witness.key", name or f"caboose.witness/{secrets.token_hex(6)}", COSIGNATURE)


class Witness:
    def __init__(self, base_url: str, state: Path, log_key: str | None = None, name: str | None = None) -> None:
        self.base = base_url.rstrip("/")
        self.state = state
        self.signer = own_key(state, name)
        self.log_key = self._trusted_key(log_key)

    @property
    def verifier(self) -> Verifier:
        return self.signer.verifier

    def round(self) -> Accepted:
        """Fetch the log's newest checkpoint and accept it, or raise `WitnessAlarm`."""
        note = self._get("/api/v1/log/checkpoint/latest")
        try:
            checkpoint, parsed = open_checkpoint(note, self.log_key)
        except NoteError as error:
            raise WitnessAlarm(f"the log's checkpoint does not verify: {error}\n{note}") from None
        last = self.last()
        if last is not None:
            self._check_extends(last, checkpoint, note)
        line = self.signer.cosignature_line(parsed.text, int(time.time()))
        cosigned = parsed.text + "\n" + "".join(parsed.lines) + line
        handed_in = self._hand_in(cosigned)
        self._keep("checkpoint", note)
        return Accepted(checkpoint, last, handed_in)

    def last(self) -> Checkpoint | None:
        path = self.state / "checkpoint"
        if not path.exists():
            return None
        return Checkpoint.parse(Note.parse(path.read_text()).text)

    def _check_extends(self, last: Checkpoint, new: Checkpoint, note: str) -> None:
        seen = f"accepted before:\n{last.text}now offered:\n{new.text}"
        if new.size < last.size:
            self._evidence(note)
            raise WitnessAlarm(f"the log offers a smaller tree than one it signed before (a rollback)\n{seen}")
        if new.size == last.size:
            if new.root != last.root:
                self._evidence(note)
                raise WitnessAlarm(f"the log signed two different trees of the same size (a fork)\n{seen}")
            return
        if last.size == 0:
            return  # every tree extends the empty one
        answer = json.loads(self._get(f"/api/v1/log/proof/consistency?from={last.size}&to={new.size}"))
        try:
            proof = [base64.b64decode(h, validate=True) for h in answer["hashes"]]
            merkle.verify_consistency(last.size, new.size, proof, last.root, new.root)
        except (merkle.ProofError, KeyError, TypeError, ValueError) as error:
            self._evidence(note)
            raise WitnessAlarm(f"the new tree does not extend the one accepted before ({error}): the log was "
                               f"rewritten\n{seen}") from None

    def _hand_in(self, cosigned: str) -> str:
        request = urllib.request.Request(self.base + "/api/v1/log/cosignatures", method="POST",
                                         data=json.dumps({"checkpoint": cosigned}).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return f"kept by the log for {json.loads(response.read())['witnesses']}"
        except urllib.error.HTTPError as error:
            detail = json.loads(error.read() or b"{}").get("detail", error.reason)
            return f"not kept by the log: {detail}"
        except (urllib.error.URLError, OSError) as error:
            return f"not handed in: {error}"

    def _trusted_key(self, given: str | None) -> Verifier:
        path = self.state / "log.vkey"
        if given is not None:
            key = Verifier.parse(given)
            if path.exists() and Verifier.parse(path.read_text()) != key:
                raise WitnessAlarm(f"this witness follows the log key {path.read_text().strip()}, not {given}")
        elif path.exists():
            key = Verifier.parse(path.read_text())
        else:
            key = Verifier.parse(self._get("/api/v1/log/key"))  # trusted on first use
        self._keep("log.vkey", f"{key}\n")
        return key

    def _get(self, path: str) -> str:
        try:
            with urllib.request.urlopen(self.base + path, timeout=TIMEOUT) as response:
                return str(response.read().decode())
        except urllib.error.HTTPError as error:
            raise Unreachable(f"GET {path}: {error.code} {error.reason}") from None
        except (urllib.error.URLError, OSError) as error:
            raise Unreachable(f"GET {path}: {error}") from None

    def _keep(self, name: str, text: str) -> None:
        self.state.mkdir(parents=True, exist_ok=True)
        partial = self.state / f".{name}.new"
        partial.write_text(text)
        partial.replace(self.state / name)

    def _evidence(self, note: str) -> None:
        self._keep(f"evidence-{int(time.time())}.txt", note)
