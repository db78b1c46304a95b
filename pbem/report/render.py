"""Rendering mail bodies from ``templates/`` with Jinja2 (StrictUndefined).

Text is always produced; an HTML alternative is built from the same context. Templates
are shipped inside the installed package as ``pbem.templates``.

Each mail is rendered in its recipient's language (issue 28): one environment per
translations object (:func:`pbem.i18n.translations`), with ``jinja2.ext.i18n``'s
new-style ``_``/``gettext``/``ngettext`` bound to it, so no language is shared between
two mails rendered one after the other.
"""
from __future__ import annotations

import gettext
import importlib.resources
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import markupsafe

from pbem import i18n
from pbem.plural import count
from pbem.report.context import SEAT_COLOURS, WIDTH, wrap


def templates_dir() -> Path:
    """The templates of this copy of pbem: ``templates/`` beside the ``pbem`` package
    when pbem runs from a source tree (so a second checkout never renders with another
    checkout's templates through an editable install's mapping), else the installed
    ``pbem.templates`` package."""
    source = Path(__file__).resolve().parents[2] / "templates"
    if (source / "report.txt.j2").is_file():
        return source
    return Path(str(importlib.resources.files("pbem.templates")))


@lru_cache(maxsize=8)
def environment(tr: gettext.NullTranslations | None = None) -> jinja2.Environment:
    """The Jinja2 environment over the templates (:func:`templates_dir`;
    StrictUndefined: a missing value is an error, never a blank) for the translations
    object ``tr`` (None: English), made once per object: ``jinja2.ext.i18n`` with
    new-style gettext, so ``{{ _("%(n)s problems", n=3) }}`` and ``{{ ngettext("%(num)d
    province", "%(num)d provinces", n) }}`` fill their placeholders after translating
    (and escape them in HTML)."""
    root = templates_dir()
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(root)),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html", "html.j2"]),
        keep_trailing_newline=True,
        trim_blocks=False,
        lstrip_blocks=False,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(tr if tr is not None else i18n.translations(), newstyle=True)  # type: ignore[attr-defined]
    env.filters["wrap"] = wrap
    env.filters["chip"] = seat_chip
    env.filters["count"] = count  # {{ n | count("garrison") }}: "1 garrison", "2 garrisons"
    env.filters["code"] = code_tag
    env.globals["html_lang"] = i18n.language_of(tr) if tr is not None else i18n.DEFAULT
    env.globals["seat_colours"] = SEAT_COLOURS
    env.globals["width"] = WIDTH
    return env


def code_tag(value: object, breaking: bool = True) -> markupsafe.Markup:
    """``value`` as an HTML ``<code>`` element (escaped), one that may break anywhere
    when ``breaking`` (a hash), to put into a translated sentence's placeholder."""
    if breaking:
        return markupsafe.Markup('<code style="word-break:break-all">{}</code>').format(str(value))
    return markupsafe.Markup("<code>{}</code>").format(str(value))


def seat_chip(seat: object) -> markupsafe.Markup:
    """A seat name as a coloured HTML badge (its colour from ``SEAT_COLOURS``)."""
    colour = SEAT_COLOURS.get(str(seat), "#555555")
    return markupsafe.Markup('<span class="seat" style="background:{}">{}</span>').format(colour, str(seat))


def render(name: str, context: Mapping[str, Any], tr: gettext.NullTranslations | None = None) -> str:
    """Render template ``name`` (e.g. ``"prompt.txt.j2"``) with ``context`` in the
    language of the translations object ``tr`` (None: English; :mod:`pbem.i18n`).

    Raises jinja2.UndefinedError when the context lacks a value the template uses.
    """
    return environment(tr).get_template(name).render(**context)
