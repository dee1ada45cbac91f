"""Voyages, sessions, missions and challenges (BtQ L1430-1561; ``rules/btq_missions.md`` §2,
§3, §18.2). The rules are the kernel's (``rules.btq.missions``); changes go through
``campaigns.missions.services`` only.

``campaigns`` imports no other app, so a mission names its characters by id
(:class:`MissionCharacter`); the characters app tells who they are
(``campaigns.directory``). The encounter a challenge is played for names the challenge
(``combat.Encounter.challenge``); its result is a :class:`ChallengeResult`, one per
challenge and one per encounter (unique constraints), so the same finish counts once.
"""

from django.conf import settings as django_settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from rules.btq import missions as kernel

STATIONS = {
    "channel": "Channel",
    "north_sea": "North Sea",
    "baltic": "Baltic",
    "mediterranean": "Mediterranean",
    "north_american": "North American",
    "west_indies": "West Indies",
    "cape_east_indies": "Cape and East Indies",
}
"""The naval stations a voyage is centred on (BtQ L3146-3192)."""


class Voyage(models.Model):
    """The series of 3 to 6 Naval Missions a ship is sent on, usually on one station; at
    its end the ship is recalled to Britain (BtQ L1430-1433)."""

    class Status(models.TextChoices):
        UNDER_WAY = "under_way", "Under way"
        RECALLED = "recalled", "Recalled to Britain"

    MIN_MISSIONS, MAX_MISSIONS = 3, 6

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="voyages")
    name = models.CharField(max_length=200)
    station = models.CharField(max_length=20, choices=list(STATIONS.items()),
                               default="channel")
    naval_missions_planned = models.PositiveSmallIntegerField(
        "Naval Missions planned", default=3,
        validators=[MinValueValidator(MIN_MISSIONS), MaxValueValidator(MAX_MISSIONS)])
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.UNDER_WAY)
    started_on = models.DateField(default=timezone.localdate)
    recalled_on = models.DateField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "-started_on", "-id"]

    def __str__(self) -> str:
        return self.name


class Session(models.Model):
    """One evening of play: its date, who came (``attendance``, members), the denouement
    (BtQ L3381-3384) and GM-only notes. When the GM ends it (``ended_at``), the table is
    asked for new missions (BtQ L3386-3388)."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="play_sessions")
    voyage = models.ForeignKey(Voyage, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="play_sessions")
    played_on = models.DateField(default=timezone.localdate)
    title = models.CharField(max_length=200, blank=True)
    attendance = models.ManyToManyField(django_settings.AUTH_USER_MODEL, blank=True,
                                        related_name="+")
    denouement = models.TextField(blank=True)
    gm_notes = models.TextField("GM notes", blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "-played_on", "-id"]

    def __str__(self) -> str:
        return self.title or f"Session of {self.played_on:%d %B %Y}"


class Mission(models.Model):
    """A mission (BtQ L1443-1458): its six parts (``name``, ``challenges_required``,
    ``rewards``, ``failures`` as :class:`rules.btq.missions.Entry` JSON,
    ``deadline_narrative``, ``deadline_failures``), its ``kind``, characters
    (:class:`MissionCharacter`), the counters (``successes``, ``failed``: written only with
    a :class:`ChallengeResult`) and ``status``.

    A player's proposal waits (``proposed``) for the GM's approval. ``hidden`` missions and
    ``gm_notes`` are for the GMs alone. ``version`` is bumped by every change a person
    makes.
    """

    class Status(models.TextChoices):
        PROPOSED = "proposed", "Proposed, waiting for the GM"
        DECLINED = "declined", "Declined by the GM"
        ACTIVE = kernel.ACTIVE, kernel.STATUSES[kernel.ACTIVE]
        REQUIREMENT_MET = kernel.REQUIREMENT_MET, kernel.STATUSES[kernel.REQUIREMENT_MET]
        COMPLETED = kernel.COMPLETED, kernel.STATUSES[kernel.COMPLETED]
        FAILED = kernel.FAILED, kernel.STATUSES[kernel.FAILED]
        ABANDONED = kernel.ABANDONED, kernel.STATUSES[kernel.ABANDONED]

    OPEN = (Status.ACTIVE, Status.REQUIREMENT_MET)
    ENDED = (Status.COMPLETED, Status.FAILED, Status.ABANDONED)

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="missions")
    voyage = models.ForeignKey(Voyage, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="missions")
    kind = models.CharField(max_length=10, choices=list(kernel.KINDS.items()),
                            default="naval")
    name = models.CharField(max_length=200)
    intent = models.TextField(blank=True)
    challenges_required = models.PositiveSmallIntegerField(
        default=kernel.MIN_CHALLENGES, validators=[MinValueValidator(kernel.MIN_CHALLENGES)])
    deadline_failures = models.PositiveSmallIntegerField(default=kernel.MIN_CHALLENGES)
    deadline_narrative = models.CharField(max_length=300, blank=True)
    rewards = models.JSONField(default=list, blank=True)
    failures = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    successes = models.PositiveSmallIntegerField(default=0)
    failed = models.PositiveSmallIntegerField("failed challenges", default=0)
    hidden = models.BooleanField(
        "hidden from the players", default=False,
        help_text="Only the GMs see a hidden mission, its challenges and its journal.")
    planning_notes = models.TextField(blank=True)
    gm_notes = models.TextField("GM notes", blank=True)
    template = models.CharField(max_length=50, blank=True)
    proposed_by = models.ForeignKey(django_settings.AUTH_USER_MODEL,
                                    on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+")
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN

    def terms(self) -> kernel.Terms:
        """The mission's six parts as the kernel's :class:`rules.btq.missions.Terms`."""
        return kernel.Terms(
            name=self.name, kind=self.kind, challenges_required=self.challenges_required,
            deadline_failures=self.deadline_failures,
            deadline_narrative=self.deadline_narrative,
            rewards=tuple(kernel.Entry.from_dict(e) for e in self.rewards),
            failures=tuple(kernel.Entry.from_dict(e) for e in self.failures))

    def progress(self) -> kernel.Progress:
        status = self.status if self.status in kernel.STATUSES else kernel.ACTIVE
        return kernel.Progress(self.successes, self.failed, status)


class MissionCharacter(models.Model):
    """A character on a mission, by id (``campaigns`` imports no other app; the characters
    app says who it is, ``campaigns.directory``)."""

    mission = models.ForeignKey(Mission, on_delete=models.CASCADE, related_name="cast")
    character_id = models.PositiveIntegerField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["mission", "character_id"],
                                               name="one_place_per_character_on_a_mission")]

    def __str__(self) -> str:
        return f"character {self.character_id} on {self.mission}"


class Challenge(models.Model):
    """A test whose outcome matters to one or more missions (BtQ L1440-1441, L3362-3367):
    called for them, then met or failed by the encounter played for it (a card test, a
    battle, any engine: ``combat.Encounter.challenge``) or by the GM's word
    (:class:`ChallengeResult`). ``hidden`` ones are the GMs' until they are played.

    A player may propose one for a mission he sees (``status`` ``proposed``): it is played
    only once the GM accepts it (``called``, possibly changed); a declined one stays on
    record, never played."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", "Proposed by a player"
        CALLED = "called", "Called"
        DECLINED = "declined", "Declined"

    KINDS = {
        "test": "A test", "combat": "A fight", "skirmish": "A skirmish",
        "ship_battle": "A ship battle", "social": "A social scene", "weather": "The weather",
        "other": "Other",
    }

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="challenges")
    missions = models.ManyToManyField(Mission, related_name="challenges")
    session = models.ForeignKey(Session, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="challenges")
    kind = models.CharField(max_length=12, choices=list(KINDS.items()), default="test")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.CALLED)
    version = models.PositiveIntegerField(default=1)
    description = models.CharField(max_length=300)
    gm_notes = models.TextField("GM notes", blank=True)
    created_by = models.ForeignKey(django_settings.AUTH_USER_MODEL,
                                   on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "-created_at", "-id"]

    def __str__(self) -> str:
        return self.description


class ChallengeResult(models.Model):
    """How a challenge ended: ``met`` or not, by ``encounter_id`` (the encounter of any
    engine played for it) or the GM's word (``None``). One per challenge and one per
    encounter: the database refuses a second, so the same finish, recorded twice or sent by
    two browsers at once, counts once."""

    challenge = models.OneToOneField(Challenge, on_delete=models.CASCADE,
                                     related_name="result")
    encounter_id = models.PositiveIntegerField(null=True, blank=True, unique=True)
    met = models.BooleanField()
    summary = models.CharField(max_length=300, blank=True)
    recorded_by = models.ForeignKey(django_settings.AUTH_USER_MODEL,
                                    on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.challenge}: {'met' if self.met else 'failed'}"
