"""numba's ``njit``, with numba imported only when a kernel is first compiled.

Importing numba costs about half a second (a second on a loaded machine), more than
``atlas validate`` or ``atlas analyze`` of a small map needs for the whole analysis.  A
module whose kernels should not cost that at import writes::

    from ..jit import numba          # instead of: import numba

    @numba.njit(cache=True)
    def kernel(...): ...

and gets a :class:`LazyKernel`: the plain function until it is first called compiled,
then numba's dispatcher (``cache=True`` finds the same cache files as before).  Inside
other compiled code a lazy kernel is the dispatcher itself (numba asks its
``_numba_type_``; ``inline="always"`` works through ``targetoptions`` and ``py_func``).

Within :func:`interpreted`, lazy kernels run as plain Python (``kernel.py_func``):
without numba at all, which is faster for a one-shot analysis of a small map than
loading numba (``atlas analyze``, ``atlas validate``; ``benchmarks/bench_startup.py``
measures both).

numba's cache
-------------
numba keeps a ``cache=True`` kernel's compiled code with a stamp of the kernel's own
file only: a kernel that calls a kernel of another module would keep its old copy of
the callee after that module changes, and a global of another module is frozen into the
compiled code.  So atlas points numba's cache (``NUMBA_CACHE_DIR``) at a folder of its
own, keyed by atlas's version and a hash of every module compiled code can see
(:func:`compiled_sources`): ``~/.cache/atlas/numba/<version>-<hash>`` (or under
``$XDG_CACHE_HOME``).  Editing any kernel, a constant a kernel reads, or upgrading atlas
starts a fresh folder; older folders are pruned (:func:`prune_caches`).  ``import atlas``
installs :func:`install_numba_cache_hook`, which chooses the folder the moment numba is
first imported, by any module: every kernel of atlas, and of any process atlas starts
(pool workers, Dask workers, served bots inherit ``NUMBA_CACHE_DIR``), uses it.

Kernel builders
---------------
One algorithm with several instances (an alpha-beta search over each game's moves, a
Hopcroft-Tarjan walk with what each caller does on a block) is written once, as a
builder: a function whose inner function calls the kernels it is given, compiled by
:func:`built` as a kernel of its own (numba treats the kernels a closure holds as
constants, and calls them as it calls any kernel: inlined or linked, never through a
pointer).  numba keys a cached closure by the pickled kernels it holds, so a lazy
kernel pickles as its name (:meth:`LazyKernel.__reduce__`): the same instance built in
another process finds its cached code.  (numba's own dispatchers pickle with a random
id, and a kernel passed as an argument is typed by the dispatcher object: either way
every process would compile again.)

Types: the kernels are untyped on purpose.  numba infers their types from the arguments
of each call, which mypy cannot follow; :func:`njit` returns ``Any``, and each kernel
``def`` in a strictly checked module says ``# type: ignore[no-untyped-def]``.  The
public function in front of a kernel checks and converts its input and is fully typed.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

__all__ = [
    "LazyKernel",
    "njit",
    "built",
    "kernel_named",
    "numba",
    "interpreted",
    "is_interpreted",
    "compiled_sources",
    "source_key",
    "cache_base",
    "use_numba_cache",
    "set_cache_dir",
    "numba_cache_folder",
    "install_numba_cache_hook",
    "prune_caches",
    "INTERPRET_MAX_CELLS",
    "CompileNotice",
    "compile_notice",
]

_LOCK = threading.RLock()
_STATE = threading.local()
#: The kernels made by builders (:func:`built`), by name.
_BUILT: dict[str, LazyKernel] = {}


def is_interpreted() -> bool:
    """Whether lazy kernels run as plain Python in this thread (:func:`interpreted`)."""
    return getattr(_STATE, "depth", 0) > 0


@contextlib.contextmanager
def interpreted(on: bool = True) -> Iterator[None]:
    """Within this block (in this thread), lazy kernels run as plain Python, and numba
    is not imported for them; ``on=False`` leaves them compiled (a no-op block)."""
    if not on:
        yield
        return
    import numpy as np

    _STATE.depth = getattr(_STATE, "depth", 0) + 1
    try:
        # Kernels index with uint64 arithmetic that wraps around on purpose (a step of
        # -1 is 2**64 - 1); compiled code wraps silently, numpy's scalars warn.
        with np.errstate(over="ignore"):
            yield
    finally:
        _STATE.depth -= 1


class LazyKernel:
    """A kernel compiled with ``numba.njit(**options)`` on first compiled use.

    Attributes
    ----------
    py_func : callable
        The plain Python function.
    name : str
        ``module.qualified_name`` of a module's kernel, or the name a builder gave it
        (:func:`built`): what the kernel pickles as.
    """

    def __init__(
        self, func: Callable[..., Any], options: dict[str, Any], name: str | None = None
    ) -> None:
        self.py_func = func
        self._options = options
        self._dispatcher: Any = None
        functools.update_wrapper(self, func)
        self.name = name if name is not None else f"{func.__module__}.{func.__qualname__}"

    def __reduce__(self) -> tuple[Callable[[str], LazyKernel], tuple[str]]:
        """Pickled as its name, the same in every process (see the module notes)."""
        return kernel_named, (self.name,)

    @property
    def dispatcher(self) -> Any:
        """numba's dispatcher of the kernel (numba is imported here, once)."""
        if self._dispatcher is None:
            with _LOCK:
                if self._dispatcher is None:
                    self._dispatcher = _make_dispatcher(self.py_func, self._options)
        return self._dispatcher

    @property
    def compiled(self) -> bool:
        """Whether numba's dispatcher has been made (not whether it has compiled)."""
        return self._dispatcher is not None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if is_interpreted():
            return self.py_func(*args, **kwargs)
        return self.dispatcher(*args, **kwargs)

    @property
    def _numba_type_(self) -> Any:
        from numba.core import types

        return types.Dispatcher(self.dispatcher)

    @property
    def targetoptions(self) -> dict[str, Any]:
        options: dict[str, Any] = self.dispatcher.targetoptions
        return options

    def __getattr__(self, name: str) -> Any:  # signatures, inspect_types, ...
        if name.startswith("__") or name in ("_dispatcher", "_options", "py_func", "name"):
            raise AttributeError(name)
        return getattr(self.dispatcher, name)

    def __repr__(self) -> str:
        return f"<lazy kernel {self.py_func.__module__}.{self.py_func.__qualname__}>"


_DISPATCHER: Any = None


def _dispatcher_class() -> Any:
    """numba's CPU dispatcher, compiling one version per type for calls from compiled
    code: a constant argument (``f(grid, 0, True)``) would otherwise be typed as its
    literal value (``Literal[int](0)``), and each call site with other constants would
    compile the kernel again (the tron bots' chamber walk was compiled ten times)."""
    global _DISPATCHER
    if _DISPATCHER is None:
        import importlib

        from numba.core.registry import CPUDispatcher

        unliteral: Any = importlib.import_module("numba.core.types").unliteral

        class Dispatcher(CPUDispatcher):
            def get_call_template(self, args: Any, kws: Any) -> Any:
                args = tuple(unliteral(a) for a in args)
                kws = {k: unliteral(v) for k, v in kws.items()}
                return super().get_call_template(args, kws)

        _DISPATCHER = Dispatcher
    return _DISPATCHER


def _make_dispatcher(func: Callable[..., Any], options: dict[str, Any]) -> Any:
    """``numba.njit(**options)(func)`` as :func:`_dispatcher_class` (numba is imported
    here)."""
    targetoptions = dict(options)
    cache = targetoptions.pop("cache", False)
    local_types = targetoptions.pop("locals", {})
    targetoptions.setdefault("boundscheck", None)
    targetoptions["nopython"] = True
    dispatcher = _dispatcher_class()(
        py_func=func, locals=dict(local_types), targetoptions=targetoptions
    )
    if cache:
        dispatcher.enable_caching()
    return dispatcher


def njit(*args: Any, **options: Any) -> Any:
    """``numba.njit`` made lazy: ``@njit`` or ``@njit(cache=True, ...)``."""
    if args and callable(args[0]) and len(args) == 1 and not options:
        return LazyKernel(args[0], {})
    if args:
        raise TypeError("njit takes its options as keywords (signatures are not lazy)")
    return lambda func: LazyKernel(func, options)


def built(func: Callable[..., Any], name: str, **options: Any) -> LazyKernel:
    """The kernel of ``func``, an inner function a kernel builder made, named ``name``.

    ``name`` must be unique in the process and the same in every process (a builder
    derives it from the names of the kernels it was given); the kernel pickles as it.
    A builder whose inner function calls itself (a recursive search) assigns the result
    to the name the inner function calls, so that the closure holds the kernel.

    Raises
    ------
    ValueError
        Another kernel was built under ``name``.
    """
    with _LOCK:
        if name in _BUILT:
            raise ValueError(f"a kernel named {name!r} was built already")
        kernel = _BUILT[name] = LazyKernel(func, options, name)
    return kernel


def kernel_named(name: str) -> LazyKernel:
    """The kernel called ``name`` (:attr:`LazyKernel.name`): one a builder made, or a
    module's own, imported."""
    import importlib

    hit = _BUILT.get(name)
    if hit is not None:
        return hit
    module, _, attr = name.rpartition(".")
    found = importlib.import_module(module)
    for part in attr.split("."):
        found = getattr(found, part)
    if not isinstance(found, LazyKernel):
        raise ValueError(f"{name!r} is not a kernel")
    return found


class _Numba:
    """The part of numba's namespace the lazy modules use: ``numba.njit``."""

    njit = staticmethod(njit)


#: Stands in for ``import numba`` in modules whose kernels load lazily.
numba = _Numba()


# --- numba's cache folder ----------------------------------------------------------

#: The newest cache folders :func:`prune_caches` keeps, however old.
KEEP_CACHES = 3
#: A cache folder used more recently than this (seconds) is never pruned: a process of
#: another checkout, or a long tournament, may still be writing to it.
PRUNE_AFTER = 24 * 3600.0

_PACKAGE_DIR = Path(__file__).resolve().parent
_FOLDER: Path | None = None


def _module_path(root: Path, package: str, module: str) -> Path | None:
    """The file of ``module`` when it belongs to ``package`` (whose folder is ``root``)."""
    if module != package and not module.startswith(package + "."):
        return None
    parts = module.split(".")[1:]
    base = root.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _module_name(root: Path, package: str, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([package, *parts])


#: An import statement at the start of a line (indented ones too): ``import a, b.c``,
#: ``from .x import y, z`` or ``from ..x import (y,\n z)``.
_IMPORT = (
    r"^[ \t]*(?:import[ \t]+([\w., \t]+)"
    r"|from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+))"
)
#: What makes a module one with kernels: it imports numba, or names ``njit``.
_COMPILES = r"^[ \t]*(?:import[ \t]+numba|from[ \t]+numba[\w.]*[ \t]+import)|\bnjit\b"


def _without_type_checking(text: str) -> str:
    """``text`` without its ``if TYPE_CHECKING:`` blocks: imports that never run."""
    import re

    lines = text.splitlines()
    out: list[str] = []
    block: int | None = None  # the indentation of the block's ``if`` while inside it
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if block is not None:
            if not line.strip() or indent > block:
                continue
            block = None
        if re.match(r"[ \t]*if[ \t]+(typing\.)?TYPE_CHECKING[ \t]*:", line):
            block = indent
            continue
        out.append(line)
    return "\n".join(out)


@functools.lru_cache(maxsize=1024)
def _imports(text: str, module: str, is_package: bool) -> frozenset[str]:
    """Absolute names of the modules ``text`` imports (relative imports resolved, and
    ``from X import y`` counted as both ``X`` and ``X.y``), inside functions too, but
    not those of ``if TYPE_CHECKING:`` blocks (they never run).  Remembered by text: a
    process that keys its sources again reads only the files that changed anew."""
    import re

    text = _without_type_checking(text)
    out: set[str] = set()
    here = module if is_package else module.rpartition(".")[0]
    for m in re.finditer(_IMPORT, text, re.MULTILINE):
        if m.group(1) is not None:
            out.update(n.split()[0] for n in m.group(1).split(",") if n.split())
            continue
        dots, name, names = m.group(2), m.group(3), m.group(4)
        if dots:
            level = len(dots)
            base = here.rsplit(".", level - 1)[0] if level > 1 else here
            target = f"{base}.{name}" if name else base
        else:
            target = name
        out.add(target)
        for item in names.strip("()").split(","):
            words = item.split()
            if words:
                out.add(f"{target}.{words[0]}")
    return frozenset(out)


def compiled_sources(root: Path = _PACKAGE_DIR, package: str = "atlas") -> list[Path]:
    """The modules of ``package`` whose code can end up in its compiled kernels.

    Every module with kernels (it imports numba or names ``njit``), every module of the
    package those import, transitively (a kernel calls their kernels and freezes their
    globals into its code), and the packages above them (run on import).  Sorted.
    Imports are read from the text, as lines starting with ``import`` or ``from``.
    """
    import re

    root = Path(root)
    texts = {
        path: path.read_text(encoding="utf-8", errors="replace") for path in root.rglob("*.py")
    }
    todo = sorted(p for p, text in texts.items() if re.search(_COMPILES, text, re.MULTILINE))
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen or path not in texts:
            continue
        seen.add(path)
        module = _module_name(root, package, path)
        parents = [module.rsplit(".", k)[0] for k in range(1, module.count(".") + 1)]
        for name in [*_imports(texts[path], module, path.name == "__init__.py"), *parents]:
            found = _module_path(root, package, name)
            if found is not None and found not in seen:
                todo.append(found)
    return sorted(seen)


def source_key(
    root: Path = _PACKAGE_DIR, package: str = "atlas", version: str | None = None
) -> str:
    """The name of the cache folder for these sources: ``<version>-<16 hex digits>``,
    a SHA-256 of the version and of each :func:`compiled_sources` file's path and bytes."""
    import hashlib

    if version is None:
        from ._version import __version__

        version = __version__
    root = Path(root)
    digest = hashlib.sha256(version.encode())
    for path in compiled_sources(root, package):
        digest.update(b"\0" + path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return f"{version}-{digest.hexdigest()[:16]}"


#: The variable that moves atlas's caches: numba's go to ``$ATLAS_CACHE_DIR/numba``.
CACHE_DIR_VARIABLE = "ATLAS_CACHE_DIR"
#: What the folders :func:`use_numba_cache` makes are called: ``<version>-<16 hex>``.
_KEY_NAME = r"[0-9A-Za-z.+!_]+-[0-9a-f]{16}"


def _is_key(name: str) -> bool:
    """Whether a folder's name is a key of atlas's (:func:`source_key`)."""
    import re

    return re.fullmatch(_KEY_NAME, name) is not None


def cache_base() -> Path:
    """Where atlas's numba caches live: ``$ATLAS_CACHE_DIR/numba`` when that is set,
    else ``$XDG_CACHE_HOME/atlas/numba``, by default ``~/.cache/atlas/numba``."""
    own = os.environ.get(CACHE_DIR_VARIABLE, "")
    if own:
        return Path(own).expanduser().absolute() / "numba"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "atlas" / "numba"


def _last_use(folder: Path) -> float:
    """The newest modification time of ``folder`` and the folders in it (numba writes
    one folder per source folder; :func:`use_numba_cache` touches the key's folder)."""
    times = [folder.stat().st_mtime]
    with contextlib.suppress(OSError):
        times += [p.stat().st_mtime for p in folder.iterdir() if p.is_dir()]
    return max(times)


def prune_caches(
    base: Path,
    keep: int = KEEP_CACHES,
    older_than: float = PRUNE_AFTER,
    now: float | None = None,
    spare: str = "",
) -> list[Path]:
    """Remove the cache folders of ``base`` beyond the ``keep`` most recently used,
    unless used within ``older_than`` seconds; ``spare`` (a key) is always kept.

    Only folders named like a key (``<version>-<16 hex digits>``) are touched.
    Returns the folders removed.
    """
    import re
    import shutil
    import time

    now = time.time() if now is None else now
    pattern = re.compile(_KEY_NAME)
    try:
        folders = [
            p
            for p in Path(base).iterdir()
            if p.is_dir() and not p.is_symlink() and pattern.fullmatch(p.name)
        ]
    except OSError:
        return []
    used = []
    for folder in folders:
        with contextlib.suppress(OSError):
            used.append((_last_use(folder), folder))
    used.sort(reverse=True)
    removed = []
    for last, folder in used[keep:]:
        if folder.name != spare and now - last > older_than:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _ready(folder: Path) -> bool:
    """Make ``folder`` (pruning its older siblings when it is new) and mark it used;
    whether numba can write there."""
    try:
        fresh = not folder.is_dir()
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
        if fresh:
            prune_caches(folder.parent, spare=folder.name)
        return os.access(folder, os.W_OK | os.X_OK)
    except OSError:
        return False


def use_numba_cache(
    root: Path = _PACKAGE_DIR,
    package: str = "atlas",
    version: str | None = None,
    base: Path | None = None,
) -> Path:
    """Point numba's cache at the folder keyed by ``package``'s compiled sources.

    Call it before numba compiles anything (atlas does, through
    :func:`install_numba_cache_hook`).  A ``NUMBA_CACHE_DIR`` that the caller set
    (a folder whose name is not a key of atlas's) is the caller's choice: it is kept
    as it is, nothing is pruned there, and numba's own stamps (each kernel's file) judge
    what in it is stale.  One inherited from a parent atlas process is kept when it is
    the folder of the same key (the parent ran the same sources); otherwise the folder
    is ``base / key`` (``base`` by default :func:`cache_base`, which
    ``ATLAS_CACHE_DIR`` moves), or one under the temporary folder when that cannot be
    written (a read-only home, a sandbox).  Sets ``NUMBA_CACHE_DIR`` (children inherit
    it) and, when numba is already loaded, its configuration; returns the folder.
    """
    global _FOLDER
    inherited = os.environ.get("NUMBA_CACHE_DIR", "")
    if inherited and not _is_key(Path(inherited).name):
        _FOLDER = Path(inherited)
        _configure(inherited)
        return _FOLDER
    key = source_key(root, package, version)
    folder = Path(inherited) if inherited else None
    if folder is None or folder.name != key or not _ready(folder):
        folder = (cache_base() if base is None else Path(base)) / key
        if not _ready(folder):
            import tempfile

            uid = os.getuid() if hasattr(os, "getuid") else 0
            folder = Path(tempfile.gettempdir()) / f"atlas-{uid}" / "numba" / key
            _ready(folder)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    _configure(str(folder))
    _FOLDER = folder
    return folder


def _configure(folder: str) -> None:
    """numba's cache folder, when numba is loaded (kernels made from now on use it)."""
    loaded = sys.modules.get("numba")
    if loaded is not None:
        loaded.config.CACHE_DIR = folder


def set_cache_dir(path: str | os.PathLike[str] | None) -> Path:
    """Keep atlas's compiled kernels under a folder of your choice.

    They go to ``path/numba/<key>``; with ``None``, to the default place again
    (:func:`cache_base`).  Returns the folder.

    The same as starting Python with ``ATLAS_CACHE_DIR=path``: it sets that variable
    (processes atlas starts inherit it) and points numba's cache (``NUMBA_CACHE_DIR``)
    at the new folder, replacing any folder chosen before, the caller's own
    ``NUMBA_CACHE_DIR`` included.  numba fixes a kernel's cache folder when the kernel
    is made, so call it before atlas analyses or plays anything: kernels made earlier
    keep their folder.

    Examples
    --------
    >>> import atlas, os, tempfile
    >>> before = os.environ.get("ATLAS_CACHE_DIR")
    >>> mine = tempfile.mkdtemp()
    >>> folder = atlas.set_cache_dir(mine)
    >>> folder.parent == Path(mine) / "numba", os.environ["NUMBA_CACHE_DIR"] == str(folder)
    (True, True)
    >>> folder = atlas.set_cache_dir(before)  # back where it was
    """
    global _FOLDER
    if path is None:
        os.environ.pop(CACHE_DIR_VARIABLE, None)
    else:
        os.environ[CACHE_DIR_VARIABLE] = str(Path(path).expanduser().absolute())
    os.environ.pop("NUMBA_CACHE_DIR", None)
    _FOLDER = None
    return use_numba_cache()


def numba_cache_folder() -> Path:
    """The folder of numba's cache in this process, chosen now if not yet."""
    return _FOLDER if _FOLDER is not None else use_numba_cache()


class _BeforeNumba:
    """A finder on ``sys.meta_path`` that chooses the cache folder when numba is first
    imported, then steps aside (it finds nothing itself)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "numba":
            with contextlib.suppress(ValueError):
                sys.meta_path.remove(self)
            if _FOLDER is None:
                use_numba_cache()
        return None


def install_numba_cache_hook() -> None:
    """Have numba's cache folder chosen before numba is imported (at once if it is)."""
    if "numba" in sys.modules:
        numba_cache_folder()
    elif not any(isinstance(f, _BeforeNumba) for f in sys.meta_path):
        sys.meta_path.insert(0, _BeforeNumba())


# --- saying that kernels are being compiled ----------------------------------------


class CompileNotice:
    """One line on ``stream`` the first time numba compiles a kernel in this process
    (loading one from the cache says nothing): ``compiling WHAT (first use, about N s)
    ...``.  Made by :func:`compile_notice`; ``shown`` says whether the line was written.
    """

    def __init__(self, what: str, seconds: float, stream: Any) -> None:
        self.what = what
        self.seconds = seconds
        self.stream = stream
        self.shown = False

    @property
    def line(self) -> str:
        """The line it writes."""
        about = f"about {max(1, round(self.seconds)):d} s"
        return f"atlas: compiling {self.what} (first use, {about}) ..."

    def show(self) -> None:
        """Write the line, unless it was written already."""
        with _LOCK:
            if self.shown:
                return
            self.shown = True
        try:
            print(self.line, file=self.stream, flush=True)
        except (OSError, ValueError):  # a closed terminal: nothing to tell
            pass


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


@contextlib.contextmanager
def compile_notice(
    what: str, seconds: float, stream: Any = None, *, terminal: bool | None = None
) -> Iterator[CompileNotice | None]:
    """Within this block, the first kernel numba compiles (not one it loads from its
    cache) writes one line to ``stream`` (default standard error) saying that ``what``
    is being compiled and about how many ``seconds`` it takes; only when ``stream`` is
    a terminal (``terminal`` overrides the check), and at most once.

    numba is not imported for it: the notice starts listening to numba's compile events
    when something imports numba (at once if it is loaded), so a command that turns
    out to compile nothing pays nothing.  Yields the :class:`CompileNotice`, or
    ``None`` when nothing is to be said (not a terminal).

    Examples
    --------
    >>> import io
    >>> with compile_notice("the tron bots' kernels", 20, io.StringIO()) as notice:
    ...     pass  # not a terminal: nothing is said
    >>> notice is None
    True
    """
    stream = sys.stderr if stream is None else stream
    if not (_is_terminal(stream) if terminal is None else terminal):
        yield None
        return
    notice = CompileNotice(what, seconds, stream)
    listening: list[Any] = []

    def listen() -> None:
        import importlib

        event: Any = importlib.import_module("numba.core.event")

        class _Listener(event.Listener):  # type: ignore[misc]
            def on_start(self, ev: Any) -> None:
                notice.show()

            def on_end(self, ev: Any) -> None:
                pass

        listener = _Listener()
        event.register("numba:compile", listener)
        listening.append(listener)

    hook = _AfterNumba(listen)
    if "numba" in sys.modules:
        listen()
    else:
        sys.meta_path.insert(0, hook)
    try:
        yield notice
    finally:
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(hook)
        if listening:
            import importlib

            event: Any = importlib.import_module("numba.core.event")
            event.unregister("numba:compile", listening[0])


class _AfterNumba:
    """A finder on ``sys.meta_path`` that runs ``then()`` once numba has been imported
    (by any module), then steps aside: it finds numba's own module spec and has its
    loader call ``then`` after numba's package has run."""

    def __init__(self, then: Callable[[], None]) -> None:
        self.then = then

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "numba":
            return None
        import importlib.util

        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)
        spec: Any = importlib.util.find_spec(name)
        loader: Any = getattr(spec, "loader", None)
        if spec is None or loader is None or not hasattr(loader, "exec_module"):
            return spec
        run, then = loader.exec_module, self.then

        class _Loader:
            def create_module(self, spec: Any) -> Any:
                return loader.create_module(spec)

            def exec_module(self, module: Any) -> None:
                module.__spec__.loader = module.__loader__ = loader  # numba's own again
                run(module)
                then()

        spec.loader = _Loader()
        return spec


#: ``atlas analyze`` and ``atlas validate`` (and (and :func:`atlas.analyze` and
#: :func:`atlas.validate`) run the kernels as plain Python (without importing numba) up
#: to this many cells in all: loading numba costs more than analysing maps of this size
#: without it (``benchmarks/bench_startup.py --sizes``: a fresh process took 0.31 s in
#: Python against 0.71 s compiled at 10,000 cells, and about the same at 35,000; a
#: validated map is 10,000 cells).
INTERPRET_MAX_CELLS = 32_000
