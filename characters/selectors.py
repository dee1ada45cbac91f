"""Who may see and edit a character, and what of it (DESIGN.md, "Roles and trust").

Players see the PCs' sheets and the name and rank of the NPCs the GM revealed (or that met
them in a card test); an unrevealed NPC does not exist for them (404). They never see an NPC's
stats and never GM notes; a player edits only their own PCs. GMs see and edit everything in
their campaigns.
"""

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404

from campaigns.models import Campaign, Membership
from campaigns.selectors import campaigns_for_user, known_to_user, membership_role
from characters.models import Character, Reputation
from rules.btq.characters import MEASURES

REVEALED = Q(kind=Character.Kind.PC) | Q(revealed=True)
"""The characters a player may know of."""


def characters_for_user(user, campaign: Campaign) -> QuerySet[Character]:
    """The characters of ``campaign`` that ``user`` may see listed: all of them for a member
    (what a player sees of each is :func:`character_access`), none for anyone else."""
    role = membership_role(user, campaign)
    if role is None:
        return Character.objects.none()
    characters = campaign.characters.select_related("owner")
    if role != Membership.Role.GM:
        characters = characters.filter(REVEALED)
    return characters


def character_for_user(user, character_id) -> Character:
    """The character ``character_id`` if ``user`` is a member of its campaign; ``Http404``
    otherwise."""
    try:
        rows = Character.objects.select_related("campaign", "owner")
        return known_to_user(user, rows, REVEALED).get(pk=character_id)
    except (Character.DoesNotExist, ValueError, TypeError):
        raise Http404("No such character.") from None


def character_access(user, character: Character, role: str | None = None) -> str:
    """What ``user`` may do with ``character``:

    * ``"gm"``: a GM of its campaign; sees and edits everything;
    * ``"owner"``: the player of this PC; sees all but the GM notes, edits name, Measures
      and skills;
    * ``"sheet"``: another member and a PC: sees the sheet without GM notes;
    * ``"public"``: a player and an NPC: sees the name and rank only;
    * ``"none"``: not a member.

    ``role`` is the user's campaign role if already known.
    """
    role = role if role is not None else membership_role(user, character.campaign)
    if role == Membership.Role.GM:
        return "gm"
    if role is None:
        return "none"
    if character.kind == Character.Kind.NPC:
        return "public"
    if character.owner_id == user.pk:
        return "owner"
    return "sheet"


def require_character_edit(user, character: Character) -> str:
    """The user's access (``"gm"`` or ``"owner"``) if they may edit ``character``;
    ``Http404`` for a non-member, ``PermissionDenied`` for any other member."""
    access = character_access(user, character)
    if access == "none":
        raise Http404("No such character.")
    if access not in ("gm", "owner"):
        raise PermissionDenied("You may edit only your own characters.")
    return access


def reputation_for_user(user, reputation_id) -> Reputation:
    """The reputation ``reputation_id`` if ``user`` may see its character's sheet (a member,
    and for an NPC's the GM); ``Http404`` otherwise, so an NPC's reputations stay unknown."""
    try:
        reputation = Reputation.objects.select_related(
            "character", "character__campaign", "character__owner").get(
            pk=reputation_id, character__campaign__in=campaigns_for_user(user))
    except (Reputation.DoesNotExist, ValueError, TypeError):
        raise Http404("No such reputation.") from None
    if character_access(user, reputation.character) in ("none", "public"):
        raise Http404("No such reputation.")
    return reputation


def campaign_panel(request, campaign: Campaign, role: str) -> dict:
    """The characters' section of the campaign page (``campaigns.panels``): ``pcs`` and
    ``npcs`` as :func:`characters_for_user` lists them for the viewer."""
    characters = list(characters_for_user(request.user, campaign))
    return {"pcs": [c for c in characters if c.kind == Character.Kind.PC],
            "npcs": [c for c in characters if c.kind == Character.Kind.NPC]}


def directory_lookup(campaign: Campaign, ids=None) -> dict:
    """The campaign's characters for ``campaigns.directory``, by id (only ``ids`` if
    given): their name, player, kind, rank, sheet and reputations."""
    from django.urls import reverse

    from campaigns.directory import CharacterRef

    rows = Character.objects.filter(campaign=campaign).prefetch_related("reputations")
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    return {c.pk: CharacterRef(c.pk, c.title, c.owner_id, c.kind == Character.Kind.PC,
                               c.rank, reverse("characters:detail", args=[c.pk]),
                               tuple((r.kind, r.descriptor, r.subject)
                                     for r in c.reputations.all()))
            for c in rows}


def dashboard_panel(request, campaign: Campaign, role: str) -> dict:
    """The GM's dashboard section of the characters (``campaigns.panels.register_dashboard``):
    every PC's damage states, Wealth and reputations at a glance, with the rewards and costs
    its missions leave to take or pay."""
    from characters.advancement import dues

    pcs = list(campaign.characters.filter(kind=Character.Kind.PC)
               .prefetch_related("reputations", "postings__ship"))
    return {"dashboard_pcs": [{"character": c, "dues": len(dues(c))} for c in pcs]}


def character_history(user, character: Character) -> list[dict]:
    """The history of ``character``'s sheet that ``user`` may read, newest first: each edit
    as ``{"at", "actor", "changes": {field: [old, new]}}``. The GM reads everything; the
    PC's player everything but the GM-only fields (GM notes), an edit of nothing else left
    out; anyone else nothing (``PermissionDenied``)."""
    access = character_access(user, character)
    if access not in ("gm", "owner"):
        raise PermissionDenied("Only the character's player and the GM read its history.")
    out = []
    for change in character.history.select_related("actor"):
        changes = dict(change.changes)
        if access == "gm":
            changes.update(change.gm_changes)
        if changes:
            out.append({"at": change.at, "actor": str(change.actor) if change.actor else None,
                        "changes": changes})
    return out


def character_export(user, character: Character) -> dict:
    """``character``'s sheet as JSON, schema version ``EXPORT_VERSION`` (3; see
    ``characters.services.character_import``, which reads versions 1 to 3): for its player
    and the GM (``PermissionDenied`` for anyone else); the GM notes only for the GM. Its
    ``trait_uses`` are the uses spent of his traits of limited use, ``{key: {"period",
    "used"}}``, and ``trait_uses_left`` what is left of each now (for a reader; an import
    recomputes it)."""
    from characters.services import EXPORT_FORMAT, EXPORT_VERSION, trait_uses

    access = character_access(user, character)
    if access not in ("gm", "owner"):
        raise PermissionDenied("Only the character's player and the GM export it.")
    sheet = {
        "name": character.name, "kind": character.kind, "rank": character.rank,
        "seniority": character.seniority,
        **{key: getattr(character, key) for key in MEASURES},
        "skills": {k: v for k, v in character.skill_values().items() if v},
        "professions": dict(character.professions), "wealth": character.wealth,
        "health_state": character.health_state, "wealth_state": character.wealth_state,
        "scratched": character.scratched, "scar_due": character.scar_due,
        "hardship": dict(character.hardship),
        "overcoming": list(character.overcoming),
        "heal_locks": [lock for lock in character.heal_locks if ":" not in lock],
        "notes": character.notes,
        "reputations": [{"kind": r.kind, "descriptor": r.descriptor, "subject": r.subject,
                         "value": r.value, "damage_state": r.damage_state}
                        for r in character.reputations.all()],
        "traits": [{"trait": t.trait, "times": t.times, "parameter": t.parameter}
                   for t in character.traits.all()],
        "items": [{"kind": i.kind, "name": i.name, "skill": i.skill,
                   "reputation": i.reputation.name if i.reputation_id else None,
                   "weapon": i.weapon, "condition": i.condition}
                  for i in character.items.select_related("reputation")],
        "trait_uses": {k: dict(v) for k, v in sorted(character.trait_uses.items())},
        "trait_uses_left": {u["key"]: u["left"] for u in trait_uses(character)},
    }
    if access == "gm":
        sheet["gm_notes"] = character.gm_notes
    return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "character": sheet}
