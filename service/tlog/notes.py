"""Signed notes (C2SP `signed-note`), checkpoints (C2SP `tlog-checkpoint`) and witness
cosignatures (C2SP `tlog-cosignature`, the timestamped Ed25519 kind), with Ed25519 from the
kept `cryptography` package.

A checkpoint's text is three lines, `origin`, the tree's size in decimal and its root in
base64, each ending in a newline; the note adds a blank line and one signature line per
key: `— NAME base64(key id || signature)`. A key id is the first four bytes of
SHA-256(name ‖ "\\n" ‖ type ‖ public key), type 0x01 for the log's Ed25519 key and 0x04
for a witness's timestamped cosignature, whose signed message is `cosignature/v1`,
`time T` and the checkpoint's text, and whose signature is T (8 bytes, big-endian) then
the Ed25519 signature.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
import struct
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

ED25519 = 0x01
COSIGNATURE = 0x04
DASH = "\u2014"
_NAME = re.compile(r"[^\s+]+")


class NoteError(ValueError):
    """A note, key or checkpoint that is malformed or does not verify; says which."""


def key_id(name: str, kind: int, public: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + bytes([kind]) + public).digest()[:4]


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _unb64(text: str, what: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise NoteError(f"{what} is not base64") from None


@dataclass(frozen=True)
class Verifier:
    """A public key as the signed-note verifier key format writes it: NAME+ID+base64(type ‖ key)."""

    name: str
    kind: int
    public: bytes

    @property
    def id(self) -> bytes:
        return key_id(self.name, self.kind, self.public)

    def __str__(self) -> str:
        return f"{self.name}+{self.id.hex()}+{_b64(bytes([self.kind]) + self.public)}"

    @classmethod
    def parse(cls, text: str) -> Verifier:
        parts = text.strip().split("+", 2)  # base64 may hold '+'
        if len(parts) != 3 or not _NAME.fullmatch(parts[0]) or not re.fullmatch(r"[0-9a-f]{8}", parts[1]):
            raise NoteError("a verifier key is NAME+8 hex digits+base64 key, as `caboose log key` prints it")
        raw = _unb64(parts[2], "the verifier key's key")
        if len(raw) != 33 or raw[0] not in (ED25519, COSIGNATURE):
            raise NoteError("the verifier key is not an Ed25519 key (type 0x01) or cosignature key (type 0x04)")
        verifier = cls(parts[0], raw[0], raw[1:])
        if verifier.id.hex() != parts[1]:
            raise NoteError("the verifier key's id does not match its name and key")
        return verifier

    def verifies(self, message: bytes, signature: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.public).verify(signature, message)
        except (InvalidSignature, ValueError):
            return False
        return True


@dataclass(frozen=True)
class Signer:
    """A private Ed25519 key with its name: the log's (type 0x01) or a witness's (0x04)."""

    name: str
    key: Ed25519PrivateKey
    kind: int = ED25519

    @property
    def verifier(self) -> Verifier:
        return Verifier(self.name, self.kind, self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))

    def private_text(self) -> str:
        """The signer key format: PRIVATE+KEY+NAME+ID+base64(type ‖ 32-byte seed)."""
        seed = self.key.private_bytes_raw()
        return f"PRIVATE+KEY+{self.name}+{self.verifier.id.hex()}+{_b64(bytes([self.kind]) + seed)}"

    @classmethod
    def parse(cls, text: str) -> Signer:
        parts = text.strip().split("+", 4)
        if len(parts) != 5 or parts[:2] != ["PRIVATE", "KEY"] or not _NAME.fullmatch(parts[2]):
            raise NoteError("a signer key is PRIVATE+KEY+NAME+ID+base64 key")
        raw = _unb64(parts[4], "the signer key")
        if len(raw) != 33 or raw[0] not in (ED25519, COSIGNATURE):
            raise NoteError("the signer key is not an Ed25519 key")
        signer = cls(parts[2], Ed25519PrivateKey.from_private_bytes(raw[1:]), raw[0])
        if signer.verifier.id.hex() != parts[3]:
            raise NoteError("the signer key's id does not match its name and key")
        return signer

    @classmethod
    def generate(cls, name: str, kind: int = ED25519) -> Signer:
        if not _NAME.fullmatch(name):
            raise NoteError(f"a key name has no spaces and no '+': {name!r}")
        return cls(name, Ed25519PrivateKey.generate(), kind)

    def signature_line(self, text: str) -> str:
        """The note's signature line for `text` (type 0x01 keys)."""
        return f"{DASH} {self.name} {_b64(self.verifier.id + self.key.sign(text.encode()))}\n"

    def cosignature_line(self, text: str, timestamp: int) -> str:
        """A witness's timestamped cosignature line of the checkpoint `text` (type 0x04)."""
        stamp = struct.pack(">Q", timestamp)
        signature = self.key.sign(cosigned_message(text, timestamp))
        return f"{DASH} {self.name} {_b64(self.verifier.id + stamp + signature)}\n"


def cosigned_message(text: str, timestamp: int) -> bytes:
    return f"cosignature/v1\ntime {timestamp}\n{text}".encode()


def load_or_make(path: Path, name: str, kind: int = ED25519) -> Signer:
    """The signer kept at `path` (the log's, or a witness's), made there on first start
    (readable by its owner alone; several processes starting at once make one key: the
    first to create the file)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as f:
                f.write(Signer.generate(name, kind).private_text() + "\n")
    try:
        return Signer.parse(path.read_text())
    except NoteError as error:
        raise NoteError(f"the log key in {path} is unreadable: {error}") from None


@dataclass(frozen=True)
class Note:
    text: str
    signatures: tuple[tuple[str, bytes], ...]
    """(key name, base64-decoded signature) per line."""
    lines: tuple[str, ...] = ()
    """The signature lines as written, each with its newline."""

    def line_of(self, name: str) -> str | None:
        return next((line for (n, _), line in zip(self.signatures, self.lines, strict=True) if n == name), None)

    @classmethod
    def parse(cls, note: str) -> Note:
        if any(c < " " and c != "\n" for c in note):
            raise NoteError("a signed note holds no control characters but newlines")
        text, sep, lines = note.rpartition("\n\n")
        if not sep or not note.endswith("\n"):
            raise NoteError("a signed note is its text, a blank line and signature lines, each ending in a newline")
        signatures, written = [], []
        for line in lines[:-1].split("\n"):
            match = re.fullmatch(rf"{DASH} ([^\s+]+) (\S+)", line)
            if not match:
                raise NoteError(f"not a signature line: {line[:80]!r}")
            raw = _unb64(match[2], "a signature")
            if len(raw) < 5:
                raise NoteError("a signature is a key id and the signature")
            signatures.append((match[1], raw))
            written.append(line + "\n")
        return cls(text + "\n", tuple(signatures), tuple(written))

    def signed_by(self, verifier: Verifier) -> bool:
        """Whether a signature of `verifier` (the log's key) is on the note and verifies;
        a signature of the key that fails makes the whole note refused."""
        found = False
        for name, raw in self.signatures:
            if name == verifier.name and raw[:4] == verifier.id and verifier.kind == ED25519:
                if not verifier.verifies(self.text.encode(), raw[4:]):
                    raise NoteError(f"the signature of {verifier.name} does not verify")
                found = True
        return found

    def cosigned_by(self, verifier: Verifier) -> int | None:
        """The time of `verifier`'s (a witness's) cosignature on the note, or None."""
        for name, raw in self.signatures:
            if name == verifier.name and raw[:4] == verifier.id and verifier.kind == COSIGNATURE and len(raw) == 76:
                (timestamp,) = struct.unpack(">Q", raw[4:12])
                if not verifier.verifies(cosigned_message(self.text, timestamp), raw[12:]):
                    raise NoteError(f"the cosignature of {verifier.name} does not verify")
                return timestamp
        return None


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes

    @property
    def text(self) -> str:
        return f"{self.origin}\n{self.size}\n{_b64(self.root)}\n"

    @classmethod
    def parse(cls, text: str) -> Checkpoint:
        lines = text.split("\n")
        if len(lines) < 4 or lines[-1] != "" or not lines[0] or not re.fullmatch(r"0|[1-9][0-9]{0,19}", lines[1]):
            raise NoteError("a checkpoint's text is its origin, its size in decimal and its root in base64, a line each")
        root = _unb64(lines[2], "the checkpoint's root")
        if len(root) != 32:
            raise NoteError("a checkpoint's root is 32 bytes")
        return cls(lines[0], int(lines[1]), root)


def open_checkpoint(note: str, log_key: Verifier) -> tuple[Checkpoint, Note]:
    """The checkpoint a signed note holds, once the log's signature on it verifies."""
    parsed = Note.parse(note)
    if not parsed.signed_by(log_key):
        raise NoteError(f"the checkpoint carries no signature of the log key {log_key.name}")
    checkpoint = Checkpoint.parse(parsed.text)
    if checkpoint.origin != log_key.name:
        raise NoteError(f"the checkpoint's origin {checkpoint.origin!r} is not the log key's name {log_key.name!r}")
    return checkpoint, parsed
