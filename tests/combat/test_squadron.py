"""Battles of several ships a side through the form, the pages, the API and the services, and
the decision timeout taken by the sweep (``rules/btq_naval.md`` §4.13; issue 10 items 2, 6):
each persona sees only what it may, the battle's end is written back to every ship, and a
replay matches the battle event for event."""

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse

from combat.models import Encounter
from combat.selectors import events_for
from combat.services import (
    decision_sweep,
    encounter_act,
    encounter_create,
    encounter_replay,
    encounter_start,
)
from combat.tasks import sweep_decisions
from rules.btq.characters import DamageState
from rules.engine import GM, get_engine
from ships.models import Ship
from ships.services import naval_setup
from tests.combat.test_permissions import everything_seen

pytestmark = pytest.mark.django_db

ENGINE = get_engine("btq_naval")


def clients_by_actor(encounter, gm_client, player_a_client, player_b_client, pc_a):
    """Who posts a decision of ``actor``: the GM, or the player who owns the PC."""
    def client(actor):
        if actor == GM:
            return gm_client
        owner = encounter.campaign.characters.get(pk=int(actor[3:])).owner_id
        return player_a_client if owner == pc_a.owner_id else player_b_client
    return client


STACKED = "9D 2H 3H 4H 5H 6H 7H 8H 2D 3S 4S 5S 6S QC KC AC"
"""The GM's stacked cards: the first Positioning test's, and more."""


def secrets(encounter):
    """What no player may see while the battle runs: the seed, the GM's cards not turned
    yet, the GM's data and the enemies' crews and notes."""
    return {"seed": encounter.seed, "GM data (page)": 'class="gm-data',
            "GM data (API)": '"gm_data"', "enemy crew": '"gunnery":5,"maritime":3',
            "enemy notes": "vautour-secret", "other notes": "enemy-secret",
            "stacked cards (API)": '"stacked_cards":["',
            "stacked cards": " ".join(encounter.stacked_remaining)}


def test_two_ships_a_side_through_the_form_and_the_pages(
        campaign, gm_client, player_a_client, player_b_client, pc_a, pc_ship, enemy_ship,
        sparrow, vautour):
    response = gm_client.post(reverse("combat:new", args=[campaign.pk]), {
        "pc_ship": pc_ship.pk, "allies": [sparrow.pk], "enemy_ship": enemy_ship.pk,
        "more_enemies": [vautour.pk], "weather": "good_wind", "start_distance": "3",
        "decision_timeout": "45", "stacked_cards": STACKED})
    assert response.status_code == 302
    encounter = Encounter.objects.get()
    assert set(encounter.ships.all()) == {pc_ship, sparrow, enemy_ship, vautour}
    # the default title names every ship of each side
    assert encounter.title == f"{pc_ship.name} and HMS Sparrow vs {enemy_ship.name} and " \
        "Le Vautour"
    assert encounter.decision_timeout == 45
    gm_client.post(reverse("combat:start", args=[encounter.pk]),
                   {"version": encounter.version})
    encounter.refresh_from_db()
    page = gm_client.get(reverse("combat:detail", args=[encounter.pk])).content.decode()
    # Each pair of the range chart, each at the starting distance (BtQ L2498).
    assert page.count('<tr class="pair') == 4
    assert page.count('class="distance">Distance 3 (Visual)') == 4
    assert "takes its default" in page
    assert secrets(encounter)["enemy crew"] in gm_client.get(  # so that its check can fail
        reverse("api-encounter-detail", args=[encounter.pk])).content.decode()
    client = clients_by_actor(encounter, gm_client, player_a_client, player_b_client, pc_a)
    assert STACKED.split()[-3:] == encounter.stacked_remaining[-3:]
    actors = set()
    for step in range(600):
        encounter.refresh_from_db()
        if encounter.status != Encounter.Status.ACTIVE:
            break
        decision = ENGINE.pending(encounter.state)[0]
        actors.add(decision.actor)
        if step % 7 == 0:
            hidden = secrets(encounter)
            if not hidden["stacked cards"]:
                del hidden["stacked cards"]
            for who in (player_a_client, player_b_client):
                for where, text in everything_seen(who, encounter).items():
                    for name, secret in hidden.items():
                        assert secret not in text, f"a player sees the {name} in the {where}"
        response = client(decision.actor).post(reverse("combat:act", args=[encounter.pk]), {
            "actor": decision.actor, "kind": decision.kind, "choice": decision.default,
            "version": encounter.version})
        assert response.status_code == 302
    assert encounter.status == Encounter.Status.FINISHED
    # Both players decided for their own PCs, each commanding a ship, and the GM for the
    # enemies (BtQ L2358-2361).
    carl = campaign.characters.get(name="Carl Cutter")
    assert {GM, f"pc:{pc_a.pk}", f"pc:{carl.pk}"} <= actors
    # The end is written back to every ship of the battle.
    for ship in (pc_ship, sparrow, enemy_ship, vautour):
        ship.refresh_from_db()
        final = encounter.outcome["data"]["ships"][str(ship.pk)]
        assert ship.tracks == final["tracks"] and ship.morale_state == final["morale"]
    # The seed is revealed, and the replay matches the battle event for event.
    assert encounter.seed in player_a_client.get(
        reverse("combat:detail", args=[encounter.pk])).content.decode()
    replay = encounter_replay(encounter=encounter)
    assert replay["matches"], replay["mismatch"]
    assert replay["events"] == encounter.events.count() > 20


def test_the_form_refuses_a_ship_twice_and_the_books_cards_with_more_ships(
        campaign, gm_client, pc_ship, enemy_ship, sparrow, vautour):
    url = reverse("combat:new", args=[campaign.pk])
    page = gm_client.post(url, {"pc_ship": pc_ship.pk, "allies": [pc_ship.pk],
                                "enemy_ship": enemy_ship.pk, "weather": "good_wind",
                                "decision_timeout": "5"}).content.decode()
    assert "HMS Testament (22) is already in the battle" in page
    assert "Ensure this value is greater than or equal to 10" in page
    page = gm_client.post(url, {"pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk,
                                "more_enemies": [vautour.pk], "weather": "good_wind",
                                "book_cards": "on"}).content.decode()
    assert "one ship against one" in page
    assert not Encounter.objects.exists()


def test_the_main_ship_among_her_sides_more_ships_is_refused_with_the_reason(
        campaign, gm_client, pc_ship, enemy_ship, sparrow, vautour):
    """The New battle form (its page without scripts) and the API refuse a side's main ship
    named again among its more ships, on either side, and prepare nothing."""
    page = gm_client.post(reverse("combat:new", args=[campaign.pk]), {
        "pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk, "weather": "good_wind",
        "more_enemies": [vautour.pk, enemy_ship.pk]}).content.decode()
    refusal = page.split('data-field="more_enemies"')[1].split("</small>")[0]
    assert f"{enemy_ship} is already in the battle: choose other ships here." in refusal
    url = reverse("api-encounter-list", args=[campaign.pk])
    for field, more in (("allies", [sparrow.pk, pc_ship.pk]), ("enemies", [enemy_ship.pk])):
        response = gm_client.post(url, {"pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk,
                                        "weather": "storm", field: more},
                                  content_type="application/json")
        assert response.status_code == 400, response.content
        assert "is already in the battle" in response.json()[field]
    assert not Encounter.objects.exists()


def test_the_api_creates_a_battle_of_several_ships(campaign, gm_client, pc_ship, enemy_ship,
                                                   sparrow, vautour):
    url = reverse("api-encounter-list", args=[campaign.pk])
    response = gm_client.post(url, {"pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk,
                                    "allies": [sparrow.pk], "enemies": [vautour.pk, 999999],
                                    "weather": "storm"}, content_type="application/json")
    assert response.status_code == 400 and "enemies" in response.json()
    response = gm_client.post(url, {"pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk,
                                    "allies": [sparrow.pk], "enemies": [vautour.pk],
                                    "weather": "storm", "decision_timeout": 60},
                              content_type="application/json")
    assert response.status_code == 201
    encounter = Encounter.objects.get()
    assert [s["id"] for s in encounter.setup["ships"]] == [
        str(pc_ship.pk), str(sparrow.pk), str(enemy_ship.pk), str(vautour.pk)]
    assert encounter.decision_timeout == 60


def started(campaign, gm, pc_ship, enemy_ship, **extra):
    encounter = encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title="Timed",
        setup=naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, weather="good_wind",
                          start_distance=3, **extra),
        ships=[pc_ship, enemy_ship, *extra.get("allies", ()), *extra.get("enemies", ())],
        decision_timeout=30)
    return encounter_start(encounter=encounter, user=gm, expected_version=encounter.version)


def test_the_sweep_takes_the_default_after_the_timeout(campaign, gm, pc_a, pc_ship,
                                                       enemy_ship, vautour):
    encounter = started(campaign, gm, pc_ship, enemy_ship, enemies=[vautour])
    decision = ENGINE.pending(encounter.state)[0]
    assert decision.actor == f"pc:{pc_a.pk}"          # Anne hands out her Discipline
    since = encounter.updated_at
    assert decision_sweep(now=since + timedelta(seconds=29)) == []
    assert decision_sweep(now=since + timedelta(seconds=31)) == [encounter.pk]
    encounter.refresh_from_db()
    assert encounter.choices[-1] == {"actor": decision.actor, "kind": decision.kind,
                                     "choice": decision.default, "by": "timeout:30"}
    [event] = encounter.events.filter(kind="decision.timeout")
    assert "taken by default after 30 s" in event.text and "Anne Able" in event.text
    # A player's decision taken by default is told to the table.
    assert any(e["kind"] == "decision.timeout"
               for e in events_for(encounter, [f"pc:{pc_a.pk}"]))
    # The next decision has its own 30 s, counted from this change.
    assert decision_sweep(now=encounter.updated_at + timedelta(seconds=29)) == []


def test_the_gms_decisions_taken_by_default_stay_the_gms_and_the_replay_matches(
        campaign, gm, pc_a, pc_ship, enemy_ship, vautour):
    encounter = started(campaign, gm, pc_ship, enemy_ship, enemies=[vautour])
    for _ in range(500):
        encounter.refresh_from_db()
        if encounter.status != Encounter.Status.ACTIVE:
            break
        if ENGINE.pending(encounter.state)[0].actor == GM:
            # The beat's task, run in this process: the real sweep, no worker needed.
            encounter.updated_at -= timedelta(seconds=31)
            Encounter.objects.filter(pk=encounter.pk).update(updated_at=encounter.updated_at)
            sweep_decisions.apply()
        else:
            decision = ENGINE.pending(encounter.state)[0]
            encounter_act(encounter=encounter, user=gm, actor=decision.actor,
                          decision_kind=decision.kind, choice=decision.default,
                          expected_version=encounter.version)
    assert encounter.status == Encounter.Status.FINISHED
    timed_out = list(encounter.events.filter(kind="decision.timeout"))
    assert timed_out and all(e.visible_to == [GM] for e in timed_out)
    seen = {e["seq"] for e in events_for(encounter, [f"pc:{pc_a.pk}"])}
    assert not seen & {e.seq for e in timed_out}
    replay = encounter_replay(encounter=encounter)
    assert replay["matches"], replay["mismatch"]


def test_no_timeout_no_sweep_and_a_job_keeps_its_battle(campaign, gm, pc_ship, enemy_ship,
                                                        book_battle):
    from combat.services import encounter_resolve_rest

    # The book's battle has no timeout: the sweep leaves it alone however long it waits.
    assert decision_sweep(now=book_battle.updated_at + timedelta(days=1)) == []
    timed = started(campaign, gm, pc_ship, enemy_ship)
    encounter_resolve_rest(encounter=timed, user=gm)
    assert decision_sweep(now=timed.updated_at + timedelta(days=1)) == []


def test_the_battle_page_of_several_ships_reads_well_to_a_player(
        campaign, gm, player_a_client, pc_ship, enemy_ship, sparrow, vautour):
    encounter = started(campaign, gm, pc_ship, enemy_ship, allies=[sparrow],
                        enemies=[vautour])
    page = player_a_client.get(reverse("combat:detail", args=[encounter.pk])).content.decode()
    for name in ("HMS Testament (22)", "HMS Sparrow (10)", "Le Secret (14)",
                 "Le Vautour (24)"):
        assert name in page
    assert "(in command of HMS Sparrow (10))" in page
    view = json.loads(player_a_client.get(
        reverse("api-encounter-detail", args=[encounter.pk])).content)["view"]
    assert set(view["pairs"]) == {f"{a.pk}|{b.pk}" for a in (pc_ship, sparrow)
                                  for b in (enemy_ship, vautour)}
    assert "crew" not in view["ships"][str(vautour.pk)]


def test_the_battle_page_shows_ship_morale_where_the_view_carries_it(
        campaign, gm, gm_client, player_a_client, pc_ship, enemy_ship, vautour):
    # Every pool of the Hermes subtracts her Ship Morale: her players see it beside her
    # tracks; an enemy's stays the GM's (the player's view does not carry it).
    Ship.objects.filter(pk=pc_ship.pk).update(morale_state=DamageState.INJURED)
    Ship.objects.filter(pk=vautour.pk).update(morale_state=DamageState.MAIMED)
    pc_ship.refresh_from_db()
    vautour.refresh_from_db()
    encounter = started(campaign, gm, pc_ship, enemy_ship, enemies=[vautour])
    url = reverse("combat:detail", args=[encounter.pk])

    def morale_rows(client):
        page = client.get(url).content.decode()
        return re.findall(r'<tr data-area="morale"><th>Ship Morale</th><td class="morale" '
                          r'data-state="\d">(\w+)</td></tr>', page)

    assert morale_rows(player_a_client) == ["Injured"]
    assert morale_rows(gm_client) == ["Injured", "Healthy", "Maimed"]


def test_the_form_passes_the_general_weather_on(campaign, gm_client, pc_ship, enemy_ship):
    gm_client.post(reverse("combat:new", args=[campaign.pk]), {
        "pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk, "weather": "high_seas",
        "wind": "storm_winds", "precipitation": "blizzard"})
    assert Encounter.objects.get().setup["general_weather"] == {"wind": "storm_winds",
                                                                "precipitation": "blizzard"}


def test_the_api_passes_the_general_weather_on_as_the_form_does(
        campaign, gm_client, pc_ship, enemy_ship, django_capture_on_commit_callbacks):
    """Both APIs of a new battle take the general weather (BtQ L1699-1709) as the New battle
    form does: a missing half at its mildest; none named, the engine's own mildest."""
    from combat.models import Simulation

    body = {"pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk, "weather": "high_seas",
            "wind": "storm_winds"}
    with django_capture_on_commit_callbacks(execute=False):
        for name in ("api-encounter-list", "api-odds-new"):
            answer = gm_client.post(reverse(name, args=[campaign.pk]), body,
                                    content_type="application/json")
            assert answer.status_code == 201, answer.content
        assert gm_client.post(reverse("api-odds-new", args=[campaign.pk]), {
            **body, "wind": "hurricane"}, content_type="application/json").status_code == 400
        del body["wind"]
        gm_client.post(reverse("api-odds-new", args=[campaign.pk]), body,
                       content_type="application/json")
    weather = {"wind": "storm_winds", "precipitation": "no_rain"}
    assert Encounter.objects.get().setup["general_weather"] == weather
    first, second = Simulation.objects.order_by("pk")
    assert first.setup["general_weather"] == weather
    assert second.setup["general_weather"] == {"wind": "light_wind", "precipitation": "no_rain"}
