"""The odds (issue 11): simulations asked from a setup, from a running battle and of each
option of a pending decision, their chunks played with the jobs' leases (here the worker's
task runs in the test process; ``test_odds_worker.py`` uses real worker processes), merged
once, the same as the same seeds played in one process; who may see them; bad input."""

import json
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from campaigns.models import CampaignLogEntry
from combat.models import Simulation, SimulationChunk
from combat.odds import services
from combat.odds.services import (
    simulation_cancel,
    simulation_create_from_encounter,
    simulation_create_from_setup,
    simulation_replay,
    simulation_run,
    simulation_sweep,
)
from combat.services import (
    encounter_create,
    encounter_resolve_rest,
    encounter_start,
    job_run,
    seed_hash,
)
from combat.tasks import run_simulation
from rules.engine import get_engine
from rules.montecarlo import NO_WINNER, job_seeds, run, side_of
from ships.services import naval_setup

pytestmark = pytest.mark.django_db

MARKER = "GM-ONLY-MARKER-7731"
"""In the enemy's GM notes: never in a player's page, panel, download or stream."""


@pytest.fixture(autouse=True)
def one_slice(settings):
    """A worker's slice long enough for each test's games however busy the machine is (in
    production a slice ends after 5 s and the worker sends the simulation's next message)."""
    settings.JOB_SLICE_SECONDS = 600


@pytest.fixture
def setup(pc_ship, enemy_ship):
    return naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, weather="steady_breeze",
                       start_distance=3)


@pytest.fixture
def battle(campaign, gm, pc_ship, enemy_ship, setup):
    enemy_ship.gm_notes = MARKER
    enemy_ship.save()
    encounter = encounter_create(campaign=campaign, user=gm, engine="btq_naval",
                                 title="Odds battle", setup=setup, ships=[pc_ship, enemy_ship])
    return encounter_start(encounter=encounter, user=gm, expected_version=encounter.version)


def in_one_process(simulation, option="", games=None):
    """The summary of the simulation's games played here, without the job machinery."""
    kernel = get_engine(simulation.engine)
    begin = simulation.setup if simulation.setup is not None else simulation.state
    first = (simulation.decision["actor"], option) if simulation.decision else None
    stop = games or max(c.stop for c in simulation.chunks.all())
    return run(kernel, begin, seeds=job_seeds(int(simulation.seed), 0, stop), first=first,
               stacked=simulation.stacked_cards)


def set_odds_for_players(campaign, on: bool):
    campaign.settings = {**campaign.settings, "odds_for_players": on}
    campaign.save()


def test_odds_of_a_setup_are_the_same_seeds_played_in_one_process(campaign, gm, setup,
                                                                  django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        simulation = simulation_create_from_setup(campaign=campaign, user=gm,
                                                  engine="btq_naval", setup=setup,
                                                  title="Hermes v Corsair", games=1_200)
    assert simulation.seed_hash == seed_hash(simulation.seed)
    assert [(c.start, c.stop) for c in simulation.chunks.order_by("start")] == [
        (0, 500), (500, 1000), (1000, 1200)]
    run_simulation(simulation.pk)  # what a worker runs for each message
    simulation.refresh_from_db()
    assert simulation.status == Simulation.Status.DONE and simulation.games_done == 1_200
    assert simulation.results == {"": in_one_process(simulation).as_dict()}
    assert simulation_replay(simulation=simulation)["matches"]
    call_command("odds_replay", simulation.pk)
    assert CampaignLogEntry.objects.get(kind="odds.asked").gm_only


def test_a_chunk_whose_worker_died_is_played_again_and_counted_once(
        campaign, gm, setup, settings):
    simulation = simulation_create_from_setup(campaign=campaign, user=gm, engine="btq_naval",
                                              setup=setup, title="t", games=1_000)
    dead = services._claim(simulation, "dead-host:1:x")  # claimed, then the worker died
    assert dead.start == 0
    SimulationChunk.objects.filter(pk=dead.pk).update(
        lease_until=timezone.now() - timedelta(seconds=1))
    assert simulation_sweep() == [simulation.pk]
    simulation_run(simulation_id=simulation.pk)
    simulation.refresh_from_db()
    dead.refresh_from_db()
    assert dead.takeovers == 1 and dead.done
    assert simulation.games_done == 1_000
    assert simulation.results[""] == in_one_process(simulation).as_dict()
    # the dead worker, come back, cannot commit its chunk a second time
    with pytest.raises(services._Stop):
        services._commit(dead, "dead-host:1:x", in_one_process(simulation, games=500))
    simulation.refresh_from_db()
    assert simulation.games_done == 1_000


def test_until_precise_adds_batches_until_every_interval_is_within_a_point(
        campaign, gm, setup, monkeypatch):
    monkeypatch.setattr(services, "PRECISE_BATCH", 1_000)
    simulation = simulation_create_from_setup(campaign=campaign, user=gm, engine="btq_naval",
                                              setup=setup, title="t", games=3_000,
                                              until_precise=True)
    assert max(c.stop for c in simulation.chunks.all()) == 1_000
    simulation_run(simulation_id=simulation.pk)
    simulation.refresh_from_db()
    # three batches: a battle's odds of 20-50 % need some 10,000 games for ±1 point
    assert simulation.status == Simulation.Status.DONE and simulation.games_done == 3_000
    assert simulation.results[""] == in_one_process(simulation).as_dict()


def test_what_if_plays_each_option_with_the_same_seeds_and_marks_the_best(
        battle, gm, gm_client):
    decision = get_engine("btq_naval").pending(battle.state)[0]
    simulation = simulation_create_from_encounter(
        encounter=battle, user=gm, actor=decision.actor, decision_kind=decision.kind,
        games=300)
    simulation_run(simulation_id=simulation.pk)
    simulation.refresh_from_db()
    assert set(simulation.results) == {o.key for o in decision.options}
    for option in simulation.results:
        assert simulation.results[option] == in_one_process(simulation, option).as_dict()
    page = gm_client.get(reverse("combat:detail", args=[battle.pk])).content.decode()
    assert f'id="sim-{simulation.pk}"' in page
    odds = gm_client.get(reverse("combat:odds", args=[simulation.pk])).content.decode()
    assert "<svg" in odds and "95 % interval" in odds and "<script" not in odds.split(
        "<main")[1].split("</main>")[0]
    data = gm_client.get(reverse("combat:odds_download", args=[simulation.pk, "json"])).json()
    best = [o for o in data["options"] if o["best"]]
    ranked = sorted(data["options"], key=lambda o: -o["win"]["share"])
    if data["too_close"]:  # the seed is the simulation's own: either may come out
        assert not best and ranked[0]["win"]["low"] <= ranked[1]["win"]["high"]
        assert "too close to call" in page and "best-mark" not in page
    else:
        assert best == ranked[:1] and ranked[0]["win"]["low"] > ranked[1]["win"]["high"]
        assert "best-mark" in page and "too close to call" not in page
    csv = gm_client.get(reverse("combat:odds_download", args=[simulation.pk, "csv"]))
    assert csv.content.decode().splitlines()[0].startswith("option,option_label,outcome")


def test_an_option_is_marked_best_only_clear_of_the_runner_up(battle, gm, gm_client):
    """A what if's best option is marked only when its 95 % interval does not overlap the
    runner-up's; otherwise the page says the leading options are too close to call."""
    decision = get_engine("btq_naval").pending(battle.state)[0]
    simulation = simulation_create_from_encounter(
        encounter=battle, user=gm, actor=decision.actor, decision_kind=decision.kind,
        games=100)
    simulation_run(simulation_id=simulation.pk)
    simulation.refresh_from_db()
    side, _ = side_of(get_engine("btq_naval"), decision.actor, [
        services.Summary.from_dict(r) for r in simulation.results.values()])
    keys = list(simulation.results)
    assert side and 1 < len(keys) <= 4
    pages = {"battle": reverse("combat:detail", args=[battle.pk]),
             "odds": reverse("combat:odds", args=[simulation.pk])}
    # each option wins `step` more games than the one before it: 1 in 20 is too close
    # to call, 400 in 2,000 (20 points) is not, whichever way the best is taken
    for games, step, marked in ((20, 1, False), (2_000, 400, True)):
        simulation.results = {key: services.Summary(
            "btq_naval", games, winners={side: 5 + step * i}).as_dict()
            for i, key in enumerate(keys)}
        simulation.save()
        for name, url in pages.items():
            page = gm_client.get(url).content.decode()
            assert ("best-mark" in page) == marked, (name, games)
            assert ("too close to call" in page) != marked, (name, games)


def test_a_stopped_simulation_says_its_figures_are_of_the_games_it_played(campaign, gm,
                                                                          gm_client, setup):
    simulation = simulation_create_from_setup(campaign=campaign, user=gm, engine="btq_naval",
                                              setup=setup, title="t", games=1_000)
    url = reverse("combat:odds", args=[simulation.pk])
    chunk = services._claim(simulation, "me")
    services._commit(chunk, "me", *services.play_chunk(simulation, chunk.start, chunk.stop,
                                                       chunk.option))
    simulation_cancel(simulation=simulation, user=gm)
    simulation.refresh_from_db()
    played = chunk.stop - chunk.start
    assert 0 < simulation.games_done == played < 1_000
    page = gm_client.get(url).content.decode()
    assert (f"Stopped after {played:,} of 1,000 games: the figures below are of those "
            f"{played:,} games only.") in page
    assert "no result" not in page and 'class="odds-outcomes"' in page
    empty = simulation_create_from_setup(campaign=campaign, user=gm, engine="btq_naval",
                                         setup=setup, title="t", games=1_000)
    simulation_cancel(simulation=empty, user=gm)
    page = gm_client.get(reverse("combat:odds", args=[empty.pk])).content.decode()
    assert "Stopped before any game was played" in page
    assert 'class="odds-outcomes"' not in page


def test_a_player_without_the_setting_sees_no_odds(battle, gm, player_a, player_a_client):
    decision = get_engine("btq_naval").pending(battle.state)[0]
    simulation = simulation_create_from_encounter(
        encounter=battle, user=gm, actor=decision.actor, decision_kind=decision.kind,
        games=100)
    simulation_run(simulation_id=simulation.pk)
    page = player_a_client.get(reverse("combat:detail", args=[battle.pk])).content.decode()
    assert "What if" not in page and f"sim-{simulation.pk}" not in page and MARKER not in page
    assert ">Odds<" not in page
    for name, args in (("combat:odds", [simulation.pk]), ("combat:odds_panel", [simulation.pk]),
                       ("combat:odds_stream", [simulation.pk]),
                       ("combat:odds_download", [simulation.pk, "json"])):
        assert player_a_client.get(reverse(name, args=args)).status_code == 404, name
    response = player_a_client.post(reverse("combat:odds_ask", args=[battle.pk]),
                                    {"actor": decision.actor, "kind": decision.kind})
    assert response.status_code == 302
    assert Simulation.objects.count() == 1
    with pytest.raises(PermissionDenied):
        simulation_create_from_encounter(encounter=battle, user=player_a)


def test_with_the_setting_a_player_sees_and_asks_the_odds_of_his_own_decisions(
        battle, gm, player_a, player_b, player_a_client, campaign):
    set_odds_for_players(campaign, True)
    battle.refresh_from_db()
    decision = get_engine("btq_naval").pending(battle.state)[0]
    owner = player_a if decision.actor in services.participant_ids_for(player_a, battle) \
        else player_b
    other = player_b if owner is player_a else player_a
    with pytest.raises(PermissionDenied):
        simulation_create_from_encounter(encounter=battle, user=other, actor=decision.actor,
                                         decision_kind=decision.kind, games=100)
    simulation = simulation_create_from_encounter(
        encounter=battle, user=owner, actor=decision.actor, decision_kind=decision.kind,
        games=100)
    assert simulation.players_see
    simulation_run(simulation_id=simulation.pk)
    from django.test import Client
    client = Client()
    client.force_login(owner)
    page = client.get(reverse("combat:odds", args=[simulation.pk])).content.decode()
    assert "What if" in page and MARKER not in page
    # the setting turned off again: the odds are the GM's once more
    set_odds_for_players(campaign, False)
    assert client.get(reverse("combat:odds", args=[simulation.pk])).status_code == 404


def test_cancel_stops_a_simulation_and_a_worker_then_writes_nothing(campaign, gm, setup,
                                                                    player_a):
    simulation = simulation_create_from_setup(campaign=campaign, user=gm, engine="btq_naval",
                                              setup=setup, title="t", games=1_000)
    chunk = services._claim(simulation, "me")
    with pytest.raises(PermissionDenied):
        simulation_cancel(simulation=simulation, user=player_a)
    simulation_cancel(simulation=simulation, user=gm)
    with pytest.raises(services._Stop):
        services._renew(chunk, "me")
    with pytest.raises(services._Stop):
        services._commit(chunk, "me", in_one_process(simulation, games=500))
    assert simulation_run(simulation_id=simulation.pk) == 0
    simulation.refresh_from_db()
    assert simulation.status == Simulation.Status.CANCELLED and simulation.results is None
    assert simulation.seed_revealed
    with pytest.raises(ValidationError):
        simulation_cancel(simulation=simulation, user=gm)


def test_bad_input_is_refused_with_a_reason(campaign, gm, gm_client, setup, battle, pc_ship,
                                            enemy_ship):
    for games in (0, -5, MAX := services.MAX_GAMES + 1, True, "many"):
        with pytest.raises(ValidationError, match="number of games"):
            simulation_create_from_setup(campaign=campaign, user=gm, engine="btq_naval",
                                         setup=setup, title="t", games=games)
    assert MAX > services.MAX_GAMES
    with pytest.raises(ValidationError):
        simulation_create_from_setup(campaign=campaign, user=gm, engine="btq_naval",
                                     setup={"weather": "fog"}, title="t")
    decision = get_engine("btq_naval").pending(battle.state)[0]
    with pytest.raises(ValidationError, match="in all"):
        simulation_create_from_encounter(encounter=battle, user=gm, actor=decision.actor,
                                         decision_kind=decision.kind,
                                         games=services.MAX_GAMES)
    with pytest.raises(ValidationError, match="not awaited"):
        simulation_create_from_encounter(encounter=battle, user=gm, actor="pc:0",
                                         decision_kind="nothing")
    page = gm_client.post(reverse("combat:odds_new", args=[campaign.pk]), {
        "pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk, "weather": "steady_breeze",
        "odds_games": "12"})
    assert page.status_code == 200
    assert "Ensure this value is greater than or equal to 100" in page.content.decode()
    assert gm_client.get(reverse("combat:odds_download", args=[1, "xml"])).status_code == 404
    assert Simulation.objects.count() == 0


def test_the_new_battle_page_asks_for_the_odds(campaign, gm_client, pc_ship, enemy_ship,
                                               django_capture_on_commit_callbacks):
    page = gm_client.get(reverse("combat:new", args=[campaign.pk])).content.decode()
    assert "What are the odds?" in page
    with django_capture_on_commit_callbacks(execute=False):
        response = gm_client.post(reverse("combat:odds_new", args=[campaign.pk]), {
            "pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk, "weather": "steady_breeze",
            "start_distance": "3", "odds_games": "500"})
    simulation = Simulation.objects.get()
    assert response.url == reverse("combat:odds", args=[simulation.pk])
    assert simulation.encounter is None and simulation.games == 500
    assert campaign.encounters.count() == 0  # nothing prepared
    json.dumps(simulation.labels)


def test_the_books_example_has_no_odds(campaign, gm_client, hermes, corsair):
    """The book's cards replay its battle with its decisions: the odds, which play the
    default choices, would set its stack aside after the first, so they are refused."""
    page = gm_client.post(reverse("combat:odds_new", args=[campaign.pk]), {
        "pc_ship": hermes.pk, "enemy_ship": corsair.pk, "weather": "good_wind",
        "book_cards": "on", "odds_games": "500"})
    assert page.status_code == 200 and "it has no odds" in page.content.decode()
    assert not Simulation.objects.exists()
    # shown again at the odds' address, the form still prepares the battle with its main
    # button (the odds' button has its own formaction)
    assert f'action="{reverse("combat:new", args=[campaign.pk])}"' in page.content.decode()


STACK = "KS KD 2C 3C 4C 5C 6C"
"""Stacked cards for a scripted opening: the first Card of Fate and a ship's pool."""


def test_the_odds_of_a_new_battle_begin_every_game_with_its_stacked_cards(
        campaign, gm, gm_client, player_a_client, pc_ship, enemy_ship, monkeypatch,
        django_capture_on_commit_callbacks):
    """A GM stacks cards for a scripted opening and asks the odds on the New battle page:
    every game draws the stack first, then its shuffled decks, as the battle itself would
    (game 0 of the odds ends as the battle prepared from the same form and seed, resolved by
    the computer, does); the odds page tells him so, without the cards; the players see none
    of it; the API takes the stack too and refuses a bad card by its field."""
    terms = {"pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk, "weather": "steady_breeze",
             "start_distance": "3", "stacked_cards": STACK}
    with django_capture_on_commit_callbacks(execute=False):
        gm_client.post(reverse("combat:odds_new", args=[campaign.pk]),
                       {**terms, "odds_games": "200"})
    simulation = Simulation.objects.get()
    assert simulation.stacked_cards == STACK.split()
    run_simulation(simulation.pk)
    simulation.refresh_from_db()
    assert simulation.results == {"": in_one_process(simulation).as_dict()}
    shuffled = run(get_engine("btq_naval"), simulation.setup,
                   seeds=job_seeds(int(simulation.seed), 0, 200))
    assert simulation.results[""] != shuffled.as_dict()
    assert simulation_replay(simulation=simulation)["matches"]

    # the API before the battle, which may make Le Secret the players' prize
    url = reverse("api-odds-new", args=[campaign.pk])
    api_terms = {**terms, "start_distance": 3, "games": 100}
    with django_capture_on_commit_callbacks(execute=False):
        answer = gm_client.post(url, api_terms, content_type="application/json")
    assert answer.status_code == 201 and STACK not in answer.content.decode()
    assert Simulation.objects.get(pk=answer.json()["id"]).stacked_cards == STACK.split()
    refused = gm_client.post(url, {**api_terms, "stacked_cards": "KS ZZ"},
                             content_type="application/json")
    assert refused.status_code == 400 and "stacked_cards" in refused.json()
    assert Simulation.objects.count() == 2
    first_game = next(job_seeds(int(simulation.seed), 0, 1))
    monkeypatch.setattr("combat.services.new_seed", lambda: str(first_game))
    gm_client.post(reverse("combat:new", args=[campaign.pk]), terms)
    battle = campaign.encounters.get()
    battle = encounter_start(encounter=battle, user=gm, expected_version=battle.version)
    job = encounter_resolve_rest(encounter=battle, user=gm)
    while job is not None and job.status in ("queued", "running"):
        job = job_run(job_id=job.pk)
    battle.refresh_from_db()
    assert battle.status == "finished" and battle.stacked_position == len(STACK.split())
    game = run(get_engine("btq_naval"), simulation.setup, seeds=[first_game],
               stacked=simulation.stacked_cards)
    winner = battle.outcome["winner"] or NO_WINNER
    assert game.outcomes == {f"{winner}/{battle.outcome['result']}": 1}
    assert game.round_counts == {str(battle.outcome["data"]["rounds"]): 1}

    page = gm_client.get(reverse("combat:odds", args=[simulation.pk])).content.decode()
    assert "Every game draws your 7 stacked cards first" in page and STACK not in page
    assert player_a_client.get(reverse("combat:odds", args=[simulation.pk])).status_code == 404


def test_the_odds_of_several_ships_a_side_are_played_with_every_ship(
        campaign, gm_client, pc_ship, enemy_ship, sparrow, django_capture_on_commit_callbacks):
    """The odds of two ships against one, asked from the New battle form and from the API,
    are played with the three ships, as the battle would be, and refuse what New battle
    refuses."""
    ours = f"{pc_ship.name} and HMS Sparrow vs {enemy_ship.name}"
    with django_capture_on_commit_callbacks(execute=False):
        response = gm_client.post(reverse("combat:odds_new", args=[campaign.pk]), {
            "pc_ship": pc_ship.pk, "allies": [sparrow.pk], "enemy_ship": enemy_ship.pk,
            "weather": "steady_breeze", "start_distance": "3", "odds_games": "500"})
        answer = gm_client.post(reverse("api-odds-new", args=[campaign.pk]), {
            "pc_ship": pc_ship.pk, "allies": [sparrow.pk], "enemy_ship": enemy_ship.pk,
            "weather": "steady_breeze", "games": 500}, content_type="application/json")
    assert response.status_code == 302 and answer.status_code == 201, answer.content
    for simulation in Simulation.objects.order_by("pk"):
        assert [s["id"] for s in simulation.setup["ships"]] == [
            str(pc_ship.pk), str(sparrow.pk), str(enemy_ship.pk)]
        assert simulation.title == ours
        assert str(sparrow) in simulation.labels["ships"].values()
    assert Simulation.objects.count() == 2
    url = reverse("api-odds-new", args=[campaign.pk])
    for bad, field in (({"allies": [pc_ship.pk]}, "allies"), ({"enemies": [10**9]}, "enemies"),
                       ({"ship_reputation": 10**9}, "ship_reputation")):
        refused = gm_client.post(url, {"pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk,
                                       "weather": "steady_breeze", **bad},
                                 content_type="application/json")
        assert refused.status_code == 400 and field in refused.json(), refused.content
    assert "already in the battle" in gm_client.post(url, {
        "pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk, "weather": "steady_breeze",
        "allies": [pc_ship.pk]}, content_type="application/json").json()["allies"]
    page = gm_client.post(reverse("combat:odds_new", args=[campaign.pk]), {
        "pc_ship": pc_ship.pk, "allies": [pc_ship.pk], "enemy_ship": enemy_ship.pk,
        "weather": "steady_breeze", "odds_games": "500"}).content.decode()
    assert f"{pc_ship} is already in the battle" in page
    assert Simulation.objects.count() == 2


def test_the_api_asks_reads_and_stops_the_odds(battle, gm_client, player_a_client,
                                               outsider_client, campaign, pc_ship, enemy_ship):
    decision = get_engine("btq_naval").pending(battle.state)[0]
    ask = reverse("api-odds-ask", args=[battle.pk])
    answer = gm_client.post(ask, {"actor": decision.actor, "kind": decision.kind,
                                  "games": 100}, content_type="application/json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["status"] == "queued" and body["seed"] is None
    assert {o["key"] for o in body["options"]} == {o.key for o in decision.options}
    url = reverse("api-odds", args=[body["id"]])
    simulation_run(simulation_id=body["id"])
    done = gm_client.get(url).json()
    assert done["status"] == "done" and done["seed"] and done["games_done"] == 100 * len(
        decision.options)
    assert player_a_client.get(url).status_code == 404
    assert outsider_client.get(url).status_code == 404
    assert player_a_client.post(ask, {}, content_type="application/json").status_code == 403
    assert outsider_client.post(ask, {}, content_type="application/json").status_code == 404
    for bad in ({"games": 0}, {"games": "x"}, {"games": services.MAX_GAMES + 1},
                {"actor": "pc:1", "kind": "nothing"}):
        refused = gm_client.post(ask, bad, content_type="application/json")
        assert refused.status_code == 400, (bad, refused.content)
    new = gm_client.post(reverse("api-odds-new", args=[campaign.pk]), {
        "pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk, "weather": "steady_breeze",
        "games": 1_000}, content_type="application/json")
    assert new.status_code == 201
    stop = reverse("api-odds-cancel", args=[new.json()["id"]])
    assert gm_client.post(stop).json()["status"] == "cancelled"
    assert gm_client.post(stop).status_code == 400
    assert gm_client.post(reverse("api-odds-new", args=[campaign.pk]), {
        "pc_ship": 10**9, "enemy_ship": enemy_ship.pk, "weather": "steady_breeze"},
        content_type="application/json").status_code == 400


def test_each_chunk_logs_its_stages_as_the_benchmark_reads_them(campaign, gm, setup, caplog):
    from benchmarks.simulations import CHUNK, MERGE

    simulation = simulation_create_from_setup(campaign=campaign, user=gm, engine="btq_naval",
                                              setup=setup, title="t", games=600)
    with caplog.at_level("INFO", logger="combat.odds.services"):
        simulation_run(simulation_id=simulation.pk)
    chunks = [m for r in caplog.records if (m := CHUNK.search(r.getMessage()))]
    assert [(int(m[1]), int(m[2])) for m in chunks] == [(simulation.pk, 500),
                                                         (simulation.pk, 100)]
    assert all(float(m[6]) > 0 for m in chunks)  # the play's CPU
    assert [int(m[1]) for r in caplog.records if (m := MERGE.search(r.getMessage()))] == [
        simulation.pk]


def test_the_gms_odds_from_here_draw_the_stacked_cards_still_to_come(
        campaign, gm, player_a, player_b, player_a_client, pc_ship, enemy_ship, setup):
    """Asked during a battle with stacked cards, the GM's odds draw those not drawn yet first
    in every game, as the battle will, and are his alone even where the players may see
    odds (they would show the stack's effect); a player's odds play shuffled decks."""
    set_odds_for_players(campaign, True)
    encounter = encounter_create(campaign=campaign, user=gm, engine="btq_naval",
                                 title="Stacked", setup=setup, ships=[pc_ship, enemy_ship],
                                 stacked_cards=STACK)
    battle = encounter_start(encounter=encounter, user=gm, expected_version=encounter.version)
    assert battle.stacked_remaining
    simulation = simulation_create_from_encounter(encounter=battle, user=gm, games=100)
    assert simulation.stacked_cards == battle.stacked_remaining
    assert not simulation.players_see
    simulation_run(simulation_id=simulation.pk)
    simulation.refresh_from_db()
    assert simulation.results == {"": in_one_process(simulation).as_dict()}
    shuffled = run(get_engine("btq_naval"), simulation.state,
                   seeds=job_seeds(int(simulation.seed), 0, 100))
    assert simulation.results[""] != shuffled.as_dict()
    assert player_a_client.get(reverse("combat:odds", args=[simulation.pk])).status_code == 404
    decision = get_engine("btq_naval").pending(battle.state)[0]
    owner = player_a if decision.actor in services.participant_ids_for(player_a, battle) \
        else player_b
    theirs = simulation_create_from_encounter(encounter=battle, user=owner, games=100)
    assert theirs.stacked_cards == [] and theirs.players_see


def test_a_chunk_that_outlasts_its_slice_is_cut_there_and_the_rest_played_next(
        campaign, gm, settings, django_capture_on_commit_callbacks):
    """An engine whose games are slow (an HFG battle takes most of a second): a chunk is
    cut where its worker's slice ends, each message plays a piece of it, and the results
    are those of the same seeds in one process. With no slice at all, each message plays
    one game: a task never outruns the workers' time limits."""
    settings.JOB_SLICE_SECONDS = 0
    setup = get_engine("brethren").scenarios()["first_broadside"].setup
    with django_capture_on_commit_callbacks(execute=False):
        simulation = simulation_create_from_setup(campaign=campaign, user=gm,
                                                  engine="brethren", setup=setup,
                                                  title="t", games=4)
    assert [(c.start, c.stop) for c in simulation.chunks.all()] == [(0, 4)]
    messages = 0
    while simulation.is_open and messages < 10:
        with django_capture_on_commit_callbacks(execute=False):
            run_simulation(simulation.pk)  # what each message does, which sends the next
        messages += 1
        simulation.refresh_from_db()
    assert simulation.status == Simulation.Status.DONE and simulation.games_done == 4
    assert messages == 4
    assert sorted((c.start, c.stop, c.done) for c in simulation.chunks.all()) == [
        (0, 1, True), (1, 2, True), (2, 3, True), (3, 4, True)]
    assert simulation.results == {"": in_one_process(simulation).as_dict()}
    assert simulation_replay(simulation=simulation)["matches"]


def test_a_failure_says_why_in_words(campaign, gm, setup):
    from celery.exceptions import SoftTimeLimitExceeded

    simulation = simulation_create_from_setup(campaign=campaign, user=gm, engine="btq_naval",
                                              setup=setup, title="t", games=100)
    services._fail(simulation.pk, SoftTimeLimitExceeded())
    simulation.refresh_from_db()
    assert simulation.error == ("one game took longer than a worker may play at a time "
                                "(20 s)")
