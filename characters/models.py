"""Characters: the PCs of the players and the GM's NPCs (``rules/btq_characters.md`` §1).

Only what the ship battle needs for now: Measures, skills, damage states and rank. Full
character sheets (reputations, traits, wealth, experiences) come later.
"""

from django.conf import settings as django_settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from rules.btq.characters import SKILLS, DamageState

MAX_RATING = 20
"""Upper bound for a Measure or skill: a sanity bound for input, far above the book's
scale (6+ is "expertise", BtQ L169-177)."""

DAMAGE_STATE_CHOICES = [(s.value, s.label) for s in DamageState]


def measure_field(verbose_name: str) -> models.PositiveSmallIntegerField:
    """A Measure: starts at 1, never below 1 (BtQ L97)."""
    return models.PositiveSmallIntegerField(
        verbose_name,
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_RATING)],
    )


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
    ship_morale_state = models.PositiveSmallIntegerField(
        "Ship Morale", choices=DAMAGE_STATE_CHOICES, default=DamageState.HEALTHY
    )
    gm_notes = models.TextField("GM notes", blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign", "kind", "-seniority", "name", "id"]

    def __str__(self) -> str:
        return f"{self.rank} {self.name}".strip()

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
