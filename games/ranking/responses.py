"""The shapes of ranked play's answers, for the OpenAPI schema."""

from __future__ import annotations

from rest_framework import serializers

from ..api.responses import ResultSerializer


class QueueSerializer(serializers.Serializer):
    game = serializers.CharField()
    players = serializers.IntegerField()
    time_control = serializers.CharField()
    rated = serializers.BooleanField()
    waiting = serializers.IntegerField()
    oldest_since = serializers.DateTimeField()
    ratings = serializers.ListField(child=serializers.IntegerField(), help_text="[lowest, highest] of those waiting")


class QueueEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.IntegerField()
    time_control = serializers.CharField()
    rated = serializers.BooleanField()
    status = serializers.CharField()
    joined_at = serializers.DateTimeField()
    match = serializers.IntegerField(allow_null=True)
    min_completion = serializers.IntegerField(allow_null=True, help_text="the completion rate (percent) you asked "
                                                                           "of opponents; null: anybody")


class QueuesSerializer(serializers.Serializer):
    queues = QueueSerializer(many=True)
    mine = QueueEntrySerializer(allow_null=True)
    last_match = serializers.IntegerField(allow_null=True)


class ChallengeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    to = serializers.CharField()
    game = serializers.CharField()
    options = serializers.DictField()
    rated = serializers.BooleanField()
    time_control = serializers.DictField()
    time_control_key = serializers.CharField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    match = serializers.IntegerField(allow_null=True)

    def get_fields(self) -> dict:
        fields = super().get_fields()
        fields["from"] = serializers.CharField()  # a Python keyword: added by name
        return fields


class ChallengesSerializer(serializers.Serializer):
    sent = ChallengeSerializer(many=True)
    received = ChallengeSerializer(many=True)


class RatingShownSerializer(serializers.Serializer):
    rating = serializers.FloatField(allow_null=True)
    deviation = serializers.FloatField(allow_null=True)
    provisional = serializers.BooleanField()
    text = serializers.CharField()
    full = serializers.CharField()


class BotRatingSerializer(serializers.Serializer):
    bot = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a declared field, not DRF's Field.label
    rating = serializers.FloatField(allow_null=True)
    ratings = serializers.DictField(child=serializers.FloatField(allow_null=True))
    text = serializers.CharField()
    full = serializers.CharField()


class BoardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    user = serializers.CharField()
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    games = serializers.IntegerField()
    shown = serializers.CharField()


class LeaderboardSerializer(serializers.Serializer):
    game = serializers.CharField()
    game_name = serializers.CharField()
    players = BoardRowSerializer(many=True)
    provisional_players = serializers.IntegerField()
    bots = BotRatingSerializer(many=True)


class LadderSerializer(serializers.Serializer):
    game = serializers.CharField()
    game_name = serializers.CharField()
    top = BoardRowSerializer(many=True)
    provisional_players = serializers.IntegerField()


class LaddersSerializer(serializers.Serializer):
    ladders = LadderSerializer(many=True)
    bots = BotRatingSerializer(many=True)


class GameRatingSerializer(RatingShownSerializer):
    game = serializers.CharField()
    game_name = serializers.CharField()
    games = serializers.IntegerField()


class HistoryPointSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    at = serializers.DateTimeField()
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    delta = serializers.FloatField()
    place = serializers.IntegerField()
    players = serializers.IntegerField()
    system = serializers.CharField()


class ProfileSerializer(serializers.Serializer):
    user = serializers.CharField()
    bot_account = serializers.BooleanField(help_text="a bot account (a program plays it)")
    ratings = GameRatingSerializer(many=True)
    history = serializers.DictField(child=HistoryPointSerializer(many=True), help_text="per game id, oldest first")


class PlayedSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    url = serializers.CharField()
    game = serializers.CharField()
    players = serializers.IntegerField()
    rated = serializers.BooleanField()
    time_control = serializers.CharField()
    status = serializers.CharField()
    ending = serializers.CharField(allow_null=True)
    result = serializers.ChoiceField(choices=["win", "draw", "loss", "aborted", "playing"])
    seat = serializers.IntegerField()
    opponents = serializers.ListField(child=serializers.CharField())
    rating_delta = serializers.FloatField(allow_null=True)
    rating_after = serializers.FloatField(allow_null=True)
    rating_shown = serializers.CharField(allow_null=True)
    updated_at = serializers.DateTimeField()


class HistorySerializer(serializers.Serializer):
    user = serializers.CharField()
    matches = PlayedSerializer(many=True)


class SeatRatingSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    kind = serializers.CharField(help_text="human or bot")
    user = serializers.CharField(allow_null=True, required=False)
    bot = serializers.CharField(required=False)
    rating = serializers.FloatField(allow_null=True)
    text = serializers.CharField()
    full = serializers.CharField()


class RatingChangeSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    user = serializers.CharField()
    before = serializers.FloatField()
    after = serializers.FloatField()
    delta = serializers.FloatField()
    before_shown = serializers.CharField()
    after_shown = serializers.CharField()
    deviation = serializers.FloatField()
    system = serializers.CharField()


class ClockSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    remaining = serializers.FloatField()
    running = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True)
    clock = serializers.BooleanField()


class ClockSerializer(serializers.Serializer):
    time_control = serializers.DictField()
    key = serializers.CharField()
    description = serializers.CharField()
    now = serializers.DateTimeField()
    seats = ClockSeatSerializer(many=True)


class RankedSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    rated = serializers.BooleanField()
    ending = serializers.CharField(allow_null=True)
    time_control = serializers.DictField(allow_null=True)
    clock = ClockSerializer(allow_null=True)
    seats = SeatRatingSerializer(many=True)
    rating_changes = RatingChangeSerializer(many=True)
    abortable = serializers.BooleanField()
    forfeits = serializers.ListField(child=serializers.IntegerField())


__all__ = ["ResultSerializer"]
