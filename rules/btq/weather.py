"""Weather outside ship-to-ship combat: a static modifier to every test, or the opponent
itself (BtQ L1694-1727; ``rules/btq_missions.md`` §6, A6; ``rules/DECISIONS.md`` D15).

* :func:`static_modifier`: the Wind and Precipitation modifiers added together (they stack),
  applied to every test made in that weather (BtQ L1699-1709);
* :func:`awareness_modifier`: Mist -2, a Fog bank -4, to Awareness tests on the ship;
* :func:`becalmed`: No Wind, Speed 0, or 1 towing with every other crew action at half its
  pool, rounded down (BtQ L1704-1705);
* :func:`opponent_pool`: weather as the opponent, 2 x the size of the summed modifiers
  (BtQ L1711-1722); :func:`weather_modifiers` gives the pool modifiers of a test.

Ship-to-ship combat has its own weather table (``rules.btq.naval``): D15.
"""

from __future__ import annotations

from dataclasses import dataclass

WINDS: dict[str, tuple[str, int]] = {
    "no_wind": ("No Wind", 0),
    "light": ("Light Wind", 0),
    "strong": ("Strong Wind", -1),
    "storm": ("Storm winds", -2),
    "typhoon": ("Typhoon", -3),
}
"""Wind -> (the book's name, modifier). No Wind's effect is special: becalmed (BtQ
L1701-1705); it adds 0 to the sum (``rules/btq_missions.md`` A6)."""

PRECIPITATION: dict[str, tuple[str, int]] = {
    "none": ("No Rain", 0),
    "mist": ("Mist", 0),
    "fog_bank": ("Fog bank", 0),
    "squall": ("Squall", -1),
    "storm": ("Storm / Snow", -2),
    "blizzard": ("Blizzard", -3),
}
"""Precipitation -> (name, modifier). Mist and a Fog bank change Awareness only (A6)."""

AWARENESS: dict[str, int] = {"mist": -2, "fog_bank": -4}
"""Awareness tests made on the ship in Mist (-2) or inside a Fog bank (-4) (BtQ L1708-1709)."""


class WeatherError(ValueError):
    """An unknown wind or precipitation."""


@dataclass(frozen=True, slots=True)
class Weather:
    """The weather of a scene: a key of :data:`WINDS` and one of :data:`PRECIPITATION`."""

    wind: str = "light"
    precipitation: str = "none"

    def __post_init__(self):
        if self.wind not in WINDS:
            raise WeatherError(f"wind must be one of {', '.join(WINDS)}, not {self.wind!r}")
        if self.precipitation not in PRECIPITATION:
            raise WeatherError(f"precipitation must be one of {', '.join(PRECIPITATION)}, "
                               f"not {self.precipitation!r}")

    @property
    def label(self) -> str:
        """"Storm winds and Blizzard"."""
        return f"{WINDS[self.wind][0]} and {PRECIPITATION[self.precipitation][0]}"


def static_modifier(weather: Weather) -> int:
    """The cards added to every test in ``weather``: Wind + Precipitation, both negative or
    0, stacked (BtQ L1699-1707). TV-07: Storm winds and Storm / Snow is -4."""
    return WINDS[weather.wind][1] + PRECIPITATION[weather.precipitation][1]


def awareness_modifier(weather: Weather) -> int:
    """The extra modifier of an Awareness test on the ship: Mist -2, Fog bank -4."""
    return AWARENESS.get(weather.precipitation, 0)


def opponent_pool(weather: Weather) -> int:
    """The weather's card pool when the weather is the challenge: 2 x |Wind +
    Precipitation| (BtQ L1711-1722). TV-08: Storm winds and Blizzard, 10 cards."""
    return 2 * abs(static_modifier(weather))


def becalmed(weather: Weather, *, towing: bool = False) -> dict | None:
    """No Wind: ``{"speed": 0}``, or ``{"speed": 1, "crew_pool_halved": True}`` when the
    boats tow (BtQ L1701-1705); ``None`` in any wind."""
    if weather.wind != "no_wind":
        return None
    return {"speed": 1, "crew_pool_halved": True} if towing else {"speed": 0}


def towing_pool(pool: int) -> int:
    """A crew action's pool while the boats tow: half, rounded down (TV-09: 7 -> 3)."""
    return pool // 2


def weather_modifiers(weather: Weather, skill: str) -> list[dict]:
    """The pool modifiers ``[{"source", "cards"}]`` of a test of ``skill`` made in
    ``weather``: the static modifier and, for Awareness, Mist or Fog (none when 0)."""
    mods = []
    total = static_modifier(weather)
    if total:
        mods.append({"source": weather.label, "cards": total})
    if skill == "awareness" and awareness_modifier(weather):
        mods.append({"source": PRECIPITATION[weather.precipitation][0],
                     "cards": awareness_modifier(weather)})
    return mods
