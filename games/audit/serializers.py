"""Typed responses of the receipts and transparency routes (they document the OpenAPI schema)."""

from __future__ import annotations

from rest_framework import serializers


class PublicKeySerializer(serializers.Serializer):
    id = serializers.CharField(help_text="the key id: first 16 hex digits of SHA-256 of the raw public key")
    algorithm = serializers.CharField(help_text="Ed25519")
    public_key = serializers.CharField(help_text="the raw 32-byte public key, 64 hex digits")
    current = serializers.BooleanField(help_text="true: the key signing now; false: a retired key")


class KeysSerializer(serializers.Serializer):
    keys = PublicKeySerializer(many=True)


class ReceiptSerializer(serializers.Serializer):
    format = serializers.CharField(help_text="cairn-receipt/1")
    match = serializers.IntegerField()
    seq = serializers.IntegerField()
    hash = serializers.CharField(help_text="the chain hash of event seq, 64 hex digits")
    time = serializers.CharField(help_text="the event's timestamp, ISO 8601 UTC")
    key = serializers.CharField(help_text="the id of the signing key")
    signature = serializers.CharField(help_text="Ed25519 signature, 128 hex digits (docs/AUDIT.md)")


class ReceiptsSerializer(serializers.Serializer):
    format = serializers.CharField(help_text="cairn-receipts/1")
    match = serializers.IntegerField()
    receipts = ReceiptSerializer(many=True)
    keys = PublicKeySerializer(many=True)


class CheckpointSerializer(serializers.Serializer):
    size = serializers.IntegerField(help_text="leaves in the tree")
    # A declared field (the serializer's metaclass takes it off the class), not DRF's Field.root.
    root = serializers.CharField(help_text="RFC 9162 tree head, hex")  # type: ignore[assignment]  # see above
    time = serializers.CharField()
    key = serializers.CharField()
    signature = serializers.CharField()


class CheckpointsSerializer(serializers.Serializer):
    checkpoints = CheckpointSerializer(many=True)
    keys = PublicKeySerializer(many=True)


class LeafSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    match = serializers.IntegerField()
    seq = serializers.IntegerField()
    hash = serializers.CharField()
    leaf_hash = serializers.CharField()


class InclusionSerializer(serializers.Serializer):
    checkpoint = CheckpointSerializer()
    leaf = LeafSerializer()
    proof = serializers.ListField(child=serializers.CharField(), help_text="RFC 9162 audit path, hex")


# "from" is a Python keyword: the class is made with type() so the field keeps its name.
ConsistencySerializer = type("ConsistencySerializer", (serializers.Serializer,), {
    "from": CheckpointSerializer(help_text="the older checkpoint"),
    "to": CheckpointSerializer(help_text="the newer checkpoint"),
    "proof": serializers.ListField(child=serializers.CharField(), help_text="RFC 9162 consistency proof, hex"),
    "__module__": __name__,
})
