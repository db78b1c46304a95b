"""One test per fact of DATA-PACK.md that the built-in pack must satisfy."""
from __future__ import annotations

from collections import Counter, deque

import pytest

from pbem.pack.graph import LAND_KINDS, is_connected
from pbem.pack.model import Pack

GREECE = {"thessaly", "aetolia", "attica", "peloponnesus", "epirus"}


def non_transit(pack: Pack, province: str) -> list[str]:
    return [s.id for s in pack.spaces_of(province) if s.kind != "transit"]


def garrisons_to_control(pack: Pack, province: str) -> int:
    """R-3.2: a strict majority of the non-transit spaces."""
    return len(non_transit(pack, province)) // 2 + 1


@pytest.mark.parametrize("space,province", [
    ("pella", "macedonia"), ("babylon", "babylonia"), ("damascus", "coele_syria"),
    ("sardis", "lydia"), ("nicopolis", "epirus"), ("ecbatana", "media"), ("athenai", "attica"),
])
def test_named_spaces_exist_in_their_provinces(pack: Pack, space: str, province: str) -> None:
    assert pack.spaces[space].province == province


@pytest.mark.parametrize("space", ["pella", "babylon", "ecbatana"])
def test_named_major_cities(pack: Pack, space: str) -> None:
    assert pack.spaces[space].kind == "major_city"


def test_baeonia_orestis_land_path_in_macedonia(pack: Pack) -> None:
    assert pack.spaces["baeonia"].province == "macedonia"
    assert pack.spaces["orestis"].province == "macedonia"
    assert ("orestis", "land") in pack.neighbours("baeonia")


def test_media_needs_five_garrisons_including_ecbatana(pack: Pack) -> None:
    assert garrisons_to_control(pack, "media") == 5
    majors = [s.id for s in pack.spaces_of("media") if s.kind == "major_city"]
    assert majors == ["ecbatana"]


def test_nine_strongholds_some_with_hostile_tribes(pack: Pack) -> None:
    strongholds = [s for s in pack.spaces.values() if s.kind == "stronghold"]
    assert len(strongholds) == 9
    hostile = [s for s in strongholds if s.hostile_tribes]
    assert 0 < len(hostile) < 9
    assert not [s for s in pack.spaces.values() if s.hostile_tribes and s.kind != "stronghold"]


def test_five_hellespont_ports(pack: Pack) -> None:
    ports = [s for s in pack.spaces.values() if s.hellespont]
    assert len(ports) == 5
    assert all(s.port for s in ports)
    assert {s.province for s in ports} == {"thrace", "hellespontine_phrygia"}


def test_lord_of_asia_provinces(pack: Pack) -> None:
    assert set(pack.constants["lord_of_asia_provinces"]) == {"phrygia", "syria", "babylonia"}
    assert {"phrygia", "syria", "babylonia"} <= set(pack.provinces)
    assert pack.constants["lord_of_asia_vp"] == 4


def test_areas(pack: Pack) -> None:
    area = {p: pack.provinces[p].area for p in pack.provinces}
    assert {p for p, a in area.items() if a == "islands"} == {"crete", "rhodes", "cyprus"}
    assert {p for p, a in area.items() if a == "africa"} == {"cyrene", "libya", "egypt"}
    assert area["hellespontine_phrygia"] == "asia"
    assert area["macedonia"] == "europe" and area["thrace"] == "europe"


def test_hellespontine_phrygia_is_westernmost_asia(pack: Pack) -> None:
    west = {p: min(s.lon for s in pack.spaces_of(p)) for p, prov in pack.provinces.items()
            if prov.area == "asia"}
    assert min(west, key=west.get) == "hellespontine_phrygia"


def test_greek_mercenaries_provinces_exist(pack: Pack) -> None:
    assert {"aetolia", "thessaly"} <= set(pack.provinces)
    card = next(c for c in pack.cards.values() if c.name == "Greek Mercenaries")
    assert {"aetolia", "thessaly"} <= set(card.effects[0].params["provinces"])


def test_scythians_and_autariatae_have_entry_areas(pack: Pack) -> None:
    for army in ("scythians", "autariatae"):
        a = pack.independent_armies[army]
        assert a.entry_area and a.start is None and not a.active_at_start
        assert a.returns_to_box
        assert all(pack.spaces[s].province != "macedonia" for s in a.entry_area)


def test_autariatae_reach_macedonia_through_baeonia(pack: Pack) -> None:
    """Search by land from the entry area without entering Macedonia: the first
    Macedonian spaces met must include Baeonia (R-3.1 2nd edition)."""
    entry = pack.independent_armies["autariatae"].entry_area
    seen, first_macedonian = set(entry), set()
    todo = deque(entry)
    while todo:
        here = todo.popleft()
        for there, kind in pack.neighbours(here):
            if kind not in LAND_KINDS or there in seen:
                continue
            seen.add(there)
            if pack.spaces[there].province == "macedonia":
                first_macedonian.add(there)
            else:
                todo.append(there)
    assert "baeonia" in first_macedonian
    dardania = [t for t, k in pack.neighbours("dardania")]
    assert "baeonia" in dardania


def test_ariarathes_starts_in_cappadocia_greek_army_in_greece(pack: Pack) -> None:
    ar = pack.independent_armies["ariarathes"]
    greek = pack.independent_armies["greek_army"]
    assert ar.active_at_start and pack.spaces[ar.start].province == "cappadocia"
    assert greek.active_at_start and pack.spaces[greek.start].province in GREECE
    assert len(pack.independent_armies) == 5


def test_treasure_cities(pack: Pack) -> None:
    assert {s.id for s in pack.spaces.values() if s.treasure_city} == {
        "susa", "persepolis", "ecbatana", "babylon"}


def test_royal_family_setup(pack: Pack) -> None:
    r = pack.royals
    assert r["body"].start == "babylon" and r["alexander_iv"].start == "babylon"
    assert r["heracles"].start == "damascus"
    assert r["cleopatra"].start == "sardis" and not r["cleopatra"].active
    assert r["olympias"].start == "nicopolis" and not r["olympias"].active
    assert r["thessalonike"].start == "pella" and not r["thessalonike"].active
    assert r["philip_iii"].start is None and r["philip_iii"].active
    assert {m.kind for m in r.values()} == {"heir", "woman", "body"}


def test_generals_eleven_plus_optional_cassander(pack: Pack) -> None:
    g = pack.generals
    assert len([x for x in g.values() if not x.optional]) == 11
    assert [x.id for x in g.values() if x.optional] == ["cassander"]
    assert g["cassander"].rank == 1 and g["cassander"].arrival_turn is not None


def test_general_fixed_values(pack: Pack) -> None:
    g = pack.generals
    assert g["perdiccas"].legitimacy == 1 and g["leonnatus"].legitimacy == 1
    assert g["craterus"].prestige == 2 and g["ptolemy"].prestige == 2
    assert g["eumenes"].prestige == -2
    assert sum(x.legitimacy for x in g.values()) == 2


def test_primary_generals_and_start_forces(pack: Pack) -> None:
    primary = {x.id for x in pack.generals.values() if x.primary}
    assert primary == {"perdiccas", "craterus", "antipater", "antigonus", "ptolemy",
                       "eumenes", "leonnatus", "lysimachus"}
    where = {gid: pack.spaces[pack.generals[gid].start.space].province for gid in primary}
    assert where["ptolemy"] == "egypt" and where["antipater"] == "macedonia"
    assert where["craterus"] == "cilicia" and where["perdiccas"] == "babylonia"
    assert where["antigonus"] == "phrygia" and where["leonnatus"] == "hellespontine_phrygia"
    assert where["lysimachus"] == "thrace" and where["eumenes"] in {"cappadocia", "paphlagonia"}
    for gid in primary:
        st = pack.generals[gid].start
        assert sum(st.cus.values()) > 0 and st.garrisons
        for sid in st.garrisons:
            sp = pack.spaces[sid]
            assert sp.kind in ("minor_city", "major_city") and not sp.independent
        card = pack.cards[pack.generals[gid].card]
        assert card.type == "primary" and card.general == gid


def test_seleucus_polyperchon_cards_demetrius_on_track(pack: Pack) -> None:
    for gid in ("seleucus", "polyperchon"):
        g = pack.generals[gid]
        assert not g.primary and g.optional_start
        assert pack.cards[g.card].type == "general" and pack.cards[g.card].general == gid
    d = pack.generals["demetrius"]
    assert d.card is None and not d.primary and d.arrival_turn in {t.number for t in pack.turns}


def test_seniority_list_is_a_total_order(pack: Pack) -> None:
    ranks = sorted(g.seniority for g in pack.generals.values())
    assert ranks == list(range(1, len(pack.generals) + 1))


def test_minor_generals(pack: Pack) -> None:
    c = pack.constants
    assert (c["minor_general_initiative"], c["minor_general_battle"], c["minor_generals"]) == (4, 2, 4)


def test_fleets_and_special_units(pack: Pack) -> None:
    assert pack.fleets["athenian_fleet"].home == "athenai"
    for f in pack.fleets.values():
        assert f.home in pack.provinces or f.home in pack.spaces
    assert set(pack.special_units) == {"silver_shields", "helepolis", "indian_elephant_corps"}
    assert pack.cu_types["elephant"].strength is None
    assert {k for k, t in pack.cu_types.items() if t.macedonian} == {"royal", "loyal"}


def test_map_density(pack: Pack) -> None:
    assert 150 <= len(pack.spaces) <= 250
    assert 33 <= len(pack.provinces) <= 40
    sizes = [len(non_transit(pack, p)) for p in pack.provinces]
    assert sum(3 <= n <= 8 for n in sizes) >= 0.8 * len(sizes)


def test_graph_connected_and_ports_have_sea_paths(pack: Pack) -> None:
    assert is_connected(pack)
    for s in pack.spaces.values():
        kinds = {k for _, k in pack.neighbours(s.id)}
        if s.port:
            assert kinds & {"sea", "trans_med"}, s.id
    for p in pack.paths:
        if p.kind in ("sea", "trans_med"):
            assert pack.spaces[p.a].port and pack.spaces[p.b].port


def test_every_province_controllable(pack: Pack) -> None:
    for pid in pack.provinces:
        spaces = pack.spaces_of(pid)
        assert non_transit(pack, pid), pid
        assert sum(s.kind == "major_city" for s in spaces) <= 1, pid


def test_graph_helpers(pack: Pack) -> None:
    assert pack.mp_cost("land") == 1 and pack.mp_cost("mountain_strait") == 2
    assert pack.mp_cost("trans_med") is None
    assert pack.land_distance("pella", "aegae") == 1
    assert pack.land_distance("pella", "pella") == 0
    assert pack.land_distance("pella", "cnossus") is None  # Crete only by sea
    with pytest.raises(KeyError):
        pack.neighbours("atlantis")


def test_deck_shape(pack: Pack) -> None:
    tyche = [c for c in pack.cards.values() if c.type != "primary"]
    assert 50 <= len(tyche) <= 60
    assert len([c for c in pack.cards.values() if c.type == "primary"]) == 8
    ops = Counter(c.ops for c in tyche)
    for value, share in {1: 0.15, 2: 0.35, 3: 0.35, 4: 0.15}.items():
        assert abs(ops[value] / len(tyche) - share) <= 0.06, (value, ops)
    unrest = [c for c in tyche if c.type == "unrest"]
    assert len(unrest) == 3 and all(c.must_play for c in unrest)
    assert 5 <= sum(c.type == "surprise" for c in tyche) <= 7
    assert {c.general for c in tyche if c.type == "general"} == {"seleucus", "polyperchon"}
    assert 3 <= sum(c.remove_from_play for c in tyche) <= 12
    named = {27: "Plans of Their Own", 31: "Cleopatra Offers Marriage",
             32: "Thessalonike Offers Marriage", 47: "Orator's Gift"}
    for number, name in named.items():
        assert pack.cards[number].name == name
    names = {c.name for c in tyche}
    for name in ("Olympias", "Drink the Hemlock", "Eurydike Speaks for Philippos",
                 "Treasure City Looted", "Ahura Mazda", "Major Campaign", "Condemnation",
                 "Greek Mercenaries", "Mutiny", "Suspicion"):
        assert name in names
    for c in tyche:
        assert c.effects or c.text == "none"


def test_deck_never_runs_dry() -> None:
    """R-6 step 4 + R-8.5: four players draw 20 cards a turn and every surprise card may
    be discarded for a replacement at once; cards removed from play stay out. Over many
    random games the deck never runs out."""
    import random

    from pbem.pack.loader import load_pack

    pack = load_pack()
    tyche = [c for c in pack.cards.values() if c.type != "primary"]
    players, hand = pack.constants["players"], pack.constants["hand_size"]
    rng = random.Random(1234)
    for _ in range(300):
        removed: set[int] = set()
        for _turn in range(len(pack.turns)):
            deck = [c for c in tyche if c.number not in removed]
            rng.shuffle(deck)
            drawn = deck[: players * hand]
            rest = deck[players * hand:]
            queue = [c for c in drawn if c.type == "surprise"]
            while queue:  # worst case: every surprise card is discarded and replaced
                queue.pop()
                assert rest, "the Tyche deck ran dry"
                new = rest.pop()
                drawn.append(new)
                if new.type == "surprise":
                    queue.append(new)
            for c in drawn:
                if c.remove_from_play and rng.random() < 0.8:
                    removed.add(c.number)
        assert len(tyche) - len(removed) >= players * hand + 6


def test_charts_shape(pack: Pack) -> None:
    battle = pack.charts["battle"]
    assert battle.rows == tuple(str(n) for n in range(2, 13)) and len(battle.columns) >= 5
    assert battle.lookup(12, 30) > battle.lookup(2, 30)
    assert battle.lookup(7, 30) > battle.lookup(7, 2)
    assert battle.lookup(1, 5) == battle.lookup(2, 5)  # clamped
    assert pack.charts["assault"].lookup(12, 5).count("/") == 1
    assert len(pack.charts["unrest"].lookup(10)) == 2 and len(pack.charts["unrest"].lookup(11)) == 2
    assert len(pack.charts["unrest"].lookup(7)) == 1
    for ch in ("interception", "avoid_battle"):
        chart = pack.charts[ch]
        for ini in range(1, 8):
            for die in range(1, 7):
                assert chart.lookup(die, ini) is (die <= ini - 1)
    assert [pack.charts["hostile_tribes"].lookup(d) for d in range(1, 7)] == [1, 1, 0, 0, 0, 0]
    assert pack.charts["overrun"].lookup("ratio") == 5
    assert pack.charts["forage"].lookup("major_city") > pack.charts["forage"].lookup("minor_city")
    for s in pack.spaces.values():
        assert s.forage_limit == pack.charts["forage"].lookup(s.kind)
    assert {pack.charts["macedonian_attrition"].lookup(d) for d in range(1, 4)} == {"eliminated"}


def test_turn_track(pack: Pack) -> None:
    assert [(t.number, t.year_bc) for t in pack.turns] == [
        (1, 323), (2, 319), (3, 315), (4, 311), (5, 307)]
    events = {t.number: t.events for t in pack.turns}
    assert "cart_ready" in events[2] and "body_lost_if_unburied" in events[4]
    assert "alexander_iv_of_age" in events[4] and "heracles_of_age" in events[5]


@pytest.mark.parametrize("key,value", [
    ("hand_size", 5), ("auto_victory_vp", 23), ("auto_victory_lp", 18),
    ("first_auto_victory_turn", 2), ("auto_victory_from_turn", 2),
    ("reinforcement_mercenaries", 2), ("reinforcement_macedonia_bonus", 1),
    ("reinforcement_lp_bonus", 1), ("reinforcement_vp_bonus", 2),
    ("reinforcement_vp_tie_bonus", 1), ("reinforcement_per_province", 2),
    ("garrison_range_mps", 2), ("training_phalangite_ops", 7),
    ("training_phalangite_min_segments", 2), ("training_auxiliary_ops", 3),
    ("training_cards_per_turn", 2), ("training_units_max", 2), ("champion_lp", 3),
    ("lord_of_asia_vp", 4), ("strongest_fleet_vp", 3), ("strongest_fleet_min_strength", 3),
    ("hellespont_vp", 2), ("major_city_inside_capacity", 2), ("siege_points_major_city", 3),
    ("siege_points_stronghold", 2), ("siege_points_independent_minor", 1),
    ("assault_min_cus", 4), ("movement_mercenary_cus", 1), ("macedonia_province", "macedonia"),
])
def test_constants(pack: Pack, key: str, value: object) -> None:
    assert pack.constants[key] == value
    assert pack.constant_sources[key] in ("rulebook", "history", "reconstructed")


def test_every_entry_has_a_source(pack: Pack) -> None:
    groups = [pack.provinces, pack.spaces, pack.generals, pack.royals,
              pack.independent_armies, pack.fleets, pack.cu_types, pack.special_units,
              pack.cards, pack.charts]
    for g in groups:
        assert all(x.source in ("rulebook", "history", "reconstructed") for x in g.values())


def test_builtin_pack_is_cached_and_immutable(pack: Pack) -> None:
    from pbem.pack.loader import load_pack

    assert load_pack() is load_pack()
    with pytest.raises(TypeError):
        pack.spaces["x"] = pack.spaces["pella"]  # type: ignore[index]
