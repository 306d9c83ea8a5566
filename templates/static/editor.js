// atlas serve: the map editor.  The board is a grid of blocked cells and the starts;
// every stroke keeps the symmetry chosen, goes on the undo stack, and is analysed by
// the server (POST /__atlas/analyze) a moment later.  What a game's boards may hold
// (its cells' names, starts, size, a symmetry its format requires) comes with the page
// from the server (data.games); nothing here names a game.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("ed-data").textContent);
  var games = data.games;
  var SEAT = ["#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442", "#999999", "#000000"];
  var BLOCKED = "#3b4048", FREE = "#ffffff", CUT = "#b3261e";
  var $ = function (id) { return document.getElementById(id); };
  var canvas = $("ed-canvas"), ctx = canvas.getContext("2d");
  var status = $("ed-status");

  var ed = {
    board: null,      // {game, name, width, height, blocked: Uint8Array, starts: [[r, c] or null], meta}
    file: data.file,  // "GAME/NAME.txt" once opened or saved ("FOLDER/GAME/NAME.txt" with several)
    folder: "",       // with several maps folders (data.folders): the one saves go to
    tool: "block",
    symmetry: "none",
    undo: [], redo: [],
    version: 0,       // bumped by every change of the board
    analysis: null, analysedVersion: -1, analyses: 0, inFlight: false, lastMs: null,
    cursor: [0, 0], px: 8,
  };
  window.atlasEditor = ed;

  function facts() { return games[ed.board.game]; }
  function say(text, bad) { status.textContent = text; status.className = bad ? "bad" : ""; }

  // ------------------------------------------------------------------ the board

  function seatsOf(f) { return Math.max.apply(null, f.starts); }

  function load(board) {
    var f = games[board.game];
    var blocked = new Uint8Array(board.width * board.height);
    for (var r = 0; r < board.height; r++) {
      var row = board.rows[r];
      for (var c = 0; c < board.width; c++) blocked[r * board.width + c] = row.charCodeAt(c) === 35 ? 1 : 0;
    }
    var n = f.fixed_starts.length ? f.fixed_starts.length : seatsOf(f);
    var starts = [];
    for (var k = 0; k < n; k++) starts.push(board.starts[k] ? board.starts[k].slice() : null);
    if (f.fixed_starts.length) starts = f.fixed_starts.map(function (s) { return s.slice(); });
    ed.board = { game: board.game, name: board.name, width: board.width, height: board.height,
                 blocked: blocked, starts: starts, meta: board.meta || {} };
    ed.undo = []; ed.redo = [];
    ed.analysis = null; ed.version++;
    $("ed-name").value = board.name;
    $("ed-meta").value = metaText(ed.board.meta);
    showExt();
    $("ed-title").textContent = board.name + " (" + f.title + ", " + board.width + "\u00d7" + board.height + ")";
    setupTools(); setupSymmetry(); resize(); draw(); analyse();
  }

  // ------------------------------------------------------------------ the folders

  // with several maps folders, every path starts with its folder's name
  var folderSel = $("ed-folder");
  (data.folders || []).forEach(function (name) {
    var o = document.createElement("option"); o.value = name; o.textContent = name; folderSel.appendChild(o);
  });
  if (data.folders && data.folders.length) {
    var first = data.file ? data.file.split("/")[0] : "";
    ed.folder = data.folders.indexOf(first) >= 0 ? first : data.folders[0];
    folderSel.value = ed.folder;
    $("ed-folder-label").hidden = false;
  }
  function inFolder(path) { return ed.folder ? ed.folder + "/" + path : path; }
  function showExt() { $("ed-ext").textContent = ".txt in " + ed.board.game + "/"; }
  folderSel.addEventListener("change", function () { ed.folder = folderSel.value; showExt(); });

  function blank(game, width, height) {
    var rows = [], row = new Array(width + 1).join(".");
    for (var r = 0; r < height; r++) rows.push(row);
    return { game: game, name: "new-map", width: width, height: height, rows: rows, starts: [], meta: {} };
  }

  function boardJson() {
    var b = ed.board, rows = [];
    for (var r = 0; r < b.height; r++) {
      var s = "";
      for (var c = 0; c < b.width; c++) s += b.blocked[r * b.width + c] ? "#" : ".";
      rows.push(s);
    }
    var starts = [];  // the seats placed, up to the first one missing (it says so)
    for (var k = 0; k < b.starts.length && b.starts[k]; k++) starts.push(b.starts[k]);
    return { game: b.game, name: $("ed-name").value || b.name, width: b.width, height: b.height,
             rows: rows, starts: starts, meta: b.meta };
  }

  ed.blockedCells = function () {
    var b = ed.board, out = [];
    for (var i = 0; i < b.blocked.length; i++) if (b.blocked[i]) out.push([Math.floor(i / b.width), i % b.width]);
    return out;
  };
  ed.cellCentre = function (r, c) {  // where a cell is on the page, for a pointer
    var box = canvas.getBoundingClientRect();
    return { x: box.left + (c + 0.5) * ed.px, y: box.top + (r + 0.5) * ed.px };
  };

  // the map's settings (its format's words: how pieces move, how many in a row) as
  // key=value words, a list as a,b; a number stays a number
  function metaText(meta) {
    return Object.keys(meta).map(function (k) {
      var v = meta[k];
      return k + "=" + (Array.isArray(v) ? v.join(",") : String(v));
    }).join(" ");
  }
  function metaOf(text) {
    var meta = {};
    text.split(/\s+/).filter(Boolean).forEach(function (w) {
      var at = w.indexOf("="), k = at < 0 ? w : w.slice(0, at), v = at < 0 ? "" : w.slice(at + 1);
      meta[k] = /^\d{1,9}$/.test(v) ? parseInt(v, 10) : v.indexOf(",") >= 0 ? v.split(",").filter(Boolean) : v;
    });
    return meta;
  }
  $("ed-meta").addEventListener("change", function (e) {
    ed.board.meta = metaOf(e.target.value);
    ed.version++; analyse();
  });

  // ------------------------------------------------------------------ symmetry

  function image(sym, r, c) {
    var b = ed.board, h = b.height, w = b.width;
    if (sym === "rot180") return [h - 1 - r, w - 1 - c];
    if (sym === "flip-lr") return [r, w - 1 - c];
    if (sym === "flip-ud") return [h - 1 - r, c];
    if (sym === "rot90") return [w - 1 - c, r];
    return [r, c];
  }
  // the cells a stroke at (r, c) paints: its orbit under the symmetry's turns
  function orbit(r, c) {
    var out = [[r, c]], m = ed.symmetry === "rot90" ? 4 : ed.symmetry === "none" ? 1 : 2;
    var cell = [r, c];
    for (var j = 1; j < m; j++) {
      cell = image(ed.symmetry, cell[0], cell[1]);
      out.push(cell);
    }
    return out;
  }

  // ------------------------------------------------------------------ strokes

  var stroke = null;  // {cells: {index: [before, after]}, startsBefore}

  function begin() { stroke = { cells: {}, startsBefore: JSON.stringify(ed.board.starts) }; }
  function setCell(r, c, v) {
    var b = ed.board, i = r * b.width + c;
    if (b.blocked[i] === v) return;
    if (!(i in stroke.cells)) stroke.cells[i] = [b.blocked[i], v];
    stroke.cells[i][1] = v;
    b.blocked[i] = v;
  }
  function startAt(r, c) {
    var s = ed.board.starts;
    for (var k = 0; k < s.length; k++) if (s[k] && s[k][0] === r && s[k][1] === c) return k;
    return -1;
  }
  function paint(r, c) {
    var b = ed.board, f = facts();
    if (r < 0 || c < 0 || r >= b.height || c >= b.width) return;
    if (ed.tool === "block" || ed.tool === "free") {
      if (!f.walls) return;
      orbit(r, c).forEach(function (p) {
        var editable = !f.fixed_starts.length && startAt(p[0], p[1]) >= 0;
        if (ed.tool === "block" && editable) return;  // a start stays free
        setCell(p[0], p[1], ed.tool === "block" ? 1 : 0);
      });
    } else {
      placeStart(parseInt(ed.tool.slice(6), 10) - 1, r, c);  // "start 1" is seat 0
    }
  }
  // start k at (r, c), and the seats the symmetry carries it to at the images
  function placeStart(k, r, c) {
    var s = ed.board.starts, n = s.length;
    var m = ed.symmetry === "rot90" ? 4 : ed.symmetry === "none" ? 1 : 2;
    var turns = [[r, c]], cell = [r, c];
    for (var j = 1; j < m; j++) { cell = image(ed.symmetry, cell[0], cell[1]); turns.push(cell); }
    var put = [[k, r, c]];
    if (m > 1 && n % m === 0) {
      for (j = 1; j < m; j++) put.push([(k + j * n / m) % n, turns[j][0], turns[j][1]]);
    } else if (m > 1 && m % n === 0) {
      for (j = 1; j < n; j++) put.push([(k + j) % n, turns[j * m / n][0], turns[j * m / n][1]]);
    }
    var seen = {};
    for (j = 0; j < put.length; j++) {
      var key = put[j][1] + "," + put[j][2];
      if (seen[key]) { put = put.slice(0, 1); break; }  // a cell the turn keeps: one start
      seen[key] = 1;
    }
    put.forEach(function (p) {
      var other = startAt(p[1], p[2]);
      if (other >= 0 && other !== p[0]) s[other] = null;
      s[p[0]] = [p[1], p[2]];
      setCell(p[1], p[2], 0);
    });
  }
  function end() {
    if (!stroke) return;
    var changed = Object.keys(stroke.cells).length > 0 ||
      stroke.startsBefore !== JSON.stringify(ed.board.starts);
    if (changed) {
      stroke.startsAfter = JSON.stringify(ed.board.starts);
      ed.undo.push(stroke);
      if (ed.undo.length > 1000) ed.undo.shift();
      ed.redo = [];
      ed.version++;
      analyse();
    }
    stroke = null;
    draw();
  }
  function replay(s, back) {
    var b = ed.board;
    Object.keys(s.cells).forEach(function (i) { b.blocked[i] = s.cells[i][back ? 0 : 1]; });
    b.starts = JSON.parse(back ? s.startsBefore : s.startsAfter);
    ed.version++;
    draw(); analyse();
  }
  ed.doUndo = function () { var s = ed.undo.pop(); if (s) { ed.redo.push(s); replay(s, true); } };
  ed.doRedo = function () { var s = ed.redo.pop(); if (s) { ed.undo.push(s); replay(s, false); } };

  // ------------------------------------------------------------------ tools

  function setupTools() {
    var f = facts(), bar = $("ed-tools");
    bar.textContent = "";
    var tools = [];
    if (f.walls) tools.push(["block", f.blocked + " (B)"], ["free", f.free + " (F)"]);
    if (!f.fixed_starts.length) {
      for (var k = 0; k < ed.board.starts.length; k++) tools.push(["start " + (k + 1), "start " + (k + 1) + " (" + (k + 1) + ")"]);
    }
    if (!tools.length) bar.textContent = "Nothing to draw on these boards but their size.";
    if (!tools.some(function (t) { return t[0] === ed.tool; })) ed.tool = tools.length ? tools[0][0] : "";
    tools.forEach(function (t) {
      var btn = document.createElement("button");
      btn.type = "button"; btn.textContent = t[1]; btn.dataset.tool = t[0];
      btn.addEventListener("click", function () { pick(t[0]); canvas.focus(); });
      bar.appendChild(btn);
    });
    pick(ed.tool);
  }
  function pick(tool) {
    if (!tool || !document.querySelector('#ed-tools [data-tool="' + tool + '"]')) return;
    ed.tool = tool;
    Array.prototype.forEach.call(document.querySelectorAll("#ed-tools button"), function (b) {
      b.setAttribute("aria-pressed", b.dataset.tool === tool ? "true" : "false");
    });
  }
  function setupSymmetry() {
    var f = facts(), sel = $("ed-symmetry"), b = ed.board;
    sel.querySelector('option[value="rot90"]').disabled = b.width !== b.height;
    if (f.symmetry) {
      ed.symmetry = f.symmetry; sel.value = f.symmetry; sel.disabled = true;
      $("ed-symmetry-note").textContent = "required by the format";
    } else {
      if (ed.symmetry === "rot90" && b.width !== b.height) ed.symmetry = "none";
      sel.value = ed.symmetry; sel.disabled = false;
      $("ed-symmetry-note").textContent = "";
    }
  }
  $("ed-symmetry").addEventListener("change", function (e) { ed.symmetry = e.target.value; canvas.focus(); });

  // ------------------------------------------------------------------ drawing

  function resize() {
    var b = ed.board;
    ed.px = Math.max(3, Math.min(32, Math.floor(640 / Math.max(b.width, b.height))));
    canvas.width = b.width * ed.px; canvas.height = b.height * ed.px;
  }
  function draw() {
    var b = ed.board, px = ed.px, a = ed.analysis, r, c;
    var owner = $("ed-show-voronoi").checked && a && a.voronoi && ed.analysedVersion === ed.version ? a.voronoi.owner : null;
    ctx.fillStyle = FREE; ctx.fillRect(0, 0, canvas.width, canvas.height);
    for (r = 0; r < b.height; r++) {
      for (c = 0; c < b.width; c++) {
        if (b.blocked[r * b.width + c]) { ctx.fillStyle = BLOCKED; ctx.fillRect(c * px, r * px, px, px); continue; }
        var o = owner ? owner[r].charCodeAt(c) - 49 : -1;
        if (o >= 0 && o < 9) {
          ctx.globalAlpha = 0.22; ctx.fillStyle = SEAT[o]; ctx.fillRect(c * px, r * px, px, px); ctx.globalAlpha = 1;
        }
      }
    }
    if (px >= 8) {  // the grid's lines, where cells are large enough to see them
      ctx.strokeStyle = "rgba(0,0,0,0.08)"; ctx.lineWidth = 1; ctx.beginPath();
      for (r = 1; r < b.height; r++) { ctx.moveTo(0, r * px + 0.5); ctx.lineTo(canvas.width, r * px + 0.5); }
      for (c = 1; c < b.width; c++) { ctx.moveTo(c * px + 0.5, 0); ctx.lineTo(c * px + 0.5, canvas.height); }
      ctx.stroke();
    }
    if (a && ed.analysedVersion === ed.version) {
      ctx.fillStyle = CUT;
      (a.articulation || []).forEach(function (p) {
        ctx.beginPath(); ctx.arc((p[1] + 0.5) * px, (p[0] + 0.5) * px, Math.max(1.2, px * 0.18), 0, 7); ctx.fill();
      });
    }
    if ($("ed-show-chambers").checked && a && ed.analysedVersion === ed.version) {
      // each seat's chambers outlined where two meet, each entrance a diamond
      (a.chambers || []).forEach(function (ch) {
        var colour = SEAT[(ch.seat - 1) % 9];
        ctx.strokeStyle = colour; ctx.lineWidth = Math.max(1.5, px * 0.18); ctx.beginPath();
        (ch.edges || []).forEach(function (e) {
          if (e[2] === 0) { ctx.moveTo((e[1] + 1) * px, e[0] * px); ctx.lineTo((e[1] + 1) * px, (e[0] + 1) * px); }
          else { ctx.moveTo(e[1] * px, (e[0] + 1) * px); ctx.lineTo((e[1] + 1) * px, (e[0] + 1) * px); }
        });
        ctx.stroke();
        ctx.lineWidth = 2;
        (ch.entrances || []).forEach(function (p) {
          var x = (p[1] + 0.5) * px, y = (p[0] + 0.5) * px, d = Math.max(3, px * 0.42);
          ctx.beginPath(); ctx.moveTo(x, y - d); ctx.lineTo(x + d, y); ctx.lineTo(x, y + d); ctx.lineTo(x - d, y); ctx.closePath(); ctx.stroke();
        });
      });
    }
    b.starts.forEach(function (s, k) {
      if (!s) return;
      ctx.fillStyle = SEAT[k % 9]; ctx.fillRect(s[1] * px, s[0] * px, px, px);
      if (px >= 10) {
        ctx.fillStyle = "#fff"; ctx.font = "bold " + Math.floor(px * 0.75) + "px sans-serif";
        ctx.textAlign = "center"; ctx.textBaseline = "middle";
        ctx.fillText(String(k + 1), (s[1] + 0.5) * px, (s[0] + 0.55) * px);
      }
    });
    ed.rings = 0;
    if (a && ed.analysedVersion === ed.version) {  // each problem ringed
      // a format that requires a symmetry stores one cell for its whole orbit (Outpost's
      // quarter stands for the four turns): a problem is ringed at every image
      var whole = !!facts().symmetry;
      (a.problems || []).forEach(function (p) {
        ctx.strokeStyle = p.severity === "error" ? "#e00000" : "#d08c00";
        ctx.lineWidth = 2;
        p.cells.slice(0, 400).forEach(function (q) {
          (whole ? orbit(q[0], q[1]) : [q]).forEach(function (o) {
            ctx.beginPath(); ctx.arc((o[1] + 0.5) * px, (o[0] + 0.5) * px, Math.max(7, px * 1.1), 0, 7); ctx.stroke();
            ed.rings++;
          });
        });
      });
    }
    if (document.activeElement === canvas) {
      ctx.strokeStyle = "#0072b2"; ctx.lineWidth = 2;
      ctx.strokeRect(ed.cursor[1] * px + 1, ed.cursor[0] * px + 1, px - 2, px - 2);
    }
  }
  $("ed-show-voronoi").addEventListener("change", draw);
  $("ed-show-chambers").addEventListener("change", draw);

  // ------------------------------------------------------------------ the pointer and keys

  var last = null;
  function cellAt(e) {
    var box = canvas.getBoundingClientRect();
    return [Math.floor((e.clientY - box.top) / ed.px), Math.floor((e.clientX - box.left) / ed.px)];
  }
  function line(a, b) {  // the cells from a to b, so a quick drag leaves no gaps
    var out = [], n = Math.max(Math.abs(b[0] - a[0]), Math.abs(b[1] - a[1]), 1);
    for (var i = 1; i <= n; i++) out.push([Math.round(a[0] + (b[0] - a[0]) * i / n), Math.round(a[1] + (b[1] - a[1]) * i / n)]);
    return out;
  }
  canvas.addEventListener("pointerdown", function (e) {
    if (e.button !== 0 || !ed.tool) return;
    canvas.focus();
    canvas.setPointerCapture(e.pointerId);
    begin(); last = cellAt(e); ed.cursor = last; paint(last[0], last[1]); draw();
  });
  canvas.addEventListener("pointermove", function (e) {
    if (!stroke || !last) return;
    var here = cellAt(e);
    if (here[0] === last[0] && here[1] === last[1]) return;
    if (ed.tool.slice(0, 6) === "start ") { last = here; return; }  // a start: where it is put down
    line(last, here).forEach(function (p) { paint(p[0], p[1]); });
    last = here; draw();
  });
  function up() { if (stroke) { last = null; end(); } }
  canvas.addEventListener("pointerup", up);
  canvas.addEventListener("pointercancel", up);
  canvas.addEventListener("focus", draw);
  canvas.addEventListener("blur", draw);

  document.addEventListener("keydown", function (e) {
    var t = e.target && e.target.tagName;
    if (t === "INPUT" || t === "SELECT" || t === "TEXTAREA" || !ed.board) return;
    var key = e.key.toLowerCase();
    if ((e.ctrlKey || e.metaKey) && key === "z" && !e.shiftKey) { ed.doUndo(); e.preventDefault(); return; }
    if ((e.ctrlKey || e.metaKey) && (key === "y" || (key === "z" && e.shiftKey))) { ed.doRedo(); e.preventDefault(); return; }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (key === "b") pick("block");
    else if (key === "f") pick("free");
    else if (/^[1-9]$/.test(key)) pick("start " + key);
    else if (document.activeElement === canvas) {
      var d = { arrowup: [-1, 0], arrowdown: [1, 0], arrowleft: [0, -1], arrowright: [0, 1] }[key];
      var b = ed.board;
      if (d) {
        ed.cursor = [Math.min(b.height - 1, Math.max(0, ed.cursor[0] + d[0])), Math.min(b.width - 1, Math.max(0, ed.cursor[1] + d[1]))];
        if (e.shiftKey && ed.tool) { begin(); paint(ed.cursor[0], ed.cursor[1]); end(); }
        draw(); e.preventDefault();
      } else if ((key === " " || key === "enter") && ed.tool) {
        begin(); paint(ed.cursor[0], ed.cursor[1]); end(); e.preventDefault();
      }
    }
  });
  $("ed-undo").addEventListener("click", function () { ed.doUndo(); });
  $("ed-redo").addEventListener("click", function () { ed.doRedo(); });

  // ------------------------------------------------------------------ analysis

  var timer = null;
  function analyse() {  // debounced: one request at a time, for the newest board
    clearTimeout(timer);
    timer = setTimeout(send, 40);
  }
  function send() {
    if (ed.inFlight) return;  // sent again when the answer is in
    var version = ed.version, began = performance.now();
    ed.inFlight = true;
    fetch(data.analyze, { method: "POST", headers: { "Content-Type": "application/json" },
                          body: JSON.stringify(boardJson()) })
      .then(function (r) {
        if (!r.ok) return r.text().then(function (t) { var why = r.statusText; try { why = JSON.parse(t).refused || why; } catch (e) { /* an HTML refusal */ } throw new Error(r.status + " " + why); });
        return r.json();
      })
      .then(function (a) {
        ed.analysis = a; ed.analysedVersion = version; ed.analyses++;
        ed.lastMs = performance.now() - began;
        show(a);
      }, function (err) { say("analysis failed: " + err.message, true); })
      .then(function () {
        ed.inFlight = false;
        if (ed.analysedVersion !== ed.version) send();
        draw();
      });
  }
  ed.analysedNow = function () { return !ed.inFlight && ed.analysedVersion === ed.version; };

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function show(a) {
    var box = $("ed-analysis"), f = facts();
    box.textContent = "";
    box.appendChild(el("p", "analysed in " + Math.round(ed.lastMs) + " ms (" + Math.round(1000 * a.seconds) + " ms on the server)", "note"));
    if (a.error) {
      box.appendChild(el("h2", "The map does not read"));
      box.appendChild(el("p", a.error, "ed-error"));
      return;
    }
    box.appendChild(el("h2", "Board"));
    var ul = el("ul");
    ul.appendChild(el("li", a.free + " " + f.free + " cells"));
    ul.appendChild(el("li", a.articulation.length + " articulation points (red dots): cells whose loss splits the " + f.free));
    box.appendChild(ul);
    if (a.voronoi) {
      box.appendChild(el("h2", "Voronoi"));
      ul = el("ul");
      a.voronoi.cells.forEach(function (n, k) { ul.appendChild(el("li", "seat " + (k + 1) + ": " + n + " cells nearest")); });
      ul.appendChild(el("li", a.voronoi.tie + " as near to two seats"));
      box.appendChild(ul);
    }
    if (a.chambers && a.chambers.length) {
      box.appendChild(el("h2", "Chambers"));
      ul = el("ul");
      a.chambers.forEach(function (ch) {
        var sizes = ch.sizes.slice(0, 8).join(", ") + (ch.sizes.length > 8 ? ", \u2026" : "");
        ul.appendChild(el("li", "seat " + ch.seat + ": " + ch.sizes.length + (ch.sizes.length === 1 ? " chamber (" : " chambers (") + sizes + "), fills " + ch.fillable +
                                  (ch.entrances.length ? "; outlined in its colour, each entrance a diamond" : "")));
      });
      box.appendChild(ul);
    }
    if (f.validates) {
      box.appendChild(el("h2", "Validation"));
      if (!a.problems.length) box.appendChild(el("p", "valid: no problem", "ed-valid"));
      ul = el("ul");
      a.problems.forEach(function (p) {
        ul.appendChild(el("li", p.severity + " [" + p.rule + "] " + p.message, "ed-problem " + p.severity));
      });
      box.appendChild(ul);
    }
    var fair = a.fairness;
    if (fair) {
      box.appendChild(el("h2", "Fairness"));
      ul = el("ul");
      ul.appendChild(el("li", "symmetries: " + (fair.symmetries.length ? fair.symmetries.join(", ") : "none")));
      fair.facts.forEach(function (x) {
        var v = x.seats ? x.seats.join(" / ") : String(x.value);
        ul.appendChild(el("li", x.label + ": " + v + (x.note ? " \u2014 " + x.note : "")));
      });
      fair.notes.forEach(function (n) { ul.appendChild(el("li", n)); });
      box.appendChild(ul);
    }
  }

  // ------------------------------------------------------------------ saving

  function whenAnalysed() {
    return new Promise(function (done) {
      var tries = 0;
      (function wait() {
        if (ed.analysedNow() || ++tries > 600) return done();
        if (!ed.inFlight) { clearTimeout(timer); send(); }
        setTimeout(wait, 50);
      })();
    });
  }
  function save(overwrite) {
    var name = $("ed-name").value.trim();
    if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name) || name.length > 100) {
      return say("a map's name is letters, digits, '_', '-' and '.', not starting with '.'", true);
    }
    if (/\.txt$/.test(name)) name = name.slice(0, -4);
    var rel = inFolder(ed.board.game + "/" + name + ".txt");
    $("ed-confirm").hidden = true;
    say("saving\u2026");
    whenAnalysed().then(function () {
      var a = ed.analysis;
      if (!a || !ed.analysedNow()) return say("not saved: the analysis did not answer", true);
      if (a.error) return say("not saved: the map does not read: " + a.error, true);
      var headers = { "Content-Type": "text/plain; charset=utf-8" };
      if (!overwrite) headers["If-None-Match"] = "*";  // a new file only, unless confirmed
      return fetch(data.save + rel.split("/").map(encodeURIComponent).join("/"),
                   { method: "PUT", headers: headers, body: a.text })
        .then(function (r) {
          if (r.status === 412) {
            say(rel + " exists: overwrite it?");
            $("ed-confirm").hidden = false;
            $("ed-overwrite").focus();
            return;
          }
          if (!r.ok) return say("not saved: " + r.status + " " + r.statusText, true);
          ed.file = rel; ed.board.name = name;
          say("saved " + rel + "; the site is rebuilt with it: ");
          var link = document.createElement("a");
          link.href = "/index.html"; link.textContent = "the maps";
          status.appendChild(link);
          ed.saved = rel;
        });
    }).catch(function (err) { say("not saved: " + err, true); });
  }
  $("ed-save").addEventListener("click", function () { save(false); });
  $("ed-overwrite").addEventListener("click", function () { save(true); });
  $("ed-cancel").addEventListener("click", function () { $("ed-confirm").hidden = true; say("not saved"); });

  // ------------------------------------------------------------------ a new map

  var gameSel = $("ed-game");
  Object.keys(games).forEach(function (g) {
    var o = document.createElement("option"); o.value = g; o.textContent = games[g].title; gameSel.appendChild(o);
  });
  function sizeFor() {
    var f = games[gameSel.value];
    $("ed-width").disabled = $("ed-height").disabled = !!f.size;
    if (f.size) { $("ed-height").value = f.size[0]; $("ed-width").value = f.size[1]; }
  }
  gameSel.addEventListener("change", sizeFor);
  $("ed-new").addEventListener("submit", function (e) {
    e.preventDefault();
    var w = parseInt($("ed-width").value, 10), h = parseInt($("ed-height").value, 10);
    if (!(w >= 1 && h >= 1 && w <= 500 && h <= 500)) return say("a board is 1 to 500 cells each way", true);
    ed.file = null;
    load(blank(gameSel.value, w, h));
    say("a new " + games[gameSel.value].title + " map: draw it, name it, save it");
  });

  if (data.board) {
    gameSel.value = data.board.game;
    load(data.board);
  } else {
    // a file not there yet (or that does not read): a blank board of its folder's game
    var parts = data.file ? data.file.split("/") : [];
    if (ed.folder) parts = parts.slice(1);  // the folder's name first
    if (parts.length === 2 && games[parts[0]]) gameSel.value = parts[0];
    sizeFor();
    var g = gameSel.value;
    var f0 = games[g];
    var fresh = blank(g, f0.size ? f0.size[1] : 20, f0.size ? f0.size[0] : 20);
    if (parts.length === 2) fresh.name = parts[1].replace(/\.txt$/, "");
    load(fresh);
    if (data.problem && data.file) say("the map file does not read (" + data.problem + "); a new map instead", true);
  }
  sizeFor();
})();
