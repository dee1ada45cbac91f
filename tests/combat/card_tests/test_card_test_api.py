"""The card test API with the four personas: create (the GM calls, a player proposes),
detail with odds, the steps, 400/403/404/409 with nothing changed, and nothing hidden in a
player's JSON."""

import json

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


def post(client, url, data):
    return client.post(url, json.dumps(data), content_type="application/json")


def step(test, name):
    return reverse(f"api-card-test-{name}", args=[test.pk])


@pytest.fixture
def secret_test(campaign, gm, pc_a, npc):
    return card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="seamanship",
                          opposition="npc", opponent=npc.pk, opponent_skill="command",
                          opponent_modifiers=[{"source": "Sea Dog Cunning", "cards": 2}],
                          intent="slip past the Nobody's frigate")


@pytest.mark.parametrize("persona,expected", [
    ("gm", 200), ("player_a", 200), ("player_b", 200), ("outsider", 404)])
def test_the_tests_are_for_members(request, persona, expected, campaign, secret_test):
    c = client_of(request, persona)
    listed = c.get(reverse("api-campaign-card-tests", args=[campaign.pk]))
    detail = c.get(reverse("api-card-test-detail", args=[secret_test.pk]))
    assert listed.status_code == expected and detail.status_code == expected
    if expected == 200:
        assert [t["id"] for t in listed.json()] == [secret_test.pk]
        assert detail.json()["status"] == "awaiting_confirmation"


def test_the_gm_calls_and_a_player_proposes(gm_client, player_a_client, outsider_client,
                                            campaign, pc_a, npc):
    url = reverse("api-campaign-card-tests", args=[campaign.pk])
    setup = {"character": pc_a.pk, "skill": "seamanship", "opposition": "npc",
             "opponent": npc.pk, "opponent_skill": "command", "intent": "outsail him",
             "modifiers": [{"source": "Crusty Old Seadog", "cards": 1}], "at_risk": "health"}
    called = post(gm_client, url, setup)
    assert called.status_code == 201
    body = called.json()
    assert body["status"] == "awaiting_confirmation" and body["origin"] == "gm"
    assert body["opposition"]["skill"] == "command"
    assert body["odds"]["final"]["win"] + body["odds"]["final"]["lose"] + \
        body["odds"]["final"]["stalemate"] == pytest.approx(1)
    setup.pop("opponent_skill")
    proposed = post(player_a_client, url, setup)
    assert proposed.status_code == 201 and proposed.json()["status"] == "proposed"
    assert proposed.json()["problem"] == "The GM has still to settle the opposition."
    assert post(outsider_client, url, setup).status_code == 404
    assert post(player_a_client, url, {**setup, "opponent_skill": "command"}).status_code == 403
    assert Encounter.objects.count() == 2


def test_the_player_confirms_and_everyone_sees_the_cards(request, campaign, secret_test,
                                                         player_a_client, player_b_client,
                                                         gm_client, outsider_client):
    url = step(secret_test, "confirm")
    seen = secret_test.version
    assert post(outsider_client, url, {"version": seen}).status_code == 404
    assert post(player_b_client, url, {"version": seen}).status_code == 403
    assert post(gm_client, url, {"version": seen}).status_code == 403
    stale = post(player_a_client, url, {"version": 0})
    assert stale.status_code == 409 and stale.json()["version"] == seen
    assert post(player_a_client, url, {}).status_code == 400
    secret_test.refresh_from_db()
    assert card_test_status(secret_test) == "awaiting_confirmation"
    done = post(player_a_client, url, {"version": seen})
    assert done.status_code == 200
    assert done.json()["status"] in ("done", "awaiting_joker")
    again = post(player_a_client, url, {"version": done.json()["version"]})
    assert again.status_code == 409 and "cannot be confirmed now" in again.json()["detail"]
    seen = player_b_client.get(reverse("api-card-test-detail", args=[secret_test.pk])).json()
    cards = seen["record"] or seen["pending"]
    assert cards["rounds"] or cards["current"]


def test_a_player_s_json_never_holds_the_npc_s_side(campaign, secret_test, turn, player_a,
                                                    player_b_client, player_a_client,
                                                    gm_client):
    def seen(client):
        texts = [client.get(reverse("api-card-test-detail", args=[secret_test.pk])).content,
                 client.get(reverse("api-campaign-card-tests", args=[campaign.pk])).content,
                 client.get(reverse("api-campaign-log", args=[campaign.pk])).content,
                 client.get(reverse("api-campaign-detail", args=[campaign.pk])).content]
        return b"".join(texts).decode()

    seed = secret_test.seed
    before = {c: seen(c) for c in (player_a_client, player_b_client, gm_client)}
    turn(secret_test, player_a, "4S  4C KD KS QH  4H AH 2D 7S 9D 10C 2C")
    after = {c: seen(c) for c in (player_a_client, player_b_client, gm_client)}
    for client in (player_a_client, player_b_client):
        for text in (before[client], after[client]):
            for secret in ("command", "Command", "Sea Dog Cunning", "npc-secret", "rng"):
                assert secret not in text
        assert '"secret": true' in after[client] or '"secret":true' in after[client]
    assert "Sea Dog Cunning" in before[gm_client] and "Sea Dog Cunning" in after[gm_client]
    assert "4H" in after[player_b_client]  # the cards, once turned, are everyone's
    # The seed is nobody's before the draw (the GM's neither: it is revealed at the end).
    assert not any(seed in text for text in before.values())
    assert secret_test.seed_hash in before[player_b_client]
    secret_test.refresh_from_db()
    if secret_test.status == "finished":
        assert seed in after[player_b_client]


def test_the_joker_is_named_through_the_api(race, turn, player_a, player_a_client,
                                            player_b_client):
    test = turn(race(reputations=[]), player_a, "4S  JK KD KS QH JH  4H AH 2D 7S")
    url = step(test, "joker")
    body = player_a_client.get(reverse("api-card-test-detail", args=[test.pk])).json()
    assert body["status"] == "awaiting_joker" and body["actions"] == ["joker"]
    assert body["pending"]["current"]["hands"][0]["cards"][0] == "JK"
    assert post(player_b_client, url, {"version": test.version, "card": "4C"}).status_code == 403
    bad = post(player_a_client, url, {"version": test.version, "card": "ZZ"})
    assert bad.status_code == 400 and "card" in bad.json()
    done = post(player_a_client, url, {"version": test.version, "card": ""})
    assert done.status_code == 200
    assert done.json()["record"]["rounds"][0]["hands"][0]["cards"][0] == "JK=4S"


def test_accept_decline_and_cancel(gm_client, player_a_client, player_b_client, campaign, pc_a):
    url = reverse("api-campaign-card-tests", args=[campaign.pk])
    setup = {"character": pc_a.pk, "skill": "wealth", "opposition": "difficulty",
             "difficulty": "routine", "intent": "a dress uniform", "at_risk": "wealth"}
    first = post(player_a_client, url, setup).json()
    second = post(player_a_client, url, setup).json()
    third = post(player_a_client, url, setup).json()
    test = Encounter.objects.get(pk=first["id"])
    assert post(player_b_client, step(test, "accept"), {"version": 1}).status_code == 403
    assert post(player_a_client, step(test, "accept"), {"version": 1}).status_code == 403
    before = gm_client.get(reverse("api-card-test-detail", args=[test.pk])).json()
    assert before["seed_hash"] is None  # a proposal has not been called yet
    accepted = post(gm_client, step(test, "accept"), {"version": 1, "difficulty": "4"})
    assert accepted.status_code == 200 and accepted.json()["status"] == "awaiting_confirmation"
    assert accepted.json()["opposition"]["label"] == "4 cards"
    assert accepted.json()["seed_hash"] == Encounter.objects.get(pk=test.pk).seed_hash
    assert post(gm_client, step(test, "accept"), {"version": 2}).status_code == 409
    declined = post(gm_client, step(Encounter.objects.get(pk=second["id"]), "decline"),
                    {"version": 1, "reason": "Not now."})
    assert declined.json()["status"] == "declined" and declined.json()["decline_reason"] == \
        "Not now."
    cancelled = post(player_a_client, step(Encounter.objects.get(pk=third["id"]), "cancel"),
                     {"version": 1})
    assert cancelled.json()["status"] == "cancelled"


BAD = [
    ({"reputations": [1, 2]}, "reputations"),
    ({"skill": "sorcery"}, "skill"),
    ({"opposition": "difficulty", "difficulty": "-3"}, "difficulty"),
    ({"modifiers": [{"source": "Storm", "cards": -99}]}, "modifiers"),
    ({"modifiers": [{"source": "Storm", "cards": "lots"}]}, "modifiers"),
    ({"at_risk": "health", "dead": True}, "detail"),
    ({"helpers": ["x"]}, "helpers"),
]


@pytest.mark.parametrize("changes,field", BAD)
def test_bad_input_answers_400_with_the_reason(gm_client, campaign, pc_a, changes, field):
    changes = dict(changes)
    if changes.pop("dead", False):
        type(pc_a).objects.filter(pk=pc_a.pk).update(health_state=DamageState.DEAD)
    setup = {"character": pc_a.pk, "skill": "seamanship", "opposition": "difficulty",
             "difficulty": "routine", "intent": "try", **changes}
    response = post(gm_client, reverse("api-campaign-card-tests", args=[campaign.pk]), setup)
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert not Encounter.objects.exists()


def test_the_schema_has_the_card_test_endpoints(gm_client):
    text = gm_client.get(reverse("api-schema")).content.decode()
    for path in ("/api/campaigns/{id}/card-tests/", "/api/card-tests/{id}/confirm/",
                 "/api/card-tests/{id}/joker/", "/api/characters/{id}/reputations/"):
        assert path in text


def test_a_reputation_in_the_pool_is_at_risk(race, distrusted, player_a_client, gm_client):
    # A reputation used and lost is damaged (D1): the player agreeing to the stakes sees it
    # on the line, with no area declared, on the page and in the API.
    test = race()
    for client in (player_a_client, gm_client):
        body = client.get(reverse("api-card-test-detail", args=[test.pk])).json()
        assert body["at_risk"] == ("the reputation “Distrusted by Captain Jones” (in the "
                                   "pool: damaged if the test is lost)")
        page = client.get(reverse("card_tests:detail", args=[test.campaign_id, test.pk]))
        assert "Distrusted by Captain Jones” (in the pool" in page.content.decode()
        assert ": nothing" not in page.content.decode()
    both = race(at_risk="health")
    assert player_a_client.get(reverse("api-card-test-detail", args=[both.pk])).json()[
        "at_risk"].startswith("Health; the reputation “Distrusted by Captain Jones”")
    same = race(at_risk=f"reputation:{distrusted.pk}")
    assert player_a_client.get(reverse("api-card-test-detail", args=[same.pk])).json()[
        "at_risk"] == "the reputation “Distrusted by Captain Jones”"
