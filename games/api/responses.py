"""The shapes of the API's answers, for the OpenAPI schema (the views build the bodies; these describe them)."""

from __future__ import annotations

from rest_framework import serializers

ANY = serializers.JSONField  # a value in a game's own notation (an action, a payload, an observation)


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    kind = serializers.CharField(help_text="human or bot")
    user = serializers.CharField(allow_null=True)
    bot = serializers.CharField(allow_null=True, help_text="the bot level of a bot seat")
    open = serializers.BooleanField()


class ResultSerializer(serializers.Serializer):
    scores = serializers.ListField(child=serializers.FloatField())
    winners = serializers.ListField(child=serializers.IntegerField())
    ranking = serializers.ListField(child=serializers.IntegerField())


class MatchFieldsSerializer(serializers.Serializer):
    """What a match's full body and its summary in a list share."""

    id = serializers.IntegerField()
    game = serializers.CharField()
    game_name = serializers.CharField()
    status = serializers.ChoiceField(choices=["waiting", "active", "finished"])
    seq = serializers.IntegerField()
    players = serializers.IntegerField()
    options = serializers.DictField()
    seats = SeatSerializer(many=True)


class MatchSerializer(MatchFieldsSerializer):
    """The match as the requester may see it (GET /api/matches/{id}/)."""

    to_move = serializers.ListField(child=serializers.IntegerField())
    my_seat = serializers.IntegerField(allow_null=True)
    view = serializers.DictField(help_text="the engine's observation for my_seat (the public view when null)")
    legal_actions = serializers.ListField(child=ANY(), help_text="the requester's, in the game's record notation")
    result = ResultSerializer(allow_null=True)
    commitment = serializers.CharField()
    seed = serializers.CharField(allow_null=True)
    created_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    receipt = serializers.DictField(allow_null=True, help_text="the signed receipt of the head this body shows "
                                    "(docs/AUDIT.md); null for a running version 1 match of a game with hidden information")


class MatchSummarySerializer(MatchFieldsSerializer):
    open_seats = serializers.IntegerField()
    to_move = serializers.ListField(child=serializers.IntegerField())
    my_seat = serializers.IntegerField(allow_null=True)
    created_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    result = ResultSerializer(allow_null=True)


class MatchListSerializer(serializers.Serializer):
    matches = MatchSummarySerializer(many=True)


class OptionSerializer(serializers.Serializer):
    name = serializers.CharField()
    default = ANY()
    choices = serializers.ListField(child=ANY())
    description = serializers.CharField()


class GameSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    player_counts = serializers.ListField(child=serializers.IntegerField())
    options = OptionSerializer(many=True)
    perfect_information = serializers.BooleanField()
    chance = serializers.BooleanField()
    simultaneous = serializers.BooleanField()


class BotLevelSerializer(serializers.Serializer):
    level = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a declared field, not DRF's Field.label
    description = serializers.CharField()
    seconds = serializers.FloatField(allow_null=True, help_text="the search's time budget per move")
    iterations = serializers.IntegerField(allow_null=True, help_text="the search's iteration budget per move")
    rating = ANY(help_text="the level's published rating: a number, or one per game")
    table_ratings = serializers.DictField(required=False)


class GamesSerializer(serializers.Serializer):
    games = GameSerializer(many=True)
    bot_levels = BotLevelSerializer(many=True)


class ChainLinkSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    prev_hash = serializers.CharField(allow_null=True)
    body_hash = serializers.CharField(allow_null=True)
    hash = serializers.CharField(allow_null=True)


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    actor = serializers.CharField()
    timestamp = serializers.DateTimeField()
    payload = serializers.DictField()
    prev_hash = serializers.CharField(allow_null=True)
    body_hash = serializers.CharField(allow_null=True, required=False)
    nonce = serializers.CharField(required=False, help_text="only with a payload you may see as stored")
    hash = serializers.CharField(allow_null=True)
    redacted = serializers.BooleanField(required=False)
    skipped = ChainLinkSerializer(many=True, required=False, help_text="declined reaction windows before it")


class EventsSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    seq = serializers.IntegerField()
    chain_version = serializers.IntegerField()
    events = EventSerializer(many=True)


class RecordSerializer(serializers.Serializer):
    format = serializers.CharField(help_text="cairn-record/2")
    game = serializers.CharField()
    players = serializers.IntegerField()
    options = serializers.DictField()
    events = serializers.ListField(child=ANY(), help_text="the record entries you may see")
    seqs = serializers.ListField(child=serializers.IntegerField())
    match = serializers.IntegerField()
    status = serializers.CharField()
    seats = SeatSerializer(many=True)
    commitment = serializers.CharField()
    chain_version = serializers.IntegerField()
    seed = serializers.CharField(allow_null=True)
    result = ResultSerializer(allow_null=True)
    log = EventSerializer(many=True)


class VerifySerializer(serializers.Serializer):
    match = serializers.IntegerField()
    ok = serializers.BooleanField()
    failed_seq = serializers.IntegerField(allow_null=True)
    check = serializers.CharField(allow_null=True)
    message = serializers.CharField()
    events = serializers.IntegerField()
    checks = serializers.ListField(child=serializers.CharField())
