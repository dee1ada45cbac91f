"""A Brethren of the Coast wargame and an HFG landing party resolved to their end by a real
Celery worker ("Resolve the rest", the same job as a battle's), against Redis and
PostgreSQL: the result goes to the campaign log and the game replays from its revealed
seed."""

import pytest

from campaigns.models import CampaignLogEntry
from combat.models import Job
from combat.services import encounter_replay, encounter_resolve_rest
from combat.wargames import wargame_create

from .test_worker import Worker, job_of, real_services, wait_for  # noqa: F401

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("scenario_key", "side", "winner_of", "winners"), [
    ("brethren/fleet_action", "en", lambda outcome: outcome["winner"], ("en", "fr", None)),
    # HFG's winner is the side's name (with its commander's): its data names the side
    ("hfg/landing_party", "a", lambda outcome: outcome["data"]["winner_side"], ("a", "b"))])
def test_a_worker_resolves_the_rest_of_a_wargame(campaign, gm, pc_a, scenario_key, side,
                                                 winner_of, winners):
    encounter = wargame_create(campaign=campaign, user=gm, scenario_key=scenario_key,
                               commanders={side: f"pc:{pc_a.pk}"})
    job = encounter_resolve_rest(encounter=encounter, user=gm)
    with Worker() as worker:
        wait_for(lambda: job_of(job).status == Job.Status.DONE, "the job to finish", worker,
                 timeout=90)
    encounter.refresh_from_db()
    assert encounter.status == "finished" and winner_of(encounter.outcome) in winners
    assert CampaignLogEntry.objects.filter(campaign=campaign, kind="battle.finished").exists()
    assert encounter_replay(encounter=encounter)["matches"]
