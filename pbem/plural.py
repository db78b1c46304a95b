"""A count and its noun: the one place the judge's text chooses between singular and
plural ("1 garrison", "2 garrisons", "0 garrisons").

Every count shown next to a noun — in report sentences, prompts, receipts, notices —
goes through :func:`noun` (or :func:`count`), so that when mail is rendered in the
seat's language (issue 28) this becomes ``ngettext`` with the language's CLDR plural
rules, in one place, instead of English ``n == 1`` tests spread over the code.
"""
from __future__ import annotations


def noun(n: int, one: str, other: str | None = None) -> str:
    """The form of a noun that the count ``n`` asks for: ``one`` for 1, else ``other``
    (default ``one + "s"``). ``noun(1, "CU")`` is ``"CU"``, ``noun(3, "army",
    "armies")`` is ``"armies"``. English rules (1 is singular, 0 and the rest
    plural), as ``ngettext(one, other, n)`` reads them.

    >>> noun(0, "garrison")
    'garrisons'
    """
    return one if n == 1 else (other if other is not None else one + "s")


def count(n: int, one: str, other: str | None = None) -> str:
    """``n`` followed by its noun in the right number (:func:`noun`): ``count(1,
    "garrison")`` is ``"1 garrison"``, ``count(2, "siege point")`` is ``"2 siege
    points"``, ``count(5, "army", "armies")`` is ``"5 armies"``.

    >>> count(1, "OP"), count(3, "OP")
    ('1 OP', '3 OPs')
    """
    return f"{n} {noun(n, one, other)}"
