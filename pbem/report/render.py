"""Rendering mail bodies from ``templates/`` with Jinja2 (StrictUndefined).

Text is always produced; an HTML alternative is built from the same context. Templates
are shipped inside the installed package as ``pbem.templates``.
"""
from __future__ import annotations

import importlib.resources
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import markupsafe

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


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The Jinja2 environment over the templates (:func:`templates_dir`;
    StrictUndefined: a missing value is an error, never a blank)."""
    root = templates_dir()
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(root)),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html", "html.j2"]),
        keep_trailing_newline=True,
        trim_blocks=False,
        lstrip_blocks=False,
    )
    env.filters["wrap"] = wrap
    env.filters["chip"] = seat_chip
    env.filters["count"] = count  # {{ n | count("garrison") }}: "1 garrison", "2 garrisons"
    env.globals["seat_colours"] = SEAT_COLOURS
    env.globals["width"] = WIDTH
    return env


def seat_chip(seat: object) -> markupsafe.Markup:
    """A seat name as a coloured HTML badge (its colour from ``SEAT_COLOURS``)."""
    colour = SEAT_COLOURS.get(str(seat), "#555555")
    return markupsafe.Markup('<span class="seat" style="background:{}">{}</span>').format(colour, str(seat))


def render(name: str, context: Mapping[str, Any]) -> str:
    """Render template ``name`` (e.g. ``"prompt.txt.j2"``) with ``context``.

    Raises jinja2.UndefinedError when the context lacks a value the template uses.
    """
    return environment().get_template(name).render(**context)
