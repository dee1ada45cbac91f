"""A ship's reputations (BtQ L770-779) and Renowned Name (L2344-2345): the GM's records and
edits, what each persona sees on the ship's page, and the cards a battle's setup gives the
PCs aboard (``rules/btq_characters.md`` A22)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaigns.services import StaleVersion
from rules.btq.characters import DamageState
from ships import reputations
from ships.models import ShipReputation
from ships.services import naval_setup, ship_update

MARKER = "gm-only-marker-5520"


@pytest.fixture
def feared(pc_ship, gm):
    return reputations.ship_reputation_create(
        ship=pc_ship, actor=gm, kind="institution", descriptor="Feared by",
        subject="Smugglers", value=2)


def test_the_gm_records_edits_and_removes_a_ship_reputation(feared, pc_ship, gm, player_a):
    assert feared.label == "Feared by Smugglers +2"
    with pytest.raises(PermissionDenied):
        reputations.ship_reputation_create(ship=pc_ship, actor=player_a, kind="personal",
                                           descriptor="Loved by", subject="Lady Jane")
    with pytest.raises(ValidationError) as bad:
        reputations.ship_reputation_create(ship=pc_ship, actor=gm, kind="personal",
                                           descriptor="", subject="x", value=0)
    assert {"descriptor", "value"} <= set(bad.value.message_dict)
    saved = reputations.ship_reputation_update(reputation=feared, actor=gm, version=1,
                                               damage_state=DamageState.INJURED)
    assert saved.label == "Feared by Smugglers +2 (Injured)" and saved.version == 2
    with pytest.raises(StaleVersion):
        reputations.ship_reputation_update(reputation=feared, actor=gm, version=1, value=5)
    feared.refresh_from_db()
    assert feared.value == 2
    reputations.ship_reputation_delete(reputation=feared, actor=gm, version=2)
    assert not pc_ship.reputations.exists()


def test_renowned_name_gives_its_plus_one_once(feared, pc_ship, gm):
    assert not reputations.renowned_name_due(pc_ship)  # not the ship's trait yet
    with pytest.raises(ValidationError, match="once"):
        reputations.renowned_name_apply(ship=pc_ship, actor=gm, reputation=feared)
    ship_update(ship=pc_ship, actor=gm, version=pc_ship.version,
                traits=["Renowned Name"])
    assert reputations.renowned_name_due(pc_ship)
    raised = reputations.renowned_name_apply(ship=pc_ship, actor=gm, reputation=feared)
    assert raised.value == 3 and raised.renowned
    assert not reputations.renowned_name_due(pc_ship)
    with pytest.raises(ValidationError):
        reputations.renowned_name_apply(ship=pc_ship, actor=gm, kind="institution",
                                        descriptor="Admired by", subject="the Admiralty")


def test_renowned_name_can_make_a_new_reputation_at_plus_one(pc_ship, gm):
    ship_update(ship=pc_ship, actor=gm, version=pc_ship.version,
                traits=["Renowned Name"])
    made = reputations.renowned_name_apply(ship=pc_ship, actor=gm, kind="institution",
                                           descriptor="Admired by", subject="the Admiralty")
    assert (made.label, made.renowned) == ("Admired by the Admiralty +1", True)


def test_the_battle_setup_gives_the_reputation_to_the_pcs_aboard(feared, pc_ship, enemy_ship,
                                                                 gm):
    setup = naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, weather="good_wind",
                        ship_reputation=feared)
    assert {p["name"]: p["ship_reputation"] for p in setup["pcs"]} == {
        "Lieutenant Anne Able": {"id": str(feared.pk), "name": "Feared by Smugglers",
                                 "cards": 2},
        "Midshipman Ben Baker": {"id": str(feared.pk), "name": "Feared by Smugglers", "cards": 2}}
    # Maimed: 3 cards fewer (none left of 2); Dead: refused, it adds nothing
    feared = reputations.ship_reputation_update(reputation=feared, actor=gm, version=1,
                                                value=4, damage_state=DamageState.MAIMED)
    setup = naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, weather="good_wind",
                        ship_reputation=feared)
    assert setup["pcs"][0]["ship_reputation"]["cards"] == 1
    feared = reputations.ship_reputation_update(reputation=feared, actor=gm, version=2,
                                                damage_state=DamageState.DEAD)
    with pytest.raises(ValidationError, match="Dead"):
        naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, weather="good_wind",
                    ship_reputation=feared)


def test_an_enemy_ships_reputation_is_refused_for_the_players(enemy_ship, pc_ship, gm):
    theirs = reputations.ship_reputation_create(
        ship=enemy_ship, actor=gm, kind="institution", descriptor="Hated by",
        subject="the Royal Navy", value=1)
    with pytest.raises(ValidationError, match="players' side"):
        naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, weather="good_wind",
                    ship_reputation=theirs)


def test_the_ship_page_shows_reputations_to_her_crew_and_hides_the_enemys(
        feared, pc_ship, enemy_ship, gm, gm_client, player_a_client, player_b_client):
    reputations.ship_reputation_create(ship=enemy_ship, actor=gm, kind="institution",
                                       descriptor="Hated by", subject=MARKER, value=1)
    crew = player_a_client.get(f"/ships/{pc_ship.pk}/").content.decode()
    assert "Feared by Smugglers +2" in crew and "Add a reputation" not in crew
    for client in (player_a_client, player_b_client):
        page = client.get(f"/ships/{enemy_ship.pk}/").content.decode()
        assert MARKER not in page
        assert MARKER not in client.get(f"/campaigns/{pc_ship.campaign_id}/log/"
                                        ).content.decode()
    assert MARKER in gm_client.get(f"/ships/{enemy_ship.pk}/").content.decode()


def test_the_gm_edits_reputations_on_the_ship_page(feared, pc_ship, gm_client,
                                                   player_a_client):
    page = gm_client.get(f"/ships/{pc_ship.pk}/").content.decode()
    assert "Add a reputation" in page and "Renowned Name" not in page
    added = gm_client.post(f"/ships/{pc_ship.pk}/reputations/", {
        "new-kind": "personal", "new-descriptor": "Sworn enemy of",
        "new-subject": "Black Bill Forsyth", "new-value": 2, "new-damage_state": 0},
        follow=True)
    assert "Sworn enemy of Black Bill Forsyth +2" in added.content.decode()
    bad = gm_client.post(f"/ships/{pc_ship.pk}/reputations/", {
        "new-kind": "personal", "new-descriptor": "", "new-subject": "x", "new-value": 0,
        "new-damage_state": 0}, follow=True)
    assert bad.status_code == 200 and pc_ship.reputations.count() == 2
    edit = {f"rep{feared.pk}-{k}": v for k, v in {
        "kind": "institution", "descriptor": "Feared by", "subject": "Smugglers", "value": 3,
        "damage_state": 1, "version": 1}.items()}
    gm_client.post(f"/ships/{pc_ship.pk}/reputations/{feared.pk}/", edit)
    feared.refresh_from_db()
    assert (feared.value, feared.damage_state) == (3, 1)
    stale = gm_client.post(f"/ships/{pc_ship.pk}/reputations/{feared.pk}/", edit, follow=True)
    assert "reload" in stale.content.decode().lower()
    assert player_a_client.post(f"/ships/{pc_ship.pk}/reputations/{feared.pk}/",
                                edit).status_code == 403
    gm_client.post(f"/ships/{pc_ship.pk}/reputations/{feared.pk}/remove/", {"version": 2})
    assert not ShipReputation.objects.filter(pk=feared.pk).exists()


def test_the_gm_gives_renowned_names_plus_one_on_the_page(pc_ship, gm, gm_client):
    ship_update(ship=pc_ship, actor=gm, version=pc_ship.version,
                traits=["Renowned Name"])
    assert "renowned-name" in gm_client.get(f"/ships/{pc_ship.pk}/").content.decode()
    gm_client.post(f"/ships/{pc_ship.pk}/renowned-name/", {
        "renowned-kind": "institution", "renowned-descriptor": "Admired by",
        "renowned-subject": "the Admiralty"})
    assert pc_ship.reputations.get().label == "Admired by the Admiralty +1"
    assert "renowned-name" not in gm_client.get(f"/ships/{pc_ship.pk}/").content.decode()


def test_ship_reputations_through_the_api(feared, pc_ship, enemy_ship, gm, gm_client,
                                          player_a_client):
    reputations.ship_reputation_create(ship=enemy_ship, actor=gm, kind="institution",
                                       descriptor="Hated by", subject=MARKER, value=1)
    own = player_a_client.get(f"/api/ships/{pc_ship.pk}/").json()
    assert [r["descriptor"] for r in own["reputations"]] == ["Feared by"]
    assert "reputations" not in player_a_client.get(f"/api/ships/{enemy_ship.pk}/").json()
    assert MARKER not in player_a_client.get(
        f"/api/campaigns/{pc_ship.campaign_id}/ships/").content.decode()
    url = f"/api/ships/{pc_ship.pk}/reputations/"
    body = {"kind": "personal", "descriptor": "Sworn enemy of", "subject": "Black Bill",
            "value": 2}
    assert player_a_client.post(url, body, content_type="application/json"
                                ).status_code == 403
    made = gm_client.post(url, body, content_type="application/json")
    assert made.status_code == 201 and made.json()["value"] == 2
    one = f"{url}{feared.pk}/"
    assert gm_client.patch(one, {"value": 0, "version": 1},
                           content_type="application/json").status_code == 400
    assert gm_client.patch(one, {"damage_state": 1, "version": 9},
                           content_type="application/json").status_code == 409
    saved = gm_client.patch(one, {"damage_state": 1, "version": 1},
                            content_type="application/json")
    assert saved.json()["damage_state"] == 1 and saved.json()["version"] == 2
    assert gm_client.delete(one, {"version": 2}, content_type="application/json"
                            ).status_code == 204
    assert gm_client.delete(one, {"version": 2}, content_type="application/json"
                            ).status_code == 404


def test_the_battle_form_and_api_take_the_reputation_that_fits(feared, pc_ship, enemy_ship,
                                                              gm, gm_client):
    from django.urls import reverse

    from combat.models import Encounter

    form = gm_client.get(reverse("combat:new", args=[pc_ship.campaign_id])).content.decode()
    assert "HMS Testament: Feared by Smugglers +2" in form
    response = gm_client.post(reverse("combat:new", args=[pc_ship.campaign_id]), {
        "pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk, "weather": "good_wind",
        "ship_reputation": feared.pk})
    assert response.status_code == 302
    battle = Encounter.objects.get()
    assert {p["ship_reputation"]["cards"] for p in battle.setup["pcs"]} == {2}
    battle.delete()
    url = reverse("api-encounter-list", args=[pc_ship.campaign_id])
    body = {"pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk, "weather": "storm"}
    assert gm_client.post(url, {**body, "ship_reputation": 999999},
                          content_type="application/json").status_code == 400
    made = gm_client.post(url, {**body, "ship_reputation": feared.pk},
                          content_type="application/json")
    assert made.status_code == 201
    assert Encounter.objects.get().setup["pcs"][0]["ship_reputation"]["name"] == (
        "Feared by Smugglers")
