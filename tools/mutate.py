"""Mutation check: does the suite fail when the code is changed a little?

Run from the repository root (not part of CI: minutes to an hour per target)::

    python tools/mutate.py                      # every target, one after the other
    python tools/mutate.py parsers records      # some targets
    python tools/mutate.py analysis --sample 150 --seed 1   # a random sample of mutants

Each target is a set of modules and the tests that should catch a change in them
(:data:`TARGETS`).  For a target the tool

1. copies the repository's ``atlas/``, ``tests/``, ``maps/``, ``templates/``,
   ``examples/``, ``tools/``, ``docs/`` (tests read both) and ``pyproject.toml`` into a
   temporary folder (the checkout is never
   edited; no bytecode is written there either);
2. runs the target's tests once on the copy under coverage with per-test contexts, which
   gives each test's lines (and shows the tests pass unchanged);
3. makes the mutants of each module from its syntax tree (:class:`Mutator`): comparison
   operators swapped (``<`` and ``<=``, ``==`` and ``!=``, ``in`` and ``not in``, ...),
   arithmetic swapped (``+`` and ``-``, ``*`` and ``//``, ...), ``and`` and ``or``
   swapped, a ``not`` dropped, the test of an ``if``/``while`` negated, an integer
   constant plus one, ``True`` and ``False`` swapped, a returned value replaced by
   ``None``.  Docstrings, annotations, decorators and strings are left alone;
4. for each mutant, writes the module's mutated text into the copy and runs only the
   tests that ran its line (all the target's tests for a line run at import), with
   ``-x`` and a timeout; a mutant no test reached survives without a run.

It prints killed / survived / timeout (a timeout counts as killed: the change made the
tests hang) per module, the score (killed over all mutants), and each survivor as
``file:line  mutation``.  ``--list`` only counts the mutants.  The kernels of
``atlas/analysis/`` run as plain Python (``NUMBA_DISABLE_JIT=1``): a mutated kernel is
then not recompiled by numba, and coverage sees its lines.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import copy
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("atlas", "tests", "maps", "templates", "examples", "tools", "docs", "pyproject.toml")


@dataclass(frozen=True)
class Target:
    """Modules to mutate and the pytest arguments of the tests meant to catch them."""

    modules: tuple[str, ...]
    tests: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)


#: The slow end-to-end games (a minute each) are left out of the mutant runs; the
#: parsers' own tests and the fuzz tests exercise the same code directly.
TARGETS: dict[str, Target] = {
    "parsers": Target(
        modules=(
            "atlas/arena/protocols/__init__.py",
            "atlas/arena/protocols/common.py",
            "atlas/games/connect5/protocol.py",
            "atlas/arena/protocols/jsonl.py",
            "atlas/games/tron/protocol.py",
        ),
        tests=(
            "tests/arena/test_protocols.py",
            "tests/arena/test_serve.py",
            "tests/fuzz/test_fuzz_protocols.py",
            "tests/test_mutation_kills.py",
            "tests/test_mutation_kills_protocols.py",
            "-k",
            "not (garbage and tron) and not outpost_programs and not frontline"
            " and not for_every_game_state",
        ),
    ),
    "records": Target(
        modules=(
            "atlas/sim/records/__init__.py",
            "atlas/sim/records/io.py",
            "atlas/sim/records/model.py",
            "atlas/sim/records/verify.py",
        ),
        tests=(
            "tests/sim/test_records.py",
            "tests/sim/test_record_files.py",
            "tests/fuzz/test_fuzz_records.py",
            "tests/sim/test_golden_records.py",
            "tests/test_mutation_kills.py",
            "-k",
            "not voronoi",
        ),
    ),
    "tron": Target(
        modules=("atlas/games/tron/rules.py",),
        tests=("tests/sim/test_tron.py", "tests/test_mutation_kills.py"),
    ),
    "analysis": Target(
        modules=tuple(
            sorted(
                p.relative_to(ROOT).as_posix()
                for folder in ("analysis", "games/outpost/analysis")
                for p in (ROOT / "atlas" / folder).rglob("*.py")
                if p.name != "__init__.py"
            )
        )
        + ("atlas/games/outpost/validation.py",),
        tests=("tests/analysis", "tests/test_mutation_kills.py"),
        env={"NUMBA_DISABLE_JIT": "1"},
    ),
}

_COMPARE_SWAPS: dict[type, type] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
_BINOP_SWAPS: dict[type, type] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
    ast.BitXor: ast.BitOr,
    ast.Pow: ast.Mult,
}
_SYMBOL = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.FloorDiv: "//",
    ast.Div: "/",
    ast.Mod: "%",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.Pow: "**",
    ast.And: "and",
    ast.Or: "or",
}


@dataclass(frozen=True)
class Mutant:
    """One change: the ``index``-th node of ``ast.walk`` over the module, and how."""

    module: str
    index: int
    kind: str
    line: int
    end_line: int
    what: str

    def label(self) -> str:
        return f"{self.module}:{self.line}  {self.what}"


def _skipped_nodes(tree: ast.Module) -> set[int]:
    """ids of nodes never mutated: docstrings, annotations, decorators, ``__all__``,
    ``if TYPE_CHECKING`` blocks and everything inside f-strings."""
    roots: list[ast.AST] = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(node, ast.Module | ast.ClassDef):
            roots.append(body[0]) if _is_docstring(body[0]) else None
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if _is_docstring(node.body[0]):
                roots.append(node.body[0])
            roots += node.decorator_list
            roots += [a.annotation for a in _all_args(node.args) if a.annotation]
            if node.returns is not None:
                roots.append(node.returns)
        elif isinstance(node, ast.ClassDef):
            roots += node.decorator_list
        elif isinstance(node, ast.AnnAssign):
            roots.append(node.annotation)
        elif isinstance(node, ast.JoinedStr) or _never_mutated(node):
            roots.append(node)
    return {id(n) for root in roots for n in ast.walk(root)}


def _never_mutated(node: ast.AST) -> bool:
    """``__all__ = ...`` and ``if TYPE_CHECKING:``."""
    if isinstance(node, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _is_docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def _all_args(args: ast.arguments) -> list[ast.arg]:
    out = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    out += [a for a in (args.vararg, args.kwarg) if a is not None]
    return out


class Mutator:
    """The mutants of one module's source, and the mutated source of each."""

    def __init__(self, module: str, source: str) -> None:
        self.module = module
        self.tree = ast.parse(source)

    def mutants(self) -> list[Mutant]:
        skipped = _skipped_nodes(self.tree)
        out: list[Mutant] = []
        for index, node in enumerate(ast.walk(self.tree)):
            if id(node) in skipped:
                continue
            for kind, what in self._changes(node):
                line = getattr(node, "lineno", 0)
                end = getattr(node, "end_lineno", line) or line
                out.append(Mutant(self.module, index, kind, line, end, what))
        return out

    @staticmethod
    def _changes(node: ast.AST) -> Iterator[tuple[str, str]]:
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in _COMPARE_SWAPS:
                    new = _COMPARE_SWAPS[type(op)]
                    yield f"cmp{i}", f"{_SYMBOL[type(op)]} -> {_SYMBOL[new]}"
        elif isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in _BINOP_SWAPS:
            new = _BINOP_SWAPS[type(node.op)]
            yield "binop", f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[new]}"
        elif isinstance(node, ast.BoolOp):
            other = ast.Or if isinstance(node.op, ast.And) else ast.And
            yield "boolop", f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[other]}"
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield "not", "not x -> x"
        elif isinstance(node, ast.If | ast.While | ast.IfExp):
            if not isinstance(node.test, ast.Compare | ast.BoolOp | ast.UnaryOp):
                yield "negate", f"if {ast.unparse(node.test)[:40]} -> if not (...)"
        elif isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool):
                yield "const", f"{value} -> {not value}"
            elif isinstance(value, int):
                yield "const", f"{value} -> {value + 1}"
        elif isinstance(node, ast.Return) and node.value is not None:
            if isinstance(node.value, ast.Constant) and node.value.value is None:
                return
            yield "return", f"return {ast.unparse(node.value)[:40]} -> return None"

    def source(self, mutant: Mutant) -> str:
        """The module's source with ``mutant`` applied."""
        tree = copy.deepcopy(self.tree)
        node = next(n for i, n in enumerate(ast.walk(tree)) if i == mutant.index)
        kind = mutant.kind
        if kind.startswith("cmp"):
            assert isinstance(node, ast.Compare)
            i = int(kind[3:])
            node.ops[i] = _COMPARE_SWAPS[type(node.ops[i])]()
        elif kind == "binop":
            assert isinstance(node, ast.BinOp | ast.AugAssign)
            node.op = _BINOP_SWAPS[type(node.op)]()
        elif kind == "boolop":
            assert isinstance(node, ast.BoolOp)
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif kind == "not":
            assert isinstance(node, ast.UnaryOp)
            node.op = ast.UAdd()  # +x: x itself for the bools and ints tested here
            node.operand = ast.Call(ast.Name("bool", ast.Load()), [node.operand], [])
        elif kind == "negate":
            assert isinstance(node, ast.If | ast.While | ast.IfExp)
            node.test = ast.UnaryOp(ast.Not(), node.test)
        elif kind == "const":
            assert isinstance(node, ast.Constant)
            value = node.value
            node.value = (not value) if isinstance(value, bool) else value + 1
        elif kind == "return":
            assert isinstance(node, ast.Return)
            node.value = ast.Constant(None)
        return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


# --- running -------------------------------------------------------------------------


def copy_tree(dest: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "*.egg-info")
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore, symlinks=True)
        elif src.exists():
            shutil.copy2(src, dest / name)


def _env(work: Path, target: Target) -> dict[str, str]:
    env = dict(os.environ)
    env.update(target.env)
    env["PYTHONPATH"] = str(work)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("HYPOTHESIS_PROFILE", None)
    return env


def _pytest(work: Path, args: list[str], env: dict[str, str], timeout: float) -> str:
    """Run pytest in ``work`` in a forked child of this process (numpy, networkx,
    hypothesis and pytest are imported once, here; atlas and the tests in the child):
    "passed", "failed" or "timeout"."""
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 3
        try:
            os.setsid()
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            os.chdir(work)
            os.environ.clear()
            os.environ.update(env)
            sys.dont_write_bytecode = True
            sys.path.insert(0, str(work))
            import pytest

            code = int(pytest.main(["-q", "-x", "-p", "no:cacheprovider", *args]))
        finally:
            os._exit(code)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return "passed" if os.waitstatus_to_exitcode(status) == 0 else "failed"
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout"
        time.sleep(0.05)


def _preload() -> None:
    """Import the heavy third-party modules every test run needs, once, before forking."""
    for name in ("numpy", "networkx", "hypothesis", "pytest", "_pytest.python"):
        with contextlib.suppress(ImportError):
            __import__(name)


@dataclass
class Baseline:
    """Each test's lines of the target's modules, and each test's duration."""

    lines: dict[str, dict[int, set[str]]]  # module -> line -> test node ids
    seconds: dict[str, float]
    all_tests: list[str]


def baseline(work: Path, target: Target, env: dict[str, str]) -> Baseline:
    """Run the target's tests once on the unchanged copy, with per-test coverage."""
    import coverage

    junit = work / "baseline.xml"
    args = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--cov=atlas",
        "--cov-context=test",
        "--cov-report=",
        f"--junitxml={junit}",
        *target.tests,
    ]
    done = subprocess.run(args, cwd=work, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"the tests fail before any mutation:\n{done.stdout[-3000:]}")
    seconds: dict[str, float] = {}
    for case in ET.parse(junit).iter("testcase"):
        path = case.get("classname", "").replace(".", "/")
        seconds[f"{path}.py::{case.get('name')}"] = float(case.get("time") or 0.0)
    data = coverage.CoverageData(basename=str(work / ".coverage"))
    data.read()
    lines: dict[str, dict[int, set[str]]] = {}
    for module in target.modules:
        by_line = data.contexts_by_lineno(str(work / module))
        lines[module] = {
            n: {c.rsplit("|", 1)[0] for c in ctx if c} for n, ctx in by_line.items()
        }
    return Baseline(lines, seconds, sorted(seconds))


def tests_for(mutant: Mutant, base: Baseline) -> list[str]:
    """The node ids of the tests that ran the mutant's lines."""
    out: set[str] = set()
    for n in range(mutant.line, mutant.end_line + 1):
        out |= base.lines[mutant.module].get(n, set())
    return sorted(out)


def run_target(name: str, target: Target, sample: int, seed: int, only_list: bool) -> float:
    mutants: list[tuple[Mutator, Mutant]] = []
    for module in target.modules:
        mutator = Mutator(module, (ROOT / module).read_text(encoding="utf-8"))
        mutants += [(mutator, m) for m in mutator.mutants()]
    total = len(mutants)
    if sample and sample < total:
        mutants = random.Random(seed).sample(mutants, sample)
        mutants.sort(key=lambda p: (p[1].module, p[1].line, p[1].index))
    print(f"== {name}: {len(mutants)} mutants (of {total})", flush=True)
    if only_list:
        return 0.0
    with tempfile.TemporaryDirectory(prefix="atlas-mutate-") as tmp:
        work = Path(tmp)
        copy_tree(work)
        env = _env(work, target)
        started = time.monotonic()
        base = baseline(work, target, env)
        print(f"   baseline {time.monotonic() - started:.0f} s", flush=True)
        sources = {m: (work / m).read_text(encoding="utf-8") for m in target.modules}
        results: dict[str, dict[str, int]] = {m: {} for m in target.modules}
        survivors: list[str] = []
        for count, (mutator, mutant) in enumerate(mutants, 1):
            selected = tests_for(mutant, base)
            import_time = not selected and mutant.line in base.lines[mutant.module]
            if import_time:  # ran at import only: every test imports it
                selected = base.all_tests
            if not selected:
                outcome = "no tests"
            else:
                path = work / mutant.module
                path.write_text(mutator.source(mutant), encoding="utf-8")
                budget = sum(base.seconds.get(t, 1.0) for t in selected)
                args = selected if len(selected) < 400 else list(target.tests)
                try:
                    outcome = _pytest(work, args, env, timeout=30 + 5 * budget)
                finally:
                    path.write_text(sources[mutant.module], encoding="utf-8")
                outcome = {"failed": "killed", "passed": "survived"}.get(outcome, outcome)
            tally = results[mutant.module]
            tally[outcome] = tally.get(outcome, 0) + 1
            if outcome in ("survived", "no tests"):
                survivors.append(f"{mutant.label()}  [{outcome}]")
            if count % 25 == 0:
                print(f"   {count}/{len(mutants)}", flush=True)
    return report(name, results, survivors)


def report(name: str, results: dict[str, dict[str, int]], survivors: list[str]) -> float:
    killed_all = total_all = 0
    print(f"-- {name}: module  killed / survived / no tests / timeout  (score)")
    for module, tally in results.items():
        killed = tally.get("killed", 0) + tally.get("timeout", 0)
        total = sum(tally.values())
        killed_all += killed
        total_all += total
        if total:
            print(
                f"   {module}  {tally.get('killed', 0)} / {tally.get('survived', 0)} / "
                f"{tally.get('no tests', 0)} / {tally.get('timeout', 0)}  "
                f"({100 * killed / total:.0f} %)"
            )
    score = 100 * killed_all / total_all if total_all else 100.0
    print(f"   {name}: {killed_all}/{total_all} killed, score {score:.1f} %")
    for line in survivors:
        print(f"   survived: {line}")
    print(json.dumps({"target": name, "killed": killed_all, "total": total_all}))
    return score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", choices=[[], *TARGETS], default=[])
    parser.add_argument("--sample", type=int, default=0, help="mutants per target (0: all)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample")
    parser.add_argument("--module", help="only the mutants of this module (its path)")
    parser.add_argument("--list", action="store_true", help="count the mutants, run nothing")
    args = parser.parse_args(argv)
    # A stop (SIGTERM) unwinds like Ctrl-C, so the temporary copy is removed.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    if not args.list:
        _preload()
    names = args.targets or list(TARGETS)
    for name in names:
        target = TARGETS[name]
        if args.module:
            if args.module not in target.modules:
                continue
            target = Target((args.module,), target.tests, target.env)
        run_target(name, target, args.sample, args.seed, args.list)
    return 0


if __name__ == "__main__":
    sys.exit(main())
