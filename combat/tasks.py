"""Celery tasks of the combat app: thin wrappers around ``combat.services`` (DESIGN.md, jobs).

The job's state is in ``combat.models.Job``; the task only says which job to run. Its time
limits keep a runaway resolution from holding a worker: the soft limit raises inside
``job_run``, which marks the job failed.
"""

from celery import shared_task

from combat.services import job_run

SOFT_TIME_LIMIT = 110
"""Seconds before the task is interrupted (the job is then marked failed)."""
TIME_LIMIT = 120
"""Seconds before the worker process running the task is killed."""


@shared_task(name="combat.run_job", soft_time_limit=SOFT_TIME_LIMIT, time_limit=TIME_LIMIT,
             ignore_result=True)
def run_job(job_id: int) -> None:
    """Run the queued job ``job_id`` (a second delivery of the same message does nothing)."""
    job_run(job_id=job_id)
