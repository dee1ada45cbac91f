"""Use cases of characters: create and edit characters and their reputations, with
optimistic concurrency, and set the damage a card test dealt.

A player edits the name and notes of their own PCs and the wording of their reputations; a
GM edits everything in the campaign: Measures, skills, Wealth and reputations' values change
through the GM, as advancement does (BtQ L1510-1545), and so do damage states (DESIGN.md,
"Roles and trust"). Every edit is logged field by field (old -> new).
Views check access through ``characters.selectors`` first.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaigns.models import Campaign, Membership
from campaigns.services import check_version, log_append
from characters.models import AREA_FIELDS, MAX_RATING, Character, Reputation
from characters.selectors import character_access
from rules.btq.characters import MEASURES, SKILLS, DamageState

PLAYER_FIELDS = frozenset({"name", "notes"})
"""What the player of a PC may change: the free text. Mechanical values are the GM's, as
advancement runs through the GM (BtQ L1510-1545)."""

GM_FIELDS = PLAYER_FIELDS | {
    *MEASURES, "skills", "wealth", "kind", "owner", "rank", "seniority", "health_state",
    "wealth_state", "gm_notes", "revealed",
}
"""What a GM may change (Ship Morale is the ship's: ``ships.services.ship_update``)."""


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


def _not_a_member(name) -> ValidationError:
    """The one refusal of a player who is not a member of the campaign, whether or not a user
    of that name exists: a GM must not learn from it which usernames exist elsewhere."""
    return ValidationError({"owner": f"{str(name)!r} is not a member of this campaign."})


def _owner_user(campaign: Campaign, owner):
    """``owner`` as a user: ``None``, a user, or a username, looked up among the members of
    ``campaign`` only (:func:`_not_a_member` if none has it)."""
    if not isinstance(owner, str):
        return owner
    user = get_user_model().objects.filter(
        username=owner, memberships__campaign=campaign).first()
    if user is None:
        raise _not_a_member(owner)
    return user


def _check_owner(campaign: Campaign, kind: str, owner, *, new: bool = False) -> None:
    """A new PC needs a player who is a member; an existing one may be left without one (its
    player left: the GM plays it); an NPC never has one."""
    if kind == Character.Kind.PC:
        if owner is None:
            if new:
                raise ValidationError({"owner": "A player character needs a player."})
            return
        if not Membership.objects.filter(campaign=campaign, user=owner).exists():
            raise _not_a_member(owner)
    elif owner is not None:
        raise ValidationError({"owner": "An NPC belongs to the GM: leave the player empty."})


def _check_fields(changes, allowed, known, what: str) -> None:
    """Refuse ``changes`` naming a field that is not one of ``known`` (``ValidationError``)
    or that the actor may not change, not in ``allowed`` (``PermissionDenied``)."""
    forbidden = set(changes) - allowed
    if not forbidden:
        return
    unknown = forbidden - known
    if unknown:
        raise ValidationError(f"Unknown {what} fields: {', '.join(sorted(unknown))}.")
    raise PermissionDenied(f"Only a GM may change: {', '.join(sorted(forbidden))}.")


def _locked_character(character: Character) -> Character:
    return Character.objects.select_for_update().select_related("campaign").get(
        pk=character.pk
    )


def _save_checked(character: Character, *, new: bool = False) -> None:
    character.full_clean(exclude=["campaign"])
    _check_owner(character.campaign, character.kind, character.owner, new=new)
    character.save()


@transaction.atomic
def character_create(
    *, campaign: Campaign, actor, name: str, kind: str = Character.Kind.PC, owner=None,
    skills: dict | None = None, **fields,
) -> Character:
    """A new character in ``campaign``. ``owner`` is the player (a user or a username);
    ``fields`` are other model fields (``rank``, ``seniority``, Measures, damage states,
    ``gm_notes``). Raises ``ValidationError`` for bad values, a PC without a member as
    player (one answer whether or not the user exists), or an NPC with one."""
    unknown = set(fields) - GM_FIELDS
    if unknown:
        raise ValidationError(f"Unknown character fields: {', '.join(sorted(unknown))}.")
    character = Character(
        campaign=campaign, kind=kind, owner=_owner_user(campaign, owner),
        name=(name or "").strip(),
        skills=clean_skills(skills or {}), **{"revealed": kind == Character.Kind.PC, **fields},
    )
    _save_checked(character, new=True)
    log_append(campaign=campaign, kind="character.created", actor=actor,
               gm_only=kind == Character.Kind.NPC,
               text=f"{actor} created {character.get_kind_display().lower()} {character}.",
               data={"character": character.pk})
    return character


@transaction.atomic
def character_update(*, character: Character, actor, version, **changes) -> Character:
    """Change only the fields given. ``skills`` is merged into the stored skills (a skill
    set to 0 is removed); ``owner`` is a user or a username of a member. A player may change
    ``PLAYER_FIELDS`` of their own PC, a GM ``GM_FIELDS``.

    Raises ``PermissionDenied`` for a field the actor may not change, ``ValidationError``
    for a bad value, ``campaigns.services.StaleVersion`` if the character was saved since
    ``version``; nothing is written then.
    """
    character = _locked_character(character)
    access = character_access(actor, character)
    allowed = GM_FIELDS if access == "gm" else PLAYER_FIELDS if access == "owner" else set()
    if not allowed:
        raise PermissionDenied("You may edit only your own characters.")
    _check_fields(changes, allowed, GM_FIELDS, "character")
    check_version(character, version)
    revealing = changes.get("revealed", character.revealed) and not character.revealed
    before = _snapshot(character)
    for field, value in changes.items():
        if field == "skills":
            value = clean_skills(value, base=character.skills)
        elif field == "name":
            value = (value or "").strip()
        elif field == "owner":
            value = _owner_user(character.campaign, value)
        setattr(character, field, value)
    character.version += 1
    _save_checked(character)
    diff = _diff(before, _snapshot(character))
    if diff:
        log_append(campaign=character.campaign, kind="character.updated", actor=actor,
                   gm_only=character.kind == Character.Kind.NPC or "gm_notes" in diff,
                   text=f"{actor} edited {character}: {_describe(diff)}.",
                   data={"character": character.pk, "changes": diff})
    if revealing:
        _log_reveal(character, actor)
    return character


_LABELS = {**MEASURES, **SKILLS, "wealth": "Wealth", "owner": "player", "health_state": "Health",
           "wealth_state": "Wealth damage", "gm_notes": "GM notes", "revealed": "revealed"}
_TEXTS = ("notes", "gm_notes")
"""Long texts: the log says they changed, not what they say."""


def _snapshot(character: Character) -> dict:
    """The fields a log diff compares, skills flattened (absent ones 0)."""
    values = {f: getattr(character, f) for f in GM_FIELDS - {"skills", "owner"}}
    values["owner"] = str(character.owner) if character.owner_id else None
    values.update(character.skill_values())
    return values


def _diff(before: dict, after: dict) -> dict:
    """``{field: [old, new]}`` of the fields that changed (long texts as ``None``)."""
    return {key: [None, None] if key in _TEXTS else [before[key], after[key]]
            for key in sorted(after) if before.get(key) != after[key]}


def _describe(diff: dict) -> str:
    """``"Seamanship 5 -> 6, notes changed"``."""
    parts = []
    for key, (old, new) in diff.items():
        label = _LABELS.get(key, key)
        if key in _TEXTS:
            parts.append(f"{label} changed")
        elif key in ("health_state", "wealth_state"):
            parts.append(f"{label} {DamageState(old).label} -> {DamageState(new).label}")
        else:
            parts.append(f"{label} {old} -> {new}")
    return ", ".join(parts)


def _log_reveal(character: Character, actor) -> None:
    who = f"{actor} revealed" if actor else "Revealed"
    log_append(campaign=character.campaign, kind="character.revealed", actor=actor,
               text=f"{who} {character} to the players.", data={"character": character.pk})


@transaction.atomic
def character_reveal(*, character: Character, actor=None) -> Character:
    """Show the NPC ``character`` to the players from now on (its name and rank only; a GM's
    choice, or automatically when it opposes a PC in a card test). Logged once; a character
    already revealed is returned unchanged; the version stays (no field of the sheet changed).
    The GM hides it again with
    ``character_update(revealed=False)``."""
    character = _locked_character(character)
    if not character.revealed:
        character.revealed = True
        character.save(update_fields=["revealed"])
        _log_reveal(character, actor)
    return character


REPUTATION_PLAYER_FIELDS = frozenset({"descriptor", "subject"})
"""What the player of a PC may change on its reputations: the wording. Kind, value and damage
are the GM's, and only a GM adds or removes a reputation (BtQ L1510-1545)."""

REPUTATION_GM_FIELDS = REPUTATION_PLAYER_FIELDS | {"kind", "value", "damage_state"}


def _editable_reputation_fields(actor, character: Character) -> frozenset:
    access = character_access(actor, character)
    if access == "gm":
        return REPUTATION_GM_FIELDS
    if access == "owner":
        return REPUTATION_PLAYER_FIELDS
    raise PermissionDenied("You may edit only your own characters.")


def _require_gm_for_reputations(actor, character: Character) -> None:
    if _editable_reputation_fields(actor, character) is not REPUTATION_GM_FIELDS:
        raise PermissionDenied("Only a GM adds or removes a reputation: ask your GM.")


def _set_reputation_fields(reputation: Reputation, changes: dict, allowed: frozenset) -> None:
    _check_fields(changes, allowed, REPUTATION_GM_FIELDS, "reputation")
    for field, value in changes.items():
        if field in ("descriptor", "subject"):
            value = (value or "").strip()
        setattr(reputation, field, value)
    reputation.full_clean(exclude=["character"])


@transaction.atomic
def reputation_create(*, character: Character, actor, **fields) -> Reputation:
    """A new reputation of ``character``: ``kind``, ``descriptor``, ``subject``, ``value``
    (and ``damage_state``, GM only). Raises ``PermissionDenied`` unless ``actor`` is a GM or
    the PC's player, ``ValidationError`` for a bad value (a value below 1, an empty
    descriptor)."""
    character = _locked_character(character)
    _require_gm_for_reputations(actor, character)
    reputation = Reputation(character=character)
    _set_reputation_fields(reputation, fields, REPUTATION_GM_FIELDS)
    reputation.save()
    log_append(campaign=character.campaign, kind="reputation.created", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{actor} gave {character} the reputation “{reputation}”.",
               data={"character": character.pk, "reputation": reputation.pk})
    return reputation


def _locked_reputation(reputation: Reputation) -> Reputation:
    return Reputation.objects.select_for_update().select_related(
        "character", "character__campaign").get(pk=reputation.pk)


@transaction.atomic
def reputation_update(*, reputation: Reputation, actor, version, **changes) -> Reputation:
    """Change only the fields given (as :func:`reputation_create`). Raises
    ``campaigns.services.StaleVersion`` if it was saved since ``version``; nothing is
    written then."""
    reputation = _locked_reputation(reputation)
    character = reputation.character
    allowed = _editable_reputation_fields(actor, character)
    check_version(reputation, version)
    before = {f: getattr(reputation, f) for f in REPUTATION_GM_FIELDS}
    _set_reputation_fields(reputation, changes, allowed)
    diff = {f: [before[f], getattr(reputation, f)] for f in sorted(REPUTATION_GM_FIELDS)
            if before[f] != getattr(reputation, f)}
    reputation.version += 1
    reputation.save()
    described = ", ".join(f"{f.replace('_', ' ')} {old} -> {new}"
                          for f, (old, new) in diff.items())
    log_append(campaign=character.campaign, kind="reputation.updated", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{actor} edited {character}'s reputation “{reputation}”: "
                    f"{described or 'no change'}.",
               data={"character": character.pk, "reputation": reputation.pk, "changes": diff})
    return reputation


@transaction.atomic
def reputation_delete(*, reputation: Reputation, actor, version) -> None:
    """Remove a reputation. ``StaleVersion`` as :func:`reputation_update`. Whatever an app
    above keeps of it may refuse the removal from a ``pre_delete`` receiver with a
    ``ValidationError`` (a card test not over that uses it: ``combat.apps``); nothing is
    removed then."""
    reputation = _locked_reputation(reputation)
    character = reputation.character
    _require_gm_for_reputations(actor, character)
    check_version(reputation, version)
    name = reputation.name
    reputation.delete()
    log_append(campaign=character.campaign, kind="reputation.deleted", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{actor} removed {character}'s reputation “{name}”.",
               data={"character": character.pk})


def character_damage_set(*, character: Character, area: str, state: DamageState,
                         reputation: Reputation | None = None) -> None:
    """Set the damage state of ``character``'s ``area`` (``"health"``, ``"wealth"``, or
    ``"reputation"`` with ``reputation``) to ``state``, bumping the version
    of what changed so an edit made before is refused. For a use case that already holds the
    rows locked (a card test's draw) and writes the log itself."""
    if area == "reputation":
        if reputation is None or reputation.character_id != character.pk:
            raise ValueError(f"{reputation!r} is not a reputation of {character}")
        reputation.damage_state = state
        reputation.version += 1
        reputation.save(update_fields=["damage_state", "version"])
        return
    setattr(character, AREA_FIELDS[area], state)
    character.version += 1
    character.save(update_fields=[AREA_FIELDS[area], "version", "updated_at"])


def characters_release(*, membership: Membership, actor, **_signal) -> None:
    """A member left (``campaigns.signals.member_removed``): their PCs in that campaign stay,
    without a player, logged one by one, so the GM plays them until another player takes
    them. Runs in the removal's transaction."""
    pcs = Character.objects.select_for_update().filter(
        campaign=membership.campaign, owner=membership.user_id)
    for pc in pcs:
        pc.owner = None
        pc.version += 1
        pc.save(update_fields=["owner", "version"])
        log_append(campaign=membership.campaign, kind="character.updated", actor=actor,
                   text=f"{pc} has no player now that {membership.user} left: the GM plays "
                        "them until another player takes them.",
                   data={"character": pc.pk,
                         "changes": {"owner": [str(membership.user), None]}})
