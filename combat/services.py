"""Use cases of encounters: create, start, act, resolve the rest in the background.

Every function takes the row lock of the encounter it changes (``select_for_update``),
checks who may do it and the version the user saw, calls the rules kernel, and saves the
state, the random source's position and the new events in one transaction: a refused step
changes nothing. The kernel is engine-agnostic (``rules.engine``); only the recorders of
:data:`_AFTER_BATTLE` know what an engine's end means for the campaign (a Beat to Quarters
battle for its ships, a card test for the sheets: ``combat.card_tests``, whose calls,
proposals and steps build on these functions).

Provably fair draws (DESIGN.md, "Roles and trust"): the seed is chosen with ``secrets`` at
creation, its SHA-256 is published when the battle starts, and the seed is revealed when it
ends, so anyone can replay the battle (:func:`encounter_replay`).
"""

from __future__ import annotations

import copy
import hashlib
import logging
import secrets

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from campaigns.selectors import require_gm
from campaigns.services import check_version, log_append
from combat.models import Encounter, EncounterEvent, Job
from combat.selectors import participant_ids_for, unfinished_encounter_for_ship
from rules.cards import CardError, parse_cards
from rules.engine import GM, Engine, Event, IllegalAction, get_engine
from rules.random import ScriptedSource, SeededSource
from ships.services import ship_reveal

logger = logging.getLogger(__name__)

RESOLVE_CHUNK = 25
"""Decisions a background resolution applies per transaction: small enough that players see
the battle move and that a human's step never waits long for the row lock."""


def seed_hash(seed: str) -> str:
    """The published commitment to a seed: SHA-256 of its decimal text, as hex."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


def new_seed() -> str:
    """A fresh secret seed for an encounter's random source: 63 bits from ``secrets``, as
    decimal text."""
    return str(secrets.randbits(63))


NOUNS = {"btq_test": "test"}
"""Engine name -> what its encounters are called in texts and log kinds, if not "battle"."""


def encounter_noun(encounter: Encounter) -> str:
    """What ``encounter`` is called in the texts people read and in its log kinds:
    ``"test"`` for a card test, ``"battle"`` otherwise (:data:`NOUNS`)."""
    return NOUNS.get(encounter.engine, "battle")


def _engine(name: str) -> Engine:
    try:
        return get_engine(name)
    except KeyError as exc:
        raise ValidationError({"engine": str(exc.args[0])}) from None


def _clean_stacked(cards) -> list[str]:
    """The stacked cards as a list of card texts; ``ValidationError`` naming a bad card."""
    if not cards:
        return []
    try:
        return [str(c) for c in parse_cards(cards)]
    except CardError as exc:
        raise ValidationError({"stacked_cards": str(exc)}) from None


def _clean_stacked_choices(choices) -> list[dict]:
    """The stacked decisions as ``[{"kind", "choice"}]``; ``ValidationError`` if one is not a
    pair of non-empty texts."""
    cleaned = []
    for i, planned in enumerate(choices or (), start=1):
        kind = planned.get("kind") if isinstance(planned, dict) else None
        choice = planned.get("choice") if isinstance(planned, dict) else None
        if not (isinstance(kind, str) and kind and isinstance(choice, str) and choice):
            raise ValidationError({"stacked_choices": f"Stacked decision {i} is not a kind "
                                                      "and a choice."})
        cleaned.append({"kind": kind, "choice": choice})
    return cleaned


def _default_choice(encounter: Encounter, kernel: Engine, decision) -> str:
    """The choice "Resolve the rest" makes: the next stacked decision if it fits, else the
    engine's default policy."""
    planned = encounter.stacked_choice_for(decision)
    return planned if planned is not None else kernel.default_choice(encounter.state, decision)


def _follow_stacked_choices(encounter: Encounter, kind: str, choice: str) -> list[Event]:
    """Move past the next stacked decision if ``kind``/``choice`` is it; otherwise the battle
    has left the plan: set the stacked decisions left aside, with a GM-only event saying so."""
    position, planned = encounter.stacked_choices_position, encounter.stacked_choices
    if position >= len(planned):
        return []
    if planned[position] == {"kind": kind, "choice": choice}:
        encounter.stacked_choices_position = position + 1
        return []
    encounter.stacked_choices_position = len(planned)
    return [Event(
        "encounter.stacked_choices_set_aside",
        f"The battle left the stacked decisions ({kind}: {choice} where {planned[position]['kind']}"
        f": {planned[position]['choice']} was planned): the {len(planned) - position} left are "
        "set aside and the default policy takes over.",
        visible_to=frozenset({GM}),
    )]


class _Table:
    """A game in memory: the engine, its state and the random source's position (the seeded
    source, after the stacked cards not drawn yet), ready for the kernel.

    When a stacked card cannot be drawn (the table took another course than the one the GM
    stacked for), the rest of the stack is set aside, the step is taken again with the seeded
    source alone, and a GM-only event says so: a stack never blocks a battle. Replays take
    the same course, since the same card fails at the same step.
    """

    def __init__(self, kernel: Engine, *, state, seed: str, rng_state, stacked: list[str],
                 position: int):
        self.kernel = kernel
        self.state = state
        self.seed = seed
        self.rng_state = rng_state
        self.stacked = stacked
        self.position = position

    @classmethod
    def of(cls, encounter: Encounter, kernel: Engine) -> _Table:
        return cls(kernel, state=encounter.state, seed=encounter.seed,
                   rng_state=encounter.rng_state, stacked=list(encounter.stacked_cards),
                   position=encounter.stacked_position)

    def store(self, encounter: Encounter) -> None:
        encounter.state = self.state
        encounter.rng_state = self.rng_state
        encounter.stacked_position = self.position

    def _run(self, step) -> list[Event]:
        """``step(source) -> (state, events)``; a refusal by the rules becomes a
        ``ValidationError`` with their reason, and nothing changes."""
        seeded = SeededSource(int(self.seed), state=self.rng_state)
        rest = self.stacked[self.position:]
        scripted = ScriptedSource(cards=rest, then=seeded) if rest else None
        try:
            state, events = step(scripted or seeded)
        except IllegalAction as exc:
            raise ValidationError(str(exc)) from None
        except CardError as exc:
            if scripted is None:
                raise
            seeded = SeededSource(int(self.seed), state=self.rng_state)
            try:
                state, events = step(seeded)
            except IllegalAction as illegal:
                raise ValidationError(str(illegal)) from None
            self.position = len(self.stacked)
            events = [Event(
                "encounter.stack_set_aside",
                f"The stacked cards no longer fit the battle ({exc}): the {len(rest)} left "
                "are set aside and the shuffled decks take over.",
                visible_to=frozenset({GM}),
            ), *events]
        else:
            if scripted is not None:
                self.position += len(rest) - scripted.cards_left
        self.state = state
        self.rng_state = seeded.state()
        return events

    def start(self, setup: dict) -> list[Event]:
        return self._run(lambda source: self.kernel.start(setup, source))

    def apply(self, actor: str, choice: str) -> list[Event]:
        return self._run(lambda source: self.kernel.apply(self.state, actor, choice, source))


def _round_of(state: dict) -> int | None:
    value = state.get("round") if isinstance(state, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _append_events(encounter: Encounter, events: list[Event], *, round_: int | None
                   ) -> list[EncounterEvent]:
    """Append ``events`` to the log. ``round_`` is the round the step began in; an event
    whose ``data`` carries an integer ``"round"`` (a new round beginning) moves the events
    from it on to that round."""
    last = encounter.events.aggregate(last=Max("seq"))["last"] or 0
    rows = []
    for i, e in enumerate(events, start=1):
        round_ = _round_of(e.data) if _round_of(e.data) is not None else round_
        rows.append(EncounterEvent(
            encounter=encounter,
            seq=last + i,
            kind=e.kind,
            text=e.text,
            data=e.data,
            gm_data=e.gm_data,
            visible_to=None if e.visible_to is None else sorted(e.visible_to),
            round=round_,
        ))
    return EncounterEvent.objects.bulk_create(rows)


def _locked(encounter: Encounter) -> Encounter:
    return Encounter.objects.select_for_update().get(pk=encounter.pk)


def _check_ships_free(encounter_ships, *, exclude=None) -> None:
    """Lock the ships' rows and refuse (``ValidationError`` naming the other battle) if one
    of them is already in another unfinished battle: the last battle to end would otherwise
    overwrite the other's damage when it is written back."""
    from ships.models import Ship

    ids = [ship.pk for ship in encounter_ships]
    for ship in Ship.objects.select_for_update().filter(pk__in=ids).order_by("pk"):
        other = unfinished_encounter_for_ship(ship, exclude=exclude)
        if other is not None:
            raise ValidationError(
                f"{ship} is already in the battle “{other.title}” "
                f"({other.get_status_display().lower()}): finish or cancel that battle first."
            )


@transaction.atomic
def encounter_create(
    *, campaign, user, engine: str, setup: dict, title: str, stacked_cards=None,
    stacked_choices=None, ships=(),
) -> Encounter:
    """A new encounter of ``engine`` in ``campaign``, not started yet (GMs only).

    ``setup`` is validated by the engine (``ValidationError`` with its reason);
    ``stacked_cards`` (card texts, a string or a list) are drawn first when the battle
    starts, before the seeded source takes over; ``stacked_choices`` (``[{"kind",
    "choice"}]``) are the decisions planned with them (``Encounter.stacked_choices``).
    ``ships`` are the campaign's ships that
    fight in it (``ships.models.Ship``); ``ValidationError`` if one of them is already in
    another unfinished battle. The seed is chosen here with ``secrets``.
    Raises ``Http404`` for a non-member, ``PermissionDenied`` for a player.
    """
    require_gm(user, campaign)
    if any(ship.campaign_id != campaign.pk for ship in ships):
        raise ValidationError("Every ship of the battle must belong to its campaign.")
    _check_ships_free(ships)
    kernel = _engine(engine)
    title = (title or "").strip() or kernel.title
    try:
        setup = kernel.validate_setup(setup)
    except ValueError as exc:
        raise ValidationError({"setup": str(exc)}) from None
    seed = new_seed()
    encounter = Encounter.objects.create(
        campaign=campaign,
        engine=kernel.name,
        title=title[:200],
        setup=setup,
        seed=seed,
        seed_hash=seed_hash(seed),
        stacked_cards=_clean_stacked(stacked_cards),
        stacked_choices=_clean_stacked_choices(stacked_choices),
        created_by=user,
    )
    encounter.ships.set(ships)
    log_append(campaign=campaign, kind="battle.created", actor=user,
               text=f"{user} prepared the battle “{encounter.title}”.",
               data={"encounter": encounter.pk}, gm_only=True)
    return encounter


@transaction.atomic
def encounter_start(*, encounter: Encounter, user, expected_version) -> Encounter:
    """Begin a prepared encounter (GMs only): the engine's opening events are logged and the
    seed's hash is published. ``ValidationError`` if it has already begun or the engine
    refuses; :class:`campaigns.services.StaleVersion` if ``expected_version`` is old."""
    encounter = _locked(encounter)
    require_gm(user, encounter.campaign)
    check_version(encounter, expected_version)
    noun = encounter_noun(encounter)
    if encounter.status == Encounter.Status.CANCELLED:
        raise ValidationError(f"This {noun} was cancelled.")
    if encounter.status != Encounter.Status.SETUP:
        raise ValidationError(f"This {noun} has already begun.")
    encounter_begin(encounter=encounter, user=user)
    log_append(campaign=encounter.campaign, kind=f"{noun}.started", actor=user,
               text=f"The {noun} “{encounter.title}” began.", data={"encounter": encounter.pk})
    return encounter


def encounter_begin(*, encounter: Encounter, user) -> Encounter:
    """Begin ``encounter``, locked and in status setup, for a caller that has checked who
    may begin it and from which version (:func:`encounter_start`; ``combat.card_tests``
    when the GM calls a test or accepts one): the seed's hash is published in the opening
    event, the engine's opening events follow, its ships are revealed, it becomes active
    (or ends at once if the engine says so) and its version is bumped. Saved; no log entry
    (the caller writes it)."""
    ships = list(encounter.ships.all())
    _check_ships_free(ships, exclude=encounter)
    kernel = _engine(encounter.engine)
    table = _Table.of(encounter, kernel)
    events = table.start(encounter.setup)
    for ship in ships:  # the enemy is no secret once she is in sight
        ship_reveal(ship=ship, actor=user)
    table.store(encounter)
    encounter.status = Encounter.Status.ACTIVE
    encounter.started_at = timezone.now()
    encounter.version += 1
    noun = encounter_noun(encounter)
    opening = Event(
        "encounter.start",
        f"The {noun} begins. The hash of its seed is {encounter.seed_hash}; the seed is "
        f"revealed when the {noun} ends.",
        data={"seed_hash": encounter.seed_hash, "engine": encounter.engine},
    )
    _append_events(encounter, [opening, *events], round_=None)
    _finish_if_over(encounter, kernel, user)
    encounter.save()
    return encounter


@transaction.atomic
def encounter_cancel(*, encounter: Encounter, user, expected_version) -> Encounter:
    """Call off a battle being prepared or running (GMs only): its status becomes cancelled,
    nothing is written back to the ships, which are free for another battle, and the
    campaign log says so. ``ValidationError`` if it has already ended;
    :class:`campaigns.services.StaleVersion` if ``expected_version`` is old."""
    encounter = _locked(encounter)
    require_gm(user, encounter.campaign)
    check_version(encounter, expected_version)
    noun = encounter_noun(encounter)
    if encounter.status not in Encounter.UNFINISHED:
        raise ValidationError(f"Only a {noun} being prepared or in progress can be cancelled.")
    was_running = encounter.status == Encounter.Status.ACTIVE
    encounter.status = Encounter.Status.CANCELLED
    encounter.version += 1
    if was_running:
        _append_events(encounter, round_=_round_of(encounter.state), events=[Event(
            "encounter.cancelled",
            f"The GM called the {noun} off: it ends here and nothing of it is written back.",
        )])
    encounter.save()
    log_append(campaign=encounter.campaign, kind=f"{noun}.cancelled", actor=user,
               text=f"{user} cancelled the {noun} “{encounter.title}”; nothing was written "
                    "back.",
               data={"encounter": encounter.pk}, gm_only=not was_running)
    return encounter


def _apply(encounter: Encounter, table: _Table, actor: str, kind: str, choice: str) -> None:
    """Apply one decision to a locked encounter in memory and append its events."""
    round_ = _round_of(encounter.state)
    events = [*_follow_stacked_choices(encounter, kind, choice), *table.apply(actor, choice)]
    table.store(encounter)
    encounter.choices = [*encounter.choices, {"actor": actor, "kind": kind, "choice": choice}]
    _append_events(encounter, events, round_=round_)


def _finish_if_over(encounter: Encounter, kernel: Engine, user) -> bool:
    """If the game is over: reveal the seed, store the outcome, write it back to the
    campaign (ships, log). Returns whether it is over."""
    outcome = kernel.outcome(encounter.state)
    if outcome is None:
        return False
    noun = encounter_noun(encounter)
    encounter.status = Encounter.Status.FINISHED
    encounter.finished_at = timezone.now()
    encounter.outcome = outcome.as_dict()
    last_text = encounter.events.order_by("-seq").values_list("text", flat=True).first()
    said = f"The {noun} is over." if last_text == outcome.summary else outcome.summary
    _append_events(encounter, round_=_round_of(encounter.state), events=[Event(
        "encounter.end",
        f"{said} The seed is revealed: {encounter.seed}.",
        data={"seed": encounter.seed, "seed_hash": encounter.seed_hash,
              "winner": outcome.winner, "result": outcome.result,
              "stacked_cards": encounter.stacked_cards},
    )])
    recorder = _AFTER_BATTLE.get(encounter.engine)
    written = recorder(encounter, kernel, outcome, user) if recorder is not None else None
    data = {"encounter": encounter.pk, "winner": outcome.winner, "result": outcome.result}
    data.update((written or {}).get("data", {}))
    summary = (written or {}).get("summary") or outcome.summary
    log_append(campaign=encounter.campaign, kind=f"{noun}.finished", actor=user,
               text=f"The {noun} “{encounter.title}” is over: {summary}", data=data)
    return True


def _may_act_for(user, encounter: Encounter, actor: str) -> bool:
    participants = participant_ids_for(user, encounter)
    return GM in participants or actor in participants


@transaction.atomic
def encounter_act(
    *, encounter: Encounter, user, actor: str, decision_kind: str, choice: str,
    expected_version,
) -> list[EncounterEvent]:
    """Make ``actor``'s pending decision ``decision_kind`` with ``choice`` (an option key).

    The GM may act for any participant, a player only for his own PCs
    (``PermissionDenied``). Refused with nothing changed: a stale ``expected_version``
    (:class:`campaigns.services.StaleVersion`), a battle that is not running, a decision
    that is not pending, an illegal choice (``ValidationError`` with the rules' reason).
    Returns the new events.
    """
    encounter = _locked(encounter)
    if not _may_act_for(user, encounter, actor):
        raise PermissionDenied("You may only make decisions for your own character.")
    noun = encounter_noun(encounter)
    if encounter.status in (Encounter.Status.FINISHED, Encounter.Status.CANCELLED):
        raise ValidationError(f"This {noun} is over: no more decisions can be made.")
    if encounter.status != Encounter.Status.ACTIVE:
        raise ValidationError(f"This {noun} has not begun yet.")
    check_version(encounter, expected_version)
    kernel = _engine(encounter.engine)
    pending = [d for d in kernel.pending(encounter.state)
               if d.actor == actor and d.kind == decision_kind]
    if not pending:
        raise ValidationError(f"That decision is not awaited now: reload the {noun}.")
    choice = str(choice or "").strip()
    if not choice:
        raise ValidationError({"choice": "Choose one of the options."})
    try:
        pending[0].option(choice)
    except IllegalAction as exc:
        raise ValidationError({"choice": str(exc)}) from None
    first = encounter.events.aggregate(last=Max("seq"))["last"] or 0
    _apply(encounter, _Table.of(encounter, kernel), actor, decision_kind, choice)
    encounter.version += 1
    _finish_if_over(encounter, kernel, user)
    encounter.save()
    return list(encounter.events.filter(seq__gt=first))


@transaction.atomic
def encounter_resolve_rest(*, encounter: Encounter, user) -> Job:
    """Queue a job that plays the battle to its end with the default choices (GMs only).
    The Celery task is sent when the transaction commits. ``ValidationError`` if the battle
    is not running or a resolution is already queued or running."""
    encounter = _locked(encounter)
    require_gm(user, encounter.campaign)
    if encounter.status != Encounter.Status.ACTIVE:
        raise ValidationError("Only a battle in progress can be resolved.")
    if encounter.jobs.filter(status__in=[Job.Status.QUEUED, Job.Status.RUNNING]).exists():
        raise ValidationError("The rest of this battle is already being resolved.")
    job = Job.objects.create(encounter=encounter, kind=Job.Kind.RESOLVE_REST, created_by=user)
    transaction.on_commit(lambda: _send(job.pk))
    return job


def _send(job_id: int) -> None:
    """Send the task that runs job ``job_id`` to the workers. If the broker cannot be
    reached, the job is marked failed with the reason rather than left queued forever."""
    from combat.tasks import run_job  # imported here: the task module imports this one

    try:
        run_job.delay(job_id)
    except Exception as exc:  # any broker or transport error: the message was not sent
        logger.exception("could not send job %s to the workers", job_id)
        Job.objects.filter(pk=job_id, status=Job.Status.QUEUED).update(
            status=Job.Status.FAILED, finished_at=timezone.now(),
            error=f"The job could not be handed to the workers: {exc}"[:2000],
        )


def _remaining_decisions(encounter: Encounter, kernel: Engine) -> int:
    """How many decisions the default policy takes from here to the end (a dry run on copies
    of the state and of the random source; the kernel is deterministic)."""
    table = _Table.of(encounter, kernel)
    shadow = copy.copy(encounter)  # its state and stacked decisions move, not the encounter's
    shadow.state = copy.deepcopy(encounter.state)
    steps = 0
    while (pending := kernel.pending(shadow.state)) and steps < 100_000:
        decision = pending[0]
        choice = _default_choice(shadow, kernel, decision)
        _follow_stacked_choices(shadow, decision.kind, choice)
        table.apply(decision.actor, choice)
        shadow.state = table.state
        steps += 1
    return steps


def _resolve_chunk(job: Job, total: int, done: int) -> tuple[int, int, bool]:
    """Apply up to :data:`RESOLVE_CHUNK` default decisions under the row lock. Returns the
    updated ``(total, done, finished)``."""
    with transaction.atomic():
        encounter = Encounter.objects.select_for_update().get(pk=job.encounter_id)
        if encounter.status != Encounter.Status.ACTIVE:
            return total, done, True
        kernel = _engine(encounter.engine)
        if total == 0:
            total = max(1, _remaining_decisions(encounter, kernel))
        table = _Table.of(encounter, kernel)
        for _ in range(RESOLVE_CHUNK):
            pending = kernel.pending(encounter.state)
            if not pending:
                break
            decision = pending[0]
            choice = _default_choice(encounter, kernel, decision)
            _apply(encounter, table, decision.actor, decision.kind, choice)
            done += 1
        encounter.version += 1
        over = _finish_if_over(encounter, kernel, job.created_by)
        encounter.save()
        if not over and not kernel.pending(encounter.state):
            raise RuntimeError(f"{encounter.engine}: no decision pending and no outcome")
        total = max(total, done + (0 if over else 1))
        Job.objects.filter(pk=job.pk).update(progress=min(99, 100 * done // total))
    return total, done, over


def job_run(*, job_id: int) -> Job | None:
    """Run a queued job; the worker calls it. The job is claimed with a conditional update,
    so a message delivered twice runs it once: returns ``None`` if it was not queued (already
    claimed, finished, or unknown). A ``resolve_rest`` job plays the battle to its end with
    the default choices in chunks of :data:`RESOLVE_CHUNK` decisions, each under the row
    lock and bumping the version; it ends ``done`` with the outcome as ``result``, or
    ``failed`` with the reason."""
    claimed = Job.objects.filter(pk=job_id, status=Job.Status.QUEUED).update(
        status=Job.Status.RUNNING, claimed_at=timezone.now()
    )
    if not claimed:
        return None
    job = Job.objects.select_related("created_by").get(pk=job_id)
    total = done = 0
    try:
        over = False
        while not over:
            total, done, over = _resolve_chunk(job, total, done)
    except Exception as exc:  # the job must end failed, whatever went wrong
        logger.exception("job %s failed", job_id)
        reason = "; ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
        Job.objects.filter(pk=job_id).update(
            status=Job.Status.FAILED, finished_at=timezone.now(),
            error=f"{type(exc).__name__}: {reason}"[:2000],
        )
    else:
        encounter = Encounter.objects.get(pk=job.encounter_id)
        Job.objects.filter(pk=job_id).update(
            status=Job.Status.DONE, progress=100, finished_at=timezone.now(),
            result={"decisions": done, "outcome": encounter.outcome},
        )
    job.refresh_from_db()
    return job


def encounter_replay(*, encounter: Encounter) -> dict:
    """Replay a finished encounter from its setup, revealed seed, stacked cards and recorded
    choices, and compare with the stored result. Returns ``{"matches": bool, "state":
    final state, "outcome": outcome dict or None}``. ``ValidationError`` if it has not
    ended (the seed is still secret)."""
    noun = encounter_noun(encounter)
    if encounter.status != Encounter.Status.FINISHED:
        raise ValidationError(f"A {noun} can be replayed once it has ended and its seed is "
                              "known.")
    if not encounter.seed or encounter.terms.get("migrated"):
        raise ValidationError(f"This {noun} was recorded before each {noun} had a seed of its "
                              "own (its cards came from the campaign's shared source): it "
                              "cannot be replayed.")
    kernel = _engine(encounter.engine)
    table = _Table(kernel, state=None, seed=encounter.seed, rng_state=None,
                   stacked=list(encounter.stacked_cards), position=0)
    table.start(encounter.setup)
    for step in encounter.choices:
        table.apply(step["actor"], step["choice"])
    state = table.state
    outcome = kernel.outcome(state)
    outcome_dict = outcome.as_dict() if outcome else None
    return {"matches": state == encounter.state and outcome_dict == encounter.outcome,
            "state": state, "outcome": outcome_dict}


def _record_btq_naval(encounter: Encounter, kernel: Engine, outcome, user) -> None:
    """Write a Beat to Quarters ship battle's end back to the campaign's ships: each ship's
    damage tracks and Ship Morale after the battle (BtQ L2602-2603; the engine's outcome
    ``data["ships"]``, ship id -> ``{"tracks", "morale"}``)."""
    from ships.services import ship_record_battle

    ships = {str(ship.pk): ship for ship in encounter.ships.all()}
    for ship_id, final in outcome.data.get("ships", {}).items():
        ship = ships.get(str(ship_id))
        if ship is None:
            continue
        ship_record_battle(ship=ship, tracks=final["tracks"], morale=final["morale"],
                           note=f"{ship}, after “{encounter.title}”: {outcome.summary}")


def _record_btq_test(encounter: Encounter, kernel: Engine, outcome, user) -> dict:
    """Write a card test's damage back onto the sheets and ships
    (``combat.card_tests.services.card_test_write_back``)."""
    from combat.card_tests.services import card_test_write_back

    return card_test_write_back(encounter=encounter, outcome=outcome, user=user)


_AFTER_BATTLE = {"btq_naval": _record_btq_naval, "btq_test": _record_btq_test}
"""Engine name -> what the end of its encounter changes in the campaign, beyond the log:
``recorder(encounter, kernel, outcome, user)``, which may return ``{"summary", "data"}`` for
the log entry of the end: what was written back, in words (instead of the outcome's
summary) and as JSON details added to its data."""

