"""Use cases of characters: create and edit characters and their reputations, with
optimistic concurrency, and set the damage a card test dealt.

A player edits the name and notes of their own PCs and the wording of their reputations; a
GM edits everything in the campaign: Measures, skills, Wealth and reputations' values change
through the GM, as advancement does (BtQ L1510-1545), and so do damage states (DESIGN.md,
"Roles and trust"). Every edit is logged field by field (old -> new).
Views check access through ``characters.selectors`` first.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.db import transaction

from campaigns.missions.models import Mission, Session
from campaigns.missions.services import mission_jonah
from campaigns.models import Campaign, Membership
from campaigns.selectors import membership_role
from campaigns.services import check_version, log_append
from characters.models import (
    AREA_FIELDS,
    MAX_RATING,
    MAX_WEALTH,
    Character,
    CharacterChange,
    CharacterTrait,
    Item,
    Reputation,
)
from characters.selectors import character_access
from rules.btq.characters import MEASURES, SKILLS, DamageState
from rules.btq.creation import item_target
from rules.btq.damage import HealError, HealRoute, check_heal, scratch_restored
from rules.btq.tests import TestError, overcome_great_hardship
from rules.btq.traits import (
    TRAITS,
    TraitError,
    check_takes,
    limited_use,
    meets_prerequisites,
    reputation_grants,
    use,
    uses_left,
    wealth_bonus,
)

PLAYER_FIELDS = frozenset({"name", "notes"})
"""What the player of a PC may change: the free text. Mechanical values are the GM's, as
advancement runs through the GM (BtQ L1510-1545)."""

GM_FIELDS = PLAYER_FIELDS | {
    *MEASURES, "skills", "wealth", "kind", "owner", "rank", "seniority", "health_state",
    "wealth_state", "gm_notes", "revealed", "professions", "scratched",
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
    if "professions" in fields:
        fields["professions"] = clean_professions(fields["professions"])
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
    ``version``; nothing is written then. Values that are the ones saved write nothing
    either: the version stays, so nobody else's open form goes stale for nothing.
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
        elif field == "professions":
            value = clean_professions(value)
        else:  # as it will be saved ("3" from a form or the API is 3), to compare with it
            try:
                value = Character._meta.get_field(field).to_python(value)
            except ValidationError as exc:
                raise ValidationError({field: exc.messages}) from exc
        setattr(character, field, value)
    after = _snapshot(character)
    if after == before:
        return character  # a save that changes nothing writes nothing, the version kept
    if changes.get("health_state") == DamageState.MAIMED:
        character.scar_due = True
    character.version += 1
    _save_checked(character)
    history_record(character=character, actor=actor, changes={
        key: [before.get(key), value] for key, value in after.items()
        if before.get(key) != value})
    diff = _diff(before, after)
    log_append(campaign=character.campaign, kind="character.updated", actor=actor,
               gm_only=character.kind == Character.Kind.NPC or "gm_notes" in diff,
               text=f"{actor} edited {character}: {_describe(diff)}.",
               data={"character": character.pk, "changes": diff})
    if revealing:
        _log_reveal(character, actor)
    return character


_LABELS = {**MEASURES, **SKILLS, "wealth": "Wealth", "owner": "player", "health_state": "Health",
           "wealth_state": "Wealth damage", "gm_notes": "GM notes", "revealed": "revealed",
           "professions": "Professions", "scratched": "scratched"}
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


REPUTATION_FIELDS = frozenset({"descriptor", "subject", "kind", "value", "damage_state"})
"""A reputation's fields, every one the GM's: only a GM adds, changes or removes a reputation
(BtQ L1510-1545). Its words are what the GM judges when it applies, and they stay the same
when it rises or falls ("this does not change the description of the reputation", BtQ 003
L1531, L1543): its player may not reword "Distrusted by" into "Trusted by"."""

REPUTATIONS_ARE_THE_GMS = ("A reputation's words, kind, value and damage are the GM's to "
                           "change: ask your GM.")


def _require_gm_for_reputations(actor, character: Character) -> None:
    """Raises ``PermissionDenied`` (with the reason) unless ``actor`` is the GM."""
    access = character_access(actor, character)
    if access == "owner":
        raise PermissionDenied(REPUTATIONS_ARE_THE_GMS)
    if access != "gm":
        raise PermissionDenied("You may edit only your own characters.")


def _set_reputation_fields(reputation: Reputation, changes: dict) -> None:
    _check_fields(changes, REPUTATION_FIELDS, REPUTATION_FIELDS, "reputation")
    for field, value in changes.items():
        if field in ("descriptor", "subject"):
            value = (value or "").strip()
        setattr(reputation, field, value)
    reputation.full_clean(exclude=["character"])


@transaction.atomic
def reputation_create(*, character: Character, actor, **fields) -> Reputation:
    """A new reputation of ``character``: ``kind``, ``descriptor``, ``subject``, ``value``
    and ``damage_state``. Raises ``PermissionDenied`` with the reason unless ``actor`` is the
    GM (:data:`REPUTATION_FIELDS`), ``ValidationError`` for a bad value (a value below 1, an
    empty descriptor)."""
    character = _locked_character(character)
    _require_gm_for_reputations(actor, character)
    reputation = Reputation(character=character)
    _set_reputation_fields(reputation, fields)
    reputation.save()
    history_record(character=character, actor=actor,
                   changes={f"reputation “{reputation}”": [None, reputation.value]})
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
    """Change only the fields given (as :func:`reputation_create`; the GM alone, even the
    words of a PC's reputation). Raises ``campaigns.services.StaleVersion`` if it was saved
    since ``version``; nothing is written then. Values that are the ones saved write nothing
    either: the version stays."""
    reputation = _locked_reputation(reputation)
    character = reputation.character
    _require_gm_for_reputations(actor, character)
    check_version(reputation, version)
    before = {f: getattr(reputation, f) for f in REPUTATION_FIELDS}
    _set_reputation_fields(reputation, changes)
    diff = {f: [before[f], getattr(reputation, f)] for f in sorted(REPUTATION_FIELDS)
            if before[f] != getattr(reputation, f)}
    if not diff:
        return reputation  # a save that changes nothing writes nothing, the version kept
    reputation.version += 1
    reputation.save()
    history_record(character=character, actor=actor, changes={
        f"reputation “{reputation}” {f.replace('_', ' ')}": [old, new]
        for f, (old, new) in diff.items()})
    described = ", ".join(f"{f.replace('_', ' ')} {old} -> {new}"
                          for f, (old, new) in diff.items())
    log_append(campaign=character.campaign, kind="reputation.updated", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{actor} edited {character}'s reputation “{reputation}”: {described}.",
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
    history_record(character=character, actor=actor,
                   changes={f"reputation “{name}”": [reputation.value, None]})
    log_append(campaign=character.campaign, kind="reputation.deleted", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{actor} removed {character}'s reputation “{name}”.",
               data={"character": character.pk})


def character_damage_set(*, character: Character, area: str, state: DamageState,
                         reputation: Reputation | None = None, actor=None,
                         scratched: bool | None = None) -> None:
    """Set the damage state of ``character``'s ``area`` (``"health"``, ``"wealth"``, or
    ``"reputation"`` with ``reputation``) to ``state``, bumping the version
    of what changed so an edit made before is refused, and recording it in the sheet's
    history as ``actor``'s; ``scratched`` sets Is But A Scratch's extra level (D12). For a
    use case that already holds the rows locked (a card test's draw) and writes the log
    itself."""
    if area == "reputation":
        if reputation is None or reputation.character_id != character.pk:
            raise ValueError(f"{reputation!r} is not a reputation of {character}")
        old = DamageState(reputation.damage_state)
        reputation.damage_state = state
        reputation.version += 1
        reputation.save(update_fields=["damage_state", "version"])
        history_record(character=character, actor=actor, changes={
            f"reputation “{reputation}” damage": [old.label, DamageState(state).label]})
        return
    field = AREA_FIELDS[area]
    changes = {_LABELS[field]: [DamageState(getattr(character, field)).label,
                                DamageState(state).label]}
    setattr(character, field, state)
    fields = [field, "version", "updated_at"]
    if area == "health" and state == DamageState.MAIMED and not character.scar_due:
        character.scar_due = True  # the Scar rule's card once Healthy again (BtQ L1318)
        fields.append("scar_due")
    if scratched is not None and scratched != character.scratched:
        changes["scratched"] = [character.scratched, scratched]
        character.scratched = scratched
        fields.append("scratched")
    character.version += 1
    character.save(update_fields=fields)
    history_record(character=character, actor=actor, changes=changes)


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


def scratches_restore(*, session, actor, **_signal) -> None:
    """A session ended (``campaigns.signals.session_ended``): under the setting
    ``scratch_resets`` = ``"session_end"`` or ``"both"`` (A17) every character of the
    campaign whose Is But A Scratch, Sir! level is used has it back, in his sheet's history
    and the journal (GM-only for an NPC). Runs in the session's transaction."""
    campaign = session.campaign
    if not scratch_restored("session_end", campaign.rules_settings()):
        return
    for character in Character.objects.select_for_update().filter(
            campaign=campaign, scratched=True).order_by("pk"):
        character_damage_set(character=character, area="health",
                             state=DamageState(character.health_state), actor=actor,
                             scratched=False)
        log_append(campaign=campaign, kind="character.updated", actor=actor,
                   gm_only=character.kind == Character.Kind.NPC,
                   text=f"{character}'s Is But A Scratch, Sir! is ready again: {session} "
                        "is over.",
                   data={"character": character.pk,
                         "changes": {"scratched": [True, False]}})


# --- The sheet's history ----------------------------------------------------------------

GM_ONLY_FIELDS = frozenset({"gm_notes"})
"""Fields of the sheet only the GM reads, and so only the GM reads the history of."""


def history_record(*, character: Character, actor, changes: dict) -> CharacterChange | None:
    """Record one edit of ``character``'s sheet: ``changes`` is ``{field: [old, new]}``
    (JSON values); the GM-only fields' go to ``gm_changes``. Nothing is recorded for no
    change. Part of the caller's transaction."""
    if not changes:
        return None
    public = {k: v for k, v in changes.items() if k not in GM_ONLY_FIELDS}
    hidden = {k: v for k, v in changes.items() if k in GM_ONLY_FIELDS}
    return CharacterChange.objects.create(
        character=character, actor=actor if getattr(actor, "pk", None) else None,
        changes=public, gm_changes=hidden)


def clean_professions(professions) -> dict[str, int]:
    """Profession specialisations, ``{"Fisherman": 2}`` (BtQ L193-194): a name of at most 60
    characters and a whole number from 1 to ``MAX_RATING`` each; ``ValidationError`` on
    ``professions`` otherwise."""
    if not isinstance(professions, dict):
        raise ValidationError({"professions": "Professions are a mapping of trade to value."})
    result = {}
    for name, value in professions.items():
        trade = name.strip() if isinstance(name, str) else ""
        if not trade or len(trade) > 60:
            raise ValidationError({"professions": "Each profession needs a name (at most 60 "
                                                  "characters): “Fisherman”, “Mapmaker”."})
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_RATING:
            raise ValidationError({"professions": f"Profession ({trade}) must be a whole "
                                                  f"number from 1 to {MAX_RATING}."})
        result[trade] = value
    return dict(sorted(result.items()))


def _require_gm(actor, character: Character, what: str) -> None:
    if character_access(actor, character) != "gm":
        raise PermissionDenied(f"Only a GM {what}: ask your GM.")


# --- Traits -------------------------------------------------------------------------------

STATION_CATEGORY = {"captain": "officer", "lieutenant": "officer", "midshipman": "officer",
                    "master": "wardroom", "purser": "wardroom", "surgeon": "wardroom",
                    "gunner": "standing", "boatswain": "standing", "carpenter": "standing",
                    "marine": "officer", "mate": "petty", "rating": "rating"}
"""The rank category of a station aboard, for a trait's prerequisites (BtQ L260-289,
L1052)."""


def _rank_category(character: Character) -> str | None:
    posting = character.postings.first()
    return None if posting is None else STATION_CATEGORY.get(posting.station)


@transaction.atomic
def trait_add(*, character: Character, actor, trait: str, times: int = 1, parameter: str = "",
              reputations=()) -> CharacterTrait:
    """GM: ``character`` takes ``trait`` (a key of ``rules.btq.traits.TRAITS``) ``times``
    more times with ``parameter`` (the language, the named captain). What it grants comes
    with it (BtQ L1043-1111): its reputations (``reputations``: the wording the player chose
    for those the trait leaves open, ``{"descriptor", "subject"}`` each), a Protégé of a
    captain already named raising that reputation by 1 instead (D10), and Lap of Luxury's
    +2 Wealth (at most 10). A granted reputation above its cap is kept, and counts as the cap
    (D9).

    Raises ``PermissionDenied`` for a player, ``ValidationError`` for an unknown trait, a
    take beyond its limit, a missing parameter or wording, a prerequisite not met (At Home
    in the Ward Room for a rating, by the station aboard).
    """
    character = _locked_character(character)
    _require_gm(actor, character, "gives a character a trait")
    parameter = (parameter or "").strip()
    if trait not in TRAITS:
        raise ValidationError({"trait": f"{trait!r} is not a trait."})
    definition = TRAITS[trait]
    if definition.parameter and not parameter:
        raise ValidationError({"parameter": f"{definition.name}: name the "
                                            f"{definition.parameter}."})
    if len(parameter) > 200:
        raise ValidationError({"parameter": "At most 200 characters."})
    if isinstance(times, bool) or not isinstance(times, int) or times < 1:
        raise ValidationError({"times": "A trait is taken a whole number of times, at least 1."})
    taken = character.trait_takes()
    taken[trait] = taken.get(trait, 0) + times
    try:
        check_takes(taken)
        grants = [g for _ in range(times) for g in reputation_grants(
            trait, parameter, reputations)]
    except TraitError as exc:
        raise ValidationError({"trait": str(exc)}) from None
    if not meets_prerequisites(trait, _rank_category(character)):
        raise ValidationError({"trait": f"{definition.name} may be taken only by Officers and "
                                        "Ward Room Warrant Officers."})
    row, created = CharacterTrait.objects.get_or_create(
        character=character, trait=trait, parameter=parameter, defaults={"times": times})
    if not created:
        row.times += times
        row.save(update_fields=["times"])
    granted = []
    for grant in grants:
        rep = character.reputations.filter(
            kind=grant["kind"], descriptor=grant["descriptor"], subject=grant["subject"]
        ).first() if trait == "protege" else None
        if rep is not None:
            rep.value += grant["value"]
            rep.version += 1
            rep.save(update_fields=["value", "version"])
        else:
            rep = Reputation.objects.create(character=character, **grant)
        granted.append(f"“{rep}” {rep.value}")
    changes = {f"trait {TRAITS[trait].name}": [taken[trait] - times or None, taken[trait]]}
    wealth = wealth_bonus({trait: times})
    if wealth:
        new = min(MAX_WEALTH, character.wealth + wealth)
        changes["wealth"] = [character.wealth, new]
        character.wealth = new
        character.version += 1
        character.save(update_fields=["wealth", "version", "updated_at"])
    history_record(character=character, actor=actor, changes=changes)
    what = f" with {', '.join(granted)}" if granted else ""
    log_append(campaign=character.campaign, kind="character.trait", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{actor} gave {character} the trait {row}{what}.",
               data={"character": character.pk, "trait": trait, "times": row.times})
    return row


@transaction.atomic
def traits_record(*, character: Character, actor, taken) -> list[CharacterTrait]:
    """``character``'s traits as character creation chose them (BtQ L1025-1115, Step 7):
    ``taken`` ``[{"key", "times", "detail"}]``. The rows only: what the traits grant
    (reputations, Lap of Luxury's Wealth) is already on the sheet creation built, so nothing
    is granted again, unlike :func:`trait_add`. ``ValidationError`` for an unknown trait or a
    take beyond its limit."""
    character = _locked_character(character)
    _require_gm(actor, character, "records a character's traits")
    counts = character.trait_takes()
    rows = []
    for entry in taken:
        key = entry.get("key")
        if key not in TRAITS:
            raise ValidationError({"trait": f"{key!r} is not a trait."})
        times = int(entry.get("times") or 1)
        counts[key] = counts.get(key, 0) + times
        parameter = str(entry.get("detail") or "").strip()[:200]
        row, created = CharacterTrait.objects.get_or_create(
            character=character, trait=key, parameter=parameter, defaults={"times": times})
        if not created:
            row.times += times
            row.save(update_fields=["times"])
        rows.append(row)
    try:
        check_takes(counts)
    except TraitError as exc:
        raise ValidationError({"trait": str(exc)}) from None
    if rows:
        history_record(character=character, actor=actor, changes={
            f"trait {TRAITS[r.trait].name}": [None, r.times] for r in rows})
    return rows


def trait_period(character: Character, key: str) -> tuple[str, bool]:
    """The period trait ``key``'s uses count in for ``character`` now, and whether it is one
    the journal records as under way: ``("session:<id>", True)``, the session being played
    (not yet ended), for a per-session trait; ``("mission:<id>", True)``, his Naval Mission
    under way, for Jack Tar. When none is under way the uses still count (the book's traits
    are used at the table, and every game has a session and a current Naval Mission: BtQ
    L1490-1493): in ``("after-session:<id>", False)``, the time since the last session
    (``0`` before the first), given back when the GM starts the next one; for Jack Tar in
    ``("after-mission:<id>", False)``, the time since his last Naval Mission began."""
    if limited_use(key) == "per_naval_mission":
        missions = Mission.objects.filter(campaign=character.campaign, kind="naval",
                                          cast__character_id=character.pk)
        mission = missions.filter(status=Mission.Status.ACTIVE).order_by("pk").first()
        if mission is not None:
            return f"mission:{mission.pk}", True
        last = missions.order_by("-pk").values_list("pk", flat=True).first()
        return f"after-mission:{last or 0}", False
    sessions = Session.objects.filter(campaign=character.campaign)
    session = sessions.filter(ended_at__isnull=True).order_by("-created_at", "-pk").first()
    if session is not None:
        return f"session:{session.pk}", True
    last = sessions.order_by("-created_at", "-pk").values_list("pk", flat=True).first()
    return f"after-session:{last or 0}", False


def trait_uses(character: Character) -> list[dict]:
    """The character's traits of limited use with what is left of them now:
    ``[{"key", "name", "per", "uses", "left", "period", "under_way"}]`` (``per`` "session"
    or "Naval Mission"; ``period`` and ``under_way`` from :func:`trait_period`:
    ``under_way`` false when no session, or Naval Mission, is recorded as under way, and
    the uses count until the next one begins)."""
    out = []
    for key, times in character.trait_takes().items():
        per = limited_use(key)
        if per is None:
            continue
        period, under_way = trait_period(character, key)
        out.append({"key": key, "name": TRAITS[key].name, "uses": times, "period": period,
                    "under_way": under_way,
                    "per": "Naval Mission" if per == "per_naval_mission" else "session",
                    "left": uses_left(key, times, character.trait_uses, period)})
    return out


def trait_left(character: Character, key: str) -> int:
    """The uses of ``character``'s trait ``key`` left now (:func:`trait_uses`); 0 for a
    trait he has not taken. ``TraitError`` for a trait not of limited use."""
    times = character.trait_takes().get(key, 0)
    if not times:
        return 0
    return uses_left(key, times, character.trait_uses, trait_period(character, key)[0])


def _record_uses(character: Character, actor, trait: str, count: int, *, where: str = ""
                 ) -> int:
    """Spend ``count`` uses of ``character``'s (locked) trait ``trait`` in its period now,
    at most what is left; history and journal say so (``where`` what spent them, " in the
    fight “Duel”"). Returns the uses left. ``TraitError`` when none is left."""
    definition, times = TRAITS[trait], character.trait_takes()[trait]
    period, under_way = trait_period(character, trait)
    before = uses_left(trait, times, character.trait_uses, period)
    ledger = character.trait_uses
    for _ in range(max(1, min(count, before))):
        ledger = use(trait, times, ledger, period)
    left = uses_left(trait, times, ledger, period)
    character.trait_uses = ledger
    character.version += 1
    character.save(update_fields=["trait_uses", "version", "updated_at"])
    history_record(character=character, actor=actor,
                   changes={f"uses of {definition.name} left": [before, left]})
    per = "Naval Mission" if limited_use(trait) == "per_naval_mission" else "session"
    until = "" if under_way else f"; no {per} is recorded as under way, so until the next"
    log_append(campaign=character.campaign, kind="character.trait_used", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{character} uses {definition.name}{where} ({left} use"
                    f"{'' if left == 1 else 's'} left{until}).",
               data={"character": character.pk, "trait": trait, "period": period,
                     "used": before - left})
    return left


@transaction.atomic
def trait_use(*, character: Character, actor, trait: str, version) -> Character:
    """The player (of their own PC) or the GM uses one of ``character``'s traits of limited
    use (BtQ L1060, L1074, L1084; A18: one use per take): counted in the session under way,
    or for Jack Tar in his Naval Mission under way, and refused once spent until the next
    one; with none under way, counted until the next begins (:func:`trait_period`).
    Jonah's use costs his Naval Mission a failed challenge
    (``campaigns.missions.services.mission_jonah``), so only the GM records it. What the
    trait then does at the table (a test repeated, a wound ignored) the GM applies; a fight
    spends Cheat Death! by itself (:func:`trait_uses_spent`).

    ``ValidationError`` (field ``trait``) for a trait he has not taken or not of limited
    use, or none left; ``PermissionDenied`` for another player; ``StaleVersion`` from an
    old ``version``.
    """
    character = _locked_character(character)
    access = character_access(actor, character)
    if access not in ("gm", "owner") or (trait == "jonah" and access != "gm"):
        raise PermissionDenied("Only the GM records a use of Jonah (it costs the Naval "
                               "Mission a challenge)." if access == "owner" else
                               "You may use only your own character's traits.")
    check_version(character, version)
    times = character.trait_takes().get(trait)
    if not times or trait not in TRAITS:
        raise ValidationError({"trait": f"{character} has not taken that trait."})
    if limited_use(trait) is None:
        raise ValidationError({"trait": f"{TRAITS[trait].name} is not of limited use: it "
                                        "applies whenever it fits."})
    try:
        _record_uses(character, actor, trait, 1)
    except TraitError as exc:
        raise ValidationError({"trait": str(exc)}) from None
    if trait == "jonah":
        mission_jonah(campaign=character.campaign, character_id=character.pk, actor=actor)
    return character


def trait_uses_spent(*, character: Character, trait: str, count: int, where: str,
                     actor=None) -> dict | None:
    """A fight's write-back: ``count`` uses of ``character``'s trait ``trait`` (Cheat
    Death!) were spent inside the fight ``where`` names, so the sheet spends them too, at
    most what it has left (the GM may have given the fight more). Call it in the
    transaction that writes the fight back. Returns the change, ``{"who", "area", "from",
    "to"}`` (uses left), or ``None`` when nothing was left to spend or ``count`` is 0."""
    if count < 1 or trait not in character.trait_takes():
        return None
    character = _locked_character(character)
    before = trait_left(character, trait)
    if not before:
        return None
    left = _record_uses(character, actor, trait, count, where=f" in {where}")
    return {"who": character.title, "area": f"uses of {TRAITS[trait].name} left",
            "from": before, "to": left}


@transaction.atomic
def trait_remove(*, character_trait: CharacterTrait, actor) -> None:
    """GM: remove a trait row. What it granted (reputations, Wealth) stays on the sheet for
    the GM to change by hand: the book has no rule for losing a trait."""
    row = CharacterTrait.objects.select_for_update().select_related(
        "character__campaign").get(pk=character_trait.pk)
    character = _locked_character(row.character)
    _require_gm(actor, character, "removes a trait")
    name = str(row)
    row.delete()
    history_record(character=character, actor=actor, changes={f"trait {name}": [name, None]})
    log_append(campaign=character.campaign, kind="character.trait_removed", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{actor} removed {character}'s trait {name}.",
               data={"character": character.pk})


# --- Curios and items -------------------------------------------------------------------

ITEM_FIELDS = frozenset({"kind", "name", "skill", "reputation", "weapon", "condition"})


def _set_item_fields(item: Item, character: Character, fields: dict) -> None:
    unknown = set(fields) - ITEM_FIELDS
    if unknown:
        raise ValidationError(f"Unknown item fields: {', '.join(sorted(unknown))}.")
    for field, value in fields.items():
        if field == "reputation":
            if value in (None, ""):
                value = None
            else:
                pk = value.pk if isinstance(value, Reputation) else value
                value = character.reputations.filter(pk=pk).first() if isinstance(
                    pk, int) and not isinstance(pk, bool) else None
                if value is None:
                    raise ValidationError({"reputation": "Choose one of the character's "
                                                         "reputations."})
        elif isinstance(value, str):
            value = value.strip()
        setattr(item, field, value)
    item.full_clean(exclude=["character", "reputation"])
    if item.kind == Item.Kind.CURIO and not (item.skill or item.weapon):
        raise ValidationError({"skill": "A curio adds a card to one skill or weapon: choose "
                                        "it."})


@transaction.atomic
def item_create(*, character: Character, actor, **fields) -> Item:
    """GM: a curio or other item for ``character`` (``kind``, ``name``, ``skill``,
    ``reputation`` (one of theirs, by id), ``weapon``, ``condition``). ``ValidationError``
    naming the field for a bad value (a curio without its skill)."""
    character = _locked_character(character)
    _require_gm(actor, character, "adds an item")
    item = Item(character=character)
    _set_item_fields(item, character, fields)
    item.save()
    history_record(character=character, actor=actor,
                   changes={f"item “{item}”": [None, item.applies_to or item.name]})
    log_append(campaign=character.campaign, kind="character.item", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{actor} gave {character} the {item.get_kind_display().lower()} "
                    f"“{item}”.", data={"character": character.pk, "item": item.pk})
    return item


def _booty_fields(character: Character, booty: dict) -> dict:
    """An item of a creation sheet (``{"kind", "name", "bonus", "for", "when"}``, BtQ
    L522-530, L1007-1017) as :class:`Item` fields: what it adds to read as a skill or a
    weapon (``rules.btq.creation.item_target``), else as one of the character's reputations
    by its subject or whole name; what is none of these is kept in words in its condition."""
    kind, target = item_target(booty.get("for") or "")
    fields = {"kind": booty["kind"], "name": (booty.get("name") or "").strip()[:200] or "Booty"}
    when = (booty.get("when") or "").strip()
    if kind is None and target:
        wanted = target.lower()
        rep = next((r for r in character.reputations.all() if wanted in (
            r.subject.lower(), f"{r.descriptor} {r.subject}".lower())), None)
        if rep is not None:
            fields["reputation"] = rep.pk
        elif booty["kind"] == Item.Kind.SPECIAL_WEAPON:
            kind = "weapon"
        else:
            when = f"for {target}" + (f", {when}" if when else "")
    if kind is not None:
        fields[kind] = target[:60] if kind == "weapon" else target
    fields["condition"] = when[:200]
    return fields


@transaction.atomic
def items_record(*, character: Character, actor, items) -> list[Item]:
    """``character``'s booty as character creation drew it (BtQ L522-530, L1007-1017):
    ``items`` ``[{"kind", "name", "bonus", "for", "when"}]`` as :class:`Item` rows
    (:func:`_booty_fields`), one history entry for them all. GM only (approval);
    ``ValidationError`` naming the field for a bad one, nothing written."""
    character = _locked_character(character)
    _require_gm(actor, character, "records a character's items")
    made = []
    for booty in items:
        item = Item(character=character)
        _set_item_fields(item, character, _booty_fields(character, booty))
        item.save()
        made.append(item)
    if made:
        history_record(character=character, actor=actor, changes={
            f"item “{item}”": [None, item.applies_to or item.name] for item in made})
    return made


def _locked_item(item: Item) -> Item:
    return Item.objects.select_for_update(of=("self",)).select_related(
        "character__campaign", "reputation").get(pk=item.pk)


@transaction.atomic
def item_update(*, item: Item, actor, version, **fields) -> Item:
    """GM: change the fields given; ``StaleVersion`` if it was saved since ``version``."""
    item = _locked_item(item)
    character = item.character
    _require_gm(actor, character, "changes an item")
    check_version(item, version)
    before = {f: str(getattr(item, f) or "") for f in ITEM_FIELDS}
    _set_item_fields(item, character, fields)
    item.version += 1
    item.save()
    after = {f: str(getattr(item, f) or "") for f in ITEM_FIELDS}
    history_record(character=character, actor=actor, changes={
        f"item “{item}” {f}": [before[f], after[f]] for f in sorted(ITEM_FIELDS)
        if before[f] != after[f]})
    log_append(campaign=character.campaign, kind="character.item", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{actor} edited {character}'s item “{item}”.",
               data={"character": character.pk, "item": item.pk})
    return item


@transaction.atomic
def item_delete(*, item: Item, actor, version) -> None:
    """GM: remove an item; ``StaleVersion`` as :func:`item_update`."""
    item = _locked_item(item)
    character = item.character
    _require_gm(actor, character, "removes an item")
    check_version(item, version)
    name = item.name
    item.delete()
    history_record(character=character, actor=actor, changes={f"item “{name}”": [name, None]})
    log_append(campaign=character.campaign, kind="character.item_removed", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{actor} removed {character}'s item “{name}”.",
               data={"character": character.pk})


# --- Healing and Great Hardship -------------------------------------------------------------

HEAL_HOW = {"test": "simple_test", "challenge": "challenge", "mission": "mission"}
"""How a heal was earned -> the route it must be (``rules.btq.damage.heal_route``)."""


def heal_area(character: Character, area: str, reputation: Reputation | None = None
              ) -> tuple[str, DamageState, str]:
    """``(kernel area, state, lock key)`` of ``character``'s ``area`` (``"health"``,
    ``"wealth"`` or ``"reputation"`` with ``reputation``): the kernel's area key
    (``rules.btq.damage.AREAS``: a reputation by its kind), its state now, and the key its
    heal lock is kept under. ``ValidationError`` for anything else."""
    if area == "reputation":
        if reputation is None or reputation.character_id != character.pk:
            raise ValidationError({"area": "Choose one of the character's reputations."})
        return reputation.kind, DamageState(reputation.damage_state), \
            f"reputation:{reputation.pk}"
    if area not in AREA_FIELDS:
        raise ValidationError({"area": f"{area!r} is not an area: health, wealth or a "
                                       "reputation (Ship Morale is the ship's)."})
    return area, DamageState(getattr(character, AREA_FIELDS[area])), area


def heal_check(character: Character, area: str, reputation: Reputation | None = None,
               *, how: str = "test") -> HealRoute:
    """The route by which ``area`` heals now (BtQ L1361-1366), which must be ``how``
    (``"test"``: a simple test, ``"challenge"``, ``"mission"``); a test is refused while the
    area is locked by a failed attempt (BtQ L1366). ``ValidationError`` with the rule's
    reason."""
    kind, state, key = heal_area(character, area, reputation)
    try:
        route = check_heal(kind, state, locked=how == "test" and key in character.heal_locks)
    except HealError as exc:
        raise ValidationError({"area": str(exc)}) from None
    if HEAL_HOW.get(how) != route.method:
        ways = {"simple_test": "a simple test of its healing skill",
                "challenge": "a successful challenge of the current Mission",
                "mission": "a whole new Mission"}
        raise ValidationError({"area": f"{DamageState(state).label} "
                                       f"{_area_name(area, reputation)} heals through "
                                       f"{ways[route.method]}."})
    return route


def _area_name(area: str, reputation: Reputation | None) -> str:
    return f"“{reputation}”" if area == "reputation" else _LABELS[AREA_FIELDS[area]]


@transaction.atomic
def character_heal(*, character: Character, area: str, actor, how: str,
                   reputation: Reputation | None = None, note: str = "") -> DamageState:
    """Heal ``area`` one step (BtQ L1361-1366): ``how`` ``"test"`` (an Injured area, a simple
    test passed: called by ``combat.healing`` when its card test ends), ``"challenge"`` (a
    Maimed area, a successful challenge narrated to include the healing) or ``"mission"``
    (a Dead area, a whole new Mission or its reward). A GM records a challenge's or a
    mission's heal (the missions' services may call this too). Health healed to Healthy
    clears Is But A Scratch's used level (A17; under the setting ``scratch_resets`` it may
    come back at a session's end instead, :func:`scratches_restore`). Returns the new state;
    ``ValidationError`` for a heal the rules do not allow (Health Dead, a route other than
    ``how``)."""
    character = _locked_character(character)
    if how != "test":
        _require_gm(actor, character, "records a heal through a challenge or a Mission")
    if reputation is not None:
        reputation = Reputation.objects.select_for_update().get(pk=reputation.pk)
    route = heal_check(character, area, reputation, how=how)
    before = heal_area(character, area, reputation)[1]
    character_damage_set(character=character, area=area, state=route.to,
                         reputation=reputation, actor=actor,
                         scratched=False if area == "health" and route.to == 0 and
                         scratch_restored("heal", character.campaign.rules_settings())
                         else None)
    why = {"test": "a simple test", "challenge": "a challenge", "mission": "a Mission"}[how]
    log_append(campaign=character.campaign, kind="character.healed", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{character}'s {_area_name(area, reputation)} heals from "
                    f"{before.label} to {route.to.label} ({why}){note}.",
               data={"character": character.pk, "area": area, "how": how,
                     "from": before.label, "to": route.to.label})
    return route.to


@transaction.atomic
def character_scar(*, character: Character, actor, result: dict, note: str = "") -> Character:
    """What the optional Scar rule's card left (``rules.btq.scar``'s outcome data: ``kind``,
    ``text``, ``measure``; BtQ L1318-1320), written onto the sheet when its draw ends
    (``combat.healing``): the Measure chosen loses 1 (never below 1, as no Measure goes),
    and the scar, illness or loss is kept in the sheet's notes. The card is no longer due.
    The draw decided it, whoever made its last choice; the Mission an infection costs is
    the caller's (``campaigns.missions.services.mission_scar``)."""
    character = _locked_character(character)
    changes: dict = {}
    measure = result.get("measure")
    if measure in MEASURES:
        old = getattr(character, measure)
        setattr(character, measure, max(1, old - 1))
        changes[MEASURES[measure]] = [old, getattr(character, measure)]
    line = f"Scar: {result['text']}"
    character.notes = (character.notes.rstrip() + "\n" + line).strip()
    changes["notes"] = ["", line]
    character.scar_due = False
    character.version += 1
    character.save()
    history_record(character=character, actor=actor, changes=changes)
    log_append(campaign=character.campaign, kind="character.scar", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{character}'s wound leaves its mark: {result['text']}{note}",
               data={"character": character.pk, "kind": result["kind"],
                     "measure": measure})
    return character


@transaction.atomic
def character_heal_failed(*, character: Character, area: str, actor,
                          reputation: Reputation | None = None, note: str = "") -> None:
    """A heal of ``area`` failed: no new attempt until the character completes another
    challenge (BtQ L1366; :func:`character_heal_unlock`). Logged."""
    character = _locked_character(character)
    key = heal_area(character, area, reputation)[2]
    if key not in character.heal_locks:
        character.heal_locks = [*character.heal_locks, key]
        character.version += 1
        character.save(update_fields=["heal_locks", "version", "updated_at"])
    log_append(campaign=character.campaign, kind="character.heal_failed", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{character}'s {_area_name(area, reputation)} does not heal{note}: no "
                    "new attempt before another challenge is completed.",
               data={"character": character.pk, "area": key})


@transaction.atomic
def character_heal_unlock(*, character: Character, actor) -> None:
    """The character completed another challenge: every area whose heal failed may be tried
    again (BtQ L1366), and the penalties a Great Hardship point lifted for that challenge
    are back. The GM records it (or the missions' services when a challenge ends)."""
    character = _locked_character(character)
    _require_gm(actor, character, "records a completed challenge")
    if character.heal_locks or character.overcoming:
        character.heal_locks, character.overcoming = [], []
        character.version += 1
        character.save(update_fields=["heal_locks", "overcoming", "version", "updated_at"])
        log_append(campaign=character.campaign, kind="character.heal_unlocked", actor=actor,
                   gm_only=character.kind == Character.Kind.NPC,
                   text=f"{character} completed a challenge: failed heals may be tried again.",
                   data={"character": character.pk})


HARDSHIP_AREAS = {"guts": "health", "discipline": "ship_morale", "influence": "wealth"}
"""The area whose penalties a spent point of each Measure lifts (BtQ L1385-1411). A Charm or
Influence point for a reputation is not offered: the GM lifts that penalty with a
modifier."""


@transaction.atomic
def character_hardship_spend(*, character: Character, measure: str, actor) -> int:
    """Overcoming Great Hardship (BtQ L1415-1426, D20): the character spends 1 point of
    ``measure`` (Guts, Discipline or Influence) to ignore the penalties of its area (Health,
    Ship Morale, Wealth: the pool's -1 or -3 and the Maimed gate) in their tests until the
    current challenge is over (:func:`character_heal_unlock`; one challenge per spend, the
    digest's reading, a battle or skirmish counting as one); the Measure (and the caps and
    Discipline cards that follow it) stays lower until the end of the Naval Mission
    (:func:`character_hardship_end`). The PC's player or the GM. Returns the Measure now;
    ``ValidationError`` if the campaign does not use the rule or the Measure is at 1."""
    character = _locked_character(character)
    if character_access(actor, character) not in ("gm", "owner"):
        raise PermissionDenied("You may edit only your own characters.")
    if measure not in HARDSHIP_AREAS:
        raise ValidationError({"measure": f"{measure!r} is not Guts, Discipline or "
                                          "Influence."})
    now = character.current_measure(measure)
    try:
        after = overcome_great_hardship(now, character.campaign.rules_settings())
    except TestError as exc:
        raise ValidationError({"measure": str(exc)}) from None
    character.hardship = {**character.hardship,
                          measure: int(character.hardship.get(measure, 0)) + 1}
    character.overcoming = sorted({*character.overcoming, HARDSHIP_AREAS[measure]})
    character.version += 1
    character.save(update_fields=["hardship", "overcoming", "version", "updated_at"])
    history_record(character=character, actor=actor,
                   changes={f"{MEASURES[measure]} (current)": [now, after]})
    log_append(campaign=character.campaign, kind="character.hardship", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{character} overcomes great hardship: {MEASURES[measure]} {now} -> "
                    f"{after} until the end of the Naval Mission.",
               data={"character": character.pk, "measure": measure})
    return after


@transaction.atomic
def character_hardship_end(*, character: Character, actor) -> None:
    """GM: the Naval Mission ended: every Measure is back to full (BtQ L1422)."""
    character = _locked_character(character)
    _require_gm(actor, character, "ends a Naval Mission's hardship")
    if character.hardship or character.overcoming:
        history_record(character=character, actor=actor, changes={
            f"{MEASURES[m]} (current)": [character.current_measure(m), getattr(character, m)]
            for m in character.hardship})
        character.hardship, character.overcoming = {}, []
        character.version += 1
        character.save(update_fields=["hardship", "overcoming", "version", "updated_at"])
        log_append(campaign=character.campaign, kind="character.hardship_end", actor=actor,
                   gm_only=character.kind == Character.Kind.NPC,
                   text=f"{character}'s Measures are back to full: the Naval Mission ended.",
                   data={"character": character.pk})


# --- Import -------------------------------------------------------------------------------

EXPORT_FORMAT = "quarterdeck-character"
EXPORT_VERSION = 3
"""The schema version of a character's export. Version 1: the sheet before traits and
curios (name, kind, rank, seniority, Measures, skills, Wealth, Health and Wealth damage,
notes, GM notes, reputations). Version 2 adds ``professions``, ``scratched``, ``hardship``,
``overcoming``,
``heal_locks``, ``traits`` and ``items``. Version 3 adds ``trait_uses``, the uses of his
traits of limited use: ``{trait key: {"period", "used"}}`` (:func:`trait_period`; a period
of another campaign gives them all back there)."""

_V1_FIELDS = ("name", "kind", "rank", "seniority", *MEASURES, "skills", "wealth",
              "health_state", "wealth_state", "notes", "gm_notes")
_V2_FIELDS = ("professions", "scratched")


def _export_error(where: str, message) -> ValidationError:
    """The refusal of an import at ``where`` (``"reputation 2"``): ``message`` a text, or a
    ``ValidationError`` whose errors are named by their fields (``name: This field cannot
    be blank.``)."""
    if isinstance(message, ValidationError):
        if hasattr(message, "error_dict"):
            message = "; ".join(f"{field.replace('_', ' ')}: {' '.join(errors)}"
                                if field != NON_FIELD_ERRORS else " ".join(errors)
                                for field, errors in message.message_dict.items())
        else:
            message = "; ".join(message.messages)
    return ValidationError({"data": f"{where}: {message}"})


@transaction.atomic
def character_import(*, campaign: Campaign, actor, data, owner=None) -> Character:
    """GM: a new character in ``campaign`` from an export (``characters.selectors.
    character_export``) of schema version 1, 2 or 3, its values kept (a version 1 export
    has no traits, items or profession specialisations, a version 2 no trait uses);
    ``owner`` the player of a PC (a member). All or nothing: ``ValidationError`` on
    ``data`` naming the first bad part."""
    if membership_role(actor, campaign) != Membership.Role.GM:
        raise PermissionDenied("Only a GM imports a character.")
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ValidationError({"data": f"Not a character export: it has no \"format\": "
                                       f"\"{EXPORT_FORMAT}\"."})
    version = data.get("version")
    if version not in (1, 2, 3) or isinstance(version, bool):
        raise ValidationError({"data": f"Schema version {version!r} is not one this site "
                                       f"reads (1 to {EXPORT_VERSION})."})
    sheet = data.get("character")
    if not isinstance(sheet, dict):
        raise ValidationError({"data": "The export has no \"character\"."})
    allowed = _V1_FIELDS + (_V2_FIELDS if version >= 2 else ())
    fields = {k: sheet[k] for k in allowed if k in sheet and k != "name"}
    kind = fields.pop("kind", Character.Kind.PC)
    if kind == Character.Kind.PC and owner is None:
        raise ValidationError({"owner": "A player character needs a player."})
    try:
        character = character_create(campaign=campaign, actor=actor, name=sheet.get("name"),
                                     kind=kind, owner=owner if kind == Character.Kind.PC
                                     else None, **fields)
    except ValidationError as exc:
        raise _export_error("the sheet", exc) from None
    except (TypeError, ValueError) as exc:
        raise _export_error("the sheet", exc) from None
    if version >= 2:
        hardship = sheet.get("hardship") or {}
        if not isinstance(hardship, dict) or any(
                k not in MEASURES or not isinstance(v, int) or isinstance(v, bool) or v < 0
                for k, v in hardship.items()):
            raise _export_error("hardship", "a mapping of Measure to points spent")
        locks = sheet.get("heal_locks") or []
        if not isinstance(locks, list) or any(lock not in AREA_FIELDS for lock in locks):
            raise _export_error("heal_locks", "a list of areas (health, wealth)")
        overcoming = sheet.get("overcoming") or []
        if not isinstance(overcoming, list) or any(
                a not in HARDSHIP_AREAS.values() for a in overcoming):
            raise _export_error("overcoming", "a list of areas (health, ship_morale, wealth)")
        scar_due = sheet.get("scar_due", False)  # not in the exports made before the rule
        if not isinstance(scar_due, bool):
            raise _export_error("scar_due", "true or false")
        character.hardship, character.heal_locks = hardship, locks
        character.overcoming, character.scar_due = overcoming, scar_due
        character.save(update_fields=["hardship", "heal_locks", "overcoming", "scar_due"])
    reps = {}
    for i, entry in enumerate(sheet.get("reputations") or []):
        if not isinstance(entry, dict):
            raise _export_error(f"reputation {i + 1}", "not a mapping")
        rep = Reputation(character=character)
        try:
            _set_reputation_fields(rep, {k: entry[k] for k in REPUTATION_FIELDS if k in entry})
        except (ValidationError, PermissionDenied) as exc:
            raise _export_error(f"reputation {i + 1}", exc) from None
        rep.save()
        reps[rep.name] = rep
    if version >= 2:
        _import_traits(character, sheet.get("traits") or [])
        if version >= 3:
            _import_trait_uses(character, sheet.get("trait_uses") or {})
        for i, entry in enumerate(sheet.get("items") or []):
            if not isinstance(entry, dict):
                raise _export_error(f"item {i + 1}", "not a mapping")
            item = Item(character=character)
            fields = {k: entry[k] for k in ITEM_FIELDS - {"reputation"} if k in entry}
            if entry.get("reputation"):
                if entry["reputation"] not in reps:
                    raise _export_error(f"item {i + 1}", "its reputation is not on the sheet")
                fields["reputation"] = reps[entry["reputation"]]
            try:
                _set_item_fields(item, character, fields)
            except ValidationError as exc:
                raise _export_error(f"item {i + 1}", exc) from None
            item.save()
    log_append(campaign=campaign, kind="character.imported", actor=actor,
               gm_only=character.kind == Character.Kind.NPC,
               text=f"{actor} imported {character} (schema version {version}).",
               data={"character": character.pk, "version": version})
    return character


def _import_trait_uses(character: Character, ledger) -> None:
    """The uses of his traits of limited use an export (version 3) carries, checked against
    the traits imported: a mapping of a trait he has, of limited use, to ``{"period": text,
    "used": 0 to the times taken}``."""
    taken = character.trait_takes()
    if not isinstance(ledger, dict):
        raise _export_error("trait_uses", "a mapping of trait to its uses")
    for key, entry in ledger.items():
        if key not in taken or limited_use(key) is None:
            raise _export_error(f"trait_uses {key}", "not a trait of limited use he has")
        if not isinstance(entry, dict) or set(entry) != {"period", "used"} or \
                not isinstance(entry["period"], str) or len(entry["period"]) > 60 or \
                not isinstance(entry["used"], int) or isinstance(entry["used"], bool) or \
                not 0 <= entry["used"] <= taken[key]:
            raise _export_error(f"trait_uses {key}", "{\"period\": text, \"used\": 0 to the "
                                                     f"times taken ({taken[key]})}}")
    character.trait_uses = {k: dict(v) for k, v in ledger.items()}
    character.save(update_fields=["trait_uses"])


def _import_traits(character: Character, traits) -> None:
    taken: dict[str, int] = {}
    for i, entry in enumerate(traits):
        if not isinstance(entry, dict) or entry.get("trait") not in TRAITS:
            raise _export_error(f"trait {i + 1}", "not one of the book's traits")
        times = entry.get("times", 1)
        parameter = entry.get("parameter") or ""
        if not isinstance(parameter, str) or len(parameter) > 200:
            raise _export_error(f"trait {i + 1}", "its parameter is a text of at most 200")
        taken[entry["trait"]] = taken.get(entry["trait"], 0) + (
            times if isinstance(times, int) else 0)
        try:
            check_takes(taken)
        except TraitError as exc:
            raise _export_error(f"trait {i + 1}", exc) from None
        CharacterTrait.objects.create(character=character, trait=entry["trait"], times=times,
                                      parameter=parameter.strip())
