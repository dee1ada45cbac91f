"""Use cases of campaigns: creation, settings, invitations, members and the log (those of
the card tests are in :mod:`combat.card_tests.services`).

Views check access through ``campaigns.selectors`` first; these functions change state
inside a transaction, lock the rows they change and append to the campaign log.
"""

import secrets

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns import journal
from campaigns.models import Campaign, CampaignLogEntry, Membership, Session
from campaigns.selectors import roles_forget
from campaigns.signals import member_removed
from rules.btq.settings import SETTINGS, SettingError, resolve


class Conflict(Exception):
    """A step refused because the record ``obj`` is no longer as the user saw it: saved
    since (:class:`StaleVersion`), or in a state that no longer allows the step
    (``combat.card_tests.services.IllegalStep``). Nothing was written. The API answers 409
    with the reason and the version now saved (``config.api.exception_handler``)."""

    def __init__(self, obj, message: str):
        self.obj = obj
        super().__init__(message)


class StaleVersion(Conflict):
    """A write made from an older version of a record than the one stored. Nothing was
    written; the message tells the user to reload."""

    def __init__(self, obj, seen):
        self.seen = seen
        super().__init__(
            obj,
            f"“{obj}” was changed by someone else after you opened it (your copy is version "
            f"{seen}, the saved one is version {obj.version}). Your changes were not saved: "
            "reload, then make them again."
        )


def check_version(obj, seen) -> None:
    """Raises :class:`StaleVersion` unless ``seen`` (what the user edited) is ``obj.version``.
    Call it on a row locked with ``select_for_update``."""
    try:
        seen_int = int(seen)
    except (TypeError, ValueError):
        raise ValidationError({"version": "The version you edited is missing."}) from None
    if seen_int != obj.version:
        raise StaleVersion(obj, seen_int)


def log_append(
    *, campaign: Campaign, kind: str, text: str, data: dict | None = None,
    gm_only: bool = False, actor=None, record: tuple[str, int] | None = None,
) -> CampaignLogEntry:
    """Append one entry to the campaign log, the journal. ``kind`` a stable machine name,
    ``text`` one line for people, ``data`` JSON details; ``gm_only`` hides it from players.
    ``record`` (kind, id) links it to its record, else ``data`` names it
    (``campaigns.journal.record_of``); ``data["character"]`` is the character it concerns.
    It belongs to the session being played, if one is."""
    data = data or {}
    record_kind, record_id = record or journal.record_of(data)
    character = data.get("character")
    return CampaignLogEntry.objects.create(
        campaign=campaign, kind=kind, text=text, data=data, gm_only=gm_only, actor=actor,
        record_kind=record_kind, record_id=record_id,
        character_id=character if isinstance(character, int) else None,
        session=Session.objects.filter(campaign=campaign, ended_at=None,
                                       played_on__lte=timezone.localdate())
        .order_by("-played_on", "-id").first(),
    )


def clean_settings(settings) -> dict:
    """The full campaign settings with ``settings`` applied (``rules.btq.settings.resolve``).
    A value must be one of the setting's choices and of its type (JSON ``0`` is not
    ``false``). Raises ``ValidationError`` naming the setting."""
    if not isinstance(settings, dict):
        raise ValidationError({"settings": "Settings are a mapping of setting name to value."})
    for name, value in settings.items():
        setting = SETTINGS.get(name)
        if setting is not None and not any(
            type(value) is type(choice) and value == choice for choice in setting.choices
        ):
            allowed = ", ".join(repr(c) for c in setting.choices)
            raise ValidationError({"settings": f"{name}: {value!r} is not one of {allowed}"})
    try:
        return resolve(settings)
    except SettingError as exc:
        raise ValidationError({"settings": str(exc)}) from None


def _locked(campaign: Campaign) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


@transaction.atomic
def campaign_create(*, name: str, gm, description: str = "") -> Campaign:
    """A new campaign with ``gm`` as its first GM."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "A campaign needs a name."})
    campaign = Campaign.objects.create(name=name, description=description.strip())
    Membership.objects.create(campaign=campaign, user=gm, role=Membership.Role.GM)
    roles_forget()
    log_append(campaign=campaign, kind="campaign.created", text=f"{gm} created the campaign.",
               actor=gm)
    return campaign


@transaction.atomic
def campaign_update(
    *, campaign: Campaign, actor, version, name: str | None = None,
    description: str | None = None, settings: dict | None = None,
) -> Campaign:
    """Change the fields given (the others are left as they are). ``settings`` is the full
    set the GM chose; only the values that differ from the defaults are stored. Raises
    ``ValidationError`` for an empty name or a setting that does not exist or has no such
    value, :class:`StaleVersion` if the campaign changed since ``version``. Only the fields
    whose value changed are saved and logged: the name and description for everyone, the
    settings for the GMs (their page is the GMs'), each named with its old and new value
    (:func:`_settings_words`)."""
    campaign = _locked(campaign)
    check_version(campaign, version)
    changed = []
    if name is not None:
        if not name.strip():
            raise ValidationError({"name": "A campaign needs a name."})
        if campaign.name != name.strip():
            campaign.name = name.strip()
            changed.append("name")
    if description is not None and campaign.description != description.strip():
        campaign.description = description.strip()
        changed.append("description")
    chosen: dict[str, list] = {}
    if settings is not None:
        full = clean_settings(settings)
        stored = {k: v for k, v in full.items() if v != SETTINGS[k].default}
        if stored != campaign.settings:
            before = campaign.rules_settings()
            chosen = {name: [before[name], full[name]] for name in SETTINGS
                      if before[name] != full[name]}
            campaign.settings = stored
    if not changed and not chosen:
        return campaign
    campaign.version += 1
    campaign.save()
    if changed:
        log_append(campaign=campaign, kind="campaign.updated", actor=actor,
                   text=f"{actor} changed the campaign's {', '.join(changed)}.",
                   data={"fields": changed})
    if chosen:  # GM-only, as the settings page is
        log_append(campaign=campaign, kind="campaign.settings", actor=actor, gm_only=True,
                   text=f"{actor} changed the campaign settings: {_settings_words(chosen)}.",
                   data={"settings": chosen})
    return campaign


def _settings_words(chosen: dict[str, list]) -> str:
    """Settings changed, ``{name: [old, new]}``, in the words of the settings page: each
    setting's description and its choices' labels, "A reputation added to a losing pool
    drops: one level, whatever the winner scored → to the level of the winner's best
    success", joined by "; "."""
    return "; ".join(
        f"{SETTINGS[name].description.rstrip(',')}: {SETTINGS[name].choices[old]} → "
        f"{SETTINGS[name].choices[new]}" for name, (old, new) in chosen.items())


@transaction.atomic
def campaign_invite_regenerate(*, campaign: Campaign, actor) -> str:
    """A new invitation token; the previous link stops working. Returns the token."""
    campaign = _locked(campaign)
    campaign.invite_token = secrets.token_urlsafe(24)
    campaign.save(update_fields=["invite_token"])
    log_append(campaign=campaign, kind="invite.created", actor=actor, gm_only=True,
               text=f"{actor} issued a new invitation link.")
    return campaign.invite_token


@transaction.atomic
def campaign_invite_revoke(*, campaign: Campaign, actor) -> None:
    """Revoke the invitation link: nobody can join with it any more."""
    campaign = _locked(campaign)
    campaign.invite_token = None
    campaign.save(update_fields=["invite_token"])
    log_append(campaign=campaign, kind="invite.revoked", actor=actor, gm_only=True,
               text=f"{actor} revoked the invitation link.")


@transaction.atomic
def campaign_join(*, token: str, user) -> tuple[Membership, bool]:
    """Join the campaign whose live invitation link has ``token`` as a player.

    Returns ``(membership, joined)``; ``joined`` is ``False`` if ``user`` was already a member
    (their role is unchanged). Raises ``ValidationError`` if the link is not live.
    """
    campaign = Campaign.objects.select_for_update().filter(invite_token=token).first()
    if not token or campaign is None:
        raise ValidationError("This invitation link is no longer valid. Ask your GM for a new one.")
    existing = Membership.objects.filter(campaign=campaign, user=user).first()
    if existing is not None:
        return existing, False
    membership = Membership.objects.create(
        campaign=campaign, user=user, role=Membership.Role.PLAYER
    )
    roles_forget()
    log_append(campaign=campaign, kind="member.joined", actor=user,
               text=f"{user} joined the campaign as a player.")
    return membership, True


def _other_gms(membership: Membership) -> bool:
    return (
        Membership.objects.filter(campaign=membership.campaign, role=Membership.Role.GM)
        .exclude(pk=membership.pk)
        .exists()
    )


@transaction.atomic
def membership_set_role(*, membership: Membership, role: str, actor) -> Membership:
    """Make a member a GM or a player. The last GM cannot stop being one."""
    if role not in Membership.Role.values:
        raise ValidationError({"role": f"{role!r} is not a role (gm or player)."})
    _locked(membership.campaign)
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == Membership.Role.GM and role != membership.role and not _other_gms(
        membership
    ):
        raise ValidationError("A campaign needs at least one GM: make someone else GM first.")
    membership.role = role
    membership.save(update_fields=["role"])
    roles_forget()
    log_append(campaign=membership.campaign, kind="member.role", actor=actor,
               text=f"{actor} made {membership.user} {membership.get_role_display()}.",
               data={"user": membership.user_id, "role": role})
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, actor) -> None:
    """Remove a member from the campaign. The last GM cannot leave. The apps above are told
    (``campaigns.signals.member_removed``) in the same transaction: the member's PCs stay,
    without a player, so the GM confirms their tests and may give them to another player."""
    _locked(membership.campaign)
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == Membership.Role.GM and not _other_gms(membership):
        raise ValidationError("A campaign needs at least one GM: make someone else GM first.")
    membership.delete()
    roles_forget()
    log_append(campaign=membership.campaign, kind="member.removed", actor=actor,
               text=f"{actor} removed {membership.user} from the campaign.",
               data={"user": membership.user_id})
    member_removed.send(sender=Membership, membership=membership, actor=actor)
