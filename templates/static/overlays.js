/* atlas replay overlays: what a position means, drawn over the viewer's board for the
   turn shown, computed here in the browser from the frame the viewer already has (no
   bytes per game beyond a few names).  The game's painter module names its overlays
   and how to read its frames (data.overlays, atlas/render/viewer.py):
     names: overlay names, from the kinds below;
     free:  palette indices of free cells;
     seats: palette index of each seat's colour: a mark of that colour is the seat's
            piece (a head, a queen, a disc);
     args:  what a kind needs more (the moves of a piece, the length of a line).
   The reader toggles them with buttons or keys; the choice is kept in localStorage.
   The values of the shown turn are on window.atlasOverlay (the browser tests compare
   them with atlas's Python kernels).  viewer.js calls atlasOverlays.create(). */
(function () {
  "use strict";
  var STORE = "atlas.overlays";

  // ------------------------------------------------------------ generic kernels
  // Cells are row-major indices of a W x H grid, 4-neighbours unless said otherwise.
  function neighbours4(W, H) {
    return function (v, d) {
      var r = (v / W) | 0, c = v - r * W;
      if (d === 0) { return r > 0 ? v - W : -1; }
      if (d === 1) { return c < W - 1 ? v + 1 : -1; }
      if (d === 2) { return r < H - 1 ? v + W : -1; }
      return c > 0 ? v - 1 : -1;
    };
  }

  /* Voronoi of two heads: one breadth-first search from both; a cell reached at the
     same distance from both is a tie.  Heads may stand on blocked cells.  owner: 1 seat
     1 strictly first, 2 seat 2, 3 tie, 0 unreached; counts [n1, n2, tie] of free
     cells (the heads not counted): atlas.analysis.voronoi.voronoi_counts. */
  function voronoi(free, W, H, a, b) {
    var N = W * H, dist = new Int32Array(N).fill(-1), owner = new Uint8Array(N);
    var queue = new Int32Array(N + 2), t = 0, nb = neighbours4(W, H);
    dist[a] = 0; owner[a] = 1; queue[t++] = a;
    if (b === a) { owner[a] = 3; } else { dist[b] = 0; owner[b] = 2; queue[t++] = b; }
    var heads = t, h = 0;
    while (h < t) {
      var v = queue[h++], d = dist[v] + 1, o = owner[v];
      for (var k = 0; k < 4; k++) {
        var w = nb(v, k);
        if (w < 0 || !free[w]) { continue; }
        if (dist[w] === -1) { dist[w] = d; owner[w] = o; queue[t++] = w; }
        else if (dist[w] === d) { owner[w] |= o; }
      }
    }
    var counts = [0, 0, 0];
    for (var q = heads; q < t; q++) { counts[owner[queue[q]] === 1 ? 0 : owner[queue[q]] === 2 ? 1 : 2]++; }
    owner[a] = 0; owner[b] = 0;
    return { owner: owner, counts: counts };
  }

  /* Articulation points of the free cells: iterative Hopcroft-Tarjan (no recursion, so
     a 100 x 100 board cannot overflow the stack).  atlas.analysis.articulation. */
  function articulation(free, W, H) {
    var N = W * H, disc = new Int32Array(N), low = new Int32Array(N), parent = new Int32Array(N);
    var it = new Uint8Array(N), stack = new Int32Array(N), cut = new Uint8Array(N);
    var nb = neighbours4(W, H), timer = 1;
    for (var s = 0; s < N; s++) {
      if (!free[s] || disc[s]) { continue; }
      var sp = 0, rootChildren = 0;
      disc[s] = low[s] = timer++; parent[s] = -1; stack[sp++] = s;
      while (sp > 0) {
        var v = stack[sp - 1];
        if (it[v] < 4) {
          var w = nb(v, it[v]++);
          if (w < 0 || !free[w]) { continue; }
          if (!disc[w]) {
            parent[w] = v; disc[w] = low[w] = timer++; stack[sp++] = w;
            if (v === s) { rootChildren++; }
          } else if (w !== parent[v] && disc[w] < low[v]) { low[v] = disc[w]; }
        } else {
          sp--;
          var p = parent[v];
          if (p >= 0) {
            if (low[v] < low[p]) { low[p] = low[v]; }
            if (p !== s && low[v] >= disc[p]) { cut[p] = 1; }
          }
        }
      }
      if (rootChildren >= 2) { cut[s] = 1; }
    }
    var cells = [];
    for (var c = 0; c < N; c++) { if (cut[c]) { cells.push(c); } }
    return cells;
  }

  /* The chamber `me` is in, as atlas.analysis.chambers.chamber_tree builds it: the
     region `me` reaches strictly first (inRegion) is cut into blocks at its
     articulation points by one iterative Hopcroft-Tarjan walk from `me`; the blocks
     hang in a tree rooted at `me`, and a chamber with one child is merged with it.
     Returns {size: the cells of me's chamber (me not counted), fillable: the best sum
     of chamber sizes from me down to a leaf, cells: Uint8Array, 1 on its chamber}. */
  function chamberOf(W, H, me, inRegion) {
    var N = W * H, nb4 = neighbours4(W, H);
    var disc = new Int32Array(N), low = new Int32Array(N), it = new Uint8Array(N), parent = new Int32Array(N);
    var stack = new Int32Array(N + 1), vstack = new Int32Array(N + 1), sp = 0, vsp = 0, timer = 1;
    var block = new Int32Array(N).fill(-1), size = [], top = [];
    disc[me] = low[me] = timer++; parent[me] = -1; stack[sp++] = me;
    while (sp > 0) {
      var v = stack[sp - 1];
      if (it[v] < 4) {
        var w = nb4(v, it[v]++);
        if (w < 0) { continue; }
        if (!disc[w]) {
          if (!inRegion[w]) { continue; }
          parent[w] = v; disc[w] = low[w] = timer++; stack[sp++] = w; vstack[vsp++] = w;
        } else if (disc[w] < low[v]) { low[v] = disc[w]; }
      } else {
        sp--;
        var u = parent[v];
        if (u < 0) { continue; }
        if (low[v] < low[u]) { low[u] = low[v]; }
        if (low[v] >= disc[u]) {  // v's subtree closes a block entered through u
          var nb = size.length, cnt = 0, x;
          do { x = vstack[--vsp]; block[x] = nb; cnt++; } while (x !== v);
          size.push(cnt); top.push(u);
        }
      }
    }
    var n = size.length, par = new Int32Array(n + 1), best = new Float64Array(n + 1), nchild = new Int32Array(n + 1);
    block[me] = n;
    for (var k = 0; k < n; k++) {  // children close before their parents
      var p = block[top[k]], total = size[k] + best[k];
      par[k] = p; best[k] = total;
      if (total > best[p]) { best[p] = total; }
      nchild[p]++;
    }
    var rep = new Int32Array(n + 1), rootSize = 0, cells = new Uint8Array(N);
    rep[n] = n;
    for (var k2 = n - 1; k2 >= 0; k2--) { rep[k2] = nchild[par[k2]] === 1 ? rep[par[k2]] : k2; if (rep[k2] === n) { rootSize += size[k2]; } }
    for (var c = 0; c < N; c++) { if (block[c] >= 0 && rep[block[c]] === n) { cells[c] = 1; } }
    return { size: rootSize, fillable: best[n], cells: cells };
  }

  /* The free cells reachable from `start` (which may be blocked, like a head) by the
     steps `step(v, k)` for k < nsteps; label[v] = mark for each, returns their count
     (start not counted): atlas.analysis.components.component_size. */
  function flood(free, N, start, step, nsteps, label, mark) {
    var queue = new Int32Array(N + 1), t = 0, h = 0, n = 0;
    queue[t++] = start;
    var seen = new Uint8Array(N); seen[start] = 1;
    while (h < t) {
      var v = queue[h++];
      for (var k = 0; k < nsteps; k++) {
        var w = step(v, k);
        if (w < 0 || seen[w] || !free[w]) { continue; }
        seen[w] = 1; label[w] |= mark; queue[t++] = w; n++;
      }
    }
    return n;
  }

  var KING = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];
  var KNIGHT = [[-2, -1], [-2, 1], [-1, -2], [-1, 2], [1, -2], [1, 2], [2, -1], [2, 1]];
  function stepper(W, H, deltas) {
    return function (v, k) {
      var r = ((v / W) | 0) + deltas[k][0], c = v % W + deltas[k][1];
      return r >= 0 && r < H && c >= 0 && c < W ? r * W + c : -1;
    };
  }

  // ------------------------------------------------------------ the position
  /* What the overlays read from a frame: free cells, each seat's pieces (the marks of
     its colour), and the marks that name cells off the board (dropped, and said). */
  function position(spec, data, grid, marks) {
    var W = data.w, H = data.h, N = W * H, free = new Uint8Array(N);
    var freeSet = {};
    (spec.free || []).forEach(function (x) { freeSet[x] = true; });
    for (var c = 0; c < N; c++) { free[c] = freeSet[grid[c]] ? 1 : 0; }
    var seats = spec.seats || [], pieces = seats.map(function () { return []; }), dropped = 0;
    for (var j = 0; j < marks.cells.length; j++) {
      var st = data.styles[marks.styles[j]], seat = st ? seats.indexOf(st[1]) : -1;
      if (seat < 0) { continue; }
      var cell = marks.cells[j];
      if (!(cell >= 0 && cell < N && cell === Math.floor(cell))) { dropped++; continue; }
      pieces[seat].push(cell);
    }
    return { W: W, H: H, N: N, grid: grid, free: free, pieces: pieces, dropped: dropped };
  }

  // ------------------------------------------------------------ the kinds
  /* Each kind: key, label, legend, and compute(pos, args) -> {values, text, tint
     (Uint8Array: 0 none, 1 + seat, 255 tie/both), borders (Uint8Array of seat bits:
     regions outlined), rings: [cell, ...] (ringSeat: their seats), dots: [[cell, seat],
     ...]}. */
  function heads(pos) {
    if (pos.pieces.length < 2 || !pos.pieces[0].length || !pos.pieces[1].length) { return null; }
    return [pos.pieces[0][0], pos.pieces[1][0]];
  }
  var KINDS = {
    voronoi: {
      key: "v", label: "Voronoi",
      legend: "the free cells each head reaches strictly first (grey: at the same distance)",
      compute: function (pos) {
        var hd = heads(pos);
        if (!hd) { return { values: null, text: "no two heads on the board" }; }
        var vo = voronoi(pos.free, pos.W, pos.H, hd[0], hd[1]), tint = new Uint8Array(pos.N);
        for (var c = 0; c < pos.N; c++) { var o = vo.owner[c]; tint[c] = o === 1 ? 1 : o === 2 ? 2 : o === 3 ? 255 : 0; }
        return { values: { counts: vo.counts }, tint: tint,
          text: seatText(vo.counts.slice(0, 2), "cells") + " · " + vo.counts[2] + " tied" };
      }
    },
    articulation: {
      key: "a", label: "Cut cells",
      legend: "articulation points: a free cell whose filling splits its region",
      compute: function (pos) {
        var cells = articulation(pos.free, pos.W, pos.H);
        return { values: { cells: cells }, rings: cells, text: cells.length + " cut cells" };
      }
    },
    chambers: {
      key: "c", label: "Chambers",
      legend: "the chamber each head is in, outlined in its colour (its Voronoi region cut at its bottlenecks, atlas's tree of chambers), the cells it can fill down the tree, the cells it can still reach, and whether the heads are separated",
      compute: function (pos, args) {
        var hd = heads(pos);
        if (!hd) { return { values: null, text: "no two heads on the board" }; }
        var label = new Uint8Array(pos.N), step = neighbours4(pos.W, pos.H);
        var sizes = [flood(pos.free, pos.N, hd[0], step, 4, label, 1), flood(pos.free, pos.N, hd[1], step, 4, label, 2)];
        var separated = true;
        for (var k = 0; k < 4; k++) { var w = step(hd[1], k); if (w >= 0 && (label[w] & 1)) { separated = false; } }
        if (hd[0] === hd[1]) { separated = false; }
        // The official order: after the first turn seat 1 may step onto the square seat 2
        // is leaving, so heads side by side still meet.
        if (args.follow && pos.turn >= 1) {
          for (var k2 = 0; k2 < 4; k2++) { if (step(hd[0], k2) === hd[1]) { separated = false; } }
        }
        var vo = voronoi(pos.free, pos.W, pos.H, hd[0], hd[1]), borders = new Uint8Array(pos.N), chambers = [], fillable = [];
        for (var s = 0; s < 2; s++) {
          var mine = new Uint8Array(pos.N);
          for (var q = 0; q < pos.N; q++) { mine[q] = vo.owner[q] === s + 1 ? 1 : 0; }
          var ch = hd[0] === hd[1] ? { size: 0, fillable: 0, cells: mine } : chamberOf(pos.W, pos.H, hd[s], mine);
          chambers.push(ch.size); fillable.push(ch.fillable);
          for (var q2 = 0; q2 < pos.N; q2++) { if (ch.cells[q2] && pos.free[q2]) { borders[q2] |= 1 << s; } }
        }
        var text = seatLabels.slice(0, 2).map(function (nm, i) {
          return nm + " in a chamber of " + chambers[i] + " (can fill " + fillable[i] + ", reaches " + sizes[i] + ")";
        }).join(" · ");
        return { values: { sizes: sizes, separated: separated, chambers: chambers, fillable: fillable }, borders: borders,
          text: text + (separated ? " · separated" : " · not separated") };
      }
    },
    reachable: {
      key: "r", label: "Reachable",
      legend: "the free squares each piece could reach in moves of its own, the other standing still (grey: both)",
      compute: function (pos, args) {
        var deltas = args.moves === "knight" ? KNIGHT : KING, step = stepper(pos.W, pos.H, deltas);
        var label = new Uint8Array(pos.N), sizes = [];
        for (var s = 0; s < 2; s++) {
          var p = pos.pieces[s] && pos.pieces[s][0];
          if (p === undefined) {  // not placed yet: every free square
            var n = 0;
            for (var c = 0; c < pos.N; c++) { if (pos.free[c]) { label[c] |= 1 << s; n++; } }
            sizes.push(n);
          } else { sizes.push(flood(pos.free, pos.N, p, step, 8, label, 1 << s)); }
        }
        var tint = new Uint8Array(pos.N);
        for (var c2 = 0; c2 < pos.N; c2++) { tint[c2] = label[c2] === 3 ? 255 : label[c2]; }
        return { values: { sizes: sizes }, tint: tint, text: seatText(sizes, "squares") };
      }
    },
    mobility: {
      key: "m", label: "Moves",
      legend: "the squares each piece could move to now (dots)",
      compute: function (pos, args) {
        var W = pos.W, H = pos.H, counts = [], dots = [];
        for (var s = 0; s < 2; s++) {
          var p = pos.pieces[s] && pos.pieces[s][0], n = 0;
          if (p === undefined) {
            for (var c = 0; c < pos.N; c++) { if (pos.free[c]) { n++; } }
          } else {
            var r0 = (p / W) | 0, c0 = p % W, deltas = args.moves === "knight" ? KNIGHT : KING;
            for (var k = 0; k < 8; k++) {
              var r = r0 + deltas[k][0], cc = c0 + deltas[k][1];
              while (r >= 0 && r < H && cc >= 0 && cc < W && pos.free[r * W + cc]) {
                n++; dots.push([r * W + cc, s]);
                if (args.moves === "knight") { break; }
                r += deltas[k][0]; cc += deltas[k][1];
              }
            }
          }
          counts.push(n);
        }
        return { values: { counts: counts }, dots: dots, text: seatText(counts, "moves") };
      }
    },
    windows: {
      key: "w", label: "Windows",
      legend: "open windows: lines of a full row's length holding a seat's discs and none of the other's; their empty cells tinted (grey: both)",
      compute: function (pos, args) {
        var W = pos.W, H = pos.H, L = args.inarow || 4, owner = discs(pos);
        var counts = [0, 0], label = new Uint8Array(pos.N), DIRS = [[0, 1], [1, 0], [1, 1], [1, -1]];
        for (var r = 0; r < H; r++) {
          for (var c = 0; c < W; c++) {
            for (var d = 0; d < 4; d++) {
              var er = r + DIRS[d][0] * (L - 1), ec = c + DIRS[d][1] * (L - 1);
              if (er < 0 || er >= H || ec < 0 || ec >= W) { continue; }
              var has = [0, 0];
              for (var i = 0; i < L; i++) { var o = owner[(r + DIRS[d][0] * i) * W + c + DIRS[d][1] * i]; if (o) { has[o - 1]++; } }
              for (var s = 0; s < 2; s++) {
                if (has[s] && !has[1 - s]) {
                  counts[s]++;
                  for (var i2 = 0; i2 < L; i2++) {
                    var cell = (r + DIRS[d][0] * i2) * W + c + DIRS[d][1] * i2;
                    if (!owner[cell]) { label[cell] |= 1 << s; }
                  }
                }
              }
            }
          }
        }
        var tint = new Uint8Array(pos.N);
        for (var q = 0; q < pos.N; q++) { tint[q] = label[q] === 3 ? 255 : label[q]; }
        return { values: { counts: counts }, tint: tint, text: seatText(counts, "windows") };
      }
    },
    threats: {
      key: "t", label: "Threats",
      legend: "the empty cells where a seat's disc would complete a line (now or later)",
      compute: function (pos, args) {
        var W = pos.W, H = pos.H, L = args.inarow || 4, owner = discs(pos), counts = [0, 0], rings = [], ringSeat = [];
        var DIRS = [[0, 1], [1, 0], [1, 1], [1, -1]];
        for (var cell = 0; cell < pos.N; cell++) {
          if (owner[cell]) { continue; }
          var r0 = (cell / W) | 0, c0 = cell % W;
          for (var s = 1; s <= 2; s++) {
            var win = false;
            for (var d = 0; d < 4 && !win; d++) {
              var n = 1;
              for (var sign = -1; sign <= 1; sign += 2) {
                var r = r0 + sign * DIRS[d][0], c = c0 + sign * DIRS[d][1];
                while (r >= 0 && r < H && c >= 0 && c < W && owner[r * W + c] === s) { n++; r += sign * DIRS[d][0]; c += sign * DIRS[d][1]; }
              }
              if (n >= L) { win = true; }
            }
            if (win) { counts[s - 1]++; rings.push(cell); ringSeat.push(s - 1); }
          }
        }
        return { values: { counts: counts, cells: rings }, rings: rings, ringSeat: ringSeat, text: seatText(counts, "threats") };
      }
    }
  };
  /* Outpost-like boards: each cell's owner read from its colour (args.tints: land an
     empire holds alone, args.waters: its water, args.disputed, args.land: neutral
     land), each empire's outposts (its marks) and home (args.homes). */
  function owners(pos, args) {
    var code = {}, owner = new Int8Array(pos.N), land = new Uint8Array(pos.N);
    (args.tints || []).forEach(function (p, e) { code[p] = [e, 1]; });
    (args.waters || []).forEach(function (p, e) { code[p] = [e, 0]; });
    (args.land || []).forEach(function (p) { code[p] = [-1, 1]; });
    for (var c = 0; c < pos.N; c++) {
      var x = code[pos.grid[c]];
      owner[c] = x ? x[0] : pos.grid[c] === args.disputed ? -2 : -1;
      land[c] = x ? x[1] : 0;
    }
    return { owner: owner, land: land };
  }
  KINDS.ownership = {
    key: "i", label: "Influence",
    legend: "each empire's territory outlined, and the land and water it holds alone",
    compute: function (pos, args) {
      var o = owners(pos, args), n = (args.tints || []).length, counts = [], borders = new Uint8Array(pos.N);
      for (var e = 0; e < n; e++) { counts.push([0, 0]); }
      for (var c = 0; c < pos.N; c++) {
        var e2 = o.owner[c];
        if (e2 >= 0) { counts[e2][o.land[c] ? 0 : 1]++; borders[c] = 1 << e2; }
      }
      return { values: { counts: counts }, borders: borders,
        text: counts.map(function (x, i) { return (seatLabels[i] || "empire " + (i + 1)) + " " + x[0] + " land, " + x[1] + " water"; }).join(" · ") };
    }
  };
  KINDS.supply = {
    key: "s", label: "Supply",
    legend: "each outpost's shortest supply line home over land neutral or its own (dots); a cross: cut off from home",
    compute: function (pos, args) {
      var o = owners(pos, args), homes = args.homes || [], W = pos.W, H = pos.H, nb = neighbours4(W, H);
      var supplied = [], cut = [], dots = [], text = [];
      for (var e = 0; e < homes.length; e++) {
        var home = homes[e][0] * W + homes[e][1], posts = pos.pieces[e] || [], ok = [];
        var good = function (c) { return o.land[c] && (o.owner[c] === -1 || o.owner[c] === e); };
        var dist = new Int32Array(pos.N).fill(-1);
        if (home >= 0 && home < pos.N && good(home)) {
          var queue = new Int32Array(pos.N), h = 0, t = 0;
          dist[home] = 0; queue[t++] = home;
          while (h < t) {
            var v = queue[h++];
            for (var k = 0; k < 4; k++) { var w = nb(v, k); if (w >= 0 && dist[w] < 0 && good(w)) { dist[w] = dist[v] + 1; queue[t++] = w; } }
          }
        }
        for (var j = 0; j < posts.length; j++) {
          var p = posts[j], best = -1;
          if (p === home) { ok.push(true); continue; }
          for (var k2 = 0; k2 < 4; k2++) { var w2 = nb(p, k2); if (w2 >= 0 && dist[w2] >= 0 && (best < 0 || dist[w2] < dist[best])) { best = w2; } }
          ok.push(best >= 0);
          if (best < 0) { cut.push(p); continue; }
          for (var at = best; dist[at] > 0;) {  // walk back home along falling distances
            dots.push([at, e]);
            for (var k3 = 0; k3 < 4; k3++) { var w3 = nb(at, k3); if (w3 >= 0 && dist[w3] === dist[at] - 1) { at = w3; break; } }
          }
        }
        supplied.push(ok);
        var nCut = ok.filter(function (x) { return !x; }).length;
        text.push((seatLabels[e] || "empire " + (e + 1)) + " " + (ok.length - nCut) + " supplied" + (nCut ? ", " + nCut + " cut off" : ""));
      }
      return { values: { supplied: supplied }, dots: dots, crosses: cut, text: text.join(" · ") };
    }
  };
  function discs(pos) {
    var owner = new Uint8Array(pos.N);
    for (var s = 0; s < 2 && s < pos.pieces.length; s++) { pos.pieces[s].forEach(function (c) { owner[c] = s + 1; }); }
    return owner;
  }
  var seatLabels = [];
  function seatText(values, unit) {  // "red 1 window · blue 3 windows"
    return values.map(function (v, s) {
      return (seatLabels[s] || "seat " + (s + 1)) + " " + v + " " + (v === 1 ? unit.replace(/s$/, "") : unit);
    }).join(" · ");
  }

  // ------------------------------------------------------------ the panel and drawing
  function create(data, canvas, ctx, k, redraw) {
    var spec = data.overlays;
    if (!spec || !spec.names || !spec.names.length) { return null; }
    var names = spec.names.filter(function (n) { return KINDS.hasOwnProperty(n); });
    if (!names.length) { return null; }
    var args = spec.args || {}, W = data.w, H = data.h;
    var rows = document.querySelectorAll("#v-seats tbody tr");
    for (var i = 0; i < rows.length; i++) { seatLabels.push(rows[i].getAttribute("data-name") || "seat " + (i + 1)); }
    var on = {};
    try { (JSON.parse(localStorage.getItem(STORE) || "[]") || []).forEach(function (n) { on[n] = true; }); } catch (e) { /* none */ }
    var box = document.getElementById("v-overlays");
    var buttons = {}, legend = null, status = null;
    if (box) {
      names.forEach(function (n) {
        var b = document.createElement("button");
        b.type = "button"; b.className = "overlay-toggle"; b.setAttribute("data-overlay", n);
        b.textContent = KINDS[n].label + " (" + KINDS[n].key + ")";
        b.title = KINDS[n].legend + " (key " + KINDS[n].key + ")";
        b.addEventListener("click", function () { toggle(n); });
        box.appendChild(b);
        buttons[n] = b;
      });
      legend = document.createElement("ul"); legend.className = "overlay-legend"; legend.id = "v-overlay-legend";
      status = document.createElement("p"); status.className = "note overlay-status"; status.id = "v-overlay-status";
      box.parentNode.insertBefore(legend, box.nextSibling);
      legend.parentNode.insertBefore(status, legend.nextSibling);
    }
    function sync() {
      names.forEach(function (n) { if (buttons[n]) { buttons[n].setAttribute("aria-pressed", on[n] ? "true" : "false"); } });
    }
    function toggle(n) {
      on[n] = !on[n];
      try { localStorage.setItem(STORE, JSON.stringify(Object.keys(on).filter(function (x) { return on[x]; }))); } catch (e) { /* not kept */ }
      sync();
      redraw();
    }
    sync();
    document.addEventListener("keydown", function (ev) {
      var tag = ev.target && ev.target.tagName;
      if (tag === "INPUT" && ev.target.type !== "range" || tag === "SELECT" || tag === "TEXTAREA") { return; }
      if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
      for (var q = 0; q < names.length; q++) {
        if (ev.key === KINDS[names[q]].key) { toggle(names[q]); ev.preventDefault(); return; }
      }
    });
    var palette = data.palette, seats = spec.seats || [];
    function rgb(hex) { var v = parseInt(hex.slice(1), 16); return [v >> 16 & 255, v >> 8 & 255, v & 255]; }
    var seatRgb = seats.map(function (p) { return rgb(palette[p]); });
    var off = document.createElement("canvas"); off.width = W; off.height = H;
    var offCtx = off.getContext("2d"), image = offCtx.createImageData(W, H), px = new Uint32Array(image.data.buffer);
    function packed(c, a) { return ((a << 24) | (c[2] << 16) | (c[1] << 8) | c[0]) >>> 0; }
    var tintOf = seatRgb.map(function (c) { return packed(c, 110); }), tieTint = packed([120, 120, 120], 110);
    function draw(turn, grid, marks) {
      var pos = position(spec, data, grid, marks), out = { turn: turn, values: {}, dropped: pos.dropped };
      pos.turn = turn;
      var texts = [];
      names.forEach(function (n) {
        if (!on[n]) { return; }
        var r = KINDS[n].compute(pos, args);
        out.values[n] = r.values;
        texts.push([n, r.text]);
        if (r.tint) {
          for (var c = 0; c < pos.N; c++) { var t = r.tint[c]; px[c] = t === 0 ? 0 : t === 255 ? tieTint : tintOf[t - 1] || tieTint; }
          offCtx.putImageData(image, 0, 0);
          ctx.imageSmoothingEnabled = false;
          ctx.drawImage(off, 0, 0, W * k, H * k);
        }
        if (r.crosses && r.crosses.length) {
          ctx.strokeStyle = "#000000"; ctx.lineWidth = Math.max(1.5, k / 3);
          ctx.beginPath();
          r.crosses.forEach(function (cell) {
            var x0 = (cell % W - 0.6) * k, y0 = (((cell / W) | 0) - 0.6) * k, s2 = 2.2 * k;
            ctx.moveTo(x0, y0); ctx.lineTo(x0 + s2, y0 + s2); ctx.moveTo(x0 + s2, y0); ctx.lineTo(x0, y0 + s2);
          });
          ctx.stroke();
        }
        if (r.borders) {  // each seat's region outlined in its colour (seat 2 inset)
          ctx.lineWidth = Math.max(1.5, k / 5);
          seats.forEach(function (_, g) {
            var bit = 1 << g, inset = ctx.lineWidth * (seats.length > 2 ? 0.5 : g + 0.5);
            ctx.strokeStyle = palette[seats[g]];
            ctx.beginPath();
            for (var c = 0; c < pos.N; c++) {
              if (!(r.borders[c] & bit)) { continue; }
              var row = (c / W) | 0, col = c - row * W, x0 = col * k, y0 = row * k;
              if (row === 0 || !(r.borders[c - W] & bit)) { ctx.moveTo(x0, y0 + inset); ctx.lineTo(x0 + k, y0 + inset); }
              if (row === H - 1 || !(r.borders[c + W] & bit)) { ctx.moveTo(x0, y0 + k - inset); ctx.lineTo(x0 + k, y0 + k - inset); }
              if (col === 0 || !(r.borders[c - 1] & bit)) { ctx.moveTo(x0 + inset, y0); ctx.lineTo(x0 + inset, y0 + k); }
              if (col === W - 1 || !(r.borders[c + 1] & bit)) { ctx.moveTo(x0 + k - inset, y0); ctx.lineTo(x0 + k - inset, y0 + k); }
            }
            ctx.stroke();
          });
        }
        if (r.rings && r.rings.length) {
          ctx.lineWidth = Math.max(1, k / 6);
          var groups = r.ringSeat ? [0, 1] : [-1];
          groups.forEach(function (g) {
            ctx.strokeStyle = g < 0 ? "#000000" : palette[seats[g]];
            ctx.beginPath();
            for (var j = 0; j < r.rings.length; j++) {
              if (g >= 0 && r.ringSeat[j] !== g) { continue; }
              var cx = (r.rings[j] % W + 0.5) * k, cy = (((r.rings[j] / W) | 0) + 0.5) * k, rad = k * (g < 0 ? 0.3 : 0.42 - 0.1 * g);
              ctx.moveTo(cx + rad, cy); ctx.arc(cx, cy, rad, 0, Math.PI * 2);
            }
            ctx.stroke();
          });
        }
        if (r.dots && r.dots.length) {
          seats.forEach(function (_, g) {
            ctx.fillStyle = palette[(args.dark || seats)[g]];
            ctx.beginPath();
            for (var j = 0; j < r.dots.length; j++) {
              if (r.dots[j][1] !== g) { continue; }
              var cell = r.dots[j][0], dx = (cell % W + (seats.length > 2 ? 0.5 : 0.3 + 0.4 * g)) * k, dy = (((cell / W) | 0) + 0.5) * k;
              if (k < 6) { ctx.rect(cell % W * k + k / 4, dy - k / 4, k / 2, k / 2); continue; }
              ctx.moveTo(dx, dy); ctx.arc(dx, dy, Math.max(1, k * 0.14), 0, Math.PI * 2);
            }
            ctx.fill();
          });
        }
      });
      if (legend) {
        legend.textContent = "";
        texts.forEach(function (tx) {
          var li = document.createElement("li");
          li.setAttribute("data-overlay", tx[0]);
          var b = document.createElement("strong"); b.textContent = KINDS[tx[0]].label + ": ";
          li.appendChild(b);
          li.appendChild(document.createTextNode(tx[1] + " — " + KINDS[tx[0]].legend));
          legend.appendChild(li);
        });
      }
      if (status) {
        status.textContent = pos.dropped ? "Overlays left out " + pos.dropped + " piece" + (pos.dropped === 1 ? "" : "s") + " the record puts off the board." : "";
      }
      window.atlasOverlay = out;
    }
    return { draw: draw, names: names, on: on };
  }

  window.atlasOverlays = { create: create, kernels: { voronoi: voronoi, articulation: articulation } };
})();
