/* Nanga Parbat: choosing squares by clicking.  The page lists the viewer's legal actions
   (record notation) in the board's data-np-legal attribute; this script only ever sends one of them, through the
   hidden htmx form #np-move-form, so an illegal choice cannot be made here.

   - A trap, a relocation or the guide's placement: click the highlighted section/region.
   - An activation (snow leopard, tahr, musk deer): press its button, then click the two
     squares; only squares that can still complete a legal swap are highlighted, and the
     swap is sent as soon as it is complete.
   - A claim: click a highlighted square of the chart, then the hikers (row 1) on the
     mountain or the animals (rows 2 and 3) on your board; "Claim" sends it once the
     choice is exactly one legal claim.

   Everything is delegated from the document, so it keeps working when the live fragment
   is replaced.  Without this script the same choices are offered as lists. */
(function () {
  "use strict";
  if (window.cairnNangaParbat) return;
  window.cairnNangaParbat = true;

  var pick = null; // {mode: "swap"|"claim", power, row, column, chosen: [string], seq}

  function live() { return document.getElementById("match-live"); }
  function seq() { var el = live(); return el ? el.dataset.seq : null; }
  function legal() {
    var el = document.querySelector(".np[data-np-legal]");
    if (!el) return [];
    try { return JSON.parse(el.dataset.npLegal); } catch (e) { return []; }
  }

  function send(action) {
    var form = document.getElementById("np-move-form");
    if (!form) return;
    form.querySelector("input[name=action]").value = JSON.stringify(action);
    pick = null;
    render();
    if (form.requestSubmit) form.requestSubmit();
    else window.htmx.trigger(form, "submit");
  }

  function items(action) {
    var list = pick.mode === "swap" ? action.swap : (action.sections || action.animals || []);
    return list.map(String);
  }
  function candidates() {
    return legal().filter(function (a) {
      if (pick.mode === "swap") return a.activate === pick.power && Array.isArray(a.swap);
      return a.claim && a.claim.row === pick.row && a.claim.column === pick.column;
    });
  }
  function compatible() {
    return candidates().filter(function (a) {
      var its = items(a);
      return pick.chosen.every(function (x) { return its.indexOf(x) >= 0; });
    });
  }
  function complete() {
    var n = pick.chosen.length;
    return compatible().find(function (a) { return items(a).length === n; }) || null;
  }
  function choices() {
    var set = {};
    compatible().forEach(function (a) {
      items(a).forEach(function (x) { if (pick.chosen.indexOf(x) < 0) set[x] = true; });
    });
    return set;
  }
  function targetsOf(key) {
    if (pick.mode === "claim" && pick.kind !== "build_camps") {
      return document.querySelectorAll('.np-player.mine button.np-animal-chip[data-index="' + key + '"]');
    }
    return document.querySelectorAll('.np-cell[data-section="' + key + '"]');
  }

  function describe() {
    if (pick.mode === "swap") {
      var what = {
        snow_leopard: "two adjacent hikers of different colours",
        tahr: "a hiker and an adjacent animal",
        musk_deer: "two animals of different types"
      }[pick.power] || "two squares";
      return pick.name + ": click " + what + "." + (pick.chosen.length ? " Chosen: " + pick.chosen.join(", ") + "." : "");
    }
    var unit = pick.kind === "build_camps" ? "of your connected hikers on the mountain" : "animals on your board";
    var left = pick.need - pick.chosen.length;
    var text = "Row " + pick.row + ", column " + pick.column + ": choose " + pick.need + " " + unit + ".";
    if (pick.chosen.length) text += " Chosen: " + pick.chosen.map(function (x) { return pick.kind === "build_camps" ? x : "#" + x; }).join(", ") + ".";
    if (left > 0) text += " " + left + " more.";
    return text;
  }

  function render() {
    document.querySelectorAll(".np-choosable, .np-chosen").forEach(function (el) {
      el.classList.remove("np-choosable", "np-chosen");
      if (el.classList.contains("np-cell") && !el.dataset.npAction) {
        el.removeAttribute("tabindex");
        el.removeAttribute("role");
      }
    });
    document.querySelectorAll(".np-claim-start.np-active, .np-power-start.np-active").forEach(function (el) {
      el.classList.remove("np-active");
    });
    document.querySelectorAll("button.np-animal-chip").forEach(function (b) { b.disabled = true; });
    var board = document.querySelector(".np");
    var picker = document.getElementById("np-picker");
    if (board) board.classList.toggle("np-picking", !!pick);
    if (!pick) {
      if (picker) picker.hidden = true;
      return;
    }
    var open = choices();
    function mark(key, cls) {
      targetsOf(key).forEach(function (el) {
        el.classList.add(cls);
        if (el.tagName === "BUTTON") el.disabled = false;
        else { el.setAttribute("tabindex", "0"); el.setAttribute("role", "button"); }
      });
    }
    Object.keys(open).forEach(function (key) { mark(key, "np-choosable"); });
    pick.chosen.forEach(function (key) { mark(key, "np-chosen"); });
    var starter = pick.mode === "swap"
      ? document.querySelector('[data-np-power="' + pick.power + '"]')
      : document.querySelector('[data-np-claim="' + pick.row + "," + pick.column + '"]');
    if (starter) starter.classList.add("np-active");
    if (picker) {
      picker.hidden = false;
      picker.querySelector(".np-picker-text").textContent = describe();
      var confirm = document.getElementById("np-confirm");
      confirm.hidden = pick.mode !== "claim";
      confirm.disabled = !complete();
    }
  }

  function toggle(key) {
    var at = pick.chosen.indexOf(key);
    if (at >= 0) pick.chosen.splice(at, 1);
    else if (choices()[key]) pick.chosen.push(key);
    else return;
    if (pick.mode === "swap" && pick.chosen.length === 2) {
      var action = complete();
      if (action) { send(action); return; }
    }
    render();
  }

  function activate(el) {
    var start = el.closest("[data-np-power]");
    if (start) {
      pick = { mode: "swap", power: start.dataset.npPower, name: start.dataset.npName || start.dataset.npPower, chosen: [], seq: seq() };
      render();
      return true;
    }
    var claim = el.closest("[data-np-claim]");
    if (claim) {
      var rc = claim.dataset.npClaim.split(",").map(Number);
      pick = { mode: "claim", row: rc[0], column: rc[1], kind: claim.dataset.npKind, need: parseInt(claim.dataset.npNeed, 10), chosen: [], seq: seq() };
      render();
      return true;
    }
    if (el.closest("#np-cancel")) { pick = null; render(); return true; }
    if (el.closest("#np-confirm")) {
      var action = pick && complete();
      if (action) send(action);
      return true;
    }
    var chip = el.closest("button.np-animal-chip");
    if (chip && pick && pick.mode === "claim") { toggle(chip.dataset.index); return true; }
    var cell = el.closest(".np-cell");
    if (cell && pick) {
      if (!(pick.mode === "claim" && pick.kind !== "build_camps")) toggle(cell.dataset.section);
      return true;
    }
    if (pick) return false;
    var target = cell && cell.dataset.npAction ? cell : null;
    if (!target && cell) target = document.querySelector('.np-region[data-region="' + cell.dataset.region + '"][data-np-action]');
    if (!target) target = el.closest(".np-region[data-np-action]");
    if (target) {
      try { send(JSON.parse(target.dataset.npAction)); } catch (e) { /* not an action */ }
      return true;
    }
    return false;
  }

  document.addEventListener("click", function (evt) {
    if (!evt.target.closest || !evt.target.closest(".np")) return;
    activate(evt.target);
  });
  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Enter" && evt.key !== " ") return;
    var el = evt.target;
    if (!el.closest || !el.closest(".np-svg")) return;
    if (activate(el)) evt.preventDefault();
  });
  document.addEventListener("keydown", function (evt) {
    if (evt.key === "Escape" && pick) { pick = null; render(); }
  });
  // A new position (a move answer or a push) ends any half-made choice.
  document.addEventListener("htmx:afterSettle", function () {
    if (pick && pick.seq !== seq()) pick = null;
    render();
  });
})();
