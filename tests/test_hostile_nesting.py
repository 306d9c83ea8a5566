"""Issue 34, nesting: JSON and TOML nested tens of thousands deep (a record, a
tournament's results, a plan, a ``--param`` value, a Python value given to the API) end
in an atlas error naming the file or the option, never in a ``RecursionError``; the
readers are :func:`atlas.limits.load_json`, :func:`atlas.limits.load_toml` and
:func:`atlas.limits.value_depth`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import atlas
from atlas.errors import AtlasError, ParamError, PlanError, RecordError
from atlas.fsutil import read_json_file, read_toml_file
from atlas.limits import MAX_JSON_DEPTH, LimitError, load_toml, value_depth

ROOT = Path(__file__).resolve().parents[1]
BOX = "7 5\n#######\n#1    #\n#     #\n#    2#\n#######\n"
DEEP = 30_000


def _nested_list(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_value_depth_counts_without_recursion_and_stops_early():
    assert value_depth(1) == 0
    assert value_depth([]) == 1
    assert value_depth({"a": [1, (2, {"b": []})]}) == 5
    with pytest.raises(LimitError, match="nested more than 64 deep"):
        value_depth(_nested_list(100_000))
    loop: list = []
    loop.append(loop)
    with pytest.raises(LimitError):
        value_depth(loop)
    # a value that shares one list in many places costs its size, not its paths
    shared: list = [0]
    for _ in range(60):
        shared = [shared, shared]
    assert value_depth(shared) == 61


@pytest.mark.parametrize(
    "text",
    [
        "a = " + "[" * DEEP + "]" * DEEP,
        "a = " + "{b = " * 5000 + "1" + "}" * 5000,
        ".".join(["k"] * DEEP) + " = 1",
        "[" + ".".join(["t"] * DEEP) + "]\nx = 1",
    ],
    ids=["arrays", "inline-tables", "dotted-keys", "table-header"],
)
def test_toml_nested_deep_is_a_limit_error(text):
    with pytest.raises(LimitError, match="TOML nested more than"):
        load_toml(text)


def test_toml_within_the_limit_reads():
    assert load_toml("a = [[1], [2]]\n[t.u]\nx = 1") == {"a": [[1], [2]], "t": {"u": {"x": 1}}}


def test_the_file_readers_name_the_file(tmp_path):
    deep_json = tmp_path / "deep.json"
    deep_json.write_text("[" * DEEP + "]" * DEEP)
    with pytest.raises(RecordError, match=r"deep\.json: JSON nested 30000 deep"):
        read_json_file(deep_json, 1 << 20, RecordError)
    deep_toml = tmp_path / "deep.toml"
    deep_toml.write_text("x = " + "[" * DEEP + "]" * DEEP)
    with pytest.raises(PlanError, match=r"deep\.toml: TOML nested"):
        read_toml_file(deep_toml, PlanError)


def test_a_plan_file_nested_deep_is_a_plan_error_naming_it(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text(
        'game = "tron"\nmaps = ["x.txt"]\nbots = [{name = "a", builtin = "random"}]\n'
        "extra = " + "[" * DEEP + "]" * DEEP + "\n"
    )
    with pytest.raises(PlanError, match=r"plan\.toml: TOML nested"):
        atlas.tournament(plan)


def test_a_plan_dict_nested_deep_is_a_plan_error():
    plan = {"game": "tron", "maps": [BOX], "bots": ["random"], "params": _nested_list(DEEP)}
    with pytest.raises(PlanError, match="the plan is nested more than"):
        atlas.tournament(plan)


def test_a_record_nested_deep_is_a_record_error(tmp_path):
    rec = tmp_path / "rec.json"
    rec.write_text("{" + '"a":[' * DEEP + "]" * DEEP + "}")
    with pytest.raises(RecordError, match=r"rec\.json: JSON nested"):
        atlas.load_record(rec)


def test_params_nested_deep_are_a_param_error_through_the_api():
    gm = atlas.read_map(BOX, "tron")
    with pytest.raises(ParamError, match="parameter 'compat' is nested more than"):
        atlas.play(gm, ["random", "random"], params={"compat": _nested_list(DEEP)})


def test_a_param_option_nested_deep_is_a_usage_error_naming_it(tmp_path):
    box = tmp_path / "box.txt"
    box.write_text(BOX)
    value = "[" * DEEP + "]" * DEEP
    r = subprocess.run(
        [sys.executable, "-m", "atlas", "play", "tron", str(box), "random", "random"]
        + ["--param", "compat=" + value],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
    )
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert f"--param: 'compat': JSON nested {DEEP} deep, more than {MAX_JSON_DEPTH}" in r.stderr
    assert len(r.stderr) < 2000  # the value is not quoted whole


def test_errors_are_atlas_errors():
    assert issubclass(PlanError, AtlasError) and issubclass(RecordError, AtlasError)


def _depth_by_hand(data: bytes) -> int:
    """:func:`atlas.limits.json_depth` written as the plain state machine it stands for:
    brackets outside strings, a backslash in a string escapes the next byte, and an
    unclosed string ends the count (its brackets are inside it)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        ch = chr(byte)
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest  # an unclosed string counts nothing after its quote


def test_json_depth_counts_brackets_outside_strings_as_a_state_machine_does():
    import random

    from atlas.limits import json_depth

    rng = random.Random(34)
    alphabet = b'[]{}"\\a,'
    cases = [b"", b'"', b'\\"[', b'["\\\\"]', b'["\\"]"]', b'[[["]]]"]]]', b"]]]["]
    cases += [
        bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 60))) for _ in range(3000)
    ]
    # and texts without a backslash, which take the quotes' count (every quote opens or
    # closes a string), unclosed strings included
    cases += [
        bytes(rng.choice(b'[]{}"a,') for _ in range(rng.randrange(1, 60))) for _ in range(3000)
    ]
    cases += [b'["]"', b'[{"a":"]]}"}]', b'"[[["', b'[[]]"', b'{"a":[1,{"b":"}"}]}']
    for data in cases:
        assert json_depth(data) == _depth_by_hand(data), data
