"""The languages a seat's mail is rendered in (issue 28): English, Spanish, Russian.

Only rendering is translated: events, the hash chain, the archive's log and the verifier
stay language-free, and orders keep English keys and order words. Each mail is rendered
with one translations object (a :class:`gettext.NullTranslations`), chosen for its
recipient: there is no process-wide current language, so two seats' mails rendered one
after the other (or in two threads) never share one.

The catalogues are gettext ``.po`` files, one domain (:data:`DOMAIN`), in
``pbem/locale/<language>/LC_MESSAGES/pbem.po``, managed with Babel (``pybabel extract -F
babel.cfg``, ``update``; docs/glossary.md names the game's terms). They are compiled to
the binary ``.mo`` form **in memory at first use** (:func:`translations`, Babel's
``read_po`` and ``write_mo``, once per process and language): so a fresh clone, an
editable install (``.ci/run``, the README's quick start) and a wheel all read the same
``.po`` with no build step and no compiled file that could lag behind its source.
The Plural-Forms header comes from Babel's CLDR data (Russian: three forms, 1 карта,
2 карты, 5 карт, 21 карта), never written by hand (tests/test_i18n.py checks it).

:data:`PSEUDO` is a pseudo-language for the tests and for checking a template: every
translated string comes out wrapped in ``⟦…⟧``, so a line of a mail without the mark is
English that no catalogue can translate (tests/service/test_pseudo_locale.py).
"""
from __future__ import annotations

import gettext
import io
from collections.abc import Callable, Mapping
from datetime import datetime
from functools import cache
from pathlib import Path
from zoneinfo import ZoneInfo

from babel.dates import format_skeleton, format_time
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DOMAIN = "pbem"
"""The gettext domain of every catalogue."""
DEFAULT = "en"
"""The language of a seat that chose none, of the host, and of the source strings."""
LANGUAGES: tuple[str, ...] = ("en", "es", "ru")
"""The languages a seat or host may choose (``language:``), English first."""
PSEUDO = "qps"
"""The pseudo-language (the ``qps-…`` tags are reserved for pseudo-locales): English
text with every translated string marked ``⟦…⟧``; a host may set it for a seat to see
what is not translated yet, a player cannot choose it."""
NAMES: Mapping[str, str] = {"en": "English", "es": "español", "ru": "русский", PSEUDO: "pseudo"}
"""Each language's name in itself, as a player choosing it would look for it."""
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""Where the catalogues are: ``LOCALE_DIR/<language>/LC_MESSAGES/pbem.po``."""
OPEN, CLOSE = "⟦", "⟧"
"""The marks :data:`PSEUDO` puts around every translated string."""


def is_language(code: object, *, pseudo: bool = False) -> bool:
    """Whether ``code`` is a language the judge renders (:data:`LANGUAGES`; with
    ``pseudo``, :data:`PSEUDO` too: the host's config and ``pbem game new`` take it)."""
    return code in LANGUAGES or (pseudo and code == PSEUDO)


def catalogue_path(language: str) -> Path:
    """The ``.po`` file of ``language`` (``es`` or ``ru``)."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def extracted() -> frozenset[str]:
    """Every msgid of the catalogues' template (``pbem/locale/pbem.pot``, what Babel
    extracts; a plural message by its singular): the strings a catalogue can translate.
    Empty when the template is missing from the installation."""
    path = LOCALE_DIR / f"{DOMAIN}.pot"
    if not path.is_file():
        return frozenset()
    with path.open("rb") as pot:
        catalog = read_po(pot, domain=DOMAIN)
    return frozenset(m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id)


class PseudoTranslations(gettext.NullTranslations):
    """English with every translated string wrapped in ``⟦…⟧`` (:data:`PSEUDO`). The
    mark goes around the template of a message, before its ``%(name)s`` placeholders
    are filled, so a name or a number put into it stays inside the mark. Only a message
    the catalogues' template holds (:func:`extracted`) is marked: one said through
    gettext under a name Babel does not extract (``n_(...)``), or never marked for
    extraction, stays English in every catalogue, and shows so here."""

    def gettext(self, message: str) -> str:
        known = extracted()
        return f"{OPEN}{message}{CLOSE}" if message and (not known or message in known) else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        known = extracted()
        text = msgid1 if n == 1 else msgid2
        return f"{OPEN}{text}{CLOSE}" if text and (not known or msgid1 in known) else text

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.ngettext(msgid1, msgid2, n)


@cache
def translations(language: str = DEFAULT) -> gettext.NullTranslations:
    """The translations object of ``language``: English (:data:`DEFAULT`) is a
    ``NullTranslations`` (the source strings as they are), :data:`PSEUDO` a
    :class:`PseudoTranslations`, ``es`` and ``ru`` a ``GNUTranslations`` compiled in
    memory from the ``.po`` catalogue with Babel (once per process and language). The
    object is never changed after it is made, so one may serve any number of mails.
    Raises ValueError for a language that is not one of :data:`LANGUAGES` or
    :data:`PSEUDO`, and OSError if a catalogue is missing from the installation."""
    tr: gettext.NullTranslations
    if language == DEFAULT:
        tr = gettext.NullTranslations()
    elif language == PSEUDO:
        tr = PseudoTranslations()
    elif language not in LANGUAGES:
        raise ValueError(f"not a language of this judge: {language!r} (one of {', '.join(LANGUAGES)})")
    else:
        with catalogue_path(language).open("rb") as po:
            catalog = read_po(po, locale=language, domain=DOMAIN)
        buf = io.BytesIO()
        write_mo(buf, catalog, use_fuzzy=False)
        buf.seek(0)
        tr = gettext.GNUTranslations(buf)
    _LANGUAGE_OF[id(tr)] = language  # kept for the process (cached above), so the id stays its own
    return tr


_LANGUAGE_OF: dict[int, str] = {}


def language_of(tr: gettext.NullTranslations) -> str:
    """The language a translations object renders (:data:`DEFAULT` for any object that
    is not one of :func:`translations`'s)."""
    return _LANGUAGE_OF.get(id(tr), DEFAULT)


def babel_locale(language: str) -> str:
    """The CLDR locale Babel formats ``language``'s dates with (the pseudo-language
    formats as English)."""
    return "en" if language == PSEUDO else language


def format_when(moment: datetime, time_zone: str, language: str = DEFAULT) -> str:
    """A deadline or a date as a reader of ``language`` writes it, in the game's time
    zone (an IANA name), with the zone's abbreviation: English keeps the judge's
    ``2026-12-03 01:26 UTC`` form (what every mail showed before issue 28); ``es`` and
    ``ru`` use CLDR's date with the weekday and short time (Babel's ``format_skeleton``
    and ``format_time``), ``jue, 3 dic 2026 1:26 UTC``, ``чт, 3 дек. 2026 г. 01:26 UTC``.
    ``moment`` is timezone-aware. Raises ``zoneinfo.ZoneInfoNotFoundError`` for an
    unknown zone."""
    zone = ZoneInfo(time_zone)
    local = moment.astimezone(zone)
    if language in (DEFAULT, PSEUDO):
        return f"{local:%Y-%m-%d %H:%M} {local.tzname()}"
    where = babel_locale(language)
    return (f"{format_skeleton('yMMMEd', local, tzinfo=zone, locale=where)} "
            f"{format_time(local, 'short', tzinfo=zone, locale=where)} {local.tzname()}")


def gettext_of(tr: gettext.NullTranslations | None) -> Callable[[str], str]:
    """The ``gettext`` of ``tr`` (None: English), the ``_`` of a function that renders
    text for one recipient."""
    return (tr if tr is not None else translations()).gettext


def ngettext_of(tr: gettext.NullTranslations | None) -> Callable[[str, str, int], str]:
    """The ``ngettext`` of ``tr`` (None: English): the form of a message for a count, by
    the language's CLDR plural rules."""
    return (tr if tr is not None else translations()).ngettext


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it here: for strings kept
    in tables and translated where they are rendered (``tr.gettext(TABLE[key])``)."""
    return message


__all__ = [
    "DEFAULT",
    "DOMAIN",
    "LANGUAGES",
    "Localizable",
    "NAMES",
    "N_",
    "PSEUDO",
    "PseudoTranslations",
    "babel_locale",
    "catalogue_path",
    "extracted",
    "format_when",
    "gettext_of",
    "is_language",
    "language_of",
    "localize",
    "ngettext_of",
    "translations",
]


Localizable = str | Callable[[gettext.NullTranslations], str]
"""A text for mail that may go to several readers in several languages: a text as it
is, or a function that writes it with a reader's translations object (one call per
recipient: a host notice to every seat, each in its own language)."""


def localize(text: Localizable, tr: gettext.NullTranslations | None = None) -> str:
    """``text`` for the reader of ``tr`` (None: English): itself when it is a text,
    else what it writes with ``tr`` (:data:`Localizable`)."""
    return text if isinstance(text, str) else text(tr if tr is not None else translations())
