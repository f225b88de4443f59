/* A tournament page: the countdown, and only newer live fragments (data-seq is the tournament's version). */
(function () {
  "use strict";
  if (window.__cairnTournaments) return;
  window.__cairnTournaments = true;

  function left(until) {
    var seconds = Math.max(0, Math.floor((Date.parse(until) - Date.now()) / 1000));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    return (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + String(s).padStart(2, "0");
  }
  setInterval(function () {
    document.querySelectorAll(".t-countdown[data-until]").forEach(function (el) { el.textContent = left(el.dataset.until); });
  }, 500);

  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var shown = document.getElementById("tournament-live");
    if (!shown) return;
    var template = document.createElement("template");
    template.innerHTML = evt.detail.message || "";
    var node = template.content.querySelector("#tournament-live");
    if (!node) return;
    if (node.dataset.tournament !== shown.dataset.tournament ||
        parseInt(node.dataset.seq || "0", 10) <= parseInt(shown.dataset.seq || "0", 10)) evt.preventDefault();
  });
})();
