"""Near-miss suggestions ("did you mean ...?") for names typed by players."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["did_you_mean", "suggest"]


def suggest(word: str, candidates: Iterable[str], *, cutoff: float = 0.75) -> str | None:
    """Return the candidate closest to ``word``, ignoring case, or ``None``.

    An exact case-insensitive match wins (``"pelusium"`` -> ``"Pelusium"``); otherwise the
    best :func:`difflib.get_close_matches` match with ratio >= ``cutoff``
    (``"Pelusim"`` -> ``"Pelusium"``). Candidates are returned as spelled in ``candidates``;
    ties go to the earlier candidate.

    Args:
        word: what the player typed.
        candidates: the allowed names.
        cutoff: minimum :class:`difflib.SequenceMatcher` ratio, 0..1.
    """
    folded: dict[str, str] = {}
    for candidate in candidates:
        folded.setdefault(str(candidate).casefold(), str(candidate))
    key = str(word).strip().casefold()
    if not key or not folded:
        return None
    if key in folded:
        return folded[key]
    matches = difflib.get_close_matches(key, list(folded), n=1, cutoff=cutoff)
    return folded[matches[0]] if matches else None


def did_you_mean(word: object, candidates: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The hint ``"did you mean X?"`` for a name a player got wrong: ``X`` the
    candidate :func:`suggest` finds for ``word`` (an exact match ignoring case counts
    too: ``"ptolemy"`` -> ``"did you mean Ptolemy?"``), else ``None``. ``cutoff`` as
    for :func:`suggest`; 0.6 is :func:`difflib.get_close_matches`' own, as the names of
    spaces have always been matched."""
    near = suggest(str(word), candidates, cutoff=cutoff)
    return f"did you mean {near}?" if near else None
