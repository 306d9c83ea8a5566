/* atlas: a game page's replay data, unpacked.  A large replay is stored in its page as
   {"deflated": "<base64 of a raw DEFLATE stream (RFC 1951) of the JSON text>",
    "bytes": length of that text} (atlas/render/viewer.py page_json); a small one as the
   JSON itself.  window.atlasUnpack(value) gives the data either way, synchronously, so
   the viewer and the GIF button read a page's data as they always did.  No network, no
   outside code: the decoder below follows RFC 1951 (stored, fixed and dynamic Huffman
   blocks), decoding each code bit by bit against canonical code counts. */
(function () {
  "use strict";
  var LBASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
    67, 83, 99, 115, 131, 163, 195, 227, 258];
  var LEXT = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
    5, 5, 5, 5, 0];
  var DBASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513,
    769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
  var DEXT = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
    11, 11, 12, 12, 13, 13];
  var ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

  // a canonical Huffman code from its code lengths: how many codes of each length, and
  // the symbols in code order
  function code(lengths, from, num) {
    var count = new Uint16Array(16), offs = new Uint16Array(16), symbol = new Uint16Array(num);
    for (var i = 0; i < num; i++) { count[lengths[from + i]]++; }
    count[0] = 0;
    for (var len = 1; len < 15; len++) { offs[len + 1] = offs[len] + count[len]; }
    for (i = 0; i < num; i++) {
      if (lengths[from + i]) { symbol[offs[lengths[from + i]]++] = i; }
    }
    return { count: count, symbol: symbol };
  }

  function inflate(src, size) {
    var pos = 0, buf = 0, have = 0;
    var out = new Uint8Array(size > 0 ? size : Math.max(1024, src.length * 4)), n = 0;
    function bits(k) {
      while (have < k) {
        if (pos >= src.length) { throw new Error("the replay data ends early"); }
        buf |= src[pos++] << have;
        have += 8;
      }
      var v = buf & ((1 << k) - 1);
      buf >>>= k;
      have -= k;
      return v;
    }
    function room(k) {
      if (n + k <= out.length) { return; }
      var bigger = new Uint8Array(Math.max(out.length * 2, n + k));
      bigger.set(out.subarray(0, n));
      out = bigger;
    }
    function decode(h) {
      var c = 0, first = 0, index = 0;
      for (var len = 1; len < 16; len++) {
        c |= bits(1);
        var count = h.count[len];
        if (c - count < first) { return h.symbol[index + (c - first)]; }
        index += count;
        first = (first + count) << 1;
        c <<= 1;
      }
      throw new Error("the replay data holds a code that is not one");
    }
    function codes(lit, dist) {
      for (;;) {
        var sym = decode(lit);
        if (sym < 256) { room(1); out[n++] = sym; continue; }
        if (sym === 256) { return; }
        sym -= 257;
        if (sym >= 29) { throw new Error("the replay data holds a bad length"); }
        var len = LBASE[sym] + bits(LEXT[sym]);
        var d = decode(dist);
        if (d >= 30) { throw new Error("the replay data holds a bad distance"); }
        var back = DBASE[d] + bits(DEXT[d]);
        if (back > n) { throw new Error("the replay data reaches back too far"); }
        room(len);
        for (var i = 0; i < len; i++) { out[n] = out[n - back]; n++; }
      }
    }
    var fixedLit = null, fixedDist = null, last = 0;
    while (!last) {
      last = bits(1);
      var type = bits(2);
      if (type === 0) {  // stored: whole bytes, after the bits left in this one
        buf = 0; have = 0;
        if (pos + 4 > src.length) { throw new Error("the replay data ends early"); }
        var len = src[pos] | (src[pos + 1] << 8), nlen = src[pos + 2] | (src[pos + 3] << 8);
        pos += 4;
        if (len !== (~nlen & 0xffff) || pos + len > src.length) { throw new Error("a stored block is damaged"); }
        room(len);
        out.set(src.subarray(pos, pos + len), n);
        n += len; pos += len;
      } else if (type === 1) {
        if (!fixedLit) {
          var l = new Uint8Array(288 + 30);
          for (var i = 0; i < 288; i++) { l[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8; }
          for (i = 288; i < 318; i++) { l[i] = 5; }
          fixedLit = code(l, 0, 288); fixedDist = code(l, 288, 30);
        }
        codes(fixedLit, fixedDist);
      } else if (type === 2) {
        var nlit = bits(5) + 257, ndist = bits(5) + 1, ncode = bits(4) + 4;
        var lengths = new Uint8Array(320);
        for (i = 0; i < ncode; i++) { lengths[ORDER[i]] = bits(3); }
        var lencode = code(lengths, 0, 19);
        lengths = new Uint8Array(nlit + ndist);
        for (i = 0; i < nlit + ndist;) {
          var sym = decode(lencode);
          if (sym < 16) { lengths[i++] = sym; continue; }
          var fill = 0, times;
          if (sym === 16) {
            if (i === 0) { throw new Error("a repeat with nothing before it"); }
            fill = lengths[i - 1]; times = 3 + bits(2);
          } else if (sym === 17) { times = 3 + bits(3); } else { times = 11 + bits(7); }
          if (i + times > nlit + ndist) { throw new Error("too many code lengths"); }
          while (times--) { lengths[i++] = fill; }
        }
        codes(code(lengths, 0, nlit), code(lengths, nlit, ndist));
      } else {
        throw new Error("the replay data holds a block of an unknown kind");
      }
    }
    return out.subarray(0, n);
  }

  function bytesOf(b64) {
    var s = atob(b64), out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) { out[i] = s.charCodeAt(i); }
    return out;
  }

  // the page's data: the JSON itself, or the deflated JSON text unpacked and read
  function unpack(value) {
    if (!value || typeof value.deflated !== "string") { return value; }
    var text = new TextDecoder("utf-8").decode(inflate(bytesOf(value.deflated), value.bytes | 0));
    return JSON.parse(text);
  }
  window.atlasInflate = inflate;
  window.atlasUnpack = unpack;
})();
