"""Who may see a campaign: the single place that decides it (STYLE.md, Zulip access helpers).

Every page and API view reaches a campaign through :func:`campaign_for_user`; outsiders get
a 404, so they cannot learn that a campaign exists.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.core.exceptions import PermissionDenied
from django.db import models
from django.db.models import QuerySet
from django.http import Http404

from campaigns.models import Campaign, CampaignLogEntry, Membership


def campaigns_for_user(user) -> QuerySet[Campaign]:
    """The campaigns ``user`` is a member of (none for an anonymous user)."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(memberships__user=user).distinct()


def memberships_for_user(user) -> QuerySet[Membership]:
    """The user's memberships with their campaigns, by campaign name."""
    if not user.is_authenticated:
        return Membership.objects.none()
    return Membership.objects.filter(user=user).select_related("campaign").order_by(
        "campaign__name", "campaign_id"
    )


def gm_campaigns(user) -> QuerySet[Campaign]:
    """The campaigns ``user`` is a GM of (none for an anonymous user)."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(memberships__user=user,
                                   memberships__role=Membership.Role.GM)


def known_to_user(user, queryset: QuerySet, revealed: models.Q) -> QuerySet:
    """The rows of ``queryset`` (things that belong to a campaign: NPCs, ships) that ``user``
    may know of: every one in the campaigns they run, those matching ``revealed`` in the
    campaigns they play in, none elsewhere. The one rule behind every "does this exist for
    you?" of the apps."""
    return queryset.filter(models.Q(campaign__in=gm_campaigns(user)) | revealed,
                           campaign__in=campaigns_for_user(user))


def campaign_for_user(user, campaign_id) -> Campaign:
    """The campaign ``campaign_id`` if ``user`` is a member; ``Http404`` otherwise."""
    try:
        return campaigns_for_user(user).get(pk=campaign_id)
    except (Campaign.DoesNotExist, ValueError, TypeError):
        raise Http404("No such campaign.") from None


_roles: ContextVar[dict | None] = ContextVar("membership_roles", default=None)
"""The roles looked up so far in this request, by ``(user id, campaign id)``; ``None``
outside a request (a worker, a shell): then every call asks the database."""


@contextmanager
def roles_remembered() -> Iterator[None]:
    """Within it, :func:`membership_role` asks the database once per user and campaign
    (``campaigns.middleware``: one request). A service that changes a role calls
    :func:`roles_forget`."""
    token = _roles.set({})
    try:
        yield
    finally:
        _roles.reset(token)


def roles_forget() -> None:
    """Forget the roles remembered (a membership was created, changed or removed)."""
    remembered = _roles.get()
    if remembered is not None:
        remembered.clear()


def membership_role(user, campaign: Campaign) -> str | None:
    """``"gm"``, ``"player"`` or ``None`` (not a member, or anonymous)."""
    if not user.is_authenticated:
        return None
    remembered = _roles.get()
    key = (user.pk, campaign.pk)
    if remembered is not None and key in remembered:
        return remembered[key]
    role = (
        Membership.objects.filter(campaign=campaign, user=user)
        .values_list("role", flat=True)
        .first()
    )
    if remembered is not None:
        remembered[key] = role
    return role


def is_gm(user, campaign: Campaign) -> bool:
    return membership_role(user, campaign) == Membership.Role.GM


def require_gm(user, campaign: Campaign) -> None:
    """Returns if ``user`` is a GM of ``campaign``; ``Http404`` for a non-member,
    ``PermissionDenied`` (403) for a player."""
    role = membership_role(user, campaign)
    if role is None:
        raise Http404("No such campaign.")
    if role != Membership.Role.GM:
        raise PermissionDenied("Only the campaign's GMs may do that.")


def campaign_members(campaign: Campaign) -> QuerySet[Membership]:
    """The campaign's memberships, GMs first, with their users."""
    return campaign.memberships.select_related("user").order_by("role", "user__username")


SHOWN_TO_ITS_AUTHOR = ("mission.proposed",)
"""Kinds of GM-only journal entries a player still sees when he wrote them: his own proposal
of a mission (GM-only while it waits, so the other players do not see it; its words carry
no GM notes)."""


def log_for_user(user, campaign: Campaign) -> QuerySet[CampaignLogEntry]:
    """The campaign log newest first, without GM-only entries unless ``user`` is a GM, or
    the entry is one of :data:`SHOWN_TO_ITS_AUTHOR` that ``user`` wrote."""
    entries = campaign.log_entries.select_related("actor").order_by("-created_at", "-id")
    if not is_gm(user, campaign):
        entries = entries.filter(models.Q(gm_only=False) | models.Q(
            kind__in=SHOWN_TO_ITS_AUTHOR, actor_id=user.pk))
    return entries


def journal_for_user(user, campaign: Campaign, *, kind: str = "", character=None,
                     session=None, text: str = "") -> QuerySet[CampaignLogEntry]:
    """The journal as :func:`log_for_user` gives it to ``user``, filtered: ``kind`` the first
    word of an entry's kind (``campaigns.journal.KINDS``), ``character`` an id (the entries
    about it, and about the missions it is on and their challenges), ``session`` an id,
    ``text`` words the entry contains (case aside)."""
    entries = log_for_user(user, campaign)
    if kind:
        entries = entries.filter(kind__startswith=f"{kind}.")
    if character is not None:
        from campaigns.missions.models import MissionCharacter

        missions = MissionCharacter.objects.filter(character_id=character).values("mission")
        entries = entries.filter(models.Q(character_id=character) | models.Q(
            record_kind="mission", record_id__in=missions))
    if session is not None:
        entries = entries.filter(session_id=session)
    if text:
        entries = entries.filter(text__icontains=text)
    return entries




def campaign_for_invite(token: str) -> Campaign | None:
    """The campaign whose live invitation link has ``token``; ``None`` if there is none
    (revoked, regenerated or never issued)."""
    if not token:
        return None
    return Campaign.objects.filter(invite_token=token).first()
