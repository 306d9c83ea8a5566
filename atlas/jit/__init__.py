"""atlas's kernels: numba's ``njit``, with numba imported in one place, when a kernel is
first compiled.

Importing numba costs about half a second, more than ``atlas validate`` or ``atlas
analyze`` of a small map needs for the whole analysis.  So every module of atlas with
kernels writes::

    from ..jit import numba          # never: import numba

    @numba.njit(cache=True)
    def kernel(...): ...

and gets a :class:`LazyKernel` (:mod:`atlas.jit.lazy`): the plain function until it is
first called compiled, then numba's dispatcher.  Inside other compiled code a lazy
kernel is the dispatcher itself (numba asks its ``_numba_type_``; ``inline="always"``
works through ``targetoptions`` and ``py_func``).  Any other name of that ``numba``
(``numba.objmode``, ``numba.types``, ...) is numba's own, and ``numba.intrinsic`` makes
a lazy intrinsic.

The parts, one idea each:

- :mod:`atlas.jit.lazy`: lazy kernels, builders' kernels (:func:`built`), and
  :func:`interpreted`, within which lazy kernels run as plain Python, without numba
  (faster for a one-shot analysis of a small map than loading numba).
- :mod:`atlas.jit.load`: :func:`load_numba`, the one place atlas imports numba.  It
  chooses numba's cache folder first, and starts the compile notice's listener after.
  It also holds the dispatcher that compiles one version of a kernel per type.
- :mod:`atlas.jit.cache`: numba's cache folder.
- :mod:`atlas.jit.notice`: the line a command writes on a terminal while compiling.

numba's cache
-------------
numba keeps a ``cache=True`` kernel's compiled code with a stamp of the kernel's own
file only: a kernel that calls a kernel of another module would keep its old copy of
the callee after that module changes, and a global of another module is frozen into the
compiled code.  So atlas points numba's cache (``NUMBA_CACHE_DIR``) at a folder of its
own, keyed by atlas's version and a hash of every ``*.py`` file of the package
(:func:`source_key`, through :func:`atlas.sources.digest`, as the site cache's code
versions are): ``~/.cache/atlas/numba/<version>-<hash>`` (or under ``$XDG_CACHE_HOME``).
Editing any module, or upgrading atlas, starts a fresh folder; older folders are pruned
(:func:`prune_caches`).  Processes compiling at once save into it under a lock
(:func:`atlas.jit.load.locked_save`): numba's own save numbers a new version without
one, and two versions saved at once could swap their code.  :func:`load_numba` chooses
the folder before it imports numba, and sets ``NUMBA_CACHE_DIR``: any process atlas
starts after that (pool workers, Dask workers, served bots) inherits it, and one
started before chooses the same folder.

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

from . import cache as _cache
from . import lazy as _lazy
from .cache import *  # noqa: F403  (the names in its __all__)
from .lazy import *  # noqa: F403
from .load import load_numba
from .notice import CompileNotice, compile_notice

__all__ = ["load_numba", "CompileNotice", "compile_notice"]
__all__ += _lazy.__all__
__all__ += _cache.__all__
