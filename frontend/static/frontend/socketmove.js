/* Moves over the match's own websocket (docs/FRONTEND.md, "Moves over the socket").

   While the match page's socket is open, a board form's move (an htmx POST to /matches/<id>/move/)
   is sent on the socket instead, as {"type": "move", "id", "fields": [[name, value], ...], "lag"}:
   the same fields the POST would carry, expected_seq among them, so the server keeps the same
   guarantees (a stale move gets 409 and is never played twice).  The server answers with this
   viewer's fragment (swapped like any push) and then {"type": "move.answer", "id", "status",
   "server_ms"}.  With the socket closed, or on a page whose .match-shell says data-moves="http",
   the form posts as before.  If the socket closes, or no answer comes within ANSWER_MS, the move is
   handed to offline.js ("cairn:keepMove"), which sends it again over HTTP with the same
   expected_seq: stored at most once either way. */
(function () {
  "use strict";
  if (!window.htmx) return;
  var MOVE = /\/matches\/\d+\/move\/$/;
  var ANSWER_MS = 8000;
  var socket = null;   // the ws extension's public interface, while open
  var pending = null;  // {id, config, sentAt, timer}
  var nextId = 1;

  document.addEventListener("htmx:wsOpen", function (evt) { socket = evt.detail.socketWrapper; });
  document.addEventListener("htmx:wsClose", function () {
    socket = null;
    if (pending) giveUp();
  });

  function giveUp() {
    var move = pending;
    pending = null;
    clearTimeout(move.timer);
    document.dispatchEvent(new CustomEvent("cairn:keepMove", { detail: move.config }));
  }

  function socketMoves() {
    var shell = document.querySelector(".match-shell");
    return socket !== null && (!shell || shell.getAttribute("data-moves") !== "http");
  }

  // In the capture phase, before htmx's other listeners (lag.js, offline.js) see the request.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var config = evt.detail && evt.detail.requestConfig;
    if (!config || (config.verb || "").toLowerCase() !== "post" || !MOVE.test(config.path || "")) return;
    if (!socketMoves()) return;
    if (pending) {  // a second click before the first move's answer: dropped, as a disabled button would drop it
      evt.preventDefault();
      evt.stopPropagation();
      return;
    }
    var fields = [];
    config.formData.forEach(function (value, key) {
      if (typeof value === "string") fields.push([key, value]);
    });
    var lag = window.CairnLag ? window.CairnLag.get() : null;
    var id = String(nextId++);
    evt.preventDefault();
    evt.stopPropagation();
    pending = { id: id, config: { path: config.path, verb: "post", formData: config.formData },
                sentAt: performance.now(), timer: setTimeout(giveUp, ANSWER_MS) };
    var live = document.getElementById("match-live");
    if (live) live.setAttribute("aria-busy", "true");
    socket.sendImmediately(JSON.stringify({ type: "move", id: id, fields: fields,
                                            lag: lag === null ? undefined : Math.min(10000, Math.round(lag)) }));
  }, true);

  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var text = evt.detail.message || "";
    if (text.charAt(0) !== "{") return;
    evt.preventDefault();  // not a fragment: nothing to swap
    var answer;
    try { answer = JSON.parse(text); } catch (e) { return; }
    if (!answer || answer.type !== "move.answer" || !pending || answer.id !== pending.id) return;
    clearTimeout(pending.timer);
    var took = performance.now() - pending.sentAt;
    pending = null;
    var live = document.getElementById("match-live");
    if (live) live.removeAttribute("aria-busy");
    if (window.CairnLag && answer.status === 201 && typeof answer.server_ms === "number") {
      window.CairnLag.set(Math.max(0, took - answer.server_ms));
    }
    document.dispatchEvent(new CustomEvent("cairn:moveAnswered", { detail: answer }));
  }, true);
})();
