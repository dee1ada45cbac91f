"""Invitation links: the GM issues, regenerates and revokes one; a logged-in user joins with
it as a player (issue 2 item 4)."""

import pytest
from django.urls import reverse

from campaigns.models import Membership
from campaigns.services import campaign_invite_regenerate, campaign_invite_revoke
from tests.conftest import make_user


@pytest.fixture
def token(campaign, gm):
    return campaign_invite_regenerate(campaign=campaign, actor=gm)


def test_gm_issues_a_link_from_the_campaign_page(gm_client, campaign):
    response = gm_client.post(reverse("campaigns:invite", args=[campaign.pk]),
                              {"action": "regenerate"})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.invite_token and len(campaign.invite_token) >= 32
    page = gm_client.get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    assert reverse("campaigns:join", args=[campaign.invite_token]) in page


def test_a_logged_in_user_joins_as_a_player(client, campaign, token):
    newcomer = make_user("newcomer")
    client.force_login(newcomer)
    page = client.get(reverse("campaigns:join", args=[token]))
    assert page.status_code == 200 and "The Test Cruise" in page.content.decode()
    response = client.post(reverse("campaigns:join", args=[token]))
    assert response.url == reverse("campaigns:detail", args=[campaign.pk])
    membership = Membership.objects.get(campaign=campaign, user=newcomer)
    assert membership.role == "player"
    assert campaign.log_entries.filter(kind="member.joined").exists()


def test_an_anonymous_visitor_is_asked_to_log_in_or_sign_up(client, campaign, token):
    html = client.get(reverse("campaigns:join", args=[token])).content.decode()
    assert reverse("login") in html and reverse("campaigns:signup") in html
    assert client.post(reverse("campaigns:join", args=[token])).status_code == 200
    assert campaign.memberships.count() == 3


def test_a_revoked_link_is_refused_with_a_clear_page(client, campaign, token, gm):
    campaign_invite_revoke(campaign=campaign, actor=gm)
    client.force_login(make_user("newcomer"))
    for method in (client.get, client.post):
        response = method(reverse("campaigns:join", args=[token]))
        assert response.status_code == 404
        assert "no longer valid" in response.content.decode()
    assert campaign.memberships.count() == 3


def test_a_regenerated_link_replaces_the_old_one(client, campaign, token, gm):
    new = campaign_invite_regenerate(campaign=campaign, actor=gm)
    assert new != token
    client.force_login(make_user("newcomer"))
    assert client.post(reverse("campaigns:join", args=[token])).status_code == 404
    assert client.post(reverse("campaigns:join", args=[new])).status_code == 302


def test_a_member_who_opens_the_link_stays_as_they_were(gm_client, player_a_client, campaign,
                                                        token, gm):
    for c in (gm_client, player_a_client):
        response = c.post(reverse("campaigns:join", args=[token]), follow=True)
        assert "already a member" in response.content.decode()
    assert Membership.objects.get(campaign=campaign, user=gm).role == "gm"
    assert campaign.memberships.count() == 3


def test_the_gm_revokes_the_link_from_the_page(gm_client, campaign, token):
    gm_client.post(reverse("campaigns:invite", args=[campaign.pk]), {"action": "revoke"})
    campaign.refresh_from_db()
    assert campaign.invite_token is None
    html = gm_client.get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    assert "no live invitation link" in html


@pytest.mark.parametrize("persona,status", [("player_a", 403), ("outsider", 404)])
def test_only_a_gm_manages_the_link(request, campaign, token, persona, status):
    c = request.getfixturevalue(f"{persona}_client")
    for action in ("regenerate", "revoke"):
        response = c.post(reverse("campaigns:invite", args=[campaign.pk]), {"action": action})
        assert response.status_code == status
    campaign.refresh_from_db()
    assert campaign.invite_token == token


def test_players_never_see_the_link(player_a_client, campaign, token):
    html = player_a_client.get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    assert token not in html
