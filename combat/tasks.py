"""Celery tasks of the combat app: thin wrappers around ``combat.services`` (DESIGN.md, jobs).

The job's state is in ``combat.models.Job``; a task only says which job to run. Acks, time
limits, the sweep's schedule and how they fit together are set and explained in one place,
the jobs block of ``config/settings.py``.
"""

from celery import shared_task

from combat.odds.services import simulation_run, simulation_sweep
from combat.services import decision_sweep, job_run, job_sweep


@shared_task(name="combat.run_job", ignore_result=True)
def run_job(job_id: int) -> None:
    """Run a slice of job ``job_id`` if nobody holds its lease (a second delivery of the same
    message does nothing); the slice sends the job's next message itself."""
    job_run(job_id=job_id)


@shared_task(name="combat.sweep_jobs", ignore_result=True)
def sweep_jobs() -> None:
    """Hand the open jobs whose lease ran out (their worker died) to the workers again;
    celery beat sends this every ``JOB_SWEEP_SECONDS``; and the stalled simulations."""
    job_sweep()
    simulation_sweep()


@shared_task(name="combat.run_simulation", ignore_result=True)
def run_simulation(simulation_id: int) -> None:
    """Play chunks of simulation ``simulation_id`` while there are any to claim (for a
    slice; the slice sends the next message itself)."""
    simulation_run(simulation_id=simulation_id)


@shared_task(name="combat.sweep_decisions", ignore_result=True)
def sweep_decisions() -> None:
    """Take the default of the decisions that waited longer than their battle's timeout;
    celery beat sends this every ``DECISION_SWEEP_SECONDS``."""
    decision_sweep()
