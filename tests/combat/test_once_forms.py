"""The create forms of the ships and combat pages sent twice make their record once
(``campaigns.once``): a ship, a ship reputation, Renowned Name's +1, a repair test, a battle,
a wargame, a fight, a card test, a character or ship draft, the book's characters, the odds
(from the new battle's form or a running battle) and "Resolve the rest"'s job, and the
Articles of War's charge; the same token posted again goes to what the first made. The new
battle's form has two create buttons: its token makes one battle and one odds run. Two
connections posting one battle's form at once make one battle (PostgreSQL)."""

import re
from functools import partial

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from campaigns.once import FIELD
from characters.models import Character, Infraction
from combat.models import Encounter, Job, Simulation
from ships.models import Ship, ShipReputation, ShipType
from ships.services import ship_update
from tests.concurrency import at_once

pytestmark = pytest.mark.django_db


def token_in(page, form: str) -> str:
    """The one-time token of the form of ``page`` whose opening tag holds ``form`` (its
    action or its id)."""
    found = re.search(rf'<form [^>]*{re.escape(form)}[^>]*>(?:(?!</form>).)*?name="{FIELD}" '
                      r'value="([^"]+)"', page.content.decode(), re.S)
    assert found, f"no one-time token in the form {form!r}"
    return found.group(1)


@pytest.fixture
def battle(campaign, gm, pc_ship, enemy_ship):
    from combat.services import encounter_create, encounter_start
    from ships.services import naval_setup

    encounter = encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title="Once battle",
        setup=naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, weather="steady_breeze",
                          start_distance=3), ships=[pc_ship, enemy_ship])
    return encounter_start(encounter=encounter, user=gm, expected_version=encounter.version)


def naval(pc_ship, enemy_ship) -> dict:
    return {"pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk, "weather": "steady_breeze",
            "start_distance": "3"}


@pytest.fixture
def forms(campaign, gm, pc_a, pc_b, pc_ship, enemy_ship):
    """Each create form: who sends it, its page, where it posts (None: the page itself),
    the posted data, the records it makes. The token is the one of the form that posts
    there, or of the page's (only) form when that posts to its page or a button's
    ``formaction`` posts it elsewhere."""
    ship_page = reverse("ships:detail", args=[pc_ship.pk])
    new_battle = reverse("combat:new", args=[campaign.pk])
    wargame = reverse("combat:wargame_new", args=[campaign.pk]) + "?scenario=brethren/fleet_action"
    test_page = reverse("card_tests:new", args=[campaign.pk]) + f"?character={pc_a.pk}"
    home = reverse("campaigns:detail", args=[campaign.pk])
    boarding = reverse("combat:fight_new", args=[campaign.pk, "boarding"])
    return {
        "ship": ("gm", reverse("ships:new", args=[campaign.pk]), None, {
            "name": "Minerve", "guns": 40, "side": "enemy",
            "ship_type": ShipType.objects.get(name="Fifth Rate").pk, "overrides": "",
            **{f"crew_{k}": 3 for k in ("awareness", "command", "first_aid", "gunnery",
                                        "maritime", "seamanship")}},
            lambda: Ship.objects.filter(name="Minerve")),
        "ship reputation": ("gm", ship_page, reverse("ships:reputation_add", args=[pc_ship.pk]),
                            {"new-kind": "institution", "new-descriptor": "Feared by",
                             "new-subject": "the Smugglers", "new-value": 1,
                             "new-damage_state": 0},
                            lambda: ShipReputation.objects.filter(subject="the Smugglers")),
        "renowned name": ("gm", ship_page, reverse("ships:renowned_name", args=[pc_ship.pk]),
                          {"renowned-kind": "institution", "renowned-descriptor": "Admired by",
                           "renowned-subject": "the Admiralty"},
                          lambda: ShipReputation.objects.filter(subject="the Admiralty")),
        "repair test": ("gm", ship_page, reverse("combat:repair_test", args=[pc_ship.pk]),
                        {"area": "hull", "character": pc_a.pk},
                        lambda: Encounter.objects.filter(engine="btq_test")),
        "battle": ("gm", new_battle, None, naval(pc_ship, enemy_ship),
                   lambda: Encounter.objects.filter(engine="btq_naval")),
        "odds of a new battle": ("gm", new_battle, reverse("combat:odds_new", args=[campaign.pk]),
                                 {**naval(pc_ship, enemy_ship), "odds_games": "500"},
                                 Simulation.objects.all),
        "wargame": ("gm", wargame, None, {"side_en": f"pc:{pc_a.pk}", "side_fr": "gm",
                                          "title": ""},
                    lambda: Encounter.objects.filter(engine__startswith="brethren")),
        "fight": ("gm", boarding, None, {
            "attacker": pc_ship.pk, "defender": enemy_ship.pk, "pcs": [pc_a.pk, pc_b.pk],
            "pc_weapons": ["cutlass"], "officer_weapon": "cutlass", "attacker_crew_pool": 4,
            "defender_crew_pool": 3}, lambda: Encounter.objects.filter(engine="btq_boarding")),
        "proposed card test": ("player_a", test_page, reverse("card_tests:new", args=[campaign.pk]),
                               {"character": pc_a.pk, "skill": "wealth",
                                "opposition": "difficulty", "difficulty": "routine",
                                "intent": "a dress uniform", "at_risk": "wealth"},
                               lambda: Encounter.objects.filter(engine="btq_test")),
        "character draft": ("player_a", home, reverse("creation:start", args=[campaign.pk]), {},
                            lambda: Encounter.objects.filter(engine="btq_creation")),
        "ship draft": ("gm", home, reverse("creation:ship", args=[campaign.pk]),
                       {"ship_type": "Cutter"},
                       lambda: Encounter.objects.exclude(engine="btq_creation")),
        "book's characters": ("gm", home, reverse("creation:reference", args=[campaign.pk]), {},
                              lambda: Character.objects.filter(name__contains="O'Toole")),
        "charge": ("gm", reverse("shipboard:character", args=[pc_a.pk]),
                   reverse("shipboard:act", args=[pc_a.pk, "charge"]),
                   {"charge-article": "2", "charge-punishment": "captains_discretion",
                    "charge-lashes": "12", "charge-details": "Cursing at the bosun"},
                   Infraction.objects.all),
    }


@pytest.mark.parametrize("which", [
    "ship", "ship reputation", "renowned name", "repair test", "battle", "odds of a new battle",
    "wargame", "fight", "proposed card test", "character draft", "ship draft",
    "book's characters", "charge"])
def test_every_create_form_sent_twice_makes_one_record(forms, gm, pc_ship, gm_client,
                                                       player_a_client, which):
    if which == "renowned name":
        ship_update(ship=pc_ship, actor=gm, version=pc_ship.version, traits=["Renowned Name"])
    if which == "repair test":
        ship_update(ship=pc_ship, actor=gm, version=pc_ship.version,
                    tracks={**pc_ship.tracks, "hull": "xx|x.|.."})
    who, page, action, data, made = forms[which]
    client = gm_client if who == "gm" else player_a_client
    shown = client.get(page)
    form = f' action="{action}"'
    data = {**data, FIELD: token_in(shown, form if form in shown.content.decode()
                                    else 'method="post"')}
    first = client.post(action or page, data)
    assert first.status_code == 302, first.content.decode()[:3000]
    again = client.post(action or page, data, follow=True)
    assert again.redirect_chain[0] == (first.url, 302)
    assert "That form was already sent: here is what it made." in again.content.decode()
    assert made().count() == 1


def test_the_new_battles_token_makes_one_odds_run_and_one_battle(
        campaign, gm_client, pc_ship, enemy_ship):
    """"What are the odds?" posts the battle's form elsewhere: the odds run taken for that
    address does not stand for the battle, and each is made once."""
    url = reverse("combat:new", args=[campaign.pk])
    odds = reverse("combat:odds_new", args=[campaign.pk])
    data = {**naval(pc_ship, enemy_ship), "odds_games": "500",
            FIELD: token_in(gm_client.get(url), 'method="post"')}
    asked = [gm_client.post(odds, data) for _ in range(2)]
    prepared = [gm_client.post(url, data) for _ in range(2)]
    simulation, encounter = Simulation.objects.get(), Encounter.objects.get()
    assert [a.url for a in asked] == [reverse("combat:odds", args=[simulation.pk])] * 2
    assert [p.url for p in prepared] == [reverse("combat:detail", args=[encounter.pk])] * 2


@pytest.mark.parametrize("form", ["odds-from-here", "what-if"])
def test_the_odds_asked_twice_from_a_battle_are_played_once(battle, gm_client, form):
    page = gm_client.get(reverse("combat:detail", args=[battle.pk]))
    found = re.search(rf'class="{form}"[^>]*>(?:(?!</form>).)*?</form>',
                      page.content.decode(), re.S).group(0)
    data = dict(re.findall(r'name="(actor|kind|once_token)" value="([^"]*)"', found))
    url = reverse("combat:odds_ask", args=[battle.pk])
    first, again = gm_client.post(url, data), gm_client.post(url, data)
    assert (again.status_code, again.url) == (302, first.url)
    assert Simulation.objects.count() == 1


def test_resolve_the_rest_pressed_twice_queues_one_job(battle, gm_client,
                                                       django_capture_on_commit_callbacks):
    page = gm_client.get(reverse("combat:detail", args=[battle.pk]))
    url = reverse("combat:resolve", args=[battle.pk])
    data = {FIELD: token_in(page, f'action="{url}"')}
    with django_capture_on_commit_callbacks(execute=False):
        first = gm_client.post(url, data)
        again = gm_client.post(url, data, follow=True)
    assert Job.objects.count() == 1
    assert again.redirect_chain[0] == (first.url, 302)
    page = again.content.decode()
    assert "already sent" in page and "already being resolved" not in page


@pytest.mark.django_db(transaction=True)
def test_two_posts_of_the_new_battle_at_the_same_moment_prepare_one_battle(
        campaign, gm, pc_ship, enemy_ship):
    """Two connections post one token of the new battle's form at once: PostgreSQL holds
    the second insert of the token until the first commits, and the second is sent to the
    first's battle."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL")
    url = reverse("combat:new", args=[campaign.pk])
    clients = [Client(), Client()]
    for client in clients:
        client.force_login(gm)
    data = {**naval(pc_ship, enemy_ship),
            FIELD: token_in(clients[0].get(url), 'method="post"')}
    answers = at_once(*(partial(client.post, url, data) for client in clients))
    encounter = Encounter.objects.get()
    shown = reverse("combat:detail", args=[encounter.pk])
    assert [(a.status_code, a.url) for a in answers] == [(302, shown)] * 2
