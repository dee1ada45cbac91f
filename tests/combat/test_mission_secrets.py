"""Hidden stays hidden (issue 9, "Bad input and safety"): a marker in every GM-only field of
the missions' records (a hidden mission's name, intent, rewards and GM notes; a visible
mission's GM notes; a challenge's GM notes; a session's GM notes; a hidden mission's
challenge and journal entries) never appears in anything player A, player B or the outsider
receives: pages, API answers and the campaign's pushed stream. The GM sees them all."""

import pytest
from django.urls import reverse

from campaigns.missions import services as missions

from .test_streams import parse, read

pytestmark = pytest.mark.django_db

MARKERS = ["HIDDEN-MISSION-NAME", "HIDDEN-INTENT", "HIDDEN-REWARD", "HIDDEN-GM-NOTE",
           "VISIBLE-GM-NOTE", "CHALLENGE-GM-NOTE", "HIDDEN-CHALLENGE", "SESSION-GM-NOTE"]


@pytest.fixture
def secrets(campaign, gm, pc_a, pc_b, player_a):
    hidden, _ = missions.mission_create(
        campaign=campaign, actor=gm, name="HIDDEN-MISSION-NAME", intent="HIDDEN-INTENT",
        challenges_required=4, hidden=True, gm_notes="HIDDEN-GM-NOTE",
        rewards=[{"kind": "skill", "note": "HIDDEN-REWARD"}], characters=[pc_a.pk])
    visible, _ = missions.mission_create(
        campaign=campaign, actor=gm, name="Capture La Griffon", challenges_required=2,
        gm_notes="VISIBLE-GM-NOTE", characters=[pc_a.pk, pc_b.pk])
    missions.challenge_create(campaign=campaign, actor=gm, missions=[hidden],
                              description="HIDDEN-CHALLENGE")
    both = missions.challenge_create(campaign=campaign, actor=gm, missions=[hidden, visible],
                                     description="a storm for both")
    seen = missions.challenge_create(campaign=campaign, actor=gm, missions=[visible],
                                     description="board her", gm_notes="CHALLENGE-GM-NOTE")
    missions.challenge_record(challenge=seen, met=True, actor=gm)
    missions.challenge_record(challenge=both, met=False, actor=gm)
    session = missions.session_create(campaign=campaign, actor=gm, title="The storm",
                                      gm_notes="SESSION-GM-NOTE", attendance=[player_a.pk])
    # A hidden mission that fails: its failure is due on pc_a's page, for the GM's eyes.
    hidden.refresh_from_db()
    missions.mission_fail(mission=hidden, actor=gm, version=hidden.version)
    return {"hidden": hidden, "visible": visible, "session": session}


def urls(campaign, secrets, pc_a) -> dict:
    """What a member opens: name -> URL."""
    c, hidden, visible = campaign.pk, secrets["hidden"].pk, secrets["visible"].pk
    return {
        "campaign": reverse("campaigns:detail", args=[c]),
        "journal": reverse("campaigns:log", args=[c]),
        "journal search": reverse("campaigns:log", args=[c]) + "?q=HIDDEN",
        "missions": reverse("missions:list", args=[c]),
        "visible mission": reverse("missions:detail", args=[c, visible]),
        "hidden mission": reverse("missions:detail", args=[c, hidden]),
        "hidden mission's edit": reverse("missions:edit", args=[c, hidden]),
        "sessions": reverse("missions:sessions", args=[c]),
        "dashboard": reverse("missions:dashboard", args=[c]),
        "character's missions": reverse("characters:missions", args=[pc_a.pk]),
        "character's sheet": reverse("characters:detail", args=[pc_a.pk]),
        "character's history": reverse("characters:history", args=[pc_a.pk]),
        "character's shipboard page": reverse("shipboard:character", args=[pc_a.pk]),
        "API character": reverse("api-character-detail", args=[pc_a.pk]),
        "API missions": reverse("api-mission-list", args=[c]),
        "API visible mission": reverse("api-mission-detail", args=[c, visible]),
        "API hidden mission": reverse("api-mission-detail", args=[c, hidden]),
        "API challenges": reverse("api-challenge-list", args=[c]),
        "API sessions": reverse("api-session-list", args=[c]),
        "API journal": reverse("api-campaign-log", args=[c]),
        "API dashboard": reverse("api-dashboard", args=[c]),
    }


@pytest.mark.parametrize("persona", ["player_a", "player_b", "outsider"])
def test_no_marker_reaches_a_player_or_the_outsider(request, persona, campaign, secrets, pc_a):
    client = request.getfixturevalue(f"{persona}_client")
    statuses = {}
    for name, url in urls(campaign, secrets, pc_a).items():
        response = client.get(url)
        body = response.content.decode()
        statuses[name] = response.status_code
        assert not [m for m in MARKERS if m in body], (name, response.status_code)
    if persona == "outsider":
        assert set(statuses.values()) == {404}
        return
    sheets = ("character's sheet", "character's history", "character's shipboard page",
              "API character")  # another player's reading of a sheet is test_sheet_privacy's
    assert {n: s for n, s in statuses.items() if s != 200 and n not in sheets} == {
        "hidden mission": 404, "hidden mission's edit": 404, "API hidden mission": 404,
        "dashboard": 403, "API dashboard": 403}
    # Not even its id: the entries of a challenge it shares with a visible mission name
    # only that one.
    hidden = secrets["hidden"].pk
    for entry in client.get(reverse("api-campaign-log", args=[campaign.pk])).json():
        assert hidden not in entry["data"].get("missions", []), entry
        assert not (entry["data"].get("mission") == hidden), entry


def test_the_gm_sees_every_marker(gm_client, campaign, secrets, pc_a):
    seen = "".join(gm_client.get(url).content.decode()
                   for url in urls(campaign, secrets, pc_a).values())
    assert [m for m in MARKERS if m not in seen] == []


def test_the_pushed_stream_carries_no_hidden_mission(campaign, gm, secrets, player_b):
    url = reverse("combat:campaign_stream", args=[campaign.pk])

    def change():
        missions.mission_create(campaign=campaign, actor=gm, name="HIDDEN-MISSION-NAME",
                                challenges_required=2, hidden=True)
        another = missions.challenge_create(campaign=campaign, actor=gm,
                                            missions=[secrets["visible"]],
                                            description="another", gm_notes="HIDDEN-GM-NOTE")
        missions.challenge_record(challenge=another, met=True, actor=gm)

    _, text, _ = read(player_b, url, action=change, until=lambda t: "event: campaign" in t)
    events = parse(text)
    assert [e["event"] for e in events] == ["campaign"]
    assert all(m not in text for m in MARKERS)
    assert events[0]["data"]["missions"] == [{
        "id": secrets["visible"].pk, "status": "requirement_met", "successes": 2,
        "failed": 1}]
