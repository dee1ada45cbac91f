"""Crews and personalities: manning, actions, the personalities' dice, hiring and ransom
(Brethren L2-L3, L12-L23, L80-L82, L89-L92, L111-L112; ``rules/brethren.md`` §3.3, §3.4,
§6.1, §6.11, A20, A21, A26, BR-3, BR-4).

A ship's crew is a list of codes (``"seaman"``, ``"helmsman"``, ``"morgan"``...; see
``data/crews.json``), one per counter. Crew take no cargo space (L2).
"""

from __future__ import annotations

from math import ceil

from rules.brethren.data import crew_type, is_personality, reference
from rules.dice import d6
from rules.random import RandomSource

DOCTORS = ("beattie", "javier")
DOUBLERS = ("calico_cat", "st_croix")
"""Personalities whose 5-6 lets the action about to be given be performed twice (L18-L20)."""


def min_crew(points: int) -> int:
    """The fewest crew counters a ship of ``points`` must carry: half her points, rounded
    up (L12). ``min_crew(5) == 3``."""
    if points < 1:
        raise ValueError("a ship costs at least 1 point")
    return ceil(points / 2)


def capacity(cargo: int, crew: list[str]) -> int:
    """How many coins a ship holds: her cargo rating, or 1.5 per cargo point rounded up with
    Fernando Sanchez aboard (L21). Coins count one slot each whatever their value (L5-L6)."""
    return ceil(cargo * 1.5) if "sanchez" in crew else cargo


def count(crew: list[str], code: str) -> int:
    return sum(1 for c in crew if c == code)


def actions_per_turn(crew: list[str], *, merchant: bool = False) -> int:
    """Two actions a turn; one for a ship with a single crew counter (L80-L81) or a
    merchantman (L95, L101); none with no crew."""
    if not crew:
        return 0
    return 1 if merchant or len(crew) == 1 else 2


def batteries_allowed(crew: list[str]) -> int | None:
    """How many batteries may fire: one for a single crew counter (L80-L81), else all
    (``None``)."""
    return 1 if len(crew) == 1 else None


def extra_action_roll(crew: list[str], source: RandomSource) -> str | None:
    """The personality dice taken before a ship's first action: Admiral Morgan's (5-6: one
    extra action, L17), then Calico Cat's or St. Croix's (5-6: the action is performed
    twice, L18-L20; once a turn for both, A20). Returns the code of the personality whose
    roll succeeded, else ``None``. Each is rolled only while none has succeeded."""
    for code in ("morgan", *DOUBLERS):
        if code in crew and d6(source, f"{code} extra action") >= 5:
            return code
    return None


def powder_pete(crew: list[str], source: RandomSource) -> bool:
    """Powder Pete's 5-6: the crew may shoot again (L22-L23)."""
    return "powder_pete" in crew and d6(source, "powder pete") >= 5


def doctors(crew: list[str]) -> int:
    """How many crew losses the doctors aboard prevent this turn: one each (L20-L21)."""
    return sum(1 for c in crew if c in DOCTORS)


def lose_crew(crew: list[str], *, saved: int = 0) -> tuple[list[str], bool]:
    """``crew`` less one counter, unless a doctor's save is left (``saved`` > 0). The owner
    chooses which: the standing choice is the cheapest ordinary counter, a personality last
    (§6.5 item 4). Returns the new crew and whether a counter was lost."""
    if saved > 0 or not crew:
        return list(crew), False
    ordered = sorted(range(len(crew)), key=lambda i: (is_personality(crew[i]),
                                                      crew_type(crew[i])["cost"], -i))
    out = list(crew)
    del out[ordered[0]]
    return out, True


def may_serve(code: str, flag: str) -> bool:
    """Whether a personality may serve in a fleet flying ``flag`` (L16-L23, L91);
    ordinary crew serve anyone."""
    if not is_personality(code):
        return True
    return flag in reference("crews")["personalities"][code]["serves"]


def ransom(prisoners: list[str], serving: list[str], flag: str) -> int:
    """The gold of the personalities a fleet holds for ransom at the end (L90-L92): those
    held (``prisoners``) and not serving in its crews; a personality who serves gives
    nothing (``serving``). Red Rampage and Powder Pete are worth their cost (A21)."""
    table = reference("crews")["personalities"]
    return sum(table[c]["ransom"] for c in prisoners if c in table and c not in serving)


def rehire(points: int, counters: int, mode: str = "top_up_to_min") -> int:
    """How many counters a ship back home with one counter must hire before she sails
    (L81): up to her minimum crew (``top_up_to_min``, the default) or half her points on
    top (``add_half``, the literal reading; BR-3). 0 if she has more than one counter."""
    if counters != 1:
        return 0
    if mode == "add_half":
        return min_crew(points)
    return max(0, min_crew(points) - counters)


def kraken_crew_price(base: int, voyages_attacked: int) -> int:
    """New crew for a ship the Kraken attacked cost ``2**k`` times the base price, ``k`` the
    voyages on which she was attacked (L111-L112)."""
    return base * 2 ** voyages_attacked
