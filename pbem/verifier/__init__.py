"""The standalone verifier (docs/trust.md): :mod:`pbem.verifier.pbem_verify` is one file
with the standard library only, copied into every game archive so that a player checks
the judge's log, seed, rolls and witnesses without installing pbem; ``pbem verify``
runs the same checks on the database (:func:`pbem.service.verify.verify_game`)."""
from __future__ import annotations

from pathlib import Path

#: the verifier's source file, as the archive copies it
SOURCE = Path(__file__).with_name("pbem_verify.py")
