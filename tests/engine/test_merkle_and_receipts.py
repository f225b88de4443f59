"""The pure pieces of the audit against the operator: RFC 9162 trees, receipts, the witness, the chance seed."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine import merkle, receipt, witness
from engine.fair import ContributionError, chance_seed, parse_contribution

ROOT = Path(__file__).resolve().parents[2]

# RFC 6962 / 9162 reference data (certificate-transparency's test vectors).
LEAVES = [bytes.fromhex(x) for x in
          ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"]]
ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
INCLUSION = [  # (leaf index from 0, tree size, path)
    (0, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
    (5, 8, ["bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
    (2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
    (1, 5, ["6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
]
CONSISTENCY = [  # (old size, new size, proof)
    (1, 1, []),
    (1, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
    (6, 8, ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
    (2, 5, ["5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
]
HASHES = [merkle.leaf_hash(leaf) for leaf in LEAVES]


def test_the_tree_heads_are_rfc_9162s_for_every_size():
    assert merkle.root([]).hex() == hashlib.sha256(b"").hexdigest()
    assert [merkle.root(LEAVES[:n]).hex() for n in range(1, 9)] == ROOTS


@pytest.mark.parametrize("index, size, path", INCLUSION)
def test_inclusion_proofs_are_rfc_9162s_and_verify(index, size, path):
    proof = merkle.inclusion_proof(index, HASHES[:size])
    assert [p.hex() for p in proof] == path
    root = bytes.fromhex(ROOTS[size - 1])
    assert merkle.verify_inclusion(HASHES[index], index, size, proof, root)
    assert not merkle.verify_inclusion(HASHES[index], (index + 1) % size, size, proof, root) or size == 1
    assert not merkle.verify_inclusion(merkle.leaf_hash(b"forged"), index, size, proof, root)


@pytest.mark.parametrize("old, new, path", CONSISTENCY)
def test_consistency_proofs_are_rfc_9162s_and_verify(old, new, path):
    proof = merkle.consistency_proof(old, HASHES[:new])
    assert [p.hex() for p in proof] == path
    old_root, new_root = bytes.fromhex(ROOTS[old - 1]), bytes.fromhex(ROOTS[new - 1])
    assert merkle.verify_consistency(old, new, old_root, new_root, proof)
    if old != new:
        assert not merkle.verify_consistency(old, new, merkle.leaf_hash(b"other"), new_root, proof)


def test_every_proof_of_every_small_tree_verifies_and_a_rewritten_leaf_breaks_consistency():
    for n in range(1, 40):
        hashes = [merkle.leaf_hash(bytes([i, 7])) for i in range(n)]
        root = merkle.root_from_hashes(hashes)
        for i in range(n):
            assert merkle.verify_inclusion(hashes[i], i, n, merkle.inclusion_proof(i, hashes), root)
        for m in range(1, n + 1):
            old_root = merkle.root_from_hashes(hashes[:m])
            assert merkle.verify_consistency(m, n, old_root, root, merkle.consistency_proof(m, hashes))
            rewritten = list(hashes)
            rewritten[m - 1] = merkle.leaf_hash(b"rewritten")
            if m < n:
                proof = merkle.consistency_proof(m, rewritten)
                assert not merkle.verify_consistency(m, n, old_root, merkle.root_from_hashes(rewritten), proof)


def signer():
    key = Ed25519PrivateKey.generate()
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return key, raw


def make_receipt(key, raw, match=3, seq=5, head="ab" * 32, time="2026-01-01T00:00:00.000000+00:00"):
    kid = receipt.key_id(raw)
    return {"format": "cairn-receipt/1", "match": match, "seq": seq, "hash": head, "time": time, "key": kid,
            "signature": key.sign(receipt.message(match, seq, head, time, kid)).hex()}


def test_the_signed_message_is_the_canonical_json_of_the_receipt_without_its_signature():
    key, raw = signer()
    made = make_receipt(key, raw)
    expected = json.dumps({k: v for k, v in made.items() if k != "signature"}, sort_keys=True, separators=(",", ":"))
    assert receipt.message(3, 5, "ab" * 32, made["time"], made["key"]) == expected.encode()
    assert receipt.key_id(raw) == hashlib.sha256(raw).hexdigest()[:16]


def test_a_receipt_checks_only_with_its_own_key_and_content():
    key, raw = signer()
    other, other_raw = signer()
    keys = {receipt.key_id(raw): raw}
    made = make_receipt(key, raw)
    receipt.check_receipt(made, keys)
    with pytest.raises(receipt.ReceiptError, match="not a known key"):
        receipt.check_receipt(make_receipt(other, other_raw), keys)
    with pytest.raises(receipt.ReceiptError, match="does not verify"):
        receipt.check_receipt(dict(made, seq=6), keys)
    with pytest.raises(receipt.ReceiptError, match="does not verify"):  # another key relabelled as ours
        receipt.check_receipt(dict(make_receipt(other, other_raw), key=receipt.key_id(raw)), keys)
    with pytest.raises(receipt.ReceiptError, match="'signature'"):
        receipt.check_receipt(dict(made, signature=made["signature"][:-2]), keys)
    with pytest.raises(receipt.ReceiptError, match="id"):
        receipt.parse_keys([{"id": "0" * 16, "algorithm": "Ed25519", "public_key": raw.hex()}])


def test_the_heads_check_names_the_receipt_a_chain_contradicts_or_outruns():
    key, raw = signer()
    keys = {receipt.key_id(raw): raw}
    heads = {1: "11" * 32, 2: "22" * 32}
    assert receipt.check_heads(3, heads, [make_receipt(key, raw, seq=2, head="22" * 32),
                                          make_receipt(key, raw, match=4, seq=9)], keys) == {
        "receipts_checked": 1, "receipts_other_matches": 1}
    with pytest.raises(receipt.ReceiptError, match=r"seq 2\).*has hash 2222"):
        receipt.check_heads(3, heads, [make_receipt(key, raw, seq=2, head="33" * 32)], keys)
    with pytest.raises(receipt.ReceiptError, match="ends at seq 2"):
        receipt.check_heads(3, heads, [make_receipt(key, raw, seq=7, head="33" * 32)], keys)


def test_the_witness_keeps_only_signed_consistent_checkpoints():
    key, raw = signer()
    keys = {receipt.key_id(raw): raw}

    def checkpoint(size, root):
        kid, time = receipt.key_id(raw), "2026-01-01T00:00:00+00:00"
        return {"size": size, "root": root.hex(), "time": time, "key": kid,
                "signature": key.sign(witness.checkpoint_message(size, root.hex(), time, kid)).hex()}

    first, second = checkpoint(3, merkle.root_from_hashes(HASHES[:3])), checkpoint(8, merkle.root_from_hashes(HASHES))
    witness.accept(None, first, [], keys)
    witness.accept(first, second, [p.hex() for p in merkle.consistency_proof(3, HASHES)], keys)
    rewritten = [merkle.leaf_hash(b"x")] + HASHES[1:]
    forged = checkpoint(8, merkle.root_from_hashes(rewritten))
    with pytest.raises(witness.WitnessError, match="not consistent"):
        witness.accept(first, forged, [p.hex() for p in merkle.consistency_proof(3, rewritten)], keys)
    with pytest.raises(witness.WitnessError, match="does not verify"):
        witness.accept(first, dict(second, time="later"), [p.hex() for p in merkle.consistency_proof(3, HASHES)], keys)
    with pytest.raises(witness.WitnessError, match="shrank"):
        witness.accept(second, first, [], keys)


def test_the_chance_seed_is_sha_256_over_the_tag_the_server_seed_and_the_contributions_in_order():
    server, a, b = b"\x01" * 32, b"\x02" * 32, b"\x03" * 32
    assert chance_seed(server, [a, b]) == hashlib.sha256(b"cairn-chance-seed/1\n" + server + a + b).digest()
    assert chance_seed(server, [a, b]) != chance_seed(server, [b, a])


@pytest.mark.parametrize("value, text", [
    ("00" * 32, "all zeros"), ("ab", "64 hex digits"), ("g" * 64, "hex digits"), (None, "hex text"), ("ab" * 40, "64 hex")])
def test_a_contribution_follows_the_documented_rule(value, text):
    with pytest.raises(ContributionError, match=text):
        parse_contribution(value)
    assert parse_contribution("0" * 63 + "1") == bytes(31) + b"\x01"


def test_the_cli_says_when_it_cannot_read_the_receipts_or_the_keys(tmp_path):
    record = tmp_path / "r.json"
    record.write_text((ROOT / "tests/engine/golden/mountain_goats_3p_seed1.json").read_text())
    missing = subprocess.run([sys.executable, "-m", "engine", "audit", str(record), "--receipts", str(tmp_path / "none.json")],
                             cwd=ROOT, capture_output=True, text=True)
    assert missing.returncode == 2 and "cannot read the receipts" in missing.stdout
    keys = tmp_path / "k.json"
    keys.write_text(json.dumps({"keys": [{"id": "x", "public_key": "12"}]}))
    bad = subprocess.run([sys.executable, "-m", "engine", "audit", str(record), "--keys", str(keys)],
                         cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "64 hex digits" in bad.stdout
