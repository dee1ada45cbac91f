"""HFG losses, defeated commands and army break (digest 12; L328-333; A1, A2; errata F14,
F16).

An element's ``state`` is ``ok``, ``routing`` (counts as lost until rallied), ``destroyed``,
``spent`` (removed, never lost), ``off_table`` (recoiled, repulsed or routed off the table:
lost), ``departed`` (an allied command retreating off its base edge: not lost, A26) or
``waiting`` (a delayed command's element not yet on the table: not lost,
:mod:`rules.hfg.arrivals`).
Weights in element equivalents (EE): Elite 2, Supply Base and Laager 5, anything else 1
(A20). Once a side's Supply Base or Laager is lost, every other lost element of that side
counts double in the army-break test (L329-330; only there, F16). A general is an element of
his command for the command tests (F14); the logistics element belongs to the C-in-C's
command (F16).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.btq.settings import resolve
from rules.engine import IllegalAction
from rules.hfg.data import troop_type

STATES = ("ok", "routing", "destroyed", "spent", "off_table", "departed", "waiting")
LOST = frozenset({"routing", "destroyed", "off_table"})


@dataclass(frozen=True, slots=True)
class Unit:
    """One element for the loss count: troop ``type``, ``grade``, its ``command`` (an id),
    its ``state`` (see :data:`STATES`) and ``transferred``: moved into this command from the
    C-in-C's during the battle (counted in the new command's original EE, L330)."""

    type: str
    grade: str | None = None
    command: str = ""
    state: str = "ok"
    transferred: bool = False

    def __post_init__(self) -> None:
        if self.state not in STATES:
            raise IllegalAction(f"an element's state is one of {', '.join(STATES)}, "
                                f"not {self.state!r}")


def ee(unit: Unit) -> int:
    """The element equivalents of ``unit``: 2 if Elite, 5 for a Supply Base or Laager, else 1."""
    return 2 if unit.grade == "E" else troop_type(unit.type).ee


def is_logistics(unit: Unit) -> bool:
    return troop_type(unit.type).category == "logistics"


def original_ee(units: Sequence[Unit]) -> int:
    """The army's EE at the start: every element, delayed and concealed ones too (A2)."""
    return sum(ee(u) for u in units)


def lost_ee(units: Sequence[Unit]) -> int:
    """A side's lost EE (L328-330): destroyed, routing and off-table elements by their EE,
    everything but the logistics element doubled once that is lost; spent elements are not
    lost (vectors L1, L2, L5)."""
    logistics_lost = any(is_logistics(u) and u.state in LOST for u in units)
    total = 0
    for u in units:
        if u.state in LOST:
            total += ee(u) * (2 if logistics_lost and not is_logistics(u) else 1)
    return total


def army_broken(units: Sequence[Unit], settings: Mapping | None = None) -> bool:
    """Whether the side has lost: its lost EE exceeds the break fraction (½, A1) of its
    original EE (L332-333)."""
    fraction = Fraction(str(resolve(settings)["hfg_army_break_fraction"]))
    return lost_ee(units) > fraction * original_ee(units)


def command_defeated(units: Sequence[Unit], command: str) -> bool:
    """Whether ``command`` is defeated (L330-331): its lost EE (undoubled) is at least a
    third of its original EE plus that of elements transferred into it, or all its original
    elements are lost or spent (the general included, F14; vectors L3, L4)."""
    own = [u for u in units if u.command == command]
    if not own:
        raise IllegalAction(f"no elements in command {command!r}")
    lost = sum(ee(u) for u in own if u.state in LOST)
    if 3 * lost >= sum(ee(u) for u in own):
        return True
    originals = [u for u in own if not u.transferred]
    return bool(originals) and all(u.state in LOST or u.state == "spent" for u in originals)


def break_ratio(units: Sequence[Unit], settings: Mapping | None = None) -> Fraction:
    """Lost EE over the break threshold: above 1 the army has broken (A2's tie-break)."""
    fraction = Fraction(str(resolve(settings)["hfg_army_break_fraction"]))
    return Fraction(lost_ee(units)) / (fraction * original_ee(units))


def battle_result(sides: Mapping[str, Sequence[Unit]], *, defender: str,
                  timed_out: bool = False, settings: Mapping | None = None) -> dict | None:
    """The result at the end of a bound (digest 12, A2), or None if the battle goes on:
    ``{"winner": side or None, "broken": [sides], "how": "break" | "draw" | "time"}``. If both
    sides break in one bound the higher ratio of losses to threshold loses, equal is a draw; at
    the time limit the defender holds the field (``how = "time"``, winner the defender)."""
    if len(sides) != 2 or defender not in sides:
        raise IllegalAction("a battle has two sides, one of them the defender")
    broken = [s for s, units in sides.items() if army_broken(units, settings)]
    if len(broken) == 1:
        return {"winner": next(s for s in sides if s != broken[0]), "broken": broken,
                "how": "break"}
    if len(broken) == 2:
        a, b = broken
        ra, rb = break_ratio(sides[a], settings), break_ratio(sides[b], settings)
        if ra == rb:
            return {"winner": None, "broken": broken, "how": "draw"}
        return {"winner": b if ra > rb else a, "broken": broken, "how": "break"}
    if timed_out:
        return {"winner": defender, "broken": [], "how": "time"}
    return None
