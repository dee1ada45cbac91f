"""What the battle page says while the computer resolves the rest of a battle and after, to
each role: only the GM is offered to cancel, nobody is told of a resolution that has ended,
and a finished battle's cancel page cancels nothing."""

import pytest
from django.urls import reverse

from combat.models import Job
from combat.services import encounter_resolve_rest, job_run
from rules.engine import get_engine
from tests.combat.conftest import resolve_to_the_end

pytestmark = pytest.mark.django_db

REFUSED = "Your decision was not taken: the computer took over the rest of this battle."


def _decide(client, encounter, *, follow):
    """Post the pending decision (O'Toole's, player_a's: the starting distance) as the page
    would."""
    decision = get_engine(encounter.engine).pending(encounter.state)[0]
    return client.post(reverse("combat:act", args=[encounter.pk]), {
        "version": encounter.version, "actor": decision.actor, "kind": decision.kind,
        "choice": "3"}, follow=follow)


def test_while_resolving_only_the_gm_is_offered_to_cancel(book_battle, gm, gm_client,
                                                          player_a_client):
    encounter_resolve_rest(encounter=book_battle, user=gm)  # queued: no worker in this test
    page = _decide(player_a_client, book_battle, follow=True).content.decode()
    assert REFUSED in page
    assert "Resolving the rest of the battle" in page
    assert "no decision is asked of you now, and the result shows here when it is done" in page
    assert "cancel" not in page.lower()
    gm_page = gm_client.get(reverse("combat:detail", args=[book_battle.pk])).content.decode()
    assert "wait for the result, or cancel the battle below" in gm_page
    assert reverse("combat:cancel", args=[book_battle.pk]) in gm_page


def test_a_refusal_read_after_the_end_says_nothing_of_resolving(book_battle, gm,
                                                                player_a_client):
    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    response = _decide(player_a_client, book_battle, follow=False)
    assert response.status_code == 302
    while job.status in Job.OPEN and job_run(job_id=job.pk) is not None:  # the worker ends it
        job.refresh_from_db()
    page = player_a_client.get(response.url).content.decode()
    assert "Finished" in page and REFUSED in page
    assert "resolving" not in page.lower() and "cancel" not in page.lower()


def test_a_finished_battles_cancel_page_says_it_cannot_be_cancelled(book_battle, gm,
                                                                   gm_client):
    resolve_to_the_end(book_battle, gm)
    url = reverse("combat:cancel", args=[book_battle.pk])
    response = gm_client.get(url, follow=True)
    page = response.content.decode()
    assert response.redirect_chain == [(reverse("combat:detail", args=[book_battle.pk]), 302)]
    assert "This battle is over: it cannot be cancelled now." in page
    assert "Cancel the battle" not in page and url not in page
