"""Speed of the odds (issue 11), side by side in one run:

* battles/s of the default Hermes-vs-Corsair setup (BtQ L2533-2603) played as the Monte
  Carlo plays them, on one core (CPU time, best of a few runs): the kernel before issue 11
  (:data:`BASELINE`, from git), ``main`` before the hot path's second pass
  (:data:`PREVIOUS`), this tree interpreted (``QUARTERDECK_PURE_PYTHON=1``) and
  compiled (``make fast``; "not built" otherwise), each in a process of its own;
* a 10,000-battle simulation from request to result through Celery, Redis and PostgreSQL,
  with 1 worker process and with 2 (``DATABASE_URL`` and ``REDIS_URL`` must be set, the
  database migrated; the demo campaign is loaded into it if missing);
* "what if" for a decision of 5 options at 2,000 games each, to the last answer.

``python -m benchmarks montecarlo``. Other work on the machine skews the figures: the
report prints the load average beside them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "25080cd"
"""The commit before issue 11's work on the kernel."""
PREVIOUS = "2d708fb"
"""``main`` before the second pass on the hot path (issue 11's speed goals: 2,500 battles/s
interpreted, 5,000 compiled)."""
BATTLES = 2_000
RATE = r"""
import sys, time
from rules.engine import get_engine
from rules.montecarlo import run
engine = get_engine("btq_naval")
setup = engine.scenarios()["hermes_vs_corsair"].setup
run(engine, setup, seeds=range(200))
best = 0.0
for _ in range(3):
    cpu = time.process_time()
    run(engine, setup, seeds=range(int(sys.argv[1])))
    best = max(best, int(sys.argv[1]) / (time.process_time() - cpu))
import rules.random
print(best, rules.random.__file__)
"""


def _rate(path: Path, *, pure: bool) -> tuple[float, str]:
    env = {**os.environ, "PYTHONPATH": str(path)}
    env.pop("QUARTERDECK_PURE_PYTHON", None)
    if pure:
        env["QUARTERDECK_PURE_PYTHON"] = "1"
    out = subprocess.run([sys.executable, "-c", RATE, str(BATTLES)], cwd=path, env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), out[1]


def _baseline(into: Path, commit: str = BASELINE) -> Path:
    """The kernel (``rules/``) at ``commit``, from git, extracted into ``into``."""
    archive = subprocess.run(["git", "archive", commit, "rules"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def kernel() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        before, _ = _rate(_baseline(Path(tmp)), pure=True)
    with tempfile.TemporaryDirectory() as tmp:
        previous, _ = _rate(_baseline(Path(tmp), PREVIOUS), pure=True)
    pure, _ = _rate(ROOT, pure=True)
    compiled, where = _rate(ROOT, pure=False)
    built = where.endswith(".so")
    print(f"Hermes v Corsair, battles/s of CPU on one core (best of 3 x {BATTLES:,}):")
    print(f"  before issue 11 ({BASELINE}) {before:8,.0f}")
    print(f"  main at {PREVIOUS}          {previous:8,.0f}  x{previous / before:.2f}")
    print(f"  interpreted              {pure:8,.0f}  x{pure / before:.2f} "
          f"(x{pure / previous:.2f} of {PREVIOUS}; goal 2,500)")
    if built:
        print(f"  compiled (make fast)     {compiled:8,.0f}  x{compiled / before:.2f} "
              f"(goal 5,000)")
    else:
        print("  compiled                 not built (make fast)")


def _worker(processes: int, log):
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-B", "--pool=prefork",
         f"--concurrency={processes}", "--loglevel=WARNING", "--without-heartbeat",
         "--without-gossip", "--without-mingle", "-s", str(Path(log.name).with_suffix(".beat"))],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def _until_done(simulation, limit: float = 600) -> float:
    start = time.monotonic()
    while time.monotonic() - start < limit:
        simulation.refresh_from_db()
        if not simulation.is_open:
            return time.monotonic() - start
        time.sleep(0.02)
    raise RuntimeError(f"simulation {simulation.pk} did not end in {limit} s")


def jobs() -> None:
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        print("jobs: set DATABASE_URL (PostgreSQL, migrated) and REDIS_URL to measure them")
        return
    import signal

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from combat.demo import demo_load
    from combat.models import Encounter
    from combat.odds.services import (
        simulation_create_from_encounter,
        simulation_create_from_setup,
    )
    from combat.services import encounter_act, encounter_create, encounter_start
    from config.celery import app
    from rules.engine import get_engine
    from ships.services import naval_setup

    campaign, _ = demo_load()
    gm = campaign.memberships.get(role="gm").user
    hermes, corsair = campaign.ships.get(side="pc"), campaign.ships.get(side="enemy")
    setup = naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="steady_breeze",
                        start_distance=None)
    app.control.purge()
    for processes in (1, 2):
        with tempfile.NamedTemporaryFile("w+", suffix=".log") as log:
            worker = _worker(processes, log)
            try:
                time.sleep(4)  # the worker's start is not the simulation's time
                simulation = simulation_create_from_setup(
                    campaign=campaign, user=gm, engine="btq_naval", setup=setup,
                    title="bench", games=10_000)
                took = _until_done(simulation)
                print(f"10,000 battles through Celery, {processes} worker process"
                      f"{'es' if processes > 1 else ''}: {took:.2f} s "
                      f"({simulation.status}, {10_000 / took:,.0f} battles/s)")
                if processes == 2:
                    battle = encounter_create(campaign=campaign, user=gm, engine="btq_naval",
                                              title="bench what if", setup=setup,
                                              ships=[hermes, corsair])
                    battle = encounter_start(encounter=battle, user=gm,
                                             expected_version=battle.version)
                    engine = get_engine("btq_naval")
                    while len((decision := engine.pending(battle.state)[0]).options) < 5:
                        encounter_act(encounter=battle, user=gm, actor=decision.actor,
                                      decision_kind=decision.kind,
                                      choice=engine.default_choice(battle.state, decision),
                                      expected_version=battle.version)
                        battle.refresh_from_db()
                    what_if = simulation_create_from_encounter(
                        encounter=battle, user=gm, actor=decision.actor,
                        decision_kind=decision.kind, games=2_000)
                    took = _until_done(what_if)
                    print(f"what if, {len(decision.options)} options x 2,000 games "
                          f"({decision.kind}), 2 worker processes: {took:.2f} s to the last "
                          f"answer")
                    battle.status = Encounter.Status.CANCELLED
                    battle.save(update_fields=["status"])
            finally:
                os.killpg(worker.pid, signal.SIGTERM)
                worker.wait(timeout=30)


def main() -> None:
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores")
    kernel()
    jobs()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
