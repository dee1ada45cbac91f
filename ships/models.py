"""Ships: the book's reference data (types and traits) and the ships of a campaign
(``rules/btq_naval.md`` §2, §3, §8).

Reference rows are copies of ``rules.btq.ships.SHIP_TYPES`` and ``SHIP_TRAITS`` made by
``manage.py load_reference_data``; the rules module stays the source of truth for stats.
"""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from characters.models import DAMAGE_STATE_CHOICES, MAX_RATING, Reputation
from rules.btq.characters import DamageState
from rules.btq.ships import AREAS, DamageTrack


class ShipType(models.Model):
    """One of the book's ship types (BtQ L2245-2333). ``rating`` is ``None`` for un-rated
    ships; ``guns_max`` ``None`` for open-ended (100+); ``boxes`` maps each area to its
    ``[injured, maimed, dead]`` box counts."""

    name = models.CharField(max_length=60, unique=True)
    command = models.CharField(max_length=60)
    rating = models.PositiveSmallIntegerField(null=True, blank=True)
    guns_min = models.PositiveSmallIntegerField(null=True, blank=True)
    guns_max = models.PositiveSmallIntegerField(null=True, blank=True)
    boxes = models.JSONField(default=dict)
    broadside = models.SmallIntegerField()
    speed = models.SmallIntegerField()
    handling = models.SmallIntegerField()
    source = models.CharField(max_length=100, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


class ShipTrait(models.Model):
    """A ship trait (BtQ L2337-2347): its changes to Speed, Handling and Broadside, and
    ``boxes``, the boxes it adds to each state of an area (``{"hull": 1}``)."""

    name = models.CharField(max_length=60, unique=True)
    description = models.TextField()
    speed = models.SmallIntegerField(default=0)
    handling = models.SmallIntegerField(default=0)
    broadside = models.SmallIntegerField(default=0)
    boxes = models.JSONField(default=dict, blank=True)
    source = models.CharField(max_length=100, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


def track_field(area: str) -> models.CharField:
    return models.CharField(
        f"{area} track",
        max_length=120,
        help_text="The book's layout: one character per box, segments Injured|Maimed|Dead; "
        "'x' crossed off, '.' free.",
    )


class Ship(models.Model):
    """A ship in a campaign: the players' ship (``side="pc"``) or an enemy or other NPC ship.

    The damage tracks are ``rules.btq.ships.DamageTrack`` strings sized from the type and
    traits. ``crew`` holds the NPC officers' skills the ship uses when no PC acts
    (``rules.btq.characters.NPC_CREW_SKILLS``; BtQ L2360-2361, ``btq_naval.md`` N23).
    ``overrides`` changes the type's stats for this ship alone (``{"handling": 1}``). Players
    see an enemy ship's name, type and damage, never its crew, traits or notes.
    """

    class Side(models.TextChoices):
        PC = "pc", "The players' ship"
        ENEMY = "enemy", "Enemy or other ship"

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="ships"
    )
    name = models.CharField(max_length=200)
    guns = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(200)]
    )
    ship_type = models.ForeignKey(ShipType, on_delete=models.PROTECT, related_name="ships")
    traits = models.ManyToManyField(ShipTrait, blank=True, related_name="ships")
    side = models.CharField(max_length=5, choices=Side.choices, default=Side.ENEMY)
    revealed = models.BooleanField(
        "revealed to players", default=False,
        help_text="Players see it only once the GM reveals it or it takes part in a test "
                  "or battle with them (always true for the players' own).",
    )
    hull_track = track_field("hull")
    guns_track = track_field("guns")
    crew_track = track_field("crew")
    rigging_track = track_field("rigging")
    morale_state = models.PositiveSmallIntegerField(
        "Ship Morale", choices=DAMAGE_STATE_CHOICES, default=DamageState.HEALTHY
    )
    crew = models.JSONField("crew skills", default=dict, blank=True)
    overrides = models.JSONField(default=dict, blank=True)
    gm_notes = models.TextField("GM notes", blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign", "side", "name", "id"]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """The book's style: name and guns, "HMS Hermes (22)" (BtQ L2207-2208)."""
        return f"{self.name} ({self.guns})" if self.guns else self.name

    @property
    def tracks(self) -> dict[str, str]:
        """The four damage tracks by area, as stored."""
        return {area: getattr(self, f"{area}_track") for area in AREAS}

    @property
    def damage(self) -> list[tuple[str, str, DamageState]]:
        """``(area, track text, damage state)`` for each area, in the book's order."""
        return [(area, text, DamageTrack.parse(text).state) for area, text in self.tracks.items()]

    @property
    def damage_states(self) -> dict[str, DamageState]:
        """The areas that have a damage state (Injured or worse), by area."""
        return {area: state for area, _, state in self.damage if state}

    @property
    def damage_words(self) -> str:
        """The ship's damage in words, for the GM: each area's damage state and Ship Morale's,
        "Crew Maimed, Ship Morale Injured"; an area marked short of a state says its boxes
        ("Hull 1 box marked"); "Healthy" (the book's name of the state, BtQ L1303) when nothing
        is marked."""
        words = []
        for area, text in self.tracks.items():
            track = DamageTrack.parse(text)
            state, crossed = track.state, track.crossed
            if state:
                words.append(f"{area.capitalize()} {state.label}")
            elif crossed:
                words.append(f"{area.capitalize()} {crossed} box{'es' if crossed > 1 else ''} "
                             "marked")
        if self.morale_state:
            words.append(f"Ship Morale {DamageState(self.morale_state).label}")
        return ", ".join(words) or "Healthy"

    @property
    def is_hidden_from_players(self) -> bool:
        """Whether the ship's crew, traits and notes are GM-only (every ship but the PCs')."""
        return self.side != self.Side.PC


class ShipPosting(models.Model):
    """Where a character serves: their station aboard a ship."""

    class Station(models.TextChoices):
        CAPTAIN = "captain", "Captain"
        LIEUTENANT = "lieutenant", "Lieutenant"
        MASTER = "master", "Sailing Master"
        GUNNER = "gunner", "Gunner"
        BOATSWAIN = "boatswain", "Boatswain"
        SURGEON = "surgeon", "Surgeon"
        PURSER = "purser", "Purser"
        CARPENTER = "carpenter", "Carpenter"
        MARINE = "marine", "Marine officer"
        MIDSHIPMAN = "midshipman", "Midshipman"
        MATE = "mate", "Mate"
        RATING = "rating", "Rating"

    ship = models.ForeignKey(Ship, on_delete=models.CASCADE, related_name="postings")
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="postings"
    )
    station = models.CharField(max_length=20, choices=Station.choices)

    class Meta:
        ordering = ["ship", "station", "id"]
        constraints = [
            models.UniqueConstraint(fields=["character"], name="one_posting_per_character"),
        ]

    def __str__(self) -> str:
        return f"{self.character} ({self.get_station_display()}) on {self.ship}"


class ShipReputation(models.Model):
    """A reputation of a ship (BtQ L770-779): how a person (``personal``) or a group
    (``institution``) regards her, "Feared by" ``descriptor`` "Smugglers" ``subject``, with
    ``value`` cards and its own damage track ``damage_state`` (the ship sheet's INJ/MAIM/DEAD
    boxes, BtQ L3834-3864). No Measure caps it (``rules/btq_characters.md`` A22). A new ship
    takes 5 points of them; ``renowned`` marks the one that holds the ship trait Renowned
    Name's +1 (BtQ L2344-2345). Players see the reputations of their own ship only."""

    Kind = Reputation.Kind

    ship = models.ForeignKey(Ship, on_delete=models.CASCADE, related_name="reputations")
    kind = models.CharField(max_length=11, choices=Kind.choices, default=Kind.INSTITUTION)
    descriptor = models.CharField(max_length=100, help_text="“Feared by”, “Sworn enemy of”")
    subject = models.CharField(max_length=200, help_text="“Smugglers”, “Black Bill Forsyth”")
    value = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(MAX_RATING)])
    damage_state = models.PositiveSmallIntegerField(choices=DAMAGE_STATE_CHOICES,
                                                    default=DamageState.HEALTHY)
    renowned = models.BooleanField(default=False, editable=False)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["ship", "id"]

    def __str__(self) -> str:
        return f"{self.descriptor} {self.subject}"

    @property
    def label(self) -> str:
        """"Feared by Smugglers +2", with its damage state when it has one."""
        state = DamageState(self.damage_state)
        return f"{self} +{self.value}" + (f" ({state.label})" if state else "")


class ShipCrewMember(models.Model):
    """A named NPC of the ship's crew roster (BtQ L640-766; the ship creation's crew step):
    his ``position``, ``competence`` with the ``key`` value of his position's key skills and
    ``other`` for the rest, ``disposition`` towards the PCs and ``feature`` (an exceptional or
    detrimental one, if his card gave one). ``card`` is the card drawn for him. GM-only on an
    enemy ship, like its crew skills."""

    ship = models.ForeignKey(Ship, on_delete=models.CASCADE, related_name="roster")
    position = models.CharField(max_length=60)
    name = models.CharField(max_length=200, blank=True)
    competence = models.CharField(max_length=40, blank=True)
    key = models.PositiveSmallIntegerField("key skills", default=4,
                                           validators=[MaxValueValidator(MAX_RATING)])
    other = models.PositiveSmallIntegerField("other skills", default=2,
                                             validators=[MaxValueValidator(MAX_RATING)])
    disposition = models.CharField(max_length=100, blank=True)
    feature = models.CharField(max_length=200, blank=True)
    card = models.CharField(max_length=8, blank=True)

    class Meta:
        ordering = ["ship", "id"]

    def __str__(self) -> str:
        return f"{self.position}: {self.name}" if self.name else self.position


class Prize(models.Model):
    """An enemy ship taken in a battle (BtQ L1769-1835), held until she reaches port: the GM
    marks her ``arrived`` (then her prize money is shared out by rank to the ``crew`` who
    took her, once) or ``lost`` or ``recaptured`` (nothing is paid). ``battle`` is the
    encounter's id, ``captured`` the prize's name as it was, ``rating`` her rate (``None``
    un-rated)."""

    class Status(models.TextChoices):
        HELD = "held", "On her way to port"
        ARRIVED = "arrived", "Reached port: prize money paid"
        LOST = "lost", "Lost on the way"
        RECAPTURED = "recaptured", "Recaptured by the enemy"

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="prizes")
    ship = models.ForeignKey(Ship, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="prizes")
    battle = models.PositiveIntegerField()
    captured = models.CharField(max_length=200)
    rating = models.PositiveSmallIntegerField(null=True, blank=True)
    crew = models.ManyToManyField("characters.Character", blank=True, related_name="prizes")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.HELD)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["battle", "captured"],
                                               name="one_prize_per_ship_per_battle")]

    def __str__(self) -> str:
        return self.captured
