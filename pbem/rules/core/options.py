"""The rule options a game may set (``games[].options``, ``pbem game new --option``):
each name with the values it takes, so an unknown or misspelt option is refused when
the game is made instead of being ignored for the whole game (break16).

The options themselves are read where the rules apply them (the modules named below);
this is their one list.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbem.pack.model import Pack


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _positive_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v > 0


RULE_OPTIONS: dict[str, tuple[Callable[[Any], bool], str, str]] = {
    "ask_windows": (_bool, "true or false",
                    "R-9.3: every move that can be answered opens a reaction window (resolve/reactions.py)"),
    "assault_min_cus": (_positive_int, "a whole number above 0",
                        "R-10: CUs an assaulting army needs, over the pack's constant (resolve/siege.py)"),
    "lp_bonus_tie": (lambda v: v in ("seniority", "nobody"), "seniority or nobody",
                     ("R-7.1 [D]: a tie for most LP goes to the most senior major general (seniority, "
                      "seed 003, the default) or to nobody (the rulebook) (core/placement.py)")),
    "reinforcement_limit": (lambda v: v in ("space", "province"), "space or province",
                            ("R-7.2 [D]: at most 2 reinforcements per space without a major city or "
                             "major general (space, seed 003, the default) or per province outside "
                             "an unbesieged friendly major city (province, the rulebook) "
                             "(core/placement.py)")),
    "bot_inside": (_bool, "true or false", "the random bots besiege and go inside (bots/war.py; tests and demos)"),
    "capitals": (_bool, "true or false",
                 ("R-1.4 [L]: the optional capitals: the card Foundation of the Capital joins the Tyche "
                  "deck; a capital is worth 2 VP, destroying an enemy capital 1 VP (cards/capitals.py)")),
}
"""``name -> (accepts(value), what it takes, what it does and where)``. Besides these,
every general the pack marks ``optional`` (e.g. ``cassander: true``) is an option that
puts him in play (R-2, phases/setup.py)."""


def option_problems(pack: Pack, options: Mapping[str, Any]) -> list[str]:
    """One sentence per unknown option or bad value in ``options`` (empty: all good),
    each saying what to write instead. Source: R-2 (setup) and the modules named in
    :data:`RULE_OPTIONS`."""
    optional = sorted(g for g, gen in pack.generals.items() if getattr(gen, "optional", False))
    known = sorted([*RULE_OPTIONS, *optional])
    out = []
    for name, value in options.items():
        if name in optional:
            if not isinstance(value, bool):
                out.append(f"option {name}: write true or false (the optional general {name} in play)")
        elif name in RULE_OPTIONS:
            accepts, takes, _what = RULE_OPTIONS[name]
            if not accepts(value):
                out.append(f"option {name}: {value!r} is not {takes}")
        else:
            out.append(f"no rule option {name!r}; the options are {', '.join(known)} (docs/host-guide.md)")
    return out
