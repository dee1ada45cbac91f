"""Engine setups built from the campaign's records: a character as a fighter of
``rules.btq.personal_combat``, a ship as a side of a boarding (``rules.btq.boarding``).
Reads only; the ids are ``pc:<pk>`` / ``npc:<pk>`` (a PC's is his player's participant,
``combat.selectors.participant_ids_for``) and a ship's key its pk."""

from __future__ import annotations

import re

from characters.models import Character
from rules.btq.characters import DamageState
from rules.btq.personal_combat import COMBAT_TRAITS, CombatError
from ships.services import combat_items, combat_traits, ship_officers

BORN_FOR_BATTLE = "Born for Battle"


def _key(name: str) -> str:
    return " ".join(re.sub(r"[^a-z ]", " ", name.lower()).split())


TRAIT_NAMES = {_key(name): name for name in (*COMBAT_TRAITS, BORN_FOR_BATTLE)}
"""The traits a fight applies, by their name as typed (case and punctuation aside)."""
_TIMES = re.compile(r"^(?P<name>.*?)\s*(?:\((?P<n>\d)\)|x\s*(?P<x>\d))?$")
_SCRATCH = re.compile(r"scratch\s*,\s*sir", re.IGNORECASE)


def parse_traits(text: str) -> dict[str, int]:
    """Traits typed as the book writes them, comma-separated: ``"Duellist (2), Cheat
    Death!"`` -> ``{"Duellist": 2, "Cheat Death!": 1}`` (BtQ L2729). ``CombatError`` naming
    a trait no fight applies."""
    found: dict[str, int] = {}
    for part in _SCRATCH.sub("Scratch Sir", text or "").split(","):
        part = part.strip()
        if not part:
            continue
        match = _TIMES.match(part)
        name = TRAIT_NAMES.get(_key(match["name"]))
        if name is None:
            raise CombatError(f"“{part}” is not a trait of the fights; use "
                              f"{', '.join(TRAIT_NAMES.values())}")
        found[name] = found.get(name, 0) + int(match["n"] or match["x"] or 1)
    return found


def sheet_traits(character: Character) -> str:
    """The traits on ``character``'s sheet that a fight applies (:data:`TRAIT_NAMES`),
    written as :func:`parse_traits` reads them: ``"Duellist (2), Cheat Death!"``; ``""``
    for none (BtQ L1086-1101, L1669-1672). Cheat Death! with the uses the sheet has left
    (``ships.services.combat_traits``)."""
    taken = combat_traits(character)
    if "born_for_battle" in character.trait_takes():
        taken[BORN_FOR_BATTLE] = 1
    return ", ".join(f"{name} ({times})" if times > 1 else name
                     for name, times in sorted(taken.items()))


def fighter_id(character: Character) -> str:
    return f"{'pc' if character.kind == Character.Kind.PC else 'npc'}:{character.pk}"


def fighter_of(character: Character, *, weapons: list[str], traits: dict | None = None
               ) -> dict:
    """``character`` as a fighter: his player decides for a PC, the GM for an NPC (whose
    statistics are secret); Health, Guts and the items that add to his weapons
    (``ships.services.combat_items``) from the sheet. ``CombatError`` for a Dead character."""
    traits = dict(traits or {})
    traits.pop(BORN_FOR_BATTLE, None)
    if character.health_state == DamageState.DEAD:
        raise CombatError(f"{character} is Dead and cannot fight")
    return {"id": fighter_id(character), "name": character.title, "weapons": list(weapons),
            "health": DamageState(character.health_state).name.lower(),
            "guts": character.guts, "traits": traits,
            "items": combat_items(character)}


def skirmish_pc(character: Character, *, weapons, traits) -> dict:
    """A PC of a skirmish: a fighter with seniority, Discipline, Command, his skills and
    Born for Battle (BtQ L1669-1672)."""
    return {**fighter_of(character, weapons=weapons, traits=traits),
            "seniority": character.seniority, "discipline": character.discipline,
            "command": character.skill("command"),
            "skills": {k: v for k, v in character.skill_values().items() if v},
            "born_for_battle": BORN_FOR_BATTLE in traits}


def boarding_ship(ship, *, crew_pool: int, officer_weapons: list[str]) -> dict:
    """A ship of a boarding: her side, Crew track and Ship Morale, her crew's pool in the Grand
    Melee and their Command (for a ship none of whose officers stands, N23), and the NPCs
    posted aboard at an officer's station (BtQ L2526-2528) as her officers, with their
    Command."""
    officers = ship_officers(ship, officer_weapons)
    return {"name": ship.name, "side": ship.side, "crew": ship.tracks["crew"],
            "morale": DamageState(ship.morale_state).name.lower(), "crew_pool": crew_pool,
            "command": int((ship.crew or {}).get("command", 0)), "officers": officers}
