/* atlas replay: what the bot thought.  For the turn shown, the line each bot that moved
   expected (its principal variation: its move, the reply, its next move, ...) drawn
   over the board as a dashed path in its colour, the replies in the other seat's
   colour, each cell numbered by ply; its depth, score and nodes beside it.
   The lines come from the page data (atlas/render/viewer.py): "pv", a base64 varint
   stream (per turn, per seat: a count, then each cell as a zigzag step from the cell
   two before), and "pv_dropped" ([turn, seat, moves not drawn]).  Nothing in them is
   trusted: a count past MAX or a cell off the board ends that line, and the status
   line says how many moves were left out.  The reader toggles it with its button or
   the key "e"; the choice is kept in localStorage.  The shown turn's lines are on
   window.atlasPv (the browser tests read them).  viewer.js calls atlasPv.create(). */
(function () {
  "use strict";
  var STORE = "atlas.pv", KEY = "e", MAX = 12;

  function bytesOf(b64) {
    var s;
    try { s = atob(b64); } catch (e) { return new Uint8Array(0); }
    var out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) { out[i] = s.charCodeAt(i); }
    return out;
  }

  /* lines[turn - 1][seat] = [cell, ...] or null; dropped["turn,seat"] = moves left out. */
  function decode(data, seats) {
    var N = data.w * data.h, last = Math.max(0, Math.min(data.last | 0, 1e6));
    var bytes = bytesOf(typeof data.pv === "string" ? data.pv : ""), at = 0, bad = false;
    function next() {  // one unsigned LEB128 varint; past the end: the stream is over
      var v = 0, mul = 1, b;
      do {
        if (at >= bytes.length || mul > 1e15) { bad = true; return 0; }
        b = bytes[at++]; v += (b & 127) * mul; mul *= 128;
      } while (b & 128);
      return v;
    }
    var lines = [], dropped = {};
    function drop(turn, seat, n) { var key = turn + "," + seat; dropped[key] = (dropped[key] || 0) + n; }
    for (var t = 0; t < last && !bad && at < bytes.length; t++) {
      var row = [];
      for (var s = 0; s < seats; s++) {
        var n = next(), line = [], ok = true;
        if (bad) { break; }
        for (var j = 0; j < n; j++) {
          var z = next();
          if (bad) { break; }
          var cell = (j >= 2 ? line[j - 2] : 0) + ((z % 2) ? -(z + 1) / 2 : z / 2);
          if (!ok) { continue; }
          if (j >= MAX || !(cell >= 0 && cell < N && cell === Math.floor(cell))) { ok = false; drop(t + 1, s, n - j); continue; }
          line.push(cell);
        }
        row.push(line.length ? line : null);
      }
      lines.push(row);
    }
    (Array.isArray(data.pv_dropped) ? data.pv_dropped : []).forEach(function (d) {
      if (Array.isArray(d) && d.length >= 3 && d[2] > 0 && d[2] < 1e9) { drop(d[0] | 0, d[1] | 0, d[2] | 0); }
    });
    return { lines: lines, dropped: dropped };
  }

  function fmt(v, key) {
    if (typeof v !== "number" || !isFinite(v)) { return null; }
    if (key === "nodes") { return v >= 1e6 ? (v / 1e6).toFixed(1) + "M" : v >= 1e4 ? Math.round(v / 1e3) + "k" : String(v); }
    if (key === "score") { return Math.abs(v) >= 1e5 ? v.toExponential(2) : String(Math.round(v * 100) / 100); }
    return String(v);
  }

  function create(data, canvas, ctx, k, redraw) {
    if (!data || (data.pv === undefined && !data.pv_dropped)) { return null; }
    var W = data.w, seatRows = document.querySelectorAll("#v-seats tbody tr"), names = [];
    for (var i = 0; i < seatRows.length; i++) { names.push(seatRows[i].getAttribute("data-name") || "seat " + (i + 1)); }
    var seats = Math.max(names.length, (data.times || []).length, 1);
    var got = decode(data, seats);
    var palette = data.palette || [], spec = data.overlays || {};
    var colours = (spec.seats || []).map(function (p) { return palette[p]; });
    var fallback = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd"];
    function colour(s) { return colours[s] || fallback[s % fallback.length]; }
    var on = false;
    try { on = localStorage.getItem(STORE) === "1"; } catch (e) { /* not kept */ }
    var box = document.getElementById("v-overlays"), button = null, status = null;
    if (!box) {  // a viewer without overlays: a row of its own
      var controls = document.querySelector("#viewer .controls.second");
      if (controls) {
        box = document.createElement("div"); box.className = "controls overlays"; box.id = "v-overlays";
        controls.parentNode.insertBefore(box, controls.nextSibling);
      }
    }
    if (box) {
      button = document.createElement("button");
      button.type = "button"; button.className = "overlay-toggle"; button.id = "v-pv";
      button.setAttribute("data-overlay", "pv");
      button.textContent = "Expected (" + KEY + ")";
      button.title = "the line each bot expected when it moved: its principal variation (key " + KEY + ")";
      button.addEventListener("click", toggle);
      box.appendChild(button);
      status = document.createElement("p"); status.className = "note pv-status"; status.id = "v-pv-status";
      var after = document.getElementById("v-overlay-status") || box;
      after.parentNode.insertBefore(status, after.nextSibling);
    }
    function sync() { if (button) { button.setAttribute("aria-pressed", on ? "true" : "false"); } }
    function toggle() {
      on = !on;
      try { localStorage.setItem(STORE, on ? "1" : "0"); } catch (e) { /* not kept */ }
      sync();
      redraw();
    }
    sync();
    document.addEventListener("keydown", function (ev) {
      var tag = ev.target && ev.target.tagName;
      if (tag === "INPUT" && ev.target.type !== "range" || tag === "SELECT" || tag === "TEXTAREA") { return; }
      if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.key !== KEY) { return; }
      toggle();
      ev.preventDefault();
    });

    function centre(cell) { return [(cell % W + 0.5) * k, (Math.floor(cell / W) + 0.5) * k]; }
    function path(cells, stroke, width, alpha) {
      if (!cells.length) { return; }
      ctx.save();
      ctx.globalAlpha = alpha; ctx.strokeStyle = stroke; ctx.lineWidth = width;
      ctx.setLineDash([Math.max(3, k / 3), Math.max(2, k / 5)]);
      ctx.lineCap = "round"; ctx.lineJoin = "round";
      ctx.beginPath();
      cells.forEach(function (c, j) { var p = centre(c); if (j) { ctx.lineTo(p[0], p[1]); } else { ctx.moveTo(p[0], p[1]); } });
      if (cells.length === 1) { var p0 = centre(cells[0]); ctx.arc(p0[0], p0[1], k * 0.2, 0, Math.PI * 2); }
      ctx.stroke();
      ctx.restore();
    }
    function numbers(own, seat) {  // its own moves numbered 1, 2, ... (small boards: dots)
      ctx.save();
      ctx.font = "bold " + Math.max(8, Math.floor(k * 0.42)) + "px sans-serif";
      ctx.textAlign = "center"; ctx.textBaseline = "middle";
      own.forEach(function (c, j) {
        var p = centre(c);
        ctx.globalAlpha = 0.92;
        ctx.fillStyle = "#ffffff"; ctx.strokeStyle = colour(seat); ctx.lineWidth = 1.5;
        ctx.beginPath(); ctx.arc(p[0], p[1], Math.max(2, k * 0.3), 0, Math.PI * 2); ctx.fill(); ctx.stroke();
        if (k >= 10) { ctx.fillStyle = colour(seat); ctx.fillText(String(j + 1), p[0], p[1] + 0.5); }
      });
      ctx.restore();
    }
    function dots(cells, seat) {  // the replies it expected: small dots
      ctx.save();
      ctx.globalAlpha = 0.6; ctx.fillStyle = colour(seat);
      ctx.beginPath();
      cells.forEach(function (c) { var p = centre(c); ctx.moveTo(p[0] + k * 0.12, p[1]); ctx.arc(p[0], p[1], Math.max(1, k * 0.12), 0, Math.PI * 2); });
      ctx.fill();
      ctx.restore();
    }

    /* The one piece of ``seat`` in the frame's marks (a head, a queen), or -1: a line of
       replies starts there.  Seats with many pieces (discs) have none. */
    function pieceOf(marks, seat) {
      var colourIdx = (spec.seats || [])[seat], found = -1;
      if (!marks || colourIdx === undefined) { return -1; }
      for (var j = 0; j < marks.cells.length; j++) {
        var st = (data.styles || [])[marks.styles[j]];
        if (!st || st[1] !== colourIdx) { continue; }
        if (found >= 0) { return -1; }
        found = marks.cells[j];
      }
      return found >= 0 && found < data.w * data.h ? found : -1;
    }

    function draw(turn, marks) {
      var out = { turn: turn, on: on, lines: {}, dropped: {} };
      var row = turn > 0 ? got.lines[turn - 1] : null, texts = [];
      for (var s = 0; s < seats; s++) {
        var line = row ? row[s] : null, lost = got.dropped[turn + "," + s] || 0;
        if (lost) { out.dropped[s] = lost; }
        if (!line && !lost) { continue; }
        out.lines[s] = line || [];
        if (!on) { continue; }
        if (line) {
          var own = line.filter(function (_, j) { return j % 2 === 0; });
          var replies = line.filter(function (_, j) { return j % 2 === 1; });
          var from = replies.length ? pieceOf(marks, 1 - s) : -1;
          path(from >= 0 ? [from].concat(replies) : replies, colour(1 - s), Math.max(1, k / 10), 0.5);
          dots(replies, 1 - s);
          path(own, colour(s), Math.max(2, k / 5), 0.85);
          numbers(own, s);
        }
        var said = [];
        ["depth", "score", "nodes"].forEach(function (key) {
          var arr = data.info && data.info[s] && data.info[s][key], v = fmt(arr ? arr[turn - 1] : null, key);
          var mates = key === "score" && data.info && data.info[s] && data.info[s].mate;
          var mate = mates ? mates[turn - 1] : null;
          if (typeof mate === "number" && mate !== 0) {
            var n = Math.abs(Math.round(mate));
            v = "a forced " + (mate > 0 ? "win" : "loss") + " in " + n + (n === 1 ? " ply" : " plies");
          }
          if (v !== null) { said.push(key + " " + v); }
        });
        texts.push((names[s] || "seat " + (s + 1)) + " expected " + (line ? line.length : 0) + " move" +
          ((line ? line.length : 0) === 1 ? "" : "s") + (said.length ? " (" + said.join(", ") + ")" : "") +
          (lost ? "; " + lost + " move" + (lost === 1 ? "" : "s") + " not drawn (too long, off the board or not legal)" : ""));
      }
      if (status) {
        status.textContent = on ? (texts.length ? "Expected: " + texts.join(" · ") + ". Thick dashed, numbered: its own moves; thin with dots: the replies it expected." : "Expected: no line reported for this turn.") : "";
      }
      window.atlasPv = out;
    }
    return { draw: draw, isOn: function () { return on; } };
  }

  window.atlasPv = null;
  window.atlasPvView = { create: create, decode: decode };
})();
