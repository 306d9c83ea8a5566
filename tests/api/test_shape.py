"""One shape for the API: every public function and method is typed without ``Any`` and
returns public types; a map, ``params``, ``compat`` and ``cache`` are taken the same way
everywhere; each public class is defined once."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pickle
import sys
import types
import typing
import warnings

import pytest

import atlas
import atlas.types

TRON_TEXT = "7 4\n#######\n#1    #\n#    2#\n#######\n"


#: The parameters that mean one thing everywhere.
SHARED = ("game_map", "params", "compat", "cache")

#: Modules whose types a public signature may name besides atlas's public ones.
PLAIN_MODULES = {"builtins", "collections.abc", "typing", "pathlib", "os", "types"}


def _typing_names(module: types.ModuleType) -> dict[str, object]:
    """The names ``module`` imports under ``if TYPE_CHECKING:``, imported now (the
    annotations name them)."""
    tree = ast.parse(inspect.getsource(module))
    found: dict[str, object] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"):
            continue
        for stmt in node.body:
            if isinstance(stmt, ast.ImportFrom):
                base = importlib.import_module(
                    "." * stmt.level + (stmt.module or ""), module.__package__
                )
                for alias in stmt.names:
                    found[alias.asname or alias.name] = getattr(base, alias.name)
    return found


def _hints(func: typing.Callable[..., object]) -> dict[str, object]:
    module = sys.modules[func.__module__]
    names = {**vars(atlas.types), **vars(module), **_typing_names(module)}
    return typing.get_type_hints(func, globalns=names)


def _functions() -> list[tuple[str, typing.Callable[..., object]]]:
    """Every public function of the API and every public method and property of its
    classes, as ``(name, function)``."""
    out: list[tuple[str, typing.Callable[..., object]]] = []
    for name in atlas.__all__:
        value = getattr(atlas, name)
        if inspect.isfunction(value):
            out.append((name, value))
        elif isinstance(value, type) and not issubclass(value, BaseException):
            for klass in value.__mro__:
                if not klass.__module__.startswith("atlas"):
                    continue
                for attr, member in vars(klass).items():
                    if attr.startswith("_"):
                        continue
                    if isinstance(member, property):
                        member = member.fget
                    elif isinstance(member, (classmethod, staticmethod)):
                        member = member.__func__
                    if inspect.isfunction(member):
                        out.append((f"{name}.{attr}", member))
    return out


FUNCTIONS = _functions()


def _cases() -> list[object]:
    return [pytest.param(n, f) for n, f in FUNCTIONS]


def _walk(hint: object) -> typing.Iterator[object]:
    """``hint`` and every type inside it (the arguments of generics and unions)."""
    yield hint
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return
    if isinstance(origin, type) and not _plain(origin):
        return  # another library's generic: numpy's arrays say Any for their shape
    for arg in typing.get_args(hint):
        if not isinstance(arg, typing.ForwardRef):  # a recursive alias, seen already
            yield from _walk(arg)


def _plain(kind: type) -> bool:
    return kind.__module__ in PLAIN_MODULES or kind.__module__.startswith("atlas")


def _public(kind: object) -> bool:
    if not isinstance(kind, type) or kind is type(None):
        return True  # unions, literals, type variables, Self, None
    public = {id(getattr(atlas, n)) for n in atlas.__all__}
    module = kind.__module__
    return id(kind) in public or module in PLAIN_MODULES or not module.startswith("atlas")


def test_the_walk_finds_the_api():
    names = {n for n, _ in FUNCTIONS}
    assert {"read_map", "play", "Record.save", "Analysis.to_json", "Standings.row"} <= names
    assert "FairnessReport.seats" in names and "FairnessReports.to_json" in names


@pytest.mark.parametrize("name,func", _cases())
def test_no_public_signature_says_any(name, func):
    hints = _hints(func)
    assert hints.get("return", None) is not None or name.endswith(".__init__"), name
    for arg, hint in hints.items():
        assert all(h is not typing.Any for h in _walk(hint)), f"{name}({arg}) is Any"


@pytest.mark.parametrize("name,func", _cases())
def test_every_returned_type_is_public(name, func):
    returned = _hints(func)["return"]
    for kind in _walk(returned):
        origin = typing.get_origin(kind)
        if origin is not None and origin not in (typing.Union, types.UnionType):
            kind = origin
        assert _public(kind), f"{name} returns {kind!r}, which atlas.__all__ lacks"


def _fields() -> list[object]:
    out = []
    for name in atlas.__all__:
        value = getattr(atlas, name)
        if isinstance(value, type) and dataclasses.is_dataclass(value):
            module = sys.modules[value.__module__]
            names = {**vars(atlas.types), **vars(module), **_typing_names(module)}
            hints = typing.get_type_hints(value, globalns=names)
            for f in dataclasses.fields(value):
                if not f.name.startswith("_"):
                    out.append(pytest.param(f"{name}.{f.name}", hints[f.name]))
    return out


@pytest.mark.parametrize("name,hint", _fields())
def test_no_public_field_says_any(name, hint):
    assert all(h is not typing.Any for h in _walk(hint)), f"{name} is Any"


def test_a_map_params_compat_and_cache_are_taken_the_same_way_everywhere():
    seen: dict[str, dict[str, object]] = {p: {} for p in SHARED}
    for name, func in FUNCTIONS:
        if "." in name:
            continue
        hints = _hints(func)
        for p in inspect.signature(func).parameters:
            if p in seen:
                seen[p][name] = hints[p]
    assert set(seen["game_map"]) == {"write_map", "analyze", "play"}
    assert set(seen["params"]) == {"play", "fairness"}
    assert set(seen["compat"]) == {"play", "fairness", "build_site"}
    assert set(seen["cache"]) == {"fairness", "build_site"}
    for p, by_function in seen.items():
        assert len({repr(h) for h in by_function.values()}) == 1, (p, by_function)
    # fairness takes one map as game_map does, or a list of them
    (fairness_maps,) = [_hints(f)["maps"] for n, f in FUNCTIONS if n == "fairness"]
    assert set(typing.get_args(seen["game_map"]["play"])) < set(typing.get_args(fairness_maps))


# --------------------------------------------------------------------------- a map


@pytest.mark.parametrize("form", ["map", "path", "str path", "text"])
def test_every_function_takes_a_map_as_a_map_a_file_or_text(form, tmp_path):
    game_map = atlas.read_map(TRON_TEXT, game="tron", name="tiny")
    path = tmp_path / "tiny.txt"
    atlas.write_map(game_map, path)
    given = {"map": game_map, "path": path, "str path": str(path), "text": TRON_TEXT}[form]
    assert atlas.write_map(given) == TRON_TEXT
    assert atlas.analyze(given).components == 1
    record = atlas.play(given, ["random", "random"], time=0.5)
    assert record.map.text == TRON_TEXT
    (report,) = atlas.fairness(given, games=0)
    assert report.symmetries == ("rot180",)


def test_a_str_is_text_when_it_holds_a_line_break_else_a_file():
    with pytest.raises(atlas.MapFormatError, match="tiny.txt"):
        atlas.analyze("tiny.txt")
    with pytest.raises(atlas.ArgumentError, match="^game_map: expected a GameMap"):
        atlas.analyze(b"7 4\n")


# --------------------------------------------------------------------------- compat, params


def test_compat_is_checked_the_same_way_everywhere(tmp_path):
    messages = set()
    for call in (
        lambda: atlas.play(TRON_TEXT, ["random"] * 2, compat="strict"),
        lambda: atlas.fairness(TRON_TEXT, games=0, compat="strict"),
        lambda: atlas.build_site(out=tmp_path / "site", compat="strict"),
    ):
        with pytest.raises(atlas.ArgumentError) as info:
            call()
        messages.add(str(info.value))
    assert messages == {"compat: expected 'spec' or 'official', got str 'strict'"}


def test_build_site_params_is_game_params_and_warns(monkeypatch):
    seen = {}

    def build(maps, out, **kwargs):
        seen.update(kwargs)

    monkeypatch.setattr("atlas.render.site.build.build_site", build)
    with pytest.warns(atlas.AtlasDeprecationWarning, match=r"build_site\(params=\)"):
        atlas.build_site(params={"tron": {"max_turns": 9}}, cache=None)
    assert seen["params"] == {"tron": {"max_turns": 9}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        atlas.build_site(game_params={"tron": {"max_turns": 8}}, cache=None)
    assert seen["params"] == {"tron": {"max_turns": 8}}
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        atlas.build_site(colour=1)


# --------------------------------------------------------------------------- one class


def test_each_public_class_is_defined_once():
    from atlas.arena.fairness import FairnessReport
    from atlas.arena.standings import Standings
    from atlas.sim.records import Record

    assert atlas.Record is Record
    assert atlas.Standings is Standings
    assert atlas.FairnessReport is FairnessReport
    from atlas.api import _check

    assert not hasattr(_check, "upcast")


def test_the_values_pickle_and_stay_what_they_were(tmp_path):
    game_map = atlas.read_map(TRON_TEXT, game="tron", name="tiny")
    record = atlas.play(game_map, ["random", "random"], time=0.5)
    (report,) = atlas.fairness(game_map, games=0)
    results = atlas.tournament(
        {"game": "tron", "maps": [game_map], "bots": ["random", "wallhugger"], "time": 0.2},
        jobs=1,
    )
    for value, kind in (
        (record, atlas.Record),
        (report, atlas.FairnessReport),
        (results.standings, atlas.Standings),
    ):
        again = pickle.loads(pickle.dumps(value))
        assert isinstance(again, kind) and again == value
        assert repr(again) == repr(value)
    assert isinstance(results.standings.row("random"), atlas.StandingRow)
    assert isinstance(report.seats[0], atlas.SeatScore)
    assert record._repr_html_().startswith('<iframe class="atlas-replay"')
    assert "<table" in results.standings._repr_html_() and "<table" in report._repr_html_()
    assert record.save(tmp_path / "g.json") == tmp_path / "g.json"
    assert atlas.load_record(tmp_path / "g.json") == record


def test_the_old_of_constructors_warn_and_give_the_value_itself():
    game_map = atlas.read_map(TRON_TEXT, game="tron", name="tiny")
    record = atlas.play(game_map, ["random", "random"], time=0.5)
    (report,) = atlas.fairness(game_map, games=0)
    for kind, value in ((atlas.Record, record), (atlas.FairnessReport, report)):
        with pytest.warns(atlas.AtlasDeprecationWarning, match=rf"atlas.{kind.__name__}.of"):
            assert kind.of(value) is value


def test_the_layers_below_reach_the_api_only_by_name():
    # the façade provides what a record, standings and a report do above their layer
    from atlas import display

    for kind in ("record-states", "record-save", "record-gif", "record-page", "record-html"):
        module, _, name = display._PROVIDERS[kind].partition(":")
        assert callable(getattr(importlib.import_module(module), name))
