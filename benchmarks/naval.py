"""Throughput of the ship-to-ship engine: seeded Hermes-vs-Corsair battles (BtQ L2533-2603)
played to the end with the default policies on one core, the way the Monte Carlo plays them.

``python -m benchmarks naval`` prints battles per second and the top entries of a cProfile
of a smaller run. The goal is 20,000 battles per second.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import time

from rules.btq.characters import SKILLS
from rules.engine import get_engine
from rules.montecarlo import run

BATTLES = 5_000
PROFILED = 1_000
GOAL = 20_000


def hermes_vs_corsair() -> dict:
    """The book's example: the Hermes (22) and her three PCs against the Corsair."""
    two = {k: 2 for k in SKILLS}
    return {
        "weather": "good_wind",
        "start_distance": None,
        "ships": [
            {"id": "hermes", "name": "Hermes (22)", "side": "pc", "type": "Brig Sloop",
             "traits": ["Expertly Coppered Bottom"]},
            {"id": "corsair", "name": "Corsair", "side": "enemy", "type": "Cutter",
             "traits": ["Heart of Oak"], "crew": {"awareness": 2, "seamanship": 3,
                                                   "gunnery": 3}},
        ],
        "pcs": [
            {"id": "otoole", "name": "Master O'Toole", "seniority": 5, "discipline": 3,
             "station": "master", "skills": {**two, "seamanship": 5}},
            {"id": "bosworth", "name": "Gunner Bosworth", "seniority": 3, "discipline": 2,
             "station": "gunner", "skills": {**two, "gunnery": 4}},
            {"id": "smith", "name": "Midshipman Smith", "seniority": 1, "discipline": 2,
             "station": "midshipman", "skills": {**two, "maritime": 3}},
        ],
    }


def _card_layer_share(stats: pstats.Stats) -> float:
    """The fraction of profiled time spent turning cards: ``rules.random`` and
    ``rules.cards`` (decks, card equality and text) and the ``random`` module under them."""
    total = card = 0.0
    for (filename, _, name), (_, _, tottime, _, _) in stats.stats.items():
        total += tottime
        if filename.endswith(("rules/random.py", "rules/cards.py", "/random.py")) or (
                filename == "<string>" and name == "__eq__"):
            card += tottime
    return card / total if total else 0.0


def main() -> None:
    engine = get_engine("btq_naval")
    setup = hermes_vs_corsair()
    run(engine, setup, seeds=range(200))  # warm the caches
    wall, cpu = time.perf_counter(), time.process_time()
    summary = run(engine, setup, seeds=range(BATTLES))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{BATTLES} battles: {BATTLES / cpu:,.0f} battles/s of CPU time on one core "
          f"({BATTLES / wall:,.0f}/s by the clock; goal {GOAL:,}); "
          f"mean {summary.mean_rounds:.2f} rounds")
    print(f"outcomes: {summary.outcomes}")
    profile = cProfile.Profile()
    profile.enable()
    run(engine, setup, seeds=range(BATTLES, BATTLES + PROFILED))
    profile.disable()
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("tottime").print_stats(15)
    print(f"where the time goes ({PROFILED} battles under cProfile, by own time; "
          f"{_card_layer_share(stats):.0%} in drawing cards):")
    print("\n".join(out.getvalue().splitlines()[6:]))
