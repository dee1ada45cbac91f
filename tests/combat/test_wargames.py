"""Starting a wargame from a campaign (``combat.wargames``) and playing a Brethren of the
Coast game on its page and through the API: who sees what, bad input, the campaign log."""

import json

import pytest
from django.urls import reverse

from campaigns.models import CampaignLogEntry
from combat import services
from combat.models import Encounter
from combat.wargames import wargame_create, wargame_scenarios

from .conftest import resolve_to_the_end

pytestmark = pytest.mark.django_db

SCENARIO = "brethren/fleet_action"


@pytest.fixture
def wargame(campaign, gm, pc_a, pc_b):
    """Fleet Action: player_a's PC commands the English line, player_b's the French."""
    return wargame_create(campaign=campaign, user=gm, scenario_key=SCENARIO,
                          commanders={"en": f"pc:{pc_a.pk}", "fr": f"pc:{pc_b.pk}"})


def test_the_gm_picks_a_scenario_then_the_commanders_and_it_begins(campaign, gm_client, pc_a):
    url = reverse("combat:wargame_new", args=[campaign.pk])
    page = gm_client.get(url).content.decode()
    assert "Fleet Action" in page and "Beware the Kraken" in page
    page = gm_client.get(url, {"scenario": SCENARIO}).content.decode()
    assert "The English line: commanded by" in page and pc_a.title in page
    response = gm_client.post(f"{url}?scenario={SCENARIO}",
                              {"side_en": f"pc:{pc_a.pk}", "side_fr": "gm", "title": ""})
    encounter = Encounter.objects.get(engine="brethren")
    assert response.status_code == 302 and response.url == reverse("combat:detail",
                                                                     args=[encounter.pk])
    assert encounter.status == "active" and encounter.title == "Fleet Action"
    sides = {s["id"]: s for s in encounter.setup["sides"]}
    assert sides["en"]["commander"] == f"pc:{pc_a.pk}"
    assert sides["en"]["name"] == f"The English line ({pc_a.title})"
    assert sides["fr"]["commander"] == "side:fr"
    assert encounter.setup["settings"]["brethren_sea_wolves_share"] == "0.75"


def test_bad_choices_are_refused_per_field(campaign, gm_client, pc_a, player_a_client):
    url = reverse("combat:wargame_new", args=[campaign.pk])
    page = gm_client.get(url, {"scenario": "brethren/no_such"}).content.decode()
    assert "Select a valid choice" in page
    page = gm_client.post(f"{url}?scenario={SCENARIO}", {
        "side_en": f"pc:{pc_a.pk}", "side_fr": f"pc:{pc_a.pk}"}).content.decode()
    assert "A character commands one side only" in page
    page = gm_client.post(f"{url}?scenario={SCENARIO}", {
        "side_en": "pc:999999", "side_fr": "gm"}).content.decode()
    assert "Select a valid choice" in page
    assert not Encounter.objects.filter(engine="brethren").exists()
    assert player_a_client.get(url).status_code == 403


def test_each_player_sees_his_own_orders_only_until_all_are_in(wargame, gm_client,
                                                              player_a_client,
                                                              player_b_client, pc_a, pc_b):
    detail = reverse("combat:detail", args=[wargame.pk])
    act = reverse("combat:act", args=[wargame.pk])
    page_a = player_a_client.get(detail).content.decode()
    assert "<svg" in page_a and "HMS Arrow" in page_a and "La Gloire" in page_a
    assert "Reading the cards" not in page_a  # dice, not cards
    assert 'name="kind" value="orders:e1"' in page_a
    assert "orders:f1" not in page_a  # the French line's orders are player_b's
    response = player_a_client.post(act, {"actor": f"pc:{pc_a.pk}", "kind": "orders:e1",
                                           "choice": "move:to:f3+fire",
                                           "version": wargame.version})
    assert response.status_code == 302
    wargame.refresh_from_db()
    assert wargame.state["orders"] == {"e1": "move:to:f3+fire"}
    page_a = player_a_client.get(detail).content.decode()
    assert "Steer for the La Mouette, then fire as they bear" in page_a
    page_b = player_b_client.get(detail).content.decode()
    assert "Steer for the La Mouette" not in page_b and "move:to:f3" not in page_b
    assert "given (hidden until all are in)" in page_b
    api_b = player_b_client.get(reverse("api-encounter-detail", args=[wargame.pk])).json()
    assert "move:to:f3" not in json.dumps(api_b)
    assert "move:to:f3" in json.dumps(gm_client.get(
        reverse("api-encounter-detail", args=[wargame.pk])).json())
    # the rest of the turn's orders: then everything is revealed
    for _ in range(5):
        wargame.refresh_from_db()
        pending = [d for d in wargame.state["awaiting"] if d not in wargame.state["orders"]]
        ship = pending[0]
        client, pc = ((player_a_client, pc_a) if ship.startswith("e")
                      else (player_b_client, pc_b))
        assert client.post(act, {"actor": f"pc:{pc.pk}", "kind": f"orders:{ship}",
                                 "choice": "hold", "version": wargame.version}).status_code == 302
    wargame.refresh_from_db()
    assert wargame.state["round"] == 2
    page_b = player_b_client.get(detail).content.decode()
    assert "HMS Arrow: steer for the La Mouette, then fire as they bear" in page_b  # revealed


def test_an_illegal_order_changes_nothing(wargame, player_a_client, pc_a):
    url = reverse("api-encounter-act", args=[wargame.pk])
    before = (wargame.version, wargame.events.count(), wargame.state)
    for choice in ("move:N:9", "fire+fire", "explore", "move:to:nowhere"):
        response = player_a_client.post(url, {"actor": f"pc:{pc_a.pk}", "kind": "orders:e1",
                                              "choice": choice, "version": wargame.version},
                                        content_type="application/json")
        assert response.status_code == 400, choice
        assert "is not one of the choices" in response.content.decode()
    wargame.refresh_from_db()
    assert (wargame.version, wargame.events.count(), wargame.state) == before


def test_outsiders_see_nothing(wargame, outsider_client):
    assert outsider_client.get(reverse("combat:detail", args=[wargame.pk])).status_code == 404
    assert outsider_client.get(
        reverse("api-encounter-detail", args=[wargame.pk])).status_code == 404


def test_the_end_is_written_to_the_campaign_log(campaign, gm, gm_client):
    encounter = wargame_create(campaign=campaign, user=gm, scenario_key="brethren/first_broadside",
                               commanders={})
    act = reverse("combat:act", args=[encounter.pk])
    for _ in range(30):
        encounter.refresh_from_db()
        if encounter.status != "active":
            break
        detail = gm_client.get(reverse("api-encounter-detail", args=[encounter.pk])).json()
        decision = detail["decisions"][0]
        gm_client.post(act, {"actor": decision["actor"], "kind": decision["kind"],
                             "choice": decision["default"], "version": encounter.version})
    encounter.refresh_from_db()
    assert encounter.status == "finished"
    entry = CampaignLogEntry.objects.filter(campaign=campaign, kind="battle.finished").get()
    assert "The game ends" in entry.text
    assert entry.data["winner"] in ("a", "b", None)
    assert encounter.outcome["data"]["scores"].keys() == {"a", "b"}
    assert services.encounter_replay(encounter=encounter)["matches"]


def test_an_illegal_order_on_the_page_is_refused_with_the_reason(wargame, player_a_client,
                                                                 pc_a, pc_b):
    act = reverse("combat:act", args=[wargame.pk])
    before = (wargame.version, wargame.events.count(), wargame.state)
    response = player_a_client.post(act, {"actor": f"pc:{pc_a.pk}", "kind": "orders:e1",
                                          "choice": "move:N:9", "version": wargame.version},
                                    follow=True)
    assert "is not one of the choices" in response.content.decode()
    response = player_a_client.post(act, {"actor": f"pc:{pc_b.pk}", "kind": "orders:f1",
                                          "choice": "hold", "version": wargame.version},
                                    follow=True)
    assert "your own character" in response.content.decode()
    wargame.refresh_from_db()
    assert (wargame.version, wargame.events.count(), wargame.state) == before


def test_a_wargame_played_for_a_challenge_moves_its_missions_counter(campaign, gm, gm_client,
                                                                    pc_a, pc_b):
    """The New wargame page offers the mission's challenge (DECISIONS D6); the game's end
    meets it if a side a PC commands wins, fails it if the other side does, and counts once
    (``combat.challenges``)."""
    from campaigns.missions import services as missions
    from combat.challenges import players_won
    from rules.engine import get_engine

    mission = missions.mission_load_sample(campaign=campaign, actor=gm, key="scout_soukir_bay",
                                           characters=[pc_a.pk])
    challenge = missions.challenge_create(campaign=campaign, actor=gm, missions=[mission],
                                          description="beat the French line")
    page = gm_client.get(reverse("combat:wargame_new", args=[campaign.pk]),
                         {"scenario": SCENARIO}).content.decode()
    assert "For a challenge" in page and "beat the French line" in page
    encounter = wargame_create(campaign=campaign, user=gm, scenario_key=SCENARIO,
                               commanders={"en": f"pc:{pc_a.pk}"}, challenge=challenge.pk)
    resolve_to_the_end(encounter, gm)
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.FINISHED and encounter.challenge_id == challenge.pk
    won = players_won(encounter, get_engine("brethren").outcome(encounter.state))
    mission.refresh_from_db()
    assert (mission.successes, mission.failed) == {True: (1, 0), False: (0, 1),
                                                   None: (0, 0)}[won]
    assert won == {"en": True, "fr": False, None: None}[encounter.outcome["winner"]]


def test_a_landing_party_played_for_a_challenge_ends_in_the_journal(campaign, gm, pc_a):
    """The HFG landing party started from the campaign for a mission's challenge, its
    landing party commanded by a PC, resolved to the end: the battle's end and the
    challenge's result are in the journal, and the mission counts it (the landing party
    winning meets it, the shore defenders winning fails it, ``combat.challenges``)."""
    from campaigns.missions import services as missions

    mission = missions.mission_load_sample(campaign=campaign, actor=gm, key="scout_soukir_bay",
                                           characters=[pc_a.pk])
    challenge = missions.challenge_create(campaign=campaign, actor=gm, missions=[mission],
                                          description="take the shore battery")
    encounter = wargame_create(campaign=campaign, user=gm, scenario_key="hfg/landing_party",
                               commanders={"a": f"pc:{pc_a.pk}"}, challenge=challenge.pk)
    assert encounter.state["sides"]["a"]["commander"] == f"pc:{pc_a.pk}"
    resolve_to_the_end(encounter, gm)
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.FINISHED
    side = encounter.outcome["data"]["winner_side"]
    assert side in ("a", "b")  # the landing party's 20 bounds a side never end in a draw
    finished = CampaignLogEntry.objects.filter(campaign=campaign, kind="battle.finished").get()
    assert encounter.outcome["summary"] in finished.text
    word = "met" if side == "a" else "failed"
    entry = CampaignLogEntry.objects.filter(campaign=campaign, kind=f"challenge.{word}").get()
    assert "take the shore battery" in entry.text and entry.data["encounter"] == encounter.pk
    mission.refresh_from_db()
    assert (mission.successes, mission.failed) == ((1, 0) if side == "a" else (0, 1))


@pytest.mark.parametrize(("winner_side", "met"), [("a", True), ("b", False), (None, None)])
def test_who_won_a_land_battle_for_a_challenge(winner_side, met):
    """HFG's outcome names the winning side's name as its winner and the side id in its
    data: the side a PC commands winning meets the challenge, the other fails it, a draw
    counts for nobody."""
    from combat.challenges import players_won
    from rules.engine import Outcome

    setup = {"sides": [{"id": "a", "name": "The landing party", "commander": "pc:7"},
                       {"id": "b", "name": "The shore defenders", "commander": "side:b"}]}
    name = {"a": "The landing party", "b": "The shore defenders", None: None}[winner_side]
    outcome = Outcome(name, "draw" if winner_side is None else "break", "",
                      {"winner_side": winner_side})
    assert players_won(Encounter(engine="hfg", setup=setup), outcome) is met


def test_a_kraken_fleet_buys_a_ship_on_the_page_hidden_from_the_other_player(
        campaign, gm, gm_client, player_a_client, player_b_client, outsider_client, pc_a, pc_b):
    """Beware the Kraken (Brethren L112-L113): player A's fleet lost the Griffin and has 7
    gold at home; his page asks him first whether to buy a ship in her place; player B sees
    neither the question nor the answer until the orders are revealed; the GM sees it."""
    encounter = wargame_create(campaign=campaign, user=gm,
                               scenario_key="brethren/beware_the_kraken",
                               commanders={"a": f"pc:{pc_a.pk}", "b": f"pc:{pc_b.pk}"})
    state = encounter.state
    state["ships"]["a2"]["sunk"] = True
    state["sides"]["a"]["home_coins"] = [{"id": f"h{v}", "value": v, "special": None}
                                         for v in (1, 2, 4)]
    state["buying"] = ["a"]
    Encounter.objects.filter(pk=encounter.pk).update(state=state)
    detail = reverse("combat:detail", args=[encounter.pk])
    page_a = player_a_client.get(detail).content.decode()
    assert 'name="kind" value="buy:a"' in page_a
    assert "Buy a ship in place of the Griffin?" in page_a
    assert "Buy a Sloop for 6 gold" in page_a
    page_b = player_b_client.get(detail).content.decode()
    assert "buy:a" not in page_b and "Buy a Sloop" not in page_b
    encounter.refresh_from_db()
    refused = player_b_client.post(reverse("api-encounter-act", args=[encounter.pk]), {
        "actor": f"pc:{pc_a.pk}", "kind": "buy:a", "choice": "buy:sloop",
        "version": encounter.version}, content_type="application/json")
    assert refused.status_code in (400, 403)
    response = player_a_client.post(reverse("combat:act", args=[encounter.pk]), {
        "actor": f"pc:{pc_a.pk}", "kind": "buy:a", "choice": "buy:sloop",
        "version": encounter.version})
    assert response.status_code == 302
    encounter.refresh_from_db()
    assert encounter.state["orders"]["buy:a"] == "buy:sloop"
    for client in (player_b_client, outsider_client):
        body = client.get(reverse("api-encounter-detail", args=[encounter.pk]))
        assert "buy:sloop" not in body.content.decode()
    assert "buy:sloop" in gm_client.get(
        reverse("api-encounter-detail", args=[encounter.pk])).content.decode()


@pytest.mark.parametrize("scenario_key", sorted(wargame_scenarios()))
def test_every_wargame_opens_at_its_start(campaign, gm, gm_client, scenario_key):
    """Every scenario the New wargame page offers begins and its page opens, before its
    first decision is made (a British vs Pirates game whose opening has not yet set the
    wind knows no ship's speed: its page said so with a 500)."""
    encounter = wargame_create(campaign=campaign, user=gm, scenario_key=scenario_key,
                               commanders={})
    for name in ("combat:detail", "combat:poll"):
        assert gm_client.get(reverse(name, args=[encounter.pk])).status_code == 200


def test_an_empty_or_unknown_order_is_refused_in_plain_words(wargame, player_a_client, pc_a):
    """Posted by hand (the page offers only the orders open): no choice at all asks for one,
    and a key that is not among the options is refused without quoting it back."""
    act = reverse("combat:act", args=[wargame.pk])
    before = (wargame.version, wargame.events.count(), wargame.state)
    for choice, words in (("", "Choose one of the options."),
                          ("move:to:nowhere", "That is not one of the choices for “")):
        response = player_a_client.post(act, {"actor": f"pc:{pc_a.pk}", "kind": "orders:e1",
                                              "choice": choice, "version": wargame.version},
                                        follow=True)
        page = response.content.decode()
        assert words in page and "{}" not in page and "nowhere" not in page, choice
    wargame.refresh_from_db()
    assert (wargame.version, wargame.events.count(), wargame.state) == before
