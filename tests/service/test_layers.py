"""The service is layered (docs/pipeline.md, "The service's layers"; issue 26): no import
cycles (imports under ``TYPE_CHECKING`` count), no imports inside functions, and every
module imports only from its own layer or the layers below.

Layers, bottom to top, one folder each: ``base`` (the context every stage takes — config,
store, clock, pack and state lookup — and the text, settings and calendar helpers) <
``outgoing`` (the outbox and sending it, notices to hosts, server faults, the answers'
rate limit, preferences and digests, the answers) < ``log`` (the service's own entries in
a game's log) < ``identity`` (envelope, Authentication-Results, the host key) < ``play``
(game setup, adjudication, reports, deadlines, the end) < ``commands`` (the command
registry and every command) < ``intake`` (the rules and the chain from a raw mail to its
outcome) < the top (the ``Judge`` facade, the loop, the runner, ``status``, ``verify``,
the package API). A layer's ``__init__.py`` imports nothing, so importing a module of a
layer never pulls in another.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "pbem" / "service"
LAYERS = ("base", "outgoing", "log", "identity", "play", "commands", "intake", "top")


def _modules() -> dict[str, Path]:
    out = {}
    for f in ROOT.rglob("*.py"):
        rel = f.relative_to(ROOT).with_suffix("")
        out[".".join(("pbem", "service", *rel.parts)).removesuffix(".__init__")] = f
    return out


def _layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 2 or (len(parts) == 3 and parts[2] not in LAYERS):  # the package API, the top modules
        return LAYERS.index("top")
    return LAYERS.index(parts[2])


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
    folders = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders <= set(LAYERS), folders - set(LAYERS)
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


def test_a_layers_package_imports_nothing() -> None:
    for layer in LAYERS[:-1]:
        tree = ast.parse((ROOT / layer / "__init__.py").read_text())
        assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))], layer


def test_the_context_imports_no_stage() -> None:
    mods = _modules()
    f = mods["pbem.service.base.context"]
    assert _imports(ast.parse(f.read_text()), mods) <= {"pbem.service.base.text"}


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


def test_the_checks_can_fail() -> None:
    """The import, layer and inner-import checks find what they look for (a made-up tree)."""
    a = ast.parse("from pbem.service.play import setup\ndef f():\n    import os\n")
    mods = {"pbem.service.play": Path("p"), "pbem.service.play.setup": Path("g.py")}
    assert _imports(a, mods) == {"pbem.service.play", "pbem.service.play.setup"}
    assert any(isinstance(s, ast.Import) for n in ast.walk(a)
               if isinstance(n, ast.FunctionDef) for s in ast.walk(n))
    assert _layer("pbem.service.judge") > _layer("pbem.service.intake.intake") > _layer("pbem.service.base.context")
