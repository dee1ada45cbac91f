"""In the browser, on a phone: a player proposes a challenge for his mission, the GM accepts
it with his own wording and it waits to be played."""

import pytest

from campaigns.missions.models import Challenge
from campaigns.missions.services import challenge_create, mission_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-proposal"
PHONE = {"width": 390, "height": 844}


def test_a_player_proposes_a_challenge_and_the_gm_accepts_it(
        campaign, gm, player_a, new_context, login, pc_a):
    for user in (gm, player_a):
        user.set_password(PASSWORD)
        user.save()
    mission, _ = mission_create(campaign=campaign, actor=gm, name="Capture La Griffon",
                                challenges_required=2, characters=[pc_a.pk])
    player = login(new_context(), "player_a", PASSWORD)
    player.set_viewport_size(PHONE)
    player.goto(f"/campaigns/{campaign.pk}/missions/{mission.pk}/")
    player.click("text=Propose a challenge for it")
    player.fill("input[name=description]", "bribe the harbour pilot")
    with player.expect_navigation():
        player.click("button:text('Propose it')")
    assert "waiting for the GM" in player.inner_text(".challenges")
    assert Challenge.objects.get().status == "proposed"

    page = login(new_context(), "gm", PASSWORD)
    page.goto(f"/campaigns/{campaign.pk}/missions/{mission.pk}/")
    page.fill("form.proposal input[name=description]", "bribe the Martinique pilot")
    with page.expect_navigation():
        page.click("form.proposal button:text('Accept')")
    challenge = Challenge.objects.get()
    assert (challenge.status, challenge.description) == ("called", "bribe the Martinique pilot")
    assert "to be played" in page.inner_text(".challenges")


def test_what_the_gm_is_typing_survives_a_push(campaign, gm, player_a, new_context, login,
                                               pc_a):
    """The live section refreshes itself when something happens in the campaign: the GM's
    rewording of a proposal, half typed, is still there afterwards, with the caret in it."""
    gm.set_password(PASSWORD)
    gm.save()
    mission, _ = mission_create(campaign=campaign, actor=gm, name="Capture La Griffon",
                                challenges_required=2, characters=[pc_a.pk])
    challenge_create(campaign=campaign, actor=player_a, missions=[mission],
                     description="bribe the harbour pilot")
    page = login(new_context(), "gm", PASSWORD)
    page.set_viewport_size(PHONE)
    page.goto(f"/campaigns/{campaign.pk}/missions/{mission.pk}/")
    page.wait_for_function("document.querySelector('.live-reload-link').hidden")
    field = page.locator("form.proposal input[name=description]")
    field.fill("bribe the Martinique pil")
    challenge_create(campaign=campaign, actor=gm, missions=[mission],
                     description="sound the channel by night")
    page.wait_for_selector("text=sound the channel by night")
    assert field.input_value() == "bribe the Martinique pil"
    page.keyboard.type("ot")
    with page.expect_navigation():
        page.click("form.proposal button:text('Accept')")
    accepted = Challenge.objects.get(description__startswith="bribe")
    assert (accepted.status, accepted.description) == ("called", "bribe the Martinique pilot")
