"""Two people take the same step at the same moment: one wins, the other is refused with
the stale version and nothing of his is written (DESIGN.md, "Roles and trust")."""

from functools import partial

import pytest
from django.db import connection

from campaigns.services import StaleVersion
from combat.services import encounter_act
from rules.engine import get_engine
from tests.concurrency import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_same_step_twice_at_once_is_taken_once(book_battle, gm, player_a):
    if connection.vendor != "postgresql":
        pytest.skip("needs a database with row locks shared by threads: set DATABASE_URL to "
                    "PostgreSQL (the SQLite test database is in memory)")
    decision = get_engine(book_battle.engine).pending(book_battle.state)[0]
    version = book_battle.version

    def act(user):
        encounter_act(encounter=book_battle, user=user, actor=decision.actor,
                      decision_kind=decision.kind, choice="3", expected_version=version)
        return "done"

    results = at_once(partial(act, gm), partial(act, player_a), refusals=(StaleVersion,))
    assert sorted(r if r == "done" else "stale" for r in results) == ["done", "stale"]
    book_battle.refresh_from_db()
    assert book_battle.version == version + 1
    # Whoever won the race took it; the GM's win is marked as his decision for the player.
    taken = [{k: v for k, v in c.items() if k != "by"} for c in book_battle.choices]
    assert taken == [{"actor": decision.actor, "kind": decision.kind, "choice": "3"}]
