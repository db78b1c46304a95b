"""Every package under ``pbem/`` has no import cycle and no import inside a function
(ARCHITECTURE.md; issue 26 items 5 and the "done when"), measured on the syntax trees the
way ``/work/shared/tools/import_structure.py`` measures them: an import anywhere in a
module counts (``TYPE_CHECKING`` blocks included, since they still tie the modules'
meaning together), and a cycle is a strongly connected component of more than one module
of the whole ``pbem`` tree, so a cycle running through two packages counts against both.

The modules directly in ``pbem/`` (``cli.py``, ``config.py``, ``archive.py``, ...) form
the group ``pbem`` (top-level). ``pbem/cli.py`` may import inside its commands exactly the
modules of :data:`CLI_DEFERRED`, for start-up time (measured in its docstring), and
nothing else.

A package still being restructured is listed in :data:`LEFT` with the work that brings
it to 0/0; every other package must be at 0/0, and a package added later is checked
without anyone having to list it.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PBEM = Path(__file__).resolve().parent.parent / "pbem"

LEFT: dict[str, str] = {}
"""Packages not yet at 0/0, each with the work that fixes it; remove the entry with it."""

CLI_DEFERRED = ("pbem.service", "pbem.archive", "pbem.demo", "pbem.report.mapview")
"""What ``pbem/cli.py`` imports inside its commands: the service and what loads it, and
the map drawing (cairo); see the start-up figures in its docstring."""


def modules(root: Path = PBEM) -> dict[str, Path]:
    """Every module under ``root`` by dotted name (a package by its own name)."""
    out = {}
    for f in sorted(root.rglob("*.py")):
        name = ".".join(("pbem", *f.relative_to(root).with_suffix("").parts))
        out[name.removesuffix(".__init__")] = f
    return out


def imported(tree: ast.AST, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``tree`` imports (``from a import b`` counts ``a``
    and, when it is a module, ``a.b``)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out |= {m for m in (node.module, *(f"{node.module}.{a.name}" for a in node.names))
                    if m in known}
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in known}
    return out


def inner_imports(tree: ast.AST, deferred: tuple[str, ...] = ()) -> list[int]:
    """Line numbers of the imports made inside a function (sync or async), but those
    of a module under one of ``deferred``."""
    return sorted({s.lineno for n in ast.walk(tree)
                   if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                   for s in ast.walk(n) if isinstance(s, (ast.Import, ast.ImportFrom))
                   and not all(_under(name, deferred) for name in _names(s))})


def _names(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    return [a.name for a in node.names]


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[set[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(comp)
    return found


def package_of(module: str) -> str:
    """``pbem.pack.loader`` -> ``pbem.pack``; a top-level module (``pbem.cli``) and
    ``pbem`` itself -> ``pbem``."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or (PBEM / parts[-1]).is_dir() else "pbem"


MODULES = modules()
TREES = {m: ast.parse(f.read_text(encoding="utf-8")) for m, f in MODULES.items()}
EDGES = {m: imported(t, set(MODULES)) - {m} for m, t in TREES.items()}
PACKAGES = sorted({package_of(m) for m in MODULES})


def figures(package: str) -> tuple[int, list[str]]:
    """``(modules of package in its largest cycle, ["module:line" of each inner
    import])``."""
    largest = max((len(c) for c in cycles(EDGES) if any(package_of(m) == package for m in c)),
                  default=0)
    inner = [f"{m}:{line}" for m, t in TREES.items() if package_of(m) == package
             for line in inner_imports(t, CLI_DEFERRED if m == "pbem.cli" else ())]
    return largest, inner


@pytest.mark.parametrize("package", [p for p in PACKAGES if p not in LEFT])
def test_no_import_cycle_and_no_import_inside_a_function(package: str) -> None:
    largest, inner = figures(package)
    assert (largest, inner) == (0, []), (
        f"{package}: largest import cycle {largest} modules; imports inside functions: "
        + ", ".join(inner))


def test_the_cli_defers_only_what_its_docstring_measures() -> None:
    """Every deferred module of the CLI is named in the start-up note of its docstring."""
    doc = ast.get_docstring(TREES["pbem.cli"]) or ""
    assert "Start-up time" in doc
    assert all(f":mod:`{m}`" in doc or m.removeprefix("pbem.") in doc for m in CLI_DEFERRED)


def test_every_package_left_out_still_exists() -> None:
    """An entry of :data:`LEFT` names a real package, so a renamed or finished package
    does not stay unchecked under an old name."""
    assert set(LEFT) <= set(PACKAGES)


def test_the_checks_can_fail() -> None:
    """The measure sees a two-module cycle, an import inside a function and inside an
    async function, and puts modules in their packages."""
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [{"a", "b"}]
    assert cycles({"a": {"b"}, "b": set()}) == []
    tree = ast.parse("import os\ndef f():\n    import sys\nasync def g():\n    from x import y\n")
    assert inner_imports(tree) == [3, 5]
    assert inner_imports(tree, ("sys",)) == [5]
    assert inner_imports(ast.parse("def f():\n    from pbem.service.judge import Judge\n"),
                         ("pbem.service",)) == []
    assert inner_imports(ast.parse("def f():\n    from pbem.servicex import y\n"), ("pbem.service",)) == [2]
    assert imported(ast.parse("from pbem.pack import graph\n"), {"pbem.pack", "pbem.pack.graph"}) \
        == {"pbem.pack", "pbem.pack.graph"}
    assert [package_of(m) for m in ("pbem.pack.loader", "pbem.cli", "pbem", "pbem.rules")] \
        == ["pbem.pack", "pbem", "pbem", "pbem.rules"]
