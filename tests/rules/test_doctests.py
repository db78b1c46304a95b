"""The examples in the rules API's docstrings run, in the manner of python-chess's
doctests (ARCHITECTURE.md: "doctests on the engine API using the mini pack"): each
public function of the engine API shows at least one example on the mini pack
(``tests/rules/rules_minipack.py``), and every example gives what it shows.
"""
from __future__ import annotations

import doctest
import importlib

import pytest

import pbem.rules

MODULES = ("pbem.rules.engine", "pbem.rules.phases.setup", "pbem.rules.view")
"""The modules whose docstrings carry the examples."""

API = ("new_game", "pending", "check", "execute", "validate", "apply", "fold", "legal_options", "view")
"""The engine API the service calls (pbem/rules/__init__.py): each has an example."""

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _tests(name: str) -> list[doctest.DocTest]:
    return [t for t in doctest.DocTestFinder().find(importlib.import_module(name)) if t.examples]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_give_what_they_show(name: str) -> None:
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    tests = _tests(name)
    assert tests, f"{name} has no examples"
    for t in tests:
        runner.run(t)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed (see above)"


def test_every_function_of_the_engine_api_has_an_example() -> None:
    shown = {t.name.rsplit(".", 1)[-1] for name in MODULES for t in _tests(name)}
    missing = [f for f in API if f not in shown]
    assert not missing, f"no example in the docstring of: {', '.join(missing)}"
    assert all(callable(getattr(pbem.rules, f)) for f in API)
