"""The catalogue flown as on another machine: another maths library and another Python's float sum().

`score --verify` re-simulates a results folder from elsewhere and must get every recorded
value and state hash. Python's +, -, *, / and sqrt are IEEE-754 everywhere, but exp, sin
and pow (`**`) come from the platform's C library, which may round a result to the other
neighbouring double, and Python 3.12 made sum() over floats compensated (3.11 adds left to
right). Here every such result in the simulator is moved by one ulp, up or down at random
(seeded), and the simulator's sum() is the other Python's; each trajectory must still
match the golden digests. What the record keeps is rounded for display, so an ulp stays
inside the simulator, unless a value that is exactly zero on one machine comes out a hair
below zero on another and rounds to -0.0 (found here: `press.diff_psi` on the ground).

    python -m tests.golden.foreign_platform SHARD/SHARDS SEED   # JSON {key: digests} on stdout

Runs in a fresh interpreter: the simulator's modules are compiled with the changes by an
import hook, before anything imports them.
"""

from __future__ import annotations

import ast
import importlib.abc
import importlib.machinery
import json
import math
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

SIMULATOR = "a320bench.server.sim"
LIBRARY_MATHS = frozenset({"exp", "expm1", "log", "log1p", "log2", "log10", "pow", "sin", "cos", "tan", "asin",
                           "acos", "atan", "atan2", "sinh", "cosh", "tanh", "hypot", "cbrt"})  # not sqrt: IEEE


class ForeignMaths:
    """Every library result moved one ulp up or down, chosen by a seeded generator."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.moved = 0

    def nudged(self, y: Any) -> Any:
        if not isinstance(y, float) or y == 0.0 or not math.isfinite(y):
            return y
        self.moved += 1
        return math.nextafter(y, math.inf if self.rng.random() < 0.5 else -math.inf)

    def power(self, a: Any, b: Any) -> Any:
        y = a ** b
        return y if isinstance(a, int) and isinstance(b, int) else self.nudged(y)

    def call(self, function: Any, *args: Any) -> Any:
        y = function(*args)
        return self.nudged(y) if getattr(function, "__name__", "") in LIBRARY_MATHS else y


def other_pythons_sum(items: Any, start: Any = 0) -> Any:
    """sum() as the other Python version adds floats: compensated (3.12+) on 3.11, left to right on 3.12+."""
    items = list(items)
    if sys.version_info >= (3, 12):
        total = start
        for x in items:
            total = total + x
        return total
    if not any(type(x) is float for x in items):
        return sum(items, start)
    total, compensation = float(start), 0.0
    for x in items:  # Neumaier's compensated summation, as Python 3.12's builtin
        t = total + x
        compensation += (total - t) + x if abs(total) >= abs(x) else (x - t) + total
        total = t
    return total + compensation if compensation and math.isfinite(compensation) else total


class _Rewrite(ast.NodeTransformer):
    """`a ** b` -> `_foreign_.power(a, b)`; `math.f(x)` -> `_foreign_.call(math.f, x)`."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Pow):
            call = ast.Call(ast.Attribute(ast.Name("_foreign_", ast.Load()), "power", ast.Load()),
                            [node.left, node.right], [])
            return ast.copy_location(call, node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "math":
            call = ast.Call(ast.Attribute(ast.Name("_foreign_", ast.Load()), "call", ast.Load()), [f, *node.args],
                            node.keywords)
            return ast.copy_location(call, node)
        return node


class _Loader(importlib.machinery.SourceFileLoader):
    maths: ForeignMaths

    def get_code(self, fullname: str) -> Any:  # never the cached bytecode of the unchanged module
        tree = ast.fix_missing_locations(_Rewrite().visit(ast.parse(self.get_data(self.path))))
        return compile(tree, self.path, "exec", dont_inherit=True)

    def exec_module(self, module: Any) -> None:
        module.__dict__.update(_foreign_=self.maths, sum=other_pythons_sum)
        super().exec_module(module)


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, maths: ForeignMaths):
        self.maths = maths

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != SIMULATOR and not name.startswith(SIMULATOR + "."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.origin and spec.origin.endswith(".py"):
            spec.loader = _Loader(name, spec.origin)
            spec.loader.maths = self.maths
        return spec


def main(argv: list[str]) -> int:
    shard, seed = argv
    index, count = (int(n) for n in shard.split("/"))
    maths = ForeignMaths(int(seed))
    sys.meta_path.insert(0, _Finder(maths))
    from tests.golden.catalogue_golden import CATALOGUE, digests

    mine = CATALOGUE[index::count]
    with tempfile.TemporaryDirectory() as folder:
        result = dict(digests(Path(folder), mine))
    json.dump({"digests": result, "moved": maths.moved}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
