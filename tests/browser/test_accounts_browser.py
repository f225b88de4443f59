"""Accounts in a real browser: verify an address and reset a forgotten password from the mailed links;
export one's data and delete the account, after which a finished match still verifies offline.

The server is a separate process, so its mail goes to files (Django's file backend) that the test reads.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games import services

from .table_helpers import PASSWORD, STEP_TIMEOUT_MS, in_thread, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]
NEW_PASSWORD = "a-new-long-passphrase-9"


@pytest.fixture
def mailbox(settings, tmp_path):
    """The server's outbox: a directory of mail files (set before the server process starts)."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path / "mail")
    return Path(settings.EMAIL_FILE_PATH)


@pytest.fixture
def server(mailbox, live_asgi_url):
    return live_asgi_url


def last_link(mailbox: Path, count: int) -> str:
    """The path of the link in the ``count``-th mail the server sent."""
    files = sorted(mailbox.glob("*.log"), key=lambda p: p.stat().st_mtime) if mailbox.exists() else []
    text = "".join(f.read_text() for f in files)
    mails = [m for m in re.split(r"\n-{79}\n", text) if m.strip()]
    assert len(mails) >= count, f"{len(mails)} mails, wanted {count}"
    found = re.search(r"https?://[^/\s]+(/\S+)", mails[count - 1])
    assert found, mails[count - 1]
    return found.group(1)


def test_a_new_user_verifies_an_address_and_resets_a_forgotten_password(server, mailbox, browser_page):
    page, base = browser_page, server
    page.goto(f"{base}/signup/")
    page.fill("#id_username", "newcomer")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{base}/")

    page.get_by_role("link", name="Account").click()
    page.fill("#account-email", "newcomer@example.org")
    page.get_by_role("button", name="Save the address").click()
    assert "not verified" in page.locator("#email-status").inner_text().lower()
    page.goto(base + last_link(mailbox, 1))
    assert "newcomer@example.org is verified" in page.locator("#verified-message").inner_text()
    page.goto(f"{base}/settings/account/")
    assert "verified" in page.locator("#email-status").inner_text().lower()
    assert "not verified" not in page.locator("#email-status").inner_text().lower()

    page.get_by_role("button", name="Log out").click()
    page.goto(f"{base}/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.fill("#id_email", "newcomer@example.org")
    page.get_by_role("button", name="Mail me a link").click()
    page.wait_for_selector("#reset-sent", timeout=STEP_TIMEOUT_MS)
    link = last_link(mailbox, 2)
    page.goto(base + link)
    page.fill("#id_new_password1", NEW_PASSWORD)
    page.fill("#id_new_password2", NEW_PASSWORD)
    page.get_by_role("button", name="Set the password").click()
    page.wait_for_selector("#reset-complete", timeout=STEP_TIMEOUT_MS)
    page.goto(base + link)  # used once: no second time
    assert page.locator("#reset-link-invalid").is_visible()

    page.goto(f"{base}/login/")
    page.fill("#id_username", "newcomer")
    page.fill("#id_password", NEW_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")
    assert page.locator(".whoami").inner_text() == "newcomer"


def test_a_person_exports_their_data_deletes_the_account_and_their_match_still_verifies(
        server, alice, bob, browser_page, tmp_path):
    match = in_thread(services.create_match, user=alice, game_id="mountain-goats",
                      seats=[{"human": True}, {"human": True}], options={})
    in_thread(services.join_match, match_id=match.pk, user=bob)
    in_thread(services.resign, match_id=match.pk, user=bob)
    page, base = browser_page, server
    log_in(page, base, "alice")
    page.goto(f"{base}/settings/account/")
    with page.expect_download() as download:
        page.locator("#export-link").click()
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["profile"]["username"] == "alice"
    assert [m["id"] for m in exported["matches"]] == [match.pk]

    page.locator("#delete-link").click()
    page.fill("#id_password", PASSWORD)
    page.check("#id_confirm")
    page.get_by_role("button", name="Delete my account").click()
    page.wait_for_selector("#deleted-message", timeout=STEP_TIMEOUT_MS)
    assert page.get_by_role("link", name="Log in").is_visible()  # signed out

    page.goto(f"{base}/matches/{match.pk}/")
    assert f"deleted player {alice.pk}" in page.content()
    record = page.request.get(f"{base}/api/matches/{match.pk}/record").text()
    path = tmp_path / "record.json"
    path.write_text(record)
    assert f"deleted player {alice.pk}" in record and "alice" not in record
    checked = subprocess.run([sys.executable, "-m", "engine", "audit", str(path)], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parents[2], timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout.strip().splitlines()[-1])["ok"] is True

    page.goto(f"{base}/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    assert page.url.startswith(f"{base}/login/")  # the account cannot sign in
