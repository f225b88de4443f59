import pytest


@pytest.fixture(autouse=True)
def _fresh_bot_names():
    """The process's cached bot names do not outlive a test (its users go with its database)."""
    from games.botapi.bots import forget_names

    forget_names()
    yield
    forget_names()
