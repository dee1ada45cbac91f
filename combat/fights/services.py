"""Use cases of the fights of men: prepare one (an encounter of ``btq_skirmish``,
``btq_personal_combat`` or ``btq_boarding``), reveal its NPCs when it begins, and write its
end back to the campaign: Health onto the sheets (``characters.services``), Ship Morale and
the boarded Crew onto the ships (``ships.services``), and the campaign log (the journal),
through ``combat.services``, which calls :func:`fight_write_back` when the fight ends and
:func:`fight_begun` when it begins."""

from __future__ import annotations

from django.db import transaction

from characters.models import Character
from characters.services import character_damage_set, character_reveal, trait_uses_spent
from combat.models import Encounter
from combat.services import encounter_create
from rules.btq.characters import DamageState
from ships.models import Ship
from ships.prizes import prize_hold
from ships.services import changes_said, ship_morale_set, ship_record_battle

ENGINES = ("btq_skirmish", "btq_personal_combat", "btq_boarding")
NOUNS = {"btq_skirmish": "skirmish", "btq_personal_combat": "fight", "btq_boarding": "boarding"}
"""What each is called in the texts people read (``combat.services.NOUNS``)."""
SCRATCH = "is_but_a_scratch"
"""The trait Is But A Scratch, Sir! (``rules.btq.traits``; BtQ L1086-1101, D12)."""
CHEAT_DEATH = "Cheat Death!"
"""Cheat Death! as a fight names it (``rules.btq.personal_combat.COMBAT_TRAITS``)."""


@transaction.atomic
def fight_create(*, campaign, user, engine: str, setup: dict, title: str, characters=(),
                 ships=(), challenge=None) -> Encounter:
    """A new fight of ``engine`` (one of :data:`ENGINES`) in ``campaign``, not begun
    (GMs only; ``combat.services.encounter_create``, whose refusals it passes on).
    ``characters`` are the campaign's characters who fight, kept in the encounter's
    ``terms`` (``{"characters": [pk]}``) for the write-back; ``ships`` (a boarding's) are
    held for this fight as a battle holds them; ``challenge`` the mission's challenge it is
    played for (``combat.challenges``), if any."""
    if engine not in ENGINES:
        raise ValueError(f"{engine!r} is not a fight of men")
    encounter = encounter_create(campaign=campaign, user=user, engine=engine, setup=setup,
                                 title=title, ships=ships, challenge=challenge)
    encounter.terms = {"characters": sorted({c.pk for c in characters})}
    encounter.save(update_fields=["terms"])
    return encounter


def fight_begun(*, encounter: Encounter, user) -> None:
    """The NPCs of a fight that begins are shown to the players from now on (their names and
    ranks only), as an opponent of a card test is (``characters.services.character_reveal``).
    Called by ``combat.services.encounter_begin`` in its transaction."""
    for npc in Character.objects.filter(pk__in=encounter.terms.get("characters", []),
                                        kind=Character.Kind.NPC):
        character_reveal(character=npc, actor=user)


def _pk(fighter_id: str) -> int | None:
    _, _, pk = fighter_id.partition(":")
    return int(pk) if pk.isdigit() else None


def fight_write_back(*, encounter: Encounter, outcome, user) -> dict:
    """Write a finished fight back (``combat.services`` calls it in the transaction that
    ends the fight): each character's Health as the fight left it, unless the sheet is worse
    already (the GM may have changed it meanwhile; a fight heals nobody: BtQ L1361-1400),
    through ``characters.services.character_damage_set``; a lost skirmish's Ship Morale onto
    the commanding officer's ship (BtQ L1688-1690); a boarding's Crew tracks and Ship Morale
    onto the two ships (BtQ L2528-2531; N18). Returns the log entry's ``summary`` (the
    outcome, and the sheets changed, in words; an enemy ship's Ship Morale is left out, the
    GM's) and ``data`` (``changes``: who, area, from, to)."""
    data = outcome.data or {}
    changes = _health_write_back(encounter, data.get("fighters", {}),
                                 set(encounter.terms.get("characters", [])))
    if encounter.engine == "btq_skirmish":
        changes += _skirmish_morale(encounter, data, user)
    elif encounter.engine == "btq_boarding":
        changes += _boarding_ships(encounter, data, user)
        _boarding_prize(encounter, outcome, user)
    return changes_logged(outcome, changes)


def changes_logged(outcome, changes: list[dict]) -> dict:
    """The log entry of a fight's end: the outcome's summary and the ``changes`` (who, area,
    from, to) in words, and ``data`` with the changes."""
    return {"summary": f"{outcome.summary}{changes_said(changes)}",
            "data": {"changes": changes}}


def _cheat_death_carried(setup: dict) -> dict[int, int]:
    """The uses of Cheat Death! each character brought into the fight of ``setup``, by pk:
    a fighter's ``cheat_death``, else the times his ``traits`` (a ship battle's PC: his
    ``combat_traits``) name it, as ``rules.btq.personal_combat.fighter`` counts them. The
    setups' fighters: a duel's ``fighters``, a skirmish's ``pcs`` and ``opposition``, a
    boarding's or a ship battle's ``pcs`` and its ships' ``officers``."""
    ships = setup.get("ships") or []
    entries = [*setup.get("fighters", []), *setup.get("pcs", []), *setup.get("opposition", []),
               *(o for ship in (ships.values() if isinstance(ships, dict) else ships)
                 for o in ship.get("officers") or [])]
    carried = {}
    for entry in entries:
        fid = str(entry.get("id", ""))
        pk = _pk(fid if ":" in fid else f"pc:{fid}")
        traits = entry.get("traits") or entry.get("combat_traits") or {}
        if pk is not None:
            carried[pk] = int(entry.get("cheat_death", traits.get(CHEAT_DEATH, 0)))
    return carried


def _health_write_back(encounter, fighters: dict, known: set) -> list[dict]:
    """Each of ``fighters`` (fighter id -> ``{"health", "scratch", "cheat_death"}``) whose
    character's pk is in ``known``: his Health as the fight left it, unless the sheet is
    worse already, his Is But A Scratch, Sir! as spent if the fight spent it, and the uses
    of Cheat Death! the fight spent taken off his sheet's (BtQ L1084-1085;
    ``characters.services.trait_uses_spent``)."""
    wanted = {_pk(fid): final for fid, final in fighters.items() if _pk(fid) is not None}
    carried = _cheat_death_carried(encounter.setup or {})
    changes = []
    characters = Character.objects.select_for_update().filter(
        pk__in=[pk for pk in wanted if pk in known], campaign=encounter.campaign).order_by("pk")
    for character in characters:
        fought = wanted[character.pk]
        final = DamageState[fought["health"].upper()]
        before = DamageState(character.health_state)
        # Is But A Scratch, Sir! shrugged a wound off in this fight: spent on the sheet too,
        # until he is Healthy again (D12)
        spent = (fought.get("scratch") is False and not character.scratched
                 and SCRATCH in character.trait_takes())
        if final > before or spent:
            character_damage_set(character=character, area="health", state=max(final, before),
                                 scratched=True if spent else None)
        if final > before:
            changes.append({"who": character.title, "area": "Health", "from": before.label,
                            "to": final.label})
        if spent:
            changes.append({"who": character.title, "area": "Is But A Scratch, Sir!",
                            "from": "unspent", "to": "spent"})
        cheated = carried.get(character.pk, 0) - int(fought.get("cheat_death", 0))
        change = trait_uses_spent(character=character, trait="cheat_death", count=cheated,
                                  where=f"“{encounter.title}”")
        if change:
            changes.append(change)
    return changes


def boarding_health_write_back(*, encounter, outcome) -> list[dict]:
    """A ship battle's boardings (``btq_naval``'s ``outcome.data["boardings"]``, BtQ
    L2519-2524): the Health of the PCs and officers who fought one on one, as
    :func:`fight_write_back` writes a fight's; the ships are the battle's own write-back.
    Returns the changes (who, area, from, to)."""
    fighters: dict = {}
    for boarding in (outcome.data or {}).get("boardings", []):
        fighters.update(boarding.get("fighters") or {})
    setup = encounter.setup or {}
    known = {_pk(f"pc:{p['id']}") for p in setup.get("pcs", [])}
    known |= {_pk(o["id"]) for ship in setup.get("ships", []) for o in ship.get("officers", [])}
    return _health_write_back(encounter, fighters, known - {None})


def _skirmish_morale(encounter, data, user) -> list[dict]:
    morale = data.get("ship_morale") or {}
    if morale.get("from") == morale.get("to"):
        return []
    commander = encounter.setup.get("commander")
    pk = _pk(commander or "")
    co = Character.objects.filter(pk=pk, campaign=encounter.campaign).first()
    ship = co.ship if co else None
    if ship is None:
        return []
    ship = Ship.objects.select_for_update().get(pk=ship.pk)
    before = DamageState(ship.morale_state)
    after = max(before, DamageState[morale["to"].upper()])
    if after == before:
        return []
    ship_morale_set(ship=ship, state=after, actor=user,
                    note=f"{ship}'s Ship Morale: {before.label} → {after.label} (the skirmish "
                         f"“{encounter.title}” was lost).")
    return [{"who": ship.display_name, "area": "Ship Morale", "from": before.label,
             "to": after.label}]


def _boarding_prize(encounter, outcome, user) -> None:
    """An enemy ship the players' ship took in a boarding, or who surrendered to it, is their
    prize on her way to port (BtQ L2530-2531, L1769-1771), crewed by the PCs who boarded, as a
    ship battle's end holds hers (``combat.shipboard.services.battle_ended``)."""
    data = outcome.data or {}
    if outcome.result not in ("taken", "surrendered"):
        return
    ships = {str(s.pk): s for s in encounter.ships.select_related("ship_type")}
    winner, loser = ships.get(str(outcome.winner)), ships.get(str(data.get("loser")))
    if winner is None or loser is None or (winner.side, loser.side) != (Ship.Side.PC,
                                                                         Ship.Side.ENEMY):
        return
    crew = Character.objects.filter(pk__in=encounter.terms.get("characters", []),
                                    campaign=encounter.campaign, kind=Character.Kind.PC)
    prize_hold(campaign=encounter.campaign, battle=encounter.pk, ship=loser, crew=list(crew),
               actor=user)


def _boarding_ships(encounter, data, user) -> list[dict]:
    changes = []
    ships = {str(s.pk): s for s in encounter.ships.all()}
    for key, crew in (data.get("crew") or {}).items():
        ship = ships.get(key)
        if ship is None:
            continue
        morale = max(DamageState[data["morale"][key].upper()], DamageState(ship.morale_state))
        if crew == ship.tracks["crew"] and morale == ship.morale_state:
            continue
        written = ship_record_battle(ship=ship, tracks={**ship.tracks, "crew": crew},
                                     morale=morale, actor=user,
                                     note=f"{ship}, after “{encounter.title}”:")
        # the fight's entry is everyone's; an enemy's Ship Morale is the GM's, in her own
        # entry (ships.services.ship_record_battle), as a ship battle keeps it
        changes += [c for c in written
                    if not (ship.is_hidden_from_players and c["area"] == "Ship Morale")]
    return changes
