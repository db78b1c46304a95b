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


def reaches_mailbox(address: str, mailbox: str) -> bool:
    """Whether mail to ``address`` reaches the mailbox ``mailbox``: the same domain and the
    same local part once a ``+tag`` is cut from either (RFC 5233 subaddressing, which
    most servers apply: ``judge+x@example.org`` is delivered to ``judge@example.org``).
    Addresses compare as :func:`pbem.addresses.fold_address` folds them. Never raises."""
    local, _, domain = fold_address(address).rpartition("@")
    own, _, own_domain = fold_address(mailbox).rpartition("@")
    return bool(own) and domain == own_domain and local.split("+", 1)[0] == own.split("+", 1)[0]
