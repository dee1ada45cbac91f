"""Use cases of encounters: create, start, act, resolve the rest in the background.

Every function takes the row lock of the encounter it changes (``select_for_update``),
checks who may do it and the version the user saw, calls the rules kernel, and saves the
state, the random source's position and the new events in one transaction: a refused step
changes nothing. The kernel is engine-agnostic (``rules.engine``); only the recorders of
:data:`_AFTER_BATTLE` know what an engine's end means for the campaign (a Beat to Quarters
battle for its ships, a card test for the sheets: ``combat.card_tests``, whose calls,
proposals and steps build on these functions).

Background jobs (:func:`job_run`, :func:`job_sweep`) hold a lease on their job, renewed
with every chunk they commit, so a job whose worker died is taken up by another from its
last committed chunk; ``config/settings.py`` explains the timings.

Provably fair draws (DESIGN.md, "Roles and trust"): the seed is chosen with ``secrets`` at
creation, its SHA-256 is published when the battle starts, and the seed is revealed when it
ends, so anyone can replay the battle (:func:`encounter_replay`).
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import logging
import os
import secrets
import socket
import time
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Case, DateTimeField, F, Max, Q, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from campaigns.selectors import require_gm
from campaigns.services import check_version, log_append
from characters.models import Character
from combat import bvp_cards, challenges
from combat.models import Encounter, EncounterEvent, Job
from combat.selectors import (
    PC_PREFIX,
    USER_PREFIX,
    participant_ids_for,
    unfinished_encounter_for_ship,
)
from rules.cards import GM_DECK, CardError, parse_cards
from rules.engine import GM, Decision, Engine, Event, FieldErrors, IllegalAction, get_engine
from rules.random import NotInDeck, SeededSource, stacked_step
from ships.prizes import prizes_refuse
from ships.services import ship_reveal

logger = logging.getLogger(__name__)

RESOLVE_CHUNK = 25
"""The most decisions a background resolution applies per transaction (a chunk also ends
after ``settings.JOB_CHUNK_SECONDS``): small enough that players see the battle move and
that a human's step (the GM's cancel) never waits long for the row lock."""

MAX_TAKEOVERS = 3
"""A job whose lease has been taken from a dead worker more often than this is failed: what
killed those workers (a step that exhausts memory or time) would kill the next one too."""


def seed_hash(seed: str) -> str:
    """The published commitment to a seed: SHA-256 of its decimal text, as hex."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


def new_seed() -> str:
    """A fresh secret seed for an encounter's random source: 63 bits from ``secrets``, as
    decimal text."""
    return str(secrets.randbits(63))


NOUNS = {"btq_test": "test", "btq_skirmish": "skirmish", "btq_personal_combat": "fight",
         "btq_boarding": "boarding", "btq_creation": "draft", "btq_ship_creation": "draft",
         "btq_scene": "scene", "btq_scar": "draw"}
"""Engine name -> what its encounters are called in texts and log kinds, if not "battle"."""


def encounter_noun(encounter: Encounter) -> str:
    """What ``encounter`` is called in the texts people read and in its log kinds:
    ``"test"`` for a card test, ``"battle"`` otherwise (:data:`NOUNS`)."""
    return NOUNS.get(encounter.engine, "battle")


AT_STAKE = {
    "btq_naval": "the ships' damage and Ship Morale, nor a prize taken, nor the damage to a "
                 "ship reputation a lost battle costs, nor the wounds of its duels on the sheets",
    "btq_boarding": "the wounds on the sheets, nor the ships' Crew and Ship Morale",
    "btq_skirmish": "the wounds on the sheets, nor the Ship Morale a lost skirmish costs the "
                    "ship",
    "btq_personal_combat": "the wounds on the fighters' sheets",
    "btq_scar": "the Scar on the sheet",
    "btq_scene": "the scene's token, nor the damage to reputations",
}
"""Engine name -> what the end of its encounter would write back to the campaign
(:data:`_AFTER_BATTLE`), in words: what calling it off leaves unwritten. A wargame writes
nothing back but its log entry."""


def encounter_cancel_effect(encounter: Encounter) -> str:
    """What calling ``encounter`` off does, beyond ending it, in sentences for its pages
    (:func:`encounter_cancel`): before it began, that nothing of it has been played; after,
    what is not written back for its kind (:data:`AT_STAKE`; a wargame's forces are its own,
    not the campaign's) and what its beginning revealed that stays revealed (its ships, a
    fight's NPCs: :func:`encounter_begin`); its ships, if it holds any, free again, and a
    mission's challenge it is played for still to be played."""
    at_stake = AT_STAKE.get(encounter.engine)
    has_ships = encounter.ships.exists()
    if encounter.started_at is None:
        text = "It has not begun: nothing of it has been played."
    elif at_stake is not None:
        text = f"Nothing of it is written back: not {at_stake}."
        shown = ["its ships"] if has_ships else []
        if encounter.engine in _ON_BEGIN and Character.objects.filter(
                pk__in=encounter.terms.get("characters", []),
                kind=Character.Kind.NPC).exists():  # (fight_begun)
            shown.append("its NPCs' names and ranks")
        if shown:
            text += f" What it brought into the open stays known: {' and '.join(shown)}."
    else:
        text = ("Nothing of it is written back: its forces are the game's own, not the "
                "campaign's ships or characters, and the campaign log only says it was called "
                "off.")
    if has_ships:
        text += " Its ships are then free to fight again."
    if encounter.challenge_id is not None:
        text += " The challenge it is played for is still to be played."
    return text


def _engine(name: str) -> Engine:
    try:
        return get_engine(name)
    except KeyError as exc:
        raise ValidationError({"engine": str(exc.args[0])}) from None


def clean_stacked(cards) -> list[str]:
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


DECIDED_BY_GM = "gm"
"""``data["decided_by"]`` of the event marking a decision the GM took for a player's
character, and ``"by"`` of its entry in ``Encounter.choices``."""


TAKEN_BY_DEFAULT = "timeout:"
"""``"by"`` of a choice the sweep took by default, ``"timeout:<seconds>"``
(:func:`decision_sweep`)."""


def _timed_out(kernel: Engine, state: dict, actor: str, choice: str, by: str) -> Event:
    """The event of a decision nobody made within the battle's ``decision_timeout``: the
    default was taken. A player's decision is told to all; the GM's only to the GM (it may
    be an enemy ship's secret, her shot say)."""
    seconds = int(by[len(TAKEN_BY_DEFAULT):])
    decision = next(d for d in kernel.pending(state) if d.actor == actor)
    name = "The GM" if actor == GM else kernel.participants(state).get(actor, actor)
    return Event("decision.timeout",
                 f"{name}: “{decision.prompt}” taken by default after {seconds} s: "
                 f"{decision.option(choice).label}.",
                 {"actor": actor, "kind": decision.kind, "decided_by": "timeout",
                  "after": seconds},
                 visible_to=None if actor.startswith(PC_PREFIX) else frozenset({GM}))


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

    def decide(self, actor: str, choice: str, by: str | None = None) -> list[Event]:
        """:meth:`apply` ``actor``'s decision. One the GM took for a player's character
        (``by`` :data:`DECIDED_BY_GM`, recorded with the choice, so a replay marks it the
        same) is marked: its first event carries ``data["decided_by"] = "gm"``, or, when the
        rules answer it with no event yet (a Discipline card handed out), an event of its
        own says the GM decided."""
        name = self.kernel.participants(self.state).get(actor, actor)
        if by is not None and by.startswith(TAKEN_BY_DEFAULT):
            return [_timed_out(self.kernel, self.state, actor, choice, by),
                    *self.apply(actor, choice)]
        events = self.apply(actor, choice)
        if by != DECIDED_BY_GM:
            return events
        if not events:
            return [Event("decision.by_gm", f"{name} has decided.",
                          {"decided_by": DECIDED_BY_GM, "actor": actor})]
        first = events[0]
        return [dataclasses.replace(first, data={**first.data, "decided_by": DECIDED_BY_GM}),
                *events[1:]]

    def store(self, encounter: Encounter) -> None:
        encounter.state = self.state
        encounter.rng_state = self.rng_state
        encounter.stacked_position = self.position

    def _run(self, step) -> list[Event]:
        """``step(source) -> (state, events)``; a refusal by the rules becomes a
        ``ValidationError`` with their reason, and nothing changes."""
        rest = self.stacked[self.position:]
        try:
            (state, events), seeded, drawn, unfit = stacked_step(
                step, rest, lambda: SeededSource(int(self.seed), state=self.rng_state))
        except IllegalAction as exc:
            raise _refusal(exc) from None
        self.position += drawn
        if unfit is not None:
            self.position = len(self.stacked)
            events = [Event(
                "encounter.stack_set_aside",
                f"The stacked cards no longer fit the battle ({_unfit_words(unfit)}): the "
                f"{len(rest)} left "
                "are set aside and the shuffled decks take over.",
                visible_to=frozenset({GM}),
            ), *events]
        self.state = state
        self.rng_state = seeded.state()
        return events

    def start(self, setup: dict) -> list[Event]:
        return self._run(lambda source: self.kernel.start(setup, source))

    def apply(self, actor: str, choice: str) -> list[Event]:
        return self._run(lambda source: self.kernel.apply(self.state, actor, choice, source))


def _unfit_words(unfit: CardError) -> str:
    """Why a stack stopped fitting, for the GM: the card and whose deck it could not be drawn
    from, by name (the kernel's words name decks by id: ``pc:12``)."""
    if not isinstance(unfit, NotInDeck):
        return str(unfit)
    deck = "the GM's deck" if unfit.deck == GM_DECK else f"the {unfit.deck} deck"
    pk = unfit.deck.removeprefix(PC_PREFIX)
    if unfit.deck.startswith(PC_PREFIX) and pk.isdigit():
        name = Character.objects.filter(pk=int(pk)).values_list("name", flat=True).first()
        deck = f"{name}'s deck" if name else deck
    return f"{unfit.card} was not left in {deck} when the battle drew from it"


def _refusal(exc: IllegalAction) -> ValidationError:
    """The rules' refusal as a ``ValidationError``: per field for a typed decision
    (``rules.engine.FieldErrors``; its whole-input reason under ``NON_FIELD_ERRORS``)."""
    if isinstance(exc, FieldErrors):
        return ValidationError({name or NON_FIELD_ERRORS: reason
                                for name, reason in exc.errors.items()})
    return ValidationError(str(exc))


def _round_of(state: dict) -> int | None:
    value = state.get("round") if isinstance(state, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _records(events: list[Event], *, round_: int | None) -> list[dict]:
    """``events`` as the fields of their log rows (``kind``, ``text``, ``data``, ``gm_data``,
    ``visible_to``, ``round``), as stored and as a replay compares them. ``round_`` is the
    round the step began in; an event whose ``data`` carries an integer ``"round"`` (a new
    round beginning) moves the events from it on to that round."""
    rows = []
    for e in events:
        round_ = _round_of(e.data) if _round_of(e.data) is not None else round_
        rows.append({
            "kind": e.kind,
            "text": e.text,
            "data": e.data,
            "gm_data": e.gm_data,
            "visible_to": None if e.visible_to is None else sorted(e.visible_to),
            "round": round_,
        })
    return rows


def _append_events(encounter: Encounter, events: list[Event], *, round_: int | None
                   ) -> list[EncounterEvent]:
    """Append ``events`` to the log (:func:`_records`)."""
    last = encounter.events.aggregate(last=Max("seq"))["last"] or 0
    return EncounterEvent.objects.bulk_create([
        EncounterEvent(encounter=encounter, seq=last + i, **row)
        for i, row in enumerate(_records(events, round_=round_), start=1)
    ])


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
    stacked_choices=None, ships=(), challenge=None, decision_timeout=None,
) -> Encounter:
    """A new encounter of ``engine`` in ``campaign``, not started yet (GMs only).

    ``setup`` is validated by the engine (``ValidationError`` with its reason);
    ``stacked_cards`` (card texts, a string or a list) are drawn first when the battle
    starts, before the seeded source takes over; ``stacked_choices`` (``[{"kind",
    "choice"}]``) are the decisions planned with them (``Encounter.stacked_choices``).
    ``ships`` are the campaign's ships that fight in it (``ships.models.Ship``);
    ``ValidationError`` if one of them is already in another unfinished battle, or is the
    players' prize (``ships.prizes.prize_refusal``). ``challenge`` (a row or id) is the
    challenge of a mission it is played for (``combat.challenges``; ``ValidationError``
    unless it is still to be played). ``decision_timeout``: seconds after which a pending
    decision takes its default (:func:`decision_sweep`), ``None`` for never. The seed is
    chosen here with ``secrets``. Raises ``Http404`` for a non-member, ``PermissionDenied``
    for a player.
    """
    require_gm(user, campaign)
    if any(ship.campaign_id != campaign.pk for ship in ships):
        raise ValidationError("Every ship of the battle must belong to its campaign.")
    _check_ships_free(ships)
    prizes_refuse(ships)
    challenge = challenges.challenge_for(campaign, challenge)
    kernel = _engine(engine)
    title = (title or "").strip() or kernel.title
    prepare = _PREPARE_SETUP.get(kernel.name)
    if prepare is not None:
        setup = prepare(campaign, setup)
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
        stacked_cards=clean_stacked(stacked_cards),
        stacked_choices=_clean_stacked_choices(stacked_choices),
        challenge=challenge,
        decision_timeout=decision_timeout,
        created_by=user,
    )
    encounter.ships.set(ships)
    log_append(campaign=campaign, kind="battle.created", actor=user,
               text=f"{user} prepared the battle “{encounter.title}”.",
               data={"encounter": encounter.pk}, gm_only=True)
    return encounter


def _opening(encounter: Encounter) -> Event:
    """The first event of every encounter: its seed's hash is published."""
    noun = encounter_noun(encounter)
    return Event(
        "encounter.start",
        f"The {noun} begins. The hash of its seed is {encounter.seed_hash}; the seed is "
        f"revealed when the {noun} ends.",
        data={"seed_hash": encounter.seed_hash, "engine": encounter.engine},
    )


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
    prizes_refuse(ships)
    kernel = _engine(encounter.engine)
    table = _Table.of(encounter, kernel)
    events = table.start(encounter.setup)
    for ship in ships:  # the enemy is no secret once she is in sight
        ship_reveal(ship=ship, actor=user)
    begun = _ON_BEGIN.get(encounter.engine)
    if begun is not None:
        begun(encounter=encounter, user=user)
    table.store(encounter)
    encounter.status = Encounter.Status.ACTIVE
    encounter.started_at = timezone.now()
    encounter.version += 1
    _append_events(encounter, [_opening(encounter), *events], round_=None)
    _finish_if_over(encounter, kernel, user)
    encounter.save()
    return encounter


@transaction.atomic
def encounter_cancel(*, encounter: Encounter, user, expected_version) -> Encounter:
    """Call off a battle being prepared or running (GMs only): its status becomes cancelled,
    nothing is written back to the ships, which are free for another battle, and the
    campaign log says so. Its open job ends ``cancelled`` here, in the same transaction:
    a worker playing it stops at its next chunk (the cancel waits at most one chunk for the
    row lock), one that has not begun never will. ``ValidationError`` if it has already
    ended; :class:`campaigns.services.StaleVersion` if ``expected_version`` is old (a
    running job does not move the version: see ``Encounter``)."""
    encounter = _locked(encounter)
    require_gm(user, encounter.campaign)
    check_version(encounter, expected_version)
    noun = encounter_noun(encounter)
    if encounter.status not in Encounter.UNFINISHED:
        raise ValidationError(f"Only a {noun} being prepared or in progress can be cancelled.")
    was_running = encounter.status == Encounter.Status.ACTIVE
    encounter_call_off(encounter)
    encounter.jobs.filter(status__in=Job.OPEN).update(
        status=Job.Status.CANCELLED, finished_at=timezone.now(), lease_owner="",
        lease_until=None,
    )
    encounter.save()
    log_append(campaign=encounter.campaign, kind=f"{noun}.cancelled", actor=user,
               text=f"{user} cancelled the {noun} “{encounter.title}”; nothing was written "
                    "back.",
               data={"encounter": encounter.pk}, gm_only=not was_running)
    return encounter


def _cancelling(encounter: Encounter) -> Event:
    """The last event of an encounter called off after it began: the seed is revealed, so
    that the draws made until then can be checked (:func:`encounter_replay`)."""
    noun = encounter_noun(encounter)
    return Event(
        "encounter.cancelled",
        f"The GM called the {noun} off: it ends here and nothing of it is written back. The "
        f"seed is revealed: {encounter.seed}.",
        data={"seed": encounter.seed, "seed_hash": encounter.seed_hash},
    )


def encounter_call_off(encounter: Encounter) -> None:
    """Set a locked, unfinished ``encounter`` cancelled in memory (the caller saves it and
    logs why): its version moves on and, if it had begun, its last event reveals the seed
    (:func:`_cancelling`). Nothing is written back to the campaign."""
    if encounter.status == Encounter.Status.ACTIVE:
        _append_events(encounter, round_=_round_of(encounter.state),
                       events=[_cancelling(encounter)])
    encounter.status = Encounter.Status.CANCELLED
    encounter.version += 1


def _apply(encounter: Encounter, table: _Table, actor: str, kind: str, choice: str,
           by: str | None = None) -> None:
    """Apply one decision to a locked encounter in memory and append its events; ``by`` is
    :data:`DECIDED_BY_GM` when the GM decided for a player's character."""
    round_ = _round_of(encounter.state)
    events = [*_follow_stacked_choices(encounter, kind, choice),
              *table.decide(actor, choice, by)]
    table.store(encounter)
    step = {"actor": actor, "kind": kind, "choice": choice}
    encounter.choices = [*encounter.choices, {**step, "by": by} if by else step]
    _append_events(encounter, events, round_=round_)


def _ending(encounter: Encounter, outcome, last_text: str | None) -> Event:
    """The last event of a finished encounter: the outcome (unless the engine's last event,
    ``last_text``, said it already) and the seed revealed."""
    said = (f"The {encounter_noun(encounter)} is over." if last_text == outcome.summary
            else outcome.summary)
    return Event(
        "encounter.end",
        f"{said} The seed is revealed: {encounter.seed}.",
        data={"seed": encounter.seed, "seed_hash": encounter.seed_hash,
              "winner": outcome.winner, "result": outcome.result,
              "stacked_cards": encounter.stacked_cards},
    )


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
    _append_events(encounter, round_=_round_of(encounter.state),
                   events=[_ending(encounter, outcome, last_text)])
    recorder = _AFTER_BATTLE.get(encounter.engine)
    written = recorder(encounter, kernel, outcome, user) if recorder is not None else None
    challenges.record(encounter, outcome, user)
    data = {"encounter": encounter.pk, "winner": outcome.winner, "result": outcome.result}
    data.update((written or {}).get("data", {}))
    summary = (written or {}).get("summary") or outcome.summary
    log_append(campaign=encounter.campaign, kind=f"{noun}.finished", actor=user,
               text=f"The {noun} “{encounter.title}” is over: {summary}", data=data)
    return True


def _may_act_for(user, encounter: Encounter, actor: str) -> bool:
    participants = participant_ids_for(user, encounter)
    return GM in participants or actor in participants


def _check_seen(encounter: Encounter, actor: str, kind: str, seen) -> None:
    """:func:`campaigns.services.check_version` for a decision, except that a form from an
    older version is taken when the decision it answers has been pending unchanged since
    that version or before: another participant's decision, made at the same moment (the
    other side's written orders), came in first, and changed nothing the form showed.
    Raises ``StaleVersion`` otherwise, ``ValidationError`` if ``seen`` is missing."""
    try:
        seen_int = int(seen)
    except (TypeError, ValueError):
        seen_int = None
    if seen_int is not None and encounter.asked_since(actor, kind) <= seen_int < \
            encounter.version:
        return
    check_version(encounter, seen)


def _moved_on(encounter: Encounter, kernel: Engine, before, taken: Decision) -> None:
    """Bump the version of ``encounter``, which one decision, ``taken``, has just moved on
    from the state where ``before`` (its :meth:`Engine.pending`) were pending, and record
    since when each decision pending now has been pending unchanged
    (``Encounter.pending_since``): a decision that was pending before, equal in every
    option, keeps its version (:meth:`Encounter.asked_since`); any other is new with this
    version, and so is ``taken`` when it is asked again, however like the last it looks
    (next turn's orders for a ship that held): a form for it from before is the one just
    taken, sent again."""
    was = {Encounter.pending_key(d.actor, d.kind): (d, encounter.asked_since(d.actor, d.kind))
           for d in before if d is not taken}
    encounter.version += 1
    since = {}
    for decision in kernel.pending(encounter.state):
        key = Encounter.pending_key(decision.actor, decision.kind)
        prior, asked = was.get(key, (None, encounter.version))
        since[key] = asked if prior == decision else encounter.version
    encounter.pending_since = {"version": encounter.version, "since": since}


@transaction.atomic
def encounter_act(
    *, encounter: Encounter, user, actor: str, decision_kind: str, choice: str,
    expected_version,
) -> list[EncounterEvent]:
    """Make ``actor``'s pending decision ``decision_kind`` with ``choice`` (an option key).

    The GM may act for any participant, a player only for his own PCs
    (``PermissionDenied``). Refused with nothing changed: a stale ``expected_version``
    (:class:`campaigns.services.StaleVersion`; one older than the decision's last change is
    taken, :func:`_check_seen`), a battle that is not running or that a job
    is resolving, a decision that is not pending, an illegal choice (``ValidationError``
    with the rules' reason). Returns the new events.
    """
    encounter = _locked(encounter)
    if not _may_act_for(user, encounter, actor):
        raise PermissionDenied("You may only make decisions for your own character.")
    noun = encounter_noun(encounter)
    if encounter.status in (Encounter.Status.FINISHED, Encounter.Status.CANCELLED):
        raise ValidationError(f"This {noun} is over: no more decisions can be made.")
    if encounter.status != Encounter.Status.ACTIVE:
        raise ValidationError(f"This {noun} has not begun yet.")
    if encounter.jobs.filter(status__in=Job.OPEN).exists():
        # past tense: the refusal is often read once the job has ended (the page it
        # redirects to is the next one); what may be done now is the page's to say
        raise ValidationError(f"Your decision was not taken: the computer took over the rest "
                              f"of this {noun}.")
    _check_seen(encounter, actor, decision_kind, expected_version)
    kernel = _engine(encounter.engine)
    before = kernel.pending(encounter.state)
    pending = [d for d in before if d.actor == actor and d.kind == decision_kind]
    if not pending:
        raise ValidationError(f"That decision is not awaited now: reload the {noun}.")
    choice = str(choice or "").strip()
    if not choice:
        raise ValidationError({"choice": "Choose one of the options."})
    try:
        pending[0].check(choice)
    except FieldErrors as exc:
        raise _refusal(exc) from None
    except IllegalAction:  # (the kernel's words quote the key, which nobody reads)
        raise ValidationError({"choice": f"That is not one of the choices for “"
                                         f"{pending[0].prompt}”: choose one of those "
                                         "shown."}) from None
    first = encounter.events.aggregate(last=Max("seq"))["last"] or 0
    for_player = actor.startswith((PC_PREFIX, USER_PREFIX)) and actor not in \
        participant_ids_for(user, encounter)
    _apply(encounter, _Table.of(encounter, kernel), actor, decision_kind, choice,
           by=DECIDED_BY_GM if for_player else None)
    _moved_on(encounter, kernel, before, pending[0])
    _finish_if_over(encounter, kernel, user)
    encounter.save()
    return list(encounter.events.filter(seq__gt=first))


@transaction.atomic
def encounter_resolve_rest(*, encounter: Encounter, user) -> Job:
    """Queue a job that plays the battle to its end with the default choices (GMs only).
    The Celery task is sent when the transaction commits; until the job ends, nobody else
    decides in the battle. ``ValidationError`` if the battle is not running or a
    resolution is already queued or running."""
    encounter = _locked(encounter)
    require_gm(user, encounter.campaign)
    if encounter.status != Encounter.Status.ACTIVE:
        raise ValidationError("Only a battle in progress can be resolved.")
    if encounter.jobs.filter(status__in=Job.OPEN).exists():
        raise ValidationError("The rest of this battle is already being resolved.")
    # No owner: any worker may claim it. If none has by the lease's end (the message was
    # lost), the sweep sends it again.
    job = Job.objects.create(encounter=encounter, kind=Job.Kind.RESOLVE_REST, created_by=user,
                             lease_until=timezone.now() + _lease())
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


def _lease() -> timedelta:
    return timedelta(seconds=settings.JOB_LEASE_SECONDS)


_TAKEOVER = Case(When(lease_owner="", then=F("takeovers")), default=F("takeovers") + 1)
"""``takeovers`` after an update that takes or revokes a lease: one more if someone held it."""


def _claim(job_id: int, owner: str) -> bool:
    """Take the lease of open job ``job_id`` for ``owner`` if nobody holds it or its holder
    let it run out (a conditional update: of two workers, one wins). Taking a lease that ran
    out counts as a takeover."""
    now = timezone.now()
    return bool(
        Job.objects.filter(pk=job_id, status__in=Job.OPEN)
        .filter(Q(lease_owner="") | Q(lease_until__lt=now))
        .update(
            status=Job.Status.RUNNING, lease_owner=owner, lease_until=now + _lease(),
            claimed_at=Coalesce("claimed_at", Value(now, output_field=DateTimeField())),
            takeovers=_TAKEOVER,
        )
    )


class _Stop(Exception):
    """The worker no longer holds the job's lease (it was cancelled, or taken over after
    this worker stalled): it stops without writing anything."""


def _resolve_chunk(job: Job, owner: str) -> bool:
    """Play one chunk of ``job`` under the battle's row lock and the job's lease: default
    decisions until :data:`RESOLVE_CHUNK` of them, ``settings.JOB_CHUNK_SECONDS``, one
    decision if ``settings.JOB_PACE_SECONDS`` is set, or the end of the battle. The
    decisions, their events, the job's ``steps``, the renewed lease and, at the end, the
    write-back to the ships and the job ``done`` commit together. Returns whether the job
    has ended; raises :class:`_Stop` if the lease is no longer ``owner``'s."""
    with transaction.atomic():
        encounter = Encounter.objects.select_for_update().get(pk=job.encounter_id)
        held = Job.objects.select_for_update().filter(
            pk=job.pk, status=Job.Status.RUNNING, lease_owner=owner).first()
        if held is None:
            raise _Stop
        if encounter.status != Encounter.Status.ACTIVE:  # ended by other means than ours
            _job_end(held, Job.Status.CANCELLED if encounter.status == Encounter.Status.CANCELLED
                     else Job.Status.FAILED, error=f"The battle is {encounter.status}.")
            return True
        kernel = _engine(encounter.engine)
        table = _Table.of(encounter, kernel)
        most = 1 if settings.JOB_PACE_SECONDS else RESOLVE_CHUNK
        until = time.monotonic() + settings.JOB_CHUNK_SECONDS
        played = 0
        while played < most and (played == 0 or time.monotonic() < until):
            pending = kernel.pending(encounter.state)
            if not pending:
                break
            decision = pending[0]
            _apply(encounter, table, decision.actor, decision.kind,
                   _default_choice(encounter, kernel, decision))
            played += 1
        over = _finish_if_over(encounter, kernel, job.created_by)
        encounter.save()
        if not over and not kernel.pending(encounter.state):
            raise RuntimeError(f"{encounter.engine}: no decision pending and no outcome")
        held.steps += played
        held.lease_until = timezone.now() + _lease()
        if over:
            _job_end(held, Job.Status.DONE)
        else:
            held.save(update_fields=["steps", "lease_until"])
        return over


def _job_end(job: Job, status: str, *, error: str = "") -> None:
    """Close ``job`` (a locked row) with ``status``, releasing its lease."""
    job.status = status
    job.finished_at = timezone.now()
    job.lease_owner = ""
    job.lease_until = None
    job.error = error[:2000]
    job.save()


def _hand_off(job: Job, owner: str) -> None:
    """End this worker's slice of ``job``: release the lease (any worker may claim it; if
    none has by the lease's end, the sweep sends it again) and send its next message when
    that commits."""
    with transaction.atomic():
        if Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING, lease_owner=owner).update(
                lease_owner="", lease_until=timezone.now() + _lease()):
            transaction.on_commit(lambda: _send(job.pk))


def _job_failed(job: Job, owner: str, exc: Exception) -> None:
    """Fail ``job`` with the reason if this worker still holds it. The battle stays where the
    last committed chunk left it; its version is bumped, since the job's steps moved it under
    the pages that show it."""
    reason = "; ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
    with transaction.atomic():
        encounter = Encounter.objects.select_for_update().get(pk=job.encounter_id)
        held = Job.objects.select_for_update().filter(
            pk=job.pk, status=Job.Status.RUNNING, lease_owner=owner).first()
        if held is None:
            return
        _job_end(held, Job.Status.FAILED, error=f"{type(exc).__name__}: {reason}")
        if encounter.status == Encounter.Status.ACTIVE:
            encounter.version += 1
            encounter.save(update_fields=["version", "updated_at"])


def job_run(*, job_id: int) -> Job | None:
    """Run a slice of job ``job_id``; the worker calls it for each message. Returns ``None``
    if the job could not be claimed: it is not open (done, failed, cancelled, unknown) or
    another worker holds a live lease, so a message delivered twice runs once.

    A ``resolve_rest`` job plays the battle with the default choices in chunks
    (:func:`_resolve_chunk`), each committed with the renewed lease, pausing
    ``settings.JOB_PACE_SECONDS`` after each. After ``settings.JOB_SLICE_SECONDS`` it hands
    the job on (:func:`_hand_off`): one task never runs long, however long the battle. A
    worker that finds its lease gone (the battle was cancelled, or another worker took the
    job over) stops at once and writes nothing. The job ends ``done`` in the transaction
    that finishes the battle and writes it back to the ships (once: only the lease's holder
    can commit it, and only while the battle is running), ``cancelled`` with its battle, or
    ``failed`` with the reason (an engine that refuses, a soft time limit, a job taken over
    more than :data:`MAX_TAKEOVERS` times)."""
    owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
    if not _claim(job_id, owner):
        return None
    job = Job.objects.select_related("created_by").get(pk=job_id)
    slice_end = time.monotonic() + settings.JOB_SLICE_SECONDS
    try:
        if job.takeovers > MAX_TAKEOVERS:
            raise RuntimeError(f"its workers died {job.takeovers} times while running it")
        while not _resolve_chunk(job, owner):
            if time.monotonic() >= slice_end:
                _hand_off(job, owner)
                break
            time.sleep(settings.JOB_PACE_SECONDS)
    except _Stop:
        logger.info("job %s stopped at its next step: its lease is gone (cancelled or taken "
                    "over)", job_id)
    except Exception as exc:  # the job must end failed, whatever went wrong
        logger.exception("job %s failed", job_id)
        _job_failed(job, owner, exc)
    job.refresh_from_db()
    return job


def job_sweep() -> list[int]:
    """Hand every open job whose lease ran out back to the workers: its worker died (or its
    message was lost). The lease is revoked (counted as a takeover if a worker held it) and
    given a new deadline, so the next sweep does not send it again while its message waits,
    and the job is sent when that commits. Celery beat runs this every
    ``settings.JOB_SWEEP_SECONDS``. Returns the ids of the jobs sent."""
    now = timezone.now()
    sent = []
    expired = Job.objects.filter(status__in=Job.OPEN, lease_until__lt=now)
    for job_id in expired.values_list("pk", flat=True):
        with transaction.atomic():
            if expired.filter(pk=job_id).update(lease_owner="", lease_until=now + _lease(),
                                                takeovers=_TAKEOVER):
                logger.info("job %s: its lease ran out; sent to the workers again", job_id)
                transaction.on_commit(lambda job_id=job_id: _send(job_id))
                sent.append(job_id)
    return sent


def decision_sweep(*, now=None) -> list[int]:
    """Take the default of every pending decision that has waited longer than its battle's
    ``decision_timeout`` (counted from the battle's last change), one decision a battle a
    sweep: the next one has its own time. Each is a step of its own, locked and taken as
    ``encounter_act`` takes one, recorded with ``"by": "timeout:<seconds>"`` so that a
    replay takes it the same, and logged "taken by default after N s". Battles a job is
    resolving are left to it. Celery beat runs this every
    ``settings.DECISION_SWEEP_SECONDS``. Returns the ids of the battles that moved on."""
    now = now or timezone.now()
    moved = []
    waiting = Encounter.objects.filter(status=Encounter.Status.ACTIVE,
                                       decision_timeout__isnull=False)
    for pk, timeout, changed in waiting.values_list("pk", "decision_timeout", "updated_at"):
        if changed + timedelta(seconds=timeout) > now:
            continue
        with transaction.atomic():
            encounter = waiting.select_for_update().filter(pk=pk).first()
            if (encounter is None or encounter.jobs.filter(status__in=Job.OPEN).exists()
                    or encounter.updated_at + timedelta(seconds=timeout) > now):
                continue
            kernel = _engine(encounter.engine)
            pending = kernel.pending(encounter.state)
            if not pending:
                continue
            decision = pending[0]
            _apply(encounter, _Table.of(encounter, kernel), decision.actor, decision.kind,
                   _default_choice(encounter, kernel, decision),
                   by=f"{TAKEN_BY_DEFAULT}{encounter.decision_timeout}")
            _moved_on(encounter, kernel, pending, decision)
            _finish_if_over(encounter, kernel, None)
            encounter.save()
            moved.append(pk)
    return moved


def _normal(value):
    """``value`` as it reads back from a JSON field (tuples become lists, keys text)."""
    return json.loads(json.dumps(value))


def _first_difference(recorded, replayed, path: str):
    """The first place where two JSON values differ, as ``(path, recorded, replayed)``, or
    ``None`` if they are equal."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in [*recorded, *(k for k in replayed if k not in recorded)]:
            if key not in recorded or key not in replayed:
                return f"{path}.{key}", recorded.get(key), replayed.get(key)
            found = _first_difference(recorded[key], replayed[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(recorded, list) and isinstance(replayed, list) and \
            len(recorded) == len(replayed):
        for i, (a, b) in enumerate(zip(recorded, replayed)):
            found = _first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if recorded == replayed else (path, recorded, replayed)


_COMPARED = ("kind", "text", "data", "gm_data", "visible_to", "round")
"""The fields of each recorded event a replay compares (the cards are in ``data``)."""


def _replay_steps(encounter: Encounter, kernel: Engine):
    """Yield ``(rows, state)`` for each step of the encounter replayed from its setup, seed,
    stacked cards and recorded choices, made by the same steps as the live battle: the start
    and then each recorded choice (the log rows it produced and the state after it), and
    last the ending (or cancelling) event with the final state. Stops at a recorded choice
    the rules refuse, as a row ``{"kind": "refused", "text": reason}``."""
    table = _Table(kernel, state=None, seed=encounter.seed, rng_state=None,
                   stacked=list(encounter.stacked_cards), position=0)
    plan = copy.copy(encounter)  # its stacked decisions move, not the encounter's
    plan.stacked_choices_position = 0
    rows = _records([_opening(encounter), *table.start(encounter.setup)], round_=None)
    last = rows[-1]["text"]
    yield rows, table.state
    for step in encounter.choices:
        round_ = _round_of(table.state)
        try:
            events = [*_follow_stacked_choices(plan, step["kind"], step["choice"]),
                      *table.decide(step["actor"], step["choice"], step.get("by"))]
        except ValidationError as exc:
            yield [{"kind": "refused", "text": f"The rules refuse the recorded choice "
                    f"{step}: {' '.join(exc.messages)}"}], table.state
            return
        rows = _records(events, round_=round_)
        last = rows[-1]["text"] if rows else last
        yield rows, table.state
    outcome = kernel.outcome(table.state)
    if outcome is not None:
        yield _records([_ending(encounter, outcome, last)],
                       round_=_round_of(table.state)), table.state
    elif encounter.status == Encounter.Status.CANCELLED:
        yield _records([_cancelling(encounter)], round_=_round_of(table.state)), table.state


def _replayed_events(encounter: Encounter, kernel: Engine) -> tuple[list[dict], dict | None]:
    """Every log row :func:`_replay_steps` produces, and the final state."""
    rows, state = [], None
    for step in _replay_steps(encounter, kernel):
        rows += step[0]
        state = step[1]
    return rows, state


def encounter_replay_steps(*, encounter: Encounter) -> list[tuple[list[dict], dict]]:
    """The encounter replayed step by step through the kernel, for the step-through replay
    page: ``[(rows, state)]``, the start, each recorded choice and the ending, each with the
    log rows it produced (fields as :func:`encounter_replay` compares them) and the engine's
    state after it. ``ValidationError`` while the seed is secret or for an encounter that
    cannot be replayed, as :func:`encounter_replay`."""
    _check_replayable(encounter)
    return [(rows, state) for rows, state in _replay_steps(encounter, _engine(encounter.engine))]


def _check_replayable(encounter: Encounter) -> None:
    noun = encounter_noun(encounter)
    if not encounter.seed_revealed:
        raise ValidationError(f"A {noun} can be replayed once it has ended (or was called off "
                              "after it began) and its seed is known.")
    if not encounter.seed or encounter.terms.get("migrated"):
        raise ValidationError(f"This {noun} was recorded before each {noun} had a seed of its "
                              "own (its cards came from the campaign's shared source): it "
                              "cannot be replayed.")


def encounter_replay(*, encounter: Encounter) -> dict:
    """Replay a finished encounter from its setup, revealed seed, stacked cards and recorded
    choices, and compare every recorded event (its kind, text, ``data`` with the cards,
    ``gm_data``, ``visible_to`` and round) and then the final state and outcome with what
    the replay produces.

    Returns ``{"matches": bool, "events": events compared, "state": the replayed final
    state, "outcome": its outcome dict or None, "mismatch": None or the first difference
    as {"seq": the event's number (None for the state or outcome), "kind": the recorded
    event's kind, "field": e.g. "data.card_of_fate", "recorded": value, "replayed":
    value}}``. A battle called off after it began replays to the point where it was
    cancelled. ``ValidationError`` while the seed is secret (``Encounter.seed_revealed``)."""
    _check_replayable(encounter)
    kernel = _engine(encounter.engine)
    replayed, state = _replayed_events(encounter, kernel)
    recorded = list(encounter.events.order_by("seq").values("seq", *_COMPARED))
    outcome = kernel.outcome(state) if state is not None else None
    outcome_dict = outcome.as_dict() if outcome else None
    mismatch = None
    for i in range(max(len(recorded), len(replayed))):
        mine = recorded[i] if i < len(recorded) else None
        theirs = _normal(replayed[i]) if i < len(replayed) else None
        if mine is None or theirs is None:
            mismatch = {"seq": mine["seq"] if mine else i + 1,
                        "kind": mine["kind"] if mine else None, "field": "event",
                        "recorded": mine and mine["text"], "replayed": theirs and theirs["text"]}
            break
        found = next(filter(None, (_first_difference(mine[f], theirs.get(f), f)
                                   for f in _COMPARED)), None)
        if found:
            field, was, now = found
            mismatch = {"seq": mine["seq"], "kind": mine["kind"], "field": field,
                        "recorded": was, "replayed": now}
            break
    if mismatch is None:
        for name, was, now in (("state", encounter.state, state),
                               ("outcome", encounter.outcome, outcome_dict)):
            found = _first_difference(was, _normal(now), name)
            if found:
                mismatch = {"seq": None, "kind": None, "field": found[0],
                            "recorded": found[1], "replayed": found[2]}
                break
    return {"matches": mismatch is None, "events": len(recorded), "state": state,
            "outcome": outcome_dict, "mismatch": mismatch}


def _record_btq_naval(encounter: Encounter, kernel: Engine, outcome, user) -> dict | None:
    """Write a Beat to Quarters ship battle's end back to the campaign's ships: each ship's
    damage tracks and Ship Morale after the battle (BtQ L2602-2603; the engine's outcome
    ``data["ships"]``, ship id -> ``{"tracks", "morale"}``); a ship reputation used and
    lost is damaged, and a prize taken is held until she reaches port
    (``combat.shipboard.services.battle_ended``); the wounds of a boarding's duels go onto
    the sheets (``combat.fights.services.boarding_health_write_back``), and the log's entry
    says so."""
    from ships.services import ship_record_battle

    ships = {str(ship.pk): ship for ship in encounter.ships.all()}
    for ship_id, final in outcome.data.get("ships", {}).items():
        ship = ships.get(str(ship_id))
        if ship is None:
            continue
        ship_record_battle(ship=ship, tracks=final["tracks"], morale=final["morale"],
                           note=f"{ship}, after “{encounter.title}”: {outcome.summary}")
    from combat.shipboard.services import battle_ended

    battle_ended(encounter=encounter, outcome=outcome, user=user)
    from combat.fights.services import boarding_health_write_back, changes_logged

    changes = boarding_health_write_back(encounter=encounter, outcome=outcome)
    return changes_logged(outcome, changes) if changes else None


def _record_btq_test(encounter: Encounter, kernel: Engine, outcome, user) -> dict:
    """Write a card test's damage back onto the sheets and ships
    (``combat.card_tests.services.card_test_write_back``), and what a shipboard test means
    (a purchase, grog, the examination: ``combat.shipboard.services``)."""
    from combat.card_tests.services import card_test_write_back
    from combat.shipboard.services import shipboard_finished, shipboard_outcome

    outcome = shipboard_outcome(encounter=encounter, outcome=outcome)
    written = card_test_write_back(encounter=encounter, outcome=outcome, user=user)
    return shipboard_finished(encounter=encounter, outcome=outcome, user=user, written=written)


def _record_fight(encounter: Encounter, kernel: Engine, outcome, user) -> dict:
    """Write a skirmish's, a duel's or a boarding's end back onto the sheets and ships
    (``combat.fights.services.fight_write_back``)."""
    from combat.fights.services import fight_write_back

    return fight_write_back(encounter=encounter, outcome=outcome, user=user)


def _fight_begun(*, encounter: Encounter, user) -> None:
    from combat.fights.services import fight_begun

    fight_begun(encounter=encounter, user=user)


_PREPARE_SETUP = {"bvp": bvp_cards.setup_with_card_set}
"""What an engine's setup takes from its campaign when an encounter is created: a British vs
Pirates game, the campaign's card data in use (``combat.bvp_cards``)."""

_ON_BEGIN = {name: _fight_begun for name in ("btq_skirmish", "btq_personal_combat",
                                             "btq_boarding")}
"""Engine name -> what the beginning of its encounter changes in the campaign (the NPCs of
a fight are revealed): ``hook(encounter=, user=)``, in :func:`encounter_begin`'s
transaction."""


def _record_creation(encounter: Encounter, kernel: Engine, outcome, user) -> dict:
    """An approved character or ship into the campaign
    (``combat.creation.services.creation_write_back``)."""
    from combat.creation.services import creation_write_back

    return creation_write_back(encounter=encounter, outcome=outcome, user=user)


def _record_scar(encounter: Encounter, kernel: Engine, outcome, user) -> dict:
    """The Scar card's end onto the sheet (``combat.healing.scar_write_back``)."""
    from combat.healing import scar_write_back

    return scar_write_back(encounter=encounter, outcome=outcome, user=user)


def _record_scene(encounter: Encounter, kernel: Engine, outcome, user) -> dict:
    """The token of the Captain's table or the gun deck, and the reputations it damaged
    (``combat.shipboard.services.scene_recorded``)."""
    from combat.shipboard.services import scene_recorded

    return scene_recorded(encounter=encounter, outcome=outcome, user=user)


_AFTER_BATTLE = {"btq_naval": _record_btq_naval, "btq_test": _record_btq_test,
                 "btq_creation": _record_creation, "btq_ship_creation": _record_creation,
                 "btq_scar": _record_scar, "btq_scene": _record_scene,
                 **{name: _record_fight for name in _ON_BEGIN}}
"""Engine name -> what the end of its encounter changes in the campaign, beyond the log:
``recorder(encounter, kernel, outcome, user)``, which may return ``{"summary", "data"}`` for
the log entry of the end: what was written back, in words (instead of the outcome's
summary) and as JSON details added to its data."""

