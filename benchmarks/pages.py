"""Page latency at a table of 20: the real server, started as ``make run`` starts it
(``config.serve``), and 20 simulated users (the GM and the three demo players, five
sessions each) who log in, open a page, think 1 to 3 seconds, and now and then log out and
in again, so that logins (password hashing) fall among the page views.

    python -m benchmarks pages                  # SQLite and the filesystem broker, fresh
    DATABASE_URL=postgres://... python -m benchmarks pages     # that database, migrated

Reports p50/p95/p99 per page (campaign page, battle page, character sheet, card test list,
one API list, and the logins apart), and the queries each page makes for the GM and for a
player, counted in this process through Django's test client on the same database.
Bounded: :data:`SECONDS` of load (``QUARTERDECK_BENCH_SECONDS``), at most
:data:`MAX_REQUESTS` per user; every request goes to 127.0.0.1. The goal (issue 7): p95 under
100 ms and p99 under 300 ms on a two-core machine.
"""

from __future__ import annotations

import http.client
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
USERS = 20
THINK_SECONDS = (1.0, 3.0)
SECONDS = float(os.environ.get("QUARTERDECK_BENCH_SECONDS", 60))
MAX_REQUESTS = 200
RELOGIN_EVERY = 15
"""A user logs out and in again after about this many pages."""
PASSWORD = "quarterdeck-demo"
PERSONAS = ["gm", "otoole", "bosworth", "smith"]
GOAL_P95_MS, GOAL_P99_MS = 100, 300


def _env() -> dict[str, str]:
    env = dict(os.environ)
    if not env.get("DATABASE_URL"):
        env["QUARTERDECK_VAR_DIR"] = tempfile.mkdtemp(prefix="quarterdeck-bench-")
        env.pop("REDIS_URL", None)
    return env


def _manage(env, *args) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)


def prepare() -> dict:
    """The demo, with a battle begun: the ids the pages need (this process's Django is set
    up on the benchmark's database)."""
    import django

    django.setup()
    from campaigns.models import Campaign
    from combat.demo import DEMO_CAMPAIGN
    from combat.services import encounter_create, encounter_start
    from ships.services import naval_setup

    campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
    gm = campaign.memberships.get(role="gm").user
    battle = campaign.encounters.exclude(status="finished").first()
    if battle is None:
        hermes, corsair = campaign.ships.get(side="pc"), campaign.ships.get(side="enemy")
        battle = encounter_create(
            campaign=campaign, user=gm, engine="btq_naval", title="Hermes vs Corsair",
            setup=naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind"),
            ships=[hermes, corsair])
        battle = encounter_start(encounter=battle, user=gm, expected_version=battle.version)
    sheets = {c.owner.username: c.pk for c in campaign.characters.filter(owner__isnull=False)
              .select_related("owner")}
    sheets["gm"] = sheets["otoole"]
    return {"campaign": campaign.pk, "battle": battle.pk, "sheets": sheets}


def pages_for(ids: dict, username: str) -> dict[str, str]:
    """The pages a user opens, by name: their own character sheet (the GM: O'Toole's)."""
    c = ids["campaign"]
    return {
        "campaign page": f"/campaigns/{c}/",
        "battle page": f"/combat/{ids['battle']}/",
        "character sheet": f"/characters/{ids['sheets'][username]}/",
        "card test list": f"/campaigns/{c}/tests/",
        "API characters": f"/api/campaigns/{c}/characters/",
    }


def queries_per_page(ids: dict) -> dict[str, dict[str, int]]:
    """``{page: {"gm": n, "player": n}}``, through Django's test client."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    found: dict[str, dict[str, int]] = defaultdict(dict)
    for who, username in (("gm", "gm"), ("player", "otoole")):
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(get_user_model().objects.get(username=username))
        for page, url in pages_for(ids, username).items():
            client.get(url)  # warm: the first request of a process sets things up
            with CaptureQueriesContext(connection) as ctx:
                status = client.get(url).status_code
            found[page][who] = len(ctx.captured_queries) if status == 200 else -status
    return found


class User(threading.Thread):
    """One browser: a keep-alive connection, a session, a page every 1-3 s."""

    def __init__(self, port: int, username: str, pages: dict[str, str], until: float,
                 results: dict[str, list[float]], errors: dict[str, int], seed: int):
        super().__init__(daemon=True)
        self.port, self.username, self.pages, self.until = port, username, pages, until
        self.results, self.errors = results, errors
        self.rng = random.Random(seed)
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: dict | None = None):
        headers = {"Host": f"127.0.0.1:{self.port}",
                   "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None
        if body is not None:
            data = urlencode(body)
            headers.update({"Content-Type": "application/x-www-form-urlencoded",
                            "Origin": f"http://127.0.0.1:{self.port}"})
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                text = response.read().decode()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        jar = SimpleCookie()
        for header in response.headers.get_all("Set-Cookie") or ():
            jar.load(header)
        self.cookies.update({k: m.value for k, m in jar.items() if m.value})
        return response.status, text

    def login(self) -> None:
        self.cookies.clear()
        status, text = self.request("GET", "/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text).group(1)
        started = time.perf_counter()
        status, _ = self.request("POST", "/accounts/login/", {
            "username": self.username, "password": PASSWORD, "csrfmiddlewaretoken": token})
        self.record("login", started, status == 302)

    def record(self, name: str, started: float, ok: bool) -> None:
        self.results[name].append((time.perf_counter() - started) * 1000)
        if not ok:
            self.errors[name] += 1

    def run(self) -> None:
        time.sleep(self.rng.uniform(0, THINK_SECONDS[1]))
        self.login()
        for n in range(1, MAX_REQUESTS + 1):
            if time.monotonic() >= self.until:
                break
            name, path = self.rng.choice(list(self.pages.items()))
            started = time.perf_counter()
            status, _ = self.request("GET", path)
            self.record(name, started, status == 200)
            time.sleep(self.rng.uniform(*THINK_SECONDS))
            if n % RELOGIN_EVERY == 0 and time.monotonic() < self.until:
                self.login()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


def serve(env, port: int) -> subprocess.Popen:
    """The launcher of ``make run``, bound as it binds, once it answers."""
    proc = subprocess.Popen([sys.executable, "-m", "config.serve", "--host", "0.0.0.0",
                             "--port", str(port), "--no-qr"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    for line in proc.stdout:
        if "Press Ctrl-C" in line:
            break
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
    threading.Thread(target=proc.stdout.read, daemon=True).start()
    return proc


def percentile(sorted_ms: list[float], p: int) -> float:
    if len(sorted_ms) == 1:
        return sorted_ms[0]
    return statistics.quantiles(sorted_ms, n=100, method="inclusive")[p - 1]


def report(results, errors, queries, seconds: float) -> list[str]:
    lines = [f"{'page':<16} {'n':>5} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7} "
             f"{'errors':>6}  queries gm/player"]
    everything = []
    for name in [*queries, "login"]:
        ms = sorted(results.get(name, []))
        if not ms:
            continue
        if name != "login":
            everything += ms
        q = queries.get(name)
        qtext = f"{q['gm']}/{q['player']}" if q else "-"
        lines.append(f"{name:<16} {len(ms):>5} {percentile(ms, 50):>7.1f} "
                     f"{percentile(ms, 95):>7.1f} {percentile(ms, 99):>7.1f} {ms[-1]:>7.1f} "
                     f"{errors.get(name, 0):>6}  {qtext}")
    everything.sort()
    p95, p99 = percentile(everything, 95), percentile(everything, 99)
    verdict = "met" if p95 < GOAL_P95_MS and p99 < GOAL_P99_MS else "NOT met"
    lines.append(f"{'all pages':<16} {len(everything):>5} {percentile(everything, 50):>7.1f} "
                 f"{p95:>7.1f} {p99:>7.1f} {everything[-1]:>7.1f}")
    lines.append(f"{len(everything) / seconds:.1f} pages/s over {seconds:.0f} s; goal p95 < "
                 f"{GOAL_P95_MS} ms, p99 < {GOAL_P99_MS} ms: {verdict}")
    return lines


def main() -> None:
    env = _env()
    os.environ.update({k: v for k, v in env.items() if k == "QUARTERDECK_VAR_DIR"})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    for command in (["migrate", "-v0"], ["load_reference_data"], ["load_demo"]):
        _manage(env, *command)
    ids = prepare()
    queries = queries_per_page(ids)
    port = free_port()
    server = serve(env, port)
    from django.conf import settings

    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(f"{USERS} users ({', '.join(PERSONAS)}), think {THINK_SECONDS[0]:g}-"
          f"{THINK_SECONDS[1]:g} s, {SECONDS:.0f} s, database {database}, "
          f"{os.cpu_count()} cores, load average before {os.getloadavg()[0]:.2f}")
    results: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    started = time.monotonic()
    users = [User(port, PERSONAS[i % len(PERSONAS)], pages_for(ids, PERSONAS[i % 4]),
                  started + SECONDS, results, errors, seed=i) for i in range(USERS)]
    try:
        for user in users:
            user.start()
        for user in users:
            user.join(timeout=SECONDS + 60)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=10)
    print("\n".join(report(results, errors, queries, time.monotonic() - started)))
    # Anything else running on the machine competes with the server for its two cores.
    print(f"load average after {os.getloadavg()[0]:.2f}")
