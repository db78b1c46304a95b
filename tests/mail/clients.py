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
* :func:`outlook_reply` - Outlook's plain-text reply: the author's text, then the earlier
  mail *unquoted* below a header block in the client's language
  (:data:`OUTLOOK_HEADERS`), every line wrapped at 76 columns without any mark
  (:func:`outlook_wrap`).
"""

from __future__ import annotations

import html
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid

__all__ = ["DEFAULT_REPORT", "ORDERS", "OUTLOOK_HEADERS", "bottom_posted", "html_only", "outlook_reply",
           "outlook_wrap", "top_posted"]

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


#: Outlook's header block above the mail replied to, in the client's language (labels as
#: Outlook for Windows, Outlook on the web and Outlook for Mac write them; ``{sender}``,
#: ``{to}`` and ``{subject}`` are filled in). Only the English one says "From:".
OUTLOOK_HEADERS = {
    "english": "From: {sender}\nSent: Friday, November 20, 2026 8:00 AM\nTo: {to}\nSubject: {subject}",
    "japanese": "差出人: {sender}\n送信日時: 2026年11月20日 8:00\n宛先: {to}\n件名: {subject}",
    "chinese": "发件人: {sender}\n发送时间: 2026年11月20日 8:00\n收件人: {to}\n主题: {subject}",
    "chinese-traditional": "寄件者: {sender}\n寄件日期: 2026年11月20日 上午 08:00\n收件者: {to}\n主旨: {subject}",
    "korean": "보낸 사람: {sender}\n보낸 날짜: 2026년 11월 20일 금요일 오전 8:00\n받는 사람: {to}\n제목: {subject}",
    "german": "Von: {sender}\nGesendet: Freitag, 20. November 2026 08:00\nAn: {to}\nBetreff: {subject}",
    "french": "De : {sender}\nEnvoyé : vendredi 20 novembre 2026 08:00\nÀ : {to}\nObjet : {subject}",
    "spanish": "De: {sender}\nEnviado el: viernes, 20 de noviembre de 2026 8:00\nPara: {to}\nAsunto: {subject}",
    "portuguese": "De: {sender}\nEnviado: sexta-feira, 20 de novembro de 2026 08:00\nPara: {to}\nAssunto: {subject}",
    "italian": "Da: {sender}\nInviato: venerdì 20 novembre 2026 08:00\nA: {to}\nOggetto: {subject}",
    "russian": "От: {sender}\nОтправлено: 20 ноября 2026 г. 8:00\nКому: {to}\nТема: {subject}",
    "polish": "Od: {sender}\nWysłane: piątek, 20 listopada 2026 08:00\nDo: {to}\nTemat: {subject}",
    "turkish": "Kimden: {sender}\nGönderildi: 20 Kasım 2026 Cuma 08:00\nKime: {to}\nKonu: {subject}",
    "greek": "Από: {sender}\nΣτάλθηκε: Παρασκευή, 20 Νοεμβρίου 2026 8:00 πμ\nΠρος: {to}\nΘέμα: {subject}",
    "hebrew": "מאת: {sender}\nנשלח: יום שישי 20 נובמבר 2026 08:00\nאל: {to}\nנושא: {subject}",
    "arabic": "من: {sender}\nتم الإرسال: الجمعة، 20 نوفمبر، 2026 08:00 ص\nإلى: {to}\nالموضوع: {subject}",
    "vietnamese": "Từ: {sender}\nĐã gửi: Thứ Sáu, ngày 20 tháng 11 năm 2026 8:00 SA\nĐến: {to}\nChủ đề: {subject}",
    "thai": "จาก: {sender}\nส่ง: 20 พฤศจิกายน 2569 8:00\nถึง: {to}\nเรื่อง: {subject}",
    "hungarian": "Feladó: {sender}\nElküldve: 2026. november 20., péntek 8:00\nCímzett: {to}\nTárgy: {subject}",
}


def outlook_wrap(text: str, width: int = 76) -> str:
    """Wrap ``text`` as Outlook's plain-text editor does when it sends: a line longer than
    ``width`` breaks at its last space within ``width`` columns and goes on *at column 0*,
    with nothing to mark the break (no format=flowed); a word longer than ``width`` stays
    whole."""
    out: list[str] = []
    for line in text.split("\n"):
        while len(line) > width and " " in line[1:width + 1]:
            cut = line.rindex(" ", 1, width + 1)
            out.append(line[:cut].rstrip(" "))
            line = line[cut + 1:].lstrip(" ")
        out.append(line)
    return "\n".join(out)


def outlook_reply(own_text: str, earlier_text: str, *, locale: str = "english",
                  sender: str = "Kleitos <north@players.example>", to: str = "judge@pbem.example",
                  earlier_sender: str = "pbem judge <judge@pbem.example>",
                  subject: str = "[alexandria-1] step 7: your move, north", separator: bool = True,
                  in_reply_to: str = "<report-7-north@pbem.example>", message_id: str | None = None,
                  date: str = "Fri, 20 Nov 2026 09:30:00 +0000") -> bytes:
    """An Outlook plain-text reply: ``own_text``, a blank line, the header block of
    :data:`OUTLOOK_HEADERS` in ``locale`` (after a line of 32 underscores when
    ``separator``, as Outlook on the web and the new Outlook write it), a blank line and
    ``earlier_text`` *unquoted*; the whole body wrapped by :func:`outlook_wrap`.

    Returns the raw bytes of a ``text/plain; charset=utf-8`` quoted-printable message.
    """
    msg = EmailMessage()
    _headers(msg, sender=sender, to=to, subject="RE: " + subject, in_reply_to=in_reply_to,
             message_id=message_id, date=date, user_agent=None)
    msg["X-Mailer"] = "Microsoft Outlook 16.0"
    block = OUTLOOK_HEADERS[locale].format(sender=earlier_sender, to=sender, subject=subject)
    text = (own_text.rstrip("\n") + "\n\n" + ("_" * 32 + "\n" if separator else "") + block + "\n\n"
            + earlier_text)
    msg.set_content(outlook_wrap(text), charset="utf-8", cte="quoted-printable")
    return msg.as_bytes(policy=SMTP)
