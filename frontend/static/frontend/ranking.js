/* Ranked play in the browser: live clocks and the per-user websocket.
   The server is the authority: clocks count down from what the last render said, and the
   server's own timeout task ends a turn whether or not this page is open. */
(function () {
  "use strict";
  if (window.__cairnRanking) return;  // loaded once per page, however often a fragment includes it
  window.__cairnRanking = true;

  function clockText(seconds) {
    var total = Math.max(0, Math.floor(seconds));
    var days = Math.floor(total / 86400), rest = total % 86400;
    var hours = Math.floor(rest / 3600); rest %= 3600;
    var minutes = Math.floor(rest / 60), secs = rest % 60;
    if (days) return days + "d " + hours + "h";
    var mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
    return (hours ? hours + ":" : "") + mm + ":" + String(secs).padStart(2, "0");
  }

  function tick() {
    var now = performance.now();
    document.querySelectorAll(".rk-clock[data-running='1']").forEach(function (el) {
      if (el._rkStart === undefined) el._rkStart = now;  // a fresh render (a new node after every push)
      var left = parseFloat(el.dataset.remaining || "0") - (now - el._rkStart) / 1000;
      // Once the match socket has given the server's time (lag.js), count down from the deadline by the
      // server's clock: every page then shows what the server will decide, however late the fragment came.
      var server = window.cairnServerClock;
      var deadline = el.dataset.deadline ? Date.parse(el.dataset.deadline) : NaN;
      if (server && server.offsetMs !== null && !isNaN(deadline)) left = (deadline - (Date.now() + server.offsetMs)) / 1000;
      el.textContent = clockText(left);
      el.classList.toggle("low", left < 20);
    });
  }
  setInterval(tick, 200);

  var socket = null, retry = 1000;
  function connect() {
    var panel = document.querySelector("[data-user-ws]:not(body)");  // body.dataset.userWs is the state, not the path
    if (!panel || socket) return;
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + panel.dataset.userWs;
    socket = new WebSocket(url);
    socket.onopen = function () { retry = 1000; document.body.dataset.userWs = "open"; };
    socket.onmessage = function (evt) {
      var msg;
      try { msg = JSON.parse(evt.data); } catch (e) { return; }
      if (msg.type === "match_found" && msg.url) { window.location.assign(msg.url); return; }
      document.dispatchEvent(new CustomEvent("cairn:user-message", { detail: msg }));  // table.js: notices
      if (window.htmx) window.htmx.trigger(document.body, "rk:refresh");
    };
    socket.onclose = function () {
      socket = null; document.body.dataset.userWs = "closed";
      setTimeout(connect, retry); retry = Math.min(retry * 2, 15000);
    };
  }
  // The lobby panel also says when a match was found while no socket was open.
  function followReadyMatch() {
    var ready = document.querySelector("[data-go-match]");
    if (ready) window.location.assign(ready.dataset.goMatch);
  }
  document.addEventListener("DOMContentLoaded", function () { connect(); followReadyMatch(); tick(); });
  document.addEventListener("htmx:afterSettle", function () { connect(); followReadyMatch(); });
  if (document.readyState !== "loading") { connect(); followReadyMatch(); }
})();
