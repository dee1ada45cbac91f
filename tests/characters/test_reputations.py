"""Reputations and Wealth on the sheet, the forms and the API, with the four personas:
a reputation is the GM's to change, even its words, stale edits refused, an NPC's
reputations the GM's alone, the cap of D9 shown."""

import json

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from characters.models import Reputation
from characters.services import reputation_create, reputation_update
from rules.btq.characters import DamageState

PERSONAS = ["gm", "player_a", "player_b", "outsider"]


def client_of(request, persona):
    return request.getfixturevalue(f"{persona}_client")


@pytest.fixture
def rep(pc_a, gm):
    return reputation_create(character=pc_a, actor=gm, kind="institution",
                             descriptor="Respected by", subject="the Ward Room", value=1)


@pytest.fixture
def npc_rep(npc, gm):
    return reputation_create(character=npc, actor=gm, kind="personal",
                             descriptor="Secretly owed by", subject="the Admiral", value=3)


@pytest.mark.parametrize("persona,expected", [
    ("gm", 302), ("player_a", 403), ("player_b", 403), ("outsider", 404)])
def test_who_adds_a_reputation_to_a_pc(request, persona, expected, pc_a):
    c = client_of(request, persona)
    url = reverse("characters:reputation_new", args=[pc_a.pk])
    assert c.get(url).status_code == (200 if expected == 302 else expected)
    response = c.post(url, {"kind": "personal", "descriptor": "Admired by",
                            "subject": "Midshipman Manning", "value": 2, "damage_state": 2})
    assert response.status_code == expected
    created = Reputation.objects.filter(character=pc_a).first()
    assert (created is not None) == (expected == 302)
    if created:
        assert created.damage_state == DamageState.MAIMED


@pytest.mark.parametrize("value,message", [
    (0, "greater than or equal to 1"), (-2, "greater than or equal to 1"),
    ("", "This field is required")])
def test_a_reputation_is_worth_at_least_one_card(gm_client, pc_a, value, message):
    response = gm_client.post(
        reverse("characters:reputation_new", args=[pc_a.pk]),
        {"kind": "personal", "descriptor": "Admired by", "subject": "Manning", "value": value})
    assert response.status_code == 200 and message in response.content.decode()
    assert not Reputation.objects.exists()


def test_the_sheet_shows_reputations_wealth_and_the_cap(request, pc_a, player_a, gm):
    reputation_create(character=pc_a, actor=gm, kind="personal", descriptor="Loved by",
                      subject="Lady Pemberton", value=3, damage_state=DamageState.INJURED)
    for persona in ("gm", "player_a", "player_b"):
        html = client_of(request, persona).get(
            reverse("characters:detail", args=[pc_a.pk])).content.decode()
        assert "Loved by Lady Pemberton" in html and "Injured" in html
        assert "counts as 1" in html  # Charm 1 caps a personal reputation of 3 (D9)
        assert 'id="wealth"' in html


def test_an_npc_s_reputations_are_the_gm_s(request, npc, npc_rep):
    for persona in PERSONAS:
        c = client_of(request, persona)
        sheet = c.get(reverse("characters:detail", args=[npc.pk]))
        edit = c.get(reverse("characters:reputation_edit", args=[npc_rep.pk]))
        api = c.get(reverse("api-character-reputations", args=[npc.pk]))
        one = c.get(reverse("api-reputation-detail", args=[npc_rep.pk]))
        if persona == "gm":
            assert "Secretly owed by the Admiral" in sheet.content.decode()
            assert edit.status_code == api.status_code == one.status_code == 200
        else:
            assert "Secretly owed" not in sheet.content.decode()
            assert edit.status_code == api.status_code == one.status_code == 404


def test_a_stale_edit_is_refused_and_nothing_is_lost(gm_client, rep):
    url = reverse("characters:reputation_edit", args=[rep.pk])
    data = {"kind": "institution", "descriptor": "Respected by", "subject": "the Ward Room",
            "value": 2, "damage_state": 0, "version": rep.version}
    assert gm_client.post(url, {**data, "value": 3, "damage_state": 1}).status_code == 302
    response = gm_client.post(url, data)
    assert response.status_code == 200 and "changed by someone else" in response.content.decode()
    rep.refresh_from_db()
    assert rep.value == 3 and rep.damage_state == DamageState.INJURED and rep.version == 2


def test_only_the_gm_removes_a_reputation_with_the_version_they_saw(gm_client, player_a_client,
                                                                    player_b_client, rep):
    url = reverse("characters:reputation_delete", args=[rep.pk])
    assert player_b_client.post(url, {"version": rep.version}).status_code == 403
    assert player_a_client.post(url, {"version": rep.version}).status_code == 403
    gm_client.post(url, {"version": rep.version + 1})
    assert Reputation.objects.filter(pk=rep.pk).exists()
    assert gm_client.post(url, {"version": rep.version}).status_code == 302
    assert not Reputation.objects.filter(pk=rep.pk).exists()


def test_a_reputation_s_words_are_the_gm_s(player_a_client, gm_client, gm, player_a, pc_a,
                                           rep):
    # Its words stay the same when it rises or falls (BtQ): its player may not reword
    # "Respected by" into "Much respected by", on the page, in the API or in the service.
    sheet = player_a_client.get(reverse("characters:detail", args=[pc_a.pk])).content.decode()
    url = reverse("characters:reputation_edit", args=[rep.pk])
    assert "Respected by the Ward Room" in sheet and url not in sheet
    assert url in gm_client.get(reverse("characters:detail", args=[pc_a.pk])).content.decode()
    page = player_a_client.get(url)
    assert page.status_code == 403 and "the GM&#x27;s to change" in page.content.decode()
    posted = player_a_client.post(url, {"version": rep.version, "kind": "institution",
                                        "descriptor": "Much respected by",
                                        "subject": "the Ward Room", "value": 1})
    assert posted.status_code == 403
    api = player_a_client.patch(reverse("api-reputation-detail", args=[rep.pk]),
                                {"version": rep.version, "descriptor": "Much respected by"},
                                content_type="application/json")
    assert api.status_code == 403 and "the GM's to change" in api.json()["detail"]
    with pytest.raises(PermissionDenied):
        reputation_update(reputation=rep, actor=player_a, version=rep.version,
                          subject="the Gun Room")
    rep.refresh_from_db()
    assert (rep.descriptor, rep.subject, rep.version) == ("Respected by", "the Ward Room", 1)
    assert not pc_a.campaign.log_entries.filter(kind="reputation.updated").exists()
    response = gm_client.post(url, {"version": rep.version, "kind": "institution",
                                    "descriptor": "Much respected by",
                                    "subject": "the Ward Room", "value": 1, "damage_state": 0})
    assert response.status_code == 302
    rep.refresh_from_db()
    assert rep.descriptor == "Much respected by"
    entry = pc_a.campaign.log_entries.get(kind="reputation.updated")
    assert "descriptor Respected by -> Much respected by" in entry.text


def test_wealth_and_its_damage_are_the_gm_s(player_a_client, gm_client, pc_a):
    from characters.forms import CharacterForm

    url = reverse("characters:edit", args=[pc_a.pk])
    data = {k: v for k, v in CharacterForm.initial_for(pc_a).items() if v is not None}
    response = player_a_client.post(url, {**data, "wealth": 10, "wealth_state": 3})
    assert response.status_code == 302
    pc_a.refresh_from_db()
    assert pc_a.wealth == 0 and pc_a.wealth_state == DamageState.HEALTHY
    response = gm_client.post(url, {**data, "version": pc_a.version, "wealth": 4})
    assert response.status_code == 302
    pc_a.refresh_from_db()
    data = {k: v for k, v in CharacterForm.initial_for(pc_a).items() if v is not None}
    too_rich = gm_client.post(url, {**data, "wealth": 11})
    assert "less than or equal to 10" in too_rich.content.decode()
    assert gm_client.post(url, {**data, "wealth_state": 1}).status_code == 302
    pc_a.refresh_from_db()
    assert pc_a.wealth == 4 and pc_a.wealth_state == DamageState.INJURED


def api(client, method, url, data=None):
    return getattr(client, method)(url, json.dumps(data or {}), content_type="application/json")


def test_the_api_of_reputations_and_wealth(player_a_client, player_b_client, gm_client,
                                           outsider_client, pc_a, rep):
    sheet = player_b_client.get(reverse("api-character-detail", args=[pc_a.pk])).json()
    assert sheet["wealth"] == 0 and sheet["wealth_state"] == 0
    assert [r["name"] for r in sheet["reputations"]] == ["Respected by the Ward Room"]
    assert sheet["reputations"][0]["cap"] == 1 and sheet["reputations"][0]["over_cap"] is False
    url = reverse("api-character-reputations", args=[pc_a.pk])
    new = {"kind": "personal", "descriptor": "Hated by", "subject": "Captain Jones", "value": 2}
    assert api(outsider_client, "post", url, new).status_code == 404
    assert api(player_b_client, "post", url, new).status_code == 403
    assert api(player_a_client, "post", url, new).status_code == 403
    assert api(gm_client, "post", url, {**new, "value": -1}).status_code == 400
    assert api(gm_client, "post", url, {**new, "kind": "secret"}).status_code == 400
    created = api(gm_client, "post", url, new)
    assert created.status_code == 201 and created.json()["over_cap"] is True
    one = reverse("api-reputation-detail", args=[created.json()["id"]])
    for change in ({"damage_state": 2}, {"value": 5}, {"subject": "Jones"}):
        assert api(player_a_client, "patch", one, {"version": 1, **change}).status_code == 403
    stale = api(gm_client, "patch", one, {"version": 0, "subject": "Jones"})
    assert stale.status_code == 409 and stale.json()["version"] == 1
    assert api(gm_client, "patch", one, {"version": 1, "damage_state": 2}).json()[
        "damage_state"] == 2
    assert api(player_a_client, "delete", one, {"version": 2}).status_code == 403
    assert api(gm_client, "delete", one, {"version": 1}).status_code == 409
    assert api(gm_client, "delete", one, {"version": 2}).status_code == 204
    patch = api(gm_client, "patch", reverse("api-character-detail", args=[pc_a.pk]),
                {"version": pc_a.version, "wealth": 12})
    assert patch.status_code == 400
