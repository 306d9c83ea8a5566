/* atlas site: spoiler-free viewing.  The switch in the header (remembered by the
   browser in localStorage, so it holds on every page, file:// included) hides results:
   inline ".spoiler" texts become a "hidden" chip the reader can click to reveal, and
   ".spoiler-block" sections are replaced by a cover with a "show" button.  A replay
   that reaches its last turn (the viewer's "atlas:replay-end" event) reveals its page;
   the viewer's chart draws its lines only up to the turn shown while results are hidden
   (redrawn on the "atlas:spoilers" event the switch sends).
   The class "no-spoilers" on <html> is set before the page is drawn, by the inline
   script of base.html; style.css does the hiding. */
(function () {
  "use strict";
  var KEY = "atlas.hideResults", root = document.documentElement, body = document.body;
  function stored() { try { return localStorage.getItem(KEY) === "1"; } catch (e) { return false; } }
  function store(on) { try { if (on) { localStorage.setItem(KEY, "1"); } else { localStorage.removeItem(KEY); } } catch (e) { /* not remembered */ } }
  function hiding() { return root.classList.contains("no-spoilers") && !body.classList.contains("spoilers-revealed"); }
  var button = document.getElementById("spoiler-switch");
  function show(on) {
    root.classList.toggle("no-spoilers", on);
    if (button) {
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.textContent = on ? "Results hidden" : "Hide results";
    }
  }
  show(stored());
  if (button) {
    button.addEventListener("click", function () {
      var on = !root.classList.contains("no-spoilers");
      store(on);
      show(on);
      document.dispatchEvent(new CustomEvent("atlas:spoilers"));
    });
  }
  document.querySelectorAll(".spoiler-block").forEach(function (block) {
    var cover = document.createElement("p"), what = block.getAttribute("data-what") || "results";
    var until = block.getAttribute("data-until");
    cover.className = "spoiler-cover";
    var text = document.createElement("span");
    text.textContent = "Hidden: " + what + (until ? ", until " + until : "") + ". ";
    var reveal = document.createElement("button");
    reveal.type = "button";
    reveal.textContent = "show";
    reveal.addEventListener("click", function () { block.classList.add("shown"); cover.classList.add("gone"); });
    cover.appendChild(text);
    cover.appendChild(reveal);
    block.parentNode.insertBefore(cover, block);
  });
  document.addEventListener("click", function (ev) {
    var el = ev.target && ev.target.closest ? ev.target.closest(".spoiler:not(.shown)") : null;
    if (!el || !hiding()) { return; }
    el.classList.add("shown");
    ev.preventDefault();
    ev.stopPropagation();
  }, true);
  document.addEventListener("atlas:replay-end", function () { body.classList.add("spoilers-revealed"); });
})();
