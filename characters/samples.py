"""The sample characters of "Friends and Foes" (``rules.btq.npcs``) loaded into a campaign
as its GM's NPCs: hidden from the players until the GM reveals them, each with its traits,
reputations and curios, and the book's corrections in its GM notes."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction

from campaigns.models import Campaign, Membership
from campaigns.selectors import membership_role
from characters.models import Character, Item
from characters.services import character_create, item_create, reputation_create, traits_record
from rules.btq.npcs import SampleNPC, sample_npcs


def _gm_notes(npc: SampleNPC) -> str:
    kind = "A generic template" if npc.template else "A sample character"
    notes = [f"{kind} of Friends and Foes: {', '.join(npc.tags)}."]
    notes += [f"{c}." for c in npc.corrections]
    return " ".join(notes)


@transaction.atomic
def sample_npcs_load(*, campaign: Campaign, actor) -> list[Character]:
    """The 21 sample characters (BtQ L2680-3086) as NPCs of ``campaign``, hidden from its
    players, those whose name the campaign's NPCs already have left out (safe to run
    again); returns the new ones. All or nothing. ``PermissionDenied`` unless ``actor`` is
    the campaign's GM."""
    if membership_role(actor, campaign) != Membership.Role.GM:
        raise PermissionDenied("Only a GM loads the sample characters.")
    have = set(campaign.characters.filter(kind=Character.Kind.NPC)
               .values_list("name", flat=True))
    added = []
    for npc in sample_npcs().values():
        if npc.name in have:
            continue
        fields = {**npc.measures(), "rank": npc.rank, "professions": dict(npc.professions),
                  "gm_notes": _gm_notes(npc)}
        if npc.wealth is not None:
            fields["wealth"] = npc.wealth
        character = character_create(campaign=campaign, actor=actor, name=npc.name,
                                     kind=Character.Kind.NPC, skills=dict(npc.skills),
                                     **fields)
        traits_record(character=character, actor=actor, taken=[
            {"key": key, "times": times, "detail": detail} for key, times, detail in npc.traits])
        for rep in npc.reputations:
            reputation_create(character=character, actor=actor, **rep)
        for curio in npc.curios:
            if "skill" in curio:
                item_create(character=character, actor=actor, kind=Item.Kind.CURIO,
                            name=curio["name"], skill=curio["skill"])
            else:
                item_create(character=character, actor=actor, kind=Item.Kind.SPECIAL_WEAPON,
                            name=curio["name"], weapon=curio["weapon"])
        added.append(character)
    return added
