"""What the wargame engines' benchmarks share: seeded games of one scenario played to the end
with the default policy on one core, the way the Monte Carlo plays them
(:func:`rules.montecarlo.run`), reported as games per second of CPU time (the best and the
median of a few runs), then the top entries of a cProfile of a smaller run. Every run plays
seeds of its own, as a Monte Carlo job does: a game played again would find the answers the
engine keeps (by what they depend on) from its first time and measure those, not the play."""

from __future__ import annotations

import cProfile
import io
import pstats
import time

from rules.engine import get_engine
from rules.montecarlo import run

TOP = 15


def report(engine_name: str, scenario: str | None, what: str, *, games: int, runs: int = 3,
           profiled: int = 10, setup: dict | None = None, goal: str = "") -> None:
    """Print the throughput of ``games`` games of ``scenario`` (or of ``setup``; ``what``
    names them, "six-ship games"; ``goal`` is said beside it), ``runs`` times, and a profile
    of ``profiled`` more."""
    engine = get_engine(engine_name)
    setup = setup if setup is not None else engine.scenarios()[scenario].setup
    run(engine, setup, seeds=range(3))  # warm the caches
    rates, summary = [], None
    for i in range(runs):
        cpu = time.process_time()
        summary = run(engine, setup, seeds=range(1000 + i * games, 1000 + (i + 1) * games))
        rates.append(games / (time.process_time() - cpu))
    rates.sort()
    goal = f" ({goal})" if goal else ""
    print(f"{games} {what} x {runs}: {rates[-1]:,.2f} games/s of CPU time on one core at "
          f"best, {rates[len(rates) // 2]:,.2f} median{goal}; mean {summary.mean_rounds:.1f} "
          f"rounds; winners {summary.winners}")
    profile = cProfile.Profile()
    profile.enable()
    run(engine, setup, seeds=range(100_000, 100_000 + profiled))
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(TOP)
    print(out.getvalue())
