"""A Command Party leading the element behind it (digest 9.4; HFG seed
``002_a94228d927715433.txt`` L283-284, L327-328).

The rule, L283: "A command party in close combat also adds the combat value of a mounted or
foot element contiguous to its rear and then uses that element's tactical factors and
outcomes." L327-328: "When a Command Party has added the combat factor of an element
contiguous to its rear, it is repulsed 600p to 1,200p if the latter becomes spent,
otherwise both obey the latter's outcome. If the outcome is charge to contact enemy, press
forward or pursue the element behind follows the same distance."

The combat factor and the outcome of the pair are :mod:`rules.hfg.combat`'s (a
:class:`~rules.hfg.combat.Fighter` with ``leading``); this module says who leads and what
the element behind does. "Contiguous to its rear" is read as the element's front edge flush
and centred on the Command Party's rear edge, facing the same way (:func:`rules.hfg.
geometry.contact` ``"rear"``).
"""

from __future__ import annotations

from rules.engine import IllegalAction
from rules.hfg.combat import Outcome
from rules.hfg.data import troop_type

FOLLOWS = ("pursue", "charge", "press_forward")
"""Outcomes after which the element behind follows the Command Party (L328)."""
SHARED = ("destroyed", "recoil", "repulsed", "routed")
"""Outcomes the element behind obeys as the Command Party does (L327)."""
SPENT = Outcome("spent")


def may_lead(cp_type: str, behind_type: str, *, behind_state: str, touching_rear: bool) -> bool:
    """Whether a Command Party (``cp_type`` ``"CP"``) leads the element of ``behind_type``
    in close combat: a mounted or foot element on its feet (``behind_state`` ``"ok"``)
    contiguous to its rear (``touching_rear``) (L283)."""
    return (cp_type == "CP" and behind_state == "ok" and touching_rear
            and troop_type(behind_type).category in ("mounted", "foot"))


def behind(out: Outcome) -> str:
    """What the element behind a leading Command Party does after the pair's outcome
    ``out`` (the CP's own, from the combat table with ``leading``): ``"spent"`` where the
    table made it spent (the CP is then repulsed), ``"follow"`` after charge, press forward
    or pursue, the same kind for destroyed, recoil, repulsed and routed (it moves as the CP
    does), ``"stay"`` for none and halt (L327-328). IllegalAction for an outcome the combat
    table does not give."""
    if out.rear == "spent":
        return "spent"
    if out.kind in FOLLOWS:
        return "follow"
    if out.kind in SHARED:
        return out.kind
    if out.kind in ("none", "halt"):
        return "stay"
    raise IllegalAction(f"no outcome {out.kind!r} for a Command Party leading")


def rear_outcome(out: Outcome, depth: int) -> Outcome:
    """The outcome the element behind a leading Command Party obeys where :func:`behind`
    says it shares it or is spent: spent, a recoil of its own base ``depth`` in paces (a
    recoil is always the element's own depth, L315), else ``out`` itself (L327)."""
    if out.rear == "spent":
        return SPENT
    if out.kind == "recoil":
        return Outcome("recoil", (depth, depth))
    return out
