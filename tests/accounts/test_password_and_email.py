"""Password reset and change, and verified email addresses: pages, API, mail, limits."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client, override_settings

from games.accounts import emails
from games.table import notifications

from ..frontend.helpers import client_for
from .helpers import limits, link_in_last_mail, path_of, verified

pytestmark = pytest.mark.django_db
NEW = "a-new-long-passphrase-9"


def test_a_reset_link_from_the_mail_sets_a_new_password_once(alice):
    verified(alice, "alice@example.org")
    client = Client()
    answer = client.post("/password/reset/", {"email": "alice@example.org"})
    assert answer.status_code == 302 and answer["Location"] == "/password/reset/sent/"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["alice@example.org"]
    link = path_of(link_in_last_mail())
    form = client.get(link, follow=True)
    assert form.status_code == 200 and b"Choose a new password" in form.content
    done = client.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302 and done["Location"] == "/password/reset/done/"
    assert Client().login(username="alice", password=NEW)
    again = Client().get(link, follow=True)
    assert b"This link does not work" in again.content  # single use


@pytest.mark.parametrize("email", ["nobody@example.org", "unverified@example.org"])
def test_the_reset_form_answers_the_same_and_mails_nothing_without_a_verified_account(alice, email):
    alice.email = "unverified@example.org"
    alice.save()
    answer = Client().post("/password/reset/", {"email": email}, follow=True)
    assert answer.redirect_chain[-1][0] == "/password/reset/sent/"
    assert b"If an account has this verified address" in answer.content
    assert mail.outbox == []


def test_a_forged_or_expired_reset_link_gets_a_clear_page(alice):
    verified(alice, "alice@example.org")
    page = Client().get("/password/reset/MQ/forged-token/", follow=True)
    assert page.status_code == 200 and b"This link does not work" in page.content
    Client().post("/password/reset/", {"email": "alice@example.org"})
    link = path_of(link_in_last_mail())
    with override_settings(PASSWORD_RESET_TIMEOUT=-10):
        expired = Client().get(link, follow=True)
    assert b"This link does not work" in expired.content


def test_the_api_resets_a_password_from_the_mailed_uid_and_token(alice, anon_api):
    verified(alice, "alice@example.org")
    answer = anon_api.post("/api/account/password/reset", {"email": "alice@example.org"}, format="json")
    assert answer.status_code == 202
    same = anon_api.post("/api/account/password/reset", {"email": "who@example.org"}, format="json")
    assert same.status_code == 202 and same.json() == answer.json()
    uid, token = re.search(r"/password/reset/([^/]+)/([^/]+)/", mail.outbox[0].body).groups()
    body = {"uid": uid, "token": token, "new_password": NEW}
    assert anon_api.post("/api/account/password/reset/confirm", body, format="json").status_code == 200
    reused = anon_api.post("/api/account/password/reset/confirm", body, format="json")
    assert reused.status_code == 400 and reused.json()["error"]["code"] == "bad_link"
    weak = anon_api.post("/api/account/password/reset/confirm", {**body, "new_password": "x"}, format="json")
    assert weak.status_code == 400
    assert anon_api.post("/api/auth/token", {"username": "alice", "password": NEW}, format="json").status_code == 200


def test_reset_requests_are_rate_limited_per_address(alice, anon_api):
    with override_settings(**limits(password_reset="2/hour")):
        for _ in range(2):
            assert anon_api.post("/api/account/password/reset", {"email": "a@example.org"}, format="json").status_code == 202
        refused = anon_api.post("/api/account/password/reset", {"email": "a@example.org"}, format="json")
        page = Client().post("/password/reset/", {"email": "a@example.org"})
    assert refused.status_code == 429 and "password reset requests" in refused.json()["error"]["message"]
    assert page.status_code == 429


def test_changing_the_password_ends_the_old_api_token_and_other_sessions(alice, alice_api):
    other = client_for(alice)
    wrong = alice_api.post("/api/account/password/change", {"old_password": "nope", "new_password": NEW}, format="json")
    assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "invalid_password"
    answer = alice_api.post("/api/account/password/change",
                            {"old_password": "correct-horse-battery", "new_password": NEW}, format="json")
    assert answer.status_code == 200 and answer.json()["token"]
    assert alice_api.get("/api/account/").status_code == 401
    assert other.get("/settings/account/").status_code == 302  # the session's hash no longer matches


def test_the_password_change_page_uses_the_site_look_and_djangos_form(alice):
    client = client_for(alice)
    page = client.get("/password/change/")
    assert page.status_code == 200 and b"Change your password" in page.content and b"csrfmiddlewaretoken" in page.content
    done = client.post("/password/change/", {"old_password": "correct-horse-battery", "new_password1": NEW,
                                             "new_password2": NEW}, follow=True)
    assert b"Your password is changed" in done.content


def test_an_address_is_unverified_until_its_mailed_link_is_opened(alice):
    client = client_for(alice)
    client.post("/settings/account/email/", {"email": "alice@example.org"})
    assert mail.outbox[0].to == ["alice@example.org"]
    page = client.get("/settings/account/").content.decode()
    assert "alice@example.org" in page and "not verified" in page
    link = path_of(link_in_last_mail())
    verified_page = Client().get(link)  # works signed out too: the link names the account
    assert verified_page.status_code == 200 and b"is verified" in verified_page.content
    assert "not verified" not in client.get("/settings/account/").content.decode()
    alice.refresh_from_db()
    assert emails.is_verified(alice)


def test_a_changed_address_needs_a_new_verification_and_old_links_stop_working(alice):
    client = client_for(alice)
    client.post("/settings/account/email/", {"email": "old@example.org"})
    old_link = path_of(link_in_last_mail())
    client.post("/settings/account/email/", {"email": "new@example.org"})
    stale = client.get(old_link)
    assert stale.status_code == 400 and b"no longer has" in stale.content
    forged = client.get("/settings/account/email/verify/not-a-token/")
    assert forged.status_code == 400 and b"not valid" in forged.content
    bad = client.post("/settings/account/email/", {"email": "not an address"})
    assert bad.status_code == 400 and b"is not an email address" in bad.content


def test_turn_emails_go_only_to_a_verified_address(alice, bob):
    from games import selectors, services

    from ..frontend.helpers import MG

    notifications.update(user=bob, sound=False, browser=False, email_turn=True, email="bob@example.org")
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"human": True}], options={},
                                  time_control="2d")
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    if match.to_move != [selectors.seat_of(match, bob)]:
        services.submit_action(match_id=match.pk, user=alice, action={"climb": []}, expected_seq=match.seq)
        match.refresh_from_db()
    assert notifications.send_turn_email(match.pk, match.seq, bob.pk) == "unverified"
    emails.verify(emails.make_token(bob, "bob@example.org"))
    assert notifications.send_turn_email(match.pk, match.seq, bob.pk) == "sent"


def test_the_api_sets_verifies_and_shows_an_address(alice_api, alice):
    answer = alice_api.post("/api/account/email", {"email": "alice@example.org"}, format="json")
    assert answer.status_code == 200 and answer.json()["email_verified"] is False
    token = link_in_last_mail().rstrip("/").rsplit("/", 1)[-1]
    checked = alice_api.post("/api/account/email/verify", {"token": token}, format="json")
    assert checked.status_code == 200 and checked.json()["email_verified"] is True
    again = alice_api.post("/api/account/email/resend", format="json")
    assert again.status_code == 400 and again.json()["error"]["code"] == "already_verified"
    bad = alice_api.post("/api/account/email/verify", {"token": "x"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_link"


def test_verification_mails_are_rate_limited_per_person(alice_api):
    with override_settings(**limits(verify_email="2/hour")):
        for n in range(2):
            assert alice_api.post("/api/account/email", {"email": f"a{n}@example.org"}, format="json").status_code == 200
        refused = alice_api.post("/api/account/email", {"email": "a9@example.org"}, format="json")
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"


def test_sign_in_attempts_are_limited_per_account_whatever_the_address(alice, anon_api):
    with override_settings(**limits(login_account="3/hour")):
        for n in range(3):
            anon_api.post("/api/auth/token", {"username": "Alice", "password": "guess"}, format="json",
                          REMOTE_ADDR=f"10.0.0.{n}")
        refused = anon_api.post("/api/auth/token", {"username": "alice", "password": "correct-horse-battery"},
                                format="json", REMOTE_ADDR="10.0.0.9")
        page = Client(REMOTE_ADDR="10.0.0.10").post("/login/", {"username": "alice", "password": "guess"})
        other = anon_api.post("/api/auth/token", {"username": "bob", "password": "guess"}, format="json")
    assert refused.status_code == 429 and "this account" in refused.json()["error"]["message"]
    assert page.status_code == 429
    assert other.status_code == 400  # another account is not limited by alice's guesses
