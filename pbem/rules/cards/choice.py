"""What card events read from the Tyche orders (R-16): a list of spaces, an army (a
general's name or his space), one entry of a list of choices; each checked against what
the event allows now, with the problems a player can act on.

Shared by the family modules of :mod:`pbem.rules.cards` and by the Tyche segment
(:func:`place_list`). An event whose subject is chosen by the player (an army, a
general, a fleet, a woman) needs one: ``tyche.event_no_subject`` when there is none; an
event that places or removes things does what it can [D].
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.plural import count
from pbem.problems import Problem
from pbem.rules.core.board import resolve_general, resolve_space
from pbem.rules.core.names import printed_name
from pbem.rules.core.problems import did_you_mean, reject
from pbem.rules.core.state import State

RULE = "R-16"


def names(pack: Pack, spaces: list[str], most: int = 8) -> str:
    """``"Pella, Aegae, …"``: space names for a hint, at most ``most``."""
    shown = [pack.spaces[x].name for x in spaces[:most]]
    return ", ".join(shown) + (", …" if len(spaces) > most else "")


def place_list(pack: Pack, part: dict[str, Any], where: str, rej: list[Problem],
               most: int, key: str = "place", *, what: tuple[str, str] = ("CU", "CUs"),
               rule: str = RULE) -> list[str]:
    """The spaces named under ``part[key]`` (one name or a list), resolved to ids; at
    most ``most`` of them (``tyche.too_many_places``, naming ``what`` is placed, one
    and many: ``("independent marker", "independent markers")``, and the ``rule`` that
    limits it: issue 24 N7); unknown names are refused (``orders.unknown_space``).
    R-7.2, R-8.6, R-16."""
    raw = part.get(key, [])
    raw = raw if isinstance(raw, list) else [raw]
    out: list[str] = []
    for i, v in enumerate(raw):
        sid, hint = resolve_space(pack, v)
        if sid is None:
            reject(rej, "orders.unknown_space", f"there is no space {v!r}",
                   f"{where}.{key}[{i}]", hint)
        else:
            out.append(sid)
    if len(out) > most:
        reject(rej, "tyche.too_many_places", f"this places at most {count(int(most), *what)}, one per space, "
               f"and {key} lists {count(len(out), 'space')}",
               f"{where}.{key}", f"list at most {count(int(most), 'space')} under {key}", rule=rule)
    return out


def pick_spaces(pack: Pack, part: dict[str, Any], key: str, legal: list[str], most: int,
                where: str, rej: list[Problem], what: str,
                things: tuple[str, str] = ("marker", "markers")) -> list[str]:
    """R-16: up to ``most`` distinct spaces under ``part[key]``, each one of ``legal``
    (``tyche.event_choice_illegal`` naming ``what`` and the legal spaces; more than
    ``most``: ``tyche.too_many_places`` naming ``things``, R-16); none named:
    ``[]`` (the event then chooses, see its resolution)."""
    out: list[str] = []
    for i, sid in enumerate(place_list(pack, part, where, rej, most, key, what=things, rule=RULE)):
        w = f"{where}.{key}[{i}]"
        if sid in out:
            reject(rej, "tyche.duplicate_place", f"{pack.spaces[sid].name} is listed twice",
                   w, "list each space once", rule=RULE)
        elif sid not in legal:
            reject(rej, "tyche.event_choice_illegal",
                   f"{pack.spaces[sid].name} is not a space where {what}", w,
                   ("legal: " + names(pack, legal)) if legal else "no space qualifies now",
                   rule=RULE)
        else:
            out.append(sid)
    return out


def army_of(pack: Pack, s: State, text: Any, seats: set[str]) -> str | None:
    """The space of the army named by ``text``: a general (id or name) of one of
    ``seats`` on the map, or a space id or name; None when it names neither."""
    gid = resolve_general(pack, text)
    if gid:
        g = s["generals"].get(gid) or {}
        return g["space"] if g.get("where") == "map" and g.get("seat") in seats else None
    return resolve_space(pack, text)[0]


def pick_army(pack: Pack, s: State, part: dict[str, Any], key: str, legal: list[str],
              seats: set[str], where: str, rej: list[Problem], what: str) -> str | None:
    """R-16: the army an event acts on, named under ``part[key]`` by a general of one of
    ``seats`` or by its space, one of ``legal`` (spaces); see :func:`pick_one`."""
    gens = [g.name for gid, g in pack.generals.items()
            if (s["generals"].get(gid) or {}).get("space") in legal
            and s["generals"][gid].get("seat") in seats]
    return pick_one(part, key, legal, lambda v: army_of(pack, s, v, seats), where, rej,
                    what, names(pack, legal), pack,
                    near=gens + [pack.spaces[x].name for x in legal])


def pick_one(part: dict[str, Any], key: str, legal: list[str], norm: Any, where: str,
             rej: list[Problem], what: str, shown: str | None = None, pack: Pack | None = None,
             near: list[str] | None = None) -> str | None:
    """R-16: one of ``legal`` (ids) under ``part[key]``, read by ``norm`` (text → id or
    None); left out: the only legal one. Problems: ``tyche.event_no_subject`` (nothing
    qualifies), ``tyche.event_choice_missing`` (several do), ``tyche.event_choice_illegal``;
    each message names ``what``, each hint lists ``shown`` (default: the printed names
    of ``legal`` with ``pack``, else the ids); a name that reads as nothing gets "did you
    mean" among ``near`` (default: the names of ``legal``)."""
    if shown is None:
        shown = ", ".join(printed_name(pack, x) for x in legal) if pack is not None else ", ".join(legal)
    if not legal:
        reject(rej, "tyche.event_no_subject", f"there is no {what}", f"{where}.use",
               "use the card's OPs or discard it", rule=RULE)
        return None
    if key not in part:
        if len(legal) == 1:
            return legal[0]
        reject(rej, "tyche.event_choice_missing", f"name the {what} under {key}",
               f"{where}.{key}", "qualify: " + shown, rule=RULE)
        return None
    got = norm(part[key])
    if got not in legal:
        close = did_you_mean(part[key], near if near is not None else [
            printed_name(pack, x) if pack is not None else x for x in legal]) \
            if got is None else None
        reject(rej, "tyche.event_choice_illegal", f"{part[key]!r} is no {what}",
               f"{where}.{key}", (f"{close} " if close else "") + "qualify: " + shown,
               rule=RULE)
        return None
    return got
