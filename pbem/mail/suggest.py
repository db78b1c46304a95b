"""Near-miss suggestions ("did you mean ...?") for names typed by players."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["suggest"]


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
