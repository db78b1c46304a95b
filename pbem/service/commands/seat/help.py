"""``command: help``: the player's guide cut to the seat's situation, and the seat's
hand (issue 16).

The guide is docs/player-guide.md, shipped as ``templates/player-guide.md``
(``tools/player_guide.py`` copies it; a test checks they agree). A section (a ``##``
or ``###`` heading and its text) followed by a comment ``<!-- help: TAGS -->`` goes to
the situations TAGS names: a decision kind (``player_turn``, ``reinforcements``,
``turn_order``; every other kind is a ``reaction``), ``waiting`` (no decision of the
seat now) or ``all``. The mail ends with the text of every card in the seat's hand,
which only the seat's own address gets (the reply goes to the sender the envelope
check found to be the seat's).
"""
from __future__ import annotations

import gettext
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem import i18n, rules
from pbem.pack import names as pack_names
from pbem.report import build, context
from pbem.report.render import render, templates_dir
from pbem.service.base.context import Service
from pbem.service.base.settings import wrapped
from pbem.service.commands.registry import Guide, SeatCommand
from pbem.service.commands.reply import Reply
from pbem.service.log import trust
from pbem.service.outgoing import seat_preferences

GUIDE = "player-guide.md"
ENDED_WORDS = {"over": i18n.N_("over"), "abandoned": i18n.N_("abandoned")}
"""The statuses of a game that ended, in words (the translations' source)."""
KINDS = ("player_turn", "reinforcements", "turn_order")
"""Decision kinds with their own sections; every other kind is a ``reaction``."""
_TAG = re.compile(r"<!--\s*help:\s*([a-z_ ]+?)\s*-->")
_HEADING = re.compile(r"^(#{2,3}) (.+)$")


@dataclass(frozen=True)
class Section:
    """One section of the guide: its heading, level (2 or 3), help tags and body
    (markdown, without the tag comment)."""

    title: str
    level: int
    tags: frozenset[str]
    body: str


def sections(text: str) -> list[Section]:
    """The ``##``/``###`` sections of the guide ``text`` with their help tags (empty
    when untagged); comments that are no help tag are dropped."""
    out: list[Section] = []
    parts = re.split(r"(?m)^(?=#{2,3} )", re.sub(r"<!--(?!\s*help:).*?-->\n?", "", text, flags=re.DOTALL))
    for part in parts[1:]:
        head, _, body = part.partition("\n")
        m = _HEADING.match(head)
        if not m:
            continue
        tag = _TAG.search(body)
        out.append(Section(m.group(2).strip(), len(m.group(1)), frozenset(tag.group(1).split()) if tag else
                           frozenset(), _TAG.sub("", body).strip("\n")))
    return out


def guide_name(language: str = i18n.DEFAULT) -> str:
    """The file name of the guide in ``language`` among the templates:
    ``player-guide.md`` (English, also for the pseudo-language),
    ``player-guide.es.md``, ``player-guide.ru.md`` (issue 28)."""
    return GUIDE if language in (i18n.DEFAULT, i18n.PSEUDO) else GUIDE.replace(".md", f".{language}.md")


def guide_text(language: str = i18n.DEFAULT) -> str:
    """The packaged copy of the player's guide in ``language`` (:func:`guide_name`).
    Raises OSError when the installation lacks it."""
    return (templates_dir() / guide_name(language)).read_text(encoding="utf-8")


def situation(kind: str | None) -> str:
    """The help tag of a decision ``kind`` (None: ``waiting``)."""
    if kind is None:
        return "waiting"
    return kind if kind in KINDS else "reaction"


def as_text(markdown: str) -> str:
    """A guide section as mail text: code blocks indented four spaces (kept as they
    are), lists and paragraphs wrapped to 72 columns."""
    out: list[str] = []
    code = False
    para: list[str] = []

    def flush() -> None:
        if para:
            first = para[0]
            if first.startswith("- "):
                out.append(textwrap.fill(" ".join(p.strip() for p in para)[2:], 72, initial_indent="- ",
                                         subsequent_indent="  "))
            else:
                out.append(textwrap.fill(" ".join(p.strip() for p in para), 72))
            para.clear()

    for line in markdown.splitlines():
        if line.startswith("```"):
            flush()
            code = not code
            continue
        if code:
            out.append("    " + line)
        elif not line.strip():
            flush()
            out.append("")
        elif line.startswith("- "):
            flush()
            para.append(line)
        else:
            para.append(line)
    flush()
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n")


EXAMPLE_GAME = re.compile(r"(?m)^(\s*game: )g2\b")
EXAMPLE_SEAT = re.compile(r"(?m)^(\s*seat: )east\b")
"""The guide's example game and seat (``game: g2``, ``seat: east``) in its code blocks."""


def own_examples(text: str, game_id: str | None, seat: str | None) -> str:
    """``text`` (a guide part) with its examples' ``game: g2`` and ``seat: east`` lines
    written with the reader's own game and seat, so they can be copied as they are
    (issue 24 N11); unchanged where either is None."""
    if game_id:
        text = EXAMPLE_GAME.sub(lambda m: m.group(1) + game_id, text)
    if seat:
        text = EXAMPLE_SEAT.sub(lambda m: m.group(1) + seat, text)
    return text


def help_text(kind: str | None, sections_: Sequence[Section], game_id: str | None = None,
              seat: str | None = None) -> list[str]:
    """The guide's parts for the situation of a decision ``kind`` (None: waiting), as
    mail text, headings underlined; with ``game_id`` and ``seat``, its examples name
    them (:func:`own_examples`)."""
    tag = situation(kind)
    parts = []
    for s in sections_:
        if tag in s.tags or "all" in s.tags:
            parts.append(own_examples(f"{s.title.upper() if s.level == 2 else s.title}\n\n{as_text(s.body)}",
                                      game_id, seat))
    return parts


def hand_text(judge: Service, game_id: str, seat: str, options: Mapping[str, Any],
              tr: gettext.NullTranslations | None = None) -> str:
    """The seat's own hand, each card with its number, name, OPs and printed text, in
    the language of ``tr`` (None: English)."""
    _, ngettext = i18n.gettext_of(tr), i18n.ngettext_of(tr)
    state = judge.state(game_id)
    hand = rules.view(state, seat).get("private", {}).get("hand", [])
    language = i18n.language_of(tr) if tr is not None else i18n.DEFAULT  # the cards in the seat's language
    rows = context.hand_rows(pack_names.localized(judge.pack_for(game_id), language), options, hand, tr)
    if not rows:
        return _("YOUR HAND") + "\n\n" + _("Your hand is empty.")
    lines = [ngettext("YOUR HAND (secret: this mail goes only to your seat's address), %(num)d card",
                      "YOUR HAND (secret: this mail goes only to your seat's address), %(num)d cards",
                      len(rows)) % {"num": len(rows)}, ""]
    for r in rows:
        lines.append(textwrap.fill(f"{r['label']}: {r['text']}", 72, subsequent_indent="    "))
    return "\n".join(lines)


def help_(judge: Service, game_id: str, seat: str, doc: Mapping[str, Any]) -> Reply:
    """Mail back the guide for the seat's situation and its hand (see the module
    docstring), in the seat's language: the guide of that language
    (:func:`guide_text`) and the judge's own lines translated (issue 28)."""
    tr = seat_preferences.translations(judge.store, game_id, seat)
    language = i18n.language_of(tr)
    _ = tr.gettext
    state = judge.state(game_id)
    decision = next((d for d in rules.pending(state) if d.seat == seat), None)
    status = (judge.store.game(game_id) or {}).get("status")
    values = {"game": game_id, "step": state.step, "status": _(ENDED_WORDS.get(status or "", status or "")),
              "kind": build.decision_text(decision.kind, tr) if decision else "",
              "rule": decision.rule if decision else ""}
    now = (_("Game %(game)s is %(status)s: it takes no more orders, and its archive holds the whole log "
             "(`command: archive` mails it).")
           if status in trust.ENDED else
           _("Game %(game)s is at step %(step)s and waits for your decision: %(kind)s (%(rule)s). The prompt "
             "mail has the orders to fill in; `command: resend` sends it again.") if decision else
           _("Game %(game)s is at step %(step)s; your seat has no decision now.")) % values
    if status == "paused":  # break16: help said nothing of the pause
        now += " " + _("The host has paused the game: no deadline passes until it resumes (orders are still "
                       "taken).")
    orders = [render("_guide.txt.j2", {"decision": {"kind": decision.kind}}, tr).strip("\n")] if decision else []
    guide = help_text(decision.kind if decision else None, sections(guide_text(language)), game_id, seat)
    if language == i18n.PSEUDO:  # the guide is translated as a whole document, not by catalogue
        guide = [f"{i18n.OPEN}{part}{i18n.CLOSE}" for part in guide]
    parts = [wrapped(_("Help for seat %(seat)s.") % {"seat": seat} + " " + now), *guide,
             *orders,  # the prompt's field-by-field guide for the decision
             hand_text(judge, game_id, seat, decision.options if decision else {}, tr),
             wrapped(_("This mail holds the parts of the guide for your situation now; `command: help` again "
                       "when it changes (your player-turn, a reaction, reinforcements, the turn order, waiting) "
                       "gives the parts for that one. Every field of your orders: HOW TO WRITE THE ORDERS in "
                       "your prompt (`command: resend` mails it again); every problem of an answer names its "
                       "fix."))]
    body = build.render_notice("\n\n".join(parts), game_id, tr)
    return Reply(_("help"), body, preformatted=True)


COMMAND = SeatCommand(
    name="help", fields=(), limit=None, logs=(), after_end=True,
    help="This guide, cut to your seat's situation now, with the text of every card in your hand.",
    guide=Guide("player-guide.md", "Commands by mail"), process=help_)
