"""Speed of the exact odds of a card test (:mod:`rules.btq.odds`).

``python -m benchmarks odds`` prints milliseconds per call of ``first_draw`` and ``final``
for pools up to 15 against 15 and 20 against 20, cold (every cache emptied before the call,
as in a fresh process) and warm (the same call again). The goal is under 5 ms for 15 against
15.
"""

from __future__ import annotations

import time

from rules.btq import odds

GOAL_MS = 5.0
COLD_RUNS = 20
WARM_RUNS = 2_000

# (label, A's pool, B's pool, keyword arguments)
CASES = [
    ("player 5 v difficulty 5", 5, 5, {}),
    ("player 15 v gm 15", 15, 15, {}),
    ("player 15 v player 15", 15, 15, {"b_deck": "player"}),
    ("gm 15 v gm 15 (one deck)", 15, 15, {"a_deck": "gm"}),
    ("unskilled 1 v gm 3", 1, 3, {"a_unskilled": True}),
    ("unskilled players 15 v 15", 15, 15,
     {"b_deck": "player", "a_unskilled": True, "b_unskilled": True}),
    ("player 20 v gm 20", 20, 20, {}),
    ("player 20 v player 20", 20, 20, {"b_deck": "player"}),
    ("gm 20 v gm 20 (one deck)", 20, 20, {"a_deck": "gm"}),
]


def cold_ms(call) -> float:
    """The best of ``COLD_RUNS`` calls, each after emptying every cache."""
    best = float("inf")
    for _ in range(COLD_RUNS):
        odds.cache_clear()
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def warm_ms(call) -> float:
    """The mean of ``WARM_RUNS`` repeated calls (the answer is cached)."""
    call()
    start = time.perf_counter()
    for _ in range(WARM_RUNS):
        call()
    return (time.perf_counter() - start) / WARM_RUNS * 1e3


def main() -> None:
    print(f"{'case':<28}{'first_draw cold':>16}{'warm':>9}{'final cold':>12}{'warm':>9}  (ms)")
    slowest = 0.0
    for label, a_pool, b_pool, kwargs in CASES:
        def draw(a_pool=a_pool, b_pool=b_pool, kwargs=kwargs):
            return odds.first_draw(a_pool, b_pool, **kwargs)

        def whole(a_pool=a_pool, b_pool=b_pool, kwargs=kwargs):
            return odds.final(a_pool, b_pool, **kwargs)

        times = cold_ms(draw), warm_ms(draw), cold_ms(whole), warm_ms(whole)
        if max(a_pool, b_pool) <= 15 and not kwargs.get("a_unskilled"):
            slowest = max(slowest, times[0], times[2])
        print(f"{label:<28}{times[0]:>16.3f}{times[1]:>9.4f}{times[2]:>12.3f}{times[3]:>9.4f}")
    verdict = "met" if slowest < GOAL_MS else "MISSED"
    print(f"goal: skilled pools up to 15 v 15 under {GOAL_MS:g} ms cold: {verdict} "
          f"(slowest {slowest:.3f} ms)")


if __name__ == "__main__":
    main()
