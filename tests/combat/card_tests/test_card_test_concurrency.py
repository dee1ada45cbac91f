"""Card tests taken at the same moment: the same test confirmed twice turns its cards once;
two tests of one campaign confirmed at once each draw from their own seed, as a replay
from that seed shows."""

import threading

import pytest
from django.db import close_old_connections, connection

from campaigns.services import StaleVersion
from combat.card_tests.selectors import card_test_status
from combat.card_tests.services import IllegalStep, card_test_call, card_test_confirm
from combat.services import encounter_replay

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
        return card_test_status(card_test_confirm(test=test, actor=player_a,
                                                  version=test.version))

    results = at_once(confirm, confirm)
    assert len(results) == 2 and results.count("StaleVersion") == 1
    test.refresh_from_db()
    assert test.version == 3  # called and started (2), confirmed once (3)
    assert [c["kind"] for c in test.choices] == ["test.confirm"]
    assert test.events.filter(kind="test.round", data__number=1).count() >= 1


def test_two_tests_of_a_campaign_confirmed_at_once_draw_each_from_its_own_seed(
        campaign, gm, player_a, player_b, pc_a, pc_b, npc):
    first, second = call(campaign, gm, pc_a, npc), call(campaign, gm, pc_b, npc)
    assert first.seed != second.seed
    results = at_once(
        lambda: card_test_status(card_test_confirm(test=first, actor=player_a,
                                                   version=first.version)),
        lambda: card_test_status(card_test_confirm(test=second, actor=player_b,
                                                   version=second.version)),
    )
    assert sorted(results) != ["IllegalStep", "StaleVersion"] and len(results) == 2
    assert all(r in ("done", "awaiting_joker") for r in results)
    for test in (first, second):
        test.refresh_from_db()
        if test.status == "finished":
            assert encounter_replay(encounter=test)["matches"]
