"""The rules core is layered (docs/rules-core.md): no import cycles, no imports inside
functions, and every module imports only from its own layer or the layers below.

Layers, bottom to top: ``core`` (state, events, problems, pure board queries) <
``dice`` < ``context`` < ``resolve`` (combat, sieges, fleets, movement, reactions,
independent armies) < ``cards`` (the effect primitives of card events) < ``orders``
(one module per order kind) < ``phases`` (setup, sequence, reinforcement, player-turn,
isolation, victory) < ``engine`` < ``view`` < ``bots`` < the package API
(``pbem/rules/__init__.py``).
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "pbem" / "rules"
LAYERS = ("core", "dice", "context", "resolve", "cards", "orders", "phases", "engine",
          "view", "bots", "__init__")


def _modules() -> dict[str, Path]:
    out = {}
    for f in ROOT.rglob("*.py"):
        rel = f.relative_to(ROOT).with_suffix("")
        name = ".".join(("pbem", "rules", *rel.parts))
        out[name.removesuffix(".__init__")] = f
    return out


def _layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 2:  # pbem.rules itself: the public API
        return LAYERS.index("__init__")
    head = parts[2]
    return LAYERS.index(head)


def _imports(tree: ast.AST, mods: dict[str, Path]) -> set[str]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for cand in (node.module, *(f"{node.module}.{a.name}" for a in node.names)):
                if cand in mods:
                    out.add(cand)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in mods}
    return out


def test_every_module_is_in_a_layer() -> None:
    for m in _modules():
        assert _layer(m) >= 0, m


def test_no_imports_inside_functions() -> None:
    bad = []
    for m, f in _modules().items():
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                bad += [f"{m}:{s.lineno}" for s in ast.walk(node)
                        if isinstance(s, (ast.Import, ast.ImportFrom))]
    assert not bad, "imports inside functions: " + ", ".join(bad)


def test_imports_go_down_the_layers() -> None:
    mods = _modules()
    bad = []
    for m, f in mods.items():
        for t in _imports(ast.parse(f.read_text()), mods):
            if t != m and _layer(t) > _layer(m):
                bad.append(f"{m} imports {t}")
    assert not bad, "upward imports: " + "; ".join(sorted(bad))


def test_no_import_cycles() -> None:
    mods = _modules()
    edges = {m: _imports(ast.parse(f.read_text()), mods) - {m} for m, f in mods.items()}
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for t in sorted(edges[m]):
            if state.get(t) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path[path.index(t):] + [t]))
            if t not in state:
                visit(t)
        path.pop()
        state[m] = 2

    for m in sorted(mods):
        if m not in state:
            visit(m)


def test_the_checks_can_fail(tmp_path: Path) -> None:
    """The cycle and inner-import checks find what they look for (on a made-up tree)."""
    a = ast.parse("from pbem.rules.core.b import x\ndef f():\n    import os\n")
    assert _imports(a, {"pbem.rules.core.b": Path("b.py")}) == {"pbem.rules.core.b"}
    assert any(isinstance(s, ast.Import) for n in ast.walk(a)
               if isinstance(n, ast.FunctionDef) for s in ast.walk(n))
    assert _layer("pbem.rules.bots.random") > _layer("pbem.rules.core.state")
