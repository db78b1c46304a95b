"""The fixed vocabulary a data pack is checked against (DATA-PACK.md; R-16.3 for the card
effect primitives): the words a field may take, the effect primitives and their
parameters, the charts the rules core reads, and the "did you mean" hint every problem
about an unknown name carries.

Both the loader (:mod:`pbem.pack.loader`, the per-entry schema) and the cross-file checks
(:mod:`pbem.pack.checks`) read these; they live below both so neither imports the other
back. The loader re-exports the public names.
"""
from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

SOURCES = ("rulebook", "history", "reconstructed")
AREAS = ("europe", "asia", "africa", "islands")
SPACE_KINDS = ("minor_city", "major_city", "stronghold", "transit")
PATH_KINDS = ("land", "sea", "mountain_strait", "trans_med")
CARD_TYPES = ("event", "bonus", "surprise", "general", "unrest", "primary")
ROYAL_KINDS = ("heir", "woman", "body")

EFFECT_PRIMITIVES: frozenset[str] = frozenset({
    "gain_cus",              # type, count, where (reinforcement | general_in), provinces
    "lose_cus",              # count, target (army_in), provinces
    "return_dispersed",      # count: CUs back from the dispersed box
    "move_royal",            # royal, to (space)
    "kill_royal",            # royal (id or "any"; never the body/tomb)
    "activate_royal",        # royal, requires
    "activate_independent",  # army
    "adjust_lp",             # amount, target (player | controller_of), royal, duration
    "prestige_bonus",        # amount, until (end_of_segment)
    "extra_cards",           # count: draw this many more cards
    "place_markers",         # kind (garrison | independent), count, provinces | range
    "remove_markers",        # kind, count, provinces
    "subjugate",             # count: independent markers removed near the army
    "unrest",                # chart (unrest)
    "marriage_offer",        # royal
    "move_armies",           # armies, mp (Major Campaign)
    "place_general",         # general
    "bring_special_unit",    # unit, area (the army must stand there, R-3.4)
    "mutiny",
    "condemnation",
    "treasure_looted",       # cities
    "extra_tyche_segment",   # (R-6 step 5)
    "cancel",                # what (naval_move, ...)
    "movement_bonus",        # mp
    "siege_points",          # count
    "reroll",                # what (battle)
    "interception_bonus",    # modifier
    "fleet_upgrade",         # step
    "move_woman",            # mp: a woman no player controls moves (#27 Plans of Their Own)
    "found_capital",         # the optional capitals: a capital in a city of the player
})
"""Names of the effect primitives a card event may use (R-16.3 [D])."""

EFFECT_PARAMS: dict[str, dict[str, tuple[str, bool]]] = {
    "extra_cards": {"count": ("count", False)},
    "gain_cus": {"type": ("cu_type", True), "count": ("count", True),
                 "where": ("one_of:reinforcement|general_in", True),
                 "provinces": ("provinces", False)},
    "treasure_looted": {"cities": ("spaces", True), "type": ("cu_type", True),
                        "count": ("count", True)},
    "lose_cus": {"count": ("count", True), "target": ("one_of:army_in", True),
                 "provinces": ("provinces", True)},
    "return_dispersed": {"count": ("count", True)},
    "place_markers": {"kind": ("one_of:independent|garrison", True), "count": ("count", True),
                      "provinces": ("provinces", False), "range": ("count", False)},
    "remove_markers": {"kind": ("one_of:independent", True), "count": ("count", True),
                       "provinces": ("provinces", True)},
    "subjugate": {"count": ("count", True), "range": ("count", True)},
    "place_general": {"general": ("general", True)},
    "fleet_upgrade": {"step": ("count", True)},
    "extra_tyche_segment": {"count": ("count", False)},
    "move_woman": {"mp": ("count", True)},
    "adjust_lp": {"amount": ("int", True), "target": ("one_of:self|player|controller_of", False),
                  "royal": ("text", False), "duration": ("one_of:turn|game", False)},
    "kill_royal": {"royal": ("text", False)},
    "move_royal": {"royal": ("text", True), "to": ("text", True), "with_army": ("bool", False),
                   "only_from_box": ("bool", False)},
    "activate_royal": {"royal": ("text", True),
                       "requires": ("one_of:friendly_general_or_marker", False)},
    "marriage_offer": {"royal": ("text", True)},
    "mutiny": {"types": ("cu_types", False)},
    "condemnation": {"lp": ("int", True)},
    # the surprise cards, played at their moments (pbem.rules.resolve.surprises)
    "prestige_bonus": {"amount": ("int", True), "until": ("one_of:end_of_segment", False)},
    "movement_bonus": {"mp": ("count", True)},
    "cancel": {"what": ("one_of:naval_move", True)},
    "siege_points": {"count": ("count", True)},
    "reroll": {"what": ("one_of:battle", True)},
    "interception_bonus": {"modifier": ("int", True)},
}
"""The parameters of the primitives the engine resolves that take them:
``{primitive: {param: (kind, required)}}`` with kind ``count`` (a whole number ≥ 1),
``int`` (a whole number), ``bool``, ``text`` (a word; ids are checked against their
table: ``royal``, ``to``, ...), ``one_of:a|b`` (one of the words), ``provinces`` /
``spaces`` (lists of ids), ``cu_type`` or ``general`` (an id; references are checked with
the other pack references) or ``cu_types`` (a list of CU type ids); ``pbem data check``
refuses a missing required parameter, an unknown one, or a value of the wrong kind, and
the combinations a primitive needs (:data:`EFFECT_NEEDS`)."""

EFFECT_NEEDS: dict[tuple[str, str, str], str] = {
    ("gain_cus", "where", "general_in"): "provinces",
    ("place_markers", "kind", "independent"): "provinces",
    ("place_markers", "kind", "garrison"): "range",
}
"""``(primitive, param, value) -> param``: with that value the other parameter is
required too (e.g. ``gain_cus`` ``where: general_in`` names its ``provinces``)."""

REQUIRED_CHARTS: tuple[str, ...] = (
    "battle", "leader_loss", "elephant_strength", "macedonian_attrition", "assault",
    "naval", "unrest", "interception", "avoid_battle", "hostile_tribes", "forage",
    "overrun",
)
"""Chart ids the rules core reads."""


def suggest(name: Any, known: Mapping[str, Any] | list[str]) -> str:
    """`` (did you mean 'x'?)`` for the id of ``known`` closest to ``name`` (difflib,
    cutoff 0.6, compared lower-cased), or ``""`` when none is close or ``name`` is not a
    string. Used in every "unknown ..." problem of a pack."""
    if not isinstance(name, str):
        return ""
    keys = list(known)
    close = difflib.get_close_matches(name.lower(), keys, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
