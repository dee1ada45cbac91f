"""Speed of the odds through the workers (issue 11), from request to result:

* a 10,000-battle simulation of the default Hermes-vs-Corsair setup through Celery, Redis
  and PostgreSQL with 1 worker process and with 2;
* "what if" for a decision of 5 options at 2,000 games each, to the last answer.

``python -m benchmarks simulations`` (``DATABASE_URL`` and ``REDIS_URL`` must be set, the
database migrated; the demo campaign is loaded into it if missing). The time runs from the
request (``simulation_create_*``) to the result, which the benchmark learns as the odds page
does: woken by the simulation's push channel on Redis. The workers' CPU is measured while
they play; the same games are then played again in this process, after the time is taken.

The machine may be shared, so beside each wall-clock figure the report gives the load
average and measures that other work does not skew: the CPU time the worker processes spent
against that of the same games played in this process (the cost of the job machinery over
the kernel's), and the stages of every chunk as the workers log them (queueing, claim,
play, commit, merge). "2 worker processes" are two worker nodes of one process each, each
in a session of its own: Linux's autogroup scheduler shares a loaded machine between
sessions, so two processes of one session get no more CPU than one would, and one node of
two processes would measure the scheduler, not the simulation. The ratio "if each process
had a core" divides the CPU of all the chunks by that of the busiest process.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = 10_000
WHAT_IF_GAMES = 2_000
OPTIONS = 5
CHUNK = re.compile(r"simulation (\d+) chunk \d+: (\d+) games.*?claimed (\d+) ms after the "
                   r"simulation was asked; claim ([\d.]+), play ([\d.]+) \(CPU ([\d.]+)\), "
                   r"commit ([\d.]+) ms")
MERGE = re.compile(r"simulation (\d+): all chunks in, merged in ([\d.]+) ms")


def load() -> str:
    """The load average (1, 5, 15 minutes) and the cores, as ``uptime`` gives them."""
    return (f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} "
            f"cores")


class Workers:
    """``nodes`` Celery worker nodes of one process each, each in its own session, logging
    to files of their own; stopped (SIGTERM to each session) on exit."""

    def __init__(self, nodes: int, folder: Path):
        self.logs = [folder / f"worker{n}.log" for n in range(nodes)]
        self.processes: list[subprocess.Popen] = []
        for n, log in enumerate(self.logs):
            beat = ["-B", "-s", str(folder / "beat")] if n == 0 else []
            with open(log, "w") as out:
                self.processes.append(subprocess.Popen(
                    [sys.executable, "-m", "celery", "-A", "config", "worker", *beat,
                     "--pool=prefork", "--concurrency=1", "--loglevel=INFO", "-n",
                     f"bench{n}@%h", "--without-heartbeat", "--without-gossip",
                     "--without-mingle"],
                    cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True))

    def __enter__(self) -> Workers:
        from config.celery import app

        deadline = time.monotonic() + 120
        while len(app.control.ping(timeout=0.5)) < len(self.processes):
            if time.monotonic() > deadline:
                raise RuntimeError("the benchmark's workers did not answer within 120 s")
        return self

    def __exit__(self, *exc) -> None:
        for process in self.processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            process.wait(timeout=60)

    def cpu(self) -> float:
        """The CPU seconds (user and system) of every process of the nodes so far."""
        import psutil

        total = 0.0
        for process in self.processes:
            node = psutil.Process(process.pid)
            for p in [node, *node.children(recursive=True)]:
                times = p.cpu_times()
                total += times.user + times.system
        return total

    def stages(self, simulation) -> dict:
        """The chunks of ``simulation`` as the workers logged them (a worker logs a chunk
        just after committing it: waiting up to 10 s for every line): per process (log
        file) the chunks and their play CPU (s); the sums (s) of the stages; the first
        claim after the request (ms); the merge (ms)."""
        chunks = simulation.chunks.filter(done=True).count()
        deadline = time.monotonic() + 10
        while (found := self._stages(simulation.pk)) and sum(
                n for n, _ in found["per_process"]) < chunks and time.monotonic() < deadline:
            time.sleep(0.1)
        return found

    def _stages(self, simulation_id: int) -> dict:
        per_process, sums, first, merge = [], dict.fromkeys(("claim", "play", "cpu",
                                                             "commit"), 0.0), None, None
        for log in self.logs:
            chunks, cpu = 0, 0.0
            for line in log.read_text().splitlines():
                if (m := CHUNK.search(line)) and int(m[1]) == simulation_id:
                    chunks += 1
                    cpu += float(m[6]) / 1e3
                    first = min(first or float("inf"), float(m[3]))
                    for key, value in zip(sums, m.groups()[3:]):
                        sums[key] += float(value) / 1e3
                elif (m := MERGE.search(line)) and int(m[1]) == simulation_id:
                    merge = float(m[2])
            per_process.append((chunks, cpu))
        return {"per_process": per_process, "sums": sums, "first_claim_ms": first,
                "merge_ms": merge}


def until_done(simulation, limit: float = 900) -> float:
    """Seconds from now until ``simulation`` ends, woken by its push channel as its page
    is (and looking at least once a second, as the page's stream does)."""
    import redis
    from django.conf import settings

    from combat.odds.selectors import simulation_channel

    start = time.monotonic()
    channel = redis.Redis.from_url(settings.REDIS_URL).pubsub(ignore_subscribe_messages=True)
    channel.subscribe(simulation_channel(simulation.pk))
    try:
        while time.monotonic() - start < limit:
            simulation.refresh_from_db(fields=["status"])
            if not simulation.is_open:
                return time.monotonic() - start
            channel.get_message(timeout=1.0)
    finally:
        channel.close()
    raise RuntimeError(f"simulation {simulation.pk} did not end in {limit} s")


def kernel_cpu(simulation) -> float:
    """CPU seconds of the same games as ``simulation`` (ended, so its seed is known) played
    again in this process by the kernel alone, as a worker plays them but with no database
    or broker: every option's games, from ``combat.odds.services.play_chunk``."""
    from combat.odds.services import play_chunk

    cpu = time.process_time()
    for option in simulation.options:
        play_chunk(simulation, 0, simulation.games, option)
    return time.process_time() - cpu


def report(label: str, took: float, simulation, used_cpu: float, stages: dict) -> None:
    """Print the figures of one ended ``simulation`` that took ``took`` s from request to
    result, its workers having used ``used_cpu`` CPU seconds."""
    simulation.refresh_from_db()
    games = simulation.games * len(simulation.options)
    kernel = kernel_cpu(simulation) / games
    status = simulation.status
    sums, per_process = stages["sums"], stages["per_process"]
    busiest = max((cpu for _, cpu in per_process), default=0.0)
    print(f"{label}: {took:.2f} s ({status}, {games / took:,.0f} games/s; {load()})")
    print(f"  worker CPU {used_cpu:.2f} s = {used_cpu / games * 1e3:.3f} ms/game; the same "
          f"games by the kernel alone {kernel * 1e3:.3f} ms: machinery "
          f"{used_cpu / (kernel * games) - 1:+.1%}")
    print(f"  chunks per process (CPU s): "
          f"{', '.join(f'{n} ({cpu:.2f})' for n, cpu in per_process)}; ratio if each had a "
          f"core {sums['cpu'] / busiest if busiest else 0:.2f}")
    if stages["first_claim_ms"] is None:
        print("  stages: not logged by these workers")
        return
    print(f"  stages: first claim {stages['first_claim_ms']:.0f} ms after the request; "
          f"claims {sums['claim']:.2f} s, play {sums['play']:.2f} s wall ({sums['cpu']:.2f} s "
          f"CPU), commits {sums['commit']:.2f} s, merge {stages['merge_ms'] or 0:.1f} ms")


def _what_if_encounter(campaign, gm, setup, ships):
    """A started battle at its first pending decision of :data:`OPTIONS` options (or, if
    the battle ends first, of more), with the defaults taken until then."""
    from combat.models import Encounter
    from combat.services import encounter_act, encounter_cancel, encounter_create, encounter_start
    from rules.engine import get_engine

    # An earlier run's battles (left in progress, or by a run stopped half-way) would keep
    # the ships from a new one.
    for left in Encounter.objects.filter(campaign=campaign, title="bench what if",
                                         status__in=Encounter.UNFINISHED):
        encounter_cancel(encounter=left, user=gm, expected_version=left.version)
    engine = get_engine("btq_naval")
    fallback = None
    for _ in range(20):
        battle = encounter_create(campaign=campaign, user=gm, engine="btq_naval",
                                  title="bench what if", setup=setup, ships=ships)
        battle = encounter_start(encounter=battle, user=gm, expected_version=battle.version)
        while battle.status == battle.Status.ACTIVE and (pending := engine.pending(battle.state)):
            decision = pending[0]
            if len(decision.options) == OPTIONS:
                return battle, decision
            if fallback is None and len(decision.options) > OPTIONS:
                fallback = battle, decision
            encounter_act(encounter=battle, user=gm, actor=decision.actor,
                          decision_kind=decision.kind,
                          choice=engine.default_choice(battle.state, decision),
                          expected_version=battle.version)
            battle.refresh_from_db()
    if fallback is None:
        raise RuntimeError(f"no decision of {OPTIONS} or more options in 20 battles")
    return fallback


def main() -> None:
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        print("simulations: set DATABASE_URL (PostgreSQL, migrated) and REDIS_URL to measure")
        return
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from combat.demo import demo_load
    from combat.models import Encounter
    from combat.odds.services import (
        simulation_create_from_encounter,
        simulation_create_from_setup,
    )
    from config.celery import app
    from ships.services import naval_setup

    campaign, _ = demo_load()
    gm = campaign.memberships.get(role="gm").user
    hermes, corsair = campaign.ships.get(side="pc"), campaign.ships.get(side="enemy")
    setup = naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="steady_breeze",
                        start_distance=None)
    import rules.btq.naval

    built = "compiled (make fast)" if rules.btq.naval.__file__.endswith(".so") else "interpreted"
    print(f"before: {load()}; the kernel {built}")
    battle, decision = _what_if_encounter(campaign, gm, setup, [hermes, corsair])
    app.control.purge()
    took = {}
    for nodes in (1, 2):
        label = f"{nodes} worker process{'es' if nodes > 1 else ''}"
        with tempfile.TemporaryDirectory() as folder, Workers(nodes, Path(folder)) as workers:
            cpu = workers.cpu()
            start = time.monotonic()
            simulation = simulation_create_from_setup(
                campaign=campaign, user=gm, engine="btq_naval", setup=setup, title="bench",
                games=GAMES)
            until_done(simulation)
            took[nodes] = time.monotonic() - start
            report(f"{GAMES:,} battles, {label}", took[nodes], simulation,
                   workers.cpu() - cpu, workers.stages(simulation))
            if nodes == 2:
                cpu = workers.cpu()
                start = time.monotonic()
                what_if = simulation_create_from_encounter(
                    encounter=battle, user=gm, actor=decision.actor,
                    decision_kind=decision.kind, games=WHAT_IF_GAMES)
                until_done(what_if)
                report(f"what if, {len(decision.options)} options x {WHAT_IF_GAMES:,} games "
                       f"({decision.kind}), {label}, to the last answer",
                       time.monotonic() - start, what_if, workers.cpu() - cpu,
                       workers.stages(what_if))
    print(f"1 worker / 2 workers, wall clock: {took[1] / took[2]:.2f}")
    Encounter.objects.filter(pk=battle.pk).update(status=Encounter.Status.CANCELLED)
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
