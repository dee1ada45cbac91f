"""Throughput of the ship-to-ship engine: seeded Hermes-vs-Corsair battles (BtQ L2533-2603)
played to the end with the default policies on one core, the way the Monte Carlo plays them.

``python -m benchmarks naval`` (or ``python -m benchmarks.naval``) prints battles per second
of CPU time (``time.process_time``: the best and the median of a few runs, as the machine
may be shared), the share of the time in each layer and the top entries of a cProfile of a
smaller run. The battles are played as the Monte Carlo plays them: ``auto_start`` and
``auto_play``, with no events built. The goals (issue 11) are 2,500 battles per second
interpreted and 5,000 compiled (``make fast``); ``python -m benchmarks instructions``
counts instructions instead, which a shared machine does not skew.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import time

from rules.engine import get_engine
from rules.montecarlo import run

BATTLES = 2_000
RUNS = 3
PROFILED = 1_000
TOP = 20
GOAL = 2_500


LAYERS = (
    ("drawing cards", ("rules/random.py", "rules/cards.py", "/random.py")),
    ("grading", ("rules/btq/tests.py", "rules/btq/ships.py")),
    ("the naval engine", ("rules/btq/naval.py",)),
)


def _layer_shares(stats: pstats.Stats) -> dict[str, float]:
    """The fraction of profiled own time spent in each of :data:`LAYERS` (the kernel's random
    source, cards and decks and the ``random`` module under them; grading cards and hits;
    the engine's steps and policies) and in ``"the rest"`` (built-ins, the Monte Carlo)."""
    total = 0.0
    shares = dict.fromkeys([name for name, _ in LAYERS] + ["the rest"], 0.0)
    for (filename, _, _), (_, _, tottime, _, _) in stats.stats.items():
        total += tottime
        layer = next((name for name, ends in LAYERS if filename.endswith(ends)), "the rest")
        shares[layer] += tottime
    return {name: t / total for name, t in shares.items()} if total else shares


def main() -> None:
    engine = get_engine("btq_naval")
    setup = engine.scenarios()["hermes_vs_corsair"].setup  # the book's example
    run(engine, setup, seeds=range(200))  # warm the caches
    rates, summary = [], None
    for _ in range(RUNS):
        cpu = time.process_time()
        summary = run(engine, setup, seeds=range(BATTLES))
        rates.append(BATTLES / (time.process_time() - cpu))
    rates.sort()
    print(f"{BATTLES} battles x {RUNS}: {rates[-1]:,.0f} battles/s of CPU time on one core at "
          f"best, {rates[len(rates) // 2]:,.0f} median (goal {GOAL:,} interpreted, twice that "
          f"compiled); mean {summary.mean_rounds:.2f} rounds")
    print(f"outcomes: {summary.outcomes}")
    profile = cProfile.Profile()
    profile.enable()
    run(engine, setup, seeds=range(BATTLES, BATTLES + PROFILED))
    profile.disable()
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("tottime").print_stats(TOP)
    shares = ", ".join(f"{share:.0%} {name}" for name, share in _layer_shares(stats).items())
    print(f"where the time goes ({PROFILED} battles under cProfile, by own time): {shares}")
    print("\n".join(out.getvalue().splitlines()[6:]))


if __name__ == "__main__":
    main()
