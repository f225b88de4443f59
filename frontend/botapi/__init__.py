"""The settings page for access tokens, a bot account and accepting bots (games.botapi)."""
