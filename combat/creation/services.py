"""Use cases of character creation (BtQ L224-1134; ``rules/btq_characters.md`` §2): a
player starts a draft, makes its steps, the GM approves it into play or sends it back; the
group's ship (Step 4) is a draft of its own; the book's reference characters are loaded
into a campaign.

A draft is an encounter of the engine ``btq_creation`` (``rules.btq.creation``), the
group's ship one of ``btq_ship_creation``, kept by the same code as a battle
(``combat.services``): a secret seed whose hash is published before the first card is
turned and which is revealed once the GM approves; every card an event; replay through
``combat.services.encounter_replay``. The player takes part as themselves,
``"user:<pk>"`` (``combat.selectors.USER_PREFIX``): the character does not exist until it
is approved. Each step is ``combat.services.encounter_act`` (row lock, version check,
per-field refusals of a typed decision). Approval writes the character through
``characters.services`` (:func:`creation_write_back`), once: the encounter ends in the
transaction that writes it.
"""

from __future__ import annotations

import json

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaigns.models import Campaign, Membership
from campaigns.selectors import membership_role, require_gm
from campaigns.services import log_append
from characters.models import Character
from characters.services import (
    character_create,
    items_record,
    reputation_create,
    traits_record,
)
from combat.models import Encounter
from combat.selectors import USER_PREFIX
from combat.services import encounter_act, encounter_begin, new_seed, seed_hash
from rules.btq import creation, ship_creation
from rules.btq.characters import MEASURES, SKILLS
from rules.engine import get_engine, play_scenario
from rules.random import ScriptedSource, SeededSource
from ships.models import Ship, ShipPosting, ShipType
from ships.reputations import ship_records_from_creation
from ships.services import posting_set, ship_create

ENGINES = (creation.ENGINE_NAME, ship_creation.ENGINE_NAME)


def participant_of(user) -> str:
    """The participant of ``user`` as themselves in a draft."""
    return f"{USER_PREFIX}{user.pk}"


def _name_of(user) -> str:
    return user.get_full_name() or user.get_username()


def open_drafts(campaign: Campaign, user=None):
    """The campaign's character drafts not yet approved (of ``user`` if given)."""
    drafts = campaign.encounters.filter(engine=creation.ENGINE_NAME,
                                        status__in=Encounter.UNFINISHED)
    if user is not None:
        drafts = drafts.filter(terms__player=user.pk)
    return drafts


def _pc_ship(campaign: Campaign) -> Ship | None:
    return campaign.ships.filter(side=Ship.Side.PC).order_by("pk").first()


def _create(campaign, user, engine: str, setup: dict, title: str, terms: dict) -> Encounter:
    kernel = get_engine(engine)
    try:
        setup = kernel.validate_setup(setup)
    except ValueError as exc:
        raise ValidationError(str(exc)) from None
    seed = new_seed()
    encounter = Encounter.objects.create(
        campaign=campaign, engine=engine, title=title[:200], setup=setup, seed=seed,
        seed_hash=seed_hash(seed), terms=terms, created_by=user)
    encounter_begin(encounter=encounter, user=user)  # the seed's hash is published
    return encounter


@transaction.atomic
def creation_start(*, campaign: Campaign, user) -> Encounter:
    """A player starts making their character: a draft at the Concept step, with the
    campaign's number of experiences (setting ``creation_experiences``, BtQ L255-258) and
    the campaign's ships (the players' side) to choose among at Step 4, the first one's name
    for the reputations until then. One open draft per player and campaign
    (``ValidationError``);
    ``PermissionDenied`` for a GM (a GM makes NPCs on the character form), ``Http404`` for
    an outsider."""
    role = membership_role(user, campaign)
    if role is None:
        require_gm(user, campaign)  # the outsider's 404
    if role != Membership.Role.PLAYER:
        raise PermissionDenied("Players make their characters here; a GM adds NPCs on the "
                               "character form.")
    Campaign.objects.select_for_update().get(pk=campaign.pk)  # one draft at a time
    if open_drafts(campaign, user).exists():
        raise ValidationError("You are already making a character in this campaign: "
                              "carry on with it.")
    settings = campaign.rules_settings()
    ships = list(campaign.ships.filter(side=Ship.Side.PC).order_by("pk"))
    name = _name_of(user)
    draft = _create(campaign, user, creation.ENGINE_NAME, {
        "player": participant_of(user), "player_name": name,
        "experiences": settings["creation_experiences"],
        "ship_name": ships[0].name if ships else "",
        "ships": [{"key": str(s.pk), "name": s.name} for s in ships], "settings": settings,
    }, f"{name}'s new character", {"player": user.pk})
    log_append(campaign=campaign, kind="draft.started", actor=user,
               text=f"{user} began making a character.", data={"encounter": draft.pk})
    return draft


def creation_decide(*, draft: Encounter, user, kind: str, values, version) -> list:
    """One step of a draft: ``values`` the typed decision's fields (a dict, sent as its JSON
    text) or an option key (text). As ``combat.services.encounter_act``: the GM may act for
    the player (marked), a player only in their own draft (``PermissionDenied``), a stale
    ``version`` is refused (``StaleVersion``), bad input per field (``ValidationError``)."""
    if draft.engine not in ENGINES:
        raise ValidationError("That is not a draft.")
    choice = values if isinstance(values, str) else json.dumps(values)
    decision = next((d for d in get_engine(draft.engine).pending(draft.state or {})
                     if d.kind == kind), None) if draft.state else None
    actor = decision.actor if decision is not None else participant_of(user)
    return encounter_act(encounter=draft, user=user, actor=actor, decision_kind=kind,
                         choice=choice, expected_version=version)


def _notes(sheet: dict) -> str:
    """What the character sheet has no field for yet, in words (the concept, the station,
    the GM's marked overrides)."""
    lines = []
    if sheet.get("concept"):
        lines.append(f"Concept: {sheet['concept']}")
    station = [creation.nationalities()[sheet["nationality"]]["name"],
               creation.religions()[sheet["religion"]]["name"],
               creation.classes()[sheet["social_class"]]["name"]] if sheet.get(
        "social_class") else []
    if station:
        lines.append("Station: " + ", ".join(station))
    for key in ("age", "appearance", "personality", "links"):
        if sheet.get(key):
            lines.append(f"{key.capitalize()}: {sheet[key]}")
    for target, mark in sheet.get("overridden", {}).items():
        label = creation.override_targets(sheet).get(target, target)
        lines.append(f"Set by the GM: {label} {mark['by']:+d} ({mark['reason']})")
    return "\n".join(lines)


def character_from_sheet(*, campaign: Campaign, actor, sheet: dict, owner=None,
                         kind: str = Character.Kind.PC, gm_notes: str = "") -> Character:
    """A ``characters.Character`` with its reputations, traits and Profession
    specialisations, curios and other booty items from a creation sheet
    (``rules.btq.creation.build_sheet``) through ``characters.services``. The Profession
    skill takes the best of its trades; what the sheet has no field for (concept, station)
    goes into the notes."""
    skills = {k: v for k, v in sheet["skills"].items() if k in SKILLS}
    if sheet["professions"]:
        skills["profession"] = max(sheet["professions"].values())
    position = creation.positions().get(sheet.get("position", ""), {})
    character = character_create(
        campaign=campaign, actor=actor, name=sheet.get("name") or "Unnamed", kind=kind,
        owner=owner, skills=skills, rank=sheet.get("position_title") or position.get(
            "name", ""), wealth=min(sheet["wealth"], 10), notes=_notes(sheet),
        professions=dict(sheet["professions"]),
        gm_notes=gm_notes, **{k: sheet["measures"][k] for k in MEASURES})
    for rep in sheet["reputations"]:
        reputation_create(character=character, actor=actor, kind=rep["kind"],
                          descriptor=rep["descriptor"], subject=rep["subject"],
                          value=rep["value"])
    traits_record(character=character, actor=actor, taken=sheet["traits"])
    items_record(character=character, actor=actor, items=sheet["items"])
    return character


def creation_write_back(*, encounter: Encounter, outcome, user) -> dict:
    """The approved draft into the campaign (``combat.services`` calls it once, in the
    transaction that ends the encounter): a character for its player, or the group's ship
    (:func:`_ship_write_back`). Returns the log's words."""
    if encounter.engine == ship_creation.ENGINE_NAME:
        return _ship_write_back(encounter, outcome, user)
    owner = encounter.created_by
    character = character_from_sheet(campaign=encounter.campaign, actor=user,
                                     sheet=outcome.data["character"], owner=owner,
                                     gm_notes=outcome.data.get("gm_notes", ""))
    _post_aboard(encounter, character, outcome.data["character"], user)
    encounter.terms = {**encounter.terms, "character": character.pk}
    return {"summary": f"{character.name} joins the campaign.",
            "data": {"character": character.pk}}


STATIONS = {"lieutenant": "lieutenant", "midshipman": "midshipman",
            "wardroom_officer": "master", "standing_officer": "boatswain",
            "petty_officer": "mate", "able_seaman": "rating", "seaman": "rating",
            "landsman": "rating"}
"""A creation position -> the station aboard when the title names none (BtQ L260-289)."""


def station_of(sheet: dict) -> str:
    """The station aboard (``ships.ShipPosting.Station``) of a creation sheet: the one its
    title names ("Ship's Master": master, "Purser", "Gunner"), else its position's."""
    title = (sheet.get("position_title") or "").lower()
    for station, label in ShipPosting.Station.choices:
        if station in ("rating", "mate"):
            continue
        if station in title or label.lower() in title:
            return station
    return STATIONS.get(sheet.get("position", ""), "rating")


def _post_aboard(encounter: Encounter, character: Character, sheet: dict, user) -> None:
    """The approved character serves on the ship chosen at Step 4, at their station; a ship
    named in words (the campaign had none) is left to the GM."""
    key = sheet.get("ship")
    ship = encounter.campaign.ships.filter(pk=int(key), side=Ship.Side.PC).first() if (
        isinstance(key, str) and key.isdigit()) else None
    if ship is not None:
        posting_set(ship=ship, character=character, station=station_of(sheet), actor=user)


@transaction.atomic
def ship_creation_start(*, campaign: Campaign, user, ship_type: str) -> Encounter:
    """GM: the group makes its ship (Step 4, BtQ L538-806), of ``ship_type`` (the GM's
    choice, L543-602): a draft whose decisions are the players' (the first player leads);
    ``ValidationError`` with no player in the campaign or an unknown type."""
    require_gm(user, campaign)
    players = [m.user for m in campaign.memberships.filter(role=Membership.Role.PLAYER)
               .select_related("user").order_by("pk")]
    if not players:
        raise ValidationError("The group makes the ship: invite the players first.")
    draft = _create(campaign, user, ship_creation.ENGINE_NAME, {
        "ship_type": ship_type, "players": {participant_of(p): _name_of(p) for p in players},
        "settings": campaign.rules_settings()}, f"The group's {ship_type}", {})
    log_append(campaign=campaign, kind="draft.started", actor=user,
               text=f"{user} asked the group to make its ship, a {ship_type}.",
               data={"encounter": draft.pk})
    return draft


def _ship_write_back(encounter: Encounter, outcome, user) -> dict:
    """The group's ship as the players' ``ships.Ship`` (``ships.services.ship_create``): its
    type, guns and traits, the NPC crew's skills for battle, her 5 points of ship reputations
    and her crew roster as records (``ships.reputations.ship_records_from_creation``); the
    origin and flavour in its notes."""
    ship = outcome.data["ship"]
    ship_type = ShipType.objects.filter(name=ship["ship_type"]).first()
    if ship_type is None:
        raise ValidationError(f"The ship type {ship['ship_type']} is not loaded: run "
                              "load_reference_data.")
    lines = [f"Origin: {ship['origin']}"]
    lines += [f"{k.capitalize()}: {ship[k]}" for k in ("former_name", "tradition",
                                                       "superstition", "appearance",
                                                       "celebration") if ship.get(k)]
    made = ship_create(campaign=encounter.campaign, actor=user, name=ship["name"],
                       ship_type=ship_type, guns=ship.get("guns"), side=Ship.Side.PC,
                       traits=ship["traits"], crew=ship["crew_skills"],
                       gm_notes="\n".join(lines))
    ship_records_from_creation(ship=made, reputations=ship["reputations"], crew=ship["crew"])
    encounter.terms = {**encounter.terms, "ship": made.pk}
    return {"summary": f"the {made.name} is the group's ship.", "data": {"ship": made.pk}}


# --- reference characters ---------------------------------------------------------------------

REFERENCE = ("otoole", "templar", "dodds", "hamilton")
"""The book's characters a GM may load: O'Toole (BtQ L443-1144) and the template Captains of
Appendix IV (L3593-3647)."""


def otoole_sheet() -> dict:
    """Gregory O'Toole's sheet, built as the book builds him: the ``btq_creation``
    scenario played with the book's cards (TV-01 to TV-09)."""
    engine = get_engine(creation.ENGINE_NAME)
    scenario = engine.scenarios()["otoole"]
    state, _ = play_scenario(engine, scenario, ScriptedSource(scenario.cards,
                                                              then=SeededSource(0)))
    return engine.outcome(state).data["character"]


@transaction.atomic
def reference_characters_load(*, campaign: Campaign, actor, which=REFERENCE
                              ) -> list[Character]:
    """GM: the book's characters as NPCs of ``campaign`` (``which``: keys of
    :data:`REFERENCE`), each once: one already there by name is left as it is. The template
    Captains' "(insert ship)" becomes the campaign ship's name. Returns those created."""
    require_gm(actor, campaign)
    unknown = sorted(set(which) - set(REFERENCE))
    if unknown:
        raise ValidationError(f"Unknown reference character {unknown[0]!r}.")
    ship = _pc_ship(campaign)
    made = []
    for key in which:
        sheet = otoole_sheet() if key == "otoole" else creation.captain_sheet(
            key, ship.name if ship else "")
        if campaign.characters.filter(name=sheet["name"]).exists():
            continue
        made.append(character_from_sheet(campaign=campaign, actor=actor, sheet=sheet,
                                         kind=Character.Kind.NPC))
    return made

