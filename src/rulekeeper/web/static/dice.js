/* Verifiable dice (web/dice.py): this device's random contribution, and the page following the dice.
 *
 * On the battle page of a side that has not committed yet, 32 bytes from crypto.getRandomValues are
 * kept in localStorage and only their commitment, SHA-256("rulekeeper-dice/2 commitment\n" + side +
 * "\n" + bytes), is posted to the JSON API. Once every side has committed (the API says
 * "committed"), this device reveals its bytes: nobody, the keeper's host included, saw them before
 * every commitment was fixed. The commitments seen at that moment are kept too, and the page warns
 * if the keeper later shows others. Until the dice are sealed the page asks the API every second
 * and reloads when they are; once the battle ends it fills in the revealed secret.
 * (crypto.subtle exists only on https or localhost: elsewhere the small SHA-256 below does the hash.)
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

  var K = [0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2];

  function sha256(bytes) {
    /* FIPS 180-4 SHA-256 of a byte array (messages of a few dozen bytes here) */
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    var n = bytes.length, total = ((n + 9 + 63) >> 6) << 6, m = new Uint8Array(total), w = new Array(64);
    m.set(bytes); m[n] = 0x80;
    var bits = n * 8;
    for (var b = 0; b < 4; b++) { m[total - 1 - b] = (bits >>> (8 * b)) & 0xff; }
    function rot(x, k) { return (x >>> k) | (x << (32 - k)); }
    for (var off = 0; off < total; off += 64) {
      for (var i = 0; i < 64; i++) {
        if (i < 16) {
          w[i] = (m[off + 4 * i] << 24) | (m[off + 4 * i + 1] << 16) | (m[off + 4 * i + 2] << 8) | m[off + 4 * i + 3];
        } else {
          var s0 = rot(w[i - 15], 7) ^ rot(w[i - 15], 18) ^ (w[i - 15] >>> 3);
          var s1 = rot(w[i - 2], 17) ^ rot(w[i - 2], 19) ^ (w[i - 2] >>> 10);
          w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
        }
      }
      var a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
      for (var j = 0; j < 64; j++) {
        var t1 = (hh + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K[j] + w[j]) | 0;
        var t2 = ((rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & bb) ^ (a & c) ^ (bb & c))) | 0;
        hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = bb; bb = a; a = (t1 + t2) | 0;
      }
      h = [(h[0] + a) | 0, (h[1] + bb) | 0, (h[2] + c) | 0, (h[3] + d) | 0,
           (h[4] + e) | 0, (h[5] + f) | 0, (h[6] + g) | 0, (h[7] + hh) | 0];
    }
    var out = new Uint8Array(32);
    for (var q = 0; q < 32; q++) { out[q] = (h[q >> 2] >>> (24 - 8 * (q & 3))) & 0xff; }
    return out;
  }

  function commitmentOf(role, valueHex) {
    /* what service/dice.py checks: SHA-256("rulekeeper-dice/2 commitment\n" + side + "\n" + 32 bytes) */
    var head = "rulekeeper-dice/2 commitment\n" + role + "\n", bytes = new Uint8Array(head.length + 32);
    for (var i = 0; i < head.length; i++) { bytes[i] = head.charCodeAt(i) & 0xff; }
    for (var j = 0; j < 32; j++) { bytes[head.length + j] = parseInt(valueHex.substr(2 * j, 2), 16); }
    return hex(sha256(bytes));
  }

  function stored(key, value) {
    try {
      if (value === undefined) { return window.localStorage.getItem(key); }
      window.localStorage.setItem(key, value);
    } catch (e) { /* private mode */ }
    return null;
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
      if (call && d.contributions && d.contributions[role]) {
        call.textContent = "added its share \u2713";
      } else if (call && d.commitments && d.commitments[role]) {
        call.textContent = "opened \u2713";  // committed: its device reveals its bytes once every side has
      }
    });
    text("dice-secret", d.secret);
    var waiting = d.waiting || [];
    var uncommitted = d.uncommitted || [];
    var heading = document.getElementById("dice-wait-h");
    var awaited = uncommitted.length ? uncommitted : waiting;
    if (heading && awaited.length) {
      var names = awaited.map(function (role) {
        var li = document.querySelector("[data-dice-role='" + role + "']");
        return li ? li.getAttribute("data-label") : "side " + role;
      });
      heading.textContent = "Waiting for " + names.join(" and ") + (uncommitted.length ?
        " to open " + (awaited.length === 1 ? "its link" : "their links") :
        " to add " + (awaited.length === 1 ? "its share" : "their shares"));
    }
    if (!d.ready && uncommitted.length) {
      text("dice-state", "waiting for side " + uncommitted.join(" and side ") + " to commit to " +
           (uncommitted.length === 1 ? "its" : "their") + " randomness");
    } else if (!d.ready && waiting.length) {
      text("dice-state", "waiting for side " + waiting.join(" and side ") + " to reveal " +
           (waiting.length === 1 ? "its" : "their") + " randomness");
    }
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: {"Content-Type": "application/json", "Accept": "application/json"},
      body: JSON.stringify(body)
    });
  }

  function key(panel, what) { return "rulekeeper-dice:" + what + ":" + location.pathname + ":" + panel.getAttribute("data-role"); }

  function contribute(panel) {
    /* first step: this device's bytes stay here; only their commitment goes to the keeper */
    var url = panel.getAttribute("data-contribute"), role = panel.getAttribute("data-role");
    if (!url || !window.crypto || !window.crypto.getRandomValues) { return Promise.resolve(); }
    var details = panel.querySelector("details");
    if (details) { details.open = false; }  // this device adds its share by itself: the board stays in view
    var value = stored(key(panel, "value")) || randomHex();
    stored(key(panel, "value"), value);
    var field = panel.querySelector("input[name=contribution]");
    if (field) { field.value = value; }
    return post(url, {commitment: commitmentOf(role, value)}).then(function (r) {
      if (r.ok) {
        panel.removeAttribute("data-contribute");
        var form = panel.querySelector(".dice-form");
        if (form) { form.hidden = true; }
      }
      return r.json().then(show, function () { return null; });
    });
  }

  function reveal(panel, d) {
    /* second step, once every side has committed: the bytes, which the keeper checks against the commitment */
    var role = panel.getAttribute("data-role"), value = stored(key(panel, "value"));
    if (!value || !d.committed || !d.contributions || d.contributions[role] || panel.getAttribute("data-revealing")) {
      return;
    }
    panel.setAttribute("data-revealing", "1");
    stored(key(panel, "seen"), JSON.stringify(d.commitments));
    post(panel.getAttribute("data-status"), {contribution: value}).then(function (r) {
      return r.json().then(function (answer) {
        if (answer && answer.ready) { location.reload(); return; }  // this share sealed the dice: play starts
        show(answer);
      }, function () { return null; });
    }, function () { panel.removeAttribute("data-revealing"); });
  }

  function checkSeen(panel, d) {
    /* the commitments this device saw before revealing must be the ones the keeper shows afterwards */
    var seen = stored(key(panel, "seen"));
    if (!seen || !d.commitments) { return; }
    var before = JSON.parse(seen), changed = (d.roles || []).filter(function (role) {
      return before[role] && before[role] !== d.commitments[role];
    });
    if (changed.length) {
      text("dice-state", "warning: the keeper now shows another commitment for side " + changed.join(" and side ") +
           " than this device saw before revealing its randomness");
    }
  }

  function follow(panel) {
    var url = panel.getAttribute("data-status");
    var wait = 1000;
    function ask() {
      fetch(url, {credentials: "same-origin", cache: "no-store", headers: {"Accept": "application/json"}})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (d) {
          if (d && d.ready) { location.reload(); return; }
          if (d) { show(d); reveal(panel, d); }
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
        });
    });
  }

  function startPanel() {
    var panel = document.getElementById("dice");
    if (!panel || panel.getAttribute("data-started")) { return; }
    panel.setAttribute("data-started", "1");
    if (panel.getAttribute("data-ready") === "1") {
      fetch(panel.getAttribute("data-status"), {credentials: "same-origin", cache: "no-store"})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (d) { if (d) { checkSeen(panel, d); } }, function () { return null; });
      revealWhenOver(panel);
      return;
    }
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
