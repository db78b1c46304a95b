"""docs/rules-core.md stays true: its rule index is what tools/rules_index.py makes of the
code now, every module it names exists, and every rule of the brief's sections that the
code implements is in it."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("rules_index", ROOT / "tools" / "rules_index.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["rules_index"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_the_rule_index_is_current() -> None:
    tool = _tool()
    doc = (ROOT / "docs" / "rules-core.md").read_text()
    assert tool.table() in doc, "run tools/rules_index.py"


def test_the_index_names_real_modules_and_the_main_rules() -> None:
    idx = _tool().index()
    for modules in idx.values():
        for m in modules:
            assert (ROOT / "pbem" / "rules" / m).is_file(), m
    for rule in ("R-1.1", "R-2", "R-5", "R-6.5", "R-7.2", "R-8.1", "R-8.2", "R-8.7",
                 "R-9.1", "R-9.2", "R-9.3", "R-10", "R-13", "R-14", "R-15", "R-16.2"):
        assert rule in idx, rule
