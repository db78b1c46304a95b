"""The account of victory points, legitimacy points and control in a report (issue 24):
every source of each seat's VP and LP, summing to the totals the standings show, and
every change between the position before a report's events and after them, each with
its cause — "west +3 VP (3 -> 6): controls Egypt +3 (R-1.4)."

Everything is read from two public views (:func:`pbem.rules.view` with ``seat=None``:
``vp_terms``, ``lp_terms``, ``provinces``, ``garrisons``), so nothing here can show a
secret. The terms themselves are the rules core's (:func:`pbem.rules.core.control.
victory_terms`, :func:`~pbem.rules.core.control.legitimacy_terms`): the report never
counts points on its own.
"""
from __future__ import annotations

import gettext
from collections.abc import Mapping, Sequence
from typing import Any

from pbem import i18n, rules
from pbem.pack.model import Pack
from pbem.i18n import N_
from pbem.rules.core.board import info
from pbem.rules.core.names import (
    ENGLISH,
    card_label,
    cus_text,
    general_name,
    province_name,
    royal_name,
    space_name,
)
from pbem.rules.core.pack import const
from pbem.rules.core.placement import Grant, reinforcement_grants
from pbem.rules.view import public_part

Term = Mapping[str, Any]
"""One term of a view's ``vp_terms`` / ``lp_terms``: ``{kind, what, value, rule}``."""


def _asia(pack: Pack) -> str:
    names = [province_name(pack, p) for p in const(pack, "lord_of_asia_provinces")]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def term_label(pack: Pack, t: Term, tr: gettext.NullTranslations | None = None) -> str:
    """A term as a table names it: ``"Egypt"``, ``"Lord of Asia"``, ``"heir Alexander
    IV"``, ``"Condemnation on Antigonus"``, ``"#36 Funeral Games (2 OPs)"``; in the
    language of ``tr`` (None: English; issue 28)."""
    _ = i18n.gettext_of(tr)
    kind, what = t["kind"], t["what"]
    return {
        "province": lambda: province_name(pack, what),
        "lord_of_asia": lambda: _("Lord of Asia"),
        "hellespont": lambda: _("the Hellespont"),
        "strongest_fleet": lambda: _("strongest fleet"),
        "capital": lambda: _("capital in %(space)s") % {"space": space_name(pack, what)},
        "capital_destroyed": lambda: _("enemy capitals destroyed"),
        "heir": lambda: _("heir %(royal)s") % {"royal": royal_name(pack, what)},
        "women": lambda: royal_name(pack, what),
        "strategos": lambda: _("Strategos of Europe"),
        "generals": lambda: general_name(pack, what),
        "champion": lambda: _("Champion"),
        "burial": lambda: _("burial in %(space)s") % {"space": space_name(pack, what)},
        "tomb_guardian": lambda: _("Tomb Guardian of %(space)s") % {"space": space_name(pack, what)},
        "cards": lambda: card_label(pack, what, tr or ENGLISH),
        "condemnation": lambda: _("Condemnation on %(general)s") % {"general": general_name(pack, what)},
        "adjust": lambda: _("adjustment"),
    }.get(kind, lambda: str(kind).replace("_", " "))()


GAINED = {
    "province": N_("controls %(label)s"), "lord_of_asia": N_("Lord of Asia: controls %(asia)s"),
    "hellespont": N_("holds every Hellespont port"), "strongest_fleet": N_("has the single strongest fleet"),
    "capital": N_("founded its capital in %(space)s"), "capital_destroyed": N_("destroyed an enemy capital"),
    "heir": N_("counts the heir %(royal)s"), "women": N_("controls %(label)s, active"),
    "strategos": N_("Strategos of Europe: controls Macedonia"), "generals": N_("has %(label)s"),
    "champion": N_("Champion"), "burial": N_("buried Alexander's body in %(space)s"),
    "tomb_guardian": N_("controls %(space)s, where Alexander's tomb lies"),
}
"""Why a seat now has a term (R-1.4, R-11.1), by its kind; others say their label."""
LOST = {
    "province": N_("no longer controls %(label)s"), "lord_of_asia": N_("no longer Lord of Asia (%(asia)s)"),
    "hellespont": N_("no longer holds every Hellespont port"),
    "strongest_fleet": N_("no longer has the single strongest fleet"),
    "capital": N_("its capital in %(space)s is destroyed"), "heir": N_("no longer counts the heir %(royal)s"),
    "women": N_("%(label)s no longer counts (not controlled, or inactive)"),
    "strategos": N_("no longer Strategos of Europe (Macedonia)"), "generals": N_("%(label)s is out of play"),
    "champion": N_("no longer Champion"),
    "tomb_guardian": N_("no longer controls %(space)s, where Alexander's tomb lies"),
    "cards": N_("%(label)s lapses"), "condemnation": N_("%(label)s is lifted"),
}
"""Why a seat no longer has a term, by its kind; others say "no longer" and the label."""


def _term_values(pack: Pack, t: Term, tr: gettext.NullTranslations | None) -> dict[str, str]:
    what = t["what"]
    return {"label": term_label(pack, t, tr), "asia": _asia(pack), "space": space_name(pack, what, i18n_t(tr)),
            "royal": royal_name(pack, what)}


def i18n_t(tr: gettext.NullTranslations | None) -> gettext.NullTranslations:
    """``tr``, or English for None."""
    return tr if tr is not None else i18n.translations()


def _gained(pack: Pack, t: Term, tr: gettext.NullTranslations | None = None) -> str:
    """Why a seat now has a term: ``"controls Egypt"``."""
    v = _term_values(pack, t, tr)
    kind = t["kind"]
    return i18n.gettext_of(tr)(GAINED[kind]) % v if kind in GAINED else v["label"]


def _lost(pack: Pack, t: Term, tr: gettext.NullTranslations | None = None) -> str:
    """Why a seat no longer has a term: ``"no longer controls Egypt"``."""
    _ = i18n.gettext_of(tr)
    v = _term_values(pack, t, tr)
    kind = t["kind"]
    return _(LOST[kind]) % v if kind in LOST else _("no longer %(label)s") % v


def _key(t: Term) -> tuple[str, Any]:
    return (str(t["kind"]), t["what"])


def term_changes(pack: Pack, old: Sequence[Term], new: Sequence[Term],
                 tr: gettext.NullTranslations | None = None) -> list[tuple[str, int, str]]:
    """The terms that changed from ``old`` to ``new`` (one seat's VP or LP terms) as
    ``[(why, delta, rule)]``: a term gained, lost, or whose value changed."""
    before = {_key(t): t for t in old}
    after = {_key(t): t for t in new}
    out = []
    for k, t in after.items():
        was = before.get(k)
        if was is None:
            out.append((_gained(pack, t, tr), int(t["value"]), str(t["rule"])))
        elif was["value"] != t["value"]:
            out.append((f"{term_label(pack, t, tr)} {was['value']} -> {t['value']}",
                        int(t["value"]) - int(was["value"]), str(t["rule"])))
    for k, t in before.items():
        if k not in after:
            out.append((_lost(pack, t, tr), -int(t["value"]), str(t["rule"])))
    return out


def points_rows(pack: Pack, view: Mapping[str, Any], what: str,
                tr: gettext.NullTranslations | None = None) -> list[dict[str, Any]]:
    """Every seat's VP (``what="vp"``) or LP (``"lp"``) with the terms it is the sum of:
    ``[{"seat", "total", "sum", "terms": [{"label", "value"}], "text"}]``; ``text`` reads
    ``"9 = Cilicia 2 + Egypt 3 + Cyprus 1 + strongest fleet 3"``, and for LP that the
    sum never counts below 0 (R-11.1); in the language of ``tr`` (None: English)."""
    _ = i18n.gettext_of(tr)
    rows = []
    for seat in rules.SEATS:
        terms = list((view.get(f"{what}_terms") or {}).get(seat, []))
        total = int((view.get(what) or {}).get(seat, 0))
        raw = sum(int(t["value"]) for t in terms)
        parts = [f"{term_label(pack, t, tr)} {t['value']}" for t in terms]
        text = str(total) + (" = " + " + ".join(parts) if parts else "")
        if raw != total:
            text += _(" (the sum is %(sum)s; LP never go below 0, R-11.1)") % {"sum": raw}
        rows.append({"seat": seat, "total": total, "sum": raw, "text": text,
                     "terms": [{"label": term_label(pack, t, tr), "value": t["value"]} for t in terms]})
    return rows


def points_changes(pack: Pack, before: Mapping[str, Any], after: Mapping[str, Any], what: str,
                   tr: gettext.NullTranslations | None = None) -> list[str]:
    """One line per seat whose VP (``what="vp"``) or LP changed between two public
    views, naming every term that changed with its rule, so that the terms add up to
    the change: ``"west +3 VP (3 -> 6): controls Egypt +3 (R-1.4)."``; LP that would
    go below 0 say so (R-11.1)."""
    _ = i18n.gettext_of(tr)
    unit = _("VP") if what == "vp" else _("LP") if what == "lp" else what.upper()
    out = []
    for seat in rules.SEATS:
        old_terms = list((before.get(f"{what}_terms") or {}).get(seat, []))
        new_terms = list((after.get(f"{what}_terms") or {}).get(seat, []))
        old, new = int((before.get(what) or {}).get(seat, 0)), int((after.get(what) or {}).get(seat, 0))
        changes = term_changes(pack, old_terms, new_terms, tr)
        if not changes and old == new:
            continue
        why = "; ".join(f"{text} {delta:+d} ({rule})" for text, delta, rule in changes)
        raw_old = sum(int(t["value"]) for t in old_terms)
        raw_new = sum(int(t["value"]) for t in new_terms)
        if (raw_old, raw_new) != (old, new):
            v = {"old": raw_old, "new": raw_new}
            why += (_("; the sum goes from %(old)s to %(new)s, and LP never go below 0 (R-11.1)") % v
                    if why else _("LP never go below 0: the sum is %(new)s (R-11.1)") % v)
        out.append(f"{seat} {new - old:+d} {unit} ({old} -> {new}): {why}.")
    return out


def control_changes(pack: Pack, before: Mapping[str, Any], after: Mapping[str, Any],
                    tr: gettext.NullTranslations | None = None) -> list[str]:
    """One line per province whose controller changed between two public views (R-3.2),
    with the count of the controller's garrisons among the spaces that count, the major
    city, and the garrisons that changed in the province: ``"Egypt: west takes control
    (R-3.2): west garrisons in 3 of its 4 spaces, Memphis among them; now: Pelusium
    west's."``"""
    _, ngettext = i18n.gettext_of(tr), i18n.ngettext_of(tr)
    was, now = before.get("provinces") or {}, after.get("provinces") or {}
    g0, g1 = before.get("garrisons") or {}, after.get("garrisons") or {}
    out = []
    for pid in pack.provinces:
        old, new = was.get(pid), now.get(pid)
        if old == new:
            continue
        spaces, majors = info(pack).province_control.get(pid, ((), ()))
        name = province_name(pack, pid)
        v = {"name": name, "old": old, "new": new}
        if new and old:
            head = _("%(name)s: control passes from %(old)s to %(new)s") % v
        elif new:
            head = _("%(name)s: %(new)s takes control") % v
        else:
            head = _("%(name)s: %(old)s loses control") % v
        who = new or old
        held = sum(1 for x in spaces if g1.get(x) == who)
        city = ", ".join(space_name(pack, m) for m in majors)
        detail = ngettext("%(who)s garrisons in %(held)s of its %(num)d space", "%(who)s garrisons in %(held)s of its %(num)d spaces",
                    len(spaces)) % {"who": who, "held": held, "num": len(spaces)}
        if city:
            detail += (_(", %(city)s among them") if all(g1.get(m) == who for m in majors)
                       else _(", not %(city)s")) % {"city": city}
        moved = [f"{space_name(pack, x)} {_garrison(g0.get(x), g1.get(x), tr)}" for x in spaces
                 if g0.get(x) != g1.get(x)]
        out.append(f"{head} (R-3.2): {detail}" + (_("; changed: %(spaces)s") % {"spaces": ', '.join(moved)}
                                                  if moved else "") + ".")
    return out


def _garrison(old: str | None, new: str | None, tr: gettext.NullTranslations | None = None) -> str:
    _ = i18n.gettext_of(tr)
    v = {"old": old, "new": new}
    if old and new:
        return _("%(old)s's garrison replaced by %(new)s's") % v
    if new:
        return _("now %(new)s's") % v
    return _("%(old)s's garrison removed") % v


def home_name(pack: Pack, home: str) -> str:
    """A fleet's home (R-15) by its printed name: a province (``"Egypt"``) or a space
    (``"Athenai"``)."""
    return province_name(pack, home) if home in pack.provinces else space_name(pack, home)


def fleet_rows(pack: Pack, view: Mapping[str, Any],
               tr: gettext.NullTranslations | None = None) -> list[dict[str, Any]]:
    """The table of fleets (R-15) from a public view's ``fleets``: ``[{"name", "home",
    "strength", "seat" (or "nobody"), "dispersed"}]`` in the pack's order; "nobody" in
    the language of ``tr`` (None: English; issue 28)."""
    _ = i18n.gettext_of(tr)
    nobody = _("nobody")
    return [{"name": pack.fleets[fid].name, "home": home_name(pack, f["home"]), "strength": int(f["strength"]),
             "seat": f["seat"] or nobody, "dispersed": bool(f.get("dispersed"))}
            for fid, f in (view.get("fleets") or {}).items() if fid in pack.fleets]


def fleet_totals(pack: Pack, view: Mapping[str, Any]) -> dict[str, int]:
    """``{seat: fleet strength}``: the sum of the strengths of the fleets each seat owns
    (R-1.4, dispersed fleets count), every seat listed."""
    out = {seat: 0 for seat in rules.SEATS}
    for f in (view.get("fleets") or {}).values():
        if f["seat"] in out:
            out[f["seat"]] += int(f["strength"])
    return out


def fleet_summary(pack: Pack, view: Mapping[str, Any], tr: gettext.NullTranslations | None = None) -> str:
    """The line under the table of fleets: each seat's total and who has the single
    strongest fleet (the VP term's seat, R-1.4): ``"Strength: north 3, east 0, south 5,
    west 2; strongest: south (+3 VP, R-1.4)."``; nobody on a tie or below the pack's
    minimum. In the language of ``tr`` (None: English; issue 28)."""
    _ = i18n.gettext_of(tr)
    totals = fleet_totals(pack, view)
    best = next((seat for seat, ts in (view.get("vp_terms") or {}).items()
                 if any(t["kind"] == "strongest_fleet" for t in ts)), None)
    strength = ", ".join(f"{seat} {n}" for seat, n in totals.items())
    if best:
        return _("Strength: %(strength)s; strongest: %(seat)s (+%(vp)s VP, R-1.4).") % {
            "strength": strength, "seat": best, "vp": const(pack, "strongest_fleet_vp")}
    return _("Strength: %(strength)s; strongest: nobody (a tie, or less than %(min)s; R-1.4).") % {
        "strength": strength, "min": const(pack, "strongest_fleet_min_strength")}


def fleet_changes(pack: Pack, before: Mapping[str, Any], after: Mapping[str, Any],
                  tr: gettext.NullTranslations | None = None) -> list[str]:
    """One line per fleet whose owner or strength changed between two public views,
    with why (R-15: a fleet is its home's controller's; R-8.2: an upgrade lasts while
    the seat that made it owns the fleet, and is lost when dispersed), then the seats'
    totals when they changed: ``"Egyptian Fleet: passes from west to south, which now
    controls Egypt (R-15)."``"""
    _ = i18n.gettext_of(tr)
    was, now = before.get("fleets") or {}, after.get("fleets") or {}
    out = []
    for fid, f in now.items():
        old = was.get(fid)
        if old is None or (old["seat"], old["strength"]) == (f["seat"], f["strength"]) or fid not in pack.fleets:
            continue
        name, home = pack.fleets[fid].name, home_name(pack, f["home"])
        v = {"old": old['seat'], "new": f['seat'], "home": home, "was": old['strength'], "now": f['strength']}
        if old["seat"] != f["seat"]:
            if f["seat"] and old["seat"]:
                why = _("passes from %(old)s to %(new)s, which now controls %(home)s (R-15)") % v
            elif f["seat"]:
                why = _("now %(new)s's, which controls %(home)s (R-15)") % v
            else:
                why = _("%(old)s loses it: nobody controls %(home)s now (R-15)") % v
            if old["strength"] != f["strength"]:
                why += (_("; strength %(was)s -> %(now)s (an upgrade is lost when the fleet changes hands, R-8.2)")
                        if f["strength"] < old["strength"] else _("; strength %(was)s -> %(now)s (R-8.2)")) % v
        elif f["strength"] > old["strength"]:
            why = _("strength %(was)s -> %(now)s: upgraded by %(new)s (R-8.2, R-15)") % v
        else:
            why = (_("strength %(was)s -> %(now)s: dispersed, its upgrade is lost (R-8.2, R-15)") if f.get("dispersed")
                   else _("strength %(was)s -> %(now)s: its upgrade is lost (R-8.2, R-15)")) % v
        out.append(f"{name}: {why}.")
    t0, t1 = fleet_totals(pack, before), fleet_totals(pack, after)
    if was and t0 != t1:
        moved = ", ".join(f"{seat} {t0[seat]} -> {t1[seat]}" for seat in rules.SEATS if t0[seat] != t1[seat])
        out.append(_("Fleet strength: %(moved)s; %(summary)s") % {
            "moved": moved, "summary": fleet_summary(pack, after, tr).split("; ", 1)[1]})
    return out


def status_changes(pack: Pack, before: Mapping[str, Any], after: Mapping[str, Any],
                   events: Sequence[rules.Event] = (), tr: gettext.NullTranslations | None = None) -> list[str]:
    """One line per Champion or Usurper status gained or lost between two public views,
    with why: an attack on a Champion who is no Usurper loses it, VP fallen to 0 give
    it back (R-11.4, the ``ChampionLost`` event of ``events`` naming whom and how); the
    seats with most VP are Usurpers for the turn (R-6.2)."""
    lost = {e.data.get("seat"): e.data for e in events if e.kind == "ChampionLost"}
    usurp = next((e.data for e in events if e.kind == "UsurpersLabelled"), None)
    c0, c1 = set(before.get("champions") or []), set(after.get("champions") or [])
    u0, u1 = set(before.get("usurpers") or []), set(after.get("usurpers") or [])
    vp = (usurp or {}).get("vp") or after.get("vp") or {}
    top = ", ".join(sorted(u1, key=rules.SEATS.index))
    _ = i18n.gettext_of(tr)
    out = []
    for seat in rules.SEATS:
        v = {"seat": seat, "vp": vp.get(seat, '?'), "top": top}
        if seat in c0 and seat not in c1:
            d = lost.get(seat)
            out.append((_("%(seat)s is no longer Champion: it attacked %(target)s, a Champion and no Usurper "
                          "(R-11.4).") if d else
                        _("%(seat)s is no longer Champion: it attacked a Champion who is no Usurper (R-11.4).")) % {
                **v, "target": (d or {}).get('target')})
        elif seat in c1 and seat not in c0:
            out.append(_("%(seat)s is Champion again: its VP fell to 0 (R-11.4).") % v)
        if seat in u1 and seat not in u0:
            out.append((_("%(seat)s is Usurper: tied for most VP (%(vp)s) as the turn begins, for the whole turn "
                          "(R-6.2).") if len(u1) > 1 else
                        _("%(seat)s is Usurper: most VP (%(vp)s) as the turn begins, for the whole turn (R-6.2).")) % v)
        elif seat in u0 and seat not in u1:
            best = max((vp.get(x, 0) for x in u1), default=None)
            out.append((_("%(seat)s is no longer Usurper: the Usurpers of this turn are those with most VP, %(top)s "
                          "with %(best)s, %(seat)s with %(vp)s (R-6.2).") if top else
                        _("%(seat)s is no longer Usurper: nobody is Usurper this turn (R-6.2).")) % {**v, "best": best})
    return out


GRANT_REASONS = {
    "every_seat": N_("every seat"),
    "macedonia": N_("controls Macedonia"),
    "most_lp": N_("most LP, %(points)s"),
    "most_lp_senior": N_("tied for most LP, %(points)s, with the most senior general"),
    "most_vp": N_("most VP, %(points)s"),
    "most_vp_tied": N_("tied for most VP, %(points)s"),
}
"""Why a seat gets CUs in the reinforcement phase (:class:`~pbem.rules.core.placement.Grant`,
R-7.1), as a phrase."""


def grant_changes(pack: Pack, before: rules.GameState | None, events: Sequence[rules.Event],
                  tr: gettext.NullTranslations | None = None) -> list[str]:
    """One line per seat for a ``ReinforcementsGranted`` among ``events`` (played from
    ``before``): the CUs it has to place and why, item by item, adding up to the grant
    (R-7.1): ``"north +4 CUs to place (R-7.1): 2 mercenary (every seat) + 1 loyal
    (controls Macedonia) + 1 loyal (most LP, 7)."`` The reasons are the rules core's
    (:func:`~pbem.rules.core.placement.reinforcement_grants`) on the public position as
    the reinforcement phase opened."""
    if before is None:
        return []
    _, ngettext = i18n.gettext_of(tr), i18n.ngettext_of(tr)
    out: list[str] = []
    start = 0
    for i, e in enumerate(events):
        if e.kind == "PhaseStarted" and e.data.get("phase") == "reinforcement":
            start = i
        if e.kind != "ReinforcementsGranted":
            continue
        s = public_part(rules.fold(before, list(events[:start])).peek())
        grants = reinforcement_grants(pack, s)
        for seat, cus in (e.data.get("cus") or {}).items():
            items: list[Grant] = [g for g in grants.get(seat, []) if g.count]
            if sum(g.count for g in items) != sum(cus.values()):  # an older log's rules: the counts alone
                items = [Grant(t, n, "every_seat") for t, n in cus.items() if n]
            n = sum(cus.values())
            items_text = " + ".join(f"{cus_text({g.unit: g.count}, pack, tr or ENGLISH)} ("
                                    + (_(GRANT_REASONS[g.why]) % {"points": g.points}) + ")" for g in items)
            out.append(ngettext("%(seat)s +%(num)d CU to place (R-7.1): %(items)s.",
                          "%(seat)s +%(num)d CUs to place (R-7.1): %(items)s.", n) % {
                "seat": seat, "num": n, "items": items_text})
    return out


def cus_name(pack: Pack, unit: str) -> str:
    """A CU type as the reports name it: ``"mercenary"``, ``"loyal"``."""
    return cus_text({unit: 1}, pack).split(" ", 1)[1]


def changes(pack: Pack, before: Mapping[str, Any] | None, after: Mapping[str, Any],
            events: Sequence[rules.Event] = (), tr: gettext.NullTranslations | None = None) -> list[str]:
    """Every change of control, VP, LP, fleets and status between the public views
    ``before`` and ``after`` a report's events, each with its cause
    (:func:`control_changes`, :func:`fleet_changes`, :func:`points_changes`,
    :func:`status_changes`, the last reading ``events``); empty when ``before`` is None
    (no earlier position). In the language of ``tr`` (None: English; issue 28)."""
    if before is None:
        return []
    return (control_changes(pack, before, after, tr) + fleet_changes(pack, before, after, tr)
            + points_changes(pack, before, after, "vp", tr) + points_changes(pack, before, after, "lp", tr)
            + status_changes(pack, before, after, events, tr))
