"""Two people play a match in real browsers: each page sends its own share of the dice, each browser keeps
the signed receipts of the positions it was shown, and the audit page checks them."""

from __future__ import annotations

import json
import random

import pytest

from engine import receipt as receipt_format
from games import selectors
from games.audit.keys import public_keys
from games.models import Event, Match

from ..service.helpers import play_random_move
from .table_helpers import STEP_TIMEOUT_MS, in_thread, log_in, open_match, second_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]


def kept(page, match_id: int) -> list[dict]:
    return page.evaluate(f"window.cairnReceipts.kept({match_id})")


def test_both_browsers_keep_receipts_of_a_match_and_the_audit_page_checks_them(live_asgi_url, alice, bob, browser_page):
    base = live_asgi_url
    log_in(browser_page, base, "alice")
    browser_page.select_option("#create-form [name=game]", "mountain-goats")
    browser_page.select_option("#create-form [name=seat_1]", "person")
    browser_page.locator("#create-form button[type=submit]").click()
    browser_page.wait_for_url(f"{base}/matches/*/", timeout=STEP_TIMEOUT_MS)
    match_id = int(browser_page.url.rstrip("/").rsplit("/", 1)[1])
    bob_page = second_page(browser_page)
    try:
        log_in(bob_page, base, "bob")
        open_match(bob_page, base, match_id)
        bob_page.get_by_role("button", name="Join this match").click()
        bob_page.wait_for_selector("#match-live[data-status=active]", timeout=STEP_TIMEOUT_MS)
        browser_page.wait_for_selector("#connection[data-state=open]", timeout=STEP_TIMEOUT_MS)
        browser_page.wait_for_selector("#match-live[data-status=active]", timeout=STEP_TIMEOUT_MS)

        # Each page made its own contribution with crypto.getRandomValues.
        shares = in_thread(lambda: [e.payload["contribution"] for e in Event.objects.filter(
            match_id=match_id, type__in=["created", "joined"]).order_by("seq")])
        assert [s["by"] for s in shares] == ["player", "player"] and shares[0]["value"] != shares[1]["value"]
        # ... and the creator's page had the server commit to its seed before making its own.
        offered = browser_page.evaluate("JSON.parse(localStorage.getItem('cairn-offers'))")
        created = in_thread(lambda: Event.objects.get(match_id=match_id, seq=1).payload)
        assert offered[-1] == {"commitment": created["commitment"], "contribution": shares[0]["value"]}

        rng = random.Random(3)
        users = {0: alice, 1: bob}
        while in_thread(lambda: selectors.get_match(match_id).status) != Match.Status.FINISHED:
            seq = in_thread(play_random_move, match_id, users, rng)
            for page in (browser_page, bob_page):  # the push shows the new position, with its receipt
                page.wait_for_selector(f"#match-live[data-seq='{seq}']", timeout=STEP_TIMEOUT_MS)
        match = in_thread(selectors.get_match, match_id)
        keys = receipt_format.parse_keys(in_thread(public_keys))
        for page in (browser_page, bob_page):
            receipts = kept(page, match_id)
            assert len(receipts) > 10 and receipts[-1]["seq"] == match.seq and receipts[-1]["hash"] == match.last_hash
            for item in receipts:
                receipt_format.check_receipt(item, keys)

        # The audit page checks the kept receipts in the browser (WebCrypto Ed25519) against the events now.
        for page in (browser_page, bob_page):
            page.goto(f"{base}/matches/{match_id}/verify/")
            page.wait_for_selector("[data-receipts-result][data-state=passed]", timeout=STEP_TIMEOUT_MS)
            assert f"All {len(kept(page, match_id))} receipts" in page.locator("[data-receipts-result]").inner_text()
        browser_page.wait_for_selector("[data-offer-result][data-state=passed]", timeout=STEP_TIMEOUT_MS)
        assert bob_page.locator("[data-offer-result]").is_hidden()  # bob created nothing

        # A receipt this browser never got from the server (a forged one) fails there, named.
        forged = dict(kept(browser_page, match_id)[-1], hash="0" * 64)
        browser_page.evaluate(f"window.cairnReceipts.keep({json.dumps(forged)})")
        browser_page.reload()
        browser_page.wait_for_selector("[data-receipts-result][data-state=failed]", timeout=STEP_TIMEOUT_MS)
        assert "forged or altered" in browser_page.locator("[data-receipts-result]").inner_text()

        # "Download my receipts" saves a file the offline audit reads.
        browser_page.goto(f"{base}/matches/{match_id}/")
        with browser_page.expect_download() as download:
            browser_page.locator("[data-download-receipts]").first.click()
        saved = json.loads(open(download.value.path(), encoding="utf-8").read())
        assert saved["format"] == "cairn-receipts/1" and saved["keys"] == in_thread(public_keys)
        assert len(saved["receipts"]) == len(kept(browser_page, match_id))
    finally:
        bob_page.context.close()
