"""Promotion: the paths from Landsman to Lieutenant, their prerequisites, the promotion
missions and the Lieutenant's examination (BtQ L2158-2198; ``rules/btq_missions.md`` §11,
§3.7, A17; ``rules/btq_characters.md`` §6.3, TV-20; ``rules/DECISIONS.md`` D7).

* :data:`PROFESSIONS`: the three skills of each naval profession (BtQ L821-892);
* :data:`PATHS`, :func:`path`, :func:`prerequisites`: what each step asks and whether a
  character meets it (a list of checks, each met or not, with the reason);
* :data:`PROMOTION_MISSIONS`: each step's mission as data (name, challenges, deadline,
  rewards, failures, in the shape of ``rules/btq_missions.md`` §3.2), for mission records;
* :data:`EXAMINATION`, :func:`examination_next`: the Lieutenant's examination, three static
  challenges against 3 cards in order, Maritime, Seamanship, Command; deadline 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.btq.characters import SKILLS

PROFESSIONS: dict[str, tuple[str, ...]] = {
    "sailor": ("maritime", "seamanship", "scavenge"),
    "carpenter": ("profession", "engineering", "maritime"),
    "sailmaker": ("profession", "seamanship", "maritime"),
    "gunner": ("awareness", "gunnery", "engineering"),
    "steward": ("profession", "courtesy", "maritime"),
    "purser": ("purser", "haggle", "intrigue"),
    "surgeon": ("first_aid", "the_arts", "courtesy"),
    "marine": ("command", "intimidate", "scavenge"),
    "hand": ("skullduggery", "scavenge", "maritime"),
}
"""The skills of each naval profession (BtQ L821-892; ``rules/btq_missions.md`` §11). The
book's example: a Gunner's Mate needs Awareness, Gunnery and Engineering (BtQ L2170-2171)."""


class PromotionError(ValueError):
    """An unknown path or profession, or an examination taken out of turn."""


@dataclass(frozen=True, slots=True)
class Path:
    """One step of promotion: ``key``, ``from_rank``, ``to_rank``, the voyages needed since
    the last promotion (or joining the ship), the minimum in each profession skill
    (``profession_skill``, 0: none), other skill minimums, the Personal reputation with the
    Captain needed, whether a vacancy is needed, and its mission's key."""

    key: str
    from_rank: str
    to_rank: str
    voyages: int
    profession_skill: int = 0
    skills: tuple[tuple[str, int], ...] = ()
    captain_reputation: int = 0
    vacancy: bool = False
    mission: str = ""
    source: str = ""


PATHS: dict[str, Path] = {p.key: p for p in (
    Path("seaman", "Landsman", "Seaman", 1, skills=(("maritime", 2),),
         mission="accepted_as_a_seaman", source="BtQ L2161-2164"),
    Path("mate", "Seaman", "Mate", 1, profession_skill=2, vacancy=True,
         mission="promoted_to_mate", source="BtQ L2166-2172"),
    Path("warrant_officer", "Mate", "Warrant Officer", 1, profession_skill=3,
         captain_reputation=1, vacancy=True, mission="enter_the_ward_room",
         source="BtQ L2174-2185"),
    Path("lieutenant", "Midshipman", "Lieutenant", 2, mission="examination_for_lieutenant",
         source="BtQ L2187-2193"),
)}
"""The promotion steps the book gives rules for. Lieutenant to Commander is narrative: an
acting "Master and Commander" of a prize; a permanent Captain becomes an NPC (BtQ
L2195-2198)."""

COMMANDER_NOTE = ("Given command of a prize, a Lieutenant is acting Master and Commander, "
                  "called Captain without the rank; made Captain of his own ship, the "
                  "character becomes an NPC (BtQ L2195-2198).")


def path(key: str) -> Path:
    """The step ``key``; :class:`PromotionError` for an unknown one."""
    try:
        return PATHS[key]
    except KeyError:
        raise PromotionError(f"{key!r} is not a promotion: one of {', '.join(PATHS)}") from None


@dataclass(frozen=True, slots=True)
class Check:
    """One prerequisite: what it asks (``label``), whether it is ``met``, and what the
    character has (``have``)."""

    key: str
    label: str
    met: bool
    have: str = ""

    def as_dict(self) -> dict:
        return {"key": self.key, "label": self.label, "met": self.met, "have": self.have}


def prerequisites(step: Path | str, *, skills: Mapping[str, int], voyages_since: int,
                  profession: str | None = None, captain_reputation: int = 0,
                  vacancy: bool = False, locked: bool = False) -> list[Check]:
    """The prerequisites of ``step`` for a character with ``skills`` (key -> value, absent
    0), ``voyages_since`` voyages completed since the last promotion (or joining the ship),
    the target ``profession`` (for a Mate or Warrant Officer), the value of their positive
    Personal reputation with their Captain, whether the GM says there is a ``vacancy``, and
    whether a failed examination bars a retry until another voyage (``locked``) (BtQ
    L2161-2193; TV-20: Seaman to Gunner's Mate asks Awareness, Gunnery and Engineering 2,
    one Voyage since becoming Seaman, and a vacancy). The completed mission is the last
    step, not a prerequisite checked here."""
    step = path(step) if isinstance(step, str) else step
    checks = [Check("voyages", f"{step.voyages} Voyage{'s' if step.voyages > 1 else ''} at sea "
                    f"since becoming {step.from_rank}", voyages_since >= step.voyages,
                    str(voyages_since))]
    needs = list(step.skills)
    if step.profession_skill:
        if profession not in PROFESSIONS:
            checks.append(Check("profession", "The profession of the new post", False,
                                profession or ""))
        else:
            needs += [(s, step.profession_skill) for s in PROFESSIONS[profession]]
    for skill, least in needs:
        have = int(skills.get(skill, 0))
        checks.append(Check(f"skill:{skill}", f"{SKILLS[skill]} at least {least}", have >= least,
                            str(have)))
    if step.captain_reputation:
        checks.append(Check("captain", f"Personal: (your Captain) +{step.captain_reputation}",
                            captain_reputation >= step.captain_reputation,
                            str(captain_reputation)))
    if step.vacancy:
        checks.append(Check("vacancy", "A vacancy", vacancy, "yes" if vacancy else "no"))
    if step.key == "lieutenant":
        checks.append(Check("retry", "No failed examination since the last Voyage", not locked,
                            "barred" if locked else "free"))
    return checks


def eligible(checks: list[Check]) -> bool:
    """Whether every prerequisite is met."""
    return all(c.met for c in checks)


# --- The promotion missions ------------------------------------------------------------------


def _mission(key, name, challenges, deadline, rewards, failures, source, **extra):
    return key, {"key": key, "name": name, "kind": "promotion", "challenges": challenges,
                 "deadline_failures": deadline, "rewards": rewards, "failures": failures,
                 "source": source, **extra}


PROMOTION_MISSIONS: dict[str, dict] = dict((
    _mission("accepted_as_a_seaman", "Accepted as a Seaman", 2, 2,
             [{"kind": "promotion", "target": "Seaman", "cost": 0},
              {"kind": "trait_point", "amount": 1, "cost": 2}],
             [{"kind": "damage", "target": "Institution: Gun Deck", "state": "injured",
               "cost": 1}],
             "BtQ L2163-2164"),
    _mission("promoted_to_mate", "Promoted to Mate", 2, 2,
             [{"kind": "promotion", "target": "Mate", "cost": 0},
              {"kind": "trait_point", "amount": 1, "cost": 2}],
             [{"kind": "damage", "target": "Institution: Gun Deck", "state": "injured",
               "cost": 1}],
             "BtQ L2171-2172"),
    _mission("enter_the_ward_room", "Enter the Ward Room", 8, 6,
             [{"kind": "promotion", "target": "Warrant Officer", "cost": 0},
              {"kind": "reputation", "target": "Institution: Trusted in the Ward Room",
               "amount": 1, "cost": 2},
              {"kind": "wealth", "amount": 1, "cost": 4},
              {"kind": "skill", "target": "any", "amount": 1, "cost": 2}],
             [{"kind": "damage", "target": "Institution: Gun Deck", "state": "maimed",
               "cost": 4},
              {"kind": "damage", "target": "Personal: (your Captain)", "state": "injured",
               "cost": 1},
              {"kind": "measure", "target": "influence", "amount": -1, "cost": 2}],
             "BtQ L2184-2185"),
    _mission("examination_for_lieutenant", "The Examination for Lieutenant", 3, 1,
             [{"kind": "promotion", "target": "Lieutenant", "cost": 0}],
             [{"kind": "narrative", "text": "Wait for another Voyage to try the examination "
               "again", "cost": 0},
              {"kind": "damage", "target": "Institution: Ward Room", "state": "injured",
               "cost": 1}],
             "BtQ L2191-2193",
             challenge_tests=[{"skill": "maritime", "static_pool": 3},
                              {"skill": "seamanship", "static_pool": 3},
                              {"skill": "command", "static_pool": 3}]),
))
"""The promotion missions as mission data (``rules/btq_missions.md`` §3.2, §3.7): key,
name, ``kind`` "promotion", ``challenges``, ``deadline_failures``, ``rewards`` and
``failures`` with their costs from the mission tables (INJURED costs 1 as printed, D13),
the book's lines; the examination also lists its ``challenge_tests``."""

# --- The Lieutenant's examination --------------------------------------------------------------

EXAMINATION: tuple[str, ...] = ("maritime", "seamanship", "command")
"""The examination's challenges, in order, each a static test against 3 cards (BtQ
L2192-2193)."""

EXAMINATION_POOL = 3
"""The opposition of each challenge of the examination."""

WARD_ROOM = "Ward Room"
"""The Institution reputation a failed examination injures (BtQ L2192)."""


def examination_next(results: list[bool]) -> dict:
    """Where an examination stands after ``results`` (one per challenge taken, in order, won
    or lost): ``{"status": "next", "challenge": 0-2, "skill"}`` for the next challenge,
    ``{"status": "passed"}`` after three won (promoted to Lieutenant), ``{"status": "failed"}``
    at the first lost (deadline 1: Ward Room Injured, no retry until another Voyage)
    (TV-16). Raises :class:`PromotionError` for results after the end."""
    for i, won in enumerate(results):
        if not won:
            if i != len(results) - 1:
                raise PromotionError("the examination ended at its first failed challenge")
            return {"status": "failed", "challenge": i}
    if len(results) > len(EXAMINATION):
        raise PromotionError("the examination has three challenges")
    if len(results) == len(EXAMINATION):
        return {"status": "passed"}
    return {"status": "next", "challenge": len(results), "skill": EXAMINATION[len(results)]}
