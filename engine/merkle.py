"""RFC 9162 Merkle trees: tree heads, inclusion proofs and consistency proofs (SHA-256).

Pure (hashlib only), shared by the server's public log of heads
(``games.audit``) and the witness (``python -m engine witness``).

* leaf hash ``SHA-256(0x00 || leaf)``, interior node ``SHA-256(0x01 || left || right)``;
* ``MTH`` of an empty list is SHA-256 of nothing; of ``n > 1`` leaves, split at
  the largest power of two ``k < n``: ``node(MTH(D[0:k]), MTH(D[k:n]))``;
* :func:`inclusion_proof` is RFC 9162's ``PATH(m, D[n])``, :func:`consistency_proof`
  its ``PROOF(m, D[n])``; :func:`verify_inclusion` and :func:`verify_consistency`
  are the verification algorithms of its sections 2.1.3.2 and 2.1.4.2.

Hashes are bytes here; the log serves them as hex.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + bytes(leaf)).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n > 1)."""
    k = 1
    while k << 1 < n:
        k <<= 1
    return k


def root_from_hashes(hashes: Sequence[bytes]) -> bytes:
    """MTH over leaves given by their leaf hashes."""
    n = len(hashes)
    if n == 0:
        return hashlib.sha256(b"").digest()
    if n == 1:
        return hashes[0]
    k = _split(n)
    return node_hash(root_from_hashes(hashes[:k]), root_from_hashes(hashes[k:]))


def root(leaves: Sequence[bytes]) -> bytes:
    return root_from_hashes([leaf_hash(leaf) for leaf in leaves])


def inclusion_proof(index: int, hashes: Sequence[bytes]) -> list[bytes]:
    """PATH(m, D[n]) over leaf hashes: the audit path of leaf ``index``."""
    n = len(hashes)
    if not 0 <= index < n:
        raise ValueError(f"leaf {index} is not in a tree of {n} leaves")
    if n == 1:
        return []
    k = _split(n)
    if index < k:
        return inclusion_proof(index, hashes[:k]) + [root_from_hashes(hashes[k:])]
    return inclusion_proof(index - k, hashes[k:]) + [root_from_hashes(hashes[:k])]


def consistency_proof(old_size: int, hashes: Sequence[bytes]) -> list[bytes]:
    """PROOF(m, D[n]) over leaf hashes: that the first ``old_size`` leaves are a prefix of these."""
    n = len(hashes)
    if not 0 <= old_size <= n:
        raise ValueError(f"a tree of {old_size} leaves cannot be a prefix of a tree of {n}")
    if old_size in (0, n):
        return []
    return _subproof(old_size, hashes, True)


def _subproof(m: int, hashes: Sequence[bytes], complete: bool) -> list[bytes]:
    n = len(hashes)
    if m == n:
        return [] if complete else [root_from_hashes(hashes)]
    k = _split(n)
    if m <= k:
        return _subproof(m, hashes[:k], complete) + [root_from_hashes(hashes[k:])]
    return _subproof(m - k, hashes[k:], False) + [root_from_hashes(hashes[:k])]


def verify_inclusion(leaf: bytes, index: int, size: int, proof: Sequence[bytes], expected_root: bytes) -> bool:
    """RFC 9162 2.1.3.2: does ``proof`` show ``leaf`` (its leaf hash) at ``index`` of the tree ``expected_root``?"""
    if not 0 <= index < size:
        return False
    fn, sn = index, size - 1
    r = leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == expected_root


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]) -> bool:
    """RFC 9162 2.1.4.2: does ``proof`` show the tree ``old_root`` is a prefix of ``new_root``?"""
    if old_size > new_size or old_size < 0:
        return False
    if old_size == new_size:
        return not proof and old_root == new_root
    if old_size == 0:
        return not proof
    proof = list(proof)
    if old_size & (old_size - 1) == 0:  # a power of two: the old root is the first node
        proof = [old_root] + proof
    if not proof:
        return False
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == old_root and sr == new_root and sn == 0
