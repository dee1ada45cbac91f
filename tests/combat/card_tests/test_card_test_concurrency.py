"""Card tests taken at the same moment: the same test confirmed twice turns its cards once;
two tests of one campaign confirmed at once each draw from their own seed, as a replay
from that seed shows."""


import pytest
from django.db import connection

from campaigns.services import StaleVersion
from combat.card_tests.selectors import card_test_status
from combat.card_tests.services import IllegalStep, card_test_call, card_test_confirm
from combat.services import encounter_replay
from tests.concurrency import at_once

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs a database with row locks shared by threads: set DATABASE_URL to "
                    "PostgreSQL (the SQLite test database is in memory)")


REFUSALS = (StaleVersion, IllegalStep)


def names(results: list) -> list:
    """Each result, a refusal as its exception's name."""
    return [type(r).__name__ if isinstance(r, Exception) else r for r in results]


def call(campaign, gm, pc, npc):
    return card_test_call(campaign=campaign, actor=gm, character=pc.pk, skill="seamanship",
                          opposition="npc", opponent=npc.pk, opponent_skill="command",
                          intent="outsail him")


def test_one_test_confirmed_twice_at_once_is_drawn_once(campaign, gm, player_a, pc_a, npc):
    test = call(campaign, gm, pc_a, npc)

    def confirm():
        return card_test_status(card_test_confirm(test=test, actor=player_a,
                                                  version=test.version))

    results = names(at_once(confirm, confirm, refusals=REFUSALS))
    assert len(results) == 2 and results.count("StaleVersion") == 1
    test.refresh_from_db()
    assert test.version == 3  # called and started (2), confirmed once (3)
    assert [c["kind"] for c in test.choices] == ["test.confirm"]
    assert test.events.filter(kind="test.round", data__number=1).count() >= 1


def test_two_tests_of_a_campaign_confirmed_at_once_draw_each_from_its_own_seed(
        campaign, gm, player_a, player_b, pc_a, pc_b, npc):
    first, second = call(campaign, gm, pc_a, npc), call(campaign, gm, pc_b, npc)
    assert first.seed != second.seed
    results = names(at_once(
        lambda: card_test_status(card_test_confirm(test=first, actor=player_a,
                                                   version=first.version)),
        lambda: card_test_status(card_test_confirm(test=second, actor=player_b,
                                                   version=second.version)),
        refusals=REFUSALS))
    assert sorted(results) != ["IllegalStep", "StaleVersion"] and len(results) == 2
    assert all(r in ("done", "awaiting_joker") for r in results)
    for test in (first, second):
        test.refresh_from_db()
        if test.status == "finished":
            assert encounter_replay(encounter=test)["matches"]
