"""Characters: the PCs of the players and the GM's NPCs (``rules/btq_characters.md`` §1).

What the ship battle and the card tests need: Measures, skills, rank, Wealth, reputations
and the damage state of each area (Health, Wealth, each reputation; Ship Morale is the ship's,
mirrored on the sheet of each character who serves aboard). Traits and experiences come
later.
"""

from django.conf import settings as django_settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from rules.btq.characters import SKILLS, DamageState
from rules.btq.traits import TRAITS

MAX_WEALTH = 10
"""Wealth is a 0-10 lifestyle scale, from destitute to the Royal Family (BtQ L1121-1123)."""

MAX_RATING = 20
"""Upper bound for a Measure or skill: a sanity bound for input, far above the book's
scale (6+ is "expertise", BtQ L169-177)."""

DAMAGE_STATE_CHOICES = [(s.value, s.label) for s in DamageState]

SHIP_MORALE = "ship_morale"
AREA_FIELDS = {"health": "health_state", "wealth": "wealth_state"}
"""The field of each damage area a character keeps (``rules.btq.characters.DAMAGE_AREAS``).
Ship Morale is not among them: it is one track per ship and crew, ``ships.Ship.morale_state``
(``rules/btq_characters.md`` A15, ``btq_naval.md`` N22)."""


def measure_field(verbose_name: str) -> models.PositiveSmallIntegerField:
    """A Measure: starts at 1, never below 1 (BtQ L97)."""
    return models.PositiveSmallIntegerField(
        verbose_name,
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_RATING)],
    )


def titled(rank: str, name: str) -> str:
    """Rank and name as one title, the rank once: a name that already begins with the rank's
    last words ("Midshipman Hale" of a Midshipman, "Captain Dodds" of a Post Captain) does
    not repeat them: "Midshipman Hale", "Post Captain Dodds"."""
    ranks, names = rank.split(), name.split()
    for k in range(min(len(ranks), len(names)), 0, -1):
        if [w.lower() for w in ranks[-k:]] == [w.lower() for w in names[:k]]:
            names = names[k:]
            break
    return " ".join(ranks + names)


class Character(models.Model):
    """A PC (``owner`` is its player; ``None`` only if that user was deleted) or an NPC of
    the GM, in one campaign.

    ``skills`` maps keys of ``rules.btq.characters.SKILLS`` to values; an absent key is 0
    (BtQ L171). ``seniority`` orders officers: the highest serving on a ship is its
    commanding officer in battle (BtQ L2406-2407). ``version`` is bumped by every save through
    the services, which refuse a write made from an older version.
    """

    class Kind(models.TextChoices):
        PC = "pc", "Player character"
        NPC = "npc", "Non-player character"

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="characters"
    )
    kind = models.CharField(max_length=3, choices=Kind.choices, default=Kind.PC)
    owner = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="characters",
    )
    name = models.CharField(max_length=200)
    revealed = models.BooleanField(
        "revealed to players", default=False,
        help_text="Players see it only once the GM reveals it or it takes part in a test "
                  "or battle with them (always true for the players' own).",
    )
    rank = models.CharField("rank or position", max_length=100, blank=True)
    seniority = models.PositiveSmallIntegerField(default=0)
    guts = measure_field("Guts")
    discipline = measure_field("Discipline")
    influence = measure_field("Influence")
    charm = measure_field("Charm")
    skills = models.JSONField(default=dict, blank=True)
    health_state = models.PositiveSmallIntegerField(
        "Health", choices=DAMAGE_STATE_CHOICES, default=DamageState.HEALTHY
    )
    wealth = models.PositiveSmallIntegerField(
        "Wealth", default=0, validators=[MaxValueValidator(MAX_WEALTH)]
    )
    wealth_state = models.PositiveSmallIntegerField(
        "Wealth damage", choices=DAMAGE_STATE_CHOICES, default=DamageState.HEALTHY
    )
    professions = models.JSONField(
        "Profession specialisations", default=dict, blank=True,
        help_text="Each pre-navy trade and its value: {\"Fisherman\": 2} (BtQ L193-194).")
    scratched = models.BooleanField(
        "scratched", default=False,
        help_text="Is But A Scratch, Sir!: the extra wound level is used (DECISIONS D12).")
    scar_due = models.BooleanField(
        "Scar card due", default=False,
        help_text="Health was Maimed since it was last Healthy: the optional Scar rule turns "
                  "a card when it is Healthy again (BtQ L1318-1320).")
    trait_uses = models.JSONField(
        "uses of limited traits", default=dict, blank=True,
        help_text="Trait key -> {\"period\": the session or Naval Mission under way, "
                  "\"used\": uses in it} (rules.btq.traits.use; BtQ L1060, L1074, L1084).")
    hardship = models.JSONField(
        "Great Hardship", default=dict, blank=True,
        help_text="Measure -> points spent under Overcoming Great Hardship until the end of "
                  "the Naval Mission (BtQ L1421-1422).")
    overcoming = models.JSONField(
        "overcoming great hardship", default=list, blank=True,
        help_text="Areas whose damage penalties and Measure gate a spent point lifts for the "
                  "current challenge (BtQ L1421).")
    heal_locks = models.JSONField(
        "healing locked", default=list, blank=True,
        help_text="Areas whose heal failed: no new attempt before another challenge is "
                  "completed (BtQ L1366).")
    notes = models.TextField(
        "notes", blank=True, help_text="The player's notes: history, looks, aims.")
    gm_notes = models.TextField("GM notes", blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign", "kind", "-seniority", "name", "id"]

    def __str__(self) -> str:
        return titled(self.rank, self.name)

    @property
    def title(self) -> str:
        """Rank and name as the book writes them: "Master Gregory O'Toole"."""
        return str(self)

    def skill(self, key: str) -> int:
        """The value of skill ``key`` (0 when absent); ``KeyError`` for an unknown key."""
        if key not in SKILLS:
            raise KeyError(key)
        return int(self.skills.get(key, 0))

    def skill_values(self) -> dict[str, int]:
        """All 22 skills in the book's order, absent ones as 0."""
        return {key: int(self.skills.get(key, 0)) for key in SKILLS}

    def current_measure(self, key: str) -> int:
        """A Measure as it is now: its value less the points spent under Overcoming Great
        Hardship until the end of the Naval Mission, never below 1 (BtQ L1421-1422)."""
        return max(1, getattr(self, key) - int(self.hardship.get(key, 0)))

    def trait_takes(self) -> dict[str, int]:
        """Trait key -> times taken (``rules.btq.traits``), from the prefetched or stored
        ``traits``."""
        taken: dict[str, int] = {}
        for t in self.traits.all():
            taken[t.trait] = taken.get(t.trait, 0) + t.times
        return taken

    @property
    def ship(self):
        """The ``ships.Ship`` the character serves on (one posting at a time), or ``None``.
        Lists prefetch ``postings__ship``."""
        posting = next(iter(self.postings.all()), None)
        return None if posting is None else posting.ship

    @property
    def ship_morale_state(self) -> int | None:
        """The Ship Morale of the ship the character serves on, as the sheet mirrors it
        (BtQ L1350-1351; one track per ship and crew, ``rules/btq_characters.md`` A15);
        ``None`` when they serve on none."""
        ship = self.ship
        return None if ship is None else ship.morale_state


class Reputation(models.Model):
    """A reputation of a character (BtQ L107-144; ``rules/btq_characters.md`` §1.3): how a
    person (``personal``) or a group, ship or family (``institution``) regards them, as a
    ``descriptor`` ("Distrusted by") and a ``subject`` ("Captain Jones").

    ``value`` (at least 1) is the cards it adds to a pool. It is capped in tests by Charm for
    a personal and Influence for an institution reputation; a higher value is stored in full
    and counts as the cap (``rules/DECISIONS.md`` D9). ``damage_state`` is its own damage
    track (BtQ L1297-1301, L3798-3828). ``version`` is bumped by every save.
    """

    class Kind(models.TextChoices):
        PERSONAL = "personal", "Personal"
        INSTITUTION = "institution", "Institution"

    CAP_MEASURE = {Kind.PERSONAL: "charm", Kind.INSTITUTION: "influence"}
    """The Measure that caps each kind (BtQ L134-135)."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE,
                                  related_name="reputations")
    kind = models.CharField(max_length=11, choices=Kind.choices, default=Kind.PERSONAL)
    descriptor = models.CharField(max_length=100, help_text="“Distrusted by”, “Admired by”")
    subject = models.CharField(max_length=200, help_text="“Captain Jones”, “the Ward Room”")
    value = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(MAX_RATING)]
    )
    damage_state = models.PositiveSmallIntegerField(
        "damage", choices=DAMAGE_STATE_CHOICES, default=DamageState.HEALTHY
    )
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["character", "kind", "descriptor", "subject", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        """Descriptor and subject: "Distrusted by Captain Jones"."""
        return f"{self.descriptor} {self.subject}".strip()

    @property
    def cap_measure(self) -> str:
        return self.CAP_MEASURE[self.kind]

    @property
    def cap(self) -> int:
        """The character's current Charm or Influence, lowered by Great Hardship (BtQ
        L114-115, L134-135, L1421)."""
        return self.character.current_measure(self.cap_measure)

    @property
    def over_cap(self) -> bool:
        """Stored above its cap: it counts as the cap in tests (D9); the sheet warns."""
        return self.value > self.cap


# --- Shipboard life: prize money, the Articles of War, promotion, social tokens -----------
# (``rules/btq_missions.md`` §7.6, §9, §10, §11; written by ``characters.shipboard``)


class PrizeShare(models.Model):
    """A character's share of a prize (BtQ L1769-1835): ``entries`` ``[[L, k], ...]``, k
    automatic successes in a Wealth test against an opposition of L or lower, by the
    character's ``row`` of the prize table and the captured ship's ``prize_class``. Not
    Wealth: spending money, ``held`` until a Wealth test uses it (``spent``), or
    ``forfeited`` under Articles 7 and 8. ``battle`` (the encounter's id) with the
    character and the ``captured`` ship is unique: a prize pays each character once."""

    class Status(models.TextChoices):
        HELD = "held", "Held"
        SPENT = "spent", "Spent"
        FORFEITED = "forfeited", "Forfeited"

    character = models.ForeignKey(Character, on_delete=models.CASCADE,
                                  related_name="prize_shares")
    battle = models.PositiveIntegerField(null=True, blank=True,
                                         help_text="The encounter in which the prize was taken.")
    captured = models.CharField("prize", max_length=200)
    prize_class = models.CharField(max_length=20)
    row = models.CharField("shares as", max_length=20)
    entries = models.JSONField(default=list)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.HELD)
    spent_on = models.PositiveIntegerField(null=True, blank=True,
                                           help_text="The Wealth test that used it.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["character", "-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["character", "battle", "captured"],
                                               name="one_prize_share_per_prize")]

    def __str__(self) -> str:
        return f"{self.character}'s share of {self.captured}"


class Infraction(models.Model):
    """A charge under the Articles of War and the punishment given (BtQ L1914-2151):
    ``article`` 1-36, ``punishments`` (keys of ``rules.btq.shipboard.PUNISHMENTS``),
    ``lashes`` (at most 12 for the crime), what was done (``details``, seen by the
    players) and the GM's ``gm_notes``."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE,
                                  related_name="infractions")
    article = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(36)])
    punishments = models.JSONField(default=list)
    lashes = models.PositiveSmallIntegerField(default=0)
    details = models.TextField(blank=True)
    gm_notes = models.TextField("GM notes", blank=True)
    created_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["character", "-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.character}: Article {self.article}"


class Career(models.Model):
    """What promotion asks of a character (BtQ L2158-2198; ``rules/btq_missions.md`` A17):
    Voyages completed in all and since the last promotion (or joining the ship), the
    ``profession`` of the post sought, and ``examination_barred``: a failed Lieutenant's
    examination bars a retry until another Voyage is completed. ``version`` as the
    character's."""

    character = models.OneToOneField(Character, on_delete=models.CASCADE,
                                     related_name="career")
    voyages_completed = models.PositiveSmallIntegerField(default=0)
    voyages_since_promotion = models.PositiveSmallIntegerField(default=0)
    profession = models.CharField(max_length=20, blank=True)
    examination_barred = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)

    def __str__(self) -> str:
        return f"{self.character}'s career"


class SceneToken(models.Model):
    """A token left by a social scene (BtQ L1872-1910): the Captain's Favour or the Ear of the
    Gun Deck ``holder`` (a PC) may surrender for +4 cards, the Captain's Ire or the Shame of
    the Gun Deck the GM may surrender for -4, once, on a challenge of the ``topic``, before
    the session ends."""

    class Status(models.TextChoices):
        HELD = "held", "Held"
        SPENT = "spent", "Spent"
        EXPIRED = "expired", "Expired"

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="scene_tokens")
    token = models.CharField(max_length=10)
    holder = models.ForeignKey(Character, on_delete=models.CASCADE, null=True, blank=True,
                               related_name="scene_tokens")
    earned_by = models.ForeignKey(Character, on_delete=models.SET_NULL, null=True,
                                  blank=True, related_name="+")
    topic = models.CharField(max_length=200)
    scene_test = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.HELD)
    spent_on = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["scene_test"], name="one_token_per_scene")]

    def __str__(self) -> str:
        return f"{self.token} ({self.topic})"


TRAIT_CHOICES = [(t.key, t.name) for t in TRAITS.values()]


class CharacterTrait(models.Model):
    """A trait a character took (``rules.btq.traits.TRAITS``; BtQ L1025-1115), ``times``
    times with this ``parameter`` (the language, the named captain, the cause). Second
    Language (French) and Second Language (German) are two rows; Protégé of one captain
    taken twice is one row of ``times`` 2 (D10)."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="traits")
    trait = models.CharField(max_length=40, choices=TRAIT_CHOICES)
    times = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
    parameter = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["character", "id"]
        constraints = [models.UniqueConstraint(fields=["character", "trait", "parameter"],
                                               name="one_row_per_trait_and_parameter")]

    def __str__(self) -> str:
        name = TRAITS[self.trait].name
        name += f" ({self.parameter})" if self.parameter else ""
        return name + (f" x{self.times}" if self.times > 1 else "")

    @property
    def definition(self):
        return TRAITS[self.trait]


class Item(models.Model):
    """A curio or other item from booty (BtQ L522-530, L1007-1017; ``btq_characters.md``
    §1.5): a curio adds +1 card to ``skill``, an important item +1 to the reputation with
    its individual, a special weapon +1 card to combat with ``weapon``, a priceless item +2
    to a skill or a reputation; each only where ``condition`` is met (the Reef Map of the
    West Indies: in those waters, BtQ L954, L1211)."""

    class Kind(models.TextChoices):
        CURIO = "curio", "Curio"
        IMPORTANT_ITEM = "important_item", "Important item"
        SPECIAL_WEAPON = "special_weapon", "Special weapon"
        PRICELESS_ITEM = "priceless_item", "Priceless item"
        OTHER = "other", "Other equipment"

    BONUS = {Kind.CURIO: 1, Kind.IMPORTANT_ITEM: 1, Kind.SPECIAL_WEAPON: 1,
             Kind.PRICELESS_ITEM: 2, Kind.OTHER: 0}
    """Cards each kind adds when used (BtQ L522-530)."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="items")
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.CURIO)
    name = models.CharField(max_length=200)
    skill = models.CharField(max_length=40, blank=True,
                             choices=[(k, v) for k, v in SKILLS.items()])
    reputation = models.ForeignKey(Reputation, on_delete=models.SET_NULL, null=True,
                                   blank=True, related_name="items")
    weapon = models.CharField(max_length=60, blank=True)
    condition = models.CharField(max_length=200, blank=True,
                                 help_text="When it applies: “navigating the West Indies”.")
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["character", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def bonus(self) -> int:
        return self.BONUS[self.kind]

    @property
    def applies_to(self) -> str:
        """What it adds to, in words: "+1 Seamanship", "+2 “Friend of Captain Turner”"."""
        if self.kind == self.Kind.OTHER:
            return ""
        if self.skill:
            target = SKILLS[self.skill]
        elif self.reputation_id:
            target = f"“{self.reputation.name}”"
        elif self.weapon:
            target = f"combat with {self.weapon}"
        else:
            target = "—"
        return f"+{self.bonus} {target}"


class CharacterChange(models.Model):
    """One saved edit of a character's sheet: who, when, and each field's old and new value
    (``{field: [old, new]}``). ``gm_changes`` holds the GM-only fields' (GM notes), which only
    the GM reads; ``changes`` the rest, which the owner reads too
    (``characters.selectors.character_history``)."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="history")
    actor = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                              null=True, blank=True, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    changes = models.JSONField(default=dict, blank=True)
    gm_changes = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.character} edited by {self.actor} at {self.at:%Y-%m-%d %H:%M}"


from characters.advancement_models import MissionPurchase  # noqa: E402, F401  (Django finds it)
