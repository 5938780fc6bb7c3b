"""The Merkle tree of RFC 9162 §2.1 (Certificate Transparency v2, as RFC 6962 before it):
the hashes, the audit path of one leaf, the consistency proof between two sizes, and both
verifications.

Written here rather than taken from a package: the proofs are computed from the complete
subtrees the service keeps in its database (`service/tlog/`), fetched in one query per
proof, which no kept Python package offers; the algorithms are the RFC's own, and
`docs/verify_log.py`, written apart from this module from the RFC alone, checks every
proof the service hands out.

A *complete subtree* is `(level, index)`: the 2**level leaves from `index * 2**level`.
Every range the RFC's recursions ask for splits into complete subtrees at its largest
power of two, so a proof is a function of those alone; `needed_*` names the ones a proof
reads, so a store can fetch them together.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence

Node = tuple[int, int]
"""A complete subtree: (level, index)."""
Hashes = Callable[[Node], bytes]


class ProofError(ValueError):
    """A proof that does not verify, or one asked of sizes it cannot exist for."""


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


EMPTY_ROOT = hashlib.sha256(b"").digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n > 1): where the RFC splits n leaves."""
    return 1 << ((n - 1).bit_length() - 1)


def subtree_hash(start: int, end: int, hashes: Hashes) -> bytes:
    """MTH of the leaves [start, end), from complete subtrees. `start` is aligned as every
    range of the RFC's recursions is: to the largest power of two within the range."""
    size = end - start
    if size & (size - 1) == 0:
        level = size.bit_length() - 1
        return hashes((level, start >> level))
    k = _split(size)
    return node_hash(subtree_hash(start, start + k, hashes), subtree_hash(start + k, end, hashes))


def root(size: int, hashes: Hashes) -> bytes:
    return EMPTY_ROOT if size == 0 else subtree_hash(0, size, hashes)


def inclusion_proof(index: int, size: int, hashes: Hashes) -> list[bytes]:
    """PATH(m, D[n]) of RFC 9162 §2.1.3.1: the audit path of leaf `index` in a tree of `size`."""
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of {size} leaves")
    path: list[bytes] = []
    start, end = 0, size
    while end - start > 1:
        k = _split(end - start)
        if index < start + k:
            path.append(subtree_hash(start + k, end, hashes))
            end = start + k
        else:
            path.append(subtree_hash(start, start + k, hashes))
            start += k
    path.reverse()
    return path


def consistency_proof(old: int, new: int, hashes: Hashes) -> list[bytes]:
    """PROOF(m, D[n]) of RFC 9162 §2.1.4.1, between the trees of `old` and `new` leaves."""
    if not 0 < old <= new:
        raise ProofError(f"no consistency proof from {old} to {new} leaves: 0 < from <= to")
    proof: list[bytes] = []
    # SUBPROOF unrolled: `left` is its `b`, true while every range taken starts at leaf 0,
    # in which case the old tree's root is the verifier's own and is left out.
    start, end, left = 0, new, True
    while old != end:
        k = _split(end - start)
        if old - start <= k:
            proof.append(subtree_hash(start + k, end, hashes))
            end = start + k
        else:
            proof.append(subtree_hash(start, start + k, hashes))
            start, left = start + k, False
    if not left:
        proof.append(subtree_hash(start, end, hashes))
    proof.reverse()
    return proof


def needed(proof: Callable[[Hashes], object]) -> list[Node]:
    """The complete subtrees `proof` reads: run it once with stand-in hashes (which subtrees
    a proof reads depends on the sizes alone), noting each."""
    seen: dict[Node, None] = {}

    def note(node: Node) -> bytes:
        seen[node] = None
        return b"\x00" * 32

    proof(note)
    return list(seen)


def verify_inclusion(index: int, size: int, leaf: bytes, path: Sequence[bytes], expected_root: bytes) -> None:
    """RFC 9162 §2.1.3.2; raises `ProofError` when the path does not lead to the root."""
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of {size} leaves")
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            raise ProofError("the audit path is longer than the tree is deep")
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0 or r != expected_root:
        raise ProofError("the audit path does not lead to the tree's root")


def verify_consistency(old: int, new: int, proof: Sequence[bytes], old_root: bytes, new_root: bytes) -> None:
    """RFC 9162 §2.1.4.2; raises `ProofError` unless the tree of `new` extends that of `old`."""
    if not 0 < old <= new:
        raise ProofError(f"no consistency proof from {old} to {new} leaves: 0 < from <= to")
    if old == new:
        if proof or old_root != new_root:
            raise ProofError("a tree is consistent with itself only with an empty proof and the same root")
        return
    if not proof:
        raise ProofError("the consistency proof is empty")
    path = list(proof)
    if old & (old - 1) == 0:
        path.insert(0, old_root)
    fn, sn = old - 1, new - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise ProofError("the consistency proof is longer than the trees are deep")
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0 or fr != old_root or sr != new_root:
        raise ProofError(f"the tree of {new} leaves does not extend the tree of {old} leaves")


def appended(size: int, frontier: Callable[[Node], bytes], leaves: Iterable[bytes]) -> list[tuple[Node, bytes]]:
    """The complete subtrees that appending `leaves` (leaf hashes) to a tree of `size`
    makes, each once, lowest first within each leaf. `frontier` gives the complete subtrees
    the tree already ends with (`frontier_nodes(size)`), the only older ones a new parent
    can need."""
    made: dict[Node, bytes] = {}

    def get(node: Node) -> bytes:
        return made[node] if node in made else frontier(node)

    for leaf in leaves:
        index, h, level = size, leaf, 0
        made[(0, index)] = h
        while index & 1:
            h = node_hash(get((level, index - 1)), h)
            index, level = index >> 1, level + 1
            made[(level, index)] = h
        size += 1
    return list(made.items())


def frontier_nodes(size: int) -> list[Node]:
    """The complete subtrees a tree of `size` leaves ends with: one per set bit of `size`,
    the roots of its perfect parts, left to right."""
    nodes, start = [], 0
    for level in range(size.bit_length() - 1, -1, -1):
        if size >> level & 1:
            nodes.append((level, start >> level))
            start += 1 << level
    return nodes
