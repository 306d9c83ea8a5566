/* atlas replay viewer: draws the turns embedded in the page on a <canvas>, with a chart
   of the game's measures under the board.
   No network access: the data is in <script type="application/json" id="replay-data">
   (format: atlas/render/viewer.py).  Keys: Left/Right step, Space play/pause, Home/End,
   - and + slower and faster; the URL hash #turn=N names a turn. */
(function () {
  "use strict";
  var node = document.getElementById("replay-data");
  if (!node) { return; }
  var data = JSON.parse(node.textContent);
  if (window.atlasUnpack) { data = window.atlasUnpack(data); }  // static/inflate.js
  if (!data) { return; }
  var $ = function (id) { return document.getElementById(id); };
  // the controls (where _viewer.html leaves #v-controls) and the keys' note: the same
  // on every page, so written here rather than stored in each
  (function writeControls() {
    var box = $("v-controls");
    if (!box || $("v-first")) { return; }
    var speeds = "";
    [0.25, 0.5, 1, 2, 4, 8].forEach(function (x) {
      speeds += '<option value="' + x + '"' + (x === 1 ? " selected" : "") + ">" + x + "\u00d7</option>";
    });
    var name = (box.getAttribute("data-gif") || "replay").replace(/[^A-Za-z0-9_.-]/g, "-");
    box.outerHTML =
      '<div class="controls">' +
      '<button type="button" id="v-first" title="first turn (Home)">|\u25c0</button> ' +
      '<button type="button" id="v-prev" title="step back (\u2190)">\u25c0</button> ' +
      '<button type="button" id="v-play" title="play / pause (space)" class="play" aria-pressed="false">Play</button> ' +
      '<button type="button" id="v-next" title="step forward (\u2192)">\u25b6</button> ' +
      '<button type="button" id="v-last" title="last turn (End)">\u25b6|</button> ' +
      '<input type="range" id="v-scrub" min="0" max="0" value="0" aria-label="turn"> ' +
      '<span id="v-turn" class="turn-label">turn 0</span> ' +
      '<a id="v-link" href="#turn=0" class="turn-link" title="link to this turn">#</a></div>' +
      '<div class="controls second"><label>speed <select id="v-speed" title="playback speed (- and + keys)">' +
      speeds + "</select></label> " +
      '<button type="button" id="v-gif" data-name="' + name + '" title="make an animated GIF of this replay here, in the browser, and save it">GIF</button> ' +
      '<a id="v-gif-link" class="gif-link" hidden></a> ' +
      '<span id="v-cell" class="cell-label" aria-live="polite"></span></div>';
    var keys = document.createElement("p");
    keys.className = "note";
    keys.innerHTML = "Keys: \u2190 \u2192 step, space play/pause, Home/End, \u2212 + speed. Link to a turn with <code>#turn=N</code>. Hover the board for a cell\u2019s coordinates." +
      ($("v-overlays") ? " Overlays: the keys on their buttons." : "");
    $("viewer").appendChild(keys);
  })();
  var canvas = $("board"), ctx = canvas.getContext("2d");
  var W = data.w, H = data.h;
  var k = Math.max(4, Math.min(56, Math.floor(560 / Math.max(W, H))));
  canvas.width = W * k;
  canvas.height = H * k;

  // ---------------------------------------------------------------- frames
  // static/frames.js decodes them: each frame's marks, and its cells on demand
  var frames = window.atlasFrames.create(data);
  var count = frames.count, marks = frames.marks, gridOf = frames.gridOf;
  if (frames.problem) {        // a page whose frames this script cannot draw whole
    var said = document.createElement("p");
    said.className = "note";
    said.textContent = frames.problem;
    $("viewer").appendChild(said);
  }
  function turnOf(i) { return data.turns ? data.turns[i] : i; }
  function frameOfTurn(t) {
    if (!data.turns) { return Math.max(0, Math.min(count - 1, t)); }
    var best = 0;
    for (var i = 0; i < count; i++) { if (data.turns[i] <= t) { best = i; } }
    return best;
  }

  // ---------------------------------------------------------------- drawing
  var rgba = new Uint32Array(data.palette.length);
  for (var p = 0; p < data.palette.length; p++) {
    var hex = parseInt(data.palette[p].slice(1), 16);
    rgba[p] = (255 << 24 | (hex & 255) << 16 | (hex >> 8 & 255) << 8 | hex >> 16) >>> 0;
  }
  var off = document.createElement("canvas");
  off.width = W; off.height = H;
  var offCtx = off.getContext("2d"), image = offCtx.createImageData(W, H);
  var pixels = new Uint32Array(image.data.buffer);
  function mark(cell, style) {
    var st = data.styles[style], name = data.shapes[st[0]];
    var color = data.palette[st[1]], outline = st[2], s = k * (st[3] || 1);
    var r = Math.floor(cell / W), c = cell % W;
    var x = c * k + (k - s) / 2, y = r * k + (k - s) / 2, cx = x + s / 2, cy = y + s / 2;
    ctx.fillStyle = color;
    ctx.strokeStyle = outline >= 0 ? data.palette[outline] : color;
    ctx.lineWidth = Math.max(1, s / 10);
    ctx.beginPath();
    if (name === "circle" || name === "ring" || name === "dot") {
      ctx.arc(cx, cy, name === "dot" ? s * 0.22 : s * 0.43, 0, Math.PI * 2);
    } else if (name === "square") {
      ctx.rect(cx - s * 0.36, cy - s * 0.36, s * 0.72, s * 0.72);
    } else if (name === "triangle") {
      ctx.moveTo(cx, y + s * 0.1); ctx.lineTo(x + s * 0.93, y + s * 0.88); ctx.lineTo(x + s * 0.07, y + s * 0.88); ctx.closePath();
    } else if (name === "diamond") {
      ctx.moveTo(cx, y + s * 0.03); ctx.lineTo(x + s * 0.97, cy); ctx.lineTo(cx, y + s * 0.97); ctx.lineTo(x + s * 0.03, cy); ctx.closePath();
    } else if (name === "frame") {
      ctx.lineWidth = Math.max(1, s / 6);
      ctx.strokeStyle = color;
      ctx.strokeRect(x + ctx.lineWidth / 2, y + ctx.lineWidth / 2, s - ctx.lineWidth, s - ctx.lineWidth);
      return;
    } else if (name === "cross") {
      ctx.strokeStyle = color;
      ctx.lineWidth = Math.max(1.5, s / 7);
      ctx.moveTo(x + s * 0.2, y + s * 0.2); ctx.lineTo(x + s * 0.8, y + s * 0.8);
      ctx.moveTo(x + s * 0.8, y + s * 0.2); ctx.lineTo(x + s * 0.2, y + s * 0.8);
      ctx.stroke();
      return;
    }
    if (name === "ring") {
      ctx.lineWidth = Math.max(1.5, s / 6);
      ctx.strokeStyle = color;
      ctx.stroke();
      return;
    }
    ctx.fill();
    if (outline >= 0 && s >= 6) { ctx.stroke(); }
  }
  function paint(i) {
    var g = gridOf(i);
    for (var c = 0; c < g.length; c++) { pixels[c] = rgba[g[c]]; }
    offCtx.putImageData(image, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(off, 0, 0, W * k, H * k);
    var ms = marks[i];
    for (var j = 0; j < ms.cells.length; j++) { mark(ms.cells[j], ms.styles[j]); }
  }

  // ---------------------------------------------------------------- chart
  var chart = $("v-chart"), series = data.series || [], which = 0;
  var pick = $("v-series"), valuesBox = $("v-values");
  var seatNames = [];
  // the table of moves (game.html's #v-moves): its rows, written from the data
  (function writeMoves() {
    var body = document.querySelector("#v-moves tbody");
    if (!body || !data.moves || body.children.length) { return; }
    var failed = {};
    (data.failed || []).forEach(function (f) { failed[f[0] + "-" + f[1]] = String(f[2]); });
    var rows = [];
    for (var t = 0; t < data.moves.length; t++) {
      var cells = "", seatsOf = data.moves[t] || [];
      for (var p = 0; p < seatsOf.length; p++) {
        var why = failed[t + "-" + p], mv = seatsOf[p];
        cells += "<td" + (why !== undefined ? ' class="failed" title="' + esc(why) + '"' : "") + ">" +
          (mv === null || mv === undefined ? "" : esc(String(mv))) + "</td>";
      }
      rows.push('<tr id="move-' + (t + 1) + '"><td><a href="#turn=' + (t + 1) + '">' + (t + 1) + "</a></td>" + cells + "</tr>");
    }
    body.innerHTML = rows.join("");
  })();
  function esc(text) {
    return text.replace(/&/g, "&amp;").replace(/[<]/g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }
  var heads = document.querySelectorAll("#v-seats tbody tr");
  for (var h = 0; h < heads.length; h++) { seatNames.push(heads[h].getAttribute("data-name")); }
  var turning = [], turningItems = document.querySelectorAll("#v-turning li[data-turn]");
  for (var ti = 0; ti < turningItems.length; ti++) {
    turning.push([parseInt(turningItems[ti].getAttribute("data-turn"), 10) || 0, parseInt(turningItems[ti].getAttribute("data-seat"), 10) || 0]);
  }
  function showTurning(turn) {  // while results are hidden, the list stops at this turn
    var hiding = document.documentElement.classList.contains("no-spoilers") &&
      !document.body.classList.contains("spoilers-revealed"), later = 0;
    for (var q = 0; q < turningItems.length; q++) {
      var hide = hiding && turning[q][0] > turn;
      turningItems[q].hidden = hide;
      if (hide) { later++; }
    }
    var note = $("v-turning-hidden");
    if (note) { note.textContent = later ? later + " later turning point" + (later === 1 ? "" : "s") + " hidden with the results" : ""; }
  }
  var DASH = [[], [7, 4], [2, 3], [9, 3, 2, 3]];
  var PAD = { l: 42, r: 10, t: 10, b: 22 };
  function chartScale() {
    var s = series[which], top = 0, whole = true;
    for (var a = 0; a < s.values.length; a++) {
      for (var b = 0; b < s.values[a].length; b++) {
        var val = s.values[a][b];
        if (val > top) { top = val; }
        if (val !== null && val !== Math.round(val)) { whole = false; }
      }
    }
    // a round step between the axis's labels (1, 2 or 5 times a power of ten; at least
    // 1 for counts), so no two labels read the same; the axis ends on a label
    var step = niceStep((top > 0 ? top : 1) / 4);
    if (whole && step < 1) { step = 1; }
    return { top: Math.max(step, Math.ceil((top > 0 ? top : 1) / step - 1e-9) * step), step: step };
  }
  function niceStep(raw) {
    var p = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10)), m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
  }
  function axisLabel(v, step) {
    return step >= 1 ? String(Math.round(v)) : String(Number(v.toFixed(Math.min(6, Math.ceil(-Math.log(step) / Math.LN10)))));
  }
  function drawChart(turn) {
    if (!chart || !series.length) { return; }
    var dpr = window.devicePixelRatio || 1, cw = chart.clientWidth || 500, chh = chart.clientHeight || 150;
    if (chart.width !== Math.round(cw * dpr)) { chart.width = Math.round(cw * dpr); chart.height = Math.round(chh * dpr); }
    var g = chart.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, cw, chh);
    var s = series[which], scale = chartScale(), top = scale.top, n = Math.max(1, data.last);
    var x0 = PAD.l, x1 = cw - PAD.r, y0 = chh - PAD.b, y1 = PAD.t;
    var X = function (t) { return x0 + (x1 - x0) * t / n; };
    var Y = function (v) { return y0 - (y0 - y1) * v / top; };
    g.font = "11px system-ui, sans-serif";
    g.fillStyle = "#6b7280";
    g.strokeStyle = "#e4e6ea";
    g.lineWidth = 1;
    for (var q = 0; q * scale.step <= top + 1e-9; q++) {
      var v = q * scale.step, y = Math.round(Y(v)) + 0.5;
      g.beginPath(); g.moveTo(x0, y); g.lineTo(x1, y); g.stroke();
      g.textAlign = "right"; g.textBaseline = "middle";
      g.fillText(axisLabel(v, scale.step), x0 - 5, y);
    }
    g.textAlign = "center"; g.textBaseline = "top";
    var tstep = Math.max(1, niceStep(n / 4));
    for (var tt = 0; tt <= n; tt += tstep) {
      if (n - tt < tstep / 2 && tt > 0) { break; }  // the last label, not one crowding it
      g.fillText(String(tt), X(tt), y0 + 5);
    }
    g.fillText(String(n), X(n), y0 + 5);
    // while the page hides results (static/spoilers.js), the lines stop at this turn
    var hiding = document.documentElement.classList.contains("no-spoilers") &&
      !document.body.classList.contains("spoilers-revealed");
    for (var seat = 0; seat < s.values.length; seat++) {
      var vals = hiding ? s.values[seat].slice(0, turn + 1) : s.values[seat];
      g.strokeStyle = data.palette[5 + (seat % 4)];
      g.lineWidth = 2;
      g.setLineDash(DASH[seat % 4]);
      g.beginPath();
      for (var i = 0; i < vals.length; i++) {
        var px = X(i), py = Y(vals[i]);
        if (i === 0) { g.moveTo(px, py); } else { g.lineTo(px, py); }
      }
      g.stroke();
    }
    g.setLineDash([]);
    // turning points (the list under the chart): a mark on the axis, in the colour of
    // the seat that gained; while results are hidden, only those up to this turn
    for (var tp = 0; tp < turning.length; tp++) {
      var tt2 = turning[tp][0];
      if (hiding && tt2 > turn) { continue; }
      g.fillStyle = data.palette[5 + (turning[tp][1] % 4)];
      g.beginPath(); g.moveTo(X(tt2), y1 + 7); g.lineTo(X(tt2) - 5, y1 - 2); g.lineTo(X(tt2) + 5, y1 - 2); g.closePath(); g.fill();
    }
    g.strokeStyle = "#1f2328";
    g.lineWidth = 1;
    var cx = Math.round(X(turn)) + 0.5;
    g.beginPath(); g.moveTo(cx, y1); g.lineTo(cx, y0); g.stroke();
    chart.setAttribute("data-series", s.name);
    if (valuesBox) {
      var parts = [];
      for (var sv = 0; sv < s.values.length; sv++) {
        parts.push((seatNames[sv] || ("seat " + (sv + 1))) + " " + s.values[sv][Math.min(turn, s.values[sv].length - 1)]);
      }
      valuesBox.textContent = s.name + " at turn " + turn + " (" + s.unit + "): " + parts.join(" · ");
    }
  }
  function chartTurn(ev) {
    var rect = chart.getBoundingClientRect(), cw = rect.width;
    var t = (ev.clientX - rect.left - PAD.l) / (cw - PAD.l - PAD.r) * Math.max(1, data.last);
    return Math.max(0, Math.min(data.last, Math.round(t)));
  }
  if (chart && series.length) {
    var dragging = false;
    chart.addEventListener("mousedown", function (ev) { dragging = true; stop(); go(frameOfTurn(chartTurn(ev))); });
    chart.addEventListener("mousemove", function (ev) { if (dragging) { go(frameOfTurn(chartTurn(ev))); } });
    window.addEventListener("mouseup", function () { dragging = false; });
    if (pick) {
      pick.addEventListener("change", function () { which = parseInt(pick.value, 10) || 0; drawChart(turnOf(current)); });
    }
    window.addEventListener("resize", function () { chart.width = 0; drawChart(turnOf(current)); });
    document.addEventListener("atlas:spoilers", function () { drawChart(turnOf(current)); showTurning(turnOf(current)); });
  }

  // ---------------------------------------------------------------- seats panel
  var lateAt = {};             // "turn,seat" -> [turn, seat, limit, load, cores, verdict]
  (data.late || []).forEach(function (m) { lateAt[m[0] + "," + m[1]] = m; });
  function fmt(v, key) {
    if (v === null || v === undefined) { return "—"; }
    if (key === "nodes") { return v >= 1e6 ? (v / 1e6).toFixed(1) + "M" : v >= 1e4 ? Math.round(v / 1e3) + "k" : String(v); }
    if (key === "score") { return Math.abs(v) >= 1e5 ? v.toExponential(2) : String(Math.round(v * 100) / 100); }
    return String(v);
  }
  // a forced end the bot saw (its report's mate: plies to it, negative for its loss)
  function mateWords(m) {
    var n = Math.abs(Math.round(m));
    return (m > 0 ? "win" : "loss") + " in " + n + (n === 1 ? " ply" : " plies");
  }
  function showSeats(turn) {
    for (var seat = 0; seat < heads.length; seat++) {
      var row = heads[seat], cellsOf = row.querySelectorAll("td[data-k]");
      var moveRow = document.getElementById("move-" + turn), move = "—";
      if (moveRow && turn > 0) { var mc = moveRow.querySelectorAll("td")[seat + 1]; if (mc) { move = mc.textContent || "—"; } }
      else if (turn > 0 && data.moves && data.moves[turn - 1]) {  // a page without the table (the notebook's)
        var said = data.moves[turn - 1][seat];
        if (said !== null && said !== undefined && said !== "") { move = String(said); }
      }
      for (var c = 0; c < cellsOf.length; c++) {
        var key = cellsOf[c].getAttribute("data-k"), text = "—";
        if (key === "move") { text = move; }
        else if (turn > 0 && key === "time") {
          var ms = data.times[seat] ? data.times[seat][turn - 1] : null;
          text = ms === null || ms === undefined ? "—" : ms + " ms";
          var late = lateAt[turn + "," + seat];
          cellsOf[c].classList.toggle("late", !!late);
          cellsOf[c].title = late ? "late: the limit was " + late[2] + " s" +
            (late[3] !== null ? "; load " + late[3] + " on " + late[4] + " cores" : "") + " (" + late[5] + ")" : "";
          if (late) { text += " · late"; }
        } else if (turn > 0 && key === "cpu") {
          var cms = data.cpu && data.cpu[seat] ? data.cpu[seat][turn - 1] : null;
          text = cms === null || cms === undefined ? "—" : cms + " ms";
        } else if (turn > 0) {
          var arr = data.info[seat] && data.info[seat][key];
          text = fmt(arr ? arr[turn - 1] : null, key);
          var mates = key === "score" && data.info[seat] && data.info[seat].mate;
          var mate = mates ? mates[turn - 1] : null;
          if (typeof mate === "number" && mate !== 0) { text = mateWords(mate); cellsOf[c].title = "score " + text; }
        }
        cellsOf[c].textContent = text;
      }
    }
  }

  // ---------------------------------------------------------------- controls
  var scrub = $("v-scrub"), label = $("v-turn"), link = $("v-link"), playBtn = $("v-play");
  var speedBox = $("v-speed"), cellBox = $("v-cell");
  scrub.max = String(count - 1);
  var current = 0, timer = null;
  function speed() { return speedBox ? parseFloat(speedBox.value) || 1 : 1; }
  // overlays (static/overlays.js): what the shown position means, drawn over it
  var overlay = window.atlasOverlays ?
    window.atlasOverlays.create(data, canvas, ctx, k, function () { paint(current); drawOverlay(current); }) : null;
  // what the bots expected (static/pv.js): their lines for the shown turn
  var pvView = window.atlasPvView ?
    window.atlasPvView.create(data, canvas, ctx, k, function () { paint(current); drawOverlay(current); }) : null;
  function drawOverlay(i) {
    if (overlay) { overlay.draw(turnOf(i), gridOf(i), marks[i]); }
    if (pvView) { pvView.draw(turnOf(i), marks[i]); }
  }
  function draw(i) {
    i = Math.max(0, Math.min(count - 1, i));
    current = i;
    paint(i);
    drawOverlay(i);
    var t = turnOf(i);
    scrub.value = String(i);
    label.textContent = "turn " + t + " / " + data.last;
    link.setAttribute("href", "#turn=" + t);
    canvas.setAttribute("data-turn", String(t));
    var rows = document.querySelectorAll("tr.current");
    for (var q = 0; q < rows.length; q++) { rows[q].classList.remove("current"); }
    var row = document.getElementById("move-" + t);
    if (row) {
      row.classList.add("current");
      var wrap = row.closest(".moves-wrap");
      if (wrap) {  // keep the current move in sight inside its box (the page stays put)
        var top = row.offsetTop - wrap.clientHeight / 2;
        if (row.offsetTop < wrap.scrollTop + 30 || row.offsetTop > wrap.scrollTop + wrap.clientHeight - 30) {
          wrap.scrollTop = Math.max(0, top);
        }
      }
    }
    drawChart(t);
    showTurning(t);
    showSeats(t);
    if (i === count - 1) {  // the end: a page that hides results may show them now
      document.dispatchEvent(new CustomEvent("atlas:replay-end"));
    }
  }
  function setHash() {
    var h = "#turn=" + turnOf(current);
    if (location.hash !== h) {
      try { history.replaceState(null, "", h); } catch (e) { /* file:// in some browsers */ }
    }
  }
  function go(i) { draw(i); setHash(); }
  function stop() { if (timer) { clearTimeout(timer); timer = null; } playBtn.textContent = "Play"; playBtn.setAttribute("aria-pressed", "false"); }
  function interval() {
    var ms = (data.ms || 150) / speed();
    canvas.setAttribute("data-interval", String(ms));
    return ms;
  }
  function tick() {
    if (current >= count - 1) { stop(); return; }
    go(current + 1);
    timer = setTimeout(tick, interval());
  }
  function play() {
    if (timer) { stop(); return; }
    if (current >= count - 1) { go(0); }
    playBtn.textContent = "Pause";
    playBtn.setAttribute("aria-pressed", "true");
    timer = setTimeout(tick, interval());
  }
  function faster(step) {
    if (!speedBox) { return; }
    var i = Math.max(0, Math.min(speedBox.options.length - 1, speedBox.selectedIndex + step));
    speedBox.selectedIndex = i;
    speedBox.dispatchEvent(new Event("change"));
  }
  function fromHash() {
    var m = /turn=(\d+)/.exec(location.hash);
    if (m) { draw(frameOfTurn(parseInt(m[1], 10))); return true; }
    return false;
  }
  $("v-first").addEventListener("click", function () { stop(); go(0); });
  $("v-prev").addEventListener("click", function () { stop(); go(current - 1); });
  $("v-next").addEventListener("click", function () { stop(); go(current + 1); });
  $("v-last").addEventListener("click", function () { stop(); go(count - 1); });
  playBtn.addEventListener("click", play);
  scrub.addEventListener("input", function () { stop(); go(parseInt(scrub.value, 10)); });
  if (speedBox) {
    speedBox.addEventListener("change", function () {
      canvas.setAttribute("data-speed", speedBox.value);
      if (timer) { clearTimeout(timer); timer = setTimeout(tick, interval()); } else { interval(); }
    });
    canvas.setAttribute("data-speed", speedBox.value);
    interval();
  }
  canvas.addEventListener("mousemove", function (ev) {
    var rect = canvas.getBoundingClientRect();
    var c = Math.floor((ev.clientX - rect.left) / rect.width * W);
    var r = Math.floor((ev.clientY - rect.top) / rect.height * H);
    if (r < 0 || c < 0 || r >= H || c >= W) { return; }
    canvas.setAttribute("data-cell", r + "," + c);
    if (cellBox) { cellBox.textContent = "row " + r + ", col " + c; }
  });
  canvas.addEventListener("mouseleave", function () {
    canvas.removeAttribute("data-cell");
    if (cellBox) { cellBox.textContent = ""; }
  });
  window.addEventListener("hashchange", function () { fromHash(); });
  document.addEventListener("keydown", function (ev) {
    var tag = ev.target && ev.target.tagName;
    if ((tag === "INPUT" && ev.target.type !== "range") || tag === "SELECT" || tag === "TEXTAREA") { return; }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    if (ev.key === "ArrowRight") { stop(); go(current + 1); ev.preventDefault(); }
    else if (ev.key === "ArrowLeft") { stop(); go(current - 1); ev.preventDefault(); }
    else if (ev.key === " ") { play(); ev.preventDefault(); }
    else if (ev.key === "Home") { stop(); go(0); ev.preventDefault(); }
    else if (ev.key === "End") { stop(); go(count - 1); ev.preventDefault(); }
    else if (ev.key === "+" || ev.key === "=") { faster(1); ev.preventDefault(); }
    else if (ev.key === "-" || ev.key === "_") { faster(-1); ev.preventDefault(); }
  });
  if (!fromHash()) { draw(0); }
  canvas.setAttribute("data-ready", "1");
})();
