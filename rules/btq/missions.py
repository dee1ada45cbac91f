"""Missions and challenges (BtQ L1430-1561; ``rules/btq_missions.md`` §2, §3;
``rules/btq_characters.md`` §6.2; ``rules/DECISIONS.md`` D13, D14).

A **Mission** has six parts (BtQ L1443-1458): a name, the number of challenges required
(at least 2, BtQ L1512), a reward and a failure cost bought from the purchase tables, a
narrative deadline and a failed-challenge deadline (usually the number of challenges; the GM
may lower it). A **Challenge** is a test whose outcome matters to a mission (BtQ L1440-1441);
only challenges move a mission on.

The budget rule (BtQ L1516, L1534, L1558-1560): the reward and the failure cost are each
bought with at most as many points as the mission has challenges. The tables are reference
data (``data/missions/purchase_tables.json``), read by :func:`purchase_tables`; a campaign may
price them otherwise (D13: the printed INJURED = 1 is the default, a setting offers 2).

The lifecycle (§3.3) is a pure function of the results so far: :func:`progress` counts them,
:func:`record_result` adds one, a failed challenge ends nothing until the failed-challenge
deadline is reached (D14, BtQ L1446), the requirement met is flagged for the GM to confirm
the story's end (:data:`REQUIREMENT_MET`, BtQ L1482), and the narrative deadline or
abandonment fail it (BtQ L1484).

What a mission does to a character once it ends, one purchase at a time, is
:func:`apply_reward` and :func:`apply_failure` over plain values.

>>> terms = sample_missions()["scout_soukir_bay"]
>>> budget(terms)
{'reward': 4, 'failure': 4, 'budget': 4}
>>> [p.status for p in replay(terms, "FF")]
['active', 'failed']
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources

from rules.btq.characters import MEASURES, SKILLS, DamageState

MIN_CHALLENGES = 2
"""The fewest challenges a mission may have (BtQ L1512)."""

REWARD, FAILURE = "reward", "failure"
SIDES = (REWARD, FAILURE)

# Mission statuses (rules/btq_missions.md §18.1).
ACTIVE = "active"
REQUIREMENT_MET = "requirement_met"
COMPLETED = "completed"
FAILED = "failed"
ABANDONED = "abandoned"
STATUSES = {
    ACTIVE: "Under way",
    REQUIREMENT_MET: "Challenges met: waiting for the GM to confirm",
    COMPLETED: "Completed",
    FAILED: "Failed",
    ABANDONED: "Abandoned",
}
OPEN = (ACTIVE, REQUIREMENT_MET)
"""The statuses of a mission that is not over."""

KINDS = {
    "naval": "Naval Mission",
    "personal": "Mission of Personal Importance",
    "promotion": "Promotion",
    "healing": "Healing (a Dead area or reputation)",
    "other": "Other",
}
"""What a mission is for (BtQ L1490-1502, L2158-2198; ``rules/btq_missions.md`` §18.1)."""

SCOPES = {
    "all": "every character on it",
    "officers": "the Officers",
    "ratings": "the Ratings",
    "character": "one character",
}
"""Whom a reward or failure entry is for (BtQ L1447, L1517: "different for Officers and
Ratings ... even for individual characters")."""

WOUNDS = {"injured": 1, "maimed": 2, "dead": 3}
"""Failure entries that wound an area, and the success level of the wound (BtQ L1541-1545)."""

AREAS = {"health": "Health", "wealth": "Wealth", "ship_morale": "Ship Morale"}
"""The damage areas besides reputations a wound or a heal may name (BtQ L1297-1301)."""


class MissionError(ValueError):
    """A mission or a purchase the rules refuse; the message names the rule in plain words."""


@dataclass(frozen=True, slots=True)
class Purchase:
    """One row of a purchase table: ``kind`` (``"measure"``, ``"wound"``...), ``label`` the
    book's words, ``cost`` in challenges, ``chooser`` who picks the target (``"player"``
    for rewards, ``"gm"`` for failures; BtQ L1525, L1541), ``note``."""

    kind: str
    label: str
    cost: int
    chooser: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing bought for a mission's reward or failure.

    ``kind`` a :class:`Purchase` kind of its table; ``amount`` how many times (``+2`` to a
    reputation costs 4, BtQ L1457); ``target`` what it names, empty for the chooser to
    decide when it is applied: a Measure or skill key, ``"<personal|institution>:<descriptor>:
    <subject>"`` for a reputation reward, ``"health"``, ``"wealth"``, ``"ship_morale"`` or
    ``"reputation:<words of its name>"`` for a wound or a heal; ``scope`` one of
    :data:`SCOPES`, with ``character`` (an id) when it is ``"character"``; ``note`` words
    for people (the narrative entries are only words).
    """

    kind: str
    amount: int = 1
    target: str = ""
    scope: str = "all"
    character: int | None = None
    note: str = ""

    def as_dict(self) -> dict:
        return {"kind": self.kind, "amount": self.amount, "target": self.target,
                "scope": self.scope, "character": self.character, "note": self.note}

    @classmethod
    def from_dict(cls, data: dict) -> Entry:
        """An entry from its JSON; :class:`MissionError` for a shape that is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise MissionError("Each reward or failure entry needs a kind.")
        known = {"kind", "amount", "target", "scope", "character", "note"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise MissionError(f"An entry has no field {unknown[0]!r}.")
        amount = data.get("amount", 1)
        if type(amount) is not int or not 1 <= amount <= 20:
            raise MissionError("An entry's amount is a whole number from 1 to 20.")
        character = data.get("character")
        if character is not None and type(character) is not int:
            raise MissionError("An entry's character is a character's id.")
        for key in ("target", "scope", "note"):
            if key in data and not isinstance(data[key], str):
                raise MissionError(f"An entry's {key} is text.")
        return cls(data["kind"], amount, target_key(data["kind"], data.get("target", "")),
                   data.get("scope", "all") or "all", character, data.get("note", "").strip())


def _named(kind: str) -> dict[str, str]:
    """The names a target of ``kind`` may take, key to the book's words."""
    if kind == "measure":
        return MEASURES
    if kind == "skill":
        return SKILLS
    if kind in WOUNDS or kind == "heal_dead":
        return AREAS
    return {}


def target_key(kind: str, target: str) -> str:
    """``target`` of an entry of ``kind`` as its key: a Measure, skill or area is named in
    any case, by its key or the book's words ("Gunnery", "gunnery", "First Aid" are
    ``"gunnery"`` and ``"first_aid"``); any other target is returned stripped, unchecked
    (:func:`validate` says what is wrong with it)."""
    target = target.strip()
    folded = "_".join(target.lower().split())
    for key, label in _named(kind).items():
        if folded in (key, "_".join(label.lower().split())):
            return key
    return target


def target_label(kind: str, target: str) -> str:
    """The book's words for ``target`` of an entry of ``kind`` ("gunnery" is "Gunnery",
    "ship_morale" "Ship Morale", a new reputation "institution:Feared by:Smugglers" is
    "Institution: Feared by Smugglers", a reputation wounded "reputation:Gun Deck" is
    "Gun Deck"); a target without a name of its own is returned as it is."""
    named = reputation_target(target) if kind == "reputation" else None
    if named is not None:
        return f"{named[0].capitalize()}: {named[1]} {named[2]}"
    if target.startswith("reputation:"):
        return target[len("reputation:"):].strip()
    return _named(kind).get(target, target)


def entry_words(entry: Entry, label: str) -> str:
    """``entry`` in words a person reads, ``label`` its table row's: with a target, the
    target and what happens to it ("Gunnery +1", "Institution: Feared by Smugglers +1",
    "Wealth -2", "Ship Morale Injured", "Heal Health"); without one, ``label`` (times its
    amount, "+1 to a Skill ×2") for the chooser to name the target when it is applied
    (BtQ L1517-1545)."""
    if not entry.target:
        return label + (f" ×{entry.amount}" if entry.amount > 1 else "")
    what = target_label(entry.kind, entry.target)
    if entry.kind in WOUNDS:
        return f"{what} {entry.kind.capitalize()}"
    if entry.kind == "heal_dead":
        return f"Heal {what}"
    sign = "-" if label.startswith("-") else "+"
    return f"{what} {sign}{entry.amount}"


@dataclass(frozen=True, slots=True)
class Terms:
    """The six parts of a mission (BtQ L1443-1458): ``name``, ``challenges_required``,
    ``deadline_failures``, ``deadline_narrative``, ``rewards`` and ``failures`` (tuples of
    :class:`Entry`), plus its ``kind`` (:data:`KINDS`) and the book ``source`` of a sample."""

    name: str
    challenges_required: int
    deadline_failures: int
    deadline_narrative: str = ""
    rewards: tuple[Entry, ...] = ()
    failures: tuple[Entry, ...] = ()
    kind: str = "naval"
    source: str = ""

    def as_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind,
                "challenges_required": self.challenges_required,
                "deadline_failures": self.deadline_failures,
                "deadline_narrative": self.deadline_narrative,
                "rewards": [e.as_dict() for e in self.rewards],
                "failures": [e.as_dict() for e in self.failures], "source": self.source}


def _data(name: str) -> dict:
    path = resources.files("rules.btq").joinpath("data", "missions", name)
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def _tables() -> dict[str, dict[str, Purchase]]:
    raw = _data("purchase_tables.json")
    return {side: {row["kind"]: Purchase(**row) for row in raw[side]} for side in SIDES}


def purchase_tables(*, injured_cost: int | None = None) -> dict[str, dict[str, Purchase]]:
    """The reward and failure tables (BtQ L1517-1540), side -> kind -> :class:`Purchase`,
    in the book's order. ``injured_cost`` prices the INJURED wound otherwise than the printed
    1 (D13; the campaign setting ``mission_injured_cost``). A fresh copy each call."""
    tables = {side: dict(rows) for side, rows in _tables().items()}
    if injured_cost is not None:
        tables[FAILURE]["injured"] = replace(tables[FAILURE]["injured"], cost=injured_cost)
    return tables


def entry_cost(entry: Entry, side: str, tables: dict | None = None) -> int:
    """What ``entry`` costs on ``side`` (:data:`REWARD` or :data:`FAILURE`): its row's cost
    times its amount (BtQ L1457: "+2" costs 4). :class:`MissionError` for a kind the table
    does not have."""
    rows = (tables or purchase_tables())[side]
    if entry.kind not in rows:
        raise MissionError(f"“{entry.kind}” is not on the {side} table.")
    return rows[entry.kind].cost * entry.amount


def spent(entries: Iterable[Entry], side: str, tables: dict | None = None) -> tuple[int, str]:
    """``(points, whom)``: what ``entries`` cost the character they give most to, and who
    that is. A reward may differ for Officers and Ratings, even per character (BtQ L1447,
    L1517): each is bought within the budget, so a character's cost is what applies to them
    (everyone's entries, their class's, their own); a named character is counted with the
    dearer of the two classes, since the kernel does not know theirs."""
    cost = {scope: 0 for scope in ("all", "officers", "ratings")}
    own: dict[int | None, int] = {}
    for entry in entries:
        points = entry_cost(entry, side, tables)
        if entry.scope == "character":
            own[entry.character] = own.get(entry.character, 0) + points
        else:
            cost[entry.scope] = cost.get(entry.scope, 0) + points
    base = cost["all"]
    options = [(base, "everyone"), (base + cost["officers"], "the Officers"),
               (base + cost["ratings"], "the Ratings")]
    dearer = max(cost["officers"], cost["ratings"])
    options += [(base + dearer + points, "one character") for points in own.values()]
    return max(options, key=lambda o: o[0])


def budget(terms: Terms, tables: dict | None = None) -> dict[str, int]:
    """``{"reward", "failure", "budget"}``: what the reward and the failure cost (for the
    character they give or cost most, :func:`spent`), and the points each may spend, the
    number of challenges (BtQ L1558-1560)."""
    return {"reward": spent(terms.rewards, REWARD, tables)[0],
            "failure": spent(terms.failures, FAILURE, tables)[0],
            "budget": terms.challenges_required}


def _check_entry(entry: Entry, side: str, rows: dict, errors: list[str]) -> None:
    what = "reward" if side == REWARD else "failure"
    if entry.kind not in rows:
        errors.append(f"“{entry.kind}” is not on the {what} table.")
        return
    if entry.scope not in SCOPES:
        errors.append(f"A {what} is for {', '.join(SCOPES)}; not “{entry.scope}”.")
    if entry.scope == "character" and entry.character is None:
        errors.append(f"A {what} for one character must name the character.")
    if entry.kind in WOUNDS and entry.amount != 1:
        errors.append("A wound is bought once per area: its amount is 1.")
    if entry.kind == "narrative" and not entry.note:
        errors.append(f"A {what} in the story needs words saying what it is.")
    target = entry.target
    if entry.kind == "measure" and target and target not in MEASURES:
        errors.append(f"“{target}” is not a Measure (Guts, Discipline, Influence, Charm).")
    if entry.kind == "skill" and target and target not in SKILLS:
        errors.append(f"“{target}” is not a skill.")
    if entry.kind in (*WOUNDS, "heal_dead") and target and target not in AREAS and not (
            target.startswith("reputation:") and target[len("reputation:"):].strip()):
        errors.append(f"A wound or a heal names Health, Wealth, Ship Morale or "
                      f"“reputation:<its name>”, not “{target}”.")
    if entry.kind == "reputation" and side == REWARD and target:
        parts = target.split(":")
        if len(parts) != 3 or parts[0] not in ("personal", "institution") or not all(
                p.strip() for p in parts[1:]):
            errors.append("A new reputation is written “personal:<descriptor>:<subject>” or "
                          "“institution:<descriptor>:<subject>”.")


def validate(terms: Terms, tables: dict | None = None) -> tuple[dict[str, list[str]], list[str]]:
    """Every check of ``rules/btq_missions.md`` §3.6: ``(errors, warnings)``, errors by the
    field they concern (``name``, ``challenges_required``, ``deadline_failures``,
    ``rewards``, ``failures``), each in plain words naming the rule; the mission may be
    saved only without errors, and every error is said at once (an entry's budget is counted
    over the entries whose kind is on the table, whatever else is wrong with them). Warnings
    do not block (A18: a failed-challenge deadline above the number of challenges)."""
    tables = tables or purchase_tables()
    errors: dict[str, list[str]] = {}

    def add(key: str, message: str) -> None:
        errors.setdefault(key, []).append(message)

    if not terms.name.strip():
        add("name", "A mission needs a name (BtQ: the first of its six parts).")
    if terms.kind not in KINDS:
        add("kind", f"“{terms.kind}” is not a kind of mission.")
    n = terms.challenges_required
    if type(n) is not int or n < MIN_CHALLENGES:
        add("challenges_required",
            f"A mission has at least {MIN_CHALLENGES} challenges (the book's minimum).")
    d = terms.deadline_failures
    if type(d) is not int or d < 1:
        add("deadline_failures",
            "The failed-challenge deadline is at least 1: some number of failed challenges "
            "must end the mission.")
    warnings = []
    if type(n) is int and type(d) is int and d > n >= MIN_CHALLENGES:
        warnings.append(f"The deadline allows {d} failed challenges, more than the {n} "
                        "challenges of the mission; the book only speaks of lowering it.")
    for side, entries, key in ((REWARD, terms.rewards, "rewards"),
                               (FAILURE, terms.failures, "failures")):
        found: list[str] = []
        for entry in entries:
            _check_entry(entry, side, tables[side], found)
        for message in found:
            add(key, message)
        if type(n) is int and n >= MIN_CHALLENGES:
            points, whom = spent([e for e in entries if e.kind in tables[side]], side, tables)
            if points > n:
                what = "reward" if side == REWARD else "failure"
                for_whom = "" if whom == "everyone" else f" for {whom}"
                add(key, f"The {what} costs {points} points{for_whom}, but a mission of {n} "
                         f"challenges may spend at most {n} (one point per challenge).")
    return errors, warnings


def check(terms: Terms, tables: dict | None = None) -> list[str]:
    """The warnings of :func:`validate`; :class:`MissionError` with every error if any."""
    errors, warnings = validate(terms, tables)
    if errors:
        raise MissionError(" ".join(m for ms in errors.values() for m in ms))
    return warnings


# --- The lifecycle ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a mission stands: ``successes``, ``failures``, ``status`` (:data:`STATUSES`)."""

    successes: int = 0
    failures: int = 0
    status: str = ACTIVE

    @property
    def is_open(self) -> bool:
        return self.status in OPEN


def record_result(terms: Terms, progress: Progress, met: bool) -> Progress:
    """``progress`` after one challenge of the mission is met (``met``) or failed
    (BtQ L1446, L1454-1455, L1482-1484): the requirement is met once the successes reach the
    challenges required before the failures reach the deadline (flagged for the GM to
    confirm, :data:`REQUIREMENT_MET`); the mission fails when the failures reach the
    deadline; a failed challenge ends nothing before that (D14). A mission no longer under
    way takes no result (:class:`MissionError`)."""
    if progress.status != ACTIVE:
        raise MissionError(f"The mission is {STATUSES[progress.status].lower()}: it takes no "
                           "more challenges.")
    if met:
        successes = progress.successes + 1
        status = REQUIREMENT_MET if successes >= terms.challenges_required else ACTIVE
        return Progress(successes, progress.failures, status)
    failures = progress.failures + 1
    status = FAILED if failures >= terms.deadline_failures else ACTIVE
    return Progress(progress.successes, failures, status)


def progress(terms: Terms, results: Iterable[object]) -> Progress:
    """The :class:`Progress` after ``results`` (booleans, met or not, in order); the results
    after the mission stopped taking them are refused (:class:`MissionError`)."""
    now = Progress()
    for met in results:
        now = record_result(terms, now, bool(met))
    return now


def replay(terms: Terms, results: str) -> list[Progress]:
    """The progress after each of ``results``, written ``"SFFS"`` (S met, F failed): the
    book's worked sequences (``rules/btq_missions.md`` TV-01, TV-03)."""
    out, now = [], Progress()
    for letter in results.replace(",", "").replace(" ", ""):
        if letter not in "SF":
            raise MissionError(f"{letter!r} is neither S nor F")
        now = record_result(terms, now, letter == "S")
        out.append(now)
    return out


def confirm_complete(progress: Progress) -> Progress:
    """The GM confirms that the story has come to its end: a mission whose challenges are met
    is completed (BtQ L1482); :class:`MissionError` otherwise."""
    if progress.status != REQUIREMENT_MET:
        raise MissionError("Only a mission whose challenges are all met can be completed.")
    return replace(progress, status=COMPLETED)


def fail(progress: Progress, *, abandoned: bool = False) -> Progress:
    """The narrative deadline passed (the GM says so), or the characters abandon the
    mission (BtQ L1484): it fails, or is abandoned; its failure cost is due either way
    (BtQ L1449). :class:`MissionError` for a mission already over."""
    if not progress.is_open:
        raise MissionError(f"The mission is already {STATUSES[progress.status].lower()}.")
    return replace(progress, status=ABANDONED if abandoned else FAILED)


def reduce_deadline(terms: Terms, progress: Progress) -> tuple[Terms, Progress]:
    """The optional Scar rule's black number card: one of the character's missions has its
    failed-challenge deadline reduced by 1 (BtQ L1319), which may fail it at once; never
    below 1."""
    terms = replace(terms, deadline_failures=max(1, terms.deadline_failures - 1))
    if progress.status == ACTIVE and progress.failures >= terms.deadline_failures:
        progress = replace(progress, status=FAILED)
    return terms, progress


# --- What a mission does to a character --------------------------------------------------


def applies_to(entry: Entry, *, character: int, officer: bool) -> bool:
    """Whether ``entry`` is for ``character`` (its id), an Officer (``officer``) or a Rating
    (BtQ L1447, L1517)."""
    if entry.scope == "character":
        return entry.character == character
    if entry.scope == "officers":
        return officer
    if entry.scope == "ratings":
        return not officer
    return True


OFFICER_WORDS = ("captain", "commander", "lieutenant", "midshipman", "master", "purser",
                 "surgeon", "gunner", "boatswain", "bosun", "carpenter", "chaplain",
                 "marine officer")
"""Rank words of the Officers and Warrant Officers (BtQ L262-280): everyone else is a
Rating. A Mate (Petty Officer) follows the setting ``petty_officer_tier`` (D7)."""


def is_officer(rank: str, *, petty_officer_tier: str = "warrant") -> bool:
    """Whether a character of ``rank`` (free text, "Lieutenant", "Gunner's Mate") counts among
    the Officers for a mission's reward (BtQ L262-280; D7 for Mates)."""
    words = rank.lower()
    if "mate" in words or "petty officer" in words:
        return petty_officer_tier == "warrant"
    return any(w in words for w in OFFICER_WORDS)


def apply_reward(entry: Entry, value: int, *, maximum: int | None = None) -> int:
    """The value of a Measure, skill, reputation, trait points or Wealth after reward
    ``entry`` (BtQ L1525-1532): ``+amount``, Wealth at most ``maximum`` (10). A heal takes a
    Dead state to Maimed; :class:`MissionError` if it is not Dead (nothing to heal)."""
    if entry.kind == "heal_dead":
        if value != DamageState.DEAD:
            raise MissionError("Only a Dead reputation or damage state can be healed this "
                               "way (it goes back to Maimed).")
        return int(DamageState.MAIMED)
    if entry.kind == "narrative":
        raise MissionError("A reward in the story changes no number.")
    after = value + entry.amount
    return min(after, maximum) if maximum is not None else after


def apply_failure(entry: Entry, value: int) -> int:
    """The value after failure ``entry`` (BtQ L1541-1545): a Measure, skill or reputation
    ``-amount`` but never below 1 (a skill at 0 cannot be chosen, ``rules/btq_characters.md``
    A25); Wealth ``-amount`` down to 0; a wound adds its level to the area's damage state
    (Injured + MAIMED is Dead: ``rules/btq_missions.md`` TV-04). :class:`MissionError` for a
    narrative entry or a skill at 0."""
    if entry.kind in WOUNDS:
        return int(min(DamageState.DEAD, value + WOUNDS[entry.kind]))
    if entry.kind == "wealth":
        return max(0, value - entry.amount)
    if entry.kind == "skill" and value <= 0:
        raise MissionError("A skill at 0 cannot be lowered (its minimum is 1).")
    if entry.kind in ("measure", "skill", "reputation"):
        return max(1, value - entry.amount)
    raise MissionError("A consequence in the story changes no number.")


def reputation_target(target: str) -> tuple[str, str, str] | None:
    """``(kind, descriptor, subject)`` of a reward's ``"personal:Loved by:Lady Pemberton"``,
    else ``None`` (the player names the reputation)."""
    parts = [p.strip() for p in target.split(":")]
    if len(parts) == 3 and parts[0] in ("personal", "institution") and all(parts[1:]):
        return parts[0], parts[1], parts[2]
    return None


# --- The book's missions -----------------------------------------------------------------


def terms_from_dict(data: dict) -> Terms:
    """:class:`Terms` from their JSON (:meth:`Terms.as_dict`); :class:`MissionError` for a
    bad shape (the rules are :func:`validate`'s)."""
    try:
        return Terms(
            name=str(data["name"]), kind=str(data.get("kind", "naval")),
            challenges_required=data["challenges_required"],
            deadline_failures=data.get("deadline_failures", data["challenges_required"]),
            deadline_narrative=str(data.get("deadline_narrative", "")),
            rewards=tuple(Entry.from_dict(e) for e in data.get("rewards", ())),
            failures=tuple(Entry.from_dict(e) for e in data.get("failures", ())),
            source=str(data.get("source", "")))
    except (KeyError, TypeError) as exc:
        raise MissionError(f"A mission needs {exc}.") from None


def sample_missions() -> dict[str, Terms]:
    """The book's missions (``rules/btq_missions.md`` §3.7), key -> :class:`Terms`: the
    three of the missions chapter and the promotion missions (BtQ L1456-1458, L1549-1561,
    L2163-2193), loadable into a campaign."""
    return {m["key"]: terms_from_dict(m) for m in _data("sample_missions.json")["missions"]}


@dataclass(frozen=True, slots=True)
class ShipReputation:
    """A ship's reputation (BtQ L770-779, L2344-2345): ``name``, ``value`` (cards), its own
    damage ``state``."""

    name: str
    value: int
    state: int = 0


SHIP_REPUTATION_POINTS = 5
"""The points of ship reputations a new ship takes (BtQ L770; ``rules/btq_characters.md``
TV-04). The ship trait Renowned Name adds one more +1 (BtQ L2344-2345)."""


def ship_reputation_cards(reputation: ShipReputation, *, gate_passed: bool = True) -> int:
    """The cards a ship reputation adds to the pool of a PC acting on the ship's behalf in a
    battle (``rules/btq_characters.md`` A22: one ship reputation instead of a personal one;
    no Measure caps it): its value, less 1 when Injured, less 3 when Maimed (once the Measure
    gate is passed, ``gate_passed``; 0 if not), and 0 when Dead (BtQ L1305-1329). For the
    naval engine to call when a PC adds one."""
    state = DamageState(reputation.state)
    if state == DamageState.DEAD or (state == DamageState.MAIMED and not gate_passed):
        return 0
    return max(0, reputation.value - state.penalty)


def ship_reputation_after_battle(state: int, *, winner: str | None) -> DamageState:
    """The damage state of a ship reputation used in a battle, after it: when the players'
    side lost (``winner == "enemy"``) it drops one level, Healthy to Injured to Maimed to
    Dead ("If you have included a Reputation in your card pool and you lost, that
    Reputation is INJURED...", BtQ L1241-1242; ``rules/DECISIONS.md`` D1); a won or drawn
    battle (``"pc"``, ``None``) leaves it as it was. A battle has no one best success of the
    winner, so it is one level in either reading of ``reputation_loss_mode``."""
    current = DamageState(state)
    if winner != "enemy" or current == DamageState.DEAD:
        return current
    return DamageState(current + 1)


@dataclass(frozen=True, slots=True)
class ReputationCap:
    """A reputation's standing against its Measure (D9): ``value`` stored, ``cap`` the
    Measure now, ``effective`` what tests use, ``warning`` the sheet's words or ``""``."""

    value: int
    cap: int
    effective: int
    warning: str = field(default="")


def reputation_cap(value: int, measure: int, measure_name: str) -> ReputationCap:
    """D9 (BtQ L114-115, L134-135): a reputation above its cap (Charm for a personal,
    Influence for an institution reputation) keeps its full value and counts as the cap in
    tests, with a warning; it comes back whole when the Measure rises again."""
    if value <= measure:
        return ReputationCap(value, measure, value)
    return ReputationCap(value, measure, measure,
                         f"{value} is above your {measure_name} of {measure}: it counts as "
                         f"{measure} in tests until your {measure_name} rises.")
