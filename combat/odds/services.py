"""Use cases of the odds: ask for a simulation, play its chunks on the workers, cancel it.

A :class:`combat.models.Simulation` is cut into :class:`combat.models.SimulationChunk` rows
when it is asked for. Each Celery message (``combat.tasks.run_simulation``) claims open
chunks one after another with the jobs' lease (a conditional update: of two workers, one
wins), plays each with ``rules.montecarlo.run`` outside any transaction, renewing the lease
while it plays, and commits the chunk's summary under the simulation's row lock only while
it still holds the lease: a chunk whose worker died is claimed again once its lease runs out
and counted once. A chunk that outlasts its worker's slice is cut where the slice ended:
the games played are committed as the chunk, the rest is a new chunk for the next message,
so that no task outruns the time limits, however slow the engine's games. The transaction
that commits the last chunk merges the chunks' summaries, once (or, for "until precise",
adds the next batch). :func:`simulation_sweep` hands stalled simulations back to the
workers, as ``combat.services.job_sweep`` does for jobs; the timings are the jobs'
(``config/settings.py``).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from campaigns.selectors import membership_role, require_gm
from campaigns.services import log_append
from combat import push
from combat.models import Encounter, Simulation, SimulationChunk
from combat.odds.selectors import odds_for_players, simulation_channel
from combat.selectors import participant_ids_for, seated
from combat.services import (
    _TAKEOVER,
    MAX_TAKEOVERS,
    _lease,
    clean_stacked,
    new_seed,
    seed_hash,
)
from rules.engine import GM, Engine, get_engine
from rules.montecarlo import Summary, job_seeds, merge_all, precise_enough, run
from rules.random import SeededSource
from ships.prizes import prizes_refuse

logger = logging.getLogger(__name__)

DEFAULT_GAMES = 10_000
"""The games of a simulation unless asked otherwise (issue 11)."""
WHAT_IF_GAMES = 2_000
"""The games of each option of a "what if"."""
MAX_GAMES = 100_000
"""The most games one simulation may ask for: per option, and in all."""
PRECISE_BATCH = 2_000
"""The games added per batch to a simulation played until precise: 10,000 games always
suffice (the widest 95 % interval, at 50 %, is then under one point), fewer for odds far
from even."""
CHUNK_GAMES = 500
"""The games of one chunk: a fraction of a second of one core for a battle, so that the
chunks spread over the workers and a dead worker's chunk is little to play again."""
PIECE_GAMES = 100
"""A worker renews its chunk's lease (and learns of a cancel) between pieces this size at
most."""
PIECE_SECONDS = 0.5
"""A piece is sized to play in about this long, from the pace of the chunk's games so far
(its first piece is one game): a slow engine's chunk (an HFG battle plays for most of a
second) renews its lease and may end its slice between single games."""
MESSAGES = 4
"""The messages sent when a simulation is asked for: each keeps a worker process playing
chunks, so as many worker processes as this share one simulation."""


def _engine(name: str) -> Engine:
    try:
        return get_engine(name)
    except KeyError as exc:
        raise ValidationError({"engine": str(exc.args[0])}) from None


def what_if_fits(decision: dict, games: int = WHAT_IF_GAMES) -> bool:
    """Whether a "what if" of ``decision`` (``Decision.as_dict()``), ``games`` for each of its
    options, keeps within :data:`MAX_GAMES` in all: a ship's hundred Brethren orders do not."""
    return games * len(decision["options"]) <= MAX_GAMES


def _games(value, what_if: bool) -> int:
    if value is None:
        return WHAT_IF_GAMES if what_if else DEFAULT_GAMES
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_GAMES:
        raise ValidationError({"games": f"The number of games is a whole number from 1 to "
                                        f"{MAX_GAMES:,}."})
    return value


def _labels(kernel: Engine, state: dict) -> dict:
    """The names people read for a game's winners and ships, from a state of it: the
    engine's participants, and (where the state has them, as a Beat to Quarters battle's
    does) its sides' and ships' names."""
    winners = dict(kernel.participants(state))
    ships = {}
    if isinstance(state.get("ships"), dict):
        ships = {str(sid): str(ship.get("name", sid)) for sid, ship in state["ships"].items()
                 if isinstance(ship, dict)}
    if isinstance(state.get("sides"), dict):  # side -> its ship's id, or a list of them
        for side, ids in state["sides"].items():
            names = [ships.get(str(sid), str(sid))
                     for sid in (ids if isinstance(ids, list) else [ids])]
            if names:
                winners[side] = names[0] if len(names) == 1 else (
                    ", ".join(names[:-1]) + " and " + names[-1])
    return {"winners": winners, "ships": ships}


def _plan(simulation: Simulation, start: int, stop: int) -> None:
    """Chunks of games ``start`` to ``stop - 1`` for every option of ``simulation``."""
    SimulationChunk.objects.bulk_create([
        SimulationChunk(simulation=simulation, option=option, start=a,
                        stop=min(a + simulation.chunk_games, stop))
        for a in range(start, stop, simulation.chunk_games) for option in simulation.options
    ])


def _send(simulation_id: int, count: int = 1) -> None:
    """Send ``count`` messages to the workers for ``simulation_id``; if the broker cannot
    be reached the simulation is failed with the reason, not left queued forever."""
    from combat.tasks import run_simulation  # the task module imports this one

    try:
        for _ in range(count):
            run_simulation.delay(simulation_id)
    except Exception as exc:  # any broker or transport error: the message was not sent
        logger.exception("could not send simulation %s to the workers", simulation_id)
        Simulation.objects.filter(pk=simulation_id, status__in=Simulation.OPEN).update(
            status=Simulation.Status.FAILED, finished_at=timezone.now(),
            error=f"The simulation could not be handed to the workers: {exc}"[:2000])
        _announce(simulation_id)


def _announce(simulation_id: int) -> None:
    push.announce([simulation_channel(simulation_id)])


def _create(*, campaign, user, kernel: Engine, title: str, setup=None, stacked_cards=(),
            state=None, encounter=None, decision=None, games: int, until_precise: bool,
            players_see: bool, labels: dict) -> Simulation:
    seed = new_seed()
    simulation = Simulation.objects.create(
        campaign=campaign, encounter=encounter, engine=kernel.name, title=title[:200],
        setup=setup, stacked_cards=list(stacked_cards), state=state, decision=decision,
        games=games,
        until_precise=until_precise, chunk_games=CHUNK_GAMES, seed=seed,
        seed_hash=seed_hash(seed), players_see=players_see, labels=labels,
        step=len(encounter.choices) if encounter is not None else None,
        heartbeat=timezone.now(), created_by=user,
    )
    _plan(simulation, 0, min(games, PRECISE_BATCH) if until_precise else games)
    chunks = simulation.chunks.count()
    transaction.on_commit(lambda: _send(simulation.pk, min(MESSAGES, chunks)))
    log_append(campaign=campaign, kind="odds.asked", actor=user,
               text=f"{user} asked for the odds: {simulation.title}.",
               data={"simulation": simulation.pk, "seed_hash": simulation.seed_hash},
               gm_only=not players_see)
    return simulation


@transaction.atomic
def simulation_create_from_setup(*, campaign, user, engine: str, setup: dict, title: str,
                                 games: int | None = None, until_precise: bool = False,
                                 ships=(), stacked_cards=None) -> Simulation:
    """The odds of a battle not fought yet (GMs only): ``games`` games (default
    :data:`DEFAULT_GAMES`, at most :data:`MAX_GAMES`) of ``engine`` from ``setup``, or, with
    ``until_precise``, batches of :data:`PRECISE_BATCH` until every outcome's 95 % interval
    is within one point (``games`` at most); ``ships`` are the campaign's ships it is played
    with; ``stacked_cards`` (card texts, a string or a list, as a battle takes them) the
    GM's stacked cards, which every game draws first, as the battle would
    (``rules.montecarlo.run``). ``ValidationError`` for a ship that may not fight, the
    players' prize (``ships.prizes.prize_refusal``, as a battle refuses her), a bad stacked
    card (on ``stacked_cards``), with the engine's reason for a bad setup, or for a bad
    number of games; ``PermissionDenied`` for a player."""
    require_gm(user, campaign)
    prizes_refuse(ships)
    stacked = clean_stacked(stacked_cards)
    kernel = _engine(engine)
    try:
        setup = kernel.validate_setup(setup)
    except ValueError as exc:
        raise ValidationError({"setup": str(exc)}) from None
    games = _games(games, False)
    sample, _ = kernel.start(setup, SeededSource(0, record=False))
    return _create(campaign=campaign, user=user, kernel=kernel, setup=setup,
                   stacked_cards=stacked, title=(title or kernel.title).strip(), games=games,
                   until_precise=until_precise, players_see=False,
                   labels=_labels(kernel, sample))


def may_ask_odds(user, encounter: Encounter) -> bool:
    """Whether ``user`` may ask for the odds of ``encounter`` as it stands: a GM of its
    campaign (but not while he waits to give a wargame side's hidden orders: the games
    would be played with the others' orders, ``combat.selectors.seated``), or a player
    taking part in it where the campaign's setting ``odds_for_players`` allows it."""
    role = membership_role(user, encounter.campaign)
    if role == "gm":
        return seated(encounter, [GM]) == [GM]
    return role is not None and odds_for_players(encounter.campaign) and bool(
        participant_ids_for(user, encounter))


@transaction.atomic
def simulation_create_from_encounter(*, encounter: Encounter, user, actor: str = "",
                                     decision_kind: str = "", games: int | None = None,
                                     until_precise: bool = False) -> Simulation:
    """The odds of a running ``encounter`` from its current state: without ``actor`` and
    ``decision_kind``, ``games`` games (default :data:`DEFAULT_GAMES`) played from here with
    the default policies; with them, a "what if" of that pending decision: ``games``
    (default :data:`WHAT_IF_GAMES`) for each of its options, the option taken first, all
    options with the same seeds. A GM may ask; a player only where ``odds_for_players`` is
    on, and a "what if" only for his own character's decision (``PermissionDenied``). A
    GM's games draw the battle's stacked cards still to come first (then the players do not
    see his odds, which would show their effect); a player's, shuffled decks alone.
    ``ValidationError``: the encounter is not running, the decision is not pending, bad
    number of games."""
    encounter = Encounter.objects.select_for_update().get(pk=encounter.pk)
    is_gm = membership_role(user, encounter.campaign) == "gm"
    if not may_ask_odds(user, encounter):
        raise PermissionDenied(
            "The odds wait until you have given your side's orders: they would be played "
            "with the other side's, which are hidden until all are in." if is_gm else
            "The odds are for the GM in this campaign.")
    if encounter.status != Encounter.Status.ACTIVE:
        raise ValidationError("The odds are asked of a battle in progress.")
    kernel = _engine(encounter.engine)
    decision = None
    if actor or decision_kind:
        pending = [d for d in kernel.pending(encounter.state)
                   if d.actor == actor and d.kind == decision_kind]
        if not pending:
            raise ValidationError("That decision is not awaited now: reload the battle.")
        if not is_gm and actor not in participant_ids_for(user, encounter):
            raise PermissionDenied("You may ask what if only of your own decisions.")
        decision = pending[0].as_dict()
    games = _games(games, decision is not None)
    if decision is not None and not what_if_fits(decision, games):
        raise ValidationError({"games": f"{games:,} games for each of "
                                        f"{len(decision['options'])} options is more than "
                                        f"{MAX_GAMES:,} in all: ask for fewer."})
    if decision is not None:
        title = f"What if: {decision['prompt']}"
    else:
        title = f"Odds from here: {encounter.title}"
    # the GM's odds draw his stacked cards still to come first, as the battle will (its
    # choices are the default policy's: stacked choices, the book's example's, are not
    # replayed); they are his secret, and so are odds that show their effect
    stacked = encounter.stacked_remaining if is_gm else []
    return _create(campaign=encounter.campaign, user=user, kernel=kernel, title=title,
                   state=encounter.state, stacked_cards=stacked, encounter=encounter,
                   decision=decision, games=games, until_precise=until_precise,
                   players_see=odds_for_players(encounter.campaign) and not stacked,
                   labels=_labels(kernel, encounter.state))


@transaction.atomic
def simulation_cancel(*, simulation: Simulation, user) -> Simulation:
    """Stop a simulation that is still playing (a GM, or whoever asked for it): it ends
    ``cancelled`` with no result and its seed revealed; a worker playing one of its chunks
    stops at its next piece and writes nothing. ``ValidationError`` if it has ended."""
    simulation = Simulation.objects.select_for_update().get(pk=simulation.pk)
    if simulation.created_by_id != user.pk:
        require_gm(user, simulation.campaign)
    if not simulation.is_open:
        raise ValidationError("This simulation has ended: there is nothing to cancel.")
    simulation.status = Simulation.Status.CANCELLED
    simulation.finished_at = timezone.now()
    simulation.save(update_fields=["status", "finished_at"])
    simulation.chunks.filter(done=False).update(lease_owner="", lease_until=None)
    _announce(simulation.pk)
    return simulation


class _Stop(Exception):
    """The worker no longer holds the chunk's lease (cancelled, or taken over after this
    worker stalled): it stops and writes nothing."""


def _claim(simulation: Simulation, owner: str) -> SimulationChunk | None:
    """Take the lease of an open chunk of ``simulation`` while it is open, for ``owner``
    (the first games first), or ``None`` if there is none to take. Taking a lease that ran
    out counts as a takeover. The chunk comes back with ``simulation`` as its simulation
    (not read again: what a simulation plays never changes once it is asked for)."""
    now = timezone.now()
    free = Q(lease_owner="") | Q(lease_until__lt=now)
    candidates = SimulationChunk.objects.filter(
        simulation_id=simulation.pk, done=False, simulation__status__in=Simulation.OPEN
    ).filter(free).order_by("start", "option").values_list("pk", flat=True)[:8]
    for pk in candidates:
        if SimulationChunk.objects.filter(pk=pk, done=False).filter(free).update(
                lease_owner=owner, lease_until=now + _lease(), takeovers=_TAKEOVER):
            Simulation.objects.filter(pk=simulation.pk, status__in=Simulation.OPEN).update(
                status=Simulation.Status.RUNNING, heartbeat=now)
            chunk = SimulationChunk.objects.only(
                "option", "start", "stop", "done", "takeovers", "lease_owner").get(pk=pk)
            chunk.simulation = simulation
            return chunk
    return None


def _renew(chunk: SimulationChunk, owner: str) -> None:
    if not SimulationChunk.objects.filter(
            pk=chunk.pk, lease_owner=owner, done=False,
            simulation__status__in=Simulation.OPEN).update(
                lease_until=timezone.now() + _lease()):
        raise _Stop


def play_chunk(simulation: Simulation, start: int, stop: int, option: str = "",
               between=None, until: float | None = None) -> tuple[Summary, int]:
    """``(summary, reached)``: the summary of games ``start`` to ``reached - 1`` of
    ``simulation`` for ``option``, the kernel's Monte Carlo (``rules.montecarlo.run``) with
    the games' seeds derived from the simulation's. ``reached`` is ``stop``, or, once
    ``time.monotonic()`` passes ``until``, the first game not played (one piece at least is
    played). ``between()`` is called between pieces (one game, then as many as play in about
    :data:`PIECE_SECONDS`, at most :data:`PIECE_GAMES`). The same in a worker and in
    :func:`simulation_replay`: a game's result depends on its seed alone, not on the pieces."""
    kernel = get_engine(simulation.engine)
    begin = simulation.setup if simulation.setup is not None else simulation.state
    first = (simulation.decision["actor"], option) if simulation.decision else None
    seed = int(simulation.seed)
    summary = Summary(kernel.name)
    began, a, size = time.monotonic(), start, 1
    while a < stop:
        if a > start:
            if until is not None and time.monotonic() >= until:
                break
            if between is not None:
                between()
        b = min(a + size, stop)
        summary = summary.merge(run(kernel, begin, seeds=job_seeds(seed, a, b), first=first,
                                    stacked=simulation.stacked_cards))
        a = b
        pace = (time.monotonic() - began) / (a - start)
        size = max(1, min(PIECE_GAMES, int(PIECE_SECONDS / pace))) if pace else PIECE_GAMES
    return summary, a


def _commit(chunk: SimulationChunk, owner: str, summary: Summary,
            reached: int | None = None) -> None:
    """Store a played chunk if ``owner`` still holds it, and, with the last chunk in, merge
    the simulation's results or plan its next batch. A chunk played up to ``reached`` only
    (its slice ended first) is stored as games ``start`` to ``reached - 1``, and the rest is
    a new open chunk. Only the fields that change are written (not the simulation's setup or
    state, which a "what if" makes large)."""
    reached = chunk.stop if reached is None else reached
    with transaction.atomic():
        simulation = Simulation.objects.select_for_update().defer(
            "setup", "state", "labels").get(pk=chunk.simulation_id)
        held = SimulationChunk.objects.filter(
            pk=chunk.pk, lease_owner=owner, done=False).update(
                summary=summary.as_dict(), done=True, stop=reached, lease_owner="",
                lease_until=None)
        if not held or not simulation.is_open:
            raise _Stop
        if reached < chunk.stop:
            SimulationChunk.objects.create(simulation=simulation, option=chunk.option,
                                           start=reached, stop=chunk.stop)
        simulation.games_done += summary.games
        simulation.heartbeat = timezone.now()
        changed = ["games_done", "heartbeat"]
        if not simulation.chunks.filter(done=False).exists():
            merge_start = time.perf_counter()
            _finish_or_extend(simulation)
            changed += ["results", "status", "finished_at"]
            logger.info("simulation %s: all chunks in, merged in %.1f ms", simulation.pk,
                        (time.perf_counter() - merge_start) * 1e3)
        simulation.save(update_fields=changed)
        _announce(simulation.pk)


def merged_results(simulation: Simulation) -> dict[str, Summary]:
    """Option key -> the merge of its done chunks' summaries."""
    by_option: dict[str, list[Summary]] = {option: [] for option in simulation.options}
    for option, summary in simulation.chunks.filter(done=True).order_by(
            "start", "option").values_list("option", "summary"):
        by_option[option].append(Summary.from_dict(summary))
    return {option: merge_all(simulation.engine, parts) for option, parts in by_option.items()}


def _finish_or_extend(simulation: Simulation) -> None:
    """Every chunk is in: the results are merged and the simulation is done, unless it plays
    until precise, is not yet, and may play more (then the next batch is planned)."""
    merged = merged_results(simulation)
    planned = max(simulation.chunks.values_list("stop", flat=True))
    if simulation.until_precise and planned < simulation.games and not all(
            precise_enough(s) for s in merged.values()):
        _plan(simulation, planned, min(planned + PRECISE_BATCH, simulation.games))
        count = min(MESSAGES, simulation.chunks.filter(done=False).count())
        transaction.on_commit(lambda: _send(simulation.pk, count))
        return
    simulation.results = {option: s.as_dict() for option, s in merged.items()}
    simulation.status = Simulation.Status.DONE
    simulation.finished_at = timezone.now()


class _WorkersDied(Exception):
    """A chunk taken over more than ``MAX_TAKEOVERS`` times."""


def _failure(exc: Exception) -> str:
    """Why a simulation failed, as the GM reads it after "The simulation failed: "."""
    if isinstance(exc, ValidationError):
        return "; ".join(exc.messages)
    if isinstance(exc, _WorkersDied):
        return str(exc)
    if isinstance(exc, SoftTimeLimitExceeded):
        return (f"one game took longer than a worker may play at a time "
                f"({settings.CELERY_TASK_SOFT_TIME_LIMIT} s)")
    return f"{type(exc).__name__}: {exc}"


def _fail(simulation_id: int, exc: Exception) -> None:
    Simulation.objects.filter(pk=simulation_id, status__in=Simulation.OPEN).update(
        status=Simulation.Status.FAILED, finished_at=timezone.now(),
        error=_failure(exc)[:2000])
    _announce(simulation_id)


def simulation_run(*, simulation_id: int) -> int:
    """Play chunks of ``simulation_id`` until none is left to claim or
    ``settings.JOB_SLICE_SECONDS`` have passed (then its next message is sent): what a
    worker does with each message. Returns the chunks this call committed. A chunk taken
    over more than ``combat.services.MAX_TAKEOVERS`` times fails the simulation (what killed
    its workers would kill the next); so does an engine that refuses (``IllegalAction``).
    Each chunk logs (INFO) its stages' times in milliseconds: from the simulation's asking
    to the claim, the claim, the play (wall and this process's CPU), the commit."""
    owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
    slice_end = time.monotonic() + settings.JOB_SLICE_SECONDS
    simulation = Simulation.objects.filter(pk=simulation_id).defer("results").first()
    committed = 0
    while True:
        claim_start = time.perf_counter()
        waited = (timezone.now() - simulation.created_at).total_seconds() if simulation else 0
        if simulation is None or (chunk := _claim(simulation, owner)) is None:
            break
        play_start, play_cpu = time.perf_counter(), time.process_time()
        try:
            if chunk.takeovers > MAX_TAKEOVERS:
                raise _WorkersDied(f"its workers died {chunk.takeovers} times while playing "
                                   f"games {chunk.start}-{chunk.stop - 1}")
            renewed = [time.monotonic()]

            def between(chunk=chunk, renewed=renewed):
                if time.monotonic() - renewed[0] > settings.JOB_LEASE_SECONDS / 4:
                    _renew(chunk, owner)
                    renewed[0] = time.monotonic()

            summary, reached = play_chunk(simulation, chunk.start, chunk.stop, chunk.option,
                                          between, until=slice_end)
            commit_start, cpu = time.perf_counter(), time.process_time() - play_cpu
            _commit(chunk, owner, summary, reached)
            committed += 1
        except _Stop:
            logger.info("simulation %s: chunk %s stopped, its lease is gone", simulation_id,
                        chunk.pk)
            continue
        except Exception as exc:  # an engine that refuses, or anything else: it ends failed
            logger.exception("simulation %s failed", simulation_id)
            _fail(simulation_id, exc)
            return committed
        end = time.perf_counter()
        logger.info(
            "simulation %s chunk %s: %d games%s, claimed %.0f ms after the simulation was "
            "asked; claim %.1f, play %.1f (CPU %.1f), commit %.1f ms", simulation_id,
            chunk.pk, reached - chunk.start,
            f" of option {chunk.option}" if chunk.option else "", waited * 1e3,
            (play_start - claim_start) * 1e3,
            (commit_start - play_start) * 1e3, cpu * 1e3, (end - commit_start) * 1e3)
        if time.monotonic() >= slice_end:
            transaction.on_commit(lambda: _send(simulation_id))
            break
    return committed


def simulation_sweep() -> list[int]:
    """Hand stalled simulations back to the workers: a chunk whose lease ran out (its worker
    died) is released (a takeover) and its simulation sent again; an open simulation that no
    worker has touched for a lease (its messages were lost) is sent again. Run with the
    jobs' sweep (``combat.tasks.sweep_jobs``). Returns the ids sent."""
    now = timezone.now()
    sent: set[int] = set()
    expired = SimulationChunk.objects.filter(
        done=False, simulation__status__in=Simulation.OPEN, lease_until__lt=now).exclude(
            lease_owner="")
    for pk, simulation_id in expired.values_list("pk", "simulation_id"):
        if expired.filter(pk=pk).update(lease_owner="", lease_until=None,
                                        takeovers=F("takeovers") + 1):
            sent.add(simulation_id)
    stalled = Simulation.objects.filter(status__in=Simulation.OPEN,
                                        heartbeat__lt=now - _lease())
    for simulation_id in stalled.values_list("pk", flat=True):
        if stalled.filter(pk=simulation_id).update(heartbeat=now):
            sent.add(simulation_id)
    for simulation_id in sorted(sent):
        logger.info("simulation %s stalled: sent to the workers again", simulation_id)
        _send(simulation_id)
    return sorted(sent)


def simulation_replay(*, simulation: Simulation) -> dict:
    """Play every game of an ended simulation again in this process from its revealed seed
    and compare with its stored results: ``{"matches": bool, "results": option ->
    Summary.as_dict(), "mismatch": None or the first option that differs}``.
    ``ValidationError`` while its seed is secret or if it has no results (cancelled,
    failed)."""
    if not simulation.seed_revealed or simulation.results is None:
        raise ValidationError("A simulation can be replayed once it is done and its seed "
                              "is known.")
    stop = max(simulation.chunks.values_list("stop", flat=True))
    replayed = {option: play_chunk(simulation, 0, stop, option)[0].as_dict()
                for option in simulation.options}
    mismatch = next((o for o in simulation.options
                     if replayed[o] != simulation.results.get(o)), None)
    return {"matches": mismatch is None, "results": replayed, "mismatch": mismatch}

