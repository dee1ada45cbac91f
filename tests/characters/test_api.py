"""The characters API with the four personas: what each receives, who may change what, 409
on a stale version, 400 with the reason on bad input."""

import pytest
from django.urls import reverse

from characters.services import character_update

GM_ONLY = {"gm_notes"}
SHEET = {"owner", "seniority", "guts", "discipline", "influence", "charm", "skills",
         "health_state", "ship_morale_state", "version"}


def client_of(request, persona):
    return request.getfixturevalue(f"{persona}_client")


def patch(c, character, data):
    return c.patch(reverse("api-character-detail", args=[character.pk]), data,
                   content_type="application/json")


@pytest.mark.parametrize("persona,expected", [
    ("gm", 200), ("player_a", 200), ("player_b", 200), ("outsider", 404),
])
def test_list_is_for_members(request, campaign, persona, expected):
    response = client_of(request, persona).get(
        reverse("api-campaign-characters", args=[campaign.pk]))
    assert response.status_code == expected


@pytest.mark.parametrize("persona", ["player_a", "player_b"])
def test_players_receive_no_gm_notes_and_no_npc_stats(request, campaign, persona):
    data = client_of(request, persona).get(
        reverse("api-campaign-characters", args=[campaign.pk])).json()
    by_name = {c["name"]: c for c in data}
    assert set(by_name["Nemo Nobody"]) == {"id", "campaign", "kind", "name", "rank"}
    assert SHEET <= set(by_name["Anne Able"]) and not GM_ONLY & set(by_name["Anne Able"])
    assert "secret" not in str(data)


def test_the_gm_receives_everything(gm_client, campaign):
    data = gm_client.get(reverse("api-campaign-characters", args=[campaign.pk])).json()
    npc = next(c for c in data if c["kind"] == "npc")
    assert npc["gm_notes"] == "npc-secret" and npc["skills"]["command"] == 5
    assert len(npc["skills"]) == 22


@pytest.mark.parametrize("persona,expected", [
    ("gm", 200), ("player_a", 200), ("player_b", 200), ("outsider", 404),
])
def test_detail_is_for_members(request, pc_a, npc, persona, expected):
    c = client_of(request, persona)
    response = c.get(reverse("api-character-detail", args=[pc_a.pk]))
    assert response.status_code == expected
    npc_data = c.get(reverse("api-character-detail", args=[npc.pk]))
    assert npc_data.status_code == expected
    if expected == 200:
        assert ("gm_notes" in response.json()) == (persona == "gm")
        assert ("skills" in npc_data.json()) == (persona == "gm")


@pytest.mark.parametrize("persona,expected", [
    ("gm", 200), ("player_a", 403), ("player_b", 403), ("outsider", 404),
])
def test_who_edits_a_pcs_skills(request, pc_a, persona, expected):
    response = patch(client_of(request, persona), pc_a,
                     {"version": 1, "skills": {"gunnery": 5}})
    assert response.status_code == expected
    pc_a.refresh_from_db()
    assert pc_a.skill("gunnery") == (5 if expected == 200 else 2)


@pytest.mark.parametrize("persona,expected", [("player_a", 403), ("outsider", 404)])
def test_players_cannot_edit_npcs(request, npc, persona, expected):
    assert patch(client_of(request, persona), npc, {"version": 1, "name": "X"}).status_code \
        == expected


def test_a_player_may_not_change_gm_fields(player_a_client, pc_a):
    response = patch(player_a_client, pc_a, {"version": 1, "gm_notes": "x", "seniority": 9})
    assert response.status_code == 403
    assert "gm_notes" in response.json()["detail"]
    pc_a.refresh_from_db()
    assert pc_a.gm_notes == "secret-a" and pc_a.version == 1


def test_a_partial_edit_leaves_the_rest(gm_client, pc_a):
    response = patch(gm_client, pc_a, {"version": 1, "skills": {"courtesy": 2}})
    data = response.json()
    assert data["skills"]["courtesy"] == 2 and data["skills"]["seamanship"] == 4
    assert data["name"] == "Anne Able" and data["version"] == 2


@pytest.mark.parametrize("data", [{"skills": {"seamanship": 20}}, {"wealth": 10},
                                  {"discipline": 9}])
def test_a_player_may_not_change_the_mechanics_of_their_pc(player_a_client, pc_a, data):
    response = patch(player_a_client, pc_a, {"version": 1, **data})
    assert response.status_code == 403
    assert "Only a GM may change" in response.json()["detail"]
    pc_a.refresh_from_db()
    assert pc_a.version == 1 and pc_a.skill("seamanship") == 4 and pc_a.discipline == 3


def test_a_player_edits_name_and_notes_and_the_log_shows_the_diff(player_a_client, pc_a,
                                                                  campaign):
    response = patch(player_a_client, pc_a, {"version": 1, "name": "Anne Able-Smith",
                                             "notes": "Born in Portsmouth."})
    assert response.status_code == 200 and response.json()["notes"] == "Born in Portsmouth."
    entry = campaign.log_entries.get(kind="character.updated")
    assert "name Anne Able -> Anne Able-Smith" in entry.text and "notes changed" in entry.text
    assert entry.data["changes"]["name"] == ["Anne Able", "Anne Able-Smith"]


def test_a_gm_edit_is_logged_field_by_field(gm_client, pc_a, campaign):
    patch(gm_client, pc_a, {"version": 1, "skills": {"seamanship": 5}, "wealth": 2})
    entry = campaign.log_entries.get(kind="character.updated")
    assert "Seamanship 4 -> 5" in entry.text and "Wealth 0 -> 2" in entry.text
    assert "Gunnery" not in entry.text


def test_a_stale_edit_is_a_409_and_nothing_is_lost(player_a_client, pc_a, gm):
    character_update(character=pc_a, actor=gm, version=1, gm_notes="gm edit")
    response = patch(player_a_client, pc_a, {"version": 1, "name": "Anne Stale"})
    assert response.status_code == 409
    assert "changed by someone else" in response.json()["detail"]
    assert response.json()["version"] == 2
    pc_a.refresh_from_db()
    assert pc_a.name == "Anne Able" and pc_a.gm_notes == "gm edit"


@pytest.mark.parametrize("data,field", [
    ({"skills": {"swimming": 3}}, "skills"),
    ({"skills": {"gunnery": 99}}, "skills"),
    ({"skills": {"gunnery": "lots"}}, "skills"),
    ({"discipline": 0}, "discipline"),
    ({"name": ""}, "name"),
    ({}, None),
])
def test_bad_input_is_a_400_with_the_reason(gm_client, pc_a, data, field):
    payload = {"version": 1, **data} if field else {"skills": {"gunnery": 1}}
    response = patch(gm_client, pc_a, payload)
    assert response.status_code == 400
    assert (field or "version") in response.json()
    pc_a.refresh_from_db()
    assert pc_a.version == 1


def test_the_gm_creates_characters(gm_client, campaign, player_b):
    url = reverse("api-campaign-characters", args=[campaign.pk])
    npc = gm_client.post(url, {"kind": "npc", "name": "Tolani", "guts": 4,
                               "skills": {"maritime": 3}}, content_type="application/json")
    assert npc.status_code == 201 and npc.json()["skills"]["maritime"] == 3
    pc = gm_client.post(url, {"name": "New PC", "owner": "player_b"},
                        content_type="application/json")
    assert pc.status_code == 201 and pc.json()["owner"] == "player_b"
    orphan = gm_client.post(url, {"name": "Orphan"}, content_type="application/json")
    assert orphan.status_code == 400 and "owner" in orphan.json()
    ghost = gm_client.post(url, {"name": "Ghost", "owner": "nobody"},
                           content_type="application/json")
    assert ghost.status_code == 400 and "owner" in ghost.json()


@pytest.mark.parametrize("persona,expected", [("player_a", 403), ("outsider", 404)])
def test_only_gms_create_characters(request, campaign, persona, expected):
    response = client_of(request, persona).post(
        reverse("api-campaign-characters", args=[campaign.pk]),
        {"name": "Sneaky", "owner": "player_a"}, content_type="application/json")
    assert response.status_code == expected
    assert not campaign.characters.filter(name="Sneaky").exists()
