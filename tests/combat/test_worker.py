"""Real Celery worker processes resolve the rest of a battle (DESIGN.md, jobs), against Redis
and PostgreSQL: the task is sent through Redis when the transaction commits, a worker claims
the job in the same database and plays the battle to its end. A worker killed in the middle
(SIGKILL, or the prefork child running the task) loses nothing: another takes the job up
from its last committed chunk and the battle ends as the same seed played without the kill,
written back to the ships once. The GM's cancel stops a running job at its next step.

The workers run with the job timings shortened (a 2 s lease, a sweep every second, slices of
1 s, a 0.1 s pace so that a battle lasts long enough to be killed in the middle) so that each
test takes seconds; the timings' chain (config/settings.py) is the production one.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

from campaigns.models import CampaignLogEntry
from combat.models import Encounter, Job
from combat.services import (
    encounter_cancel,
    encounter_create,
    encounter_replay,
    encounter_resolve_rest,
    encounter_start,
    seed_hash,
)
from rules.engine import get_engine, play_out
from rules.random import SeededSource
from ships.models import Ship
from ships.services import naval_setup

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 30
"""The bound on every wait; each normally ends within a few seconds."""
TIMINGS = {"QUARTERDECK_JOB_LEASE_SECONDS": "2", "QUARTERDECK_JOB_SWEEP_SECONDS": "1",
           "QUARTERDECK_JOB_SLICE_SECONDS": "1", "QUARTERDECK_JOB_PACE_SECONDS": "0.1"}
CANCEL_SECONDS = 10
"""The bound on a cancel's taking effect: the worker looks at every step (0.1 s apart here),
so it normally stops within a fraction of a second; the bound leaves room for a loaded
machine and is still far inside the job's lease."""
LONG_SEED = "1001"
"""A seed whose battle (below) lasts some 28 decisions: about 3 s at the workers' pace."""


@pytest.fixture(autouse=True)
def real_services():
    if not os.environ.get("REDIS_URL"):
        pytest.skip("REDIS_URL is not set: the real-worker tests need Redis as the broker "
                    "(CI sets it; locally e.g. REDIS_URL=redis://127.0.0.1:6379/5)")
    if connection.vendor != "postgresql":
        pytest.skip("the real-worker tests need a database another process can open: set "
                    "DATABASE_URL to PostgreSQL (the SQLite test database is in memory)")
    from config.celery import app

    app.control.purge()  # no message left over from an earlier test reaches these workers


def _database_url() -> str:
    """The URL of the test database this process uses, for the worker."""
    s = connection.settings_dict
    auth = quote(s["USER"] or "", safe="")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"], safe="")
    host = s.get("HOST") or "127.0.0.1"
    port = f":{s['PORT']}" if s.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{s['NAME']}"


class Worker:
    """A real ``celery worker -B`` (embedded beat, as ``make worker`` runs it) in its own
    process group, logging to a temporary file."""

    def __init__(self, pool: str = "solo"):
        self.dir = tempfile.TemporaryDirectory()
        self.log = open(Path(self.dir.name) / "worker.log", "w+")  # noqa: SIM115
        env = {**os.environ, **TIMINGS, "DATABASE_URL": _database_url(),
               "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-B",
             "-s", str(Path(self.dir.name) / "beat"), f"--pool={pool}", "--concurrency=1",
             "--loglevel=INFO", "--without-heartbeat", "--without-gossip", "--without-mingle"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.pid = self.process.pid

    def output(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text()

    def children(self) -> set[int]:
        text = Path(f"/proc/{self.pid}/task/{self.pid}/children").read_text()
        return {int(pid) for pid in text.split()}

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL the worker and every process it started, as a lost machine would."""
        os.killpg(self.pid, signal.SIGKILL)
        self.process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.alive():
            os.killpg(self.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.pid, signal.SIGKILL)
                self.process.wait()
        try:
            os.killpg(self.pid, signal.SIGKILL)  # the embedded beat, if it outlived it
        except ProcessLookupError:
            pass
        self.log.close()
        self.dir.cleanup()


def wait_for(condition, what: str, *workers, timeout: float = WAIT_SECONDS):
    """Poll ``condition()`` every 50 ms until it is true (returned), failing after
    ``timeout`` seconds with the workers' logs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    logs = "\n".join(w.output()[-3000:] for w in workers)
    pytest.fail(f"timed out after {timeout} s waiting for {what}\n{logs}")


def job_of(job) -> Job:
    job.refresh_from_db()
    return job


@pytest.fixture
def battle(campaign, gm, pc_ship, enemy_ship):
    """A running battle between the test campaign's ships, with :data:`LONG_SEED`."""
    encounter = encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title="Worker battle",
        setup=naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, weather="steady_breeze",
                          start_distance=3),
        ships=[pc_ship, enemy_ship],
    )
    Encounter.objects.filter(pk=encounter.pk).update(seed=LONG_SEED,
                                                     seed_hash=seed_hash(LONG_SEED))
    encounter.refresh_from_db()
    return encounter_start(encounter=encounter, user=gm, expected_version=encounter.version)


def ships_now(encounter) -> dict:
    return {s.pk: (s.version, s.tracks, s.morale_state)
            for s in Ship.objects.filter(encounters=encounter)}


def write_backs(encounter) -> int:
    ships = [ship.pk for ship in encounter.ships.all()]
    return CampaignLogEntry.objects.filter(kind="ship.battle", data__ship__in=ships).count()


def assert_played_as_without_a_kill(encounter, job, ships_before):
    """The battle ended exactly as its seed plays with the default choices and no kill (the
    rules kernel alone, no database), every decision once, and was written back once."""
    encounter.refresh_from_db()
    assert job.status == Job.Status.DONE, job.error
    assert encounter.status == Encounter.Status.FINISHED
    engine = get_engine(encounter.engine)
    source = SeededSource(int(encounter.seed))
    state, opening = engine.start(encounter.setup, source)
    state, played = play_out(engine, state, source)
    assert encounter.state == json.loads(json.dumps(state))
    engine_events = encounter.events.exclude(kind__in=["encounter.start", "encounter.end"])
    assert list(engine_events.values_list("text", flat=True)) == [
        e.text for e in [*opening, *played]]
    assert job.steps == len(encounter.choices)
    assert encounter_replay(encounter=encounter)["matches"]
    assert write_backs(encounter) == len(ships_before) == 2
    assert CampaignLogEntry.objects.filter(kind="battle.finished",
                                           data__encounter=encounter.pk).count() == 1
    final = encounter.outcome["data"]["ships"]
    for pk, (version, _tracks, _morale) in ships_before.items():
        ship = Ship.objects.get(pk=pk)
        assert ship.version == version + 1
        assert (ship.tracks, ship.morale_state) == (final[str(pk)]["tracks"],
                                                    final[str(pk)]["morale"])


def test_a_real_worker_resolves_the_rest_of_a_battle(battle, gm):
    before = ships_now(battle)
    with Worker() as worker:
        job = encounter_resolve_rest(encounter=battle, user=gm)
        wait_for(lambda: not job_of(job).is_open, "the job to end", worker)
    assert job.claimed_at is not None and job.finished_at is not None
    assert job.takeovers == 0
    assert_played_as_without_a_kill(battle, job, before)


def test_a_worker_killed_in_the_middle_of_a_job_is_replaced_by_the_next(battle, gm):
    before = ships_now(battle)
    with Worker() as first:
        job = encounter_resolve_rest(encounter=battle, user=gm)
        wait_for(lambda: job_of(job).steps >= 3, "a few committed steps", first)
        first.kill()
        died = time.monotonic()
    job.refresh_from_db()
    assert job.is_open, "the battle ended before the worker was killed: use a longer one"
    steps_at_death = job.steps
    with Worker() as second:
        wait_for(lambda: not job_of(job).is_open, "the second worker to end the job", second)
        took = time.monotonic() - died
    assert took < 60, f"the job was taken up and finished {took:.1f} s after the death"
    assert job.steps > steps_at_death  # the second worker carried on from there
    assert job.takeovers <= 1
    assert_played_as_without_a_kill(battle, job, before)


def test_the_prefork_child_running_a_job_dies_and_the_job_goes_on(battle, gm):
    before = ships_now(battle)
    with Worker(pool="prefork") as worker:
        job = encounter_resolve_rest(encounter=battle, user=gm)
        job = wait_for(lambda: (j := job_of(job)).steps >= 3 and j.lease_owner and j,
                       "a few committed steps", worker)
        child = int(job.lease_owner.split(":")[1])
        assert child != worker.pid and child in worker.children()
        os.kill(child, signal.SIGKILL)
        wait_for(lambda: not job_of(job).is_open, "the job to end after its child died",
                 worker)
        assert worker.alive(), "the worker's parent process should survive its child"
        assert child not in worker.children()
    assert_played_as_without_a_kill(battle, job, before)


def test_the_gm_cancels_a_battle_while_a_real_worker_resolves_it(battle, gm):
    before = ships_now(battle)
    seen_version = battle.version  # the GM's page, from before the job began
    with Worker() as worker:
        job = encounter_resolve_rest(encounter=battle, user=gm)
        wait_for(lambda: job_of(job).steps >= 2, "a few committed steps", worker)
        asked = time.monotonic()
        encounter_cancel(encounter=battle, user=gm, expected_version=seen_version)
        stopped = f"job {job.pk} stopped at its next step"
        wait_for(lambda: stopped in worker.output(), "the worker to stop", worker,
                 timeout=CANCEL_SECONDS)
        took = time.monotonic() - asked
        job.refresh_from_db()
        battle.refresh_from_db()
        log = (job.steps, battle.events.count())
        time.sleep(0.5)  # five of the worker's paces: it would have played on by now
        assert (job_of(job).steps, battle.events.count()) == log
    assert took < CANCEL_SECONDS, f"the job stopped {took:.2f} s after the GM cancelled"
    assert job.status == Job.Status.CANCELLED
    assert battle.status == Encounter.Status.CANCELLED and battle.outcome is None
    assert battle.events.order_by("-seq").first().kind == "encounter.cancelled"
    assert ships_now(battle) == before
    assert write_backs(battle) == 0


def test_a_players_open_stream_carries_the_events_a_worker_writes(battle, gm, player_a):
    """The worker, another process, writes the battle's events; a player's stream, open
    meanwhile, gets each of them once and in order, up to the last one (the seed revealed).
    How fast they arrive is measured by the benchmarks, not here."""
    from django.urls import reverse

    from combat import selectors

    from .test_streams import parse, read

    url = reverse("combat:stream", args=[battle.pk])
    with Worker() as worker:
        _, text, _ = read(
            player_a, url, idle=WAIT_SECONDS, limit=WAIT_SECONDS,
            action=lambda: encounter_resolve_rest(encounter=battle, user=gm),
            until=lambda t: "encounter.end" in t)
        wait_for(lambda: not job_of(battle.jobs.get()).is_open, "the job to end", worker)
    ids = [int(e["id"]) for e in parse(text) if e["event"] == "encounter"]
    participants = selectors.participant_ids_for(player_a, battle)
    assert ids == [e["seq"] for e in selectors.events_for(battle, participants)]
