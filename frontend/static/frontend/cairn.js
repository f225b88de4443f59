/* Cairn's own script: small conveniences on top of htmx.  Every page works without
   the parts below except live updates; nothing here sends moves (htmx forms and socketmove.js do). */
(function () {
  "use strict";

  // ------------------------------------------------------------ live connection state
  function setConnection(state, text) {
    var el = document.getElementById("connection");
    if (!el) return;
    el.dataset.state = state;
    var label = el.querySelector(".connection-text");
    if (label) label.textContent = text;
  }
  // "Live" only while the match socket is open AND the server answers: a socket can stay open
  // for a while after the network is gone, so the browser's offline event and any request that
  // got no answer (offline.js sends "cairn:unreachable") say "Offline" until an answer comes back.
  var socketOpen = false;
  var unreachable = false;
  function showConnection(problem) {
    if (unreachable) setConnection("closed", "Offline: Cairn cannot be reached");
    else if (socketOpen) setConnection("open", "Live");
    else setConnection("closed", problem || "Reconnecting…");
  }
  document.addEventListener("htmx:wsOpen", function () { socketOpen = true; unreachable = false; showConnection(); });
  document.addEventListener("htmx:wsClose", function () { socketOpen = false; showConnection(); });
  document.addEventListener("htmx:wsError", function () { socketOpen = false; showConnection("Connection problem, retrying…"); });
  document.addEventListener("cairn:unreachable", function () { unreachable = true; showConnection(); });
  document.addEventListener("cairn:reachable", function () { unreachable = false; showConnection(); });
  window.addEventListener("offline", function () { unreachable = true; showConnection(); });
  document.addEventListener("htmx:afterRequest", function (evt) {
    var xhr = evt.detail && evt.detail.xhr;
    if (unreachable && xhr && xhr.status > 0 && xhr.status < 500 && navigator.onLine !== false) {
      unreachable = false;
      showConnection();
    }
  });

  // ------------------------------------------------------------ keyboard: focus survives a swap
  // A move's answer or a push replaces #match-live, and with it the focused button: the browser
  // would put focus back on <body> and the next Tab would start at the top of the page.  So the
  // last control focused inside #match-live is remembered, and after a swap focus goes to the same
  // control if it is still there (same id, or same name and value), else to the first choice in
  // the same part of the board, else to the board itself.
  var lastFocus = null;   // {el, id, name, value, region}
  function focusable(root) {
    return root && root.querySelector("button:not([disabled]), [href], input:not([type=hidden]):not([disabled]), " +
      "select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])");
  }
  function focusElement(el) {
    if (!el) return false;
    if (el.tabIndex < 0 && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
    el.focus({ preventScroll: true });
    return document.activeElement === el;
  }
  document.addEventListener("focusin", function (evt) {
    var el = evt.target;
    var live = document.getElementById("match-live");
    if (!live || !live.contains(el)) {
      if (el !== document.body) lastFocus = null;  // the player went elsewhere: leave focus alone
      return;
    }
    var region = el.parentNode && el.parentNode.closest ? el.parentNode.closest("[id]") : null;
    lastFocus = { el: el, id: el.id || "", name: el.getAttribute("name") || "", value: el.getAttribute("value") || "",
                  region: region && region !== live && live.contains(region) ? region.id : "" };
  });
  function restoreFocus() {
    var live = document.getElementById("match-live");
    var active = document.activeElement;
    if (!live || !lastFocus || document.body.contains(lastFocus.el)) return;  // not swapped away
    if (active && active !== document.body && active !== document.documentElement) return;
    var target = (lastFocus.id && document.getElementById(lastFocus.id)) || null;
    if (!target && lastFocus.name) {
      Array.prototype.some.call(live.querySelectorAll("[name]"), function (el) {
        if (el.getAttribute("name") === lastFocus.name && (el.getAttribute("value") || "") === lastFocus.value && !el.disabled) {
          target = el;
          return true;
        }
        return false;
      });
    }
    if (!target && lastFocus.region) target = focusable(document.getElementById(lastFocus.region));
    if (!target) target = focusable(live.querySelector("form[hx-post], .board, [data-board-script]"));
    if (target && live.contains(target) && focusElement(target)) return;
    live.setAttribute("tabindex", "-1");
    live.focus({ preventScroll: true });
  }
  ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage", "htmx:afterSwap"].forEach(function (name) {
    document.addEventListener(name, function () { setTimeout(restoreFocus, 0); });
  });
  // The skip link moves focus (not only the scroll position) to the board or the page's content.
  document.addEventListener("click", function (evt) {
    var link = evt.target.closest && evt.target.closest("a.skip-link");
    if (!link) return;
    var target = document.getElementById((link.getAttribute("href") || "").slice(1));
    if (!target) return;
    evt.preventDefault();
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus();
    target.scrollIntoView({ block: "start" });
  });

  // ------------------------------------------------------------ only this match's fragments
  // A pushed fragment names its match and deployment (data-match, data-deployment on its root);
  // a page takes none that names another, whatever the socket sends.
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var page = document.getElementById("match-live");
    if (!page) return;
    var template = document.createElement("template");
    template.innerHTML = evt.detail.message || "";
    var foreign = Array.prototype.some.call(template.content.children, function (node) {
      return (node.hasAttribute("data-match") && node.getAttribute("data-match") !== page.getAttribute("data-match")) ||
        (node.hasAttribute("data-deployment") && node.getAttribute("data-deployment") !== page.getAttribute("data-deployment"));
    });
    if (foreign) evt.preventDefault();
  });

  // ------------------------------------------------------------ board scripts
  // A game's board names its script in data-board-script.  Each script is loaded once
  // per page, whether the board came with the page or first arrived in a live swap:
  // htmx runs no <script> tags in swapped content (allowScriptTags is off).
  var boardScripts = {};
  function loadBoardScripts(root) {
    var scope = root && root.querySelectorAll ? root : document;
    var found = Array.prototype.slice.call(scope.querySelectorAll("[data-board-script]"));
    if (scope.matches && scope.matches("[data-board-script]")) found.push(scope);
    found.forEach(function (el) {
      var src = el.getAttribute("data-board-script");
      if (!src || boardScripts[src]) return;
      boardScripts[src] = true;
      var script = document.createElement("script");
      script.src = src;
      document.head.appendChild(script);
    });
  }
  loadBoardScripts(document);
  document.addEventListener("htmx:load", function (evt) { loadBoardScripts(evt.target); });
  document.addEventListener("htmx:oobAfterSwap", function (evt) { loadBoardScripts(evt.target); });

  // Delivery: each socket gets every newer position once, in order, and the page
  // that made a move gets that move as its HTTP answer only (its socket is told to skip it:
  // the page's id travels as ?client= on the socket and X-Cairn-Client on the move).  So
  // pushes arrive newest-last and nothing here filters them; only a move's answer can be
  // older than the page (a bot answered first), which the handler below sorts out.

  // A move's answer can arrive after a push has already replaced the form that sent it
  // (a bot answers fast).  htmx would then look for the answer's out-of-band targets
  // inside the detached form, find none, and report htmx:oobErrorNoTarget.  Its swap
  // events fire on that detached form, so the handler is put on the form itself: it
  // swaps the answer into the page unless the page already shows a newer position, or
  // the same one without an error to tell.
  function swapDetachedAnswer(evt) {
    var form = evt.currentTarget;
    if (document.body.contains(form) || !evt.detail.shouldSwap) return;
    evt.detail.shouldSwap = false;
    var template = document.createElement("template");
    template.innerHTML = evt.detail.serverResponse || "";
    Array.prototype.forEach.call(template.content.querySelectorAll("[hx-swap-oob]"), function (node) {
      var target = node.id && document.getElementById(node.id);
      if (!target) return;
      if (node.id === "match-live") {
        var incoming = parseInt(node.dataset.seq || "0", 10);
        var shown = parseInt(target.dataset.seq || "0", 10);
        if (incoming < shown || (incoming === shown && !node.querySelector("#move-error"))) return;
      }
      node.removeAttribute("hx-swap-oob");
      htmx.swap(target, node.outerHTML, { swapStyle: "outerHTML" });
    });
  }
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var form = evt.detail.elt;
    if (!form || !form.closest || !form.closest("#match-live")) return;
    form.addEventListener("htmx:beforeSwap", swapDetachedAnswer, { once: true });
  });

  // ------------------------------------------------------------ replay: keys, and the current event in view
  document.addEventListener("keydown", function (evt) {
    if (!document.getElementById("replay") || evt.altKey || evt.ctrlKey || evt.metaKey) return;
    var tag = (evt.target && evt.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    var name = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[evt.key];
    var link = name && document.querySelector('#replay [data-replay="' + name + '"]:not(.disabled)');
    if (!link) return;
    evt.preventDefault();
    link.click();
  });
  function showCurrentEvent() {
    var current = document.querySelector("#replay .replay-log .current");
    if (!current) return;
    var list = current.parentNode;
    list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
  }
  document.addEventListener("DOMContentLoaded", showCurrentEvent);
  document.addEventListener("htmx:afterSettle", showCurrentEvent);

  // ------------------------------------------------------------ the tab title says when it is your turn
  var TITLE_MARK = "(Your turn) ";
  function updateTitle() {
    var live = document.getElementById("match-live");
    if (!live) return;
    var base = document.title.indexOf(TITLE_MARK) === 0 ? document.title.slice(TITLE_MARK.length) : document.title;
    document.title = (live.querySelector(".turn-banner.mine") ? TITLE_MARK : "") + base;
  }
  document.addEventListener("htmx:wsAfterMessage", updateTitle);
  document.addEventListener("htmx:afterRequest", function () { setTimeout(updateTitle, 0); });
  document.addEventListener("DOMContentLoaded", updateTitle);

  // ------------------------------------------------------------ Mountain Goats: highlight a climb's mountains
  function highlight(button, on) {
    var list = (button.dataset.mountains || "").split(" ").filter(Boolean);
    list.forEach(function (m) {
      var g = document.getElementById("mg-m-" + m);
      if (g) g.classList.toggle("hl", on);
    });
  }
  ["mouseover", "focusin"].forEach(function (type) {
    document.addEventListener(type, function (evt) {
      var b = evt.target.closest && evt.target.closest(".climb");
      if (b) highlight(b, true);
    });
  });
  ["mouseout", "focusout"].forEach(function (type) {
    document.addEventListener(type, function (evt) {
      var b = evt.target.closest && evt.target.closest(".climb");
      if (b) highlight(b, false);
    });
  });

  // ------------------------------------------------------------ Mountain Goats: the group builder's preview
  function builderPreview(form) {
    var out = form.querySelector(".builder-preview");
    if (!out) return;
    var roll = (form.dataset.roll || "").split(",").map(Number);
    var faces = roll.slice();
    form.querySelectorAll(".face-select").forEach(function (sel) {
      faces[parseInt(sel.name.split("-")[1], 10)] = parseInt(sel.value, 10);
    });
    var groups = {};
    form.querySelectorAll(".group-select").forEach(function (sel) {
      if (!sel.value) return;
      var i = parseInt(sel.name.split("-")[1], 10);
      (groups[sel.value] = groups[sel.value] || []).push(i);
    });
    var names = Object.keys(groups).sort();
    out.textContent = "";
    if (!names.length) {
      out.textContent = "No group yet: this climbs nothing.";
      return;
    }
    var climbs = [];
    names.forEach(function (name, k) {
      var total = groups[name].reduce(function (s, i) { return s + faces[i]; }, 0);
      var span = document.createElement("span");
      var ok = total >= 5 && total <= 10;
      span.className = ok ? "ok" : "bad";
      span.textContent = "Group " + name + " = " + total + (ok ? "" : " (no mountain: must total 5 to 10)");
      if (k) out.appendChild(document.createTextNode(" · "));
      out.appendChild(span);
      if (ok) climbs.push(total);
    });
    if (climbs.length === names.length) {
      climbs.sort(function (a, b) { return a - b; });
      out.appendChild(document.createTextNode(" → climbs " + climbs.join(", ")));
    }
  }
  document.addEventListener("change", function (evt) {
    var form = evt.target.closest && evt.target.closest(".mg-builder");
    if (form) builderPreview(form);
  });

  // ------------------------------------------------------------ lobby: fit the form to the chosen game
  function fitCreateForm() {
    var form = document.getElementById("create-form");
    var countsEl = document.getElementById("game-player-counts");
    if (!form || !countsEl) return;
    var counts = JSON.parse(countsEl.textContent);
    var game = form.querySelector("[name=game]").value;
    var playersSel = form.querySelector("[name=players]");
    var allowed = counts[game] || [];
    Array.prototype.forEach.call(playersSel.options, function (opt) {
      opt.disabled = allowed.indexOf(parseInt(opt.value, 10)) < 0;
    });
    if (playersSel.selectedOptions[0] && playersSel.selectedOptions[0].disabled && allowed.length) {
      playersSel.value = String(allowed[0]);
    }
    var n = parseInt(playersSel.value, 10);
    form.querySelectorAll(".seat-line[data-seat]").forEach(function (line) {
      line.hidden = parseInt(line.dataset.seat, 10) >= n;
    });
    form.querySelectorAll(".game-option").forEach(function (el) {
      el.hidden = el.dataset.game !== game;
    });
    // Each bot level's published rating is per game and table size: relabel the seat choices.
    var labelsEl = document.getElementById("bot-labels");
    var allLabels = labelsEl ? JSON.parse(labelsEl.textContent) : {};
    var labels = allLabels[game + "/" + n] || allLabels[game] || {};
    form.querySelectorAll(".seat-line select option").forEach(function (opt) {
      if (labels[opt.value]) opt.textContent = labels[opt.value];
    });
  }
  document.addEventListener("change", function (evt) {
    if (evt.target.closest && evt.target.closest("#create-form")) fitCreateForm();
  });
  // At load, and when the browser restores the form (back/forward): a restored game choice gets its
  // own bots' ratings, not those of the game the page was drawn with.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fitCreateForm);
  else fitCreateForm();
  window.addEventListener("pageshow", fitCreateForm);
})();
