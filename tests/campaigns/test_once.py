"""A create form sent twice makes its record once (``campaigns.once``): the same token posted
again shows what the first made; two posts at the same moment, each on its own PostgreSQL
connection, make one record; a refused form may be corrected and sent with its token; a
token that is not the sender's, or not one the site wrote, is refused with the reason."""

import re
from functools import partial

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from campaigns.missions.models import Challenge, Mission, Session, Voyage
from campaigns.models import Campaign
from campaigns.once import FIELD, FormToken
from characters.models import Character, Item, Reputation
from rules.btq.characters import SKILLS
from tests.concurrency import at_once

pytestmark = pytest.mark.django_db


def tokens_of(page) -> list[str]:
    """The one-time tokens of the create forms of a page, in its order."""
    return re.findall(rf'name="{FIELD}" value="([^"]+)"', page.content.decode())


def token_of(page) -> str:
    """The one-time token of the (only) create form of a page."""
    found = tokens_of(page)
    assert len(found) == 1, found
    return found[0]


def mission_data(**changes) -> dict:
    data = {"name": "Capture La Griffon", "kind": "naval", "challenges_required": "2",
            "reward-TOTAL_FORMS": "0", "reward-INITIAL_FORMS": "0",
            "failure-TOTAL_FORMS": "0", "failure-INITIAL_FORMS": "0"}
    data.update(changes)
    return data


def test_the_mission_form_sent_twice_opens_one_mission_and_shows_it(campaign, gm_client):
    url = reverse("missions:new", args=[campaign.pk])
    data = mission_data(**{FIELD: token_of(gm_client.get(url))})
    first = gm_client.post(url, data)
    again = gm_client.post(url, data, follow=True)
    mission = Mission.objects.get()
    assert first.status_code == 302 and first.url == reverse(
        "missions:detail", args=[campaign.pk, mission.pk])
    assert again.redirect_chain == [(first.url, 302)]
    assert "That form was already sent: here is what it made." in again.content.decode()


def test_a_refused_form_keeps_its_token_for_the_corrected_one(campaign, gm_client):
    url = reverse("missions:new", args=[campaign.pk])
    token = token_of(gm_client.get(url))
    refused = gm_client.post(url, mission_data(challenges_required="1", **{FIELD: token}))
    assert refused.status_code == 200 and "at least 2 challenges" in refused.content.decode()
    assert not FormToken.objects.exists() and not Mission.objects.exists()
    made = gm_client.post(url, mission_data(**{FIELD: token}))
    assert made.status_code == 302 and Mission.objects.count() == 1


def test_a_refusal_answered_with_a_redirect_keeps_the_token_too(campaign, gm_client, pc_a):
    """Adding an item refuses with a message and goes back to the sheet: nothing was made,
    so the same token with the item corrected adds it."""
    sheet = reverse("characters:detail", args=[pc_a.pk])
    url = reverse("characters:item_add", args=[pc_a.pk])
    data = {"kind": "curio", "name": "A brass telescope",
            FIELD: tokens_of(gm_client.get(sheet))[0]}
    refused = gm_client.post(url, data, follow=True)
    assert "A curio adds a card to one skill or weapon" in refused.content.decode()
    assert not Item.objects.exists() and not FormToken.objects.exists()
    assert gm_client.post(url, {**data, "skill": "awareness"}).status_code == 302
    assert Item.objects.get().name == "A brass telescope"


def test_a_token_of_someone_else_or_not_written_by_the_site_is_refused(
        campaign, gm_client, player_a_client):
    url = reverse("missions:new", args=[campaign.pk])
    token = token_of(gm_client.get(url))
    assert gm_client.post(url, mission_data(**{FIELD: token})).status_code == 302
    theirs = player_a_client.post(url, mission_data(kind="personal", **{FIELD: token}))
    assert theirs.status_code == 400 and "already sent" in theirs.content.decode()
    forged = gm_client.post(url, mission_data(**{FIELD: "not a token!"}))
    assert forged.status_code == 400 and "not one this site wrote" in forged.content.decode()
    assert Mission.objects.count() == 1


@pytest.fixture
def forms(campaign, pc_a):
    """Each create form of campaigns and characters: (page, posted data, records made)."""
    mission = Mission.objects.create(campaign=campaign, name="Escort the convoy",
                                     challenges_required=2, deadline_failures=2)
    missions = reverse("missions:list", args=[campaign.pk])
    sessions = reverse("missions:sessions", args=[campaign.pk])
    sheet = reverse("characters:detail", args=[pc_a.pk])
    return {
        "challenge": (reverse("missions:challenge_new", args=[campaign.pk]), None,
                      {"missions": [mission.pk], "description": "Outrun the squall",
                       "kind": "test"}, Challenge.objects.all),
        "sample": (missions, reverse("missions:sample", args=[campaign.pk]),
                   {"sample": "scout_soukir_bay"}, lambda: Mission.objects.exclude(
                       pk=mission.pk)),
        "session": (sessions, None, {"session": "1", "title": "The Soukir raid"},
                    Session.objects.all),
        "campaign": (reverse("campaigns:new"), None, {"name": "The Second Cruise"},
                     lambda: Campaign.objects.exclude(pk=campaign.pk)),
        "character": (reverse("characters:new", args=[campaign.pk]), None,
                      {"name": "Tom Tully", "kind": "npc", "seniority": 0, "guts": 2,
                       "discipline": 2, "influence": 1, "charm": 1, "wealth": 0,
                       "health_state": 0,
                       **{f"skill_{key}": 0 for key in SKILLS}},
                      lambda: Character.objects.filter(name="Tom Tully")),
        "reputation": (reverse("characters:reputation_new", args=[pc_a.pk]), None,
                       {"kind": "personal", "descriptor": "Friend of", "subject": "Turner",
                        "value": 1, "damage_state": 0},
                       lambda: Reputation.objects.filter(subject="Turner")),
        "item": (sheet, reverse("characters:item_add", args=[pc_a.pk]),
                 {"kind": "curio", "name": "A brass telescope", "skill": "awareness"},
                 lambda: Item.objects.filter(name="A brass telescope")),
    }


@pytest.mark.parametrize("which", ["challenge", "sample", "session", "campaign", "character",
                                   "reputation", "item"])
def test_every_create_form_sent_twice_makes_one_record(forms, gm_client, which):
    page, action, data, made = forms[which]
    data = {**data, FIELD: tokens_of(gm_client.get(page))[0]}
    first = gm_client.post(action or page, data)
    assert first.status_code == 302
    again = gm_client.post(action or page, data)
    assert (again.status_code, again.url) == (302, first.url)
    assert made().count() == 1


def test_the_voyage_form_sent_twice_begins_one_voyage(campaign, gm_client):
    url = reverse("missions:sessions", args=[campaign.pk])
    tokens = tokens_of(gm_client.get(url))
    assert len(set(tokens)) == 2  # the session's form and the voyage's, each its own
    data = {"voyage": "1", "name": "The West Indies station", "station": "channel",
            "naval_missions_planned": "3", FIELD: tokens[1]}
    assert gm_client.post(url, data).status_code == 302
    assert gm_client.post(url, data).status_code == 302
    assert Voyage.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_posts_of_one_form_at_the_same_moment_open_one_mission(campaign, gm):
    """Two connections post the same token at once: PostgreSQL holds the second insert of
    the token until the first commits, and the second is sent to the first's mission."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL")
    url = reverse("missions:new", args=[campaign.pk])
    clients = [Client(), Client()]
    for client in clients:
        client.force_login(gm)
    data = mission_data(**{FIELD: token_of(clients[0].get(url))})
    answers = at_once(*(partial(client.post, url, data) for client in clients))
    mission = Mission.objects.get()
    shown = reverse("missions:detail", args=[campaign.pk, mission.pk])
    assert [(a.status_code, a.url) for a in answers] == [(302, shown)] * 2


def test_a_purchase_sent_twice_is_bought_once(campaign, gm, pc_a, player_a_client):
    """The shipboard page's Buy: the second post of its form opens no second Wealth test
    and goes to the first one's cards."""
    from characters.services import character_update
    from combat.models import Encounter

    character_update(character=pc_a, actor=gm, version=pc_a.version, wealth=4)
    page = player_a_client.get(reverse("shipboard:character", args=[pc_a.pk]))
    url = reverse("shipboard:act", args=[pc_a.pk, "buy"])
    data = {"buy-item": "officers_dress_uniform", "buy-use_prize": "on",
            FIELD: re.search(rf'id="buy-form".*?name="{FIELD}" value="([^"]+)"',
                             page.content.decode(), re.S).group(1)}
    first = player_a_client.post(url, data)
    again = player_a_client.post(url, data)
    test = Encounter.objects.get()
    assert first.url == again.url == f"/campaigns/{campaign.pk}/tests/{test.pk}/"


def test_a_missions_reward_taken_twice_is_taken_once(campaign, gm, pc_a, player_a_client):
    """The character's missions page: the same reward's form sent twice raises Charm once."""
    from campaigns.missions import services as missions
    from characters.advancement_models import MissionPurchase

    mission, _ = missions.mission_create(
        campaign=campaign, actor=gm, name="Impress the Admiral", kind="personal",
        challenges_required=2, rewards=[{"kind": "measure"}], characters=[pc_a.pk])
    for what in ("the dinner", "the ball"):
        challenge = missions.challenge_create(campaign=campaign, actor=gm, missions=[mission],
                                              description=what)
        missions.challenge_record(challenge=challenge, met=True, actor=gm)
    mission.refresh_from_db()
    missions.mission_complete(mission=mission, actor=gm, version=mission.version)
    url = reverse("characters:missions", args=[pc_a.pk])
    data = {"mission": mission.pk, "side": "reward", "index": 0, "option": "measure:charm",
            FIELD: token_of(player_a_client.get(url))}
    player_a_client.post(url, data)
    again = player_a_client.post(url, data, follow=True).content.decode()
    assert "That form was already sent" in again and "is not due" not in again
    pc_a.refresh_from_db()
    assert pc_a.charm == 2 and MissionPurchase.objects.count() == 1


def test_a_proposed_challenge_sent_again_after_back_is_proposed_once(
        campaign, gm, pc_a, player_a_client):
    """The player's "Propose a challenge", sent, then Back and sent again: one proposal,
    and the second goes to the mission's page, where the first is waiting for the GM."""
    from campaigns.missions import services as missions

    mission, _ = missions.mission_create(
        campaign=campaign, actor=gm, name="Toast the Captain", kind="personal",
        challenges_required=2, characters=[pc_a.pk])
    url = reverse("missions:challenge_new", args=[campaign.pk])
    data = {"missions": [mission.pk], "description": "Toast Jones at the Captain's table",
            "kind": "test",
            FIELD: token_of(player_a_client.get(url, {"mission": mission.pk}))}
    first = player_a_client.post(url, data)
    again = player_a_client.post(url, data, follow=True)
    challenge = Challenge.objects.get()
    assert challenge.status == "proposed"
    assert first.url == reverse("missions:detail", args=[campaign.pk, mission.pk])
    assert again.redirect_chain == [(first.url, 302)]
    assert "That form was already sent: here is what it made." in again.content.decode()


def test_an_error_shown_before_the_form_was_sent_is_not_its_refusal(campaign, gm_client,
                                                                    pc_a):
    """A refusal is an error message the view adds: one the request came with (a refused
    item whose page was not opened yet) leaves the next form's record kept, and is still
    shown after it."""
    sheet = reverse("characters:detail", args=[pc_a.pk])
    url = reverse("characters:item_add", args=[pc_a.pk])
    first, second = (tokens_of(gm_client.get(sheet))[0] for _ in range(2))
    refused = gm_client.post(url, {"kind": "curio", "name": "A telescope", FIELD: first})
    assert refused.status_code == 302 and not Item.objects.exists()
    data = {"kind": "curio", "name": "A brass telescope", "skill": "awareness", FIELD: second}
    made = gm_client.post(url, data)
    assert FormToken.objects.get().shown == made.url
    again = gm_client.post(url, data, follow=True).content.decode()
    assert "A curio adds a card to one skill or weapon" in again
    assert "That form was already sent" in again and Item.objects.count() == 1
