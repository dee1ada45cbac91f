"""The battle log reads as text: pool breakdowns as sums, GM-only details without Python
dicts; every participant sees his own side's public breakdowns, never the GM's."""

import pytest
from django.urls import reverse

from combat.templatetags.events import breakdown_text, gm_details, public_breakdowns

from .conftest import ROUND_1

pytestmark = pytest.mark.django_db


def test_a_breakdown_reads_as_a_sum():
    assert breakdown_text({"seamanship": 3, "handling": 4, "weather": -1}) == \
        "Seamanship 3 + Handling 4 - Weather 1 = 6"
    assert breakdown_text({"first_aid": 2, "broadside": 0}) == "First Aid 2 + Broadside 0 = 2"
    # the book's own words for its terms, as its steps and tracks are named on the page
    assert breakdown_text({"gunnery": 3, "how_will_you_fight": 2, "weather_gage": 2,
                           "ship_morale": -1}) == ("Gunnery 3 + How Will You Fight? 2 "
                                                   "+ Weather Gage 2 - Ship Morale 1 = 6")
    assert breakdown_text({"morale": -2}) == "-Morale 2 = 0"  # never below 0 cards (D2)
    # labels keep their own capitals: "PCs", not "Pcs"
    assert breakdown_text({"command": 2, "PCs who lost": -2, "Ship Morale Injured": -1}) == \
        "Command 2 - PCs who lost 2 - Ship Morale Injured 1 = 0"
    assert breakdown_text({"command": 2, "PCs who won": 2}) == "Command 2 + PCs who won 2 = 4"
    assert breakdown_text({"weather": -1, "handling": 4, "seamanship": 3}) == \
        "Seamanship 3 + Handling 4 - Weather 1 = 6"  # as PostgreSQL's JSON orders them
    assert breakdown_text({}) == ""


def test_a_breakdown_says_when_the_campaigns_floor_turned_a_card():
    """A pool summed to 0 that turned one card under ``personal_pool_floor`` = 1 (D2) says
    so, in the public breakdown and the GM's alike; one that turned what it sums says no
    more."""
    assert breakdown_text({"skullduggery": 3, "Health Maimed": -3}, 1) == \
        "Skullduggery 3 - Health Maimed 3 = 0, at least 1 card"
    assert breakdown_text({"skullduggery": 3, "Health Maimed": -3}, 0) == \
        "Skullduggery 3 - Health Maimed 3 = 0"
    assert breakdown_text({"command": 3}, 3) == "Command 3 = 3"
    data = {"pools": {"a": {"who": "O'Toole", "cards": ["9C"],
                            "breakdown": {"command": 1, "Health Maimed": -3}},
                      "b": {"who": "Jones", "cards": ["2H", "3H"]}}}
    assert public_breakdowns(data) == ["O'Toole: Command 1 - Health Maimed 3 = 0, at least 1 card"]
    assert gm_details({"pools": {"b": {"breakdown": {"command": 2}}}}, data) == [
        "Pools: Jones: pool Command 2 = 2"]


def test_the_log_shows_breakdowns_as_text(book_battle, play, gm_client, player_a_client):
    play(book_battle, ROUND_1)
    url = reverse("combat:detail", args=[book_battle.pk])
    gm_page = gm_client.get(url).content.decode()
    player_page = player_a_client.get(url).content.decode()
    assert "{&#x27;" not in gm_page and "{'" not in gm_page
    assert 'class="gm-data' in gm_page and "GM: " in gm_page
    assert "Seamanship 3 + " in gm_page  # the Corsair's pools, GM only
    assert "Gunnery 4 + " in player_page  # the Hermes' public pools
    assert 'class="gm-data' not in player_page
    assert "Seamanship 3 + " not in player_page


def test_a_new_round_is_not_announced_twice(book_battle, play, gm_client):
    play(book_battle, ROUND_1)
    page = gm_client.get(reverse("combat:detail", args=[book_battle.pk])).content.decode()
    assert "Round 2: the ships are at" in page
    assert "Round 2</small> Round 2:" not in page and "Round 1</small> Round 1:" not in page


def test_the_end_of_the_battle_is_told_once(book_battle, gm):
    from combat.services import encounter_resolve_rest, job_run

    job_run(job_id=encounter_resolve_rest(encounter=book_battle, user=gm).pk)
    book_battle.refresh_from_db()
    summary = book_battle.outcome["summary"]
    texts = list(book_battle.events.values_list("text", flat=True))
    assert sum(summary in text for text in texts) == 1
    assert texts[-1].startswith("The battle is over. The seed is revealed: ")
