"""The 55 traits of *Beat to Quarters* as reference data, and their effects where the rules
use them (BtQ L1025-1115; ``rules/btq_characters.md`` §3, A1; ``rules/DECISIONS.md`` D9-D12).

The data is ``rules/btq/data/traits.json`` (one object per trait: ``key``, ``name``,
``category``, ``cost``, ``max_takes`` (``null``: no limit), ``source``, ``text``, ``effects``,
and optionally ``parameter``, what the player names with it, and ``prerequisites``). Each
effect is one of::

    {"pool": cards, "skills": [skill], "tags": [tag]}  # cards added to a matching pool
    {"pool": cards, "skill_setting": setting}          # the skill is a campaign setting's
    {"ship_pool": cards, "tags": [tag]}                # cards added to the ship's pool
    {"crew_pool": cards, "tags": [tag]}                # cards the others in the scene gain
    {"discipline_for_cards": n}                        # Discipline counted +n for cards received
    {"reputation": {"kind", "descriptor", "subject", "value"}}   # granted when taken
    {"wealth": n}                                      # Wealth added when taken
    {"capability": name}                               # a flag (swimming, a language)
    {"special": handler, "uses": "per_session" | "per_naval_mission"}

A pool effect applies to a test of one of its ``skills`` (any skill if none are listed) that
carries one of its ``tags`` (no tag needed if none are listed): the tags are what the GM says
the test involves (A1), ``"weapon:sword"``, ``"naval_combat"``, ``"grog"``, the vocabulary
:data:`TAGS`. Every take of a trait adds its cards again (Crackshot x3: +3). In a reputation
grant a ``descriptor`` or ``subject`` that is a list is the player's choice among them, ``null``
the player's own words, and ``"{parameter}"`` the trait's parameter (the named captain).

The pure functions here are what the card tests (``combat.card_tests``) and the naval battle
call: :func:`pool_modifiers` for a PC's own pool, :func:`ship_pool_modifiers` for the ship's
pool the PC serves, :func:`crew_modifiers` for what the others in the scene give,
:func:`discipline_for_cards` (Born for Battle). Damage traits are in :mod:`rules.btq.damage`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources

from rules.btq.characters import MEASURES, SKILLS
from rules.btq.settings import resolve
from rules.btq.tests import Modifier

CATEGORIES: dict[str, str] = {
    "personal": "Personal",
    "naval": "Naval",
    "social": "Social",
    "combat": "Combat",
    "professional": "Professional",
}
"""The five groups of traits, in the book's order (BtQ L1028, L1052, L1068, L1084, L1098)."""

TRAIT_POINTS = 10
"""Trait points a new character spends (BtQ L1025-1026)."""

_EFFECT_KINDS = ("pool", "ship_pool", "crew_pool", "discipline_for_cards", "reputation",
                 "wealth", "capability", "special")
_USES = ("per_session", "per_naval_mission")


class TraitError(ValueError):
    """An unknown trait, a trait taken more often than allowed, a missing parameter, or bad
    trait data; the message says which. ``field`` names the input at fault where there is
    one: ``"parameter"``, or ``"descriptor"``/``"subject"`` with ``index`` the reputation's
    place among the trait's grants (0, 1)."""

    def __init__(self, message: str, *, field: str | None = None, index: int = 0) -> None:
        super().__init__(message)
        self.field = field
        self.index = index


@dataclass(frozen=True, slots=True)
class Trait:
    """One trait as the book prints it; ``effects`` as in the module's docstring."""

    key: str
    name: str
    category: str
    cost: int
    max_takes: int | None
    source: str
    text: str
    effects: tuple[Mapping, ...]
    parameter: str | None = None
    prerequisites: Mapping | None = None

    def effects_of(self, kind: str) -> tuple[Mapping, ...]:
        """The effects of ``kind`` (``"pool"``, ``"reputation"``, ...)."""
        return tuple(e for e in self.effects if kind in e)

    @property
    def category_label(self) -> str:
        return CATEGORIES[self.category]

    @property
    def special(self) -> str | None:
        """The rule the trait changes beyond a pool (``"jack_tar"``, ``"cheat_death"``)."""
        found = self.effects_of("special")
        return found[0]["special"] if found else None

    def as_dict(self) -> dict:
        return {"key": self.key, "name": self.name, "category": self.category,
                "cost": self.cost, "max_takes": self.max_takes, "source": self.source,
                "text": self.text, "effects": [dict(e) for e in self.effects],
                "parameter": self.parameter,
                "prerequisites": None if self.prerequisites is None else dict(self.prerequisites)}


def _check(data: Mapping, where: str) -> Trait:
    try:
        trait = Trait(data["key"], data["name"], data["category"], data["cost"],
                      data["max_takes"], data["source"], data["text"], tuple(data["effects"]),
                      data.get("parameter"), data.get("prerequisites"))
    except KeyError as exc:
        raise TraitError(f"{where}: missing {exc.args[0]!r}") from None
    if trait.category not in CATEGORIES:
        raise TraitError(f"{where}: unknown category {trait.category!r}")
    if not isinstance(trait.cost, int) or trait.cost < 1:
        raise TraitError(f"{where}: the cost must be a whole number of points")
    for effect in trait.effects:
        kinds = [k for k in _EFFECT_KINDS if k in effect]
        if len(kinds) != 1:
            raise TraitError(f"{where}: an effect has one kind of {_EFFECT_KINDS}, not {effect}")
        unknown = [s for s in effect.get("skills", ()) if s not in SKILLS and s not in MEASURES]
        if unknown:
            raise TraitError(f"{where}: unknown skill {unknown[0]!r}")
        if effect.get("uses") not in (None, *_USES):
            raise TraitError(f"{where}: unknown use limit {effect['uses']!r}")
    return trait


def _load() -> dict[str, Trait]:
    text = resources.files("rules.btq").joinpath("data", "traits.json").read_text("utf-8")
    found = {}
    for i, data in enumerate(json.loads(text)["traits"]):
        trait = _check(data, f"traits.json trait {i + 1}")
        if trait.key in found:
            raise TraitError(f"traits.json: {trait.key!r} twice")
        found[trait.key] = trait
    return found


TRAITS: dict[str, Trait] = _load()
"""The 55 traits by key, in the book's order."""

TAGS: frozenset[str] = frozenset(
    tag for t in TRAITS.values() for e in t.effects for tag in e.get("tags", ()))
"""Every tag a trait's effect is triggered by: what a test may be said to involve (A1)."""


def trait(key: str) -> Trait:
    """The trait ``key``; :class:`TraitError` for an unknown one."""
    try:
        return TRAITS[key]
    except KeyError:
        raise TraitError(f"{key!r} is not a trait") from None


def check_takes(taken: Mapping[str, int]) -> dict[str, int]:
    """``taken`` (trait key -> times taken) checked: known traits, each taken at least once
    and at most its ``max_takes`` (BtQ L1060, L1084-1096). Returns it as a plain dict."""
    result = {}
    for key, times in taken.items():
        t = trait(key)
        if not isinstance(times, int) or isinstance(times, bool) or times < 1:
            raise TraitError(f"{t.name} must be taken a whole number of times, not {times!r}")
        if t.max_takes is not None and times > t.max_takes:
            limit = "once" if t.max_takes == 1 else f"{t.max_takes} times"
            raise TraitError(f"{t.name} may be taken {limit} at most, not {times}")
        result[key] = times
    return result


def cost(taken: Mapping[str, int], *, free: Iterable[str] = ()) -> int:
    """The trait points ``taken`` costs, the ``free`` traits (Read and Write for a literate
    social class, BtQ L1028) once each without cost."""
    taken = check_takes(taken)
    free = set(free)
    return sum(TRAITS[k].cost * (n - (k in free)) for k, n in taken.items())


def meets_prerequisites(key: str, rank_category: str | None) -> bool:
    """Whether a character of ``rank_category`` (``"officer"``, ``"wardroom"``,
    ``"standing"``, ``"petty"``, ``"rating"``) may take trait ``key`` (At Home in the Ward
    Room: Officers and Ward Room Warrant Officers only, BtQ L1052)."""
    needs = trait(key).prerequisites or {}
    allowed = needs.get("rank_categories")
    return allowed is None or rank_category in allowed


def _applies(effect: Mapping, skill: str | None, tags: frozenset) -> bool:
    skills = effect.get("skills")
    wanted = effect.get("tags")
    return (not skills or skill in skills) and (not wanted or bool(tags & set(wanted)))


def _modifiers(taken: Mapping[str, int], kind: str, skill: str | None, tags, settings
               ) -> tuple[Modifier, ...]:
    tags = frozenset(tags)
    out = []
    for key, times in check_takes(taken).items():
        t = TRAITS[key]
        cards = 0
        for effect in t.effects_of(kind):
            if "skill_setting" in effect:
                if skill == resolve(settings)[effect["skill_setting"]]:
                    cards += effect[kind]
            elif _applies(effect, skill, tags):
                cards += effect[kind]
        if cards:
            out.append(Modifier(t.name if times == 1 else f"{t.name} x{times}", cards * times))
    return tuple(out)


def pool_modifiers(taken: Mapping[str, int], skill: str, tags: Iterable[str] = (),
                   settings: Mapping | None = None) -> tuple[Modifier, ...]:
    """The cards a character's traits ``taken`` (key -> times) add to their own pool in a
    test of ``skill`` (a skill or Measure key) that involves ``tags``, one
    :class:`rules.btq.tests.Modifier` per trait in the book's order (BtQ L1028-1111). Crusty
    Old Seadog follows the setting ``crusty_old_seadog_skill`` (A4).

    >>> pool_modifiers({"crusty_old_seadog": 1, "crackshot": 2}, "maritime")
    (Modifier(source='Crusty Old Seadog', cards=1),)
    >>> pool_modifiers({"tactical_genius": 1, "master_gunner": 2}, "gunnery", {"naval_combat"})
    (Modifier(source='Master Gunner x2', cards=2),)
    """
    return _modifiers(taken, "pool", skill, tags, settings)


def ship_pool_modifiers(taken: Mapping[str, int], tags: Iterable[str]) -> tuple[Modifier, ...]:
    """The cards a PC's traits add to the ship's pool in a Naval Combat Challenge: Natural
    Mathematician +1 when assigned to Gunnery (tag ``"assigned_gunnery"``, BtQ L1043)."""
    return _modifiers(taken, "ship_pool", None, tags, None)


def crew_modifiers(others: Mapping[str, Mapping[str, int]], tags: Iterable[str]
                   ) -> tuple[Modifier, ...]:
    """What the other characters in the scene (name -> traits taken) give a character's
    pool: Physician's +1 to the crew's tests to heal physical wounds (tag
    ``"healing_physical"``, BtQ L1110-1111). One modifier per trait, however many bring it."""
    found: dict[str, int] = {}
    for taken in others.values():
        for m in _modifiers({k: 1 for k in taken}, "crew_pool", None, tags, None):
            found[m.source] = max(found.get(m.source, 0), m.cards)
    return tuple(Modifier(f"{source} in the scene", cards) for source, cards in found.items())


def discipline_for_cards(discipline: int, taken: Mapping[str, int]) -> int:
    """The Discipline that caps the Discipline cards a character receives from his commanding
    officer: Born for Battle counts it 2 higher for that alone (BtQ L1060)."""
    bonus = sum(e["discipline_for_cards"] for k in check_takes(taken)
                for e in TRAITS[k].effects_of("discipline_for_cards"))
    return discipline + bonus


def wealth_bonus(taken: Mapping[str, int]) -> int:
    """Wealth the traits add (Lap of Luxury +2, BtQ L1068; creation Step 8, L1125-1126)."""
    return sum(e["wealth"] for k in check_takes(taken) for e in TRAITS[k].effects_of("wealth"))


def limited_use(key: str) -> str | None:
    """The period of trait ``key``'s uses, ``"per_session"`` (Naysayer, Jonah, Cheat Death!,
    BtQ L1074-1085) or ``"per_naval_mission"`` (Jack Tar, L1060); ``None`` for a trait
    whose use the book does not limit."""
    return next((e["uses"] for e in trait(key).effects if "uses" in e), None)


def uses_per_session(key: str, times: int) -> int:
    """How often a trait of limited use may be used per its period (``per_session`` or
    ``per_naval_mission``): once per take (Cheat Death! x3: three uses, A18)."""
    t = trait(key)
    if limited_use(key) is None:
        raise TraitError(f"{t.name} is not of limited use")
    return times


def uses_left(key: str, times: int, ledger: Mapping[str, Mapping], period: str) -> int:
    """The uses of trait ``key`` (taken ``times``) left in ``period`` (the session or Naval
    Mission under way, named by the caller: ``"session:12"``). ``ledger`` is what the
    character has used, ``{key: {"period": str, "used": int}}``: uses counted in another
    period are spent no more, so a new session (or Naval Mission, for Jack Tar) gives them
    all back (BtQ L1060, L1074, L1081-1082, L1084)."""
    entry = ledger.get(key) or {}
    used = int(entry.get("used", 0)) if entry.get("period") == period else 0
    return max(0, uses_per_session(key, times) - used)


def use(key: str, times: int, ledger: Mapping[str, Mapping], period: str) -> dict:
    """``ledger`` with one more use of trait ``key`` in ``period`` (a new mapping; the
    argument is unchanged). :class:`TraitError` when none is left, or the trait is not of
    limited use: "Jack Tar is used once per Naval Mission: it is spent"."""
    if uses_left(key, times, ledger, period) < 1:
        t = trait(key)
        what = "Naval Mission" if limited_use(key) == "per_naval_mission" else "session"
        often = "once" if times == 1 else f"{times} times"
        raise TraitError(f"{t.name} is used {often} per {what}: it is spent until the next "
                         f"{what}.")
    entry = ledger.get(key) or {}
    used = int(entry.get("used", 0)) if entry.get("period") == period else 0
    return {**{k: dict(v) for k, v in ledger.items()},
            key: {"period": period, "used": used + 1}}


def reputation_grants(key: str, parameter: str = "", wordings: Iterable[Mapping] = ()
                      ) -> list[dict]:
    """The reputations taking trait ``key`` once grants, as ``{"kind", "descriptor",
    "subject", "value"}`` (BtQ L1043-1111): ``"{parameter}"`` filled with ``parameter``,
    and each choice or free wording taken in order from ``wordings`` (``{"descriptor",
    "subject"}``); a descriptor given replaces the data's, which is only a default (the book
    names the institution, "+1 Institution: Gun Deck", not the words). Raises
    :class:`TraitError` for a missing parameter or wording, or a choice the trait does not
    offer."""
    t = trait(key)
    grants = t.effects_of("reputation")
    if t.parameter and grants and not (parameter or "").strip() and any(
            "{parameter}" in str(g["reputation"]["subject"]) for g in grants):
        raise TraitError(f"{t.name} needs the {t.parameter} named", field="parameter")
    wordings = list(wordings)
    out = []
    for i, effect in enumerate(grants):
        rep = dict(effect["reputation"])
        given = wordings[i] if i < len(wordings) else {}
        for part in ("descriptor", "subject"):
            value = rep[part]
            chosen = (given.get(part) or "").strip() if isinstance(given, Mapping) else ""
            if isinstance(value, list):
                if chosen not in value:
                    raise TraitError(f"{t.name}: the {part} is one of {', '.join(value)}",
                                     field=part, index=i)
                value = chosen
            elif value is None:
                if not chosen:
                    raise TraitError(f"{t.name}: give the {part} of reputation {i + 1}",
                                     field=part, index=i)
                value = chosen
            elif part == "descriptor" and chosen:
                value = chosen  # the book names the institution, not the words: a default
            else:
                value = value.replace("{parameter}", (parameter or "").strip())
            rep[part] = value
        out.append(rep)
    return out


AUTOMATIC_TAGS: dict[str, str] = {
    "naval_combat": "in ship battles",
    "maimed_gate": "in the Measure test a Maimed area asks for",
    "grog": "in grog tests",
    "healing_physical": "in the crew's tests to heal another's wounds",
}
"""Tags the app sets itself (the ship battle's, a Maimed area's gate, the shipboard grog
test, a heal called for another): a trait triggered by one of them needs no one's word."""


def _words(tag: str) -> str:
    if tag.startswith("weapon:"):
        weapon = tag.split(":", 1)[1]
        return f"{'an' if weapon[0] in 'aeiou' else 'a'} {weapon}"
    return tag.replace("_", " ")


def application(key: str) -> tuple[str, bool]:
    """How trait ``key`` comes into play, in words for its sheet, and whether the GM must
    apply it (``True``) or the app does by itself (``False``). The app adds a trait's cards
    where the rule needs no judgement: a test of its skills, the ship battle, a Maimed
    area's gate, grog, a heal (:data:`AUTOMATIC_TAGS`), and grants its reputations and
    Wealth when it is taken; the GM applies what depends on the fiction (a test "involving
    academic knowledge", a fight with a pistol, a capability) and what a use of a limited
    trait does (BtQ L1025-1115; ``rules/btq_characters.md`` A1)."""
    t = trait(key)
    auto, gm = [], []
    for e in t.effects:
        if "pool" in e:
            skills = ", ".join(SKILLS.get(s) or MEASURES[s] for s in e.get("skills", ()))
            of = f" to {skills}" if skills else ""
            tags = e.get("tags") or ()
            if "skill_setting" in e:
                auto.append(f"+{e['pool']} to tests of the skill the campaign's settings name")
            elif not tags:
                auto.append(f"+{e['pool']}{of} in every test")
            elif all(tag in AUTOMATIC_TAGS for tag in tags):
                auto.append(f"+{e['pool']}{of} " + " and ".join(AUTOMATIC_TAGS[g] for g in tags))
            else:
                known = [AUTOMATIC_TAGS[g] for g in tags if g in AUTOMATIC_TAGS]
                if known:
                    auto.append(f"+{e['pool']}{of} " + " and ".join(known))
                other = " or ".join(_words(g) for g in tags if g not in AUTOMATIC_TAGS)
                gm.append(f"The GM adds +{e['pool']}{of} when a test or fight involves {other}.")
        elif "crew_pool" in e:
            auto.append(f"+{e['crew_pool']} to the others' tests "
                        + " and ".join(AUTOMATIC_TAGS.get(g, _words(g)) for g in e["tags"]))
        elif "reputation" in e or "wealth" in e:
            if "granted when taken" not in auto:
                auto.append("granted when taken")
        elif "special" in e and e["special"] == "is_but_a_scratch":
            auto.append("applied to wounds in card tests")
            gm.append("In a fight the GM lists it among the fighter's traits.")
        elif "special" in e and "uses" in e:
            gm.append("Record each use on the sheet; the GM applies what it does.")
        else:  # a capability, a ship pool, Born for Battle, Accurate Gunner's suit
            gm.append("The GM applies it when it matters.")
    parts = [f"Applied by the app: {'; '.join(auto)}."] if auto else []
    parts += list(dict.fromkeys(gm))
    return " ".join(parts), bool(gm)
