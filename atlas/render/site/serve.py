"""``atlas serve``: a site built, served on the loopback, and rebuilt when its maps change.

:class:`LiveSite` holds the three parts:

* the **server** (:class:`SiteServer`, the standard library's
  :class:`~http.server.ThreadingHTTPServer`) serves the built site's folder read-only.
  Every HTML page it serves gets one script tag (:data:`SCRIPT_PATH`), which listens to
  :data:`EVENTS_PATH` (Server-Sent Events) and reloads the page when a newer build is
  in place;
* the **watcher** (:class:`Watcher`) notes any change under the maps folder, the saved
  records and the organisers' tournament folders: inotify through ``watchdog`` when it
  is installed (the ``serve`` extra), else a poll of the files' times and sizes;
* the **rebuild loop** (:meth:`LiveSite.run`) waits until the changes stop for
  :data:`QUIET_SECONDS`, then runs :func:`~atlas.render.site.build.build` again.  The
  build's cache recomputes only what changed; the new site is written aside and
  swapped in whole (:mod:`atlas.render.site.swap`), so a page is never served from a
  half-written site, and an interrupted build leaves only its temporary, which it
  removes itself.

Safe by construction (``docs/serve.md``):

* files are served only from inside the site's folder: no ``..``, no hidden files
  (atlas's markers), no link that resolves outside it, only regular files;
* a request whose ``Host`` is not the server's (``localhost``, an IP address, or the
  ``--host`` name, with the server's port) is refused, which defeats DNS rebinding; so
  is one whose ``Origin`` is not ``http://`` and that host, and one a browser marks as
  made by a page of another site (``Sec-Fetch-Site``) other than a plain navigation (a
  link from elsewhere opens the site; a script elsewhere gets nothing);
* the request line, the headers and the body are bounded (:data:`MAX_REQUEST_LINE`,
  :data:`MAX_HEADER_BYTES`; no body but a save's, at most
  :data:`~atlas.maps.MAX_MAP_BYTES`, and an analysis's, at most
  :data:`~atlas.render.site.editor.MAX_ANALYZE_BYTES`), and only ``GET`` and ``HEAD``
  are served, with the editor's ``PUT`` and ``POST``;
* with ``editable``, every page links to the map editor (a map page to its map's), and
  ``PUT`` on :data:`~atlas.render.site.editor.SAVE_PREFIX` saves a map: only from the
  server's own pages (an ``Origin`` that is the server's, ``text/plain``), only to a
  map file inside the maps folder, never through a link, never over a file there when
  it says ``If-None-Match: *``; ``POST`` on
  :data:`~atlas.render.site.editor.ANALYZE_PATH` (``application/json``, the same
  checks) analyses the board being drawn (:mod:`atlas.render.site.editor`).
"""

from __future__ import annotations

import html
import ipaddress
import json
import mimetypes
import os
import re
import socket
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from ...errors import AtlasError
from ...fsutil import TEMPORARY_PREFIX, write_atomically
from ...games import game_names
from ...maps import MAX_MAP_BYTES
from .build import BuildOptions, BuildResult, build
from .editor import (
    ANALYZE_PATH,
    EDIT_PREFIX,
    MAX_ANALYZE_BYTES,
    SAVE_PREFIX,
    BoardError,
    analyze_board,
    editor_page,
    make_game_folder,
    map_target,
    warm,
)

__all__ = [
    "LiveSite",
    "SiteServer",
    "Watcher",
    "EVENTS_PATH",
    "SCRIPT_PATH",
    "MAX_REQUEST_LINE",
    "MAX_HEADER_BYTES",
    "MAX_EVENT_CLIENTS",
    "QUIET_SECONDS",
    "POLL_SECONDS",
    "is_loopback",
    "watcher_kind",
]

#: Where a served page listens for new builds (Server-Sent Events).
EVENTS_PATH = "/__atlas/events"
#: The script every served HTML page loads.
SCRIPT_PATH = "/__atlas/live.js"
#: Bytes of a request line at most (a site's longest path is under 200 bytes).
MAX_REQUEST_LINE = 8 * 1024
#: Bytes of a request's headers at most, all lines together.
MAX_HEADER_BYTES = 32 * 1024
#: Pages listening for builds at once (each holds a connection and a thread).
MAX_EVENT_CLIENTS = 64
#: Seconds without a change before a rebuild starts (a burst of saves is one rebuild).
QUIET_SECONDS = 0.15
#: Seconds a burst of changes may delay a rebuild at most.
MAX_DELAY_SECONDS = 2.0
#: Seconds between two looks at the files when no ``watchdog`` is installed.
POLL_SECONDS = 0.4
#: Seconds between two keep-alive comments on a page's event stream.
PING_SECONDS = 15.0
#: Seconds a client may take to send its request.
REQUEST_TIMEOUT = 20.0

_LIVE_JS = b"""\
// atlas serve: reload this page when a newer build of the site is in place.
(function () {
  var tag = document.currentScript;
  var shown = tag ? tag.getAttribute("data-build") : null;
  window.atlasLive = { build: shown, reloading: false };
  if (!window.EventSource) return;
  var events = new EventSource("/__atlas/events");
  events.addEventListener("build", function (e) {
    if (shown === null) { shown = e.data; window.atlasLive.build = shown; return; }
    if (e.data !== shown && !window.atlasLive.reloading) {
      window.atlasLive.reloading = true;
      events.close();
      location.reload();
    }
  });
})();
"""


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address to bind) is this machine's loopback."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


class _TooLarge(Exception):
    """A request's headers ran past :data:`MAX_HEADER_BYTES`."""


class _BoundedLines:
    """The request's input as the header parser reads it, at most ``budget`` bytes."""

    def __init__(self, raw: Any, budget: int) -> None:
        self.raw, self.budget = raw, budget

    def readline(self, limit: int = -1) -> bytes:
        want = self.budget + 1 if limit < 0 else min(limit, self.budget + 1)
        line: bytes = self.raw.readline(want)
        self.budget -= len(line)
        if self.budget < 0:
            raise _TooLarge
        return line

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class SiteServer(ThreadingHTTPServer):
    """The built site's folder served over HTTP, with its build counter.

    Parameters
    ----------
    root : Path
        The site's folder (it may not exist yet: pages answer 503 until it does).
    host : str
        The address to bind (default the loopback).
    port : int
        The port (0: any free one; :attr:`port` says which).
    """

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, root: Path, host: str = "127.0.0.1", port: int = 0) -> None:
        self.root = Path(root)
        self.bind_host = host
        if ":" in host.strip("[]"):
            self.address_family = socket.AF_INET6
        super().__init__((host.strip("[]"), port), _Handler)
        self.port: int = self.server_address[1]
        self.stopping = False
        self._changed = threading.Condition()
        self._builds = 0
        self._stamp = f"{time.time_ns():x}"
        self._clients = 0
        #: The maps folders saves go to, by the name a path of the editor starts with
        #: (one folder: the name "", its paths are the folder's own); none: saving is off.
        self.maps_roots: dict[str, Path] = {}
        #: Each map page of the site -> its map file, as :meth:`root_of` reads it.
        self.sources: dict[str, str] = {}
        #: Held while a save writes (:meth:`stop` waits for it).
        self.saving = threading.Lock()

    @property
    def maps_root(self) -> Path | None:
        """The first maps folder saves go to (None: saving is off)."""
        return next(iter(self.maps_roots.values()), None)

    def root_of(self, rel: str) -> tuple[Path, str] | None:
        """The maps folder a path of the editor (unquoted) is in, and the path inside
        it: with one folder, the path is the folder's own; with several, it starts with
        the folder's name (:func:`root_names`).  None: no folder of the server."""
        if "" in self.maps_roots:
            return self.maps_roots[""], rel
        name, _, rest = rel.partition("/")
        root = self.maps_roots.get(name)
        return None if root is None or not rest else (root, rest)

    @property
    def build_id(self) -> str:
        """The current build's id: unique to this server and build, so a page served by
        an earlier run of ``atlas serve`` reloads too."""
        return f"{self._stamp}-{self._builds}"

    @property
    def builds(self) -> int:
        """Builds published so far."""
        return self._builds

    def publish(self) -> None:
        """A new build is in place: tell every page that listens."""
        with self._changed:
            self._builds += 1
            self._changed.notify_all()

    def wait_build(self, last: str | None, timeout: float) -> str:
        """The build id, once it differs from ``last`` or after ``timeout`` seconds."""
        with self._changed:
            self._changed.wait_for(
                lambda: self.stopping or self.build_id != last, timeout=timeout
            )
            return self.build_id

    def enter_client(self) -> bool:
        with self._changed:
            if self._clients >= MAX_EVENT_CLIENTS:
                return False
            self._clients += 1
            return True

    def leave_client(self) -> None:
        with self._changed:
            self._clients -= 1

    def allowed_host(self, value: str | None) -> bool:
        """Whether a request's ``Host`` header names this server: ``localhost``, an IP
        address or the name it was bound to, with its port (a name of anyone else's,
        resolved to this machine by DNS rebinding, is not)."""
        if not value:
            return False
        name, sep, port = value.strip().rpartition(":")
        if not sep or "]" in port or not port.isdigit() or int(port) != self.port:
            return False
        name = name.lower()
        return name == "localhost" or _is_ip(name) or name == self.bind_host.lower()

    def stop(self) -> None:
        """Stop serving: wake the pages' event streams, close the socket."""
        with self._changed:
            self.stopping = True
            self._changed.notify_all()
        self.shutdown()
        # a save under way finishes (its file moved into place), no new one starts
        if self.saving.acquire(timeout=10):
            self.saving.release()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    """One request: bounded, checked, then a file of the site, the live script or the
    event stream."""

    server: SiteServer
    server_version = "atlas-serve"
    sys_version = ""
    timeout = REQUEST_TIMEOUT

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the terminal shows the builds, not every request

    # ------------------------------------------------------------------ the request

    def handle_one_request(self) -> None:
        try:
            self.raw_requestline = self.rfile.readline(MAX_REQUEST_LINE + 1)
            if len(self.raw_requestline) > MAX_REQUEST_LINE:
                self.requestline, self.request_version, self.command = "", "", ""
                self.send_error(HTTPStatus.REQUEST_URI_TOO_LONG, "request line too long")
                self.close_connection = True
                return
            if not self.raw_requestline:
                self.close_connection = True
                return
            raw, self.rfile = self.rfile, _BoundedLines(self.rfile, MAX_HEADER_BYTES)  # type: ignore[assignment]
            try:
                parsed = self.parse_request()
            except _TooLarge:
                self.rfile = raw
                self.close_connection = True
                self.send_error(
                    HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "request headers too large"
                )
                return
            finally:
                self.rfile = raw
            if not parsed:
                return
            self.close_connection = True  # one request a connection
            self._answer()
            self.wfile.flush()
        except (TimeoutError, ConnectionError):
            self.close_connection = True

    def _refuse(self, status: HTTPStatus, why: str) -> None:
        self.send_error(status, why)

    def _answer(self) -> None:
        host = self.headers.get("Host")
        if not self.server.allowed_host(host):
            return self._refuse(HTTPStatus.FORBIDDEN, "not a host this server answers for")
        origin = self.headers.get("Origin")
        if origin is not None and origin.lower() != f"http://{host}".lower():
            return self._refuse(HTTPStatus.FORBIDDEN, "a request from another origin")
        # a browser names the site a request comes from (fetch metadata): a page
        # elsewhere may link here, not load the site's files into itself
        if self.headers.get("Sec-Fetch-Site", "").lower() in (
            "cross-site",
            "same-site",
        ) and self.headers.get("Sec-Fetch-Mode", "").lower() not in ("navigate", ""):
            return self._refuse(HTTPStatus.FORBIDDEN, "a request from another site")
        path = urlsplit(self.path).path
        saving = path.startswith(SAVE_PREFIX)
        if self.command == "PUT" and saving:
            return self._save(path[len(SAVE_PREFIX) :])
        if self.command == "POST" and path == ANALYZE_PATH:
            return self._analyze()
        if self.command not in ("GET", "HEAD"):
            self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
            allow = "PUT" if saving else "POST" if path == ANALYZE_PATH else "GET, HEAD"
            self.send_header("Allow", allow)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if self.headers.get("Transfer-Encoding") or self.headers.get(
            "Content-Length", "0"
        ).strip() not in ("", "0"):
            return self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "a GET takes no body")
        if path.startswith(EDIT_PREFIX):
            return self._editor(path[len(EDIT_PREFIX) :])
        if path == EVENTS_PATH:
            return self._events()
        if path == SCRIPT_PATH:
            return self._send(_LIVE_JS, "text/javascript; charset=utf-8")
        return self._file(path)

    # ------------------------------------------------------------------ the answers

    def _send(self, body: bytes, kind: str, status: HTTPStatus = HTTPStatus.OK) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _page(self, status: HTTPStatus, text: str) -> None:
        """A short HTML page (not found, not built yet) that reloads with the site."""
        body = (
            "<!doctype html><meta charset=utf-8><title>atlas serve</title>"
            f"<body><h1>{int(status)} {html.escape(status.phrase)}</h1>"
            f"<p>{html.escape(text)}</p></body>"
        ).encode()
        self._send(self._live(body), "text/html; charset=utf-8", status)

    def _live(self, page: bytes, source: str | None = None) -> bytes:
        """``page`` with the live script, before its last ``</body>`` (and a link to
        the editor of its map file ``source``, when it has one)."""
        tag = (
            f'<script src="{SCRIPT_PATH}" data-build="{self.server.build_id}"></script>'
        ).encode()
        if self.server.maps_roots:
            links = f'<a href="{EDIT_PREFIX}">New map</a>'
            if source is not None:
                href = html.escape(EDIT_PREFIX + quote(source))
                links = f'<a href="{href}">Edit this map</a> · ' + links
            tag = (
                '<p class="atlas-edit" style="position:fixed;right:1em;bottom:1em;'
                "margin:0;padding:.3em .7em;background:#fff;border:1px solid #ccc;"
                f'border-radius:4px">{links}</p>'
            ).encode() + tag
        at = page.lower().rfind(b"</body>")
        return page + tag if at < 0 else page[:at] + tag + page[at:]

    def _file(self, path: str) -> None:
        try:
            text = unquote(path, errors="strict")
        except UnicodeDecodeError:
            return self._refuse(HTTPStatus.BAD_REQUEST, "not a path")
        parts = [p for p in text.split("/") if p]
        if (
            not text.startswith("/")
            or "\x00" in text
            or "\\" in text
            or any(p.startswith(".") for p in parts)  # .., and atlas's hidden markers
        ):
            return self._refuse(HTTPStatus.FORBIDDEN, "not a path inside the site")
        root = os.path.realpath(self.server.root)
        if not os.path.isdir(root) or self.server.builds == 0:
            return self._page(HTTPStatus.SERVICE_UNAVAILABLE, "The site is being built.")
        target = os.path.realpath(os.path.join(root, *parts))
        if os.path.commonpath([root, target]) != root:
            return self._refuse(HTTPStatus.FORBIDDEN, "a link leading out of the site")
        if os.path.isdir(target):
            if not text.endswith("/"):
                self.send_response(HTTPStatus.MOVED_PERMANENTLY)
                self.send_header("Location", path + "/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            target = os.path.join(target, "index.html")
        body = _read_regular(target)
        if body is None:
            return self._page(HTTPStatus.NOT_FOUND, f"No page at {text} in this build.")
        kind = mimetypes.guess_type(target)[0] or "application/octet-stream"
        if kind == "text/html":
            source = self.server.sources.get("/".join(parts))
            return self._send(self._live(body, source), "text/html; charset=utf-8")
        if kind.startswith("text/") or kind in ("application/javascript", "application/json"):
            kind += "; charset=utf-8"
        return self._send(body, kind)

    def _unquoted(self, rel: str) -> str | None:
        try:
            return unquote(rel, errors="strict")
        except UnicodeDecodeError:
            return None

    def _editor(self, rel: str) -> None:
        folders = [name for name in self.server.maps_roots if name]
        if self.server.maps_roots and rel == "":  # a new map
            self._warm(rel)
            body = editor_page(None, None, None, folders=folders)
            return self._send(body, "text/html; charset=utf-8")
        text = self._unquoted(rel)
        found = None if text is None else self.server.root_of(text)
        target = None if found is None else map_target(*found)
        if text is None or target is None:
            return self._refuse(HTTPStatus.FORBIDDEN, "not a map file this server edits")
        current = b"" if not target.exists() else (_read_regular(os.fspath(target)) or b"")
        if len(current) > MAX_MAP_BYTES:
            return self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "a map file too large")
        page = {v: k for k, v in self.server.sources.items()}.get(text)
        self._warm(text.split("/", 1)[1] if folders else text)
        body = editor_page(text, current.decode("utf-8", "replace"), page, folders=folders)
        return self._send(body, "text/html; charset=utf-8")

    def _warm(self, rel: str) -> None:
        """Load the analyses' kernels in the background while the editor's page opens
        (:func:`~atlas.render.site.editor.warm`), so its first stroke is answered
        quickly."""
        # a new map's page opens with the first registered game
        game = rel.split("/")[0] if "/" in rel else next(iter(game_names()), "")
        threading.Thread(target=warm, args=(game,), name="atlas-warm", daemon=True).start()

    def _save(self, rel: str) -> None:
        """Write one map file of the maps folder (:mod:`atlas.render.site.editor`)."""
        if not self.server.maps_roots:
            return self._refuse(
                HTTPStatus.FORBIDDEN,
                "saving is off: atlas serve MAPS names a folder to save in",
            )
        length = self._checked_body("a save", "text/plain", MAX_MAP_BYTES)
        if length is None:
            return None
        text = self._unquoted(rel)
        found = None if text is None else self.server.root_of(text)
        target = None if found is None else map_target(*found)
        if found is not None and target is None and make_game_folder(*found):
            target = map_target(*found)  # the first map of a game: its folder made
        if text is None or target is None:
            return self._refuse(HTTPStatus.FORBIDDEN, "not a map file inside the maps folder")
        body = self.rfile.read(length)
        if len(body) != length:
            return self._refuse(HTTPStatus.BAD_REQUEST, "the map's text ended early")
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            return self._refuse(HTTPStatus.BAD_REQUEST, "a map's text is UTF-8")
        # If-None-Match: * writes a new file only (the editor's save under a new name):
        # a file already there is not overwritten unless the user says so
        only_new = self.headers.get("If-None-Match", "").strip() == "*"
        with self.server.saving:  # a stop waits for a save under way to finish
            if self.server.stopping:
                return self._refuse(HTTPStatus.SERVICE_UNAVAILABLE, "the server is stopping")
            if only_new and os.path.lexists(target):
                return self._refuse(
                    HTTPStatus.PRECONDITION_FAILED, f"{text} exists: overwrite it?"
                )
            try:
                write_atomically(target, body)
            except (OSError, AtlasError) as exc:
                return self._refuse(HTTPStatus.INTERNAL_SERVER_ERROR, f"not saved: {exc}")
        answer = json.dumps({"saved": text}).encode()
        return self._send(answer, "application/json")

    def _checked_body(self, what: str, kind: str, limit: int) -> int | None:
        """The stated length of a request's body, once its headers say it comes from
        the server's own pages, is of the media type ``kind`` and at most ``limit``
        bytes; else None, the request refused."""
        # only the server's own pages: a browser sends their Origin with a PUT or a
        # POST (checked equal to the server's above), and marks them same-origin
        if self.headers.get("Origin") is None or self.headers.get(
            "Sec-Fetch-Site", "same-origin"
        ).lower() not in ("same-origin",):
            self._refuse(HTTPStatus.FORBIDDEN, f"{what} comes from the server's pages")
            return None
        said = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if said != kind:
            self._refuse(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, f"{what} is {kind}")
            return None
        length = self.headers.get("Content-Length", "").strip()
        if self.headers.get("Transfer-Encoding") or not length.isdigit() or len(length) > 12:
            self._refuse(HTTPStatus.LENGTH_REQUIRED, f"{what} says its length")
            return None
        if int(length) > limit:
            self._refuse(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"{what} is at most {limit:,} bytes"
            )
            return None
        return int(length)

    def _analyze(self) -> None:
        """The analysis of a board the editor posts (:func:`analyze_board`): JSON in,
        JSON out; a body that is not a board is a 400 saying why."""
        length = self._checked_body("a board", "application/json", MAX_ANALYZE_BYTES)
        if length is None:
            return None
        body = self.rfile.read(length)
        if len(body) != length:
            return self._refuse(HTTPStatus.BAD_REQUEST, "the board ended early")
        try:
            answer = analyze_board(json.loads(body.decode("utf-8")))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:  # and BoardError
            why = str(exc) if isinstance(exc, BoardError) else "a board is JSON in UTF-8"
            refusal = json.dumps({"refused": f"not a board: {why}"}).encode()
            return self._send(refusal, "application/json", HTTPStatus.BAD_REQUEST)
        return self._send(json.dumps(answer).encode(), "application/json")

    def _events(self) -> None:
        if not self.server.enter_client():
            return self._refuse(HTTPStatus.SERVICE_UNAVAILABLE, "too many pages listening")
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if self.command == "HEAD":
                return None
            self.wfile.write(b"retry: 1000\n\n")
            last: str | None = None
            while not self.server.stopping:
                now = self.server.wait_build(last, PING_SECONDS)
                if self.server.stopping:
                    break
                if now != last:
                    self.wfile.write(f"event: build\ndata: {now}\n\n".encode())
                    last = now
                else:
                    self.wfile.write(b": still here\n\n")
                self.wfile.flush()
        except (OSError, ValueError):
            pass  # the page went away
        finally:
            self.server.leave_client()
        return None


def _read_regular(path: str) -> bytes | None:
    """The bytes of the regular file at ``path``, or None (missing, a folder, a FIFO)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read()
    except OSError:
        return None
    finally:
        os.close(fd)


# --------------------------------------------------------------------------- watching


def watcher_kind() -> str:
    """``"watchdog"`` when the package is installed (inotify and its kin), else
    ``"polling"``."""
    try:
        import watchdog.observers  # noqa: F401
    except ImportError:
        return "polling"
    return "watchdog"


class Watcher:
    """Calls ``changed()`` when anything under ``paths`` changes, outside ``ignore``
    (the site, the cache and atlas's temporaries, when they lie inside a watched
    folder).

    Parameters
    ----------
    paths : sequence of Path
        Folders (watched with what they hold) and files.
    ignore : sequence of Path
        Folders whose changes do not count.
    changed : callable
        Called from the watcher's thread.
    kind : str, optional
        ``"watchdog"`` or ``"polling"`` (default: :func:`watcher_kind`).
    """

    def __init__(
        self,
        paths: Sequence[Path],
        ignore: Sequence[Path],
        changed: Callable[[], None],
        kind: str | None = None,
    ) -> None:
        self.paths = [Path(os.path.abspath(p)) for p in paths]
        self.ignore = [os.path.abspath(p) for p in ignore]
        self.changed = changed
        self.kind = kind or watcher_kind()
        self._observer: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def counts(self, path: str) -> bool:
        """Whether a change at ``path`` may change the site."""
        path = os.path.abspath(path)
        if any(part.startswith(TEMPORARY_PREFIX) for part in Path(path).parts):
            return False
        return not any(path == i or path.startswith(i + os.sep) for i in self.ignore)

    def start(self) -> None:
        if self.kind == "watchdog":
            self._start_watchdog()
        else:
            self._thread = threading.Thread(target=self._poll, name="atlas-watch", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _start_watchdog(self) -> None:
        from watchdog.events import FileSystemEvent, FileSystemEventHandler
        from watchdog.observers import Observer

        watcher = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event: FileSystemEvent) -> None:
                if event.event_type in ("opened", "closed_no_write"):
                    return  # reading a file changes nothing
                paths = [os.fsdecode(event.src_path), os.fsdecode(event.dest_path or b"")]
                if any(p and watcher.counts(p) and watcher._inside(p) for p in paths):
                    watcher.changed()

        self._observer = Observer()
        handler = Handler()
        for p in self.paths:
            if p.is_dir():
                self._observer.schedule(handler, os.fspath(p), recursive=True)
            else:
                self._observer.schedule(handler, os.fspath(p.parent), recursive=False)
        self._observer.daemon = True
        self._observer.start()

    def _inside(self, path: str) -> bool:
        """Whether ``path`` is one of the watched files or inside a watched folder."""
        return any(
            path == os.fspath(p) or path.startswith(os.fspath(p) + os.sep) for p in self.paths
        )

    def _snapshot(self) -> dict[str, tuple[int, int, int]]:
        seen: dict[str, tuple[int, int, int]] = {}
        for top in self.paths:
            for path in _walk(top, self):
                try:
                    st = os.lstat(path)
                except OSError:
                    continue
                seen[path] = (st.st_mtime_ns, st.st_size, st.st_ino)
        return seen

    def _poll(self) -> None:
        before = self._snapshot()
        while not self._stop.wait(POLL_SECONDS):
            now = self._snapshot()
            if now != before:
                before = now
                self.changed()


def _walk(top: Path, watcher: Watcher) -> Iterable[str]:
    """Every entry under ``top`` (``top`` itself when it is a file), outside what the
    watcher ignores, without following links to folders."""
    if not top.is_dir():
        yield os.fspath(top)
        return
    for here, dirs, names in os.walk(top, followlinks=False):
        dirs[:] = [d for d in dirs if watcher.counts(os.path.join(here, d))]
        yield here
        for name in names:
            yield os.path.join(here, name)


# --------------------------------------------------------------------------- the site


def root_names(folders: Sequence[Path]) -> dict[str, Path]:
    """The maps folders by the names the editor's paths start with: one folder, the
    name "" (its paths are its own); several, each folder's name (the one its pages
    show), made unique with a number (``maps``, ``maps-2``)."""
    if len(folders) == 1:
        return {"": folders[0]}
    named: dict[str, Path] = {}
    for folder in folders:
        base = re.sub(r"[^A-Za-z0-9_-]+", "-", Path(folder).resolve().name).strip("-")
        base = base or "maps"
        name, n = base, 2
        while name in named:
            name, n = f"{base}-{n}", n + 1
        named[name] = folder
    return named


def _sources(result: BuildResult, roots: dict[str, Path]) -> dict[str, str]:
    """Each map page of a build -> its map file as the editor names it: the path in
    its maps folder, after the folder's name when there are several (the maps inside
    the folders only)."""
    found = {}
    for e in result.maps:
        where = os.path.realpath(e.path)
        for name, root in roots.items():
            rel = os.path.relpath(where, os.path.realpath(root))
            if rel != os.pardir and not rel.startswith(os.pardir + os.sep):
                rel = rel.replace(os.sep, "/")
                found[e.page] = f"{name}/{rel}" if name else rel
                break
    return found


class LiveSite:
    """A site served while its inputs are watched and rebuilt (``atlas serve``).

    Use: ``live = LiveSite(options)``; :meth:`open` binds the port; :meth:`build`
    builds once; :meth:`start` serves and watches; :meth:`run` rebuilds after each
    burst of changes until ``stop`` is set (or Ctrl-C); :meth:`close` stops all.

    Parameters
    ----------
    options : BuildOptions
        The build (its ``out_dir`` is the folder served).
    host, port : str, int
        Where to listen (default the loopback, any free port).
    watch : str, optional
        ``"watchdog"`` or ``"polling"`` (default: :func:`watcher_kind`).
    log : callable, optional
        Where the lines of the rebuilds go (default: standard error).
    editable : bool
        Map pages link to a map editor whose saves write the map files of the maps
        folders (``options.maps_dirs``, :mod:`atlas.render.site.editor`); off by
        default.
    """

    def __init__(
        self,
        options: BuildOptions,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        watch: str | None = None,
        log: Callable[[str], None] | None = None,
        editable: bool = False,
    ) -> None:
        self.options = options
        self.editable = editable
        self.host, self.port_wanted = host, port
        self.log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self.server: SiteServer | None = None
        self.dirty = threading.Event()
        #: The last build's result (None while a build runs, or after one failed).
        self.last: BuildResult | None = None
        ignore = [Path(options.out_dir)]
        if options.cache_dir is not None:
            ignore.append(Path(options.cache_dir))
        self.watcher = Watcher(options.inputs, ignore, self.dirty.set, watch)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The site's address."""
        assert self.server is not None
        host = self.host if ":" not in self.host else f"[{self.host.strip('[]')}]"
        return f"http://{host}:{self.server.port}/"

    def open(self) -> SiteServer:
        """Bind the port (before any build, so a port in use fails at once).

        Raises
        ------
        OSError
            The address cannot be bound (in use, not this machine's).
        """
        self.server = SiteServer(Path(self.options.out_dir), self.host, self.port_wanted)
        if self.editable:
            folders = [f for f in self.options.maps_dirs if f.is_dir()]
            self.server.maps_roots = root_names(folders) if folders else {}
        return self.server

    def build(self) -> BuildResult | None:
        """Build the site once and tell the pages; a build that cannot be made (a site
        folder atlas may not write, a maps folder gone) is said in one line, and the
        site served stays as it was."""
        # the last build's games are not kept alive through this one: a season's
        # 100,000 would be walked by the collector as the build begins
        self.last = None
        try:
            result = build(self.options)
        except (AtlasError, OSError) as exc:
            self.log(f"atlas serve: the site was not rebuilt: {exc}")
            return None
        self.last = result
        if self.server is not None:
            if self.server.maps_roots:
                self.server.sources = _sources(result, self.server.maps_roots)
            self.server.publish()
        return result

    def start(self) -> None:
        """Serve (in a thread) and watch the inputs."""
        server = self.server or self.open()
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.2}, name="atlas-serve"
        )
        self._thread.daemon = True
        self._thread.start()
        self.watcher.start()

    def run(self, stop: threading.Event | None = None) -> None:
        """Rebuild after each burst of changes, until ``stop`` is set (forever without
        one): a burst ends when nothing changed for :data:`QUIET_SECONDS`, or after
        :data:`MAX_DELAY_SECONDS`."""
        stop = stop or threading.Event()
        while not stop.is_set():
            if not self.dirty.wait(0.25):
                continue
            began = time.monotonic()
            while True:
                self.dirty.clear()
                if stop.wait(QUIET_SECONDS):
                    return
                if not self.dirty.is_set() or time.monotonic() - began > MAX_DELAY_SECONDS:
                    break
            self.build()

    def close(self) -> None:
        """Stop watching and serving (a build in progress is the caller's: Ctrl-C ends
        it, and the build removes its temporary)."""
        self.watcher.stop()
        if self.server is not None:
            if self._thread is not None:
                self.server.stop()
                self._thread.join(timeout=5)
            else:
                self.server.server_close()
