"""A British vs Pirates game on its page (engine ``bvp``, started by the New wargame page)
and the campaign's card data page (``combat.bvp_cards``): who sees which cards, bad input,
a stale save, and a new game taking the GM's cards."""

import json
import re

import pytest
from django.urls import reverse

from combat.models import BvpCardSet, Encounter, Job
from combat.wargames import wargame_create
from rules.bvp.data import provisional

pytestmark = pytest.mark.django_db

SCENARIO = "bvp/first_broadside"


@pytest.fixture
def game(campaign, gm, pc_a, pc_b):
    """First broadside: player_a's PC commands the British, player_b's the Pirates."""
    return wargame_create(campaign=campaign, user=gm, scenario_key=SCENARIO,
                          commanders={"british": f"pc:{pc_a.pk}", "pirates": f"pc:{pc_b.pk}"})


def _hand_names(encounter, side):
    state = encounter.state
    return [state["cards"]["skills"][state["card_of"][c]]["name"]
            for c in state["sides"][side]["hand"]]


def test_the_page_shows_the_board_the_card_set_and_only_your_own_hand(
        game, player_a_client, player_b_client, outsider_client, gm_client):
    detail = reverse("combat:detail", args=[game.pk])
    page_a = player_a_client.get(detail).content.decode()
    assert "<svg" in page_a and "British Frigate" in page_a and "Pirate Frigate" in page_a
    assert "provisional card data" in page_a
    assert 'name="kind" value="turn"' in page_a
    page_b = player_b_client.get(detail).content.decode()
    assert 'name="kind" value="turn"' not in page_b
    mine = set(_hand_names(game, "british")) - set(_hand_names(game, "pirates"))
    for name in mine:
        assert name in page_a and name not in page_b
    api_b = json.dumps(player_b_client.get(
        reverse("api-encounter-detail", args=[game.pk])).json())
    assert all(name not in api_b for name in mine)
    assert '"decks"' not in api_b
    assert outsider_client.get(detail).status_code == 404
    assert "Reading the cards" not in gm_client.get(detail).content.decode()


def test_the_cards_of_an_attack_stay_hidden_until_both_are_in(game, player_a_client,
                                                            player_b_client, pc_a, pc_b):
    detail = reverse("combat:detail", args=[game.pk])
    act = reverse("combat:act", args=[game.pk])
    post = player_a_client.post(act, {"actor": f"pc:{pc_a.pk}", "kind": "turn",
                                      "choice": "b1:fire:p1:starboard", "version": game.version})
    assert post.status_code == 302
    game.refresh_from_db()
    assert game.state["phase"] == "cards"
    assert player_a_client.post(act, {"actor": f"pc:{pc_a.pk}", "kind": "cards:attack",
                                      "choice": "none", "version": game.version}
                                ).status_code == 302
    page_b = player_b_client.get(detail).content.decode()
    assert "attacker: chosen (hidden until both are in)" in page_b
    api_b = json.dumps(player_b_client.get(
        reverse("api-encounter-detail", args=[game.pk])).json())
    assert "You choose no card" not in api_b
    game.refresh_from_db()
    assert player_b_client.post(act, {"actor": f"pc:{pc_b.pk}", "kind": "cards:defend",
                                      "choice": "none", "version": game.version}
                                ).status_code == 302
    game.refresh_from_db()
    assert game.state["phase"] == "turn"
    assert "cannons at 3 hexes" in player_b_client.get(detail).content.decode()


def test_a_choice_not_offered_is_refused_and_changes_nothing(game, player_a_client, pc_a):
    url = reverse("api-encounter-act", args=[game.pk])
    before = (game.version, game.events.count(), game.state)
    for choice in ("b1:move:P::9", "b1:board:p1", "p1:move:P::1", "end+end"):
        response = player_a_client.post(url, {"actor": f"pc:{pc_a.pk}", "kind": "turn",
                                              "choice": choice, "version": game.version},
                                        content_type="application/json")
        assert response.status_code == 400, choice
    game.refresh_from_db()
    assert (game.version, game.events.count(), game.state) == before


def _cards(name="Our cards"):
    data = provisional()
    data.update(name=name, provisional=False)
    data["ships"]["british_frigate"]["speed"] = [2, 2, 2, 1, 2, 2]
    return data


def test_the_gm_enters_the_card_data_and_new_games_use_it(campaign, gm, gm_client, pc_a):
    url = reverse("combat:bvp_cards", args=[campaign.pk])
    page = gm_client.get(url).content.decode()
    assert "uses the provisional card data" in page and "18lb Exquisite Cannons" in page
    response = gm_client.post(url, {"data": json.dumps(_cards()), "in_use": "on",
                                    "version": ""})
    assert response.status_code == 302
    card_set = BvpCardSet.objects.get(campaign=campaign)
    assert card_set.data["name"] == "Our cards" and card_set.in_use
    encounter = wargame_create(campaign=campaign, user=gm, scenario_key=SCENARIO,
                               commanders={})
    assert encounter.setup["card_data"]["name"] == "Our cards"
    assert encounter.state["card_set"] == {"name": "Our cards", "provisional": False}
    page = gm_client.get(reverse("combat:detail", args=[encounter.pk])).content.decode()
    assert "Cards: Our cards" in page and "provisional card data" not in page
    response = gm_client.post(url, {"data": json.dumps(_cards()), "version": card_set.version})
    card_set.refresh_from_db()
    assert not card_set.in_use and card_set.version == 2
    assert Encounter.objects.count() == 1
    encounter = wargame_create(campaign=campaign, user=gm, scenario_key=SCENARIO, commanders={})
    assert encounter.state["card_set"]["provisional"] is True


@pytest.mark.parametrize(("change", "reason"), [
    (lambda d: d["ships"]["british_frigate"].update(speed=[1, 2]), "six speeds"),
    (lambda d: d["captains"]["redne"].update(morale=9), "captains.redne.morale"),
    (lambda d: d["skills"]["brace"].update(colour="RED"), "a red card"),
    (lambda d: d.pop("decks"), "'decks' is missing"),
])
def test_bad_card_data_is_refused_with_the_reason_and_nothing_is_saved(campaign, gm_client,
                                                                      change, reason):
    url = reverse("combat:bvp_cards", args=[campaign.pk])
    data = _cards()
    change(data)
    page = gm_client.post(url, {"data": json.dumps(data), "in_use": "on"}).content.decode()
    assert reason in page.replace("&#x27;", "'")
    assert 'aria-invalid="true"' in page
    assert not BvpCardSet.objects.exists()
    page = gm_client.post(url, {"data": "{not json", "in_use": "on"}).content.decode()
    assert 'aria-invalid="true"' in page and not BvpCardSet.objects.exists()


def test_a_stale_save_is_refused_and_players_and_outsiders_are_kept_out(
        campaign, gm_client, player_a_client, outsider_client):
    url = reverse("combat:bvp_cards", args=[campaign.pk])
    gm_client.post(url, {"data": json.dumps(_cards("First")), "in_use": "on", "version": ""})
    gm_client.post(url, {"data": json.dumps(_cards("Second")), "in_use": "on", "version": 1})
    page = gm_client.post(url, {"data": json.dumps(_cards("Third")), "in_use": "on",
                                "version": 1}).content.decode()
    assert "Another GM saved the card data" in page
    assert BvpCardSet.objects.get().data["name"] == "Second"
    assert player_a_client.get(url).status_code == 403
    assert player_a_client.post(url, {"data": json.dumps(_cards("Mine"))}).status_code == 403
    assert outsider_client.get(url).status_code == 404
    assert BvpCardSet.objects.get().data["name"] == "Second"


def test_resolve_the_rest_plays_it_out_and_writes_the_end_to_the_campaign_log(campaign, gm):
    from campaigns.models import CampaignLogEntry
    from combat import services

    encounter = wargame_create(campaign=campaign, user=gm, scenario_key="bvp/merchant_escort",
                               commanders={})
    job = services.encounter_resolve_rest(encounter=encounter, user=gm)
    for _ in range(100):  # a slice a call: a long game is handed on from slice to slice
        job = services.job_run(job_id=job.pk)
        if job is None or job.status not in Job.OPEN:
            break
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.FINISHED
    assert encounter.outcome["data"]["card_set"]["provisional"] is True
    assert CampaignLogEntry.objects.filter(campaign=campaign, kind="battle.finished").exists()
    assert services.encounter_replay(encounter=encounter)["matches"]


def test_a_discarded_card_is_named_to_its_holder_only(game, player_a_client, pc_a):
    act = reverse("combat:act", args=[game.pk])
    card = game.state["sides"]["british"]["hand"][0]
    player_a_client.post(act, {"actor": f"pc:{pc_a.pk}", "kind": "turn",
                               "choice": f"discard:{card}", "version": game.version})
    game.refresh_from_db()
    named = game.events.get(kind="cards.discarded")
    assert named.visible_to == [f"pc:{pc_a.pk}"]
    assert game.events.get(kind="cards.discard").visible_to is None


def test_the_log_names_the_skill_cards_drawn_and_shows_no_card_ids(game, player_a_client):
    page = player_a_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    log = page.split('id="event-log"')[1]
    drawn = log.split('data-kind="cards.drawn"')[1].split("</li>")[0]
    assert all(name in drawn for name in _hand_names(game, "british"))
    assert not re.search(r"\bk\d+\b", log), "a card's instance id reached the page"


def test_the_side_is_named_once_in_the_decision_and_the_your_turn_banner(game, player_a_client):
    page = player_a_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    banner = page.split('class="your-turn message"')[1].split("</p>")[0]
    legend = page.split('data-kind="turn"')[1].split("</legend>")[0]
    for text in (banner, legend):
        assert text.count("The British") == 1 and "Your ships&#x27; actions" in text


def test_a_gm_commanding_one_side_against_a_player_sees_only_his_own_hand(
        campaign, gm, pc_a, gm_client, player_a_client):
    """Hands are hidden from opponents (BvP L38): the GM who commands the Pirates against
    player_a's British sees his own hand and the table, not the British hand, the British
    draws, their decisions' options or the decks, on the page and in the API."""
    game = wargame_create(campaign=campaign, user=gm, scenario_key=SCENARIO,
                          commanders={"british": f"pc:{pc_a.pk}", "pirates": "gm"})
    detail = reverse("combat:detail", args=[game.pk])
    page = gm_client.get(detail).content.decode()
    assert 'data-side="pirates"' in page.split('class="fleets"')[0]
    assert 'class="hand" data-side="british"' not in page
    assert 'data-kind="cards.drawn"' in page  # the Pirates' own draw
    drawn = game.events.get(kind="cards.drawn", data__side="british")
    assert drawn.text not in page
    assert 'name="kind" value="turn"' not in page  # the British turn is the player's
    api = gm_client.get(reverse("api-encounter-detail", args=[game.pk])).json()
    text = json.dumps(api)
    assert drawn.text not in text and '"decks"' not in text
    assert "british" not in [k for k, v in api["view"]["sides"].items() if "hand" in v]
    assert 'class="hand" data-side="british"' in player_a_client.get(detail).content.decode()


@pytest.mark.parametrize("commanders", [{"british": "gm", "pirates": "gm"}, "players"])
def test_the_gm_sees_every_hand_where_he_commands_every_side_or_referees(
        campaign, gm, pc_a, pc_b, gm_client, commanders):
    if commanders == "players":
        commanders = {"british": f"pc:{pc_a.pk}", "pirates": f"pc:{pc_b.pk}"}
    game = wargame_create(campaign=campaign, user=gm, scenario_key=SCENARIO,
                          commanders=commanders)
    page = gm_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    for side in ("british", "pirates"):
        assert f'class="hand" data-side="{side}"' in page
        assert game.events.get(kind="cards.drawn", data__side=side).text in page


def test_the_log_names_the_round_once(game, player_a_client):
    """The turn's opening says its round ("Round 1: The British ... to play."): the log does
    not put "Round 1" before it again."""
    page = player_a_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    turn = page.split('data-kind="turn.start"')[1].split("</li>")[0]
    assert turn.count("Round 1") == 1 and "to play." in turn


def test_before_the_first_round_the_counter_says_so(campaign, gm, pc_a, pc_b, gm_client):
    """While the sides roll for the first player and set the wind, the engine's round is 0:
    the page says "Before the first round", not "Round 0"; once the first turn begins,
    "Round 1"."""
    from combat.services import encounter_act
    from rules.engine import get_engine

    game = wargame_create(campaign=campaign, user=gm, scenario_key="bvp/annihilation_duel",
                          commanders={"british": f"pc:{pc_a.pk}", "pirates": f"pc:{pc_b.pk}"})
    detail = reverse("combat:detail", args=[game.pk])
    assert game.state["phase"] == "opening"
    header = gm_client.get(detail).content.decode().split('<article class="bvp"')[1].split(
        "</header>")[0]
    assert '<span class="round-now">Before the first round</span>' in header
    assert "Round 0" not in header
    for kind in ("opening", "wind"):
        decision = get_engine("bvp").pending(game.state)[0]
        assert decision.kind == kind
        encounter_act(encounter=game, user=gm, actor=decision.actor, decision_kind=kind,
                      choice=decision.options[0].key, expected_version=game.version)
        game.refresh_from_db()
    page = gm_client.get(detail).content.decode()
    assert '<span class="round-now">Round 1</span>' in page
    assert "Before the first round" not in page


def _hand_shown(page: str, side: str) -> bool:
    return f'class="hand" data-side="{side}"' in page


def test_a_gm_commanding_two_sides_against_a_player_sees_and_plays_both_and_no_more(
        campaign, gm, pc_a, gm_client, player_a_client, player_b_client, outsider_client):
    """Three factions: the GM commands the British and the Pirates, player_a's PC the
    Privateers, player_b no side. The GM's page and API show both his hands (not the first
    side's only) and not the Privateers'; he makes each of his sides' decisions, not the
    player's; player_a sees his own hand only, player_b none, the outsider nothing."""
    from rules.engine import get_engine

    game = wargame_create(campaign=campaign, user=gm, scenario_key="bvp/three_factions_escort",
                          commanders={"british": "gm", "pirates": "gm",
                                      "privateers": f"pc:{pc_a.pk}"})
    detail = reverse("combat:detail", args=[game.pk])
    api_url = reverse("api-encounter-detail", args=[game.pk])
    drawn = {side: game.events.get(kind="cards.drawn", data__side=side).text
             for side in ("british", "pirates", "privateers")}
    page = gm_client.get(detail).content.decode()
    api = gm_client.get(api_url).json()
    assert sorted(k for k, v in api["view"]["sides"].items() if "hand" in v) == [
        "british", "pirates"]
    for side in ("british", "pirates"):
        assert _hand_shown(page, side) and drawn[side] in page
    assert not _hand_shown(page, "privateers") and drawn["privateers"] not in page
    assert drawn["privateers"] not in json.dumps(api) and '"decks"' not in json.dumps(api)
    page_a = player_a_client.get(detail).content.decode()
    assert _hand_shown(page_a, "privateers") and drawn["privateers"] in page_a
    assert not any(_hand_shown(page_a, s) or drawn[s] in page_a for s in ("british", "pirates"))
    page_b = player_b_client.get(detail).content.decode()
    api_b = json.dumps(player_b_client.get(api_url).json())
    for side, text in drawn.items():
        assert not _hand_shown(page_b, side) and text not in page_b and text not in api_b
    assert outsider_client.get(detail).status_code == 404

    act = reverse("combat:act", args=[game.pk])
    played = set()
    engine = get_engine("bvp")
    for _ in range(40):  # the opening, then turns, until each of the GM's sides has played
        if played >= {"side:british", "side:pirates"}:
            break
        decision = engine.pending(game.state)[0]
        page = gm_client.get(detail).content.decode()
        offered = f'data-actor="{decision.actor}"' in page
        assert offered == (decision.actor != f"pc:{pc_a.pk}"), decision
        client = gm_client if offered else player_a_client
        response = client.post(act, {"actor": decision.actor, "kind": decision.kind,
                                     "choice": decision.default, "version": game.version})
        assert response.status_code == 302
        before = game.version
        game.refresh_from_db()
        assert game.version > before, decision
        if offered:
            played.add(decision.actor)
    assert played == {"side:british", "side:pirates"}


def test_a_player_whose_two_pcs_command_two_sides_sees_both_hands_and_no_other(
        campaign, gm, player_a, pc_a, pc_b, player_a_client, player_b_client):
    """player_a's two PCs command the British and the Pirates, player_b's the Privateers:
    player_a sees both his hands (not the first PC's only) and not player_b's; player_b sees
    his own and neither of player_a's."""
    from characters.services import character_create

    second = character_create(campaign=campaign, actor=gm, owner=player_a, name="Second PC",
                              rank="Midshipman")
    game = wargame_create(campaign=campaign, user=gm, scenario_key="bvp/three_factions_escort",
                          commanders={"british": f"pc:{pc_a.pk}", "pirates": f"pc:{second.pk}",
                                      "privateers": f"pc:{pc_b.pk}"})
    detail = reverse("combat:detail", args=[game.pk])
    drawn = {side: game.events.get(kind="cards.drawn", data__side=side).text
             for side in ("british", "pirates", "privateers")}
    page_a = player_a_client.get(detail).content.decode()
    page_b = player_b_client.get(detail).content.decode()
    for side in ("british", "pirates"):
        assert _hand_shown(page_a, side) and drawn[side] in page_a
        assert not _hand_shown(page_b, side) and drawn[side] not in page_b
    assert not _hand_shown(page_a, "privateers") and drawn["privateers"] not in page_a
    assert _hand_shown(page_b, "privateers") and drawn["privateers"] in page_b
    api_a = player_a_client.get(reverse("api-encounter-detail", args=[game.pk])).json()
    assert sorted(k for k, v in api_a["view"]["sides"].items() if "hand" in v) == [
        "british", "pirates"]
