"""The pushed event streams (``combat.streams``): read over the real async views, with the
four personas and canaries; catch-up from ``Last-Event-ID`` without duplicates; and the
time from a write on another database connection to the event on an open stream."""

import json
import re
import threading
import time

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connection
from django.test import AsyncClient
from django.urls import reverse

from combat.models import Encounter, EncounterEvent

from .conftest import ROUND_1

pytestmark = pytest.mark.django_db


def parse(text: str) -> list[dict]:
    """The events of a stream's text, as ``{"id", "event", "data"}`` (comments and the
    ``retry`` line left out)."""
    found = []
    for block in text.split("\n\n"):
        fields = dict(re.findall(r"^(id|event|data): (.*)$", block, re.M))
        if "data" in fields:
            found.append({"id": fields.get("id"), "event": fields.get("event"),
                          "data": json.loads(fields["data"])})
    return found


def read(user, url, *, headers=None, idle=0.6, action=None, elsewhere=False, until=None,
         limit=5.0, on_open=None):
    """What the stream at ``url`` sends to ``user``: ``(status, text, arrivals)``. Reads until
    nothing came for ``idle`` seconds (or ``until(text)`` holds, or ``limit`` seconds);
    ``arrivals`` are ``(time.time(), chunk)``.
    ``action()`` runs once the stream is open: on the test's own database connection, or
    ``elsewhere`` in a thread of its own (its own connection). ``on_open()`` runs as soon as
    the response's headers are there, before any of its body is read: when the browser's
    ``EventSource`` fires ``open`` and the page refreshes itself."""
    import asyncio

    async def run():
        client = AsyncClient()
        await client.aforce_login(user)
        response = await client.get(url, headers=headers or {})
        if response.status_code != 200:
            return response.status_code, "", []
        if on_open is not None:
            await sync_to_async(on_open)()
        chunks, arrivals = [], []
        stream = aiter(response.streaming_content)
        first = await anext(stream)
        chunks.append(first.decode())
        worker = None
        if action is not None and elsewhere:
            worker = threading.Thread(target=action)
            worker.start()
        elif action is not None:
            await sync_to_async(action)()
        end = time.monotonic() + limit
        pending = None
        try:
            while time.monotonic() < end:
                if pending is None:
                    pending = asyncio.ensure_future(anext(stream))
                done, _ = await asyncio.wait({pending}, timeout=idle)
                if not done:
                    if worker is None or not worker.is_alive():
                        break
                    continue
                try:
                    chunk = pending.result()
                except StopAsyncIteration:
                    pending = None
                    break
                pending = None
                text = chunk.decode()
                chunks.append(text)
                arrivals.append((time.time(), text))
                if until is not None and until("".join(chunks)):
                    break
        finally:
            if pending is not None:  # as when the browser goes away
                pending.cancel()
                await asyncio.gather(pending, return_exceptions=True)
            await stream.aclose()
            if worker is not None:
                worker.join()
        return 200, "".join(chunks), arrivals

    return async_to_sync(run)()


def refused(user, url) -> bool:
    """Whether the stream at ``url`` is a 404 for ``user`` (asked through the plain test
    client: its error page is rendered on the test's own database connection)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.get(url).status_code == 404


def canaries(encounter, player_b_pc):
    """Three events of the battle that only some may see: GM-only details, one for player
    B's PC alone, one for nobody but the GM."""
    last = encounter.events.order_by("-seq").first().seq
    EncounterEvent.objects.bulk_create([
        EncounterEvent(encounter=encounter, seq=last + 1, kind="note", text="a public note",
                       gm_data={"secret": "CANARY-GM-DATA"}),
        EncounterEvent(encounter=encounter, seq=last + 2, kind="note",
                       text="CANARY-FOR-B", visible_to=[f"pc:{player_b_pc.pk}"]),
        EncounterEvent(encounter=encounter, seq=last + 3, kind="note",
                       text="CANARY-GM-ONLY", visible_to=[]),
    ])
    return last


def test_a_battle_stream_carries_what_each_persona_may_see(
        book_battle, gm, player_a, player_b, outsider, campaign):
    bosworth = campaign.characters.get(name="Bosworth")
    assert bosworth.owner == player_b
    canaries(book_battle, bosworth)
    url = reverse("combat:stream", args=[book_battle.pk])
    secrets = [book_battle.seed, '"gm_data"', "CANARY-GM-DATA", "CANARY-GM-ONLY",
               " ".join(book_battle.stacked_remaining[-4:])]

    status, gm_text, _ = read(gm, url)
    assert status == 200
    for canary in ("CANARY-GM-DATA", "CANARY-FOR-B", "CANARY-GM-ONLY"):
        assert canary in gm_text
    seqs = [int(e["id"]) for e in parse(gm_text)]
    assert seqs == list(range(1, seqs[-1] + 1))  # every event, in order, once

    status, b_text, _ = read(player_b, url)
    assert "CANARY-FOR-B" in b_text and "a public note" in b_text
    status, a_text, _ = read(player_a, url)
    assert "a public note" in a_text
    assert "CANARY-FOR-B" not in a_text
    for text in (a_text, b_text):
        for secret in secrets:
            assert secret not in text
    assert refused(outsider, url)
    test_url = reverse("card_tests:stream", args=[campaign.pk, book_battle.pk])
    assert refused(gm, test_url)  # a battle is not a card test


def test_a_battle_being_prepared_is_on_no_players_stream(campaign, gm, player_a, outsider,
                                                          hermes, corsair):
    from combat.services import encounter_create
    from ships.services import naval_setup

    url = reverse("combat:campaign_stream", args=[campaign.pk])

    def prepare():
        encounter_create(campaign=campaign, user=gm, engine="btq_naval",
                         title="CANARY-SECRET-AMBUSH",
                         setup=naval_setup(pc_ship=hermes, enemy_ship=corsair,
                                           weather="good_wind"), ships=[hermes, corsair])

    # A GM's stream says so at once; a player's says nothing (seen: the list before).
    gm_seen = read(gm, url, action=prepare, until=lambda t: "CANARY" in t)[1]
    assert "CANARY-SECRET-AMBUSH" in gm_seen
    player_seen = read(player_a, url, headers={"Last-Event-ID": "stale"})[1]
    events = parse(player_seen)
    assert [e["event"] for e in events] == ["campaign"]
    assert "CANARY" not in player_seen and events[0]["data"]["battles"] == []
    assert refused(outsider, url)
    # The player opening it is told it has not begun, and nothing more.
    from django.test import Client
    client = Client()
    client.force_login(player_a)
    page = client.get(reverse("combat:detail", args=[Encounter.objects.get().pk]))
    assert page.status_code == 200
    assert "has not begun" in page.content.decode()
    assert "CANARY" not in page.content.decode()
    client.force_login(outsider)
    assert client.get(reverse("combat:detail", args=[Encounter.objects.get().pk])
                      ).status_code == 404


def test_a_card_test_stream_for_every_member_and_no_outsider(race, turn, campaign, gm,
                                                             player_a, outsider):
    test = race()
    url = reverse("card_tests:stream", args=[campaign.pk, test.pk])
    assert refused(outsider, url)
    status, text, _ = read(player_a, url)
    assert status == 200
    before = parse(text)
    turn(test, player_a, "8H 2S 3D 4C 5H 6S 7D 8C 9H")
    gm_events = parse(read(gm, url)[1])
    after = parse(read(player_a, url, headers={"Last-Event-ID": before[-1]["id"]})[1]
                  if before else read(player_a, url)[1])
    assert after and all(int(e["id"]) > int(before[-1]["id"] if before else 0)
                         for e in after)
    assert "jones-secret" not in json.dumps(after)
    assert [e["id"] for e in gm_events][-len(after):] == [e["id"] for e in after]


def test_reconnecting_with_the_last_event_id_sends_no_event_twice(book_battle, play, gm,
                                                                   player_b):
    url = reverse("combat:stream", args=[book_battle.pk])
    first = parse(read(player_b, url)[1])
    play(book_battle, ROUND_1[:4])
    again = parse(read(player_b, url, headers={"Last-Event-ID": first[-1]["id"]})[1])
    ids = [int(e["id"]) for e in first + again]
    assert again and ids == sorted(set(ids))  # none twice, in order
    everything = parse(read(player_b, url)[1])
    assert [int(e["id"]) for e in everything] == ids
    # ?after= (the page's last event) is the same as Last-Event-ID; junk counts as 0.
    assert parse(read(player_b, f"{url}?after={first[-1]['id']}")[1]) == again
    assert len(parse(read(player_b, url, headers={"Last-Event-ID": "x"})[1])) == len(ids)


@pytest.mark.django_db(transaction=True)
def test_an_event_written_on_another_connection_reaches_an_open_stream(book_battle, gm,
                                                                       player_b):
    """The write happens in another thread, on its own database connection (as a worker
    process or another web process would), while the stream is open; the stream carries it.
    How fast is measured by ``benchmarks``, not here."""
    from combat.services import encounter_act
    from rules.engine import get_engine

    url = reverse("combat:stream", args=[book_battle.pk])

    def act():
        encounter = Encounter.objects.get(pk=book_battle.pk)
        decision = get_engine(encounter.engine).pending(encounter.state)[0]
        encounter_act(encounter=encounter, user=gm, actor=decision.actor,
                      decision_kind=decision.kind, choice="3",
                      expected_version=encounter.version)
        connection.close()

    _, text, _ = read(player_b, url, action=act, elsewhere=True, limit=30.0,
                      until=lambda t: "start.distance" in t)
    assert "start.distance" in text


def test_the_campaign_stream_tells_every_member_of_a_test_called(race, campaign, player_b):
    url = reverse("combat:campaign_stream", args=[campaign.pk])
    called = []
    _, text, _ = read(player_b, url, action=lambda: called.append(race()),
                      until=lambda t: "event: campaign" in t)
    events = parse(text)
    assert [e["event"] for e in events] == ["campaign"]
    assert [t["id"] for t in events[0]["data"]["tests"]] == [called[0].pk]
    assert "jones-secret" not in text and "intent" not in text
    # Reconnecting with that id: nothing new, nothing sent again.
    again = parse(read(player_b, url, headers={"Last-Event-ID": events[0]["id"]})[1])
    assert again == []


def test_a_change_made_as_the_stream_opens_is_pushed(race, campaign, player_b):
    """The page refreshes itself when the stream opens (live.js); a change made just after
    that refresh, before the stream's first look at the database, is pushed all the same:
    the headers go out only once the stream has its wake-ups and its baseline."""
    url = reverse("combat:campaign_stream", args=[campaign.pk])
    called = []
    _, text, _ = read(player_b, url, on_open=lambda: called.append(race()),
                      until=lambda t: "event: campaign" in t, limit=3.0)
    assert [t["id"] for t in parse(text)[0]["data"]["tests"]] == [called[0].pk]
