"""A game is one unit: outside its own modules and its registry line, no module and no
template names it.

What counts, precisely (modules are read with :mod:`ast`, so comments never count):

* every string constant of a module of the package: plain strings, the literal parts of
  f-strings, dict keys, ``__all__`` entries, dotted module paths, messages;
* except docstrings (a string that is the first statement of a module, a class or a
  function), which may name games as examples;
* a constant names a game when a registered game's name (``tron``, ``isolation``,
  ``connect5``, ``outpost``) starts a word in it, in any case: ``"Outpost map"``,
  ``"outposts"``, ``"OUTPOST_HOMES"``, ``"TronBot"`` and ``"atlas.games.tron.rules"`` all count,
  ``"electronic"`` does not;
* a module's own games are those named by a part of its path under ``atlas/``, a folder
  or the file itself (``atlas/games/outpost/rules/game.py``, ``atlas/games/tron/format.py``,
  ``atlas/games/connect5/painter.py``): they may name their game as much as they like;
* the registry lines, the ``register_game(...)`` calls at the top of
  ``atlas/games/__init__.py``, are the one other place allowed to name each game;
* every import of a module of the package: an ``import`` or ``from ... import`` whose
  module path (``atlas.games.outpost.validation``, ``..games.tron.format``) or an
  imported name or its alias (``from .format import HOMES as OUTPOST_HOMES``) names a
  game, by the same test as a constant, counts, except in that game's own modules;
* the text of every page template (``templates/*.html``) outside its ``{# ... #}``
  comments: a heading that says "Outpost" counts, as does a game's name in a tag.

The count of everything else must be 0.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from atlas.games import game_names

PACKAGE = Path(__file__).resolve().parents[1] / "atlas"
REGISTRY = PACKAGE / "games" / "__init__.py"
TEMPLATES = PACKAGE.parent / "templates"


def _pattern(games: tuple[str, ...]) -> re.Pattern[str]:
    names = "|".join(re.escape(g) for g in sorted(games, key=len, reverse=True))
    return re.compile(rf"(?<![a-z0-9])({names})", re.IGNORECASE)


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                out.add(id(first.value))
    return out


def _registry_lines(tree: ast.Module) -> set[int]:
    """The constants inside the top-level ``register_game(...)`` calls."""
    out = set()
    for stmt in tree.body:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id == "register_game"
        ):
            out.update(id(n) for n in ast.walk(call) if isinstance(n, ast.Constant))
    return out


def game_names_in(
    source: str, own: set[str], games: tuple[str, ...], *, registry: bool = False
) -> list[tuple[int, str]]:
    """``(line, constant)`` of every string constant of ``source`` that names a game of
    ``games`` other than those in ``own`` (docstrings, and with ``registry`` the
    ``register_game`` lines, left out)."""
    tree = ast.parse(source)
    skip = _docstrings(tree) | (_registry_lines(tree) if registry else set())
    pattern = _pattern(games)
    hits = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in skip
            and {m.lower() for m in pattern.findall(node.value)} - own
        ):
            hits.append((node.lineno, node.value))
    return sorted(hits)


def game_names_in_imports(
    source: str, own: set[str], games: tuple[str, ...]
) -> list[tuple[int, str]]:
    """``(line, what)`` of every import of ``source`` whose module path, an imported name
    or its alias names a game of ``games`` other than those in ``own``."""
    pattern = _pattern(games)
    hits = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            words = [w for a in node.names for w in (a.name, a.asname) if w]
            shown = "import " + ", ".join(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            words = [module] + [w for a in node.names for w in (a.name, a.asname) if w]
            shown = f"from {module} import " + ", ".join(
                a.name + (f" as {a.asname}" if a.asname else "") for a in node.names
            )
        else:
            continue
        if any({m.lower() for m in pattern.findall(w)} - own for w in words):
            hits.append((node.lineno, shown))
    return sorted(hits)


_TEMPLATE_COMMENT = re.compile(r"\{#.*?#\}", re.DOTALL)


def game_names_in_template(text: str, games: tuple[str, ...]) -> list[tuple[int, str]]:
    """``(line, name)`` of every game of ``games`` that the template ``text`` names
    outside its ``{# ... #}`` comments (a comment keeps its line breaks out of the
    count, not out of the line numbers)."""
    bare = _TEMPLATE_COMMENT.sub(lambda m: "\n" * m.group().count("\n"), text)
    return [
        (bare.count("\n", 0, m.start()) + 1, m.group()) for m in _pattern(games).finditer(bare)
    ]


def own_games(path: Path, games: tuple[str, ...]) -> set[str]:
    """The games a module belongs to: those named by a part of its path under atlas/."""
    parts = set(path.relative_to(PACKAGE).with_suffix("").parts)
    return {g for g in games if g in parts}


def registered_in_registry() -> tuple[str, ...]:
    """The games of the ``register_game`` lines of ``atlas/games/__init__.py``."""
    tree = ast.parse(REGISTRY.read_text(encoding="utf-8"))
    return tuple(
        stmt.value.args[0].value
        for stmt in tree.body
        if isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Name)
        and stmt.value.func.id == "register_game"
    )


GAMES = registered_in_registry()


def test_no_module_names_a_game_that_is_not_its_own():
    assert GAMES == ("tron", "isolation", "connect5", "outpost")
    assert set(GAMES) <= set(game_names())
    hits = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found = game_names_in(
            path.read_text(encoding="utf-8"),
            own_games(path, GAMES),
            GAMES,
            registry=path == REGISTRY,
        )
        rel = path.relative_to(PACKAGE.parent)
        hits += [f"{rel}:{line}: {text[:70]!r}" for line, text in found]
    assert len(hits) == 0, f"{len(hits)} string constants name a game outside its home:\n" + (
        "\n".join(hits)
    )


def test_no_module_imports_a_game_by_name_outside_its_home():
    hits = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found = game_names_in_imports(
            path.read_text(encoding="utf-8"), own_games(path, GAMES), GAMES
        )
        rel = path.relative_to(PACKAGE.parent)
        hits += [f"{rel}:{line}: {text[:90]}" for line, text in found]
    assert len(hits) == 0, f"{len(hits)} imports name a game outside its home:\n" + (
        "\n".join(hits)
    )


def test_no_template_names_a_game():
    templates = sorted(TEMPLATES.glob("*.html"))
    assert any(t.name == "validation.html" for t in templates)
    hits = []
    for path in templates:
        found = game_names_in_template(path.read_text(encoding="utf-8"), GAMES)
        hits += [f"templates/{path.name}:{line}: {name}" for line, name in found]
    assert len(hits) == 0, f"{len(hits)} game names in templates:\n" + "\n".join(hits)


def test_the_registry_names_each_game_in_its_line_only():
    text = REGISTRY.read_text(encoding="utf-8")
    pattern = _pattern(GAMES)
    named = {
        m.lower() for _, c in game_names_in(text, set(), GAMES) for m in pattern.findall(c)
    }
    assert named == set(GAMES)  # counted when the registry lines are not left out
    assert game_names_in(text, set(), GAMES, registry=True) == []


SAMPLE = '''"""A docstring may name tron."""
# a comment may name isolation
GAMES = ("connect5", "other")
def f(x):
    """Outposts here are fine too."""
    return f"{x} Outposts", "electronic", "TronBot", "atlas.games.tron.rules", {"isolation": 1}
'''


def test_the_counter_counts_what_it_says():
    games = ("tron", "isolation", "connect5", "outpost")
    hits = game_names_in(SAMPLE, set(), games)
    assert [text for _, text in hits] == [
        "connect5",
        " Outposts",
        "TronBot",
        "atlas.games.tron.rules",
        "isolation",
    ]
    # a module's own game is not counted
    assert [t for _, t in game_names_in(SAMPLE, {"tron", "isolation"}, games)] == [
        "connect5",
        " Outposts",
    ]
    assert own_games(PACKAGE / "games" / "outpost" / "rules" / "game.py", games) == {"outpost"}
    assert own_games(PACKAGE / "games" / "tron" / "format.py", games) == {"tron"}
    assert own_games(PACKAGE / "arena" / "runner.py", games) == set()


IMPORTS = """import atlas.games.tron.rules
from ..games.outpost.validation import validate_paths
from .format import HOMES as OUTPOST_HOMES
from ..maps import read_map
from ..sim.registry import game_names, get_info
from . import connect5
"""


def test_the_import_counter_counts_what_it_says():
    games = ("tron", "isolation", "connect5", "outpost")
    assert [t for _, t in game_names_in_imports(IMPORTS, set(), games)] == [
        "import atlas.games.tron.rules",
        "from ..games.outpost.validation import validate_paths",
        "from .format import HOMES as OUTPOST_HOMES",
        "from . import connect5",
    ]
    # a game's own modules import their game as they like
    assert [t for _, t in game_names_in_imports(IMPORTS, {"outpost", "tron"}, games)] == [
        "from . import connect5"
    ]


def test_the_template_counter_skips_comments_only():
    games = ("tron", "isolation", "connect5", "outpost")
    text = (
        "{# an Outpost example,\nover two lines #}\n<h1>Outpost map validation</h1>\n"
        "<p>{{ title }} of {{ game }}: e.g. \u201ctron plains\u201d, electronic</p>\n"
    )
    assert game_names_in_template(text, games) == [(3, "Outpost"), (4, "tron")]
