"""Using the receiving server's ``Authentication-Results`` (RFC 8601: SPF RFC 7208, DKIM
RFC 6376, DMARC RFC 7489) to judge whether ``From:`` is genuine (issue 17, finding 13).

The mail package reads the field that counts — the topmost one whose authserv-id is
``authentication.authserv_id`` — into ``ParsedMail.authentication``
(:mod:`pbem.mail.authresults`), and ``sender_authentication`` says whether our server
authenticated the From domain (``pass``, ``fail`` or ``none``). The config chooses:

- ignore (no ``authserv_id``, the default): never look;
- trust (``authserv_id`` set): an orders mail that ``fail``-s is refused;
- require (``authserv_id`` and ``require: true``): an orders mail that does not ``pass``
  is refused.
"""
from __future__ import annotations

from pbem.config import Config
from pbem.mail.authresults import sender_authentication
from pbem.mail.message import ParsedMail
from pbem.problems import Problem


def refusal(config: Config, parsed: ParsedMail) -> Problem | None:
    """The problem to answer when the ``authentication:`` config refuses this orders
    mail, else None (always None without ``authserv_id`` or for machine mail)."""
    if not config.authserv_id or parsed.action != "accept" or not parsed.sender:
        return None
    found = sender_authentication(parsed.authentication, parsed.sender)
    if found == "fail" or (config.require_authentication and found != "pass"):
        what = "fails" if found == "fail" else "does not pass"
        return Problem(message=f"The receiving mail server reports that this mail {what} the sender checks "
                     f"(SPF/DKIM/DMARC) for {parsed.sender}, so it was not read as orders: anyone can write "
                     "any From: address, and this judge only takes orders it can trust.", code="auth.results",
                     hint="Send your orders from your own mail account (its provider's server), not through "
                          "another server or a forwarding service.")
    return None
