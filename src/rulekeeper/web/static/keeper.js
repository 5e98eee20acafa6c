/* The battle page never takes the table's input or attention (issue 26).
 *
 * 1. A live update (server-sent "changed", or the two-second poll) never replaces what the player is
 *    doing: a form with choices made, an open odds preview, or revealed results not yet dismissed
 *    (anything marked data-hold in #live). The new fragment is kept aside and a banner says what
 *    changed ("Side B acted: Ympes charges — See it"); See it swaps it in, carrying over every choice
 *    the player made in a form that is still there. Submitting a form while an update waits first
 *    shows the update with the choices kept, so a stale position never throws the choices away.
 * 2. "Your battles": every battle page and "Battle created" page this browser opens is remembered in
 *    its own localStorage (never sent anywhere) and listed on the home page.
 * 3. The verify page sends a chosen export file as it is (JSON), not through the urlencoded form.
 */
(function () {
  "use strict";

  var held = null;   // {el: the #live element the update was held for, html: the newest fragment}
  var STORE = "rulekeeper-battles";
  var SHOWN = 5;     // "Your battles" listed before the rest are folded under "N more"

  function live() { return document.getElementById("live"); }

  function fields(root) {
    return Array.prototype.slice.call(root.querySelectorAll("select, textarea, input"))
      .filter(function (f) { return f.type !== "hidden" && f.type !== "submit" && f.type !== "button"; });
  }

  function changed(f) {
    if (f.tagName === "SELECT") {
      return Array.prototype.some.call(f.options, function (o) { return o.selected !== o.defaultSelected; });
    }
    if (f.type === "checkbox" || f.type === "radio") { return f.checked !== f.defaultChecked; }
    return f.value !== f.defaultValue;
  }

  /* Why the player's page must not be replaced now, or "" when it may be. */
  function holding(el) {
    if (!el) { return ""; }
    var mark = el.querySelector("[data-hold]");
    if (mark) { return mark.getAttribute("data-hold"); }
    if (el.querySelector("#preview")) { return "preview"; }
    if (fields(el).some(changed)) { return "choices"; }
    var focused = document.activeElement;
    if (focused && el.contains(focused) && /^(SELECT|TEXTAREA|INPUT)$/.test(focused.tagName)) { return "choices"; }
    return "";
  }

  function key(f) {
    var form = f.form;
    return (form ? (form.id || form.getAttribute("action") || "") : "") + "|" + f.name;
  }

  function choices(el) {
    var kept = {};
    fields(el).forEach(function (f) {
      if (!f.name || !changed(f)) { return; }
      kept[key(f) + (f.type === "radio" || f.type === "checkbox" ? "|" + f.value : "")] =
        f.type === "checkbox" || f.type === "radio" ? f.checked : f.value;
    });
    return kept;
  }

  function restore(el, kept) {
    var n = 0;
    fields(el).forEach(function (f) {
      if (f.type === "radio" || f.type === "checkbox") {
        var k = key(f) + "|" + f.value;
        if (k in kept) { f.checked = kept[k]; n++; }
        return;
      }
      var k2 = key(f);
      if (!(k2 in kept)) { return; }
      if (f.tagName === "SELECT" && !Array.prototype.some.call(f.options, function (o) { return o.value === kept[k2]; })) {
        return;  // that choice no longer exists
      }
      f.value = kept[k2];
      n++;
    });
    return n;
  }

  function banner() {
    var b = document.getElementById("held-update");
    if (b) { return b; }
    b = document.createElement("div");
    b.id = "held-update";
    b.className = "banner held";
    b.setAttribute("role", "status");
    var text = document.createElement("span");
    text.id = "held-text";
    var see = document.createElement("button");
    see.type = "button";
    see.id = "held-see";
    see.className = "primary";
    see.textContent = "See it";
    see.addEventListener("click", function () { showHeld(""); });
    b.appendChild(text);
    b.appendChild(document.createTextNode(" "));
    b.appendChild(see);
    var panel = document.getElementById("panel");
    var el = live();
    (panel || el).insertBefore(b, (panel || el).firstChild);
    return b;
  }

  function say(html, why) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var frag = doc.getElementById("live");
    var moved = frag ? frag.getAttribute("data-moved") : "";
    var text = moved || "The battle moved on";
    var kept = why === "results" ? " (your results stay here until you go on)" :
      why === "preview" ? " (your choice stays open)" : why === "choices" ? " (your choices are kept)" : "";
    banner();
    document.getElementById("held-text").textContent = text + kept + ".";
  }

  function showHeld(note) {
    if (!held) { return; }
    var el = live();
    var html = held.html;
    var kept = el ? choices(el) : {};
    held = null;
    if (!el) { return; }
    window.htmx.swap(el, html, {swapStyle: "outerHTML"});
    var now = live();
    if (now && restore(now, kept) && note) {
      var b = document.createElement("div");
      b.className = "banner";
      b.id = "kept-note";
      b.setAttribute("role", "status");
      b.setAttribute("tabindex", "-1");
      b.textContent = note;
      var panel = document.getElementById("panel");
      if (panel) { panel.insertBefore(b, panel.firstChild); b.focus(); }
    }
  }

  /* a page the player asked for (a boosted link or form: Reveal, Continue, Commit) is on its way: a live
     fragment answered meanwhile is older news than that page and must not flash over it (the board swapped in
     for a moment under the player's click, then the Fate Screen they asked for replaced it) */
  var navigating = 0;  // when the player's page request left (ms), 0 when none is on its way
  function navigation(e) { return e.detail && (e.detail.boosted || e.detail.target === document.body); }
  function arrived() { navigating = 0; }
  document.addEventListener("htmx:beforeRequest", function (e) { if (navigation(e)) { navigating = Date.now(); } });
  /* the old page's link is gone once the new body is in, so its own after-request may never reach here */
  ["htmx:afterRequest", "htmx:responseError", "htmx:sendError", "htmx:sendAbort", "htmx:timeout"].forEach(function (n) {
    document.addEventListener(n, function (e) { if (navigation(e)) { arrived(); } });
  });
  function onItsWay() { return navigating > 0 && Date.now() - navigating < 20000; }

  document.addEventListener("htmx:beforeSwap", function (e) {
    var d = e.detail;
    var el = live();
    if (!el || d.target !== el || !d.requestConfig || d.requestConfig.verb !== "get") { return; }
    if (!d.xhr || d.xhr.status !== 200 || (d.requestConfig.path || "").indexOf("/live") < 0) { return; }
    if (onItsWay()) { d.shouldSwap = false; return; }
    var why = holding(el);
    if (!why) { held = null; return; }
    d.shouldSwap = false;
    held = {html: d.serverResponse};
    say(d.serverResponse, why);
  });

  /* a whole new page (a boosted link, Continue, Back) drops whatever was held for the old one */
  document.addEventListener("htmx:beforeHistorySave", function () { held = null; });
  document.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail && e.detail.target === document.body) { held = null; arrived(); }
  });

  /* a form sent while an update waits: show the update first, with the player's choices kept */
  document.addEventListener("submit", function (e) {
    var el = live();
    if (!held || !el || !el.contains(e.target)) { return; }
    e.preventDefault();
    e.stopImmediatePropagation();
    showHeld("The battle moved on while you chose: your choices are kept — check them and send again.");
  }, true);

  /* -- Your battles: this browser's own list -------------------------------------------------------- */

  function remembered() {
    try { return JSON.parse(window.localStorage.getItem(STORE) || "[]") || []; } catch (err) { return []; }
  }

  function remember() {
    var mark = document.querySelector("[data-remember]");
    if (!mark) { return; }
    var entry = {url: mark.getAttribute("data-remember"), title: mark.getAttribute("data-title") || "",
                 role: mark.getAttribute("data-role") || "", seen: new Date().toISOString().slice(0, 16)};
    var list = remembered().filter(function (b) { return b && b.url !== entry.url; });
    list.unshift(entry);
    try { window.localStorage.setItem(STORE, JSON.stringify(list.slice(0, 50))); } catch (err) { /* private mode */ }
    var here = mark.getAttribute("data-url");
    if (here && location.pathname + location.search !== here) {
      history.replaceState(history.state, "", here);  // Back after "Open side A" returns to these links
    }
  }

  function listBattles() {
    var box = document.getElementById("your-battles");
    if (!box || box.getAttribute("data-started")) { return; }
    box.setAttribute("data-started", "1");
    var list = remembered();
    if (!list.length) { return; }
    var ul = box.querySelector("ul");
    var first = ul, listed = 0;
    list.forEach(function (b) {
      if (!b || typeof b.url !== "string" || b.url.charAt(0) !== "/") { return; }
      if (listed++ === SHOWN) {  // the rest folded: 50 of them put "New battle" 5,000 px down a phone's home page
        var more = document.createElement("details");
        more.id = "more-battles";
        var summary = document.createElement("summary");
        more.appendChild(summary);
        ul = document.createElement("ul");
        ul.className = first.className;
        more.appendChild(ul);
        first.parentNode.insertBefore(more, first.nextSibling);
      }
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.className = "btn";
      a.href = b.url;
      a.textContent = (b.title || "A battle") + " — " + (b.role || "");
      var when = document.createElement("small");
      when.textContent = " opened " + (b.seen || "").replace("T", " ");
      li.appendChild(a);
      li.appendChild(when);
      ul.appendChild(li);
    });
    var folded = document.getElementById("more-battles");
    if (folded) { folded.querySelector("summary").textContent = (listed - SHOWN) + " more"; }
    var forget = box.querySelector("#forget-battles");
    if (forget) {
      forget.addEventListener("click", function () {
        try { window.localStorage.removeItem(STORE); } catch (err) { /* nothing kept */ }
        first.textContent = "";
        if (folded) { folded.remove(); }
        box.hidden = true;
      });
    }
    box.hidden = false;
  }

  /* -- the verify page: an export file sent as it is ------------------------------------------------ */

  function startVerify() {
    var file = document.getElementById("verify-file");
    if (!file || file.getAttribute("data-upload")) { return; }
    file.setAttribute("data-upload", "1");
    file.addEventListener("change", function () {
      var chosen = file.files && file.files[0];
      if (!chosen) { return; }
      var state = document.getElementById("verify-progress");
      if (state) { state.textContent = "Verifying " + chosen.name + " (" + Math.round(chosen.size / 1024) + " KB)…"; }
      fetch("/verify", {method: "POST", body: chosen, credentials: "same-origin",
                        headers: {"Content-Type": "application/json", "Accept": "text/html"}})
        .then(function (r) { return r.text(); })
        .then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          var main = doc.querySelector("main");
          if (main) { document.querySelector("main").replaceWith(document.adoptNode(main)); }
          start();
          var verdict = document.getElementById("verify-result");
          if (verdict) { verdict.setAttribute("tabindex", "-1"); verdict.focus(); }
        }, function () { if (state) { state.textContent = "The keeper could not be reached."; } });
    });
  }

  /* the dice-waiting panel's "Share side B's link": only on the device that created the battle */
  function creatorButtons() {
    var mine = remembered().map(function (b) { return b && b.url; });
    Array.prototype.forEach.call(document.querySelectorAll("[data-creator-of]"), function (a) {
      if (mine.indexOf(a.getAttribute("data-creator-of")) >= 0) { a.hidden = false; }
    });
  }

  /* an action picked on the board (a tapped hex) opens its odds; a drop-down listing the same action showed its
     first entry beside that preview ("→ B1" over "Road Foot move to D1"), and "See it" then opened B1 */
  function pickShown() {
    var m = /[?&]pick=(\d+)/.exec(location.search);
    if (!m) { return; }
    Array.prototype.forEach.call(document.querySelectorAll("select[name=pick]"), function (s) {
      Array.prototype.forEach.call(s.options, function (o) {
        if (o.value === m[1]) { o.selected = true; o.defaultSelected = true; }  // the page's own state, not a change
      });
    });
  }

  /* a refused new-battle form answered at POST /new: the address bar shows the form's own page, so a reload
     opens the form instead of sending it again (a boosted form gets the same from HX-Replace-Url) */
  function ownAddress() {
    var mark = document.querySelector("[data-address]");
    var here = mark && mark.getAttribute("data-address");
    if (here && location.pathname !== here) { history.replaceState(history.state, "", here); }
  }

  /* the new-battle form's rules options: only the chosen scenario's game shows, the others disabled (not sent);
     without JavaScript every game's show and the keeper reads the chosen one's (page_forms.chosen_options) */
  function ruleOptions() {
    Array.prototype.forEach.call(document.querySelectorAll("form.new-battle"), function (form) {
      var radios = form.querySelectorAll("input[name=scenario][data-game]");
      var sets = form.querySelectorAll("fieldset.rule-options-game");
      if (!radios.length || !sets.length) { return; }
      function show() {
        var picked = form.querySelector("input[name=scenario]:checked");
        var game = picked ? picked.getAttribute("data-game") : "";
        Array.prototype.forEach.call(sets, function (set) {
          var mine = set.getAttribute("data-game") === game;
          set.hidden = !mine;
          set.disabled = !mine;
        });
      }
      Array.prototype.forEach.call(radios, function (r) { r.addEventListener("change", show); });
      show();
    });
  }

  function start() { remember(); listBattles(); startVerify(); creatorButtons(); pickShown(); ownAddress(); ruleOptions(); }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
  document.addEventListener("htmx:load", function (e) {
    if (e.detail && e.detail.elt && e.detail.elt.id !== "live") { start(); } else { creatorButtons(); pickShown(); }
  });
}());
