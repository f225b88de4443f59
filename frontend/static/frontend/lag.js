// Lag compensation (docs/RANKING.md, "Lag compensation"): the round trip of this page's last move
// request (or socket move, socketmove.js), less the server's own time on it (the answer's X-Cairn-Server-Ms), is this player's
// network lag; it travels with the next move as X-Cairn-Lag (milliseconds), and the server credits
// part of it back to a real-time clock, within a cap per move and a quota per match.
(function () {
  "use strict";
  var MOVE = /\/matches\/\d+\/move\/$/;
  var started = null;
  var lag = null;

  function isMove(evt) {
    var config = evt.detail && evt.detail.requestConfig;
    return Boolean(config && MOVE.test(config.path || ""));
  }

  // socketmove.js reads the lag for a move sent on the socket, and sets it from that move's answer.
  window.CairnLag = {
    get: function () { return lag; },
    set: function (ms) { lag = ms; }
  };

  document.addEventListener("htmx:configRequest", function (evt) {
    if (lag !== null && MOVE.test(evt.detail.path || "")) {
      evt.detail.headers["X-Cairn-Lag"] = String(Math.min(10000, Math.round(lag)));
    }
  });
  document.addEventListener("htmx:beforeRequest", function (evt) {
    if (isMove(evt)) started = performance.now();
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (!isMove(evt) || started === null) return;
    var xhr = evt.detail.xhr;
    var server = parseFloat((xhr && xhr.getResponseHeader("X-Cairn-Server-Ms")) || "");
    if (!isNaN(server)) lag = Math.max(0, performance.now() - started - server);
    started = null;
  });
})();

// The match socket's ping (games.fairplay.lag): answered at once, so the server times this player's round
// trip on its own clock.  The ping carries the server's time and the round trip it last measured: the
// server's clock reads server_ms + rtt / 2 as the ping arrives, which sets this page's clock by the
// server's (window.cairnServerClock; ranking.js counts the clocks down from their deadlines with it).
(function () {
  "use strict";
  window.cairnServerClock = window.cairnServerClock || { offsetMs: null, rttMs: null };

  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var text = evt.detail && evt.detail.message;
    if (typeof text !== "string" || text.charAt(0) !== "{") return;
    var msg;
    try { msg = JSON.parse(text); } catch (e) { return; }
    if (!msg || msg.type !== "ping") return;
    evt.preventDefault();  // not a fragment: nothing to swap
    var socket = evt.detail.socketWrapper;
    if (socket && socket.sendImmediately) socket.sendImmediately(JSON.stringify({ type: "pong", id: msg.id }));
    var rtt = typeof msg.rtt_ms === "number" ? msg.rtt_ms : 0;
    window.cairnServerClock.offsetMs = msg.server_ms + rtt / 2 - Date.now();
    window.cairnServerClock.rttMs = rtt;
  });
})();
