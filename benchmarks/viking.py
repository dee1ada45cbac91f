"""Throughput of the Viking sea fight engine: seeded games of two fleets of three
(``rules/viking/scenarios/fleet_battle.json``) played to the end with the default policy on
one core, the way the Monte Carlo plays them (:func:`rules.montecarlo.run`).

``python -m benchmarks viking`` prints games per second of CPU time (the best and the
median of a few runs) and the top entries of a cProfile of a smaller run.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import time

from rules.engine import get_engine
from rules.montecarlo import run

GAMES = 30
RUNS = 3
PROFILED = 10
TOP = 15


def main() -> None:
    engine = get_engine("viking")
    setup = engine.scenarios()["fleet_battle"].setup
    run(engine, setup, seeds=range(3))  # warm the caches
    rates, summary = [], None
    for _ in range(RUNS):
        cpu = time.process_time()
        summary = run(engine, setup, seeds=range(GAMES))
        rates.append(GAMES / (time.process_time() - cpu))
    rates.sort()
    print(f"{GAMES} six-vessel games x {RUNS}: {rates[-1]:,.2f} games/s of CPU time on one "
          f"core at best, {rates[len(rates) // 2]:,.2f} median; mean {summary.mean_rounds:.1f} "
          f"turns; winners {summary.winners}")
    profile = cProfile.Profile()
    profile.enable()
    run(engine, setup, seeds=range(PROFILED))
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(TOP)
    print(out.getvalue())


if __name__ == "__main__":
    main()
