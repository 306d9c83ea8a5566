"""The layers of atlas depend one way, and no modules import each other in a circle.

``maps`` <- ``analysis`` <- ``sim`` <- ``bots`` <- ``arena`` <- ``render`` <- ``api`` <-
``cli``, with the package's ``__init__`` (the façade naming the API) on top:
every ``import`` of every module of the package, read with :mod:`ast` (imports inside
functions too), must name a module of its own layer or of a lower one, and the graph of
imports between atlas's modules must have no cycle.

A game's folder (``atlas/games/<game>/``) sits across the layers: each of its modules
has the layer of its role (:data:`atlas.games.ROLE_LAYERS`: format, analysis and
validation, rules, bots, protocol, painter), so a game's modules are ordered by role.
The generic layers never import a game's folder, and no game imports another's.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from atlas.games import ROLE_LAYERS

PACKAGE = Path(__file__).resolve().parents[1] / "atlas"

#: Layer of each top-level part of the package, lowest first.
LAYERS = {
    "errors": 0,
    "types": 0,
    "fsutil": 0,
    "resources": 0,
    "limits": 0,
    "jit": 0,
    "sources": 0,
    "_version": 0,
    "games": 0,
    "deprecation": 0,
    "display": 0,
    "progress": 0,
    "maps": 1,
    "analysis": 2,
    # the old path of analysis, kept for one release (its modules alias the new ones)
    "analyze": 2,
    "sim": 3,
    "bots": 4,
    "arena": 5,
    "render": 6,
    "api": 7,
    "cli": 8,
    "__main__": 8,
    # the package's own module is the top: the façade that names the API (lazily)
    "__init__": 9,
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def game_of(module: str) -> str | None:
    """The game whose folder holds ``module``, or ``None`` for a generic module."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "games" else None


def layer_of(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return LAYERS["__init__"]
    if game_of(module) is not None and len(parts) > 3:
        return LAYERS[ROLE_LAYERS[parts[3]]]
    return LAYERS[parts[1]]


def imports_of(path: Path) -> set[str]:
    """atlas modules imported by the file at ``path`` (``from X import y`` counts as
    ``X.y`` when that is a module, else ``X``)."""
    me = module_name(path)
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "atlas")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = me.split(".")
                if not is_package:
                    base = base[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "atlas":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in ALL_MODULES else target)
    out.discard(me)
    return out


FILES = sorted(PACKAGE.rglob("*.py"))
ALL_MODULES = {module_name(p) for p in FILES}
GRAPH = {module_name(p): imports_of(p) for p in FILES}


def test_every_part_of_the_package_has_a_layer():
    parts = {m.split(".")[1] if "." in m else "__init__" for m in ALL_MODULES}
    assert parts <= set(LAYERS), sorted(parts - set(LAYERS))


def test_every_module_of_a_game_has_a_role():
    roles = {m.split(".")[3] for m in ALL_MODULES if game_of(m) and len(m.split(".")) > 3}
    assert roles <= set(ROLE_LAYERS), sorted(roles - set(ROLE_LAYERS))


def test_the_layer_of_a_game_module_is_its_role_s():
    assert layer_of("atlas.games.tron.format") == LAYERS["maps"]
    assert layer_of("atlas.games.outpost.analysis.influence") == LAYERS["analysis"]
    assert layer_of("atlas.games.tron.bots.apex") == LAYERS["bots"]
    assert layer_of("atlas.games.tron.painter") == LAYERS["render"]
    assert layer_of("atlas.games.tron") == layer_of("atlas.games") == 0


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if game_of(m) is None))
def test_generic_modules_never_import_a_game_folder(module):
    into = sorted(t for t in GRAPH[module] if game_of(t) is not None)
    assert not into, f"{module} imports a game's folder: {into}"


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if game_of(m) is not None))
def test_no_game_imports_another(module):
    others = sorted(t for t in GRAPH[module] if game_of(t) not in (None, game_of(module)))
    assert not others, f"{module} imports another game's folder: {others}"


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_go_down_the_layers(module):
    upward = sorted(t for t in GRAPH[module] if layer_of(t) > layer_of(module))
    assert not upward, f"{module} (layer {layer_of(module)}) imports upward: {upward}"


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one module
    (Tarjan's algorithm, with an explicit stack)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    comp.append(m)
                    if m == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_no_import_cycles():
    graph = {m: {t for t in ts if t in GRAPH} for m, ts in GRAPH.items()}
    assert strongly_connected(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert strongly_connected(graph) == [["a", "b", "c"]]
