"""Card tests taken at the same moment: the same test confirmed twice turns its cards once;
two tests of one campaign draw one after the other from its one seeded source (neither
reuses the other's cards by reading the source before the other saved it)."""

import threading

import pytest
from django.db import close_old_connections, connection

from campaigns.models import Campaign, CardTest, DeckDraw
from campaigns.services import StaleVersion
from campaigns.services.card_tests import IllegalStep, card_test_call, card_test_confirm

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs a database with row locks shared by threads: set DATABASE_URL to "
                    "PostgreSQL (the SQLite test database is in memory)")


def at_once(*calls):
    """Run the calls in threads released together; their results, or the refusals raised."""
    barrier = threading.Barrier(len(calls))
    results = []

    def run(call):
        try:
            barrier.wait(timeout=10)
            results.append(call())
        except (StaleVersion, IllegalStep) as exc:
            results.append(type(exc).__name__)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def call(campaign, gm, pc, npc):
    return card_test_call(campaign=campaign, actor=gm, character=pc.pk, skill="seamanship",
                          opposition="npc", opponent=npc.pk, opponent_skill="command",
                          intent="outsail him")


def test_one_test_confirmed_twice_at_once_is_drawn_once(campaign, gm, player_a, pc_a, npc):
    test = call(campaign, gm, pc_a, npc)

    def confirm():
        return card_test_confirm(test=test, actor=player_a, version=test.version).status

    results = at_once(confirm, confirm)
    assert len(results) == 2 and results.count("StaleVersion") == 1
    test.refresh_from_db()
    assert test.version == 2
    assert DeckDraw.objects.filter(card_test=test, round=1).count() == 3


def test_two_tests_of_a_campaign_draw_in_turn_from_its_source(campaign, gm, player_a, player_b,
                                                              pc_a, pc_b, npc):
    # With this seed neither order of the two draws turns a Joker (which would leave its
    # cards on the table and, rightly, stop the other test: IllegalStep).
    Campaign.objects.filter(pk=campaign.pk).update(rng_seed="1800", rng_state=None)
    first, second = call(campaign, gm, pc_a, npc), call(campaign, gm, pc_b, npc)
    results = at_once(
        lambda: card_test_confirm(test=first, actor=player_a, version=first.version).status,
        lambda: card_test_confirm(test=second, actor=player_b, version=second.version).status,
    )
    assert results == [CardTest.Status.DONE] * 2
    fates = list(DeckDraw.objects.filter(purpose="card of fate", round=1)
                 .order_by("id").values_list("cards", flat=True))
    assert len(fates) == 2
    # Drawn in turn, the second test's Card of Fate comes after the first's in the seeded
    # sequence; had both read the source at once, both would have turned the same card.
    assert fates[0] != fates[1]
    assert CardTest.objects.filter(status=CardTest.Status.AWAITING_CONFIRMATION).count() == 0
