"""Traits of limited use counted on the sheet (``characters.services.trait_use``; BtQ L1060,
L1074, L1084; ``rules/btq_characters.md`` A18): Cheat Death! once per session per take,
Jack Tar once per Naval Mission, Jonah once per session and a failed challenge for the Naval
Mission; refused once spent, given back by the next session or Naval Mission. The personas:
the GM, player A (the PC's), player B, an outsider. And how each trait comes into play, on
the sheet."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from campaigns.missions import services as missions
from campaigns.services import StaleVersion
from characters.models import Character
from characters.services import trait_add, trait_use, trait_uses


def session(campaign, gm):
    return missions.session_create(campaign=campaign, actor=gm, title="An evening")


def left(character, key):
    return next(u for u in trait_uses(character) if u["key"] == key)


def use(character, actor, key):
    character.refresh_from_db()
    return trait_use(character=character, actor=actor, trait=key, version=character.version)


@pytest.mark.django_db
def test_cheat_death_x2_gives_two_uses_a_session_then_refuses_and_a_new_session_resets(
        campaign, gm, pc_a, player_a):
    trait_add(character=pc_a, actor=gm, trait="cheat_death", times=2)
    first = session(campaign, gm)
    assert left(pc_a, "cheat_death") == {
        "key": "cheat_death", "name": "Cheat Death!", "per": "session", "uses": 2, "left": 2,
        "period": f"session:{first.pk}", "under_way": True}
    use(pc_a, player_a, "cheat_death")
    use(pc_a, gm, "cheat_death")
    pc_a.refresh_from_db()
    assert left(pc_a, "cheat_death")["left"] == 0
    before = pc_a.version
    with pytest.raises(ValidationError, match="used 2 times per session: it is spent"):
        use(pc_a, player_a, "cheat_death")
    pc_a.refresh_from_db()
    assert pc_a.version == before  # nothing changed
    missions.session_end(session=first, actor=gm, version=first.version)
    session(campaign, gm)
    assert left(pc_a, "cheat_death")["left"] == 2
    assert pc_a.history.filter(changes__has_key="uses of Cheat Death! left").count() == 2
    assert campaign.log_entries.filter(kind="character.trait_used").count() == 2


@pytest.mark.django_db
def test_with_no_session_recorded_a_use_still_counts_until_the_next_session_begins(
        campaign, gm, pc_a, player_a):
    """Every game is played in a session (BtQ L1084 "once per session"; L1490-1493: each
    player always has a current Naval Mission, "their objective for the session"): a use made
    while the GM has no session open in the journal counts, and is given back when the next
    one begins. Not refused: a fight spends Cheat Death! whether or not one is open."""
    trait_add(character=pc_a, actor=gm, trait="cheat_death")
    assert left(pc_a, "cheat_death") | {"period": None} == {
        "key": "cheat_death", "name": "Cheat Death!", "per": "session", "uses": 1, "left": 1,
        "period": None, "under_way": False}
    use(pc_a, player_a, "cheat_death")
    pc_a.refresh_from_db()
    assert left(pc_a, "cheat_death")["left"] == 0
    with pytest.raises(ValidationError, match="used once per session: it is spent"):
        use(pc_a, player_a, "cheat_death")
    entry = campaign.log_entries.get(kind="character.trait_used")
    assert "no session is recorded as under way, so until the next" in entry.text
    played = session(campaign, gm)
    assert left(pc_a, "cheat_death")["left"] == 1
    use(pc_a, player_a, "cheat_death")
    missions.session_end(session=played, actor=gm, version=played.version)
    # after the session ends, another sitting the journal does not record: a fresh use
    assert left(pc_a, "cheat_death") | {"period": None} == {
        "key": "cheat_death", "name": "Cheat Death!", "per": "session", "uses": 1, "left": 1,
        "period": None, "under_way": False}


@pytest.mark.django_db
def test_jack_tar_counts_per_naval_mission(campaign, gm, pc_a, player_a):
    trait_add(character=pc_a, actor=gm, trait="jack_tar")
    session(campaign, gm)
    use(pc_a, player_a, "jack_tar")  # on no Naval Mission recorded: counted all the same
    with pytest.raises(ValidationError, match="once per Naval Mission"):
        use(pc_a, player_a, "jack_tar")
    one, _ = missions.mission_create(campaign=campaign, actor=gm, name="Convoy",
                                     challenges_required=3, characters=[pc_a.pk])
    assert left(pc_a, "jack_tar")["left"] == 1 and left(pc_a, "jack_tar")["under_way"]
    use(pc_a, player_a, "jack_tar")
    with pytest.raises(ValidationError, match="once per Naval Mission"):
        use(pc_a, player_a, "jack_tar")
    missions.mission_fail(mission=one, actor=gm, version=one.version)
    assert left(pc_a, "jack_tar")["left"] == 1  # the time since that mission
    missions.mission_create(campaign=campaign, actor=gm, name="Blockade",
                            challenges_required=3, characters=[pc_a.pk])
    assert left(pc_a, "jack_tar")["left"] == 1


@pytest.mark.django_db
def test_jonah_is_the_gms_to_record_and_costs_the_naval_mission_a_challenge(
        campaign, gm, pc_a, player_a):
    trait_add(character=pc_a, actor=gm, trait="jonah")
    session(campaign, gm)
    mission, _ = missions.mission_create(campaign=campaign, actor=gm, name="Convoy",
                                         challenges_required=3, characters=[pc_a.pk])
    with pytest.raises(PermissionDenied, match="Only the GM records a use of Jonah"):
        use(pc_a, player_a, "jonah")
    use(pc_a, gm, "jonah")
    mission.refresh_from_db()
    assert mission.failed == 1
    with pytest.raises(ValidationError, match="spent"):
        use(pc_a, gm, "jonah")


@pytest.mark.django_db
def test_a_trait_not_taken_not_limited_or_a_stale_version_is_refused(campaign, gm, pc_a):
    trait_add(character=pc_a, actor=gm, trait="swimming")
    session(campaign, gm)
    with pytest.raises(ValidationError, match="has not taken"):
        use(pc_a, gm, "cheat_death")
    with pytest.raises(ValidationError, match="not of limited use"):
        use(pc_a, gm, "swimming")
    trait_add(character=pc_a, actor=gm, trait="naysayer")
    pc_a.refresh_from_db()
    with pytest.raises(StaleVersion):
        trait_use(character=pc_a, actor=gm, trait="naysayer", version=pc_a.version - 1)


@pytest.mark.django_db
def test_the_sheet_page_and_api_by_persona(campaign, gm, pc_a, player_a_client,
                                           player_b_client, outsider_client, gm_client):
    trait_add(character=pc_a, actor=gm, trait="cheat_death")
    trait_add(character=pc_a, actor=gm, trait="duellist")
    session(campaign, gm)
    page = player_a_client.get(reverse("characters:detail", args=[pc_a.pk])).content.decode()
    assert "1 of 1 use left this session" in page and "Use Cheat Death!" in page
    assert "The GM adds +1 when a test or fight involves a pistol." in page
    other = player_b_client.get(reverse("characters:detail", args=[pc_a.pk])).content.decode()
    assert "1 of 1 use left" in other and "Use Cheat Death!" not in other
    pc_a.refresh_from_db()
    url = reverse("api-character-trait-uses", args=[pc_a.pk])
    body = {"trait": "cheat_death", "version": pc_a.version}
    assert player_b_client.post(url, body, content_type="application/json").status_code == 403
    assert outsider_client.post(url, body, content_type="application/json").status_code == 404
    assert outsider_client.get(url).status_code == 404
    answer = player_a_client.post(url, body, content_type="application/json")
    assert answer.status_code == 200 and answer.json()[0]["left"] == 0
    again = gm_client.post(url, {**body, "version": pc_a.version + 1},
                           content_type="application/json")
    assert again.status_code == 400 and "spent" in str(again.json())
    pc_a.refresh_from_db()
    response = player_a_client.post(reverse("characters:trait_use", args=[pc_a.pk]),
                                    {"trait": "cheat_death", "version": pc_a.version},
                                    follow=True)
    assert "spent until the next session" in response.content.decode()
    assert Character.objects.get(pk=pc_a.pk).trait_uses["cheat_death"]["used"] == 1
