"""Template contexts: a rules view and a step's events arranged for the templates.

Everything here is pure and JSON-like (dicts, lists, str, int) so the text and HTML
templates of a mail share one context. Secrets are never looked up here: the caller
passes the per-seat view (:func:`pbem.rules.view`) and the events that seat may see
(:func:`visible_events`).
"""
from __future__ import annotations

import dataclasses
import gettext
import re
import textwrap
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from pbem import i18n, rules
from pbem.mail.body import WIDTH as BODY_WIDTH
from pbem.pack.model import Pack
from pbem.report import account
from pbem.report.narrate import card_label, narrate, ops_text, purpose_text, space_name
from pbem.rules.core.names import (ENGLISH, battle_side_text, cu_count, general_name, printed_name, side_name,
                                   unit_word)
from pbem.rules.core.pack import const
from pbem.rules.core.placement import LIMIT_TEXT
from pbem.rules.orders.reactions import QUESTION
from pbem.rules.orders.tyche_surprises import HOW
from pbem.rules.resolve.surprises import MOMENT_NAMES
from pbem.rules.core.units import cus_label, is_unit_type, special_unit, unit_name, unit_strength, unit_types

SEAT_COLOURS: Mapping[str, str] = {"north": "#c0392b", "east": "#2471a3", "south": "#d4ac0d",
                                   "west": "#7d3c98", "independent": "#2e8b57"}
"""One colour per seat, shared by the map snapshot and the HTML mails."""

WIDTH = BODY_WIDTH
"""Plain-text line width (reads on a phone): the mail formatter's
(:data:`pbem.mail.body.WIDTH`)."""

# DiceRolled keys shown in their own words; any other key is listed as "key: value".
_ROLL_KEYS = ("purpose", "rule", "values", "sides", "step", "index")


def wrap(text: str, width: int = WIDTH, indent: str = "", first: str | None = None) -> str:
    """``text`` wrapped to ``width`` columns; continuation lines start with ``indent``,
    the first line with ``first`` (default ``indent``)."""
    text = str(text)
    lead = indent if first is None else first
    if len(lead) + len(text) <= width and "\n" not in text:
        return lead + text.strip()
    return textwrap.fill(str(text), width=width, initial_indent=indent if first is None else first,
                         subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)


def visible_events(events: Sequence[rules.Event], seat: str | None) -> list[rules.Event]:
    """The events ``seat`` may read: public ones plus its own private ones
    (``seat=None``: public only). A private event with no seat (the deck order) is never
    visible."""
    return [e for e in events if e.public or (seat is not None and e.seat == seat)]


def cus_text(pack: Pack, cus: Mapping[str, int], tr: gettext.NullTranslations | None = None) -> str:
    """``{"loyal": 2, "mercenary": 3}`` -> ``"2 loyal, 3 mercenary"`` (pack order); a
    special unit by its name (``"Silver Shields"``, R-4.1); the CU types in the language
    of ``tr`` (None: English; issue 28)."""
    if tr is None:
        return cus_label(pack, dict(cus)) or "no CUs"
    order = unit_types(pack) + sorted(set(cus) - set(unit_types(pack)))
    return ", ".join(unit_name(pack, t) if special_unit(pack, t) and cus[t] == 1
                     else (f"{cus[t]} {unit_name(pack, t)}" if special_unit(pack, t) else cu_count(cus[t], t, tr))
                     for t in order if cus.get(t)) or tr.gettext("no CUs")


def strength(pack: Pack, cus: Mapping[str, int]) -> str:
    """Battle strength of CUs (R-4.4) as text; elephants roll (R-9.2) and show as ``+Ne``."""
    fixed, eleph = 0, 0
    for t, n in cus.items():
        st = unit_strength(pack, t) if is_unit_type(pack, t) else 1
        if st is None:
            eleph += n
        else:
            fixed += n * st
    return f"{fixed}" + (f"+{eleph}e" if eleph else "")


def place_name(pack: Pack, place: Any, tr: gettext.NullTranslations | None = None) -> str:
    """A space id or province id as players read it (``"Pella"``, ``"Macedonia
    (province)"``; the word in the language of ``tr``, None: English)."""
    if isinstance(place, str) and place not in pack.spaces and place in pack.provinces:
        if tr is None:
            return f"{pack.provinces[place].name} (province)"
        return tr.gettext("%(name)s (province)") % {"name": pack.provinces[place].name}
    return space_name(pack, place)


def _pick_up_words(pack: Pack, p: Mapping[str, Any], tr: gettext.NullTranslations | None = None) -> str:
    """One entry of the ``pick_ups`` option (R-9.1): ``"Gaza (1 loyal, Heracles)"``, the
    CU types in the language of ``tr`` (None: English; try28d: "Cícico (1 mercenary)")."""
    parts = ([cus_text(pack, p["cus"], tr)] if p.get("cus") else []) + [
        printed_name(pack, r) for r in p.get("royals") or []]
    return f"{place_name(pack, p.get('space'), tr)} ({', '.join(parts)})"


def _training_unit(pack: Pack, u: Mapping[str, Any], tr: gettext.NullTranslations | None) -> str:
    """A unit in training in the prompt's Training line (R-8.4): ``"phalangite (6 of its
    7 OPs paid)"``, the cost from the pack (``training_<unit>_ops``); ``"(6 OPs paid)"``
    when the pack has none (issue 24, trial24c)."""
    _ = i18n.gettext_of(tr)
    unit, paid = unit_word(u.get('unit'), tr or ENGLISH), u.get('paid', 0)
    cost = pack.constants.get(f"training_{u.get('unit')}_ops")
    if isinstance(cost, (int, float)):
        return _("%(unit)s (%(paid)s of its %(ops)s paid)") % {"unit": unit, "paid": paid,
                                                               "ops": ops_text(int(cost), tr or ENGLISH)}
    return _("%(unit)s (%(ops)s paid)") % {"unit": unit, "ops": ops_text(paid, tr or ENGLISH)}


def _army_item(pack: Pack, a: Mapping[str, Any], tr: gettext.NullTranslations | None) -> str:
    """One army of a prompt's "Armies that may move" (R-9.1): ``"Ptolemy in Gaza (4 MPs;
    1 loyal)"``; a minor general's army (R-5) says how orders name it, its space
    (``"the minor general in Amisus (army: Amisus; 4 MPs; 1 mercenary)"``), as it has
    no name of its own (issue 24, trial24c: players wrote ``army: minor``)."""
    ngettext = i18n.ngettext_of(tr)
    num = int(a.get('allowance') or 0)
    space = place_name(pack, a.get('space'), tr)
    cus = cus_text(pack, a.get('cus') or {}, tr)
    if a.get('commander') == "minor":
        return ngettext("the minor general in %(space)s (army: %(space)s; %(num)d MP; %(cus)s)",
                        "the minor general in %(space)s (army: %(space)s; %(num)d MPs; %(cus)s)",
                        num) % {"space": space, "num": num, "cus": cus}
    return ngettext("%(general)s in %(space)s (%(num)d MP; %(cus)s)",
                    "%(general)s in %(space)s (%(num)d MPs; %(cus)s)",
                    num) % {"general": _gen(pack, a.get('commander')), "space": space, "num": num, "cus": cus}


def _gen(pack: Pack, gid: str | None) -> str:
    if gid is None:
        return ""
    g = pack.generals.get(gid)
    return g.name if g else str(gid)


def roll_info(event: rules.Event, pack: Pack | None = None) -> dict[str, Any]:
    """A ``DiceRolled`` event as ``{"values", "total", "dice" ("2d6"), "purpose", "rule",
    "extra": [(key, text)]}``; ``extra`` carries modifiers, chart row/column, result …
    whatever the event holds beyond the basic keys. With ``pack`` the purpose reads with
    printed names (``"battle in Isaura"``, not ``"battle in isaura"``)."""
    d = dict(event.data)
    values = [int(v) for v in d.get("values", [])]
    sides = d.get("sides", 6)
    extra = []
    for k, v in d.items():
        if k in _ROLL_KEYS:
            continue
        if isinstance(v, Mapping):
            v = ", ".join(f"{a} {b:+d}" if isinstance(b, int) and k.startswith("modif") else f"{a}: {b}"
                          for a, b in v.items())
        elif isinstance(v, (list, tuple)):
            v = ", ".join(str(x) for x in v)
        extra.append((k.replace("_", " "), str(v)))
    return {"values": values, "total": sum(values), "dice": f"{len(values)}d{sides}",
            "purpose": purpose_text(pack, d.get("purpose", "")) if pack else str(d.get("purpose", "")), "rule": str(d.get("rule", "")), "extra": extra}


def roll_details(pack: Pack, events: Sequence[rules.Event], i: int,
                 tr: gettext.NullTranslations | None = None) -> str:
    """What the die roll ``events[i]`` (a ``DiceRolled``) decided, with every term that
    entered it: the sentence of the event that used the dice (the next one that is no
    roll), cut to the roll's own side for a battle (R-9.2, R-15); ``""`` when no event
    follows. For the archive's dice ledger, whose rolls stand apart from the story."""
    values = [int(v) for v in events[i].data.get("values", [])]
    j = i + 1
    while j < len(events) and events[j].kind == "DiceRolled":
        j += 1
    if j >= len(events):
        return ""
    used = events[j]
    sides = used.data.get("sides")
    if used.kind == "BattleFought" and isinstance(sides, list):
        rec = next((x for x in sides if isinstance(x, Mapping) and list(x.get("dice") or []) == values), None)
        if rec is not None:
            t = tr if tr is not None else ENGLISH
            return battle_side_text(pack, rec, side_name(rec.get("side"), t), t)
    return narrate(pack, used, tr)


PURPOSES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), m) for p, m in (
    (r"^turn order tie: (?P<seat>\S+)$", i18n.N_("turn order tie: %(seat)s")),
    (r"^turn order tie, re-roll (?P<n>\d+): (?P<seat>\S+)$", i18n.N_("turn order tie, re-roll %(n)s: %(seat)s")),
    (r"^battle in (?P<space>[^:]+): attacker \((?P<side>[^)]+)\)$", i18n.N_("battle in %(space)s: attacker (%(side)s)")),
    (r"^battle in (?P<space>[^:]+): defender \((?P<side>[^)]+)\)$", i18n.N_("battle in %(space)s: defender (%(side)s)")),
    (r"^battle in (?P<space>[^:]+): (?P<seat>\S+) re-rolls$", i18n.N_("battle in %(space)s: %(seat)s re-rolls")),
    (r"^naval battle: declarer \((?P<side>[^)]+)\)$", i18n.N_("naval battle: declarer (%(side)s)")),
    (r"^naval battle: mover \((?P<side>[^)]+)\)$", i18n.N_("naval battle: mover (%(side)s)")),
    (r"^attrition of (?P<side>\S+)'s (?P<unit>.+) CUs in (?P<space>.+)$",
     i18n.N_("attrition of %(side)s's %(unit)s CUs in %(space)s")),
    (r"^elephants of (?P<side>\S+) in (?P<space>.+)$", i18n.N_("elephants of %(side)s in %(space)s")),
    (r"^interception by (?P<seat>\S+) from (?P<source>.+) into (?P<space>.+)$",
     i18n.N_("interception by %(seat)s from %(source)s into %(space)s")),
    (r"^(?P<seat>\S+) avoids battle in (?P<space>.+)$", i18n.N_("%(seat)s avoids battle in %(space)s")),
    (r"^hostile tribes in (?P<space>.+)$", i18n.N_("hostile tribes in %(space)s")),
    (r"^leader loss check of (?P<general>.+)$", i18n.N_("leader loss check of %(general)s")),
    (r"^unrest \((?P<card>.+)\)$", i18n.N_("unrest (%(card)s)")),
    (r"^assault on (?P<space>.+)$", i18n.N_("assault on %(space)s")),
))
"""The purposes the rules core gives its die rolls (``DiceRolled``'s ``purpose``, in
the event: language-free English), as patterns and the message that says each."""


_UNREST = re.compile(r"^unrest \((?P<card>.+)\)$")


def purpose_words(purpose: str, tr: gettext.NullTranslations | None = None) -> str:
    """A die roll's purpose (names already printed) in the language of ``tr``: the
    first of :data:`PURPOSES` that matches, said again; English, and a purpose no
    pattern knows, stay as they are. An unrest roll of a card named Unrest is said once:
    ``"unrest"``, not ``"unrest (Unrest)"`` (issue 24 N12)."""
    m = _UNREST.match(purpose)
    if m and m.group("card").strip().casefold() == "unrest":
        return i18n.gettext_of(tr)(i18n.N_("unrest"))
    if tr is None or i18n.language_of(tr) == i18n.DEFAULT:
        return purpose
    for pattern, message in PURPOSES:
        m = pattern.match(purpose)
        if m:
            found = m.groupdict()
            if "side" in found:  # the independent armies in the reader's words (issue 28 lang28d)
                found["side"] = side_name(found["side"], tr)
            return tr.gettext(message) % found
    return purpose


def roll_text(info: Mapping[str, Any], tr: gettext.NullTranslations | None = None) -> str:
    """One die roll in words: ``"Dice 2d6: 3+5 = 8 for battle at Gaza (R-9.2); row: 9"``,
    in the language of ``tr`` (None: English; the purpose is the rules core's words)."""
    _ = i18n.gettext_of(tr)
    vals = "+".join(str(v) for v in info["values"])
    if len(info["values"]) > 1:
        vals += f" = {info['total']}"
    v = {"dice": info['dice'], "values": vals, "purpose": purpose_words(str(info['purpose']), tr), "rule": info['rule']}
    out = (_("Dice %(dice)s: %(values)s for %(purpose)s (%(rule)s)") if info["rule"]
           else _("Dice %(dice)s: %(values)s for %(purpose)s")) % v
    if info["extra"]:
        out += "; " + "; ".join(f"{k}: {v}" for k, v in info["extra"])
    return out


def wiped_out_moves(events: Sequence[rules.Event], after: Mapping[str, Any] | None = None) -> set[int]:
    """Indexes of the ``MoveEnded`` events whose army no longer exists: every general
    that moved with it (``ArmyMoved``) has since left the map (dispersed, dead) and its
    minor general, if any, was removed there — "east's army ends its move in Isaura"
    would be untrue after the battle wiped it out (R-9.2). A move begun in an earlier
    batch (a reaction window suspended it, R-9.3) has no ``ArmyMoved`` here: it is wiped
    out when the public view ``after`` the events has none of the seat's pieces in the
    space and no later move of the seat ends there (issue 24 item H)."""
    moving: dict[str, dict[str, Any]] = {}
    out: set[int] = set()
    present = {(a.get("seat"), a.get("space")) for a in (after or {}).get("armies", [])}
    for i, e in enumerate(events):
        d = e.data
        seat = d.get("seat")
        if (e.kind == "MoveEnded" and seat not in moving and after is not None
                and (seat, d.get("space")) not in present
                and not any(x.kind == "ArmyMoved" and x.data.get("seat") == seat and x.data.get("to") == d.get("space")
                            for x in events[i + 1:])):
            out.add(i)
        if e.kind == "ArmyMoved" and seat:
            moving[seat] = {"space": d.get("to"), "generals": set(d.get("generals") or []),
                            "minor": bool(d.get("minor")), "led": bool(d.get("generals") or d.get("minor"))}
        elif e.kind == "GeneralPlaced" and not d.get("space"):
            for m in moving.values():
                m["generals"].discard(d.get("general"))
        elif e.kind == "MinorGeneralRemoved" and seat in moving and moving[seat]["space"] == d.get("space"):
            moving[seat]["minor"] = False
        elif e.kind == "MoveEnded" and seat in moving:
            m = moving.pop(seat)
            if m["led"] and m["space"] == d.get("space") and not m["generals"] and not m["minor"]:
                out.add(i)
    return out


MERGED_KINDS = {"CUsPlaced": ("seat", "space", "rule", "why", "from_dispersed"),
                "CUsRemoved": ("seat", "space", "rule", "why", "chosen", "limit")}
"""Event kinds whose consecutive events on the same CUs are told as one line (the rules
core places and removes CUs one at a time): the keys that must agree."""


def _merged(events: Sequence[rules.Event]) -> list[tuple[int, rules.Event]]:
    """``events`` with their indexes, consecutive CU placements (or removals) of one
    seat in one space for one reason told once with the CUs summed ("east places 4
    mercenary in Tarsus", not four lines of 1), and the lines the line before already
    tells left out: the mercenary CU a ``MercenaryRaised`` places (R-8.7), the markers of
    an ``UnrestStruck`` (R-16.2)."""
    out: list[tuple[int, rules.Event]] = []
    unrest: list[str] | None = None
    for i, e in enumerate(events):
        d = e.data
        if e.kind == "UnrestStruck":
            unrest = list(d.get("spaces") or [])
        if e.kind == "IndependentMarkersPlaced" and unrest is not None and list(d.get("spaces") or []) == unrest \
                and not d.get("card"):
            continue
        if e.kind == "CUsPlaced" and d.get("why") == "mercenary raised" and out and \
                out[-1][1].kind == "MercenaryRaised" and out[-1][1].data.get("space") == d.get("space"):
            continue
        keys = MERGED_KINDS.get(e.kind)
        if keys and out and out[-1][1].kind == e.kind and e.public == out[-1][1].public and \
                all(out[-1][1].data.get(k) == d.get(k) for k in keys):
            j, prev = out[-1]
            cus = dict(prev.data.get("cus") or {})
            for t, n in (d.get("cus") or {}).items():
                cus[t] = cus.get(t, 0) + int(n)
            out[-1] = (j, dataclasses.replace(prev, data={**dict(prev.data), "cus": cus}))
            continue
        out.append((i, e))
    return out


def passed_over(order: Sequence[str], last: str | None, seat: Any, new_round: bool) -> list[str]:
    """The seats a round passed over between ``last`` (whose player-turn ended; None: none
    in these events) and ``seat`` (whose player-turn begins), in turn order ``order``:
    a seat holding no card that can be the Tyche play, only surprise cards or none, is
    skipped (R-6.5, docs/rules.md "Rounds"). The events say nothing of it, so the report
    says it here (the fourth hand-played game of issue 24: three seats were skipped in a
    round with no word to them). ``new_round``: a round began in between, so the seats
    after ``last`` were passed over in the round that ended and those before ``seat`` in
    the new one."""
    if seat not in order or (last is not None and last not in order):
        return []
    at = order.index(seat)
    if last is None:
        return list(order[:at]) if new_round else []
    after_last = order.index(last) + 1
    if new_round:
        return list(order[after_last:]) + list(order[:at])
    return list(order[after_last:at])


def stay_dispersed(events: Sequence[rules.Event], at: int, after: Mapping[str, Any] | None) -> dict[str, list[str]]:
    """The major generals that stay in the dispersed box when the reinforcement phase
    brings the others back (R-7.3: a general returns to a garrison of his seat free of
    enemy units; with none, he stays): ``{seat: [general id, ...]}``, from the public
    view ``after`` the events, leaving out a general dispersed after the phase opened
    (``events[at]`` is its ``ReinforcementsGranted``). The events say nothing of a
    general who stays, so the report says it here (issue 24 N3)."""
    later = {e.data.get("general") for e in events[at + 1:]
             if e.kind == "GeneralPlaced" and e.data.get("where") == "dispersed"}
    out: dict[str, list[str]] = {}
    for gid, g in sorted(((after or {}).get("generals") or {}).items()):
        if isinstance(g, Mapping) and g.get("where") == "dispersed" and g.get("seat") and gid not in later:
            out.setdefault(str(g["seat"]), []).append(gid)
    return out


def _stay_dispersed(pack: Pack, events: Sequence[rules.Event], at: int, after: Mapping[str, Any] | None,
                    tr: gettext.NullTranslations | None) -> list[dict[str, Any]]:
    """The lines of :func:`stay_dispersed`, one per seat, in the language of ``tr``."""
    ngettext = i18n.ngettext_of(tr)
    lines = []
    for seat, gids in stay_dispersed(events, at, after).items():
        names = ", ".join(general_name(pack, g) for g in gids)
        lines.append({"kind": "StayedDispersed", "roll": None, "text": ngettext(
            "%(generals)s stays in %(seat)s's dispersed box: %(seat)s has no garrison free of enemy units for "
            "a general to return to (R-7.3).",
            "%(generals)s stay in %(seat)s's dispersed box: %(seat)s has no garrison free of enemy units for "
            "a general to return to (R-7.3).", len(gids)) % {"generals": names, "seat": seat}})
    return lines


def happenings(pack: Pack, events: Sequence[rules.Event], after: Mapping[str, Any] | None = None,
               tr: gettext.NullTranslations | None = None) -> list[dict[str, Any]]:
    """What happened, in order: ``[{"kind", "text", "roll": roll_info | None}]`` (dice
    rolls in place, bookkeeping events left out, repeated CU lines merged:
    :func:`_merged`); ``after``: the public view after the events (a move that a
    reaction window suspended is told wiped out by it: :func:`wiped_out_moves`); each
    text in the language of ``tr`` (None: English)."""
    out = []
    gone = wiped_out_moves(events, after)
    order = [x for x in ((after or {}).get("turn_order") or []) if isinstance(x, str)]
    last: str | None = None  # the seat whose player-turn ended last in these events
    new_round = False
    for i, e in _merged(events):
        if e.kind == "TurnPassed":
            last, new_round = e.data.get("seat", e.data.get("from")), False
        elif e.kind == "RoundStarted":
            new_round = True
        elif e.kind == "PlayerTurnStarted":
            passed = passed_over(order, last, e.data.get("seat"), new_round)
            if passed:
                _ = i18n.gettext_of(tr)
                out.append({"kind": "PassedOver", "roll": None, "text": _(
                    "Passed over (R-6.5): %(seats)s, with no card in hand that can be the Tyche play "
                    "(surprise cards only, or none).") % {"seats": ", ".join(passed)}})
            last, new_round = e.data.get("seat"), False
        if e.kind == "ReinforcementsGranted":
            out.extend(_stay_dispersed(pack, events, i, after, tr))
        if e.kind == "DiceRolled":
            info = roll_info(e, pack)
            said = purpose_words(str(info["purpose"]), tr) if tr is not None and \
                i18n.language_of(tr) != i18n.DEFAULT else info["purpose"]  # the HTML's purpose (try28d)
            out.append({"kind": e.kind, "text": roll_text(info, tr), "roll": {**info, "said": said}})
            continue
        if i in gone:
            e = dataclasses.replace(e, data={**dict(e.data), "wiped_out": True})
        text = narrate(pack, e, tr)
        if text:
            out.append({"kind": e.kind, "text": text, "roll": None})
    return out


def state_summary(pack: Pack, view: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
                  tr: gettext.NullTranslations | None = None) -> dict[str, Any]:
    """Arrange a rules view (``rules.view``, public or private: only public keys are
    read) for the templates, its words in the language of ``tr`` (None: English;
    issue 28). Shape::

        {"turn", "year", "round", "step", "phase", "stage" (stage_text), "active",
         "turn_order", "usurpers",
         "vp_rows", "lp_rows": account.points_rows (every term of each seat's VP and LP),
         "seats": [{"seat", "player", "vp", "lp", "champion", "usurper", "hand", "provinces",
                    "garrisons", "colour"}],
         "provinces": [{"name", "vp", "seat"}],  "uncontrolled": int,
         "fleets": account.fleet_rows (who owns which fleet, R-15), "fleet_summary": str,
         "armies": [{"seat", "space", "commander", "others", "cus", "strength"}],
         "royals": [{"name", "where", "controller", "status"}],
         "independent_armies": [{"name", "where", "strength"}],
         "dispersed": [{"seat", "cus"}], "discards": [label], "removed": [label],
         "deck_size", "result": {...} | None}
    """
    _ = i18n.gettext_of(tr)
    players = {s["seat"]: s["player"] for s in seats}
    vp, lp = view.get("vp", {}), view.get("lp", {})
    champions, usurpers = set(view.get("champions", [])), set(view.get("usurpers", []))
    prov_ctl = view.get("provinces", {})
    garrisons = view.get("garrisons", {})
    hands = view.get("hand_sizes", {})
    seat_rows = []
    for s in rules.SEATS:
        seat_rows.append({"seat": s, "player": players.get(s, ""), "vp": vp.get(s, 0), "lp": lp.get(s, 0),
                          "champion": s in champions, "usurper": s in usurpers, "hand": hands.get(s, 0),
                          "provinces": sum(1 for v in prov_ctl.values() if v == s),
                          "garrisons": sum(1 for v in garrisons.values() if v == s),
                          "colour": SEAT_COLOURS.get(s, "#555")})
    provinces = []
    for pid, seat in prov_ctl.items():
        if seat:
            prov = pack.provinces.get(pid)
            provinces.append({"name": prov.name if prov else pid, "vp": prov.vp if prov else 0, "seat": seat})
    provinces.sort(key=lambda p: (rules.SEATS.index(p["seat"]) if p["seat"] in rules.SEATS else 9, p["name"]))
    armies = []
    for a in view.get("armies", []):
        gens = list(a.get("generals", []))
        cmd = a.get("commander")
        minor = cmd == "minor" or (not cmd and a.get("minor"))  # a minor general's army
        commander = _("minor general") if minor else (_gen(pack, cmd) if cmd else _("no general"))
        others = [_gen(pack, g) for g in gens if g != cmd]
        cus = dict(a.get("cus", {}))
        armies.append({"seat": a.get("seat", "?"), "space": space_name(pack, a.get("space")),
                       "commander": commander, "others": others, "cus": cus_text(pack, cus, tr),
                       "strength": strength(pack, cus), "colour": SEAT_COLOURS.get(a.get("seat", ""), "#555")})
    armies.sort(key=lambda a: (rules.SEATS.index(a["seat"]) if a["seat"] in rules.SEATS else 9, a["space"]))
    royals = royal_rows(pack, view, tr)
    indep = []
    for iid, ia in view.get("independent_armies", {}).items():
        army = pack.independent_armies.get(iid)
        if not isinstance(ia, Mapping) or not ia.get("space"):
            continue
        indep.append({"name": army.name if army else iid, "where": space_name(pack, ia.get("space")),
                      "strength": ia.get("strength", army.strength if army else "?")})
    dispersed = [{"seat": s, "cus": cus_text(pack, c, tr)} for s, c in view.get("dispersed", {}).items() if c]
    turn = view.get("turn", 1)
    years = {t.number: t.year_bc for t in pack.turns}
    phase = str(view.get("phase", "")).replace("_", " ")
    return {
        "turn": turn, "year": view.get("year_bc") or years.get(turn, "?"), "round": view.get("round", 1),
        "step": view.get("step", 0), "phase": phase, "stage": stage_text(view, tr),
        "vp_rows": account.points_rows(pack, view, "vp", tr), "lp_rows": account.points_rows(pack, view, "lp", tr),
        "fleets": account.fleet_rows(pack, view, tr), "fleet_summary": account.fleet_summary(pack, view, tr),
        "active": view.get("active"), "turn_order": list(view.get("turn_order", [])),
        "usurpers": sorted(usurpers, key=_seat_key), "seats": seat_rows, "provinces": provinces,
        "uncontrolled": sum(1 for v in prov_ctl.values() if not v), "armies": armies, "royals": royals,
        "independent_armies": indep, "dispersed": dispersed,
        "specials_destroyed": [pack.special_units[u].name if u in pack.special_units else u
                               for u, st in view.get("special_units", {}).items()
                               if st.get("status") == "destroyed"],
        "discards": [card_label(pack, n, tr or ENGLISH) for n in view.get("discards", [])],
        "removed": [card_label(pack, n, tr or ENGLISH) for n in view.get("removed", [])],
        "deck_size": view.get("deck_size", 0),
        "result": result_summary(pack, view, seat_rows, tr),
    }


PHASES = {"turn_order": i18n.N_("turn order phase"), "reinforcement": i18n.N_("reinforcement phase"),
          "isolation": i18n.N_("isolation phase"), "over": i18n.N_("over phase")}
"""Each phase but the strategy phase (R-6) as a report's heading names it."""


def stage_text(view: Mapping[str, Any], tr: gettext.NullTranslations | None = None, over: bool = True) -> str:
    """Where a view's game is within its turn, for the standings' heading: ``"round 3"``
    in the strategy phase (R-6.5), else the phase (``"turn order phase"``, R-6): the
    round number of the last turn means nothing once its rounds are over; ``"game over"``
    once the game has a result (``over``; else the round, for a heading that names when
    the last step was played). In the language of ``tr`` (None: English)."""
    _ = i18n.gettext_of(tr)
    phase = str(view.get("phase", ""))
    if view.get("result") and over:  # issue 24 N7: "turn 4, round 5" read as a round of turn 4
        return _("game over")
    if phase in ("strategy", "") or view.get("result"):
        return _("round %(round)s") % {"round": view.get("round", 1)}
    return _(PHASES[phase]) if phase in PHASES else f"{phase.replace('_', ' ')} phase"


ROYAL_STATUS = {"buried": i18n.N_("buried"), "removed": i18n.N_("removed"), "dead": i18n.N_("dead")}
"""The words of a royal's status flags (R-12)."""


def royal_rows(pack: Pack, view: Mapping[str, Any], tr: gettext.NullTranslations | None = None) -> list[dict[str, str]]:
    """The royal family table (R-12): ``[{"name", "where", "controller", "status"}]``;
    the status tells an inactive woman, the tomb (R-12.4), a member removed from play and
    a marriage offer standing or taken (R-12.2); in the language of ``tr`` (None:
    English; seat names stay as they are)."""
    _ = i18n.gettext_of(tr)
    court = view.get("court") or {}
    rows = []
    for rid, r in view.get("royals", {}).items():
        member = pack.royals.get(rid)
        where = (space_name(pack, r.get("space")) if r.get("space")
                 else str(r["where"]) if "where" in r else _("off map"))
        status = [] if r.get("active", True) else [_("inactive")]
        for k in ("buried", "removed", "dead"):
            if r.get(k):
                status.append(_(ROYAL_STATUS[k]))
        tomb = court.get("tomb") if member and member.kind == "body" else None
        if tomb:  # the tomb never moves
            where, status = space_name(pack, tomb.get("space")), [_("buried, the tomb")]
        elif r.get("gone"):
            status.append(_("removed from play"))
        offer = (court.get("offers") or {}).get(rid)
        if offer:  # the card lies before the player until the end of the turn
            status.append((_("married to %(seat)s") if offer.get("married")
                           else _("offers marriage to %(seat)s")) % {"seat": offer["seat"]})
        rows.append({"name": member.name if member else rid, "where": where,
                     "controller": r.get("controller") or _("nobody"), "status": ", ".join(status)})
    return rows


def _seat_key(seat: str) -> int:
    return rules.SEATS.index(seat) if seat in rules.SEATS else 9


RESULT_HOW: dict[str, str] = {"abandon": i18n.N_("abandoned by the host"), "win": i18n.N_("by the host's decision"),
                              "draw": i18n.N_("a draw agreed by vote"), "regency": i18n.N_("regency"),
                              "end of game (most VP)": i18n.N_("end of game (most VP)")}
"""How a game ended (its result's ``how``, the rules core's and the host's words), as
the result box says it; ``automatic (…)`` is said as "an automatic victory (…)"."""


RESULT_KEYS: dict[str, str] = {"reason": i18n.N_("reason"), "rule": i18n.N_("rule"), "among": i18n.N_("among"),
                              "vp": i18n.N_("VP"), "lp": i18n.N_("LP"), "heir": i18n.N_("heir"),
                              "ranking": i18n.N_("ranking"), "keys": i18n.N_("tie-break keys"),
                              "conceded": i18n.N_("conceded"), "totals": i18n.N_("totals")}
"""The result box's detail lines (a result's keys, ``"reason: a holiday"``) in another
language than English (English keeps the keys as the log writes them)."""
RESULT_RULES: dict[str, str] = {"host": i18n.N_("the host's decision"), "vote": i18n.N_("the seats' vote")}
"""A result's ``rule`` when the game did not end by a rule: the host or the seats."""


def result_how(how: object, tr: gettext.NullTranslations | None = None) -> str:
    """A result's ``how`` in the language of ``tr`` (issue 28): :data:`RESULT_HOW`,
    else as it is; in English (and with ``tr`` None) the rules core's words as they
    always were, ``_`` read as a space (the English mail stays byte for byte)."""
    said = str(how or "").replace("_", " ")
    if tr is None or not said or i18n.language_of(tr) == i18n.DEFAULT:
        return said
    if said in RESULT_HOW:
        return tr.gettext(RESULT_HOW[said])
    if said.startswith("automatic"):
        return tr.gettext("an automatic victory") + said.removeprefix("automatic")
    return said


def result_summary(pack: Pack, view: Mapping[str, Any], seat_rows: Sequence[Mapping[str, Any]],
                   tr: gettext.NullTranslations | None = None) -> dict[str, Any] | None:
    """The end-of-game summary when ``view["result"]`` is set (R-1.1 automatic victory,
    R-1.2 final scoring, R-1.3 regency): ``{"winner", "player", "how", "details":
    [(key, text)], "ranking": [seat rows by VP then LP]}``; None while the game goes on;
    ``how`` in the language of ``tr`` (None: English, :func:`result_how`)."""
    res = view.get("result")
    if not res:
        return None
    winner = res.get("winner") or res.get("seat")
    row = next((r for r in seat_rows if r["seat"] == winner), None)
    def said(v: Any) -> str:
        if isinstance(v, (list, tuple)):
            return ", ".join(said(x) for x in v)
        if isinstance(v, Mapping):
            return ", ".join(f"{said(a)} {said(b)}" for a, b in v.items())
        return printed_name(pack, v) if isinstance(v, str) else str(v)

    details = [(k.replace("_", " "), said(v)) for k, v in res.items() if k not in ("winner", "seat", "how")]
    if tr is not None and i18n.language_of(tr) != i18n.DEFAULT:  # the keys and the rule's words (try28d)
        details = [(tr.gettext(RESULT_KEYS[k]) if k in RESULT_KEYS else k,
                    tr.gettext(RESULT_RULES[v]) if k == "rule" and v in RESULT_RULES else v)
                   for k, v in details]
    ranking = sorted(seat_rows, key=lambda r: (-r["vp"], -r["lp"], _seat_key(r["seat"])))
    return {"winner": winner or (tr.gettext("nobody") if tr is not None else "nobody"),  # "nobody" in English
            "player": row["player"] if row else "",
            "how": result_how(res.get("how", ""), tr), "details": details, "ranking": ranking}


MOVEMENT_WORDS: dict[str, str] = {
    "mercenary": i18n.N_("mercenary (no move; your mercenary CU goes to the default space: your major "
                         "general's, else your major city)"),
    "none": i18n.N_("none (no move and no mercenary)"),
    "moves": i18n.N_("a list of moves [{army: General, path: [Space, ...]}] (the armies below move "
                     "instead of the mercenary being raised)"),
}
"""The choices of the movement segment (R-8.7) explained in one line each."""


EVENT_OPTIONS: dict[str, str] = {
    "recruit_armies": i18n.N_("%(card)s as its event (army: ...) gives its CUs to your army in"),
    "target_armies": i18n.N_("%(card)s as its event (target: ...) strikes the army in"),
    "marker_spaces": i18n.N_("%(card)s as its event (markers: [...]) may act on"),
    "event_fleets": i18n.N_("%(card)s as its event (fleet: ...) upgrades"),
    "women": i18n.N_("%(card)s as its event (royal: ..., place: ...) moves"),
    "capital_spaces": i18n.N_("%(card)s as its event (capital: ...; R-1.4) founds your capital in"),
}
"""The legal options of card events (R-16) and how the prompt says them, per card."""


def _event_option_lines(pack: Pack, key: str, value: Mapping[str, Any],
                        tr: gettext.NullTranslations | None = None) -> list[dict[str, Any]]:
    """Prompt lines of a card-event options key (:data:`EVENT_OPTIONS`), one per card,
    in the language of ``tr`` (None: English)."""
    _ = i18n.gettext_of(tr)
    out = []
    for card, items in value.items():
        if key == "event_fleets":
            words = [pack.fleets[f].name if f in pack.fleets else str(f) for f in items]
        elif key == "women":
            words = [_("%(royal)s to %(places)s") % {
                "royal": pack.royals[w['royal']].name if w['royal'] in pack.royals else w['royal'],
                "places": _(" or ").join(place_name(pack, x, tr) for x in w["spaces"]) or _("nowhere")} for w in items]
        else:
            words = [place_name(pack, x, tr) for x in items]
        if words:
            out.append({"label": _(EVENT_OPTIONS[key]) % {"card": card_label(pack, card, tr or ENGLISH)},
                        "items": words})
    return out


def alphabetical(name: str) -> tuple[str, str]:
    """A sort key for a name in Spanish or Russian alphabetical order: accents do not
    count (Ávila with Avila), «ё» sorts as «е», then the name as written breaks ties."""
    folded = unicodedata.normalize("NFD", name.casefold().replace("ё", "е"))
    return "".join(c for c in folded if not unicodedata.combining(c)), name


def option_lines(pack: Pack, options: Mapping[str, Any],
                 tr: gettext.NullTranslations | None = None) -> list[dict[str, Any]]:
    """A decision's legal choices in words (R-8): ``[{"label", "items": [str]}]``.

    Known keys of ``legal_options`` (garrison_spaces, surrender, movement,
    mercenary_spaces, surprise_discards, surprise_plays and a window's surprises
    (R-8.5), training, general_spaces, special_unit_armies,
    armies, pick_ups, inside_room, fleet_upgrades, reaction windows) get their own sentence; space ids become names, cards ``#12 Name (3 OPs)``. Unknown
    keys fall back to ``key: value`` so a new option never disappears from a prompt.
    In the language of ``tr`` (None: English; order words and YAML stay English)."""
    _, ngettext = i18n.gettext_of(tr), i18n.ngettext_of(tr)
    out: list[dict[str, Any]] = []
    skip = {"seat", "step", "round", "active", "hand", "tyche_only"}

    language = i18n.language_of(tr) if tr is not None else i18n.DEFAULT

    def spaces(ids: Sequence[Any]) -> list[str]:
        names = [place_name(pack, x, tr) for x in ids]
        # the places to choose from in the reader's alphabetical order (try28: a Russian prompt listed
        # «Амис, Анкира, …, Киркесий, Гордий, …, Урук, Зела», the order of the English names)
        return names if language in (i18n.DEFAULT, i18n.PSEUDO) else sorted(names, key=alphabetical)

    for key, value in options.items():
        if key in skip or value in ([], {}, None, ""):
            continue
        if key == "garrison_spaces":
            out.append({"label": _("Garrisons (use: garrisons, up to the card's OPs; R-8.3) may go to"),
                        "items": spaces(value)})
        elif key == "surrender" and isinstance(value, Mapping):
            for sub, words in (("accept", _("Surrender you may accept (R-8.1)")),
                               ("remove", _("Enemy garrisons you may remove (R-8.1)"))):
                if value.get(sub):
                    out.append({"label": words, "items": spaces(value[sub])})
        elif key == "movement":
            out.append({"label": _("Movement segment (R-8.7), one of"),
                        "items": [_(MOVEMENT_WORDS[str(v)]) if str(v) in MOVEMENT_WORDS else str(v) for v in value]})
        elif key == "mercenary_spaces":
            out.append({"label": _("The mercenary CU (movement: {mercenary: Space}; R-7.2) may be placed in"),
                        "items": spaces(value)})
        elif key == "surprise_discards":
            out.append({"label": _("Surprise cards you may discard first, each replaced (R-8.5)"),
                        "items": [card_label(pack, n, tr or ENGLISH) for n in value]})
        elif key == "surprise_plays" and isinstance(value, (list, tuple)):
            for row in value:
                if not isinstance(row, Mapping):
                    continue
                items = surprise_how(row, tr)
                if row.get("sieges"):
                    items.append(_("sieges you conduct now: %(spaces)s") % {"spaces": ", ".join(spaces(row["sieges"]))})
                if row.get("targets"):  # a Mutiny's armies
                    items.append(_("armies a mutiny would strike now: %(spaces)s")
                                 % {"spaces": ", ".join(spaces(row["targets"]))})
                out.append({"label": _("Surprise card %(card)s may be played "
                                       "(R-8.5; a replacement is drawn at once)") % {
                                "card": card_label(pack, row["card"], tr or ENGLISH) if row.get("card") is not None
                                else row.get("label")},
                            "items": items})
        elif key == "surprises" and isinstance(value, (list, tuple)):  # a window
            out.append({"label": _("Surprise cards you may play here (play: [...] in your answer; "
                                   "R-8.5)"),
                        "items": [f"{card_label(pack, r.get('card'), tr or ENGLISH) if r.get('card') else r.get('name')} "
                                  f"({moments_text(str(r.get('when')), tr)})" if isinstance(r, Mapping)
                                  else str(r) for r in value]})
        elif key == "training" and isinstance(value, Mapping):
            units = ", ".join(_training_unit(pack, u, tr) for u in value.get("in_training", []))
            out.append({"label": _("Training (R-8.4)"),
                        "items": [_("cards used this turn %(used)s of %(allowed)s")
                                  % {"used": value.get('cards_used', 0), "allowed": value.get('cards_allowed', '?')},
                                  _("in training: %(units)s") % {"units": units or _("nothing")}]})
        elif key == "general_spaces" and isinstance(value, Mapping):
            for card, ids in value.items():
                out.append({"label": _("%(card)s as its event places the general (R-8.6) in")
                            % {"card": card_label(pack, card, tr or ENGLISH)},
                            "items": spaces(ids) or [_("a reinforcement space")]})
        elif key == "special_unit_armies" and isinstance(value, Mapping):
            for card, ids in value.items():
                if ids:
                    out.append({"label": _("%(card)s as its event (army: ...) joins "
                                           "one of your armies (R-4.1) in")
                                % {"card": card_label(pack, card, tr or ENGLISH)},
                                "items": spaces(ids)})
        elif key in EVENT_OPTIONS and isinstance(value, Mapping):
            out += _event_option_lines(pack, key, value, tr)
        elif key == "first_player" and isinstance(value, (list, tuple)):
            out.append({"label": _("You name the first player (first_player: ...; R-6.1)"),
                        "items": [str(v) for v in value]})
        elif key == "vp" and isinstance(value, Mapping):  # why this seat chooses
            out.append({"label": _("Victory points now (the seat with the fewest names the first player; R-6.1)"),
                        "items": [f"{s} {v}" for s, v in sorted(value.items(), key=lambda sv: (sv[1], sv[0]))]})
        elif key in EVENT_CHOICES or key in ("heirs", "bury"):
            out += royal_lines(pack, key, value, tr)
        elif key == "inside_room" and isinstance(value, Mapping):
            out.append({"label": _("Reinforcements may go inside (inside: true; R-7.2), free places"),
                        "items": [f"{place_name(pack, x, tr)} {n}" for x, n in value.items()]})
        elif key == "fleet_upgrades":
            ops, step = (pack.constants.get(k, "?") for k in ("fleet_upgrade_card_ops", "fleet_upgrade_step"))
            out.append({"label": _("Fleets a %(ops)s-OP card may upgrade by +%(step)s (use: upgrade_fleet, "
                                   "fleet: ...; R-8.2)") % {"ops": ops, "step": step},
                        "items": [pack.fleets[f].name if f in pack.fleets else str(f) for f in value]})
        elif key == "armies" and isinstance(value, (list, tuple)):
            out.append({"label": _("Armies that may move (army: general or space; MA = initiative, R-9.1)"),
                        "items": [_army_item(pack, a, tr) if isinstance(a, Mapping) else str(a) for a in value]})
        elif key == "pick_ups" and isinstance(value, (list, tuple)):  # issue 24 N6
            out.append({"label": _("Units of yours no general leads; a move takes them along as it "
                                   "passes when it names them (pick_up: {at: Space, cus: {loyal: 1}, "
                                   "royals: [...]}; R-9.1)"),
                        "items": [_pick_up_words(pack, p, tr) for p in value if isinstance(p, Mapping)]})
        elif key in ("new", "dispersed") and isinstance(value, Mapping):
            out.append({"label": _("New CUs to place (R-7.1)") if key == "new" else
                        _("CUs back from the dispersed box to place (R-7.1)"), "items": [cus_text(pack, value, tr)]})
        elif key == "placement_spaces":
            out.append({"label": _("Reinforcements may go to (space: ...; R-7.2)"), "items": spaces(value)})
        elif key == "free_passage" and isinstance(value, (list, tuple)):
            out.append({"label": _("Marriages your CUs alone forbid; a standing order {when: "
                                   "free_passage, to: [seat]} grants free passage (R-12.2)"),
                        "items": [_("%(seat)s may marry %(royal)s in %(space)s")
                                  % {"seat": c.get('to'), "royal": printed_name(pack, c.get('royal')),
                                     "space": place_name(pack, c.get('space'), tr)}
                                  for c in value if isinstance(c, Mapping)]})
        elif key == "limit":
            out.append({"label": _("Placement limit (R-7.2)"), "items": [limit_words(pack, str(value), tr)]})
        elif key == "question":  # a reaction window
            out.append({"label": _("Reaction"), "items": [question_text(pack, options, str(value), tr)]})
        elif key == "choices" and isinstance(value, (list, tuple)):  # names; inside_join its answer word
            out.append({"label": _("Your choices"), "items": [
                (f"{c['name']} ({c['answer']})" if "answer" in c else str(c.get("name")))
                if isinstance(c, Mapping) else str(c) for c in value]})
        elif key == "answer" and isinstance(value, str):
            out.append({"label": _("Answer (under orders:)"), "items": [value]})
        elif key == "mover" and isinstance(value, str):
            out.append({"label": _("Moving player"), "items": [value]})
        elif key == "space" and isinstance(value, str):
            out.append({"label": _("Where"), "items": [place_name(pack, value, tr)]})
        elif isinstance(value, Mapping):
            out.append({"label": key.replace("_", " "), "items": [f"{printed_name(pack, k)}: {v}"
                                                                  for k, v in value.items()]})
        elif isinstance(value, (list, tuple)):
            out.append({"label": key.replace("_", " "),
                        "items": [space_name(pack, v) if isinstance(v, str) else str(v) for v in value]})
        else:
            out.append({"label": key.replace("_", " "), "items": [str(value)]})
    return out


EVENT_CHOICES = {
    "hemlock_royals": (i18n.N_("%(card)s as its event kills one of"), "royal"),
    "royal_entry_armies": (i18n.N_("%(card)s as its event brings the member in with one of your armies in"), "army"),
    "activate_royals": (i18n.N_("%(card)s as its event activates"), None),
    "marriage_offers": (i18n.N_("%(card)s as its event makes the marriage offer of"), None),
    "lp_targets": (i18n.N_("%(card)s as its event strikes the LP of"), "player"),
    "mutiny_armies": (i18n.N_("%(card)s as its event turns the Macedonian CUs of the enemy army in"), "target"),
    "condemnation_generals": (i18n.N_("%(card)s as its event places the Condemnation marker on"), "general"),
}
"""Choices of the royal and legitimacy card events (R-11, R-12, R-16.1) in the prompt:
options key → (what the event does, the ``tyche:`` field naming the choice)."""


def royal_lines(pack: Pack, key: str, value: Any, tr: gettext.NullTranslations | None = None) -> list[dict[str, Any]]:
    """The prompt's lines for the choices of the royal and legitimacy events
    (:data:`EVENT_CHOICES`), the heirs (R-11.1) and the burial (R-12.4), in the
    language of ``tr`` (None: English)."""
    _ = i18n.gettext_of(tr)
    if key == "heirs":
        return [{"label": _("Heirs you control (heir: ... names the one whose LP count; R-11.1)"),
                 "items": [_choice_name(pack, x, tr) for x in value]}]
    if key == "bury":
        return [{"label": _("You may bury Alexander's body (bury: true; R-12.4) in"),
                 "items": [place_name(pack, x, tr) for x in value]}]
    words, field = EVENT_CHOICES[key]
    return [{"label": (_("%(choice)s (%(field)s: ...)") % {"choice": _(words) % {"card": card_label(
                 pack, card, tr or ENGLISH)}, "field": field} if field
                       else _(words) % {"card": card_label(pack, card, tr or ENGLISH)}),
             "items": [_choice_name(pack, x, tr) for x in ids]}
            for card, ids in (value.items() if isinstance(value, Mapping) else ()) if ids]


def _choice_name(pack: Pack, x: Any, tr: gettext.NullTranslations | None = None) -> str:
    """A royal, general, space or seat id as players read it."""
    for table in (pack.royals, pack.generals, pack.spaces):
        if x in table:
            return table[x].name
    _ = i18n.gettext_of(tr)
    return _("no general (back to its box)") if x == "none" else str(x)


def limit_words(pack: Pack, limit: str, tr: gettext.NullTranslations | None = None) -> str:
    """The placement limit (R-7.2) the rules core states (``LIMIT_TEXT``) in the
    language of ``tr`` (None: English); a text the table does not say stays as it is."""
    v = {"n": const(pack, "reinforcement_per_province")}
    for message in LIMIT_TEXT.values():
        if message % v == limit:
            return i18n.gettext_of(tr)(message) % v
    return limit


def question_text(pack: Pack, options: Mapping[str, Any], question: str,
                  tr: gettext.NullTranslations | None = None) -> str:
    """A reaction window's question (R-9.3, R-15, R-9.2, R-8.5) in the language of
    ``tr`` (None: English): the rules core's ``QUESTION`` that says it, filled with the
    window's mover and space; a question the table does not say stays as it is."""
    v = {"mover": options.get("mover"), "space": space_name(pack, options.get("space"))}
    for message in QUESTION.values():
        if message % v == question:
            return i18n.gettext_of(tr)(message) % v
    return question


def surprise_how(row: Mapping[str, Any], tr: gettext.NullTranslations | None = None) -> list[str]:
    """How a surprise card of the hand is played at each of its moments (R-8.5): the
    rules core's ``MOMENT_NAMES`` and ``HOW`` (``legal_options``' ``surprise_plays``
    row: its ``card`` and ``moments``) in the language of ``tr`` (None: English); the
    order words in them stay English (issue 28 item 5). A row without its moments keeps
    the rules core's English ``how``."""
    _ = i18n.gettext_of(tr)
    moments, n = row.get("moments"), row.get("card")
    if not isinstance(moments, (list, tuple)) or n is None or not all(m in MOMENT_NAMES and m in HOW for m in moments):
        return [str(h) for h in row.get("how", [])]
    return [f"{_(MOMENT_NAMES[m])}: {_(HOW[m]) % {'n': n}}" for m in moments]


def moments_text(when: str, tr: gettext.NullTranslations | None = None) -> str:
    """A window's surprise card moments (``"; "``-joined ``MOMENT_NAMES``, R-8.5) in the
    language of ``tr``; a part the table does not know stays as it is."""
    _ = i18n.gettext_of(tr)
    known = set(MOMENT_NAMES.values())
    return "; ".join(_(part) if part in known else part for part in when.split("; "))


CARD_TYPES: dict[str, str] = {"event": i18n.N_("event"), "general": i18n.N_("general"),
                              "primary": i18n.N_("primary"), "surprise": i18n.N_("surprise"),
                              "unrest": i18n.N_("unrest")}
"""The card types of the pack (R-8.2, R-8.5), as a prompt names them."""


def hand_rows(pack: Pack, options: Mapping[str, Any], hand: Sequence[int],
              tr: gettext.NullTranslations | None = None) -> list[dict[str, Any]]:
    """The seat's own hand: ``[{"number", "label", "name", "ops", "type", "must_play",
    "uses"}]``, uses from ``legal_options`` when given (R-8.2); the label's OPs, the
    type and the frame of the text in the language of ``tr`` (None: English; the card's
    name and printed text are the pack's)."""
    _ = i18n.gettext_of(tr)
    uses = {h.get("card"): h.get("uses", []) for h in options.get("hand", []) if isinstance(h, Mapping)}
    rows = []
    for n in hand:
        c = pack.cards.get(int(n))
        kind = c.type if c else "?"
        rows.append({"number": n, "label": card_label(pack, n, tr if tr is not None else ENGLISH),
                     "name": c.name if c else "?", "ops": c.ops if c else None,
                     "type": _(CARD_TYPES[kind]) if kind in CARD_TYPES else kind,
                     "must_play": bool(c and c.must_play), "uses": list(uses.get(n, [])),
                     "text": card_text(c, tr)})
    return rows


def card_text(card: Any, tr: gettext.NullTranslations | None = None) -> str:
    """The printed text of a card's event as the prompt shows it (from the pack), or
    what the card is for when it has none (R-8.2, R-16). A surprise card also says how
    it is discarded or played, as it is never the Tyche play (R-8.5: the prompt offers it
    no use, issue 24). The frame in the language of ``tr`` (None: English); the printed
    text is the pack's."""
    if card is None:
        return ""
    _ = i18n.gettext_of(tr)
    event = _("Event:") + f" {card.text}" if card.text and card.text != "none" else ""
    if card.type == "surprise":
        how = _("A surprise card, never your Tyche play: discard it under surprise_discards: [%(number)s] (a "
                "replacement is drawn at once), or play it at its moment (R-8.5).") % {"number": card.number}
        return f"{event} {how}" if event else how
    return event or _("No event: play it for its OPs (garrisons, training, an army's activation) or discard it.")


USE_WORDS: dict[str, str] = {
    "garrisons": "garrisons (places: [...], up to its OPs)",
    "train": "train (train: [{unit, ops}])",
    "activate": "activate (army and path: one army moves, MA = its OPs)",
    "event": "event (its text below)",
    "discard": "discard",
    "upgrade_fleet": "upgrade_fleet (fleet: ...)",
}
"""The uses of a card (R-8.2) with the fields each reads, as the prompt lists them."""
