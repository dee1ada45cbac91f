"""Throughput of the British vs Pirates engine: seeded games of the four-ship Annihilation
duel (two fleets of two on three sea tiles, ``rules/bvp/scenarios/annihilation_duel.json``)
played to the end with the default policy on one core, the way the Monte Carlo plays them.

``python -m benchmarks bvp`` prints games per second of CPU time (the best and the median of
a few runs) and the top entries of a cProfile of a smaller run.
"""

from __future__ import annotations

from benchmarks._games import report


def main() -> None:
    report("bvp", "annihilation_duel", "four-ship games", games=20)


if __name__ == "__main__":
    main()
