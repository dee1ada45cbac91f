"""HFG command (digest 6; L222-231; errata F2; A13, A17): PIP dice and their grading, the
C-in-C's swap, easy command distances, the PIP cost of a move with its cumulative
surcharges, the weather read from the C-in-C's unadjusted rolls, disabled generals, delayed
arrivals and dilatory allies. Distances in paces; PIPs are whole numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.dice import d6
from rules.engine import IllegalAction
from rules.hfg.data import troop_type
from rules.random import RandomSource

ECD_HQ = 2400
ECD_OTHER = 800
RETIRE_NEAR = 400
SPECIAL_ACTIONS = ("transfer", "ford_search", "rally")
"""The actions costing 2 PIPs before surcharges (L226-228)."""
ACTIONS = ("tactical", "march", *SPECIAL_ACTIONS)
"""Every action a move may be."""


def graded_pips(raw: int, grade: str | None) -> int:
    """A command's PIPs from its die ``raw``: an Active general's 1 counts 6, a Lethargic
    general's score is 1 less (L222-223; vector C1)."""
    if not 1 <= raw <= 6:
        raise IllegalAction(f"a PIP die shows 1 to 6, not {raw}")
    if grade == "A" and raw == 1:
        return 6
    return raw - 1 if grade == "L" else raw


def roll_pips(source: RandomSource, commands: list[tuple[str, str | None]]) -> dict[str, dict]:
    """One PIP die per command, in the order given (C-in-C first, digest 15): ``{command:
    {"raw": die, "pips": graded}}`` for ``commands`` as (id, general's grade)."""
    out = {}
    for cid, grade in commands:
        raw = d6(source, f"PIPs {cid}")
        out[cid] = {"raw": raw, "pips": graded_pips(raw, grade)}
    return out


def may_swap(cinc: int, other: int, *, within_ecd: bool, allied: bool,
             cinc_disabled: bool = False) -> bool:
    """Whether the C-in-C may exchange his command's score ``cinc`` with a subordinate's
    ``other``: not allied, its general within his ECD, its score lower, and the C-in-C not
    disabled (L223-224; errata F21; A17; vector C2)."""
    return within_ecd and not allied and not cinc_disabled and other < cinc


def easy_command_distance(staff_type: str) -> int:
    """2,400p for an Army HQ, 800p for any other general (L224)."""
    if troop_type(staff_type).category != "staff" and staff_type not in ("SAIL", "STM", "IRC"):
        raise IllegalAction(f"{troop_type(staff_type).name} is not a general")
    return ECD_HQ if staff_type == "HQ" else ECD_OTHER


def slow_mover(code: str, grade: str | None = None, *, off_road: bool = True,
               entrenched: bool = False) -> bool:
    """Whether a tactical move of this element pays surcharge (b) (L226, errata F2): Heavy
    artillery off-road, Stoic Foot, Inferior land troops, troops in entrenchments, an Army
    HQ, Native Potentate, Laager or Aeronauts."""
    t = troop_type(code)
    if entrenched or code in ("STO", "HQ", "NP", "LAA", "AER"):
        return True
    if grade == "HVY" and t.category == "artillery" and off_road:
        return True
    return grade == "I" and t.category != "naval"


@dataclass(frozen=True, slots=True)
class Move:
    """A PIP-costed order for one element or group (digest 6.3).

    ``action``: ``"tactical"``, ``"march"`` or one of :data:`SPECIAL_ACTIONS`; ``land``
    (False for naval); ``in_command``: every member within its general's ECD and line of
    sight and the general fit to command (not in close combat, routing, disabled or lost);
    ``slow``: any member a slow mover (:func:`slow_mover`); ``retiring_near_enemy``: retiring
    within 400p of enemy; for a march, ``march_number`` (the group's nth march this bound,
    from 1) and ``route``: ``"good_road"``, ``"bad_road"`` or ``"off_road"``; ``wet``: the
    game's bad roads are muddy."""

    action: str = "tactical"
    land: bool = True
    in_command: bool = True
    slow: bool = False
    retiring_near_enemy: bool = False
    march_number: int = 1
    route: str = "off_road"
    wet: bool = False


def free_marches(move: Move) -> int:
    """How many march moves a group makes this bound before each further one costs +1
    (surcharge (c), L227; A13: bad roads in dry weather count as good): 3 entirely on good
    roads, 2 on roads any of them bad when wet, 1 off-road or naval."""
    if not move.land or move.route == "off_road":
        return 1
    if move.route == "bad_road" and move.wet:
        return 2
    return 3


def pip_cost(move: Move) -> int:
    """The PIPs a move costs: 1 (2 for a transfer, ford search or rally) plus each surcharge
    that applies, cumulatively (A13): (a) a land element out of command, (b) a tactical move
    of a slow mover, (c) a march beyond the free ones, (d) retiring within 400p of enemy
    (L224-228, errata F2; vectors C3, C4)."""
    if move.action not in ACTIONS:
        raise IllegalAction(f"unknown order {move.action!r}")
    if move.route not in ("good_road", "bad_road", "off_road"):
        raise IllegalAction(f"a march goes by good road, bad road or off-road, "
                            f"not {move.route!r}")
    if move.march_number < 1:
        raise IllegalAction("march moves are counted from 1")
    cost = 2 if move.action in SPECIAL_ACTIONS else 1
    if move.land and not move.in_command:
        cost += 1
    if move.action == "tactical" and move.slow:
        cost += 1
    if move.action == "march" and move.march_number > free_marches(move):
        cost += 1
    if move.retiring_near_enemy:
        cost += 1
    return cost


def march_costs(count: int, **kw: object) -> list[int]:
    """The cost of each of ``count`` march moves of one group this bound (vector C4)."""
    base = Move(action="march", **kw)  # type: ignore[arg-type]
    return [pip_cost(replace(base, march_number=n)) for n in range(1, count + 1)]


@dataclass(frozen=True, slots=True)
class Weather:
    """The battle's weather (digest 6.4, L228-231), set by the attacking C-in-C's first
    unadjusted PIP roll (6 mist, 1 wet) and ended by the defending C-in-C's unadjusted rolls:
    mist lifts on a 6; rain stops on his first 1 (``raining``), artillery and Laager stay
    slowed off-road until his second (``guns_slowed``); bad roads stay muddy all game.
    ``ones`` counts the defender's 1s since the rain began."""

    kind: str = "fair"
    mist: bool = False
    raining: bool = False
    guns_slowed: bool = False
    muddy_roads: bool = False
    ones: int = 0

    @property
    def visibility(self) -> int | None:
        """The longest sight in paces: 400 in mist, 1,200 in rain, unlimited (None)."""
        return 400 if self.mist else 1200 if self.raining else None

    @property
    def aeronauts_work(self) -> bool:
        return not self.mist and not self.raining


def weather_from(raw: int) -> Weather:
    """The weather from the attacking C-in-C's first unadjusted roll (vector C5)."""
    if raw == 6:
        return Weather(kind="mist", mist=True)
    if raw == 1:
        return Weather(kind="wet", raining=True, guns_slowed=True, muddy_roads=True)
    return Weather()


def weather_after_defender_roll(w: Weather, raw: int) -> Weather:
    """The weather after one unadjusted roll of the defending C-in-C (vectors C5, C6)."""
    if w.mist and raw == 6:
        return replace(w, mist=False)
    if w.kind == "wet" and raw == 1 and w.guns_slowed:
        ones = w.ones + 1
        return replace(w, ones=ones, raining=False, guns_slowed=ones < 2)
    return w


def recovers(raw: int) -> bool:
    """A disabled general recovers when his command next rolls an unadjusted 6; his Active
    or Lethargic grade is then gone (L314-315, A17)."""
    return raw == 6


def arrives_next_bound(raw: int) -> bool:
    """A delayed command enters in its side's next bound after an unadjusted 6 (an Active
    general's 1 counted as 6 does not bring it; L212-214, vector C7)."""
    return raw == 6


def ally_throws(bound: int, *, army_ag: int, ally_ag: int) -> bool:
    """Whether a dilatory ally (lower Ag than the C-in-C's army) throws its PIP die in
    friendly bound ``bound`` (from 1): only once the friendly bounds completed exceed the Ag
    difference (L216-217, vector P5)."""
    if ally_ag >= army_ag:
        return True
    return bound - 1 > army_ag - ally_ag
