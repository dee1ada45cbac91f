"""The campaigns API with the four personas, and the OpenAPI schema."""

import pytest
from django.urls import reverse

from campaigns.models import Membership
from campaigns.services import campaign_invite_regenerate, log_append
from rules.btq.settings import SETTINGS
from tests.conftest import make_user


def client_of(request, persona):
    return request.getfixturevalue(f"{persona}_client")


def test_the_list_holds_only_the_users_campaigns(request, campaign):
    for persona, names in (("gm", ["The Test Cruise"]), ("player_a", ["The Test Cruise"]),
                           ("outsider", [])):
        data = client_of(request, persona).get(reverse("api-campaign-list")).json()
        assert [c["name"] for c in data] == names


def test_anonymous_requests_are_refused(client, campaign):
    assert client.get(reverse("api-campaign-list")).status_code == 403


def test_creating_a_campaign_makes_the_user_its_gm(outsider_client, outsider):
    response = outsider_client.post(reverse("api-campaign-list"), {"name": "Cruise Two"},
                                    content_type="application/json")
    assert response.status_code == 201
    assert response.json()["role"] == "gm"
    assert Membership.objects.get(user=outsider).role == "gm"


def test_a_campaign_without_a_name_is_a_400(outsider_client):
    response = outsider_client.post(reverse("api-campaign-list"), {"name": ""},
                                    content_type="application/json")
    assert response.status_code == 400 and "name" in response.json()


@pytest.mark.parametrize("persona,expected", [
    ("gm", 200), ("player_a", 200), ("player_b", 200), ("outsider", 404),
])
@pytest.mark.parametrize("name", ["api-campaign-detail", "api-campaign-members",
                                  "api-campaign-log"])
def test_reads_are_for_members(request, campaign, persona, expected, name):
    response = client_of(request, persona).get(reverse(name, args=[campaign.pk]))
    assert response.status_code == expected


def test_detail_gives_role_and_full_settings(player_a_client, campaign):
    data = player_a_client.get(reverse("api-campaign-detail", args=[campaign.pk])).json()
    assert data["role"] == "player" and data["version"] == 1
    assert data["settings"]["repair_lockout"] == "same_round"
    assert set(data["settings"]) == set(SETTINGS)


def test_members_lists_roles(gm_client, campaign):
    data = gm_client.get(reverse("api-campaign-members", args=[campaign.pk])).json()
    assert sorted((m["username"], m["role"]) for m in data) == [
        ("gm", "gm"), ("player_a", "player"), ("player_b", "player")]


@pytest.mark.parametrize("persona,expected", [("player_a", 403), ("outsider", 404)])
def test_only_gms_update(request, campaign, persona, expected):
    response = client_of(request, persona).patch(
        reverse("api-campaign-detail", args=[campaign.pk]), {"version": 1, "name": "X"},
        content_type="application/json")
    assert response.status_code == expected
    campaign.refresh_from_db()
    assert campaign.name == "The Test Cruise"


def test_the_gm_updates_settings_and_a_stale_update_is_a_409(gm_client, campaign):
    url = reverse("api-campaign-detail", args=[campaign.pk])
    response = gm_client.patch(url, {"version": 1, "settings": {"great_hardship": True}},
                               content_type="application/json")
    assert response.status_code == 200
    assert response.json()["settings"]["great_hardship"] is True
    assert response.json()["version"] == 2
    stale = gm_client.patch(url, {"version": 1, "name": "Lost?"},
                            content_type="application/json")
    assert stale.status_code == 409
    assert "changed by someone else" in stale.json()["detail"] and stale.json()["version"] == 2
    campaign.refresh_from_db()
    assert campaign.name == "The Test Cruise" and campaign.settings == {"great_hardship": True}


@pytest.mark.parametrize("overrides", [
    {"repair_lockout": "never"}, {"no_such_setting": 1}, {"great_hardship": 1},
])
def test_bad_settings_are_a_400_with_the_reason(gm_client, campaign, overrides):
    response = gm_client.patch(reverse("api-campaign-detail", args=[campaign.pk]),
                               {"version": 1, "settings": overrides},
                               content_type="application/json")
    assert response.status_code == 400
    assert next(iter(overrides)) in str(response.json())


def test_a_missing_version_is_a_400(gm_client, campaign):
    response = gm_client.patch(reverse("api-campaign-detail", args=[campaign.pk]),
                               {"name": "X"}, content_type="application/json")
    assert response.status_code == 400 and "version" in response.json()


def test_the_log_hides_gm_only_entries_from_players(request, campaign):
    log_append(campaign=campaign, kind="note", text="hidden-plot", gm_only=True)
    for persona in ("gm", "player_a"):
        data = client_of(request, persona).get(
            reverse("api-campaign-log", args=[campaign.pk])).json()
        texts = [e["text"] for e in data]
        assert ("hidden-plot" in texts) == (persona == "gm")
        assert texts[0] == "hidden-plot" if persona == "gm" else True


@pytest.mark.parametrize("persona,expected", [
    ("gm", 200), ("player_a", 403), ("player_b", 403), ("outsider", 404),
])
def test_the_invite_is_the_gms(request, campaign, persona, expected):
    c = client_of(request, persona)
    url = reverse("api-campaign-invite", args=[campaign.pk])
    assert c.get(url).status_code == expected
    assert c.post(url).status_code == (201 if expected == 200 else expected)
    assert c.delete(url).status_code == (204 if expected == 200 else expected)


def test_invite_regenerate_revoke_and_join(gm_client, client, campaign):
    url = reverse("api-campaign-invite", args=[campaign.pk])
    assert gm_client.get(url).json() == {"token": None, "url": None}
    issued = gm_client.post(url).json()
    assert issued["url"].endswith(reverse("campaigns:join", args=[issued["token"]]))
    newcomer = make_user("newcomer")
    client.force_login(newcomer)
    join = reverse("api-invite-join", args=[issued["token"]])
    first = client.post(join)
    assert first.status_code == 201 and first.json()["role"] == "player"
    again = client.post(join)
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    gm_client.delete(url)
    late = make_user("late")
    client.force_login(late)
    assert client.post(join).status_code == 404
    assert not campaign.memberships.filter(user=late).exists()


def test_a_gm_joining_by_link_stays_gm(gm_client, campaign, gm):
    token = campaign_invite_regenerate(campaign=campaign, actor=gm)
    response = gm_client.post(reverse("api-invite-join", args=[token]))
    assert response.status_code == 200 and response.json()["role"] == "gm"


def test_the_schema_generates(gm_client):
    response = gm_client.get(reverse("api-schema"))
    assert response.status_code == 200
    text = response.content.decode()
    for p in ("/api/campaigns/", "/api/campaigns/{id}/invite/", "/api/invites/{token}/join/",
              "/api/characters/{id}/", "/api/ships/{id}/", "/api/ship-types/"):
        assert p in text


def test_our_endpoints_generate_without_errors_or_warnings():
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    import campaigns.api
    import characters.api
    import ships.api

    patterns = [*campaigns.api.urlpatterns, *characters.api.urlpatterns, *ships.api.urlpatterns]
    GENERATOR_STATS.reset()
    with GENERATOR_STATS.silence():
        SchemaGenerator(patterns=patterns).get_schema(request=None, public=True)
    assert GENERATOR_STATS._error_cache == {}
    assert GENERATOR_STATS._warn_cache == {}
