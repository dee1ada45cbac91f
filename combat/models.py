"""Encounters of any engine, their event logs and the jobs that resolve them (DESIGN.md,
"The Django side").

An :class:`Encounter` is one game of a registered engine (``rules.engine.get_engine``): its
setup, the current state, the position of its random source and the choices made so far,
so that the whole battle can be replayed from its seed. Changes go through
``combat.services`` only; ``version`` is bumped by every change a person makes (begin, a
decision, cancel), which refuses a step taken from a stale page. The steps a background job
plays do not bump it: while a job runs nobody else may decide (``encounter_act`` refuses),
so a job's steps are no edit a person could overwrite, and the GM's cancel is never stale
because of them.
"""

from django.conf import settings as django_settings
from django.db import models

from rules.engine import engines, stored


class _KeptState:
    """A model whose ``state`` an engine (``engine``) made: read from the database, a state
    kept by an earlier version of the app is brought up to this one
    (:func:`rules.engine.stored`; a battle begun before a campaign setting existed plays on
    with it at its default), so every use of ``state`` sees what the engine now reads."""

    @classmethod
    def from_db(cls, db, field_names, values):
        instance = super().from_db(db, field_names, values)
        kept = instance.__dict__
        engine = engines().get(kept.get("engine", ""))
        if engine is not None and kept.get("state") is not None:
            instance.state = stored(engine, kept["state"])
        return instance


class Encounter(_KeptState, models.Model):
    """One battle (or other encounter) in a campaign, played with ``engine``.

    ``seed`` is the secret seed of the random source (decimal text); only its SHA-256,
    ``seed_hash``, is published while the battle runs, and the seed is revealed when it ends
    (provably fair draws). ``stacked_cards`` are GM-only card texts drawn before the seeded
    source takes over (a stacked deck); ``stacked_position`` counts those already drawn.
    ``stacked_choices`` are GM-only decisions planned with them (``{"kind", "choice"}``, in
    the order the engine asks): the default choice offered to the GM and taken by "Resolve
    the rest" while the next one fits the pending decision; ``stacked_choices_position``
    counts those made. Both stacks are set aside as soon as the battle leaves them.
    ``state`` is the engine's JSON state, ``rng_state`` the seeded source's position
    (``SeededSource.state()``), ``choices`` every decision applied, in order
    (``{"actor", "kind", "choice"}``, plus ``"by": "gm"`` when the GM decided for a
    player's character, ``"by": "timeout:<seconds>"`` when the default was taken because
    nobody decided in time), and ``outcome`` the engine's ``Outcome.as_dict()``.
    ``decision_timeout``: seconds after which a pending decision takes its default (the
    sweep ``combat.sweep_decisions``), counted from the battle's last change
    (``updated_at``); ``None``: wait as long as it takes.
    ``pending_since`` keeps, for each decision pending now, the version since which it has
    been pending unchanged (``{"version": <the version it was written at>, "since":
    {"<actor> <kind>": <version>}}``; out of date, and so ignored, once the version has moved
    on without it): a form from that version or later answers the same decision, which
    another participant's decision made at the same moment did not change
    (``combat.services.encounter_act``).
    ``ships`` are the campaign's ships that fight in it: a ship is in at most one unfinished
    (:attr:`UNFINISHED`) battle, and only those ships get the battle's end written back. A
    cancelled battle writes nothing back.
    ``terms`` are what the table asked for in the campaign's own ids, from which the Django
    side builds the engine's setup and to which it writes the end back: for a card test
    (``combat.card_tests``) the call form's fields (the character, skill, reputation,
    helpers, opposition, stakes, areas at risk; GM-only parts among them), its ``origin``
    and, once declined, the ``declined`` reason; empty for a battle, whose ships are
    ``ships``. A seed of ``""`` marks a test recorded before every encounter had its own
    seed (migrated from the campaign's shared source), as does ``terms["migrated"]`` for one
whose first cards came from there: it cannot be replayed.
    """

    class Status(models.TextChoices):
        SETUP = "setup", "Being set up"
        ACTIVE = "active", "In progress"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    UNFINISHED = (Status.SETUP, Status.ACTIVE)
    """The statuses of a battle that still holds its ships: one ship, one such battle."""

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="encounters"
    )
    engine = models.CharField(max_length=50)
    ships = models.ManyToManyField("ships.Ship", blank=True, related_name="encounters")
    title = models.CharField(max_length=200)
    setup = models.JSONField()
    seed = models.CharField(max_length=40)
    seed_hash = models.CharField(max_length=64)
    stacked_cards = models.JSONField(default=list, blank=True)
    stacked_position = models.PositiveIntegerField(default=0)
    stacked_choices = models.JSONField(default=list, blank=True)
    stacked_choices_position = models.PositiveIntegerField(default=0)
    terms = models.JSONField(default=dict, blank=True)
    state = models.JSONField(null=True, blank=True)
    rng_state = models.JSONField(null=True, blank=True)
    choices = models.JSONField(default=list, blank=True)
    pending_since = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    version = models.PositiveIntegerField(default=1)
    outcome = models.JSONField(null=True, blank=True)
    challenge = models.ForeignKey(
        "campaigns.Challenge", on_delete=models.SET_NULL, null=True, blank=True,
        related_name="encounters",
        help_text="The challenge of a mission this encounter is played for: its end meets "
                  "or fails it (combat.challenges).",
    )
    decision_timeout = models.PositiveIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.title

    @property
    def seed_revealed(self) -> bool:
        """Whether the seed is public: once the encounter has ended, or was called off after
        it began (its draws until then can be checked)."""
        return self.status == self.Status.FINISHED or (
            self.status == self.Status.CANCELLED and self.started_at is not None)

    @property
    def stacked_remaining(self) -> list[str]:
        """The stacked card texts not drawn yet."""
        return list(self.stacked_cards[self.stacked_position:])

    @staticmethod
    def pending_key(actor: str, kind: str) -> str:
        """A decision's key in :attr:`pending_since`."""
        return f"{actor} {kind}"

    def asked_since(self, actor: str, kind: str) -> int:
        """The version since which ``actor``'s pending decision ``kind`` has been pending
        unchanged, as far as :attr:`pending_since` knows (else this version)."""
        kept = self.pending_since
        if kept.get("version") != self.version:
            return self.version
        return kept["since"].get(self.pending_key(actor, kind), self.version)

    def stacked_choice_for(self, decision) -> str | None:
        """The next stacked choice if it fits ``decision`` (a ``rules.engine.Decision``: same
        kind, one of its options), else ``None``."""
        if self.stacked_choices_position >= len(self.stacked_choices):
            return None
        planned = self.stacked_choices[self.stacked_choices_position]
        keys = {option.key for option in decision.options}
        if planned["kind"] == decision.kind and planned["choice"] in keys:
            return planned["choice"]
        return None


class EncounterEvent(models.Model):
    """One entry of an encounter's event log, as the engine produced it.

    ``seq`` numbers the events of one encounter from 1; ``data`` may be seen by every
    participant in ``visible_to`` (``None``: everyone), ``gm_data`` by the GM alone.
    ``round`` is the engine's round number when the event happened, if it counts rounds.
    """

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=60)
    text = models.TextField()
    data = models.JSONField(default=dict, blank=True)
    gm_data = models.JSONField(default=dict, blank=True)
    visible_to = models.JSONField(null=True, blank=True)
    round = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["encounter", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["encounter", "seq"], name="one_event_per_seq"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}: {self.text[:60]}"


class Job(models.Model):
    """A unit of background work on an encounter, run by Celery workers (DESIGN.md, jobs).

    The job's state lives here, not in Celery's result store. A worker claims an open job
    with a conditional update that takes its lease (``lease_owner``: the worker's
    ``host:pid:nonce``; ``lease_until``: when the lease runs out unless renewed, which the
    worker does with every step it commits). A job with no ``lease_owner`` or whose lease
    ran out may be claimed by any worker, so a message delivered twice runs once and a job
    whose worker died is taken up again (``combat.services.job_run``, ``job_sweep``).
    ``takeovers`` counts the leases taken from workers that stopped renewing them.
    ``steps`` counts the decisions the job has played (committed with them, so each counts
    once); there is no percentage, since how long a battle lasts is not known before it is
    played. ``error`` is the reason once ``failed``. The outcome is the encounter's
    (``combat.selectors.outcome_for`` says who sees what of it). A job ends ``cancelled``
    when its battle is cancelled, before or while it runs.
    """

    class Kind(models.TextChoices):
        RESOLVE_REST = "resolve_rest", "Resolve the rest of the battle"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"

    OPEN = (Status.QUEUED, Status.RUNNING)
    """The statuses of a job that still has work to do."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="jobs")
    kind = models.CharField(max_length=30, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    steps = models.PositiveIntegerField(default=0)
    lease_owner = models.CharField(max_length=200, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    takeovers = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "lease_until"], name="job_open_lease")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.status}, {self.steps} steps)"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN


class Simulation(_KeptState, models.Model):
    """A Monte Carlo of any engine (``rules.montecarlo``; issue 11): ``games`` games played
    with the default policies from ``setup`` (the new-battle page's "What are the odds?")
    or from ``state`` (a running ``encounter`` as it stands), every game from ``setup``
    drawing the GM's ``stacked_cards`` (card texts, GM-only) first, and, for a "what if",
    ``decision`` (a pending ``Decision.as_dict()``): the games are played once per option,
    that option taken first. With ``until_precise`` the games are played in batches until
    the 95 % interval of every outcome is within one point (``rules.montecarlo.
    precise_enough``), ``games`` at most.

    The games are cut into :class:`SimulationChunk` rows that workers claim with a lease,
    as jobs are (``combat.odds.services``). Game ``i`` is played with
    ``rules.montecarlo.game_seed(seed, i)``: ``seed`` is secret while the simulation runs
    (only ``seed_hash`` is shown) and revealed when it ends, so anyone can play it again
    (``manage.py odds_replay``). ``results`` is the merge of the chunks' summaries, made
    once when the last chunk is in: option key (``""`` without a decision) ->
    ``Summary.as_dict()``. ``players_see`` is set when the campaign's setting
    ``odds_for_players`` allowed players the odds at the time it was asked (the simulation
    knows hidden facts). ``step`` is how many decisions the encounter had taken when it was
    asked (its odds are those of that moment); ``labels`` the names people read for the
    winners and ships (``{"winners": {key: name}, "ships": {id: name}}``). ``heartbeat`` is
    the last time a worker claimed or committed one of its chunks: the sweep sends it to the
    workers again when it stalls.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"

    OPEN = (Status.QUEUED, Status.RUNNING)

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="simulations")
    encounter = models.ForeignKey(
        Encounter, on_delete=models.CASCADE, null=True, blank=True, related_name="simulations")
    engine = models.CharField(max_length=50)
    title = models.CharField(max_length=200)
    setup = models.JSONField(null=True, blank=True)
    stacked_cards = models.JSONField(default=list, blank=True)
    state = models.JSONField(null=True, blank=True)
    decision = models.JSONField(null=True, blank=True)
    games = models.PositiveIntegerField()
    until_precise = models.BooleanField(default=False)
    chunk_games = models.PositiveIntegerField()
    seed = models.CharField(max_length=40)
    seed_hash = models.CharField(max_length=64)
    players_see = models.BooleanField(default=False)
    step = models.PositiveIntegerField(null=True, blank=True)
    labels = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    games_done = models.PositiveIntegerField(default=0)
    results = models.JSONField(null=True, blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.title} ({self.status}, {self.games_done} games)"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN

    @property
    def options(self) -> list[str]:
        """The option keys played: the decision's, or ``[""]``."""
        return [o["key"] for o in self.decision["options"]] if self.decision else [""]

    @property
    def seed_revealed(self) -> bool:
        """Whether the seed is public: once the simulation has ended, however it ended."""
        return not self.is_open

    @property
    def games_planned(self) -> int:
        """How many games the chunks made so far hold (the progress bar's end)."""
        return sum(c.stop - c.start for c in self.chunks.all())


class SimulationChunk(models.Model):
    """Games ``start`` to ``stop - 1`` of a :class:`Simulation`, for ``option`` (``""``
    without a decision). A worker claims it with a lease (``lease_owner``, ``lease_until``,
    renewed while it plays) and commits its ``summary`` (``Summary.as_dict()``) and ``done``
    in one transaction, only while it still holds the lease: a chunk whose worker died is
    played again by another, and counted once."""

    simulation = models.ForeignKey(Simulation, on_delete=models.CASCADE, related_name="chunks")
    option = models.CharField(max_length=100, blank=True)
    start = models.PositiveIntegerField()
    stop = models.PositiveIntegerField()
    done = models.BooleanField(default=False)
    summary = models.JSONField(null=True, blank=True)
    lease_owner = models.CharField(max_length=200, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    takeovers = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["simulation", "start", "option"]
        constraints = [models.UniqueConstraint(fields=["simulation", "option", "start"],
                                               name="one_chunk_per_games")]
        indexes = [models.Index(fields=["simulation", "done"], name="simulation_chunk_open")]

    def __str__(self) -> str:
        return f"games {self.start}-{self.stop - 1} {self.option}".strip()


class BvpCardSet(models.Model):
    """A campaign's own card data for British vs Pirates, entered by a GM from the physical
    cards (the rulebook prints none of them: ``rules.bvp.data``). ``data`` is checked by
    ``rules.bvp.data.validate_card_data``; with ``in_use`` the campaign's new British vs
    Pirates games take it into their setup (else the provisional set). One per campaign;
    ``version`` refuses a stale save. Changed through ``combat.bvp_cards`` only."""

    campaign = models.OneToOneField("campaigns.Campaign", on_delete=models.CASCADE,
                                    related_name="bvp_card_set")
    data = models.JSONField()
    in_use = models.BooleanField(default=True)
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")

    def __str__(self) -> str:
        return f"{self.data.get('name', 'card data')} ({self.campaign})"
