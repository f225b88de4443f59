/* Mountainhome: card menus, and the sealed-bid builder's ticks across live pushes.

   Card menus: a card with several moves is a <details>; opening one closes the others, and the
   menu opens on the side of the card that has room (class mh-flip or mh-below).  Escape closes it.

   The builder: keep the ticks when a live push replaces the fragment.

   While you choose the cards and uses of a sealed commitment, the other seats (bots too) commit
   and get ready, and each of their moves pushes a fresh fragment that would reset your ticks.
   This script remembers the boxes you changed since your last "Seal" and ticks them again after
   every swap, as long as the builder is on screen.  Everything is delegated from the document. */
(function () {
  "use strict";
  if (window.cairnMountainhome) return;
  window.cairnMountainhome = true;

  var touched = {}; // "name|value" -> checked, the viewer's own changes since the last seal

  function builder() { return document.querySelector(".mh-builder"); }

  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.matches || !box.matches(".mh-builder input[type=checkbox]")) return;
    touched[box.name + "|" + box.value] = box.checked;
  });

  document.addEventListener("submit", function (event) {
    if (event.target.matches && (event.target.matches(".mh-builder") || event.target.querySelector("[data-verb=ready]"))) {
      touched = {};
    }
  }, true);

  function restore() {
    var form = builder();
    if (!form) { touched = {}; return; }
    form.querySelectorAll("input[type=checkbox]").forEach(function (box) {
      var key = box.name + "|" + box.value;
      if (Object.prototype.hasOwnProperty.call(touched, key)) box.checked = touched[key];
    });
  }

  document.addEventListener("toggle", function (event) {
    var menu = event.target;
    if (!menu.matches || !menu.matches("details.mh-menu") || !menu.open) return;
    document.querySelectorAll("details.mh-menu[open]").forEach(function (other) { if (other !== menu) other.open = false; });
    var card = menu.closest(".mh-card");
    if (!card) return;
    card.classList.remove("mh-flip", "mh-below");
    var box = card.getBoundingClientRect();
    var room = window.innerWidth - box.right;
    if (room < 280) card.classList.add(box.left > 280 ? "mh-flip" : "mh-below");
  }, true);

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    document.querySelectorAll("details.mh-menu[open]").forEach(function (menu) {
      menu.open = false;
      var face = menu.querySelector("summary");
      if (face) face.focus();
    });
  });

  document.addEventListener("htmx:oobAfterSwap", restore);
  document.addEventListener("htmx:afterSwap", restore);
  document.addEventListener("htmx:wsAfterMessage", restore);
})();
