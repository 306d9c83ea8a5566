"""A tron bot that misbehaves on purpose: ``hostile.py MODE MARKER``.

It plays the official tron protocol sensibly (a free neighbour of its head), and on top:

``victim``      writes ``secret.txt`` (holding ``secret-MARKER``) in its working folder
``snoop``       each turn, looks for other bots' folders and prints any ``secret.txt``
``assassin``    each turn, SIGKILLs every process whose command line holds ``victim``
``parricide``   on its first turn, SIGKILLs its parent (``kill -9 $PPID``)
``escape``      first starts a grandchild that calls ``setsid`` and sleeps (its command
                line holds MARKER)
``escape-parricide``  both: the grandchild, then ``kill -9 $PPID``
``hog``         allocates 10 GB before its first answer
``writer``      writes a 1 GB file (1 MiB at a time) before its first answer
``report``      prints its limits, environment and folder to stderr
``spin``        burns CPU without answering
``hang``        starts the grandchild, then never answers

Everything it prints goes to stderr, which atlas keeps for the record.
"""

import os
import signal
import sys
import tempfile
import time

MODE, MARKER = sys.argv[1], sys.argv[2]
STEPS = {1: (-1, 0), 2: (0, 1), 3: (1, 0), 4: (0, -1)}


def say(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def grandchild():
    """Start a grandchild in a session of its own, whose parent exits; say its pid once
    it runs."""
    read, write = os.pipe()
    if os.fork() == 0:
        os.setsid()
        pid = os.fork()
        if pid == 0:
            os.execv(
                sys.executable, [sys.executable, "-c", "import time; time.sleep(300)", MARKER]
            )
        os.write(write, str(pid).encode())
        os._exit(0)
    os.close(write)
    pid = int(os.read(read, 32))
    os.kill(pid, 0)  # it runs (or this bot crashes)
    say(f"grandchild {pid}")


def snoop():
    here = os.path.realpath(os.getcwd())
    for top in {tempfile.gettempdir(), "/tmp"}:
        try:
            names = os.listdir(top)
        except OSError:
            continue
        for name in names:
            folder = os.path.realpath(os.path.join(top, name))
            if name.startswith("atlas-bot-") and folder != here:
                try:
                    with open(os.path.join(folder, "secret.txt")) as fh:
                        say(f"found {fh.read().strip()}")
                except OSError:
                    pass
    say(f"snooped: {len([n for n in os.listdir('/proc') if n.isdigit()])} processes")


def assassinate():
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                cmd = fh.read()
        except OSError:
            continue
        if b"victim" in cmd:
            try:
                os.kill(int(name), signal.SIGKILL)
                say(f"killed {name}")
            except OSError as exc:
                say(f"could not kill {name}: {exc}")


def answer(rows):
    for r, row in enumerate(rows):
        c = row.find("1")
        if c >= 0:
            for d, (dr, dc) in STEPS.items():
                rr, cc = r + dr, c + dc
                if 0 <= rr < len(rows) and 0 <= cc < len(rows[rr]) and rows[rr][cc] == " ":
                    return d
    return 1


def main():
    if MODE == "victim":
        with open("secret.txt", "w") as fh:
            fh.write(f"secret-{MARKER}\n")
    if MODE in ("escape", "escape-parricide", "hang"):
        grandchild()
    if MODE == "hog":
        block = bytearray(10 * 1024**3)
        say(f"allocated {len(block)} bytes")
    if MODE == "writer":
        chunk = b"x" * (1 << 20)
        with open("big.bin", "wb") as fh:
            for _ in range(1024):
                fh.write(chunk)
                fh.flush()
        say("wrote 1 GB")
    if MODE == "report":
        with open("/proc/self/limits") as fh:
            say(fh.read())
        say(f"env {sorted(os.environ.items())!r}")
        say(f"cwd {os.getcwd()}")
    if MODE == "spin":
        while True:
            pass
    if MODE == "hang":
        say("hanging")
        while True:
            time.sleep(1)
    first = True
    while True:
        header = sys.stdin.readline()
        if not header:
            return
        w, h = (int(v) for v in header.split())
        rows = [sys.stdin.readline().rstrip("\n") for _ in range(h)]
        if MODE == "snoop":
            snoop()
        if MODE == "assassin":
            assassinate()
        if first and MODE in ("parricide", "escape-parricide"):
            say(f"killing my parent {os.getppid()}")
            os.kill(os.getppid(), signal.SIGKILL)
            time.sleep(1)
        first = False
        sys.stdout.write(f"{answer(rows)}\n")
        sys.stdout.flush()


main()
