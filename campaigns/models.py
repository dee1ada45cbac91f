"""Campaigns, their members, the campaign log, and the card table: the decks and the card
tests (DESIGN.md, "Roles and trust"; ``rules/btq_characters.md`` §4, §9.4)."""

from django.conf import settings as django_settings
from django.db import models
from django.utils import timezone

from rules.btq.settings import resolve
from rules.cards import GM_DECK, PLAYER_DECK


class Campaign(models.Model):
    """A campaign: the table that plays together.

    ``settings`` holds only the campaign settings the GMs changed from the defaults
    (``rules.btq.settings.SETTINGS``); :meth:`rules_settings` gives the full set.
    ``invite_token`` is the secret of the invitation link, or ``None`` when revoked.
    ``rng_seed`` (decimal text) and ``rng_state`` (``rules.random.SeededSource.state()``)
    are the campaign's random source, from which every card test draws: GM-only, never
    serialised for anyone (``rng_seed`` is empty until the first draw).
    """

    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    settings = models.JSONField(default=dict, blank=True)
    invite_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(default=timezone.now)
    rng_seed = models.CharField(max_length=40, blank=True, editable=False)
    rng_state = models.JSONField(null=True, blank=True, editable=False)
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
    """One line of the campaign log. ``gm_only`` entries are shown to GMs alone; ``kind`` is a
    stable machine name (``"member.joined"``, ``"battle.recorded"``), ``data`` JSON details."""

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

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "campaign log entries"

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.kind}: {self.text[:60]}"


class Deck(models.Model):
    """A deck of cards on the table (BtQ L45, L1193; ``rules/btq_characters.md`` §4.1, §10):
    each PC's own deck, 52 cards and a Joker (``character`` set), and the campaign's one GM
    deck, 52 cards, from which the Card of Fate, NPC and difficulty pools are turned.

    Every card turned goes back and the deck is shuffled after each test (BtQ L1247-1249):
    between tests a deck is whole. ``out`` lists the cards lying turned on the table while a
    test waits for a Joker to be named; ``tests`` counts the tests it was drawn in; its
    :class:`DeckDraw` rows are the record of every draw.
    """

    class Kind(models.TextChoices):
        PLAYER = PLAYER_DECK, "Player deck (52 cards and a Joker)"
        GM = GM_DECK, "GM deck (52 cards)"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="decks")
    character = models.OneToOneField("characters.Character", on_delete=models.CASCADE,
                                      null=True, blank=True, related_name="deck")
    kind = models.CharField(max_length=6, choices=Kind.choices)
    out = models.JSONField(default=list, blank=True)
    tests = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign", "kind", "character", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign"], condition=models.Q(kind="gm"),
                                    name="one_gm_deck_per_campaign"),
            models.CheckConstraint(
                condition=models.Q(kind="gm", character__isnull=True)
                | models.Q(kind="player", character__isnull=False),
                name="a_player_deck_belongs_to_a_character"),
        ]

    def __str__(self) -> str:
        return "GM deck" if self.kind == self.Kind.GM else f"{self.character}'s deck"

    @property
    def name(self) -> str:
        """The deck's name in the kernel's draw log: ``"gm"`` or ``"pc:<character id>"``."""
        return GM_DECK if self.kind == self.Kind.GM else f"pc:{self.character_id}"


class CardTest(models.Model):
    """One card test at the table (BtQ L1181-1286; ``rules/btq_characters.md`` §4, §9.4).

    The GM calls it (``origin`` ``gm``, straight to ``awaiting_confirmation``) or a player
    proposes one for their PC (``origin`` ``player``, ``proposed``) for the GM to accept
    (possibly adjusting the opposition) or decline. The PC's player confirms it and the cards
    are turned; if their Joker turns up the test waits (``awaiting_joker``, ``pending`` the
    kernel's ``PendingTest``) until they name its card. ``record`` is the kernel's
    ``TestRecord`` (full: GM eyes; players get ``as_dict(reveal=False)``).

    The setup: the acting PC ``character`` tests ``skill`` (a skill, a Measure or
    ``"wealth"``) with at most one ``reputation``, ``helpers`` and ``modifiers``
    (``[{"source", "cards"}]``), against ``opposition``: an NPC (``opponent`` with
    ``opponent_skill`` and ``opponent_modifiers``), a ``difficulty`` (a key of
    ``rules.btq.tests.DIFFICULTIES`` or a number of cards as text) or none (a simple test,
    D4). The stakes: ``intent``, ``stakes_win``, ``stakes_lose``, the PC's ``at_risk`` area
    (``at_risk_reputation`` for a reputation) and the NPC's ``opponent_at_risk``.

    Every step locks the row and checks ``version``, the version the user saw.
    """

    class Status(models.TextChoices):
        PROPOSED = "proposed", "Proposed"
        AWAITING_CONFIRMATION = "awaiting_confirmation", "Awaiting confirmation"
        AWAITING_JOKER = "awaiting_joker", "Awaiting a Joker"
        DONE = "done", "Done"
        DECLINED = "declined", "Declined"
        CANCELLED = "cancelled", "Cancelled"

    OPEN = (Status.PROPOSED, Status.AWAITING_CONFIRMATION, Status.AWAITING_JOKER)
    """The statuses of a test that is not over."""

    class Origin(models.TextChoices):
        GM = "gm", "Called by the GM"
        PLAYER = "player", "Proposed by the player"

    class Opposition(models.TextChoices):
        NPC = "npc", "An NPC"
        DIFFICULTY = "difficulty", "A difficulty"
        NONE = "none", "None: a simple test"

    class Area(models.TextChoices):
        HEALTH = "health", "Health"
        SHIP_MORALE = "ship_morale", "Ship Morale"
        WEALTH = "wealth", "Wealth"
        REPUTATION = "reputation", "A reputation"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="card_tests")
    status = models.CharField(max_length=25, choices=Status.choices)
    origin = models.CharField(max_length=6, choices=Origin.choices)
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                                  related_name="card_tests")
    skill = models.CharField(max_length=20)
    reputation = models.ForeignKey("characters.Reputation", on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="card_tests")
    helpers = models.ManyToManyField("characters.Character", blank=True,
                                     related_name="card_tests_helped")
    modifiers = models.JSONField(default=list, blank=True)
    opposition = models.CharField(max_length=10, choices=Opposition.choices)
    opponent = models.ForeignKey("characters.Character", on_delete=models.SET_NULL, null=True,
                                 blank=True, related_name="card_tests_opposed")
    opponent_skill = models.CharField(max_length=20, blank=True)
    opponent_modifiers = models.JSONField(default=list, blank=True)
    difficulty = models.CharField(max_length=20, blank=True)
    intent = models.TextField()
    stakes_win = models.TextField("on a win", blank=True)
    stakes_lose = models.TextField("on a loss", blank=True)
    at_risk = models.CharField(max_length=11, choices=Area.choices, blank=True)
    at_risk_reputation = models.ForeignKey("characters.Reputation", on_delete=models.SET_NULL,
                                           null=True, blank=True, related_name="+")
    opponent_at_risk = models.CharField(max_length=11, choices=Area.choices[:3], blank=True)
    decline_reason = models.TextField(blank=True)
    pending = models.JSONField(null=True, blank=True)
    record = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"test #{self.pk}"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN


class DeckDraw(models.Model):
    """One draw from a deck for a card test, in order: what it was for (``purpose``, the
    kernel's: "card of fate", "pc:3 pool, retest 1"), the ``round`` of the test (1, or 2 and
    on for retests, D3) and the ``cards`` turned (texts). The audit trail of a deck."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="draws")
    card_test = models.ForeignKey(CardTest, on_delete=models.CASCADE, related_name="draws")
    round = models.PositiveSmallIntegerField()
    purpose = models.CharField(max_length=100)
    cards = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.deck} {self.purpose}: {' '.join(self.cards)}"
