"""Healing at the table: the draws that heal a character's area or repair a ship's, as card
tests (BtQ L1361-1366, L2409-2416; ``rules/btq_characters.md`` §5.4; ``rules/DECISIONS.md``
D4).

An Injured area heals by a simple test of its healing skill (``rules.btq.damage``): the GM
calls it here and it is a card test like any other, an encounter of the engine ``btq_test``
made by ``combat.card_tests.services.card_test_call`` (seed hash published, the player turns
the cards, replayable), whose ``terms`` also say what it heals (``"heal"``). When it ends,
:func:`heal_write_back` (called by ``combat.card_tests.services.card_test_write_back``)
heals the area one step through ``characters.services.character_heal``, or locks it after a
failure (BtQ L1366); Ship Morale, the ship's, through ``ships.services.ship_morale_set``.

Between battles a PC aboard may repair one box of a ship's area by the same test the Repair
step makes (BtQ L2409-2416), a simple test of a repair skill (``"repair"`` in its terms);
the GM refits a ship in port with ``ships.services.ship_refit``. A Maimed area heals through
a successful challenge and a Dead one through a Mission: those are
``characters.services.character_heal(how="challenge" | "mission")``, with no draw here.

The optional Scar rule (campaign setting ``scar_rule``, BtQ L1318-1320): a character whose
Health was Maimed turns the Scar card when it is Healthy again, an encounter of the engine
``btq_scar`` (:mod:`rules.btq.scar`) opened by :func:`scar_draw_start` when the heal test
ends (or by the GM, when he set Health Healthy by hand); :func:`scar_write_back` writes what
it left when it ends.
"""

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaigns.missions.models import Mission
from campaigns.missions.services import mission_scar
from campaigns.models import Membership
from campaigns.selectors import membership_role
from characters.models import AREA_FIELDS, SHIP_MORALE, Character, Reputation
from characters.services import character_heal, character_heal_failed, character_scar, heal_check
from combat.card_tests.services import card_test_call
from combat.models import Encounter
from combat.services import encounter_begin, new_seed, seed_hash
from rules.btq import scar
from rules.btq.characters import DAMAGE_AREAS, SKILLS, DamageState
from rules.btq.damage import HealError, heal_route
from rules.btq.naval import REPAIR_SKILLS
from rules.btq.ships import AREAS, DamageTrack
from rules.btq.tests import TestRecord
from rules.btq.traits import crew_modifiers
from ships.models import Ship
from ships.services import ship_morale_set, ship_repair_set

HEAL_AREAS = (*AREA_FIELDS, SHIP_MORALE, "reputation")
"""What :func:`heal_call` heals: Health, Wealth, the Ship Morale of the ship the character
serves on, or a reputation."""


def _require_gm(actor, campaign) -> None:
    if membership_role(actor, campaign) != Membership.Role.GM:
        raise PermissionDenied("Only the GM calls a test; a player asks the GM for one.")


def _pc(campaign, character, what: str) -> Character:
    if character is None or character.campaign_id != campaign.pk or \
            character.kind != Character.Kind.PC:
        raise ValidationError({what: "Choose a player character of this campaign: the one "
                                     "who turns the cards."})
    return character


def _skill(skill, skills: tuple[str, ...]) -> str:
    skill = skill or skills[0]
    if skill not in skills:
        names = ", ".join(SKILLS[s] for s in skills)
        raise ValidationError({"skill": f"This heals with {names}."})
    return skill


@transaction.atomic
def heal_call(*, character: Character, area: str, actor, reputation: Reputation | None = None,
              healer: Character | None = None, skill: str = "") -> Encounter:
    """GM: call the simple test that heals ``character``'s Injured ``area`` (one of
    :data:`HEAL_AREAS`; ``reputation`` for ``"reputation"``) to Healthy (BtQ L1361-1363; D4):
    ``healer`` (a PC, default the character: the ship's surgeon may treat another, BtQ
    L183-184) turns a pool of ``skill``, one of the area's healing skills (First Aid for
    Health, Command for Ship Morale, Diplomacy for Wealth and institutions, Courtesy for
    personal reputations; default the first). The healer's traits add their cards (Physician
    +1 to First Aid), and a patient who is a Physician gives the crew's +1 to a physical
    heal (BtQ L1110-1111). Returns the card test, waiting for the healer's player.

    ``PermissionDenied`` for a player; ``ValidationError`` with the rule's reason: a healthy
    area, one that heals only through a challenge or a Mission, Health Dead, an area locked
    by a failed heal (BtQ L1366), a skill that does not heal it.
    """
    campaign = character.campaign
    _require_gm(actor, campaign)
    character = Character.objects.select_for_update().get(pk=character.pk)
    if area not in HEAL_AREAS:
        raise ValidationError({"area": f"{area!r} is not an area: "
                                       f"{', '.join(HEAL_AREAS)}."})
    healer = _pc(campaign, healer or character, "healer")
    if area == SHIP_MORALE:
        ship = character.ship
        if ship is None:
            raise ValidationError({"area": f"{character} serves on no ship."})
        try:
            route = heal_route(SHIP_MORALE, ship.morale_state)
        except HealError as exc:
            raise ValidationError({"area": str(exc)}) from None
        if route.method != "simple_test":
            raise ValidationError({"area": f"{ship}'s Ship Morale is "
                                           f"{DamageState(ship.morale_state).label}: it heals "
                                           "through a challenge or a Mission, not a test."})
        heal = {"character": character.pk, "area": SHIP_MORALE, "ship": ship.pk}
        what = f"{ship}'s Ship Morale"
    else:
        route = heal_check(character, area, reputation, how="test")
        heal = {"character": character.pk, "area": area,
                "reputation": reputation.pk if area == "reputation" else None}
        what = f"{character}'s " + (f"reputation “{reputation}”" if area == "reputation"
                                    else DAMAGE_AREAS[area])
    skill = _skill(skill, route.skills)
    modifiers = []
    if area == "health" and healer != character:
        modifiers = [m.as_dict() for m in crew_modifiers(
            {character.title: character.trait_takes()}, {"healing_physical"})]
    test = card_test_call(
        campaign=campaign, actor=actor, character=healer.pk, skill=skill, opposition="none",
        modifiers=modifiers, intent=f"Heal {what}",
        stakes_win=f"{what} heals to Healthy",
        stakes_lose="no new attempt until another challenge is completed"
        if area != SHIP_MORALE else "the crew stays unsettled")
    test.terms = {**test.terms, "heal": heal}
    test.save(update_fields=["terms"])
    return test


@transaction.atomic
def ship_repair_call(*, ship: Ship, area: str, character: Character, actor,
                     skill: str = "") -> Encounter:
    """GM: call the repair test that mends one box of ``ship``'s ``area`` between battles, as
    the Repair step does (BtQ L2409-2416): ``character`` (a PC serving aboard) turns a
    simple test of ``skill``, one of the area's repair skills (Seamanship or Maritime for
    Hull and Rigging, Gunnery or Engineering for Guns, First Aid or Command for Crew); a
    success clears one crossed box at or below its level. ``ValidationError`` for an area
    with nothing a success could clear, a character not aboard, a skill that does not
    repair it."""
    _require_gm(actor, ship.campaign)
    if area not in AREAS:
        raise ValidationError({"area": f"{area!r} is not an area: {', '.join(AREAS)}."})
    character = _pc(ship.campaign, character, "character")
    if character.ship != ship:
        raise ValidationError({"character": f"{character} does not serve aboard {ship}."})
    if not DamageTrack.parse(getattr(ship, f"{area}_track")).crossed:
        raise ValidationError({"area": f"{ship}'s {area} has no damage to repair."})
    skill = _skill(skill, REPAIR_SKILLS[area])
    test = card_test_call(
        campaign=ship.campaign, actor=actor, character=character.pk, skill=skill,
        opposition="none", intent=f"Repair {ship}'s {area}",
        stakes_win="one box of damage is mended, of the success's level or lower")
    test.terms = {**test.terms, "repair": {"ship": ship.pk, "area": area}}
    test.save(update_fields=["terms"])
    return test


def heal_write_back(*, encounter: Encounter, record: TestRecord, user) -> str:
    """The end of a heal or repair test (``combat.card_tests.services.card_test_write_back``
    calls it for every test): a pass heals the area one step or clears a ship's box, a
    failure locks a character's area (BtQ L1366). Returns what it did, in words ("" for a
    test that heals nothing)."""
    terms = encounter.terms
    passed = record.outcome == "passed"
    note = " (a repair test)" if "repair" in terms else " (a healing test)"
    if "repair" in terms:
        ship = Ship.objects.select_for_update().filter(pk=terms["repair"]["ship"]).first()
        if ship is None or not passed:
            return "" if ship is None else f" {ship}'s {terms['repair']['area']} is not mended."
        area = terms["repair"]["area"]
        cleared = ship_repair_set(ship=ship, area=area, level=record.result, actor=user,
                                  note=f"{ship}'s {area}: a box mended{note}.")
        return f" {ship}'s {area}: " + ("a box mended." if cleared else "nothing to mend.")
    heal = terms.get("heal")
    if not heal:
        return ""
    character = Character.objects.filter(pk=heal["character"]).first()
    if character is None:
        return ""
    if heal["area"] == SHIP_MORALE:
        ship = Ship.objects.select_for_update().filter(pk=heal["ship"]).first()
        if ship is None or not passed or ship.morale_state != DamageState.INJURED:
            return ""
        ship_morale_set(ship=ship, state=DamageState.HEALTHY, actor=user,
                        note=f"{ship}'s Ship Morale heals to Healthy{note}.")
        return f" {ship}'s Ship Morale heals to Healthy."
    reputation = Reputation.objects.filter(pk=heal.get("reputation")).first() \
        if heal.get("reputation") else None
    if heal["area"] == "reputation" and reputation is None:
        return ""
    try:
        if passed:
            state = character_heal(character=character, area=heal["area"], actor=user,
                                   how="test", reputation=reputation, note=note)
            scarred = ""
            if heal["area"] == "health" and state == DamageState.HEALTHY:
                character.refresh_from_db()
                scarred = " The Scar card is to be turned." if scar_due(character) else ""
                if scarred:
                    _scar_open(character, user)
            return f" Healed to {state.label}.{scarred}"
        character_heal_failed(character=character, area=heal["area"], actor=user,
                              reputation=reputation, note=note)
    except ValidationError:
        return ""  # the GM changed the area meanwhile: nothing left to heal
    return " Not healed: no new attempt before another challenge."


# --- The optional Scar rule -------------------------------------------------------------------


def scar_due(character: Character) -> bool:
    """Whether ``character`` is to turn the Scar card now: the campaign uses the rule, his
    Health was Maimed since it was last Healthy, and it is Healthy again, with no Scar card
    of his being turned (BtQ L1318-1320)."""
    return (bool(character.campaign.rules_settings()["scar_rule"]) and character.scar_due
            and character.health_state == DamageState.HEALTHY
            and not character.campaign.encounters.filter(
                engine=scar.ENGINE_NAME, status__in=Encounter.UNFINISHED,
                terms__scar=character.pk).exists())


@transaction.atomic
def scar_draw_start(*, character: Character, actor) -> Encounter:
    """The Scar card to turn for ``character`` (module docstring): an encounter of
    ``btq_scar``, its seed's hash published at once, waiting for the player to turn the
    card; the Missions he is on under way are those an infection may shorten. The heal test's
    end opens it by itself; the GM may too. ``ValidationError`` when the card is not due
    (the rule off, Health not Healthy again after Maimed, one already being turned);
    ``PermissionDenied`` for a player who is not the character's."""
    character = Character.objects.select_for_update().get(pk=character.pk)
    role = membership_role(actor, character.campaign)
    if role != Membership.Role.GM and character.owner_id != getattr(actor, "pk", None):
        raise PermissionDenied("Only the GM, or the character's player, turns the Scar card.")
    if not scar_due(character):
        raise ValidationError("The Scar card is not due: the campaign does not use the Scar "
                              "rule, or Health has not come back to Healthy from Maimed.")
    return _scar_open(character, actor)


def _scar_open(character: Character, actor) -> Encounter:
    campaign = character.campaign
    missions = Mission.objects.filter(campaign=campaign, status=Mission.Status.ACTIVE,
                                      cast__character_id=character.pk).order_by("pk")
    setup = scar.ENGINE.validate_setup({
        "player": f"pc:{character.pk}", "name": character.title,
        "missions": [{"key": str(m.pk), "name": m.name} for m in missions],
        "settings": campaign.rules_settings()})
    seed = new_seed()
    encounter = Encounter.objects.create(
        campaign=campaign, engine=scar.ENGINE_NAME, title=f"{character.title}: the Scar card",
        setup=setup, seed=seed, seed_hash=seed_hash(seed), terms={"scar": character.pk},
        created_by=actor)
    return encounter_begin(encounter=encounter, user=actor)


def scar_write_back(*, encounter: Encounter, outcome, user) -> dict:
    """The end of a Scar card (``combat.services`` calls it once, in the transaction that
    ends it): what the card left onto the sheet (``characters.services.character_scar``),
    and an infection's Mission its Deadline reduced by 1 (the GM chose it). Returns the log's
    words."""
    character = Character.objects.filter(pk=encounter.terms.get("scar")).first()
    if character is None:
        return {"summary": outcome.summary, "data": {}}
    character_scar(character=character, actor=user, result=outcome.data,
                   note=f" (card {outcome.data['card']})")
    mission = Mission.objects.filter(campaign=encounter.campaign,
                                     pk=int(outcome.data["mission"] or 0)).first()
    if mission is not None and mission.status == Mission.Status.ACTIVE:
        mission_scar(mission=mission, actor=user, version=mission.version)
    return {"summary": f"{character.title}: {outcome.data['text']}",
            "data": {"character": character.pk}}
