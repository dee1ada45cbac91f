"""Resolve the rest of a battle in the background (DESIGN.md, jobs): the job is a row of our
own, the task is sent when the transaction commits, a worker claims the job with a
conditional update so that a message delivered twice runs once."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from combat.models import Encounter, Job
from combat.services import encounter_resolve_rest, job_run
from combat.tasks import run_job

pytestmark = pytest.mark.django_db


def test_the_task_is_sent_on_commit_and_resolves_the_battle(
        book_battle, gm, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job = encounter_resolve_rest(encounter=book_battle, user=gm)
    assert len(callbacks) == 1
    assert job.status == Job.Status.QUEUED and job.progress == 0
    run_job(job.pk)  # what the worker runs when the message arrives
    job.refresh_from_db()
    book_battle.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert job.progress == 100
    assert job.claimed_at and job.finished_at
    assert book_battle.status == Encounter.Status.FINISHED
    assert job.result == {"decisions": len(book_battle.choices), "outcome": book_battle.outcome}
    assert book_battle.events.filter(kind="encounter.end").count() == 1


def test_a_message_delivered_twice_runs_the_job_once(book_battle, gm):
    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    run_job(job.pk)
    job.refresh_from_db()
    book_battle.refresh_from_db()
    first = (job.claimed_at, job.finished_at, book_battle.version, book_battle.events.count())
    run_job(job.pk)  # the broker delivers the same message again
    assert job_run(job_id=job.pk) is None
    job.refresh_from_db()
    book_battle.refresh_from_db()
    assert (job.claimed_at, job.finished_at, book_battle.version,
            book_battle.events.count()) == first


def test_only_one_resolution_at_a_time(book_battle, gm):
    encounter_resolve_rest(encounter=book_battle, user=gm)
    with pytest.raises(ValidationError, match="already being resolved"):
        encounter_resolve_rest(encounter=book_battle, user=gm)
    assert book_battle.jobs.count() == 1


def test_a_job_that_cannot_run_ends_failed_with_the_reason(book_battle, gm, gm_client):
    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    Encounter.objects.filter(pk=book_battle.pk).update(engine="lost_engine")
    job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED
    assert "lost_engine" in job.error
    Encounter.objects.filter(pk=book_battle.pk).update(engine="btq_naval")
    page = gm_client.get(reverse("combat:detail", args=[book_battle.pk])).content.decode()
    assert "The last resolution failed" in page


def test_the_page_shows_the_progress_then_the_result(book_battle, gm, gm_client,
                                                     player_a_client):
    url = reverse("combat:detail", args=[book_battle.pk])
    response = gm_client.post(reverse("combat:resolve", args=[book_battle.pk]))
    assert response.status_code == 302
    job = book_battle.jobs.get()
    for client in (gm_client, player_a_client):
        page = client.get(url).content.decode()
        assert '<progress value="0" max="100"' in page
        assert 'hx-trigger="every 2s"' in page
    assert "Resolve the rest" not in gm_client.get(url).content.decode()
    job_run(job_id=job.pk)
    page = gm_client.get(url).content.decode()
    assert "<progress" not in page
    assert 'hx-trigger="every 2s"' not in page  # the battle is over: no more polling
    assert "Resolved by the computer" in page
    assert "The seed is revealed" in page or "Seed:" in page
    api = gm_client.get(reverse("api-job", args=[job.pk])).json()
    assert api["status"] == "done" and api["progress"] == 100
    assert player_a_client.get(reverse("api-job", args=[job.pk])).status_code == 200
