"""Server-sent event streams of the live pages (issue 7, "Events pushed, not polled").

Three streams, each an async view served by the ASGI server (a stream holds no thread: its
database reads are short ``sync_to_async`` calls between waits):

* a battle's, ``/combat/<pk>/events/``, and a card test's,
  ``/campaigns/<c>/tests/<pk>/events/``: first every event after the client's
  ``Last-Event-ID`` (an event's ``seq``; the browser's ``EventSource`` sends it when it
  reconnects, or ``?after=``), then each new one as it is written, as ``event: encounter``
  with ``id: <seq>`` and the event as ``combat.selectors.events_for`` gives it to this
  viewer (so a player's stream never carries what the player may not see), in order, each
  once. A change that writes no event (a job's progress, a cancel) is ``event: state``
  (no id) with the change's token.
* a campaign's, ``/combat/campaign/<pk>/events/``: ``event: campaign`` whenever the
  battles, card tests and characters being made that the viewer may see change (one is
  created, begins, moves on, ends), with ``id`` the token of that list and the list itself
  (``{"battles": [{id, title, status}], "tests": [{id, status}], "drafts": [{id, status,
  version}], "missions": [{id, status, successes, failed}]}``: a mission's counters move when
  a challenge is met or failed).

Each stream looks at the database when woken (``combat.push``: Redis pub/sub, or a poll of
200 ms without Redis) and compares a cheap signature before reading more. It closes after
:data:`STREAM_SECONDS` (so a server restart or a changed membership takes effect); the
browser reconnects by itself after ``retry`` and catches up from the last id it saw. A
viewer who loses access (removed from the campaign) gets ``event: gone`` and the end.
"""

from __future__ import annotations

import hashlib
import json
import re
import time

from asgiref.sync import sync_to_async
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Max, OuterRef, Subquery
from django.http import Http404, StreamingHttpResponse
from django.views.decorators.http import require_GET

from campaigns.missions.models import Challenge, ChallengeResult, Mission
from campaigns.missions.selectors import challenges_for_user, missions_for_user
from campaigns.selectors import campaign_for_user, membership_role
from combat import push, selectors
from combat.card_tests import selectors as card_test_selectors
from combat.creation import selectors as creation_selectors
from combat.models import Encounter, Job

STREAM_SECONDS = 60.0
"""How long one connection lasts before the browser is asked to reconnect."""
HEARTBEAT_SECONDS = 15.0
"""A comment line this often keeps proxies and phones from closing an idle stream."""
RETRY_MS = 1000
"""How long the browser waits before it reconnects (sent as ``retry:``)."""

_ID = re.compile(r"^\s*(\d{1,9})\s*$")


def sse(data, *, event: str | None = None, id: str | int | None = None) -> str:
    """One server-sent event: ``data`` as JSON on one line."""
    head = f"id: {id}\n" if id is not None else ""
    head += f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data, cls=DjangoJSONEncoder, separators=(',', ':'))}\n\n"


def last_event_id(request) -> int:
    """The ``seq`` after which the client wants events: ``Last-Event-ID`` (a reconnect),
    else ``?after=`` (the page's last event), else 0. Anything but a number counts as 0."""
    raw = request.headers.get("Last-Event-ID") or request.GET.get("after") or ""
    match = _ID.match(raw)
    return int(match.group(1)) if match else 0


async def stream_response(stream) -> StreamingHttpResponse:
    """The response of an event stream, sent only once the stream has made its first message.

    The browser's ``EventSource`` fires ``open`` (live.js then refreshes the page's live
    parts) when the headers arrive; a stream's first message comes after it has subscribed to
    its wake-ups and taken the signature it compares against. Holding the headers until then
    closes the gap in which a change was neither in the refreshed page (made after it) nor
    pushed (made before the stream's first look)."""
    first = await anext(stream)

    async def primed():
        yield first
        async for message in stream:
            yield message

    response = StreamingHttpResponse(primed(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def _encounter_signature(encounter_id: int):
    """What changes whenever anything a page of the encounter shows changes: its last
    event, version, status and the state of the job its pages show
    (``selectors.latest_job``), in one query."""
    latest_job = Job.objects.filter(encounter=OuterRef("pk")).order_by(
        *selectors.shown_job_order())
    return Encounter.objects.filter(pk=encounter_id).annotate(
        last=Max("events__seq"),
        job=Subquery(latest_job.values("pk")[:1]),
        job_status=Subquery(latest_job.values("status")[:1]),
        job_steps=Subquery(latest_job.values("steps")[:1]),
    ).values_list("last", "version", "status", "job", "job_status", "job_steps").first()


def _encounter_news(user, encounter_id: int, access, after: int) -> tuple[list[dict], str]:
    """The events after ``after`` that ``user`` may see and the token of the state he is
    shown; ``Http404`` if he may no longer see the encounter."""
    encounter = access(user, encounter_id)
    participants = selectors.participant_ids_for(user, encounter)
    rows = selectors.events_for(encounter, participants, after=after)
    for row in rows:
        row.pop("created_at")
    job = selectors.latest_job(encounter)
    token = f"{encounter.version}-{encounter.status}-" + (
        f"{job.pk}-{job.status}-{job.steps}" if job else "none")
    return rows, token


async def _watch(channels: list[str], signature, news, seconds: float):
    """The loop every stream runs: when woken (``combat.push``) it reads ``signature()``
    (sync, one cheap query) and, if that changed since the last look, sends what
    ``news()`` (sync) returns, a list of :func:`sse` messages; ``Http404`` from ``news``
    (the viewer lost access) sends ``event: gone`` and ends. The first look also sends the
    ``retry`` interval; a comment line every :data:`HEARTBEAT_SECONDS` keeps an idle stream
    open; it ends after ``seconds``."""
    end = time.monotonic() + seconds
    seen = None
    beat = time.monotonic()
    async with push.waker(channels) as (wake, poll):
        while time.monotonic() < end:
            now = await sync_to_async(signature)()
            if now != seen:
                try:
                    messages = await sync_to_async(news)()
                except Http404:
                    yield sse({}, event="gone")
                    return
                for message in messages:
                    yield message
                if seen is None:  # the first look: from here on, every change is sent
                    yield f"retry: {RETRY_MS}\n\n"
                seen = now
                beat = time.monotonic()
            elif time.monotonic() - beat > HEARTBEAT_SECONDS:
                yield ": still here\n\n"
                beat = time.monotonic()
            await wake.wait(poll)


async def encounter_events(user, encounter_id: int, access, after: int, *,
                           seconds: float = STREAM_SECONDS):
    """The stream of one encounter for ``user`` (module docstring), from ``after``.
    ``access(user, encounter_id)`` returns the encounter or raises ``Http404``."""
    shown = {"after": after, "token": None}

    def news() -> list[str]:
        rows, token = _encounter_news(user, encounter_id, access, shown["after"])
        messages = [sse(row, event="encounter", id=row["seq"]) for row in rows]
        if rows:
            shown["after"] = rows[-1]["seq"]
        elif shown["token"] is not None and token != shown["token"]:
            messages.append(sse({"token": token}, event="state"))
        shown["token"] = token
        return messages

    async for message in _watch([push.encounter_channel(encounter_id)],
                                lambda: _encounter_signature(encounter_id), news, seconds):
        yield message


def _campaign_signature(campaign_id: int):
    encounters = Encounter.objects.filter(campaign_id=campaign_id)
    missions = Mission.objects.filter(campaign_id=campaign_id)
    challenges = Challenge.objects.filter(campaign_id=campaign_id)
    return (encounters.aggregate(Max("updated_at"), Max("pk")), encounters.count(),
            missions.aggregate(Max("updated_at"), Max("pk")),
            challenges.aggregate(Max("version"), Max("pk")), challenges.count(),
            ChallengeResult.objects.filter(challenge__campaign_id=campaign_id).count())


def _campaign_list(user, campaign_id: int) -> tuple[dict, str]:
    """What ``user`` may see of the campaign's encounters and its token; ``Http404`` if he
    may not see the campaign (any more)."""
    campaign = campaign_for_user(user, campaign_id)
    battles = [{"id": e.pk, "title": e.title, "status": e.status}
               for e in selectors.encounters_for_user(user, campaign).order_by("pk")]
    tests = [{"id": pk, "status": status, "version": version}
             for pk, status, version in card_test_selectors.card_tests_for_user(
                 user, campaign).order_by("pk").values_list("pk", "status", "version")]
    drafts = [{"id": pk, "status": status, "version": version}
              for pk, status, version in creation_selectors.drafts_for_user(
                  user, campaign).order_by("pk").values_list("pk", "status", "version")]
    missions = [{"id": pk, "status": status, "successes": met, "failed": failed}
                for pk, status, met, failed in missions_for_user(user, campaign).order_by(
                    "pk").values_list("pk", "status", "successes", "failed")]
    challenges = [{"id": pk, "status": status, "version": version, "played": played}
                  for pk, status, version, played in challenges_for_user(user, campaign)
                  .order_by("pk").values_list("pk", "status", "version", "result__met")]
    listing = {"battles": battles, "tests": tests, "drafts": drafts, "missions": missions,
               "challenges": challenges, "role": membership_role(user, campaign)}
    digest = hashlib.sha256(json.dumps(listing, sort_keys=True).encode()).hexdigest()[:16]
    return listing, digest


async def campaign_events(user, campaign_id: int, seen: str, *,
                          seconds: float = STREAM_SECONDS):
    """The stream of one campaign's page for ``user`` (module docstring). ``seen`` is the
    token of the list the client last had (``Last-Event-ID``): a different one is sent at
    once."""
    shown = {"token": seen or None}

    def news() -> list[str]:
        listing, token = _campaign_list(user, campaign_id)
        changed = shown["token"] is not None and token != shown["token"]
        shown["token"] = token
        return [sse(listing, event="campaign", id=token)] if changed else []

    async for message in _watch([push.campaign_channel(campaign_id)],
                                lambda: _campaign_signature(campaign_id), news, seconds):
        yield message


def _card_test_access(campaign_id: int):
    def access(user, test_id):
        campaign = campaign_for_user(user, campaign_id)
        return card_test_selectors.card_test_for_user(user, test_id, campaign)
    return access


@login_required
@require_GET
async def battle_stream(request, pk):
    user = await request.auser()
    await sync_to_async(selectors.encounter_for_user)(user, pk)
    return await stream_response(encounter_events(user, pk, selectors.encounter_for_user,
                                      last_event_id(request)))


@login_required
@require_GET
async def card_test_stream(request, pk, test_pk):
    user = await request.auser()
    access = _card_test_access(pk)
    await sync_to_async(access)(user, test_pk)
    return await stream_response(encounter_events(user, test_pk, access, last_event_id(request)))


@login_required
@require_GET
async def campaign_stream(request, campaign_id):
    user = await request.auser()
    await sync_to_async(campaign_for_user)(user, campaign_id)
    seen = request.headers.get("Last-Event-ID") or request.GET.get("seen") or ""
    return await stream_response(campaign_events(user, campaign_id, seen[:64]))
