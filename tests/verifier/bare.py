"""The standalone verifier run the way a player runs it: ``python3 pbem_verify.py DIR``
with a Python that has nothing but its standard library, from a directory outside the
repository.

The interpreter is this test run's own (``sys.executable``) with ``-I -S``: isolated
mode (no PYTHON* variables, no script or user directory on the path) and no ``site``
module, so neither the virtual environment's site-packages (where pbem is installed)
nor the current directory can lend the verifier anything. The first ``python3`` on
PATH is not used: with the virtual environment activated it is the venv's, and pbem
imports there (issue 24, finding 16).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BARE_PYTHON = (sys.executable, "-I", "-S")
"""A Python with the standard library only, whatever PATH or an activated venv says."""


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("PYTHON") and k != "VIRTUAL_ENV"}


def run_verifier(archive: Path, *args: str, cwd: Path, script: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``script`` (default: the archive's own ``pbem_verify.py``) on ``archive`` with
    ``args`` under :data:`BARE_PYTHON` in ``cwd``; the finished process (text output)."""
    script = script or archive / "pbem_verify.py"
    return subprocess.run([*BARE_PYTHON, str(script), str(archive), *args], capture_output=True, text=True,
                          cwd=cwd, env=_env(), timeout=300, check=False)


def imports(module: str, cwd: Path) -> bool:
    """Whether :data:`BARE_PYTHON` can import ``module`` when started in ``cwd``."""
    done = subprocess.run([*BARE_PYTHON, "-c", f"import {module}"], capture_output=True, text=True, cwd=cwd,
                          env=_env(), timeout=60, check=False)
    return done.returncode == 0
