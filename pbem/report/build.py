"""Turning game state and events into mail bodies: prompts, reports, receipts, replies.

The per-seat view comes from :func:`pbem.rules.view` (which strips other seats' secrets);
this module only arranges it for the templates, narrates events in words and draws the
map snapshot.
"""
from __future__ import annotations

import gettext
import logging
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from pbem import i18n, rules
from pbem.mail.body import text_to_html
from pbem.pack import names as pack_names
from pbem.pack.model import Pack
from pbem.report import account, context, orders_text, snapshot
from pbem.report.context import WIDTH
from pbem.rules.core.names import ENGLISH, unit_word
from pbem.report.render import render

log = logging.getLogger(__name__)

N_ = i18n.N_
DECISION_KINDS = {"player_turn": N_("player turn"), "turn_order": N_("turn order"),
                  "reinforcements": N_("reinforcements"), "intercept": N_("intercept"),
                  "avoid_battle": N_("avoid battle"), "naval_battle": N_("naval battle"),
                  "inside_join": N_("inside join"), "surprise": N_("surprise")}
"""Each decision kind in words (R-6, R-7, R-8, R-9; the translations' source); a kind
not listed reads as its name with spaces."""


def decision_text(kind: str, tr: gettext.NullTranslations | None = None) -> str:
    """A decision kind in words in the language of ``tr`` (None: English):
    ``player_turn`` is "player turn" (:data:`DECISION_KINDS`)."""
    words = DECISION_KINDS.get(kind)
    if words is None:
        return kind.replace("_", " ")
    return (tr or i18n.translations()).gettext(words)


@dataclass(frozen=True)
class Rendered:
    """A rendered mail body: plain text and its HTML alternative."""

    text: str
    html: str


_LAST: dict[str, tuple[Any, Any]] = {}


def _public_view(state: rules.GameState) -> dict[str, Any]:
    """``rules.view(state, None)``, reused while the same state object is rendered for
    every seat (read only)."""
    hit = _LAST.get("view")
    if hit is None or hit[0] is not state:
        hit = (state, rules.view(state, None))
        _LAST["view"] = hit
    return hit[1]


def _pending(state: rules.GameState) -> list[rules.Decision]:
    """``rules.pending(state)``, reused for the same state object."""
    hit = _LAST.get("pending")
    if hit is None or hit[0] is not state:
        hit = (state, rules.pending(state))
        _LAST["pending"] = hit
    return hit[1]


def summary(pack: Pack, view: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
            tr: gettext.NullTranslations | None = None) -> dict[str, Any]:
    """The state block of a mail (see :func:`pbem.report.context.state_summary`) in the
    language of ``tr`` (None: English); reused while the same view object is rendered
    for every seat of one language (read only)."""
    key = (pack.name, tuple((s["seat"], s["player"]) for s in seats), i18n.language_of(tr) if tr else i18n.DEFAULT)
    hit = _LAST.get(f"summary:{key[2]}")
    if hit is None or hit[0] is not view or hit[1][0] != key:
        hit = (view, (key, context.state_summary(pack, view, seats, tr)))
        _LAST[f"summary:{key[2]}"] = hit
    return hit[1][1]


def _before_view(state: rules.GameState | None) -> dict[str, Any] | None:
    """``rules.view(state, None)`` of the position before a report's events, reused
    while the same state object is rendered for every seat (None: no such position)."""
    if state is None:
        return None
    hit = _LAST.get("before")
    if hit is None or hit[0] is not state:
        hit = (state, rules.view(state, None))
        _LAST["before"] = hit
    return hit[1]


def played_when(pack: Pack, view: Mapping[str, Any], tr: gettext.NullTranslations | None = None) -> dict[str, Any]:
    """The game turn, its year and the round (or phase) of a view, as a report's heading
    names the moment its step was played: ``{"turn", "year", "stage"}`` (R-6), in the
    language of ``tr`` (None: English)."""
    years = {t.number: t.year_bc for t in pack.turns}
    turn = view.get("turn", 1)
    return {"turn": turn, "year": view.get("year_bc") or years.get(turn, "?"),
            "stage": context.stage_text(view, tr, over=False)}


def _rolled_back(events: Sequence[rules.Event]) -> bool:
    """Whether ``events`` roll the game back (``RollbackAnnounced``): the report's heading
    then names the position restored, as its standings do (issue 24 N7: "Turn 4, turn
    order phase" stood over "STANDINGS - turn 3, round 5")."""
    return any(e.kind == "RollbackAnnounced" for e in events)


def report_context(pack: Pack, state: rules.GameState, events: Sequence[rules.Event], *, game_id: str, step: int,
                   seat: str | None, seats: Sequence[Mapping[str, Any]], headline: str, seed_commitment: str,
                   map_cid: str | None = None, before: rules.GameState | None = None,
                   map_attached: bool | None = None, bots: Mapping[str, str] | None = None,
                   tr: gettext.NullTranslations | None = None) -> dict[str, Any]:
    """The context of ``report.txt.j2`` / ``report.html.j2`` for ``seat`` (None: the
    public report of the archive). Only the public view and the events ``seat`` may see
    are used, so another seat's hand never reaches a template. ``before``: the position
    the events were played from; the heading then names its turn and round (a report
    that closes a game turn is the last turn's, R-6.7; a rollback's names the position
    restored) and the report lists every change
    of control, VP and LP since it with its cause (:func:`pbem.report.account.changes`;
    issue 24). ``map_attached``: whether the mail carries the map picture (default:
    when ``map_cid`` is given); the footer says so only then. ``bots``: ``{seat: bot
    label}`` of the seats a bot plays, named in the heading (none: no line). Places,
    generals and cards are named in the language of ``tr`` (the pack's names,
    :func:`pbem.pack.names.localized`; issue 28)."""
    pack = pack_names.localized(pack, i18n.language_of(tr) if tr else i18n.DEFAULT)
    view = _public_view(state)
    prior = _before_view(before)
    visible = context.visible_events(events, seat)
    pend = _pending(state)
    players = {s["seat"]: s["player"] for s in seats}
    return {
        "game_id": game_id, "step": step, "headline": headline, "seat": seat,
        "player": players.get(seat, "") if seat else "",
        "when": played_when(pack, view if prior is None or _rolled_back(events) else prior, tr),
        "changes": (account.changes(pack, prior, view, visible, tr)
                    + account.grant_changes(pack, before, events, tr)),
        "map_attached": bool(map_cid) if map_attached is None else map_attached,
        "happened": context.happenings(pack, visible, view, tr),
        "played": [context.card_label(pack, e.data.get("card"), tr or ENGLISH) for e in visible
                   if e.kind in ("CardPlayed", "CardDiscarded", "SurprisePlayed") and e.data.get("card") is not None],
        "rolls": sum(1 for e in visible if e.kind == "DiceRolled"),
        "seed_commitment": seed_commitment, "view": summary(pack, view, seats, tr),
        "next": [{"seat": d.seat, "player": players.get(d.seat, ""), "kind": decision_text(d.kind, tr),
                  "rule": d.rule} for d in pend],
        "map_src": f"cid:{map_cid}" if map_cid else None,
        "witness": None,
        "nav": [],
        "bots": ", ".join(f"{s} ({b})" for s, b in (bots or {}).items()),
    }


def render_report(pack: Pack, state: rules.GameState, events: Sequence[rules.Event], *, game_id: str, step: int,
                  seat: str | None, seats: Sequence[Mapping[str, Any]], headline: str, seed_commitment: str,
                  map_cid: str | None = None, witness: str | None = None, before: rules.GameState | None = None,
                  map_attached: bool | None = None, bots: Mapping[str, str] | None = None,
                  tr: gettext.NullTranslations | None = None) -> Rendered:
    """The report after a player-turn for ``seat``: what happened in order (public
    events plus the seat's own private ones, each die roll with purpose, dice, rule and
    whatever else the ``DiceRolled`` event carries), the public state (VP, LP,
    Champion/Usurper, control, armies, royal family, cards) and, once ``state.result``
    is set, the end-of-game summary (R-1). ``seat=None`` gives the public report.
    ``map_cid``: the Content-ID of the map attached as an inline part; the HTML shows
    it with ``<img src="cid:...">`` (None: no image in the HTML). ``witness``:
    ``"HASH@N"``, the hash of the log's event N after this step, which a player can
    later check the judge's log against (``pbem verify --witness``). ``before``: the
    position the events were played from (the heading's turn and round; every change of
    control, VP and LP with its cause, issue 24); ``map_attached``: whether the mail
    carries the map picture (default: when ``map_cid`` is given); ``bots``: ``{seat:
    bot label}`` of the seats a bot plays, named in the heading (docs/bots.md); ``tr``:
    the translations of the seat's language (None: English; :mod:`pbem.i18n`)."""
    ctx = report_context(pack, state, events, game_id=game_id, step=step, seat=seat, seats=seats,
                         headline=headline, seed_commitment=seed_commitment, map_cid=map_cid, before=before,
                         map_attached=map_attached, bots=bots, tr=tr)
    ctx["witness"] = witness
    return Rendered(render("report.txt.j2", ctx, tr), render("report.html.j2", ctx, tr))


def prompt_context(pack: Pack, state: rules.GameState, decision: rules.Decision, *, game_id: str,
                   seat_row: Mapping[str, Any], deadline: str, seats: Sequence[Mapping[str, Any]],
                   tr: gettext.NullTranslations | None = None) -> dict[str, Any]:
    """The context of ``prompt.txt.j2`` / ``prompt.html.j2``: the deciding seat's own
    hand and options (``rules.view(state, decision.seat)["private"]``), the public state,
    the YAML template (pre-filled with the deadline default) and the deadline. The
    cards' names and texts, the places and generals read in the language of ``tr``
    (:func:`pbem.pack.names.localized`); the YAML template keeps the canonical (English)
    names in every language, as the orders' words (issue 28)."""
    private = rules.view(state, decision.seat).get("private", {})
    default = orders_text.normal_orders(pack, dict(decision.default or {}), private.get("hand", []))
    pack = pack_names.localized(pack, i18n.language_of(tr) if tr else i18n.DEFAULT)
    hand = context.hand_rows(pack, decision.options, private.get("hand", []), tr)
    template = {"game": game_id, "seat": decision.seat, "key": "YOUR-SEAT-KEY", "step": decision.step,
                "orders": default}
    template_yaml = yaml.safe_dump(template, sort_keys=False, allow_unicode=True, default_flow_style=None,
                                   width=WIDTH)
    default_text = (yaml.safe_dump(default, default_flow_style=True, sort_keys=False, width=1000)
                    .strip() if default else (tr or i18n.translations()).gettext("nothing is done"))
    return {"game_id": game_id, "step": decision.step, "seat": decision.seat, "player": seat_row["player"],
            "decision": {"kind": decision.kind, "kind_text": decision_text(decision.kind, tr), "rule": decision.rule,
                         "default_text": default_text},
            "deadline": deadline, "hand": hand, "options": context.option_lines(pack, decision.options, tr),
            "training": [{**row, "unit": unit_word(row.get("unit"), tr or ENGLISH)}  # the reader's word (try28d)
                         for row in training_rows(pack, private.get("training", []))],
            "template_yaml": template_yaml, "view": summary(pack, _public_view(state), seats, tr)}


def training_rows(pack: Pack, units: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A seat's units in training for its prompt (R-8.4): each as ``{"unit", "paid",
    "cost"}``, ``cost`` the OPs the unit takes in all (the pack's
    ``training_<unit>_ops``; None when the pack lacks it), so the prompt says "phalangite
    (6 of its 7 OPs paid)" (issue 24, trial24c: it said "(6 OPs paid)", and the player
    paid 3 more and was refused, ``tyche.train_overpaid``)."""
    return [{**dict(u), "cost": training_cost(pack, u.get("unit"))} for u in units if isinstance(u, Mapping)]


def training_cost(pack: Pack, unit: Any) -> int | None:
    """The OPs a unit of kind ``unit`` takes to train (R-8.4; pack constant
    ``training_<unit>_ops``), or None when the pack has no such constant."""
    value = pack.constants.get(f"training_{unit}_ops")
    return int(value) if isinstance(value, (int, float)) else None


def render_prompt(pack: Pack, state: rules.GameState, decision: rules.Decision, *, game_id: str,
                  seat_row: Mapping[str, Any], deadline: str, seats: Sequence[Mapping[str, Any]],
                  witness: str | None = None, tr: gettext.NullTranslations | None = None) -> tuple[str, str]:
    """The prompt to the seat whose decision it is (R-6.5, R-8): its private hand, the
    legal choices in words, a YAML template to edit and send back with the seat key,
    the deadline and the default applied without orders. Returns ``(text, html)``.
    ``deadline`` is shown as given (e.g. ``"2026-12-03 01:26 UTC"``); ``witness``:
    ``"HASH@N"``, the log's last event now (docs/trust.md); ``tr``: the translations of
    the seat's language (None: English)."""
    ctx = prompt_context(pack, state, decision, game_id=game_id, seat_row=seat_row, deadline=deadline, seats=seats,
                         tr=tr)
    ctx["witness"] = witness
    return render("prompt.txt.j2", ctx, tr), render("prompt.html.j2", ctx, tr)


def render_receipt(game_id: str, step: int, seat: str, orders_yaml: str, orders_hash: str,
                   note: str | None = None, changes: str | None = None, logged: str | None = None,
                   witness: str | None = None, partly: Sequence[str] = (),
                   tr: gettext.NullTranslations | None = None) -> str:
    """The receipt for accepted orders: the normalised orders and their SHA-256,
    ``changes`` (a diff against the orders of the seat accepted earlier for the step), then
    ``note`` (what follows, when it is not the usual turn report); ``logged``: the hex
    SHA-256 of the orders document as the log holds it, which the dice derive from
    (docs/trust.md); ``witness``: ``"HASH@N"``, the log's last event after it;
    ``partly``: one line per part the check left partly to the dice before it (issue
    24.1); ``tr``: the translations of the seat's language (None: English)."""
    return render("receipt.txt.j2", {"game_id": game_id, "step": step, "seat": seat, "orders_yaml": orders_yaml,
                                     "orders_hash": orders_hash, "note": note, "changes": changes,
                                     "partly": list(partly),
                                     "logged": logged, "witness": witness}, tr)


def render_rejection(subject: str, problems: Sequence[Mapping[str, Any]], game_id: str | None,
                     orders_text: str | None, note: str | None = None,
                     tr: gettext.NullTranslations | None = None) -> str:
    """The answer to a mail that was not applied: every problem, where, the rule, a fix;
    then ``note`` (e.g. that the orders themselves were checked); ``tr``: the
    translations of the sender's seat's language (None: English). A secret the echo of
    the block hides (``key: (hidden)``, :func:`pbem.service.base.text.mask_key_lines`)
    is marked in the reader's language (``key: (скрыто)``)."""
    if orders_text and tr is not None and i18n.language_of(tr) != i18n.DEFAULT:
        orders_text = _HIDDEN_LINE.sub(lambda m: m.group(1) + tr.gettext(HIDDEN), orders_text)
    return render("rejection.txt.j2", {"subject": subject, "problems": list(problems), "game_id": game_id,
                                       "orders_text": orders_text, "note": note}, tr)


HIDDEN = N_("(hidden)")
"""What the echo of an orders block shows for a key, a host key or a code (English
in the stored text; :func:`render_rejection` says it in the reader's language)."""
_HIDDEN_LINE = re.compile(r"(?m)^(\s*(?:key|host|confirm)\s*:\s*)\(hidden\)[ \t]*$")


def render_notice(body: str, game_id: str | None, tr: gettext.NullTranslations | None = None) -> str:
    """A short notice (host alerts, held mail, reminders): ``body`` and the judge's
    signature in the language of ``tr`` (None: English)."""
    return render("notice.txt.j2", {"body": body, "game_id": game_id}, tr)


def html_of_text(title: str, text: str, language: str = i18n.DEFAULT) -> str:
    """The HTML alternative of a text body (:func:`pbem.mail.body.text_to_html`: prose
    as paragraphs, the rest preformatted; escaped), marked as written in ``language``."""
    return text_to_html(title, text, language)


def map_png(pack: Pack, state: rules.GameState, events: Sequence[rules.Event], title: str,
            players: Mapping[str, str] | None = None, seat: str | None = None,
            language: str = i18n.DEFAULT) -> bytes | None:
    """The map snapshot as PNG bytes, 1000 px wide (None, logged, if drawing fails: a
    report is never lost for want of a picture). ``players``: seat -> player name for
    the map's legend (seat names only when None); ``seat``: add the zoom on that
    seat's forces and fronts (:func:`pbem.report.snapshot.png`); ``language``: the
    language of the places' labels (the pack's names, issue 28)."""
    try:
        return snapshot.png(pack_names.localized(pack, language), state, events, title, players=players, seat=seat)
    except Exception:  # the picture is optional, the report is not
        log.exception("map snapshot failed")
        return None


def seat_map_pngs(pack: Pack, state: rules.GameState, events: Sequence[rules.Event], title: str,
                  seats: Sequence[str], players: Mapping[str, str] | None = None,
                  zoom: Collection[str] = (), languages: Mapping[str, str] | None = None
                  ) -> dict[str, bytes | None]:
    """Each seat's map picture of one decision as PNG bytes, 1000 px wide: the seats
    in ``zoom`` with the zoom on their forces, the others the overview alone, the
    shared drawing done once (:func:`pbem.report.snapshot.language_pngs`);
    ``languages``: ``{seat: language}``, whose pack names label each seat's picture
    (Cyrillic for ``ru``; :func:`pbem.pack.names.localized`, issue 28), English when
    not given. With seats in several languages the turn's boxes stand at the same
    places in each language's picture, sized for the widest label, and every picture
    takes the palette of the first language's overview (English's when a seat reads
    it). Every seat None, logged, if drawing fails (a report is never lost for want of
    a picture)."""
    if not seats:
        return {}
    chosen = {seat: (languages or {}).get(seat, i18n.DEFAULT) for seat in seats}
    order = sorted(dict.fromkeys(chosen.values()), key=lambda lang: lang != i18n.DEFAULT)
    try:
        return dict(snapshot.language_pngs({lang: pack_names.localized(pack, lang) for lang in order}, state, events,
                                           title, chosen, players=players, zoom=zoom))
    except Exception:  # the picture is optional, the report is not
        log.exception("map snapshot failed")
        return dict.fromkeys(seats)
