"""Throughput of the Viking sea fight engine: seeded games of two fleets of three
(``rules/viking/scenarios/fleet_battle.json``) played to the end with the default policy on
one core, the way the Monte Carlo plays them.

``python -m benchmarks viking`` prints games per second of CPU time (the best and the
median of a few runs) and the top entries of a cProfile of a smaller run.
"""

from __future__ import annotations

from benchmarks._games import report


def main() -> None:
    report("viking", "fleet_battle", "six-vessel games", games=30, profiled=10)


if __name__ == "__main__":
    main()
