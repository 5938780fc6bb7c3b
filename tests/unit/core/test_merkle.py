"""The Merkle tree (domain/core/merkle.py) against RFC 6962's published test vectors, against
the RFC's recursive definitions written out naively here, and against the independent
verifier a referee runs (docs/verify_log.py), for every tree size up to 300 and random
sizes beyond."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import random
from pathlib import Path

import pytest

from domain.core import merkle

spec = importlib.util.spec_from_file_location("verify_log", Path(__file__).parents[3] / "docs" / "verify_log.py")
assert spec is not None and spec.loader is not None
verify_log = importlib.util.module_from_spec(spec)
spec.loader.exec_module(verify_log)

h = bytes.fromhex
# RFC 6962's test data (as certificate-transparency's own tests use it): eight leaves, and the
# root of each prefix of them.
VECTOR_LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"]
VECTOR_ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]


def tree(leaves: list[bytes], in_batches_of: int = 7) -> dict[merkle.Node, bytes]:
    """The complete subtrees of a tree, appended a few leaves at a time as the log does."""
    nodes: dict[merkle.Node, bytes] = {}
    for start in range(0, len(leaves), in_batches_of):
        nodes.update(merkle.appended(start, nodes.__getitem__, leaves[start:start + in_batches_of]))
    return nodes


SMALL = 300
DATA = [i.to_bytes(4, "big") for i in range(SMALL)]


@functools.cache
def mth(lo: int, hi: int) -> bytes:
    """MTH(D[lo:hi]) of RFC 9162 §2.1.1 over `DATA`, recursively (memoized)."""
    if hi == lo:
        return hashlib.sha256(b"").digest()
    if hi - lo == 1:
        return merkle.leaf_hash(DATA[lo])
    k = 1 << ((hi - lo - 1).bit_length() - 1)
    return merkle.node_hash(mth(lo, lo + k), mth(lo + k, hi))


def naive_path(m: int, lo: int, hi: int) -> list[bytes]:
    """PATH(m, D[lo:hi]) of §2.1.3.1."""
    if hi - lo <= 1:
        return []
    k = 1 << ((hi - lo - 1).bit_length() - 1)
    return [*naive_path(m, lo, lo + k), mth(lo + k, hi)] if m < k else [*naive_path(m - k, lo + k, hi), mth(lo, lo + k)]


def naive_subproof(m: int, lo: int, hi: int, b: bool) -> list[bytes]:
    """SUBPROOF(m, D[lo:hi], b) of §2.1.4.1."""
    if m == hi - lo:
        return [] if b else [mth(lo, hi)]
    k = 1 << ((hi - lo - 1).bit_length() - 1)
    if m <= k:
        return [*naive_subproof(m, lo, lo + k, b), mth(lo + k, hi)]
    return [*naive_subproof(m - k, lo + k, hi, False), mth(lo, lo + k)]


NODES = tree([merkle.leaf_hash(d) for d in DATA])


def test_the_roots_are_rfc_6962s() -> None:
    nodes = tree([merkle.leaf_hash(h(x)) for x in VECTOR_LEAVES])
    assert [merkle.root(n, nodes.__getitem__).hex() for n in range(1, 9)] == VECTOR_ROOTS
    assert merkle.root(0, nodes.__getitem__) == hashlib.sha256(b"").digest()


def test_the_proofs_are_rfc_6962s_published_ones() -> None:
    nodes = tree([merkle.leaf_hash(h(x)) for x in VECTOR_LEAVES])
    get = nodes.__getitem__
    assert [p.hex() for p in merkle.inclusion_proof(5, 8, get)] == [
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]
    assert [p.hex() for p in merkle.consistency_proof(6, 8, get)] == [
        "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]
    assert [p.hex() for p in merkle.consistency_proof(2, 5, get)] == [
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]


def test_every_proof_of_every_size_up_to_300_is_the_rfcs_and_verifies() -> None:
    get = NODES.__getitem__
    for size in range(1, SMALL + 1):
        assert merkle.root(size, get) == mth(0, size)
        for index in range(size):
            path = merkle.inclusion_proof(index, size, get)
            assert path == naive_path(index, 0, size), (index, size)
            merkle.verify_inclusion(index, size, merkle.leaf_hash(DATA[index]), path, mth(0, size))
            verify_log.verify_inclusion(index, size, merkle.leaf_hash(DATA[index]), path, mth(0, size))
        for old in range(1, size + 1):
            proof = merkle.consistency_proof(old, size, get)
            assert proof == naive_subproof(old, 0, size, True), (old, size)
            merkle.verify_consistency(old, size, proof, mth(0, old), mth(0, size))
            verify_log.verify_consistency(old, size, proof, mth(0, old), mth(0, size))


def test_random_sizes_beyond() -> None:
    rng = random.Random(9162)
    data = [rng.randbytes(32) for _ in range(5000)]
    nodes = tree([merkle.leaf_hash(d) for d in data], in_batches_of=333)

    def naive_root(part: list[bytes]) -> bytes:
        if len(part) == 1:
            return merkle.leaf_hash(part[0])
        k = 1 << ((len(part) - 1).bit_length() - 1)
        return merkle.node_hash(naive_root(part[:k]), naive_root(part[k:]))

    for size in rng.sample(range(301, 5001), 6):
        root = naive_root(data[:size])
        assert merkle.root(size, nodes.__getitem__) == root
        for index in rng.sample(range(size), 40):
            path = merkle.inclusion_proof(index, size, nodes.__getitem__)
            verify_log.verify_inclusion(index, size, merkle.leaf_hash(data[index]), path, root)
        for old in rng.sample(range(1, size + 1), 40):
            proof = merkle.consistency_proof(old, size, nodes.__getitem__)
            verify_log.verify_consistency(old, size, proof, naive_root(data[:old]), root)


def test_a_proof_a_byte_off_or_for_another_leaf_is_refused() -> None:
    get = NODES.__getitem__
    path = merkle.inclusion_proof(77, 200, get)
    bent = [path[0][:-1] + bytes([path[0][-1] ^ 1]), *path[1:]]
    for index, leaf, proof in ((77, merkle.leaf_hash(DATA[77]), bent), (78, merkle.leaf_hash(DATA[77]), path),
                               (77, merkle.leaf_hash(DATA[78]), path), (77, merkle.leaf_hash(DATA[77]), path[:-1])):
        with pytest.raises(merkle.ProofError):
            merkle.verify_inclusion(index, 200, leaf, proof, mth(0, 200))
        with pytest.raises(verify_log.VerifyError):
            verify_log.verify_inclusion(index, 200, leaf, proof, mth(0, 200))
    proof = merkle.consistency_proof(90, 200, get)
    with pytest.raises(merkle.ProofError):
        merkle.verify_consistency(90, 200, proof, mth(0, 91), mth(0, 200))
    with pytest.raises(merkle.ProofError):
        merkle.verify_consistency(91, 200, proof, mth(0, 91), mth(0, 200))
    with pytest.raises(merkle.ProofError):
        merkle.verify_consistency(90, 200, [], mth(0, 90), mth(0, 200))


def test_a_rewritten_leaf_breaks_consistency_with_every_tree_before_it() -> None:
    """What the witness relies on: change one old leaf and rebuild, and no proof can show
    the new tree extends a tree that held the old leaf."""
    forged = list(DATA)
    forged[40] = b"rewritten"
    nodes = tree([merkle.leaf_hash(d) for d in forged])
    for old in (41, 64, 100):
        proof = merkle.consistency_proof(old, 250, nodes.__getitem__)
        with pytest.raises(merkle.ProofError):
            with_forged_root = merkle.root(250, nodes.__getitem__)
            merkle.verify_consistency(old, 250, proof, mth(0, old), with_forged_root)


def test_a_proof_reads_few_subtrees() -> None:
    """A proof is a function of O(log n) stored subtrees, fetched together."""
    size = 1_000_000
    assert len(merkle.needed(lambda get: merkle.inclusion_proof(123_456, size, get))) <= 2 * size.bit_length()
    assert len(merkle.needed(lambda get: merkle.consistency_proof(777_777, size, get))) <= 2 * size.bit_length()
    assert merkle.frontier_nodes(13) == [(3, 0), (2, 2), (0, 12)]


def test_sizes_that_cannot_have_a_proof_are_refused() -> None:
    with pytest.raises(merkle.ProofError):
        merkle.inclusion_proof(5, 5, NODES.__getitem__)
    with pytest.raises(merkle.ProofError):
        merkle.consistency_proof(0, 5, NODES.__getitem__)
    with pytest.raises(merkle.ProofError):
        merkle.consistency_proof(6, 5, NODES.__getitem__)
