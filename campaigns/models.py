"""Campaigns, their members and the campaign log (DESIGN.md, "Roles and trust")."""

from django.conf import settings as django_settings
from django.db import models
from django.utils import timezone

from rules.btq.settings import resolve


class Campaign(models.Model):
    """A campaign: the table that plays together.

    ``settings`` holds only the campaign settings the GMs changed from the defaults
    (``rules.btq.settings.SETTINGS``); :meth:`rules_settings` gives the full set.
    ``invite_token`` is the secret of the invitation link, or ``None`` when revoked.
    """

    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    settings = models.JSONField(default=dict, blank=True)
    invite_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(default=timezone.now)
    members = models.ManyToManyField(
        django_settings.AUTH_USER_MODEL, through="Membership", related_name="campaigns"
    )

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def rules_settings(self) -> dict:
        """Every campaign setting with this campaign's overrides applied
        (``rules.btq.settings.resolve``); raises ``SettingError`` on a stored bad value."""
        return resolve(self.settings)


class Membership(models.Model):
    """A user's place in a campaign: GM or player. A campaign has at least one GM."""

    class Role(models.TextChoices):
        GM = "gm", "Game Master"
        PLAYER = "player", "Player"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"


class CampaignLogEntry(models.Model):
    """One line of the campaign log, the journal. ``gm_only`` entries are shown to GMs alone;
    ``kind`` is a stable machine name (``"member.joined"``, ``"battle.recorded"``), ``data``
    JSON details; ``record_kind``/``record_id`` link it to its record
    (``campaigns.journal``)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="log_entries")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    actor = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    kind = models.CharField(max_length=50)
    text = models.TextField()
    data = models.JSONField(default=dict, blank=True)
    gm_only = models.BooleanField(default=False)
    # The journal (campaigns.journal): the record an entry is about, by kind and id (its
    # page is resolved by the app that owns it), the character it concerns and the session
    # it was written in.
    record_kind = models.CharField(max_length=30, blank=True, db_index=True)
    record_id = models.PositiveIntegerField(null=True, blank=True)
    character_id = models.PositiveIntegerField(null=True, blank=True, db_index=True)
    session = models.ForeignKey("campaigns.Session", on_delete=models.SET_NULL, null=True,
                                blank=True, related_name="log_entries")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "campaign log entries"

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.kind}: {self.text[:60]}"


# The one-time tokens of create forms (campaigns.once).
# The records of voyages, sessions, missions and challenges live in their own module;
# imported here so that Django finds them in the campaigns app.
from campaigns.missions.models import (  # noqa: E402, F401
    Challenge,
    ChallengeResult,
    Mission,
    MissionCharacter,
    Session,
    Voyage,
)
from campaigns.once import FormToken  # noqa: E402, F401
