"""From a parsed MIME message to the lines the author wrote, and the YAML block in them.

Three stages, each a pure function:

1. :func:`extract_body` picks the author's text parts of a message (RFC 2045-2047 MIME,
   RFC 5322 message format): in ``multipart/alternative`` the text/plain part, or the
   text/html part converted to text when the plain part is missing or empty; it decodes
   transfer encodings and charsets (windows-1252 mislabelled as ISO-8859-1 and unknown
   labels included), undoes ``format=flowed`` (RFC 3676, with DelSp), and keeps attached
   ``message/rfc822`` parts aside as forwarded text.
2. :func:`author_lines` splits the body into the author's own lines and everything else:
   inline PGP armor is removed and dash-escaping undone (RFC 4880 section 7.1), quoted
   lines (``>``), reply headers ("On ... wrote:", localised, possibly wrapped), Outlook's
   unquoted "From:/Sent:" block (recognised by its shape in any language), the judge's own
   mail included unquoted (recognised by its content: :func:`is_judge_text`),
   "-----Original Message-----", forwarded blocks, signatures (``-- ``) and mobile
   trailers ("Sent from my iPhone") are set aside.
3. :func:`find_yaml_blocks` finds the YAML blocks among the author's lines: each starts at a
   top-level ``game:`` line and runs while lines look like YAML; a line a mail client broke
   off a comment is rejoined to it, and any other line that does not look like YAML but has
   more of the block below it is kept as a *stray* line for the caller to refuse by name.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from functools import cache
from email.header import decode_header, make_header
from email.message import Message

import html2text

from pbem import i18n
from pbem.mail.blocks import GAME_LINE

__all__ = [
    "AuthorText",
    "Body",
    "author_lines",
    "decode_bytes",
    "extract_body",
    "has_header",
    "header_text",
    "html_to_text",
    "is_judge_text",
    "unflow",
]


# ---------------------------------------------------------------------------------------
# Headers


def header_text(msg: Message, name: str) -> str:
    """Return the decoded value of header ``name`` (first occurrence), ``""`` if absent.

    Never raises: when the ``email`` policy cannot parse the header, the raw value is
    decoded as RFC 2047 encoded-words on a best-effort basis.
    """
    try:
        value = msg.get(name)
        if value is None:
            return ""
        return " ".join(str(value).split())
    except Exception:  # noqa: BLE001, S110 - malformed headers must never stop parsing
        pass
    try:
        for key, raw in msg.raw_items():  # type: ignore[attr-defined]
            if key.lower() == name.lower():
                try:
                    return " ".join(str(make_header(decode_header(str(raw)))).split())
                except Exception:  # noqa: BLE001
                    return " ".join(str(raw).split())
    except Exception:  # noqa: BLE001, S110
        pass
    return ""


def has_header(msg: Message, name: str) -> bool:
    """True when header ``name`` is present (whatever its value); never raises."""
    try:
        return any(key.lower() == name.lower() for key in msg)
    except Exception:  # noqa: BLE001
        return False


# ---------------------------------------------------------------------------------------
# Charsets and transfer encodings (RFC 2045, RFC 2046)

_LATIN1_NAMES = {"latin_1", "iso8859-1", "ascii"}


def decode_bytes(data: bytes, charset: str | None) -> str:
    """Decode body bytes labelled with ``charset``, never raising.

    * no label, ``us-ascii``, ``iso-8859-1``/``latin-1``: UTF-8 if the bytes are valid UTF-8,
      otherwise windows-1252 (what Outlook and others really send under those labels);
    * ``utf-8``: UTF-8, with invalid bytes replaced;
    * other known text codecs: that codec, errors replaced;
    * unknown or non-text labels: as for no label.
    """
    label = (charset or "").strip().strip("\"'").lower()
    codec: str | None = None
    if label:
        try:
            info = codecs.lookup(label)
            if getattr(info, "_is_text_encoding", True):
                codec = info.name
        except (LookupError, ValueError):
            codec = None
    if codec is None or codec in _LATIN1_NAMES:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode("cp1252", errors="replace").replace("\ufffd", "")
    try:
        return data.decode(codec, errors="replace")
    except Exception:  # noqa: BLE001 - exotic codecs may fail in surprising ways
        return data.decode("cp1252", errors="replace")


def unflow(text: str, *, delsp: bool = False) -> str:
    """Undo RFC 3676 ``format=flowed``: join soft line breaks, un-stuff leading spaces.

    A line ending in a space is joined with the next line of the same quote depth (the
    trailing space is removed too when ``delsp``); one leading space is removed from every
    line (space-stuffing); the signature separator ``"-- "`` is never flowed. Quoted lines
    are returned with ``">" * depth + " "`` in front.

    Args:
        text: decoded text with ``\\n`` line breaks.
        delsp: the ``DelSp=yes`` Content-Type parameter.
    """
    out: list[str] = []
    current: str | None = None
    current_depth = 0
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        body = body.removeprefix(" ")
        flowed = body.endswith(" ") and body != "-- "
        if flowed and delsp:
            body = body[:-1]
        if current is not None and depth != current_depth:
            out.append(_quote_prefix(current_depth) + current)
            current = None
        current = body if current is None else current + body
        current_depth = depth
        if not flowed:
            out.append(_quote_prefix(depth) + current)
            current = None
    if current is not None:
        out.append(_quote_prefix(current_depth) + current)
    return "\n".join(out)


def _quote_prefix(depth: int) -> str:
    return ">" * depth + " " if depth else ""


class _PlainHTML2Text(html2text.HTML2Text):
    """html2text without Markdown escaping: ``- army`` must stay ``- army``, not ``\\- army``."""

    def handle_data(self, data: str, entity_char: bool = False) -> None:
        super().handle_data(data, entity_char=True)


_TAG_RE = re.compile(r"<[^>]*>")
_MAX_HTML_CHARS = 2_000_000  # html2text is slow on huge input; orders come first anyway


def html_to_text(html: str) -> str:
    """Convert an HTML body to plain text with html2text, keeping YAML intact.

    Blockquotes become ``>``-quoted lines, ``<pre>`` keeps its line breaks, ``&nbsp;``
    indentation is kept (later normalised to spaces); links, images and emphasis markers
    are dropped; no Markdown escaping and no re-wrapping. Only the first 2 MB are read.
    Never raises.
    """
    html = html[:_MAX_HTML_CHARS]
    try:
        converter = _PlainHTML2Text()
        converter.body_width = 0
        converter.unicode_snob = True
        converter.single_line_break = True  # one <div> per line, as the player saw it
        converter.ignore_links = True
        converter.ignore_images = True
        converter.ignore_emphasis = True
        converter.ignore_tables = True
        return converter.handle(html)
    except Exception:  # noqa: BLE001 - html2text on hostile input: fall back to tag stripping
        return _TAG_RE.sub("", html)


# ---------------------------------------------------------------------------------------
# Body extraction (RFC 2045-2047, RFC 2046 multipart)


@dataclass(frozen=True)
class Body:
    """The author's text of a message.

    Attributes:
        text: decoded, unflowed text (LF line breaks, not yet normalised); the parts of a
            ``multipart/mixed`` message are joined by blank lines.
        forwarded: texts of attached ``message/rfc822`` parts (forwarded mail), each as
            extracted by :func:`extract_body` recursively.
        encrypted: an encrypted part (``multipart/encrypted``, S/MIME enveloped) was found.
        from_html: some text came from a text/html part.
    """

    text: str
    forwarded: tuple[str, ...] = ()
    encrypted: bool = False
    from_html: bool = False


@dataclass
class _Collector:
    texts: list[str] = field(default_factory=list)
    forwarded: list[str] = field(default_factory=list)
    encrypted: bool = False
    from_html: bool = False


def _part_text(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, (bytes, bytearray)):
        payload = str(part.get_payload() or "").encode("utf-8", "surrogateescape")
    try:
        charset = part.get_content_charset()
    except Exception:  # noqa: BLE001
        charset = None
    text = decode_bytes(bytes(payload), charset)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if part.get_content_subtype() == "html":
        return html_to_text(text)
    params = {k.lower(): (v or "").lower() for k, v in part.get_params(failobj=[]) or []}
    if params.get("format") == "flowed":
        text = unflow(text, delsp=params.get("delsp") == "yes")
    return text


def _is_attachment(part: Message) -> bool:
    try:
        return part.get_content_disposition() == "attachment"
    except Exception:  # noqa: BLE001
        return False


def _inner_message(part: Message) -> Message | None:
    payload = part.get_payload()
    if isinstance(payload, list) and payload and isinstance(payload[0], Message):
        return payload[0]
    if isinstance(payload, Message):
        return payload
    return None


def _collect(part: Message, into: _Collector, depth: int) -> None:
    if depth > 30:
        return
    ctype = part.get_content_type()
    if ctype == "message/rfc822" or ctype == "message/global":
        inner = _inner_message(part)
        if inner is not None:
            nested = _Collector()
            _collect(inner, nested, depth + 1)
            into.forwarded.append("\n\n".join(nested.texts + nested.forwarded))
        return
    if ctype in ("multipart/encrypted", "application/pkcs7-mime",
                 "application/x-pkcs7-mime", "application/pgp-encrypted"):
        into.encrypted = True
        return
    if part.is_multipart():
        children = [c for c in part.get_payload() if isinstance(c, Message)]
        if ctype == "multipart/alternative":
            _collect_alternative(children, into, depth)
        elif ctype == "multipart/signed":
            if children:
                _collect(children[0], into, depth + 1)
        else:
            for child in children:
                _collect(child, into, depth + 1)
        return
    if _is_attachment(part) or part.get_content_maintype() != "text":
        return
    subtype = part.get_content_subtype()
    if subtype in ("plain", "html"):
        into.texts.append(_part_text(part))
        into.from_html = into.from_html or subtype == "html"


def _collect_alternative(children: list[Message], into: _Collector, depth: int) -> None:
    """RFC 2046 5.1.4: prefer a non-empty text/plain rendering, else text/html, else any."""
    rendered: list[tuple[str, _Collector]] = []
    for child in children:
        sub = _Collector()
        _collect(child, sub, depth + 1)
        text = "\n\n".join(sub.texts)
        kind = "html" if sub.from_html else "plain"
        if child.get_content_type() == "text/plain":
            kind = "plain"
        if text.strip() or sub.forwarded or sub.encrypted:
            rendered.append((kind, sub))
    for wanted in ("plain", "html"):
        for kind, sub in rendered:
            if kind == wanted:
                into.texts.extend(sub.texts)
                into.forwarded.extend(sub.forwarded)
                into.encrypted = into.encrypted or sub.encrypted
                into.from_html = into.from_html or sub.from_html
                return


def extract_body(msg: Message) -> Body:
    """Extract the author's text from a parsed message.

    Args:
        msg: a message from :func:`email.message_from_bytes` (``policy.default`` preferred).

    Returns:
        A :class:`Body`. Attachments and non-text parts are skipped; attached
        ``message/rfc822`` parts go to :attr:`Body.forwarded`, never to :attr:`Body.text`.
    """
    collector = _Collector()
    _collect(msg, collector, 0)
    return Body(
        text="\n\n".join(collector.texts),
        forwarded=tuple(collector.forwarded),
        encrypted=collector.encrypted,
        from_html=collector.from_html,
    )

# ---------------------------------------------------------------------------------------
# The author's own lines

_QUOTED_RE = re.compile(r"^[ \t]*>")
_UNQUOTE_RE = re.compile(r"^[ \t]*(?:>[ \t]?)+")
_YAML_KEY_START_RE = re.compile(r"""^\s*(?:-\s|["']?[\w.-]+["']?\s*:(?:\s|$))""")
_ATTR_END_RE = re.compile(r"[:：]\s*$")
_WEAK_RE = re.compile(
    r"@|\b\d{1,2}:\d{2}\b|\b(?:19|20)\d{2}\b|\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b"
)
_VERB_RE = re.compile(
    r"(?:\b(?:wrote|writes|schrieb|a [ée]crit|escribi[óo]|ha scritto|scrisse|schreef|"
    r"escreveu|napisa[łl]a?|skrev|kirjoitti|[íi]rta|naps[aá]l|nap[íi]sal|"
    r"написала?|пишет|έγραψε|yazd[ıi])(?:\W|$)|написал\(а\)|写道|寫道|書きました|작성)",
    re.IGNORECASE,
)
_FORWARD_RE = re.compile(
    r"^\s*(?:-{2,}\s*(?:[^-\n]*\b)?(?:forward\w*|weitergeleitet\w*|transf[ée]r[ée]|reenviad\w*|"
    r"inoltrat\w*|пересыла\w*|перенаправл\w*|doorgestuurd|vidarebefordra\w*|videresend\w*|"
    r"przekazan\w*|p[řr]eposlan\w*|v[äa]litetty|encaminhad\w*|ileti\w*)\b[^\n]*"
    r"|(?:begin forwarded message|anfang der weitergeleiteten nachricht|"
    r"d[ée]but du message r[ée]exp[ée]di[ée]|inicio del mensaje reenviado|"
    r"inizio messaggio inoltrato)\s*:\s*)$",
    re.IGNORECASE,
)
_ORIGINAL_RE = re.compile(
    r"^\s*-{2,}\s*(?:original message|original-nachricht|urspr[üu]ngliche nachricht|"
    r"originalnachricht|message d'origine|message original|mensaje original|"
    r"messaggio originale|исходное сообщение|oorspronkelijk bericht|originalmeddelande|"
    r"oprindelig meddelelse|opprinnelig melding|wiadomo[śs][ćc] oryginalna|"
    r"p[ůu]vodn[íi] zpr[áa]va|alkuper[äa]inen viesti|mensagem original)\s*-{2,}\s*$",
    re.IGNORECASE,
)
_OUTLOOK_FROM_RE = re.compile(
    r"^\s*(?:from|von|de|da|от|van|fr[åa]n|fra|od|kimden|l[äa]hett[äa]j[äa]|felad[óo])\s*:\s*\S",
    re.IGNORECASE,
)
_OUTLOOK_FIELD_RE = re.compile(
    r"^\s*(?:sent|date|gesendet|datum|envoy[ée]|enviado|fecha|inviato|data|отправлено|дата|"
    r"verzonden|skickat|sendt|wys[łl]ano|odesl[áa]no|l[äa]hetetty|g[öo]nderildi|to|an|[àa]|"
    r"para|кому|aan|till|til|do|subject|betreff|objet|asunto|oggetto|тема|onderwerp|"
    r"[äa]mne|emne|temat|p[řr]edm[ěe]t|aihe|konu|cc)\s*:",
    re.IGNORECASE,
)
_TRAILER_RE = re.compile(
    r"^\s*(?:sent from my \w+|sent from (?:mail|outlook|yahoo mail|my mobile)|"
    r"get outlook for \w+|sent via \w+|sent with \w+|envoy[ée] de mon \w+|"
    r"von meinem \w+ gesendet|enviado desde mi \w+|inviato da(?:l mio)? \w+|"
    r"отправлено с \w+|verzonden (?:vanaf|met) (?:mijn )?\w+|skickat fr[åa]n min \w+|"
    r"sendt fra min \w+|wys[łl]ane z \w+)",
    re.IGNORECASE,
)
#: The starts of lines only the judge's own mails hold (templates/*.txt.j2 and the
#: answers of pbem/service/), lowercased; with :data:`_JUDGE_LINE_RE`, see
#: :func:`is_judge_text`.
_JUDGE_PREFIXES = (
    "reply to this mail with the block below, edited",  # the prompt, above its template
    "- replace your-seat-key with your seat key",
    "your hand (private: only you see this)",
    "the block the judge found in your mail:",  # a rejection, above its echo
    "your orders as the judge read them",  # a receipt
    "your seat key is",  # a welcome or a handover ("...is:" or "...is not in this mail"), above its example
    "pbem judge for ", "pbem judge.",  # the signature of every mail
)
_JUDGE_LINE_RE = re.compile(
    r"\[?[\w.-]+\]?,? step \d+: (?:your move, |orders from \S+ accepted)"  # a prompt, a receipt
    r"|turn \d+ \(\d+ bc\), round \d+\."  # a report
    r"|your mail \"[^\"]*(?:$|\" was not applied)"  # a rejection
    r"|log witness(?:\W+the judge's event log|: [0-9a-f]{16})"
    r"|[\w.-]+: past reports for \w+\.")  # a history answer


_JUDGE_MSGIDS = (
    ("Reply to this mail with the block below, edited:\n"
     "- replace YOUR-SEAT-KEY with your seat key (from your welcome mail\n"
     "  or the host; keep it secret; never quote someone else's key);\n"
     "- keep the game, seat and step lines as they are;\n"
     "- write your orders under \"orders:\" (pre-filled with the default),\n"
     "  indented with spaces, not tabs. Cards by number, spaces by name;\n"
     "- optional: a line \"salt: <any words>\" mixes words of your own into\n"
     "  the dice, so nobody, the judge included, knows the rolls in advance."),
    "YOUR HAND (private: only you see this)",
    "The block the judge found in your mail:",
    "Your orders as the judge read them (SHA-256 %(hash)s):",
    "Your seat key is:",
    "Your seat key is not in this mail: the host gives it to you (the judge keeps only a hash of it). If you have "
    "not got it, ask the host.",
    "Your seat key is not in this mail: the host of %(game)s%(host)s gives it to you; the judge keeps only a hash "
    "of it and cannot send it. If you have not got it, ask the host. Keep it secret: every orders mail you send to "
    "%(judge)s carries it. An orders mail looks like",
    "pbem judge for %(game)s.",
    "pbem judge.",
)
"""The catalogue's messages whose translations start lines only the judge's mail holds:
the Spanish and Russian of :data:`_JUDGE_PREFIXES` (issue 28 lang28e item 7). Each gives
its first line (the prompt's, its first two), up to its first placeholder, ``(`` or
``:`` inside the line (:func:`_translated_prefixes`)."""
_JUDGE_SUFFIX_MSGIDS = (
    "Hello %(name)s: the player of seat %(seat)s in %(game)s asked the judge to send the seat's mail to this "
    "address from now on. To confirm, send the judge (%(judge)s) a mail from this address, before %(until)s, "
    "holding these lines:",
)
"""Messages whose translations end a line only the judge's mail holds (after their last
placeholder: the address confirmation's "..., holding these lines:")."""


def _cut(line: str) -> str:
    """``line`` up to its first placeholder, and up to a ``(`` or a ``:`` that is not its
    last character when at least 10 characters stand before it, lowercased and stripped."""
    line = line.split("%(")[0]
    for mark in ("(", ":"):
        at = line.find(mark)
        if at > 0 and len(line[:at].strip()) >= 10 and at < len(line.rstrip()) - 1:
            line = line[:at]
    return line.strip().lower()


@cache
def _translated_prefixes() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The starts (and ends) of lines of the judge's mail in every language but English
    (:data:`_JUDGE_MSGIDS`, :data:`_JUDGE_SUFFIX_MSGIDS`), read from the catalogues once
    per process; a message a catalogue does not translate gives nothing (English has
    :data:`_JUDGE_PREFIXES`). Parts shorter than 10 characters are left out: too short
    to be the judge's alone."""
    starts: list[str] = []
    ends: list[str] = []
    for language in i18n.LANGUAGES:
        if language == i18n.DEFAULT:
            continue
        tr = i18n.translations(language)
        for msgid in _JUDGE_MSGIDS:
            said = tr.gettext(msgid)
            if said == msgid:
                continue
            lines = said.split("\n")
            starts += [_cut(x) for x in lines[:2 if msgid.startswith("Reply to this mail") else 1]]
        for msgid in _JUDGE_SUFFIX_MSGIDS:
            said = tr.gettext(msgid)
            if said != msgid:
                ends.append(said.rsplit(")s", 1)[-1].strip().lower())
    return (tuple(dict.fromkeys(x for x in starts if len(x) >= 10)),
            tuple(dict.fromkeys(x for x in ends if len(x) >= 10)))


def is_judge_text(line: str) -> bool:
    """True for a line only the judge's own mails hold (issue 24 item 4): the first lines
    of a prompt, a receipt, a report, a rejection, a history answer, a welcome or handover
    and an address confirmation ("... holding these lines:"); the lines just above each
    YAML block the judge sends; the witness; the signature. Case-insensitive, after
    leading "#", "*" and spaces (the HTML alternative converted to text). The same lines
    of the judge's Spanish and Russian mail count too, read from the catalogues
    (:func:`_translated_prefixes`; issue 28 lang28e item 7).

    A reply that includes the judge's mail *unquoted* (Outlook, whatever the language of
    its header block) ends the author's text at the first such line, so the judge's
    template is never read as a second orders block; tests/service/test_orders_block_mail.py
    checks that every mail the judge sends in a game is recognised.
    """
    text = line.lstrip("#* \t").lower()
    starts, ends = _translated_prefixes()
    if text.startswith(_JUDGE_PREFIXES) or text.rstrip().endswith("holding these lines:"):
        return True
    if text.startswith(starts) or text.rstrip().endswith(ends):
        return True
    return (", step " in text or text.startswith(("turn ", "your mail \"", "log witness"))
            or ": past reports for " in text) and bool(_JUDGE_LINE_RE.match(text))


#: One field of a mail client's header block, in any language: a label that is not an
#: orders key (which are lowercase ASCII), of at most 30 characters, then
#: ":" or a full-width "：" and a value ("差出人: ...", "Von: ...", "De : ...", "보낸 사람: ...").
_HEADER_FIELD_RE = re.compile(r"^(?![a-z])[^\s:：#>\-\[{\"'][^:：]{0,29}[:：][ \t]*\S")
_SEPARATOR_RE = re.compile(r"^\s*(?:_{10,}|-{10,}|={10,}|-{3,}[^-\n]{1,60}?-{3,})\s*$")
_PGP_BEGIN_SIGNED = "-----BEGIN PGP SIGNED MESSAGE-----"
_PGP_BEGIN_SIGNATURE = "-----BEGIN PGP SIGNATURE-----"
_PGP_BEGIN_MESSAGE = "-----BEGIN PGP MESSAGE-----"


@dataclass(frozen=True)
class AuthorText:
    """The body split into the author's own text and the rest.

    Attributes:
        lines: one entry per body line (same numbering as ``text.split("\\n")``): the line
            as the author wrote it (PGP dash-escaping undone), or ``None`` when it is not the
            author's own text (quoted, reply header and below, forwarded, signature, trailer,
            PGP armor).
        quoted: the earlier mail the author replied to (quote markers removed).
        forwarded: lines of inline forwarded blocks ("---------- Forwarded message ...").
        encrypted: an inline ``BEGIN PGP MESSAGE`` block was found (and skipped).
        earlier_at: index of the first line of an earlier mail included *unquoted* below
            the author's text (a client's header block, its separator line, or the
            judge's own text), or ``None``.
        judge_at: index of the first line of the judge's own mail (:func:`is_judge_text`)
            outside ``>`` quotes, or ``None``: from there on nothing is the author's.
    """

    lines: tuple[str | None, ...]
    quoted: tuple[str, ...] = ()
    forwarded: tuple[str, ...] = ()
    encrypted: bool = False
    earlier_at: int | None = None
    judge_at: int | None = None


def _strip_pgp(lines: list[str]) -> tuple[list[str | None], bool]:
    """Remove inline OpenPGP armor and undo dash-escaping (RFC 4880 sections 6.2, 7, 7.1)."""
    out: list[str | None] = []
    mode: str | None = None
    encrypted = False
    for line in lines:
        stripped = line.strip()
        if mode is None:
            if stripped == _PGP_BEGIN_SIGNED:
                mode = "headers"
            elif stripped == _PGP_BEGIN_MESSAGE:
                mode, encrypted = "armor", True
            elif stripped == _PGP_BEGIN_SIGNATURE:
                mode = "armor"
            else:
                out.append(line)
                continue
            out.append(None)
        elif mode == "headers":  # "Hash: SHA256" armor headers up to the first blank line
            out.append(None)
            if not stripped:
                mode = "signed"
        elif mode == "signed":
            if stripped == _PGP_BEGIN_SIGNATURE:
                mode = "armor"
                out.append(None)
            else:
                out.append(line.removeprefix("- "))
        else:  # inside a signature or an encrypted message
            out.append(None)
            if stripped.startswith("-----END PGP"):
                mode = None
    return out, encrypted


def _next_nonblank(lines: list[str | None], start: int) -> int | None:
    for index in range(start, len(lines)):
        line = lines[index]
        if line is not None and line.strip():
            return index
    return None


def _attribution(lines: list[str | None], i: int) -> tuple[int, bool, bool]:
    """Detect a reply header ("On ... wrote:") starting at line ``i``, wrapped over <= 3 lines.

    Returns ``(number of lines, has a "wrote" verb, followed by quoted lines)``; the number
    is 0 when there is no header. A header ends with ':' and carries a date, a time or an
    address; it must either use a known verb or be followed by ``>`` quoted lines.
    """
    first = lines[i]
    if first is None or _YAML_KEY_START_RE.match(first):
        return 0, False, False
    for k in range(3):
        index = i + k
        line = lines[index] if index < len(lines) else None
        if line is None or not line.strip() or _QUOTED_RE.match(line):
            break
        joined = " ".join((x or "").strip() for x in lines[i:index + 1])
        if len(joined) > 400:
            break
        if _ATTR_END_RE.search(joined) and _WEAK_RE.search(joined):
            strong = bool(_VERB_RE.search(joined))
            after = _next_nonblank(lines, index + 1)
            quoted = after is not None and bool(_QUOTED_RE.match(lines[after] or ""))
            if strong or quoted:
                return k + 1, strong, quoted
    return 0, False, False


def _is_outlook_block(lines: list[str | None], i: int) -> bool:
    """Outlook's unquoted header block: "From: ..." followed by "Sent:/To:/Subject: ..."."""
    first = lines[i] or ""
    if not first[:1].isupper() or not _OUTLOOK_FROM_RE.match(first):
        return False  # orders' own keys ("from: Memphis") are lowercase and indented
    seen = 0
    for line in lines[i + 1:i + 7]:
        if line and line[:1].isupper() and _OUTLOOK_FIELD_RE.match(line):
            seen += 1
    return seen >= 2 or (seen >= 1 and "@" in first)


def _header_run(lines: list[str | None], i: int) -> list[str]:
    """The non-blank own lines from ``i`` on (at most 10)."""
    run: list[str] = []
    for line in lines[i:i + 10]:
        if line is None or not line.strip():
            break
        run.append(line)
    return run


def _looks_like_headers(run: list[str], fields_needed: int) -> bool:
    """``run`` is a client's header block: it starts with a field, has at least
    ``fields_needed`` fields, at most two other lines (a wrapped address list), and no
    ``game:`` line."""
    fields = [line for line in run if _HEADER_FIELD_RE.match(line)]
    return (bool(run) and bool(_HEADER_FIELD_RE.match(run[0])) and len(fields) >= fields_needed
            and len(run) - len(fields) <= 2 and not any(GAME_LINE.match(line) for line in run))


def _is_header_block(lines: list[str | None], i: int) -> bool:
    """A mail client's header block above an earlier mail it includes unquoted, in any
    language, by its shape: after a blank line (or a separator, or at the top), three or
    more "Label: value" fields in a row, two of which carry an address, a date or a time
    ("差出人: pbem judge <judge@...>", "送信日時: 2026年11月20日 8:00", ...)."""
    above = lines[i - 1] if i else None
    if i and above is not None and above.strip() and not _SEPARATOR_RE.match(above):
        return False
    run = _header_run(lines, i)
    if not _looks_like_headers(run, 3):
        return False
    return sum(1 for line in run if _HEADER_FIELD_RE.match(line) and _WEAK_RE.search(line)) >= 2


def _earlier_mail_start(own: list[str | None], i: int) -> int:
    """Where the earlier mail whose text is recognised at line ``i`` begins: the client's
    header block right above it (two fields or more, any language) and a separator line
    above that, when there are; else ``i``."""
    start = i
    j = i - 1
    while j >= 0 and own[j] is not None and not (own[j] or "").strip():
        j -= 1
    end = j
    while j >= 0 and own[j] is not None and (own[j] or "").strip() and end - j < 10:
        j -= 1
    if end >= 0 and (j < 0 or not (own[j] or "").strip()) and _looks_like_headers(
            [line or "" for line in own[j + 1:end + 1]], 2):
        start = j + 1
    return _separator_start(own, start)


def _separator_start(own: list[str | None], i: int) -> int:
    """``i``, or the own separator line ("____", "-----Original Message-----") right above
    line ``i`` (blank lines between allowed)."""
    k = i - 1
    while k >= 0 and own[k] is not None and not (own[k] or "").strip():
        k -= 1
    if k >= 0 and own[k] is not None and _SEPARATOR_RE.match(own[k] or ""):
        return k
    return i


def author_lines(text: str, *, forwarded_subject: bool = False) -> AuthorText:
    """Split normalised body text into the author's own lines and the rest.

    Args:
        text: body text, already passed through :func:`normalise_text`.
        forwarded_subject: the subject says "Fwd:"/"FW:"/..., so an unquoted Outlook header
            block introduces a forwarded message rather than a quoted reply.

    Returns:
        An :class:`AuthorText`. Reply headers followed by ``>`` quotes end only that quote
        (bottom-posted and interleaved replies keep the author's text below the quote);
        unquoted earlier mail (Outlook block, a client's header block in any language,
        "-----Original Message-----", a header with no quote after it, the judge's own
        text with the header block and separator above it) and signatures run to the end;
        forwarded blocks run to the end.
    """
    raw_lines = text.split("\n")
    lines, encrypted = _strip_pgp(raw_lines)
    own: list[str | None] = [None] * len(lines)
    quoted: list[str] = []
    forwarded: list[str] = []
    state = "own"
    earlier_at: int | None = None
    judge_at: int | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if line is None:
            i += 1
            continue
        if judge_at is None and not _QUOTED_RE.match(line) and is_judge_text(line):
            judge_at = i
            if state == "own":  # the judge's own mail, included unquoted: not the author's
                earlier_at = _set_aside(own, quoted, _earlier_mail_start(own, i), i)
                state = "forward" if forwarded_subject else "reply"
        if state == "forward":
            forwarded.append(line)
        elif state != "reply" and _FORWARD_RE.match(line):
            state = "forward"
        elif _QUOTED_RE.match(line) or state == "reply":
            quoted.append(_UNQUOTE_RE.sub("", line))
        elif state == "sig":
            pass
        elif _ORIGINAL_RE.match(line) or _is_outlook_block(lines, i) or _is_header_block(lines, i):
            state = "forward" if forwarded_subject else "reply"
            earlier_at = _set_aside(own, quoted, _separator_start(own, i), i)
            quoted.append(line)
        elif line.rstrip(" ") in ("--", "-- ") or line == "-- ":
            state = "sig"
        else:
            length, strong, followed_by_quote = _attribution(lines, i)
            if length and (followed_by_quote or strong):
                quoted.extend(x or "" for x in lines[i:i + length])
                if not followed_by_quote:
                    state = "reply"
                i += length
                continue
            if not (_TRAILER_RE.match(line) and line[:1].isupper()):
                own[i] = line
        i += 1
    return AuthorText(tuple(own), tuple(quoted), tuple(forwarded), encrypted, earlier_at, judge_at)


def _set_aside(own: list[str | None], quoted: list[str], start: int, i: int) -> int:
    """Lines ``start`` to ``i`` (exclusive) belong to an earlier mail, not to the author:
    move them from ``own`` to ``quoted``. Returns ``start``."""
    for k in range(start, i):
        if own[k] is not None:
            quoted.append(own[k] or "")
            own[k] = None
    return start
