"""A card test is an encounter like a battle: its seed's hash is published when it is called
and the seed revealed when it ends, to every member and no one else; its event log shows
each persona what they may see (a Joker's name is the declarer's until the round is
judged); it replays from its seed (``manage.py combat_replay``); and it is not listed or
opened as a battle, whose pages would not keep its rules."""

import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from combat.card_tests.selectors import card_test_view
from combat.card_tests.services import card_test_call, card_test_declare_joker
from combat.services import encounter_replay, seed_hash

PERSONAS = ["gm", "player_a", "player_b", "outsider"]
JOKER = "4S  JK KD KS QH JH  4H AH 2D 7S"
"""TV-11 with the Joker in O'Toole's hand (BtQ L1228)."""


def client_of(request, persona):
    return request.getfixturevalue(f"{persona}_client")


def pages(campaign, test):
    return [reverse("card_tests:detail", args=[campaign.pk, test.pk]),
            reverse("card_tests:live", args=[campaign.pk, test.pk]),
            reverse("api-card-test-detail", args=[test.pk])]


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_persona_sees_the_seed_hash_before_the_draw_and_the_seed_after(
        request, persona, campaign, race, turn, player_a):
    c = client_of(request, persona)
    test = race(reputations=[])
    before = [c.get(url) for url in pages(campaign, test)]
    turn(test, player_a, "4S  4C KD KS QH JH  4H AH 2D 7S")
    test.refresh_from_db()
    after = [c.get(url) for url in pages(campaign, test)]
    if persona == "outsider":
        assert {r.status_code for r in before + after} == {404}
        return
    assert {r.status_code for r in before + after} == {200}
    shown_before = "".join(r.content.decode() for r in before)
    assert test.seed_hash in shown_before and test.seed not in shown_before
    assert seed_hash(test.seed) == test.seed_hash
    assert all(test.seed in r.content.decode() for r in after)
    body = after[2].json()
    assert body["seed"] == test.seed and body["seed_hash"] == test.seed_hash
    assert [e["kind"] for e in body["events"]][:2] == ["encounter.start", "test.called"]
    assert body["events"][-1]["kind"] == "encounter.end"


def test_a_joker_s_name_is_the_declarer_s_and_the_gm_s_until_the_round_is_judged(
        campaign, race, turn, gm, player_a, player_b, player_a_client, player_b_client,
        gm_client):
    test = turn(race(reputations=[]), player_a, JOKER)
    assert [e["kind"] for e in card_test_view(player_b, test)["events"]][-1] == \
        "test.joker_turned"
    test = card_test_declare_joker(test=test, actor=player_a, version=test.version, card="4C")

    def kinds(client):
        body = client.get(reverse("api-card-test-detail", args=[test.pk])).json()
        return [e["kind"] for e in body["events"]]

    assert "test.joker_named" in kinds(player_a_client)
    assert "test.joker_named" in kinds(gm_client)
    assert "test.joker_named" not in kinds(player_b_client)
    # Once judged, the card it stood for is on the table for everyone.
    assert "JK=4C" in json.dumps(card_test_view(player_b, test)["record"])


def test_a_finished_test_replays_from_its_seed(race, turn, player_a, capsys):
    test = turn(race(), player_a, JOKER)
    test = card_test_declare_joker(test=test, actor=player_a, version=test.version)
    replay = encounter_replay(encounter=test)
    assert replay["matches"] is True and replay["state"] == test.state
    call_command("combat_replay", str(test.pk))
    assert "The replay matches" in capsys.readouterr().out


def test_a_test_left_to_the_seed_replays_too(campaign, gm, player_a, pc_a, npc):
    from combat.card_tests.services import card_test_confirm

    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="gunnery",
                          opposition="npc", opponent=npc.pk, opponent_skill="command",
                          intent="rake her stern")
    test = card_test_confirm(test=test, actor=player_a, version=test.version)
    while test.status == "active":
        test = card_test_declare_joker(test=test, actor=player_a, version=test.version)
    assert encounter_replay(encounter=test)["matches"] is True


def test_a_card_test_is_not_listed_or_opened_as_a_battle(request, campaign, race, gm_client,
                                                         player_a_client):
    test = race()
    for client in (gm_client, player_a_client):
        listed = client.get(reverse("api-encounter-list", args=[campaign.pk])).json()
        assert test.pk not in [e["id"] for e in listed]
        assert client.get(reverse("api-encounter-detail", args=[test.pk])).status_code == 404
        act = client.post(reverse("api-encounter-act", args=[test.pk]), json.dumps(
            {"actor": f"pc:{test.terms['character']}", "decision_kind": "test.confirm",
             "choice": "draw", "version": test.version}), content_type="application/json")
        assert act.status_code == 404
        assert client.get(reverse("combat:detail", args=[test.pk])).status_code == 404
    test.refresh_from_db()
    assert test.choices == []


def test_a_secret_npcs_pool_size_stays_hidden_until_its_cards_are_turned(
        campaign, race, turn, gm, player_a, player_a_client, player_b_client):
    """Jones's pool (his Seamanship and the GM's modifiers) is the GM's until the cards are
    on the table: not even how many cards he turns reaches a player before the draw."""
    test = race(opponent_modifiers=[{"source": "Home waters", "cards": 3}])
    for c in (player_a_client, player_b_client):
        body = c.get(reverse("api-card-test-detail", args=[test.pk])).content.decode()
        page = c.get(reverse("card_tests:detail", args=[campaign.pk, test.pk]))
        for shown in (body, page.content.decode()):
            assert "7 cards" not in shown and '"size": 7' not in shown
            assert "Home waters" not in shown
    assert card_test_view(gm, test)["opposition_pool"]["size"] == 7
    assert card_test_view(player_a, test)["opposition_pool"] is None


def test_the_gm_still_sees_the_npcs_pool_once_the_test_is_over(race, turn, gm, player_a):
    test = turn(race(reputations=[]), player_a, "4S  4C KD KS QH JH  4H AH 2D 7S")
    assert card_test_view(gm, test)["opposition_pool"]["explanation"] == "Seamanship 4 = 4"
    assert card_test_view(player_a, test)["opposition_pool"] is None
    assert card_test_view(player_a, test)["record"]["sides"][1]["pool"] == {
        "secret": True, "size": 4}


def test_a_simple_tests_odds_read_pass_and_fail_with_no_retests(campaign, race, gm_client):
    """A simple test has no opposition to tie with or retest against (D4): its odds say
    pass and fail, and leave out mutual failures, stalemates and losing to a success."""
    simple = race(reputations=[], opposition="none", opponent=None, opponent_skill="")
    contested = race(reputations=[])
    page = gm_client.get(reverse("card_tests:detail", args=[campaign.pk, simple.pk]))
    odds = page.content.decode().split('class="odds"')[1]
    assert ">Pass<" in odds and ">Fail<" in odds
    assert "Mutual failure" not in odds and "Lose to it" not in odds
    page = gm_client.get(reverse("card_tests:detail", args=[campaign.pk, contested.pk]))
    assert "Mutual failure" in page.content.decode().split('class="odds"')[1]
