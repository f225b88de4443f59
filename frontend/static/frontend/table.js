/* At the table: chat conveniences, turn notifications and live notices.
   Chat is posted with hx-post and arrives over the websockets as htmx out-of-band swaps;
   nothing here sends moves or chat over a socket. */
(function () {
  "use strict";
  if (window.__cairnTable) return;
  window.__cairnTable = true;

  // ------------------------------------------------------------ chat
  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.detail.elt;
    if (!elt || !elt.closest) return;
    var form = elt.closest(".chat-form");
    if (form && evt.detail.successful) {
      var input = form.querySelector("input[name=text]");
      if (input) { input.value = ""; input.focus(); }
    }
    var mute = elt.closest(".chat-mute");
    if (mute && evt.detail.successful) {
      var item = mute.closest("[data-author]");
      var author = item && item.getAttribute("data-author");
      if (author) {
        document.querySelectorAll(".chat-msg").forEach(function (li) {
          if (li.getAttribute("data-author") === author) li.remove();
        });
        toast("You will no longer see messages from " + author + ".");
      }
    }
  });

  // Keep a chat list scrolled to its newest message.
  function scrollChats() {
    document.querySelectorAll(".chat-messages").forEach(function (list) { list.scrollTop = list.scrollHeight; });
  }
  document.addEventListener("htmx:oobAfterSwap", scrollChats);
  document.addEventListener("DOMContentLoaded", scrollChats);

  // Players may hide the spectators' chat; the choice is remembered in this browser.
  function restoreDetails() {
    document.querySelectorAll("details[data-remember]").forEach(function (el) {
      try {
        var saved = window.localStorage.getItem(el.dataset.remember);
        if (saved === "closed") el.open = false;
      } catch (e) { /* storage disabled: keep the default */ }
    });
  }
  document.addEventListener("toggle", function (evt) {
    var el = evt.target;
    if (!el || !el.dataset || !el.dataset.remember) return;
    try { window.localStorage.setItem(el.dataset.remember, el.open ? "open" : "closed"); } catch (e) { /* ignore */ }
  }, true);
  document.addEventListener("DOMContentLoaded", restoreDetails);

  // ------------------------------------------------------------ notices
  function toast(text, href) {
    var box = document.getElementById("toasts");
    if (!box) return;
    var item = document.createElement(href ? "a" : "p");
    item.className = "toast";
    item.textContent = text;
    if (href) item.href = href;
    box.appendChild(item);
    setTimeout(function () { item.remove(); }, 8000);
  }
  // ranking.js owns the per-user socket (ws/user/) and re-dispatches each message.
  document.addEventListener("cairn:user-message", function (evt) {
    var msg = evt.detail || {};
    if (msg.type === "challenge") toast((msg.from || "Someone") + " challenges you. Answer in the lobby.", "/#ranked-panel");
    notifyTurnish(msg);
  });
  function notifyTurnish(msg) {
    if (msg.type === "challenge") show("Cairn: a challenge", (msg.from || "Someone") + " challenges you.");
  }

  // ------------------------------------------------------------ your turn: sound and browser notification
  var wasMine = null;
  function beep() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      var ctx = new Ctx();
      var osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.type = "sine"; osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.0001, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.35);
      osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.4);
      osc.onended = function () { ctx.close(); };
    } catch (e) { /* no audio: nothing to do */ }
  }
  function show(title, body) {
    if (document.body.dataset.notifyBrowser !== "1" || !document.hidden) return;
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    try { new Notification(title, { body: body, tag: "cairn-turn" }); } catch (e) { /* ignore */ }
  }
  function checkTurn() {
    var mine = !!document.querySelector("#match-live .turn-banner.mine");
    if (mine && wasMine === false) {
      if (document.body.dataset.notifySound === "1") beep();
      var heading = document.querySelector("#match-live h1");
      show("Your turn", heading ? heading.textContent.replace(/\s+/g, " ").trim() : "Cairn");
    }
    wasMine = mine;
  }
  document.addEventListener("DOMContentLoaded", checkTurn);
  document.addEventListener("htmx:wsAfterMessage", checkTurn);
  document.addEventListener("htmx:afterSettle", checkTurn);

  // The settings page asks for the browser's permission when the box is ticked (a user action).
  document.addEventListener("change", function (evt) {
    var box = evt.target;
    if (!box || box.id !== "notify-browser" || !box.checked) return;
    var status = document.getElementById("notify-permission");
    if (!("Notification" in window)) {
      if (status) status.textContent = "This browser cannot show notifications.";
      return;
    }
    Notification.requestPermission().then(function (answer) {
      if (status) status.textContent = answer === "granted" ? "Notifications are allowed." :
        "The browser did not allow notifications (" + answer + "); change it in the site settings.";
    });
  });

  if (document.readyState !== "loading") { restoreDetails(); scrollChats(); checkTurn(); }
})();
