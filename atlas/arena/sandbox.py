"""How an external bot is contained: its folder, environment, resource limits, sandbox.

Every external bot runs

- in a **folder of its own**, made for the game under the system's temporary folder and
  removed afterwards (``HOME`` and ``TMPDIR`` point there too);
- with a **minimal environment**: the variables of :data:`ENV_ALLOWLIST` taken from
  atlas's own environment, plus what the user passes (:attr:`Containment.env`);
- under **resource limits** set with ``setrlimit`` before the bot starts
  (:class:`BotLimits`: address space, CPU seconds, open files, processes, file size;
  each can be changed or lifted per bot);
- under a **supervisor** (:mod:`atlas.arena._supervisor`) that ends every process the
  bot started when the bot ends, when atlas closes it, and when atlas dies;
- and, with ``sandbox=True`` where Debian's ``bubblewrap`` (``bwrap``) is installed, in
  its own PID, mount, network, IPC and UTS namespaces: it sees only its own processes,
  no network, a read-only view of the system, an empty temporary folder and its own
  folder writable, so it can neither signal nor read the other bots.

``docs/security.md`` says what this guarantees and what it does not.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from ..errors import BotError

__all__ = [
    "BotLimits",
    "Containment",
    "ENV_ALLOWLIST",
    "LIMIT_NAMES",
    "bwrap_path",
    "sandbox_note",
    "bot_environment",
    "bwrap_argv",
    "make_bot_folder",
    "remove_bot_folder",
    "parse_size",
    "containments",
]

GiB = 1024**3
MiB = 1024**2

#: Variables of atlas's environment a bot gets (when atlas has them).  NUMBA_CACHE_DIR
#: is numba's cache folder of atlas's sources (:mod:`atlas.jit`): a served atlas bot of
#: the same sources uses it (read-only in the sandbox, where it compiles afresh).
ENV_ALLOWLIST = (
    "PATH",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
    "LC_NUMERIC",
    "TZ",
    "NUMBA_CACHE_DIR",
)
#: The variable that marks a bot's processes (and their children) for atlas's watchdog.
TOKEN_VARIABLE = "ATLAS_BOT"


@dataclass(frozen=True)
class BotLimits:
    """Resource limits of one external bot (``None``: not limited by atlas).

    Attributes
    ----------
    memory : int or None
        Address space in bytes (``RLIMIT_AS``), 4 GiB by default: a Python bot with
        numpy and numba maps about 0.6 GiB.  A Java bot needs ``-Xmx`` below it.
    cpu : int or None
        CPU seconds over the bot's whole life (``RLIMIT_CPU``; then ``SIGXCPU``), 3,600
        by default: far above a game at the default move times, a backstop for a bot
        that spins.
    files : int or None
        Open file descriptors (``RLIMIT_NOFILE``), 256 by default.
    processes : int or None
        Processes and threads the bot may start *beyond what its user already runs*
        (``RLIMIT_NPROC`` counts every process of the user, so atlas sets it to the
        user's count when the bot starts plus this), 128 by default.  The kernel does
        not apply it to root.
    file_size : int or None
        Largest file the bot may write, in bytes (``RLIMIT_FSIZE``; then ``SIGXFSZ``),
        64 MiB by default.
    """

    memory: int | None = 4 * GiB
    cpu: int | None = 3600
    files: int | None = 256
    processes: int | None = 128
    file_size: int | None = 64 * MiB

    def rlimits(self) -> dict[str, int]:
        """The ``resource`` limits to set, by name (``RLIMIT_NPROC`` is set apart)."""
        out = {"RLIMIT_CORE": 0}
        for name, which in (
            ("memory", "RLIMIT_AS"),
            ("cpu", "RLIMIT_CPU"),
            ("files", "RLIMIT_NOFILE"),
            ("file_size", "RLIMIT_FSIZE"),
        ):
            value = getattr(self, name)
            if value is not None:
                out[which] = int(value)
        return out

    def with_option(self, name: str, value: str) -> BotLimits:
        """These limits with ``name`` (``memory``, ``cpu``, ``files``, ``processes``,
        ``file-size``) set from the text ``value`` (``2G``, ``60``, ``none``).

        Raises :class:`~atlas.errors.BotError` for an unknown name or a bad value.
        """
        key = name.replace("-", "_")
        if key not in LIMIT_NAMES:
            raise BotError(
                f"unknown bot limit {name!r}; expected one of "
                f"{', '.join(n.replace('_', '-') for n in LIMIT_NAMES)}"
            )
        if value.strip().lower() in ("none", "unlimited"):
            return replace(self, **{key: None})
        sized = key in ("memory", "file_size")
        number = parse_size(value) if sized else _whole(value)
        if number is None or not (0 if key == "file_size" else 1) <= number <= MAX_LIMIT:
            unit = " (bytes, or with K, M, G)" if sized else ""
            raise BotError(
                f"bot limit {name} should be a whole number{unit} up to 2**63 - 1 or "
                f"'none', got {value[:40]!r}"
            )
        return replace(self, **{key: number})


#: The largest value of a limit (what ``setrlimit`` takes); ``none`` lifts a limit.
MAX_LIMIT = 2**63 - 1

#: The names of the limits, as :meth:`BotLimits.with_option` takes them.
LIMIT_NAMES = tuple(f.name for f in fields(BotLimits))


@dataclass(frozen=True)
class Containment:
    """How one external bot runs: its limits, the variables it gets, the sandbox.

    Attributes
    ----------
    limits : BotLimits
        Resource limits.
    env : mapping of str to str
        Variables added to the bot's minimal environment (they win over the allowlist).
    sandbox : bool
        Run the bot under ``bwrap`` (see the module docstring); without ``bwrap``
        installed the bot runs with the limits alone and a ``RuntimeWarning`` says so.
    grace : float
        Seconds the bot and its children get to exit after ``SIGTERM``.
    """

    limits: BotLimits = field(default_factory=BotLimits)
    env: Mapping[str, str] = field(default_factory=dict)
    sandbox: bool = False
    grace: float = 0.2


def bwrap_path() -> str | None:
    """Where ``bwrap`` (Debian's ``bubblewrap``) is installed, or None."""
    return shutil.which("bwrap")


def sandbox_note() -> str | None:
    """None when ``--sandbox`` can be honoured, else the sentence that says why not."""
    if bwrap_path() is None:
        return (
            "bubblewrap (bwrap) is not installed: bots run with the resource limits "
            "alone, as you, able to read your files and signal your processes "
            "(apt-get install bubblewrap)"
        )
    return None


def bot_environment(
    folder: str | os.PathLike[str],
    extra: Mapping[str, str] | None = None,
    token: str = "",
    source: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The environment of a bot running in ``folder``.

    The variables of :data:`ENV_ALLOWLIST` found in ``source`` (atlas's environment by
    default), ``HOME``, ``TMPDIR`` and ``PWD`` set to ``folder``, the watchdog's marker
    :data:`TOKEN_VARIABLE` (when ``token`` is given), then ``extra`` over all of them.
    """
    if source is None:
        from ..jit import numba_cache_folder

        numba_cache_folder()  # chosen now (NUMBA_CACHE_DIR) if numba was not loaded yet
    src = os.environ if source is None else source
    env = {k: src[k] for k in ENV_ALLOWLIST if k in src}
    env.setdefault("PATH", os.defpath)
    where = os.fspath(folder)
    env.update(HOME=where, TMPDIR=where, PWD=where)
    if token:
        env[TOKEN_VARIABLE] = token
    env.update(extra or {})
    return env


def make_bot_folder() -> Path:
    """A new private folder for a bot, under the system's temporary folder."""
    return Path(tempfile.mkdtemp(prefix="atlas-bot-"))


def remove_bot_folder(folder: Path) -> None:
    """Remove ``folder`` and all the bot left in it, read-only folders included (as the
    bot's supervisor does when the bot ends)."""
    from ._supervisor import remove_tree

    remove_tree(str(folder))


def bwrap_argv(
    bwrap: str,
    folder: Path,
    argv: Sequence[str],
    visible: Iterable[str] = (),
    workdir: str | None = None,
) -> list[str]:
    """The ``bwrap`` command line that runs ``argv`` sandboxed, in ``folder``.

    New PID, mount, network, IPC, UTS (and user, where allowed) namespaces; the whole
    file system read-only; an empty ``/tmp`` (and an empty system temporary folder,
    where the other bots' folders are) with ``folder`` writable in it; a fresh
    ``/proc`` and a minimal ``/dev``; a new session; ``bwrap`` dies with its parent.
    ``visible`` are paths the bot must still read (its program): those under the hidden
    temporary folders are bound read-only, with the folder that holds them (so a
    program finds the modules beside it), unless that folder is a hidden one itself.
    ``workdir``, a working folder other than ``folder`` (a player's own folder), is
    bound read-only and the bot starts there.
    """
    hidden = ["/tmp"]
    tmp = os.path.realpath(tempfile.gettempdir())
    if tmp != "/tmp":
        hidden.append(tmp)
    cmd = [
        bwrap,
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
    ]
    for h in hidden:
        cmd += ["--tmpfs", h]
    bound: list[str] = []

    def under_hidden(path: str) -> bool:
        return any(path.startswith(h.rstrip("/") + "/") for h in hidden)

    # The interpreter's environment and atlas itself stay readable when they live in a
    # temporary folder (a virtual environment or a clone under /tmp): bots are often
    # Python programs run with this very interpreter, which may be a link into it.
    for path in _runtime_folders():
        if under_hidden(path) and not any(path.startswith(b + "/") for b in bound):
            bound.append(path)
            cmd += ["--ro-bind", path, path]
    for given in visible:
        if not os.path.isabs(given) or not os.path.exists(given):
            continue
        # both the path as given (a link the command names) and where it leads
        for path in dict.fromkeys([os.path.abspath(given), os.path.realpath(given)]):
            if not under_hidden(path):
                continue
            holder = path if os.path.isdir(path) else os.path.dirname(path)
            if holder in hidden or os.path.basename(holder).startswith("atlas-bot-"):
                holder = path
            if holder not in bound and not any(holder.startswith(b + "/") for b in bound):
                bound.append(holder)
                cmd += ["--ro-bind", holder, holder]
    where = os.fspath(folder)
    cmd += ["--bind", where, where]
    if workdir is not None:
        cmd += ["--ro-bind", workdir, workdir]
    cmd += ["--chdir", workdir if workdir is not None else where, "--"]
    return cmd + list(argv)


def _runtime_folders() -> list[str]:
    """The running interpreter's environment and the folder atlas is imported from."""
    folders = [os.path.abspath(sys.prefix), os.path.realpath(sys.prefix)]
    folders.append(os.fspath(Path(__file__).resolve().parents[2]))
    return [f for f in dict.fromkeys(folders) if f not in ("/", "/tmp")]


_SIZE = re.compile(r"\s*([0-9]{1,15})\s*([kmgt]?)(i?b)?\s*", re.IGNORECASE)


def parse_size(text: str) -> int | None:
    """Bytes written as ``4294967296``, ``4G``, ``512M``, ``64KiB``; None if not a size.

    >>> parse_size("2G")
    2147483648
    """
    m = _SIZE.fullmatch(text)
    if not m:
        return None
    return int(m.group(1)) * int(1024 ** "_kmgt".index(m.group(2).lower() or "_"))


def _whole(text: str) -> int | None:
    t = text.strip()
    return int(t) if re.fullmatch(r"[0-9]{1,15}", t) else None


def containments(
    seats: int,
    *,
    sandbox: bool = False,
    limits: Sequence[str] = (),
    env: Sequence[str] = (),
    source: Mapping[str, str] | None = None,
) -> list[Containment]:
    """One :class:`Containment` per seat, from command-line style options.

    Parameters
    ----------
    seats : int
        Seats of the game.
    sandbox : bool
        ``--sandbox``: every external bot runs under ``bwrap`` where it is installed.
    limits : sequence of str
        ``[SEAT:]NAME=VALUE``: a limit of :class:`BotLimits` (``memory=2G``,
        ``2:cpu=60``, ``file-size=none``) for every seat, or for seat SEAT (1-based).
    env : sequence of str
        ``[SEAT:]KEY=VALUE`` adds a variable to the bot's environment, ``[SEAT:]KEY``
        passes atlas's own value of KEY (from ``source``, atlas's environment by default).

    Raises
    ------
    BotError
        A malformed option, an unknown limit or a seat out of range.
    """
    src = os.environ if source is None else source
    per_seat = [BotLimits() for _ in range(seats)]
    extra: list[dict[str, str]] = [{} for _ in range(seats)]
    for text in limits:
        targets, body = _seat_prefix(text, seats, "--limit")
        name, sep, value = body.partition("=")
        if not sep:
            raise BotError(f"--limit expects [SEAT:]NAME=VALUE, got {text!r}")
        for k in targets:
            per_seat[k] = per_seat[k].with_option(name.strip(), value)
    for text in env:
        targets, body = _seat_prefix(text, seats, "--bot-env")
        key, sep, value = body.partition("=")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
            raise BotError(f"--bot-env expects [SEAT:]KEY=VALUE or [SEAT:]KEY, got {text!r}")
        if not sep:
            if key not in src:
                raise BotError(f"--bot-env {key}: atlas's environment has no {key}")
            value = src[key]
        for k in targets:
            extra[k][key] = value
    return [Containment(per_seat[k], extra[k], sandbox) for k in range(seats)]


def _seat_prefix(text: str, seats: int, option: str) -> tuple[list[int], str]:
    head, sep, body = text.partition(":")
    if sep and re.fullmatch(r"[0-9]{1,3}", head):
        seat = int(head)
        if not 1 <= seat <= seats:
            raise BotError(
                f"{option} {text!r}: seat {seat} does not exist; seats are 1..{seats}"
            )
        return [seat - 1], body
    return list(range(seats)), text


def warn_without_sandbox() -> None:
    """Warn once that ``sandbox=True`` runs with the limits alone (no ``bwrap``)."""
    note = sandbox_note()
    if note is not None:
        warnings.warn(note, RuntimeWarning, stacklevel=3)
