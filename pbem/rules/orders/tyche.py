"""The Tyche segment (R-8.2 … R-8.6): discards, surprise discards, garrison placement,
training, an army activation, a fleet upgrade, general cards and card events
(:mod:`pbem.rules.cards`).

Like every order kind (:mod:`pbem.rules.orders`): :func:`read`, :func:`options`,
:func:`check` (returns the plan), :func:`execute` (carries it out through events).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.pack import names as pack_names
from pbem.pack.model import Card, Pack
from pbem.plural import count
from pbem.problems import Problem
from pbem.rules.cards.choice import place_list
from pbem.rules.cards.registry import (
    EVENT_KEYS,
    OPTIONS_KEYS,
    check_event,
    event_choices,
    event_keys,
    event_supported,
    resolve_event,
)
from pbem.rules.context import Ctx
from pbem.rules.core.armies import army_options, iter_armies
from pbem.rules.core.board import (
    distances,
    info,
    name_hint,
    resolve_fleet,
    resolve_space,
)
from pbem.rules.core.control import upgradable_fleets, why_no_fleet_upgrade
from pbem.rules.core.garrisons import (
    any_legal_garrison_space,
    legal_garrison_spaces,
    why_not_garrison,
)
from pbem.rules.core.names import fleet_name
from pbem.rules.core.pack import const
from pbem.rules.core.placement import default_target, placement_targets
from pbem.rules.core.problems import did_you_mean, reject
from pbem.rules.core.state import State, hand_of, is_paused, training_units
from pbem.rules.orders.tyche_surprises import (
    card_label,
    check_surprise_discards,
    check_surprise_plays,
    discard_surprises,
    hand_params,
    parse_card,
    play_surprises,
    surprise_plays,
)
from pbem.rules.resolve.effects import place_cus
from pbem.rules.resolve.moves import (
    MOVE_KEYS,
    _soft_moves,
    do_moves,
    parse_move,
    simulate,
    static_checks,
)
from pbem.rules.resolve.naval import upgrade_fleet

USES = ("garrisons", "discard", "event", "activate", "train", "upgrade_fleet")


TYCHE_KEYS = ("card", "use", "places", "train", "place", "surprise_discards",
              "discard_drawn_surprises", "surprise_plays", "unrest",
              "army", "path", "drop", "pick_up", "assault", "escort", "surprise", "moves",
              "fleet"
              ) + tuple(k for k in EVENT_KEYS if k not in (
                  "card", "use", "places", "train", "place", "army", "fleet"))


UNITS = {"phalangite": "loyal", "auxiliary": "mercenary"}


def norm_use(value: Any) -> Any:
    """``tyche.use`` as the engine reads it: a word, case and blanks ignored
    (``Garrisons`` → ``garrisons``); other values unchanged (refused later)."""
    return value.strip().lower() if isinstance(value, str) else value


def uses_for(card: Card) -> list[str]:
    """Uses of ``card`` the rules allow (R-8.2 … R-8.6) before engine support is checked.
    A surprise card has none: it is never the Tyche play; it is discarded under
    ``surprise_discards`` or played at its moment (R-8.5)."""
    if card.type == "surprise":
        return []
    uses: list[str] = []
    bonus = card.type in ("bonus", "unrest")
    if card.ops is not None and (not card.must_play or bonus):
        uses += ["garrisons", "activate", "train"]
    if card.effects or card.type == "general" or card.must_play:
        uses.append("event")
    if not card.must_play:
        uses.append("discard")
    return uses


def read(pack: Pack, s: State, seat: str, part: Any, where: str,
         rej: list[Problem]) -> dict[str, Any] | None:
    """The order's shape: a mapping of the Tyche fields (:data:`TYCHE_KEYS`); unknown
    fields are refused (R-8.2)."""
    if not isinstance(part, dict):
        reject(rej, "tyche.not_a_mapping", "tyche must be a mapping with card and use", where,
               "tyche: {card: 12, use: discard}")
        return None
    for k in part:
        if k not in TYCHE_KEYS:
            reject(rej, "orders.unknown_key", f"tyche has no field {k!r}", f"{where}.{k}",
                   did_you_mean(k, TYCHE_KEYS, "fields: " + ", ".join(TYCHE_KEYS)),
                   rule="R-8.2", params={"field": k})
    return part


def check(pack: Pack, s: State, seat: str, part: dict[str, Any], where: str,
          rej: list[Problem], soft: bool = False, rehearse: Ctx | None = None
          ) -> dict[str, Any] | None:
    """The Tyche orders of ``seat`` against ``s`` (``soft``: carried out after dice changed
    the board, see :func:`pbem.rules.resolve.moves.check_moves`); problems go to ``rej``.
    Returns the plan ``{"surprise": [n], "plays": [{"card", "target"}] (R-16.3), "card":
    n, "use": str, "places": [id], "train":
    [{"unit", "ops"}], "place": [id]}`` (``"fleet"`` with ``use: upgrade_fleet``, R-8.2;
    ``"war"``, a moves plan, with ``use: activate`` or an army-moving event) or None when
    it cannot be carried out. ``rehearse``: the check's context whose ``s`` is ``s``,
    which keeps an activation's dry run for its execution
    (:meth:`pbem.rules.context.Ctx.keep_rehearsal`)."""
    n0 = len(rej)
    hand = list(hand_of(s, seat))
    lapsed: list[Problem] = []  # soft: surprise cards the dice or answers before took away
    surprise, again = check_surprise_discards(pack, s, seat, part, where,
                                              lapsed if soft else rej)
    plays = check_surprise_plays(pack, s, seat, part, where, lapsed if soft else rej,
                                 surprise)
    your_hand = "your hand: " + ", ".join(card_label(pack, c) for c in hand)
    if "card" not in part:
        reject(rej, "tyche.card_missing", "name the card you play or discard",
             f"{where}.card", your_hand)
        independent_checks(pack, part, where, rej)
        return None
    n, hint = parse_card(pack, hand, part["card"])
    if n is None or n not in hand:
        reject(rej, "tyche.card_not_in_hand", f"card {part['card']!r} is not in your hand", f"{where}.card",
             f"{hint}; {your_hand}" if hint else your_hand,
             params=hand_params(part["card"], hand, hint, pack))
        independent_checks(pack, part, where, rej)
        return None
    card = pack.cards[n]
    if n in surprise or any(p["card"] == n for p in plays):
        reject(rej, "tyche.duplicate_card", f"{card_label(pack, n)} is also a surprise discard",
             f"{where}.card", "play or discard another card under card:", rule="R-8.2")
    if card.type == "surprise":
        reject(rej, "tyche.surprise_not_mandatory", f"{card_label(pack, n)} is a surprise card and does not count as your Tyche "
             f"play", f"{where}.card", "list it under surprise_discards")
        independent_checks(pack, part, where, rej)
        return None
    use = norm_use(part.get("use"))
    if use not in USES:
        reject(rej, "tyche.unknown_use", f"use must be one of {', '.join(USES)}",
             f"{where}.use", f"allowed for this card: {', '.join(uses_for(card))}")
        independent_checks(pack, part, where, rej, use=False)
        return None
    if use not in uses_for(card) and use != "upgrade_fleet":  # 4-OP card: below
        if use == "discard":
            reject(rej, "tyche.must_play_not_discardable", f"{card_label(pack, n)} must be played and may not be discarded",
                 f"{where}.use", "play it for its event (you may keep it until the last round)")
        elif card.ops is None:
            reject(rej, "tyche.no_ops", f"{card_label(pack, n)} has no OPs",
                 f"{where}.use", f"allowed: {', '.join(uses_for(card))}")
        else:
            reject(rej, "tyche.use_not_allowed", f"{card_label(pack, n)} cannot be used for {use}", f"{where}.use",
                 f"allowed: {', '.join(uses_for(card))}")
        independent_checks(pack, part, where, rej, use=False)
        return None
    plan: dict[str, Any] = {"surprise": surprise, "again": again, "plays": plays,
                            "lapsed": [p.message.removesuffix(f" ({p.rule})") for p in lapsed],
                            "card": n, "use": use, "places": [],
                            "train": [], "place": [], "unrest": None}
    if "unrest" in part:
        if not any(e.primitive == "unrest" for e in card.effects):
            reject(rej, "orders.field_not_used", f"{card_label(pack, n)} has no unrest event", f"{where}.unrest",
                 "leave out unrest", rule="R-16.2")
        else:  # province ids (case ignored) in order of preference
            plan["unrest"] = _unrest_prefs(pack, part["unrest"], f"{where}.unrest", rej)
    if use == "activate":  # one army moves with the card's OPs as its allowance
        _check_activate(pack, s, seat, part, card, where, rej, plan, soft, rehearse)
    elif use == "event" and not event_supported(card):
        reject(rej, "rules.not_yet_supported", f"the event of {card_label(pack, n)} is not "
               "yet supported by the engine", f"{where}.use", "use its OPs or discard it for now")
    elif use == "event":  # the card's effects (R-8.6: a general card's general)
        check_event(pack, s, seat, part, card, where, rej, plan, soft)
    elif use == "garrisons":
        _check_places(pack, s, seat, part, card, where, rej, plan)
    elif use == "train":
        _check_train(pack, s, seat, part, card, where, rej, plan)
    elif use == "upgrade_fleet":
        _check_fleet_upgrade(pack, s, seat, part, card, where, rej, plan)
    for k, used_by in (("places", "garrisons"), ("train", "train"),
                       ("fleet", "upgrade_fleet"), ("surprise", "activate")):
        if k in part and use != used_by and not (use == "event" and k in event_keys(card)):
            reject(rej, "orders.field_not_used", f"{k} is only read with use: "
                 f"{used_by}", f"{where}.{k}", f"leave out {k}, or use: {used_by}")
    for k in TYCHE_KEYS[TYCHE_KEYS.index("fleet") + 1:]:  # the fields only events read
        if k in part and not (use == "event" and k in event_keys(card)):
            reject(rej, "orders.field_not_used", f"{card_label(pack, n)} played for {use} "
                   f"does not read {k}", f"{where}.{k}", f"leave out {k}", rule="R-16")
    return plan if len(rej) == n0 else None


def independent_checks(pack: Pack, part: dict[str, Any], where: str, rej: list[Problem],
                       use: bool = True) -> None:
    """The checks of a Tyche order that hold whatever card it names (R-8.2), for when
    the card itself is refused: ``use`` is one of :data:`USES` (unless ``use`` is
    False: already refused), every space of ``places`` and ``place`` has a name
    (``orders.unknown_space``) and every ``unrest`` entry is a province. So one mail
    names a card not in the hand *and* a misspelled space (issue 13: every problem at
    once); what depends on the card (how many places, which are legal) waits for a
    card that is in the hand. Rejections are appended to ``rej``."""
    if use and "use" in part and norm_use(part.get("use")) not in USES:
        reject(rej, "tyche.unknown_use", f"use must be one of {', '.join(USES)}",
               f"{where}.use", "the uses: " + ", ".join(USES))
    for key in ("places", "place"):
        value = part.get(key)
        for i, v in enumerate(value if isinstance(value, list) else [value] if isinstance(value, str) else []):
            sid, hint = resolve_space(pack, v)
            if sid is None and isinstance(v, str):
                reject(rej, "orders.unknown_space", f"there is no space {v!r}",
                       f"{where}.{key}[{i}]" if isinstance(value, list) else f"{where}.{key}", hint, params={"name": v})
    if "unrest" in part:
        _unrest_prefs(pack, part["unrest"], f"{where}.unrest", rej)


def options(pack: Pack, s: State, seat: str) -> dict[str, Any]:
    """The Tyche segment's choices of ``seat`` now (R-8.2 … R-8.6), JSON-safe::

        {"hand": [{"card", "name", "ops", "type", "must_play", "uses", "label"}],
         "surprise_discards": [card], "garrison_spaces": [space_id],
         "surprise_plays": [{"card", "label", "moments", "how"}] (R-8.5),
         "training": {"in_training": [...], "cards_used": int, "cards_allowed": int},
         "general_spaces": {card_no: [id]}, "fleet_upgrades": [fleet_id],
         "special_unit_armies": {card_no: [space]}, ...}

    A card's ``uses`` are the values of ``tyche.use`` the check accepts for it now (issue
    24: the prompt offers nothing the check refuses), for the seat on turn: ``garrisons``
    when some space may take a garrison, ``train`` when some training payment fits
    (R-8.4), ``activate`` (and Major Campaign's ``event``, R-16.1) when some army can take
    a step with the card's MPs, ``discard`` unless the card must be played; a surprise
    card has none (R-8.5: ``surprise_discards`` or a play at its moment). A card whose
    event lists choices (:data:`pbem.rules.cards.registry.OPTIONS_KEYS`, e.g.
    ``special_unit_armies``, R-4.1) lists ``event`` only when it has a choice now. A card
    of ``fleet_upgrade_card_ops`` OPs lists ``upgrade_fleet`` when ``fleet_upgrades``
    (fleets the seat controls below the cap) is not empty (R-8.2). Spaces are listed
    only for the seat whose player-turn it is (values computed per key and card:
    :func:`option_parts`)."""
    thunks, _parts = option_parts(pack, s, seat)
    return {k: f() for k, f in thunks.items()}


def option_parts(pack: Pack, s: State, seat: str
                 ) -> tuple[dict[str, Callable[[], Any]], dict[str, Callable[..., Any]]]:
    """:func:`options` as ``({key: function giving its value}, {part: accessor})`` for
    :class:`pbem.rules.core.lazy.LazyOptions` (issue 27 item 5): each key computed on
    its first call only, and only what it needs (a card's ``uses`` need the garrison
    spaces only when the card may garrison, the fleets only when it may upgrade one,
    its event choices only when it may be played for its event). Parts: ``card(n)``,
    the ``hand`` entry of hand card ``n``; ``playable()``, the hand's cards that are
    not surprise cards (those that may be the Tyche play), in the hand's order;
    ``event_choices(n)``, ``{options key:
    choices}`` of card ``n`` (what ``options[key][str(n)]`` holds, the keys it is in).
    A card's ``activate``/``event`` use asks only
    whether some army can step (:func:`may_step`, up to the first), and the garrison
    use whether some space may take one (``any_legal_garrison_space``; the list only when
    ``garrison_spaces`` is read). Values are exactly those of :func:`options` (the same
    code, per card)."""
    active = s["active"] == seat and not s["result"] and not is_paused(s)
    memo: dict[Any, Any] = {}

    def garrisons() -> list[str]:
        if "garrisons" not in memo:
            memo["garrisons"] = sorted(legal_garrison_spaces(pack, s, seat)) if active else []
        return memo["garrisons"]

    def any_garrison() -> bool:
        # yes/no only (a card's uses): the list when it is known, else up to the first space
        if "any_garrison" not in memo:
            memo["any_garrison"] = bool(memo["garrisons"]) if "garrisons" in memo \
                else active and any_legal_garrison_space(pack, s, seat)
        return memo["any_garrison"]

    def steps(mp: int) -> bool:
        # can_step's answer per MPs, up to the first army that can step
        key = ("steps", mp)
        if key not in memo:
            memo[key] = may_step(pack, s, seat, mp)
        return memo[key]

    def fleets() -> list[str]:
        if "fleets" not in memo:
            try:
                memo["fleets"] = upgradable_fleets(pack, s, seat)
            except KeyError:  # the pack lacks the naval chart
                memo["fleets"] = []
        return memo["fleets"]

    def card(n: int) -> tuple[dict[str, Any], dict[str, list[Any]]]:
        got = memo.get(n)
        if got is None:
            c = pack.cards[n]
            uses = [u for u in uses_for(c) if (u != "event" or event_supported(c))
                    and (not active or _may_use(pack, s, seat, c, u,
                                                u == "garrisons" and any_garrison(), steps))]
            choices: dict[str, list[Any]] = {}
            if "event" in uses:  # offered only when its choices are not empty
                for key, got_choices in event_choices(pack, s, seat, c).items():
                    choices[key] = got_choices
                    if not got_choices and "event" in uses:
                        uses.remove("event")
            if may_upgrade_fleet_with(pack, c) and fleets():
                uses.insert(uses.index("garrisons") + 1 if "garrisons" in uses else 0,
                            "upgrade_fleet")
            got = memo[n] = ({"card": n, "name": c.name, "ops": c.ops, "type": c.type,
                              "must_play": c.must_play, "uses": uses,
                              "label": card_label(pack, n)}, choices)
        return got

    def hand() -> list[dict[str, Any]]:
        return [card(n)[0] for n in hand_of(s, seat)]

    def event_key(key: str) -> Callable[[], dict[str, list[Any]]]:
        return lambda: {str(n): card(n)[1][key] for n in hand_of(s, seat) if key in card(n)[1]}

    thunks: dict[str, Callable[[], Any]] = {
        "hand": hand,
        "surprise_discards": lambda: [n for n in hand_of(s, seat)
                                      if pack.cards[n].type == "surprise"],
        "surprise_plays": lambda: surprise_plays(pack, s, seat, active),
        "garrison_spaces": garrisons,
        "training": lambda: {"in_training": [dict(u) for u in training_units(s, seat)],
                             "cards_used": s["training_cards"].get(seat, 0),
                             "cards_allowed": const(pack, "training_cards_per_turn")},
        **{k: event_key(k) for k in OPTIONS_KEYS},
        "fleet_upgrades": fleets}
    return thunks, {"card": lambda n: card(n)[0], "event_choices": lambda n: card(n)[1],
                    "playable": lambda: [n for n in hand_of(s, seat)
                                         if pack.cards[n].type != "surprise"]}


def _may_use(pack: Pack, s: State, seat: str, card: Card, use: str,
             garrisons: bool, steps: Callable[[int], bool]) -> bool:
    """Whether ``card`` may be played for ``use`` now by the seat on turn, as far as the
    board decides it (R-8.2 … R-8.4, R-16.1): a garrison space, a training payment, an
    army's step within the MPs the card gives; not an event that only brings on
    independent armies already destroyed (R-14: they do not return, so the event would
    do nothing; it is still accepted if played, issue 24). ``garrisons``: whether a
    space may take a garrison (:func:`pbem.rules.core.garrisons.any_legal_garrison_space`);
    ``steps(mp)``: :func:`can_step` of the seat with ``mp`` MPs."""
    if use == "garrisons":
        return garrisons
    if use == "train":
        return s["training_cards"].get(seat, 0) < const(pack, "training_cards_per_turn") \
            and any(training_after(pack, s, seat, [(u, k)])[2] is None
                    for u in UNITS for k in range(1, (card.ops or 0) + 1))
    if use == "activate":
        return steps(card.ops or 0)
    if use == "event":
        gone = {a for a, v in (s.get("indep_armies") or {}).items() if v.get("gone")}
        if card.effects and all(e.primitive == "activate_independent" and e.params.get("army") in gone
                                for e in card.effects):  # issue 24: R-14, a destroyed army does not return
            return False
        campaign = next((e for e in card.effects if e.primitive == "move_armies"), None)
        return campaign is None or steps(int(campaign.params.get(
            "mp", pack.constants.get("major_campaign_mp", 0))))
    return True


def can_step(pack: Pack, s: State, seat: str, mp: int,
             armies: list[dict[str, Any]] | None = None) -> bool:
    """R-9.1: some army of ``seat`` can take one step with ``mp`` MPs: a land or
    mountain path it can pay for, a sea path or a trans-Mediterranean one from a port.
    ``armies``: :func:`pbem.rules.core.armies.army_options` of ``seat`` on ``s`` when the
    caller has it."""
    try:
        costs = const(pack, "path_mp_cost")
        if armies is None:
            armies = army_options(pack, s, seat)
    except KeyError:  # the pack lacks movement numbers
        return False
    return any(_step_fits(pack, costs, a["space"], mp) for a in armies)


def may_step(pack: Pack, s: State, seat: str, mp: int) -> bool:
    """``can_step(pack, s, seat, mp)`` (R-9.1), stopping at the first army that can step
    (issue 27 item 5: a card's ``uses`` need only the yes/no): the armies of
    :func:`pbem.rules.core.armies.iter_armies`, made only at spaces where a step fits
    (the map alone); False when the pack lacks movement numbers (``KeyError``, also one
    met making an army after the first that can step, which ``can_step`` would meet
    first: not with a complete pack)."""
    try:
        costs = const(pack, "path_mp_cost")
        return next(iter_armies(pack, s, seat, lambda x: _step_fits(pack, costs, x, mp)),
                    None) is not None
    except KeyError:  # the pack lacks movement numbers
        return False


def _step_fits(pack: Pack, costs: dict[str, Any], x: str, mp: int) -> bool:
    """R-9.1: an army in ``x`` can take one step with ``mp`` MPs (``costs``: the pack's
    ``path_mp_cost``): a land or mountain path it can pay for, a sea path or a
    trans-Mediterranean one from a port."""
    for _y, kind in info(pack).adjacent.get(x, ()):
        if kind == "trans_med" or (kind == "sea" and costs.get("sea") is not None):
            if pack.spaces[x].port and (kind == "trans_med" or costs["sea"] <= mp):
                return True
        elif costs.get(kind) is not None and int(costs[kind]) <= mp:
            return True
    return False


def _unrest_prefs(pack: Pack, raw: Any, where: str, rej: list[Problem]) -> list[str]:
    """R-16.2 ``tyche.unrest``: one province (id or name) or a list of them, in order of
    preference: the first the rule lets the player pick wins, on a two-province result
    and when unrest spreads to an adjacent province. Unknown ids are refused."""
    out: list[str] = []
    known = {k: k for k in pack.provinces} | {p.name.lower(): k for k, p in pack.provinces.items()}
    for i, v in enumerate(raw if isinstance(raw, list) else [raw]):
        text = norm_use(v)
        pid = (known.get(" ".join(text.split())) or known.get("_".join(text.split()))
               or pack_names.lookup(pack, "provinces", text)) if isinstance(text, str) else None
        if pid is None:
            reject(rej, "tyche.unknown_province", f"there is no province {v!r}",
                   f"{where}[{i}]" if isinstance(raw, list) else where,
                   did_you_mean(str(v), [p.name for p in pack.provinces.values()],
                                "give provinces by name, e.g. unrest: [Attica, Aetolia]"))
        elif pid not in out:
            out.append(pid)
    return out


def _check_activate(pack: Pack, s: State, seat: str, part: dict, card: Card, where: str,
                    rej: list[Problem], plan: dict, soft: bool,
                    rehearse: Ctx | None = None) -> None:
    """R-8.2 ``use: activate``: one army moves with the card's OPs as its movement
    allowance (``army``, ``path`` and the move's other fields in the Tyche part, checked
    like a movement-segment move: :mod:`pbem.rules.resolve.moves`); fills
    ``plan["war"]``. ``soft``: see :func:`pbem.rules.resolve.moves.check_moves`;
    ``rehearse``: see :func:`pbem.rules.resolve.moves.simulate` (the dry run is kept
    for the same moves, the list of ``plan["war"]``)."""
    if "army" not in part or "path" not in part:
        reject(rej, "tyche.activate_army_missing",
               "name the army and its path to activate with this card", f"{where}.army",
               "tyche: {card: 12, use: activate, army: Ptolemy, path: [Memphis, Pelusium]}")
        return
    raw = {k: part[k] for k in MOVE_KEYS if k in part}
    if soft:
        plan["war"] = _soft_moves(pack, s, seat, [raw], where, "tyche", card.ops)
        return
    n0 = len(rej)
    mv = parse_move(pack, s, seat, raw, where, rej, card.ops)
    if mv is None:
        return
    static_checks(pack, s, seat, mv, "tyche", rej)
    moves = [mv]
    if len(rej) == n0:
        simulate(pack, s, seat, moves, "tyche", rej, rehearse=rehearse,
                 quick=rehearse is not None and rehearse.quick)
    if len(rej) == n0:
        plan["war"] = {"kind": "moves", "moves": moves, "segment": "tyche"}


def may_upgrade_fleet_with(pack: Pack, card: Card) -> bool:
    """R-8.2: ``card`` may upgrade a fleet: its OPs may be used (not a surprise or a
    must-play non-bonus card) and equal ``fleet_upgrade_card_ops`` (False when the pack
    lacks that constant)."""
    try:
        need = const(pack, "fleet_upgrade_card_ops")
    except KeyError:
        return False
    return "garrisons" in uses_for(card) and card.ops == need


def _check_fleet_upgrade(pack: Pack, s: State, seat: str, part: dict, card: Card,
                         where: str, rej: list[Problem], plan: dict) -> None:
    """R-8.2: a ``fleet_upgrade_card_ops`` card upgrades a fleet ``seat`` controls (R-15)
    by ``fleet_upgrade_step``, never beyond the naval chart's largest column."""

    try:
        need = const(pack, "fleet_upgrade_card_ops")
        const(pack, "fleet_upgrade_step")
        mine = upgradable_fleets(pack, s, seat)
    except KeyError as e:  # the pack lacks the naval chart or the upgrade constants
        reject(rej, "rules.pack_incomplete", f"the data pack lacks {e}", f"{where}.use", rule="R-8.2")
        return
    yours = ("fleets you may upgrade: " + ", ".join(fleet_name(pack, f) for f in mine)) if mine else \
        "you control no fleet that may be upgraded"
    if "garrisons" not in uses_for(card):
        reject(rej, "tyche.use_not_allowed", f"{card_label(pack, card.number)} cannot be used for its OPs", f"{where}.use",
             f"allowed: {', '.join(uses_for(card))}")
        return
    if card.ops != need:
        fit = [card_label(pack, n) for n in hand_of(s, seat)
               if may_upgrade_fleet_with(pack, pack.cards[n])]
        reject(rej, "tyche.fleet_upgrade_ops", f"only a {need}-OP card may upgrade a fleet; {card_label(pack, card.number)} "
             f"gives {card.ops}", f"{where}.card",
             ("play " + " or ".join(fit) + " instead") if fit else
             "use this card's OPs for garrisons, training or an activation")
        return
    if part.get("fleet") in (None, "", [], {}):
        reject(rej, "tyche.fleet_missing", "name the fleet to upgrade",
             f"{where}.fleet", yours)
        return
    fid = resolve_fleet(pack, part["fleet"])
    if fid is None:
        reject(rej, "tyche.unknown_fleet", f"there is no fleet {part['fleet']!r}",
             f"{where}.fleet", name_hint(part["fleet"], pack.fleets, otherwise="fleets: " + ", ".join(
                 f.name for f in pack.fleets.values()), pack=pack))
        return
    why = why_no_fleet_upgrade(pack, s, seat, fid)
    if why:
        code = "tyche.fleet_not_yours" if "belongs to" in why else "tyche.fleet_at_most"
        reject(rej, code, why,
             f"{where}.fleet", yours, rule='R-8.2' if code == 'tyche.fleet_at_most' else 'R-15')
        return
    plan["fleet"] = fid


def _check_places(pack: Pack, s: State, seat: str, part: dict, card: Card, where: str,
                  rej: list[Problem], plan: dict) -> None:
    places = part.get("places")
    if not isinstance(places, list) or not places:
        reject(rej, "tyche.places_missing", "list the spaces for your garrisons under places", f"{where}.places",
             "places: [Pelusium, Gaza]")
        return
    if len(places) > (card.ops or 0):
        reject(rej, "tyche.too_many_garrisons", f"{card_label(pack, card.number)} places at most {count(card.ops, 'garrison')}, "
             f"you listed {len(places)}", f"{where}.places",
             f"list at most {count(card.ops, 'space')}")
    legal = legal_garrison_spaces(pack, s, seat)
    seen: set[str] = set()
    for i, v in enumerate(places):
        w = f"{where}.places[{i}]"
        sid, hint = resolve_space(pack, v)
        if sid is None:
            reject(rej, "orders.unknown_space", f"there is no space {v!r}", w, hint, params={"name": v})
            continue
        if sid in seen:
            reject(rej, "tyche.duplicate_place", f"{pack.spaces[sid].name} is listed twice", w,
                 "a space takes one garrison: list it once")
            continue
        seen.add(sid)
        if sid not in legal:
            why = why_not_garrison(pack, s, seat, sid)
            wanted = {resolve_space(pack, x)[0] for x in places if isinstance(x, str)}
            near = _nearest_legal(pack, sid, sorted(set(legal) - wanted))
            reject(rej, "tyche.garrison_illegal", why, w,
                 f"the nearest legal space is {pack.spaces[near].name}" if near else
                 "the prompt's legal choices list where garrisons may go")
        plan["places"].append(sid)


def _nearest_legal(pack: Pack, sid: str, legal: list[str]) -> str | None:
    if not legal:
        return None
    d = distances(pack, {sid}, 8, {"land": 1, "mountain_strait": 2})
    reach = [x for x in legal if x in d]
    if not reach:
        return None
    return min(reach, key=lambda x: (d[x], x))


def _check_train(pack: Pack, s: State, seat: str, part: dict, card: Card, where: str,
                 rej: list[Problem], plan: dict) -> None:
    """R-8.4: see :func:`training_after`."""
    if s["training_cards"].get(seat, 0) >= const(pack, "training_cards_per_turn"):
        reject(rej, "tyche.training_cards_used", f"you have already used {s['training_cards'][seat]} cards for training this "
             f"turn", f"{where}.use", "use this card for garrisons, an activation or "
             "discard it; train again next turn")
        return
    entries = part.get("train")
    if not isinstance(entries, list) or not entries:
        reject(rej, "tyche.train_missing", "list the units you pay OPs on under train", f"{where}.train",
             "train: [{unit: phalangite, ops: 3}]")
        return
    parsed = []
    for i, e in enumerate(entries):
        w = f"{where}.train[{i}]"
        unit = e.get("unit") if isinstance(e, dict) else None
        unit = unit.strip().lower() if isinstance(unit, str) else None
        if not isinstance(e, dict) or unit not in UNITS or \
                not isinstance(e.get("ops"), int) or isinstance(e.get("ops"), bool) \
                or e["ops"] < 1 or set(e) - {"unit", "ops"}:
            reject(rej, "tyche.train_entry", "each train entry is {unit: phalangite|auxiliary, ops: N≥1}", w,
                 "train: [{unit: phalangite, ops: 2}, {unit: auxiliary, ops: 1}]")
            return
        parsed.append((unit, e["ops"]))
    total = sum(o for _, o in parsed)
    if total > (card.ops or 0):
        reject(rej, "tyche.train_too_many_ops", f"{card_label(pack, card.number)} gives {card.ops} OPs, you spend {total}",
             f"{where}.train", f"spend at most {card.ops} OPs in all")
        return
    _units, done, err = training_after(pack, s, seat, parsed)
    if err:
        reject(rej, err[0], err[1], f"{where}.train[{err[2]}]", err[3], rule="R-8.4")
        return
    plan["train"] = [{"unit": u, "ops": o} for u, o in parsed]
    if not done and part.get("place") not in (None, [], ""):  # issue 24: not "at most 0 trained units"
        reject(rej, "tyche.nothing_to_place", "no unit finishes training with this card's OPs, so nothing "
               "can be placed", f"{where}.place", "leave out place: a unit is placed in the Tyche segment "
               "that pays the last of its OPs", rule="R-8.4")
        plan["place"] = []
        return
    plan["place"] = place_list(pack, part, where, rej, len(done), what=("trained unit", "trained units"),
                               rule="R-8.4")


def training_after(pack: Pack, s: State, seat: str, entries: list[tuple[str, int]]
                   ) -> tuple[list[dict], list[str], tuple[str, str, int, str] | None]:
    """Pay training OPs (R-8.4). Each ``(unit, ops)`` pays into the oldest unfinished
    unit of that kind or starts a new one. Returns ``(units in training afterwards,
    kinds completed, error)`` with error ``(code, message, entry index, fix)`` or None
    (the fix names the numbers: "pay at most 2 OPs on the auxiliary", issue 24 N6).

    Rules: phalangite costs ``training_phalangite_ops`` paid over at least
    ``training_phalangite_min_segments`` Tyche segments; auxiliary costs
    ``training_auxiliary_ops``, and when paid by several cards they must fall in
    different turns; at most ``training_units_max`` units in training at once; no
    overpaying a unit."""
    cost = {"phalangite": const(pack, "training_phalangite_ops"),
            "auxiliary": const(pack, "training_auxiliary_ops")}
    units = [dict(u) for u in training_units(s, seat)]
    touched: list[dict] = []
    done: list[str] = []
    for i, (kind, ops) in enumerate(entries):
        unit = next((u for u in units if u["unit"] == kind), None)
        if unit is None:
            if len(units) >= const(pack, "training_units_max"):
                return units, done, ("tyche.training_units_full",
                                     f"you already train {len(units)} units", i,
                                     "pay OPs on a unit already in training ("
                                     + ", ".join(str(u["unit"]) for u in units)
                                     + "), or use the card another way")
            unit = {"unit": kind, "paid": 0, "segments": 0, "turn": s["turn"]}
            units.append(unit)
        left = cost[kind] - unit["paid"]
        if ops > left:
            return units, done, ("tyche.train_overpaid",
                                 f"the {kind} needs only {count(left, 'more OP', 'more OPs')}", i,
                                 f"pay at most {count(left, 'OP')} on the {kind} ({{unit: {kind}, ops: {left}}}); "
                                 "a card's OPs need not all be spent")
        unit["paid"] += ops
        if not any(u is unit for u in touched):
            unit["segments"] += 1
            touched.append(unit)
        if unit["paid"] == cost[kind]:
            if kind == "phalangite" and unit["segments"] < const(
                    pack, "training_phalangite_min_segments"):
                need = const(pack, "training_phalangite_min_segments")
                msg = f"a phalangite must be paid over at least {need} Tyche segments"
                return units, done, ("tyche.phalangite_too_fast", msg, i,
                                     f"pay fewer OPs now and the rest in a later Tyche segment ({need} or more in all)")
            if kind == "auxiliary" and unit["segments"] > 1 and unit["turn"] == s["turn"]:
                msg = "an auxiliary paid by several cards must be paid over two or more turns"
                return units, done, ("tyche.auxiliary_same_turn", msg, i,
                                     "pay the rest of the auxiliary in a later game turn")
            units.remove(unit)
            done.append(kind)
    return units, done, None


def execute(ctx: Ctx, seat: str, plan: dict[str, Any]) -> None:
    """Carry out a plan from :func:`check` (events: CardDiscarded, CardDrawn,
    CardPlayed, GarrisonPlaced, TrainingPaid, UnitTrained, CUsPlaced, GeneralPlaced,
    FleetUpgraded, CardEventSkipped)."""
    pack, s = ctx.pack, ctx.s
    for why in plan.get("lapsed") or []:  # issue 24.1: said, not silently left out
        ctx.emit("Note", {"seat": seat, "rule": "R-8.5", "text": (
            f"a surprise card of the Tyche orders is not played or discarded: {why}")})
    discard_surprises(ctx, seat, plan["surprise"], bool(plan.get("again")))
    play_surprises(ctx, seat, plan.get("plays") or [])  # R-16.3 (a Mutiny)
    n, use = plan["card"], plan["use"]
    card = pack.cards[n]
    if use == "discard":
        ctx.emit("CardDiscarded", {"seat": seat, "card": n, "name": card.name,
                                   "surprise": False, "rule": "R-8.2"})
        return
    ctx.emit("CardPlayed", {"seat": seat, "card": n, "name": card.name, "use": use,
                            "ops": card.ops, "rule": "R-8.2",
                            "removed": bool(card.remove_from_play and use == "event")})
    if use == "garrisons":
        for x in plan["places"]:
            ctx.emit("GarrisonPlaced", {"seat": seat, "space": x, "rule": "R-8.3"})
    elif use == "train":
        units, done, _ = training_after(pack, s, seat,
                                        [(e["unit"], e["ops"]) for e in plan["train"]])
        ctx.emit("TrainingPaid", {"seat": seat, "paid": plan["train"], "units": units,
                                  "rule": "R-8.4"})
        wanted = list(plan["place"])
        for kind in done:
            ctx.emit("UnitTrained", {"seat": seat, "unit": kind, "rule": "R-8.4"})
            targets = placement_targets(pack, s, seat)
            want = wanted.pop(0) if wanted else None
            where = want if want in targets else default_target(pack, s, seat, targets)
            place_cus(ctx, seat, where, {UNITS[kind]: 1}, "R-8.4", f"{kind} trained")
    elif use == "upgrade_fleet":
        upgrade_fleet(ctx, seat, plan["fleet"], n)
    elif use == "activate":  # the army moves (do_moves)
        do_moves(ctx, seat, plan["war"])
        if is_paused(s):  # ask window: the card's event waits in the suspended
            return        # cursor (pbem.rules.phases.player_turn.finish_turn)
    if use == "event" or card.type in ("bonus", "unrest"):
        resolve_event(ctx, seat, card, plan)  # its army moves first (may pause)
