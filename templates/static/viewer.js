/* atlas replay viewer: draws the turns embedded in the page as JSON on a <canvas>.
   No network access: the data is in <script type="application/json" id="replay-data">.
   Keys: Left/Right step, Space play/pause, Home/End; the URL hash #turn=N names a turn. */
(function () {
  "use strict";
  var node = document.getElementById("replay-data");
  if (!node) { return; }
  var data = JSON.parse(node.textContent);
  if (!data) { return; }
  var canvas = document.getElementById("board");
  var ctx = canvas.getContext("2d");
  var k = Math.max(4, Math.min(56, Math.floor(560 / Math.max(data.w, data.h))));
  canvas.width = data.w * k;
  canvas.height = data.h * k;
  var frames = data.frames;
  var grids = [];          // keyframes every 32 frames for fast scrubbing
  var KEY = 32;
  var scrub = document.getElementById("v-scrub");
  var label = document.getElementById("v-turn");
  var link = document.getElementById("v-link");
  var playBtn = document.getElementById("v-play");
  scrub.max = String(frames.length - 1);
  var current = 0, timer = null;

  function gridAt(i) {
    var key = Math.floor(i / KEY);
    while (grids.length <= key) {
      var g = grids.length === 0 ? data.base.slice() : advance(grids[grids.length - 1].slice(), (grids.length - 1) * KEY + 1, grids.length * KEY);
      grids.push(g);
    }
    return advance(grids[key].slice(), key * KEY + 1, i);
  }
  function advance(g, from, to) {
    for (var f = from; f <= to && f < frames.length; f++) {
      var d = frames[f].d;
      for (var j = 0; j < d.length; j += 2) { g[d[j]] = d[j + 1]; }
    }
    return g;
  }
  function mark(r, c, shape, color, outline, scale) {
    var s = k * (scale || 1);
    var x = c * k + (k - s) / 2, y = r * k + (k - s) / 2, cx = x + s / 2, cy = y + s / 2, rad = s * 0.43;
    ctx.fillStyle = data.palette[color];
    ctx.strokeStyle = outline >= 0 ? data.palette[outline] : data.palette[color];
    ctx.lineWidth = Math.max(1, s / 10);
    ctx.beginPath();
    var name = data.shapes[shape];
    if (name === "circle" || name === "ring" || name === "dot") {
      ctx.arc(cx, cy, name === "dot" ? s * 0.22 : rad, 0, Math.PI * 2);
    } else if (name === "square") {
      ctx.rect(cx - s * 0.36, cy - s * 0.36, s * 0.72, s * 0.72);
    } else if (name === "triangle") {
      ctx.moveTo(cx, y + s * 0.1); ctx.lineTo(x + s * 0.93, y + s * 0.88); ctx.lineTo(x + s * 0.07, y + s * 0.88); ctx.closePath();
    } else if (name === "diamond") {
      ctx.moveTo(cx, y + s * 0.03); ctx.lineTo(x + s * 0.97, cy); ctx.lineTo(cx, y + s * 0.97); ctx.lineTo(x + s * 0.03, cy); ctx.closePath();
    } else if (name === "frame") {
      ctx.lineWidth = Math.max(1, s / 6);
      ctx.strokeStyle = data.palette[color];
      ctx.strokeRect(x + ctx.lineWidth / 2, y + ctx.lineWidth / 2, s - ctx.lineWidth, s - ctx.lineWidth);
      return;
    } else if (name === "cross") {
      ctx.strokeStyle = data.palette[color];
      ctx.lineWidth = Math.max(1.5, s / 7);
      ctx.moveTo(x + s * 0.2, y + s * 0.2); ctx.lineTo(x + s * 0.8, y + s * 0.8);
      ctx.moveTo(x + s * 0.8, y + s * 0.2); ctx.lineTo(x + s * 0.2, y + s * 0.8);
      ctx.stroke();
      return;
    }
    if (name === "ring") {
      ctx.lineWidth = Math.max(1.5, s / 6);
      ctx.strokeStyle = data.palette[color];
      ctx.stroke();
      return;
    }
    ctx.fill();
    if (outline >= 0 && s >= 6) { ctx.stroke(); }
  }
  function draw(i) {
    i = Math.max(0, Math.min(frames.length - 1, i));
    current = i;
    var g = gridAt(i);
    for (var r = 0; r < data.h; r++) {
      for (var c = 0; c < data.w; c++) {
        ctx.fillStyle = data.palette[g[r * data.w + c]];
        ctx.fillRect(c * k, r * k, k, k);
      }
    }
    var ms = frames[i].m;
    for (var j = 0; j < ms.length; j++) { mark(ms[j][0], ms[j][1], ms[j][2], ms[j][3], ms[j][4], ms[j][5]); }
    var t = frames[i].t;
    scrub.value = String(i);
    label.textContent = "turn " + t + " / " + data.last;
    link.setAttribute("href", "#turn=" + t);
    canvas.setAttribute("data-turn", String(t));
    var rows = document.querySelectorAll("tr.current");
    for (var q = 0; q < rows.length; q++) { rows[q].classList.remove("current"); }
    var row = document.getElementById("move-" + t);
    if (row) { row.classList.add("current"); }
  }
  function frameOfTurn(t) {
    var best = 0;
    for (var i = 0; i < frames.length; i++) { if (frames[i].t <= t) { best = i; } }
    return best;
  }
  function setHash() {
    var h = "#turn=" + frames[current].t;
    if (location.hash !== h) {
      try { history.replaceState(null, "", h); } catch (e) { /* file:// in some browsers */ }
    }
  }
  function go(i) { draw(i); setHash(); }
  function stop() { if (timer) { clearInterval(timer); timer = null; } playBtn.textContent = "Play"; }
  function play() {
    if (timer) { stop(); return; }
    if (current >= frames.length - 1) { go(0); }
    playBtn.textContent = "Pause";
    timer = setInterval(function () {
      if (current >= frames.length - 1) { stop(); return; }
      go(current + 1);
    }, data.w * data.h > 5000 ? 120 : 150);
  }
  function fromHash() {
    var m = /turn=(\d+)/.exec(location.hash);
    if (m) { draw(frameOfTurn(parseInt(m[1], 10))); return true; }
    return false;
  }
  document.getElementById("v-first").addEventListener("click", function () { stop(); go(0); });
  document.getElementById("v-prev").addEventListener("click", function () { stop(); go(current - 1); });
  document.getElementById("v-next").addEventListener("click", function () { stop(); go(current + 1); });
  document.getElementById("v-last").addEventListener("click", function () { stop(); go(frames.length - 1); });
  playBtn.addEventListener("click", play);
  scrub.addEventListener("input", function () { stop(); go(parseInt(scrub.value, 10)); });
  window.addEventListener("hashchange", function () { fromHash(); });
  document.addEventListener("keydown", function (ev) {
    if (ev.target && (ev.target.tagName === "INPUT" && ev.target.type !== "range")) { return; }
    if (ev.key === "ArrowRight") { stop(); go(current + 1); ev.preventDefault(); }
    else if (ev.key === "ArrowLeft") { stop(); go(current - 1); ev.preventDefault(); }
    else if (ev.key === " ") { play(); ev.preventDefault(); }
    else if (ev.key === "Home") { stop(); go(0); ev.preventDefault(); }
    else if (ev.key === "End") { stop(); go(frames.length - 1); ev.preventDefault(); }
  });
  if (!fromHash()) { draw(0); }
})();
