/* atlas site: the search box of the index and the games tables (sortable, filterable,
   paginated).  Data: window.ATLAS_INDEX from site-index.js, whose games come in parts
   (index/games-K.js, each calling ATLAS_PART), loaded here as scripts so that the site
   works from file:// too; the format is in atlas/render/site/pages.py (index_files).
   Every text from the data goes into the page through textContent, never as HTML. */
(function () {
  "use strict";
  var X = window.ATLAS_INDEX;
  if (!X) { return; }
  var me = document.currentScript && document.currentScript.src;
  var base = me ? me.replace(/static\/site\.js([?#].*)?$/, "") : "";
  var parts = [], got = 0;
  window.ATLAS_PART = function (k, rows) {
    if (parts[k]) { return; }
    parts[k] = rows;
    got += 1;
    if (got === X.parts.length) { start(); }
  };
  if (!X.parts.length) {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    X.parts.forEach(function (src) {
      var tag = document.createElement("script");
      tag.src = base + src;
      document.head.appendChild(tag);
    });
  }
  var started = false;
  function start() {
    if (started) { return; }
    if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); return; }
    started = true;
    var maps = X.maps, bots = X.bots, reasons = X.reasons, titles = X.titles;
    // the compact rows back to [ident, map, map name, seats, winner, reason, turns, badge]
    var games = [];
    parts.forEach(function (rows) {
      rows.forEach(function (g) {
        var m = g[1], id = g[0];
        g[0] = id.charAt(0) === "=" ? id.slice(1) : maps[m][0] + "-" + id;
        if (m >= 0 && !g[2]) { g[2] = maps[m][1]; }
        games.push(g);
      });
    });
    var mapBySlug = {}, botBySlug = {};
    maps.forEach(function (m, i) { mapBySlug[m[0]] = i; });
    bots.forEach(function (b, i) { botBySlug[b[0]] = i; });
    function gameOf(g) { return g[1] >= 0 ? maps[g[1]][2] : bots[g[3][0]][2]; }
    function playersOf(g) { return g[3].map(function (b) { return bots[b][1]; }); }
    function resultOf(g) {
      var reason = reasons[g[5]];
      if (g[4] >= 0) { return bots[g[3][g[4]]][1] + " (seat " + (g[4] + 1) + ") wins — " + reason; }
      return (g[3].length > 2 ? "no single winner — " : "draw — ") + reason;
    }
    function el(tag, cls, text) {
      var e = document.createElement(tag);
      if (cls) { e.className = cls; }
      if (text !== undefined) { e.textContent = text; }
      return e;
    }
    function link(root, href, text) { var a = el("a", "", text); a.href = root + href; return a; }
    function words(q) { return q.toLowerCase().split(/\s+/).filter(function (w) { return w; }); }
    function matches(hay, ws) {
      for (var i = 0; i < ws.length; i++) { if (hay.indexOf(ws[i]) < 0) { return false; } }
      return true;
    }
    // what a search matches a game against, made when first searched
    var hayText = null;
    function hay(i) {
      if (hayText === null) {
        hayText = games.map(function (g) {
          return (g[0] + " " + g[2] + " " + playersOf(g).join(" ") + " " + (titles[gameOf(g)] || "") + " " + gameOf(g)).toLowerCase();
        });
      }
      return hayText[i];
    }

    // ---------------------------------------------------------------- games tables
    function Table(box) {
      this.box = box;
      this.root = box.getAttribute("data-root") || "";
      this.fixed = (box.getAttribute("data-fixed") || "").split(",").filter(function (x) { return x; });
      this.size = parseInt(box.getAttribute("data-page-size"), 10) || 50;
      this.form = box.querySelector("form");
      this.body = box.querySelector("tbody");
      this.count = box.querySelector(".count");
      this.label = box.querySelector(".page-label");
      this.useHash = this.fixed.length === 0;
      this.state = { q: "", game: box.getAttribute("data-game") || "", map: box.getAttribute("data-map") || "",
                     bot: box.getAttribute("data-bot") || "", result: "", min: "", max: "",
                     sort: "", dir: "asc", page: 1 };
      var self = this;
      this.fixed.forEach(function (name) {
        var input = self.form.elements[name];
        if (input) { input.hidden = true; input.disabled = true; }
      });
      if (this.useHash) { this.fromHash(); }
      this.fillSelects();
      this.toForm();
      this.form.addEventListener("input", function () { self.fromForm(); });
      this.form.addEventListener("change", function () { self.fromForm(); });
      this.form.addEventListener("reset", function () {
        setTimeout(function () {
          ["q", "result", "min", "max"].concat(["game", "map", "bot"].filter(function (n) { return self.fixed.indexOf(n) < 0; }))
            .forEach(function (n) { self.state[n] = ""; });
          self.state.page = 1;
          self.fillSelects(); self.toForm(); self.draw();
        }, 0);
      });
      box.querySelectorAll("button[data-sort]").forEach(function (b) {
        b.addEventListener("click", function () {
          var key = b.getAttribute("data-sort");
          if (self.state.sort === key) { self.state.dir = self.state.dir === "asc" ? "desc" : "asc"; }
          else { self.state.sort = key; self.state.dir = key === "turns" ? "desc" : "asc"; }
          self.state.page = 1;
          self.draw();
        });
      });
      box.querySelectorAll("button[data-page]").forEach(function (b) {
        b.addEventListener("click", function () {
          var what = b.getAttribute("data-page"), last = self.pages();
          self.state.page = what === "first" ? 1 : what === "last" ? last :
            Math.max(1, Math.min(last, self.state.page + (what === "next" ? 1 : -1)));
          self.draw();
        });
      });
      if (this.useHash) {
        window.addEventListener("hashchange", function () { self.fromHash(); self.fillSelects(); self.toForm(); self.draw(); });
      }
      this.draw();
      box.setAttribute("data-ready", "1");
      box.setAttribute("data-ready-ms", String(Math.round(performance.now())));
    }
    Table.prototype.fromHash = function () {
      var s = this.state;
      location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
        var i = kv.indexOf("=");
        if (i < 0) { return; }
        var k = decodeURIComponent(kv.slice(0, i)), v = decodeURIComponent(kv.slice(i + 1));
        if (k in s) { s[k] = k === "page" ? (parseInt(v, 10) || 1) : v; }
      });
    };
    Table.prototype.toHash = function () {
      var s = this.state, parts = [];
      ["q", "game", "map", "bot", "result", "min", "max", "sort", "dir", "page"].forEach(function (k) {
        var v = s[k];
        if (v === "" || (k === "page" && v === 1) || (k === "dir" && !s.sort)) { return; }
        parts.push(encodeURIComponent(k) + "=" + encodeURIComponent(v));
      });
      var h = parts.length ? "#" + parts.join("&") : "";
      if (location.hash !== h && (h || location.hash)) {
        try { history.replaceState(null, "", h || location.pathname); } catch (e) { /* file:// */ }
      }
    };
    Table.prototype.fillSelects = function () {
      var s = this.state, f = this.form;
      function fill(select, items) {
        var keep = select.value;
        while (select.options.length > 1) { select.remove(1); }
        items.forEach(function (it) { var o = el("option", "", it[1]); o.value = it[0]; select.appendChild(o); });
        select.value = keep;
      }
      var present = {};
      games.forEach(function (g) { present[gameOf(g)] = true; });
      fill(f.elements.game, Object.keys(titles).filter(function (g) { return present[g]; })
        .map(function (g) { return [g, titles[g]]; }));
      fill(f.elements.map, maps.filter(function (m) { return m[3] > 0 && (!s.game || m[2] === s.game); })
        .map(function (m) { return [m[0], m[1] + (s.game ? "" : " (" + (titles[m[2]] || m[2]) + ")")]; }));
      fill(f.elements.bot, bots.filter(function (b) { return !s.game || b[2] === s.game; })
        .map(function (b) { return [b[0], b[1] + (s.game ? "" : " (" + (titles[b[2]] || b[2]) + ")")]; }));
    };
    Table.prototype.toForm = function () {
      var f = this.form, s = this.state;
      ["q", "game", "map", "bot", "result", "min", "max"].forEach(function (k) {
        if (f.elements[k]) { f.elements[k].value = s[k]; }
      });
    };
    Table.prototype.fromForm = function () {
      var f = this.form, s = this.state, oldGame = s.game, self = this;
      ["q", "game", "map", "bot", "result", "min", "max"].forEach(function (k) {
        if (self.fixed.indexOf(k) < 0 && f.elements[k]) { s[k] = f.elements[k].value; }
      });
      if (s.game !== oldGame) {
        if (s.map && maps[mapBySlug[s.map]] && maps[mapBySlug[s.map]][2] !== s.game && s.game) { s.map = ""; }
        if (s.bot && bots[botBySlug[s.bot]] && bots[botBySlug[s.bot]][2] !== s.game && s.game) { s.bot = ""; }
        this.fillSelects();
        this.toForm();
      }
      s.page = 1;
      this.draw();
    };
    Table.prototype.rows = function () {
      var s = this.state, ws = words(s.q), m = s.map ? mapBySlug[s.map] : -2;
      var b = s.bot ? botBySlug[s.bot] : -2;
      var lo = s.min === "" ? -1 : Number(s.min), hi = s.max === "" ? Infinity : Number(s.max);
      // typing on in the filter narrows the last matches (the other filters unchanged):
      // a game that did not match a query cannot match a longer one
      var others = [s.game, s.map, s.bot, s.result, s.min, s.max].join("\u0001");
      var query = ws.join(" ") + (/\s$/.test(s.q) ? " " : "");
      var pool = this.lastOthers === others && this.lastFound &&
        query.lastIndexOf(this.lastQuery, 0) === 0 ? this.lastFound : null;
      var out = [], n = pool ? pool.length : games.length;
      for (var k = 0; k < n; k++) {
        var i = pool ? pool[k] : k, g = games[i];
        if (s.game && gameOf(g) !== s.game) { continue; }
        if (m !== -2 && g[1] !== m) { continue; }
        var seat = b === -2 ? -1 : g[3].indexOf(b);
        if (b !== -2 && seat < 0) { continue; }
        if (g[6] < lo || g[6] > hi) { continue; }
        if (s.result === "decided" && g[4] < 0) { continue; }
        if (s.result === "draw" && g[4] >= 0) { continue; }
        if (s.result === "bot-won" && (b === -2 || g[4] < 0 || g[3][g[4]] !== b)) { continue; }
        if (s.result === "bot-lost" && (b === -2 || g[4] < 0 || g[3][g[4]] === b)) { continue; }
        if (ws.length && !matches(hay(i), ws)) { continue; }
        out.push(i);
      }
      this.lastOthers = others;
      this.lastQuery = query;
      this.lastFound = out.slice();
      if (s.sort) {
        var key = {
          ident: function (g) { return g[0]; }, map: function (g) { return g[2].toLowerCase(); },
          players: function (g) { return playersOf(g).join(" ").toLowerCase(); },
          result: function (g) { return resultOf(g).toLowerCase(); }, turns: function (g) { return g[6]; }
        }[s.sort];
        var sign = s.dir === "desc" ? -1 : 1;
        if (key) {
          out.sort(function (a, c) {
            var x = key(games[a]), y = key(games[c]);
            return (x < y ? -sign : x > y ? sign : 0) || a - c;
          });
        }
      }
      this.matched = out;
      return out;
    };
    Table.prototype.pages = function () { return Math.max(1, Math.ceil((this.matched || []).length / this.size)); };
    Table.prototype.draw = function () {
      var rows = this.rows(), s = this.state, root = this.root;
      var last = this.pages();
      s.page = Math.max(1, Math.min(last, s.page));
      var from = (s.page - 1) * this.size, to = Math.min(rows.length, from + this.size);
      var frag = document.createDocumentFragment();
      for (var r = from; r < to; r++) {
        var g = games[rows[r]], tr = el("tr");
        var td = el("td");
        td.appendChild(link(root, "games/" + g[0] + ".html", g[0]));
        if (g[7]) { td.appendChild(document.createTextNode(" ")); td.appendChild(el("span", "badge", typeof g[7] === "string" ? g[7] : "imported")); }
        tr.appendChild(td);
        td = el("td");
        if (g[1] >= 0) { td.appendChild(link(root, "maps/" + maps[g[1]][0] + ".html", g[2])); } else { td.textContent = g[2]; }
        tr.appendChild(td);
        td = el("td");
        g[3].forEach(function (bi, seat) {
          if (seat) { td.appendChild(document.createTextNode(" ")); td.appendChild(el("span", "vs", "vs")); td.appendChild(document.createTextNode(" ")); }
          var sp = el("span", "seat seat" + (seat % 4));  // style.css draws its shape
          sp.appendChild(link(root, "bots/" + bots[bi][0] + ".html", bots[bi][1]));
          td.appendChild(sp);
        });
        tr.appendChild(td);
        td = el("td");
        td.appendChild(el("span", "spoiler", resultOf(g)));  // static/spoilers.js may hide it
        tr.appendChild(td);
        tr.appendChild(el("td", "num", String(g[6])));
        frag.appendChild(tr);
      }
      this.body.textContent = "";
      this.body.appendChild(frag);
      this.count.textContent = rows.length === 0 ? "No game matches." :
        (rows.length === 1 ? "1 game" : rows.length + " games") + (rows.length > this.size ? ", " + (from + 1) + "–" + to + " shown" : "");
      this.label.textContent = "page " + s.page + " of " + last;
      this.box.querySelector(".pager").hidden = last <= 1;
      var self = this;
      this.box.querySelectorAll("button[data-sort]").forEach(function (b) {
        var on = b.getAttribute("data-sort") === s.sort;
        b.parentNode.setAttribute("aria-sort", on ? (s.dir === "asc" ? "ascending" : "descending") : "none");
      });
      this.box.setAttribute("data-rows", String(rows.length));
      this.box.setAttribute("data-page", String(s.page));
      if (this.useHash) { this.toHash(); }
      return self;
    };
    document.querySelectorAll(".games-widget").forEach(function (box) { box.atlasTable = new Table(box); });
    // what a search matches against, made while the page is idle rather than on the
    // first key typed (a site of many games takes a moment to make it)
    if (document.getElementById("site-search") || document.querySelector(".games-widget")) {
      (window.requestIdleCallback || function (f) { return setTimeout(f, 50); })(function () { hay(0); });
    }

    // ---------------------------------------------------------------- search box
    var input = document.getElementById("site-search"), results = document.getElementById("search-results");
    if (input && results) {
      var root = input.parentNode.getAttribute("data-root") || "";
      // typing on narrows the last search: only its matches can match the longer query
      var lastQuery = null, lastFound = null;
      var run = function () {
        var ws = words(input.value), query = ws.join(" ") + (/\s$/.test(input.value) ? " " : "");
        results.textContent = "";
        if (!ws.length) { results.hidden = true; lastQuery = lastFound = null; return; }
        var groups = [["Maps", maps.filter(function (m) {
          return matches((m[1] + " " + (titles[m[2]] || "") + " " + m[2]).toLowerCase(), ws);
        }).slice(0, 8).map(function (m) { return [link(root, "maps/" + m[0] + ".html", m[1]), (titles[m[2]] || m[2]) + " · " + m[3] + " games"]; })],
        ["Bots", bots.filter(function (b) {
          return matches((b[1] + " " + (titles[b[2]] || "") + " " + b[2]).toLowerCase(), ws);
        }).slice(0, 8).map(function (b) { return [link(root, "bots/" + b[0] + ".html", b[1]), titles[b[2]] || b[2]]; })]];
        var found = [], pool = null;
        if (lastFound !== null && query.lastIndexOf(lastQuery, 0) === 0) { pool = lastFound; }
        if (pool) {
          for (var k = 0; k < pool.length; k++) { if (matches(hay(pool[k]), ws)) { found.push(pool[k]); } }
        } else {
          for (var i = 0; i < games.length; i++) { if (matches(hay(i), ws)) { found.push(i); } }
        }
        lastQuery = query;
        lastFound = found;
        groups.push(["Games", found.slice(0, 10).map(function (i) {
          var g = games[i];
          return [link(root, "games/" + g[0] + ".html", playersOf(g).join(" vs ")), g[2] + " · " + g[6] + " turns", resultOf(g)];
        })]);
        var any = false;
        groups.forEach(function (grp) {
          if (!grp[1].length) { return; }
          any = true;
          results.appendChild(el("h3", "", grp[0]));
          var ul = el("ul");
          grp[1].forEach(function (it) {
            var li = el("li");
            li.appendChild(it[0]);
            li.appendChild(el("span", "note", " " + it[1]));
            if (it[2]) { li.appendChild(el("span", "note", " · ")); li.appendChild(el("span", "note spoiler", it[2])); }
            ul.appendChild(li);
          });
          results.appendChild(ul);
        });
        if (found.length > 10) {
          var more = link(root, "games.html#q=" + encodeURIComponent(input.value.trim()), "all " + found.length + " matching games →");
          more.className = "more";
          results.appendChild(more);
        }
        if (!any) { results.appendChild(el("p", "note", "Nothing matches.")); }
        results.hidden = false;
        results.setAttribute("data-count", String(found.length));
      };
      input.addEventListener("input", run);
      input.addEventListener("keydown", function (ev) {
        if (ev.key === "Escape") { input.value = ""; run(); }
        if (ev.key === "Enter") {
          var first = results.querySelector("a");
          if (first) { location.href = first.href; }
        }
      });
    }
  }
})();
