"""Card test pages with the four personas: who sees and does what, what stays hidden from
players, the live part, and refusals with a clear message and nothing changed."""

import pytest
from django.urls import reverse

from combat.card_tests.selectors import card_test_status
from combat.card_tests.services import card_test_call
from combat.models import Encounter
from rules.btq.characters import DamageState

VARIANT_B = "4S  4C KD KS QH JH 2C  4H AH 2D 7S"
PERSONAS = ["gm", "player_a", "player_b", "outsider"]


def client_of(request, persona):
    return request.getfixturevalue(f"{persona}_client")


@pytest.fixture
def secret_test(campaign, gm, pc_a, npc):
    """Anne Able against Captain Nemo Nobody, whose Command 5 and cunning are the GM's."""
    return card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="seamanship",
                          opposition="npc", opponent=npc.pk, opponent_skill="command",
                          opponent_modifiers=[{"source": "Sea Dog Cunning", "cards": 2}],
                          intent="slip past the Nobody's frigate", at_risk="health",
                          opponent_at_risk="health")


def urls(campaign, test):
    return {
        "list": reverse("card_tests:list", args=[campaign.pk]),
        "new": reverse("card_tests:new", args=[campaign.pk]),
        "detail": reverse("card_tests:detail", args=[campaign.pk, test.pk]),
        "live": reverse("card_tests:live", args=[campaign.pk, test.pk]),
        "log": reverse("campaigns:log", args=[campaign.pk]),
        "campaign": reverse("campaigns:detail", args=[campaign.pk]),
    }


GM_ONLY = ("Command", "Sea Dog Cunning", "Command 5 + Sea Dog Cunning 2 = 7", "(GM only)")


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_page_of_a_test_by_persona(request, persona, campaign, secret_test, turn,
                                         player_a):
    c = client_of(request, persona)
    pages = urls(campaign, secret_test)
    before = {name: c.get(url) for name, url in pages.items()}
    turn(secret_test, player_a, "4S  4C KD KS QH  4H AH 2D 7S 9D 10C 2C")
    after = {name: c.get(url) for name, url in pages.items()}
    for name, response in [*before.items(), *after.items()]:
        expected = 404 if persona == "outsider" else 200
        if name == "new" and persona == "player_b":
            expected = 200  # the chooser, with Ben Baker only
        assert response.status_code == expected, (name, response.status_code)
    if persona == "outsider":
        return
    shown = "".join(r.content.decode() for r in [*before.values(), *after.values()])
    for secret in GM_ONLY:
        assert (secret in shown) == (persona == "gm"), secret
    assert "npc-secret" not in shown
    detail = after["detail"].content.decode()
    assert detail.count('title="Card of Fate"') == 1
    assert 'data-card="4H"' in detail and "Lieutenant Anne Able won" in detail
    assert 'class="card-face' in after["log"].content.decode()


def test_the_gm_calls_a_test_in_the_browser_and_the_player_turns_the_cards(
        gm_client, player_a_client, player_b_client, campaign, pc_a, npc):
    new = reverse("card_tests:new", args=[campaign.pk])
    chooser = gm_client.get(new).content.decode()
    assert f"?character={pc_a.pk}" in chooser
    form = gm_client.get(f"{new}?character={pc_a.pk}").content.decode()
    assert "Seamanship 4" in form and 'name="opponent_skill"' in form
    response = gm_client.post(new, {
        "character": pc_a.pk, "skill": "seamanship", "modifiers": "Crusty Old Seadog +1",
        "opposition": "npc", "opponent": npc.pk, "opponent_skill": "command",
        "intent": "outsail the Nobody", "stakes_win": "escape", "stakes_lose": "taken",
        "at_risk": "health"})
    test = Encounter.objects.get()
    detail = reverse("card_tests:detail", args=[campaign.pk, test.pk])
    assert response.status_code == 302 and response["Location"] == detail
    assert test.terms["modifiers"] == [{"source": "Crusty Old Seadog", "cards": 1}]
    gm_page = gm_client.get(detail).content.decode()
    assert "Command 5 = 5" in gm_page and 'data-odds="win"' in gm_page
    assert "Turn the cards" not in gm_page  # the PC's player confirms
    mine = player_a_client.get(detail).content.decode()
    assert "Turn the cards" in mine and 'data-level="perfect"' in mine
    assert 'data-odds="win"' not in mine  # against an NPC: only the odds of her own pool
    assert "Turn the cards" not in player_b_client.get(detail).content.decode()
    response = player_b_client.post(
        reverse("card_tests:step", args=[campaign.pk, test.pk, "confirm"]),
        {"version": test.version})
    assert response.status_code == 403
    response = player_a_client.post(
        reverse("card_tests:step", args=[campaign.pk, test.pk, "confirm"]),
        {"version": test.version})
    assert response.status_code == 302
    test.refresh_from_db()
    assert card_test_status(test) in ("done", "awaiting_joker")
    page = player_b_client.get(detail).content.decode()
    assert page.count('title="Card of Fate"') >= 1
    assert 'data-who="pc:' in page


def test_a_player_proposes_and_the_gm_accepts_with_a_different_opposition(
        player_a_client, gm_client, campaign, pc_a):
    new = reverse("card_tests:new", args=[campaign.pk])
    form = player_a_client.get(f"{new}?character={pc_a.pk}").content.decode()
    assert 'name="opponent_skill"' not in form
    response = player_a_client.post(new, {
        "character": pc_a.pk, "skill": "wealth", "opposition": "difficulty",
        "difficulty": "routine", "intent": "a dress uniform", "at_risk": "wealth"})
    test = Encounter.objects.get()
    assert response.status_code == 302 and card_test_status(test) == "proposed"
    accept = reverse("card_tests:accept", args=[campaign.pk, test.pk])
    assert player_a_client.get(accept).status_code == 403
    page = gm_client.get(accept)
    assert page.status_code == 200 and "a dress uniform" in page.content.decode()
    data = {"character": pc_a.pk, "version": test.version, "skill": "wealth",
            "opposition": "difficulty", "difficulty": "cards", "difficulty_cards": 4,
            "intent": "a dress uniform", "at_risk": "wealth"}
    assert gm_client.post(accept, {**data, "version": test.version + 1}).status_code == 409
    assert gm_client.post(accept, data).status_code == 302
    again = gm_client.post(accept, data)  # a second GM's form, sent once it was accepted
    assert again.status_code == 409 and "reload" in again.content.decode()
    test.refresh_from_db()
    assert card_test_status(test) == "awaiting_confirmation" and test.terms["difficulty"] == "4"
    detail = player_a_client.get(
        reverse("card_tests:detail", args=[campaign.pk, test.pk])).content.decode()
    assert "4 cards" in detail and 'data-odds="win"' in detail  # a public difficulty


@pytest.mark.parametrize("data,message", [
    ({"modifiers": "Storm"}, "write each modifier"),
    ({"skill": "sorcery"}, "Select a valid choice"),
    ({"opposition": "difficulty", "difficulty": "cards"}, "Give the number of opposition"),
    ({"opposition": "difficulty", "difficulty": "cards", "difficulty_cards": -3},
     "greater than or equal to 0"),
    ({"intent": ""}, "This field is required"),
    ({"at_risk": "wealth", "dead": True}, "Wealth is Dead"),
])
def test_bad_input_in_the_call_form_is_shown_and_nothing_is_called(gm_client, campaign, pc_a,
                                                                   data, message):
    if data.pop("dead", False):
        type(pc_a).objects.filter(pk=pc_a.pk).update(wealth_state=DamageState.DEAD)
    post = {"character": pc_a.pk, "skill": "seamanship", "opposition": "none",
            "intent": "steady on", **data}
    if post["opposition"] == "none" and post.get("at_risk"):
        post["opposition"] = "difficulty"
        post["difficulty"] = "routine"
    response = gm_client.post(reverse("card_tests:new", args=[campaign.pk]), post)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Encounter.objects.exists()


def test_the_odds_preview_follows_the_form(gm_client, player_a_client, campaign, pc_a, npc):
    url = reverse("card_tests:preview", args=[campaign.pk])
    data = {"character": pc_a.pk, "skill": "seamanship", "opposition": "npc",
            "opponent": npc.pk, "opponent_skill": "command", "intent": "x"}
    gm = gm_client.post(url, data).content.decode()
    assert "Command 5 = 5" in gm and 'data-odds="win"' in gm
    data.pop("opponent_skill")
    mine = player_a_client.post(url, data).content.decode()
    assert "GM settles the opposition" in mine and "Command" not in mine
    data.update(opposition="difficulty", difficulty="routine")
    mine = player_a_client.post(url, data).content.decode()
    assert 'data-odds="win"' in mine and "Seamanship 4 = 4" in mine
    assert player_a_client.post(url, {**data, "character": 9999}).status_code == 404


def test_a_stale_or_impossible_step_in_the_browser_is_refused_with_the_reason(
        player_a_client, campaign, secret_test, turn, player_a):
    url = reverse("card_tests:step", args=[campaign.pk, secret_test.pk, "confirm"])
    stale = player_a_client.post(url, {"version": secret_test.version + 5})
    assert stale.status_code == 409 and "changed by someone else" in stale.content.decode()
    secret_test.refresh_from_db()
    assert card_test_status(secret_test) == "awaiting_confirmation"
    assert player_a_client.post(url, {}).status_code == 400
    secret_test = turn(secret_test, player_a, "4S  4C KD KS QH  4H AH 2D 7S 9D 10C 2C")
    again = player_a_client.post(url, {"version": secret_test.version})
    assert again.status_code == 409 and "cannot be confirmed now" in again.content.decode()
    cancel = reverse("card_tests:step", args=[campaign.pk, secret_test.pk, "cancel"])
    assert player_a_client.post(cancel, {"version": secret_test.version}).status_code == 403
    bogus = reverse("card_tests:step", args=[campaign.pk, secret_test.pk, "shuffle"])
    assert player_a_client.post(bogus, {"version": 1}).status_code == 404


def test_the_joker_form_offers_the_52_cards_with_the_card_of_fate_first_choice(
        race, turn, player_a, player_a_client, player_b_client, gm_client, campaign):
    test = turn(race(reputations=[]), player_a, "4S  JK KD KS QH JH  4H AH 2D 7S")
    detail = reverse("card_tests:detail", args=[campaign.pk, test.pk])
    page = player_a_client.get(detail).content.decode()
    assert page.count("<option value=") == 52
    assert '<option value="4S" selected>' in page
    assert "Name the Joker" not in player_b_client.get(detail).content.decode()
    assert "Name the Joker" in gm_client.get(detail).content.decode()  # for an absent player
    url = reverse("card_tests:step", args=[campaign.pk, test.pk, "joker"])
    assert player_b_client.post(url, {"version": test.version, "card": "4C"}).status_code == 403
    assert player_a_client.post(url, {"version": test.version, "card": "JK"}).status_code == 400
    assert player_a_client.post(url, {"version": test.version, "card": "4C"}).status_code == 302
    test.refresh_from_db()
    assert card_test_status(test) == "done"
    assert test.state["record"]["rounds"][0]["hands"][0]["cards"][0] == "JK=4C"
    assert 'data-card="JK=4C"' in player_b_client.get(detail).content.decode()


def test_the_live_part_answers_204_until_the_test_changes(player_b_client, campaign,
                                                          secret_test, turn, player_a):
    live = reverse("card_tests:live", args=[campaign.pk, secret_test.pk])
    assert player_b_client.get(f"{live}?version={secret_test.version}").status_code == 204
    turn(secret_test, player_a, "4S  4C KD KS QH  4H AH 2D 7S 9D 10C 2C")
    response = player_b_client.get(f"{live}?version={secret_test.version - 1}")
    html = response.content.decode()
    assert response.status_code == 200 and 'title="Card of Fate"' in html
    assert "hx-trigger" not in html  # the test is over: polling stops
    tests = reverse("card_tests:list", args=[campaign.pk])
    first = player_b_client.get(f"{tests}?token=stale")
    assert first.status_code == 200 and 'id="card-tests"' in first.content.decode()
    token = first.content.decode().split("token=")[1].split('"')[0]
    from urllib.parse import unquote

    assert player_b_client.get(f"{tests}?token={unquote(token)}").status_code == 204


def test_an_unskilled_test_offers_one_card_only(gm_client, player_b_client, campaign, pc_b,
                                                gm):
    test = card_test_call(campaign=campaign, actor=gm, character=pc_b.pk, skill="intrigue",
                          opposition="difficulty", difficulty="easy", intent="whisper")
    page = player_b_client.get(
        reverse("card_tests:detail", args=[campaign.pk, test.pk])).content.decode()
    assert "Intrigue unskilled: one card 1 = 1 card</span> <mark>" in page
    assert "unskilled: one card, Ordinary at best" in page


def test_the_campaign_page_links_to_the_tests(player_b_client, campaign):
    page = player_b_client.get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    assert reverse("card_tests:list", args=[campaign.pk]) in page


@pytest.mark.parametrize("persona", ["gm", "player_a"])
def test_a_test_is_named_in_words_not_by_its_id(request, persona, campaign, secret_test, turn,
                                                player_a):
    """The id is shared with battles and drafts (the first test of a campaign was "Test #2"):
    the pages name a test by what it is, and its address keeps the id."""
    import re

    c = client_of(request, persona)
    pages = urls(campaign, secret_test)
    shown = [c.get(pages[name]).content.decode() for name in ("detail", "list", "campaign")]
    turn(secret_test, player_a, "4S  4C KD KS QH  4H AH 2D 7S 9D 10C 2C")
    shown += [c.get(pages[name]).content.decode() for name in ("detail", "list", "log")]
    for page in shown:
        assert not re.search(r"[Tt]est #\d|>#\d+<", page)
    assert "<h1>Card test</h1>" in shown[0]
    described = "Lieutenant Anne Able&#x27;s Seamanship against Captain Nemo Nobody"
    assert f'{pages["detail"]}">{described}' in shown[1]
    assert f'{pages["detail"]}">The test\'s page</a>' in shown[-1]
