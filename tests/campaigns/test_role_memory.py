"""The viewer's role, remembered for one request (``campaigns.middleware``) and forgotten
the moment a service changes a membership, so a request that changes a role sees the new
one."""

import pytest

from campaigns.models import Membership
from campaigns.selectors import membership_role, roles_remembered
from campaigns.services import (
    campaign_create,
    campaign_invite_regenerate,
    campaign_join,
    membership_remove,
    membership_set_role,
)

pytestmark = pytest.mark.django_db


def test_within_a_request_the_role_is_asked_once(campaign, gm, player_a,
                                                django_assert_num_queries):
    with roles_remembered():
        with django_assert_num_queries(2):
            for _ in range(5):
                assert membership_role(gm, campaign) == "gm"
                assert membership_role(player_a, campaign) == "player"


def test_outside_a_request_every_call_asks(campaign, gm, django_assert_num_queries):
    with django_assert_num_queries(3):
        for _ in range(3):
            membership_role(gm, campaign)


def test_a_role_changed_in_the_request_is_seen_at_once(campaign, gm, player_a, player_b,
                                                      outsider):
    a = Membership.objects.get(campaign=campaign, user=player_a)
    with roles_remembered():
        assert membership_role(player_a, campaign) == "player"
        membership_set_role(membership=a, role="gm", actor=gm)
        assert membership_role(player_a, campaign) == "gm"
        membership_set_role(membership=Membership.objects.get(pk=a.pk), role="player",
                            actor=gm)
        assert membership_role(player_a, campaign) == "player"

        assert membership_role(player_b, campaign) == "player"
        membership_remove(membership=Membership.objects.get(campaign=campaign, user=player_b),
                          actor=gm)
        assert membership_role(player_b, campaign) is None

        assert membership_role(outsider, campaign) is None
        token = campaign_invite_regenerate(campaign=campaign, actor=gm)
        campaign_join(token=token, user=outsider)
        assert membership_role(outsider, campaign) == "player"

        other = campaign_create(name="Another Cruise", gm=outsider)
        assert membership_role(outsider, other) == "gm"


def test_a_page_after_a_role_change_in_the_same_request_shows_the_new_role(
    campaign, gm, player_a, player_a_client
):
    # The GM makes player_a a GM: player_a's next request knows it (one request each).
    assert player_a_client.get(f"/campaigns/{campaign.pk}/settings/").status_code == 403
    membership_set_role(membership=Membership.objects.get(campaign=campaign, user=player_a),
                        role="gm", actor=gm)
    assert player_a_client.get(f"/campaigns/{campaign.pk}/settings/").status_code == 200
