"""Check a Caboose transparency log from outside, with the standard library and `cryptography`
alone, written from RFC 9162 and the C2SP signed-note, tlog-checkpoint and tlog-cosignature
specifications (docs/transparency.md).

    python3 verify_log.py checkpoint URL --log-key VKEY [--witness-key VKEY ...]
    python3 verify_log.py inclusion URL --log-key VKEY --game ID --version N [--checkpoint FILE]
    python3 verify_log.py consistency URL --log-key VKEY --since OLD_CHECKPOINT_OR_EXPORT

`checkpoint` fetches the published checkpoint and checks the log's signature (and each
witness's cosignature asked for); `inclusion` fetches one event of a game as the public
sees it, computes its leaf, and checks its audit path to the checkpoint's root (the log's
published one, or one kept before: `--checkpoint`);
`consistency` checks that the log's checkpoint now extends one kept from before (a checkpoint
file, or an export, whose proof line carries one). Exits 1
with what failed; the functions are usable on their own.
"""
import argparse
import base64
import hashlib
import json
import struct
import sys
import urllib.request
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


class VerifyError(Exception):
    pass


def sha256(data):
    return hashlib.sha256(data).digest()


def leaf_hash(data):
    return sha256(b"\x00" + data)


def node_hash(left, right):
    return sha256(b"\x01" + left + right)


def verify_inclusion(index, size, leaf, path, root):
    """RFC 9162, 2.1.3.2."""
    if index >= size:
        raise VerifyError(f"leaf {index} is beyond a tree of {size}")
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            raise VerifyError("audit path too long")
        if fn % 2 == 1 or fn == sn:
            r = node_hash(p, r)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn // 2, sn // 2
        else:
            r = node_hash(r, p)
        fn, sn = fn // 2, sn // 2
    if sn != 0 or r != root:
        raise VerifyError("the audit path does not lead to the root")


def verify_consistency(first, second, path, first_root, second_root):
    """RFC 9162, 2.1.4.2."""
    if first == second:
        if path or first_root != second_root:
            raise VerifyError("equal sizes need an empty proof and equal roots")
        return
    if not 0 < first < second or not path:
        raise VerifyError("no consistency proof for these sizes")
    path = list(path)
    if first & (first - 1) == 0:
        path = [first_root, *path]
    fn, sn = first - 1, second - 1
    while fn % 2 == 1:
        fn, sn = fn // 2, sn // 2
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise VerifyError("consistency proof too long")
        if fn % 2 == 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn // 2, sn // 2
        else:
            sr = node_hash(sr, c)
        fn, sn = fn // 2, sn // 2
    if sn != 0 or fr != first_root or sr != second_root:
        raise VerifyError(f"the tree of {second} does not extend the tree of {first}")


def parse_key(vkey):
    """(name, key id, type, public key) of a signed-note verifier key."""
    name, key_id, blob = vkey.strip().split("+", 2)
    raw = base64.b64decode(blob)
    if sha256(name.encode() + b"\n" + raw)[:4] != bytes.fromhex(key_id):
        raise VerifyError(f"the key id of {name} does not match its key")
    return name, bytes.fromhex(key_id), raw[0], raw[1:]


def signed(note, vkey, kind):
    """(the note's text, the signature's bytes after the key id) of `vkey`'s signature of
    type `kind` on the note; its signature checked by the caller, who knows what it signs."""
    name, key_id, key_kind, _ = parse_key(vkey)
    text, _, signatures = note.rpartition("\n\n")
    for line in signatures.splitlines():
        _, signer, blob = line.split(" ")
        raw = base64.b64decode(blob)
        if signer == name and raw[:4] == key_id and key_kind == kind:
            return text + "\n", raw[4:]
    raise VerifyError(f"no {'cosignature' if kind == 4 else 'signature'} of {name} on the note")


def check(vkey, signature, message):
    try:
        Ed25519PublicKey.from_public_bytes(parse_key(vkey)[3]).verify(signature, message)
    except InvalidSignature:
        raise VerifyError(f"the signature of {parse_key(vkey)[0]} does not verify") from None


def open_note(note, vkey):
    """The text of a signed note, once the signature of `vkey` (type 0x01) on it verifies."""
    text, signature = signed(note, vkey, 1)
    check(vkey, signature, text.encode())
    return text


def cosigned_at(note, vkey):
    """The time a witness (`vkey`, type 0x04) cosigned the note's checkpoint."""
    text, signature = signed(note, vkey, 4)
    if len(signature) != 72:
        raise VerifyError("a cosignature is a timestamp and an Ed25519 signature")
    (when,) = struct.unpack(">Q", signature[:8])
    check(vkey, signature[8:], f"cosignature/v1\ntime {when}\n{text}".encode())
    return when


def parse_checkpoint(text):
    origin, size, root = text.split("\n")[:3]
    return origin, int(size), base64.b64decode(root)


def get(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode()


def checkpoint(base, log_key, witness_keys=()):
    note = get(base + "/api/v1/log/checkpoint")
    origin, size, root = parse_checkpoint(open_note(note, log_key))
    if origin != parse_key(log_key)[0]:
        raise VerifyError(f"the checkpoint is of {origin}, not of the log key's {parse_key(log_key)[0]}")
    for witness in witness_keys:
        cosigned_at(note, witness)
    return note, size, root


def inclusion(base, log_key, game, version, kept=None):
    """Check one event against the log's checkpoint, or against `kept`: a checkpoint note
    saved before (by a witness, or from an earlier export)."""
    if kept is None:
        _, size, root = checkpoint(base, log_key)
    else:
        _, size, root = parse_checkpoint(open_note(kept, log_key))
    event = json.loads(get(f"{base}/api/v1/games/{game}/events?after={version - 1}&limit=1"))["events"][0]
    if event["version"] != version:
        raise VerifyError(f"the server sent event {event['version']}, not {version}")
    proof = json.loads(get(f"{base}/api/v1/log/proof/inclusion?game={game}&version={version}&size={size}"))
    verify_inclusion(proof["leaf_index"], size, leaf_hash(bytes.fromhex(event["hash"])),
                     [base64.b64decode(h) for h in proof["hashes"]], root)
    return proof["leaf_index"], size


def consistency(base, log_key, old_note):
    _, old_size, old_root = parse_checkpoint(open_note(old_note, log_key))
    _, size, root = checkpoint(base, log_key)
    proof = json.loads(get(f"{base}/api/v1/log/proof/consistency?from={old_size}&to={size}"))
    verify_consistency(old_size, size, [base64.b64decode(h) for h in proof["hashes"]], old_root, root)
    return old_size, size


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["checkpoint", "inclusion", "consistency"])
    parser.add_argument("url")
    parser.add_argument("--log-key", required=True)
    parser.add_argument("--witness-key", action="append", default=[])
    parser.add_argument("--game")
    parser.add_argument("--version", type=int)
    parser.add_argument("--since")
    parser.add_argument("--checkpoint")
    args = parser.parse_args(argv)
    base = args.url.rstrip("/")
    try:
        if args.what == "checkpoint":
            _, size, root = checkpoint(base, args.log_key, args.witness_key)
            print(f"OK: checkpoint of {size} leaves, root {base64.b64encode(root).decode()}, signed"
                  + (f" and cosigned by {len(args.witness_key)} witness(es)" if args.witness_key else ""))
        elif args.what == "inclusion":
            kept = Path(args.checkpoint).read_text(encoding="utf-8") if args.checkpoint else None
            index, size = inclusion(base, args.log_key, args.game, args.version, kept)
            print(f"OK: event {args.version} of {args.game} is leaf {index} of the signed tree of {size} leaves")
        else:
            kept = Path(args.since).read_text(encoding="utf-8")
            if '"log_proof"' in kept:  # an export: the checkpoint its proof line carries
                kept = json.loads(kept.strip().splitlines()[-1])["log_proof"]["checkpoint"]
            old, new = consistency(base, args.log_key, kept)
            print(f"OK: the signed tree of {new} leaves extends the tree of {old} leaves")
    except (VerifyError, ValueError, KeyError, IndexError, OSError) as error:
        sys.exit(f"FAILED: {type(error).__name__}: {error}")


if __name__ == "__main__":
    main(sys.argv[1:])
