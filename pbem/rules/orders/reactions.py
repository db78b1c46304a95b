"""Answers to a reaction window (R-9.3 interception and avoid battle, R-15 naval battle,
R-9.2 units inside joining a battle): the open window as a decision, and its answer.
Like every order kind (:mod:`pbem.rules.orders`): :func:`read`, :func:`options`,
:func:`check`, :func:`execute`.

A reaction answer is an orders mapping ``{intercept: {army: Ptolemy}}`` /
``{intercept: none}`` / ``{avoid_battle: {toward: Sinope}}`` / ``{avoid_battle: none}`` /
``{naval_battle: {fleets: [athenian_fleet]}}`` / ``{naval_battle: none}`` /
``{inside_join: join}`` / ``{inside_join: stay}`` / ``{inside_join: none}`` (the default,
join). ``none`` in any case or an empty value is no reaction. R-8.5: the mappings may
add ``play: [card, ...]``, surprise cards for the moments of the move (Ambush on the
check, Fortune of War or Orator's Gift in the battle, Storm at Sea against a landing);
a ``surprise`` window is answered ``{surprise: {play: [52]}}`` or ``{surprise: none}``.
"""
from __future__ import annotations

from typing import Any

from pbem.pack import names as pack_names
from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.board import name_hint, resolve_fleet, resolve_space
from pbem.rules.core.names import N_, card_label, fleet_name
from pbem.rules.core.pieces import army_space
from pbem.rules.core.problems import reject
from pbem.rules.core.state import Decision, State, public_orders, war_get
from pbem.rules.orders import standing
from pbem.rules.orders.common import plan_of
from pbem.rules.resolve.surprises import (
    MOMENT_NAMES,
    WINDOW_MOMENTS,
    moments_of,
    playable,
    read_cards,
)

WINDOW_RULE = {"intercept": "R-9.3", "avoid_battle": "R-9.3", "naval_battle": "R-15",
               "inside_join": "R-9.2", "surprise": "R-8.5"}


QUESTION = {
    "intercept": N_("%(mover)s's army has entered %(space)s: you may intercept it with an adjacent "
                 "army (R-9.3)"),
    "avoid_battle": N_("%(mover)s's army has entered %(space)s, where your army stands: you may try "
                    "to avoid battle (R-9.3)"),
    "naval_battle": N_("%(mover)s's army lands at %(space)s by sea near your garrisons: you may "
                    "declare a naval battle with your fleets (R-15; an attack, R-11.4)"),
    "inside_join": N_("%(mover)s attacks your army outside %(space)s: your units inside the city "
                   "may join the battle or stay inside, out of it (R-9.2)"),
    "surprise:battle": N_("%(mover)s's army attacks yours at %(space)s: you may play surprise cards "
                       "for this battle (R-8.5); each is played only when it helps (prestige "
                       "when the royal CUs would change sides, a re-roll when your score is "
                       "the lower)"),
    "surprise:naval_landing": N_("%(mover)s's naval move is about to land at %(space)s, near your "
                              "garrisons: you may play a surprise card that cancels it (R-8.5)"),
}


DEFAULTS = {"intercept": "none", "avoid_battle": "none", "naval_battle": "none",
            "inside_join": "join", "surprise": "none"}


def window_moments(p: dict) -> tuple[str, ...]:
    """The moments of the surprise cards an answer to window ``p`` may ``play`` (R-8.5);
    none for ``inside_join``."""
    key = p["moment"] if p["kind"] == "surprise" else p["kind"]
    return WINDOW_MOMENTS.get(key, ())


def surprise_rows(pack: Pack, s: State, seat: str, p: dict) -> list[dict[str, Any]]:
    """The surprise cards of ``seat``'s hand it may ``play`` in its answer to window ``p``
    (R-8.5): ``[{"card", "name", "when"}]`` (private: the window seat's options)."""
    moments = window_moments(p)
    return [{"card": n, "name": card_label(pack, n),
             "when": "; ".join(MOMENT_NAMES[m] for m in moments_of(pack, n) if m in moments)}
            for n in playable(pack, s, seat, moments)]


def _choice_rows(pack: Pack, kind: str, options: list[str]) -> list[dict[str, str]]:
    if kind == "naval_battle":
        return [{"fleet": f, "name": pack.fleets[f].name if f in pack.fleets else f}
                for f in options]
    if kind == "inside_join":
        return [{"answer": x, "name": "join the battle" if x == "join" else
                 "stay inside, out of the battle"} for x in options]
    return [{"space": x, "name": pack.spaces[x].name} for x in options]


def _answer_text(pack: Pack, kind: str, options: list[str]) -> str:
    first = fleet_name(pack, options[0]) if options else "?"
    if kind == "intercept":
        return "{intercept: {army: <general or space>}} or {intercept: none}"
    if kind == "avoid_battle":
        return "{avoid_battle: {toward: <space>}} or {avoid_battle: none}"
    if kind == "naval_battle":
        return f"{{naval_battle: {{fleets: [{first}]}}}} or {{naval_battle: none}}"
    if kind == "surprise":
        return "{surprise: {play: [<card>, ...]}} or {surprise: none}"
    return "{inside_join: join} or {inside_join: stay}"


def reaction_decision(pack: Pack, s: State, step: int) -> Decision | None:
    """The open reaction window as a Decision, or None. Kinds: ``intercept`` and
    ``avoid_battle`` (R-9.3), ``naval_battle`` (R-15), ``inside_join`` (R-9.2). Options:
    ``{mover, space, question, choices, answer, active: True}`` (also the seat's
    ``legal_options`` while the window is open); default: no reaction (inside units:
    join)."""
    p = war_get(s, "pause")
    if not p:
        return None
    key = p["kind"]
    mover, space = p["mover"], pack.spaces[p["space"]].name
    question = QUESTION[f"surprise:{p.get('moment')}" if key == "surprise" else key]
    rows = surprise_rows(pack, s, p["seat"], p)
    answer = _answer_text(pack, key, p["options"])
    if rows and key != "surprise":
        answer += " (add play: [<card>] to the mapping to play surprise cards)"
    return Decision(seat=p["seat"], kind=key, step=step,
                    options={"mover": mover, "space": p["space"],
                             "question": question % {"mover": mover, "space": space},
                             "choices": _choice_rows(pack, key, p["options"]),
                             "answer": answer, "surprises": rows,
                             "active": True},
                    default={key: DEFAULTS[key]}, rule=WINDOW_RULE[key])


def _is_none(val: Any) -> bool:
    """True for the "no reaction" answer: ``none`` in any case, an empty value (YAML
    ``null``) or ``false`` (R-9.3)."""
    return val is None or val is False or (isinstance(val, str) and
                                           val.strip().lower() == "none")


NONE_HINT = {"intercept": "{intercept: none}", "avoid_battle": "{avoid_battle: none}",
             "naval_battle": "{naval_battle: none}",
             "inside_join": "{inside_join: none} (the default: join)",
             "surprise": "{surprise: none}"}


def _plays(pack: Pack, s: State, seat: str, p: dict, ans: Any, rej: list[Problem]
           ) -> tuple[Any, list[int]]:
    """R-8.5: the surprise cards an answer names (``play``), and the answer without
    them. A ``surprise`` window's answer is the cards themselves (``{play: [..]}``, a
    card or a list); other answers carry ``play`` in their mapping."""
    key = p["kind"]
    where = f"orders.{key}"
    if key == "surprise":
        raw = ans.get("play") if isinstance(ans, dict) and set(ans) <= {"play"} else ans
        if isinstance(ans, dict) and not set(ans) <= {"play"}:
            reject(rej, "orders.unknown_key", "this window takes only play", where,
                   "{surprise: {play: [52]}} or " + NONE_HINT[key], rule="R-8.5")
            return None, []
        if _is_none(raw) or raw == []:
            return None, []
        return None, read_cards(pack, s, seat, raw, window_moments(p), f"{where}.play", rej)
    if key == "inside_join" or not isinstance(ans, dict) or "play" not in ans:
        return ans, []
    cards = read_cards(pack, s, seat, ans["play"], window_moments(p), f"{where}.play", rej)
    rest = {k: v for k, v in ans.items() if k != "play"}
    return (rest or None), cards


def _parse_answer(pack: Pack, s: State, seat: str, p: dict, ans: Any,
                  rej: list[Problem]) -> Any:
    """The choice in a window answer (see :func:`reaction_decision`, R-9.3, R-9.2, R-15),
    rejections added. ``none`` (any case) or an empty value is no reaction (for
    ``inside_join`` the default, join); every bad answer's hint names the exact forms,
    the ``none`` form included."""
    key, opts = p["kind"], p["options"]
    rule = WINDOW_RULE[key]
    if key == "inside_join":  # only join, stay or none (= join): never a mapping or bool
        val = ans.strip().lower() if isinstance(ans, str) else ans
        if ans is None or val == "none":
            return "join"
        if val not in opts:
            reject(rej, "reaction.bad_answer", f"{ans!r} is not an answer here: join, stay "
                   "or none", f"orders.{key}", "{inside_join: join}, {inside_join: stay} or "
                   + NONE_HINT[key], rule=rule)
            return None
        return val
    if isinstance(ans, dict) and len(ans) == 1:  # {army: none}, {fleets: none}
        inner = next(iter(ans.values()))
        if _is_none(inner) and inner is not False:
            return None
    if _is_none(ans):
        return None
    if key == "naval_battle":
        raw = ans.get("fleets") if isinstance(ans, dict) else ans
        items = raw if isinstance(raw, list) else [raw]
        out = []
        for x in items:
            f = resolve_fleet(pack, x)
            if f not in opts:
                near = name_hint(x, {o: pack.fleets[o] for o in opts if o in pack.fleets}, pack=pack) \
                    if f is None else None
                reject(rej, "reaction.bad_fleet", f"{x!r} is not one of your ready fleets",
                       f"orders.{key}.fleets", (f"{near} " if near else "") + "fleets: "
                       + ", ".join(fleet_name(pack, f) for f in opts)
                       + "; or " + NONE_HINT[key], rule=rule)
            elif f not in out:
                out.append(f)
        if not out and not rej:
            reject(rej, "reaction.bad_fleet", "name at least one fleet", f"orders.{key}.fleets",
                   f"{{naval_battle: {{fleets: [{fleet_name(pack, opts[0])}]}}}} or " + NONE_HINT[key],
                   rule=rule)
        return out
    field = "army" if key == "intercept" else "toward"
    val = ans.get(field) if isinstance(ans, dict) else ans
    sid = None
    if isinstance(val, str):
        g = val.strip().lower()
        gid = next((k for k, v in pack.generals.items() if g in (k, v.name.lower())), None) \
            or pack_names.lookup(pack, "generals", val)  # any of the pack's languages (issue 28)
        sid = army_space(pack, s, seat, gid) if gid else resolve_space(pack, val)[0]
    if sid not in opts:
        named = {x: pack.spaces[x] for x in opts} | {
            g: v for g, v in pack.generals.items()
            if (s["generals"].get(g) or {}).get("space") in opts
            and s["generals"][g].get("seat") == seat}
        near = name_hint(val, named, pack=pack) if sid is None and isinstance(val, str) else None
        reject(rej, f"reaction.bad_{field}", f"{val!r} is not one of the choices",
               f"orders.{key}.{field}", (f"{near} " if near else "") + "choices: " + ", ".join(
                   pack.spaces[x].name for x in opts) + "; or " + NONE_HINT[key], rule=rule)
    return sid


ALIASES = {"avoid": "avoid_battle", "naval": "naval_battle", "join": "inside_join"}
"""Short forms of the answer's key."""


def read(pack: Pack, s: State, seat: str, orders: Any, where: str, rej: list[Problem]
         ) -> dict[str, Any] | None:
    """The answer's shape: a mapping with the window's key (short forms allowed,
    :data:`ALIASES`) and optionally ``standing`` and ``step``; other keys are refused.
    Returns ``{"answer": value, "standing": value | absent, "public": orders}``."""
    p = war_get(s, "pause")
    key = p["kind"]
    rule = WINDOW_RULE[key]
    if not isinstance(orders, dict):
        reject(rej, "orders.not_a_mapping", "orders must be a mapping", where,
               f"{{{key}: {DEFAULTS[key]}}}", rule=rule)
        return None
    given = {ALIASES.get(k, k): v for k, v in orders.items() if k not in ("step", "standing")}
    for k in given:
        if k != key:
            reject(rej, "orders.unknown_key", f"this window asks for {key}, not {k}",
                   f"{where}.{k}", f"{{{key}: {DEFAULTS[key]}}}", rule=rule)
    out = {"answer": given.get(key, DEFAULTS[key]), "public": public_orders(orders)}
    if "standing" in orders:
        out["standing"] = orders["standing"]
    return out


def options(pack: Pack, s: State, seat: str) -> dict[str, Any]:
    """The open window's options when ``seat`` answers it (:func:`reaction_decision`),
    else ``{}``."""
    d = reaction_decision(pack, s, s["step"])
    return dict(d.options) if d is not None and d.seat == seat else {}


def check(pack: Pack, s: State, seat: str, order: dict[str, Any], where: str,
          rej: list[Problem], soft: bool = False) -> dict[str, Any] | None:
    """The answer is one of the window's choices (or no reaction), and the standing
    orders sent with it are good (:mod:`pbem.rules.orders.standing`). Returns ``{"seat",
    "kind", "choice", "standing": [..] | None, "space", "public"}`` or None."""
    p = war_get(s, "pause")
    n0 = len(rej)
    ans, cards = _plays(pack, s, seat, p, order["answer"], rej)
    choice = None if p["kind"] == "surprise" or len(rej) != n0 else \
        _parse_answer(pack, s, seat, p, ans, rej)
    std = plan_of(standing, pack, s, seat, order["standing"], f"{where}.standing", rej) \
        if "standing" in order else None
    if len(rej) != n0:
        return None
    return {"seat": seat, "kind": p["kind"], "choice": choice, "standing": std,
            "space": p["space"], "public": order["public"], "play": cards}


def execute(ctx: Ctx, seat: str, plan: dict[str, Any]) -> None:
    """Record the answer (``OrdersApplied``, the standing orders sent with it), close the
    window and record the choice (``ReactionChosen``); the mover's move resumes in the
    player-turn (:func:`pbem.rules.phases.player_turn.run_reaction`)."""
    rule = WINDOW_RULE[plan["kind"]]
    ctx.emit("OrdersApplied", {"seat": seat, "step": ctx.s["step"], "orders": plan["public"],
                               "rule": rule})
    if plan["standing"] is not None:
        standing.execute(ctx, seat, plan["standing"])
    ctx.emit("ReactionWindowClosed", {"seat": seat, "kind": plan["kind"], "rule": rule})
    ctx.emit("ReactionChosen", {"seat": seat, "kind": plan["kind"], "choice": plan["choice"],
                                "source": "window", "space": plan["space"], "rule": rule})
