"""Verify a Caboose game record (FORMAT.md) with the standard library alone: python3 verify_record.py GAME.jsonl [--log-key VKEY]
Says what it checked and what it could not; exits 1 when the record does not verify. The log proof an export ends with is
checked too: its inclusion proof (RFC 9162) always, its checkpoint's signature where the `cryptography` package is installed,
against the log key given (`caboose log key`, or a witness's), else against the key the record names."""
import base64
import hashlib
import hmac
import json
import sys

canon = lambda x: json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
fail, ok = lambda why: sys.exit(f"FAILED: {why}"), lambda what: sys.exit(print(f"OK: {what}"))
sha, is_proof = lambda b: hashlib.sha256(b).digest(), lambda line: isinstance(line, dict) and "log_proof" in line and "version" not in line
try:
    lines, prev = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8") if line.strip()], "0" * 64
    events, proofs = [e for e in lines if not is_proof(e)], [p["log_proof"] for p in lines if is_proof(p)]
    for n, e in enumerate(events, 1):
        secrets = [{"to": s["to"], "digest": s.get("digest") or hashlib.sha256(bytes.fromhex(s["salt"]) + canon(s["value"])).hexdigest()} for s in e["secrets"]]
        body = {**{k: v for k, v in e.items() if k != "hash"}, "secrets": secrets}
        if not (e["version"] == n and e["prev_hash"] == prev and hashlib.sha256(canon(body)).hexdigest() == e["hash"]): fail(f"bad event {n}: its version, link or hash does not match")
        prev = e["hash"]
    assert events and events[0]["kind"] == "GameCreated", "the record is empty or does not start with GameCreated"
except (ValueError, KeyError, TypeError, AttributeError, AssertionError) as error:
    fail(f"not a game record: {type(error).__name__}: {error}")
checked = f"chain OK for {len(events)} events (the rules are not checked here: `caboose audit` re-adjudicates)"
def logged(p, pinned):  # the export's log proof: the event's leaf, its audit path (RFC 9162 2.1.3.2), the checkpoint's root and signature
    try:
        text, sigs = p["checkpoint"].rsplit("\n\n", 1)
        origin, size, root = text.split("\n")
        fn, sn, r = p["leaf_index"], p["tree_size"] - 1, sha(b"\x00" + bytes.fromhex(events[p["version"] - 1]["hash"]))
        for h in map(base64.b64decode, p["hashes"]):
            if sn == 0: fail("the log proof's audit path is longer than the tree is deep")
            if fn & 1 or fn == sn:
                r = sha(b"\x01" + h + r)
                while not fn & 1 and fn: fn, sn = fn >> 1, sn >> 1
            else: r = sha(b"\x01" + r + h)
            fn, sn = fn >> 1, sn >> 1
        if sn != 0 or r != base64.b64decode(root) or int(size) != p["tree_size"]: fail(f"event {p['version']} is not in the log's tree under the export's checkpoint")
        name, key_id, key = (pinned or p["log_key"]).split("+", 2)
        key = base64.b64decode(key)
        if name != origin or bytes.fromhex(key_id) != sha(name.encode() + b"\n" + key)[:4]: fail("the log key does not name the checkpoint's log")
    except (ValueError, KeyError, TypeError, IndexError) as error:
        fail(f"the log proof is malformed: {type(error).__name__}: {error}")
    signature = next((base64.b64decode(line.split(" ")[2]) for line in sigs.splitlines() if line.split(" ")[1:2] == [name]), b"")
    try:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError:
        return f"event {p['version']} is leaf {p['leaf_index']} of the log's tree of {size}; the checkpoint's signature NOT checked (install `cryptography`)"
    try:
        assert signature[:4] == bytes.fromhex(key_id), "no signature of the log key"
        Ed25519PublicKey.from_public_bytes(key[1:]).verify(signature[4:], (text + "\n").encode())
    except Exception as error:
        fail(f"the log checkpoint's signature does not verify: {error or type(error).__name__}")
    trust = "the key given" if pinned else "the key the record names (give the log's own with --log-key)"
    return f"event {p['version']} is leaf {p['leaf_index']} of the log's tree of {size} leaves, checkpoint signed by {trust}"
pinned = sys.argv[sys.argv.index("--log-key") + 1] if "--log-key" in sys.argv[2:-1] else None
if proofs: checked += "; " + logged(proofs[-1], pinned)
elif pinned: fail(f"{checked}; but the record carries no log proof to check against --log-key")
# A fork draws from its own seed, committed to in its ForkedFrom; the events it copied drew from its origin's.
fork = ([e for e in events if e.get("kind") == "ForkedFrom"] or events[:1])[-1]
own = events[fork["version"] - 1:]
reveal = next((e for e in own if e.get("kind") == "SeedRevealed"), None)
# A table game keeps its opening as observed right after GameCreated and enters each outcome; without it, its outcomes are a generator's (a seeded record relabelled).
kept = len(events) > 1 and events[1].get("kind") == "OutcomeEntered" and events[1]["data"].get("what") == "the opening as laid out at the table"
if events[0]["data"].get("seed_source") == "table" and not kept: fail(f"{checked}; it says it was played at a table but does not keep its opening as observed: its outcomes are a generator's, and a seeded record cannot become a table game")
if fork["data"].get("seed_source") == "table": ok(f"{checked}; outcomes entered at a table: recorded, but not provably fair")
if reveal is None and any(e.get("kind") == "GameEnded" for e in own): fail(f"{checked}; the game is finished but its seed is never revealed, so its shuffles and dice cannot be checked")
if reveal is None: ok(f"{checked}; no seed reveal: game unfinished, shuffles and dice not checked")
seed = bytes.fromhex(reveal["data"]["seed"])
if hashlib.sha256(seed).hexdigest() != fork["data"].get("seed_commitment"): fail(f"{checked}; the revealed seed does not match its commitment")
stream = (b for i in range(10**9) for b in hmac.new(seed, i.to_bytes(8, "big"), hashlib.sha256).digest())
def below(n):
    while (x := int.from_bytes(bytes(next(stream) for _ in range(8)), "big")) >= 2**64 - 2**64 % n: pass
    return x % n
outcomes = [(e["version"], v["random"]) for e in own for v in [e["data"], *(s.get("value") for s in e["secrets"])] if isinstance(v, dict) and "random" in v]
for version, r in outcomes:
    items = sorted(r.get("shuffle", []), key=canon)
    for i in range(len(items) - 1, 0, -1): j = below(i + 1); items[i], items[j] = items[j], items[i]
    if not ((items == r["shuffle"]) if "shuffle" in r else below(r["below"]) == r["value"]): fail(f"{checked}; the random outcome of event {version} differs from the seed's")
ok(f"{checked}; seed matches its commitment; {len(outcomes)} random outcomes re-derived from it")
