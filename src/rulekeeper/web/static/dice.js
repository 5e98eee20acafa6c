/* Verifiable dice (web/dice.py): this device's random contribution, and the page following the dice.
 *
 * On the battle page of a side that has not contributed yet, 32 bytes from crypto.getRandomValues are
 * posted to the JSON API once (the value is kept in localStorage, so the player can check later that
 * the keeper shows the same one). Until every side has contributed the page asks the API every second
 * and reloads when the dice are sealed; once the battle ends it fills in the revealed secret.
 */
(function () {
  "use strict";

  function hex(bytes) {
    var out = "";
    for (var i = 0; i < bytes.length; i++) {
      out += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
    }
    return out;
  }

  function randomHex() {
    var bytes = new Uint8Array(32);
    window.crypto.getRandomValues(bytes);
    return hex(bytes);
  }

  function text(id, value) {
    var el = document.getElementById(id);
    if (el && value) { el.textContent = value; }
  }

  function show(d) {
    (d.roles || []).forEach(function (role) {
      text("dice-" + role, d.contributions && d.contributions[role]);
      var call = document.querySelector("[data-dice-role='" + role + "'] strong");
      if (call && d.contributions && d.contributions[role]) { call.textContent = "added its share \u2713"; }
    });
    text("dice-secret", d.secret);
    var waiting = d.waiting || [];
    var heading = document.getElementById("dice-wait-h");
    if (heading && waiting.length) {
      var names = waiting.map(function (role) {
        var li = document.querySelector("[data-dice-role='" + role + "']");
        return li ? li.getAttribute("data-label") : "side " + role;
      });
      heading.textContent = "Waiting for " + names.join(" and ") + " to open " +
        (waiting.length === 1 ? "its link" : "their links");
    }
    if (!d.ready && waiting.length) {
      text("dice-state", "waiting for side " + waiting.join(" and side ") + " to add " +
           (waiting.length === 1 ? "its" : "their") + " randomness");
    }
  }

  function contribute(panel) {
    var url = panel.getAttribute("data-contribute");
    if (!url || !window.crypto || !window.crypto.getRandomValues) { return Promise.resolve(); }
    var value = randomHex();
    var field = panel.querySelector("input[name=contribution]");
    if (field) { field.value = value; }
    return fetch(url, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: {"Content-Type": "application/json", "Accept": "application/json"},
      body: JSON.stringify({contribution: value})
    }).then(function (r) {
      if (r.ok) {
        try { window.localStorage.setItem("rulekeeper-dice:" + location.pathname, value); } catch (e) { /* private mode */ }
        panel.removeAttribute("data-contribute");
        var form = panel.querySelector(".dice-form");
        if (form) { form.hidden = true; }
      }
      return r.json().then(show, function () { return null; });
    });
  }

  function follow(panel) {
    var url = panel.getAttribute("data-status");
    var wait = 1000;
    function ask() {
      fetch(url, {credentials: "same-origin", cache: "no-store", headers: {"Accept": "application/json"}})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (d) {
          if (d && d.ready) { location.reload(); return; }
          if (d) { show(d); }
          wait = Math.min(wait * 1.2, 5000);
          window.setTimeout(ask, wait);
        }, function () { window.setTimeout(ask, 5000); });
    }
    ask();
  }

  function revealWhenOver(panel) {
    /* the end screen arrives by a live swap: then ask once for the revealed secret */
    document.body.addEventListener("htmx:afterSettle", function () {
      if (panel.getAttribute("data-revealed") === "1" || !document.getElementById("result")) { return; }
      fetch(panel.getAttribute("data-status"), {credentials: "same-origin", cache: "no-store"})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (d) {
          if (!d || !d.revealed) { return; }
          panel.setAttribute("data-revealed", "1");
          show(d);
          var state = document.getElementById("dice-state");
          var link = panel.querySelector("a[href*='/verify']");
          if (state && link) {
            state.textContent = "the secret is revealed: ";
            var a = link.cloneNode(false);
            a.textContent = "verify every roll";
            state.appendChild(a);
          }
          var details = panel.querySelector("details");
          if (details) { details.open = true; }
        });
    });
  }

  function startPanel() {
    var panel = document.getElementById("dice");
    if (!panel || panel.getAttribute("data-started")) { return; }
    panel.setAttribute("data-started", "1");
    if (panel.getAttribute("data-ready") === "1") { revealWhenOver(panel); return; }
    contribute(panel).then(function () { follow(panel); }, function () { follow(panel); });
  }

  function start() { startPanel(); }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
  document.addEventListener("htmx:load", start);
}());
