"""Missions, challenges, voyages and sessions through the services, pages and API
(``campaigns.missions``; ``rules/btq_missions.md`` §2, §3, §12): who may do what, the rules
of §3.6 as form errors and 400s, the lifecycle, proposals, the book's missions, the initial
missions of every character, and the journal."""

import html

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from campaigns.missions import services
from campaigns.missions.models import ChallengeResult, Mission
from campaigns.services import StaleVersion

pytestmark = pytest.mark.django_db


def gordon(campaign, gm, *characters, **changes):
    """The book's Deliver Admiral Gordon to Gibraltar (BtQ L1456-1457) opened by the GM."""
    values = {
        "name": "Deliver Admiral Gordon to Gibraltar", "challenges_required": 4,
        "deadline_narrative": "Before the French fleet sorties from Toulon",
        "rewards": [{"kind": "reputation", "target": "institution:Noted by:the Admiralty"},
                    {"kind": "reputation", "target": "personal:Impressed:Admiral Gordon"}],
        "failures": [{"kind": "maimed", "target": "reputation:Admiralty"}],
        "characters": [c.pk for c in characters],
    }
    values.update(changes)
    mission, _ = services.mission_create(campaign=campaign, actor=gm, **values)
    return mission


def test_a_gm_opens_a_mission_with_its_six_parts(campaign, gm, pc_a, pc_b):
    mission = gordon(campaign, gm, pc_a, pc_b)
    assert mission.status == Mission.Status.ACTIVE
    assert mission.deadline_failures == 4  # by default as many as its challenges (L1455)
    assert sorted(mission.cast.values_list("character_id", flat=True)) == [pc_a.pk, pc_b.pk]
    entry = campaign.log_entries.get(kind="mission.opened")
    assert (entry.record_kind, entry.record_id, entry.gm_only) == ("mission", mission.pk, False)


@pytest.mark.parametrize("changes, field, words", [
    ({"challenges_required": 1}, "challenges_required", "at least 2 challenges"),
    ({"deadline_failures": 0}, "deadline_failures", "at least 1"),
    ({"rewards": [{"kind": "wealth"}, {"kind": "skill"}]}, "rewards",
     "costs 6 points, but a mission of 4 challenges may spend at most 4"),
    ({"failures": [{"kind": "dead", "target": "health"}]}, "failures", "costs 8 points"),
    ({"rewards": [{"kind": "luck"}]}, "rewards", "not on the reward table"),
    ({"name": " "}, "name", "needs a name"),
])
def test_the_rules_of_3_6_are_refused_by_field_in_plain_words(campaign, gm, changes, field,
                                                              words):
    with pytest.raises(ValidationError) as refused:
        gordon(campaign, gm, **changes)
    assert words in " ".join(refused.value.message_dict[field])
    assert not Mission.objects.exists()


def test_a_deadline_above_the_challenges_is_a_warning_only(campaign, gm):
    mission, warnings = services.mission_create(campaign=campaign, actor=gm, name="Long",
                                                challenges_required=2, deadline_failures=3)
    assert mission.pk and "more than the 2 challenges" in warnings[0]


def test_a_player_proposes_for_his_own_character_and_the_gm_approves(
        campaign, gm, player_a, pc_a, pc_b):
    with pytest.raises(ValidationError, match="his own characters"):
        services.mission_create(campaign=campaign, actor=player_a, name="Mine",
                                challenges_required=2, characters=[pc_b.pk])
    with pytest.raises(PermissionDenied):
        services.mission_create(campaign=campaign, actor=player_a, name="Mine",
                                challenges_required=2, hidden=True)
    mission, _ = services.mission_create(
        campaign=campaign, actor=player_a, name="Impress and Seduce Lady Sophia",
        kind="personal", challenges_required=2, characters=[pc_a.pk],
        rewards=[{"kind": "reputation", "target": "personal:Loved by:Lady Sophia"}])
    assert mission.status == Mission.Status.PROPOSED and mission.proposed_by == player_a
    with pytest.raises(PermissionDenied):
        services.mission_approve(mission=mission, actor=player_a, version=mission.version)
    with pytest.raises(StaleVersion):
        services.mission_approve(mission=mission, actor=gm, version=mission.version - 1)
    mission = services.mission_approve(mission=mission, actor=gm, version=mission.version)
    assert mission.status == Mission.Status.ACTIVE


def test_challenges_move_the_counters_until_the_gm_confirms(campaign, gm, pc_a):
    """missions TV-01 through the records: Gordon met after 4 successes, 3 failures."""
    mission = gordon(campaign, gm, pc_a)
    for met in (True, False, True, False, True, False, True):
        challenge = services.challenge_create(campaign=campaign, actor=gm, missions=[mission],
                                              description="a step")
        services.challenge_record(challenge=challenge, met=met, actor=gm)
    mission.refresh_from_db()
    assert (mission.successes, mission.failed, mission.status) == (4, 3, "requirement_met")
    with pytest.raises(ValidationError, match="under way"):
        services.challenge_create(campaign=campaign, actor=gm, missions=[mission],
                                  description="one more")
    mission = services.mission_complete(mission=mission, actor=gm, version=mission.version)
    assert mission.status == Mission.Status.COMPLETED and mission.ended_at
    kinds = list(campaign.log_entries.values_list("kind", flat=True))
    assert kinds.count("challenge.met") == 4 and kinds.count("challenge.failed") == 3
    assert "mission.requirement_met" in kinds and "mission.completed" in kinds


def test_one_challenge_counts_for_several_missions_and_once(campaign, gm, pc_a):
    """BtQ L3362-3367: a challenge marked off against every mission it applies to."""
    first, second = gordon(campaign, gm, pc_a), gordon(campaign, gm, pc_a, name="Another")
    challenge = services.challenge_create(campaign=campaign, actor=gm,
                                          missions=[first, second], description="storm")
    assert services.challenge_record(challenge=challenge, met=False, actor=gm) is not None
    assert services.challenge_record(challenge=challenge, met=True, actor=gm) is None
    for mission in (first, second):
        mission.refresh_from_db()
        assert (mission.successes, mission.failed) == (0, 1)
    assert ChallengeResult.objects.count() == 1


def test_a_failed_challenge_is_replaced_until_the_deadline(campaign, gm, pc_a):
    """D14 and missions TV-03: Scout Soukir Bay fails at its second failed challenge."""
    mission = services.mission_load_sample(campaign=campaign, actor=gm, key="scout_soukir_bay",
                                           characters=[pc_a.pk])
    assert (mission.challenges_required, mission.deadline_failures) == (4, 2)
    for _ in range(2):
        challenge = services.challenge_create(campaign=campaign, actor=gm, missions=[mission],
                                              description="scouting")
        services.challenge_record(challenge=challenge, met=False, actor=gm)
        mission.refresh_from_db()
    assert mission.status == Mission.Status.FAILED
    assert campaign.log_entries.filter(kind="mission.failed").exists()


def test_abandoning_and_the_narrative_deadline(campaign, gm, player_a, player_b, pc_a, pc_b):
    """The characters abandon a mission (BtQ L1484): a Naval Mission is the table's, so only
    the GM abandons it; a player abandons his own Mission of Personal Importance, not
    another's nor one shared with another player's character."""
    naval = gordon(campaign, gm, pc_a)
    for player in (player_a, player_b):
        with pytest.raises(PermissionDenied, match="Only a GM abandons a mission the table"):
            services.mission_fail(mission=naval, actor=player, version=naval.version,
                                  abandoned=True)
    mine = gordon(campaign, gm, pc_a, name="Win Lady Sophia", kind="personal")
    shared = gordon(campaign, gm, pc_a, pc_b, name="Both of us", kind="personal")
    for player, mission in ((player_b, mine), (player_a, shared)):
        with pytest.raises(PermissionDenied, match="Only the player of the character on it"):
            services.mission_fail(mission=mission, actor=player, version=mission.version,
                                  abandoned=True)
    with pytest.raises(PermissionDenied, match="Only a GM says"):
        services.mission_fail(mission=mine, actor=player_a, version=mine.version)
    mine = services.mission_fail(mission=mine, actor=player_a, version=mine.version,
                                 abandoned=True)
    assert mine.status == Mission.Status.ABANDONED
    naval = services.mission_fail(mission=naval, actor=gm, version=naval.version,
                                  abandoned=True)
    assert naval.status == Mission.Status.ABANDONED
    other = gordon(campaign, gm, pc_a, name="Too late")
    other = services.mission_fail(mission=other, actor=gm, version=other.version,
                                  reason="the French sortied")
    assert other.status == Mission.Status.FAILED
    with pytest.raises(ValidationError, match="already"):
        services.mission_fail(mission=other, actor=gm, version=other.version)


def test_abandon_is_offered_only_where_the_server_takes_it(campaign, gm, pc_a, gm_client,
                                                          player_a_client, player_b_client):
    """A player sees no "Abandon" on a Naval Mission, and asking for it directly is refused
    with the reason; on his own Mission of Personal Importance he is offered it and it is
    taken; the GM is offered it on both."""
    naval = gordon(campaign, gm, pc_a)
    mine = gordon(campaign, gm, pc_a, name="Win Lady Sophia", kind="personal")

    def page(client, mission):
        return client.get(reverse("missions:detail", args=[campaign.pk, mission.pk])
                          ).content.decode()

    step = reverse("missions:step", args=[campaign.pk, naval.pk, "abandon"])
    assert step not in page(player_a_client, naval)
    for method in (player_a_client.get, player_a_client.post):
        refused = method(step, {"version": naval.version})
        assert refused.status_code == 403
        assert "Only a GM abandons a mission the table shares." in refused.content.decode()
    assert step in page(gm_client, naval)
    mine_step = reverse("missions:step", args=[campaign.pk, mine.pk, "abandon"])
    assert mine_step in page(player_a_client, mine)
    assert mine_step not in page(player_b_client, mine)
    assert player_b_client.post(mine_step, {"version": mine.version}).status_code == 403
    fail = reverse("missions:step", args=[campaign.pk, mine.pk, "fail"])
    assert player_a_client.get(fail).status_code == 403
    assert player_a_client.post(mine_step, {"version": mine.version}).status_code == 302
    naval.refresh_from_db()
    mine.refresh_from_db()
    assert (naval.status, mine.status) == (Mission.Status.ACTIVE, Mission.Status.ABANDONED)


def test_every_book_mission_loads(campaign, gm, pc_a):
    from rules.btq.missions import sample_missions

    for key in sample_missions():
        mission = services.mission_load_sample(campaign=campaign, actor=gm, key=key,
                                               characters=[pc_a.pk])
        assert mission.template == key
    with pytest.raises(ValidationError):
        services.mission_load_sample(campaign=campaign, actor=gm, key="nope")


def test_each_character_starts_with_a_naval_and_a_personal_mission(
        campaign, gm, pc_a, pc_b, gm_client, player_a_client):
    from campaigns.missions.selectors import missing_initial_missions

    missing = {row["character"].id: row["missing"] for row in missing_initial_missions(campaign)}
    assert missing == {pc_a.pk: ["Naval Mission", "Mission of Personal Importance"],
                       pc_b.pk: ["Naval Mission", "Mission of Personal Importance"]}
    gordon(campaign, gm, pc_a, pc_b)
    missing = {row["character"].id: row["missing"] for row in missing_initial_missions(campaign)}
    assert missing == {pc_a.pk: ["Mission of Personal Importance"],
                       pc_b.pk: ["Mission of Personal Importance"]}
    page = player_a_client.get(reverse("missions:list", args=[campaign.pk])).content.decode()
    assert "Anne Able has no Mission of Personal Importance: <a" in page
    assert "Ben Baker has no Mission of Personal Importance.</li>" in page  # not hers
    dashboard = gm_client.get(reverse("missions:dashboard", args=[campaign.pk]))
    assert "Ben Baker" in dashboard.content.decode()


def test_the_mission_form_shows_each_error_by_its_field(campaign, gm_client):
    url = reverse("missions:new", args=[campaign.pk])
    data = {"name": "Too rich", "kind": "naval", "challenges_required": "2",
            "reward-TOTAL_FORMS": "1", "reward-INITIAL_FORMS": "0",
            "reward-0-kind": "wealth", "reward-0-amount": "1", "reward-0-scope": "all",
            "failure-TOTAL_FORMS": "0", "failure-INITIAL_FORMS": "0"}
    response = gm_client.post(url, data)
    assert response.status_code == 200
    assert "The reward costs 4 points, but a mission of 2 challenges may spend at most 2" in \
        response.content.decode()
    assert not Mission.objects.exists()
    data["reward-0-kind"] = "skill"
    response = gm_client.post(url, data)
    mission = Mission.objects.get()
    assert response.status_code == 302 and mission.rewards[0]["kind"] == "skill"


def test_a_skill_reward_is_named_in_any_case_and_shown_as_the_book_writes_it(
        campaign, gm_client):
    url = reverse("missions:new", args=[campaign.pk])
    data = {"name": "Train the gun crews", "kind": "naval", "challenges_required": "2",
            "reward-TOTAL_FORMS": "1", "reward-INITIAL_FORMS": "0",
            "reward-0-kind": "skill", "reward-0-amount": "1", "reward-0-scope": "all",
            "reward-0-target": "Gunnery",
            "failure-TOTAL_FORMS": "0", "failure-INITIAL_FORMS": "0"}
    page = gm_client.post(url, data, follow=True).content.decode()
    mission = Mission.objects.get()
    assert mission.rewards[0]["target"] == "gunnery"
    assert "Gunnery +1" in page and "gunnery" not in page.split("<main")[-1].lower().replace(
        "gunnery +1", "")


def test_the_mission_page_reads_its_targets_in_words(campaign, gm, gm_client, pc_a):
    mission = gordon(campaign, gm, pc_a, rewards=[
        {"kind": "reputation", "target": "institution:Feared by:Smugglers"}],
        failures=[{"kind": "injured", "target": "ship_morale"}])
    page = gm_client.get(reverse("missions:detail", args=[campaign.pk, mission.pk]))
    page = page.content.decode()
    assert "Institution: Feared by Smugglers +1" in page and "Ship Morale Injured" in page
    assert "institution:" not in page and "ship_morale" not in page and "INJURED" not in page


def test_the_mission_form_says_every_error_at_once(campaign, gm_client):
    """An over-budget failure with a wound bought five times, and an over-budget reward with
    a target that names nothing: all four errors on the first answer."""
    data = {"name": "Too much", "kind": "naval", "challenges_required": "3",
            "reward-TOTAL_FORMS": "2", "reward-INITIAL_FORMS": "0",
            "reward-0-kind": "wealth", "reward-0-amount": "1", "reward-0-scope": "all",
            "reward-1-kind": "skill", "reward-1-amount": "1", "reward-1-scope": "all",
            "reward-1-target": "Gunnary",
            "failure-TOTAL_FORMS": "1", "failure-INITIAL_FORMS": "0",
            "failure-0-kind": "injured", "failure-0-amount": "5", "failure-0-scope": "all",
            "failure-0-target": "health"}
    page = gm_client.post(reverse("missions:new", args=[campaign.pk]), data)
    page = page.content.decode()
    assert "is not a skill" in page and "The reward costs 6 points" in page
    assert "its amount is 1" in page and "The failure costs 5 points" in page
    assert "cost costs" not in page and not Mission.objects.exists()


def test_a_challenge_called_from_a_missions_page_returns_to_it(campaign, gm, gm_client, pc_a):
    first, second = gordon(campaign, gm, pc_a), gordon(campaign, gm, pc_a, name="Another")
    url = reverse("missions:challenge_new", args=[campaign.pk]) + f"?mission={second.pk}"
    form = gm_client.get(url).content.decode()
    token = form.split('name="once_token" value="')[1].split('"')[0]
    response = gm_client.post(url, {"missions": [first.pk, second.pk], "kind": "test",
                                    "description": "Storm", "once_token": token})
    assert response.status_code == 302
    assert response.url == reverse("missions:detail", args=[campaign.pk, second.pk])


def test_a_player_sees_his_own_proposal_in_the_journal(campaign, gm, player_a, player_b,
                                                       player_a_client, player_b_client,
                                                       pc_a, pc_b):
    for actor, pc, name in ((player_a, pc_a, "Seduce Lady Sophia"),
                            (player_b, pc_b, "Duel the Purser")):
        services.mission_create(campaign=campaign, actor=actor, name=name, kind="personal",
                                challenges_required=2, characters=[pc.pk])
    url = reverse("campaigns:log", args=[campaign.pk])
    mine = player_a_client.get(url).content.decode()
    assert "proposed the mission “Seduce Lady Sophia”" in mine and "Duel the Purser" not in mine
    theirs = player_b_client.get(url).content.decode()
    assert "Duel the Purser" in theirs and "Lady Sophia" not in theirs


def test_the_api_creates_refuses_and_shows_by_role(campaign, gm_client, player_a_client,
                                                   outsider_client, pc_a):
    url = reverse("api-mission-list", args=[campaign.pk])
    bad = gm_client.post(url, {"name": "x", "challenges_required": 1},
                         content_type="application/json")
    assert bad.status_code == 400 and "at least 2" in str(bad.json())
    made = gm_client.post(url, {"name": "Capture La Griffon", "challenges_required": 2,
                                "characters": [pc_a.pk], "gm_notes": "GRIFFON-SECRET"},
                          content_type="application/json")
    assert made.status_code == 201 and made.json()["gm_notes"] == "GRIFFON-SECRET"
    seen = player_a_client.get(url).json()
    assert [m["name"] for m in seen] == ["Capture La Griffon"] and "gm_notes" not in seen[0]
    assert outsider_client.get(url).status_code == 404
    mission_id = made.json()["id"]
    stale = gm_client.post(reverse("api-mission-complete", args=[campaign.pk, mission_id]),
                           {"version": 0}, content_type="application/json")
    assert stale.status_code == 409
    refused = gm_client.post(reverse("api-mission-complete", args=[campaign.pk, mission_id]),
                             {"version": made.json()["version"]},
                             content_type="application/json")
    assert refused.status_code == 400 and "all met" in str(refused.json())
    challenge = gm_client.post(reverse("api-challenge-list", args=[campaign.pk]),
                               {"missions": [mission_id], "description": "board her"},
                               content_type="application/json")
    assert challenge.status_code == 201
    result_url = reverse("api-challenge-result", args=[campaign.pk, challenge.json()["id"]])
    first = gm_client.post(result_url, {"met": True}, content_type="application/json")
    again = gm_client.post(result_url, {"met": False}, content_type="application/json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["result"]["met"] is True
    assert player_a_client.post(result_url, {"met": False},
                                content_type="application/json").status_code == 403


def test_voyages_and_sessions(campaign, gm, player_a, player_b, gm_client, pc_a, pc_b):
    with pytest.raises(ValidationError, match="3 to 6"):
        services.voyage_create(campaign=campaign, actor=gm, name="Short", naval_missions_planned=2)
    voyage = services.voyage_create(campaign=campaign, actor=gm, name="The Mediterranean cruise",
                                    station="mediterranean", naval_missions_planned=4)
    session = services.session_create(campaign=campaign, actor=gm, title="The storm",
                                      attendance=[player_a.pk, player_b.pk], voyage=voyage)
    gordon(campaign, gm)
    entry = campaign.log_entries.get(kind="mission.opened")
    assert entry.session == session  # written while the session is being played
    response = gm_client.post(reverse("missions:session_end", args=[campaign.pk, session.pk]),
                              {"version": session.version, "denouement": "Three cheers"})
    assert response.status_code == 302 and "after_session=1" in response["Location"]
    page = gm_client.get(response["Location"]).content.decode()
    assert "does any player want a new mission" in page
    session.refresh_from_db()
    assert session.ended_at is not None and session.denouement == "Three cheers"
    voyage = services.voyage_recall(voyage=voyage, actor=gm, version=voyage.version)
    assert voyage.status == "recalled"
    # Promotion counts Voyages (BtQ L2158-2198): the end of one counts for every PC.
    from characters.shipboard import career_of
    assert [career_of(pc).voyages_completed for pc in (pc_a, pc_b)] == [1, 1]
    journal = gm_client.get(reverse("campaigns:log", args=[campaign.pk]),
                            {"session": session.pk}).content.decode()
    assert "Deliver Admiral Gordon" in journal and "recalled to Britain" not in journal


def test_the_dashboard_shows_what_waits_for_the_gm(campaign, gm, player_a, pc_a, pc_b,
                                                   gm_client):
    from combat.card_tests.services import card_test_propose

    mission, _ = services.mission_create(campaign=campaign, actor=player_a,
                                         name="Win the regatta", kind="personal",
                                         challenges_required=2, characters=[pc_a.pk])
    card_test_propose(campaign=campaign, actor=player_a, character=pc_a.pk, skill="wealth",
                      opposition="difficulty", difficulty="easy", intent="Buy a round")
    page = gm_client.get(reverse("missions:dashboard", args=[campaign.pk])).content.decode()
    assert "A proposed mission to approve" in page and "Win the regatta" in page
    assert 'id="awaiting-me"' in page  # the proposed test
    assert f'id="dashboard-character-{pc_a.pk}"' in page and "Wealth 0" in page


def test_a_stale_edit_is_refused_with_nothing_lost(campaign, gm, gm_client, pc_a):
    mission = gordon(campaign, gm, pc_a)
    url = reverse("missions:edit", args=[campaign.pk, mission.pk])
    services.mission_update(mission=mission, actor=gm, version=mission.version,
                            gm_notes="changed elsewhere")
    response = gm_client.post(url, {
        "version": mission.version, "name": "My new name", "kind": "naval",
        "challenges_required": "4", "deadline_failures": "4",
        "reward-TOTAL_FORMS": "0", "reward-INITIAL_FORMS": "0",
        "failure-TOTAL_FORMS": "0", "failure-INITIAL_FORMS": "0"})
    assert response.status_code == 200
    body = response.content.decode()
    assert "was changed by someone else" in body and 'value="My new name"' in body
    mission.refresh_from_db()
    assert mission.name == "Deliver Admiral Gordon to Gibraltar"
    assert mission.gm_notes == "changed elsewhere"


def test_jonah_costs_the_naval_mission_a_challenge(campaign, gm, player_a, pc_a):
    """BtQ L1081-1082: Jonah used, the current Naval Mission counts one lost challenge."""
    naval = gordon(campaign, gm, pc_a)
    personal, _ = services.mission_create(campaign=campaign, actor=gm, name="Mine",
                                          kind="personal", challenges_required=2,
                                          characters=[pc_a.pk])
    with pytest.raises(PermissionDenied):
        services.mission_jonah(campaign=campaign, character_id=pc_a.pk, actor=player_a)
    assert services.mission_jonah(campaign=campaign, character_id=pc_a.pk,
                                  actor=gm) == [naval]
    naval.refresh_from_db()
    personal.refresh_from_db()
    assert (naval.failed, personal.failed) == (1, 0)
    assert "Jonah" in campaign.log_entries.get(kind="challenge.failed").text


def test_the_scar_rule_reduces_a_deadline_and_may_fail_the_mission(campaign, gm, pc_a):
    """BtQ L1318-1319: a black number card: one mission's deadline -1."""
    mission = services.mission_load_sample(campaign=campaign, actor=gm, key="scout_soukir_bay",
                                           characters=[pc_a.pk])
    challenge = services.challenge_create(campaign=campaign, actor=gm, missions=[mission],
                                          description="a bad day")
    services.challenge_record(challenge=challenge, met=False, actor=gm)
    mission.refresh_from_db()
    mission = services.mission_scar(mission=mission, actor=gm, version=mission.version)
    assert (mission.deadline_failures, mission.status) == (1, Mission.Status.FAILED)


def test_odd_digits_in_a_link_are_no_server_error(campaign, gm_client, pc_a):
    """``"³".isdigit()`` is true in Python, and ``int("³")`` fails: such a query is ignored."""
    for url in (reverse("missions:new", args=[campaign.pk]) + "?character=³",
                reverse("missions:challenge_new", args=[campaign.pk]) + "?mission=³",
                reverse("card_tests:new", args=[campaign.pk]) + f"?character={pc_a.pk}"
                "&challenge=³",
                reverse("combat:new", args=[campaign.pk]) + "?challenge=³"):
        assert gm_client.get(url).status_code == 200, url
    assert gm_client.get(reverse("card_tests:new", args=[campaign.pk]) +
                         "?character=³").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_one_challenge_recorded_from_two_browsers_at_once_counts_once(campaign, gm, pc_a):
    """Two connections record the same challenge's result at the same moment: the database's
    one result per challenge keeps one, and the mission counts it once."""
    from django.db import connection

    from tests.concurrency import at_once

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL")
    mission = gordon(campaign, gm, pc_a)
    challenge = services.challenge_create(campaign=campaign, actor=gm, missions=[mission],
                                          description="Slip past the Toulon squadron")

    def record():
        return services.challenge_record(challenge=challenge, met=True, actor=gm)

    recorded = at_once(record, record)
    assert sorted(r is None for r in recorded) == [False, True]
    mission.refresh_from_db()
    assert (mission.successes, ChallengeResult.objects.count()) == (1, 1)


def _proposal(pc, **rows):
    """A player's proposal of a Mission of Personal Importance for ``pc``, with ``rows``
    (``"reward-0-target": ...``) on its first reward and failure rows."""
    data = {"name": "Win over Captain Jones", "kind": "personal", "challenges_required": "2",
            "characters": [pc.pk],
            "reward-TOTAL_FORMS": "1", "reward-INITIAL_FORMS": "0",
            "reward-0-kind": "reputation", "reward-0-amount": "1", "reward-0-scope": "all",
            "failure-TOTAL_FORMS": "1", "failure-INITIAL_FORMS": "0",
            "failure-0-kind": "", "failure-0-amount": "1", "failure-0-scope": "all"}
    data.update(rows)
    return data


def test_a_player_picks_his_own_reputation_as_a_missions_reward(campaign, gm, pc_a, pc_b,
                                                                  player_a_client):
    """The proposal form offers the character's reputations, skills, Measures and areas to
    pick; an existing reputation picked by its name is the reward's target, a name his
    character does not have is refused with the names it has, and a new reputation is
    written in its own fields."""
    from characters.services import reputation_create
    reputation_create(character=pc_a, actor=gm, kind="personal",
                      descriptor="Distrusted by", subject="Captain Jones", value=1)
    reputation_create(character=pc_b, actor=gm, kind="personal",
                      descriptor="Feared by", subject="the Purser", value=1)
    url = reverse("missions:new", args=[campaign.pk])
    form = player_a_client.get(url).content.decode()
    for name in ("Distrusted by Captain Jones", "Gunnery", "Charm", "Ship Morale"):
        assert f'<option value="{name}">' in form
    assert "Feared by the Purser" not in form  # another player's character's

    page = player_a_client.post(url, _proposal(pc_a, **{
        "reward-0-target": "Captain Sharpe", "failure-0-kind": "injured",
        "failure-0-target": "Distrusted by Captain Jones", "reward-TOTAL_FORMS": "2",
        "reward-1-kind": "wealth", "reward-1-scope": "all"})).content.decode()
    page = html.unescape(page)
    assert ("Lieutenant Anne Able has no reputation “Captain Sharpe”; Lieutenant Anne "
            "Able's reputations are: Distrusted by Captain Jones.") in page
    assert "The reward costs 6 points" in page and not Mission.objects.exists()

    response = player_a_client.post(url, _proposal(pc_a, **{
        "reward-0-target": "distrusted by captain jones",
        "failure-0-kind": "injured", "failure-0-target": "Captain Jones"}))
    assert response.status_code == 302
    mission = Mission.objects.get()
    assert mission.rewards[0]["target"] == "personal:Distrusted by:Captain Jones"
    assert mission.failures[0]["target"] == "reputation:Distrusted by Captain Jones"

    response = player_a_client.post(url, _proposal(pc_a, **{
        "name": "Court Lady Sophia", "reward-0-new_kind": "personal",
        "reward-0-new_descriptor": "Loved by", "reward-0-new_subject": "Lady Sophia"}))
    assert response.status_code == 302
    assert Mission.objects.get(name="Court Lady Sophia").rewards[0]["target"] == \
        "personal:Loved by:Lady Sophia"
    page = player_a_client.post(url, _proposal(pc_a, **{
        "name": "Half", "reward-0-new_descriptor": "Loved by"})).content.decode()
    assert "needs both its descriptor and its subject" in page


def test_a_book_missions_failure_words_survive_an_edit_of_the_mission(campaign, gm, gm_client,
                                                                      pc_a):
    """Gordon's failure names "reputation:Admiralty" (the book's words, matched when it is
    paid): saving the mission's form again keeps it, though Anne has no such reputation yet;
    plain words she has no reputation for are refused."""
    mission = gordon(campaign, gm, pc_a)
    url = reverse("missions:edit", args=[campaign.pk, mission.pk])
    data = {"version": mission.version, "name": mission.name, "kind": "naval",
            "challenges_required": "4", "deadline_failures": "4", "characters": [pc_a.pk],
            "reward-TOTAL_FORMS": "0", "reward-INITIAL_FORMS": "0",
            "failure-TOTAL_FORMS": "1", "failure-INITIAL_FORMS": "1",
            "failure-0-kind": "maimed", "failure-0-amount": "1", "failure-0-scope": "all",
            "failure-0-target": "Admiralty"}
    page = html.unescape(gm_client.post(url, data).content.decode())
    assert "Lieutenant Anne Able has no reputation “Admiralty”" in page
    data["failure-0-target"] = "reputation:Admiralty"
    assert gm_client.post(url, data).status_code == 302
    mission.refresh_from_db()
    assert mission.failures == [{"kind": "maimed", "amount": 1, "scope": "all",
                                 "target": "reputation:Admiralty", "character": None,
                                 "note": ""}]


def test_the_api_takes_a_target_in_the_words_the_page_takes(campaign, gm, gm_client, pc_a,
                                                            pc_b, player_a_client, distrusted):
    """A reward or failure sent to the API names its reputation as the mission's page does
    ("distrusted by captain jones", "Captain Jones"), and a Measure, skill or area by its
    name; a name the character does not have is a 400 on that row's target naming the
    reputations he has, and nothing is saved; the PATCH reads them the same way, among the
    mission's characters."""
    url = reverse("api-mission-list", args=[campaign.pk])
    proposal = {"name": "Unmask Jones", "kind": "personal", "challenges_required": 2,
                "characters": [pc_a.pk],
                "rewards": [{"kind": "reputation", "target": "Captain Sharpe"}],
                "failures": [{"kind": "injured", "target": "Captain Jones"}]}
    refused = player_a_client.post(url, proposal, content_type="application/json")
    assert refused.status_code == 400
    assert refused.json() == {"rewards": {"0": {"target": [
        "Lieutenant Anne Able has no reputation “Captain Sharpe”; Lieutenant Anne Able's "
        "reputations are: Distrusted by Captain Jones."]}}}
    assert not Mission.objects.exists()
    proposal["rewards"][0]["target"] = "distrusted by captain jones"
    made = player_a_client.post(url, proposal, content_type="application/json")
    assert made.status_code == 201, made.json()
    mission = Mission.objects.get()
    assert mission.rewards[0]["target"] == "personal:Distrusted by:Captain Jones"
    assert mission.failures[0]["target"] == "reputation:Distrusted by Captain Jones"

    detail = reverse("api-mission-detail", args=[campaign.pk, mission.pk])
    patch = {"version": mission.version,
             "failures": [{"kind": "injured", "target": "Feared by the Purser"}]}
    refused = gm_client.patch(detail, patch, content_type="application/json")
    assert refused.status_code == 400
    assert "Distrusted by Captain Jones" in refused.json()["failures"]["0"]["target"][0]
    patch["failures"] = [{"kind": "injured", "target": "Ship Morale"}]
    changed = gm_client.patch(detail, patch, content_type="application/json")
    assert changed.status_code == 200, changed.json()
    mission.refresh_from_db()
    assert mission.failures[0]["target"] == "ship_morale"
