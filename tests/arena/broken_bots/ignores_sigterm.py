"""Broken bot: ignores SIGTERM and end of file, starts a child that does the same, never answers.

Prints its own and its child's process ids to stderr so a test can check both are gone.
"""

import os
import signal
import subprocess
import sys
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen(
    [
        sys.executable,
        "-c",
        "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(60)\n",
    ]
)
sys.stderr.write(f"pids {os.getpid()} {child.pid}\n")
sys.stderr.flush()
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    time.sleep(0.05)
