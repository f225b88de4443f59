"""Where the receipt key comes from: RECEIPT_KEY, var/receipt_key, made in development, else derived from SECRET_KEY."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from engine.receipt import key_id
from games.audit import keys


@pytest.fixture
def fresh(settings, tmp_path, monkeypatch):
    monkeypatch.delenv("RECEIPT_KEY", raising=False)
    settings.VAR_DIR = tmp_path
    keys.signing_key.cache_clear()
    yield settings
    keys.signing_key.cache_clear()


def test_the_key_comes_from_receipt_key_and_its_id_is_a_hash_of_the_public_key(fresh, monkeypatch):
    monkeypatch.setenv("RECEIPT_KEY", "42" * 32)
    assert keys.current_key_id() == key_id(keys.public_bytes()) and len(keys.current_key_id()) == 16
    assert keys.public_keys()[0]["id"] == keys.current_key_id()


def test_a_malformed_receipt_key_is_refused_naming_it(fresh, monkeypatch):
    monkeypatch.setenv("RECEIPT_KEY", "not-a-key")
    with pytest.raises(ImproperlyConfigured, match="RECEIPT_KEY"):
        keys.signing_key()


def test_development_makes_var_receipt_key_once_and_production_without_one_derives_it_from_secret_key(fresh):
    fresh.TESTING, fresh.DEBUG = False, True
    first = keys.public_bytes()
    path = fresh.VAR_DIR / "receipt_key"
    assert path.is_file() and oct(path.stat().st_mode & 0o777) == "0o600"
    keys.signing_key.cache_clear()
    assert keys.public_bytes() == first  # read back, not made again
    path.unlink()
    keys.signing_key.cache_clear()
    fresh.DEBUG = False
    derived = keys.public_bytes()
    assert derived != first and not path.exists()
    keys.signing_key.cache_clear()
    fresh.SECRET_KEY = "another-secret"
    assert keys.public_bytes() != derived  # derived from SECRET_KEY: another one, another key


def test_a_retired_public_key_must_be_64_hex_digits(fresh, monkeypatch):
    monkeypatch.setenv("RECEIPT_OLD_KEYS", "abc")
    with pytest.raises(ImproperlyConfigured, match="retired receipt key"):
        keys.public_keys()
