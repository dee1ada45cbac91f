"""Throughput of the Brethren of the Coast engine: seeded games of the six-ship treasure
hunt (two fleets of three, ``rules/brethren/scenarios/treasure_hunt.json``) played to the
end with the default policy on one core, the way the Monte Carlo plays them (``auto_start``
and ``auto_play``, no events built).

``python -m benchmarks brethren`` prints games per second of CPU time (the best and the
median of a few runs) and the top entries of a cProfile of a smaller run.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import time

from rules.engine import get_engine
from rules.montecarlo import run

GAMES = 60
RUNS = 3
PROFILED = 20
TOP = 15


def main() -> None:
    measure("brethren", "treasure_hunt", "six-ship")


def measure(engine_name: str, scenario: str, label: str, games: int = GAMES) -> None:
    """Print ``games`` seeded games of ``scenario`` of engine ``engine_name`` per second of
    CPU time (best and median of :data:`RUNS` runs) and a cProfile of :data:`PROFILED`
    games; ``label`` names the game in the report ("six-ship")."""
    engine = get_engine(engine_name)
    setup = engine.scenarios()[scenario].setup
    run(engine, setup, seeds=range(5))  # warm the caches
    rates, summary = [], None
    for _ in range(RUNS):
        cpu = time.process_time()
        summary = run(engine, setup, seeds=range(games))
        rates.append(games / (time.process_time() - cpu))
    rates.sort()
    print(f"{games} {label} games x {RUNS}: {rates[-1]:,.1f} games/s of CPU time on one core "
          f"at best, {rates[len(rates) // 2]:,.1f} median; mean {summary.mean_rounds:.1f} "
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
