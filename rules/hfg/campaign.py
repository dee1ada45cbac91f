"""HFG optional preliminary map movement (digest 13; HFG seed ``002_a94228d927715433.txt``
L339-353): a stylised map of nodes joined by road links (a STAGE each, about 7.5 miles),
days of three periods, the weather, march rates and limits, engineering work, who defends
when forces meet, the battle's map periods and retreat. Pure: no I/O, every die through the
random source.

The rules, as L345-353 give them:

- Weather: "Dice at the end of each afternoon. A score of 1 indicates bad weather ...
  prolonged heavy rain that turns poor roads to mud. Dice again at the start of each
  succeeding period, a score of 4 or more indicating that the rain stops, but that roads
  are still affected until the end of that period." (:func:`weather_roll`)
- Rates: "Command parties, Dragoons, Light Cavalry, Light Infantry, Light Horse or
  Skirmishers march up to 3 stages in one period and up to 3 stages in total per day.
  Cuirassiers, Heavy Cavalry, Sipahis, other foot or HQ march up to 2 stages in one period
  and up to 3 stages in total per day. Artillery march 1 stage in one period and up to 2
  stages in total per day." Types the text leaves out are classed as the digest suggests:
  Pistols, Elephantry and a Native Potentate with the 2/3 class; Repeaters, Mounted Rifles
  and Rifle Cavalry with the 3/3 class; Laager and Aeronauts as artillery. (:func:`rates`)
- Limits (:func:`check_march`): "A march partly or entirely over bad roads and/or by night
  cannot exceed 1 stage. A march including artillery, and partly or entirely over bad
  roads in bad weather, takes two periods to travel 1 stage. ... Unless in rout, no more
  than 4 troop elements with or without an additional staff element can be marching on the
  same stage during the same period. Troops cannot march or work for more than 2
  successive periods. A march starting or finishing at night must be followed by a rest
  period."
- Work (:data:`WORK_PERIODS`): "1 period of work is needed to construct infantry
  entrenchments or break down a bridge, 2 periods to construct artillery redoubts or
  repair a bridge, 3 periods to construct a bridge."
- Battle (:func:`defender`, :func:`map_period`): "A side arriving first is always the
  defender ... After 6 bounds by each side, another map period starts during which troops
  may start arriving from 1 stage away."
- Retreat (:func:`may_retreat`): "possible only if the retreating force has movement
  remaining and has no troops with a shorter tactical move than the shortest of the other
  force. Retreat from a battle once started is by a compulsory army rout of 1 or 2 stages."
- Colonial option (:func:`moves_today`): "the native side moves only every second day, but
  then makes two days' moves".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.dice import d6
from rules.engine import IllegalAction
from rules.hfg.data import troop_type
from rules.hfg.movement import allowance
from rules.random import RandomSource

PERIODS = ("morning", "afternoon", "night")
ROADS = ("good", "bad")
RAIN_ON = 1
"""The end-of-afternoon score that brings prolonged rain."""
RAIN_STOPS = 4
"""The score at or above which the rain stops (the roads stay bad to the period's end)."""
FAST = ("CP", "DRG", "LC", "LI", "LH", "SK", "REP", "MR", "RC")
STEADY_EXTRA = ("PIS", "ELE", "NP")
"""Types the text does not class, marching with the 2/3 class (digest 13's suggestion)."""
SLOW_EXTRA = ("LAA", "AER")
"""Types the text does not class, marching as artillery (digest 13's suggestion)."""
IMMOBILE = ("SUP", "SPG")
"""A Supply Base and a strong point's garrison never move."""
MAX_TROOPS_ON_A_STAGE = 4
MAX_STAFF_ON_A_STAGE = 1
MAX_SUCCESSIVE_PERIODS = 2
WORK_PERIODS = {"entrenchment": 1, "break_bridge": 1, "redoubt": 2, "repair_bridge": 2,
                "build_bridge": 3}
BOUNDS_PER_PERIOD = 6
"""Bounds by each side in a battle before another map period starts (L352)."""


def rates(code: str) -> tuple[int, int]:
    """The most stages an element of type ``code`` marches in one period and in one day
    (L346-347): (3, 3), (2, 3) or, for artillery, (1, 2). IllegalAction for naval, which
    does not march on the map, and for an immobile Supply Base or SP garrison."""
    t = troop_type(code)
    if t.category == "naval" or code in IMMOBILE:
        raise IllegalAction(f"{t.name} does not march on the campaign map")
    if code in FAST:
        return 3, 3
    if t.category == "artillery" or code in SLOW_EXTRA:
        return 1, 2
    return 2, 3


@dataclass(frozen=True, slots=True)
class Link:
    """A road between two nodes, one stage long: ``road`` ``"good"`` or ``"bad"``."""

    a: str
    b: str
    road: str = "good"


@dataclass(frozen=True, slots=True)
class CampaignMap:
    """The stylised map both sides share: ``nodes`` (villages, junctions, defiles, points)
    and the road ``links`` between them (L341-342)."""

    nodes: tuple[str, ...]
    links: tuple[Link, ...]

    def check(self) -> None:
        """IllegalAction for a link to an unknown node, a node linked to itself, two links
        between the same nodes or a road that is neither good nor bad."""
        seen = set()
        for ln in self.links:
            if ln.a not in self.nodes or ln.b not in self.nodes:
                raise IllegalAction(f"the road {ln.a}-{ln.b} runs to a place not on the map")
            if ln.a == ln.b:
                raise IllegalAction(f"the road at {ln.a} goes nowhere")
            if ln.road not in ROADS:
                raise IllegalAction(f"a road is good or bad, not {ln.road!r}")
            key = frozenset((ln.a, ln.b))
            if key in seen:
                raise IllegalAction(f"two roads join {ln.a} and {ln.b}")
            seen.add(key)

    def link(self, a: str, b: str) -> Link:
        """The road from ``a`` to ``b``; IllegalAction if no road joins them."""
        for ln in self.links:
            if {ln.a, ln.b} == {a, b}:
                return ln
        raise IllegalAction(f"no road joins {a} and {b}")

    def route(self, path: Sequence[str]) -> list[Link]:
        """The stages of ``path`` (nodes in order, at least two); IllegalAction where two
        consecutive nodes are not joined by a road."""
        if len(path) < 2:
            raise IllegalAction("a march goes from one place to another")
        return [self.link(a, b) for a, b in zip(path, path[1:], strict=False)]


@dataclass(frozen=True, slots=True)
class March:
    """A march as the rules allow it: its ``stages`` and the ``periods`` it takes, and
    whether the group must ``rest`` in the period after it."""

    stages: int
    periods: int
    rest: bool


def check_march(cmap: CampaignMap, path: Sequence[str], codes: Sequence[str], *,
                period: str, muddy: bool = False, marched_today: int = 0,
                successive: int = 0, already_on_stage: tuple[int, int] = (0, 0),
                routing: bool = False) -> March:
    """The march of a group of elements (troop ``codes``) along ``path`` starting in
    ``period``, or IllegalAction with the rule it breaks (L346-350):

    - at most the slowest member's stages per period, and per day counting
      ``marched_today`` (stages it already marched today);
    - at most 1 stage if any stage is a bad road or the march is by night;
    - 2 periods for its 1 stage when it includes artillery over a bad road while ``muddy``
      (the rain's mud, :func:`weather_roll`);
    - not beyond 2 successive periods of marching or work, counting ``successive`` (the
      periods it has just marched or worked);
    - unless ``routing``, at most 4 troop elements and 1 staff element on a stage in a
      period, counting ``already_on_stage`` (troops, staff) already marching on it.

    A march starting or ending at night is followed by a rest period (``rest``)."""
    if period not in PERIODS:
        raise IllegalAction(f"a period is one of {', '.join(PERIODS)}, not {period!r}")
    if not codes:
        raise IllegalAction("a march needs at least one element")
    stages = cmap.route(path)
    per_period = min(rates(c)[0] for c in codes)
    per_day = min(rates(c)[1] for c in codes)
    n = len(stages)
    bad = any(s.road == "bad" for s in stages)
    guns = any(troop_type(c).category == "artillery" for c in codes)
    if n > per_period:
        raise IllegalAction(f"these troops march at most {per_period} stage"
                            f"{'s' if per_period > 1 else ''} in one period")
    if marched_today + n > per_day:
        raise IllegalAction(f"these troops march at most {per_day} stages in a day "
                            f"(they have marched {marched_today})")
    if n > 1 and (bad or period == "night"):
        raise IllegalAction("a march over bad roads or by night covers at most 1 stage")
    periods = 2 if guns and bad and muddy else 1
    if successive + periods > MAX_SUCCESSIVE_PERIODS:
        raise IllegalAction("troops cannot march or work for more than 2 successive periods")
    if not routing:
        troops = already_on_stage[0] + sum(troop_type(c).category != "staff" for c in codes)
        staff = already_on_stage[1] + sum(troop_type(c).category == "staff" for c in codes)
        if troops > MAX_TROOPS_ON_A_STAGE or staff > MAX_STAFF_ON_A_STAGE:
            raise IllegalAction("no more than 4 troop elements and 1 staff element may march "
                                "on the same stage in the same period")
    start = PERIODS.index(period)
    end = PERIODS[(start + periods - 1) % len(PERIODS)]
    return March(stages=n, periods=periods, rest=period == "night" or end == "night")


@dataclass(frozen=True, slots=True)
class Weather:
    """The campaign's weather: ``raining``, and ``muddy`` (poor roads are mud this
    period: while it rains, and to the end of the period in which it stops)."""

    raining: bool = False
    muddy: bool = False


def weather_roll(source: RandomSource, weather: Weather, period: str) -> Weather:
    """The weather after the die of ``period``'s change (L345): at the end of an
    afternoon (``period`` ``"afternoon"``) when it is dry, 1d6, a 1 bringing rain and mud;
    at the start of any later period while it rains (``period`` the one starting), 1d6, 4 or
    more stopping the rain with the roads bad to the end of that period; otherwise no die.
    A dry period after the rain stopped clears the mud. Each die is recorded as
    ``"campaign weather"``."""
    if period not in PERIODS:
        raise IllegalAction(f"a period is one of {', '.join(PERIODS)}, not {period!r}")
    if weather.raining:
        if d6(source, "campaign weather") >= RAIN_STOPS:
            return Weather(raining=False, muddy=True)
        return weather
    if period == "afternoon":
        if d6(source, "campaign weather") == RAIN_ON:
            return Weather(raining=True, muddy=True)
    return Weather()


def defender(arrivals: dict[str, tuple[int, int]]) -> str:
    """The side that defends when forces meet: the one that arrived first (L351).
    ``arrivals`` maps each of the two sides to when it arrived as (day, period index);
    IllegalAction on a tie (then roll for it as the table battle does, L145-147)."""
    if len(arrivals) != 2:
        raise IllegalAction("a battle has two sides")
    (a, ta), (b, tb) = sorted(arrivals.items())
    if ta == tb:
        raise IllegalAction("both sides arrived together: dice for attacker and defender")
    return a if ta < tb else b


def attacker_from_arrivals(arrived: object, side_ids: Sequence[str]) -> str:
    """The attacker of a battle fought where two forces met on the map: the side that did
    not arrive first (L351). ``arrived`` is the setup's ``{"<side>": [day, "<period>"]}``
    for each of the two ``side_ids`` (day from 1); IllegalAction naming what is wrong."""
    if not isinstance(arrived, dict) or sorted(arrived) != sorted(side_ids):
        raise IllegalAction("the campaign's arrivals give a day and period for each side")
    when = {}
    for side, at in arrived.items():
        if (not isinstance(at, list | tuple) or len(at) != 2 or isinstance(at[0], bool)
                or not isinstance(at[0], int) or at[0] < 1 or at[1] not in PERIODS):
            raise IllegalAction(f"side {side} arrived on a day (from 1) and in one of "
                                f"{', '.join(PERIODS)}")
        when[side] = (at[0], PERIODS.index(at[1]))
    first = defender(when)
    return next(s for s in side_ids if s != first)


def map_period(bounds_each: int) -> int:
    """How many map periods have passed since the battle began after ``bounds_each`` bounds
    by each side: a new one every 6 (L352), when troops 1 stage away may start to arrive."""
    if bounds_each < 0:
        raise IllegalAction("bounds are counted from 0")
    return bounds_each // BOUNDS_PER_PERIOD


def may_retreat(own: Sequence[str], other: Sequence[str], *, movement_left: bool) -> bool:
    """Whether a force of troop ``own`` codes may retreat to avoid battle with ``other``:
    only with movement left, and with none of its troops having a shorter tactical move (in
    good going) than the shortest of the other force (L352-353). Immobile troops are left
    out of both."""
    def moves(codes: Sequence[str]) -> list[int]:
        return [allowance(c) for c in codes if c not in IMMOBILE]
    mine, theirs = moves(own), moves(other)
    if not mine or not theirs:
        raise IllegalAction("both forces need troops that move")
    return movement_left and min(mine) >= min(theirs)


def moves_today(day: int, *, native: bool, colonial: bool) -> int:
    """How many days' moves a side makes on ``day`` (from 1): 1; with the colonial option
    the native side none on odd days and 2 on even days (L350)."""
    if day < 1:
        raise IllegalAction("days are counted from 1")
    if colonial and native:
        return 2 if day % 2 == 0 else 0
    return 1
