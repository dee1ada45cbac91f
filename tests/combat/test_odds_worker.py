"""The odds on real Celery worker processes, against Redis and PostgreSQL (issue 11): two
workers share a simulation's chunks; one is killed (SIGKILL) while it holds a chunk's
lease; the other takes that chunk over once the lease runs out, and the merged summary is
exactly that of the same seeds played in this one process: no game lost, none counted
twice. The workers run with the shortened job timings of ``test_worker.py``."""

import os
import signal

import pytest

from combat.models import Simulation, SimulationChunk
from combat.odds.services import simulation_create_from_setup
from ships.services import naval_setup

from .test_odds import in_one_process
from .test_worker import Worker, real_services, wait_for  # noqa: F401  (the autouse fixture)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_worker_killed_mid_simulation_changes_nothing_in_its_summary(
        campaign, gm, pc_ship, enemy_ship):
    simulation = simulation_create_from_setup(
        campaign=campaign, user=gm, engine="btq_naval", title="Killed mid-job",
        setup=naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, weather="steady_breeze",
                          start_distance=3),
        games=8_000)
    with Worker() as first, Worker() as second:
        held = wait_for(lambda: SimulationChunk.objects.filter(
            simulation=simulation, done=False,
            lease_owner__contains=f":{first.pid}:").first(), "a chunk held by the first",
            first, second)
        assert simulation.chunks.filter(done=False).exists()
        os.killpg(first.pid, signal.SIGKILL)
        first.process.wait()
        wait_for(lambda: not Simulation.objects.get(pk=simulation.pk).is_open,
                 "the simulation to end", second)
    simulation.refresh_from_db()
    held.refresh_from_db()
    assert simulation.status == Simulation.Status.DONE, simulation.error
    assert held.done and held.takeovers == 1  # played again by the second worker
    assert simulation.games_done == 8_000
    assert simulation.results == {"": in_one_process(simulation).as_dict()}


def test_slow_games_are_cut_into_slices_on_a_real_worker(campaign, gm):
    """HFG's landing party (about a third of a second a game): the worker plays a slice's
    worth of games per message (1 s here) and sends itself the rest, and the merge is the
    same seeds played here."""
    from rules.engine import get_engine

    simulation = simulation_create_from_setup(
        campaign=campaign, user=gm, engine="hfg", title="Ashore",
        setup=get_engine("hfg").scenarios()["landing_party"].setup, games=12)
    with Worker() as worker:
        wait_for(lambda: not Simulation.objects.get(pk=simulation.pk).is_open,
                 "the simulation to end", worker)
    simulation.refresh_from_db()
    assert simulation.status == Simulation.Status.DONE, simulation.error
    assert simulation.chunks.count() > 1 and not simulation.chunks.filter(done=False).exists()
    assert simulation.results == {"": in_one_process(simulation).as_dict()}


def test_a_decision_timeout_is_taken_while_the_worker_plays_odds(
        campaign, gm, pc_a, pc_b, monkeypatch):
    """Two HFG simulations keep the one worker busy (eight messages of a slice each, queued
    before the sweep's): the sweep of timed-out decisions has a queue of its own, so it
    waits for one slice at most, does not expire behind the odds, and the battle whose
    player did not decide in time moves on."""
    from combat.wargames import wargame_create
    from rules.engine import get_engine

    monkeypatch.setenv("QUARTERDECK_DECISION_SWEEP_SECONDS", "1")
    for title in ("Ashore", "Ashore again"):
        simulation_create_from_setup(
            campaign=campaign, user=gm, engine="hfg", title=title,
            setup=get_engine("hfg").scenarios()["landing_party"].setup, games=400)
    game = wargame_create(campaign=campaign, user=gm, scenario_key="brethren/fleet_action",
                          commanders={"en": f"pc:{pc_a.pk}", "fr": f"pc:{pc_b.pk}"})
    type(game).objects.filter(pk=game.pk).update(decision_timeout=1)
    with Worker() as worker:
        wait_for(lambda: type(game).objects.get(pk=game.pk).choices, "the default taken",
                 worker)
        for simulation in Simulation.objects.filter(campaign=campaign):
            assert simulation.is_open  # still playing: the sweep did not wait for them
    game.refresh_from_db()
    assert game.choices[0]["by"].startswith("timeout:")
