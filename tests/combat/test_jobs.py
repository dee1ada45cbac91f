"""Resolve the rest of a battle in the background (DESIGN.md, jobs): the job is a row of our
own, the task is sent when the transaction commits, a worker claims the job with a
conditional update that takes a lease, so that a message delivered twice runs once and a
job whose worker died is taken up again. Here the worker's task runs in the test process;
``test_worker.py`` does the same with real worker processes, killed."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from campaigns.models import CampaignLogEntry
from combat import streams
from combat.models import Encounter, Job
from combat.services import (
    MAX_TAKEOVERS,
    encounter_act,
    encounter_cancel,
    encounter_replay,
    encounter_resolve_rest,
    job_run,
    job_sweep,
)
from combat.tasks import run_job
from rules.engine import get_engine

pytestmark = pytest.mark.django_db


def write_backs(encounter) -> int:
    """How many times a battle's end was written to its ships (one log entry per ship)."""
    ships = [ship.pk for ship in encounter.ships.all()]
    return CampaignLogEntry.objects.filter(kind="ship.battle", data__ship__in=ships).count()


def sent(callbacks) -> list:
    """The on-commit callbacks that send a task (those of ``combat.push``, which wake the
    pages' event streams when Redis is there, aside)."""
    return [c for c in callbacks if c.__module__ != "combat.push"]


def test_the_task_is_sent_on_commit_and_resolves_the_battle(
        book_battle, gm, gm_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job = encounter_resolve_rest(encounter=book_battle, user=gm)
    assert len(sent(callbacks)) == 1
    assert job.status == Job.Status.QUEUED and job.steps == 0
    run_job(job.pk)  # what the worker runs when the message arrives
    job.refresh_from_db()
    book_battle.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert job.steps == len(book_battle.choices)  # counted once, as played
    assert job.claimed_at and job.finished_at
    assert job.lease_owner == "" and job.lease_until is None
    assert book_battle.status == Encounter.Status.FINISHED
    assert book_battle.events.filter(kind="encounter.end").count() == 1
    assert write_backs(book_battle) == 2
    api = gm_client.get(reverse("api-job", args=[job.pk])).json()
    assert api["outcome"] == book_battle.outcome and api["steps"] == job.steps


def test_a_message_delivered_twice_runs_the_job_once(book_battle, gm):
    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    run_job(job.pk)
    job.refresh_from_db()
    book_battle.refresh_from_db()
    first = (job.claimed_at, job.finished_at, job.steps, book_battle.version,
             book_battle.events.count())
    run_job(job.pk)  # the broker delivers the same message again
    assert job_run(job_id=job.pk) is None
    job.refresh_from_db()
    book_battle.refresh_from_db()
    assert (job.claimed_at, job.finished_at, job.steps, book_battle.version,
            book_battle.events.count()) == first
    assert write_backs(book_battle) == 2


def test_only_one_resolution_at_a_time(book_battle, gm):
    encounter_resolve_rest(encounter=book_battle, user=gm)
    with pytest.raises(ValidationError, match="already being resolved"):
        encounter_resolve_rest(encounter=book_battle, user=gm)
    assert book_battle.jobs.count() == 1


def test_nobody_decides_while_the_computer_resolves(book_battle, gm, player_a_client):
    decision = get_engine(book_battle.engine).pending(book_battle.state)[0]
    encounter_resolve_rest(encounter=book_battle, user=gm)
    with pytest.raises(ValidationError, match="the computer took over the rest of this battle"):
        encounter_act(encounter=book_battle, user=gm, actor=decision.actor,
                      decision_kind=decision.kind, choice="3",
                      expected_version=book_battle.version)
    api = player_a_client.get(reverse("api-encounter-detail", args=[book_battle.pk])).json()
    assert api["decisions"] == [] and api["waiting_for"] == ["the computer"]
    book_battle.refresh_from_db()
    assert book_battle.choices == []


def test_a_job_that_cannot_run_ends_failed_with_the_reason(book_battle, gm, gm_client,
                                                           player_a_client):
    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    version = book_battle.version
    Encounter.objects.filter(pk=book_battle.pk).update(engine="lost_engine")
    job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED
    assert "lost_engine" in job.error
    Encounter.objects.filter(pk=book_battle.pk).update(engine="btq_naval")
    book_battle.refresh_from_db()
    assert book_battle.version == version + 1  # pages shown before the job are stale now
    page = gm_client.get(reverse("combat:detail", args=[book_battle.pk])).content.decode()
    assert "The last resolution failed" in page
    assert "lost_engine" in gm_client.get(reverse("api-job", args=[job.pk])).json()["error"]
    assert player_a_client.get(reverse("api-job", args=[job.pk])).json()["error"] == ""


def test_the_page_shows_the_progress_then_the_result(book_battle, gm, gm_client,
                                                     player_a_client):
    url = reverse("combat:detail", args=[book_battle.pk])
    response = gm_client.post(reverse("combat:resolve", args=[book_battle.pk]))
    assert response.status_code == 302
    job = book_battle.jobs.get()
    for client in (gm_client, player_a_client):
        page = client.get(url).content.decode()
        assert '<progress aria-label="Resolution progress">' in page
        assert "0 decisions played" in page
        assert 'data-stream="/combat/' in page
    assert "Resolve the rest" not in gm_client.get(url).content.decode()
    job_run(job_id=job.pk)
    page = gm_client.get(url).content.decode()
    assert "<progress" not in page
    assert 'data-stream="/combat/' not in page  # the battle is over: no more pushes
    assert "Resolved by the computer" in page
    assert "The seed is revealed" in page or "Seed:" in page
    api = gm_client.get(reverse("api-job", args=[job.pk])).json()
    job.refresh_from_db()
    assert api["status"] == "done" and api["steps"] == job.steps > 0
    assert player_a_client.get(reverse("api-job", args=[job.pk])).status_code == 200


def test_a_job_hands_itself_on_slice_by_slice(book_battle, gm, settings,
                                              django_capture_on_commit_callbacks):
    settings.JOB_SLICE_SECONDS = 0  # every task plays one chunk, then sends the next
    settings.JOB_PACE_SECONDS = 0.001  # one decision per chunk
    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    slices = 0
    while job.is_open:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            job = job_run(job_id=job.pk)
        slices += 1
        assert len(sent(callbacks)) == (1 if job.is_open else 0)  # the next message, if any
        if job.is_open:
            assert job.status == Job.Status.RUNNING and job.lease_owner == ""
            assert job.steps == slices
    book_battle.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert slices == job.steps == len(book_battle.choices)
    assert write_backs(book_battle) == 2
    assert encounter_replay(encounter=book_battle)["matches"]


def dead_worker(job, *, expired: bool):
    """Leave ``job`` as a worker that died holding it does: running, leased to it, its lease
    run out or not."""
    until = timezone.now() + timedelta(seconds=-1 if expired else 60)
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, lease_owner="dead:1:x",
                                         lease_until=until, claimed_at=timezone.now())


def test_a_job_whose_worker_died_is_taken_up_once_its_lease_runs_out(
        book_battle, gm, django_capture_on_commit_callbacks):
    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    dead_worker(job, expired=False)
    assert job_run(job_id=job.pk) is None  # a redelivery while the lease may still be renewed
    assert job_sweep() == []
    dead_worker(job, expired=True)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert job_sweep() == [job.pk]
    assert len(sent(callbacks)) == 1
    assert job_sweep() == []  # not sent again while its message waits for a worker
    job.refresh_from_db()
    assert job.lease_owner == "" and job.takeovers == 1
    run_job(job.pk)
    job.refresh_from_db()
    book_battle.refresh_from_db()
    assert job.status == Job.Status.DONE and job.takeovers == 1
    assert write_backs(book_battle) == 2


def test_a_reload_during_a_stalled_resolution_shows_the_job_as_before(
        book_battle, gm, gm_client, player_a_client, django_capture_on_commit_callbacks):
    """The battle page, reloaded or fetched live, says what the job is doing however it
    stalled: queued with its message lost (no worker took it), running with its worker dead
    and the lease run out, and handed back to the workers by the sweep; to the GM and the
    player alike, and never the "Resolve the rest" button beside it."""
    url = reverse("combat:detail", args=[book_battle.pk])
    with django_capture_on_commit_callbacks(execute=False):  # the message is lost
        gm_client.post(reverse("combat:resolve", args=[book_battle.pk]))
    job = book_battle.jobs.get()

    def shown(client, line):
        for page in (client.get(url).content.decode(), client.get(
                reverse("combat:poll", args=[book_battle.pk]), {"token": "stale"}
        ).content.decode()):
            job_part = page.split('<section id="job"')[1].split("</section>")[0]
            assert '<progress aria-label="Resolution progress">' in job_part
            assert line in job_part and "Resolve the rest" not in job_part

    for client in (gm_client, player_a_client):
        shown(client, "Queued · 0 decisions played")
    dead_worker(job, expired=True)
    Job.objects.filter(pk=job.pk).update(steps=3)
    for client in (gm_client, player_a_client):
        shown(client, "Running · 3 decisions played")
    with django_capture_on_commit_callbacks(execute=False):
        assert job_sweep() == [job.pk]
    for client in (gm_client, player_a_client):
        shown(client, "Running · 3 decisions played")


def test_the_page_shows_the_open_job_before_a_newer_one_that_ended(
        book_battle, gm, gm_client, django_capture_on_commit_callbacks):
    """The job still working is the one the page shows, whatever the jobs' times say: a
    failed job stamped later than the open one (the clocks of two web servers a little
    apart) left the page with its failure and its Resolve button, and nothing of the job
    still queued, while the decisions waited for the computer."""
    url = reverse("combat:detail", args=[book_battle.pk])
    failed = encounter_resolve_rest(encounter=book_battle, user=gm)
    Job.objects.filter(pk=failed.pk).update(status=Job.Status.FAILED, error="lost")
    with django_capture_on_commit_callbacks(execute=False):
        gm_client.post(reverse("combat:resolve", args=[book_battle.pk]))
    queued = book_battle.jobs.get(status=Job.Status.QUEUED)
    Job.objects.filter(pk=failed.pk).update(created_at=queued.created_at + timedelta(minutes=1))
    for page in (gm_client.get(url).content.decode(), gm_client.get(
            reverse("combat:poll", args=[book_battle.pk]), {"token": "stale"}).content.decode()):
        job_part = page.split('<section id="job"')[1].split("</section>")[0]
        assert "Queued · 0 decisions played" in job_part
        assert "failed" not in job_part and "Resolve the rest" not in job_part
    assert streams._encounter_signature(book_battle.pk)[3:] == (queued.pk, "queued", 0)


def test_a_redelivered_message_takes_over_an_expired_lease_itself(book_battle, gm):
    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    dead_worker(job, expired=True)
    job = job_run(job_id=job.pk)
    assert job.status == Job.Status.DONE and job.takeovers == 1


def test_a_job_that_kills_its_workers_ends_failed(book_battle, gm):
    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    Job.objects.filter(pk=job.pk).update(takeovers=MAX_TAKEOVERS)
    dead_worker(job, expired=True)
    job = job_run(job_id=job.pk)
    assert job.status == Job.Status.FAILED
    assert f"its workers died {MAX_TAKEOVERS + 1} times" in job.error
    book_battle.refresh_from_db()
    assert book_battle.status == Encounter.Status.ACTIVE and book_battle.choices == []


def test_a_job_for_a_battle_cancelled_before_it_started_ends_cancelled(
        book_battle, gm, gm_client, player_a_client):
    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    encounter_cancel(encounter=book_battle, user=gm, expected_version=book_battle.version)
    job.refresh_from_db()
    assert job.status == Job.Status.CANCELLED and job.finished_at
    assert job_run(job_id=job.pk) is None  # its message arrives afterwards
    job.refresh_from_db()
    book_battle.refresh_from_db()
    assert job.status == Job.Status.CANCELLED and job.steps == 0
    assert book_battle.status == Encounter.Status.CANCELLED and book_battle.outcome is None
    assert write_backs(book_battle) == 0
    for client in (gm_client, player_a_client):
        page = client.get(reverse("combat:detail", args=[book_battle.pk])).content.decode()
        assert "<progress" not in page and 'data-stream="/combat/' not in page
        api = client.get(reverse("api-job", args=[job.pk])).json()
        assert api["status"] == "cancelled" and api["outcome"] is None


def test_the_gm_cancels_a_battle_between_two_slices_of_its_job(book_battle, gm, settings):
    settings.JOB_SLICE_SECONDS = 0
    settings.JOB_PACE_SECONDS = 0.001
    seen_version = book_battle.version  # the GM's page, from before the job began
    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    job = job_run(job_id=job.pk)
    job = job_run(job_id=job.pk)
    assert job.status == Job.Status.RUNNING and job.steps == 2
    book_battle.refresh_from_db()
    events = book_battle.events.count()
    encounter_cancel(encounter=book_battle, user=gm, expected_version=seen_version)
    assert job_run(job_id=job.pk) is None
    job.refresh_from_db()
    book_battle.refresh_from_db()
    assert job.status == Job.Status.CANCELLED and job.steps == 2
    assert book_battle.status == Encounter.Status.CANCELLED
    assert book_battle.events.count() == events + 1  # the cancel's own event, nothing after
    assert len(book_battle.choices) == 2
    assert write_backs(book_battle) == 0


@pytest.mark.parametrize("status, ends", [(Encounter.Status.CANCELLED, Job.Status.CANCELLED),
                                          (Encounter.Status.FINISHED, Job.Status.FAILED)])
def test_a_job_whose_battle_ended_by_another_path_never_ends_done(book_battle, gm, status,
                                                                  ends):
    # The admin, or a data repair, changes a battle's status without the cancel service.
    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    Encounter.objects.filter(pk=book_battle.pk).update(status=status)
    job = job_run(job_id=job.pk)
    assert job.status == ends and job.steps == 0
    assert write_backs(book_battle) == 0
