"""Boundaries between the packages (ARCHITECTURE.md; issue 17), checked on the syntax
tree of every module under ``pbem/``:

- only ``pbem/store/`` speaks SQL: no SQL text, no ``.db`` / ``db[...]`` / ``.execute``,
  no sqlite3 or sqlite_utils import anywhere else;
- ``pbem/cli.py`` only parses arguments and calls the library: it imports neither the
  rules core nor the store's internals, and loops only to print;
- nothing under ``pbem/report/`` opens the store or calls the service;
- nothing under ``pbem/pack/`` imports the report package (nor the service or store).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PBEM = Path(__file__).resolve().parent.parent / "pbem"
SQL = re.compile(r"\bSELECT\b.+\bFROM\b|\bINSERT\s+(OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b|"
                 r"\bDELETE\s+FROM\b|\b(CREATE|DROP|ALTER)\s+(TABLE|INDEX|VIEW)\b|\bPRAGMA\s+\w+|"
                 r"^\s*(BEGIN|COMMIT|ROLLBACK)\b", re.DOTALL)


def _modules(under: str = "") -> list[Path]:
    return sorted((PBEM / under).rglob("*.py"))


def _rel(path: Path) -> str:
    return str(path.relative_to(PBEM.parent))


def _imports(tree: ast.AST) -> list[str]:
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
            names += [f"{node.module}.{a.name}" for a in node.names]
    return names


def _handle(node: ast.expr) -> bool:
    """A name or attribute that is a database handle (``db``, ``conn``, ``cursor`` …);
    the rules core's own ``execute`` (orders: check, then execute) is not SQL."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return name in ("db", "conn", "connection", "cursor", "cur", "sqlite3")


def sql_uses(tree: ast.AST) -> list[str]:
    """Every place in ``tree`` that speaks SQL or touches the database handle."""
    found = []
    for node in ast.walk(tree):
        where = f"line {getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Attribute) and node.attr in ("db", "rows_where"):
            found.append(f"{where}: .{node.attr}")
        elif isinstance(node, ast.Attribute) and node.attr in ("execute", "executemany", "executescript") and \
                _handle(node.value):
            found.append(f"{where}: .{node.attr} on a database handle")
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "db":
            found.append(f"{where}: db[...]")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value):
            found.append(f"{where}: SQL text {node.value[:40]!r}")
    found += [f"import {n}" for n in _imports(tree) if n.split(".")[0] in ("sqlite3", "sqlite_utils")]
    return found


@pytest.mark.parametrize("path", [p for p in _modules() if "store" not in p.relative_to(PBEM).parts[:1]],
                         ids=_rel)
def test_only_the_store_speaks_sql(path: Path) -> None:
    assert sql_uses(ast.parse(path.read_text(encoding="utf-8"))) == [], _rel(path)


def test_the_sql_check_can_fail() -> None:
    """The checker sees each form the service used before issue 17."""
    code = ('store.db["inbox"].update(1, {})\nstore.db.execute("SELECT 1 FROM outbox WHERE id = ?")\n'
            'db["x"].insert({})\nimport sqlite3\nconn.execute("x")\n')
    assert len(sql_uses(ast.parse(code))) >= 6
    assert sql_uses(ast.parse("standing.execute(ctx, seat, plan)\n")) == []


def cli_problems(tree: ast.Module) -> list[str]:
    """What in a CLI module goes beyond parsing arguments and calling the library."""
    problems = [f"imports {n}" for n in _imports(tree)
                if n.startswith(("pbem.rules", "pbem.store.db", "pbem.store.base", "sqlite3", "sqlite_utils"))]
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.While)):
            body_ok = all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                          and ast.unparse(s.value.func) in ("click.echo", "_fail") for s in node.body)
            if not body_ok:
                problems.append(f"line {node.lineno}: a loop that does more than print")
        if isinstance(node, ast.FunctionDef):
            statements = sum(isinstance(n, ast.stmt) for n in ast.walk(node)) - 1
            if statements > 30:
                problems.append(f"line {node.lineno}: {node.name} has {statements} statements")
    return problems + sql_uses(tree)


def test_cli_only_parses_arguments_and_calls_the_library() -> None:
    assert cli_problems(ast.parse((PBEM / "cli.py").read_text(encoding="utf-8"))) == []


def test_the_cli_check_can_fail() -> None:
    old = ("from pbem import rules\nfrom pbem.store import Store\n"
           "def status():\n    for row in store.db['games'].rows:\n        st = judge.state(row['id'])\n"
           "        click.echo(st)\n")
    assert len(cli_problems(ast.parse(old))) >= 2


@pytest.mark.parametrize("path", _modules("report"), ids=_rel)
def test_reports_never_open_the_store(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = [n for n in _imports(tree) if n.startswith(("pbem.store", "pbem.service", "pbem.archive"))]
    assert bad == [] and sql_uses(tree) == [], _rel(path)


@pytest.mark.parametrize("path", _modules("pack"), ids=_rel)
def test_the_pack_never_imports_the_reports(path: Path) -> None:
    bad = [n for n in _imports(ast.parse(path.read_text(encoding="utf-8")))
           if n.startswith(("pbem.report", "pbem.service", "pbem.store"))]
    assert bad == [], _rel(path)


@pytest.mark.parametrize("path", _modules("store"), ids=_rel)
def test_the_store_imports_nothing_from_mail_report_or_service(path: Path) -> None:
    """Storage knows no mail (issue 26 item 5): what both need (comparing addresses,
    :func:`pbem.addresses.fold_address`) lives below both."""
    bad = [n for n in _imports(ast.parse(path.read_text(encoding="utf-8")))
           if n.startswith(("pbem.mail", "pbem.report", "pbem.service", "pbem.archive"))]
    assert bad == [], _rel(path)
