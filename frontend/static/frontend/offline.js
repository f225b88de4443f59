/* A move sent while Cairn cannot be reached is kept, said so, and sent again.

   When a move (an htmx POST to /matches/<id>/move/) gets no answer (htmx:sendError,
   htmx:timeout) or a 502/503/504 (htmx:responseError: the server's database or Redis
   is down, games/outage.py), this script:
   - keeps the move (its form data, expected_seq included) and shows a banner saying it
     was NOT played yet and will be sent when the connection is back;
   - sends it again, once, when the page is live again (the match websocket reconnects)
     or at the server's Retry-After, whichever comes first, and keeps trying while the
     server stays unreachable;
   - then shows what the server answered: 201, the move is played (the banner says so);
     409, the position changed meanwhile, or the first try was in fact stored and its
     answer lost: the re-send names the same expected_seq, so the server refuses it as
     stale and the move is never played twice; the board shows the stored position.
   The page never shows a move as made before the server has stored it: the board only
   changes from server answers and pushes.  Other requests that fail (join, resign, ...)
   get the banner with "nothing was changed, try again"; a GET that fails (a list or count
   refreshed in the background) gets no banner.  Any request without an answer tells cairn.js
   ("cairn:unreachable"), which then shows the connection as offline.  Kept apart from cairn.js. */
(function () {
  "use strict";
  if (!window.htmx) return;

  // Reconnect a dropped websocket within a few seconds, not after htmx's default
  // full-jitter back-off (up to 64 s): a page catches up as soon as the server is back.
  htmx.config.wsReconnectDelay = function (retryCount) {
    var base = Math.min(4000, 500 * Math.pow(2, Math.min(retryCount, 4)));
    return base / 2 + Math.random() * base / 2;
  };
  // A server that accepts the connection but never answers counts as unreachable.
  if (!htmx.config.timeout) htmx.config.timeout = 15000;

  var pending = null;   // {path, body, seq, tries}
  var timer = null;
  var sending = false;
  var RETRY_MS = 5000;

  // The banner's styles are in cairn.css ("#offline-banner"): no inline styles (the Content-Security-Policy).

  function banner(kind, text, withDiscard) {
    var el = document.getElementById("offline-banner");
    if (!el) {
      el = document.createElement("div");
      el.id = "offline-banner";
      el.setAttribute("role", "alert");
      el.setAttribute("aria-live", "assertive");
      document.body.appendChild(el);
    }
    el.dataset.kind = kind;
    el.textContent = text;
    if (withDiscard) {
      var discard = document.createElement("button");
      discard.type = "button";
      discard.className = "button small";
      discard.textContent = "Don't send it";
      discard.addEventListener("click", function () {
        clearPending();
        banner("info", "Your move was not sent. Play it again when the connection is back.");
      });
      el.appendChild(discard);
    }
    el.hidden = false;
    if (kind === "ok") setTimeout(function () { if (el.dataset.kind === "ok") el.hidden = true; }, 6000);
  }

  function clearPending() {
    pending = null;
    if (timer) clearTimeout(timer);
    timer = null;
    var live = document.getElementById("match-live");
    if (live) live.removeAttribute("data-move-pending");
  }

  function isMove(config) {
    return config && (config.verb || "").toLowerCase() === "post" && /\/matches\/\d+\/move\/$/.test(config.path || "");
  }

  function bodyOf(config) {
    var params = new URLSearchParams();
    var data = config.formData || config.parameters;
    if (data && typeof data.forEach === "function") {
      data.forEach(function (value, key) { params.append(key, value); });
    } else if (data) {
      Object.keys(data).forEach(function (key) { params.append(key, data[key]); });
    }
    return params;
  }

  function serverMessage(xhr) {
    if (!xhr || !xhr.responseText) return "";
    var box = document.createElement("template");
    box.innerHTML = xhr.responseText;
    var found = box.content.querySelector("#outage-message");
    return found ? found.textContent.trim() : "";
  }

  function retryAfter(xhr) {
    var value = xhr && xhr.getResponseHeader && parseInt(xhr.getResponseHeader("Retry-After") || "", 10);
    return value > 0 ? Math.min(value, 30) * 1000 : RETRY_MS;
  }

  function keep(config, why, wait) {
    var body = bodyOf(config);
    pending = { path: config.path, body: body.toString(), seq: body.get("expected_seq"), tries: 0 };
    var live = document.getElementById("match-live");
    if (live) live.setAttribute("data-move-pending", "true");
    banner("warn", why + " Your move was not played yet: it is kept and will be sent as soon as the connection is back.", true);
    schedule(wait);
  }

  function schedule(wait) {
    if (timer) clearTimeout(timer);
    timer = setTimeout(resend, wait || RETRY_MS);
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  function swapAnswer(html) {
    var box = document.createElement("template");
    box.innerHTML = html || "";
    var node = box.content.querySelector("#match-live");
    var target = document.getElementById("match-live");
    if (!node || !target) return;
    var incoming = parseInt(node.dataset.seq || "0", 10);
    var shown = parseInt(target.dataset.seq || "0", 10);
    if (incoming < shown || (incoming === shown && !node.querySelector("#move-error"))) return;
    node.removeAttribute("hx-swap-oob");
    htmx.swap(target, node.outerHTML, { swapStyle: "outerHTML" });
  }

  function resend() {
    timer = null;
    if (!pending || sending) return;
    var move = pending;
    move.tries += 1;
    sending = true;
    fetch(move.path, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
        "X-CSRFToken": csrfToken(),
        "X-Cairn-Resend": String(move.tries)
      },
      body: move.body
    }).then(function (response) {
      return response.text().then(function (text) {
        sending = false;
        document.dispatchEvent(new CustomEvent("cairn:reachable"));
        if (response.status === 502 || response.status === 503 || response.status === 504) {
          var box = document.createElement("template");
          box.innerHTML = text;
          var msg = box.content.querySelector("#outage-message");
          banner("warn", (msg ? msg.textContent.trim() : "Cairn is still unavailable.") +
            " Your move is kept and will be sent again.", true);
          var wait = parseInt(response.headers.get("Retry-After") || "", 10);
          schedule(wait > 0 ? Math.min(wait, 30) * 1000 : RETRY_MS);
          return;
        }
        clearPending();
        swapAnswer(text);
        if (response.status === 201) {
          banner("ok", "Connection back: your move was sent and played.");
        } else if (response.status === 409) {
          banner("info", "Connection back: your move had already reached the server, or the position changed " +
            "meanwhile; either way it was not played again. The board shows the current position.");
        } else {
          banner("info", "Connection back, but the move was refused: see the message on the board.");
        }
      });
    }).catch(function () {
      sending = false;
      unreachable();
      banner("warn", "Cairn still cannot be reached. Your move is kept and will be sent when the connection is back.", true);
      schedule(RETRY_MS);
    });
  }

  function unreachable() {
    document.dispatchEvent(new CustomEvent("cairn:unreachable"));
  }
  // A GET (a list or count refreshed in the background, a filter) changes nothing: its failure only
  // says the server is out of reach (the connection state shows it), never "nothing was changed",
  // and it never replaces what the banner says about a kept or re-sent move.
  function isRead(config) {
    return !config || (config.verb || "get").toLowerCase() === "get";
  }
  function onSendError(evt) {
    var config = evt.detail.requestConfig;
    unreachable();
    if (isMove(config)) keep(config, "Cairn cannot be reached.", RETRY_MS);
    else if (!isRead(config)) banner("warn", "Cairn cannot be reached, so nothing was changed. Try again in a moment.");
  }
  function onTimeout(evt) {
    var config = evt.detail.requestConfig;
    unreachable();
    if (isMove(config)) keep(config, "Cairn did not answer.", RETRY_MS);
    else if (!isRead(config)) banner("warn", "Cairn did not answer, so nothing may have changed. Try again in a moment.");
  }
  function onResponseError(evt) {
    var xhr = evt.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (status !== 502 && status !== 503 && status !== 504) {
      if (status >= 500) banner("warn", "Something went wrong on the server (" + status + "). Nothing was changed; try again.");
      return;
    }
    var why = serverMessage(xhr) || "Cairn is unavailable for a moment.";
    var config = evt.detail.requestConfig;
    if (isMove(config)) keep(config, why, retryAfter(xhr));
    else if (!isRead(config)) banner("warn", why);
  }
  var handlers = { "htmx:sendError": onSendError, "htmx:timeout": onTimeout, "htmx:responseError": onResponseError };
  Object.keys(handlers).forEach(function (name) {
    document.addEventListener(name, handlers[name]);
  });
  // A push can replace the form while its request is failing (the move was stored and pushed,
  // its answer lost): htmx then fires the error on the detached form, where no event reaches
  // the document.  Listen on the form itself too, and act only if it is detached.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var form = evt.detail.elt;
    if (!form || !form.closest || !form.closest("#match-live") || !isMove(evt.detail.requestConfig)) return;
    Object.keys(handlers).forEach(function (name) {
      form.addEventListener(name, function (inner) {
        if (!document.body.contains(form)) handlers[name](inner);
      }, { once: true });
    });
  });
  // A move sent on the socket (socketmove.js) whose answer never came: kept and sent again over HTTP.
  document.addEventListener("cairn:keepMove", function (evt) {
    keep(evt.detail, "The connection dropped before your move's answer came.", 300);
  });
  // The match websocket is back: the server is reachable again, send the kept move now.
  document.addEventListener("htmx:wsOpen", function () {
    if (pending) schedule(300);
  });
  // A successful request means the server is back too; a new move replaces a kept one.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    if (pending && isMove(evt.detail.requestConfig)) clearPending();
  });
  window.addEventListener("online", function () { if (pending) schedule(300); });
})();
