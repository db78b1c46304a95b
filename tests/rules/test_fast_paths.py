"""The fast paths of the rules core (issue 27 item 5, fast playouts) answer exactly as
the plain code they stand for, on the real pack and random positions."""
from __future__ import annotations

import random

from pbem.pack.loader import load_pack
from pbem.rules.core.board import distances, reachable
from pbem.rules.core.garrisons import garrison_costs


def test_reachable_is_distances_keys() -> None:
    """R-8.3: the table of one- and two-step paths reaches the spaces the Dijkstra
    search reaches, for any sources and blocked middle spaces, at every limit."""
    pack = load_pack(None)
    spaces = sorted(pack.spaces)
    rng = random.Random(27)
    for costs in (garrison_costs(pack), {"land": 1}, {"land": 1, "mountain_strait": 2, "sea": 1}):
        for limit in (0, 1, 2, 3):
            for _ in range(100):
                sources = set(rng.sample(spaces, rng.randint(0, 30)))
                blocked = set(rng.sample(spaces, rng.randint(0, 80)))
                assert reachable(pack, sources, limit, costs, blocked) == \
                    set(distances(pack, sources, limit, costs, blocked))
