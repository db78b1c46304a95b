"""A small hand-built data pack for rules tests (until and besides the real pack).

Every number here is test data, not the game's: the engine must read all of them from
the pack. Media has eight non-transit spaces so that controlling it needs five garrisons
including Ecbatana (the rulebook's example, R-3.2).
"""
from __future__ import annotations

from pbem.pack.model import (
    Card,
    Chart,
    CuType,
    Effect,
    Fleet,
    General,
    IndependentArmy,
    Pack,
    Path,
    Province,
    RoyalMember,
    Space,
    StartForce,
    Turn,
)

PROVINCES = {
    "macedonia": ("Macedonia", 3, "europe"), "thrace": ("Thrace", 1, "europe"),
    "epirus": ("Epirus", 1, "europe"), "lydia": ("Lydia", 2, "asia"),
    "phrygia": ("Phrygia", 2, "asia"), "cappadocia": ("Cappadocia", 1, "asia"),
    "cilicia": ("Cilicia", 1, "asia"), "syria": ("Syria", 2, "asia"),
    "coele_syria": ("Coele Syria", 2, "asia"), "egypt": ("Egypt", 3, "africa"),
    "babylonia": ("Babylonia", 3, "asia"), "media": ("Media", 2, "asia"),
}

# id: (name, province, kind, extra)
SPACES = {
    "pella": ("Pella", "macedonia", "major_city", {}),
    "aegae": ("Aegae", "macedonia", "minor_city", {}),
    "baeonia": ("Baeonia", "macedonia", "minor_city", {}),
    "orestis": ("Orestis", "macedonia", "minor_city", {}),
    "amphipolis": ("Amphipolis", "macedonia", "minor_city", {"port": True}),
    "lysimachia": ("Lysimachia", "thrace", "minor_city", {"port": True, "hellespont": True}),
    "thrace_pass": ("Thracian Pass", "thrace", "transit", {}),
    "byzantion": ("Byzantion", "thrace", "minor_city",
                  {"port": True, "hellespont": True, "independent": True}),
    "nicopolis": ("Nicopolis", "epirus", "minor_city", {}),
    "dodona": ("Dodona", "epirus", "minor_city", {}),
    "sardis": ("Sardis", "lydia", "major_city", {}),
    "ephesus": ("Ephesus", "lydia", "minor_city", {"port": True}),
    "gordion": ("Gordion", "phrygia", "minor_city", {}),
    "celaenae": ("Celaenae", "phrygia", "minor_city", {}),
    "mazaca": ("Mazaca", "cappadocia", "stronghold", {"hostile_tribes": True}),
    "comana": ("Comana", "cappadocia", "minor_city", {}),
    "tarsus": ("Tarsus", "cilicia", "minor_city", {}),
    "issus": ("Issus", "cilicia", "minor_city", {}),
    "antioch": ("Antioch", "syria", "minor_city", {}),
    "thapsacus": ("Thapsacus", "syria", "minor_city", {}),
    "damascus": ("Damascus", "coele_syria", "major_city", {}),
    "tyre": ("Tyre", "coele_syria", "minor_city", {"port": True}),
    "gaza": ("Gaza", "coele_syria", "minor_city", {}),
    "sinai": ("Sinai", "egypt", "transit", {}),
    "pelusium": ("Pelusium", "egypt", "minor_city", {}),
    "memphis": ("Memphis", "egypt", "major_city", {}),
    "alexandria": ("Alexandria", "egypt", "minor_city", {"port": True}),
    "babylon": ("Babylon", "babylonia", "major_city", {}),
    "sippar": ("Sippar", "babylonia", "minor_city", {}),
    "ecbatana": ("Ecbatana", "media", "major_city", {}),
    "rhagae": ("Rhagae", "media", "minor_city", {}),
    "gabae": ("Gabae", "media", "minor_city", {}),
    "aspadana": ("Aspadana", "media", "minor_city", {}),
    "bagistana": ("Bagistana", "media", "minor_city", {}),
    "laodicea": ("Laodicea", "media", "minor_city", {}),
    "concobar": ("Concobar", "media", "minor_city", {}),
    "heraclea": ("Heraclea", "media", "minor_city", {"independent": True}),
    "zagros": ("Zagros Gates", "media", "transit", {}),
}

LAND = """pella-aegae pella-amphipolis aegae-orestis orestis-baeonia baeonia-pella
amphipolis-lysimachia lysimachia-thrace_pass thrace_pass-byzantion dodona-nicopolis
ephesus-sardis sardis-gordion gordion-celaenae gordion-mazaca mazaca-comana mazaca-tarsus
tarsus-issus issus-antioch antioch-thapsacus antioch-damascus damascus-tyre tyre-gaza
damascus-gaza gaza-sinai sinai-pelusium pelusium-memphis memphis-alexandria
alexandria-pelusium thapsacus-sippar sippar-babylon babylon-zagros zagros-bagistana
bagistana-ecbatana ecbatana-rhagae ecbatana-gabae gabae-aspadana ecbatana-concobar
concobar-laodicea rhagae-heraclea bagistana-concobar"""
MOUNTAIN = "orestis-dodona lysimachia-ephesus celaenae-tarsus"
SEA = "amphipolis-ephesus alexandria-tyre ephesus-tyre"

FORAGE = {"minor_city": 4, "major_city": 6, "stronghold": 3, "transit": 2}

GENERALS = [
    # id, name, rank, init, battle, prestige, lp, seniority, start (space, cus, garrisons)
    ("perdiccas", "Perdiccas", 3, 4, 3, 0, 1, 1, ("babylon", {"loyal": 3, "mercenary": 1},
                                                  ("babylon", "sippar"))),
    ("craterus", "Craterus", 3, 4, 3, 2, 0, 2, ("tarsus", {"loyal": 4}, ("tarsus",))),
    ("antipater", "Antipater", 3, 3, 3, 0, 0, 3, ("pella", {"loyal": 3},
                                                  ("pella", "aegae"))),
    ("antigonus", "Antigonus", 2, 4, 3, 0, 0, 4, ("celaenae", {"mercenary": 3},
                                                  ("celaenae", "gordion"))),
    ("ptolemy", "Ptolemy", 2, 4, 2, 2, 0, 5, ("memphis", {"mercenary": 2},
                                              ("memphis", "alexandria"))),
    ("eumenes", "Eumenes", 2, 5, 3, -2, 0, 6, ("issus", {"mercenary": 2}, ("issus",))),
    ("leonnatus", "Leonnatus", 2, 3, 2, 0, 1, 7, ("ephesus", {"loyal": 1, "mercenary": 1},
                                                  ("ephesus",))),
    ("lysimachus", "Lysimachus", 1, 3, 2, 0, 0, 8, ("lysimachia", {"mercenary": 2},
                                                    ("lysimachia",))),
]

CONSTANTS = {
    "hand_size": 5, "garrison_range_mps": 2,
    "path_mp_cost": {"land": 1, "mountain_strait": 2, "sea": 1},
    "movement_mercenary_cus": 1, "reinforcement_mercenaries": 2,
    "reinforcement_macedonia_bonus": 1, "reinforcement_lp_bonus": 1,
    "reinforcement_vp_bonus": 2, "reinforcement_vp_tie_bonus": 1,
    "reinforcement_per_province": 2, "training_phalangite_ops": 7,
    "training_phalangite_min_segments": 2, "training_auxiliary_ops": 3,
    "training_cards_per_turn": 2, "training_units_max": 2, "minor_generals": 4,
    "champion_lp": 3, "strategos_lp": 2, "macedonia_province": "macedonia",
    "auto_victory_vp": 23, "auto_victory_lp": 18, "auto_victory_from_turn": 2,
    "lord_of_asia_provinces": ["phrygia", "syria", "babylonia"], "lord_of_asia_vp": 4,
    "hellespont_vp": 2, "regency_turn_alexander_iv": 4, "regency_turn_heracles": 5,
    "body_lost_turn": 4, "strongest_fleet_vp": 3, "strongest_fleet_min_strength": 3,
    "major_city_inside_capacity": 2, "cart_ready_turn": 2, "burial_pella_space": "pella",
    "burial_pella_lp": 10, "tomb_guardian_lp": 2, "holy_ground_prestige": 4,
}


def _cards() -> dict[int, Card]:
    cards: dict[int, Card] = {}
    for i, g in enumerate(GENERALS, start=1):
        cards[i] = Card(i, f"{g[1]} (primary)", None, "primary", general=g[0])
    ops_cycle = [1, 2, 2, 3, 3, 2, 3, 4, 2, 3]
    for n in range(9, 49):
        cards[n] = Card(n, f"Card {n}", ops_cycle[n % len(ops_cycle)], "event",
                        effects=(Effect("adjust_lp", {"amount": 1}),) if n % 4 == 0 else ())
    for n in range(49, 54):
        cards[n] = Card(n, f"Surprise {n}", None, "surprise",
                        effects=(Effect("gain_cus", {"type": "mercenary", "count": 1}),))
    cards[54] = Card(54, "Unrest I", 2, "unrest", must_play=True,
                     effects=(Effect("unrest", {}),))
    cards[55] = Card(55, "Unrest II", 3, "unrest", must_play=True,
                     effects=(Effect("unrest", {}),))
    cards[56] = Card(56, "Suspicion", 2, "event", must_play=True, remove_from_play=True,
                     effects=(Effect("adjust_lp", {"amount": -3, "target": "player"}),))
    cards[57] = Card(57, "Seleucus", 3, "general", general="seleucus",
                     effects=(Effect("place_general", {"general": "seleucus"}),))
    cards[58] = Card(58, "Polyperchon", 2, "general", general="polyperchon",
                     effects=(Effect("place_general", {"general": "polyperchon"}),))
    cards[59] = Card(59, "Bonus Gold", 2, "bonus",
                     effects=(Effect("gain_cus", {"type": "mercenary", "count": 1,
                                                  "where": "reinforcement"}),))
    cards[60] = Card(60, "Card 60", 4, "event")
    return cards


def _charts() -> dict[str, Chart]:
    rows = ("2-6", "7-9", "10-11", "12+")
    cells = {"2-6": {"result": ["media"]}, "7-9": {"result": ["thrace"]},
             "10-11": {"result": ["epirus", "macedonia"]}, "12+": {"result": ["cappadocia"]}}
    return {"unrest": Chart("unrest", "Unrest Table", "2d6", rows, ("result",), cells,
                            rule="R-16.2")}


def mini_pack(name: str = "mini-test", **constants) -> Pack:
    """Build the test pack; keyword arguments override constants."""
    provinces = {k: Province(k, v[0], v[1], v[2], source="reconstructed")
                 for k, v in PROVINCES.items()}
    spaces = {}
    for i, (k, (nm, prov, kind, extra)) in enumerate(SPACES.items()):
        spaces[k] = Space(k, nm, prov, kind, lat=30.0 + i * 0.1, lon=20.0 + i * 0.1,
                          forage_limit=FORAGE[kind], **extra)
    paths = []
    for kind, text in (("land", LAND), ("mountain_strait", MOUNTAIN), ("sea", SEA)):
        for pair in text.split():
            a, b = pair.split("-")
            paths.append(Path(a, b, kind))
    generals = {}
    for i, (gid, nm, rank, ini, bat, pres, lp, sen, st) in enumerate(GENERALS, start=1):
        generals[gid] = General(gid, nm, rank, ini, bat, pres, lp, primary=True,
                                start=StartForce(st[0], st[1], st[2]), card=i,
                                seniority=sen)
    generals["seleucus"] = General("seleucus", "Seleucus", 2, 4, 3, card=57, seniority=9,
                                   optional_start=("babylon", "sippar"))
    generals["polyperchon"] = General("polyperchon", "Polyperchon", 2, 3, 2, card=58,
                                      seniority=10, optional_start=("pella", "aegae"))
    generals["demetrius"] = General("demetrius", "Demetrius", 1, 4, 2, arrival_turn=2,
                                    seniority=11)
    royals = {
        "alexander_iv": RoyalMember("alexander_iv", "Alexander IV", "heir", 3, "babylon", True),
        "body": RoyalMember("body", "Alexander's body", "body", 0, "babylon", True),
        "heracles": RoyalMember("heracles", "Heracles", "heir", 2, "damascus", True),
        "philip_iii": RoyalMember("philip_iii", "Philip III", "heir", 2, None, True),
        "cleopatra": RoyalMember("cleopatra", "Cleopatra", "woman", 2, "sardis", False),
        "olympias": RoyalMember("olympias", "Olympias", "woman", 2, "nicopolis", False),
        "thessalonike": RoyalMember("thessalonike", "Thessalonike", "woman", 1, "pella",
                                    False),
    }
    indep = {
        "greek_army": IndependentArmy("greek_army", "Greek Army", 4, 3, "dodona",
                                      active_at_start=True),
        "ariarathes": IndependentArmy("ariarathes", "Ariarathes", 3, 2, "comana",
                                      active_at_start=True),
        "scythians": IndependentArmy("scythians", "Scythians", 4, 3, None,
                                     entry_area=("thrace",), returns_to_box=True),
    }
    cu_types = {
        "mercenary": CuType("mercenary", "Mercenary", 1),
        "loyal": CuType("loyal", "Loyal Macedonian", 2, macedonian=True),
        "royal": CuType("royal", "Royal Macedonian", 2, macedonian=True),
        "elephant": CuType("elephant", "Elephant", None),
    }
    turns = tuple(Turn(i + 1, 323 - 4 * i) for i in range(5))
    return Pack(name=name, provinces=provinces, spaces=spaces, paths=tuple(paths),
                generals=generals, royals=royals, independent_armies=indep,
                fleets={"egyptian": Fleet("egyptian", "Egyptian Fleet", "egypt", 2),
                        "phoenician": Fleet("phoenician", "Phoenician Fleet", "tyre", 2)},
                cu_types=cu_types, special_units={}, cards=_cards(), charts=_charts(),
                turns=turns, constants={**CONSTANTS, **constants})
