"""External bots: programs that play through stdin and stdout, and built-in bots served as such.

Each external bot is a subprocess started in a session of its own (its own process
group), spoken to over its stdin and stdout only; what it writes to stderr is kept,
truncated, for the record (private: never published raw).  Every read and write runs
against the move's deadline, every turn reads at most :data:`MAX_TURN_BYTES` bytes, and
:meth:`ExternalBot.close` always leaves no process behind (end of file, then ``SIGTERM``
then ``SIGKILL`` to the whole process group).

A failure is raised as :class:`BotFailure` carrying a record status (``crashed``,
``timeout``, ``invalid``); the runner turns it into data.  The three protocols, described
for bot authors in ``docs/protocols.md``:

tron
    The official 2010 protocol byte for byte (``../shared/data/tron-official.md``): each
    turn ``"W H\\n"`` and H rows, ``#`` for walls and trails, ``1`` the receiving bot's
    head, ``2`` the opponent's; the answer is one digit 1-4, other bytes are skipped and
    unread bytes stay for the next turn.
connect5
    A GTP dialect (``boardsize COLS ROWS``, ``inarow N``, ``clear_board``, ``play``,
    ``genmove``, ``quit``); black is seat 0; columns are 1-based.
isolation, outpost
    JSON lines: a ``start`` message, then one ``turn`` message per move, each answered
    by one line ``{"move": ...}``.

The other side of each protocol, a built-in bot run as such a program (``atlas bot GAME
NAME``), is :mod:`atlas.arena.serve`.
"""

from __future__ import annotations

import dataclasses
import json
import os
import select
import shlex
import signal
import subprocess
import threading
import time
from typing import Any, BinaryIO, Mapping, Sequence

import numpy as np

from ..errors import BotError, InvalidMoveError
from ..maps import GameMap, format_map

__all__ = [
    "BotFailure",
    "BotProcess",
    "ExternalBot",
    "TronProtocolBot",
    "GtpBot",
    "JsonLinesBot",
    "external_bot",
    "tron_board_text",
    "state_to_json",
    "state_from_json",
    "MAX_TURN_BYTES",
    "FIRST_MOVE_TIME",
]

#: Bytes read from a bot in one turn before it is judged to flood its output.
MAX_TURN_BYTES = 64 * 1024
#: Bytes of stderr kept per bot (more is read and dropped so the bot never blocks).
STDERR_KEEP = 64 * 1024
#: Seconds allowed for an external bot's first move (start-up included), like the engine.
FIRST_MOVE_TIME = 3.0
#: Seconds a bot gets to exit by itself after end of file, then after ``SIGTERM``.
EXIT_GRACE = 0.2
#: Tron answers: the digit byte -> direction (1 N, 2 E, 3 S, 4 W).
TRON_DIGITS = {ord("1"): 1, ord("2"): 2, ord("3"): 3, ord("4"): 4}
#: Characters of the official tron board.
TRON_WALL, TRON_FREE, TRON_ME, TRON_OPPONENT = "#", " ", "1", "2"


class BotFailure(BotError):
    """A bot gave no valid answer; ``status`` is a record status, ``detail`` says why."""

    def __init__(self, status: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


# --------------------------------------------------------------------------- the process


class BotProcess:
    """A child process with deadline-bounded pipes and a bounded stderr keeper.

    Parameters
    ----------
    argv : sequence of str
        The command, run without a shell in a new session (its own process group).
    max_turn_bytes : int
        Cap on the bytes :meth:`read_answer` consumes in one call.
    """

    def __init__(self, argv: Sequence[str], *, max_turn_bytes: int = MAX_TURN_BYTES) -> None:
        if not argv:
            raise BotFailure("crashed", "empty command line")
        try:
            self.proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         bufsize=0, close_fds=True, start_new_session=True)
        except OSError as exc:
            raise BotFailure("crashed", f"cannot start {argv[0]!r}: "
                                        f"{exc.strerror or exc}") from None
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self.max_turn_bytes = max_turn_bytes
        self.buffer = bytearray()
        self._eof = False
        self._err = bytearray()
        self._err_total = 0
        self._err_thread = threading.Thread(target=self._keep_stderr, daemon=True)
        self._err_thread.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _keep_stderr(self) -> None:
        stream: BinaryIO = self.proc.stderr  # type: ignore[assignment]
        try:
            while chunk := stream.read(4096):
                self._err_total += len(chunk)
                room = STDERR_KEEP - len(self._err)
                if room > 0:
                    self._err += chunk[:room]
        except (OSError, ValueError):
            pass

    def stderr_text(self) -> str:
        """What the bot wrote to stderr so far (the first :data:`STDERR_KEEP` bytes)."""
        text = bytes(self._err).decode("utf-8", "replace")
        text = "".join(ch for ch in text if ch in "\n\t" or ch.isprintable())
        dropped = self._err_total - len(self._err)
        return text + (f"\n[... {dropped} more bytes dropped ...]" if dropped > 0 else "")

    def write(self, data: bytes, deadline: float) -> None:
        """Write all of ``data`` before ``deadline`` or raise :class:`BotFailure`."""
        view = memoryview(data)
        while view:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise BotFailure("timeout", "did not read its input in time")
            try:
                if _wait(self._in, select.POLLOUT, left):
                    view = view[os.write(self._in, view):]
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError):
                raise BotFailure("crashed", self._exit_detail("closed its input")) from None

    def _fill(self, deadline: float) -> bool:
        """Read more bytes into the buffer; False when the deadline passed first."""
        left = deadline - time.perf_counter()
        if left <= 0:
            return False
        if not _wait(self._out, select.POLLIN, left):
            return False
        try:
            chunk = os.read(self._out, 65536)
        except BlockingIOError:
            return True
        except OSError:
            chunk = b""
        if not chunk:
            self._eof = True
            raise BotFailure("crashed", self._exit_detail("exited"))
        self.buffer += chunk
        return True

    def read_answer(self, parse: Any, deadline: float, what: str) -> Any:
        """Consume bytes until ``parse(buffer)`` finds an answer.

        ``parse`` returns ``(value, consumed)`` with ``value`` None while incomplete;
        ``consumed`` bytes are dropped from the buffer either way.  Raises
        :class:`BotFailure`: ``timeout`` (nothing usable in time; ``invalid`` if bytes
        came but none made an answer), ``invalid`` (more than ``max_turn_bytes``
        without an answer), ``crashed`` (the process exited).
        """
        seen = 0
        while True:
            value, used = parse(self.buffer)
            seen += used
            del self.buffer[:used]
            if value is not None:
                return value
            if seen + len(self.buffer) > self.max_turn_bytes:
                raise BotFailure("invalid", f"flooded its output: more than "
                                            f"{self.max_turn_bytes} bytes without {what}")
            if self._eof:
                raise BotFailure("crashed", self._exit_detail("exited"))
            if not self._fill(deadline):
                if seen or self.buffer:
                    raise BotFailure("invalid", f"wrote {seen + len(self.buffer)} bytes but "
                                                f"no {what} in time")
                raise BotFailure("timeout", f"no {what} in time")

    def _exit_detail(self, what: str) -> str:
        try:
            code = self.proc.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            return what
        if code < 0:
            try:
                return f"{what}: killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"{what}: killed by signal {-code}"
        return f"{what} with status {code}"

    def close(self) -> None:
        """End the bot: end of file, then ``SIGTERM``, then ``SIGKILL`` to its group."""
        proc = self.proc
        try:
            proc.stdin.close()  # type: ignore[union-attr]
        except OSError:
            pass
        try:
            proc.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            _signal_group(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=EXIT_GRACE)
            except subprocess.TimeoutExpired:
                pass
        _signal_group(proc.pid, signal.SIGKILL)  # the leader and anything it started
        proc.wait()
        self._err_thread.join(timeout=1.0)
        for stream in (proc.stdout, proc.stderr):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass


def _wait(fd: int, event: int, seconds: float) -> bool:
    """Whether ``fd`` is ready for ``event`` (or hung up) within ``seconds``."""
    poller = select.poll()
    poller.register(fd, event)
    return bool(poller.poll(max(0, int(seconds * 1000 + 0.999))))


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


# --------------------------------------------------------------------------- bots


class ExternalBot:
    """A bot that is a program; subclasses speak one protocol.

    The process starts in :meth:`start`; everything it is told happens inside
    :meth:`move`, against the deadline.  ``first_move_time`` is the allowance the
    runner gives the first move (start-up included).
    """

    protocol = ""

    def __init__(self, game: str, command: str | Sequence[str], *, name: str | None = None,
                 first_move_time: float = FIRST_MOVE_TIME,
                 max_turn_bytes: int = MAX_TURN_BYTES) -> None:
        self.game = game
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.command = command if isinstance(command, str) else shlex.join(self.argv)
        self.name = name or (os.path.basename(self.argv[0]) if self.argv else "external")
        self.first_move_time = first_move_time
        self.max_turn_bytes = max_turn_bytes
        self.process: BotProcess | None = None
        self.game_map: GameMap | None = None
        self.params: dict[str, Any] = {}
        self.player = 0

    def start(self, game_map: GameMap, params: Mapping[str, Any] | None, player: int) -> None:
        self.game_map, self.params, self.player = game_map, dict(params or {}), player
        self.process = BotProcess(self.argv, max_turn_bytes=self.max_turn_bytes)

    def _proc(self) -> BotProcess:
        if self.process is None:
            raise BotFailure("crashed", "the bot was not started")
        return self.process

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def stderr_text(self) -> str:
        return "" if self.process is None else self.process.stderr_text()

    def close(self) -> None:
        if self.process is not None:
            self.process.close()

    def move(self, state: Any, player: int, deadline: float) -> Any:
        raise NotImplementedError


def tron_board_text(state: Any, player: int) -> str:
    """The board the official engine sends to ``player``: ``"W H\\n"`` and H rows.

    ``#`` for every blocked cell (walls and trails), space for free, ``1`` the head of
    ``player`` and ``2`` the opponent's (so seat 1 sees the labels swapped).
    """
    blocked = np.asarray(state.blocked, dtype=np.bool_)
    h, w = blocked.shape
    chars = np.where(blocked, TRON_WALL, TRON_FREE).astype("<U1")
    heads = np.asarray(state.heads)
    for seat, label in ((1 - player, TRON_OPPONENT), (player, TRON_ME)):
        r, c = int(heads[seat, 0]), int(heads[seat, 1])
        if 0 <= r < h and 0 <= c < w:
            chars[r, c] = label
    return f"{w} {h}\n" + "".join("".join(row) + "\n" for row in chars)


def _parse_tron_digit(buf: bytearray) -> tuple[int | None, int]:
    for i, b in enumerate(buf):
        if b in TRON_DIGITS:
            return TRON_DIGITS[b], i + 1
    return None, len(buf)


class TronProtocolBot(ExternalBot):
    """A 2010 contest bot: the official protocol, one digit per turn."""

    protocol = "tron-official"

    def move(self, state: Any, player: int, deadline: float) -> int:
        proc = self._proc()
        proc.write(tron_board_text(state, player).encode("ascii"), deadline)
        return proc.read_answer(_parse_tron_digit, deadline, "direction digit 1-4")


def _parse_gtp(buf: bytearray) -> tuple[tuple[bool, str] | None, int]:
    text = bytes(buf).replace(b"\r", b"")
    # skip blank lines before a response, then wait for the blank line closing it
    start = len(text) - len(text.lstrip(b"\n"))
    end = text.find(b"\n\n", start)
    if end < 0:
        return None, 0
    raw_used = _raw_length(buf, end + 2)
    body = text[start:end].decode("utf-8", "replace")
    if body[:1] not in ("=", "?"):
        raise BotFailure("invalid", f"not a GTP response: {body[:40]!r}")
    content = body[1:].lstrip("0123456789").strip()  # drop an optional id
    return (body[0] == "=", content), raw_used


def _raw_length(buf: bytearray, clean_len: int) -> int:
    """Bytes of ``buf`` that make ``clean_len`` bytes once ``\\r`` is removed."""
    n = 0
    for i, b in enumerate(buf):
        if b != 13:
            n += 1
            if n == clean_len:
                return i + 1
    return len(buf)


COLOURS = ("black", "white")


class GtpBot(ExternalBot):
    """A connect5 engine speaking atlas's GTP dialect (see ``docs/protocols.md``)."""

    protocol = "gtp"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._known: np.ndarray | None = None

    def _command(self, line: str, deadline: float, *, required: bool = True) -> str:
        proc = self._proc()
        proc.write((line + "\n").encode("ascii"), deadline)
        ok, content = proc.read_answer(_parse_gtp, deadline, f"GTP response to {line!r}")
        if not ok and required:
            raise BotFailure("invalid", f"refused {line!r}: {content[:80]}")
        return content if ok else ""

    def close(self) -> None:
        """Say ``quit`` (without waiting for the answer), then end the process."""
        if self.process is not None and self._known is not None:
            try:
                self.process.write(b"quit\n", time.perf_counter() + 0.05)
            except BotFailure:
                pass
        super().close()

    def move(self, state: Any, player: int, deadline: float) -> int:
        board = np.asarray(state.board)
        rows, cols = board.shape
        if self._known is None:
            inarow = int(getattr(state, "inarow", self.params.get("inarow", 5)))
            self._command(f"boardsize {cols} {rows}", deadline)
            self._command(f"inarow {inarow}", deadline, required=inarow != 5)
            self._command("clear_board", deadline)
            self._known = np.zeros_like(board)
        changed = np.argwhere(board != self._known)
        for r, c in sorted(changed.tolist(), key=lambda rc: (-rc[0], rc[1])):
            colour = COLOURS[int(board[r, c]) - 1]
            self._command(f"play {colour} {c + 1}", deadline)
        answer = self._command(f"genmove {COLOURS[player]}", deadline).split()
        word = answer[0].lower() if answer else ""
        if not word.lstrip("-").isdigit():
            raise BotFailure("invalid", f"genmove answered {' '.join(answer)[:40]!r}, "
                                        "not a column number")
        column = int(word) - 1
        from ..sim import get_game

        try:
            self._known = np.asarray(get_game("connect5").apply(state, {player: column}).board)
        except (ValueError, IndexError):
            self._known = board.copy()  # the runner will judge the move illegal
        return column


def _grid_rows(grid: np.ndarray) -> list[str]:
    return ["".join("#" if v else "." for v in row) for row in grid]


def state_to_json(state: Any) -> dict[str, Any]:
    """A game state as the plain JSON data of the JSON-lines protocol.

    tron, isolation, connect5: every field of the state's dataclass, boolean grids as
    lists of row strings (``#`` blocked, ``.`` free), arrays as nested lists.  outpost:
    the documented view (``docs/protocols.md``): ``turn``, ``outposts`` per empire,
    ``owner`` as a ``[row, col]`` grid, ``land``, ``water``, ``disputed``, ``afford``,
    ``pending``, ``built``, ``skip``; the map and parameters are in the start message.
    """
    if type(state).__name__ == "OutpostState":
        return {"turn": int(state.turn),
                "outposts": [np.asarray(a).tolist() for a in state.outposts],
                "owner": np.asarray(state.owner).tolist(),
                "land": _to_json(np.asarray(state.land)),
                "water": _to_json(np.asarray(state.water_count)),
                "disputed": _to_json(np.asarray(state.disputed)),
                **{k: [_to_json(v) for v in getattr(state, k)]
                   for k in ("afford", "pending", "built", "skip")}}
    return {f.name: _to_json(getattr(state, f.name)) for f in dataclasses.fields(state)}


def _to_json(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        if value.dtype == np.bool_ and value.ndim == 2:
            return _grid_rows(value)
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [_to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _to_json(v) for k, v in value.items()}
    return value


def state_from_json(template: Any, data: Mapping[str, Any]) -> Any:
    """Inverse of :func:`state_to_json`, taking types, dtypes and static fields from
    ``template`` (a state of the same game and map, e.g. the initial one)."""
    state = template.copy()
    if type(state).__name__ == "OutpostState":
        return _outpost_from_json(state, data)
    values = {f.name: _from_json(getattr(state, f.name), data[f.name])
              for f in dataclasses.fields(state) if f.name in data}
    return dataclasses.replace(state, **values)


def _outpost_from_json(state: Any, data: Mapping[str, Any]) -> Any:
    names = {f.name for f in dataclasses.fields(state)}
    values: dict[str, Any] = {"turn": int(data["turn"])}
    posts = [np.asarray(p, dtype=np.int32).reshape(-1, 2) for p in data["outposts"]]
    counts = np.stack([np.asarray(data[k], dtype=np.int64)
                       for k in ("land", "water", "disputed")], axis=1)
    if "rc" in names:  # one array of every outpost and the empires' start offsets
        values["rc"] = np.concatenate(posts).astype(state.rc.dtype)
        values["starts"] = np.concatenate([[0], np.cumsum([len(p) for p in posts])]
                                          ).astype(state.starts.dtype)
    else:
        values["outposts"] = posts
    if "counts" in names:
        values["counts"] = counts.astype(state.counts.dtype)
    else:
        values.update(land=counts[:, 0], water_count=counts[:, 1], disputed=counts[:, 2])
    for key in ("afford", "pending", "built", "skip"):
        values[key] = _from_json(getattr(state, key), data[key])
    state.owner[...] = np.asarray(data["owner"], dtype=state.owner.dtype)
    return dataclasses.replace(state, **values)


def _from_json(like: Any, value: Any) -> Any:
    if isinstance(like, np.ndarray):
        if like.dtype == np.bool_ and like.ndim == 2 and value and isinstance(value[0], str):
            return np.array([[ch == "#" for ch in row] for row in value], dtype=np.bool_)
        return np.array(value, dtype=like.dtype)
    if isinstance(like, np.generic):
        return type(like)(value)
    if isinstance(like, list) and like and isinstance(like[0], np.ndarray):
        return [np.asarray(v, dtype=like[0].dtype).reshape((-1,) + like[0].shape[1:])
                for v in value]
    if isinstance(like, tuple):
        if like and len(like) == len(value):
            return tuple(_from_json(a, b) for a, b in zip(like, value))
        return tuple(value)
    if isinstance(like, bool):
        return bool(value)
    if isinstance(like, int):
        return int(value)
    return value


class JsonLinesBot(ExternalBot):
    """An isolation or outpost bot speaking atlas's JSON-lines protocol."""

    protocol = "jsonl"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._started = False

    def _send(self, message: Mapping[str, Any], deadline: float) -> None:
        line = json.dumps(message, separators=(",", ":")) + "\n"
        self._proc().write(line.encode("utf-8"), deadline)

    def move(self, state: Any, player: int, deadline: float) -> Any:
        from ..sim import get_game

        game = get_game(self.game)
        if not self._started:
            assert self.game_map is not None
            self._send({"type": "start", "game": self.game, "seat": player,
                        "players": game.info.num_players, "map_name": self.game_map.name,
                        "map": format_map(self.game_map), "params": self.params}, deadline)
            self._started = True
        message: dict[str, Any] = {"type": "turn", "turn": int(state.turn), "seat": player,
                                   "time": round(max(0.0, deadline - time.perf_counter()), 4),
                                   "state": state_to_json(state)}
        message.update(_legal_json(self.game, game, state, player))
        self._send(message, deadline)
        line = self._proc().read_answer(_parse_line, deadline, "answer line")
        try:
            data = json.loads(line)
        except ValueError:
            raise BotFailure("invalid", f"answer is not JSON: {line[:40]!r}") from None
        if not isinstance(data, dict) or "move" not in data:
            raise BotFailure("invalid", f"answer has no 'move': {line[:40]!r}")
        try:
            return game.move_from_json(data["move"])
        except (InvalidMoveError, ValueError, TypeError) as exc:
            raise BotFailure("invalid", f"cannot read the move: {exc}") from None


def _legal_json(game_name: str, game: Any, state: Any, player: int) -> dict[str, Any]:
    """What a turn message says about the expected answer (see docs/protocols.md)."""
    legal = game.legal_moves(state, player)
    if game_name == "isolation":
        return {"expect": "cell", "legal": [game.move_to_json(m) for m in legal]}
    if bool(np.any(state.pending)):
        return {"expect": "disband", "legal": [int(i) for i in legal]}
    return {"expect": "steps", "legal": [[int(i), [int(r), int(c)]] for i, (r, c) in legal]}


def _parse_line(buf: bytearray) -> tuple[str | None, int]:
    end = buf.find(b"\n")
    if end < 0:
        return None, 0
    line = bytes(buf[:end]).decode("utf-8", "replace").strip()
    return (line or None), end + 1


#: game -> protocol class.
PROTOCOLS: dict[str, type[ExternalBot]] = {
    "tron": TronProtocolBot,
    "connect5": GtpBot,
    "isolation": JsonLinesBot,
    "outpost": JsonLinesBot,
}


def external_bot(game: str, command: str | Sequence[str], **kwargs: Any) -> ExternalBot:
    """The external bot running ``command`` (a shell-like string, split without a shell)
    with the protocol of ``game``."""
    try:
        cls = PROTOCOLS[game]
    except KeyError:
        raise BotError(f"no external protocol for game {game!r}") from None
    try:
        return cls(game, command, **kwargs)
    except ValueError as exc:  # shlex: no closing quotation
        raise BotError(f"cannot split the command line {command!r}: {exc}") from None
