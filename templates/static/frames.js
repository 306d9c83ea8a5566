/* atlas replay frames: the turns of the page's replay data (format:
   atlas/render/viewer.py) decoded for the viewer (static/viewer.js) and the GIF button
   (static/gif.js), so both read the frames one way.

   window.atlasFrames.create(data) gives {count, marks, gridOf, problem}:
     marks[i]:  frame i's marks, {cells: [row-major cell], styles: [index into data.styles]};
     gridOf(i): frame i's palette index per cell (a Uint8Array the next call may reuse:
                copy it to keep it);
     problem:   null, or what could not be drawn as the data asks (an unknown rule).
   Without data.predict, a frame stores the cells that changed since the previous one.
   With it, a rule draws each frame's cells from its marks, here in the browser, and the
   frame stores only the cells where the real frame differs from the rule's: an Outpost
   turn's territory from its outposts (the rule "influence", the Python side is
   atlas/games/outpost/painter.py OutpostRender.frame_rule), so a long game's page need
   not carry 500 turns of territory. */
(function () {
  "use strict";

  function bytesOf(b64) {
    var s = atob(b64), out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) { out[i] = s.charCodeAt(i); }
    return out;
  }

  /* "influence": each cell goes to the seat whose marked pieces are nearest in the
     Manhattan metric, within r; several seats at that distance dispute it; beyond r it
     keeps the ground's colour.  A held cell takes its seat's tint on land (the ground's
     colour `land`) and its water colour elsewhere; a disputed one `disputed`.  A mark
     is a seat's piece when its shape and colour are one of `posts` ([shape, colour,
     seat]).  atlas.games.outpost.analysis.influence and territory_grid.
     Few pieces stamp their diamonds; many, or a wide radius, take a two-pass
     city-block transform instead, each cell keeping the bits of the seats at its
     distance: exact for the Manhattan metric (a seat nearest to a cell is nearest to
     every cell of a shortest path to it), and two sweeps of the board whatever the
     radius and however many pieces.  The kernel in Python switches the same way. */
  function influence(rule, ground, W, H, styles) {
    var whole = function (v) { return typeof v === "number" && v >= 0 && v < 256 && v === Math.floor(v); };
    var colours = function (a) { return Array.isArray(a) && a.length >= 4 && a.length <= 31 && a.every(whole); };
    if (!colours(rule.tints) || !colours(rule.waters) || rule.tints.length !== rule.waters.length ||
        !whole(rule.land) || !whole(rule.disputed) || !Array.isArray(rule.posts) ||
        !rule.posts.every(function (p) { return Array.isArray(p) && p.length === 3 && p.every(whole) && p[2] < rule.tints.length; })) {
      return null;             // a page whose rule is damaged: create() says so
    }
    var N = W * H, seats = [], q, far = W + H + 1;
    // a radius past the board's span reaches every cell alike
    var r = Math.max(0, Math.min(W + H, Math.floor(+rule.r) || 0));
    var posts = rule.posts;  // checked above
    for (q = 0; q < styles.length; q++) {
      seats[q] = -1;
      for (var p = 0; p < posts.length; p++) {
        if (styles[q][0] === posts[p][0] && styles[q][1] === posts[p][1]) { seats[q] = posts[p][2]; }
      }
    }
    var dist = new Int32Array(N), bits = new Int32Array(N), out = new Uint8Array(N);
    function relax(c, n) {
      var d = dist[n] + 1;
      if (d < dist[c]) { dist[c] = d; bits[c] = bits[n]; }
      else if (d === dist[c]) { bits[c] |= bits[n]; }
    }
    function stamp(at, bit) {    // the piece's diamond of radius r
      var row = Math.floor(at / W), col = at - row * W;
      for (var y = Math.max(0, row - r); y <= Math.min(H - 1, row + r); y++) {
        var dy = Math.abs(y - row), span = r - dy, x1 = Math.min(W - 1, col + span), o = y * W;
        for (var x = Math.max(0, col - span); x <= x1; x++) {
          var d = dy + (x < col ? col - x : x - col);
          if (d < dist[o + x]) { dist[o + x] = d; bits[o + x] = bit; }
          else if (d === dist[o + x]) { bits[o + x] |= bit; }
        }
      }
    }
    var diamond = Math.min(N, (2 * r + 1) * (2 * r + 1));
    return function (cells, marks) {
      dist.fill(far);
      bits.fill(0);
      var pieces = [], j, c;
      for (j = 0; j < cells.length; j++) {
        var s = seats[marks[j]], at = cells[j];
        if (s === undefined || s < 0 || s > 30 || !(at >= 0 && at < N)) { continue; }
        pieces.push(at, 1 << s);
      }
      if (pieces.length / 2 * diamond <= 2 * N) {
        for (j = 0; j < pieces.length; j += 2) { stamp(pieces[j], pieces[j + 1]); }
      } else {
        for (j = 0; j < pieces.length; j += 2) { dist[pieces[j]] = 0; bits[pieces[j]] |= pieces[j + 1]; }
        transform();
      }
      for (c = 0; c < N; c++) {
        var b = bits[c];
        if (dist[c] > r || !b) { out[c] = ground[c]; continue; }
        if (b & (b - 1)) { out[c] = rule.disputed; continue; }
        var seat = 31 - Math.clz32(b);
        out[c] = ground[c] === rule.land ? rule.tints[seat] : rule.waters[seat];
      }
      return out;
    };
    function transform() {
      var x, y, c;
      for (y = 0, c = 0; y < H; y++) {          // from above and from the left
        for (x = 0; x < W; x++, c++) {
          if (y > 0) { relax(c, c - W); }
          if (x > 0) { relax(c, c - 1); }
        }
      }
      for (y = H - 1, c = N - 1; y >= 0; y--) { // from below and from the right
        for (x = W - 1; x >= 0; x--, c--) {
          if (y < H - 1) { relax(c, c + W); }
          if (x < W - 1) { relax(c, c + 1); }
        }
      }
    }
  }
  var RULES = { influence: influence };

  function create(data) {
    var W = data.w, H = data.h, stream = bytesOf(data.frames), at = 0;
    function next() {            // one unsigned LEB128 varint
      var v = 0, mul = 1, b;
      do { b = stream[at++]; v += (b & 127) * mul; mul *= 128; } while (b & 128);
      return v;
    }
    var count = data.count, runAt = new Array(count), marks = new Array(count);
    var prevCells = [], f;
    for (f = 0; f < count; f++) {
      runAt[f] = at;
      var runs = next();
      for (var q = 0; q < 3 * runs; q++) { next(); }
      var n = next(), cells = new Array(n), styles = new Array(n);
      for (var j = 0; j < n; j++) {
        var z = next(), delta = (z % 2) ? -(z + 1) / 2 : z / 2;
        cells[j] = (j < prevCells.length ? prevCells[j] : 0) + delta;
        styles[j] = next();
      }
      marks[f] = { cells: cells, styles: styles };
      prevCells = cells;
    }
    function applyRuns(g, i) {
      at = runAt[i];
      var runs = next(), pos = 0;
      for (var r = 0; r < runs; r++) {
        pos += next();
        var len = next(), col = next();
        g.fill(col, pos, pos + len);
        pos += len;
      }
    }
    var base = bytesOf(data.base), problem = null, rule = null;
    if (data.predict) {
      var kind = String(data.predict.kind).slice(0, 40);
      if (!Object.prototype.hasOwnProperty.call(RULES, data.predict.kind)) {
        problem = "the frames' rule \u201c" + kind + "\u201d is unknown: the board shows its changes only";
      } else {
        rule = RULES[data.predict.kind](data.predict, base, W, H, data.styles || []);
        if (!rule) { problem = "the frames' rule \u201c" + kind + "\u201d is damaged: the board shows its changes only"; }
      }
    }
    var grid, gridOf;
    if (data.predict) {        // each frame: the rule's cells, then where it differs
      grid = new Uint8Array(base.length);
      gridOf = function (i) {
        grid.set(rule ? rule(marks[i].cells, marks[i].styles) : base);
        applyRuns(grid, i);
        return grid;
      };
    } else {                   // each frame: the previous one, then what changed
      var KEY = 32, keys = [base], gridAt = 0;  // keys[m]: the grid of frame m * KEY
      grid = base.slice();
      gridOf = function (i) {
        if (i === gridAt) { return grid; }
        if (i === gridAt + 1) { applyRuns(grid, i); gridAt = i; return grid; }
        var m = Math.floor(i / KEY);
        while (keys.length <= m) {
          var g = keys[keys.length - 1].slice(), from = (keys.length - 1) * KEY;
          for (var f2 = from + 1; f2 <= from + KEY && f2 < count; f2++) { applyRuns(g, f2); }
          keys.push(g);
        }
        grid = keys[m].slice();
        for (var f3 = m * KEY + 1; f3 <= i; f3++) { applyRuns(grid, f3); }
        gridAt = i;
        return grid;
      };
    }
    return { count: count, marks: marks, gridOf: gridOf, problem: problem };
  }

  window.atlasFrames = { create: create, bytesOf: bytesOf, rules: RULES };
})();
