"""A real Celery worker process resolves the rest of a battle (DESIGN.md, jobs): the task is
sent through Redis when the transaction commits, the worker claims the job in the same
database and plays the battle to its end."""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

from combat.models import Encounter, Job
from combat.services import encounter_create, encounter_resolve_rest, encounter_start
from ships.services import naval_setup

ROOT = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 90


def _database_url() -> str:
    """The URL of the test database this process uses, for the worker."""
    s = connection.settings_dict
    auth = quote(s["USER"] or "", safe="")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"], safe="")
    host = s.get("HOST") or "127.0.0.1"
    port = f":{s['PORT']}" if s.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{s['NAME']}"


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_resolves_the_rest_of_a_battle(campaign, gm, pc_ship, enemy_ship):
    if not os.environ.get("REDIS_URL"):
        pytest.skip("REDIS_URL is not set: the real-worker test needs Redis as the broker "
                    "(CI sets it; locally e.g. REDIS_URL=redis://127.0.0.1:6379/5)")
    if connection.vendor != "postgresql":
        pytest.skip("the real-worker test needs a database another process can open: set "
                    "DATABASE_URL to PostgreSQL (the SQLite test database is in memory)")
    encounter = encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title="Worker battle",
        setup=naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, weather="steady_breeze",
                          start_distance=3),
        ships=[pc_ship, enemy_ship],
    )
    encounter = encounter_start(encounter=encounter, user=gm, expected_version=1)

    env = {**os.environ, "DATABASE_URL": _database_url(), "PYTHONUNBUFFERED": "1"}
    with tempfile.TemporaryFile("w+") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
             "--concurrency=1", "--loglevel=INFO", "--without-heartbeat", "--without-gossip",
             "--without-mingle"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
        try:
            job = encounter_resolve_rest(encounter=encounter, user=gm)
            deadline = time.monotonic() + WAIT_SECONDS
            while time.monotonic() < deadline:
                job.refresh_from_db()
                if job.status in (Job.Status.DONE, Job.Status.FAILED):
                    break
                assert worker.poll() is None, "the worker exited early"
                time.sleep(0.5)
        finally:
            worker.terminate()
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
        log.seek(0)
        output = log.read()
    assert job.status == Job.Status.DONE, f"job {job.status} {job.error}\n{output[-4000:]}"
    assert job.progress == 100
    assert job.claimed_at is not None and job.finished_at is not None
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.FINISHED
    assert job.result["outcome"] == encounter.outcome
    assert job.result["decisions"] == len(encounter.choices)
