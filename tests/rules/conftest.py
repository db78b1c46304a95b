"""Fixtures for rules tests: a hand-built pack registered with the engine."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from rules_minipack import mini_pack

from pbem.rules import register_pack


@pytest.fixture
def pack():
    """The mini test pack (tests/rules/rules_minipack.py), registered by name."""
    p = mini_pack()
    register_pack(p)
    return p
