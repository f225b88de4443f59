// Receipts kept in this browser, and this browser's share of the dice (docs/AUDIT.md).
//
// * Every #match-live fragment (the page, a move's answer, a push) carries the server's signed receipt of
//   the head it shows (data-receipt).  They are kept in localStorage under "cairn-receipts": at most
//   200 per match (the newest) and 50 matches (the most recently seen).
// * [data-download-receipts] saves them as a cairn-receipts/1 file for `python -m engine audit --receipts`.
// * [data-check-receipts] (the audit page) checks them here: each signature with WebCrypto's Ed25519
//   against the server's public keys, and each signed (seq, hash) against the match's events now.
// * Forms and buttons marked data-contribute send a fresh 32-byte value from crypto.getRandomValues as
//   `contribution`: this seat's share of the match's dice.  The create form first asks the server to
//   commit to the match's seed (POST /api/matches/commitment) and sends that commitment along, so the
//   seed is fixed before the contribution exists; the pair is kept ("cairn-offers") and the audit page
//   checks that the match uses that commitment.
(function () {
  "use strict";
  var STORE = "cairn-receipts";
  var PER_MATCH = 200;
  var MATCHES = 50;

  function load() {
    try {
      var data = JSON.parse(localStorage.getItem(STORE) || "{}");
      return data && typeof data.matches === "object" ? data : { matches: {} };
    } catch (e) {
      return { matches: {} };
    }
  }

  function save(data) {
    try { localStorage.setItem(STORE, JSON.stringify(data)); } catch (e) { /* full or disabled: nothing kept */ }
  }

  function keep(receipt) {
    if (!receipt || typeof receipt.match !== "number" || typeof receipt.seq !== "number") return;
    var data = load();
    var id = String(receipt.match);
    var entry = data.matches[id] || { seen: 0, receipts: [] };
    var known = entry.receipts.some(function (r) { return r.seq === receipt.seq && r.hash === receipt.hash && r.signature === receipt.signature; });
    if (!known) {
      entry.receipts.push(receipt);
      entry.receipts.sort(function (a, b) { return a.seq - b.seq; });
      entry.receipts = entry.receipts.slice(-PER_MATCH);
    }
    entry.seen = Date.now();
    data.matches[id] = entry;
    var ids = Object.keys(data.matches).sort(function (a, b) { return data.matches[b].seen - data.matches[a].seen; });
    ids.slice(MATCHES).forEach(function (old) { delete data.matches[old]; });
    save(data);
  }

  function keepFromPage() {
    var live = document.getElementById("match-live");
    if (!live || !live.dataset.receipt) return;
    try { keep(JSON.parse(live.dataset.receipt)); } catch (e) { /* a malformed attribute keeps nothing */ }
  }

  function kept(matchId) {
    var entry = load().matches[String(matchId)];
    return entry ? entry.receipts : [];
  }

  function hex(bytes) {
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function unhex(text) {
    var out = new Uint8Array(text.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(text.substr(2 * i, 2), 16);
    return out;
  }

  function contribution() {
    var bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    return hex(bytes);
  }

  // ------------------------------------------------------------ keeping
  document.addEventListener("DOMContentLoaded", keepFromPage);
  ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage", "htmx:afterSwap"].forEach(function (name) {
    document.addEventListener(name, function () { setTimeout(keepFromPage, 0); });
  });

  // ------------------------------------------------------------ contributing
  var OFFERS = "cairn-offers";

  function hidden(form, name, value) {
    var input = form.querySelector("input[name=" + name + "]");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      form.appendChild(input);
    }
    input.value = value;
  }

  function offers() {
    try { return JSON.parse(localStorage.getItem(OFFERS) || "[]"); } catch (e) { return []; }
  }

  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!form || !form.hasAttribute || !form.hasAttribute("data-contribute")) return;
    if (form.id !== "create-form") {
      hidden(form, "contribution", contribution());
      return;
    }
    evt.preventDefault();  // first the server's commitment, then this browser's contribution
    var token = form.querySelector("[name=csrfmiddlewaretoken]");
    fetch("/api/matches/commitment", {
      method: "POST", credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": token ? token.value : "" },
    }).then(function (r) { return r.ok ? r.json() : null; }).catch(function () { return null; }).then(function (offer) {
      var mine = contribution();
      hidden(form, "contribution", mine);
      if (offer && offer.commitment) {
        hidden(form, "commitment", offer.commitment);
        try {
          localStorage.setItem(OFFERS, JSON.stringify(offers().concat([{ commitment: offer.commitment, contribution: mine }]).slice(-50)));
        } catch (e) { /* nothing kept */ }
      }
      form.submit();
    });
  }, true);
  document.addEventListener("htmx:configRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    if (elt && elt.hasAttribute && elt.hasAttribute("data-contribute")) evt.detail.parameters.contribution = contribution();
  });

  // ------------------------------------------------------------ downloading
  function getJSON(url) {
    return fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error(url + " answered " + r.status);
      return r.json();
    });
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("[data-download-receipts]");
    if (!button) return;
    evt.preventDefault();
    var matchId = Number(button.getAttribute("data-download-receipts"));
    getJSON("/api/receipts/keys").then(function (body) {
      var file = { format: "cairn-receipts/1", match: matchId, keys: body.keys, receipts: kept(matchId) };
      var link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([JSON.stringify(file, null, 1)], { type: "application/json" }));
      link.download = "cairn-receipts-" + matchId + ".json";
      document.body.appendChild(link);
      link.click();
      setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
    });
  });

  // ------------------------------------------------------------ checking (the audit page)
  // The signed message: the canonical JSON of the receipt without its signature (keys sorted, no spaces).
  function message(r) {
    return new TextEncoder().encode(JSON.stringify({ format: r.format, hash: r.hash, key: r.key, match: r.match, seq: r.seq, time: r.time }));
  }

  function verify(receipt, keys) {
    var key = keys[receipt.key];
    if (!key) return Promise.resolve("signed by key " + receipt.key + ", which the server does not list");
    return crypto.subtle.importKey("raw", unhex(key), { name: "Ed25519" }, false, ["verify"]).then(function (k) {
      return crypto.subtle.verify({ name: "Ed25519" }, k, unhex(receipt.signature), message(receipt));
    }).then(function (ok) { return ok ? null : "the signature does not verify: forged or altered"; });
  }

  function checkReceipts(box) {
    var matchId = Number(box.getAttribute("data-check-receipts"));
    var out = box.querySelector("[data-receipts-result]");
    var receipts = kept(matchId);
    if (!receipts.length) {
      out.textContent = "This browser kept no receipts of this match.";
      out.setAttribute("data-state", "none");
      return;
    }
    Promise.all([getJSON("/api/receipts/keys"), getJSON("/api/matches/" + matchId + "/events/")]).then(function (bodies) {
      var keys = {};
      bodies[0].keys.forEach(function (k) { keys[k.id] = k.public_key; });
      var hashes = {};
      bodies[1].events.forEach(function (e) {
        hashes[e.seq] = e.hash;
        (e.skipped || []).forEach(function (s) { hashes[s.seq] = s.hash; });
      });
      return Promise.all(receipts.map(function (r) { return verify(r, keys); })).then(function (problems) {
        var failures = [];
        receipts.forEach(function (r, i) {
          var name = "receipt of seq " + r.seq + " (" + r.time + ")";
          if (problems[i]) failures.push(name + ": " + problems[i]);
          else if (r.match !== matchId) failures.push(name + ": it is of match " + r.match);
          else if (!(r.seq in hashes)) failures.push(name + " signs hash " + r.hash + ", but the match's events end before seq " + r.seq);
          else if (hashes[r.seq] !== r.hash) failures.push(name + " signs hash " + r.hash + ", but the match now says " + hashes[r.seq] + ": the history was rewritten");
        });
        if (failures.length) {
          out.textContent = failures.length + " of " + receipts.length + " receipts fail. " + failures.join(" · ");
          out.setAttribute("data-state", "failed");
        } else {
          out.textContent = "All " + receipts.length + " receipts this browser kept are signed by the server and agree with the match's events now.";
          out.setAttribute("data-state", "passed");
        }
      });
    }).catch(function (e) {
      out.textContent = "The receipts could not be checked: " + e.message;
      out.setAttribute("data-state", "error");
    });
  }

  // The creator's browser: did the match use the commitment the server gave before the contribution was made?
  function checkOffer(box) {
    var out = box.querySelector("[data-offer-result]");
    if (!out) return;
    var matchId = Number(box.getAttribute("data-check-receipts"));
    getJSON("/api/matches/" + matchId + "/events/").then(function (body) {
      var created = body.events.filter(function (e) { return e.type === "created"; })[0];
      var share = created && created.payload && created.payload.contribution;
      var mine = share && offers().filter(function (o) { return o.contribution === share.value; })[0];
      if (!mine) {
        out.hidden = true;
        return;
      }
      var ok = created.payload.commitment === mine.commitment;
      out.hidden = false;
      out.setAttribute("data-state", ok ? "passed" : "failed");
      out.textContent = ok
        ? "The server committed to this match's seed (" + mine.commitment.slice(0, 16) + "…) before this browser made its contribution: it could not pick the seed against it."
        : "This browser was offered the commitment " + mine.commitment + ", but the match uses " + created.payload.commitment + ": the server changed its seed after seeing your contribution.";
    }).catch(function () { out.hidden = true; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("[data-check-receipts]"), checkOffer);
    Array.prototype.forEach.call(document.querySelectorAll("[data-check-receipts]"), function (box) {
      var count = box.querySelector("[data-receipts-count]");
      if (count) count.textContent = String(kept(Number(box.getAttribute("data-check-receipts"))).length);
      checkReceipts(box);
    });
  });

  window.cairnReceipts = { kept: kept, keep: keep };
})();
