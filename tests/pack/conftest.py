"""Fixtures for the data-pack tests: the built-in pack and a writable copy of it."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.pack.loader import PACK_FILES, builtin_pack_dir, load_pack
from pbem.pack.model import Pack


@pytest.fixture(scope="session")
def pack() -> Pack:
    """The built-in Successors pack."""
    return load_pack()


@pytest.fixture
def pack_copy(tmp_path: Path) -> Path:
    """A directory holding a copy of the built-in pack's YAML files."""
    d = tmp_path / "mypack"
    d.mkdir()
    for name in PACK_FILES:
        (d / name).write_bytes((builtin_pack_dir() / name).read_bytes())
    return d


@pytest.fixture
def edit(pack_copy: Path) -> Callable[[str, Callable[[Any], None]], Path]:
    """``edit(file, fn)``: load ``file`` of the copy, let ``fn`` mutate the document,
    write it back; returns the pack directory."""

    def _edit(name: str, fn: Callable[[Any], None]) -> Path:
        path = pack_copy / name
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        fn(doc)
        path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        return pack_copy

    return _edit
