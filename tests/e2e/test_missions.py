"""In the browser: the GM creates a mission on its page, calls a challenge for it and a card
test played for that challenge; a player watching the mission on a phone sees its counter
move, without reloading, when the test is won (pushed)."""

import pytest

from campaigns.missions.models import Challenge, Mission
from combat.card_tests.services import card_test_confirm
from combat.models import Encounter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-mission-table"
PHONE = {"width": 390, "height": 844}
WON = "4S  4C KD KS QH  JH 4H AH 2D 7S"
"""Anne Able's Seamanship 4 against Captain Nemo Nobody's Command 5: her 4C is a Critical,
his 4H only the same; her KS against his 7S wins the tie-break (BtQ L1238-1239)."""


@pytest.fixture
def table(campaign, gm, player_a, player_b):
    for user in (gm, player_a, player_b):
        user.set_password(PASSWORD)
        user.save()
    return campaign


def test_the_gm_creates_a_mission_calls_a_challenge_and_a_player_sees_the_counter_move(
        table, new_context, login, pc_a, pc_b, npc, player_a):
    gm = login(new_context(), "gm", PASSWORD)
    gm.goto(f"/campaigns/{table.pk}/missions/")
    gm.click("text=New mission")
    gm.fill("input[name=name]", "Capture La Griffon")
    gm.select_option("select[name=kind]", "naval")
    gm.fill("input[name=challenges_required]", "2")
    gm.fill("input[name=deadline_narrative]", "Before she reaches Martinique")
    gm.check(f"input[name=characters][value='{pc_a.pk}']")
    gm.check(f"input[name=characters][value='{pc_b.pk}']")
    gm.select_option("select[name='reward-0-kind']", "skill")
    gm.select_option("select[name='failure-0-kind']", "injured")
    gm.fill("input[name='failure-0-target']", "ship_morale")
    with gm.expect_navigation():
        gm.click("button:text('Open the mission')")
    mission = Mission.objects.get()
    assert (mission.challenges_required, mission.rewards[0]["kind"]) == (2, "skill")
    assert "0 of 2" in gm.inner_text("#mission-progress")

    gm.click("text=Call a challenge for it")
    gm.fill("input[name=description]", "outsail her lookout in the squall")
    with gm.expect_navigation():
        gm.click("button:text('Call it')")
    challenge = Challenge.objects.get()

    # The player watches the mission on a phone.
    player = login(new_context(), "player_b", PASSWORD)
    player.set_viewport_size(PHONE)
    player.goto(f"/campaigns/{table.pk}/missions/{mission.pk}/")
    assert "0 of 2" in player.inner_text("#mission-progress")
    assert "to be played" in player.inner_text("#mission-progress")
    player.evaluate("window.notReloaded = true")

    # The GM calls a test played for the challenge, from the mission's page.
    gm.click("text=Call a test for it")
    gm.click(f"a[href*='character={pc_a.pk}']")
    assert gm.locator("select[name=challenge]").input_value() == str(challenge.pk)
    gm.select_option("select[name=skill]", "seamanship")
    gm.check("input[name=opposition][value=npc]")
    gm.select_option("select[name=opponent]", str(npc.pk))
    gm.select_option("select[name=opponent_skill]", "command")
    gm.fill("input[name=intent]", "outsail La Griffon's lookout")
    with gm.expect_navigation():
        gm.click("button:text('Call the test')")
    test = Encounter.objects.get()
    assert test.challenge_id == challenge.pk

    # Anne Able's player turns the cards on her own device (stacked: she wins).
    Encounter.objects.filter(pk=test.pk).update(stacked_cards=WON.split(), stacked_position=0)
    test.refresh_from_db()
    card_test_confirm(test=test, actor=player_a, version=test.version)

    player.locator("#mission-progress .mission-counter[data-successes='1']").wait_for()
    assert "1 of 2" in player.inner_text("#mission-progress")
    assert "met" in player.inner_text(f"#challenge-{challenge.pk}")
    assert player.evaluate("window.notReloaded") is True
    too_wide = player.evaluate(
        "[...document.querySelectorAll('main *')].filter("
        f"e => e.getBoundingClientRect().right > {PHONE['width']}).map("
        "e => e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 40))")
    assert too_wide == []


def test_a_player_takes_a_reward_on_a_phone_and_finds_it_in_the_journal(
        table, new_context, login, gm, pc_a):
    from campaigns.missions import services

    mission, _ = services.mission_create(
        campaign=table, actor=gm, name="Impress the Admiral", kind="personal",
        challenges_required=2, rewards=[{"kind": "measure"}], characters=[pc_a.pk])
    for what in ("the dinner", "the ball"):
        challenge = services.challenge_create(campaign=table, actor=gm, missions=[mission],
                                              description=what)
        services.challenge_record(challenge=challenge, met=True, actor=gm)
    mission.refresh_from_db()
    services.mission_complete(mission=mission, actor=gm, version=mission.version)

    player = login(new_context(), "player_a", PASSWORD)
    player.set_viewport_size(PHONE)
    player.goto(f"/characters/{pc_a.pk}/")
    player.click("text=Missions, rewards and failures")
    assert "+1 to a Measure" in player.inner_text("#dues")
    player.select_option("#dues select[name=option]", "measure:charm")
    with player.expect_navigation():
        player.click("#dues button:text('Take it')")
    assert "Charm +1 (1 → 2)" in player.inner_text("#purchases")
    assert player.locator("#dues").count() == 0
    pc_a.refresh_from_db()
    assert pc_a.charm == 2
    for url in (f"/characters/{pc_a.pk}/missions/", f"/campaigns/{table.pk}/log/?kind=purchase"):
        player.goto(url)
        too_wide = player.evaluate(
            "[...document.querySelectorAll('main *')].filter("
            f"e => e.getBoundingClientRect().right > {PHONE['width']}).map("
            "e => e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 40))")
        assert too_wide == [], url
    assert "took from “Impress the Admiral”: Charm +1 (1 → 2)" in player.inner_text("main")


def test_a_double_tap_on_open_the_mission_sends_one_request_and_opens_one_mission(
        table, new_context, login):
    """The submit button is disabled while its form is sent (static/js/once.js): a second
    submit of the form is cancelled and its button disabled, so a double tap on a phone
    posts once; and the double tap itself opens one mission."""
    gm = login(new_context(), "gm", PASSWORD)
    gm.set_viewport_size(PHONE)
    new = f"/campaigns/{table.pk}/missions/new/"
    gm.goto(new)
    # Two submits in a row, as a double tap makes them (events a script sends submit
    # nothing themselves): the first goes, the second is cancelled, the button disabled.
    cancelled = gm.evaluate("""() => {
        const button = [...document.querySelectorAll('main form button')].find(
            b => b.textContent.includes('Open the mission'));
        return [1, 2].map(() => {
            const tap = new SubmitEvent('submit', {bubbles: true, cancelable: true,
                                                   submitter: button});
            button.form.dispatchEvent(tap);
            return tap.defaultPrevented;
        });
    }""")
    assert cancelled == [False, True]
    gm.locator("button:text('Open the mission')[disabled]").wait_for()

    gm.goto(new)
    gm.fill("input[name=name]", "Capture La Griffon")
    gm.fill("input[name=challenges_required]", "2")
    posts = []
    gm.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    with gm.expect_navigation():
        gm.dblclick("button:text('Open the mission')")
    assert len(posts) == 1
    mission = Mission.objects.get()
    assert gm.url.endswith(f"/missions/{mission.pk}/")


def test_a_player_on_a_phone_proposes_a_mission_for_his_own_reputation(
        table, new_context, login, gm, pc_a, player_a):
    """The proposal form offers the character's reputations to pick (a datalist); the one
    picked is the reward's target and the mission's page reads it in words."""
    from characters.services import reputation_create
    reputation_create(character=pc_a, actor=gm, kind="personal", descriptor="Distrusted by",
                      subject="Captain Jones", value=1)
    player = login(new_context(), "player_a", PASSWORD)
    player.set_viewport_size(PHONE)
    player.goto(f"/campaigns/{table.pk}/missions/new/")
    options = player.eval_on_selector_all("#reward-targets option", "os => os.map(o => o.value)")
    assert "Distrusted by Captain Jones" in options and "Gunnery" in options
    assert player.get_attribute("input[name='reward-0-target']", "list") == "reward-targets"
    player.fill("input[name=name]", "Win over Captain Jones")
    player.fill("input[name=challenges_required]", "2")
    player.check(f"input[name=characters][value='{pc_a.pk}']")
    player.select_option("select[name='reward-0-kind']", "reputation")
    player.fill("input[name='reward-0-target']", "Distrusted by Captain Jones")
    with player.expect_navigation():
        player.click("button:text('Propose it')")
    mission = Mission.objects.get()
    assert mission.rewards[0]["target"] == "personal:Distrusted by:Captain Jones"
    assert "Personal: Distrusted by Captain Jones +1" in player.inner_text("main")
    assert player.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
