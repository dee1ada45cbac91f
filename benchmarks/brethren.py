"""Throughput of the Brethren of the Coast engine: seeded games of the six-ship treasure
hunt (two fleets of three, ``rules/brethren/scenarios/treasure_hunt.json``) played to the
end with the default policy on one core, the way the Monte Carlo plays them (``auto_start``
and ``auto_play``, no events built).

``python -m benchmarks brethren`` prints games per second of CPU time (the best and the
median of a few runs) and the top entries of a cProfile of a smaller run.
"""

from __future__ import annotations

from benchmarks._games import report


def main() -> None:
    report("brethren", "treasure_hunt", "six-ship games", games=60, profiled=20)


if __name__ == "__main__":
    main()
