"""What the fuzz tests share: bounded memory, the number of examples, JSON mutations.

* :func:`bounded_memory`: run a block under an address-space limit (``RLIMIT_AS``) of
  what the process maps now plus a margin, so a reader that allocates in proportion to
  what a header claims (``10000 10000``) fails the test with ``MemoryError`` instead of
  eating the machine.
* :func:`examples`: examples per property: a small number in CI (the ``ci`` profile of
  ``tests/conftest.py`` is derandomized), 200 times more under ``HYPOTHESIS_PROFILE=long``.
* :func:`mutated_json`: a strategy that changes one value, deletes one key or inserts an
  odd value at one place of a JSON document, so the properties reach deep into a
  record's or a trace's checks instead of stopping at "not JSON".
"""

from __future__ import annotations

import copy
import json
import os
import resource
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import strategies as st

#: Address space a reader may map beyond what the test process maps already.
MARGIN = 1 << 30

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"


def examples(n: int) -> int:
    """``n`` examples in CI, 200 times as many in the long profile."""
    return n * 200 if LONG else n


def _mapped_bytes() -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


@contextmanager
def bounded_memory(margin: int = MARGIN) -> Iterator[None]:
    """Run the block with at most ``margin`` more bytes of address space."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _mapped_bytes() + margin
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from(["²", "٣", "0" * 30, "-1", "", "\u2028", "\ud800"]),
    st.lists(st.integers(-2, 200), max_size=3),
    st.dictionaries(st.sampled_from(["0", "1", "x", "²"]), st.integers(-1, 4), max_size=2),
)


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:6]):  # the first few elements speak for the rest
            out += _paths(v, prefix + (i,))
    return out


@st.composite
def mutated_json(draw: Any, doc: Any) -> Any:
    """``doc`` with one place changed: a new value, a deleted key, or an added key."""
    new = copy.deepcopy(doc)
    paths = _paths(new)
    path = draw(st.sampled_from(paths))
    action = draw(st.sampled_from(["set", "delete", "add"]))
    value = draw(ODD_VALUES)
    if not path:
        return value if action == "set" else new
    parent = new
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if action == "delete" and isinstance(parent, dict):
        del parent[last]
    elif action == "add" and isinstance(parent, dict):
        parent[draw(st.sampled_from(["extra", "0", "2", "moves"]))] = value
    elif action == "add" and isinstance(parent, list):
        parent.insert(last, value)
    else:
        parent[last] = value
    return new


def dumps(doc: Any) -> bytes:
    """``doc`` as JSON bytes (lone surrogates kept, as a hostile file may hold them)."""
    return json.dumps(doc).encode("utf-8", "surrogatepass")
