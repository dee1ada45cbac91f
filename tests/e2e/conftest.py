"""Shared fixtures of the browser tests: Playwright driving Debian's chromium against a
live server (DESIGN.md, "Running"): uvicorn serving the ASGI application, as ``make run``
does, in a thread of the test process (so it sees the test database), since the pages'
event streams need an ASGI server (Django's threaded WSGI live server would read a stream
to its end before sending any of it).

No browser is ever downloaded: the tests use ``/usr/bin/chromium``. Without it they are
skipped with a line that says so, unless ``QUARTERDECK_REQUIRE_BROWSER=1`` (CI), where a
missing browser fails them.
"""

import os
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 15_000


def _require_browser() -> None:
    if CHROMIUM.exists():
        return
    reason = f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("QUARTERDECK_REQUIRE_BROWSER") == "1":
        pytest.fail(f"QUARTERDECK_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    print(f"\nSKIPPED browser tests: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser(django_db_setup, django_db_blocker):
    """One chromium per test module (Playwright's sync API).

    Playwright's sync API runs an event loop in this thread, so Django would refuse the
    tests' own database calls as "async"; they are plain synchronous calls here, hence
    ``DJANGO_ALLOW_ASYNC_UNSAFE`` while the browser runs. Not per session, so that the other
    tests never run with it.
    """
    _require_browser()
    from playwright.sync_api import sync_playwright

    saved = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                                  args=CHROMIUM_ARGS)
            try:
                yield chromium
            finally:
                chromium.close()
    finally:
        if saved is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = saved


class LiveServer:
    """uvicorn in a thread, on a free port of 127.0.0.1; ``url`` is its address.
    ``_live_server_modified_settings`` is what pytest-django's helper enables for each test
    (the host it is asked by)."""

    def __init__(self):
        import uvicorn
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
        from django.core.asgi import get_asgi_application
        from django.test.utils import modify_settings

        self._live_server_modified_settings = modify_settings(
            ALLOWED_HOSTS={"append": "127.0.0.1"})

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        config = uvicorn.Config(ASGIStaticFilesHandler(get_asgi_application()),
                                host="127.0.0.1", port=port, lifespan="off",
                                log_level="warning", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        end = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > end or not self.thread.is_alive():
                raise RuntimeError("the e2e server did not start")
            time.sleep(0.05)

    def stop(self):
        self.server.should_exit = True
        self.thread.join(timeout=5)


@pytest.fixture(scope="session")
def live_server():
    """The ASGI live server (replaces pytest-django's, whose name keeps its helper giving
    each test that uses it a transactional database)."""
    server = LiveServer()
    yield server
    server.stop()


@pytest.fixture
def new_context(browser, live_server):
    """A factory of fresh browser contexts (separate cookie jars: one per user)."""
    contexts = []

    def make():
        context = browser.new_context(base_url=live_server.url)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def log_in(context, username: str, password: str):
    """A new page of ``context`` logged in through the login form."""
    page = context.new_page()
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form button[type=submit]")
    page.wait_for_load_state()
    if "/accounts/login/" in page.url:
        raise AssertionError(f"could not log in as {username}: {page.inner_text('main')}")
    return page


@pytest.fixture
def login():
    return log_in


@pytest.fixture
def demo_wargame(new_context, login, monkeypatch):
    """Starts a wargame of the demo campaign as its GM does, from the Battles page's New
    wargame: ``demo_wargame("viking/single_combat", "north", "south")`` gives O'Toole's
    player the first side and Bosworth's the second, and returns ``(gm, otoole, bosworth,
    url)``: three logged-in pages (the GM's on the game) and the game's address.
    ``seed="7"`` plays the game on that seed instead of a secret one, so that the test's
    steps meet the same fall of the dice every run (on a secret seed, a hit may silence the
    guns a test means to fire next)."""
    from characters.models import Character
    from combat.demo import DEMO_PASSWORD, demo_load

    def start(scenario: str, otoole_side: str, bosworth_side: str, *, seed: str | None = None):
        if seed is not None:
            monkeypatch.setattr("combat.services.new_seed", lambda: seed)
        campaign, _ = demo_load()
        otoole_pc, bosworth_pc = (Character.objects.get(campaign=campaign, name=name)
                                  for name in ("Gregory O'Toole", "Bosworth"))
        gm, otoole, bosworth = (login(new_context(), user, DEMO_PASSWORD)
                                for user in ("gm", "otoole", "bosworth"))
        gm.goto(f"/combat/campaign/{campaign.pk}/")
        gm.click("text=New wargame")
        gm.check(f"input[name=scenario][value='{scenario}']")
        with gm.expect_navigation():
            gm.click("text=Choose the commanders")
        gm.select_option(f"select[name=side_{otoole_side}]", f"pc:{otoole_pc.pk}")
        gm.select_option(f"select[name=side_{bosworth_side}]", f"pc:{bosworth_pc.pk}")
        with gm.expect_navigation():
            gm.click("text=Begin the wargame")
        return gm, otoole, bosworth, gm.url

    return start
