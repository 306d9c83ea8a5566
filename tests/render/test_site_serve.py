"""``atlas serve``: the site served on 127.0.0.1, rebuilt as its maps change, and safe
by construction (Host, Origin, paths, links, sizes, methods).

A served site is built here from one or two small tron maps without a tournament
(``games=0``), on an ephemeral port; every request goes to 127.0.0.1, every wait is
bounded by a generous deadline (a slower machine passes, only slower), and nothing
asserts a wall-clock time.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_helpers import BROKEN, GOOD, OTHER, PATIENCE, ROOT, Served, wait_until

from atlas.cli import main
from atlas.render.site import serve as serve_module
from atlas.render.site.serve import (
    EVENTS_PATH,
    MAX_HEADER_BYTES,
    MAX_REQUEST_LINE,
    SCRIPT_PATH,
    Watcher,
    is_loopback,
    watcher_kind,
)


@pytest.fixture
def served(tmp_path) -> Iterator[Served]:
    s = Served(tmp_path)
    try:
        yield s
    finally:
        s.close()


# --------------------------------------------------------------------------- pages


def test_pages_are_served_with_the_live_script(served):
    status, headers, body = served.request("/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert headers["cache-control"] == "no-store"
    text = body.decode()
    assert f'<script src="{SCRIPT_PATH}" data-build="' in text
    assert text.index(SCRIPT_PATH) < text.rindex("</body>")
    assert served.status("/maps/tron-good.html") == 200
    status, headers, body = served.request(SCRIPT_PATH)
    assert status == 200 and b"EventSource" in body
    status, headers, _ = served.request("/static/style.css")
    assert status == 200 and headers["content-type"].startswith("text/css")
    status, headers, body = served.request("/", "HEAD")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0
    status, headers, _ = served.request("/maps")  # a folder: its address with a slash
    assert status == 301 and headers["location"] == "/maps/"
    status, _, body = served.request("/maps/nope.html")
    assert status == 404 and SCRIPT_PATH.encode() in body  # it reloads with the site


def test_the_event_stream_names_each_build(served):
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=PATIENCE)
    conn.request("GET", EVENTS_PATH)
    r = conn.getresponse()
    assert r.status == 200 and r.getheader("Content-Type") == "text/event-stream"

    def next_build() -> str:
        while True:
            line = r.fp.readline()
            assert line, "the stream ended"
            if line.startswith(b"data: "):
                return line[6:].strip().decode()

    first = next_build()
    (served.maps / "tron" / "second.txt").write_text(OTHER)
    second = next_build()
    assert first != second and first.split("-")[0] == second.split("-")[0]
    conn.close()


# --------------------------------------------------------------------------- rebuilds


@pytest.mark.parametrize("kind", ["polling", "watchdog"])
def test_a_map_added_broken_and_deleted_shows_live(tmp_path, kind):
    if kind == "watchdog" and watcher_kind() != "watchdog":
        pytest.skip("watchdog is not installed")
    s = Served(tmp_path, watch=kind)
    try:
        assert s.live.watcher.kind == kind
        assert s.status("/maps/tron-second.html") == 404
        (s.maps / "tron" / "second.txt").write_text(OTHER)
        wait_until(lambda: s.status("/maps/tron-second.html") == 200, "the new map's page")
        assert b"tron-second" in s.request("/")[2]

        (s.maps / "tron" / "broken.txt").write_text(BROKEN)
        wait_until(lambda: s.status("/maps/tron-broken.html") == 200, "the problem page")
        page = s.request("/maps/tron-broken.html")[2].decode()
        assert "expected 3 rows after the size line, found 1" in page
        assert str(tmp_path) not in page  # the page names the map by its folder
        assert s.status("/maps/tron-good.html") == 200  # the others stay

        (s.maps / "tron" / "second.txt").unlink()
        wait_until(lambda: s.status("/maps/tron-second.html") == 404, "the deleted map gone")
        assert b"tron-second" not in s.request("/")[2]
        # the swap removes its temporary (the old site) just after the new site is in
        wait_until(lambda: not list(tmp_path.glob(".atlas-tmp-*")), "the temporary removed")
    finally:
        s.close()


def test_a_burst_of_saves_is_one_rebuild_or_a_few(served):
    before = served.builds
    for i in range(12):
        (served.maps / "tron" / "good.txt").write_text(GOOD if i % 2 else OTHER)
    wait_until(lambda: served.builds > before, "a rebuild")
    wait_until(lambda: not served.live.dirty.is_set(), "the changes taken")
    time.sleep(1.0)  # any rebuild still due starts within this
    assert served.builds - before < 12


def test_a_site_that_cannot_be_rebuilt_keeps_the_old_one_served(served):
    # the maps folder gone: the build refuses it, the server keeps the last site
    os.rename(served.maps, served.maps.with_name("elsewhere"))
    served.live.dirty.set()
    wait_until(lambda: any("was not rebuilt" in line for line in served.lines), "the line")
    assert served.status("/maps/tron-good.html") == 200


def test_changes_to_the_site_and_cache_inside_the_maps_folder_do_not_count(tmp_path):
    w = Watcher([tmp_path], [tmp_path / "site", tmp_path / "cache"], lambda: None)
    assert w.counts(os.fspath(tmp_path / "tron" / "a.txt"))
    assert not w.counts(os.fspath(tmp_path / "site" / "index.html"))
    assert w.counts(os.fspath(tmp_path / "sitex" / "a.txt"))
    assert not w.counts(os.fspath(tmp_path / "cache" / "ab" / "x.json"))
    assert not w.counts(os.fspath(tmp_path / ".atlas-tmp-site-12345678" / "site" / "x"))


# --------------------------------------------------------------------------- safety


@pytest.mark.parametrize(
    "host, ok",
    [
        ("127.0.0.1:{port}", True),
        ("localhost:{port}", True),
        ("LOCALHOST:{port}", True),
        ("[::1]:{port}", True),
        ("evil.example:{port}", False),  # DNS rebinding: a name of someone else's
        ("127.0.0.1.evil.example:{port}", False),
        ("127.0.0.1", False),  # no port
        ("127.0.0.1:1{port}", False),  # another port
        ("", False),
        (None, False),  # no Host at all
    ],
)
def test_a_host_that_is_not_the_servers_is_refused(served, host, ok):
    value = None if host is None else host.format(port=served.port)
    status = served.request("/", headers={"Host": value})[0]  # type: ignore[dict-item]
    assert (status == 200) is ok and (ok or status == 403)


@pytest.mark.parametrize(
    "origin, ok",
    [
        ("http://127.0.0.1:{port}", True),
        ("http://evil.example", False),
        ("http://evil.example:{port}", False),
        ("null", False),
        ("https://127.0.0.1:{port}", False),
        ("http://localhost:{port}", False),  # not the host the request names
    ],
)
def test_a_request_from_another_origin_is_refused(served, origin, ok):
    status = served.request("/", headers={"Origin": origin.format(port=served.port)})[0]
    assert (status == 200) is ok and (ok or status == 403)
    status = served.request(EVENTS_PATH, "HEAD", {"Origin": origin.format(port=served.port)})
    assert (status[0] == 200) is ok


@pytest.mark.parametrize(
    "site, mode, ok",
    [
        ("same-origin", "cors", True),
        ("none", "navigate", True),  # typed in the address bar
        ("cross-site", "navigate", True),  # a link from elsewhere
        ("cross-site", "no-cors", False),  # an <img> or a script of a page elsewhere
        ("cross-site", "cors", False),
        ("same-site", "no-cors", False),  # another port of this machine
    ],
)
def test_a_browser_request_made_by_another_site_is_refused(served, site, mode, ok):
    headers = {"Sec-Fetch-Site": site, "Sec-Fetch-Mode": mode}
    status = served.request("/img/maps/tron-good-plain.png", headers=headers)[0]
    assert (status == 200) is ok and (ok or status == 403)


@pytest.mark.parametrize(
    "path",
    [
        "/../maps/tron/good.txt",
        "/maps/../../maps/tron/good.txt",
        "/%2e%2e/maps/tron/good.txt",
        "/maps/%2E%2E%2F%2E%2E%2Fmaps%2Ftron%2Fgood.txt",
        "/..%5cmaps",
        "/index.html%00.png",
        "/.atlas-site.json",
        "/.atlas-manifest.json",
        "/maps/%ff",
    ],
)
def test_no_path_leads_out_of_the_site(served, path):
    status, _, body = served.request(path)
    assert status in (400, 403) and b"#1" not in body


def test_links_out_of_the_site_are_refused(served, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the machine's secret")
    (served.out / "leak.txt").symlink_to(secret)
    (served.out / "leakdir").symlink_to(tmp_path)
    (served.out / "inside.html").symlink_to(served.out / "index.html")
    assert served.status("/leak.txt") == 403
    assert served.status("/leakdir/secret.txt") == 403
    assert served.status("/inside.html") == 200  # a link that stays inside is followed
    os.mkfifo(served.out / "fifo")
    assert served.status("/fifo") == 404  # not opened for reading, never blocks


def test_requests_are_bounded_in_size(served):
    long_line = b"GET /" + b"a" * MAX_REQUEST_LINE + b" HTTP/1.1\r\n\r\n"
    assert b" 414 " in served.raw(long_line)
    many = b"".join(b"X-Pad-%d: %s\r\n" % (i, b"b" * 1000) for i in range(40))
    assert len(many) > MAX_HEADER_BYTES
    host = b"Host: 127.0.0.1:%d\r\n" % served.port
    assert b" 431 " in served.raw(b"GET / HTTP/1.1\r\n" + host + many + b"\r\n")
    status = served.request("/", headers={"Content-Length": "100000000"})[0]
    assert status == 413
    status = served.request("/", headers={"Transfer-Encoding": "chunked"})[0]
    assert status == 413
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        status, headers, _ = served.request("/", method)
        assert status == 405 and headers["allow"] == "GET, HEAD"
    assert served.status("/") == 200  # still serving


def test_loopback_names():
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert is_loopback("[::1]") and is_loopback("127.0.0.2")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")
    assert not is_loopback("example.org")


# --------------------------------------------------------------------------- the command


class FakeLive:
    """Stands in for LiveSite in the command: records what was asked, serves nothing."""

    made: list[FakeLive] = []

    def __init__(self, options, host, port, log, editable):
        self.options, self.host, self.port, self.log = options, host, port, log
        self.editable = editable
        self.calls: list[str] = []
        FakeLive.made.append(self)

    url = "http://127.0.0.1:1/"

    def open(self):
        self.calls.append("open")

    def build(self):
        self.calls.append("build")
        return object()

    def start(self):
        self.calls.append("start")

    def run(self, stop):
        self.calls.append("run")

    def close(self):
        self.calls.append("close")


def test_the_command_warns_off_loopback_and_when_polling(tmp_path, monkeypatch, capsys):
    (tmp_path / "maps").mkdir()
    FakeLive.made.clear()
    opened: list[str] = []
    monkeypatch.setattr(serve_module, "LiveSite", FakeLive)
    monkeypatch.setattr(serve_module, "watcher_kind", lambda: "polling")
    monkeypatch.setattr("webbrowser.open", opened.append)
    argv = ["serve", str(tmp_path / "maps"), "--host", "0.0.0.0", "--port", "0", "--open"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "warning: listening on 0.0.0.0" in err
    assert "watchdog package is not installed" in err
    [live] = FakeLive.made
    assert live.calls == ["open", "build", "start", "run", "close"]
    assert (live.host, live.port, live.options.games_per) == ("0.0.0.0", 0, 0)
    assert live.editable  # a maps folder named: the editor saves there
    assert opened == ["http://127.0.0.1:1/"]


def test_usage_errors_exit_2_without_a_traceback(tmp_path, capsys):
    assert main(["serve", str(tmp_path / "nope"), "--port", "0"]) == 2
    assert "does not exist" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["serve", "--port", "70000"])
    assert exc.value.code == 2
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        (tmp_path / "maps").mkdir()
        assert main(["serve", str(tmp_path / "maps"), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1 port {port}" in err and "Traceback" not in err


def _start(tmp_path: Path) -> tuple[subprocess.Popen[bytes], int, list[str]]:
    """``atlas serve maps --port 0`` in ``tmp_path``; its port, once it serves."""
    (tmp_path / "maps" / "tron").mkdir(parents=True)
    (tmp_path / "maps" / "tron" / "good.txt").write_text(GOOD)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "atlas", "serve", "maps", "--port", "0"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    lines: list[str] = []
    port: list[int] = []

    def read() -> None:
        assert proc.stderr is not None
        for raw in proc.stderr:
            line = raw.decode(errors="replace")
            lines.append(line)
            if "atlas serve: http://127.0.0.1:" in line:
                port.append(int(line.split("127.0.0.1:")[1].split("/")[0]))

    threading.Thread(target=read, daemon=True).start()
    try:
        wait_until(lambda: bool(port) or proc.poll() is not None, "atlas serve listening")
    except BaseException:
        proc.kill()
        raise
    assert port, "".join(lines)
    return proc, port[0], lines


@pytest.mark.parametrize("during_a_build", [False, True])
def test_ctrl_c_stops_cleanly_with_nothing_half_written(tmp_path, during_a_build):
    proc, port, lines = _start(tmp_path)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/")
        assert conn.getresponse().status == 200
        conn.close()
        if during_a_build:
            builds = sum("atlas build" in line for line in lines)
            (tmp_path / "maps" / "tron" / "second.txt").write_text(OTHER)
            wait_until(
                lambda: (
                    sum("atlas build" in line for line in lines) > builds
                    or any(tmp_path.glob(".atlas-tmp-*"))
                ),
                "a rebuild started",
            )
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=PATIENCE) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = "".join(lines)
    assert "Traceback" not in err
    assert not list(tmp_path.glob(".atlas-tmp-*"))
    marker = json.loads((tmp_path / "site" / ".atlas-site.json").read_text())
    assert "index.html" in marker["files"]
    with pytest.raises(OSError):  # the port is closed
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


# --------------------------------------------------------------------------- saves


def _save(served, rel, text, **headers):
    sent = {
        "Origin": f"http://127.0.0.1:{served.port}",
        "Content-Type": "text/plain; charset=utf-8",
        **headers,
    }
    return served.request(f"/__atlas/maps/{rel}", "PUT", sent, text.encode())


def test_a_map_saved_from_the_editor_is_written_and_rebuilt(served):
    status, _, body = served.request("/maps/tron-good.html")
    assert b'href="/__atlas/edit/tron/good.txt">Edit this map' in body
    status, _, body = served.request("/__atlas/edit/tron/good.txt")
    assert status == 200 and b'"rows": ["#######", "#.....#", "#.....#", "#######"]' in body
    status, _, body = _save(served, "tron/good.txt", OTHER)
    assert status == 200 and json.loads(body) == {"saved": "tron/good.txt"}
    assert (served.maps / "tron" / "good.txt").read_text() == OTHER
    wait_until(
        lambda: b"at most 6 moves for seat 1" in served.request("/maps/tron-good.html")[2],
        "the saved map on its page",
    )
    assert _save(served, "tron/new.txt", GOOD)[0] == 200  # a new map in a game's folder
    wait_until(lambda: served.status("/maps/tron-new.html") == 200, "the new map's page")
    wait_until(lambda: not list(served.maps.rglob(".atlas-tmp-*")), "the temporary removed")


@pytest.mark.parametrize(
    "rel",
    [
        "../outside.txt",
        "tron/../../outside.txt",
        "%2e%2e/outside.txt",
        "tron%2f..%2f..%2foutside.txt",
        "/tmp/outside.txt",
        "tron//good.txt",
        "tron/.hidden.txt",
        "tron/good.html",  # maps only
        "tron/.txt",
        "nogame/new.txt",  # a folder that does not exist
        "tron\\good.txt",
        "tron/good.txt%00",
        "%ff.txt",
    ],
)
def test_a_save_stays_inside_the_maps_folder(served, tmp_path, rel):
    status = _save(served, rel, "x")[0]
    assert status in (400, 403)
    assert not (tmp_path / "outside.txt").exists()
    assert (served.maps / "tron" / "good.txt").read_text() == GOOD
    assert served.request(f"/__atlas/edit/{rel}")[0] in (400, 403)


def test_a_save_never_writes_through_a_link(served, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.txt").write_text("not atlas's")
    (served.maps / "tron" / "link.txt").symlink_to(outside / "victim.txt")
    (served.maps / "linked").symlink_to(outside)
    (served.maps / "tron" / "inner.txt").symlink_to(served.maps / "tron" / "good.txt")
    os.mkfifo(served.maps / "tron" / "fifo.txt")
    for rel in ("tron/link.txt", "linked/victim.txt", "linked/new.txt", "tron/inner.txt"):
        assert _save(served, rel, "x")[0] == 403, rel
    assert _save(served, "tron/fifo.txt", "x")[0] == 403
    assert (outside / "victim.txt").read_text() == "not atlas's"
    assert not (outside / "new.txt").exists()
    assert (served.maps / "tron" / "good.txt").read_text() == GOOD


@pytest.mark.parametrize(
    "headers, status",
    [
        ({"Origin": None}, 403),  # not from a page of the server's
        ({"Origin": "http://evil.example"}, 403),
        ({"Origin": "null"}, 403),
        ({"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"}, 403),
        ({"Sec-Fetch-Site": "none"}, 403),
        ({"Content-Type": "text/html"}, 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),  # a form elsewhere
        ({"Content-Type": None}, 415),
        ({"Host": "evil.example:80"}, 403),
    ],
)
def test_a_save_from_elsewhere_is_refused(served, headers, status):
    if "Host" in headers:
        headers = {"Host": headers["Host"].replace("80", str(served.port))}
    assert _save(served, "tron/good.txt", OTHER, **headers)[0] == status
    assert (served.maps / "tron" / "good.txt").read_text() == GOOD


def test_saves_are_bounded_in_size_and_form(served):
    from atlas.maps import MAX_MAP_BYTES

    port = served.port
    head = (
        f"PUT /__atlas/maps/tron/good.txt HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Origin: http://127.0.0.1:{port}\r\nContent-Type: text/plain\r\n"
    ).encode()
    too_big = head + b"Content-Length: %d\r\n\r\n" % (MAX_MAP_BYTES + 1)
    assert b" 413 " in served.raw(too_big)  # refused before a byte of it is read
    assert b" 411 " in served.raw(head + b"\r\n")  # no length
    assert b" 411 " in served.raw(head + b"Transfer-Encoding: chunked\r\n\r\n")
    assert b" 411 " in served.raw(head + b"Content-Length: 1" + b"0" * 30 + b"\r\n\r\n")
    assert _save(served, "tron/good.txt", "ok")[0] == 200
    bad = served.request(
        "/__atlas/maps/tron/good.txt",
        "PUT",
        {"Origin": f"http://127.0.0.1:{port}", "Content-Type": "text/plain"},
        b"\xff\xfe",
    )
    assert bad[0] == 400  # not UTF-8
    assert (served.maps / "tron" / "good.txt").read_text() == "ok"
    status, headers, _ = served.request("/__atlas/maps/tron/good.txt", "POST")
    assert status == 405 and headers["allow"] == "PUT"


def test_saving_is_off_unless_a_maps_folder_is_named(tmp_path):
    s = Served(tmp_path, editable=False)
    try:
        assert _save(s, "tron/good.txt", OTHER)[0] == 403
        assert s.request("/__atlas/edit/tron/good.txt")[0] == 403
        assert b"Edit this map" not in s.request("/maps/tron-good.html")[2]
        assert (s.maps / "tron" / "good.txt").read_text() == GOOD
    finally:
        s.close()


def test_a_stopping_server_starts_no_save(served):
    served.live.server.stopping = True
    try:
        assert _save(served, "tron/good.txt", OTHER)[0] == 503
    finally:
        served.live.server.stopping = False
    assert (served.maps / "tron" / "good.txt").read_text() == GOOD
