"""The step-through replay is the same for every engine: the book's naval battle played to
its end and a card test both step through, the state after each event rebuilt by the kernel,
and a player's replay shows nothing the GM keeps (DESIGN.md, "Roles and trust")."""

import json

import pytest
from django.urls import reverse

from combat.replay import replay_for
from combat.services import encounter_resolve_rest, job_run

pytestmark = pytest.mark.django_db


def test_the_book_battle_steps_through_with_the_ships_after_each_event(
        book_battle, gm, player_a_client, corsair):
    job_run(job_id=encounter_resolve_rest(encounter=book_battle, user=gm).pk)
    book_battle.refresh_from_db()
    replay = replay_for(book_battle, ["gm"])
    assert replay["matches"] and len(replay["steps"]) == book_battle.events.count()
    def distance(view):  # the one pair of the book's battle
        return next(iter(view["pairs"].values()))["distance"] if view.get("pairs") else None

    (pair,) = book_battle.state["pairs"].values()
    distances = [distance(s["view"]) for s in replay["steps"]]
    assert distances[0] is None and distances[-1] == pair["distance"]
    url = reverse("combat:replay", args=[book_battle.pk])
    middle = player_a_client.get(url, {"step": 20}).content.decode()
    assert 'href="?step=19"' in middle and 'href="?step=21"' in middle
    assert "smugglers" not in middle and 'class="gm-data' not in middle
    exported = player_a_client.get(reverse("combat:replay_json", args=[book_battle.pk]))
    text = exported.content.decode()
    assert exported["Content-Disposition"].startswith("attachment")
    assert '"gm_data"' not in text and "smugglers" not in text
    steps = json.loads(text)["steps"]
    (enemy,) = book_battle.state["sides"]["enemy"]
    assert all("crew" not in s["view"]["ships"][enemy] and "morale" not in
               s["view"]["ships"][enemy] for s in steps if s["view"].get("ships"))
    assert distance(steps[-1]["view"]) == pair["distance"]


def test_a_card_test_steps_through_for_its_player(race, turn, player_a, player_a_client,
                                                  outsider_client):
    test = race()
    turn(test, player_a, "4S  4C KD KS QH JH 2C  4H AH 2D 7S")
    test.refresh_from_db()
    page = player_a_client.get(reverse("combat:replay", args=[test.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "test.result" in text and 'class="gm-data' not in text
    data = json.loads(player_a_client.get(reverse("combat:replay_json", args=[test.pk])).content)
    assert data["matches"] and data["steps"][-1]["view"]["phase"] == "done"
    assert outsider_client.get(reverse("combat:replay", args=[test.pk])).status_code == 404


def test_an_unknown_or_huge_id_is_a_404(player_a_client):
    for pk in (999999, 2**63 + 5):
        assert player_a_client.get(f"/combat/{pk}/replay/").status_code == 404
        assert player_a_client.get(f"/combat/{pk}/replay.json").status_code == 404
