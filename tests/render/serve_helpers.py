"""Helpers of the ``atlas serve`` tests: a live site in this process, requests to
127.0.0.1, bounded waits.

(A module with its own name, not ``conftest``, so the browser tests import it too.)"""

from __future__ import annotations

import http.client
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from atlas.render.site.build import BuildOptions
from atlas.render.site.serve import LiveSite

ROOT = Path(__file__).resolve().parents[2]
GOOD = "7 4\n#######\n#1    #\n#    2#\n#######\n"
OTHER = "7 4\n#######\n#1  # #\n#    2#\n#######\n"
BROKEN = "3 3\n#1#\n"
#: Seconds any one wait may take at most (far more than a rebuild takes).
PATIENCE = 90.0


def wait_until(check: Callable[[], bool], what: str, timeout: float = PATIENCE) -> None:
    """Poll ``check`` until it holds; fail naming ``what`` after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.1)
    pytest.fail(f"not within {timeout:.0f} s: {what}")


class Served:
    """A live site in this process: the server and watcher threads, and the rebuild
    loop in a thread of its own."""

    def __init__(
        self,
        root: Path,
        watch: str | None = None,
        editable: bool = True,
        more: tuple[Path, ...] = (),
    ) -> None:
        self.maps = root / "maps"
        (self.maps / "tron").mkdir(parents=True)
        (self.maps / "tron" / "good.txt").write_text(GOOD)
        self.out = root / "site"
        self.lines: list[str] = []
        options = BuildOptions(
            maps_dir=self.maps,
            more_maps=more,
            out_dir=self.out,
            games=0,
            cache_dir=root / "cache",
            progress=False,
            log=self.lines.append,
        )
        self.live = LiveSite(
            options, "127.0.0.1", 0, watch=watch, log=self.lines.append, editable=editable
        )
        self.live.open()
        assert self.live.build() is not None
        self.live.start()
        self.stop = threading.Event()
        self.loop = threading.Thread(target=self.live.run, args=(self.stop,), daemon=True)
        self.loop.start()

    @property
    def port(self) -> int:
        assert self.live.server is not None
        return self.live.server.port

    @property
    def builds(self) -> int:
        assert self.live.server is not None
        return self.live.server.builds

    def request(
        self,
        path: str,
        method: str = "GET",
        headers: dict[str, str] | None = None,
        body: bytes | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        """One request to 127.0.0.1 (Host the server's unless ``headers`` say)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            sent = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
            if body is not None and "Content-Length" not in sent:
                sent["Content-Length"] = str(len(body))
            for k, v in sent.items():
                if v is not None:
                    conn.putheader(k, v)
            conn.endheaders(body)
            r = conn.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        finally:
            conn.close()

    def raw(self, data: bytes) -> bytes:
        """Send ``data`` as it is; the first line of the answer."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as s:
            try:
                s.sendall(data)
            except OSError:
                pass  # the server may close before reading it all
            f = s.makefile("rb")
            return f.readline()

    def status(self, path: str) -> int:
        return self.request(path)[0]

    def close(self) -> None:
        self.stop.set()
        self.loop.join(timeout=PATIENCE)
        self.live.close()
