
from ..api.urls import both
from . import api, streams

urlpatterns = [
    *both("account/tokens", api.AccessTokensView.as_view(), "api-access-tokens"),
    *both("account/tokens/<id:token_id>", api.AccessTokenView.as_view(), "api-access-token"),
    *both("account/bot", api.BotAccountView.as_view(), "api-account-bot"),
    *both("account/bot-preference", api.BotPreferenceView.as_view(), "api-bot-preference"),
    *both("stream/event", streams.event_stream, "api-stream-event"),
    *both("stream/match/<id:match_id>", streams.match_stream, "api-stream-match"),
]
