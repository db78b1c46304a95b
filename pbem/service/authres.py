"""Using the receiving server's ``Authentication-Results`` (RFC 8601: SPF RFC 7208, DKIM
RFC 6376, DMARC RFC 7489) to judge whether ``From:`` is genuine (issue 17, finding 13).

The config chooses (``authentication:``):

- ignore (no ``authserv_id``, the default): never look;
- trust (``authserv_id`` set): refuse an orders mail when our server says it *fails*
  (``dmarc=fail``, or no aligned pass and ``dkim=fail`` / ``spf=fail``);
- require (``authserv_id`` and ``require: true``): refuse an orders mail unless our
  server says it *passes* (``dmarc=pass``, or ``dkim=pass`` with ``header.d`` aligned
  with the From domain, or ``spf=pass`` with ``smtp.mailfrom`` aligned).

Only the topmost ``Authentication-Results`` field whose authserv-id is the configured
``authentication.authserv_id`` counts: anything a sender wrote himself carries another
id or sits below ours (RFC 8601 section 5 and 7.2).

The fields are read here from the raw header with the stdlib. Note for the merge with
branch ``mail``: there ``ParsedMail.authentication`` carries the same field, parsed by
``pbem.mail.authresults`` (with the ``authres`` library), and
``sender_authentication`` gives the verdict; :func:`refusal` should then take those and
this module's parser go. The value grammar (``authserv-id; method=result
ptype.property=value …``, comments in parentheses) is tokenised by hand: no maintained
library on our package list parses RFC 8601, and the grammar needed is small.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from email.parser import BytesHeaderParser
from email.policy import compat32
from typing import Literal

from pbem.config import Config
from pbem.mail.message import ParsedMail
from pbem.service.issue import Issue

Verdict = Literal["pass", "fail", "none"]
_COMMENT = re.compile(r"\([^()]*\)")
_RESULT = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*=\s*([A-Za-z0-9_-]+)(.*)$", re.DOTALL)
_PROP = re.compile(r"([A-Za-z0-9_-]+\.[A-Za-z0-9_.-]+)\s*=\s*(\"[^\"]*\"|[^\s;]+)")


@dataclass(frozen=True)
class Method:
    """One ``method=result`` of an Authentication-Results field, with its properties
    (``header.d``, ``header.from``, ``smtp.mailfrom`` …), lowercased."""

    method: str
    result: str
    props: dict[str, str] = field(default_factory=dict)


def parse_field(value: str) -> tuple[str, list[Method]]:
    """``(authserv-id, methods)`` of one Authentication-Results value (RFC 8601 2.2);
    comments are dropped. Never raises: junk gives ``("", [])``."""
    text = " ".join(value.split())
    for _ in range(3):  # comments may nest a little
        text = _COMMENT.sub(" ", text)
    parts = _split(text)
    if not parts:
        return "", []
    authserv = parts[0].split()[0].lower() if parts[0].split() else ""
    methods = []
    for part in parts[1:]:
        m = _RESULT.match(part)
        if m:
            props = {k.lower(): v.strip('"').lower() for k, v in _PROP.findall(m.group(3))}
            methods.append(Method(m.group(1).lower(), m.group(2).lower(), props))
    return authserv, methods


def _split(text: str) -> list[str]:
    """Split on ``;`` outside double quotes."""
    parts, cur, quoted = [], [], False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        if ch == ";" and not quoted:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return [p for p in parts if p]


def our_results(raw: bytes, authserv_id: str) -> list[Method] | None:
    """The methods of the topmost Authentication-Results field of ``raw`` whose
    authserv-id is ``authserv_id``; None when there is none."""
    try:
        msg = BytesHeaderParser(policy=compat32).parsebytes(raw)
        fields = msg.get_all("Authentication-Results") or []
    except Exception:  # noqa: BLE001 - a header we cannot read is no result
        return None
    for value in fields:
        serv, methods = parse_field(str(value))
        if serv == authserv_id.lower():
            return methods
    return None


def _aligned(domain: str, from_domain: str) -> bool:
    """Relaxed alignment (RFC 7489 3.1): one domain is the other or a subdomain of it."""
    d, f = domain.lower().strip("."), from_domain.lower().strip(".")
    return bool(d) and (d == f or f.endswith("." + d) or d.endswith("." + f))


def verdict(methods: list[Method] | None, from_domain: str) -> Verdict:
    """``pass``, ``fail`` or ``none`` for the From domain, from our server's methods."""
    if not methods:
        return "none"
    by = {m.method: m for m in methods}
    if "dmarc" in by and by["dmarc"].result in ("pass", "fail"):
        return by["dmarc"].result  # type: ignore[return-value]
    for m in methods:
        if m.result != "pass":
            continue
        domain = m.props.get("header.d") if m.method == "dkim" else \
            m.props.get("smtp.mailfrom", "").rsplit("@", 1)[-1] if m.method == "spf" else ""
        if domain and _aligned(domain, from_domain):
            return "pass"
    if any(m.method in ("dkim", "spf") and m.result in ("fail", "softfail") for m in methods):
        return "fail"
    return "none"


def refusal(config: Config, raw: bytes, parsed: ParsedMail) -> Issue | None:
    """The problem to answer when the ``authentication:`` config refuses this orders
    mail, else None (always None without ``authserv_id`` or for machine mail)."""
    if not config.authserv_id or parsed.action != "accept" or not parsed.sender:
        return None
    found = verdict(our_results(raw, config.authserv_id), parsed.sender.rsplit("@", 1)[-1])
    if found == "fail" or (config.require_authentication and found != "pass"):
        what = "fails" if found == "fail" else "does not pass"
        return Issue(f"The receiving mail server reports that this mail {what} the sender checks "
                     f"(SPF/DKIM/DMARC) for {parsed.sender}, so it was not read as orders: anyone can write "
                     "any From: address, and this judge only takes orders it can trust.", code="auth.results",
                     hint="Send your orders from your own mail account (its provider's server), not through "
                          "another server or a forwarding service.")
    return None
