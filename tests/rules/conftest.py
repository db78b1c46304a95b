"""Fixtures for rules tests: a hand-built pack."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from rules_minipack import mini_pack


@pytest.fixture
def pack():
    """The mini test pack (tests/rules/rules_minipack.py)."""
    return mini_pack()
