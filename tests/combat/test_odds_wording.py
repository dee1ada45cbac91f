"""The odds page's words fit every game it may be of (a tester read "The computer knows both
ships in full" on the odds of a five-ship fight)."""

import pytest
from django.urls import reverse

from combat.odds.services import simulation_create_from_setup
from rules.engine import get_engine

pytestmark = pytest.mark.django_db


def test_the_odds_of_a_fleet_action_do_not_speak_of_both_ships(campaign, gm, gm_client):
    setup = get_engine("viking").scenarios()["fleet_battle"].setup
    assert len(setup["vessels"]) > 2
    simulation = simulation_create_from_setup(campaign=campaign, user=gm, engine="viking",
                                              setup=setup, title="Norsemen v Danes", games=10)
    page = gm_client.get(reverse("combat:odds", args=[simulation.pk])).content.decode()
    assert "both ships" not in page
    assert "knowing everything, what is hidden from the players too" in page
