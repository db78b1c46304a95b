"""Build realistic raw mails carrying the same orders the way real mail clients send them.

Reusable outside these tests (e.g. to send the same mails through real SMTP/IMAP): each
function returns the RFC 5322 bytes (CRLF line ends) of a reply to a pbem report.

* :func:`top_posted` - Gmail style: orders above "On ... wrote:" and the quoted report;
  ``multipart/alternative`` with a text/plain part and a text/html part (``&nbsp;``
  indentation, ``gmail_quote`` blockquote).
* :func:`bottom_posted` - Thunderbird style: the quoted report first, the orders below it,
  then a signature; ``text/plain; format=flowed`` (RFC 3676, space-stuffed), quoted-printable.
* :func:`html_only` - webmail style: a single ``text/html`` part, one ``<div>`` per line,
  ``&nbsp;`` indentation, the report in a ``<blockquote>``, quoted-printable.
"""

from __future__ import annotations

import html
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid

__all__ = ["DEFAULT_REPORT", "ORDERS", "bottom_posted", "html_only", "top_posted"]

#: Orders as a player would type them.
ORDERS = """\
game: alexandria-1
seat: north
key: olive-lamp-42
step: 7
orders:
  tyche:
    card: 12
    use: garrisons
    places: [Pelusium, Gaza]
  movement:
    - army: Ptolemy
      path: [Memphis, Pelusium]
"""

#: The judge's report being replied to, including a YAML template that must never be read.
DEFAULT_REPORT = """\
[alexandria-1] step 7: your move, north.

Ptolemy is in Memphis with 6 CUs. Perdikkas marches on Pelusium.

Template:
game: alexandria-1
seat: north
key: olive-lamp-42
step: 7
orders:
  tyche:
    card: ?
    use: garrisons
    places: [Pelusium, Gaza]
  movement:
    - army: Ptolemy
      path: [Memphis, Pelusium]

-- 
pbem judge
"""

_ATTRIBUTION = "On Fri, 20 Nov 2026 at 08:00, pbem judge <judge@pbem.example> wrote:"


def _headers(msg: EmailMessage, *, sender: str, to: str, subject: str, in_reply_to: str,
             message_id: str | None, date: str, user_agent: str | None) -> None:
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = date
    msg["Message-ID"] = message_id or make_msgid(domain="players.example")
    msg["In-Reply-To"] = in_reply_to
    msg["References"] = in_reply_to
    if user_agent:
        msg["User-Agent"] = user_agent


def _quote(text: str) -> str:
    return "\n".join(("> " + line) if line else ">" for line in text.rstrip("\n").split("\n"))


def _html_lines(text: str) -> str:
    """One <div> per line, leading spaces as &nbsp; (what rich-text editors produce)."""
    out = []
    for line in text.rstrip("\n").split("\n"):
        if not line.strip():
            out.append("<div><br></div>")
            continue
        stripped = line.lstrip(" ")
        indent = "&nbsp;" * (len(line) - len(stripped))
        out.append(f"<div>{indent}{html.escape(stripped, quote=False)}</div>")
    return "\n".join(out)


def top_posted(orders_yaml: str = ORDERS, *, sender: str = "Kleitos <north@players.example>",
               to: str = "judge@pbem.example",
               subject: str = "Re: [alexandria-1] your move (step 7)",
               quoted_report: str = DEFAULT_REPORT,
               in_reply_to: str = "<report-7-north@pbem.example>",
               message_id: str | None = None,
               date: str = "Fri, 20 Nov 2026 09:30:00 +0000") -> bytes:
    """A Gmail-style top-posted reply: orders, then "On ... wrote:" and the quoted report.

    Returns the raw bytes of a ``multipart/alternative`` message (text/plain + text/html).
    """
    msg = EmailMessage()
    _headers(msg, sender=sender, to=to, subject=subject, in_reply_to=in_reply_to,
             message_id=message_id, date=date, user_agent=None)
    plain = (f"Here are my orders.\n\n{orders_yaml.rstrip()}\n\nKleitos\n\n"
             f"{_ATTRIBUTION}\n\n{_quote(quoted_report)}\n")
    html_body = (
        '<div dir="ltr"><div>Here are my orders.</div><div><br></div>\n'
        f"{_html_lines(orders_yaml)}\n<div><br></div><div>Kleitos</div></div><br>\n"
        '<div class="gmail_quote"><div dir="ltr" class="gmail_attr">'
        f"{html.escape(_ATTRIBUTION, quote=False)}<br></div>\n"
        '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;'
        'border-left:1px solid rgb(204,204,204);padding-left:1ex">\n'
        f"{_html_lines(quoted_report)}\n</blockquote></div>\n"
    )
    msg.set_content(plain, charset="utf-8")
    msg.add_alternative(f"<html><body>{html_body}</body></html>", subtype="html",
                        charset="utf-8")
    return msg.as_bytes(policy=SMTP)


def _space_stuff(text: str) -> str:
    """RFC 3676 4.4: stuff lines starting with a space, '>' or 'From '."""
    out = []
    for line in text.split("\n"):
        if line.startswith((" ", "From ")):
            line = " " + line
        out.append(line)
    return "\n".join(out)


def bottom_posted(orders_yaml: str = ORDERS, *,
                  sender: str = "Kleitos <north@players.example>",
                  to: str = "judge@pbem.example",
                  subject: str = "Re: [alexandria-1] your move (step 7)",
                  quoted_report: str = DEFAULT_REPORT,
                  in_reply_to: str = "<report-7-north@pbem.example>",
                  message_id: str | None = None,
                  date: str = "Fri, 20 Nov 2026 09:30:00 +0000") -> bytes:
    """A Thunderbird-style bottom-posted reply: quoted report first, orders below, signature.

    Returns the raw bytes of a ``text/plain; format=flowed`` quoted-printable message with
    space-stuffed lines.
    """
    msg = EmailMessage()
    _headers(msg, sender=sender, to=to, subject=subject, in_reply_to=in_reply_to,
             message_id=message_id, date=date,
             user_agent="Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Thunderbird/128.5.0")
    quoted = _quote(quoted_report)
    own = f"Here you go:\n\n{orders_yaml.rstrip()}\n\n-- \nKleitos of Pella"
    text = f"{_ATTRIBUTION}\n{quoted}\n\n{_space_stuff(own)}\n"
    msg.set_content(text, charset="utf-8", cte="quoted-printable",
                    params={"format": "flowed"})
    return msg.as_bytes(policy=SMTP)


def html_only(orders_yaml: str = ORDERS, *, sender: str = "Kleitos <north@players.example>",
              to: str = "judge@pbem.example",
              subject: str = "Re: [alexandria-1] your move (step 7)",
              quoted_report: str = DEFAULT_REPORT,
              in_reply_to: str = "<report-7-north@pbem.example>",
              message_id: str | None = None,
              date: str = "Fri, 20 Nov 2026 09:30:00 +0000") -> bytes:
    """A webmail-style HTML-only reply (no text/plain part at all).

    Returns the raw bytes of a single ``text/html`` quoted-printable message.
    """
    msg = EmailMessage()
    _headers(msg, sender=sender, to=to, subject=subject, in_reply_to=in_reply_to,
             message_id=message_id, date=date, user_agent=None)
    body = (
        "<html><head><meta charset=\"utf-8\"></head><body>"
        '<div style="font-family: Arial, sans-serif; font-size: 14px">'
        f"<div>Orders below.</div><div><br></div>\n{_html_lines(orders_yaml)}\n"
        "<div><br></div><div>Kleitos</div></div>\n"
        f"<div><br></div><div>{html.escape(_ATTRIBUTION, quote=False)}</div>\n"
        f"<blockquote type=\"cite\">\n{_html_lines(quoted_report)}\n</blockquote>"
        "</body></html>\n"
    )
    msg.set_content(body, subtype="html", charset="utf-8", cte="quoted-printable")
    return msg.as_bytes(policy=SMTP)
