/* atlas GIF maker: the replay of this page as an animated GIF, made in the browser.
   The pictures are those of atlas's own GIFs (atlas/render/gif.py record_gif_bytes):
   the viewer's frames (<script id="replay-data">, atlas/render/viewer.py) sampled as
   the game's GIFs sample them, each cell scaled by whole pixels with its marks, the
   caption band above and the legend below, in the one fixed palette.  The captions'
   glyphs come from static/gif-font.js (atlas/render/gif.py font_script), the rest from
   the data's "gif" entry (gif_spec); static/frames.js reads the frames and the glyphs'
   base64.  Encoded here (GIF89a, LZW); no network.
   window.atlasGif.make(data) gives the bytes (Encoder is the GIF writer alone); the
   page's "GIF" button (#v-gif) offers them as a download and keeps the last ones in
   window.atlasGif.last. */
(function () {
  "use strict";

  // ---------------------------------------------------------------- numbers as Python's
  function pyRound(x) {        // Python's round(): a half goes to the even neighbour
    var f = Math.floor(x), d = x - f;
    if (d > 0.5) { return f + 1; }
    if (d < 0.5) { return f; }
    return f % 2 === 0 ? f : f + 1;
  }

  // ---------------------------------------------------------------- marks
  // atlas/render/images.py shape_mask and stamp, pixel for pixel
  var masks = {};
  function shapeMask(shape, size) {
    var key = shape + ":" + size;
    if (masks[key]) { return masks[key]; }
    var m = new Uint8Array(size * size);
    if (size <= 2) { m.fill(1); masks[key] = m; return m; }
    var c = (size - 1) / 2, rad = size / 2;
    var r86 = rad * 0.86, r45 = rad * 0.45, r72 = rad * 0.72;
    var ringIn = rad * 0.86 - Math.max(1, size / 6);
    var frameIn = rad - Math.max(1, size / 7), crossW = Math.max(1, size / 7);
    var top = 0.1 * size, bottom = 0.88 * size, span = Math.max(bottom - top, 1);
    for (var y = 0; y < size; y++) {
      for (var x = 0; x < size; x++) {
        var dy = y - c, dx = x - c, ax = Math.abs(dx), ay = Math.abs(dy), on, d2;
        if (shape === "circle") { on = dx * dx + dy * dy <= r86 * r86; }
        else if (shape === "ring") {
          d2 = dx * dx + dy * dy;
          on = d2 <= r86 * r86 && d2 >= ringIn * ringIn;
        } else if (shape === "dot") { on = dx * dx + dy * dy <= r45 * r45; }
        else if (shape === "square") { on = ax <= r72 && ay <= r72; }
        else if (shape === "frame") { on = !(ax < frameIn - 0.5 && ay < frameIn - 0.5); }
        else if (shape === "diamond") { on = ax + ay <= rad * 0.95; }
        else if (shape === "triangle") {
          var frac = Math.min(1, Math.max(0, (y - top) / span));
          on = y >= top && y <= bottom && ax <= frac * rad * 0.95 + 0.25;
        } else if (shape === "cross") {
          on = (Math.abs(dx - dy) <= crossW || Math.abs(dx + dy) <= crossW) && Math.max(ax, ay) <= r72;
        } else { throw new Error("unknown shape " + shape); }
        m[y * size + x] = on ? 1 : 0;
      }
    }
    masks[key] = m;
    return m;
  }
  // `shape` in colour `color` over cell (r, c) of an image `w` pixels wide, `h` high,
  // `s` pixels across, centred on the cell, clipped at the edges; `outline` (or null)
  // draws a one-pixel silhouette around it
  function stamp(img, w, h, r, c, k, shape, color, outline, s) {
    var r0 = r * k + Math.floor((k - s) / 2), c0 = c * k + Math.floor((k - s) / 2);
    var rs = Math.max(r0, 0), cs = Math.max(c0, 0);
    var re = Math.min(r0 + s, h), ce = Math.min(c0 + s, w);
    if (rs >= re || cs >= ce) { return; }
    var m = shapeMask(shape, s), y, x, my, mx;
    if (outline !== null && s >= 6) {
      var solid = shapeMask(shape === "ring" ? "circle" : shape, s);
      for (y = rs; y < re; y++) {
        for (x = cs; x < ce; x++) {
          my = y - r0; mx = x - c0;
          var at = my * s + mx;
          if (solid[at]) { continue; }
          if ((my > 0 && solid[at - s]) || (my < s - 1 && solid[at + s]) ||
              (mx > 0 && solid[at - 1]) || (mx < s - 1 && solid[at + 1])) {
            img[y * w + x] = outline;
          }
        }
      }
    }
    for (y = rs; y < re; y++) {
      for (x = cs; x < ce; x++) {
        if (m[(y - r0) * s + (x - c0)]) { img[y * w + x] = color; }
      }
    }
  }

  // ---------------------------------------------------------------- text
  // atlas/render/frames.py _text_pixels, text_band and legend_band, from the same glyphs
  function glyphOf(font, extra, ch) {
    var g = extra[ch] || font.glyphs[ch];
    if (!g) { throw new Error("no glyph for " + JSON.stringify(ch)); }
    if (!g.ink) { g.ink = window.atlasFrames.bytesOf(g[6]); }  // static/frames.js
    return g;
  }
  // the text's ramp levels (0: no ink), `width` pixels wide, font.height high
  function textLevels(font, extra, text, width, align) {
    var size = font.size, height = font.height, pad = Math.floor(size / 2);
    var chars = Array.from(text), total = 0, i;
    for (i = 0; i < chars.length; i++) { total += glyphOf(font, extra, chars[i])[0]; }
    var x = align === "left" ? 6.0 : width - 6.0 - total;
    var coverW = width + 2 * pad + 2 * size, cover = new Uint8Array(height * coverW);
    for (i = 0; i < chars.length; i++) {
      var g = glyphOf(font, extra, chars[i]), x0 = pyRound(x) + pad;
      if (x0 >= 0) {
        var gx = g[2], gy = g[3], gw = g[4], gh = g[5], cov = g.ink;
        for (var yy = 0; yy < gh; yy++) {
          for (var xx = 0; xx < gw; xx++) {
            var col = x0 + gx + xx;
            if (col >= coverW) { break; }
            var at = (gy + yy) * coverW + col, v = cov[yy * gw + xx];
            if (v > cover[at]) { cover[at] = v; }
          }
        }
      }
      x += g[0];
    }
    var n = font.ramp.length - 1, out = new Uint8Array(height * width);
    for (var y = 0; y < height; y++) {
      for (var c = 0; c < width; c++) {
        out[y * width + c] = Math.floor((cover[y * coverW + 2 * pad + c] * n + 127) / 255);
      }
    }
    return out;
  }
  // levels of a `tw`-wide text over `band` (`bw` wide) at column `left`, from row `top`
  function ink(font, levels, tw, band, bw, top, left) {
    for (var y = 0; y < font.height; y++) {
      for (var c = 0; c < tw && left + c < bw; c++) {
        var v = levels[y * tw + c];
        if (v) { band[(top + y) * bw + left + c] = font.ramp[v]; }
      }
    }
  }
  function textBand(font, extra, width, left, right) {
    var band = new Uint8Array(font.height * width).fill(font.captionBg);
    if (right) { ink(font, textLevels(font, extra, right, width, "right"), width, band, width, 0, 0); }
    if (left) { ink(font, textLevels(font, extra, left, width, "left"), width, band, width, 0, 0); }
    return band;
  }
  function legendBand(font, extra, width, items) {
    var rowH = font.size + 8, swatch = rowH - 6, rows = [[]], used = 0, i;
    for (i = 0; i < items.length; i++) {
      var w = items[i][1];
      if (rows[rows.length - 1].length && used + w > width - 6) { rows.push([]); used = 0; }
      rows[rows.length - 1].push(i);
      used += w;
    }
    var band = new Uint8Array(rowH * rows.length * width).fill(font.captionBg);
    for (var ri = 0; ri < rows.length; ri++) {
      var x = 4;
      for (var j = 0; j < rows[ri].length; j++) {
        i = rows[ri][j];
        var y0 = ri * rowH + 3, mask = shapeMask(font.playerShapes[i % 4], swatch);
        for (var yy = 0; yy < swatch; yy++) {
          for (var xx = 0; xx < swatch && x + xx < width; xx++) {
            if (mask[yy * swatch + xx]) { band[(y0 + yy) * width + x + xx] = font.player[i % 4]; }
          }
        }
        var tw = Math.max(1, Math.min(width - x - swatch - 2, items[i][1]));
        ink(font, textLevels(font, extra, items[i][0], tw, "left"), tw, band, width, ri * rowH, x + swatch - 2);
        x += items[i][1];
      }
    }
    return { pixels: band, height: rowH * rows.length };
  }

  // ---------------------------------------------------------------- frames
  function sampleTurns(n, max) {  // atlas/render/frames.py sample_turns
    var picks = [], i;
    if (n <= 0) { return picks; }
    if (max === null || max === undefined || n <= max) {
      for (i = 0; i < n; i++) { picks.push(i); }
      return picks;
    }
    var step = Math.ceil(n / max);
    for (i = 0; i < n; i += step) { picks.push(i); }
    if (picks[picks.length - 1] !== n - 1) { picks.push(n - 1); }
    return picks;
  }
  // the GIF's size and pictures (palette indices), as atlas/render/gif.py
  // record_gif_bytes draws them from the viewer data `data`: start(width, height) once,
  // then each(image, ms) for every picture in turn (one picture held at a time: a long
  // game's frames need not fit in memory together)
  function pictures(data, font, start, each) {
    var spec = data.gif, extra = spec.glyphs || {};
    var W = data.w, H = data.h, k = spec.k, width = spec.width;
    var wanted = {}, picks = sampleTurns(data.last + 1, spec.max), p;
    for (p = 0; p < picks.length; p++) { wanted[picks[p]] = p; }
    var legend = legendBand(font, extra, width, spec.legend);
    var bw = W * k, bh = H * k, left = Math.floor((width - bw) / 2);
    var height = font.height + bh + legend.height;
    var frames = window.atlasFrames.create(data);  // static/frames.js
    var board = new Uint8Array(bw * bh);
    start(width, height);
    for (var f = 0; f < frames.count; f++) {
      var r, j, turn = data.turns ? data.turns[f] : f;
      if (!(turn in wanted)) { continue; }
      var grid = frames.gridOf(f), now = frames.marks[f].cells, styles = frames.marks[f].styles, n = now.length;
      for (r = 0; r < H; r++) {    // the cells, k pixels a side
        for (var y = 0; y < k; y++) {
          var row = (r * k + y) * bw;
          for (var c = 0; c < W; c++) { board.fill(grid[r * W + c], row + c * k, row + c * k + k); }
        }
      }
      for (j = 0; j < n; j++) {     // the marks over them
        var st = data.styles[styles[j]], scale = st[3];
        var s = scale === 1 ? k : Math.max(k, pyRound(k * scale));
        stamp(board, bw, bh, Math.floor(now[j] / W), now[j] % W, k, data.shapes[st[0]], st[1], st[2] >= 0 ? st[2] : null, s);
      }
      var image = new Uint8Array(width * height).fill(font.background);
      var last = wanted[turn] === picks.length - 1;
      image.set(textBand(font, extra, width, "turn " + turn + "/" + data.last, last ? spec.outcome : spec.map));
      for (r = 0; r < bh; r++) {
        image.set(board.subarray(r * bw, (r + 1) * bw), (font.height + r) * width + left);
      }
      image.set(legend.pixels, (font.height + bh) * width);
      each(image, last ? Math.max(spec.ms, spec.hold) : spec.ms);
    }
  }

  // ---------------------------------------------------------------- GIF89a
  function Bytes() { this.buf = new Uint8Array(1 << 16); this.n = 0; }
  Bytes.prototype.byte = function (b) {
    if (this.n === this.buf.length) {
      var bigger = new Uint8Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.n++] = b;
  };
  Bytes.prototype.word = function (v) { this.byte(v & 255); this.byte(v >> 8 & 255); };
  Bytes.prototype.text = function (s) { for (var i = 0; i < s.length; i++) { this.byte(s.charCodeAt(i)); } };
  Bytes.prototype.bytes = function () { return this.buf.slice(0, this.n); };

  // the LZW codes of `pixels` (values below 1 << minSize), in sub-blocks of 255 bytes
  function lzw(out, pixels, minSize) {
    var clear = 1 << minSize, end = clear + 1, size = minSize + 1, next = end + 1;
    var table = new Int32Array(4096 << minSize).fill(-1);   // (code << minSize) | pixel -> code
    var block = new Uint8Array(255), fill = 0, acc = 0, bits = 0;
    function flush() {
      if (fill) { out.byte(fill); for (var i = 0; i < fill; i++) { out.byte(block[i]); } fill = 0; }
    }
    function emit(code) {
      acc |= code << bits;
      bits += size;
      while (bits >= 8) {
        block[fill++] = acc & 255;
        if (fill === 255) { flush(); }
        acc >>>= 8;
        bits -= 8;
      }
    }
    out.byte(minSize);
    emit(clear);
    var cur = pixels[0];
    for (var i = 1; i < pixels.length; i++) {
      var key = (cur << minSize) | pixels[i], found = table[key];
      if (found >= 0) { cur = found; continue; }
      emit(cur);
      if (next === 4096) {          // the table is full: start a new one
        emit(clear);
        table.fill(-1);
        size = minSize + 1;
        next = end + 1;
      } else {
        if (next >= 1 << size) { size++; }   // as the decoder, one code behind, will
        table[key] = next++;
      }
      cur = pixels[i];
    }
    emit(cur);
    if (next >= 1 << size && size < 12) { size++; }
    emit(end);
    if (bits > 0) { block[fill++] = acc & 255; if (fill === 255) { flush(); } }
    flush();
    out.byte(0);
  }

  // an animated GIF, `width` x `height`, in `palette` (["#RRGGBB", ...]), looping
  // opts.loop times (0: for ever): add(image, ms) each picture (palette indices), then
  // finish() gives the bytes.  atlas's frame-to-frame optimisation: after the first, a
  // frame holds only the box of pixels that changed, the others in it transparent
  // (opts.transparent), none disposed; a frame with no change after one with none
  // lengthens that one (as Pillow's writer does)
  function Encoder(width, height, palette, opts) {
    var bits = 1;
    while ((1 << bits) < palette.length) { bits++; }
    var out = new Bytes();
    out.text("GIF89a");
    out.word(width); out.word(height);
    out.byte(0x80 | (bits - 1) << 4 | (bits - 1)); out.byte(0); out.byte(0);
    for (var i = 0; i < 1 << bits; i++) {
      var hex = i < palette.length ? parseInt(palette[i].slice(1), 16) : 0;
      out.byte(hex >> 16 & 255); out.byte(hex >> 8 & 255); out.byte(hex & 255);
    }
    out.byte(0x21); out.byte(0xFF); out.byte(11); out.text("NETSCAPE2.0");
    out.byte(3); out.byte(1); out.word(opts.loop || 0); out.byte(0);
    if (opts.comment) {
      out.byte(0x21); out.byte(0xFE); out.byte(opts.comment.length); out.text(opts.comment); out.byte(0);
    }
    this.out = out; this.width = width; this.height = height; this.bits = bits;
    this.T = opts.transparent; this.prev = null; this.pending = null; this.still = false;
  }
  Encoder.prototype.write = function (f) {
    var out = this.out;
    out.byte(0x21); out.byte(0xF9); out.byte(4);
    out.byte(1 << 2 | 1);             // disposal 1 (leave in place), transparency on
    out.word(Math.floor(f.ms / 10)); out.byte(this.T); out.byte(0);
    out.byte(0x2C); out.word(f.x); out.word(f.y); out.word(f.w); out.word(f.h); out.byte(0);
    lzw(out, f.px, Math.max(2, this.bits));
  };
  Encoder.prototype.add = function (cur, ms) {
    var width = this.width, height = this.height, prev = this.prev, T = this.T, frame;
    this.prev = cur;
    if (prev === null) {
      frame = { x: 0, y: 0, w: width, h: height, px: cur, ms: ms };
    } else {
      var x0 = width, y0 = height, x1 = -1, y1 = -1;
      for (var y = 0; y < height; y++) {
        var row = y * width;
        for (var x = 0; x < width; x++) {
          if (cur[row + x] !== prev[row + x]) {
            if (x < x0) { x0 = x; }
            if (x > x1) { x1 = x; }
            if (y < y0) { y0 = y; }
            y1 = y;
          }
        }
      }
      if (x1 < 0) {                  // nothing changed
        if (this.still) { this.pending.ms += ms; return; }
        this.still = true;
        frame = { x: 0, y: 0, w: 1, h: 1, px: new Uint8Array([T]), ms: ms };
      } else {
        this.still = false;
        var w = x1 - x0 + 1, h = y1 - y0 + 1, px = new Uint8Array(w * h);
        for (var j = 0; j < h; j++) {
          for (var c = 0; c < w; c++) {
            var at = (y0 + j) * width + x0 + c;
            px[j * w + c] = cur[at] === prev[at] ? T : cur[at];
          }
        }
        frame = { x: x0, y: y0, w: w, h: h, px: px, ms: ms };
      }
    }
    if (this.pending) { this.write(this.pending); }
    this.pending = frame;
  };
  Encoder.prototype.finish = function () {
    if (this.pending) { this.write(this.pending); this.pending = null; }
    this.out.byte(0x3B);
    return this.out.bytes();
  };

  // the GIF of the viewer data `data` (its "gif" entry says how), as bytes
  function make(data, font) {
    font = font || window.atlasGifFont;
    if (!font) { throw new Error("static/gif-font.js is not loaded"); }
    var gif = null;
    pictures(data, font, function (width, height) {
      gif = new Encoder(width, height, data.palette,
        { transparent: font.transparent, loop: data.gif.loop, comment: font.comment });
    }, function (image, ms) { gif.add(image, ms); });
    return gif.finish();
  }

  window.atlasGif = { make: make, pictures: pictures, Encoder: Encoder, shapeMask: shapeMask, last: null };

  // ---------------------------------------------------------------- the button
  var button = document.getElementById("v-gif"), node = document.getElementById("replay-data");
  if (!button || !node) { return; }
  var link = document.getElementById("v-gif-link"), url = null;
  button.addEventListener("click", function () {
    button.disabled = true;
    button.textContent = "GIF…";
    setTimeout(function () {        // let the page show that it is working
      try {
        var parsed = JSON.parse(node.textContent);
        var bytes = make(window.atlasUnpack ? window.atlasUnpack(parsed) : parsed);
        window.atlasGif.last = bytes;
        if (url) { URL.revokeObjectURL(url); }
        url = URL.createObjectURL(new Blob([bytes], { type: "image/gif" }));
        if (link) {
          link.href = url;
          link.download = (button.getAttribute("data-name") || "replay") + ".gif";
          link.textContent = "save the GIF (" + Math.max(1, Math.round(bytes.length / 1024)) + " KB)";
          link.hidden = false;
          link.click();
        }
        button.setAttribute("data-made", String(bytes.length));
      } catch (e) {
        button.setAttribute("data-error", String(e && e.message || e));
        if (link) { link.hidden = false; link.removeAttribute("href"); link.textContent = "no GIF: " + (e && e.message || e); }
      }
      button.disabled = false;
      button.textContent = "GIF";
    }, 20);
  });
})();
