"""Character creation: the encounter engine ``"btq_creation"`` (:mod:`rules.engine`), the
nine steps of BtQ L224-1134 (``rules/btq_characters.md`` §2, its validation §2.10;
``rules/DECISIONS.md`` D5, D7, D8) as a state machine whose decisions are the player's and,
for approval and marked manual overrides, the GM's.

The steps (:data:`STEPS`) and the decisions the player makes in them:

1. Concept (``creation.concept``): the concept, the position (its rank category). The GM set
   the number of experiences in the setup (L255-258).
2. Personal Station (``creation.station``, ``creation.allocation``): nationality, religion,
   social class and Wealth swapped for skill points (L394-395); then the class's Measure and
   skill points (L387-442).
3. Life before Recruitment (``creation.life_count``, then per experience ``creation.draw``,
   ``creation.booty_joker`` for a booty Joker, ``creation.experience``): how many of the
   experiences were before the navy (L452); the experience card and the booty card turned
   from the player's own deck, each from a whole, shuffled deck (L453-460; TV-06 turns KH
   twice); what the player takes from them and the Experience of Life point (L458). A
   booty's skill points go to one skill, or under the setting ``booty_skill_points =
   "split"`` one to each skill the player names (``rules/btq_characters.md`` A19).
4. The Ship (``creation.ship``): the ship the group serves on. The ship itself is made by
   the group in its own engine, :mod:`rules.btq.ship_creation`.
5. Recruitment and Training (``creation.training``): profession and rank bundle (L817-925).
6. Naval Experiences: as step 3 with the naval booty table and the Experience of the Sea
   (L939-1021).
7. Traits (``creation.trait``, one take at a time): 10 points (L1025-1115).
8. Wealth (``creation.wealth``): the sum of L1119-1127, shown to be accepted.
9. Final details (``creation.details``): name (surnames of Appendix VII drawn as
   suggestions, L3667-3779), age, appearance, personality, links (L1129-1134). Done, the
   draft waits for the GM.

The GM: ``creation.review`` once submitted (approve, or send back to a step with a reason;
the choices of that step and of every later one are made again, the cards turned stay
turned: no draw is ever taken again), and ``creation.override`` at any time before approval
(a value set by hand with a reason, marked on the sheet: the book's own O'Toole breaks the
Fisherman's Measure points, TV-01). Jokers by D5: on an experience draw an Ace; on the booty
table any row the player chooses.

Setup (:func:`validate_setup`)::

    {"player": participant id ("user:7"), "player_name": str, "experiences": 0-12,
     "ship_name": str (the campaign's ship, for the [Your Ship] reputation),
     "ships": [{"key": str, "name": str}] (the campaign's ships the player may choose at
     Step 4; none: the ship's name is typed), "settings": {}}

State::

    {"setup", "status": "drafting" | "submitted" | "approved",
     "record": {step data, see _fresh_record}, "overrides": [{"target", "value", "was",
     "reason"}], "returned": null | {"step", "reason"}, "gm_notes": str,
     "sheet": the character as the steps so far make it (:func:`build_sheet`)}

Events: ``creation.begun``, ``creation.step`` (a step's choices), ``creation.draw`` (cards
turned), ``creation.surnames`` (names drawn), ``creation.submitted``, ``creation.override``,
``creation.returned``, ``creation.approved``. GM notes are in ``gm_data`` only.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources
from typing import Any

from rules.btq.characters import MEASURES, SKILLS
from rules.btq.personal_combat import WEAPONS, weapon_named
from rules.btq.settings import resolve, upgraded
from rules.btq.traits import (
    TRAIT_POINTS,
    TRAITS,
    TraitError,
    meets_prerequisites,
    reputation_grants,
    wealth_bonus,
)
from rules.cards import PLAYER_DECK, Card, Deck, card_label, parse_card
from rules.engine import (
    GM,
    Decision,
    Event,
    Field,
    FieldErrors,
    IllegalAction,
    Option,
    Outcome,
    Scenario,
    State,
    load_scenarios,
    register,
)
from rules.random import RandomSource

ENGINE_NAME = "btq_creation"

STEPS: tuple[tuple[str, str], ...] = (
    ("concept", "Concept"),
    ("station", "Personal Station"),
    ("life", "Life before Recruitment"),
    ("ship", "The Ship"),
    ("training", "Recruitment and Training"),
    ("naval", "Naval Experiences"),
    ("traits", "Traits"),
    ("wealth", "Wealth"),
    ("details", "Final details"),
)
"""The nine steps in the book's order (BtQ L224-245)."""
STEP_KEYS = tuple(key for key, _ in STEPS)

MAX_EXPERIENCES = 12
SURNAME_SUGGESTIONS = 6
"""How many surnames of Appendix VII the final step draws as suggestions."""


@cache
def data() -> dict:
    """The creation tables (``rules/btq/data/creation.json``): social classes, positions,
    naval professions, nationalities, religions; and ``surnames`` (Appendix VII,
    ``rules/btq/data/surnames.json``, nationality -> names). Read once. The traits are
    ``rules.btq.traits.TRAITS``."""
    root = resources.files("rules.btq").joinpath("data")
    tables = json.loads(root.joinpath("creation.json").read_text(encoding="utf-8"))
    tables["surnames"] = json.loads(root.joinpath("surnames.json").read_text(encoding="utf-8"))
    return tables


@cache
def captains() -> dict[str, dict]:
    """The template Captains of Appendix IV by key (``rules/btq/data/captains.json``; BtQ
    L3593-3647): NPCs the creation limits do not bind (Dodds' traits cost 11)."""
    root = resources.files("rules.btq").joinpath("data")
    rows = json.loads(root.joinpath("captains.json").read_text(encoding="utf-8"))["captains"]
    return {row["key"]: row for row in rows}


def captain_sheet(key: str, ship_name: str = "") -> dict:
    """A template Captain as a creation sheet (the shape of :func:`build_sheet`), "(ship)"
    replaced by ``ship_name`` (the book's "(insert ship)"); ``KeyError`` for an unknown key."""
    row = captains()[key]
    ship = ship_subject(ship_name) if ship_name else "his ship"
    return {
        "name": f"Captain {row['name']}", "position_title": "Post Captain",
        "concept": f"“{row['nickname']}”, a template Captain of the book",
        "nationality": row["nationality"], "religion": row["religion"],
        "social_class": row["social_class"], "measures": dict(row["measures"]),
        "skills": dict(row["skills"]), "professions": {}, "wealth": row["wealth"],
        "reputations": [{**r, "subject": r["subject"].replace("(ship)", ship)}
                        for r in row["reputations"]],
        "traits": [{**t, "name": TRAITS[t["key"]].name,
                    "cost": TRAITS[t["key"]].cost * t["times"]} for t in row["traits"]],
        "items": [dict(i) for i in row["items"]], "overridden": {},
    }


def _by_key(table: str) -> dict[str, dict]:
    return {row["key"]: row for row in data()[table]}


def classes() -> dict[str, dict]:
    """Social classes by key (BtQ L397-442): ``wealth``, ``measure_points``,
    ``skill_points``, ``skills`` (the only ones class points may buy), ``literate``,
    ``ratings_only``."""
    return _by_key("classes")


def positions() -> dict[str, dict]:
    """Positions by key (BtQ L260-289, L894-910): ``category`` (officer, warrant, petty,
    rating), the rank bundle's ``measures``, ``skills``, ``free_skills``, ``reputations``."""
    return _by_key("positions")


def professions() -> dict[str, dict]:
    """Naval professions by key (BtQ L821-892): three ``skills`` +1 each, and the
    ``profession`` speciality their Profession skill names, if any."""
    return _by_key("professions")


def nationalities() -> dict[str, dict]:
    """Nationalities by key (BtQ L310-354): ``english`` whether they speak English (else
    Second Language is required, L304-305; ``rules/btq_characters.md`` A21), ``surnames``
    the Appendix VII list their names come from."""
    return _by_key("nationalities")


def religions() -> dict[str, dict]:
    """Religions by key (BtQ L361-380); no effect on the numbers."""
    return _by_key("religions")


# --- cards ------------------------------------------------------------------------------------

BOOTY_ROWS = tuple(f"{suit}{cls}" for suit in "DHSC" for cls in ("number", "face", "ace"))
"""The booty table's rows as ``"<suit><class>"`` (``"Hface"``): what a booty Joker may be
(D5; BtQ L534, L1021)."""


def card_class(card: Card) -> str:
    """``"number"`` (2-10), ``"face"`` (J, Q, K), ``"ace"`` or ``"joker"`` (BtQ L453-455)."""
    if card.is_joker:
        return "joker"
    if card.rank == 14:
        return "ace"
    return "face" if card.rank >= 11 else "number"


def experience_gain(card: Card) -> tuple[bool, bool]:
    """``(skill, measure)``: what an experience card gives. Number +1 skill, Face +1 Measure,
    Ace both; a Joker counts as an Ace (BtQ L453-455, L944-946; D5)."""
    cls = card_class(card)
    return cls in ("number", "ace", "joker"), cls in ("face", "ace", "joker")


def booty_row(card: Card, joker_row: str | None) -> str:
    """The booty table row of ``card`` (a Joker: the row the player chose)."""
    if card.is_joker:
        return joker_row or ""
    return f"{card.suit}{card_class(card)}"


_COUNT = {"number": 1, "face": 2, "ace": 3}


def booty_meaning(row: str, phase: str, settings: dict) -> dict:
    """What a booty row gives (BtQ L484-534 before the navy, L971-1021 at sea):
    ``{"kind": "wealth_or_skill" | "reputations" | "item", "amount", "rep_kind", "item",
    "text"}``. The Spade Ace's "three Personal" is read as Institution unless the
    ``spade_ace_booty`` setting honours the print (``rules/btq_characters.md`` A12); a naval
    Clubs Face is a special weapon, not an important item (L1007-1017)."""
    suit, cls = row[0], row[1:]
    n = _COUNT[cls]
    if suit == "D":
        return {"kind": "wealth_or_skill", "amount": n,
                "text": f"+{n} Wealth or {n} skill point{'s' if n > 1 else ''}"}
    if suit in "HS":
        rep_kind = "personal" if suit == "H" else "institution"
        if suit == "S" and cls == "ace" and settings["spade_ace_booty"] == "personal":
            rep_kind = "personal"
        which = ("an" if rep_kind == "institution" else "a") if n == 1 else (
            "two" if n == 2 else "three")
        plural = "" if n == 1 else "s"
        return {"kind": "reputations", "amount": n, "rep_kind": rep_kind,
                "text": f"+1 to {which} {rep_kind.capitalize()} reputation{plural}"}
    item = {"number": "curio", "face": "special_weapon" if phase == "naval" else
            "important_item", "ace": "priceless_item"}[cls]
    return {"kind": "item", "amount": 2 if cls == "ace" else 1, "item": item,
            "text": ITEM_TEXT[item]}


def item_target(words: str) -> tuple[str | None, str]:
    """What an item's "adds to" names: ``("skill", key)`` for a skill (its key or name, any
    case), ``("weapon", label)`` for a weapon of the Tools of the Navy ("Pistols": Pistol,
    BtQ L1584-1621), else ``(None, words)``, the person or body of a reputation."""
    wanted = words.strip().lower()
    for key, label in SKILLS.items():
        if wanted in (key, label.lower()):
            return "skill", key
    weapon = weapon_named(words)
    if weapon is not None:
        return "weapon", WEAPONS[weapon].label
    return None, words.strip()


ITEM_TEXT = {
    "curio": "a curio: +1 card to one skill when it applies",
    "important_item": "an important item: +1 to the reputation with its owner when used",
    "special_weapon": "a special weapon: +1 card to combat tests with it",
    "priceless_item": "a priceless item: +2 to a skill or a reputation when used",
}


def _row_label(row: str, phase: str, settings: dict) -> str:
    suit, cls = row[0], row[1:]
    names = {"D": "Diamonds", "H": "Hearts", "S": "Spades", "C": "Clubs"}
    return f"{names[suit]} {cls}: {booty_meaning(row, phase, settings)['text']}"


# --- setup ------------------------------------------------------------------------------------


def validate_setup(setup: dict) -> dict:
    """Check a setup (module docstring) and return it normalised, settings resolved.
    ``ValueError`` with the reason: an unknown key, a player that is the GM or empty, a
    number of experiences outside 0-12."""
    if not isinstance(setup, dict):
        raise ValueError("the setup of a character creation must be a mapping")
    unknown = sorted(set(setup) - {"player", "player_name", "experiences", "ship_name",
                                   "ships", "settings"})
    if unknown:
        raise ValueError(f"unknown setup key {unknown[0]!r}")
    player = setup.get("player")
    if not isinstance(player, str) or not player.strip() or player == GM:
        raise ValueError("player must be the participant id of the player, not the GM")
    experiences = setup.get("experiences", 5)
    if isinstance(experiences, bool) or not isinstance(experiences, int) or not (
            0 <= experiences <= MAX_EXPERIENCES):
        raise ValueError(f"experiences must be a whole number from 0 to {MAX_EXPERIENCES}")
    name = setup.get("player_name") or player
    ship = setup.get("ship_name") or ""
    if not isinstance(name, str) or not isinstance(ship, str):
        raise ValueError("player_name and ship_name are text")
    ships = setup.get("ships") or []
    if not isinstance(ships, list) or not all(
            isinstance(s, dict) and set(s) == {"key", "name"} and isinstance(s["key"], str)
            and isinstance(s["name"], str) and s["name"].strip() for s in ships):
        raise ValueError("ships must be a list of {key, name}, each with a name")
    settings = setup.get("settings") or {}
    if not isinstance(settings, dict):
        raise ValueError("settings must be a mapping of campaign settings")
    return {"player": player, "player_name": name.strip(), "experiences": experiences,
            "ship_name": ship.strip(),
            "ships": [{"key": s["key"], "name": s["name"].strip()} for s in ships],
            "settings": resolve(settings)}


def _fresh_record() -> dict:
    return {"concept": None, "station": None, "allocation": None, "life_count": None,
            "experiences": [], "ship": None, "training": None, "traits": [],
            "traits_done": False, "wealth_done": False, "surnames": [], "details": None}


# --- the sheet --------------------------------------------------------------------------------


class _Sheet:
    """The character being built: the fold of the recorded steps (:func:`build_sheet`)."""

    def __init__(self, setup: dict):
        self.setup = setup
        self.measures = {key: 1 for key in MEASURES}
        self.skills: dict[str, int] = {}
        self.professions: dict[str, int] = {}
        self.reputations: list[dict] = []
        self.items: list[dict] = []
        self.traits: list[dict] = []
        self.wealth = {"class": 0, "swapped": 0, "booty": 0, "traits": 0, "rank": 0}
        self.info: dict = {"ship_name": setup["ship_name"]}
        self.overridden: dict = {}

    def skill(self, key: str, amount: int = 1, profession: str | None = None) -> None:
        if key == "profession":
            name = (profession or "").strip()
            self.professions[name] = self.professions.get(name, 0) + amount
        else:
            self.skills[key] = self.skills.get(key, 0) + amount

    def reputation(self, kind: str, descriptor: str, subject: str, amount: int = 1) -> None:
        """+``amount`` to the reputation of that kind, descriptor and subject, or a new one:
        two +1s of one booty card to one reputation make a +2 (BtQ L960-961). A Personal and
        an Institution reputation of the same words are two, each capped by its own Measure
        (BtQ L134-135)."""
        key = (kind, descriptor.strip().lower(), subject.strip().lower())
        for rep in self.reputations:
            if (rep["kind"], rep["descriptor"].lower(), rep["subject"].lower()) == key:
                rep["value"] += amount
                return
        self.reputations.append({"kind": kind, "descriptor": descriptor.strip(),
                                 "subject": subject.strip(), "value": amount})

    def as_dict(self) -> dict:
        skills = {key: self.skills[key] for key in SKILLS if self.skills.get(key)}
        return {
            **self.info,
            "measures": dict(self.measures),
            "skills": skills,
            "professions": {k: v for k, v in self.professions.items() if v},
            "reputations": copy.deepcopy(self.reputations),
            "items": copy.deepcopy(self.items),
            "traits": copy.deepcopy(self.traits),
            "trait_points": sum(t["cost"] for t in self.traits),
            "wealth": max(0, sum(self.wealth.values())),
            "wealth_breakdown": dict(self.wealth),
            "overridden": copy.deepcopy(self.overridden),
        }


def _apply_gain(sheet: _Sheet, gain: dict) -> None:
    """One experience's choices onto the sheet (BtQ L453-460, L944-952)."""
    if gain.get("skill"):
        sheet.skill(gain["skill"], 1, gain.get("profession"))
    if gain.get("measure"):
        sheet.measures[gain["measure"]] += 1
    booty = gain["booty"]
    if booty["kind"] == "wealth":
        sheet.wealth["booty"] += booty["amount"]
    elif booty["kind"] == "skill":
        sheet.skill(booty["skill"], booty["amount"], booty.get("profession"))
        for other in booty.get("others", ()):
            sheet.skill(other["skill"], 1, other.get("profession"))
    elif booty["kind"] == "reputations":
        for rep in booty["reputations"]:
            sheet.reputation(rep["kind"], rep["descriptor"], rep["subject"])
    else:
        sheet.items.append(dict(booty["item"]))
    point = gain["point"]
    if point["kind"] == "skill":
        sheet.skill(point["skill"], 1, point.get("profession"))
    elif point["kind"] == "measure":
        sheet.measures[point["measure"]] += 1
    else:
        sheet.reputation(point["rep_kind"], point["descriptor"], point["subject"])


def _rank_wealth(position: dict, settings: dict) -> int:
    """Officer +2, Warrant Officer +1, rating 0 (BtQ L1126); a Midshipman by D8, a Petty
    Officer by D7."""
    if position["key"] == "midshipman":
        return 2 if settings["midshipman_wealth"] == "officer" else 1
    category = _category(position, settings)
    return {"officer": 2, "warrant": 1}.get(category, 0)


def _category(position: dict, settings: dict) -> str:
    """``officer``, ``warrant`` or ``rating``: a Petty Officer counts as the
    ``petty_officer_tier`` setting says (D7)."""
    if position["category"] == "petty":
        return "warrant" if settings["petty_officer_tier"] == "warrant" else "rating"
    return position["category"]


def build_sheet(setup: dict, record: dict, overrides: list[dict]) -> dict:
    """The character the recorded steps make (JSON; keys of ``_Sheet.as_dict``): every
    recorded choice folded in the book's order, then the GM's overrides (marked in
    ``overridden``). Recorded choices were checked when made."""
    sheet = _Sheet(setup)
    settings = setup["settings"]
    if record["concept"]:
        c = record["concept"]
        position = positions()[c["position"]]
        sheet.info.update(concept=c["concept"], position=c["position"],
                          position_title=c["title"],
                          rank_category=_category(position, settings))
    if record["station"]:
        st = record["station"]
        cls = classes()[st["social_class"]]
        sheet.info.update(nationality=st["nationality"], religion=st["religion"],
                          social_class=st["social_class"])
        sheet.wealth["class"] = cls["wealth"]
        sheet.wealth["swapped"] = -st["wealth_swapped"]
        if cls["literate"]:
            sheet.traits.append({"key": "read_and_write", "name": "Read and Write",
                                 "times": 1, "detail": "", "cost": 0})
    if record["allocation"]:
        for key, points in record["allocation"]["measures"].items():
            sheet.measures[key] += points
        for key, points in record["allocation"]["skills"].items():
            sheet.skill(key, points, record["allocation"].get("profession"))
    for exp in record["experiences"]:
        if exp["phase"] == "life" and exp.get("gain"):
            _apply_gain(sheet, exp["gain"])
    if record["ship"]:
        sheet.info["ship_name"] = record["ship"]["ship_name"]
        sheet.info["ship"] = record["ship"].get("ship")
    if record["training"]:
        _apply_training(sheet, record)
        for exp in record["experiences"]:
            if exp["phase"] == "naval" and exp.get("gain"):
                _apply_gain(sheet, exp["gain"])
    for take in record["traits"]:
        trait = TRAITS[take["key"]]
        sheet.traits.append({"key": take["key"], "name": trait.name, "times": take["times"],
                             "detail": take["detail"], "cost": trait.cost * take["times"]})
        sheet.wealth["traits"] += wealth_bonus({take["key"]: take["times"]})
        for rep in take["reputations"]:
            sheet.reputation(rep["kind"], rep["descriptor"], rep["subject"], rep["value"])
    if record["details"]:
        sheet.info.update(record["details"])
    for override in overrides:
        _override_onto(sheet, override)
    return sheet.as_dict()


def _apply_training(sheet: _Sheet, record: dict) -> None:
    """Profession and rank bundle (BtQ L821-910)."""
    t = record["training"]
    profession = professions()[t["profession"]]
    for key in profession["skills"]:
        sheet.skill(key, 1, profession.get("profession"))
    position = positions()[record["concept"]["position"]]
    for key in position["measures"] + t.get("measures", []):
        sheet.measures[key] += 1
    for key in position["skills"]:
        sheet.skill(key, 1, t.get("bundle_profession"))
    for key in t["free"]:
        sheet.skill(key, 1, t.get("free_profession"))
    sheet.reputation("institution", t["descriptor_group"], position["reputations"][0])
    sheet.reputation("institution", t["descriptor_ship"], ship_subject(sheet.info["ship_name"]))
    if record["traits_done"]:  # Step 8 adds the rank's Wealth (BtQ L1126; TV-05 shows 1)
        sheet.wealth["rank"] = _rank_wealth(position, sheet.setup["settings"])


def ship_subject(name: str) -> str:
    """The ship as a reputation's subject: "the Hermes" (BtQ L913-914)."""
    return name if name.lower().startswith(("the ", "hms ")) else f"the {name}"


def override_targets(sheet: dict) -> dict[str, str]:
    """What the GM may set by hand: ``"measure:guts"``, ``"skill:<key>"``,
    ``"profession:<name>"``, ``"wealth"`` -> label."""
    targets = {f"measure:{k}": v for k, v in MEASURES.items()}
    targets.update({f"skill:{k}": v for k, v in SKILLS.items() if k != "profession"})
    targets.update({f"profession:{name}": f"Profession ({name})"
                    for name in sheet.get("professions", {})})
    targets["wealth"] = "Wealth"
    return targets


def _override_onto(sheet: _Sheet, override: dict) -> None:
    """An override moves its value by what the GM changed (``value - was`` when set), so
    gains of later steps still count on top of it."""
    target, delta = override["target"], override["value"] - override["was"]
    if target == "wealth":
        sheet.wealth["override"] = sheet.wealth.get("override", 0) + delta
    else:
        group, key = target.split(":", 1)
        store = {"measure": sheet.measures, "skill": sheet.skills,
                 "profession": sheet.professions}[group]
        store[key] = store.get(key, 1 if group == "measure" else 0) + delta
    sheet.overridden[target] = {"by": delta, "reason": override["reason"]}


SCALE_TOP = 6
"""The top of the book's scale for a Measure or a skill: "6 or higher reflect a real
dominant area" / "a real area of expertise" (BtQ L84, L177). The book sets no maximum
(``rules/btq_characters.md`` §1.1); none of its characters, the template Captains among them
(BtQ L3593-3647, at most 5), starts above it."""


def rating_warnings(measures: dict[str, int], skills: dict[str, int]) -> list[str]:
    """A warning for each Measure or skill of a starting character above :data:`SCALE_TOP`,
    in the order of :data:`MEASURES` and :data:`SKILLS`: not refused (the book states no
    maximum, BtQ L97, L171: they grow only through creation's steps), but more than any of
    the book's characters has, so likely a slip ("Awareness 11"). ``measures`` and ``skills``
    by key; unknown keys are ignored."""
    out = []
    for names, values in ((MEASURES, measures), (SKILLS, skills)):
        for key, label in names.items():
            value = values.get(key, 0)
            if isinstance(value, int) and value > SCALE_TOP:
                out.append(f"{label} {value} is above {SCALE_TOP}, the top of the book's "
                           f"scale (a real area of expertise): no character of the book "
                           f"starts so high. Check it is meant.")
    return out


def _cap_errors(sheet: dict) -> list[str]:
    """Reputations above their cap, Charm for a personal, Influence for an institution one
    (BtQ L134-135; checked after every step, §2.10)."""
    errors = []
    for rep in sheet["reputations"]:
        measure = "charm" if rep["kind"] == "personal" else "influence"
        cap = sheet["measures"][measure]
        if rep["value"] > cap:
            errors.append(f"{rep['descriptor']} {rep['subject']} +{rep['value']} is above its "
                          f"cap, your {MEASURES[measure]} of {cap}.")
    return errors


# --- decisions --------------------------------------------------------------------------------


def _opts(table: dict[str, dict]) -> tuple[Option, ...]:
    return tuple(Option(k, row["name"]) for k, row in table.items())


_SKILL_OPTIONS = tuple(Option(k, v) for k, v in SKILLS.items())
_MEASURE_OPTIONS = tuple(Option(k, v) for k, v in MEASURES.items())
_REP_KINDS = (Option("personal", "Personal"), Option("institution", "Institution"))
CURIO_TARGETS = (*SKILLS.values(), *(weapon.label for weapon in WEAPONS.values()))
"""What a curio may add its card to, as the form offers it: every skill and every weapon of
the Tools of the Navy by name (BtQ L522-524, L1584-1621); :func:`item_target` takes any of
them in any case."""


def _skill_field(name: str, label: str, required: bool = False,
                 options: tuple[Option, ...] = _SKILL_OPTIONS, **kw: Any) -> Field:
    return Field(name, label, "choice", options, required=required, **kw)


def _text(name: str, label: str, **kw: Any) -> Field:
    return Field(name, label, "text", **kw)


def _decision(setup: dict, kind: str, prompt: str, fields: tuple[Field, ...]) -> Decision:
    defaults = {f.name: f.default for f in fields if f.default is not None}
    return Decision(setup["player"], kind, prompt, (), json.dumps(defaults), fields)


def _rep_suggestions(sheet: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
    reps = sheet["reputations"]
    return (tuple(dict.fromkeys(r["descriptor"] for r in reps)),
            tuple(dict.fromkeys(r["subject"] for r in reps)))


def _profession_field(name: str, label: str, sheet: dict) -> Field:
    return _text(name, label, suggestions=tuple(sheet["professions"]),
                 help="The trade of a Profession skill (Fisherman, Mapmaker).")


def _concept_decision(setup: dict) -> Decision:
    titles = tuple(t for p in positions().values() for t in p["examples"])
    return _decision(setup, "creation.concept", "Your concept and your position aboard", (
        _text("concept", "Concept", required=True, help="One sentence: who is he?"),
        Field("position", "Position", "choice", _opts(positions()), required=True,
              help="Officers, Warrant Officers (Ward Room, Standing, Petty Officers) or "
                   "Ratings."),
        _text("title", "Title aboard", suggestions=titles,
              help="As the crew calls you: Ship's Master, Gunner, Able Seaman."),
    ))


def _station_decision(setup: dict) -> Decision:
    return _decision(setup, "creation.station", "Your personal station", (
        Field("nationality", "Nationality", "choice", _opts(nationalities()), required=True),
        Field("religion", "Religion", "choice", _opts(religions()), required=True),
        Field("social_class", "Social class", "choice", _opts(classes()), required=True),
        Field("wealth_swapped", "Wealth taken as skill points instead", "int", minimum=0,
              maximum=3, default=0, help="The poorer option: each point of your class's "
                                         "Wealth given up is one more skill point."),
    ))


def _allocation_decision(setup: dict, record: dict) -> Decision:
    cls = classes()[record["station"]["social_class"]]
    skill_points = cls["skill_points"] + record["station"]["wealth_swapped"]
    fields = [Field(f"m_{k}", v, "int", minimum=0, maximum=cls["measure_points"], default=0)
              for k, v in MEASURES.items()]
    fields += [Field(f"s_{k}", SKILLS[k], "int", minimum=0, maximum=skill_points, default=0)
               for k in cls["skills"]]
    if "profession" in cls["skills"]:
        fields.append(_text("profession", "Profession: which trade?"))
    return _decision(setup, "creation.allocation",
                     f"Share out your {cls['name']}'s {cls['measure_points']} Measure points "
                     f"and {skill_points} skill points (class skills only)", tuple(fields))


def _life_count_decision(setup: dict) -> Decision:
    n = setup["experiences"]
    return _decision(setup, "creation.life_count", f"How many of your {n} experiences were "
                     "before you joined the navy?", (
                         Field("count", "Experiences before the navy", "int", minimum=0,
                               maximum=n, required=True, default=min(2, n)),))


def _phase_label(phase: str) -> str:
    return "before the navy" if phase == "life" else "in the navy"


def _draw_decision(setup: dict, number: int, phase: str) -> Decision:
    return Decision(setup["player"], "creation.draw",
                    f"Experience {number} ({_phase_label(phase)}): turn your experience card "
                    "and your booty card", (Option("draw", "Turn the cards"),), "draw")


def _joker_decision(setup: dict, number: int, phase: str) -> Decision:
    settings = setup["settings"]
    return Decision(setup["player"], "creation.booty_joker",
                    f"Experience {number}: your booty card is the Joker. Choose any row of "
                    "the booty table", tuple(Option(row, _row_label(row, phase, settings))
                                             for row in BOOTY_ROWS), BOOTY_ROWS[0])


def _experience_decision(setup: dict, exp: dict, number: int, sheet: dict) -> Decision:
    card = parse_card(exp["cards"][0])
    skill, measure = experience_gain(card)
    meaning = booty_meaning(booty_row(parse_card(exp["cards"][1]), exp.get("joker_row")),
                            exp["phase"], setup["settings"])
    descriptors, subjects = _rep_suggestions(sheet)
    fields: list[Field] = []
    if skill:
        fields += [_skill_field("skill", "Experience card: +1 to the skill", True),
                   _profession_field("profession", "…a Profession: which trade?", sheet)]
    if measure:
        fields.append(Field("measure", "Experience card: +1 to the Measure", "choice",
                            _MEASURE_OPTIONS, required=True))
    if meaning["kind"] == "wealth_or_skill":
        split = setup["settings"]["booty_skill_points"] == "split" and meaning["amount"] > 1
        fields += [Field("booty", f"Booty: {meaning['text']}", "choice",
                         (Option("wealth", "Wealth"), Option("skill", "Skill points")),
                         required=True),
                   _skill_field("booty_skill", "…the skill of the first point" if split
                                else "…the skill (all points to one skill)"),
                   _profession_field("booty_profession", "…a Profession: which trade?",
                                     sheet)]
        for i in range(2, meaning["amount"] + 1) if split else ():
            fields += [_skill_field(f"booty_skill{i}",
                                    f"…the skill of point {i} (none: the first point's)"),
                       _profession_field(f"booty_profession{i}",
                                         "…a Profession: which trade?", sheet)]
    elif meaning["kind"] == "reputations":
        kind = meaning["rep_kind"].capitalize()
        for i in range(1, meaning["amount"] + 1):
            fields += [_text(f"rep{i}_descriptor", f"Booty: {kind} reputation {i}, how",
                             required=True, suggestions=descriptors,
                             help="“Trusted by”, “Friend of”. The same reputation twice is "
                                  "+2 to it."),
                       _text(f"rep{i}_subject", f"…by whom ({kind.lower()})", required=True,
                             suggestions=subjects)]
    else:
        fields += [_text("item", f"Booty: {meaning['text']}. Its name", required=True),
                   _text("item_for", "…what it adds to" + (
                       " (a skill or a weapon)" if meaning["item"] == "curio" else ""),
                       required=True,
                       suggestions=CURIO_TARGETS if meaning["item"] == "curio"
                       else tuple(SKILLS.values()),
                       help="One of the skills or weapons offered." if meaning["item"] == "curio"
                       else "A skill, a weapon, or the person or body of a reputation."),
                   _text("item_when", "…only when (if it has a condition)",
                         help="“navigating the West Indies”: the curio applies only then.")]
    point = "Experience of Life" if exp["phase"] == "life" else "Experience of the Sea"
    fields += [
        Field("point", f"{point}: +1 to", "choice",
              (Option("skill", "a skill"), Option("measure", "a Measure"),
               Option("reputation", "a reputation (new or existing)")), required=True),
        _skill_field("point_skill", "…the skill"),
        _profession_field("point_profession", "…a Profession: which trade?", sheet),
        Field("point_measure", "…the Measure", "choice", _MEASURE_OPTIONS),
        Field("point_rep_kind", "…its kind (left empty: the one of these words you have)",
              "choice", _REP_KINDS),
        _text("point_descriptor", "…the reputation: how", suggestions=descriptors),
        _text("point_subject", "…by whom", suggestions=subjects),
    ]
    return _decision(setup, "creation.experience",
                     f"Experience {number} ({_phase_label(exp['phase'])}): "
                     f"{card_label(exp['cards'][0])} and {card_label(exp['cards'][1])}",
                     tuple(fields))


def _ship_decision(setup: dict) -> Decision:
    """Step 4: one of the campaign's ships, or its name typed when it has none yet (the
    group makes it with the GM, :mod:`rules.btq.ship_creation`)."""
    ships = setup.get("ships") or []
    if ships:
        field = Field("ship", "Ship", "choice", tuple(Option(s["key"], s["name"])
                                                      for s in ships), required=True,
                      default=ships[0]["key"])
    else:
        field = _text("ship_name", "Ship's name", required=True,
                      default=setup["ship_name"] or None,
                      help="The campaign has no ship yet: the GM adds the one you name.")
    return _decision(setup, "creation.ship", "Your ship: the group makes it with the GM. "
                     "Which ship do you serve on?", (field,))


def _training_decision(setup: dict, record: dict, sheet: dict) -> Decision:
    position = positions()[record["concept"]["position"]]
    excluded = set(position.get("excluded", ()))
    free_options = tuple(o for o in _SKILL_OPTIONS if o.key not in excluded)
    fields = [Field("profession", "Naval profession (+1 to its three skills)", "choice",
                    tuple(Option(k, f"{p['name']}: " + ", ".join(SKILLS[s] for s in p["skills"]))
                          for k, p in professions().items()), required=True)]
    if "profession" in position["skills"]:
        fields.append(_profession_field("bundle_profession",
                                        "Your rank's +1 Profession: which trade?", sheet))
    for i in range(1, position.get("free_measures", 0) + 1):
        fields.append(Field(f"measure_{i}", f"+1 to a Measure ({i})", "choice",
                            _MEASURE_OPTIONS, required=True))
    for i in range(1, position["free_skills"] + 1):
        fields.append(_skill_field(f"free_{i}", f"+1 to another skill ({i})", True,
                                   free_options))
    fields += [_profession_field("free_profession", "A free Profession: which trade?", sheet),
               _text("descriptor_group", f"Reputation with {position['reputations'][0]}: how",
                     required=True, default="Respected by"),
               _text("descriptor_ship", "Reputation with your ship: how", required=True,
                     default="Trusted by")]
    return _decision(setup, "creation.training",
                     f"Recruitment and training: your profession, and the {position['name']}'s "
                     "bundle", tuple(fields))


def _trait_decision(setup: dict, sheet: dict) -> Decision:
    spent = sheet["trait_points"]
    taken = {t["key"]: t["times"] for t in sheet["traits"]}
    options = [Option("done", "No more traits: go on")]
    if any(t["cost"] for t in sheet["traits"]):
        options.append(Option("undo", "Take back the last trait"))
    for key, trait in TRAITS.items():
        if trait.max_takes is not None and taken.get(key, 0) >= trait.max_takes:
            continue
        limit = "" if trait.max_takes == 1 else (
            f" (up to ×{trait.max_takes})" if trait.max_takes else " (repeatable)")
        options.append(Option(key, f"{trait.name} ({trait.cost}){limit}"))
    descriptors, subjects = _rep_suggestions(sheet)
    fields = (
        Field("trait", "Trait", "choice", tuple(options), required=True),
        Field("times", "Times taken", "int", minimum=1, maximum=3, default=1),
        _text("detail", "Detail", help="A Second Language's language, an Agitator's cause, "
                                       "why Lap of Luxury, the captain, officer, family "
                                       "member or contacts it names."),
        _text("rep1_descriptor", "Reputation it gives: how", suggestions=descriptors),
        _text("rep1_subject", "…by whom", suggestions=subjects),
        _text("rep2_descriptor", "A second reputation: how", suggestions=descriptors),
        _text("rep2_subject", "…by whom", suggestions=subjects),
    )
    return _decision(setup, "creation.trait", f"Traits: {spent} of {TRAIT_POINTS} points "
                     "spent", fields)


def _wealth_decision(setup: dict, sheet: dict) -> Decision:
    return Decision(setup["player"], "creation.wealth",
                    f"Your Wealth is {sheet['wealth']}: {wealth_text(sheet)}",
                    (Option("accept", "Accept"),), "accept")


def wealth_text(sheet: dict) -> str:
    """The Wealth sum in words (BtQ L1125-1126)."""
    w = sheet["wealth_breakdown"]
    parts = [f"class {w['class'] + w['swapped']}", f"booty {w['booty']}",
             f"traits {w['traits']}", f"rank {w['rank']}"]
    if w.get("override"):
        parts.append(f"set by the GM {w['override']:+d}")
    return " + ".join(parts)


def _details_decision(setup: dict, record: dict) -> Decision:
    return _decision(setup, "creation.details", "Final details: who is he?", (
        _text("name", "Name", required=True, suggestions=tuple(record["surnames"]),
              help="The suggestions are surnames drawn from the book's lists for your "
                   "nationality."),
        Field("age", "Age", "int", minimum=8, maximum=90),
        _text("appearance", "Appearance"),
        _text("personality", "Personality"),
        Field("links", "Links with the other characters", "textarea", max_length=2000),
    ))


def _review_decision(state: State) -> Decision:
    steps = tuple(Option(k, label) for k, label in STEPS)
    return Decision(GM, "creation.review", f"Approve {state['setup']['player_name']}'s "
                    "character, or send it back", (), json.dumps({"verdict": "approve"}), (
        Field("verdict", "Verdict", "choice", (Option("approve", "Approve into play"),
                                               Option("return", "Send back")), required=True,
              default="approve"),
        Field("step", "Send back to the step", "choice", steps),
        Field("reason", "Why (the player reads it)", "textarea", max_length=2000),
        Field("gm_notes", "GM notes (never shown to the player)", "textarea",
              max_length=4000, default=state["gm_notes"] or None),
    ))


def _override_decision(state: State) -> Decision:
    targets = override_targets(state["sheet"])
    return Decision(GM, "creation.override", "Set a value by hand (marked on the sheet)", (),
                    "{}", (
                        Field("target", "Value", "choice",
                              tuple(Option(k, v) for k, v in targets.items()),
                              required=True),
                        Field("value", "New value", "int", minimum=0, maximum=20,
                              required=True),
                        _text("reason", "Why (shown with the mark)", required=True),
                    ))


def _experience_index(record: dict) -> int | None:
    """The index of the experience waiting for a draw or choices, or ``None``."""
    for i, exp in enumerate(record["experiences"]):
        if exp.get("gain") is None:
            return i
    return None


def current_step(state: State) -> str | None:
    """The step the player is at (a key of :data:`STEPS`), ``None`` once submitted."""
    if state["status"] != "drafting":
        return None
    r = state["record"]
    n = state["setup"]["experiences"]
    if r["concept"] is None:
        return "concept"
    if r["station"] is None or r["allocation"] is None:
        return "station"
    life = r["life_count"]
    done = sum(1 for e in r["experiences"] if e.get("gain") is not None)
    if life is None or done < life:
        return "life"
    if r["ship"] is None:
        return "ship"
    if r["training"] is None:
        return "training"
    if done < n:
        return "naval"
    if not r["traits_done"]:
        return "traits"
    if not r["wealth_done"]:
        return "wealth"
    return "details"


def _player_decision(state: State) -> Decision | None:
    setup, r, sheet = state["setup"], state["record"], state["sheet"]
    step = current_step(state)
    if step is None:
        return None
    if step == "concept":
        return _concept_decision(setup)
    if step == "station":
        return (_station_decision(setup) if r["station"] is None
                else _allocation_decision(setup, r))
    if step in ("life", "naval"):
        if r["life_count"] is None:
            return _life_count_decision(setup)
        index = _experience_index(r)
        if index is None:
            number = len(r["experiences"]) + 1
            return _draw_decision(setup, number, step)
        exp = r["experiences"][index]
        if parse_card(exp["cards"][1]).is_joker and not exp.get("joker_row"):
            return _joker_decision(setup, index + 1, exp["phase"])
        return _experience_decision(setup, exp, index + 1, sheet)
    if step == "ship":
        return _ship_decision(setup)
    if step == "training":
        return _training_decision(setup, r, sheet)
    if step == "traits":
        return _trait_decision(setup, sheet)
    if step == "wealth":
        return _wealth_decision(setup, sheet)
    return _details_decision(setup, r)


# --- checking the player's choices ------------------------------------------------------------


def _need(values: dict, name: str, errors: dict[str, str], reason: str = "this is required."
          ) -> Any:
    if values.get(name) in (None, ""):
        errors[name] = reason
    return values.get(name)


def _profession_named(values: dict, skill_field: str, name_field: str, errors: dict) -> None:
    if values.get(skill_field) == "profession" and not values.get(name_field):
        errors[name_field] = "Name the trade of the Profession."


def _check_concept(values: dict, setup: dict) -> dict:
    position = positions()[values["position"]]
    return {"concept": values["concept"], "position": values["position"],
            "title": values["title"] or position["examples"][0]}


def _check_station(values: dict, setup: dict) -> dict:
    cls = classes()[values["social_class"]]
    errors = {}
    if values["wealth_swapped"] and values["wealth_swapped"] > cls["wealth"]:
        errors["wealth_swapped"] = (f"A {cls['name']} has {cls['wealth']} Wealth to give up, "
                                    "no more.")
    if errors:
        raise FieldErrors(errors)
    return {"nationality": values["nationality"], "religion": values["religion"],
            "social_class": values["social_class"],
            "wealth_swapped": values["wealth_swapped"] or 0}


def _check_class_and_position(record: dict, setup: dict) -> None:
    """Criminals, Slaves, Workers and Farmers serve only as ratings (BtQ L397-424; a Petty
    Officer by D7)."""
    cls = classes()[record["station"]["social_class"]]
    position = positions()[record["concept"]["position"]]
    if cls["ratings_only"] and _category(position, setup["settings"]) != "rating":
        raise FieldErrors({"social_class": f"A {cls['name']} may serve only as a rating, not "
                                           f"as a {position['name']}."})


def _check_allocation(values: dict, record: dict) -> dict:
    """Measure points spent = the class's; skill points = the class's plus the Wealth
    swapped, on class skills only (§2.10)."""
    cls = classes()[record["station"]["social_class"]]
    skill_points = cls["skill_points"] + record["station"]["wealth_swapped"]
    measures = {k: values[f"m_{k}"] or 0 for k in MEASURES}
    skills = {k: values[f"s_{k}"] or 0 for k in cls["skills"]}
    errors = {}
    if sum(measures.values()) != cls["measure_points"]:
        errors["m_guts"] = (f"Share out exactly {cls['measure_points']} Measure points; these "
                            f"make {sum(measures.values())}.")
    if sum(skills.values()) != skill_points:
        errors[f"s_{cls['skills'][0]}"] = (f"Share out exactly {skill_points} skill points; "
                                           f"these make {sum(skills.values())}.")
    if skills.get("profession") and not values.get("profession"):
        errors["profession"] = "Name the trade of the Profession."
    if errors:
        raise FieldErrors(errors)
    return {"measures": {k: v for k, v in measures.items() if v},
            "skills": {k: v for k, v in skills.items() if v},
            "profession": values.get("profession")}


def _rep(values: dict, prefix: str, kind: str, errors: dict) -> dict:
    descriptor = _need(values, f"{prefix}_descriptor", errors)
    subject = _need(values, f"{prefix}_subject", errors)
    return {"kind": kind, "descriptor": descriptor or "", "subject": subject or ""}


def _check_experience(values: dict, exp: dict, setup: dict, sheet: dict) -> dict:
    card = parse_card(exp["cards"][0])
    skill, measure = experience_gain(card)
    meaning = booty_meaning(booty_row(parse_card(exp["cards"][1]), exp.get("joker_row")),
                            exp["phase"], setup["settings"])
    errors: dict[str, str] = {}
    gain: dict = {"skill": values.get("skill") if skill else None,
                  "profession": values.get("profession"),
                  "measure": values.get("measure") if measure else None}
    _profession_named(values, "skill", "profession", errors)
    if meaning["kind"] == "wealth_or_skill":
        if values["booty"] == "wealth":
            gain["booty"] = {"kind": "wealth", "amount": meaning["amount"]}
        else:
            _need(values, "booty_skill", errors, "Choose the skill.")
            _profession_named(values, "booty_skill", "booty_profession", errors)
            gain["booty"] = {"kind": "skill", "amount": meaning["amount"],
                             "skill": values.get("booty_skill"),
                             "profession": values.get("booty_profession")}
            others = []
            for i in range(2, meaning["amount"] + 1):
                if values.get(f"booty_skill{i}"):
                    _profession_named(values, f"booty_skill{i}", f"booty_profession{i}",
                                      errors)
                    others.append({"skill": values[f"booty_skill{i}"],
                                   "profession": values.get(f"booty_profession{i}")})
            if others:  # only under booty_skill_points = "split" are there such fields
                gain["booty"]["amount"] -= len(others)
                gain["booty"]["others"] = others
    elif meaning["kind"] == "reputations":
        gain["booty"] = {"kind": "reputations", "reputations": [
            _rep(values, f"rep{i}", meaning["rep_kind"], errors)
            for i in range(1, meaning["amount"] + 1)]}
    else:
        target = (values.get("item_for") or "").strip()
        if meaning["item"] == "curio" and target and item_target(target)[0] is None:
            errors["item_for"] = ("A curio adds a card to one skill or weapon: name one of "
                                  f"{', '.join(CURIO_TARGETS)}.")
        gain["booty"] = {"kind": "item", "item": {
            "kind": meaning["item"], "name": values.get("item") or "",
            "bonus": meaning["amount"], "for": target,
            "when": (values.get("item_when") or "").strip()}}
    point = values["point"]
    if point == "skill":
        _need(values, "point_skill", errors, "Choose the skill.")
        _profession_named(values, "point_skill", "point_profession", errors)
        gain["point"] = {"kind": "skill", "skill": values.get("point_skill"),
                         "profession": values.get("point_profession")}
    elif point == "measure":
        _need(values, "point_measure", errors, "Choose the Measure.")
        gain["point"] = {"kind": "measure", "measure": values.get("point_measure")}
    else:
        descriptor = _need(values, "point_descriptor", errors, "Say how (“Trusted by”).")
        subject = _need(values, "point_subject", errors, "Say by whom.")
        # an existing reputation of these words, of the kind chosen if one is
        existing = [r for r in sheet["reputations"]
                    if (r["descriptor"].lower(), r["subject"].lower()) ==
                    ((descriptor or "").lower(), (subject or "").lower())
                    and values.get("point_rep_kind") in (None, "", r["kind"])]
        kind = values.get("point_rep_kind") or (existing[0]["kind"] if existing else None)
        if not kind and not errors:
            errors["point_rep_kind"] = "A new reputation is Personal or Institution."
        gain["point"] = {"kind": "reputation", "rep_kind": kind, "descriptor": descriptor,
                         "subject": subject}
    if errors:
        raise FieldErrors(errors)
    return gain


def _check_training(values: dict, record: dict, sheet: dict) -> dict:
    position = positions()[record["concept"]["position"]]
    errors: dict[str, str] = {}
    free = [values[f"free_{i}"] for i in range(1, position["free_skills"] + 1)]
    if len(set(free)) != len(free):  # A27: distinct skills, bundle skills allowed
        errors["free_2"] = "Each free +1 goes to a different skill."
    if "profession" in free:
        _need(values, "free_profession", errors, "Name the trade of the free Profession.")
    if "profession" in position["skills"]:
        _need(values, "bundle_profession", errors, "Name the trade of your rank's Profession.")
    measures = [values[f"measure_{i}"] for i in range(1, position.get("free_measures", 0) + 1)]
    if len(set(measures)) != len(measures):
        errors["measure_2"] = "The two +1s go to two different Measures."
    if errors:
        raise FieldErrors(errors)
    return {"profession": values["profession"], "bundle_profession":
            values.get("bundle_profession"), "free": free, "free_profession":
            values.get("free_profession"), "measures": measures,
            "descriptor_group": values["descriptor_group"],
            "descriptor_ship": values["descriptor_ship"]}


def _check_trait(values: dict, setup: dict, record: dict, sheet: dict) -> dict | str:
    """One trait taken (or ``"done"``/``"undo"``): its cost within the 10 points, its take
    limit and positions; a non-English speaker must take Second Language before going on
    (BtQ L304-305, L1025-1115; §2.10)."""
    choice = values["trait"]
    if choice in ("done", "undo"):
        nationality = nationalities()[record["station"]["nationality"]]
        if choice == "done" and not nationality["english"] and not any(
                t["key"] == "second_language" for t in sheet["traits"]):
            raise FieldErrors({"trait": f"A character of {nationality['name']} nationality "
                                        "must take Second Language to speak English."})
        if choice == "undo" and not record["traits"]:
            raise FieldErrors({"trait": "There is no trait to take back."})
        return choice
    trait = TRAITS[choice]
    times = values["times"] or 1
    errors: dict[str, str] = {}
    taken = sum(t["times"] for t in sheet["traits"] if t["key"] == choice)
    if choice == "read_and_write" and taken:
        errors["trait"] = "Your class already gives you Read and Write, free."
    elif trait.max_takes is not None and taken + times > trait.max_takes:
        errors["times"] = f"{trait.name} can be taken {trait.max_takes} time(s) at most."
    elif trait.max_takes is None and times != 1:
        errors["times"] = f"Take {trait.name} once at a time, each with its detail."
    cost = trait.cost * times
    if sheet["trait_points"] + cost > TRAIT_POINTS:
        errors["trait"] = (f"{trait.name} costs {cost}: only "
                           f"{TRAIT_POINTS - sheet['trait_points']} of your {TRAIT_POINTS} "
                           "points are left.")
    if not meets_prerequisites(choice, _trait_rank(record["concept"]["position"])):
        errors["trait"] = f"{trait.name} is for officers and Ward Room Warrant Officers."
    detail = (values.get("detail") or "").strip()
    if trait.parameter and not detail and any(
            g["reputation"]["subject"] == "{parameter}" for g in trait.effects_of("reputation")):
        detail = (values.get("rep1_subject") or "").strip()  # the named captain, as a subject
    if trait.parameter and not detail:
        errors["detail"] = f"Say the {trait.parameter}."
    wordings = [{"descriptor": values.get(f"rep{i}_descriptor"),
                 "subject": values.get(f"rep{i}_subject")} for i in (1, 2)]
    try:
        reps = [{**rep, "value": rep["value"] * times}
                for rep in reputation_grants(choice, detail, wordings)]
    except TraitError as exc:
        field = "detail" if exc.field == "parameter" else f"rep{exc.index + 1}_{exc.field}"
        errors.setdefault(field, str(exc))
    if errors:
        raise FieldErrors(errors)
    return {"key": choice, "times": times, "detail": detail, "reputations": reps}


_TRAIT_RANKS = {"wardroom_officer": "wardroom", "standing_officer": "standing"}


def _trait_rank(position: str) -> str:
    """A position's rank category as the traits' prerequisites name them (``officer``,
    ``wardroom``, ``standing``, ``petty``, ``rating``; BtQ L260-289, L1052)."""
    return _TRAIT_RANKS.get(position, positions()[position]["category"])


# --- the engine -------------------------------------------------------------------------------


def _event(kind: str, text: str, data: dict | None = None, **kw: Any) -> Event:
    return Event(kind, text, data or {}, **kw)


def _name(setup: dict) -> str:
    return setup["player_name"] or "The player"


def _turn(source: RandomSource, purpose: str) -> Card:
    """One card from the player's own deck, whole and shuffled before each draw (BtQ L45,
    L453, L460; TV-06 turns KH twice in a row)."""
    return source.draw(Deck(PLAYER_DECK, "player"), 1, purpose=purpose)[0]


def story_prompt(card: Card, phase: str) -> str:
    """Appendix I (before the navy) or II (at sea) for an experience card: a prompt for the
    story only, the rules of §2 decide what the card gives (``rules/btq_characters.md``
    A11; BtQ L3462-3566). A Joker: any row."""
    if card.is_joker:
        return "any story you like"
    table = data()["appendix_i" if phase == "life" else "appendix_ii"]
    return table[card.suit][card_class(card)]


def _draw_text(setup: dict, number: int, phase: str, cards: list[Card]) -> str:
    exp, booty = cards
    skill, measure = experience_gain(exp)
    gives = ("+1 to a skill and +1 to a Measure" if skill and measure else
             "+1 to a skill" if skill else "+1 to a Measure")
    joker = " (a Joker counts as an Ace)" if exp.is_joker else ""
    if booty.is_joker:
        loot = "the Joker: any row of the booty table"
    else:
        loot = booty_meaning(booty_row(booty, None), phase, setup["settings"])["text"]
    return (f"Experience {number} ({_phase_label(phase)}): {_name(setup)} turns "
            f"{card_label(exp)}, {gives}{joker}; for booty {card_label(booty)}, {loot}. "
            f"For the story: {story_prompt(exp, phase)}.")


def _surnames(nationality: str) -> list[str]:
    return data()["surnames"][nationalities()[nationality]["surnames"]]


def _draw_surnames(record: dict, source: RandomSource) -> list[str]:
    """Surname suggestions drawn from Appendix VII for the character's nationality (one
    roll per name, recorded like every draw)."""
    names = _surnames(record["station"]["nationality"])
    picked: list[str] = []
    for _ in range(min(SURNAME_SUGGESTIONS, len(names))):
        face = source.roll(len(names), purpose="surname")[0]
        if names[face - 1] not in picked:
            picked.append(names[face - 1])
    return picked


def _summary_of(values: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in values.items() if v not in (None, "", [], {}))


class CreationEngine:
    """The ``btq_creation`` engine (:class:`rules.engine.Engine`): one character made in
    the book's nine steps (BtQ L224-1134); shapes and flow in :mod:`rules.btq.creation`."""

    name = ENGINE_NAME
    title = "Beat to Quarters: character creation"

    def upgrade(self, state: State) -> State:
        """:func:`rules.btq.settings.upgraded`: a stored state's settings completed."""
        return upgraded(state)

    def validate_setup(self, setup: dict) -> dict:
        """:func:`validate_setup`."""
        return validate_setup(setup)

    def start(self, setup: dict, source: RandomSource) -> tuple[State, list[Event]]:
        """A blank draft at the Concept step; nothing drawn."""
        setup = validate_setup(setup)
        state: State = {"setup": setup, "status": "drafting", "record": _fresh_record(),
                        "overrides": [], "returned": None, "gm_notes": ""}
        state["sheet"] = build_sheet(setup, state["record"], [])
        return state, [_event("creation.begun",
                              f"{_name(setup)} begins a character: "
                              f"{setup['experiences']} experiences, as the GM set.",
                              {"experiences": setup["experiences"]})]

    def participants(self, state: State) -> dict[str, str]:
        """The player, the one participant besides the GM."""
        return {state["setup"]["player"]: _name(state["setup"])}

    def pending(self, state: State) -> list[Decision]:
        """The player's decision of the current step (while drafting), the GM's review
        (once submitted) and the GM's override (until approved)."""
        if state["status"] == "approved":
            return []
        decisions = []
        mine = _player_decision(state)
        if mine is not None:
            decisions.append(mine)
            if mine.kind == "creation.details" and not state["record"]["surnames"]:
                decisions.append(Decision(
                    state["setup"]["player"], "creation.surnames", "Draw surnames from the "
                    "book's lists for your nationality, as suggestions",
                    (Option("draw", "Suggest names"),), "draw"))
        if state["status"] == "submitted":
            decisions.append(_review_decision(state))
        decisions.append(_override_decision(state))
        return decisions

    def default_choice(self, state: State, decision: Decision) -> str:
        """A choice the rules accept, so that :func:`rules.engine.play_out` makes a plain
        able seaman (Fisherman, English) without a human: points shared out in turn, every
        reputation a new one, no traits but what the nationality needs. A person's form
        starts from the fields' own defaults instead."""
        if not decision.fields:
            return decision.default
        values = _default_values(state, decision)
        return json.dumps(values if values is not None else json.loads(decision.default))

    def outcome(self, state: State) -> Outcome | None:
        """Once approved: ``data["character"]`` is the final sheet, ``data["gm_notes"]``."""
        if state["status"] != "approved":
            return None
        sheet = state["sheet"]
        return Outcome(None, "approved", f"{sheet.get('name', 'The character')} is approved "
                       "into play.", {"character": copy.deepcopy(sheet),
                                      "gm_notes": state["gm_notes"]})

    def view(self, state: State, participant: str) -> dict:
        """The GM sees all; anyone else the state without the GM notes."""
        view = copy.deepcopy(state)
        if participant != GM:
            view.pop("gm_notes", None)
        view["step"] = current_step(state)
        return view

    def scenarios(self) -> dict[str, Scenario]:
        """The book's O'Toole, built as the book builds him (TV-01 to TV-09,
        BtQ L443-1144): ``rules/btq/scenarios/creation/*.json``."""
        return load_scenarios("rules.btq", "scenarios/creation")

    # -- applying ------------------------------------------------------------------------------

    def apply(self, state: State, actor: str, choice: str, source: RandomSource
              ) -> tuple[State, list[Event]]:
        """Take ``actor``'s decision. Raises :class:`IllegalAction` (:class:`FieldErrors`
        per field for a typed step) with the state unchanged: not awaited from ``actor``,
        input the step's rules refuse, or a reputation above its cap afterwards."""
        if not any(d.actor == actor for d in self.pending(state)):
            if state["status"] == "approved":
                raise IllegalAction("This character is approved: nothing more to decide.")
            raise IllegalAction("It is not for you to decide now.")
        st = copy.deepcopy(state)
        kind = self._kind_for(state, actor, choice)
        decision = next(d for d in self.pending(state) if d.kind == kind and d.actor == actor)
        decision.check(choice)
        values = decision.parse(choice) if decision.fields else {}
        handler = getattr(self, "_on_" + kind.split(".", 1)[1])
        events = handler(st, values, choice, source)
        st["sheet"] = build_sheet(st["setup"], st["record"], st["overrides"])
        caps = _cap_errors(st["sheet"])
        if caps and kind != "creation.override":
            raise FieldErrors({"": " ".join(caps)})
        return st, events

    def _kind_for(self, state: State, actor: str, choice: str) -> str:
        """Which of ``actor``'s pending decisions ``choice`` answers: one of its options, or
        a JSON object of its fields (the GM's override is the one naming a ``target``); the
        first decision if none fits, to be refused with its own reason."""
        mine = [d for d in self.pending(state) if d.actor == actor]
        try:
            parsed = json.loads(choice) if isinstance(choice, str) else None
        except (json.JSONDecodeError, RecursionError):
            parsed = None
        for d in mine:
            if not d.fields and choice in {o.key for o in d.options}:
                return d.kind
            if d.fields and isinstance(parsed, dict) and set(parsed) <= {
                    f.name for f in d.fields} and ("target" in parsed) == (
                    d.kind == "creation.override"):
                return d.kind
        return mine[0].kind

    def _on_concept(self, st: State, values: dict[str, Any], choice: str,
                    source: RandomSource) -> list[Event]:
        st["record"]["concept"] = _check_concept(values, st["setup"])
        c = st["record"]["concept"]
        return [_event("creation.step", f"Concept: {c['concept']} ({c['title']}, "
                       f"{positions()[c['position']]['name']}).",
                       {"step": "concept", "values": c})]

    def _on_station(self, st: State, values: dict[str, Any], choice: str,
                    source: RandomSource) -> list[Event]:
        record = st["record"]
        record["station"] = _check_station(values, st["setup"])
        _check_class_and_position(record, st["setup"])
        s = record["station"]
        cls = classes()[s["social_class"]]
        nation = nationalities()[s["nationality"]]["name"]
        return [_event("creation.step", f"Personal Station: {nation}, "
                       f"{religions()[s['religion']]['name']}, {cls['name']}"
                       + (f", {s['wealth_swapped']} Wealth taken as skill points"
                          if s["wealth_swapped"] else "") + ".",
                       {"step": "station", "values": s})]

    def _on_allocation(self, st: State, values: dict[str, Any], choice: str,
                       source: RandomSource) -> list[Event]:
        record = st["record"]
        record["allocation"] = _check_allocation(values, record)
        a = record["allocation"]
        words = [f"{MEASURES[k]} +{v}" for k, v in a["measures"].items()]
        words += [(f"Profession ({a['profession']})" if k == "profession" else SKILLS[k])
                  + f" +{v}" for k, v in a["skills"].items()]
        return [_event("creation.step", "Class points: " + ", ".join(words) + ".",
                       {"step": "allocation", "values": a})]

    def _on_life_count(self, st: State, values: dict[str, Any], choice: str,
                       source: RandomSource) -> list[Event]:
        st["record"]["life_count"] = values["count"]
        n = st["setup"]["experiences"]
        return [_event("creation.step", f"{values['count']} of the {n} experiences were "
                       "before the navy.", {"step": "life_count", "count": values["count"]})]

    def _on_draw(self, st: State, values: dict[str, Any], choice: str,
                 source: RandomSource) -> list[Event]:
        record = st["record"]
        number = len(record["experiences"]) + 1
        phase = "life" if number <= record["life_count"] else "naval"
        cards = [_turn(source, f"experience {number} card"),
                 _turn(source, f"experience {number} booty")]
        record["experiences"].append({"phase": phase, "cards": [str(c) for c in cards],
                                      "joker_row": None, "gain": None})
        return [_event("creation.draw", _draw_text(st["setup"], number, phase, cards),
                       {"experience": number, "phase": phase,
                        "cards": [str(c) for c in cards]})]

    def _on_booty_joker(self, st: State, values: dict[str, Any], choice: str,
                        source: RandomSource) -> list[Event]:
        index = _experience_index(st["record"])
        assert index is not None  # the decision is offered for an experience waiting
        exp = st["record"]["experiences"][index]
        exp["joker_row"] = choice
        return [_event("creation.step", f"Experience {index + 1}: the Joker is taken as "
                       f"{_row_label(choice, exp['phase'], st['setup']['settings'])}.",
                       {"step": "booty_joker", "experience": index + 1, "row": choice})]

    def _on_experience(self, st: State, values: dict[str, Any], choice: str,
                       source: RandomSource) -> list[Event]:
        index = _experience_index(st["record"])
        assert index is not None  # the decision is offered for an experience waiting
        exp = st["record"]["experiences"][index]
        exp["gain"] = _check_experience(values, exp, st["setup"], st["sheet"])
        return [_event("creation.step", f"Experience {index + 1}: "
                       + _gain_text(exp["gain"]) + ".",
                       {"step": "experience", "experience": index + 1, "gain": exp["gain"]})]

    def _on_ship(self, st: State, values: dict[str, Any], choice: str,
                 source: RandomSource) -> list[Event]:
        ships = {s["key"]: s["name"] for s in st["setup"].get("ships") or []}
        if ships:
            chosen = {"ship_name": ships[values["ship"]], "ship": values["ship"]}
        else:
            chosen = {"ship_name": values["ship_name"], "ship": None}
        st["record"]["ship"] = chosen
        return [_event("creation.step", f"{_name(st['setup'])} serves on the "
                       f"{chosen['ship_name']}.", {"step": "ship", "values": values})]

    def _on_training(self, st: State, values: dict[str, Any], choice: str,
                     source: RandomSource) -> list[Event]:
        st["record"]["training"] = _check_training(values, st["record"], st["sheet"])
        t = st["record"]["training"]
        return [_event("creation.step", f"Recruitment and training: "
                       f"{professions()[t['profession']]['name']}; free +1 to "
                       + ", ".join(SKILLS[k] for k in t["free"]) + ".",
                       {"step": "training", "values": t})]

    def _on_trait(self, st: State, values: dict[str, Any], choice: str,
                  source: RandomSource) -> list[Event]:
        record = st["record"]
        take = _check_trait(values, st["setup"], record, st["sheet"])
        if take == "done":
            record["traits_done"] = True
            return [_event("creation.step", f"Traits: {st['sheet']['trait_points']} points "
                           "spent.", {"step": "traits_done"})]
        if take == "undo":
            gone = record["traits"].pop()
            return [_event("creation.step", f"Trait taken back: {TRAITS[gone['key']].name}.",
                           {"step": "trait_undo", "trait": gone})]
        assert isinstance(take, dict)  # neither "done" nor "undo": a trait taken
        record["traits"].append(take)
        trait = TRAITS[take["key"]]
        times = f" ×{take['times']}" if take["times"] > 1 else ""
        detail = f" ({take['detail']})" if take["detail"] else ""
        cost = trait.cost * take["times"]
        return [_event("creation.step", f"Trait: {trait.name}{times}{detail}, "
                       f"{cost} point{'s' if cost != 1 else ''}.",
                       {"step": "trait", "trait": take})]

    def _on_wealth(self, st: State, values: dict[str, Any], choice: str,
                   source: RandomSource) -> list[Event]:
        record = st["record"]
        record["wealth_done"] = True
        events = [_event("creation.step", f"Wealth {st['sheet']['wealth']}: "
                         f"{wealth_text(st['sheet'])}.", {"step": "wealth"})]
        return events

    def _on_surnames(self, st: State, values: dict[str, Any], choice: str,
                     source: RandomSource) -> list[Event]:
        record = st["record"]
        record["surnames"] = _draw_surnames(record, source)
        return [_event("creation.surnames", "Surnames drawn from the book's lists: "
                       + ", ".join(record["surnames"]) + ".", {"surnames": record["surnames"]})]

    def _on_details(self, st: State, values: dict[str, Any], choice: str,
                    source: RandomSource) -> list[Event]:
        st["record"]["details"] = {k: v for k, v in values.items() if v not in (None, "")}
        st["status"] = "submitted"
        st["returned"] = None
        return [_event("creation.submitted", f"{values['name']} is finished and waits for "
                       "the GM's approval.", {"values": st["record"]["details"]})]

    def _on_review(self, st: State, values: dict[str, Any], choice: str,
                   source: RandomSource) -> list[Event]:
        errors: dict[str, str] = {}
        if values["verdict"] == "return":
            _need(values, "step", errors, "Choose the step to send it back to.")
            _need(values, "reason", errors, "Say why, for the player.")
        if errors:
            raise FieldErrors(errors)
        if values.get("gm_notes") is not None:  # left out: the notes stay as they were
            st["gm_notes"] = values["gm_notes"]
        notes = st["gm_notes"]
        gm_data = {"gm_notes": notes} if notes else {}
        if values["verdict"] == "approve":
            st["status"] = "approved"
            return [_event("creation.approved", f"The GM approves "
                           f"{st['sheet'].get('name', 'the character')} into play.",
                           gm_data=gm_data)]
        step = values["step"]
        _send_back(st["record"], step)
        st["status"] = "drafting"
        st["returned"] = {"step": step, "reason": values["reason"]}
        return [_event("creation.returned", f"The GM sends the character back to "
                       f"{dict(STEPS)[step]}: {values['reason']}",
                       {"step": step, "reason": values["reason"]}, gm_data=gm_data)]

    def _on_override(self, st: State, values: dict[str, Any], choice: str,
                     source: RandomSource) -> list[Event]:
        target = values["target"]
        if target.startswith("measure:") and values["value"] < 1:
            raise FieldErrors({"value": "A Measure is at least 1."})
        before = st["sheet"]
        was = (before["wealth"] if target == "wealth" else
               before[{"measure": "measures", "skill": "skills",
                       "profession": "professions"}[target.split(":")[0]]]
               .get(target.split(":", 1)[1], 0))
        st["overrides"].append({"target": target, "value": values["value"], "was": was,
                                "reason": values["reason"]})
        label = override_targets(before)[target]
        group, _, key = target.partition(":")
        warnings = rating_warnings({key: values["value"]} if group == "measure" else {},
                                   {key: values["value"]} if group == "skill" else {})
        return [_event("creation.override", f"The GM sets {label} to {values['value']} by "
                       f"hand (it was {was}): {values['reason']}"
                       + "".join(f" {w}" for w in warnings),
                       {"target": target, "value": values["value"], "was": was,
                        "reason": values["reason"]})]


def _default_values(state: State, decision: Decision) -> dict | None:
    """The default policy's answer to a typed decision (:meth:`CreationEngine.default_choice`);
    ``None``: the fields' defaults will do."""
    record, sheet = state["record"], state["sheet"]
    kind = decision.kind
    names = {f.name for f in decision.fields}
    if kind == "creation.concept":
        return {"concept": "A hand before the mast", "position": "able_seaman"}
    if kind == "creation.station":
        return {"nationality": "english", "religion": "protestant",
                "social_class": "fisherman", "wealth_swapped": 0}
    if kind == "creation.allocation":
        cls = classes()[record["station"]["social_class"]]
        values: dict[str, Any] = {f"m_{k}": 0 for k in MEASURES} | \
            {f"s_{k}": 0 for k in cls["skills"]}
        keys = list(MEASURES)
        for i in range(cls["measure_points"]):
            values[f"m_{keys[i % 4]}"] += 1
        points = cls["skill_points"] + record["station"]["wealth_swapped"]
        for i in range(points):
            values[f"s_{cls['skills'][i % len(cls['skills'])]}"] += 1
        if "profession" in names:
            values["profession"] = "Fisherman"
        return values
    if kind == "creation.experience":
        n = len(record["experiences"])
        values = {"point": "skill", "point_skill": "awareness"}
        if "skill" in names:
            values["skill"] = "maritime"
        if "measure" in names:
            values["measure"] = "guts"
        if "booty" in names:
            values["booty"] = "wealth"
        for i in range(1, 4):
            if f"rep{i}_subject" in names:
                values[f"rep{i}_descriptor"] = "Known to"
                values[f"rep{i}_subject"] = f"a friend of experience {n}, no. {i}"
        if "item" in names:
            values.update(item="A keepsake", item_for="Awareness")
        return values
    if kind == "creation.ship":
        ships = state["setup"].get("ships") or []
        if ships:
            return {"ship": ships[0]["key"]}
        return {"ship_name": state["setup"]["ship_name"] or "Ship"}
    if kind == "creation.training":
        position = positions()[record["concept"]["position"]]
        free = [k for k in SKILLS if k not in position.get("excluded", ()) and
                k != "profession"][:position["free_skills"]]
        values = {"profession": "sailor", "descriptor_group": "Respected by",
                  "descriptor_ship": "Trusted by"}
        values.update({f"free_{i}": k for i, k in enumerate(free, start=1)})
        values.update({f"measure_{i}": k for i, k in enumerate(MEASURES, start=1)
                       if f"measure_{i}" in names})
        if "bundle_profession" in names:
            values["bundle_profession"] = "Sailmaker"
        return values
    if kind == "creation.trait":
        nationality = nationalities()[record["station"]["nationality"]]
        if not nationality["english"] and not any(t["key"] == "second_language"
                                                  for t in sheet["traits"]):
            return {"trait": "second_language", "detail": "English"}
        return {"trait": "done"}
    if kind == "creation.details":
        return {"name": (record["surnames"] or ["Smith"])[0]}
    return None


def _gain_text(gain: dict) -> str:
    parts = []
    if gain.get("skill"):
        parts.append(_skill_words(gain["skill"], gain.get("profession")) + " +1")
    if gain.get("measure"):
        parts.append(MEASURES[gain["measure"]] + " +1")
    booty = gain["booty"]
    if booty["kind"] == "wealth":
        parts.append(f"Wealth +{booty['amount']}")
    elif booty["kind"] == "skill":
        parts.append(_skill_words(booty["skill"], booty.get("profession"))
                     + f" +{booty['amount']}")
        parts += [_skill_words(o["skill"], o.get("profession")) + " +1"
                  for o in booty.get("others", ())]
    elif booty["kind"] == "reputations":
        parts += [_rep_words(r["kind"], r) for r in booty["reputations"]]
    else:
        parts.append(f"{booty['item']['name']} (+{booty['item']['bonus']} {booty['item']['for']})")
    point = gain["point"]
    if point["kind"] == "skill":
        parts.append(_skill_words(point["skill"], point.get("profession")) + " +1")
    elif point["kind"] == "measure":
        parts.append(MEASURES[point["measure"]] + " +1")
    else:
        parts.append(_rep_words(point["rep_kind"], point))
    return ", ".join(parts)


def _rep_words(kind: str, rep: dict) -> str:
    """A reputation's +1 as the book writes it, with its kind: "Personal: Friend of Captain
    Turner +1" (BtQ L961), so that a Personal and an Institution one of the same words are
    told apart."""
    return f"{kind.capitalize()}: {rep['descriptor']} {rep['subject']} +1"


def _skill_words(key: str, profession: str | None) -> str:
    return f"Profession ({profession})" if key == "profession" else SKILLS[key]


def _send_back(record: dict, step: str) -> None:
    """Clear the choices of ``step`` and every later step; the cards turned stay turned (no
    draw is taken again), and the number of experiences before the navy stays once a card
    is turned for them."""
    order = STEP_KEYS.index(step)
    later = set(STEP_KEYS[order:])
    if "concept" in later:
        record["concept"] = None
    if "station" in later:
        record["station"] = record["allocation"] = None
    for exp in record["experiences"]:
        if exp["phase"] in later:
            exp["gain"] = None
            exp["joker_row"] = None
    if "life" in later and not record["experiences"]:
        record["life_count"] = None
    if "ship" in later:
        record["ship"] = None
    if "training" in later:
        record["training"] = None
    if "traits" in later:
        record["traits"] = []
        record["traits_done"] = False
    if "wealth" in later:
        record["wealth_done"] = False
    record["details"] = None


ENGINE = register(CreationEngine())
