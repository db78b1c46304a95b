"""How two mail addresses are compared, shared by the mail reader and the store.

:func:`fold_address` lives here, below both :mod:`pbem.mail` (which folds a mail's
sender) and :mod:`pbem.store` (which keeps and looks up seats' and recipients' addresses
folded), so that storage never imports mail (ARCHITECTURE.md: the store imports nothing
from mail, report or service). :mod:`pbem.mail.headers` re-exports it.
"""
from __future__ import annotations

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def fold_address(value: str) -> str:
    """The form in which two addresses are compared: ASCII letters lowercased, every
    other character kept exactly (break-it finding 3). ``str.lower`` maps the Kelvin
    sign U+212A to ``k`` (and other compatibility characters to ASCII), so a lookalike
    address would have matched a seat's; no Unicode case folding or NFKC is applied, and
    two internationalised addresses match only when their non-ASCII characters are the
    same code points (RFC 6531 section 3.2 leaves the local part to the receiving
    server; we do not guess)."""
    return value.translate(_ASCII_LOWER)
