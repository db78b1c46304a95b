"""Turning game state and events into mail bodies: prompts, reports, receipts, replies.

The per-seat view comes from :func:`pbem.rules.view` (which strips other seats' secrets);
this module only arranges it for the templates, narrates events in words and draws the
map snapshot.
"""
from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from pbem import rules
from pbem.pack.model import Pack
from pbem.report.narrate import narrate
from pbem.report.render import render, render_html

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rendered:
    """A rendered mail body: plain text and its HTML alternative."""

    text: str
    html: str


def _name(pack: Pack, space: str | None) -> str:
    if space is None:
        return "-"
    sp = pack.spaces.get(space)
    return sp.name if sp else str(space)


def _cus_text(cus: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {t}" for t, n in sorted(cus.items()) if n) or "no CUs"


def summary(pack: Pack, view: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Arrange a rules view (``rules.view``) for the text templates: seats with VP/LP,
    provinces controlled per seat, armies with their space names."""
    players = {s["seat"]: s["player"] for s in seats}
    vp, lp = view.get("vp", {}), view.get("lp", {})
    champions = set(view.get("champions", []))
    control_by_seat: dict[str, list[str]] = {s: [] for s in rules.SEATS}
    for prov, seat in sorted(view.get("provinces", {}).items()):
        if seat in control_by_seat:
            control_by_seat[seat].append(pack.provinces[prov].name if prov in pack.provinces else prov)
    armies = []
    for a in view.get("armies", []):
        commander = a.get("commander")
        commander = pack.generals[commander].name if commander in pack.generals else (
            "minor general" if a.get("minor") else "(no general)")
        armies.append({"space_name": _name(pack, a.get("space")), "seat": a.get("seat", "?"),
                       "commander": commander,
                       "cus_text": _cus_text(a.get("cus", {}))})
    turn = view.get("turn", 1)
    years = {t.number: t.year_bc for t in pack.turns}
    return {
        "turn": turn, "year": view.get("year_bc", years.get(turn, "?")), "round": view.get("round", 1),
        "step": view.get("step", 0), "active": view.get("active"), "turn_order": view.get("turn_order", []),
        "usurpers": view.get("usurpers", []),
        "seats": [{"seat": s, "vp": vp.get(s, 0), "lp": lp.get(s, 0), "champion": s in champions,
                   "player": players.get(s, "")} for s in rules.SEATS],
        "control_by_seat": control_by_seat, "armies": armies,
    }


def _rolls(events: Sequence[rules.Event]) -> list[dict[str, Any]]:
    out = []
    for e in events:
        if e.kind == "DiceRolled":
            d = dict(e.data)
            out.append({"step": d.get("step", "?"), "index": d.get("index", "?"), "values": list(d.get("values", [])),
                        "purpose": d.get("purpose", ""), "rule": d.get("rule", ""), "result": d.get("result")})
    return out


def render_report(pack: Pack, state: rules.GameState, events: Sequence[rules.Event], *, game_id: str, step: int,
                  seat: str, seats: Sequence[Mapping[str, Any]], headline: str, seed_commitment: str) -> Rendered:
    """The report after a player-turn for ``seat``: what happened (public events plus
    the seat's own private ones), every die with purpose and rule, the public state."""
    view = rules.view(state, None)
    visible = [e for e in events if e.public or e.seat == seat]
    lines = [narrate(pack, e) for e in visible if e.kind != "DiceRolled"]
    lines = [ln for ln in lines if ln]
    pend = rules.pending(state)
    next_text = ", ".join(f"{d.seat} ({d.kind.replace('_', ' ')})" for d in pend) or "the game is over"
    ctx = {"game_id": game_id, "step": step, "headline": headline, "narrative": lines, "rolls": _rolls(visible),
           "seed_commitment": seed_commitment, "view": summary(pack, view, seats), "next_text": next_text}
    text = render("report.txt.j2", ctx)
    return Rendered(text, html_of_text(f"{game_id} step {step}: {headline}", text))


def _card(pack: Pack, number: int) -> dict[str, Any]:
    c = pack.cards.get(int(number))
    if c is None:
        return {"number": number, "name": "?", "ops": None, "type": "?", "must_play": False}
    return {"number": c.number, "name": c.name, "ops": c.ops, "type": c.type, "must_play": c.must_play}


_OPTION_SKIP = {"seat", "step", "round", "active", "hand"}


def _options_lines(pack: Pack, options: Mapping[str, Any]) -> list[str]:
    """The legal choices of a decision in words (space ids shown as names)."""
    lines = []
    for key, value in options.items():
        if key in _OPTION_SKIP or value in ([], {}, None):
            continue
        if key.endswith("_spaces") and isinstance(value, (list, tuple)):
            value = [_name(pack, v) for v in value]
        if isinstance(value, (list, tuple)):
            shown = ", ".join(str(v if not isinstance(v, Mapping) else v.get("name", v)) for v in value[:40])
            more = f" … ({len(value)} in all)" if len(value) > 40 else ""
            lines.append(f"{key.replace('_', ' ')}: {shown}{more}")
        elif isinstance(value, Mapping):
            lines.append(f"{key.replace('_', ' ')}: " + "; ".join(f"{k}: {v}" for k, v in list(value.items())[:20]))
        else:
            lines.append(f"{key.replace('_', ' ')}: {value}")
    return lines


def render_prompt(pack: Pack, state: rules.GameState, decision: rules.Decision, *, game_id: str,
                  seat_row: Mapping[str, Any], deadline: str, seats: Sequence[Mapping[str, Any]]) -> tuple[str, str]:
    """The prompt to the seat whose decision it is: its private hand, the legal choices,
    a YAML template to edit and send back, the deadline. Returns (text, html)."""
    private = rules.view(state, decision.seat)
    hand = [_card(pack, n) for n in private.get("private", {}).get("hand", [])]
    template = {"game": game_id, "seat": decision.seat, "key": "YOUR-SEAT-KEY", "step": decision.step,
                "orders": dict(decision.default) if decision.default else {}}
    template_yaml = yaml.safe_dump(template, sort_keys=False, allow_unicode=True, default_flow_style=None)
    default_text = yaml.safe_dump(dict(decision.default), default_flow_style=True, sort_keys=False).strip() \
        if decision.default else "nothing is done"
    ctx = {"game_id": game_id, "step": decision.step, "seat": decision.seat, "player": seat_row["player"],
           "decision": {"kind_text": decision.kind.replace("_", " "), "rule": decision.rule,
                        "default_text": default_text},
           "deadline": deadline, "hand": hand, "options_text": _options_lines(pack, decision.options),
           "template_yaml": template_yaml, "view": summary(pack, rules.view(state, None), seats)}
    text = render("prompt.txt.j2", ctx)
    return text, html_of_text(f"{game_id} step {decision.step}: your move, {decision.seat}", text)


def render_receipt(game_id: str, step: int, seat: str, orders_yaml: str, orders_hash: str) -> str:
    """The receipt for accepted orders: the normalised orders and their SHA-256."""
    return render("receipt.txt.j2", {"game_id": game_id, "step": step, "seat": seat, "orders_yaml": orders_yaml,
                                     "orders_hash": orders_hash})


def render_rejection(subject: str, problems: Sequence[Mapping[str, Any]], game_id: str | None,
                     orders_text: str | None) -> str:
    """The answer to a mail that was not applied: every problem, where, the rule, a fix."""
    return render("rejection.txt.j2", {"subject": subject, "problems": list(problems), "game_id": game_id,
                                       "orders_text": orders_text})


def render_notice(body: str, game_id: str | None) -> str:
    """A short notice (host alerts, held mail, reminders)."""
    return render("notice.txt.j2", {"body": body, "game_id": game_id})


def html_of_text(title: str, text: str) -> str:
    """The HTML alternative of a text body (preformatted, escaped)."""
    return render_html(title, [{"kind": "pre", "text": text}])


def map_png(pack: Pack, state: rules.GameState, events: Sequence[rules.Event], title: str) -> bytes | None:
    """The map snapshot as PNG bytes (None, logged, if drawing fails: a report is never
    lost for want of a picture)."""
    try:
        from pbem.report import snapshot
        return snapshot.png(pack, state, events, title)
    except Exception:  # noqa: BLE001 - the picture is optional, the report is not
        log.exception("map snapshot failed")
        return None
