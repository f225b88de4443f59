"""Every kind of page passes axe-core with no serious or critical finding (WCAG 2 A and AA rules included).

axe-core is vendored for the tests only (tests/browser/vendor/, pinned in package.json and
package-lock.json) and injected into the page by Playwright: no page of Cairn ever loads it.
Checked: the lobby, each game's board (a match in play, from a player's seat), a replay, the audit
page and the settings page.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games import services

from .table_helpers import STEP_TIMEOUT_MS, in_thread, log_in, open_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases="__all__")]

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"

RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' :: ' + (n.failureSummary || '').split('\\n').slice(0, 2).join(' '))
  }));
}"""


# The contrast of the first visible element ``selector`` names against the first opaque background
# behind it (WCAG's relative luminance): axe reports some of these as "incomplete" (a border or a
# shadow around the text), so the ones that failed AA before are measured here too.
CONTRAST = """(selector) => {
  const el = Array.from(document.querySelectorAll(selector)).find(e => e.getClientRects().length);
  if (!el) return null;
  const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  let bg = null;
  for (let node = el; node && !bg; node = node.parentElement) {
    const c = rgb(getComputedStyle(node).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] === 1)) bg = c.slice(0, 3);
  }
  const fg = lum(rgb(getComputedStyle(el).color).slice(0, 3)), back = lum(bg || [255, 255, 255]);
  return (Math.max(fg, back) + 0.05) / (Math.min(fg, back) + 0.05);
}"""

# Per page: the elements whose text failed WCAG AA (4.5:1) before.
MEASURED = {
    "mountain-goats": [".seat-badge.seat-1", ".seat-badge.seat-0", ".scores td.zero"],
    "mountainhome": [".seat-badge.seat-1", ".mh-res.res-shinies"],
    "replay": [".scores td.zero"],
}


def serious_findings(page, name: str = "") -> list[dict]:
    # Evaluated through the browser's debugging protocol, which the pages' Content-Security-Policy (no
    # inline scripts) does not govern; a <script> tag with axe's text would be refused, as it should be.
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    found = page.evaluate(RUN_AXE)
    for selector in MEASURED.get(name, []):
        ratio = page.evaluate(CONTRAST, selector)
        assert ratio is not None, f"{name}: nothing matches {selector}"
        if ratio < 4.5:
            found.append({"id": "measured-contrast", "target": selector, "ratio": round(ratio, 2)})
    return found


def test_no_page_has_a_serious_accessibility_finding(live_asgi_url, alice, bob, browser_page):
    page, base = browser_page, live_asgi_url
    matches = {}
    for game in ("mountain-goats", "nanga-parbat", "mountainhome"):
        match = in_thread(services.create_match, user=alice, game_id=game, seats=[{"human": True}, {"human": True}],
                          options={})
        matches[game] = in_thread(services.join_match, match_id=match.pk, user=bob)
    log_in(page, base, "alice")
    findings = {}
    findings["lobby"] = serious_findings(page)
    for game, match in matches.items():
        open_match(page, base, match.pk)
        page.wait_for_timeout(200)
        findings[game] = serious_findings(page, game)
    mg = matches["mountain-goats"]
    page.goto(f"{base}/matches/{mg.pk}/replay/?seq={mg.seq}")
    page.wait_for_selector("#replay", timeout=STEP_TIMEOUT_MS)
    findings["replay"] = serious_findings(page, "replay")
    page.goto(f"{base}/matches/{mg.pk}/verify/")
    findings["audit"] = serious_findings(page)
    page.get_by_role("link", name="Settings").first.click()
    page.wait_for_load_state()
    findings["settings"] = serious_findings(page)
    page.goto(f"{base}/watch/")
    findings["watch"] = serious_findings(page)
    bad = {name: found for name, found in findings.items() if found}
    assert not bad, "\n".join(f"{name}: {f}" for name, found in bad.items() for f in found)
