"""Throughput of the Horse, Foot and Guns engine: seeded battles of 12 elements a side (a
general, 8 Muskets, 2 Heavy Cavalry and a Smoothbore battery each, lines 2,800 paces
apart on an open table) played to the end with the default policy on one core, through
``rules.montecarlo.run`` as the auto-resolve plays them.

``python -m benchmarks hfg`` prints battles per second of CPU time (the best and the median
of a few runs; the issue's goal is 200) and the top entries of a cProfile of a smaller run.
"""

from __future__ import annotations

from benchmarks._games import report

GAMES = 6


def army(side: str, y: int, heading: int) -> list[dict]:
    """12 elements of one side in a line at ``y`` facing ``heading``."""
    back = -400 if heading == 0 else 400
    out = [{"id": f"{side}-cp", "side": side, "command": f"{side}-c", "type": "CP",
            "x": 6000, "y": y + back, "heading": heading}]
    kinds = ["HC"] + ["MUS"] * 4 + ["SBA"] + ["MUS"] * 4 + ["HC"]
    for i, code in enumerate(kinds):
        out.append({"id": f"{side}{i}", "side": side, "command": f"{side}-c", "type": code,
                    "x": 3800 + 400 * i, "y": y, "heading": heading})
    return out


def setup() -> dict:
    """The benchmark battle."""
    return {"title": "Twelve a side", "year": 1800, "max_bounds": 16, "attacker": "a",
            "sides": [{"id": s, "name": f"Army {s.upper()}", "commander": f"side:{s}",
                       "commands": [{"id": f"{s}-c", "general": f"{s}-cp"}]}
                      for s in ("a", "b")],
            "terrain": [{"id": "town", "kind": "bua", "x": 5750, "y": 3200, "w": 500,
                         "h": 500},
                        {"id": "copse", "kind": "wood", "x": 8000, "y": 2600, "w": 800,
                         "h": 600}],
            "elements": army("a", 1600, 0) + army("b", 4400, 180)}


def main() -> None:
    report("hfg", None, "battles of 12 elements a side", games=GAMES, profiled=3,
           setup=setup(), goal="goal 200")


if __name__ == "__main__":
    main()
