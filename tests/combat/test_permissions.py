"""Who may see and do what in a battle, with the four personas (DESIGN.md, "Roles and
trust"): the GM sees and decides everything; a player decides only for his own PCs and
never sees GM-only data; an outsider cannot even learn that the battle exists."""

import json

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from combat.models import Encounter
from combat.services import encounter_act, encounter_resolve_rest, job_run
from rules.engine import get_engine

from .conftest import ROUND_1

pytestmark = pytest.mark.django_db


def pending(encounter):
    encounter.refresh_from_db()
    return get_engine(encounter.engine).pending(encounter.state)[0]


def everything_seen(client, encounter) -> dict[str, str]:
    """Every page, partial and API response about the battle, as text."""
    pk = encounter.pk
    return {
        "page": client.get(reverse("combat:detail", args=[pk])).content.decode(),
        "poll": client.get(reverse("combat:poll", args=[pk]), {"after": 0, "token": "x"}
                           ).content.decode(),
        "list": client.get(reverse("combat:list", args=[encounter.campaign_id])
                           ).content.decode(),
        "api": client.get(reverse("api-encounter-detail", args=[pk])).content.decode(),
        "api_events": client.get(reverse("api-encounter-events", args=[pk])).content.decode(),
        "api_list": client.get(reverse("api-encounter-list", args=[encounter.campaign_id])
                               ).content.decode(),
    }


def secrets_of(encounter, corsair) -> dict[str, str]:
    return {
        "seed": encounter.seed,
        "stacked cards": " ".join(encounter.stacked_remaining[-8:]),
        "stacked cards (API)": '"stacked_cards":["6C","4C"',
        "GM data (page)": 'class="gm-data',
        "GM data (API)": '"gm_data"',
        "enemy crew": '"crew": {"awareness"',
        "enemy's GM notes": "smugglers",
        "GM's decision options": "Contested: the Corsair",
    }


def test_a_player_never_sees_gm_only_data(book_battle, play, gm_client, player_a_client,
                                          player_b_client, corsair):
    # Up to the GM's choice of opposition for O'Toole's test: its options name the
    # Corsair's crew skills and their values.
    encounter = play(book_battle, ROUND_1[:5])
    assert pending(encounter).kind == "fight.opposition"
    hidden = secrets_of(encounter, corsair)
    gm_seen = everything_seen(gm_client, encounter)
    gm_text = "\n".join(gm_seen.values())
    for name in ("stacked cards", "stacked cards (API)", "GM data (page)", "GM data (API)",
                 "GM's decision options"):
        assert hidden[name] in gm_text, f"the GM should see the {name}"
    assert json.loads(gm_seen["api"])["view"]["ships"][str(corsair.pk)]["crew"]["seamanship"] == 3
    for client in (player_a_client, player_b_client):
        seen = everything_seen(client, encounter)
        for where, text in seen.items():
            for name, secret in hidden.items():
                assert secret not in text, f"a player sees the {name} in the {where}"
        view = json.loads(seen["api"])["view"]
        assert "crew" not in view["ships"][str(corsair.pk)]
        assert "Waiting for the GM" in seen["page"]


def test_the_seed_and_stacked_cards_are_revealed_at_the_end(book_battle, player_b_client):
    job = encounter_resolve_rest(encounter=book_battle, user=book_battle.created_by)
    job_run(job_id=job.pk)
    book_battle.refresh_from_db()
    assert book_battle.status == Encounter.Status.FINISHED
    seen = everything_seen(player_b_client, book_battle)
    assert book_battle.seed in seen["page"] and "gives every event of the record" in seen["page"]
    api = json.loads(seen["api"])
    assert api["seed"] == book_battle.seed
    assert api["stacked_cards"] == book_battle.stacked_cards
    assert set(api["outcome"]) == {"winner", "result", "summary"}


def test_a_player_acts_only_for_his_own_pcs(book_battle, player_a, player_b, play):
    decision = pending(book_battle)  # the start distance: O'Toole's, player A's PC
    assert decision.kind == "start.distance"
    with pytest.raises(PermissionDenied):
        encounter_act(encounter=book_battle, user=player_b, actor=decision.actor,
                      decision_kind=decision.kind, choice="3",
                      expected_version=book_battle.version)
    encounter_act(encounter=book_battle, user=player_a, actor=decision.actor,
                  decision_kind=decision.kind, choice="3", expected_version=book_battle.version)
    encounter = play(book_battle, ROUND_1[1:5])
    opposition = pending(encounter)
    assert opposition.actor == "gm"
    with pytest.raises(PermissionDenied):
        encounter_act(encounter=encounter, user=player_a, actor="gm",
                      decision_kind=opposition.kind, choice="static:3",
                      expected_version=encounter.version)
    encounter = play(encounter, ROUND_1[5:6])
    bosworth = pending(encounter)  # Bosworth's How Will You Fight?: player B's PC
    assert bosworth.kind == "fight.action"
    version = encounter.version
    with pytest.raises(PermissionDenied):
        encounter_act(encounter=encounter, user=player_a, actor=bosworth.actor,
                      decision_kind=bosworth.kind, choice="gunnery", expected_version=version)
    encounter.refresh_from_db()
    assert encounter.version == version


def test_a_player_cannot_act_for_another_through_the_page_or_the_api(
        book_battle, player_b_client):
    decision = pending(book_battle)
    form = {"actor": decision.actor, "kind": decision.kind, "choice": "3",
            "version": book_battle.version}
    response = player_b_client.post(reverse("combat:act", args=[book_battle.pk]), form,
                                    follow=True)
    assert "only make decisions for your own character" in response.content.decode()
    response = player_b_client.post(reverse("api-encounter-act", args=[book_battle.pk]), form,
                                    content_type="application/json")
    assert response.status_code == 403
    book_battle.refresh_from_db()
    assert pending(book_battle).kind == "start.distance"


def test_players_cannot_prepare_begin_or_resolve_battles(
        campaign, book_battle, player_a_client, hermes, corsair):
    new = reverse("combat:new", args=[campaign.pk])
    assert player_a_client.get(new).status_code == 403
    assert player_a_client.post(new, {"pc_ship": hermes.pk, "enemy_ship": corsair.pk,
                                      "weather": "good_wind"}).status_code == 403
    api = reverse("api-encounter-list", args=[campaign.pk])
    response = player_a_client.post(api, {"pc_ship": hermes.pk, "enemy_ship": corsair.pk,
                                          "weather": "good_wind"},
                                    content_type="application/json")
    assert response.status_code == 403
    response = player_a_client.post(reverse("api-encounter-resolve", args=[book_battle.pk]))
    assert response.status_code == 403
    assert not book_battle.jobs.exists()


def test_a_battle_being_prepared_is_hidden_from_players(campaign, gm, hermes, corsair,
                                                         player_a_client, gm_client):
    from combat.services import encounter_create
    from ships.services import naval_setup

    encounter = encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title="Secret plans",
        setup=naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="storm"),
    )
    url = reverse("combat:detail", args=[encounter.pk])
    assert gm_client.get(url).status_code == 200
    page = player_a_client.get(url)  # told it has not begun, and nothing of it
    assert page.status_code == 200 and "has not begun" in page.content.decode()
    assert "Secret plans" not in page.content.decode()
    assert player_a_client.get(reverse("combat:poll", args=[encounter.pk])).status_code == 404
    listing = player_a_client.get(reverse("combat:list", args=[campaign.pk])).content.decode()
    assert "Secret plans" not in listing


def test_a_hidden_enemy_is_revealed_to_the_players_when_the_battle_begins(
        campaign, gm, hermes, corsair, player_a_client):
    from combat.services import encounter_create, encounter_start
    from ships.services import naval_setup

    corsair.revealed = False
    corsair.save(update_fields=["revealed"])
    ship_url = reverse("api-ship-detail", args=[corsair.pk])
    assert player_a_client.get(ship_url).status_code == 404
    encounter = encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title="Sail ho!", ships=[hermes, corsair],
        setup=naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind"),
    )
    assert player_a_client.get(ship_url).status_code == 404  # not while it is being prepared
    encounter_start(encounter=encounter, user=gm, expected_version=encounter.version)
    corsair.refresh_from_db()
    assert corsair.revealed
    seen = player_a_client.get(ship_url).json()
    assert seen["name"] == corsair.name and "crew" not in seen


def test_an_outsider_gets_404_everywhere(book_battle, outsider_client, campaign):
    pk = book_battle.pk
    decision = pending(book_battle)
    act = {"actor": decision.actor, "kind": decision.kind, "choice": "3",
           "version": book_battle.version}
    pages = [
        ("get", reverse("combat:list", args=[campaign.pk]), None),
        ("get", reverse("combat:new", args=[campaign.pk]), None),
        ("get", reverse("combat:detail", args=[pk]), None),
        ("get", reverse("combat:poll", args=[pk]), None),
        ("post", reverse("combat:act", args=[pk]), act),
        ("post", reverse("combat:resolve", args=[pk]), None),
        ("get", reverse("api-encounter-list", args=[campaign.pk]), None),
        ("get", reverse("api-encounter-detail", args=[pk]), None),
        ("get", reverse("api-encounter-events", args=[pk]), None),
        ("post", reverse("api-encounter-act", args=[pk]), act),
        ("post", reverse("api-encounter-resolve", args=[pk]), None),
    ]
    for method, url, data in pages:
        response = getattr(outsider_client, method)(url, data or {})
        assert response.status_code == 404, url
    book_battle.refresh_from_db()
    assert pending(book_battle).kind == "start.distance"


def test_an_outsider_cannot_tell_a_battle_or_job_that_exists_from_one_that_does_not(
        book_battle, gm, outsider_client, player_a_client):
    from combat.services import encounter_resolve_rest

    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    for existing, missing in [
        (reverse("api-encounter-detail", args=[book_battle.pk]),
         reverse("api-encounter-detail", args=[book_battle.pk + 9999])),
        (reverse("api-encounter-events", args=[book_battle.pk]),
         reverse("api-encounter-events", args=[book_battle.pk + 9999])),
        (reverse("api-job", args=[job.pk]), reverse("api-job", args=[job.pk + 9999])),
    ]:
        answers = [outsider_client.get(url) for url in (existing, missing)]
        assert [a.status_code for a in answers] == [404, 404]
        assert answers[0].json() == answers[1].json(), existing
    assert outsider_client.get(reverse("api-job", args=[job.pk])).json() == {
        "detail": "No such job."}
    assert player_a_client.get(reverse("api-job", args=[job.pk])).status_code == 200


def test_the_jobs_endpoint_shows_each_persona_what_the_battle_shows_them(
        book_battle, gm, gm_client, player_a_client, player_b_client, outsider_client, corsair):
    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    url = reverse("api-job", args=[job.pk])
    for client in (gm_client, player_a_client, player_b_client):
        running = client.get(url)
        assert running.status_code == 200 and running.json()["outcome"] is None
    job_run(job_id=job.pk)
    book_battle.refresh_from_db()
    enemy = book_battle.outcome["data"]["ships"][str(corsair.pk)]
    # Canaries: what the full outcome says of the enemy (her Ship Morale and damage tracks
    # after the battle), which the battle's own endpoint hides from the players.
    canaries = {"enemy morale": f'"morale":{enemy["morale"]}',
                "enemy tracks": json.dumps(enemy["tracks"], separators=(",", ":")),
                "outcome data": '"data":'}
    gm_seen = gm_client.get(url).json()
    assert gm_seen["status"] == "done" and gm_seen["outcome"] == book_battle.outcome
    gm_text = json.dumps(gm_seen, separators=(",", ":"))
    for name, canary in canaries.items():
        assert canary in gm_text, f"the GM should see the {name}"
    for client in (player_a_client, player_b_client):
        seen = client.get(url)
        battle = client.get(reverse("api-encounter-detail", args=[book_battle.pk])).json()
        assert seen.status_code == 200
        assert seen.json()["outcome"] == battle["outcome"]  # the same selector
        assert set(seen.json()["outcome"]) == {"winner", "result", "summary"}
        text = seen.content.decode()
        for name, canary in canaries.items():
            assert canary not in text, f"a player sees the {name} in the job"
    answer = outsider_client.get(url)
    assert answer.status_code == 404 and answer.json() == {"detail": "No such job."}
