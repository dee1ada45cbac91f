"""The living sheet: traits and what they grant, curios, the history of edits, a stale save,
export and import (``rules/btq_characters.md`` §1, §3, §6.4; ``rules/DECISIONS.md`` D9, D10)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from campaigns.services import StaleVersion
from characters.models import Character, CharacterChange
from characters.selectors import character_export, character_history
from characters.services import (
    character_import,
    character_update,
    item_create,
    item_update,
    reputation_create,
    trait_add,
    trait_remove,
    trait_use,
)

pytestmark = pytest.mark.django_db


def test_tv07_crusty_old_seadog_brings_its_two_reputations(pc_a, gm):
    """TV-07 (BtQ L1111-1115): the two ships O'Toole served on, in his own words."""
    row = trait_add(character=pc_a, actor=gm, trait="crusty_old_seadog", reputations=[
        {"descriptor": "Always Welcome of", "subject": "The Silver Fin"},
        {"descriptor": "Distrusted by", "subject": "the HMS Achilles"}])
    assert str(row) == "Crusty Old Seadog"
    assert sorted((r.kind, r.name, r.value) for r in pc_a.reputations.all()) == [
        ("institution", "Always Welcome of The Silver Fin", 1),
        ("institution", "Distrusted by the HMS Achilles", 1)]
    with pytest.raises(ValidationError, match="may be taken once at most"):
        trait_add(character=pc_a, actor=gm, trait="crusty_old_seadog", reputations=[
            {"descriptor": "Trusted by", "subject": "x"}, {"descriptor": "Trusted by",
                                                           "subject": "y"}])


def test_d10_protege_taken_again_raises_the_same_captain_or_names_another(pc_a, gm):
    trait_add(character=pc_a, actor=gm, trait="protege", parameter="Captain Pellew")
    trait_add(character=pc_a, actor=gm, trait="protege", parameter="Captain Pellew")
    trait_add(character=pc_a, actor=gm, trait="protege", parameter="Admiral Nelson")
    assert {r.name: r.value for r in pc_a.reputations.all()} == {
        "Protégé of Captain Pellew": 2, "Protégé of Admiral Nelson": 1}
    assert pc_a.trait_takes() == {"protege": 3}
    with pytest.raises(ValidationError, match="3 times at most"):
        trait_add(character=pc_a, actor=gm, trait="protege", parameter="Captain Hood")


def test_d9_a_granted_reputation_above_its_cap_is_kept_and_warned_of(pc_a, gm, gm_client):
    """Officer Patron's +3 with Charm 1: stored 3, counts as 1 (D9)."""
    trait_add(character=pc_a, actor=gm, trait="officer_patron", parameter="Sir Arnold Stobbs")
    rep = pc_a.reputations.get()
    assert (rep.value, rep.cap, rep.over_cap) == (3, 1, True)
    page = gm_client.get(reverse("characters:detail", args=[pc_a.pk])).content.decode()
    assert "counts as 1" in page and "Officer Patron (Sir Arnold Stobbs)" in page


def test_lap_of_luxury_adds_wealth_and_a_player_cannot_give_traits(pc_a, gm, player_a):
    trait_add(character=pc_a, actor=gm, trait="lap_of_luxury", parameter="a wealthy wife")
    pc_a.refresh_from_db()
    assert pc_a.wealth == 2
    with pytest.raises(PermissionDenied):
        trait_add(character=pc_a, actor=player_a, trait="swimming")
    with pytest.raises(ValidationError, match="name the why"):
        trait_add(character=pc_a, actor=gm, trait="lap_of_luxury")


def test_at_home_in_the_ward_room_is_for_officers_aboard(pc_a, gm, campaign, player_a):
    from ships.services import posting_set

    posting_set(ship=campaign.ships.get(side="pc"), character=pc_a, station="rating", actor=gm)
    with pytest.raises(ValidationError, match="only by Officers"):
        trait_add(character=pc_a, actor=gm, trait="at_home_in_the_ward_room")


def test_a_curio_and_an_important_item(pc_a, gm, player_a):
    reef = item_create(character=pc_a, actor=gm, kind="curio",
                       name="Reef Map of the West Indies", skill="seamanship",
                       condition="navigating the West Indies")
    assert reef.applies_to == "+1 Seamanship"
    rep = reputation_create(character=pc_a, actor=gm, kind="personal",
                            descriptor="Friend of", subject="Captain Turner", value=2)
    ring = item_create(character=pc_a, actor=gm, kind="priceless_item", name="Turner's ring",
                       reputation=rep.pk)
    assert ring.applies_to == "+2 “Friend of Captain Turner”"
    with pytest.raises(ValidationError, match="choose it"):
        item_create(character=pc_a, actor=gm, kind="curio", name="A compass")
    with pytest.raises(PermissionDenied):
        item_create(character=pc_a, actor=player_a, kind="other", name="A hat")
    with pytest.raises(StaleVersion):
        item_update(item=reef, actor=gm, version=reef.version + 5, name="x")


def test_history_records_who_when_fields_old_and_new(pc_a, gm, player_a):
    character_update(character=pc_a, actor=gm, version=pc_a.version, guts=3,
                     skills={"seamanship": 5}, gm_notes="the GM's own")
    pc_a.refresh_from_db()
    character_update(character=pc_a, actor=player_a, version=pc_a.version,
                     notes="Born in Bristol.")
    gm_view = character_history(gm, pc_a)
    assert [e["actor"] for e in gm_view] == ["player_a", "gm"]
    assert gm_view[0]["changes"] == {"notes": ["", "Born in Bristol."]}
    assert gm_view[1]["changes"] == {"guts": [1, 3], "seamanship": [4, 5],
                                     "gm_notes": ["secret-a", "the GM's own"]}
    assert gm_view[1]["at"] <= gm_view[0]["at"]
    owner_view = character_history(player_a, pc_a)
    assert owner_view[1]["changes"] == {"guts": [1, 3], "seamanship": [4, 5]}


def test_a_gm_notes_only_edit_is_not_in_the_player_s_history(pc_a, gm, player_a, player_b):
    character_update(character=pc_a, actor=gm, version=pc_a.version, gm_notes="hush")
    assert character_history(player_a, pc_a) == []
    assert len(character_history(gm, pc_a)) == 1
    with pytest.raises(PermissionDenied):
        character_history(player_b, pc_a)


def test_a_stale_save_is_refused_with_nothing_lost(pc_a, gm, player_a, player_a_client):
    seen = pc_a.version
    character_update(character=pc_a, actor=gm, version=seen, guts=2)
    with pytest.raises(StaleVersion):
        character_update(character=pc_a, actor=player_a, version=seen, notes="mine")
    response = player_a_client.post(reverse("characters:edit", args=[pc_a.pk]), {
        "version": seen, "name": "Anne Able", "notes": "typed on the phone"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "changed by someone else" in page
    assert "typed on the phone" in page  # the form keeps what was typed
    pc_a.refresh_from_db()
    assert (pc_a.guts, pc_a.notes) == (2, "")
    assert CharacterChange.objects.filter(character=pc_a).count() == 1


def _full_sheet(pc, gm):
    character_update(character=pc, actor=gm, version=pc.version,
                     professions={"Fisherman": 2, "Mapmaker": 1}, wealth=3, health_state=2,
                     notes="O'Toole's notes")
    pc.refresh_from_db()
    character_update(character=pc, actor=gm, version=pc.version, health_state=1)
    pc.refresh_from_db()  # Maimed, now Injured: the Scar card is due once he is Healthy
    trait_add(character=pc, actor=gm, trait="second_language", parameter="French")
    trait_add(character=pc, actor=gm, trait="knife_fighting")
    trait_add(character=pc, actor=gm, trait="crusty_old_seadog", reputations=[
        {"descriptor": "Trusted by", "subject": "The Silver Fin"},
        {"descriptor": "Despised by", "subject": "the HMS Achilles"}])
    rep = reputation_create(character=pc, actor=gm, kind="personal", descriptor="Friend of",
                            subject="Captain Turner", value=2, damage_state=1)
    item_create(character=pc, actor=gm, kind="curio", name="Reef Map", skill="seamanship",
                condition="in the West Indies")
    item_create(character=pc, actor=gm, kind="important_item", name="Letter",
                reputation=rep.pk)
    pc.refresh_from_db()
    return pc


def test_export_then_import_gives_back_the_same_character(pc_a, gm, player_a, campaign):
    pc = _full_sheet(pc_a, gm)
    trait_add(character=pc, actor=gm, trait="cheat_death", times=2)
    pc.refresh_from_db()
    trait_use(character=pc, actor=player_a, trait="cheat_death", version=pc.version)
    pc.refresh_from_db()
    exported = character_export(gm, pc)
    assert exported["version"] == 3 and exported["character"]["scar_due"] is True
    assert exported["character"]["trait_uses"] == {
        "cheat_death": {"period": "after-session:0", "used": 1}}
    assert exported["character"]["trait_uses_left"] == {"cheat_death": 1}
    copy = character_import(campaign=campaign, actor=gm, data=exported, owner=player_a)
    assert copy.pk != pc.pk
    assert character_export(gm, copy) == exported
    assert "gm_notes" not in character_export(player_a, pc)["character"]


def test_a_version_2_export_imports_with_its_values_kept_and_every_use_left(
        pc_a, gm, player_a, campaign):
    pc = _full_sheet(pc_a, gm)
    trait_add(character=pc, actor=gm, trait="cheat_death")
    pc.refresh_from_db()
    old = character_export(gm, pc)
    old["version"] = 2
    del old["character"]["trait_uses"], old["character"]["trait_uses_left"]
    now = character_export(gm, character_import(campaign=campaign, actor=gm, data=old,
                                                owner=player_a))
    assert now["character"] | {"trait_uses": {}} == old["character"] | {
        "trait_uses": {}, "trait_uses_left": {"cheat_death": 1}}


def test_a_version_1_export_imports_with_its_values_kept(campaign, gm, player_b):
    old = {"format": "quarterdeck-character", "version": 1, "character": {
        "name": "Gregory O'Toole", "kind": "pc", "rank": "Master", "seniority": 5, "guts": 4,
        "discipline": 3, "influence": 4, "charm": 3, "skills": {"seamanship": 4,
                                                                "maritime": 4},
        "wealth": 3, "health_state": 0, "wealth_state": 1, "notes": "Crusty Old Seadog",
        "gm_notes": "secret plans",
        "reputations": [{"kind": "personal", "descriptor": "Distrusted by",
                         "subject": "Captain Jones", "value": 1, "damage_state": 0}]}}
    pc = character_import(campaign=campaign, actor=gm, data=old, owner="player_b")
    now = character_export(gm, pc)["character"]
    for key, value in old["character"].items():
        assert now[key] == value, key
    assert (now["traits"], now["items"], now["professions"]) == ([], [], {})


@pytest.mark.parametrize("data, reason", [
    ({"format": "other"}, "Not a character export"),
    ({"format": "quarterdeck-character", "version": 9, "character": {}}, "Schema version 9"),
    ({"format": "quarterdeck-character", "version": 2,
      "character": {"name": "X", "kind": "npc", "guts": 0}}, "the sheet"),
    ({"format": "quarterdeck-character", "version": 2,
      "character": {"name": "X", "kind": "npc", "traits": [{"trait": "crackshot",
                                                             "times": 4}]}}, "trait 1"),
    ({"format": "quarterdeck-character", "version": 3,
      "character": {"name": "X", "kind": "npc", "traits": [{"trait": "jonah"}],
                    "trait_uses": {"jonah": {"period": "session:1", "used": 2}}}},
     "trait_uses jonah"),
    ({"format": "quarterdeck-character", "version": 3,
      "character": {"name": "X", "kind": "npc", "trait_uses": {
          "swimming": {"period": "session:1", "used": 0}}}}, "trait_uses swimming"),
    ({"format": "quarterdeck-character", "version": 3,
      "character": {"name": "X", "kind": "npc", "reputations": [{"bad": 1}]}},
     "reputation 1: descriptor: This field cannot be blank.; subject: This field"),
])
def test_a_bad_import_is_refused_with_nothing_written(campaign, gm, data, reason):
    before = Character.objects.count()
    with pytest.raises(ValidationError, match=reason):
        character_import(campaign=campaign, actor=gm, data=data)
    assert Character.objects.count() == before


def test_trait_remove_keeps_what_it_granted(pc_a, gm):
    row = trait_add(character=pc_a, actor=gm, trait="under_the_lash")
    trait_remove(character_trait=row, actor=gm)
    assert pc_a.trait_takes() == {}
    assert pc_a.reputations.count() == 1


def test_the_api_gives_traits_items_history_export_and_import(
        campaign, pc_a, gm, gm_client, player_a_client, player_b_client):
    api = gm_client.post(reverse("api-character-traits", args=[pc_a.pk]),
                         {"trait": "physician"}, content_type="application/json")
    assert api.status_code == 201 and api.json()["name"] == "Physician"
    refused = player_a_client.post(reverse("api-character-traits", args=[pc_a.pk]),
                                   {"trait": "swimming"}, content_type="application/json")
    assert refused.status_code == 403
    assert gm_client.post(reverse("api-character-traits", args=[pc_a.pk]),
                          {"trait": "physician"},
                          content_type="application/json").status_code == 400
    item = gm_client.post(reverse("api-character-items", args=[pc_a.pk]),
                          {"kind": "curio", "name": "Sextant", "skill": "seamanship"},
                          content_type="application/json")
    assert item.status_code == 201
    sheet = player_a_client.get(reverse("api-character-detail", args=[pc_a.pk])).json()
    assert [t["trait"] for t in sheet["traits"]] == ["physician"]
    assert sheet["items"][0]["applies_to"] == "+1 Seamanship"
    history = player_a_client.get(reverse("api-character-history", args=[pc_a.pk]))
    assert history.status_code == 200 and history.json()
    assert player_b_client.get(reverse("api-character-history",
                                       args=[pc_a.pk])).status_code == 403
    exported = player_a_client.get(reverse("api-character-export", args=[pc_a.pk])).json()
    made = gm_client.post(reverse("api-character-import", args=[campaign.pk]),
                          {"data": exported, "owner": "player_b"},
                          content_type="application/json")
    assert made.status_code == 201 and made.json()["owner"] == "player_b"
    bad = gm_client.post(reverse("api-character-import", args=[campaign.pk]),
                         {"data": {"format": "x"}}, content_type="application/json")
    assert bad.status_code == 400
    assert gm_client.get(reverse("api-traits")).json()[0]["key"] == "educated"
