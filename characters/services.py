"""Use cases of characters: create and edit, with optimistic concurrency.

A player edits the name, Measures and skills of their own PCs; a GM edits everything in
the campaign (DESIGN.md, "Roles and trust"). Views check access through
``characters.selectors`` first.
"""

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaigns.models import Campaign, Membership
from campaigns.services import check_version, log_append
from characters.models import MAX_RATING, Character
from characters.selectors import character_access
from rules.btq.characters import MEASURES, SKILLS

PLAYER_FIELDS = frozenset({"name", *MEASURES, "skills"})
"""What the player of a PC may change."""

GM_FIELDS = PLAYER_FIELDS | {
    "kind", "owner", "rank", "seniority", "health_state", "ship_morale_state", "gm_notes",
}
"""What a GM may change."""


def clean_skills(skills, *, base: dict | None = None) -> dict[str, int]:
    """``base`` with ``skills`` applied, keeping only non-zero values (an absent skill is 0,
    BtQ L171). Raises ``ValidationError`` naming an unknown skill or a value that is not a
    whole number from 0 to ``MAX_RATING``."""
    if not isinstance(skills, dict):
        raise ValidationError({"skills": "Skills are a mapping of skill name to value."})
    result = dict(base or {})
    errors = []
    for key, value in skills.items():
        if key not in SKILLS:
            errors.append(f"{key!r} is not a skill (known: {', '.join(SKILLS)}).")
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not (
            0 <= value <= MAX_RATING
        ):
            errors.append(f"{SKILLS[key]} must be a whole number from 0 to {MAX_RATING}.")
            continue
        result[key] = value
    if errors:
        raise ValidationError({"skills": errors})
    return {key: result[key] for key in SKILLS if result.get(key)}


def _check_owner(campaign: Campaign, kind: str, owner) -> None:
    if kind == Character.Kind.PC:
        if owner is None:
            raise ValidationError({"owner": "A player character needs a player."})
        if not Membership.objects.filter(campaign=campaign, user=owner).exists():
            raise ValidationError({"owner": f"{owner} is not a member of this campaign."})
    elif owner is not None:
        raise ValidationError({"owner": "An NPC belongs to the GM: leave the player empty."})


def _save_checked(character: Character) -> None:
    character.full_clean(exclude=["campaign"])
    _check_owner(character.campaign, character.kind, character.owner)
    character.save()


@transaction.atomic
def character_create(
    *, campaign: Campaign, actor, name: str, kind: str = Character.Kind.PC, owner=None,
    skills: dict | None = None, **fields,
) -> Character:
    """A new character in ``campaign``. ``fields`` are other model fields (``rank``,
    ``seniority``, Measures, damage states, ``gm_notes``). Raises ``ValidationError`` for bad
    values, a PC without a member as player, or an NPC with one."""
    unknown = set(fields) - GM_FIELDS
    if unknown:
        raise ValidationError(f"Unknown character fields: {', '.join(sorted(unknown))}.")
    character = Character(
        campaign=campaign, kind=kind, owner=owner, name=(name or "").strip(),
        skills=clean_skills(skills or {}), **fields,
    )
    _save_checked(character)
    log_append(campaign=campaign, kind="character.created", actor=actor,
               gm_only=kind == Character.Kind.NPC,
               text=f"{actor} created {character.get_kind_display().lower()} {character}.",
               data={"character": character.pk})
    return character


@transaction.atomic
def character_update(*, character: Character, actor, version, **changes) -> Character:
    """Change only the fields given. ``skills`` is merged into the stored skills (a skill
    set to 0 is removed). A player may change ``PLAYER_FIELDS`` of their own PC, a GM
    ``GM_FIELDS``.

    Raises ``PermissionDenied`` for a field the actor may not change, ``ValidationError``
    for a bad value, ``campaigns.services.StaleVersion`` if the character was saved since
    ``version``; nothing is written then.
    """
    character = Character.objects.select_for_update().select_related("campaign").get(
        pk=character.pk
    )
    access = character_access(actor, character)
    allowed = GM_FIELDS if access == "gm" else PLAYER_FIELDS if access == "owner" else set()
    if not allowed:
        raise PermissionDenied("You may edit only your own characters.")
    forbidden = set(changes) - allowed
    if forbidden:
        unknown = forbidden - GM_FIELDS
        if unknown:
            raise ValidationError(f"Unknown character fields: {', '.join(sorted(unknown))}.")
        raise PermissionDenied(f"Only a GM may change: {', '.join(sorted(forbidden))}.")
    check_version(character, version)
    for field, value in changes.items():
        if field == "skills":
            value = clean_skills(value, base=character.skills)
        elif field == "name":
            value = (value or "").strip()
        setattr(character, field, value)
    character.version += 1
    _save_checked(character)
    log_append(campaign=character.campaign, kind="character.updated", actor=actor,
               gm_only=character.kind == Character.Kind.NPC or "gm_notes" in changes,
               text=f"{actor} edited {character}.",
               data={"character": character.pk, "fields": sorted(changes)})
    return character
