"""The text editor of ``atlas serve``: where a save may go (:func:`map_target`) and the
editor's page (:func:`editor_page`).

A save writes one map file inside the maps folder ``atlas serve MAPS`` names, and
nowhere else: its path is a relative path of plain names (no ``..``, no hidden names,
no backslash or NUL) ending in ``.txt``, in a folder that exists, reached without
following any link; the file, when it exists, is a regular file (not a link, not a
FIFO).  The bytes are written aside and moved into place
(:func:`atlas.fsutil.write_atomically`), so the watcher never sees half a map.
"""

from __future__ import annotations

import html
import json
import os
import stat
from pathlib import Path

__all__ = ["SAVE_PREFIX", "EDIT_PREFIX", "map_target", "editor_page"]

#: Where a map is saved: ``PUT /__atlas/maps/GAME/NAME.txt`` with the text as the body.
SAVE_PREFIX = "/__atlas/maps/"
#: Where a map's editor is: ``GET /__atlas/edit/GAME/NAME.txt``.
EDIT_PREFIX = "/__atlas/edit/"


def map_target(root: str | os.PathLike[str], rel: str) -> Path | None:
    """The file of the maps folder ``root`` that the relative path ``rel`` (already
    unquoted) names, or None when a save there could leave the folder or write
    through a link: ``..``, a hidden or empty name, a backslash or NUL, not ``.txt``,
    a folder that does not exist or is reached through a link, an existing entry that
    is not a regular file."""
    parts = rel.split("/")
    if (
        not parts
        or any(not p or p.startswith(".") or "\\" in p or "\x00" in p for p in parts)
        or not parts[-1].endswith(".txt")
        or len(parts[-1]) <= len(".txt")
    ):
        return None
    top = os.path.realpath(root)
    folder = os.path.join(top, *parts[:-1])
    # no link on the way: the folder resolves to itself, inside the maps folder
    if not os.path.isdir(folder) or os.path.realpath(folder) != os.path.normpath(folder):
        return None
    target = os.path.join(folder, parts[-1])
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return Path(target)  # a new map
    except OSError:
        return None
    return Path(target) if stat.S_ISREG(st.st_mode) else None


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{name} · atlas serve editor</title>
<link rel="stylesheet" href="/static/style.css">
<style>
  #atlas-text {{ width: 100%; min-height: 28em; font: 14px/1.3 monospace; }}
  #atlas-status {{ margin-left: 1em; }}
</style></head>
<body><main>
<p><a href="/{back}">{back_text}</a></p>
<h1>{name}</h1>
<p>The map file <code>{rel}</code> in the maps folder. Save writes it there; the site is
rebuilt and its page shows the result (a problem page when the map does not read).</p>
<textarea id="atlas-text" spellcheck="false">{text}</textarea>
<p><button id="atlas-save" type="button">Save</button><span id="atlas-status"></span></p>
</main>
<script>
(function () {{
  var rel = {rel_json};
  var box = document.getElementById("atlas-text");
  var status = document.getElementById("atlas-status");
  document.getElementById("atlas-save").addEventListener("click", function () {{
    status.textContent = "saving…";
    fetch("{save}" + rel.split("/").map(encodeURIComponent).join("/"), {{
      method: "PUT",
      headers: {{ "Content-Type": "text/plain; charset=utf-8" }},
      body: box.value
    }}).then(function (r) {{
      return r.text().then(function (t) {{
        status.textContent = r.ok ? "saved" : "not saved: " + r.status + " " + t;
      }});
    }}, function (e) {{ status.textContent = "not saved: " + e; }});
  }});
}})();
</script>
</body></html>
"""


def editor_page(rel: str, text: str, page: str | None) -> bytes:
    """The editor of the map file ``rel`` (its current ``text``), linking back to its
    page in the site (``page``, or the index when it has none yet)."""
    return _PAGE.format(
        name=html.escape(Path(rel).stem),
        rel=html.escape(rel),
        rel_json=json.dumps(rel).replace("<", "\\u003c"),
        text=html.escape(text),
        save=SAVE_PREFIX,
        back=html.escape(page or ""),
        back_text="the map's page" if page else "the site",
    ).encode()
