"""The record of what missions gave and cost a character (``characters.advancement``)."""

from django.conf import settings as django_settings
from django.db import models
from django.utils import timezone


class MissionPurchase(models.Model):
    """One reward taken or failure cost paid from a mission's purchase table (BtQ
    L1517-1545): entry ``entry_index`` of the mission's ``side`` (``"reward"`` or
    ``"failure"``), applied to ``subject`` (``"character:<pk>"``, or ``"ship:<pk>"`` for
    Ship Morale, one track per ship), on ``target`` (``"measure:influence"``,
    ``"reputation:12"``, ``"wealth"``...), from ``before`` to ``after``. The database keeps
    one per entry and subject, so a reward is taken once however often it is submitted."""

    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                                  related_name="mission_purchases")
    mission = models.ForeignKey("campaigns.Mission", on_delete=models.CASCADE,
                                related_name="purchases")
    side = models.CharField(max_length=7)
    entry_index = models.PositiveSmallIntegerField()
    subject = models.CharField(max_length=30)
    kind = models.CharField(max_length=20)
    target = models.CharField(max_length=250, blank=True)
    amount = models.PositiveSmallIntegerField(default=1)
    before = models.IntegerField(null=True, blank=True)
    after = models.IntegerField(null=True, blank=True)
    text = models.CharField(max_length=300)
    created_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["character", "created_at", "id"]
        constraints = [models.UniqueConstraint(
            fields=["mission", "side", "entry_index", "subject"],
            name="one_purchase_per_mission_entry_and_subject")]

    def __str__(self) -> str:
        return self.text
