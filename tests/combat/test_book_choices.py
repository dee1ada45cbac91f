"""Book mode replays the book's decisions as well as its cards: "Resolve the rest" from the
start ends as the book's battle ends (TV-N09), the GM's forms offer the book's choices, and
the plan is set aside as soon as the table leaves it."""

import pytest
from django.urls import reverse

from combat.models import Encounter
from combat.services import encounter_act, encounter_resolve_rest, encounter_start, job_run
from rules.engine import get_engine

pytestmark = pytest.mark.django_db


def _book_battle(client, campaign, hermes, corsair, gm):
    response = client.post(reverse("combat:new", args=[campaign.pk]), {
        "pc_ship": hermes.pk, "enemy_ship": corsair.pk, "weather": "good_wind",
        "start_distance": "", "book_cards": "on"})
    assert response.status_code == 302, response.content.decode()
    encounter = Encounter.objects.get()
    return encounter_start(encounter=encounter, user=gm, expected_version=encounter.version)


def test_resolving_the_book_battle_from_the_start_gives_the_books_result(
        campaign, gm, hermes, corsair, smith, gm_client, player_a_client):
    encounter = _book_battle(gm_client, campaign, hermes, corsair, gm)
    assert {"kind": "repair.action", "choice": f"hull:pc:{smith.pk}"} in \
        encounter.stacked_choices
    job = encounter_resolve_rest(encounter=encounter, user=gm)
    job = job_run(job_id=job.pk)
    assert job.status == "done", job.error
    encounter.refresh_from_db()
    assert encounter.stacked_choices_position == len(encounter.stacked_choices)
    assert not encounter.events.filter(kind__endswith="set_aside").exists()
    assert encounter.outcome["winner"] == "pc"
    assert encounter.outcome["data"]["ships"][str(corsair.pk)]["tracks"] == {
        "hull": "x.|x.|..", "guns": ".|x|x", "crew": "x|x|x", "rigging": ".|.|."}
    corsair.refresh_from_db()
    assert corsair.tracks["crew"] == "x|x|x"


def test_the_gm_is_offered_the_books_choice_and_players_never_see_the_plan(
        campaign, gm, hermes, corsair, gm_client, player_a_client):
    encounter = _book_battle(gm_client, campaign, hermes, corsair, gm)
    engine = get_engine(encounter.engine)
    for choice in ["3", "1", "2", "1", "seamanship"]:
        decision = engine.pending(encounter.state)[0]
        encounter_act(encounter=encounter, user=gm, actor=decision.actor,
                      decision_kind=decision.kind, choice=choice,
                      expected_version=encounter.version)
        encounter.refresh_from_db()
    # How Will You Fight?: the policy would say Routine, the book contests O'Toole.
    decision = engine.pending(encounter.state)[0]
    assert decision.kind == "fight.opposition" and decision.default == "static:3"
    gm_detail = gm_client.get(reverse("api-encounter-detail", args=[encounter.pk])).json()
    assert gm_detail["decisions"][0]["default"] == "contested:seamanship"
    player = player_a_client.get(reverse("api-encounter-detail", args=[encounter.pk])).json()
    assert "contested:seamanship" not in str(player)
    for url in (reverse("combat:detail", args=[encounter.pk]),
                reverse("api-encounter-events", args=[encounter.pk])):
        assert "stacked_choices" not in player_a_client.get(url).content.decode()

    encounter_act(encounter=encounter, user=gm, actor=decision.actor,
                  decision_kind=decision.kind, choice="static:3",
                  expected_version=encounter.version)
    encounter.refresh_from_db()
    assert encounter.stacked_choices_position == len(encounter.stacked_choices)
    set_aside = encounter.events.get(kind="encounter.stacked_choices_set_aside")
    assert set_aside.visible_to == ["gm"]
    page = player_a_client.get(reverse("combat:detail", args=[encounter.pk])).content.decode()
    assert "stacked decisions" not in page


def test_book_mode_is_refused_for_a_damaged_ship(campaign, gm, hermes, corsair, gm_client):
    from ships.services import ship_record_battle

    ship_record_battle(ship=corsair, tracks={**corsair.tracks, "hull": "x.|..|.."},
                       morale=corsair.morale_state, note="an earlier fight")
    page = gm_client.get(reverse("combat:new", args=[campaign.pk])).content.decode()
    assert "Already damaged: Corsair" in page
    response = gm_client.post(reverse("combat:new", args=[campaign.pk]), {
        "pc_ship": hermes.pk, "enemy_ship": corsair.pk, "weather": "good_wind",
        "start_distance": "", "book_cards": "on"})
    assert response.status_code == 200
    assert "Corsair already carries damage" in response.content.decode()
    assert not Encounter.objects.exists()


def test_book_mode_is_refused_for_ships_unlike_the_books(campaign, gm, hermes, corsair,
                                                        gm_client):
    from ships.models import Ship, ShipType
    from ships.services import ship_create

    frigate = ship_create(campaign=campaign, actor=gm, name="La Minerve", guns=36,
                          side=Ship.Side.ENEMY, ship_type=ShipType.objects.get(name="Fifth Rate"),
                          crew={"awareness": 3, "seamanship": 3, "gunnery": 3})
    for enemy in (frigate, corsair):
        if enemy is corsair:  # the book's ships, but the midshipman ashore
            hermes.postings.filter(station="midshipman").delete()
        response = gm_client.post(reverse("combat:new", args=[campaign.pk]), {
            "pc_ship": hermes.pk, "enemy_ship": enemy.pk, "weather": "good_wind",
            "start_distance": "", "book_cards": "on"})
        assert response.status_code == 200
        assert ("The book&#x27;s example is a Brig Sloop against a Cutter, with PCs posted "
                "as Sailing Master, Gunner and Midshipman aboard the Brig Sloop"
                in response.content.decode())
    assert not Encounter.objects.exists()
